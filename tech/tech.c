/*
 * tech/tech.c -- technology (ASIC node) and device (FPGA) files.
 *
 * A file is a flat list of coefficients (name, value, unit, source), validated
 * against tech/tech.xsd.  A node file may <derive> from another file: every
 * imported coefficient is scaled by the factor its unit calls for (this is how
 * the 32/22/14/12/7 nm files are computed from the 45 nm anchor, with the
 * Stillmaker & Baas 2017 node factors written in the file itself):
 *   um2                  x area factor
 *   pJ, pJ/bit, pJ/GE    x energy factor (off-chip DRAM energy is not scaled)
 *   W/um2                x leakage factor (leakage power per unit area)
 *   anything else        unchanged (gate-equivalent counts, ratios, chip-level W)
 * The file's own <coef> elements then override imported ones.
 */
#include "tech.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum scale_class { SC_NONE, SC_AREA, SC_ENERGY, SC_LEAK };

static enum scale_class coef_class(const char *name, const char *unit)
{
	if (strcmp(unit, "um2") == 0)
		return SC_AREA;
	if (strcmp(unit, "pJ") == 0 || strcmp(unit, "pJ/bit") == 0 || strcmp(unit, "pJ/GE") == 0)
		/* DRAM access energy is the DRAM device's and its interface's:
		 * it does not follow the logic node of the GPU die. */
		return strncmp(name, "energy.dram.", 12) == 0 ? SC_NONE : SC_ENERGY;
	if (strcmp(unit, "W/um2") == 0)
		return SC_LEAK;
	return SC_NONE;
}

/* The structure a coefficient belongs to, for messages: "energy.dm.row_write"
 * -> "dm"; shared coefficients (cells, gates, densities) -> "all structures". */
static void coef_structure(const char *name, char *out, size_t n)
{
	const char *dot = strchr(name, '.');
	if (dot && strncmp(name, "energy.", 7) == 0 && strchr(dot + 1, '.') &&
	    strncmp(dot + 1, "logic", 5) != 0) {
		const char *d2 = strchr(dot + 1, '.');
		snprintf(out, n, "%.*s", (int)(d2 - dot - 1), dot + 1);
		return;
	}
	if (dot && (strncmp(name, "area.fu.", 8) == 0 || strncmp(name, "fpga.fu.", 8) == 0)) {
		snprintf(out, n, "fu");
		return;
	}
	if (strncmp(name, "fpga.dm.", 8) == 0) {
		snprintf(out, n, "dm");
		return;
	}
	snprintf(out, n, "all structures");
}

static int add_coef(struct iw_tech *t, size_t *cap, const struct iw_coef *c, struct iw_err *e)
{
	for (size_t i = 0; i < t->ncoef; i++)
		if (strcmp(t->coef[i].name, c->name) == 0) {
			/* The file's own overrides an imported one; twice in the file
			 * is a slip that would silently keep the second value. */
			if (!t->coef[i].imported && !c->imported)
				return iw_fail(e, IW_EINPUT,
					       "%s:%d: coefficient '%s': expected each coefficient once, found it again "
					       "(first at line %d)",
					       t->origin, c->line, c->name, t->coef[i].line);
			t->coef[i] = *c;
			return 0;
		}
	if (t->ncoef == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct iw_coef *p = iw_realloc(t->coef, nc * sizeof *p);
		if (!p)
			return iw_fail(e, IW_ERUN, "out of memory");
		t->coef = p;
		*cap = nc;
	}
	t->coef[t->ncoef++] = *c;
	return 0;
}

static int attr_double(xmlNodePtr n, const char *name, double def, double *out)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	if (!v) {
		*out = def;
		return 0;
	}
	int rc = iw_parse_double(iw_trim((char *)v), out);
	xmlFree(v);
	return rc;
}

