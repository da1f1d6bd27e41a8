/* reports/job.c -- a job: workloads x schemes on one configuration and
 * technology, priced and compared with the in-order baseline. */
#include "reports.h"

#include <libxml/tree.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static int add_str(char ***v, size_t *n, const char *s, struct iw_err *e)
{
	char **nv = iw_realloc(*v, (*n + 1) * sizeof **v);
	if (!nv)
		return iw_fail(e, IW_ERUN, "out of memory");
	*v = nv;
	if (!(nv[*n] = iw_strdup(s)))
		return iw_fail(e, IW_ERUN, "out of memory");
	(*n)++;
	return 0;
}

static int has_str(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

/* Each item of a list through `fn`: pieces separated by line breaks (one per
 * command-line option), each piece a comma-separated list unless it names an
 * existing file or folder (a trace path may hold a comma). */
static int each_item(const char *list, int (*fn)(struct iw_job *, const char *, struct iw_err *), struct iw_job *j,
		     struct iw_err *e)
{
	char *buf = iw_strdup(list);
	if (!buf)
		return iw_fail(e, IW_ERUN, "out of memory");
	int rc = 0;
	char *save = NULL;
	for (char *piece = strtok_r(buf, "\n", &save); rc == 0 && piece; piece = strtok_r(NULL, "\n", &save)) {
		piece = iw_trim(piece);
		if (strchr(piece, ',') && access(piece, F_OK) == 0) {
			rc = fn(j, piece, e);
			continue;
		}
		char *save2 = NULL;
		for (char *t = strtok_r(piece, ",", &save2); rc == 0 && t; t = strtok_r(NULL, ",", &save2)) {
			t = iw_trim(t);
			if (*t)
				rc = fn(j, t, e);
		}
	}
	iw_free(buf);
	return rc;
}

static int add_scheme(struct iw_job *j, const char *name, struct iw_err *e)
{
	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < iw_scheme_count(); i++)
			if (!has_str(j->schemes, j->nschemes, iw_scheme_name(i))) {
				int rc = add_str(&j->schemes, &j->nschemes, iw_scheme_name(i), e);
				if (rc)
					return rc;
			}
		return 0;
	}
	if (iw_scheme_find(name) < 0) {
		char known[512] = "";
		for (size_t i = 0; i < iw_scheme_count(); i++)
			snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", iw_scheme_name(i));
		return iw_fail(e, IW_EINPUT, "--scheme %s: unknown scheme; expected one of: %s, all", name, known);
	}
	return has_str(j->schemes, j->nschemes, name) ? 0 : add_str(&j->schemes, &j->nschemes, name, e);
}

static int add_workload(struct iw_job *j, const char *name, struct iw_err *e)
{
	if (strcmp(name, "builtin") == 0 && iw_builtin_count() > 0) {
		/* The default set, one row per kernel so the table compares them. */
		for (size_t i = 0; i < iw_builtin_count(); i++) {
			const char *n = iw_builtin_get(i)->name;
			if (!iw_builtin_get(i)->in_default_set || has_str(j->workloads, j->nworkloads, n))
				continue;
			int rc = add_str(&j->workloads, &j->nworkloads, n, e);
			if (rc)
				return rc;
		}
		return 0;
	}
	/* A built-in's knobs are checked now, not after the workloads before it
	 * have run; so are a trace's list and its kernels' headers (their bodies
	 * are read when their turn comes: a whole pass would cost a run's
	 * parsing again), and whether each kernel's CTA fits an SM. */
	{
		struct iw_workload *w = NULL;
		struct iw_kernel_info ki;
		uint32_t warps;
		int rc = iw_workload_open(name, (uint64_t)j->cfg.seed, j->cfg.workload_scale, &w, e);
		if (rc)
			return rc;
		while ((rc = w->ops->next_kernel(w, &ki, e)) > 0)
			if ((rc = iw_kernel_fits(&j->cfg, w->name, &ki, &warps, e)))
				break;
		iw_workload_close(w);
		if (rc)
			return rc;
	}
	/* (named twice, it would be run twice and count twice in the means) */
	return has_str(j->workloads, j->nworkloads, name) ? 0 : add_str(&j->workloads, &j->nworkloads, name, e);
}

int iw_job_init(struct iw_job *j, const char *config, const char *tech, char *const *sets, size_t nsets,
		const char *schemes, const char *workloads, struct iw_err *e)
{
	memset(j, 0, sizeof *j);
	iw_config_defaults(&j->cfg);
	int rc = iw_config_load(&j->cfg, config, NULL, e);
	if (rc)
		return rc;
	rc = iw_tech_load(&j->tech, tech, e);
	if (rc)
		return rc;
	for (size_t i = 0; i < nsets; i++) {
		if (strncmp(sets[i], "tech.", 5) == 0)
			rc = iw_tech_set(&j->tech, sets[i] + 5, e);
		else
			rc = iw_config_set(&j->cfg, sets[i], e);
		if (rc)
			return rc;
	}
	rc = iw_config_check(&j->cfg, e);
	if (rc)
		return rc;
	if (!(j->config_xml = iw_config_to_xml(&j->cfg)))
		return iw_fail(e, IW_ERUN, "out of memory");
	/* The baseline runs first: every other scheme is measured against it. */
	rc = add_str(&j->schemes, &j->nschemes, "inorder", e);
	if (rc == 0)
		rc = each_item(schemes, add_scheme, j, e);
	if (rc == 0)
		rc = each_item(workloads, add_workload, j, e);
	if (rc == 0 && j->nworkloads == 0)
		rc = iw_fail(e, IW_EUSAGE, "no workload given");
	return rc;
}

