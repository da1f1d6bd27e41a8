/*
 * calib/spec.c -- calibration specs (calib/calib.xsd): load the points and
 * their reports, build each fit's design matrix from the feature table, fit,
 * and write the results: fit report (text, HDF5) and the calibrated
 * technology/device file.
 */
#include "calib.h"

#include <errno.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An attribute's copy, NULL if absent.  A copy that cannot be allocated is
 * counted in *oom so that the loader reports it instead of reading the
 * attribute as absent. */
static char *xattr_c(xmlNodePtr n, const char *name, int *oom)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	if (!v)
		return NULL;
	char *s = iw_strdup((const char *)v);
	xmlFree(v);
	if (!s)
		++*oom;
	return s;
}
static _Thread_local int xattr_oom;
#define xattr(n, name) xattr_c((n), (name), &xattr_oom)

static int is_el(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

void iw_calib_free(struct iw_calib *c)
{
	for (size_t i = 0; i < c->npoints; i++) {
		struct iw_calib_point *p = &c->points[i];
		iw_free(p->report);
		iw_free(p->instance);
		iw_free(p->structure);
		iw_free(p->quantity);
		for (size_t k = 0; k < p->np; k++)
			iw_free(p->pname[k]);
		iw_free(p->pname);
		iw_free(p->pvalue);
		iw_report_free(&p->rep);
	}
	for (size_t i = 0; i < c->nfits; i++) {
		struct iw_calib_fit *f = &c->fits[i];
		iw_free(f->structure);
		iw_free(f->quantity);
		iw_free(f->unit);
		for (size_t k = 0; k < f->ncoef; k++) {
			iw_free(f->coef_name[k]);
			iw_free(f->feature[k]);
		}
		iw_free(f->coef_name);
		iw_free(f->feature);
		iw_free(f->hint);
		iw_free(f->point);
		iw_free(f->y);
		iw_free(f->unit_of);
		iw_free(f->sources);
		for (size_t k = 0; k < f->npred; k++) {
			struct iw_calib_pred *pr = &f->pred[k];
			iw_free(pr->name);
			for (size_t j = 0; j < pr->np; j++)
				iw_free(pr->pname[j]);
			iw_free(pr->pname);
			iw_free(pr->pvalue);
			iw_free(pr->x);
		}
		iw_free(f->pred);
		iw_fit_result_free(&f->res);
	}
	iw_free(c->points);
	iw_free(c->fits);
	iw_free(c->spec_path);
	iw_free(c->tech);
	memset(c, 0, sizeof *c);
}

static char *join_dir(const char *spec, const char *rel)
{
	if (rel[0] == '/')
		return iw_strdup(rel);
	const char *slash = strrchr(spec, '/');
	size_t dl = slash ? (size_t)(slash - spec + 1) : 0;
	char *s = iw_malloc(dl + strlen(rel) + 1);
	if (s) {
		memcpy(s, spec, dl);
		strcpy(s + dl, rel);
	}
	return s;
}

/* The <param name value> children of n. */
static int load_params(const char *sp, xmlNodePtr n, char ***pname, double **pvalue, size_t *npar,
		       struct iw_err *e)
{
	size_t np = 0;
	for (xmlNodePtr k = n->children; k; k = k->next)
		np += (size_t)is_el(k, "param");
	*pname = iw_calloc(np + 1, sizeof **pname);
	*pvalue = iw_calloc(np + 1, sizeof **pvalue);
	*npar = 0;
	if (!*pname || !*pvalue)
		return iw_fail(e, IW_ERUN, "out of memory");
	for (xmlNodePtr k = n->children; k; k = k->next) {
		if (!is_el(k, "param"))
			continue;
		char *nm = xattr(k, "name"), *v = xattr(k, "value");
		double d = 0;
		if (!nm || !v) {
			iw_free(nm);
			iw_free(v);
			return iw_fail(e, IW_ERUN, "out of memory");
		}
		int bad = iw_parse_double(v, &d) != 0;
		iw_free(v);
		if (bad) {
			iw_free(nm);
			return iw_fail(e, IW_EINPUT, "%s:%ld: expected a finite parameter value", sp, xmlGetLineNo(k));
		}
		for (size_t j = 0; j < *npar; j++)
			if (strcmp((*pname)[j], nm) == 0) {
				int rc = iw_fail(e, IW_EINPUT, "%s:%ld: expected each parameter once, found '%s' twice", sp,
						 xmlGetLineNo(k), nm);
				iw_free(nm);
				return rc;
			}
		(*pname)[*npar] = nm;
		(*pvalue)[(*npar)++] = d;
	}
	return 0;
}

static int load_point(struct iw_calib *c, xmlNodePtr n, struct iw_calib_point *p, struct iw_err *e)
{
	const char *sp = c->spec_path;
	p->line = (int)xmlGetLineNo(n);
	char *rep = xattr(n, "report"), *w = xattr(n, "weight"), *fmt = xattr(n, "format");
	p->instance = xattr(n, "instance");
	p->structure = xattr(n, "structure");
	p->weight = 1;
	int rc = 0;
	if (!rep || !p->structure) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	if (w && iw_parse_double(w, &p->weight) != 0) {
		rc = iw_fail(e, IW_EINPUT, "%s:%d: expected a positive weight, found '%s'", sp, p->line, w);
		goto out;
	}
	p->report = join_dir(sp, rep);
	if (!p->report) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	rc = load_params(sp, n, &p->pname, &p->pvalue, &p->np, e);
	if (rc)
		goto out;
	struct iw_err re = {0};
	if (iw_report_load(&p->rep, p->report, fmt, &re) != 0) {
		rc = iw_fail(e, re.code, "%s:%d: report of this point: %s", sp, p->line, re.msg);
		goto out;
	}
	if (!iw_report_instance(&p->rep, p->instance)) {
		rc = iw_fail(e, IW_EINPUT, "%s:%d: expected instance '%s' in %s (top '%s'), found no such path", sp, p->line,
			     p->instance ? p->instance : "", p->report, p->rep.top);
		goto out;
	}
out:
	iw_free(rep);
	iw_free(w);
	iw_free(fmt);
	return rc;
}

static int load_fit(struct iw_calib *c, xmlNodePtr n, struct iw_calib_fit *f, enum iw_fit_method dm,
		    struct iw_err *e)
{
	f->line = (int)xmlGetLineNo(n);
	f->structure = xattr(n, "structure");
	f->quantity = xattr(n, "quantity");
	f->unit = xattr(n, "unit");
	f->method = dm;
	char *m = xattr(n, "method");
	if (m)
		iw_fit_method_parse(m, &f->method); /* the schema allows only valid names */
	iw_free(m);
	size_t nc = 0;
	for (xmlNodePtr k = n->children; k; k = k->next)
		nc += (size_t)is_el(k, "coef");
	f->coef_name = iw_calloc(nc + 1, sizeof *f->coef_name);
	f->feature = iw_calloc(nc + 1, sizeof *f->feature);
	f->hint = iw_calloc(nc + 1, sizeof *f->hint);
	if (!f->structure || !f->quantity || !f->coef_name || !f->feature || !f->hint)
		return iw_fail(e, IW_ERUN, "out of memory");
	for (xmlNodePtr k = n->children; k; k = k->next) {
		if (!is_el(k, "coef"))
			continue;
		char *nm = xattr(k, "name"), *ft = xattr(k, "feature");
		f->coef_name[f->ncoef] = nm;
		f->feature[f->ncoef++] = ft;
		if (!nm || !ft)
			return iw_fail(e, IW_ERUN, "out of memory");
		for (size_t j = 0; j + 1 < f->ncoef; j++)
			if (strcmp(f->coef_name[j], nm) == 0 || strcmp(f->feature[j], ft) == 0)
				return iw_fail(e, IW_EINPUT, "%s:%ld: expected each coefficient and feature once in a fit, found '%s' twice",
					       c->spec_path, xmlGetLineNo(k), strcmp(f->coef_name[j], nm) == 0 ? nm : ft);
		/* Unknown structure or feature: say so now, with the valid names. */
		double v;
		struct iw_err fe = {0};
		const char *used = NULL;
		if (iw_calib_feature(f->structure, ft, NULL, NULL, 0, &v, &used, &fe) != 0 &&
		    (strstr(fe.msg, "unknown structure") || strstr(fe.msg, "has no feature")))
			return iw_fail(e, IW_EINPUT, "%s:%ld: %s", c->spec_path, xmlGetLineNo(k), fe.msg);
		f->hint[f->ncoef - 1] = used;
	}
	size_t npr = 0;
	for (xmlNodePtr k = n->children; k; k = k->next)
		npr += (size_t)is_el(k, "predict");
	f->pred = iw_calloc(npr + 1, sizeof *f->pred);
	if (!f->pred)
		return iw_fail(e, IW_ERUN, "out of memory");
	for (xmlNodePtr k = n->children; k; k = k->next) {
		if (!is_el(k, "predict"))
			continue;
		struct iw_calib_pred *pr = &f->pred[f->npred++];
		pr->line = (int)xmlGetLineNo(k);
		pr->name = xattr(k, "name");
		if (!pr->name)
			return iw_fail(e, IW_ERUN, "out of memory");
		int rc = load_params(c->spec_path, k, &pr->pname, &pr->pvalue, &pr->np, e);
		if (rc)
			return rc;
	}
	return 0;
}

int iw_calib_load(struct iw_calib *c, const char *spec_path, struct iw_err *e)
{
	memset(c, 0, sizeof *c);
	char *text = NULL;
	size_t len = 0;
	xmlDocPtr doc = NULL;
	int rc = iw_read_file(spec_path, &text, &len, e);
	if (rc)
		return rc;
	rc = iw_xml_load(spec_path, text, len, "calib/calib.xsd", &doc, e);
	iw_free(text);
	xattr_oom = 0;
	if (rc)
		return rc;
	c->spec_path = iw_strdup(spec_path);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	c->tech = xattr(root, "tech");
	char *m = xattr(root, "method");
	enum iw_fit_method dm = IW_FIT_NNLS;
	if (m)
		iw_fit_method_parse(m, &dm);
	iw_free(m);
	size_t np = 0, nf = 0;
	for (xmlNodePtr n = root->children; n; n = n->next) {
		np += (size_t)is_el(n, "point");
		nf += (size_t)is_el(n, "fit");
	}
	c->points = iw_calloc(np + 1, sizeof *c->points);
	c->fits = iw_calloc(nf + 1, sizeof *c->fits);
	if (!c->spec_path || !c->points || !c->fits) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	for (xmlNodePtr n = root->children; n && !rc; n = n->next) {
		if (is_el(n, "fit"))
			rc = load_fit(c, n, &c->fits[c->nfits++], dm, e);
		else if (is_el(n, "point")) {
			struct iw_calib_point *p = &c->points[c->npoints++];
			rc = load_point(c, n, p, e);
			/* The same report and instance twice would count one
			 * measurement twice and shrink the errors dishonestly. */
			for (size_t j = 0; !rc && j + 1 < c->npoints; j++) {
				const struct iw_calib_point *q = &c->points[j];
				const char *a = iw_report_instance(&q->rep, q->instance);
				const char *b = iw_report_instance(&p->rep, p->instance);
				if (strcmp(q->report, p->report) == 0 && a && b && strcmp(a, b) == 0 &&
				    strcmp(q->structure, p->structure) == 0)
					rc = iw_fail(e, IW_EINPUT,
						     "%s:%d: duplicate point: expected each report and instance once, found "
						     "%s instance '%s' already at line %d",
						     spec_path, p->line, p->report, b, q->line);
			}
		}
	}
	/* One technology coefficient is fitted once: two fits writing the same
	 * name would silently keep whichever came last. */
	for (size_t a = 0; !rc && a < c->nfits; a++)
		for (size_t b = a; !rc && b < c->nfits; b++) {
			const struct iw_calib_fit *fa = &c->fits[a], *fb = &c->fits[b];
			for (size_t i = 0; !rc && i < fa->ncoef + fa->npred; i++)
				for (size_t j = (a == b ? i + 1 : 0); !rc && j < fb->ncoef + fb->npred; j++) {
					const char *na = i < fa->ncoef ? fa->coef_name[i] : fa->pred[i - fa->ncoef].name;
					const char *nb = j < fb->ncoef ? fb->coef_name[j] : fb->pred[j - fb->ncoef].name;
					if (strcmp(na, nb) == 0)
						rc = iw_fail(e, IW_EINPUT,
							     "%s:%d: expected each technology coefficient to be written by one "
							     "fit, found '%s' also in the fit at line %d",
							     spec_path, fb->line, nb, fa->line);
				}
		}
out:
	xmlFreeDoc(doc);
	if (!rc && xattr_oom)
		rc = iw_fail(e, IW_ERUN, "out of memory");
	if (rc)
		iw_calib_free(c);
	return rc;
}

int iw_calib_run(struct iw_calib *c, int method_override, struct iw_err *e)
{
	for (size_t fi = 0; fi < c->nfits; fi++) {
		struct iw_calib_fit *f = &c->fits[fi];
		if (method_override >= 0)
			f->method = (enum iw_fit_method)method_override;
		size_t n = 0, p = f->ncoef;
		for (size_t i = 0; i < c->npoints; i++)
			n += strcmp(c->points[i].structure, f->structure) == 0;
		f->point = iw_calloc(n + 1, sizeof *f->point);
		f->y = iw_calloc(n + 1, sizeof *f->y);
		f->unit_of = iw_calloc(n + 1, sizeof *f->unit_of);
		double *X = iw_calloc(n * p + 1, sizeof *X), *w = iw_calloc(n + 1, sizeof *w);
		size_t slen = 1;
		for (size_t i = 0; i < c->npoints; i++)
			slen += strlen(c->points[i].report) + 1;
		f->sources = iw_calloc(slen, 1);
		int rc = 0;
		if (!f->point || !f->y || !f->unit_of || !X || !w || !f->sources) {
			rc = iw_fail(e, IW_ERUN, "out of memory");
			goto next;
		}
		n = 0;
		for (size_t i = 0; i < c->npoints && !rc; i++) {
			struct iw_calib_point *pt = &c->points[i];
			if (strcmp(pt->structure, f->structure) != 0)
				continue;
			struct iw_err le = {0};
			if (iw_report_get(&pt->rep, pt->instance, f->quantity, &f->y[n], &f->unit_of[n], &le) != 0) {
				rc = iw_fail(e, le.code, "%s:%d: %s", c->spec_path, pt->line, le.msg);
				break;
			}
			for (size_t k = 0; k < p && !rc; k++)
				if (iw_calib_feature(f->structure, f->feature[k], (const char *const *)pt->pname, pt->pvalue,
						     pt->np, &X[n * p + k], NULL, &le) != 0)
					rc = iw_fail(e, le.code, "%s:%d: %s", c->spec_path, pt->line, le.msg);
			w[n] = pt->weight;
			f->point[n++] = i;
			/* Provenance names reports as the spec does (relative to it). */
			const char *slash = strrchr(c->spec_path, '/');
			size_t dl = slash ? (size_t)(slash - c->spec_path + 1) : 0;
			const char *rel = strncmp(pt->report, c->spec_path, dl) == 0 ? pt->report + dl : pt->report;
			if (!strstr(f->sources, rel)) {
				if (f->sources[0])
					strcat(f->sources, " ");
				strcat(f->sources, rel);
			}
		}
		f->npoints = n;
		/* One quantity, one unit: the fit's declared unit (which the fitted
		 * coefficients are written with) must be the reports' own, and the
		 * reports must agree (the parsers give areas in um2, powers in W). */
		for (size_t k = 0; k < n && !rc; k++) {
			const char *u = f->unit_of[k] ? f->unit_of[k] : "";
			const char *want = f->unit ? f->unit : f->unit_of[0] ? f->unit_of[0] : "";
			if (*u && *want && strcmp(u, want) != 0)
				rc = iw_fail(e, IW_EINPUT, "%s:%d: expected the %s in %s, as %s, found %s in %s", c->spec_path,
					     c->points[f->point[k]].line, f->quantity, want,
					     f->unit ? "the fit's unit attribute says" : "the first point's report gives", u,
					     c->points[f->point[k]].report);
		}
		if (!rc) {
			struct iw_err le = {0};
			if (iw_fit(X, f->y, w, n, p, f->method, (const char *const *)f->coef_name, (const char *const *)f->hint, &f->res, &le) !=
			    0)
				rc = iw_fail(e, le.code, "%s:%d: fit of %s '%s' over %zu points: %s", c->spec_path, f->line,
					     f->structure, f->quantity, n, le.msg);
			else
				f->done = 1;
			/* Weights given to a method that ignores them: most likely
			 * meant for wls; said where the fit's report says things. */
			for (size_t k = 0; f->done && f->method == IW_FIT_OLS && k < n; k++)
				if (w[k] != 1) {
					char *wr = f->res.warning;
					size_t l = strlen(wr);
					snprintf(wr + l, sizeof f->res.warning - l,
						 "%smethod 'ols' ignores the points' weights (point %zu: %g); method 'wls' uses them",
						 l ? "; " : "", k + 1, w[k]);
					break;
				}
		}
		for (size_t k = 0; !rc && k < f->npred; k++) {
			/* value = x.c, variance = x' C x */
			struct iw_calib_pred *pr = &f->pred[k];
			double x[64] = {0}, v = 0, var = 0;
			struct iw_err le = {0};
			if (p > IW_ARRAY_LEN(x)) {
				rc = iw_fail(e, IW_EINPUT, "%s:%d: expected at most %zu coefficients in a fit", c->spec_path,
					     f->line, IW_ARRAY_LEN(x));
				break;
			}
			for (size_t j = 0; j < p && !rc; j++)
				if (iw_calib_feature(f->structure, f->feature[j], (const char *const *)pr->pname, pr->pvalue,
						     pr->np, &x[j], NULL, &le) != 0)
					rc = iw_fail(e, le.code, "%s:%d: %s", c->spec_path, pr->line, le.msg);
			for (size_t j = 0; j < p && !rc; j++) {
				v += x[j] * f->res.coef[j];
				for (size_t l = 0; l < p; l++)
					var += x[j] * f->res.cov[j * p + l] * x[l];
			}
			pr->value = v;
			pr->se = var > 0 ? sqrt(var) : 0;
			if (!rc && !(pr->x = iw_malloc((p ? p : 1) * sizeof *pr->x)))
				rc = iw_fail(e, IW_ERUN, "out of memory");
			if (!rc)
				memcpy(pr->x, x, p * sizeof *x);
		}
	next:
		iw_free(X);
		iw_free(w);
		if (rc)
			return rc;
	}
	return 0;
}

/* Covariance of values i and j of fit f: 0..ncoef-1 are its coefficients,
 * then its predictions (value = x.c), so cov = u' C v with u, v unit
 * vectors or the predictions' feature vectors. */
static double item_cov(const struct iw_calib_fit *f, size_t i, size_t j)
{
	size_t p = f->ncoef;
	const double *xi = i < p ? NULL : f->pred[i - p].x, *xj = j < p ? NULL : f->pred[j - p].x;
	double s = 0;
	for (size_t a = 0; a < p; a++) {
		double u = xi ? xi[a] : (double)(a == i);
		for (size_t b = 0; u != 0 && b < p; b++)
			s += u * f->res.cov[a * p + b] * (xj ? xj[b] : (double)(b == j));
	}
	return s;
}

static const char *item_name(const struct iw_calib_fit *f, size_t i)
{
	return i < f->ncoef ? f->coef_name[i] : f->pred[i - f->ncoef].name;
}

static double item_se(const struct iw_calib_fit *f, size_t i)
{
	return i < f->ncoef ? f->res.se[i] : f->pred[i - f->ncoef].se;
}

/* Correlation of values i and j of fit f; 0 (and *ok 0) when either has
 * no error. */
static double item_corr(const struct iw_calib_fit *f, size_t i, size_t j, int *ok)
{
	double vi = item_cov(f, i, i), vj = item_cov(f, j, j);
	*ok = item_se(f, i) > 0 && item_se(f, j) > 0 && vi > 0 && vj > 0;
	if (!*ok)
		return 0;
	double r = item_cov(f, i, j) / sqrt(vi * vj);
	return r > 1 ? 1 : r < -1 ? -1 : r; /* (rounding) */
}

/* ---- text report ----------------------------------------------------------- */

/* The weight point i had in the fit: the spec's (relative) weight, which
 * ordinary least squares ignores; a robust fit's bisquare weight multiplies it
 * and is reported on its own. */
static double used_weight(const struct iw_calib *c, const struct iw_calib_fit *f, size_t i)
{
	return f->method == IW_FIT_OLS ? 1 : c->points[f->point[i]].weight;
}

void iw_calib_print(const struct iw_calib *c, FILE *o)
{
	fprintf(o, "# calibration %s: %zu points, %zu fits\n", c->spec_path, c->npoints, c->nfits);
	for (size_t fi = 0; fi < c->nfits; fi++) {
		const struct iw_calib_fit *f = &c->fits[fi];
		if (!f->done)
			continue;
		const struct iw_fit_result *r = &f->res;
		fprintf(o, "\n## %s %s (%s, %zu points, %zu coefficients)\n", f->structure, f->quantity,
			iw_fit_method_name(f->method), f->npoints, f->ncoef);
		fprintf(o, "%-36s %-10s %14s %12s %8s\n", "coefficient", "feature", "value", "std.error", "rel.err");
		for (size_t k = 0; k < f->ncoef; k++) {
			double rel = r->coef[k] != 0 ? 100 * r->se[k] / fabs(r->coef[k]) : NAN;
			fprintf(o, "%-36s %-10s %14.6g %12.4g %7.1f%%%s\n", f->coef_name[k], f->feature[k], r->coef[k],
				r->se[k], rel, r->at_bound[k] ? "  (held at 0 by the non-negativity bound)" : "");
		}
		fprintf(o, "R^2 %.6f  adjusted R^2 %.6f  residual sd %.4g  leave-one-out RMSE %.4g  rcond %.3g\n", r->r2,
			r->adj_r2, r->sigma, r->loo_rmse, r->rcond);
		if (r->warning[0])
			fprintf(o, "warning: %s\n", r->warning);
		for (size_t k = 0; k < f->npred; k++) {
			const struct iw_calib_pred *pr = &f->pred[k];
			char par[128] = "";
			for (size_t j = 0; j < pr->np; j++)
				snprintf(par + strlen(par), sizeof par - strlen(par), "%s%s=%g", j ? "," : "", pr->pname[j],
					 pr->pvalue[j]);
			fprintf(o, "predicted %-26s at %-22s %12.6g +- %.4g\n", pr->name, par, pr->value, pr->se);
		}
		for (size_t i = 0, m = f->ncoef + f->npred, head = 0; i < m; i++)
			for (size_t j = i + 1; j < m; j++) {
				int ok;
				double rho = item_corr(f, i, j, &ok);
				if (!ok)
					continue;
				if (!head++)
					fprintf(o, "correlations of the errors (written to the calibrated file):\n");
				fprintf(o, "  %-36s %-36s %+.4f\n", item_name(f, i), item_name(f, j), rho);
			}
		if (f->method == IW_FIT_ROBUST)
			fprintf(o, "outliers (bisquare weight < 0.5): %zu\n", r->noutliers);
		fprintf(o, "%-4s %-40s %-22s %12s %12s %12s %10s %6s%s\n", "pt", "report [instance]", "parameters", "measured",
			"fitted", "loo.pred", "loo.err%", "weight", f->method == IW_FIT_ROBUST ? " bisquare" : "");
		for (size_t i = 0; i < f->npoints; i++) {
			const struct iw_calib_point *p = &c->points[f->point[i]];
			char par[128] = "", rep[160];
			for (size_t k = 0; k < p->np; k++)
				snprintf(par + strlen(par), sizeof par - strlen(par), "%s%s=%g", k ? "," : "", p->pname[k],
					 p->pvalue[k]);
			const char *base = strrchr(p->report, '/');
			snprintf(rep, sizeof rep, "%s%s%s%s", base ? base + 1 : p->report, p->instance ? " [" : "",
				 p->instance ? p->instance : "", p->instance ? "]" : "");
			double le = f->y[i] != 0 ? 100 * (r->loo[i] - f->y[i]) / fabs(f->y[i]) : NAN;
			char bisq[16] = "";
			if (f->method == IW_FIT_ROBUST)
				snprintf(bisq, sizeof bisq, " %8.3f", r->weight[i]);
			fprintf(o, "%-4zu %-40s %-22s %12.6g %12.6g %12.6g %9.2f%% %6.3f%s%s\n", i + 1, rep, par, f->y[i],
				r->fitted[i], r->loo[i], le, used_weight(c, f, i), bisq, r->outlier[i] ? "  OUTLIER" : "");
		}
	}
}

int iw_calib_write_text(const struct iw_calib *c, const char *path, struct iw_err *e)
{
	struct iw_out o;
	int rc = iw_out_open(&o, path, 1, e);
	if (rc)
		return rc;
	iw_calib_print(c, o.f);
	return iw_out_commit(&o, e);
}

/* ---- HDF5 report ----------------------------------------------------------- */

static int h5_strings(hid_t g, const char *name, char *const *s, size_t n)
{
	size_t w = 1;
	for (size_t i = 0; i < n; i++)
		if (strlen(s[i]) + 1 > w)
			w = strlen(s[i]) + 1;
	char *buf = iw_calloc(n * w + 1, 1);
	if (!buf)
		return -1;
	for (size_t i = 0; i < n; i++)
		memcpy(buf + i * w, s[i], strlen(s[i]));
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, w);
	hsize_t dims[1] = {n};
	hid_t sp = H5Screate_simple(1, dims, NULL);
	hid_t d = H5Dcreate2(g, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	herr_t st = d >= 0 ? H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) : -1;
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(t);
	iw_free(buf);
	return st < 0 ? -1 : 0;
}