/* The attribute's text into out; returns its whole length (>= size: cut). */
static size_t attr_str(xmlNodePtr n, const char *name, char *out, size_t size)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	size_t len = v ? strlen((const char *)v) : 0;
	snprintf(out, size, "%s", v ? (const char *)v : "");
	if (v)
		xmlFree(v);
	return len;
}

static int check_value(const struct iw_tech *t, const struct iw_coef *c, struct iw_err *e)
{
	if (!isfinite(c->value) || c->value < 0) {
		char s[64];
		coef_structure(c->name, s, sizeof s);
		return iw_fail(e, IW_EINPUT,
			       "%s:%d: coefficient '%s' (used by %s): expected a finite value >= 0 %s, found %g",
			       t->origin, c->line, c->name, s, c->unit, c->value);
	}
	return 0;
}

/* Correlations as read, by name: resolved once the file's coefficients are
 * all known (an element may come before the coefficients it names). */
struct corr_name {
	char a[64], b[64];
	double r;
	int line;
	int imported; /* from a <derive> base: kept only while both coefficients are the base's */
};
struct corr_list {
	struct corr_name *v;
	size_t n, cap;
};

static int corr_push(struct corr_list *l, const struct corr_name *c, struct iw_err *e)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 16;
		struct corr_name *p = iw_realloc(l->v, nc * sizeof *p);
		if (!p)
			return iw_fail(e, IW_ERUN, "out of memory");
		l->v = p;
		l->cap = nc;
	}
	l->v[l->n++] = *c;
	return 0;
}

static int load_depth(struct iw_tech *t, const char *arg, int depth, struct iw_err *e);

static int do_derive(struct iw_tech *t, size_t *cap, struct corr_list *cl, xmlNodePtr n, int depth,
		     struct iw_err *e)
{
	char from[256], only[16], src[200];
	double fa, fe, fl;
	attr_str(n, "from", from, sizeof from);
	attr_str(n, "only", only, sizeof only);
	attr_str(n, "source", src, sizeof src);
	attr_double(n, "area", 1, &fa);
	attr_double(n, "energy", 1, &fe);
	attr_double(n, "leakage", 1, &fl);
	int line = (int)xmlGetLineNo(n);
	t->derive_area = fa;
	t->derive_energy = fe;
	t->derive_leakage = fl;
	snprintf(t->derive_from, sizeof t->derive_from, "%.63s", from);
	if (depth > 4)
		return iw_fail(e, IW_EINPUT, "%s:%d: <derive from=\"%s\">: expected at most 4 levels, found more",
			       t->origin, line, from);
	struct iw_tech base;
	struct iw_err be = {0};
	if (load_depth(&base, from, depth + 1, &be))
		return iw_fail(e, be.code, "%s:%d: <derive from=\"%s\">: %s", t->origin, line, from, be.msg);
	t->area_factor = base.area_factor * fa;
	int rc = 0;
	for (size_t i = 0; i < base.ncoef && !rc; i++) {
		struct iw_coef c = base.coef[i];
		enum scale_class k = coef_class(c.name, c.unit);
		if (strcmp(only, "energy") == 0 && k != SC_ENERGY && !(k == SC_NONE && c.unit[0] == 'p'))
			continue;
		double f = k == SC_AREA ? fa : k == SC_ENERGY ? fe : k == SC_LEAK ? fl : 1.0;
		c.value *= f;
		c.std_error *= f;
		char ns[sizeof c.source + 256];
		if (f != 1.0)
			snprintf(ns, sizeof ns, "%.40s: %.900s x %.4g (%.20s)", base.name, c.source, f,
				 k == SC_AREA ? "area factor" : k == SC_ENERGY ? "energy factor" : "leakage factor");
		else
			snprintf(ns, sizeof ns, "%.40s: %.940s (not scaled)", base.name, c.source);
		snprintf(c.source, sizeof c.source, "%.1023s", ns); /* (a chain of derives stays bounded) */
		c.line = line;
		c.imported = 1;
		rc = add_coef(t, cap, &c, e);
	}
	/* (a correlation is the same whatever factor scales both values) */
	for (size_t i = 0; i < base.ncorr && !rc; i++) {
		struct corr_name c = {.r = base.corr[i].r, .line = line, .imported = 1};
		snprintf(c.a, sizeof c.a, "%s", base.coef[base.corr[i].a].name);
		snprintf(c.b, sizeof c.b, "%s", base.coef[base.corr[i].b].name);
		rc = corr_push(cl, &c, e);
	}
	iw_tech_free(&base);
	return rc;
}