void iw_row_free(struct iw_row *r)
{
	iw_run_result_free(&r->run);
	iw_power_result_free(&r->power);
	iw_free(r->params);
	r->params = NULL;
	iw_free(r->sens);
	r->sens = NULL;
	r->nsens = 0;
}

void iw_job_free(struct iw_job *j)
{
	for (size_t i = 0; i < j->nrows; i++)
		iw_row_free(&j->rows[i]);
	iw_free(j->rows);
	for (size_t i = 0; i < j->nworkloads; i++)
		iw_free(j->workloads[i]);
	for (size_t i = 0; i < j->nschemes; i++)
		iw_free(j->schemes[i]);
	iw_free(j->workloads);
	iw_free(j->schemes);
	iw_free(j->config_xml);
	iw_tech_free(&j->tech);
	memset(j, 0, sizeof *j);
}

int iw_row_price(struct iw_row *r, const struct iw_config *c, const struct iw_tech *t, struct iw_err *e)
{
	int rc = iw_power_eval(c, r->scheme, t, &r->run, &r->power, e);
	if (rc == 0)
		rc = iw_area_eval(c, r->scheme, t, &r->area, e);
	if (rc)
		return rc;
	r->seconds = (double)r->run.cycles / ((t->clock_mhz > 0 ? t->clock_mhz : c->clock_mhz) * 1e6);
	snprintf(r->config, sizeof r->config, "%s", c->name);
	snprintf(r->tech, sizeof r->tech, "%s", t->name);
	return 0;
}

static double ratio(double a, double b) { return b > 0 ? a / b : (a > 0 ? INFINITY : 1.0); }

struct kernel_ctx {
	const struct iw_config *cfg;
	const struct iw_run_result *kernel;
};

/* A kernel's energy and power with technology t (counts times coefficients). */
static int kernel_eval(const struct iw_tech *t, void *ctx, double *v, struct iw_err *e)
{
	const struct kernel_ctx *x = ctx;
	struct iw_power_result pw;
	int rc = iw_power_eval(x->cfg, x->kernel->scheme, t, x->kernel, &pw, e);
	if (rc == 0) {
		v[0] = pw.energy_j;
		v[1] = pw.avg_power_w;
	}
	iw_power_result_free(&pw);
	return rc;
}

/* The first failure is the run's (a later kernel is not priced). */
static void pricer_fail(struct iw_kernel_pricer *p, int rc, const struct iw_err *e)
{
	if (!p->rc) {
		p->rc = rc;
		p->err = *e;
	}
}

void iw_price_kernel(void *ctx, const struct iw_run_result *kernel, struct iw_kernel_stat *k)
{
	struct iw_kernel_pricer *p = ctx;
	struct kernel_ctx x = {p->cfg, kernel};
	struct iw_err e = {0};
	double v[2];
	int rc = p->rc ? p->rc : kernel_eval(p->tech, &x, v, &e);
	if (rc) {
		pricer_fail(p, rc, &e); /* (the record stays NaN: unpriced) */
		return;
	}
	k->energy_j = v[0];
	k->avg_power_w = v[1];
	k->energy_j_se = k->avg_power_w_se = 0;
	size_t nk = iw_tech_uncertain(p->tech);
	if (!nk)
		return;
	/* (at a kernel's end only: the buffer doubles) */
	if (p->n + nk > p->cap) {
		size_t cap = 2 * p->cap > p->n + nk ? 2 * p->cap : 8 * nk + p->n;
		double *ns = iw_realloc(p->sens, cap * sizeof *ns);
		if (!ns) {
			pricer_fail(p, iw_fail(&e, IW_ERUN, "out of memory"), &e);
			return;
		}
		p->sens = ns;
		p->cap = cap;
	}
	double *d = iw_malloc(nk * 2 * sizeof *d), *corr = iw_malloc(nk * nk * sizeof *corr);
	rc = !d || !corr ? iw_fail(&e, IW_ERUN, "out of memory") : iw_tech_sensitivities(p->tech, kernel_eval, &x, 2, d, &e);
	if (rc) {
		pricer_fail(p, rc, &e);
	} else {
		iw_tech_uncertain_corr(p->tech, corr);
		k->energy_j_se = iw_se_combine(nk, corr, d, 2);
		k->avg_power_w_se = iw_se_combine(nk, corr, d + 1, 2);
		for (size_t c = 0; c < nk; c++)
			p->sens[p->n++] = d[2 * c];
	}
	iw_free(d);
	iw_free(corr);
}

int iw_kernel_pricer_done(struct iw_kernel_pricer *p, struct iw_run_result *r, int rc, struct iw_err *e)
{
	size_t nk = iw_tech_uncertain(p->tech);
	if (rc == 0 && p->rc) {
		*e = p->err;
		rc = p->rc;
	}
	if (rc == 0 && nk && p->n != r->nkstats * nk) /* (every kernel's end calls the hook) */
		rc = iw_fail(e, IW_ERUN, "internal: sensitivities for %zu of %zu kernels", p->n / nk, r->nkstats);
	if (rc == 0 && nk) {
		r->ksens = p->sens;
		r->nksens = nk;
		p->sens = NULL;
	}
	iw_free(p->sens);
	p->sens = NULL;
	p->n = p->cap = 0;
	return rc;
}

