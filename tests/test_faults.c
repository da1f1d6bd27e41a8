/*
 * tests/test_faults.c -- fault injection: what a user sees when memory, the
 * disk or the inputs fail.  Every case must end in a clean error (exit 1 for
 * a failed run, 3 for invalid input, a message naming the file), never a
 * crash or a hang, and never leave a partial output file behind.  Under
 * `make check SAN=1` LeakSanitizer also checks the failed paths leak nothing.
 */
#include "iw.h"
#include "reports.h"
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out[65536], err[65536];

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Files in `dir` whose name contains `part` (left-over temporaries). */
static int count_named(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		n += strstr(de->d_name, part) != NULL;
	closedir(d);
	return n;
}

/* h5dump reads the whole file: exit 0 means a complete, valid HDF5 file. */
static int h5_valid(const char *path)
{
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "h5dump -H '%s' >/dev/null 2>&1", path);
	return system(cmd) == 0;
}

/* ---- allocation failure at every allocation site of a small run --------- */

static int small_run(const char *h5, struct iw_err *e)
{
	/* One small SM keeps the count of allocations (about 1200: every scheme,
	 * a generated kernel and a trace, the HDF5 result) and so the loop short;
	 * the allocation sites are those of a full-size run; a coefficient with
	 * an error adds the model uncertainty's). */
	char *sets[] = {"run.workload_scale=0.001", "gpu.sms=1", "gpu.subcores=1", "sm.max_warps=8",
			"tech.energy.pipe.inst.std_error=10%"};
	struct iw_job job;
	int rc = iw_job_init(&job, "v100", "12nm", sets, IW_ARRAY_LEN(sets), "all", "vecadd,tests/data/traces/hand/v4", e);
	job.verbose = 0;
	if (rc == 0)
		rc = iw_job_run(&job, e);
	struct iw_model_unc unc = {0};
	if (rc == 0)
		rc = iw_model_unc_of(&unc, &job.tech, e);
	char *used = NULL;
	if (rc == 0 && !(used = iw_tech_to_xml(&job.tech)))
		rc = iw_fail(e, IW_ERUN, "out of memory");
	if (rc == 0) {
		struct iw_h5_meta m = {"test", job.cfg.name, job.config_xml, job.tech.name,
				       job.tech.xml_text ? job.tech.xml_text : "", NULL, 0, &unc, used, NULL};
		rc = iw_h5_write(h5, &m, job.rows, job.nrows, e);
	}
	iw_free(used);
	iw_model_unc_free(&unc);
	iw_job_free(&job);
	return rc;
}

static void every_allocation_failure_is_clean(void)
{
	const char *dir = tu_tmpdir();
	char h5[600];
	snprintf(h5, sizeof h5, "%s/run.h5", dir);
	/* Paths in the job are relative to the source tree. */
	char cwd[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
	CU_ASSERT_EQUAL_FATAL(chdir(tu_path("")), 0);
	struct iw_err e = {0};
	long before = iw_alloc_count();
	CU_ASSERT_EQUAL_FATAL(small_run(h5, &e), 0);
	long count = iw_alloc_count() - before;
	CU_ASSERT(count > 10);
	CU_ASSERT(h5_valid(h5));
	unlink(h5);
	int failures = 0;
	/* The trace's deliberate unknown opcode warns on every attempt: keep
	 * standard error for the findings. */
	int saved = tu_stderr_off();
	for (long n = 0; n < count; n++) {
		iw_err_clear(&e);
		iw_alloc_fail_after(n);
		int rc = small_run(h5, &e);
		iw_alloc_fail_after(-1);
		if (rc != -IW_ERUN || e.code != IW_ERUN) {
			if (failures++ < 5)
				dprintf(saved, "allocation %ld of %ld failed: status %d, message '%s'\n", n, count, rc,
					e.msg);
		}
		/* A failed run leaves neither the result nor its temporary file. */
		if (exists(h5) || count_named(dir, ".tmp.")) {
			if (failures++ < 5)
				dprintf(saved, "allocation %ld of %ld failed: output left behind\n", n, count);
			unlink(h5);
		}
	}
	tu_stderr_back(saved);
	if (failures)
		fprintf(stderr, "%d of %ld allocation failures were not handled cleanly (first ones above)\n", failures, count);
	CU_ASSERT_EQUAL(failures, 0);
	CU_ASSERT_EQUAL(chdir(cwd), 0);
}

/* small_run's results file at tmpdir/NAME (its path into h5), made from
 * the source tree with standard error quiet: 0, or the run's status. */
static int small_results(const char *name, char *h5, size_t n)
{
	char cwd[1024];
	struct iw_err e = {0};
	snprintf(h5, n, "%s/%s", tu_tmpdir(), name);
	if (!getcwd(cwd, sizeof cwd) || chdir(tu_path("")) != 0)
		return -1;
	int saved = tu_stderr_off();
	int rc = small_run(h5, &e);
	tu_stderr_back(saved);
	return chdir(cwd) == 0 ? rc : -1;
}

/* Reading a results file back (report, merge, --resume) reports every
 * allocation failure as one, not as a file that lacks what it holds. */
static void every_allocation_failure_of_a_read_is_clean(void)
{
	char h5[600];
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(small_results("read.h5", h5, sizeof h5), 0);
	struct iw_results r;
	long before = iw_alloc_count();
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h5, &r, &e), 0);
	long count = iw_alloc_count() - before;
	CU_ASSERT(r.unc.n == 1 && r.rows[1].nsens == 1); /* (the sensitivities are read too) */
	iw_results_free(&r);
	int failures = 0;
	for (long n = 0; n < count; n++) {
		iw_alloc_fail_after(n);
		int rc = iw_h5_read(h5, &r, &e);
		iw_alloc_fail_after(-1);
		if (rc != -IW_ERUN || !strstr(e.msg, "out of memory")) {
			if (failures++ < 5)
				fprintf(stderr, "\nallocation %ld of %ld: status %d, message '%s'\n", n, count, rc, e.msg);
			if (rc == 0)
				iw_results_free(&r);
		}
	}
	CU_ASSERT_EQUAL(failures, 0);
}