int iw_calib_write_h5(const struct iw_calib *c, const char *path, struct iw_err *e)
{
	/* Built in memory (core driver) and written by us: a full disk then fails
	 * our fwrite cleanly instead of HDF5's close, which leaves HDF5 1.10 with
	 * a half-closed file that crashes the program at exit. */
	struct iw_out o;
	int rc = iw_out_open(&o, path, 1, e);
	if (rc)
		return rc;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
	hid_t f = fapl < 0 || H5Pset_fapl_core(fapl, 1 << 16, 0) < 0
			  ? -1
			  : H5Fcreate(o.tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
	if (fapl >= 0)
		H5Pclose(fapl);
	int bad = f < 0;
	if (!bad) {
		bad |= H5LTset_attribute_string(f, "/", "spec", c->spec_path) < 0;
		bad |= H5LTset_attribute_string(f, "/", "issuewatt_version", IW_VERSION) < 0;
	}
	for (size_t fi = 0; fi < c->nfits && !bad; fi++) {
		const struct iw_calib_fit *fit = &c->fits[fi];
		if (!fit->done)
			continue;
		const struct iw_fit_result *r = &fit->res;
		char gname[256];
		snprintf(gname, sizeof gname, "/fit%02zu_%s_%s", fi, fit->structure, fit->quantity);
		for (char *p = gname + 1; *p; p++)
			if (*p == '/' || *p == ' ')
				*p = '_';
		hid_t g = H5Gcreate2(f, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		if (g < 0) {
			bad = 1;
			break;
		}
		hsize_t pk[1] = {fit->ncoef}, pn[1] = {fit->npoints};
		bad |= H5LTset_attribute_string(g, ".", "structure", fit->structure) < 0;
		bad |= H5LTset_attribute_string(g, ".", "quantity", fit->quantity) < 0;
		bad |= H5LTset_attribute_string(g, ".", "method", iw_fit_method_name(fit->method)) < 0;
		bad |= H5LTset_attribute_string(g, ".", "sources", fit->sources) < 0;
		double stats[5] = {r->r2, r->adj_r2, r->sigma, r->loo_rmse, r->rcond};
		bad |= H5LTset_attribute_double(g, ".", "r2", &stats[0], 1) < 0;
		bad |= H5LTset_attribute_double(g, ".", "adj_r2", &stats[1], 1) < 0;
		bad |= H5LTset_attribute_double(g, ".", "residual_sd", &stats[2], 1) < 0;
		bad |= H5LTset_attribute_double(g, ".", "loo_rmse", &stats[3], 1) < 0;
		bad |= H5LTset_attribute_double(g, ".", "rcond", &stats[4], 1) < 0;
		bad |= h5_strings(g, "coef_name", fit->coef_name, fit->ncoef) < 0;
		bad |= h5_strings(g, "coef_feature", fit->feature, fit->ncoef) < 0;
		bad |= H5LTmake_dataset_double(g, "coef_value", 1, pk, r->coef) < 0;
		bad |= H5LTmake_dataset_double(g, "coef_std_error", 1, pk, r->se) < 0;
		bad |= H5LTmake_dataset_int(g, "coef_at_bound", 1, pk, r->at_bound) < 0;
		char **rep = iw_calloc(fit->npoints + 1, sizeof *rep);
		if (!rep) {
			H5Gclose(g);
			bad = 1;
			break;
		}
		for (size_t i = 0; i < fit->npoints; i++)
			rep[i] = c->points[fit->point[i]].report;
		bad |= h5_strings(g, "point_report", rep, fit->npoints) < 0;
		iw_free(rep);
		bad |= H5LTmake_dataset_double(g, "point_measured", 1, pn, fit->y) < 0;
		bad |= H5LTmake_dataset_double(g, "point_fitted", 1, pn, r->fitted) < 0;
		bad |= H5LTmake_dataset_double(g, "point_loo_prediction", 1, pn, r->loo) < 0;
		double *pw = iw_calloc(fit->npoints + 1, sizeof *pw);
		for (size_t i = 0; pw && i < fit->npoints; i++)
			pw[i] = used_weight(c, fit, i);
		bad |= !pw || H5LTmake_dataset_double(g, "point_weight", 1, pn, pw) < 0;
		iw_free(pw);
		bad |= H5LTmake_dataset_double(g, "point_robust_weight", 1, pn, r->weight) < 0;
		bad |= H5LTmake_dataset_int(g, "point_outlier", 1, pn, r->outlier) < 0;
		hsize_t pc[2] = {fit->ncoef, fit->ncoef};
		bad |= H5LTmake_dataset_double(g, "coef_covariance", 2, pc, r->cov) < 0;
		if (fit->npred) {
			char **pnm = iw_calloc(fit->npred, sizeof *pnm);
			double *pv = iw_calloc(fit->npred * 2, sizeof *pv);
			if (!pnm || !pv) {
				iw_free(pnm);
				iw_free(pv);
				H5Gclose(g);
				bad = 1;
				break;
			}
			for (size_t k = 0; k < fit->npred; k++) {
				pnm[k] = fit->pred[k].name;
				pv[k] = fit->pred[k].value;
				pv[fit->npred + k] = fit->pred[k].se;
			}
			hsize_t pp[1] = {fit->npred};
			bad |= h5_strings(g, "predict_name", pnm, fit->npred) < 0;
			bad |= H5LTmake_dataset_double(g, "predict_value", 1, pp, pv) < 0;
			bad |= H5LTmake_dataset_double(g, "predict_std_error", 1, pp, pv + fit->npred) < 0;
			iw_free(pnm);
			iw_free(pv);
		}
		H5Gclose(g);
	}
	void *image = NULL;
	ssize_t size = bad || H5Fflush(f, H5F_SCOPE_LOCAL) < 0 ? -1 : H5Fget_file_image(f, NULL, 0);
	bad |= size < 0 || !(image = iw_malloc((size_t)size)) || H5Fget_file_image(f, image, (size_t)size) < 0;
	if (f >= 0 && H5Fclose(f) < 0)
		bad = 1;
	int werr = 0;
	if (!bad && fwrite(image, 1, (size_t)size, o.f) != (size_t)size) {
		bad = 1;
		werr = errno;
	}
	iw_free(image);
	if (bad) {
		iw_out_abort(&o);
		return iw_fail(e, IW_ERUN, "%s: could not write the HDF5 fit report%s%s", path, werr ? ": " : "",
			       werr ? strerror(werr) : "");
	}
	return iw_out_commit(&o, e);
}

/* ---- the calibrated technology/device file --------------------------------- */

static xmlNodePtr find_coef(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		xmlChar *v = xmlGetProp(n, (const xmlChar *)"name");
		int hit = v && strcmp((const char *)v, name) == 0 && xmlStrcmp(n->name, (const xmlChar *)"param") != 0;
		xmlFree(v);
		if (hit && n->parent && n->parent->type == XML_ELEMENT_NODE)
			return n;
		xmlNodePtr r = find_coef(n->children, name);
		if (r)
			return r;
	}
	return NULL;
}

/* Exact digits (as iw_tech_save writes values): the written coefficients
 * must give what the fit report shows, and in an ill-conditioned fit 6 digits
 * moved a prediction from 162.1 to 224.4. */
static void setd(xmlNodePtr n, const char *attr, double v)
{
	char b[40];
	xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)iw_num_exact(b, sizeof b, v));
}