void iw_row_metrics(struct iw_row *r, const struct iw_row *b)
{
	/* The chip as modified: the die plus what this scheme adds over the
	 * baseline's issue logic (ADP uses it, as the thesis normalises area). */
	double area = r->area.die_mm2 + (r->area.gpu_mm2 - b->area.gpu_mm2);
	double barea = b->area.die_mm2;
	if (r->area.kind == IW_TECH_FPGA) {
		area = r->area.total_area_pct;
		barea = b->area.total_area_pct;
	}
	r->area_mm2 = r->area.kind == IW_TECH_FPGA ? 0 : area;
	r->fpga_area_pct = r->area.kind == IW_TECH_FPGA ? area : 0;
	r->speedup = ratio(b->seconds, r->seconds);
	r->energy_rel = ratio(r->power.energy_j, b->power.energy_j);
	r->adp_rel = ratio(area * r->seconds, barea * b->seconds);
	r->pdp_rel = ratio(r->power.avg_power_w * r->seconds, b->power.avg_power_w * b->seconds);
	r->edp_rel = ratio(r->power.energy_j * r->seconds, b->power.energy_j * b->seconds);
	r->sm_speedup = ratio(b->run.sm_busy_mean, r->run.sm_busy_mean);
}

const char *const iw_se_names[IW_SE_COUNT] = {"energy_j_se",   "avg_power_w_se", "area_mm2_se", "fpga_area_pct_se",
						   "energy_rel_se", "adp_rel_se",     "pdp_rel_se",  "edp_rel_se"};

static void se_metrics(const struct iw_row *x, double *v)
{
	v[IW_SE_ENERGY] = x->power.energy_j;
	v[IW_SE_POWER] = x->power.avg_power_w;
	v[IW_SE_AREA] = x->area_mm2;
	v[IW_SE_FPGA_PCT] = x->fpga_area_pct;
	v[IW_SE_ENERGY_REL] = x->energy_rel;
	v[IW_SE_ADP_REL] = x->adp_rel;
	v[IW_SE_PDP_REL] = x->pdp_rel;
	v[IW_SE_EDP_REL] = x->edp_rel;
}

struct se_ctx {
	const struct iw_row *r, *b;
	const struct iw_config *c;
};

/* A row's metrics with technology t: the row and its baseline priced again
 * (pricing is counts times coefficients: no simulation).  The baseline moves
 * with the row, so a _rel metric's error counts only what the two runs do
 * not share. */
static int se_eval(const struct iw_tech *t, void *ctx, double *v, struct iw_err *e)
{
	const struct se_ctx *x = ctx;
	struct iw_row r = *x->r, b = *x->b;
	struct iw_power_result pr = {0}, pb = {0};
	int same = x->r == x->b;
	/* (totals only: the power time series is not among the metrics) */
	r.run.series.n = b.run.series.n = 0;
	int rc = iw_power_eval(x->c, r.scheme, t, &r.run, &pr, e);
	if (!rc)
		rc = iw_area_eval(x->c, r.scheme, t, &r.area, e);
	if (!rc && !same)
		rc = iw_power_eval(x->c, b.scheme, t, &b.run, &pb, e);
	if (!rc && !same)
		rc = iw_area_eval(x->c, b.scheme, t, &b.area, e);
	if (!rc) {
		r.power = pr;
		b.power = same ? pr : pb;
		if (same)
			b.area = r.area;
		iw_row_metrics(&b, &b);
		iw_row_metrics(&r, &b);
		se_metrics(&r, v);
	}
	iw_power_result_free(&pr);
	iw_power_result_free(&pb);
	return rc;
}

int iw_row_model_se(struct iw_row *r, const struct iw_row *b, const struct iw_config *c, const struct iw_tech *t,
		    struct iw_err *e)
{
	struct se_ctx x = {r, b, c};
	size_t nk = iw_tech_uncertain(t);
	memset(r->se, 0, sizeof r->se);
	iw_free(r->sens);
	r->sens = NULL;
	r->nsens = 0;
	if (!nk)
		return 0;
	double *corr = iw_malloc(nk * nk * sizeof *corr);
	r->sens = iw_calloc(nk * IW_SE_COUNT, sizeof *r->sens);
	int rc = !r->sens || !corr ? iw_fail(e, IW_ERUN, "out of memory")
				   : iw_tech_sensitivities(t, se_eval, &x, IW_SE_COUNT, r->sens, e);
	if (!rc) {
		r->nsens = nk;
		iw_tech_uncertain_corr(t, corr);
		for (int m = 0; m < IW_SE_COUNT; m++)
			r->se[m] = iw_se_combine(nk, corr, r->sens + m, IW_SE_COUNT);
	} else {
		iw_free(r->sens);
		r->sens = NULL;
	}
	iw_free(corr);
	return rc;
}

