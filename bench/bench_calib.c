/* bench/bench_calib.c -- report parsing speed (the largest real fixtures) and
 * the cost of a fit with leave-one-out on a calibration-sized problem. */
#include "bench.h"
#include "calib.h"

#include <math.h>
#include <string.h>

void bench_calib(void)
{
	static const char *files[] = {"tests/data/reports/dc_S-2021.06-SP4_area_hier_cva6_cv32a65x.rpt",
				      "tests/data/reports/vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt"};
	for (size_t f = 0; f < 2; f++) {
		char *text;
		size_t len;
		struct iw_err e = {0};
		if (iw_read_file(bench_path(files[f]), &text, &len, &e) != 0) {
			bench_report("calib.parse", 0, "MB/s", e.msg, 0);
			return;
		}
		int reps = 20;
		double t0 = bench_now();
		for (int i = 0; i < reps; i++) {
			struct iw_report r;
			if (iw_report_parse(&r, files[f], text, len, NULL, &e) == 0)
				iw_report_free(&r);
		}
		double mbs = (double)len * reps / (bench_now() - t0) / 1e6;
		bench_report(f == 0 ? "calib.parse.dc_area_hier" : "calib.parse.vivado_util_hier", mbs, "MB/s",
			     ">= 5 MB/s (a folder of reports in under a second)", mbs >= 5);
		iw_free(text);
	}
	/* 60 points, 4 coefficients, robust fit with 60 leave-one-out refits. */
	enum { N = 60, P = 4 };
	double X[N * P], y[N];
	for (int i = 0; i < N; i++) {
		double n = 4 + i;
		X[i * P] = n * n;
		X[i * P + 1] = n * ceil((n - 1) / 5);
		X[i * P + 2] = n;
		X[i * P + 3] = 1;
		y[i] = X[i * P] + 0.8 * X[i * P + 1] + 3 * n + 10 + (i % 7) - 3;
	}
	const char *names[] = {"a", "b", "c", "d"};
	int reps = 50;
	double t0 = bench_now();
	for (int i = 0; i < reps; i++) {
		struct iw_fit_result r;
		struct iw_err e = {0};
		if (iw_fit(X, y, NULL, N, P, IW_FIT_ROBUST, names, NULL, &r, &e) == 0)
			iw_fit_result_free(&r);
	}
	double ms = (bench_now() - t0) / reps * 1e3;
	bench_report("calib.fit.robust_loo_60x4", ms, "ms", "<= 50 ms per fit", ms <= 50);
}