/* Mark (or add) one coefficient: value, unit kept if present, provenance. */
static void mark_one(xmlNodePtr root, const char *name, double value, double se, const char *unit, const char *src,
		     size_t points, const char *sources)
{
	xmlNodePtr n = find_coef(root->children, name);
	if (!n) {
		/* The file lacks it: add it, with the unit of the data. */
		xmlAddChild(root, xmlNewText((const xmlChar *)"  "));
		n = xmlNewChild(root, NULL, (const xmlChar *)"coef", NULL);
		xmlAddChild(root, xmlNewText((const xmlChar *)"\n"));
		xmlSetProp(n, (const xmlChar *)"name", (const xmlChar *)name);
		xmlSetProp(n, (const xmlChar *)"value", (const xmlChar *)"0");
		xmlSetProp(n, (const xmlChar *)"unit", (const xmlChar *)unit);
	}
	setd(n, "value", value);
	xmlSetProp(n, (const xmlChar *)"source", (const xmlChar *)src);
	xmlSetProp(n, (const xmlChar *)"fitted", (const xmlChar *)"true");
	setd(n, "std_error", se);
	char pts[32];
	snprintf(pts, sizeof pts, "%zu", points);
	xmlSetProp(n, (const xmlChar *)"points", (const xmlChar *)pts);
	xmlSetProp(n, (const xmlChar *)"sources", (const xmlChar *)sources);
}