int iw_model_unc_of(struct iw_model_unc *u, const struct iw_tech *t, struct iw_err *e)
{
	memset(u, 0, sizeof *u);
	size_t nk = iw_tech_uncertain(t);
	if (!nk)
		return 0;
	u->names = iw_calloc(nk, sizeof *u->names);
	u->std_error = iw_calloc(nk, sizeof *u->std_error);
	u->corr = iw_calloc(nk * nk, sizeof *u->corr);
	if (!u->names || !u->std_error || !u->corr) {
		iw_model_unc_free(u);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	for (size_t i = 0; i < t->ncoef; i++) {
		const struct iw_coef *c = &t->coef[i];
		if (iw_coef_has_error(c)) {
			snprintf(u->names[u->n], sizeof u->names[u->n], "%s", c->name);
			u->std_error[u->n++] = c->std_error;
		}
	}
	iw_tech_uncertain_corr(t, u->corr);
	return 0;
}

void iw_model_unc_free(struct iw_model_unc *u)
{
	iw_free(u->names);
	iw_free(u->std_error);
	iw_free(u->corr);
	memset(u, 0, sizeof *u);
}

int iw_model_unc_same(const struct iw_model_unc *a, const struct iw_model_unc *b)
{
	return a->n == b->n && (!a->n || (memcmp(a->names, b->names, a->n * sizeof *a->names) == 0 &&
					   memcmp(a->std_error, b->std_error, a->n * sizeof *a->std_error) == 0 &&
					   memcmp(a->corr, b->corr, a->n * a->n * sizeof *a->corr) == 0));
}

double iw_model_unc_se(const struct iw_model_unc *u, const double *d, size_t stride)
{
	return iw_se_combine(u->n, u->corr, d, stride);
}

/* Geometric means with technology t: every row and its baseline priced
 * again (se_eval), the logarithms averaged over the workloads. */
static int gm_eval(const struct iw_tech *t, void *ctx, double *v, struct iw_err *e)
{
	const struct iw_job *j = ctx;
	for (size_t s = 0; s < j->nschemes; s++) {
		double lg[IW_GM_COUNT] = {0};
		for (size_t w = 0; w < j->nworkloads; w++) {
			struct se_ctx x = {&j->rows[w * j->nschemes + s], &j->rows[w * j->nschemes], &j->cfg};
			double m[IW_SE_COUNT];
			int rc = se_eval(t, &x, m, e);
			if (rc)
				return rc;
			lg[IW_GM_SPEEDUP] += log(x.r->speedup);
			lg[IW_GM_ENERGY] += log(m[IW_SE_ENERGY_REL]);
			lg[IW_GM_ADP] += log(m[IW_SE_ADP_REL]);
			lg[IW_GM_EDP] += log(m[IW_SE_EDP_REL]);
		}
		for (int k = 0; k < IW_GM_COUNT; k++)
			v[s * IW_GM_COUNT + k] = exp(lg[k] / (double)j->nworkloads);
	}
	return 0;
}

int iw_job_geomeans(const struct iw_job *j, double *gm, double *se, struct iw_err *e)
{
	size_t nv = j->nschemes * IW_GM_COUNT;
	int rc = gm_eval(&j->tech, (void *)j, gm, e);
	if (!rc)
		rc = iw_tech_propagate(&j->tech, gm_eval, (void *)j, nv, se, e);
	return rc;
}

int iw_job_geomean_text(FILE *f, const struct iw_job *j, struct iw_err *e)
{
	if (j->nworkloads < 2 || !j->nschemes)
		return 0;
	size_t nv = j->nschemes * IW_GM_COUNT;
	double *gm = iw_malloc(2 * nv * sizeof *gm), *se = gm ? gm + nv : NULL;
	if (!gm)
		return iw_fail(e, IW_ERUN, "out of memory");
	int rc = iw_job_geomeans(j, gm, se, e);
	int any = 0;
	for (size_t k = 0; !rc && k < nv; k++)
		any |= se[k] > 0;
	if (!rc) {
		fprintf(f, "\nGeometric mean over the %zu workloads%s\n%-8s %10s %18s %18s %18s\n", j->nworkloads,
			any ? " (+- one standard error from the fitted coefficients)" : "", "scheme", "speedup",
			"energy", "ADP", "EDP");
		for (size_t s = 0; s < j->nschemes; s++) {
			const double *g = gm + s * IW_GM_COUNT, *u = se + s * IW_GM_COUNT;
			fprintf(f, "%-8s %10.3f", j->schemes[s], g[IW_GM_SPEEDUP]);
			for (int k = IW_GM_ENERGY; k < IW_GM_COUNT; k++) {
				char b[64];
				if (any)
					snprintf(b, sizeof b, "%.4f +- %.2g", g[k], u[k]);
				else
					snprintf(b, sizeof b, "%.3f", g[k]);
				fprintf(f, " %18s", b);
			}
			fputc('\n', f);
		}
	}
	iw_free(gm);
	return rc;
}

/* Row k = workload x nschemes + scheme: open, simulate, price.  `mu`
 * (may be NULL) orders the progress lines of parallel runs. */
static int run_row(struct iw_job *j, size_t k, pthread_mutex_t *mu, struct iw_err *e)
{
	size_t wi = k / j->nschemes, si = k % j->nschemes;
	struct iw_row *r = &j->rows[k];
	struct iw_workload *w = NULL;
	int rc = iw_workload_open(j->workloads[wi], (uint64_t)j->cfg.seed, j->cfg.workload_scale, &w, e);
	if (rc)
		return rc;
	if (j->verbose) {
		if (mu)
			pthread_mutex_lock(mu);
		fprintf(stderr, "issuewatt: %s with %s ...\n", w->name, j->schemes[si]);
		if (mu)
			pthread_mutex_unlock(mu);
	}
	struct iw_kernel_pricer kp = {.cfg = &j->cfg, .tech = &j->tech};
	struct iw_sim_opts o = {.cfg = &j->cfg, .scheme = j->schemes[si], .on_kernel = iw_price_kernel, .kernel_ctx = &kp};
	rc = iw_kernel_pricer_done(&kp, &r->run, iw_simulate(&o, w, &r->run, e), e);
	snprintf(r->workload, sizeof r->workload, "%s", w->name[0] ? w->name : j->workloads[wi]);
	iw_workload_close(w);
	if (rc)
		return rc;
	snprintf(r->scheme, sizeof r->scheme, "%s", j->schemes[si]);
	return iw_row_price(r, &j->cfg, &j->tech, e);
}

/* Rows handed out in order to worker threads.  Every row before a failed
 * one was handed out before it and runs to its end, so the lowest failed
 * row, the one reported, is the one a run in order stops at. */
struct row_pool {
	struct iw_job *j;
	pthread_mutex_t mu;
	size_t next, failed_at;
	int rc;
	struct iw_err err;
};

static void *row_worker(void *arg)
{
	struct row_pool *p = arg;
	size_t n = p->j->nworkloads * p->j->nschemes;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		size_t k = p->next < n && p->failed_at == SIZE_MAX ? p->next++ : SIZE_MAX;
		pthread_mutex_unlock(&p->mu);
		if (k == SIZE_MAX)
			return NULL;
		struct iw_err e = {0};
		int rc = run_row(p->j, k, &p->mu, &e);
		if (rc) {
			pthread_mutex_lock(&p->mu);
			if (k < p->failed_at) {
				p->failed_at = k;
				p->rc = rc;
				p->err = e;
			}
			pthread_mutex_unlock(&p->mu);
		}
	}
}

