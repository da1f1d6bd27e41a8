/* bench/bench_sweep.c -- a 1000-run sweep over the built-in kernels (every
 * scheme of the build, the in-order baseline included) on the vortex preset,
 * scaled down so each run is short but still a full wave of CTAs: time with
 * 1 and 2 worker threads (goal: under 10 minutes on a 2-core machine) and the
 * speed-up from 1 to 2 workers; the two results files must be identical.
 * Then a sweep whose points share their in-order baselines. */
#include "bench.h"
#include "reports.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static double run(const struct iw_sweep *s, const char *out, int jobs)
{
	struct iw_sweep_opts o;
	struct iw_err e = {0};
	memset(&o, 0, sizeof o);
	o.jobs = jobs;
	double t0 = bench_now();
	if (iw_sweep_run(s, out, &o, &e)) {
		fprintf(stderr, "bench_sweep: %s\n", e.msg);
		return -1;
	}
	return bench_now() - t0;
}

/* A LOOG right-sizing sweep (CUs x RRS factor per warp count, as
 * examples/sweep-thesis.xml): its points share in-order baselines.  One
 * worker, against the same units each simulating its own baseline. */
static void bench_sweep_shared(void)
{
	static const char spec[] = "<?xml version=\"1.0\"?>\n<sweep name=\"bench-loog\">\n<config>vortex</config>\n"
				   "<workload>vecadd</workload>\n<workload>sgemm</workload>\n<workload>rnn</workload>\n"
				   "<scheme>loog</scheme>\n<set key=\"run.workload_scale\" value=\"0.05\"/>\n"
				   "<axis key=\"sm.max_warps\" values=\"8 16\"/>\n"
				   "<axis key=\"loog.cus\" values=\"4 6 8 12 16\"/>\n"
				   "<axis key=\"loog.rrs_factor\" values=\"0 1\"/>\n</sweep>\n";
	struct iw_sweep s;
	struct iw_err e = {0};
	if (iw_sweep_parse(&s, "bench-loog", spec, sizeof spec - 1, &e)) {
		fprintf(stderr, "bench_sweep: %s\n", e.msg);
		iw_sweep_free(&s);
		return;
	}
	char dir[] = "/tmp/iw-bench-sweep-XXXXXX", a[128];
	if (!mkdtemp(dir)) {
		iw_sweep_free(&s);
		return;
	}
	snprintf(a, sizeof a, "%s/shared.h5", dir);
	struct iw_sweep_opts o;
	memset(&o, 0, sizeof o);
	o.jobs = 1;
	double t0 = bench_now();
	int rc = iw_sweep_run(&s, a, &o, &e);
	double shared = bench_now() - t0;
	struct iw_row *rows = iw_calloc(s.base.nschemes, sizeof *rows);
	t0 = bench_now();
	for (size_t u = 0; rc == 0 && rows && u < s.nunits; u++) {
		rc = iw_sweep_unit(&s, u, rows, NULL, &e);
		for (size_t i = 0; rc == 0 && i < s.base.nschemes; i++)
			iw_row_free(&rows[i]);
	}
	double own = bench_now() - t0;
	iw_free(rows);
	if (rc == 0) {
		char name[96];
		snprintf(name, sizeof name, "sweep LOOG CUs x RRS, %zu points, 1 worker", s.nunits);
		bench_report(name, shared, "s", "(informative)", 1);
		snprintf(name, sizeof name, "  baselines shared (of %zu)", s.nunits);
		bench_report(name, (double)o.base_shared, "runs", "(informative)", 1);
		bench_report("  speed-up over a baseline per point", own / shared, "x", "(informative)", 1);
	} else {
		fprintf(stderr, "bench_sweep: %s\n", e.msg);
	}
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_sweep: could not remove %s\n", dir);
	iw_sweep_free(&s);
}

void bench_sweep(void)
{
	size_t ns = 0;
	for (size_t i = 0; i < iw_scheme_count(); i++)
		ns++;
	/* 6 kernels x 2 warp counts x 2 CU counts x K seeds x ns schemes >= 1000 runs */
	double target = getenv("IW_BENCH_SWEEP_RUNS") ? atof(getenv("IW_BENCH_SWEEP_RUNS")) : 1000.0;
	size_t k = (size_t)ceil(IW_MAX(target, 1) / (6.0 * 2 * 2 * (double)ns));
	char spec[2048];
	int len = snprintf(spec, sizeof spec,
			   "<?xml version=\"1.0\"?>\n<sweep name=\"bench\">\n<config>vortex</config>\n"
			   "<workload>builtin</workload>\n<scheme>all</scheme>\n"
			   "<set key=\"run.workload_scale\" value=\"0.02\"/>\n"
			   "<axis key=\"sm.max_warps\" values=\"8 16\"/>\n<axis key=\"opc.cus\" values=\"2 4\"/>\n"
			   "<axis key=\"run.seed\" from=\"1\" to=\"%zu\" step=\"1\"/>\n</sweep>\n",
			   k);
	struct iw_sweep s;
	struct iw_err e = {0};
	if (iw_sweep_parse(&s, "bench-spec", spec, (size_t)len, &e)) {
		fprintf(stderr, "bench_sweep: %s\n", e.msg);
		iw_sweep_free(&s);
		return;
	}
	char dir[] = "/tmp/iw-bench-sweep-XXXXXX", a[128], b[128], cmd[512];
	if (!mkdtemp(dir)) {
		iw_sweep_free(&s);
		return;
	}
	snprintf(a, sizeof a, "%s/j1.h5", dir);
	snprintf(b, sizeof b, "%s/j2.h5", dir);
	double t1 = run(&s, a, 1), t2 = run(&s, b, 2);
	if (t1 > 0 && t2 > 0) {
		snprintf(cmd, sizeof cmd, "h5diff --exclude-attribute / %s %s >&2", a, b);
		int st = system(cmd);
		int same = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
		char name[96];
		snprintf(name, sizeof name, "sweep %zu runs (%zu schemes), 2 workers", s.nrows, ns);
		bench_report(name, t2, "s", "< 600 s on 2 cores", t2 < 600);
		snprintf(name, sizeof name, "sweep %zu runs, 1 worker", s.nrows);
		bench_report(name, t1, "s", "(reference)", 1);
		bench_report("sweep speed-up 1 -> 2 workers", t1 / t2, "x", ">= 1.5 (on an otherwise idle machine)",
			     t1 / t2 >= 1.5);
		bench_report("sweep -j1 and -j2 results identical", same, "bool", "1", same);
	}
	snprintf(cmd, sizeof cmd, "%s'%s'", getenv("IW_BENCH_KEEP") ? "echo kept " : "rm -rf ", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_sweep: could not remove %s\n", dir);
	iw_sweep_free(&s);
	bench_sweep_shared();
}
