/* bench/bench_sim.c -- simulation speed of the SM model with the in-order
 * scheme on v100 and the built-in workloads (goal: >= 10 M simulated
 * warp-instructions per second on one core, over the process's CPU time so
 * that other work on a shared machine does not count), and memory that does not grow
 * with the workload's length (peak RSS at scale 1 vs scale 4, measured in
 * child processes). */
#include "bench.h"
#include "perf.h"

#include <stdlib.h>
#include <string.h>

static uint64_t last_ticks; /* sub-core ticks of the last simulate() */

static int simulate(const char *scheme, double scale, int cycle_major, uint64_t *insts, double *secs)
{
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	if (iw_config_load(&c, "v100", NULL, &e))
		return -1;
	struct iw_workload *w;
	if (iw_builtin_count() == 0 || iw_builtin_open("builtin", 1, scale, &w, &e)) {
		fprintf(stderr, "bench_sim: built-in workloads unavailable: %s\n", e.msg);
		return -1;
	}
	struct iw_sim_opts o = {.cfg = &c, .scheme = scheme, .cycle_major = cycle_major};
	struct iw_run_result r;
	double t0 = bench_cpu_now();
	int rc = iw_simulate(&o, w, &r, &e);
	*secs = bench_cpu_now() - t0;
	iw_workload_close(w);
	if (rc) {
		fprintf(stderr, "bench_sim: %s\n", e.msg);
		return -1;
	}
	*insts = r.warp_insts;
	last_ticks = r.host_ticks;
	iw_run_result_free(&r);
	return 0;
}

/* The in-order run at *(double *)scale, for bench_child_rss_kb. */
static int simulate_at(void *scale)
{
	uint64_t n;
	double secs;
	return simulate("inorder", *(double *)scale, 0, &n, &secs);
}

void bench_sim(void)
{
	uint64_t n;
	double s;
	if (simulate("inorder", 1.0, 0, &n, &s))
		return bench_report("sim: inorder, v100, builtin", 0, "Minst/s", ">= 10", 0);
	bench_report("sim: inorder, v100, builtin (warp-insts)", (double)n, "insts", ">= 5e6", n >= 5000000);
	bench_report("sim: inorder, v100, builtin", (double)n / s / 1e6, "Minst/s", ">= 10", (double)n / s >= 10e6);
	/* what the back end does per instruction: a sub-core's tick costs
	 * roughly the same whatever moved in it (see perf/README.md) */
	bench_report("sim: sub-core ticks per warp-instruction", n ? (double)last_ticks / (double)n : 0, "ticks",
		     "(informative)", n > 0);
	/* the same run in the reference cycle-major order (same results): what
	 * simulating SM after SM gains */
	uint64_t n2;
	double s2;
	if (simulate("inorder", 1.0, 1, &n2, &s2) == 0)
		bench_report("sim: inorder, builtin, cycle-major order", (double)n2 / s2 / 1e6, "Minst/s", "(informative)",
			     n2 == n);
	double x1 = 1.0, x4 = 4.0;
	long r1 = bench_child_rss_kb(simulate_at, &x1), r4 = bench_child_rss_kb(simulate_at, &x4);
	bench_report("sim: peak RSS at scale 1", (double)r1 / 1024, "MiB", "(reference)", r1 > 0);
	bench_report("sim: peak RSS at scale 4 / scale 1", r1 > 0 ? (double)r4 / (double)r1 : 0, "ratio", "<= 1.10",
		     r1 > 0 && r4 > 0 && (double)r4 <= 1.10 * (double)r1);
}
