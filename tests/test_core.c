/* tests/test_core.c -- core utilities: errors, RNG determinism, atomic output. */
#include "iw.h"
#include "testutil.h"

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
		 {"injected_allocation_failure", injected_allocation_failure});
}