/* Is `name` a value this calibration writes? */
static int refitted(const struct iw_calib *c, const char *name)
{
	for (size_t fi = 0; fi < c->nfits; fi++) {
		const struct iw_calib_fit *f = &c->fits[fi];
		for (size_t i = 0; f->done && i < f->ncoef + f->npred; i++)
			if (!strcmp(item_name(f, i), name))
				return 1;
	}
	return 0;
}

/* Drop the file's correlations that name a refitted value (with the
 * indentation before them), then add one per pair of values of each fit
 * that both have a standard error. */
static void mark_correlations(const struct iw_calib *c, xmlNodePtr root)
{
	for (xmlNodePtr n = root->children, next; n; n = next) {
		next = n->next;
		if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, (const xmlChar *)"correlation"))
			continue;
		xmlChar *a = xmlGetProp(n, (const xmlChar *)"a"), *b = xmlGetProp(n, (const xmlChar *)"b");
		int stale = (a && refitted(c, (const char *)a)) || (b && refitted(c, (const char *)b));
		xmlFree(a);
		xmlFree(b);
		if (!stale)
			continue;
		if (n->prev && xmlIsBlankNode(n->prev)) {
			xmlNodePtr sp = n->prev;
			xmlUnlinkNode(sp);
			xmlFreeNode(sp);
		}
		xmlUnlinkNode(n);
		xmlFreeNode(n);
	}
	for (size_t fi = 0; fi < c->nfits; fi++) {
		const struct iw_calib_fit *f = &c->fits[fi];
		size_t m = f->done ? f->ncoef + f->npred : 0;
		for (size_t i = 0; i < m; i++)
			for (size_t j = i + 1; j < m; j++) {
				int ok;
				double r = item_corr(f, i, j, &ok);
				if (!ok)
					continue;
				xmlAddChild(root, xmlNewText((const xmlChar *)"  "));
				xmlNodePtr n = xmlNewChild(root, NULL, (const xmlChar *)"correlation", NULL);
				xmlAddChild(root, xmlNewText((const xmlChar *)"\n"));
				xmlSetProp(n, (const xmlChar *)"a", (const xmlChar *)item_name(f, i));
				xmlSetProp(n, (const xmlChar *)"b", (const xmlChar *)item_name(f, j));
				setd(n, "r", r);
			}
	}
}

