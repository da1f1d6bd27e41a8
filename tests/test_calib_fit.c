/* tests/test_calib_fit.c -- the regression behind 'calibrate': known
 * coefficients plus noise are recovered within their standard errors (and the
 * errors have the right size: about 68% of fits land within one), NNLS
 * matches a brute-force search, robust fitting flags the planted outliers,
 * collinear designs are refused with the coefficients and parameters named. */
#include "calib.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double gauss(struct iw_rng *r)
{
	/* Box-Muller on the project's deterministic generator. */
	double u1 = iw_rng_uniform(r), u2 = iw_rng_uniform(r);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static const char *const names3[] = {"a", "b", "c"};
static const char *const hints3[] = {"entries", "entries, warps", "(fixed)"};

/* y = 3 x1 + 0.5 x2 + 10, x1 = N^2-like, x2 = N ceil((N-1)/5)-like, noise sd. */
static void make_data(struct iw_rng *r, size_t n, double sd, int hetero, double *X, double *y, double *w)
{
	for (size_t i = 0; i < n; i++) {
		double N = 4 + (double)(i % 13) * 3, W = 1 + (double)(i % 4);
		X[i * 3 + 0] = W * N * N;
		X[i * 3 + 1] = W * N * ceil((N - 1) / 5);
		X[i * 3 + 2] = 1;
		double s = hetero ? sd * (1 + (double)(i % 5)) : sd;
		y[i] = 3 * X[i * 3] + 0.5 * X[i * 3 + 1] + 10 + s * gauss(r);
		if (w)
			w[i] = 1 / (s * s);
	}
}

static void coverage(enum iw_fit_method m, int hetero)
{
	struct iw_rng r;
	iw_rng_seed(&r, 12345 + (uint64_t)m);
	enum { N = 40, REPS = 300 };
	double X[N * 3], y[N], w[N];
	const double truth[3] = {3, 0.5, 10};
	size_t within1 = 0, within3 = 0, total = 0;
	for (int rep = 0; rep < REPS; rep++) {
		make_data(&r, N, 2.0, hetero, X, y, w);
		struct iw_fit_result res;
		struct iw_err e = {0};
		int rc = iw_fit(X, y, hetero ? w : NULL, N, 3, m, names3, hints3, &res, &e);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		for (int k = 0; k < 3; k++) {
			double z = fabs(res.coef[k] - truth[k]) / res.se[k];
			within1 += z <= 1;
			within3 += z <= 3;
			total++;
		}
		if (rep == 0) {
			CU_ASSERT(res.r2 > 0.99);
			CU_ASSERT(res.adj_r2 <= res.r2);
			CU_ASSERT(isfinite(res.loo_rmse) && res.loo_rmse > 0);
			CU_ASSERT_EQUAL(res.noutliers, 0);
		}
		iw_fit_result_free(&res);
	}
	double f1 = (double)within1 / (double)total, f3 = (double)within3 / (double)total;
	/* Correctly scaled errors: ~68.3% within one, ~99.7% within three
	 * (900 draws: the binomial spread is about 1.6%). */
	CU_ASSERT(f1 > 0.62 && f1 < 0.75);
	CU_ASSERT(f3 > 0.98);
	if (getenv("IW_VERBOSE") || !(f1 > 0.62 && f1 < 0.75))
		fprintf(stderr, "\n%s coverage within 1 se: %.3f\n", iw_fit_method_name(m), f1);
}

static void ols_recovers_within_std_errors(void) { coverage(IW_FIT_OLS, 0); }
static void wls_recovers_within_std_errors(void) { coverage(IW_FIT_WLS, 1); }

static void wls_scales_with_relative_weights(void)
{
	/* Multiplying every weight by a constant changes nothing (relative weights). */
	struct iw_rng r;
	iw_rng_seed(&r, 7);
	double X[30 * 3], y[30], w[30], w2[30];
	make_data(&r, 30, 1.0, 1, X, y, w);
	for (int i = 0; i < 30; i++)
		w2[i] = w[i] * 1000;
	struct iw_fit_result a, b;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_fit(X, y, w, 30, 3, IW_FIT_WLS, names3, hints3, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_fit(X, y, w2, 30, 3, IW_FIT_WLS, names3, hints3, &b, &e), 0);
	for (int k = 0; k < 3; k++) {
		CU_ASSERT_DOUBLE_EQUAL(a.coef[k], b.coef[k], 1e-9 * fabs(a.coef[k]) + 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(a.se[k], b.se[k], 1e-9 * a.se[k]);
	}
	iw_fit_result_free(&a);
	iw_fit_result_free(&b);
}

static void exact_data_fits_exactly(void)
{
	double X[6 * 2], y[6];
	for (int i = 0; i < 6; i++) {
		X[i * 2] = i + 1;
		X[i * 2 + 1] = (i + 1) * (i + 1);
		y[i] = 2 * X[i * 2] + 0.25 * X[i * 2 + 1];
	}
	const char *nm[] = {"lin", "quad"};
	for (int m = IW_FIT_OLS; m <= IW_FIT_NNLS; m++) {
		struct iw_fit_result res;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_fit(X, y, NULL, 6, 2, (enum iw_fit_method)m, nm, NULL, &res, &e), 0);
		CU_ASSERT_DOUBLE_EQUAL(res.coef[0], 2, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(res.coef[1], 0.25, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(res.r2, 1, 1e-9);
		for (int i = 0; i < 6; i++)
			CU_ASSERT_DOUBLE_EQUAL(res.loo[i], y[i], 1e-6);
		iw_fit_result_free(&res);
	}
}

/* ---- NNLS against brute force -------------------------------------------- */

static double resid2(const double *A, const double *b, size_t m, size_t p, const double *x)
{
	double s = 0;
	for (size_t i = 0; i < m; i++) {
		double r = b[i];
		for (size_t k = 0; k < p; k++)
			r -= A[i * p + k] * x[k];
		s += r * r;
	}
	return s;
}

/* Unconstrained least squares on a subset by normal equations (tiny p). */
static int solve_subset(const double *A, const double *b, size_t m, size_t p, unsigned mask, double *x)
{
	size_t idx[8], q = 0;
	for (size_t k = 0; k < p; k++) {
		x[k] = 0;
		if (mask & (1u << k))
			idx[q++] = k;
	}
	double M[8][9];
	for (size_t i = 0; i < q; i++) {
		for (size_t j = 0; j < q; j++) {
			double s = 0;
			for (size_t r = 0; r < m; r++)
				s += A[r * p + idx[i]] * A[r * p + idx[j]];
			M[i][j] = s;
		}
		double s = 0;
		for (size_t r = 0; r < m; r++)
			s += A[r * p + idx[i]] * b[r];
		M[i][q] = s;
	}
	for (size_t c = 0; c < q; c++) { /* Gauss-Jordan with partial pivoting */
		size_t piv = c;
		for (size_t r = c + 1; r < q; r++)
			if (fabs(M[r][c]) > fabs(M[piv][c]))
				piv = r;
		if (fabs(M[piv][c]) < 1e-12)
			return -1;
		for (size_t j = 0; j <= q; j++) {
			double t = M[c][j];
			M[c][j] = M[piv][j];
			M[piv][j] = t;
		}
		for (size_t r = 0; r < q; r++) {
			if (r == c)
				continue;
			double f = M[r][c] / M[c][c];
			for (size_t j = c; j <= q; j++)
				M[r][j] -= f * M[c][j];
		}
	}
	for (size_t i = 0; i < q; i++)
		x[idx[i]] = M[i][q] / M[i][i];
	return 0;
}

static void nnls_matches_brute_force(void)
{
	struct iw_rng r;
	iw_rng_seed(&r, 99);
	int bound_cases = 0;
	for (int trial = 0; trial < 200; trial++) {
		size_t p = 2 + iw_rng_below(&r, 4), m = p + 2 + iw_rng_below(&r, 6);
		double A[16 * 5], b[16], x[5], best[5];
		for (size_t i = 0; i < m; i++) {
			for (size_t k = 0; k < p; k++)
				A[i * p + k] = gauss(&r);
			b[i] = 2 * gauss(&r);
		}
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_nnls(A, b, m, p, x, &e), 0);
		double bestv = resid2(A, b, m, p, (double[5]){0, 0, 0, 0, 0});
		memset(best, 0, sizeof best);
		for (unsigned mask = 1; mask < (1u << p); mask++) {
			double z[5];
			if (solve_subset(A, b, m, p, mask, z) != 0)
				continue;
			int ok = 1;
			for (size_t k = 0; k < p; k++)
				ok &= z[k] >= 0;
			double v = resid2(A, b, m, p, z);
			if (ok && v < bestv) {
				bestv = v;
				memcpy(best, z, sizeof z);
			}
		}
		for (size_t k = 0; k < p; k++) {
			CU_ASSERT(x[k] >= 0);
			CU_ASSERT_DOUBLE_EQUAL(x[k], best[k], 1e-7 * (1 + fabs(best[k])));
			bound_cases += best[k] == 0;
		}
		CU_ASSERT_DOUBLE_EQUAL(resid2(A, b, m, p, x), bestv, 1e-9 * (1 + bestv));
	}
	CU_ASSERT(bound_cases > 50); /* the bound was active often enough to test it */
}

static void nnls_holds_negative_coefficient_at_zero(void)
{
	/* Truth has a negative slope for b: NNLS puts it at the bound and says so. */
	double X[10 * 2], y[10];
	for (int i = 0; i < 10; i++) {
		X[i * 2] = i + 1;
		X[i * 2 + 1] = (i % 3) + 1;
		y[i] = 4 * X[i * 2] - 1.5 * X[i * 2 + 1];
	}
	const char *nm[] = {"a", "b"};
	struct iw_fit_result res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_fit(X, y, NULL, 10, 2, IW_FIT_NNLS, nm, NULL, &res, &e), 0);
	CU_ASSERT_EQUAL(res.coef[1], 0);
	CU_ASSERT_EQUAL(res.at_bound[1], 1);
	CU_ASSERT_EQUAL(res.at_bound[0], 0);
	CU_ASSERT(res.se[0] > 0);
	iw_fit_result_free(&res);
}

/* ---- robust ----------------------------------------------------------------- */

static void robust_flags_outliers(void)
{
	struct iw_rng r;
	iw_rng_seed(&r, 2024);
	enum { N = 30 };
	double X[N * 3], y[N];
	make_data(&r, N, 1.0, 0, X, y, NULL);
	y[7] += 400; /* a synthesis run that went wrong */
	y[19] -= 300;
	struct iw_fit_result rob, ols;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_fit(X, y, NULL, N, 3, IW_FIT_ROBUST, names3, hints3, &rob, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_fit(X, y, NULL, N, 3, IW_FIT_OLS, names3, hints3, &ols, &e), 0);
	CU_ASSERT_EQUAL(rob.noutliers, 2);
	CU_ASSERT_EQUAL(rob.outlier[7], 1);
	CU_ASSERT_EQUAL(rob.outlier[19], 1);
	CU_ASSERT(rob.weight[7] < 0.5 && rob.weight[0] > 0.5);
	/* The robust fit stays near the truth; least squares is pulled away. */
	CU_ASSERT(fabs(rob.coef[0] - 3) < 3 * rob.se[0]);
	CU_ASSERT(fabs(rob.coef[2] - 10) < fabs(ols.coef[2] - 10));
	iw_fit_result_free(&rob);
	iw_fit_result_free(&ols);
}

/* ---- refusals --------------------------------------------------------------- */

static void collinear_design_names_parameters(void)
{
	/* Every point at warps=1: W*N^2 and N^2 cannot be told apart. */
	double X[5 * 3], y[5];
	for (int i = 0; i < 5; i++) {
		double N = 4 + 4 * i;
		X[i * 3] = N * N;       /* cells (warps * entries^2) */
		X[i * 3 + 1] = 1 * N * N; /* the same feature under another name */
		X[i * 3 + 2] = N;
		y[i] = 2 * N * N + N;
	}
	const char *nm[] = {"fpga.dm.cell", "fpga.dm.cell_warp", "fpga.dm.row"};
	const char *hint[] = {"entries", "warps", "entries"};
	struct iw_fit_result res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_fit(X, y, NULL, 5, 3, IW_FIT_OLS, nm, hint, &res, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "ill-conditioned"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "'fpga.dm.cell', 'fpga.dm.cell_warp'"));
	CU_ASSERT_PTR_NULL(strstr(e.msg, "'fpga.dm.row'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "vary entries; warps"));
}

static void too_few_points_refused(void)
{
	double X[2 * 3] = {1, 2, 3, 4, 5, 6}, y[2] = {1, 2};
	struct iw_fit_result res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_fit(X, y, NULL, 2, 3, IW_FIT_OLS, names3, hints3, &res, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected at least 4 points for 3 coefficients, found 2"));
	double Z[4 * 2] = {1, 0, 2, 0, 3, 0, 4, 0}, yz[4] = {1, 2, 3, 4};
	iw_err_clear(&e);
	CU_ASSERT_EQUAL(iw_fit(Z, yz, NULL, 4, 2, IW_FIT_NNLS, names3, hints3, &res, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "coefficient 'b'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "vary entries, warps"));
}

static void fit_survives_allocation_failures(void)
{
	struct iw_rng r;
	iw_rng_seed(&r, 5);
	double X[12 * 3], y[12];
	make_data(&r, 12, 1.0, 0, X, y, NULL);
	for (long k = 0; k < 40; k++) {
		struct iw_fit_result res;
		struct iw_err e = {0};
		iw_alloc_fail_after(k);
		int rc = iw_fit(X, y, NULL, 12, 3, IW_FIT_NNLS, names3, hints3, &res, &e);
		iw_alloc_fail_after(-1);
		if (rc == 0) {
			iw_fit_result_free(&res);
			break;
		}
		CU_ASSERT_EQUAL(rc, -IW_ERUN);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "out of memory"));
	}
}

void suite_calib_fit(void)
{
	TU_SUITE("calib_fit", {"ols_recovers_within_std_errors", ols_recovers_within_std_errors},
		 {"wls_recovers_within_std_errors", wls_recovers_within_std_errors},
		 {"wls_scales_with_relative_weights", wls_scales_with_relative_weights},
		 {"exact_data_fits_exactly", exact_data_fits_exactly},
		 {"nnls_matches_brute_force", nnls_matches_brute_force},
		 {"nnls_holds_negative_coefficient_at_zero", nnls_holds_negative_coefficient_at_zero},
		 {"robust_flags_outliers", robust_flags_outliers},
		 {"collinear_design_names_parameters", collinear_design_names_parameters},
		 {"too_few_points_refused", too_few_points_refused},
		 {"fit_survives_allocation_failures", fit_survives_allocation_failures});
}
