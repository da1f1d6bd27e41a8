/* tests/test_core.c -- core utilities: errors, RNG determinism, atomic output. */
#include "cli.h"
#include "iw.h"
#include "testutil.h"

#include <signal.h>
#include <sys/wait.h>

#include <string.h>
#include <unistd.h>

static void rng_same_seed_same_stream(void)
{
	struct iw_rng a, b;
	iw_rng_seed(&a, 42);
	iw_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		CU_ASSERT_EQUAL(iw_rng_next(&a), iw_rng_next(&b));
	iw_rng_seed(&b, 43);
	CU_ASSERT_NOT_EQUAL(iw_rng_next(&a), iw_rng_next(&b));
}

static void first_error_is_kept(void)
{
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_fail(&e, IW_EINPUT, "a.xml:3: expected x, found y"), -IW_EINPUT);
	iw_fail(&e, IW_ERUN, "later");
	CU_ASSERT_EQUAL(e.code, IW_EINPUT);
	CU_ASSERT_STRING_EQUAL(e.msg, "a.xml:3: expected x, found y");
}

static void aborted_output_leaves_nothing(void)
{
	const char *d = tu_tmpdir();
	char path[600];
	snprintf(path, sizeof path, "%s/out.txt", d);
	struct iw_out o;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_out_open(&o, path, 1, &e), 0);
	fputs("partial", o.f);
	iw_out_abort(&o);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	CU_ASSERT_EQUAL_FATAL(iw_out_open(&o, path, 1, &e), 0);
	fputs("complete", o.f);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* not visible until committed */
	CU_ASSERT_EQUAL(iw_out_commit(&o, &e), 0);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
}

/* SIGINT while an output is being written (run -o, merge, calibrate -o, a
 * sweep's second signal): the program dies of the signal, exit 130 in the
 * shell as before, and leaves neither the output nor its temporary name,
 * which it left half-written. */
static void interrupted_output_leaves_nothing(void)
{
	char path[512], tmp[600];
	snprintf(path, sizeof path, "%s/sigint.h5", tu_tmpdir());
	fflush(NULL);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct iw_out o;
		struct iw_err e = {0};
		cli_signal_cleanup(SIGINT);
		if (iw_out_open(&o, path, 1, &e) != 0)
			_exit(9);
		fputs("half a file", o.f);
		fflush(o.f);
		raise(SIGINT);
		_exit(8); /* (not reached) */
	}
	int st = 0;
	CU_ASSERT_EQUAL_FATAL(waitpid(pid, &st, 0), pid);
	CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)pid);
	CU_ASSERT_NOT_EQUAL(access(tmp, F_OK), 0);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

static void injected_allocation_failure(void)
{
	iw_alloc_fail_after(1);
	void *a = iw_malloc(8), *b = iw_malloc(8);
	iw_alloc_fail_after(-1);
	CU_ASSERT_PTR_NOT_NULL(a);
	CU_ASSERT_PTR_NULL(b);
	iw_free(a);
}

void suite_core(void)
{
	TU_SUITE("core", {"rng_same_seed_same_stream", rng_same_seed_same_stream},
		 {"first_error_is_kept", first_error_is_kept},
		 {"aborted_output_leaves_nothing", aborted_output_leaves_nothing},
		 {"interrupted_output_leaves_nothing", interrupted_output_leaves_nothing},
		 {"injected_allocation_failure", injected_allocation_failure});
}