int iw_calib_mark_xml(const struct iw_calib *c, const char *xml_name, const char *xml_text, size_t len, char **out,
		      struct iw_err *e)
{
	*out = NULL;
	xmlDocPtr doc;
	if (xml_text) {
		doc = xmlReadMemory(xml_text, (int)len, xml_name, NULL, XML_PARSE_NONET);
		if (!doc)
			return iw_fail(e, IW_EINPUT, "%s:1: expected a well-formed technology/device file", xml_name);
	} else {
		/* No file to start from: a bare document holding only the fits. */
		doc = xmlNewDoc((const xmlChar *)"1.0");
		xmlNodePtr root = doc ? xmlNewNode(NULL, (const xmlChar *)"tech") : NULL;
		if (!root) {
			xmlFreeDoc(doc);
			return iw_fail(e, IW_ERUN, "out of memory");
		}
		xmlDocSetRootElement(doc, root);
		xmlSetProp(root, (const xmlChar *)"name", (const xmlChar *)"calibrated");
		xmlAddChild(root, xmlNewText((const xmlChar *)"\n"));
	}
	xmlNodePtr root = xmlDocGetRootElement(doc);
	for (size_t fi = 0; fi < c->nfits; fi++) {
		const struct iw_calib_fit *f = &c->fits[fi];
		if (!f->done)
			continue;
		const char *u = f->unit ? f->unit : (f->npoints && f->unit_of[0] ? f->unit_of[0] : "");
		char src[512];
		for (size_t k = 0; k < f->ncoef; k++) {
			snprintf(src, sizeof src, "issuewatt calibrate %s: %s fit of %s %s, feature %s", c->spec_path,
				 iw_fit_method_name(f->method), f->structure, f->quantity, f->feature[k]);
			mark_one(root, f->coef_name[k], f->res.coef[k], f->res.se[k], u, src, f->npoints, f->sources);
		}
		for (size_t k = 0; k < f->npred; k++) {
			const struct iw_calib_pred *pr = &f->pred[k];
			char par[128] = "";
			for (size_t j = 0; j < pr->np; j++)
				snprintf(par + strlen(par), sizeof par - strlen(par), "%s%s=%g", j ? "," : "", pr->pname[j],
					 pr->pvalue[j]);
			snprintf(src, sizeof src, "issuewatt calibrate %s: prediction of the %s %s model (%s fit) at %s",
				 c->spec_path, f->structure, f->quantity, iw_fit_method_name(f->method), par);
			mark_one(root, pr->name, pr->value, pr->se, u, src, f->npoints, f->sources);
		}
	}
	mark_correlations(c, root);
	xmlChar *mem = NULL;
	int ml = 0;
	xmlDocDumpMemory(doc, &mem, &ml);
	xmlFreeDoc(doc);
	if (!mem)
		return iw_fail(e, IW_ERUN, "out of memory");
	*out = iw_malloc((size_t)ml + 1);
	if (*out) {
		memcpy(*out, mem, (size_t)ml);
		(*out)[ml] = 0;
	}
	xmlFree(mem);
	return *out ? 0 : iw_fail(e, IW_ERUN, "out of memory");
}