/* A report (its figures' data and scripts, tables, JSON) of a results file
 * reports every allocation failure as one. */
static void every_allocation_failure_of_a_report_is_clean(void)
{
	char h5[600], dir[700];
	snprintf(dir, sizeof dir, "%s/report", tu_tmpdir());
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(small_results("rep.h5", h5, sizeof h5), 0);
	struct iw_results r;
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h5, &r, &e), 0);
	FILE *null = fopen("/dev/null", "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(null);
	struct iw_report_opts o = {NULL, 0, 1, NULL}; /* (not rendered: gnuplot runs in a child) */
	long before = iw_alloc_count();
	CU_ASSERT_EQUAL_FATAL(iw_report_write(&r, dir, &o, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_report_json(null, &r, &e), 0);
	long count = iw_alloc_count() - before;
	CU_ASSERT(count > 10);
	int failures = 0;
	for (long n = 0; n < count; n++) {
		iw_err_clear(&e);
		iw_alloc_fail_after(n);
		int rc = iw_report_write(&r, dir, &o, &e);
		if (rc == 0)
			rc = iw_report_json(null, &r, &e);
		iw_alloc_fail_after(-1);
		if (rc != -IW_ERUN || !strstr(e.msg, "out of memory")) {
			if (failures++ < 5)
				fprintf(stderr, "\nallocation %ld of %ld: status %d, message '%s'\n", n, count, rc, e.msg);
		}
	}
	fclose(null);
	iw_results_free(&r);
	CU_ASSERT_EQUAL(failures, 0);
}

/* ---- the program under hostile conditions ------------------------------ */

static const char *bin(void)
{
	const char *b = getenv("IW_BIN");
	return b ? b : IW_SRCDIR "/build/issuewatt";
}

static void slurp(const char *path, char *buf, size_t n)
{
	buf[0] = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	size_t r = fread(buf, 1, n - 1, f);
	buf[r] = 0;
	fclose(f);
}

/* Run the program from the source tree after shell `setup` (limits, traps);
 * capture stdout (unless `stdout_to` names a file) and stderr; exit code or -1. */
static int run_with(const char *setup, const char *stdout_to, const char *args)
{
	const char *tmp = tu_tmpdir();
	char o[600], e[600], cmd[8192];
	snprintf(o, sizeof o, "%s/stdout", tmp);
	snprintf(e, sizeof e, "%s/stderr", tmp);
	snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s >'%s' 2>'%s' </dev/null", IW_SRCDIR, setup, bin(), args,
		 stdout_to ? stdout_to : o, e);
	int st = system(cmd);
	slurp(o, out, sizeof out);
	slurp(e, err, sizeof err);
	if (stdout_to)
		out[0] = 0;
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

#define SMALL "run -q -w vecadd --scale 0.02 -s inorder,loog"

/* An output folder that cannot be written: exit 1, the message names the
 * file, nothing left.  /proc refuses new files even to root (who ignores
 * permission bits), so the test means the same whoever runs it. */
static void unwritable_output_folder(void)
{
	CU_ASSERT_EQUAL(run_with("", NULL, SMALL " -o /proc/issuewatt-test.h5"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/proc/issuewatt-test.h5"));
	CU_ASSERT_FALSE(exists("/proc/issuewatt-test.h5"));
	char args[1024];
	const char *dir = tu_tmpdir();
	/* A folder that does not exist, and a "folder" that is a file. */
	snprintf(args, sizeof args, SMALL " -o '%s/missing/r.h5'", dir);
	CU_ASSERT_EQUAL(run_with("", NULL, args), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "missing/r.h5"));
	snprintf(args, sizeof args, "%s/file", dir);
	FILE *f = fopen(args, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	snprintf(args, sizeof args, SMALL " -o '%s/file/r.h5'", dir);
	CU_ASSERT_EQUAL(run_with("", NULL, args), 1);
	if (geteuid() != 0) { /* permission bits bind everyone else */
		char ro[700];
		snprintf(ro, sizeof ro, "%s/ro", dir);
		CU_ASSERT_EQUAL_FATAL(mkdir(ro, 0555), 0);
		snprintf(args, sizeof args, SMALL " -o '%s/r.h5'", ro);
		CU_ASSERT_EQUAL(run_with("", NULL, args), 1);
		CU_ASSERT_EQUAL(count_named(ro, "r.h5"), 0);
	}
}

/* A full disk: the HDF5 result hits the file-size limit mid-file (SIGXFSZ
 * ignored, so write() fails with EFBIG as on a full disk), and a summary to
 * /dev/full (ENOSPC).  Exit 1, no result and no temporary left. */
static void full_disk(void)
{
	const char *dir = tu_tmpdir();
	char args[1024], h5[700];
	snprintf(h5, sizeof h5, "%s/r.h5", dir);
	snprintf(args, sizeof args, SMALL " -o '%s'", h5);
	/* ulimit -f counts 512-byte blocks in POSIX sh: 8 KiB, below the result's size. */
	CU_ASSERT_EQUAL(run_with("trap '' XFSZ; ulimit -f 16;", NULL, args), 1);
	CU_ASSERT_FALSE(exists(h5));
	CU_ASSERT_EQUAL(count_named(dir, ".tmp."), 0);
	CU_ASSERT(strlen(err) > 0);
	/* The same run without the limit succeeds: the limit was the cause. */
	CU_ASSERT_EQUAL(run_with("", NULL, args), 0);
	CU_ASSERT(h5_valid(h5));
	/* Standard output on a full device: the summary is lost, so the run failed. */
	CU_ASSERT_EQUAL(run_with("", "/dev/full", SMALL), 1);
	CU_ASSERT_EQUAL(run_with("", "/dev/full", SMALL " --format csv"), 1);
	CU_ASSERT_EQUAL(run_with("", "/dev/full", "list workloads"), 1);
	/* Calibration outputs (HDF5 fit report, calibrated file) under the limit. */
	char d2[600], cmd[4096], a2[2400], h2[700];
	snprintf(d2, sizeof d2, "%s/cal", dir);
	snprintf(cmd, sizeof cmd,
		 "set -e; mkdir '%s'; cd '%s'; cp tests/fuzz/seeds/calib_spec/spec.xml '%s/';"
		 "for n in 8 16 32; do cp tests/data/reports/yosys_stat_liberty_array_mult_$n.txt '%s/m'$n.txt; done;"
		 "printf '<?xml version=\"1.0\"?>\\n<tech name=\"base\">\\n<coef name=\"area.mult.n2\" value=\"1\" "
		 "unit=\"um2\" source=\"guess\"/>\\n</tech>\\n' > '%s/base.xml'",
		 d2, IW_SRCDIR, d2, d2, d2);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(a2, sizeof a2, "calibrate '%s/spec.xml' -o '%s/cal.xml' --h5 '%s/fit.h5'", d2, d2, d2);
	CU_ASSERT_EQUAL(run_with("trap '' XFSZ; ulimit -f 4;", NULL, a2), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "fit.h5"));
	CU_ASSERT_EQUAL(count_named(d2, "fit.h5"), 0);
	CU_ASSERT_EQUAL(count_named(d2, "cal.xml"), 0);
	CU_ASSERT_EQUAL(run_with("", NULL, a2), 0);
	snprintf(h2, sizeof h2, "%s/fit.h5", d2);
	CU_ASSERT(h5_valid(h2));
	CU_ASSERT_EQUAL(run_with("", "/dev/full", a2), 1);
}

/* SIGKILL while the result is being written: the target is absent or a
 * complete, valid file -- never a partial one.  The kill is sent as soon as
 * the temporary file appears (the writing has started). */
static void sigkill_during_output(void)
{
	const char *dir = tu_tmpdir();
	char h5[700];
	snprintf(h5, sizeof h5, "%s/r.h5", dir);
	int killed_mid_write = 0;
	for (int attempt = 0; attempt < 5; attempt++) {
		unlink(h5);
		pid_t pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0) {
			int fd = open("/dev/null", 01);
			dup2(fd, 1);
			dup2(fd, 2);
			if (chdir(IW_SRCDIR) != 0)
				_exit(127);
			execl(bin(), "issuewatt", "run", "-q", "-w", "vecadd", "--scale", "0.05", "-o", h5, (char *)NULL);
			_exit(127);
		}
		int st = 0;
		for (;;) {
			if (count_named(dir, ".tmp.")) {
				kill(pid, SIGKILL);
				killed_mid_write++;
				break;
			}
			if (waitpid(pid, &st, WNOHANG) == pid) {
				pid = 0;
				break;
			}
			struct timespec ts = {0, 200000};
			nanosleep(&ts, NULL);
		}
		if (pid)
			waitpid(pid, &st, 0);
		CU_ASSERT(!exists(h5) || h5_valid(h5));
		/* clear the killed run's temporary for the next attempt */
		char cmd[800];
		snprintf(cmd, sizeof cmd, "rm -f '%s'/*.tmp.*", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	/* The temporary was seen at least once, so the kill did land mid-output. */
	CU_ASSERT(killed_mid_write > 0);
}

/* Copy the leading `fraction` of a fixture's bytes to dst. */
static void write_prefix(const char *src_rel, const char *dst, double fraction)
{
	FILE *in = fopen(tu_path(src_rel), "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	static char buf[4 << 20];
	size_t n = fread(buf, 1, sizeof buf, in);
	fclose(in);
	FILE *o = fopen(dst, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	size_t keep = (size_t)((double)n * fraction);
	if (keep)
		CU_ASSERT_EQUAL(fwrite(buf, 1, keep, o), keep);
	fclose(o);
}

/* Empty and truncated inputs of every kind: exit 3 with the file's name
 * (an empty kernelslist.g included: it would otherwise "run" nothing). */
static void truncated_and_empty_inputs(void)
{
	const char *dir = tu_tmpdir();
	static const struct {
		const char *fixture, *name, *args; /* args: %s = the damaged file */
		double fraction;
	} cases[] = {
		{"tests/data/traces/hand/v4/kernel-1.traceg", "kernel-1.traceg", "run -q -s inorder -w '%s'", 0},
		{"tests/data/traces/hand/v4/kernel-1.traceg", "kernel-1.traceg", "run -q -s inorder -w '%s'", 0.5},
		{"tests/data/traces/hand/v4/kernel-1.traceg", "kernel-1.traceg", "trace-info '%s'", 0.7},
		{"tests/data/traces/vectoradd-sm61-xz/kernel-1.traceg.xz", "kernel-1.traceg.xz", "trace-info '%s'", 0.5},
		{"tests/data/traces/hand/multi/kernelslist.g", "kernelslist.g", "trace-info '%s'", 0},
		{"perf/presets/v100.xml", "c.xml", "run -q -w vecadd --scale 0.02 -s inorder -c '%s'", 0},
		{"perf/presets/v100.xml", "c.xml", "run -q -w vecadd --scale 0.02 -s inorder -c '%s'", 0.5},
		{"tech/12nm.xml", "t.xml", "run -q -w vecadd --scale 0.02 -s inorder -t '%s'", 0},
		{"tech/12nm.xml", "t.xml", "area -t '%s'", 0.5},
		{"tests/data/reports/yosys_stat_liberty_array_mult_8.txt", "r.txt", "calibrate --show '%s'", 0},
		{"tests/data/reports/yosys_stat_liberty_array_mult_8.txt", "r.txt", "calibrate --show '%s'", 0.3},
		{"tests/data/reports/vivado2024.1_power_rfsoc_design_1_wrapper.rpt", "p.rpt", "calibrate --show '%s'", 0.1},
		{"tests/data/reports/dc_S-2021.06-SP4_area_hier_cva6_cv32a65x.rpt", "a.rpt", "calibrate --show '%s'", 0},
		{"tests/fuzz/seeds/calib_spec/spec.xml", "spec.xml", "calibrate '%s'", 0},
		{"tests/fuzz/seeds/calib_spec/spec.xml", "spec.xml", "calibrate '%s'", 0.5},
	};
	for (size_t i = 0; i < IW_ARRAY_LEN(cases); i++) {
		char sub[700], path[800], fmt[256], args[2048];
		snprintf(sub, sizeof sub, "%s/%zu", dir, i);
		CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0755), 0);
		snprintf(path, sizeof path, "%s/%s", sub, cases[i].name);
		write_prefix(cases[i].fixture, path, cases[i].fraction);
		snprintf(fmt, sizeof fmt, "%s", cases[i].args);
		snprintf(args, sizeof args, fmt, path);
		int rc = run_with("", NULL, args);
		/* A synthesis report cut after whole tables is still a report (of
		 * fewer modules): it may be read, but never crash the program. */
		int lenient = cases[i].fraction > 0 && strstr(cases[i].args, "--show");
		if (lenient && rc == 0)
			continue;
		if (rc != 3 || !strstr(err, cases[i].name))
			fprintf(stderr, "damaged input case %zu (%s at %.0f%%): exit %d, stderr: %s\n", i,
				cases[i].fixture, cases[i].fraction * 100, rc, err);
		CU_ASSERT_EQUAL(rc, 3);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].name));
	}
}