int iw_job_run(struct iw_job *j, struct iw_err *e)
{
	size_t n = j->nworkloads * j->nschemes;
	j->nrows = 0;
	j->rows = iw_calloc(n ? n : 1, sizeof *j->rows);
	if (!j->rows)
		return iw_fail(e, IW_ERUN, "out of memory");
	int jobs = j->jobs;
	if (jobs < 0)
		jobs = iw_cores();
	if ((size_t)jobs > n)
		jobs = (int)n;
	pthread_t th[64];
	int started = 0;
	struct row_pool p = {.j = j, .next = 0, .failed_at = SIZE_MAX};
	if (jobs > 1) {
		pthread_mutex_init(&p.mu, NULL);
		for (; started < jobs && started < 64; started++)
			if (pthread_create(&th[started], NULL, row_worker, &p))
				break;
		if (!started)
			pthread_mutex_destroy(&p.mu);
	}
	if (started) {
		for (int i = 0; i < started; i++)
			pthread_join(th[i], NULL);
		pthread_mutex_destroy(&p.mu);
		j->nrows = n; /* rows not run are zeroed: iw_job_free takes them all */
		if (p.failed_at != SIZE_MAX) {
			*e = p.err;
			return p.rc;
		}
	} else {
		/* one at a time (and the library's default: the allocation-failure
		 * tests count allocations in order) */
		for (size_t k = 0; k < n; k++) {
			j->nrows = k + 1;
			int rc = run_row(j, k, NULL, e);
			if (rc)
				return rc;
		}
	}
	for (size_t wi = 0; wi < j->nworkloads; wi++) {
		struct iw_row *base = &j->rows[wi * j->nschemes];
		for (size_t si = 0; si < j->nschemes; si++)
			iw_row_metrics(&j->rows[wi * j->nschemes + si], base);
		for (size_t si = 0; si < j->nschemes; si++) {
			int rc = iw_row_model_se(&j->rows[wi * j->nschemes + si], base, &j->cfg, &j->tech, e);
			if (rc)
				return rc;
		}
	}
	return 0;
}

void iw_summary_text(FILE *f, const struct iw_row *rows, size_t n)
{
	/* On an FPGA device the area is the thesis's Total Area(%) of the device,
	 * which the ADP uses, not mm^2 (a job has one technology) */
	int fpga = n > 0 && rows[0].fpga_area_pct > 0;
	fprintf(f, "%-14s %-8s %12s %12s %7s %11s %9s %9s %8s %8s %8s %8s %10s\n", "workload", "scheme", "cycles",
		"warp_insts", "ipc", "energy_J", "power_W", fpga ? "area_%" : "area_mm2", "speedup", "energy", "ADP",
		"EDP", "sm_speedup");
	for (size_t i = 0; i < n; i++) {
		const struct iw_row *r = &rows[i];
		fprintf(f, "%-14s %-8s %12llu %12llu %7.3f %11.4g %9.3f %9.*f %8.3f %8.3f %8.3f %8.3f %10.3f\n", r->workload,
			r->scheme, (unsigned long long)r->run.cycles, (unsigned long long)r->run.warp_insts, r->run.ipc,
			r->power.energy_j, r->power.avg_power_w, fpga ? 3 : 2, fpga ? r->fpga_area_pct : r->area_mm2,
			r->speedup, r->energy_rel, r->adp_rel, r->edp_rel, r->sm_speedup);
	}
	fprintf(f, "(speedup, energy, ADP and EDP are relative to inorder on the same workload; below 1 is better\n"
		   " for energy, ADP and EDP.  Energy is the whole GPU's, leakage included; delay = simulated run time;\n"
		   " PDP (power x delay) is the energy, so its ratio is the energy column (the CSV has it as pdp_rel).\n"
		   " sm_speedup: the same for the mean SM busy time, the GPU's throughput without the last SM's tail.)\n");
	int any = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < IW_SE_COUNT; k++)
			any |= rows[i].se[k] > 0;
	if (!any)
		return;
	fprintf(f, "\nModel uncertainty: value +- one standard error from the technology file's fitted coefficients\n");
	fprintf(f, "%-14s %-8s %22s %18s %18s %18s %18s\n", "workload", "scheme", "energy_J", "power_W",
		fpga ? "area_%" : "area_mm2", "energy", "EDP");
	for (size_t i = 0; i < n; i++) {
		const struct iw_row *r = &rows[i];
		int a = fpga ? IW_SE_FPGA_PCT : IW_SE_AREA;
		const double v[5][2] = {{r->power.energy_j, r->se[IW_SE_ENERGY]},
					{r->power.avg_power_w, r->se[IW_SE_POWER]},
					{fpga ? r->fpga_area_pct : r->area_mm2, r->se[a]},
					{r->energy_rel, r->se[IW_SE_ENERGY_REL]},
					{r->edp_rel, r->se[IW_SE_EDP_REL]}};
		fprintf(f, "%-14s %-8s", r->workload, r->scheme);
		for (int k = 0; k < 5; k++) {
			char b[64];
			if (k)
				snprintf(b, sizeof b, "%.*f +- %.2g", k == 1 ? 2 : k == 2 ? (fpga ? 3 : 2) : 4, v[k][0], v[k][1]);
			else
				snprintf(b, sizeof b, "%.4g +- %.2g", v[k][0], v[k][1]);
			fprintf(f, " %*s", k ? 18 : 22, b);
		}
		fputc('\n', f);
	}
	fprintf(f, "(to first order, the coefficients' correlations counted; the errors of energy and EDP against\n"
		   " inorder count only what the two runs do not share; the speed-up has none.)\n");
}

