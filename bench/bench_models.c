/* bench/bench_models.c -- cost of pricing a run: iw_power_eval with a long
 * power time series, and iw_area_eval per configuration (a sweep calls these
 * once per point, so they must stay far below the simulation's cost). */
#include "area.h"
#include "bench.h"
#include "power.h"

#include <string.h>

void bench_models(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	if (iw_tech_load(&t, "12nm", &e)) {
		fprintf(stderr, "bench_models: %s\n", e.msg);
		return;
	}
	struct iw_config c;
	iw_config_defaults(&c);
	enum { N = 4096 };
	static uint64_t act[N * IW_A_COUNT], cyc[N], ins[N];
	struct iw_run_result r;
	memset(&r, 0, sizeof r);
	for (size_t i = 0; i < N; i++) {
		cyc[i] = 1000;
		r.cycles += 1000;
		for (int a = 0; a < IW_A_COUNT; a++) {
			act[i * IW_A_COUNT + a] = 1000 + i + (uint64_t)a;
			r.act[a] += act[i * IW_A_COUNT + a];
		}
	}
	r.series.n = r.series.cap = N;
	r.series.interval = 1000;
	r.series.act = act;
	r.series.cycles = cyc;
	r.series.insts = ins;
	int reps = 200;
	double t0 = bench_now();
	for (int k = 0; k < reps; k++) {
		struct iw_power_result p;
		if (iw_power_eval(&c, "loog", &t, &r, &p, &e))
			break;
		iw_power_result_free(&p);
	}
	double per = (bench_now() - t0) / reps;
	bench_report("power_eval_4096_samples", per * 1e3, "ms", "< 10 ms", per < 0.01);
	t0 = bench_now();
	reps = 20000;
	for (int k = 0; k < reps; k++) {
		struct iw_area_result a;
		if (iw_area_eval(&c, k & 1 ? "ghost" : "socgpu", &t, &a, &e))
			break;
	}
	per = (bench_now() - t0) / reps;
	bench_report("area_eval", per * 1e6, "us", "< 100 us", per < 1e-4);
	iw_tech_free(&t);
}