/* Is the correlation matrix of the listed coefficients positive
 * semi-definite (a variance can never come out negative)?  Cholesky of
 * R + 1e-6 I: a fit's coefficients and predictions are linearly dependent,
 * so their matrix is singular, and the 9 digits a calibrated file keeps can
 * make it very slightly indefinite. */
static int corr_consistent(const struct iw_tech *t, struct iw_err *e)
{
	size_t m = 0, *ix = iw_calloc(t->ncoef ? t->ncoef : 1, sizeof *ix);
	long *pos = ix ? iw_malloc((t->ncoef ? t->ncoef : 1) * sizeof *pos) : NULL;
	double *L = NULL;
	int rc = 0;
	if (!pos) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < t->ncoef; i++)
		pos[i] = -1;
	for (size_t k = 0; k < t->ncorr; k++) {
		size_t ab[2] = {t->corr[k].a, t->corr[k].b};
		for (int h = 0; h < 2; h++)
			if (pos[ab[h]] < 0) {
				pos[ab[h]] = (long)m;
				ix[m++] = ab[h];
			}
	}
	if (!(L = iw_calloc(m * m + 1, sizeof *L))) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < m; i++)
		L[i * m + i] = 1 + 1e-6;
	for (size_t k = 0; k < t->ncorr; k++) {
		size_t a = (size_t)pos[t->corr[k].a], b = (size_t)pos[t->corr[k].b];
		L[a * m + b] = L[b * m + a] = t->corr[k].r;
	}
	for (size_t j = 0; j < m && !rc; j++) {
		double d = L[j * m + j];
		for (size_t k = 0; k < j; k++)
			d -= L[j * m + k] * L[j * m + k];
		if (!(d > 0)) {
			int line = 0;
			for (size_t k = 0; k < t->ncorr; k++)
				if (t->corr[k].a == ix[j] || t->corr[k].b == ix[j])
					line = t->corr[k].line > line ? t->corr[k].line : line;
			rc = iw_fail(e, IW_EINPUT,
				     "%s:%d: <correlation> of '%s': expected correlations that errors can have (a positive "
				     "semi-definite matrix), found a set that contradicts itself with those before it",
				     t->origin, line, t->coef[ix[j]].name);
			break;
		}
		d = sqrt(d);
		L[j * m + j] = d;
		for (size_t i = j + 1; i < m; i++) {
			double v = L[i * m + j];
			for (size_t k = 0; k < j; k++)
				v -= L[i * m + k] * L[j * m + k];
			L[i * m + j] = v / d;
		}
	}
out:
	iw_free(L);
	iw_free(pos);
	iw_free(ix);
	return rc;
}

/* Correlations by index: both coefficients in the file, different, each
 * pair once.  An imported one whose coefficient this file overrode goes. */
