/*
 * calib/fit.c -- linear regression for calibration, on GSL.
 *
 * Every method works on the column-scaled design (each feature divided by its
 * largest magnitude) so that features of very different size (N^2 next to a
 * constant) do not spoil the conditioning; coefficients and covariances are
 * scaled back at the end.
 *
 * Standard errors: weights are relative (a point's weight says how much more
 * it is trusted than another, not its absolute variance), so the covariance
 * is (X'WX)^-1 scaled by the weighted residual variance chi^2/(n-p), as in
 * any regression package.  gsl_multifit_wlinear returns the unscaled
 * (X'WX)^-1; we scale it.  NNLS errors are those of the least-squares fit on
 * the coefficients left free (the active set fixed), the usual conditional
 * approximation; a coefficient held at zero has no error.
 *
 * GSL's error handler is switched off: a GSL failure becomes an iw_err, never
 * an abort.
 */
#include "calib.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <string.h>

static const char *const method_names[] = {"ols", "wls", "robust", "nnls"};

const char *iw_fit_method_name(enum iw_fit_method m)
{
	return (unsigned)m < IW_ARRAY_LEN(method_names) ? method_names[m] : "?";
}

int iw_fit_method_parse(const char *s, enum iw_fit_method *m)
{
	for (size_t i = 0; i < IW_ARRAY_LEN(method_names); i++)
		if (strcmp(s, method_names[i]) == 0) {
			*m = (enum iw_fit_method)i;
			return 0;
		}
	return -1;
}

void iw_fit_result_free(struct iw_fit_result *r)
{
	iw_free(r->coef);
	iw_free(r->se);
	iw_free(r->at_bound);
	iw_free(r->fitted);
	iw_free(r->loo);
	iw_free(r->weight);
	iw_free(r->outlier);
	iw_free(r->cov);
	memset(r, 0, sizeof *r);
}

/* ---- NNLS (Lawson & Hanson 1974, "Solving Least Squares Problems", ch. 23) */

/* Least squares on the columns in `set` (cnt of them); z receives the
 * solution for those columns (others untouched). */
static int ls_subset(const double *A, const double *b, size_t m, size_t p, const int *set, size_t cnt,
		     double *z)
{
	if (cnt == 0)
		return 0;
	gsl_matrix *M = gsl_matrix_alloc(m, cnt);
	gsl_vector *tau = gsl_vector_alloc(cnt), *bv = gsl_vector_alloc(m), *x = gsl_vector_alloc(cnt),
		   *res = gsl_vector_alloc(m);
	int rc = -1;
	if (M && tau && bv && x && res) {
		for (size_t i = 0; i < m; i++) {
			size_t c = 0;
			for (size_t j = 0; j < p; j++)
				if (set[j])
					gsl_matrix_set(M, i, c++, A[i * p + j]);
			gsl_vector_set(bv, i, b[i]);
		}
		if (gsl_linalg_QR_decomp(M, tau) == 0 && gsl_linalg_QR_lssolve(M, tau, bv, x, res) == 0) {
			size_t c = 0;
			rc = 0;
			for (size_t j = 0; j < p; j++)
				if (set[j]) {
					z[j] = gsl_vector_get(x, c++);
					if (!isfinite(z[j]))
						rc = -1;
				}
		}
	}
	gsl_matrix_free(M);
	gsl_vector_free(tau);
	gsl_vector_free(bv);
	gsl_vector_free(x);
	gsl_vector_free(res);
	return rc;
}