/* The technology/device file to mark: a preset's text, or the file's (a
 * spec's tech path relative to the spec, --tech's to the working folder). */
static int tech_source(const struct iw_calib *c, const char *tech_arg, char **name, char **text, size_t *len,
		       struct iw_err *e)
{
	const char *arg = tech_arg ? tech_arg : c->tech;
	*name = *text = NULL;
	*len = 0;
	if (!arg)
		return iw_fail(e, IW_EUSAGE,
			       "expected a technology/device file to mark (the spec's tech attribute or --tech), found none");
	char rname[512];
	snprintf(rname, sizeof rname, "tech/%s.xml", arg);
	const struct iw_resource *res = strchr(arg, '/') || strchr(arg, '.') ? NULL : iw_resource_find(rname);
	if (res) {
		*text = iw_strdup(res->data);
		*len = res->len;
		*name = iw_strdup(rname);
		return *text && *name ? 0 : iw_fail(e, IW_ERUN, "out of memory");
	}
	if (!strchr(arg, '/') && !strchr(arg, '.'))
		return iw_fail(e, IW_EINPUT, "'%s': no such technology/device preset (see 'issuewatt list tech') and not a file name",
			       arg);
	*name = tech_arg ? iw_strdup(arg) : join_dir(c->spec_path, arg);
	return *name ? iw_read_file(*name, text, len, e) : iw_fail(e, IW_ERUN, "out of memory");
}