static int resolve_corr(struct iw_tech *t, const struct corr_list *cl, struct iw_err *e)
{
	if (!cl->n)
		return 0;
	if (!(t->corr = iw_calloc(cl->n, sizeof *t->corr)))
		return iw_fail(e, IW_ERUN, "out of memory");
	/* the file's own first, then the imported ones for the pairs it leaves */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < cl->n; k++) {
			const struct corr_name *c = &cl->v[k];
			if (c->imported != (int)pass)
				continue;
			const struct iw_coef *ca = iw_tech_coef(t, c->a), *cb = iw_tech_coef(t, c->b);
			long a = ca ? ca - t->coef : -1, b = cb ? cb - t->coef : -1;
			if (c->imported) {
				if (a < 0 || b < 0 || !t->coef[a].imported || !t->coef[b].imported)
					continue;
			} else {
				const char *miss = a < 0 ? c->a : b < 0 ? c->b : NULL;
				if (miss)
					return iw_fail(e, IW_EINPUT,
						       "%s:%d: <correlation> names '%s': expected a coefficient of this file, found none",
						       t->origin, c->line, miss);
				if (a == b)
					return iw_fail(e, IW_EINPUT,
						       "%s:%d: <correlation> of '%s' with itself: expected two different coefficients",
						       t->origin, c->line, c->a);
			}
			for (size_t i = 0; i < t->ncorr; i++)
				if ((t->corr[i].a == (size_t)a && t->corr[i].b == (size_t)b) ||
				    (t->corr[i].a == (size_t)b && t->corr[i].b == (size_t)a)) {
					if (c->imported) /* (the file's own wins) */
						goto next;
					return iw_fail(e, IW_EINPUT,
						       "%s:%d: <correlation> of '%s' and '%s': expected each pair once, found it "
						       "again (first at line %d)",
						       t->origin, c->line, c->a, c->b, t->corr[i].line);
				}
			t->corr[t->ncorr++] = (struct iw_corr){(size_t)a, (size_t)b, c->r, c->line};
		next:;
		}
	return corr_consistent(t, e);
}

/* The clock a file's figures are for: 0 (the configuration's) or the range of
 * gpu.clock_mhz.  The schema bounds it to 0..IW_CLOCK_MHZ_MAX; below 1 MHz is
 * checked here, where the message can say what is expected. */
static int clock_ok(double v) { return v == 0 || (v >= 1 && v <= IW_CLOCK_MHZ_MAX); }

static int load_depth(struct iw_tech *t, const char *arg, int depth, struct iw_err *e)
{
	memset(t, 0, sizeof *t);
	xmlDocPtr doc = NULL;
	char *text = NULL, *origin = NULL;
	int rc = iw_xml_load_preset_or_file(arg, "tech", "tech/tech.xsd", &doc, &text, &origin, e);
	if (rc)
		return rc;
	t->xml_text = text;
	snprintf(t->origin, sizeof t->origin, "%s", origin);
	iw_free(origin);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	char kind[16];
	attr_str(root, "name", t->name, sizeof t->name);
	attr_str(root, "kind", kind, sizeof kind);
	t->kind = strcmp(kind, "fpga") == 0 ? IW_TECH_FPGA : IW_TECH_ASIC;
	attr_double(root, "node_nm", 0, &t->node_nm);
	attr_double(root, "vdd", 1, &t->vdd);
	attr_double(root, "clock_mhz", 0, &t->clock_mhz);
	double own_af;
	attr_double(root, "area_factor", 0, &own_af);
	t->area_factor = 1;
	t->derive_area = t->derive_energy = t->derive_leakage = 1;
	t->line = (int)xmlGetLineNo(root);
	if (!clock_ok(t->clock_mhz))
		rc = iw_fail(e, IW_EINPUT, "%s:%d: clock_mhz: expected 0 (the configuration's clock) or 1 to %d MHz, found %g",
			     t->origin, t->line, IW_CLOCK_MHZ_MAX, t->clock_mhz);
	size_t cap = 0;
	struct corr_list cl = {0};
	for (xmlNodePtr n = root->children; n && !rc; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)n->name, "derive") == 0) {
			rc = do_derive(t, &cap, &cl, n, depth, e);
		} else if (strcmp((const char *)n->name, "correlation") == 0) {
			struct corr_name c = {.line = (int)xmlGetLineNo(n)};
			attr_str(n, "a", c.a, sizeof c.a);
			attr_str(n, "b", c.b, sizeof c.b);
			attr_double(n, "r", 0, &c.r); /* (the schema checked -1 <= r <= 1) */
			rc = corr_push(&cl, &c, e);
		} else if (strcmp((const char *)n->name, "coef") == 0) {
			struct iw_coef c;
			memset(&c, 0, sizeof c);
			attr_str(n, "name", c.name, sizeof c.name);
			attr_str(n, "unit", c.unit, sizeof c.unit);
			size_t slen = attr_str(n, "source", c.source, sizeof c.source);
			attr_str(n, "sources", c.sources, sizeof c.sources);
			c.line = (int)xmlGetLineNo(n);
			if (slen >= sizeof c.source) { /* (cut, the provenance would lose its end) */
				rc = iw_fail(e, IW_EINPUT, "%s:%d: coefficient '%s': expected a source of at most %zu characters, found %zu",
					     t->origin, c.line, c.name, sizeof c.source - 1, slen);
				break;
			}
			if (attr_double(n, "value", 0, &c.value)) {
				rc = iw_fail(e, IW_EINPUT, "%s:%d: coefficient '%s': expected a finite number",
					     t->origin, c.line, c.name);
				break;
			}
			char fit[16];
			attr_str(n, "fitted", fit, sizeof fit);
			c.fitted = strcmp(fit, "true") == 0 || strcmp(fit, "1") == 0;
			if (attr_double(n, "std_error", 0, &c.std_error) || !isfinite(c.std_error) || c.std_error < 0) {
				rc = iw_fail(e, IW_EINPUT, "%s:%d: coefficient '%s': expected a std_error >= 0", t->origin,
					     c.line, c.name);
				break;
			}
			double pts;
			attr_double(n, "points", 0, &pts);
			c.points = (int)pts;
			rc = check_value(t, &c, e);
			if (!rc)
				rc = add_coef(t, &cap, &c, e);
		}
	}
	xmlFreeDoc(doc);
	if (own_af > 0) /* (a file stating its node's factor wins over its <derive>'s) */
		t->area_factor = own_af;
	if (!rc)
		rc = resolve_corr(t, &cl, e);
	iw_free(cl.v);
	if (rc)
		iw_tech_free(t);
	return rc;
}