int iw_nnls(const double *A, const double *b, size_t m, size_t p, double *x, struct iw_err *e)
{
	gsl_set_error_handler_off();
	int *P = iw_calloc(p, sizeof *P);
	double *w = iw_calloc(p, sizeof *w), *z = iw_calloc(p, sizeof *z), *r = iw_calloc(m, sizeof *r);
	int rc = 0;
	if (!P || !w || !z || !r) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	double anorm = 0;
	for (size_t j = 0; j < p; j++) {
		double s = 0;
		for (size_t i = 0; i < m; i++)
			s += fabs(A[i * p + j]);
		anorm = fmax(anorm, s);
	}
	double bnorm = 0;
	for (size_t i = 0; i < m; i++)
		bnorm = fmax(bnorm, fabs(b[i]));
	const double tol = 10 * DBL_EPSILON * anorm * fmax(bnorm, 1) * (double)(m > p ? m : p);
	for (size_t j = 0; j < p; j++)
		x[j] = 0;
	size_t iter = 0, maxiter = 30 * (p + 1);
	for (;;) {
		/* w = A'(b - A x): the descent direction of the free variables. */
		for (size_t i = 0; i < m; i++) {
			double s = b[i];
			for (size_t j = 0; j < p; j++)
				s -= A[i * p + j] * x[j];
			r[i] = s;
		}
		size_t t = p;
		double best = tol;
		for (size_t j = 0; j < p; j++) {
			double s = 0;
			for (size_t i = 0; i < m; i++)
				s += A[i * p + j] * r[i];
			w[j] = s;
			if (!P[j] && s > best) {
				best = s;
				t = j;
			}
		}
		if (t == p)
			break; /* Kuhn-Tucker conditions hold */
		P[t] = 1;
		for (;;) {
			if (++iter > maxiter) {
				rc = iw_fail(e, IW_ERUN, "non-negative least squares did not converge in %zu iterations",
					     maxiter);
				goto out;
			}
			size_t cnt = 0;
			for (size_t j = 0; j < p; j++)
				cnt += (size_t)P[j];
			if (ls_subset(A, b, m, p, P, cnt, z) != 0) {
				rc = iw_fail(e, IW_ERUN, "non-negative least squares: singular subproblem");
				goto out;
			}
			int feasible = 1;
			for (size_t j = 0; j < p; j++)
				if (P[j] && z[j] <= 0)
					feasible = 0;
			if (feasible) {
				for (size_t j = 0; j < p; j++)
					x[j] = P[j] ? z[j] : 0;
				break;
			}
			/* Step from x toward z as far as feasibility allows, then free
			 * the variables that hit zero. */
			double alpha = 1;
			for (size_t j = 0; j < p; j++)
				if (P[j] && z[j] <= 0) {
					double a = x[j] / (x[j] - z[j]);
					if (a < alpha)
						alpha = a;
				}
			for (size_t j = 0; j < p; j++) {
				if (!P[j])
					continue;
				x[j] += alpha * (z[j] - x[j]);
				if (x[j] <= tol) {
					x[j] = 0;
					P[j] = 0;
				}
			}
		}
	}
out:
	iw_free(P);
	iw_free(w);
	iw_free(z);
	iw_free(r);
	return rc;
}

/* ---- the fit ------------------------------------------------------------- */

/* Fit on a (scaled) design; cov is p x p (of the scaled coefficients), rw the
 * robust weights.  r2/adj are filled for the robust method from GSL. */