/* A symbolic-link loop given as any input: exit 3 naming it, no hang. */
static void symlink_loop_inputs(void)
{
	const char *dir = tu_tmpdir();
	char a[700], b[700];
	snprintf(a, sizeof a, "%s/loop-a", dir);
	snprintf(b, sizeof b, "%s/loop-b", dir);
	CU_ASSERT_EQUAL_FATAL(symlink(b, a), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(a, b), 0);
	static const char *const forms[] = {
		"run -q -s inorder -w '%s'",
		"trace-info '%s'",
		"run -q -w vecadd --scale 0.02 -s inorder -c '%s'",
		"run -q -w vecadd --scale 0.02 -s inorder -t '%s'",
		"calibrate --show '%s'",
		"calibrate '%s'",
	};
	for (size_t i = 0; i < IW_ARRAY_LEN(forms); i++) {
		char args[2048];
		snprintf(args, sizeof args, forms[i], a);
		int rc = run_with("", NULL, args);
		if (rc != 3 || !strstr(err, "loop-a"))
			fprintf(stderr, "symlink loop '%s': exit %d, stderr: %s\n", forms[i], rc, err);
		CU_ASSERT_EQUAL(rc, 3);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "loop-a"));
	}
	/* A loop inside a trace folder: kernelslist.g names a looping link. */
	char tdir[700], p[800];
	snprintf(tdir, sizeof tdir, "%s/trace", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(tdir, 0755), 0);
	snprintf(p, sizeof p, "%s/kernelslist.g", tdir);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("kernel-1.traceg\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/kernel-1.traceg", tdir);
	CU_ASSERT_EQUAL_FATAL(symlink(p, p), 0);
	char args[1024];
	snprintf(args, sizeof args, "trace-info '%s'", tdir);
	CU_ASSERT_EQUAL(run_with("", NULL, args), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "kernel-1.traceg"));
}

void suite_faults(void)
{
	TU_SUITE("faults", {"every_allocation_failure_is_clean", every_allocation_failure_is_clean},
		 {"every_allocation_failure_of_a_read_is_clean", every_allocation_failure_of_a_read_is_clean},
		 {"every_allocation_failure_of_a_report_is_clean", every_allocation_failure_of_a_report_is_clean},
		 {"unwritable_output_folder", unwritable_output_folder}, {"full_disk", full_disk},
		 {"sigkill_during_output", sigkill_during_output},
		 {"truncated_and_empty_inputs", truncated_and_empty_inputs},
		 {"symlink_loop_inputs", symlink_loop_inputs});
}