int iw_tech_load(struct iw_tech *t, const char *arg, struct iw_err *e)
{
	return load_depth(t, arg, 0, e);
}

void iw_tech_free(struct iw_tech *t)
{
	iw_free(t->coef);
	iw_free(t->corr);
	iw_free(t->xml_text);
	t->coef = NULL;
	t->corr = NULL;
	t->ncorr = 0;
	t->xml_text = NULL;
	t->ncoef = 0;
}

const struct iw_coef *iw_tech_coef(const struct iw_tech *t, const char *name)
{
	for (size_t i = 0; i < t->ncoef; i++)
		if (strcmp(t->coef[i].name, name) == 0)
			return &t->coef[i];
	return NULL;
}

int iw_tech_need(const struct iw_tech *t, const char *name, const char *unit, const char *structure,
		 double *value, struct iw_err *e)
{
	const struct iw_coef *c = iw_tech_coef(t, name);
	if (!c)
		return iw_fail(e, IW_EINPUT,
			       "%s:%d: coefficient '%s' (unit %s) needed by structure '%s': expected a <coef name=\"%s\">, found none",
			       t->origin, t->line > 0 ? t->line : 1, name, unit, structure, name);
	if (strcmp(c->unit, unit) != 0)
		return iw_fail(e, IW_EINPUT,
			       "%s:%d: coefficient '%s' needed by structure '%s': expected unit %s, found %s",
			       t->origin, c->line, name, structure, unit, c->unit);
	if (!isfinite(c->value) || c->value < 0)
		return iw_fail(e, IW_EINPUT,
			       "%s:%d: coefficient '%s' needed by structure '%s': expected a finite value >= 0, found %g",
			       t->origin, c->line, name, structure, c->value);
	*value = c->value;
	return 0;
}

int iw_coef_has_error(const struct iw_coef *c) { return c->std_error > 0 && isfinite(c->std_error); }

