/*
 * tests/test_determinism.c -- the same inputs give the same numbers, to the
 * last bit: every dataset and attribute of the HDF5 result is identical
 * across runs (apart from the root attribute created_utc, the only
 * timestamp), whatever the working folder and the number of sweep threads,
 * and a (workload, scheme) result does not depend on what else the job ran.  Values are compared through
 * h5dump with 17 significant digits (exact for doubles), so layout details
 * HDF5 may vary (object times, free space) are not mistaken for results.
 */
#include "iw.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bin(void)
{
	const char *b = getenv("IW_BIN");
	return b ? b : IW_SRCDIR "/build/issuewatt";
}

/* Run the program in `dir` with `args`; exit code. */
static int run_in(const char *dir, const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >/dev/null 2>&1 </dev/null", dir, bin(), args);
	int st = system(cmd);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* h5dump of `what` (-g GROUP, or "" for the whole file) of dir/r.h5 with
 * exact doubles, without the created_utc attribute and without lines naming
 * the dumped group (so two run indices compare).  Caller frees. */
static char *dump_file(const char *dir, const char *file, const char *what, int *had_timestamp, int drop_cmdline)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && h5dump -m %%.17g %s '%s'", dir, what, file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	char *out = malloc(cap);
	char line[65536];
	int skip = 0;
	*had_timestamp = 0;
	while (out && fgets(line, sizeof line, p)) {
		if (strstr(line, "ATTRIBUTE \"created_utc\"") ||
		    (drop_cmdline && strstr(line, "ATTRIBUTE \"command_line\""))) {
			*had_timestamp |= strstr(line, "created_utc") != NULL;
			skip = 1;
			continue;
		}
		if (skip) {
			if (strcmp(line, "   }\n") == 0)
				skip = 0;
			continue;
		}
		if (strstr(line, "GROUP \"/runs/"))
			continue;
		size_t l = strlen(line);
		if (n + l + 1 > cap) {
			char *o2 = realloc(out, cap *= 2);
			if (!o2) {
				free(out);
				out = NULL;
				break;
			}
			out = o2;
		}
		memcpy(out + n, line, l);
		n += l;
	}
	if (pclose(p) != 0) {
		free(out);
		return NULL;
	}
	if (out)
		out[n] = 0;
	return out;
}

static char *dump(const char *dir, const char *what, int *had_timestamp)
{
	return dump_file(dir, "r.h5", what, had_timestamp, 0);
}

#define JOB "run -q -s all --scale 0.05 -w vecadd,reduce -w " IW_SRCDIR "/tests/data/traces/vectoradd-sm61 -o r.h5"

