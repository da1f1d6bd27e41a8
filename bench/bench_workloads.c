/* bench/bench_workloads.c -- speed of the built-in workload generator: warp-
 * instructions generated per second when every instruction of the default set
 * is pulled (the simulator's goal is >= 10 M warp-instructions/s overall, so
 * generation must cost well under 50 ns per instruction), and the memory the
 * generator holds, which must not grow with the workload's length. */
#include "bench.h"
#include "perf.h"

static double pull(const char *name, double scale, uint64_t *count)
{
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	*count = 0;
	if (iw_builtin_open(name, 1, scale, &w, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 0;
	}
	double t0 = bench_now();
	struct iw_kernel_info ki;
	struct iw_cta cta;
	struct iw_inst in;
	struct iw_mem_addrs ma;
	uint64_t n = 0;
	while (w->ops->next_kernel(w, &ki, &e) == 1)
		while (w->ops->next_cta(w, &cta, &e) == 1) {
			for (uint32_t wp = 0; wp < cta.warps; wp++)
				while (w->ops->fetch(w, &cta, wp, &in, &ma, &e) == 1)
					n++;
			w->ops->release_cta(w, &cta);
		}
	double dt = bench_now() - t0;
	iw_workload_close(w);
	*count = n;
	return dt;
}

/* The built-in set at *(double *)scale, pulled to its end (bench_child_rss_kb). */
static int pull_at(void *scale)
{
	uint64_t n;
	pull("builtin", *(double *)scale, &n);
	return n == 0; /* (pull reported why) */
}

void bench_workloads(void)
{
	uint64_t n;
	double dt = pull("builtin", 1.0, &n);
	double rate = dt > 0 ? (double)n / dt : 0;
	bench_report("workloads: builtin generation", rate / 1e6, "M inst/s", ">= 20 (< 50 ns/inst)",
		     rate >= 20e6);
	bench_report("workloads: builtin warp-instructions", (double)n / 1e6, "M inst", ">= 5", n >= 5000000);
	/* memory: a 10x longer workload must not need more resident memory
	 * (each pulled in a process of its own) */
	double x1 = 1.0, x10 = 10.0;
	long rss0 = bench_child_rss_kb(pull_at, &x1), rss1 = bench_child_rss_kb(pull_at, &x10);
	bench_report("workloads: RSS growth for a 10x longer set", (double)(rss1 - rss0), "kB", "< 1024",
		     rss0 > 0 && rss1 > 0 && rss1 - rss0 < 1024);
}