/* The numeric columns of a row, in CSV order (the JSON keys are the same
 * names): one table, so that the two outputs cannot drift apart. */
enum { COL_U64, COL_DBL, COL_DYN };
static const struct row_col {
	const char *name;
	size_t offset; /* in struct iw_row */
	int kind;      /* COL_DYN: the sum of power.dynamic_j */
	const char *fmt; /* the CSV's */
} row_cols[] = {
	{"cycles", offsetof(struct iw_row, run.cycles), COL_U64, "%.0f"},
	{"warp_insts", offsetof(struct iw_row, run.warp_insts), COL_U64, "%.0f"},
	{"ipc", offsetof(struct iw_row, run.ipc), COL_DBL, "%.6f"},
	{"seconds", offsetof(struct iw_row, seconds), COL_DBL, "%.9g"},
	{"energy_j", offsetof(struct iw_row, power.energy_j), COL_DBL, "%.9g"},
	{"dynamic_j", 0, COL_DYN, "%.9g"},
	{"static_j", offsetof(struct iw_row, power.static_j), COL_DBL, "%.9g"},
	{"avg_power_w", offsetof(struct iw_row, power.avg_power_w), COL_DBL, "%.9g"},
	{"area_mm2", offsetof(struct iw_row, area_mm2), COL_DBL, "%.6f"},
	{"speedup", offsetof(struct iw_row, speedup), COL_DBL, "%.6f"},
	{"energy_rel", offsetof(struct iw_row, energy_rel), COL_DBL, "%.6f"},
	{"adp_rel", offsetof(struct iw_row, adp_rel), COL_DBL, "%.6f"},
	{"pdp_rel", offsetof(struct iw_row, pdp_rel), COL_DBL, "%.6f"},
	{"edp_rel", offsetof(struct iw_row, edp_rel), COL_DBL, "%.6f"},
	{"fpga_area_pct", offsetof(struct iw_row, fpga_area_pct), COL_DBL, "%.6f"},
	{"sm_busy_mean", offsetof(struct iw_row, run.sm_busy_mean), COL_DBL, "%.3f"},
	{"sm_speedup", offsetof(struct iw_row, sm_speedup), COL_DBL, "%.6f"},
	/* the model's uncertainty (iw_row_model_se; 0 without fitted errors) */
	{"energy_j_se", offsetof(struct iw_row, se[IW_SE_ENERGY]), COL_DBL, "%.6g"},
	{"avg_power_w_se", offsetof(struct iw_row, se[IW_SE_POWER]), COL_DBL, "%.6g"},
	{"area_mm2_se", offsetof(struct iw_row, se[IW_SE_AREA]), COL_DBL, "%.6g"},
	{"fpga_area_pct_se", offsetof(struct iw_row, se[IW_SE_FPGA_PCT]), COL_DBL, "%.6g"},
	{"energy_rel_se", offsetof(struct iw_row, se[IW_SE_ENERGY_REL]), COL_DBL, "%.6g"},
	{"adp_rel_se", offsetof(struct iw_row, se[IW_SE_ADP_REL]), COL_DBL, "%.6g"},
	{"pdp_rel_se", offsetof(struct iw_row, se[IW_SE_PDP_REL]), COL_DBL, "%.6g"},
	{"edp_rel_se", offsetof(struct iw_row, se[IW_SE_EDP_REL]), COL_DBL, "%.6g"},
	/* the stall breakdown, scheduler-cycles by reason (CSV only: JSON has
	 * it as the object stall_cycles) */
#define X(id, name, help) {"stall_" name, offsetof(struct iw_row, run.cnt.stall[IW_STALL_##id]), COL_U64, "%.0f"},
	IW_STALL_TABLE(X)
#undef X
};
/* The JSON's columns: those before the stall breakdown. */
#define JSON_COLS (IW_ARRAY_LEN(row_cols) - IW_STALL_COUNT)

static double col_get(const struct iw_row *r, const struct row_col *c)
{
	const char *p = (const char *)r + c->offset;
	if (c->kind == COL_U64)
		return (double)*(const uint64_t *)(const void *)p; /* (exact below 2^53) */
	if (c->kind == COL_DBL)
		return *(const double *)(const void *)p;
	double dyn = 0;
	for (int k = 0; k < IW_S_COUNT; k++)
		dyn += r->power.dynamic_j[k];
	return dyn;
}

/* A key that takes names (an enum, a bool), or NULL. */
static const struct iw_param *named_param(const char *key)
{
	const struct iw_param *p = iw_param_find(key);
	return p && (p->type == IW_PT_ENUM || p->type == IW_PT_BOOL) ? p : NULL;
}

const char *iw_param_text(const char *key, double v, const char *fmt, char *buf, size_t n)
{
	const struct iw_param *p = named_param(key);
	if (p && isfinite(v))
		iw_param_format(p, v, buf, n);
	else
		snprintf(buf, n, fmt, v);
	return buf;
}

void iw_summary_csv(FILE *f, const struct iw_row *rows, size_t n, const char *const *pn, size_t np, int header)
{
	if (header) {
		fprintf(f, "workload,scheme,config,tech");
		for (size_t k = 0; k < np; k++) {
			fputc(',', f);
			iw_csv_field(f, pn[k]);
		}
		for (size_t k = 0; k < IW_ARRAY_LEN(row_cols); k++)
			fprintf(f, ",%s", row_cols[k].name);
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++) {
		const struct iw_row *r = &rows[i];
		/* workload names may hold commas (synth:warps=4,ctas=160) */
		const char *text[] = {r->workload, r->scheme, r->config, r->tech};
		for (int k = 0; k < 4; k++) {
			if (k)
				fputc(',', f);
			iw_csv_field(f, text[k]);
		}
		for (size_t k = 0; k < np; k++) {
			char b[64];
			fputc(',', f);
			iw_csv_field(f, iw_param_text(pn[k], k < r->nparams ? r->params[k] : NAN, "%.10g", b, sizeof b));
		}
		for (size_t k = 0; k < IW_ARRAY_LEN(row_cols); k++) {
			fputc(',', f);
			fprintf(f, row_cols[k].fmt, col_get(r, &row_cols[k]));
		}
		fputc('\n', f);
	}
}