static void same_inputs_identical_datasets(void)
{
	char a[600], b[600];
	snprintf(a, sizeof a, "%s", tu_tmpdir());
	snprintf(b, sizeof b, "%s", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(run_in(a, JOB), 0);
	CU_ASSERT_EQUAL_FATAL(run_in(b, JOB), 0);
	int ta = 0, tb = 0;
	char *da = dump(a, "", &ta), *db = dump(b, "", &tb);
	CU_ASSERT_PTR_NOT_NULL_FATAL(da);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	/* The timestamp was there and was the only thing removed. */
	CU_ASSERT(ta && tb);
	CU_ASSERT_PTR_NOT_NULL(strstr(da, "DATASET \"energy_by_structure\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(da, "ATTRIBUTE \"command_line\""));
	CU_ASSERT(strlen(da) > 100000);
	CU_ASSERT_EQUAL(strlen(da), strlen(db));
	CU_ASSERT(strcmp(da, db) == 0);
	free(da);
	free(db);
}

/* vecadd x loog alone, and as one row of a larger job (other workloads and
 * schemes before it): the same datasets, series included. */
static void result_independent_of_job_composition(void)
{
	char a[600], b[600];
	snprintf(a, sizeof a, "%s", tu_tmpdir());
	snprintf(b, sizeof b, "%s", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(run_in(a, "run -q --scale 0.05 -w vecadd -s inorder,loog -o r.h5"), 0);
	CU_ASSERT_EQUAL_FATAL(run_in(b, "run -q --scale 0.05 -w sgemm,vecadd -s all -o r.h5"), 0);
	/* Row order is workload-major in the scheme order of 'all'; find
	 * vecadd/loog in the big job from its summary CSV. */
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run -q --scale 0.05 -w sgemm,vecadd -s all --format csv", b, bin());
	FILE *p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	char line[4096];
	int row = -2, found = -1;
	while (fgets(line, sizeof line, p)) {
		row++;
		if (strncmp(line, "vecadd,loog,", 12) == 0)
			found = row;
	}
	CU_ASSERT_EQUAL(pclose(p), 0);
	CU_ASSERT_FATAL(found > 1);
	char ga[64], gb[64];
	snprintf(ga, sizeof ga, "-g /runs/000001");
	snprintf(gb, sizeof gb, "-g /runs/%06d", found);
	int t;
	char *da = dump(a, ga, &t), *db = dump(b, gb, &t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(da);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	CU_ASSERT_PTR_NOT_NULL(strstr(da, "DATASET \"activity\""));
	CU_ASSERT(strcmp(da, db) == 0);
	free(da);
	free(db);
}

/* A sweep with 1, 2 and 3 worker threads: the same datasets (the command
 * line, which names -j, and the timestamp aside).  Under Open MPI the same
 * holds: tests/mpi-sweep.sh, run by CI, compares mpirun -np 3 with -j 1. */
static void sweep_same_whatever_the_threads(void)
{
	const char *dir = tu_tmpdir();
	char spec[700];
	snprintf(spec, sizeof spec, "%s/s.xml", dir);
	FILE *f = fopen(spec, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<?xml version=\"1.0\"?>\n<sweep name=\"det\">\n  <config>vortex</config>\n"
	      "  <workload>vecadd</workload>\n  <workload>reduce</workload>\n  <scheme>all</scheme>\n"
	      "  <set key=\"run.workload_scale\" value=\"0.02\"/>\n"
	      "  <axis key=\"sm.max_warps\" values=\"8 16\"/>\n  <axis key=\"loog.cus\" values=\"6 8\"/>\n"
	      "</sweep>\n",
	      f);
	fclose(f);
	char *d[3];
	for (int j = 1; j <= 3; j++) {
		char args[1024], name[32];
		snprintf(args, sizeof args, "sweep s.xml -o j%d.h5 -j %d -q", j, j);
		CU_ASSERT_EQUAL_FATAL(run_in(dir, args), 0);
		snprintf(name, sizeof name, "j%d.h5", j);
		int t = 0;
		d[j - 1] = dump_file(dir, name, "", &t, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d[j - 1]);
		CU_ASSERT(t);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(d[0], "GROUP \"sweep\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(d[0], "DATASET \"energy_by_structure\""));
	/* h5dump names the file on its first line: compare from the second. */
	CU_ASSERT(strcmp(strchr(d[0], '\n'), strchr(d[1], '\n')) == 0);
	CU_ASSERT(strcmp(strchr(d[0], '\n'), strchr(d[2], '\n')) == 0);
	for (int j = 0; j < 3; j++)
		free(d[j]);
}

/* 'run' simulates its (workload, scheme) pairs on every core by default:
 * with 1 and 3 at a time, the same datasets; and a job with a broken trace
 * among good workloads stops with the same status and message either way
 * (the first failing pair in order, as a run one at a time would). */
static void run_same_whatever_the_threads(void)
{
	const char *dir = tu_tmpdir();
	char *d[2];
	for (int k = 0; k < 2; k++) {
		char args[1024], name[32];
		snprintf(args, sizeof args, "%s -j %d", JOB, k ? 3 : 1);
		snprintf(strstr(args, "r.h5"), 16, "j%d.h5", k);
		CU_ASSERT_EQUAL_FATAL(run_in(dir, args), 0);
		snprintf(name, sizeof name, "j%d.h5", k);
		int t = 0;
		d[k] = dump_file(dir, name, "", &t, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d[k]);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(d[0], "DATASET \"energy_by_structure\""));
	CU_ASSERT(strcmp(strchr(d[0], '\n'), strchr(d[1], '\n')) == 0);
	free(d[0]);
	free(d[1]);

	/* a trace cut short after its third warp's header */
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s/cut' && head -c 3000 '%s/tests/data/traces/vectoradd-sm61/kernel-1.traceg' "
		 ">'%s/cut/kernel-1.traceg'",
		 dir, IW_SRCDIR, dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	char msg[2][1024];
	for (int k = 0; k < 2; k++) {
		snprintf(cmd, sizeof cmd,
			 "cd '%s' && '%s' run -q -j %d --scale 0.02 -w vecadd -w cut/kernel-1.traceg -w reduce "
			 "-o bad.h5 2>&1 >/dev/null; echo status=$?",
			 dir, bin(), k ? 3 : 1);
		FILE *p = popen(cmd, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		size_t n = fread(msg[k], 1, sizeof msg[k] - 1, p);
		msg[k][n] = 0;
		pclose(p);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(msg[0], "kernel-1.traceg:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg[0], "status=3"));
	CU_ASSERT_STRING_EQUAL(msg[0], msg[1]);
	snprintf(cmd, sizeof cmd, "%s/bad.h5", dir);
	CU_ASSERT_NOT_EQUAL(access(cmd, F_OK), 0); /* no output left behind */
}

void suite_determinism(void)
{
	TU_SUITE("determinism", {"same_inputs_identical_datasets", same_inputs_identical_datasets},
		 {"result_independent_of_job_composition", result_independent_of_job_composition},
		 {"sweep_same_whatever_the_threads", sweep_same_whatever_the_threads},
		 {"run_same_whatever_the_threads", run_same_whatever_the_threads});
}