static int fit_core(const double *X, const double *y, const double *w, size_t n, size_t p,
		    enum iw_fit_method method, double *c, double *cov, double *rw, int *at_bound, double *r2,
		    double *adj, double *sigma, int *maxiter, struct iw_err *e)
{
	int rc = 0;
	*maxiter = 0;
	for (size_t i = 0; i < n; i++)
		rw[i] = 1;
	for (size_t k = 0; k < p; k++)
		at_bound[k] = 0;
	*r2 = *adj = NAN;
	gsl_matrix *Xm = gsl_matrix_alloc(n, p), *C = gsl_matrix_alloc(p, p);
	gsl_vector *yv = gsl_vector_alloc(n), *wv = gsl_vector_alloc(n), *cv = gsl_vector_alloc(p);
	if (!Xm || !C || !yv || !wv || !cv) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		double sw = method == IW_FIT_OLS || !w ? 1 : w[i];
		gsl_vector_set(wv, i, sw);
		for (size_t k = 0; k < p; k++)
			gsl_matrix_set(Xm, i, k, method == IW_FIT_ROBUST ? X[i * p + k] * sqrt(sw) : X[i * p + k]);
		gsl_vector_set(yv, i, method == IW_FIT_ROBUST ? y[i] * sqrt(sw) : y[i]);
	}
	if (method == IW_FIT_OLS || method == IW_FIT_WLS) {
		gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, p);
		double chisq;
		int g = ws ? gsl_multifit_wlinear(Xm, wv, yv, cv, C, &chisq, ws) : GSL_ENOMEM;
		gsl_multifit_linear_free(ws);
		if (g) {
			rc = iw_fail(e, IW_ERUN, "least squares failed: %s", gsl_strerror(g));
			goto out;
		}
		double s2 = n > p ? chisq / (double)(n - p) : NAN;
		*sigma = sqrt(s2);
		for (size_t k = 0; k < p; k++) {
			c[k] = gsl_vector_get(cv, k);
			for (size_t l = 0; l < p; l++)
				cov[k * p + l] = gsl_matrix_get(C, k, l) * s2;
		}
	} else if (method == IW_FIT_ROBUST) {
		gsl_multifit_robust_workspace *ws = gsl_multifit_robust_alloc(gsl_multifit_robust_bisquare, n, p);
		int g = ws ? gsl_multifit_robust(Xm, yv, cv, C, ws) : GSL_ENOMEM;
		/* GSL_EMAXITER still leaves the last iterate; report it as a warning
		 * upstream rather than failing (the weights are usable). */
		if (g && g != GSL_EMAXITER) {
			gsl_multifit_robust_free(ws);
			rc = iw_fail(e, IW_ERUN, "robust least squares failed: %s", gsl_strerror(g));
			goto out;
		}
		*maxiter = g == GSL_EMAXITER;
		gsl_multifit_robust_stats st = gsl_multifit_robust_statistics(ws);
		*sigma = st.sigma;
		*r2 = st.Rsq;
		*adj = st.adj_Rsq;
		for (size_t i = 0; i < n; i++)
			rw[i] = gsl_vector_get(st.weights, i);
		for (size_t k = 0; k < p; k++) {
			c[k] = gsl_vector_get(cv, k);
			for (size_t l = 0; l < p; l++)
				cov[k * p + l] = gsl_matrix_get(C, k, l);
		}
		gsl_multifit_robust_free(ws);
	} else { /* NNLS on sqrt(w)-scaled rows */
		double *A = iw_malloc(n * p * sizeof *A), *b = iw_malloc(n * sizeof *b);
		int *set = iw_calloc(p, sizeof *set);
		if (!A || !b || !set) {
			iw_free(A);
			iw_free(b);
			iw_free(set);
			rc = iw_fail(e, IW_ERUN, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			double sw = w ? sqrt(w[i]) : 1;
			for (size_t k = 0; k < p; k++)
				A[i * p + k] = X[i * p + k] * sw;
			b[i] = y[i] * sw;
		}
		rc = iw_nnls(A, b, n, p, c, e);
		size_t free_n = 0;
		double chisq = 0;
		for (size_t i = 0; rc == 0 && i < n; i++) {
			double r = b[i];
			for (size_t k = 0; k < p; k++)
				r -= A[i * p + k] * c[k];
			chisq += r * r;
		}
		for (size_t k = 0; k < p; k++) {
			at_bound[k] = c[k] <= 0;
			set[k] = !at_bound[k];
			free_n += (size_t)set[k];
		}
		for (size_t k = 0; k < p * p; k++)
			cov[k] = 0;
		if (rc == 0 && free_n) {
			/* Covariance of the free coefficients: s^2 (A_P' A_P)^-1. */
			gsl_matrix *AP = gsl_matrix_alloc(n, free_n), *CP = gsl_matrix_alloc(free_n, free_n);
			gsl_vector *bp = gsl_vector_alloc(n), *xp = gsl_vector_alloc(free_n);
			gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, free_n);
			double cs;
			int g = GSL_ENOMEM;
			if (AP && CP && bp && xp && ws) {
				for (size_t i = 0; i < n; i++) {
					size_t q = 0;
					for (size_t k = 0; k < p; k++)
						if (set[k])
							gsl_matrix_set(AP, i, q++, A[i * p + k]);
					gsl_vector_set(bp, i, b[i]);
				}
				g = gsl_multifit_linear(AP, bp, xp, CP, &cs, ws);
			}
			if (g == 0) {
				/* gsl_multifit_linear scales by chisq/(n-p_free) already. */
				size_t qa = 0;
				for (size_t k = 0; k < p; k++) {
					if (!set[k])
						continue;
					size_t qb = 0;
					for (size_t l = 0; l < p; l++)
						if (set[l])
							cov[k * p + l] = gsl_matrix_get(CP, qa, qb++);
					qa++;
				}
			} else {
				rc = iw_fail(e, IW_ERUN, "covariance of the non-negative fit failed: %s", gsl_strerror(g));
			}
			gsl_matrix_free(AP);
			gsl_matrix_free(CP);
			gsl_vector_free(bp);
			gsl_vector_free(xp);
			gsl_multifit_linear_free(ws);
		}
		*sigma = n > free_n ? sqrt(chisq / (double)(n - free_n)) : NAN;
		iw_free(A);
		iw_free(b);
		iw_free(set);
	}