/* The in-order row that row i is compared with: the nearest one at or
 * before it with the same workload (a job and a sweep list each baseline
 * first among the schemes of a workload); NULL if none. */
static const struct iw_row *base_of(const struct iw_row *rows, size_t i)
{
	for (size_t j = i + 1; j-- > 0;) {
		if (strcmp(rows[j].workload, rows[i].workload))
			return NULL;
		if (!strcmp(rows[j].scheme, "inorder"))
			return &rows[j];
	}
	return NULL;
}

struct iw_krel iw_kernel_rel(const struct iw_row *b, const struct iw_row *r, size_t k, const double *corr)
{
	struct iw_krel x = {NAN, NAN, NAN, NAN};
	if (!b || k >= b->run.nkstats || k >= r->run.nkstats)
		return x;
	const struct iw_kernel_stat *bk = &b->run.kstats[k], *rk = &r->run.kstats[k];
	x.speedup = ratio((double)bk->cycles, (double)rk->cycles);
	x.sm_speedup = ratio(bk->sm_busy_mean, rk->sm_busy_mean);
	if (isnan(rk->energy_j) || isnan(bk->energy_j))
		return x;
	x.energy_rel = ratio(rk->energy_j, bk->energy_j);
	x.energy_rel_se = 0;
	size_t nk = r->run.nksens;
	if (!corr || !nk || b->run.nksens != nk || b == r)
		return x; /* (the baseline against itself: 1 whatever the coefficients) */
	/* Each coefficient moves both kernels at once, as iw_row_model_se moves
	 * a run and its baseline: the ratio's change, then the correlations. */
	double *dp = iw_malloc(nk * sizeof *dp);
	if (!dp) {
		x.energy_rel_se = NAN; /* (unknown, said so, rather than a failed table) */
		return x;
	}
	const double *sr = r->run.ksens + k * nk, *sb = b->run.ksens + k * nk;
	for (size_t c = 0; c < nk; c++)
		dp[c] = ratio(rk->energy_j + sr[c], bk->energy_j + sb[c]) - x.energy_rel;
	x.energy_rel_se = iw_se_combine(nk, corr, dp, 1);
	iw_free(dp);
	return x;
}

void iw_kernels_text(FILE *f, const struct iw_row *rows, size_t n, const double *corr)
{
	int w = corr ? 22 : 11, wr = corr ? 18 : 8; /* (energy cells: "value +- se" with errors) */
	fprintf(f, "%-14s %6s %-30s %-8s %10s %10s %12s %7s %*s %8s %10s %*s\n", "workload", "kernel", "name", "scheme",
		"start", "cycles", "warp_insts", "ipc", w, "energy_J", "speedup", "sm_speedup", wr, "energy");
	/* a workload's runs side by side, kernel by kernel */
	for (size_t g = 0; g < n;) {
		size_t end = g + 1, nk = rows[g].run.nkstats;
		for (; end < n && !strcmp(rows[end].workload, rows[g].workload); end++)
			nk = rows[end].run.nkstats > nk ? rows[end].run.nkstats : nk;
		for (size_t k = 0; k < nk; k++)
			for (size_t i = g; i < end; i++) {
				const struct iw_row *r = &rows[i];
				if (k >= r->run.nkstats)
					continue;
				const struct iw_kernel_stat *ks = &r->run.kstats[k];
				struct iw_krel x = iw_kernel_rel(base_of(rows, i), r, k, corr);
				char ej[48], er[48];
				int n1 = snprintf(ej, sizeof ej, "%.4g", ks->energy_j);
				int n2 = snprintf(er, sizeof er, "%.3f", x.energy_rel);
				if (corr) {
					snprintf(ej + n1, sizeof ej - (size_t)n1, " +- %.2g", ks->energy_j_se);
					snprintf(er + n2, sizeof er - (size_t)n2, " +- %.2g", x.energy_rel_se);
				}
				fprintf(f, "%-14s %6zu %-30.30s %-8s %10llu %10llu %12llu %7.3f %*s %8.3f %10.3f %*s\n",
					r->workload, k + 1, ks->name, r->scheme, (unsigned long long)ks->start,
					(unsigned long long)ks->cycles, (unsigned long long)ks->warp_insts, ks->ipc, w, ej,
					x.speedup, x.sm_speedup, wr, er);
			}
		g = end;
	}
	fprintf(f, "(kernels in launch order, each starting the cycle after the one before ended; each priced alone:\n"
		   " its energy's static part follows its own idle SMs and lanes; speedup, sm_speedup and energy\n"
		   " against inorder on the same kernel%s)\n",
		corr ? "; +- one standard error from the technology file's coefficients" : "");
}