size_t iw_tech_uncertain(const struct iw_tech *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->ncoef; i++)
		n += (size_t)iw_coef_has_error(&t->coef[i]);
	return n;
}

int iw_tech_sensitivities(const struct iw_tech *t, iw_tech_eval eval, void *ctx, size_t nv, double *d,
			  struct iw_err *e)
{
	size_t nk = iw_tech_uncertain(t);
	if (!nk || !nv)
		return 0;
	double *v0 = iw_malloc(nv * sizeof *v0);
	struct iw_coef *coef = iw_malloc(t->ncoef * sizeof *coef);
	int rc = 0;
	if (!v0 || !coef) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto out;
	}
	memcpy(coef, t->coef, t->ncoef * sizeof *coef);
	struct iw_tech moved = *t;
	moved.coef = coef;
	rc = eval(t, ctx, v0, e);
	for (size_t i = 0, k = 0; i < t->ncoef && !rc; i++) {
		if (!iw_coef_has_error(&t->coef[i]))
			continue;
		coef[i].value = t->coef[i].value + t->coef[i].std_error;
		coef[i].std_error = 0; /* (the moved file is exact) */
		rc = eval(&moved, ctx, d + k * nv, e);
		coef[i] = t->coef[i];
		for (size_t m = 0; m < nv && !rc; m++)
			d[k * nv + m] -= v0[m];
		k++;
	}
out:
	iw_free(v0);
	iw_free(coef);
	return rc;
}

void iw_tech_uncertain_corr(const struct iw_tech *t, double *r)
{
	size_t nk = iw_tech_uncertain(t);
	for (size_t j = 0; j < nk * nk; j++)
		r[j] = j % (nk + 1) == 0;
	for (size_t q = 0; q < t->ncorr; q++) {
		const struct iw_corr *c = &t->corr[q];
		if (!iw_coef_has_error(&t->coef[c->a]) || !iw_coef_has_error(&t->coef[c->b]))
			continue;
		size_t ka = 0, kb = 0; /* their ranks among the coefficients with an error */
		for (size_t i = 0; i < c->a; i++)
			ka += (size_t)iw_coef_has_error(&t->coef[i]);
		for (size_t i = 0; i < c->b; i++)
			kb += (size_t)iw_coef_has_error(&t->coef[i]);
		r[ka * nk + kb] = r[kb * nk + ka] = c->r;
	}
}

double iw_se_combine(size_t nk, const double *r, const double *d, size_t stride)
{
	double v = 0;
	for (size_t j = 0; j < nk; j++)
		for (size_t k = 0; k < nk; k++)
			v += d[j * stride] * d[k * stride] * r[j * nk + k];
	/* (the correlations are positive semi-definite, checked at load: a
	 * negative sum is rounding) */
	return v > 0 ? sqrt(v) : 0;
}

int iw_tech_propagate(const struct iw_tech *t, iw_tech_eval eval, void *ctx, size_t nv, double *se,
		      struct iw_err *e)
{
	for (size_t m = 0; m < nv; m++)
		se[m] = 0;
	size_t nk = iw_tech_uncertain(t);
	if (!nk || !nv)
		return 0;
	double *d = iw_calloc(nk * nv, sizeof *d), *r = iw_malloc(nk * nk * sizeof *r);
	int rc = !d || !r ? iw_fail(e, IW_ERUN, "out of memory") : iw_tech_sensitivities(t, eval, ctx, nv, d, e);
	if (!rc) {
		iw_tech_uncertain_corr(t, r);
		for (size_t m = 0; m < nv; m++)
			se[m] = iw_se_combine(nk, r, d + m, nv);
	}
	iw_free(d);
	iw_free(r);
	return rc;
}