int iw_calib_tech_check(const struct iw_calib *c, const char *tech_arg, struct iw_err *e)
{
	char *name, *text;
	size_t len;
	int rc = tech_source(c, tech_arg, &name, &text, &len, e);
	iw_free(name);
	iw_free(text);
	return rc;
}

int iw_calib_write_tech(const struct iw_calib *c, const char *tech_arg, const char *path, struct iw_err *e)
{
	char *text = NULL, *name = NULL;
	size_t len = 0;
	int rc = tech_source(c, tech_arg, &name, &text, &len, e);
	char *out = NULL;
	if (!rc)
		rc = iw_calib_mark_xml(c, name, text, len, &out, e);
	if (!rc && iw_resource_find("tech/tech.xsd")) {
		/* Check the result against the schema the loader will use. */
		xmlDocPtr d = NULL;
		rc = iw_xml_load(path, out, strlen(out), "tech/tech.xsd", &d, e);
		if (d)
			xmlFreeDoc(d);
	}
	if (!rc) {
		struct iw_out o;
		rc = iw_out_open(&o, path, 1, e);
		if (!rc) {
			fputs(out, o.f);
			rc = iw_out_commit(&o, e);
		}
	}
	iw_free(out);
	iw_free(text);
	iw_free(name);
	return rc;
}