void iw_kernels_csv(FILE *f, const struct iw_row *rows, size_t n, const double *corr)
{
	fputs("workload,scheme,config,tech,kernel,name", f);
	for (int c = 0; c < IW_KSTAT_FIELDS; c++)
		fprintf(f, ",%s", iw_kstat_fields[c].name);
	fputs(",speedup,sm_speedup,energy_rel,energy_rel_se\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct iw_row *r = &rows[i];
		const struct iw_row *b = base_of(rows, i);
		for (size_t k = 0; k < r->run.nkstats; k++) {
			const struct iw_kernel_stat *ks = &r->run.kstats[k];
			const char *text[] = {r->workload, r->scheme, r->config, r->tech};
			for (int t = 0; t < 4; t++) {
				iw_csv_field(f, text[t]);
				fputc(',', f);
			}
			fprintf(f, "%zu,", k + 1);
			iw_csv_field(f, ks->name);
			for (int c = 0; c < IW_KSTAT_FIELDS; c++)
				fprintf(f, iw_kstat_fields[c].is_double ? ",%.9g" : ",%.0f", iw_kstat_get(ks, c));
			struct iw_krel x = iw_kernel_rel(b, r, k, corr);
			fprintf(f, ",%.6f,%.6f,%.6f,%.6g\n", x.speedup, x.sm_speedup, x.energy_rel, x.energy_rel_se);
		}
	}
}

/* "key": number, and a separator unless last. */
static void json_num(FILE *f, const char *key, double v, int last)
{
	iw_json_str(f, key);
	fputs(": ", f);
	iw_json_num(f, v);
	if (!last)
		fputs(", ", f);
}

void iw_json_param(FILE *f, const char *key, double v)
{
	char b[64];
	const struct iw_param *p = named_param(key);
	if (!p || !isfinite(v))
		iw_json_num(f, v);
	else if (p->type == IW_PT_BOOL && (v == 0 || v == 1))
		fputs(v ? "true" : "false", f);
	else
		iw_json_str(f, iw_param_text(key, v, "%.17g", b, sizeof b));
}

static void json_param(FILE *f, const char *key, double v, int last)
{
	iw_json_str(f, key);
	fputs(": ", f);
	iw_json_param(f, key, v);
	if (!last)
		fputs(", ", f);
}

void iw_runs_json(FILE *f, const struct iw_row *rows, size_t n, const char *const *pn, size_t np)
{
	fprintf(f, "{\"tool\": \"issuewatt\", \"version\": \"%s\", \"runs\": [", IW_VERSION);
	for (size_t i = 0; i < n; i++) {
		const struct iw_row *r = &rows[i];
		fprintf(f, "%s\n  {", i ? "," : "");
		const char *key[] = {"workload", "scheme", "config", "tech"};
		const char *text[] = {r->workload, r->scheme, r->config, r->tech};
		for (int k = 0; k < 4; k++) {
			iw_json_str(f, key[k]);
			fputs(": ", f);
			iw_json_str(f, text[k]);
			fputs(", ", f);
		}
		if (np) {
			fputs("\"params\": {", f);
			for (size_t k = 0; k < np; k++)
				json_param(f, pn[k], k < r->nparams ? r->params[k] : NAN, k + 1 == np);
			fputs("}, ", f);
		}
		for (size_t k = 0; k < JSON_COLS; k++)
			json_num(f, row_cols[k].name, col_get(r, &row_cols[k]), 0);
		fputs("\"stall_cycles\": {", f);
		for (int k = 0; k < IW_STALL_COUNT; k++) {
			iw_json_str(f, iw_stall_name[k]);
			fprintf(f, ": %llu%s", (unsigned long long)r->run.cnt.stall[k], k + 1 < IW_STALL_COUNT ? ", " : "");
		}
		fputs("}, \"utilisation\": {", f);
		for (int k = 0; k < IW_OCC_COUNT; k++)
			json_num(f, iw_occ_name[k], iw_utilisation(&r->run, k), k + 1 == IW_OCC_COUNT);
		fputs("}, \"kernels\": [", f);
		for (size_t k = 0; k < r->run.nkstats; k++) {
			const struct iw_kernel_stat *ks = &r->run.kstats[k];
			fputs(k ? ", {\"name\": " : "{\"name\": ", f);
			iw_json_str(f, ks->name);
			for (int c = 0; c < IW_KSTAT_FIELDS; c++) {
				fputs(", ", f);
				json_num(f, iw_kstat_fields[c].name, iw_kstat_get(ks, c), 1);
			}
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs(n ? "\n]" : "]", f);
}

/* The geometric means' keys (IW_GM_* order) and their errors' */
static const char *const gm_keys[IW_GM_COUNT] = {"speedup", "energy_rel", "adp_rel", "edp_rel"};

int iw_job_json(FILE *f, const struct iw_job *j, struct iw_err *e)
{
	size_t nv = j->nschemes * IW_GM_COUNT;
	double *gm = iw_malloc((2 * nv + 1) * sizeof *gm), *se = gm ? gm + nv : NULL;
	if (!gm)
		return iw_fail(e, IW_ERUN, "out of memory");
	int rc = j->nworkloads ? iw_job_geomeans(j, gm, se, e) : 0;
	if (!rc) { /* (computed first: a failure prints nothing) */
		iw_runs_json(f, j->rows, j->nrows, NULL, 0);
		fputs(", \"geomeans\": [", f);
		for (size_t s = 0; j->nworkloads && s < j->nschemes; s++) {
			fputs(s ? ",\n  {\"scheme\": " : "\n  {\"scheme\": ", f);
			iw_json_str(f, j->schemes[s]);
			fprintf(f, ", \"workloads\": %zu, ", j->nworkloads);
			for (int k = 0; k < IW_GM_COUNT; k++)
				json_num(f, gm_keys[k], gm[s * IW_GM_COUNT + k], 0);
			for (int k = 0; k < IW_GM_COUNT; k++) {
				char key[32];
				snprintf(key, sizeof key, "%s_se", gm_keys[k]);
				json_num(f, key, se[s * IW_GM_COUNT + k], k + 1 == IW_GM_COUNT);
			}
			fputc('}', f);
		}
		fputs(j->nworkloads && j->nschemes ? "\n]}\n" : "]}\n", f);
	}
	iw_free(gm);
	return rc;
}