int iw_tech_set(struct iw_tech *t, const char *assignment, struct iw_err *e)
{
	/* Messages name the key as typed, "--set tech.vdd: ...", as
	 * configuration keys are named (callers may pass it without "tech."). */
	const char *a = strncmp(assignment, "tech.", 5) == 0 ? assignment + 5 : assignment;
	const char *eq = strchr(a, '=');
	if (!eq)
		return iw_fail(e, IW_EUSAGE, "--set 'tech.%s': expected key=value (tech.vdd, tech.clock_mhz or "
			       "tech.COEFFICIENT)", a);
	char key[96];
	snprintf(key, sizeof key, "%.*s", (int)(eq - a), a);
	const char *k = key;
	double v;
	static const char suf[] = ".std_error";
	size_t kl = strlen(k), sl = sizeof suf - 1;
	if (kl > sl && strcmp(k + kl - sl, suf) == 0) {
		/* An error given to a coefficient, absolute (its unit) or relative
		 * ("30%"): how much would the results move if it were that
		 * uncertain?  (A sensitivity study; the file is left as it is.) */
		char num[64];
		size_t nl = strlen(eq + 1);
		int pct = nl && eq[nl] == '%';
		snprintf(num, sizeof num, "%.*s", (int)(nl - (size_t)pct), eq + 1);
		if (nl - (size_t)pct >= sizeof num || iw_parse_double(num, &v) || v < 0)
			return iw_fail(e, IW_EINPUT, "--set tech.%s: expected a standard error >= 0, in the coefficient's "
				       "unit or as N%%, found '%s'", k, eq + 1);
		char name[sizeof key];
		snprintf(name, sizeof name, "%.*s", (int)(kl - sl), k);
		struct iw_coef *c = (struct iw_coef *)iw_tech_coef(t, name);
		if (c) {
			c->std_error = pct ? v / 100 * c->value : v;
			return 0;
		}
		return iw_fail(e, IW_EINPUT, "--set tech.%s: unknown coefficient '%.*s' (expected a coefficient of %s)",
			       k, (int)(kl - sl), k, t->origin);
	}
	if (iw_parse_double(eq + 1, &v) || v < 0)
		return iw_fail(e, IW_EINPUT, "--set tech.%s: expected a finite number >= 0, found '%s'", k, eq + 1);
	if (strcmp(k, "vdd") == 0) {
		if (v <= 0 || v > 5)
			return iw_fail(e, IW_EINPUT, "--set tech.vdd: expected a value in (0, 5] V, found %g", v);
		/* Dynamic energy ~ C V^2, leakage power ~ I_off V (first order; the
		 * Stillmaker & Baas polynomials are quadratic in V near nominal). */
		double r = v / t->vdd;
		for (size_t i = 0; i < t->ncoef; i++) {
			enum scale_class c = coef_class(t->coef[i].name, t->coef[i].unit);
			double f = c == SC_ENERGY ? r * r : c == SC_LEAK ? r : 1;
			t->coef[i].value *= f;
			t->coef[i].std_error *= f;
		}
		t->vdd = v;
		return 0;
	}
	if (strcmp(k, "clock_mhz") == 0) {
		/* the range gpu.clock_mhz has (0: the configuration's clock) */
		if (!clock_ok(v))
			return iw_fail(e, IW_EINPUT,
				       "--set tech.clock_mhz: expected 0 (the configuration's clock) or 1 to %d MHz, found %g",
				       IW_CLOCK_MHZ_MAX, v);
		t->clock_mhz = v;
		return 0;
	}
	for (size_t i = 0; i < t->ncoef; i++)
		if (strcmp(t->coef[i].name, k) == 0) {
			t->coef[i].value = v;
			t->coef[i].fitted = 0;
			t->coef[i].std_error = 0; /* a value chosen, not estimated */
			snprintf(t->coef[i].source, sizeof t->coef[i].source, "set on the command line");
			return 0;
		}
	return iw_fail(e, IW_EINPUT,
		       "--set tech.%s: unknown technology key (expected tech.vdd, tech.clock_mhz or a coefficient of %s)", k,
		       t->origin);
}