out:
	gsl_matrix_free(Xm);
	gsl_matrix_free(C);
	gsl_vector_free(yv);
	gsl_vector_free(wv);
	gsl_vector_free(cv);
	return rc;
}

/* Reciprocal condition number and the direction of near-dependence of the
 * scaled design (right singular vector of the smallest singular value). */
static int condition(const double *Xs, size_t n, size_t p, double *rcond, double *null_dir)
{
	gsl_matrix *A = gsl_matrix_alloc(n, p), *V = gsl_matrix_alloc(p, p);
	gsl_vector *S = gsl_vector_alloc(p), *wk = gsl_vector_alloc(p);
	int rc = -1;
	if (A && V && S && wk) {
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < p; k++)
				gsl_matrix_set(A, i, k, Xs[i * p + k]);
		if (gsl_linalg_SV_decomp(A, V, S, wk) == 0) {
			double s0 = gsl_vector_get(S, 0), sl = gsl_vector_get(S, p - 1);
			*rcond = s0 > 0 ? sl / s0 : 0;
			for (size_t k = 0; k < p; k++)
				null_dir[k] = gsl_matrix_get(V, k, p - 1);
			rc = 0;
		}
	}
	gsl_matrix_free(A);
	gsl_matrix_free(V);
	gsl_vector_free(S);
	gsl_vector_free(wk);
	return rc;
}

/* Below this the design cannot separate the coefficients (double precision
 * leaves about 16 digits; 1e-10 keeps 6 for the answer). */
#define RCOND_FAIL 1e-10
#define RCOND_WARN 1e-6
/* A bisquare weight under 1/2 means a residual beyond ~2.5 robust standard
 * deviations (tuning constant 4.685): the point is flagged as an outlier. */
#define OUTLIER_WEIGHT 0.5

int iw_fit(const double *X, const double *y, const double *w, size_t n, size_t p, enum iw_fit_method method,
	   const char *const *names, const char *const *hints, struct iw_fit_result *res, struct iw_err *e)
{
	gsl_set_error_handler_off();
	memset(res, 0, sizeof *res);
	res->n = n;
	res->p = p;
	res->method = method;
	if (p == 0)
		return iw_fail(e, IW_EINPUT, "expected at least one coefficient to fit, found none");
	if (n < p)
		return iw_fail(e, IW_EINPUT,
			       "expected at least %zu points for %zu coefficients, found %zu: add points (more sizes)",
			       p + 1, p, n);
	if (n == p)
		return iw_fail(e, IW_EINPUT,
			       "expected more points than the %zu coefficients to estimate standard errors, found %zu: "
			       "add at least one point",
			       p, n);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return iw_fail(e, IW_EINPUT, "point %zu: expected a finite measured value", i + 1);
		if (w && !(w[i] > 0 && isfinite(w[i])))
			return iw_fail(e, IW_EINPUT, "point %zu: expected a positive weight, found %g", i + 1, w[i]);
	}
	double *scale = iw_calloc(p, sizeof *scale), *Xs = iw_malloc(n * p * sizeof *Xs);
	double *cov = iw_malloc(p * p * sizeof *cov), *cs = iw_malloc(p * sizeof *cs), *dir = iw_malloc(p * sizeof *dir);
	double *Xl = iw_malloc(n * p * sizeof *Xl), *yl = iw_malloc(n * sizeof *yl), *wl = iw_malloc(n * sizeof *wl);
	double *rwl = iw_malloc(n * sizeof *rwl), *covl = iw_malloc(p * p * sizeof *covl);
	int *abl = iw_malloc(p * sizeof *abl);
	res->coef = iw_calloc(p, sizeof *res->coef);
	res->se = iw_calloc(p, sizeof *res->se);
	res->at_bound = iw_calloc(p, sizeof *res->at_bound);
	res->fitted = iw_calloc(n, sizeof *res->fitted);
	res->loo = iw_calloc(n, sizeof *res->loo);
	res->weight = iw_calloc(n, sizeof *res->weight);
	res->outlier = iw_calloc(n, sizeof *res->outlier);
	res->cov = iw_calloc(p * p, sizeof *res->cov);
	int rc = 0;
	if (!scale || !Xs || !cov || !cs || !dir || !Xl || !yl || !wl || !rwl || !covl || !abl || !res->coef ||
	    !res->se || !res->at_bound || !res->fitted || !res->loo || !res->weight || !res->outlier || !res->cov) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < p; k++) {
		for (size_t i = 0; i < n; i++)
			scale[k] = fmax(scale[k], fabs(X[i * p + k]));
		if (!(scale[k] > 0) || !isfinite(scale[k])) {
			rc = iw_fail(e, IW_EINPUT,
				     "coefficient '%s': its feature is %s at every point, so the points say nothing about it; "
				     "vary %s",
				     names ? names[k] : "?", isfinite(scale[k]) ? "zero" : "not finite",
				     hints && hints[k] ? hints[k] : "the structure's parameters");
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			Xs[i * p + k] = X[i * p + k] / scale[k];
	}
	if (condition(Xs, n, p, &res->rcond, dir) != 0) {
		rc = iw_fail(e, IW_ERUN, "singular value decomposition of the design failed");
		goto out;
	}
	if (res->rcond < RCOND_FAIL) {
		/* Name the coefficients that take part in the near-dependence and
		 * the parameters that drive their features. */
		char who[600] = "", vary[600] = "";
		double big = 0;
		for (size_t k = 0; k < p; k++)
			big = fmax(big, fabs(dir[k]));
		for (size_t k = 0; k < p; k++) {
			if (fabs(dir[k]) < 0.1 * big)
				continue;
			snprintf(who + strlen(who), sizeof who - strlen(who), "%s'%s'", who[0] ? ", " : "",
				 names ? names[k] : "?");
			const char *h = hints && hints[k] ? hints[k] : "";
			if (*h && !strstr(vary, h))
				snprintf(vary + strlen(vary), sizeof vary - strlen(vary), "%s%s", vary[0] ? "; " : "", h);
		}
		rc = iw_fail(e, IW_EINPUT,
			     "ill-conditioned design (reciprocal condition number %.2g): the coefficients %s cannot be "
			     "told apart over these points (their features are collinear); add points that vary %s "
			     "independently",
			     res->rcond, who, vary[0] ? vary : "the parameters of those features");
		goto out;
	}
	if (res->rcond < RCOND_WARN)
		snprintf(res->warning, sizeof res->warning,
			 "poorly conditioned design (reciprocal condition number %.2g): standard errors are large; "
			 "spread the parameters further",
			 res->rcond);
	int maxiter = 0;
	rc = fit_core(Xs, y, w, n, p, method, cs, cov, res->weight, res->at_bound, &res->r2, &res->adj_r2, &res->sigma,
		      &maxiter, e);
	if (rc)
		goto out;
	if (maxiter)
		snprintf(res->warning, sizeof res->warning,
			 "the robust fit reached its iteration limit before converging; its weights and outlier flags "
			 "are from the last iteration");
	for (size_t k = 0; k < p; k++) {
		res->coef[k] = cs[k] / scale[k];
		double v = cov[k * p + k];
		res->se[k] = v > 0 ? sqrt(v) / scale[k] : 0;
		for (size_t l = 0; l < p; l++)
			res->cov[k * p + l] = cov[k * p + l] / (scale[k] * scale[l]);
	}
	double sw = 0, swy = 0;
	for (size_t i = 0; i < n; i++) {
		double f = 0;
		for (size_t k = 0; k < p; k++)
			f += X[i * p + k] * res->coef[k];
		res->fitted[i] = f;
		double wi = (method != IW_FIT_OLS && w) ? w[i] : 1;
		sw += wi;
		swy += wi * y[i];
	}
	if (method != IW_FIT_ROBUST) {
		double mean = swy / sw, sse = 0, sst = 0;
		for (size_t i = 0; i < n; i++) {
			double wi = (method != IW_FIT_OLS && w) ? w[i] : 1;
			sse += wi * (y[i] - res->fitted[i]) * (y[i] - res->fitted[i]);
			sst += wi * (y[i] - mean) * (y[i] - mean);
		}
		res->r2 = sst > 0 ? 1 - sse / sst : (sse == 0 ? 1 : 0);
		res->adj_r2 = 1 - (1 - res->r2) * (double)(n - 1) / (double)(n - p);
	} else {
		for (size_t i = 0; i < n; i++)
			if (res->weight[i] < OUTLIER_WEIGHT) {
				res->outlier[i] = 1;
				res->noutliers++;
			}
	}
	/* Leave-one-out: refit without each point with the same method (small n,
	 * and the hat-matrix shortcut does not hold for robust or NNLS fits). */
	double sq = 0;
	size_t nsq = 0;
	for (size_t i = 0; i < n; i++) {
		size_t m = 0;
		for (size_t j = 0; j < n; j++) {
			if (j == i)
				continue;
			memcpy(Xl + m * p, Xs + j * p, p * sizeof *Xl);
			yl[m] = y[j];
			wl[m] = w ? w[j] : 1;
			m++;
		}
		struct iw_err le = {0};
		double r2, adj, sg;
		int mi;
		res->loo[i] = NAN;
		if (m >= p && fit_core(Xl, yl, wl, m, p, method, cs, covl, rwl, abl, &r2, &adj, &sg, &mi, &le) == 0) {
			double f = 0;
			for (size_t k = 0; k < p; k++)
				f += Xs[i * p + k] * cs[k];
			if (isfinite(f)) {
				res->loo[i] = f;
				sq += (y[i] - f) * (y[i] - f);
				nsq++;
			}
		}
	}
	res->loo_rmse = nsq ? sqrt(sq / (double)nsq) : NAN;
out:
	iw_free(scale);
	iw_free(Xs);
	iw_free(cov);
	iw_free(cs);
	iw_free(dir);
	iw_free(Xl);
	iw_free(yl);
	iw_free(wl);
	iw_free(rwl);
	iw_free(covl);
	iw_free(abl);
	if (rc)
		iw_fit_result_free(res);
	return rc;
}