size_t iw_tech_preset_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < iw_resource_count; i++) {
		const char *s = iw_resources[i].name;
		size_t l = strlen(s);
		if (strncmp(s, "tech/", 5) == 0 && l > 4 && strcmp(s + l - 4, ".xml") == 0)
			n++;
	}
	return n;
}

const char *iw_tech_preset_name(size_t k)
{
	static char buf[64];
	for (size_t i = 0; i < iw_resource_count; i++) {
		const char *s = iw_resources[i].name;
		size_t l = strlen(s);
		if (strncmp(s, "tech/", 5) == 0 && l > 4 && strcmp(s + l - 4, ".xml") == 0 && k-- == 0) {
			snprintf(buf, sizeof buf, "%.*s", (int)(l - 9), s + 5);
			return buf;
		}
	}
	return NULL;
}

/* The shortest decimal that reads back as v (a re-read file is the same
 * file, to the last bit: the provenance of a run reproduces it). */
static void put_exact(FILE *f, double v)
{
	char b[40];
	fputs(iw_num_exact(b, sizeof b, v), f);
}

/* Every coefficient written out (none imported through <derive>), with its
 * value, error and sources as the program holds them. */
static void write_tech(FILE *f, const struct iw_tech *t)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tech xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
		   "xsi:noNamespaceSchemaLocation=\"tech.xsd\" name=\"");
	iw_xml_text(f, t->name);
	fprintf(f, "\" kind=\"%s\"", t->kind == IW_TECH_FPGA ? "fpga" : "asic");
	if (t->node_nm > 0) {
		fputs(" node_nm=\"", f);
		put_exact(f, t->node_nm);
		fputc('"', f);
	}
	if (t->kind == IW_TECH_ASIC) { /* (a resolved <derive> keeps its node's area factor) */
		fputs(" area_factor=\"", f);
		put_exact(f, t->area_factor);
		fputc('"', f);
	}
	fputs(" vdd=\"", f);
	put_exact(f, t->vdd);
	fputs("\" clock_mhz=\"", f);
	put_exact(f, t->clock_mhz);
	fputs("\">\n", f);
	for (size_t i = 0; i < t->ncoef; i++) {
		const struct iw_coef *c = &t->coef[i];
		fprintf(f, "  <coef name=\"%s\" value=\"", c->name);
		put_exact(f, c->value);
		fprintf(f, "\" unit=\"%s\" source=\"", c->unit);
		iw_xml_text(f, c->source);
		fputc('"', f);
		if (c->fitted)
			fputs(" fitted=\"true\"", f);
		if (c->std_error > 0) { /* (fitted, or given for a sensitivity study) */
			fputs(" std_error=\"", f);
			put_exact(f, c->std_error);
			fputc('"', f);
		}
		if (c->fitted)
			fprintf(f, " points=\"%d\"", c->points);
		if (c->sources[0]) {
			fputs(" sources=\"", f);
			iw_xml_text(f, c->sources);
			fputc('"', f);
		}
		fputs("/>\n", f);
	}
	for (size_t i = 0; i < t->ncorr; i++) {
		fprintf(f, "  <correlation a=\"%s\" b=\"%s\" r=\"", t->coef[t->corr[i].a].name, t->coef[t->corr[i].b].name);
		put_exact(f, t->corr[i].r);
		fputs("\"/>\n", f);
	}
	fputs("</tech>\n", f);
}

int iw_tech_save(const struct iw_tech *t, const char *path, struct iw_err *e)
{
	struct iw_out o;
	int rc = iw_out_open(&o, path, 1, e);
	if (rc)
		return rc;
	write_tech(o.f, t);
	if (ferror(o.f)) {
		iw_out_abort(&o);
		return iw_fail(e, IW_ERUN, "%s: write failed", path);
	}
	return iw_out_commit(&o, e);
}

char *iw_tech_to_xml(const struct iw_tech *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	write_tech(f, t);
	if (fclose(f) != 0) {
		free(text); /* (open_memstream's own buffer) */
		return NULL;
	}
	return text;
}
