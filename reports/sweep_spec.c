/*
 * reports/sweep_spec.c -- the sweep spec (reports/sweep.xsd): parsing,
 * validation with file:line messages, the canonical point order, one unit of
 * work, and rows as bytes for MPI messages.
 */
#include "reports.h"

#include <libxml/tree.h>
#include <math.h>
#include <string.h>

static int xline(xmlNodePtr n) { return n ? (int)xmlGetLineNo(n) : 1; }

static char *prop(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	if (!v)
		return NULL;
	char *s = iw_strdup((const char *)v);
	xmlFree(v);
	return s;
}

static char *content(xmlNodePtr n)
{
	xmlChar *v = xmlNodeGetContent(n);
	char *s = iw_strdup(v ? (const char *)v : "");
	xmlFree(v);
	if (s) {
		char *t = iw_trim(s);
		memmove(s, t, strlen(t) + 1);
	}
	return s;
}

static int push(char ***v, size_t *n, char *s, struct iw_err *e)
{
	if (!s)
		return iw_fail(e, IW_ERUN, "out of memory");
	char **nv = iw_realloc(*v, (*n + 1) * sizeof **v);
	if (!nv) {
		iw_free(s);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		iw_free(v[i]);
	iw_free(v);
}

static int has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

/* "key=value" for --set: an enum's or a bool's value by its name (axes keep
 * the index, a number like any other value's), a number in full. */
static void assignment(char *a, size_t n, const char *key, double v)
{
	char val[96];
	snprintf(a, n, "%s=%s", key, iw_param_text(key, v, "%.17g", val, sizeof val));
}

/* Check one axis value by setting it on a scratch configuration. */
static int check_value(const char *name, int line, const char *key, double v, struct iw_err *e)
{
	struct iw_config c;
	struct iw_err e2 = {0};
	char a[128];
	iw_config_defaults(&c);
	assignment(a, sizeof a, key, v);
	if (iw_config_set(&c, a, &e2))
		return iw_fail(e, IW_EINPUT, "%s:%d: axis %s: value %s rejected: %s", name, line, key, strchr(a, '=') + 1,
			       e2.msg);
	return 0;
}

static int parse_axis(struct iw_sweep *s, const char *name, xmlNodePtr n, struct iw_err *e)
{
	int line = xline(n), rc = 0;
	char *key = prop(n, "key"), *label = prop(n, "label"), *values = prop(n, "values");
	char *from = prop(n, "from"), *to = prop(n, "to"), *step = prop(n, "step");
	struct iw_sweep_axis *ax = NULL;
	if (!key) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	const struct iw_param *p = iw_param_find(key);
	if (!p || strncmp(key, "tech.", 5) == 0) {
		rc = iw_fail(e, IW_EINPUT,
			     "%s:%d: axis key '%s': expected a configuration key (see 'issuewatt run --help-config')",
			     name, line, key);
		goto done;
	}
	for (size_t i = 0; i < s->naxes; i++)
		if (strcmp(s->axes[i].key, key) == 0) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected each key once, already an axis at line %d",
				     name, line, key, s->axes[i].line);
			goto done;
		}
	struct iw_sweep_axis *na = iw_realloc(s->axes, (s->naxes + 1) * sizeof *na);
	if (!na) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	s->axes = na;
	ax = &s->axes[s->naxes++];
	memset(ax, 0, sizeof *ax);
	snprintf(ax->key, sizeof ax->key, "%s", key);
	snprintf(ax->label, sizeof ax->label, "%s", label ? label : key);
	ax->line = line;
	if (values && (from || to || step)) {
		rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected either values=\"...\" or from/to/step, found both",
			     name, line, key);
		goto done;
	}
	if (values) {
		size_t cap = strlen(values) / 2 + 1;
		if (!(ax->values = iw_calloc(cap, sizeof *ax->values))) {
			rc = iw_fail(e, IW_ERUN, "out of memory");
			goto done;
		}
		char *save = NULL;
		int named = p->type == IW_PT_ENUM || p->type == IW_PT_BOOL;
		for (char *t = strtok_r(values, " \t\r\n,", &save); t; t = strtok_r(NULL, " \t\r\n,", &save)) {
			double v;
			struct iw_err e2 = {0};
			if (named ? iw_param_parse(p, t, &v, &e2) != 0 : iw_parse_double(t, &v) != 0) {
				rc = named ? iw_fail(e, IW_EINPUT, "%s:%d: axis %s", name, line, e2.msg)
					   : iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected a number, found '%s'", name,
						     line, key, t);
				goto done;
			}
			ax->values[ax->n++] = v;
		}
		if (ax->n == 0) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected at least one value, found an empty list", name,
				     line, key);
			goto done;
		}
	} else {
		double f, t, st;
		if (p->type == IW_PT_ENUM || p->type == IW_PT_BOOL) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected values=\"...\" (its names), found from/to/step",
				     name, line, key);
			goto done;
		}
		if (!from || !to || !step) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected values=\"...\" or all of from, to and step", name,
				     line, key);
			goto done;
		}
		if (iw_parse_double(from, &f) || iw_parse_double(to, &t) || iw_parse_double(step, &st)) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected numbers in from/to/step", name, line, key);
			goto done;
		}
		if (!(st > 0) || t < f) {
			rc = iw_fail(e, IW_EINPUT,
				     "%s:%d: axis %s: bad range: expected step > 0 and to >= from, found from=%g to=%g step=%g",
				     name, line, key, f, t, st);
			goto done;
		}
		double cnt = floor((t - f) / st + 1e-9) + 1;
		if (cnt > 100000) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: bad range: %.0f values (at most 100000)", name, line, key, cnt);
			goto done;
		}
		ax->n = (size_t)cnt;
		if (!(ax->values = iw_calloc(ax->n, sizeof *ax->values))) {
			rc = iw_fail(e, IW_ERUN, "out of memory");
			goto done;
		}
		/* from + i*step accumulates binary rounding (0.1 * 3); snap to 1e-9
		 * so the values printed, stored and set are the decimal ones. */
		for (size_t i = 0; i < ax->n; i++)
			ax->values[i] = nearbyint((f + (double)i * st) * 1e9) / 1e9;
	}
	for (size_t i = 0; i < ax->n && rc == 0; i++)
		rc = check_value(name, line, key, ax->values[i], e);
	for (size_t i = 0; i < ax->n && rc == 0; i++)
		for (size_t j = 0; j < i && rc == 0; j++)
			if (ax->values[i] == ax->values[j]) {
				char b[96];
				rc = iw_fail(e, IW_EINPUT, "%s:%d: axis %s: expected distinct values, %s appears twice", name,
					     line, key, iw_param_text(key, ax->values[i], "%g", b, sizeof b));
			}
done:
	iw_free(key);
	iw_free(label);
	iw_free(values);
	iw_free(from);
	iw_free(to);
	iw_free(step);
	return rc;
}

/* Expand one <workload> element: 'builtin' into its kernels (one row each, as
 * `issuewatt run` does), anything else checked by opening it. */
static int add_workload(struct iw_sweep *s, char ***wl, size_t *nwl, const char *name, int line, const char *w,
			struct iw_err *e)
{
	if (strcmp(w, "builtin") == 0 && iw_builtin_count() > 0) {
		for (size_t i = 0; i < iw_builtin_count(); i++) {
			const char *n = iw_builtin_get(i)->name;
			int rc;
			if (!iw_builtin_get(i)->in_default_set || has(*wl, *nwl, n))
				continue;
			if ((rc = push(wl, nwl, iw_strdup(n), e)))
				return rc;
		}
		return 0;
	}
	struct iw_workload *wk = NULL;
	struct iw_err e2 = {0};
	if (iw_workload_open(w, 1, 1.0, &wk, &e2))
		return iw_fail(e, e2.code == IW_ERUN ? IW_ERUN : IW_EINPUT, "%s:%d: workload '%s': %s", name, line, w,
			       e2.msg);
	iw_workload_close(wk);
	(void)s;
	return has(*wl, *nwl, w) ? 0 : push(wl, nwl, iw_strdup(w), e);
}

int iw_sweep_parse(struct iw_sweep *s, const char *name, const char *text, size_t len, struct iw_err *e)
{
	memset(s, 0, sizeof *s);
	xmlDocPtr doc = NULL;
	char *config = NULL, *tech = NULL, **sets = NULL, **wl = NULL, **sch = NULL;
	size_t nsets = 0, nwl = 0, nsch = 0;
	int *pt_lines = NULL; /* each <power-trace>'s line */
	int config_line = 1, rc;
	if (!(s->path = iw_strdup(name)) || !(s->xml = iw_malloc(len + 1)))
		return iw_fail(e, IW_ERUN, "out of memory");
	memcpy(s->xml, text, len);
	s->xml[len] = 0;
	rc = iw_xml_load(name, text, len, "reports/sweep.xsd", (struct _xmlDoc **)&doc, e);
	if (rc)
		goto done;
	xmlNodePtr root = xmlDocGetRootElement(doc);
	char *nm = prop(root, "name");
	snprintf(s->name, sizeof s->name, "%s", nm ? nm : "sweep");
	iw_free(nm);
	char schemes_csv[1024] = "";
	for (xmlNodePtr n = root->children; n && rc == 0; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *el = (const char *)n->name;
		int line = xline(n);
		if (!strcmp(el, "config")) {
			config = content(n);
			config_line = line;
		} else if (!strcmp(el, "tech")) {
			tech = content(n);
		} else if (!strcmp(el, "workload")) {
			char *w = content(n);
			if (!w)
				rc = iw_fail(e, IW_ERUN, "out of memory");
			else if (!*w)
				rc = iw_fail(e, IW_EINPUT, "%s:%d: workload: expected a name or path, found nothing", name, line);
			else
				rc = add_workload(s, &wl, &nwl, name, line, w, e);
			iw_free(w);
		} else if (!strcmp(el, "scheme")) {
			char *w = content(n);
			if (!w) {
				rc = iw_fail(e, IW_ERUN, "out of memory");
			} else if (strcmp(w, "all") && iw_scheme_find(w) < 0) {
				char known[512] = "";
				for (size_t i = 0; i < iw_scheme_count(); i++)
					snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
						 iw_scheme_name(i));
				rc = iw_fail(e, IW_EINPUT, "%s:%d: scheme '%s': expected one of %s, all", name, line, w, known);
			} else {
				snprintf(schemes_csv + strlen(schemes_csv), sizeof schemes_csv - strlen(schemes_csv), "%s,", w);
			}
			iw_free(w);
		} else if (!strcmp(el, "set")) {
			char *k = prop(n, "key"), *v = prop(n, "value");
			char a[512];
			snprintf(a, sizeof a, "%s=%s", k ? k : "", v ? v : "");
			iw_free(k);
			iw_free(v);
			struct iw_config c;
			struct iw_err e2 = {0};
			iw_config_defaults(&c);
			if (strncmp(a, "tech.", 5) != 0 && iw_config_set(&c, a, &e2))
				rc = iw_fail(e, IW_EINPUT, "%s:%d: set: %s", name, line, e2.msg);
			else
				rc = push(&sets, &nsets, iw_strdup(a), e);
		} else if (!strcmp(el, "axis")) {
			rc = parse_axis(s, name, n, e);
		} else if (!strcmp(el, "power-trace")) {
			char *w = prop(n, "workload"), *sc = prop(n, "scheme");
			void *np = iw_realloc(s->power_traces, (s->npower_traces + 1) * sizeof *s->power_traces);
			if (np)
				s->power_traces = np;
			int *nl = np ? iw_realloc(pt_lines, (s->npower_traces + 1) * sizeof *pt_lines) : NULL;
			if (nl)
				pt_lines = nl;
			if (!np || !nl || !w || !sc) {
				rc = iw_fail(e, IW_ERUN, "out of memory");
			} else {
				pt_lines[s->npower_traces] = line;
				snprintf(s->power_traces[s->npower_traces][0], 256, "%s", w);
				snprintf(s->power_traces[s->npower_traces][1], 256, "%s", sc);
				s->npower_traces++;
			}
			iw_free(w);
			iw_free(sc);
		}
	}
	if (rc)
		goto done;
	struct iw_err e2 = {0};
	rc = iw_job_init(&s->base, config ? config : "v100", tech ? tech : "12nm", sets, nsets,
			 *schemes_csv ? schemes_csv : "all", "builtin", &e2);
	if (rc) {
		rc = iw_fail(e, e2.code ? e2.code : IW_EINPUT, "%s:%d: %s", name, config_line, e2.msg);
		goto done;
	}
	/* The job's own workload list is replaced by the spec's (names may hold commas). */
	free_strs(s->base.workloads, s->base.nworkloads);
	s->base.workloads = wl;
	s->base.nworkloads = nwl;
	wl = NULL;
	nwl = 0;
	/* A pair the sweep does not run would give the report an empty power
	 * figure (report --power-runs refuses it the same way). */
	for (size_t i = 0; i < s->npower_traces; i++) {
		const char *w = s->power_traces[i][0], *sc = s->power_traces[i][1];
		int wok = has(s->base.workloads, s->base.nworkloads, w), sok = has(s->base.schemes, s->base.nschemes, sc);
		if (!wok || !sok) {
			char known[512] = "";
			char **v = wok ? s->base.schemes : s->base.workloads;
			for (size_t k = 0, nk = wok ? s->base.nschemes : s->base.nworkloads; k < nk; k++)
				snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "", v[k]);
			rc = iw_fail(e, IW_EINPUT, "%s:%d: power-trace %s:%s: expected a %s the sweep runs (%s), found '%s'",
				     name, pt_lines[i], w, sc, wok ? "scheme" : "workload", known, wok ? sc : w);
			goto done;
		}
	}
	s->nconfigs = 1;
	if (!(s->param_names = iw_calloc(s->naxes + 1, sizeof *s->param_names))) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < s->naxes; i++) {
		s->param_names[i] = s->axes[i].key;
		if (s->nconfigs > ((size_t)1 << 40) / s->axes[i].n) {
			rc = iw_fail(e, IW_EINPUT, "%s:%d: the axes make too many configurations", name, s->axes[i].line);
			goto done;
		}
		s->nconfigs *= s->axes[i].n;
	}
	s->nunits = s->nconfigs * s->base.nworkloads;
	s->nrows = s->nunits * s->base.nschemes;
	/* Every combination must be a valid configuration before anything runs. */
	for (size_t c = 0; c < s->nconfigs && rc == 0; c++) {
		struct iw_config cfg;
		e2.code = 0;
		if (iw_sweep_config(s, c, &cfg, &e2)) {
			char pt[512] = "";
			double v[64];
			iw_sweep_point(s, c, v);
			for (size_t i = 0; i < s->naxes && i < 64; i++)
				snprintf(pt + strlen(pt), sizeof pt - strlen(pt), "%s%s=%g", i ? " " : "", s->axes[i].key, v[i]);
			rc = iw_fail(e, IW_EINPUT, "%s:%d: configuration {%s} is invalid: %s", name,
				     s->naxes ? s->axes[0].line : config_line, pt, e2.msg);
		}
	}
done:
	if (doc)
		xmlFreeDoc(doc);
	iw_free(config);
	iw_free(tech);
	free_strs(sets, nsets);
	free_strs(wl, nwl);
	free_strs(sch, nsch);
	iw_free(pt_lines);
	return rc;
}

int iw_sweep_spec_input(const char *xml, const char *element, char *buf, size_t n)
{
	/* (no schema, no files opened: merge reads specs whose inputs are elsewhere) */
	xmlDocPtr doc = NULL;
	struct iw_err e = {0};
	snprintf(buf, n, "%s", strcmp(element, "tech") == 0 ? "12nm" : "v100"); /* iw_sweep_parse's defaults */
	if (iw_xml_load("spec", xml, strlen(xml), NULL, (struct _xmlDoc **)&doc, &e))
		return -1;
	for (xmlNodePtr c = xmlDocGetRootElement(doc)->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, element) == 0) {
			char *t = content(c);
			if (t)
				snprintf(buf, n, "%s", t);
			iw_free(t);
		}
	xmlFreeDoc(doc);
	return 0;
}

/* An attribute's value with its blanks collapsed and trimmed: "2  4" and
 * " 2 4" list the same values. */
static char *norm_value(xmlNodePtr n, const char *name)
{
	char *v = prop(n, name);
	if (!v)
		return NULL;
	char *w = v;
	int blank = 0;
	for (const char *r = v; *r; r++) {
		if (strchr(" \t\r\n", *r)) {
			blank = w > v;
			continue;
		}
		if (blank)
			*w++ = ' ';
		blank = 0;
		*w++ = *r;
	}
	*w = 0;
	return v;
}

static int has_element_children(xmlNodePtr n)
{
	for (xmlNodePtr c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return 1;
	return 0;
}

static xmlNodePtr next_element(xmlNodePtr n)
{
	while (n && n->type != XML_ELEMENT_NODE)
		n = n->next;
	return n;
}

/* Elements a and b compared as the parser sees them: name, attributes in
 * any order, text; 1 with both versions in `what` at the first difference. */
static int element_diff(xmlNodePtr a, const char *an, xmlNodePtr b, const char *bn, char *what, size_t n)
{
	char da[300] = "", db[300] = "";
	if (strcmp((const char *)a->name, (const char *)b->name) != 0) {
		snprintf(da, sizeof da, "<%s>", (const char *)a->name);
		snprintf(db, sizeof db, "<%s>", (const char *)b->name);
	}
	for (int side = 0; side < 2 && !*da; side++) /* every attribute of one, looked up in the other */
		for (xmlAttrPtr at = (side ? b : a)->properties; at && !*da; at = at->next) {
			const char *k = (const char *)at->name;
			char *va = norm_value(a, k), *vb = norm_value(b, k);
			if (!va || !vb || strcmp(va, vb) != 0) {
				snprintf(da, sizeof da, va ? "<%s %s=\"%.200s\">" : "<%s> without %s", (const char *)a->name, k,
					 va);
				snprintf(db, sizeof db, vb ? "<%s %s=\"%.200s\">" : "<%s> without %s", (const char *)b->name, k,
					 vb);
			}
			iw_free(va);
			iw_free(vb);
		}
	if (!*da && !has_element_children(a) && !has_element_children(b)) {
		char *ta = content(a), *tb = content(b);
		if (ta && tb && strcmp(ta, tb) != 0) {
			snprintf(da, sizeof da, "<%s>%.200s</%s>", (const char *)a->name, ta, (const char *)a->name);
			snprintf(db, sizeof db, "<%s>%.200s</%s>", (const char *)b->name, tb, (const char *)b->name);
		}
		iw_free(ta);
		iw_free(tb);
	}
	if (*da) {
		snprintf(what, n, "%s line %d: %s; %s line %d: %s", an, xline(a), da, bn, xline(b), db);
		return 1;
	}
	xmlNodePtr ca = next_element(a->children), cb = next_element(b->children);
	for (; ca && cb; ca = next_element(ca->next), cb = next_element(cb->next))
		if (element_diff(ca, an, cb, bn, what, n))
			return 1;
	if (ca || cb) {
		xmlNodePtr extra = ca ? ca : cb;
		snprintf(what, n, "%s line %d: <%s>; %s: no such element in <%s> (line %d)", ca ? an : bn, xline(extra),
			 (const char *)extra->name, ca ? bn : an, (const char *)(ca ? b : a)->name, xline(ca ? b : a));
		return 1;
	}
	return 0;
}

int iw_sweep_spec_diff(const char *a, const char *an, const char *b, const char *bn, char *what, size_t n)
{
	xmlDocPtr da = NULL, db = NULL;
	struct iw_err e = {0};
	int rc = -1;
	*what = 0;
	if (iw_xml_load(an, a, strlen(a), NULL, (struct _xmlDoc **)&da, &e) == 0 &&
	    iw_xml_load(bn, b, strlen(b), NULL, (struct _xmlDoc **)&db, &e) == 0)
		rc = element_diff(xmlDocGetRootElement(da), an, xmlDocGetRootElement(db), bn, what, n);
	if (rc < 0) /* (not XML: only the same text is the same spec) */
		rc = strcmp(a, b) != 0;
	if (da)
		xmlFreeDoc(da);
	if (db)
		xmlFreeDoc(db);
	return rc;
}

int iw_sweep_load(struct iw_sweep *s, const char *path, struct iw_err *e)
{
	char *text = NULL;
	size_t len = 0;
	int rc = iw_read_file(path, &text, &len, e);
	if (rc) {
		memset(s, 0, sizeof *s);
		return rc;
	}
	rc = iw_sweep_parse(s, path, text, len, e);
	iw_free(text);
	return rc;
}

void iw_sweep_free(struct iw_sweep *s)
{
	iw_job_free(&s->base);
	for (size_t i = 0; i < s->naxes; i++)
		iw_free(s->axes[i].values);
	iw_free(s->axes);
	iw_free(s->param_names);
	iw_free(s->power_traces);
	iw_free(s->path);
	iw_free(s->xml);
	memset(s, 0, sizeof *s);
}

/* Mixed radix, the last axis fastest (so the first axis is the outer loop). */
void iw_sweep_point(const struct iw_sweep *s, size_t c, double *v)
{
	for (size_t i = s->naxes; i-- > 0;) {
		v[i] = s->axes[i].values[c % s->axes[i].n];
		c /= s->axes[i].n;
	}
}

int iw_sweep_config(const struct iw_sweep *s, size_t c, struct iw_config *cfg, struct iw_err *e)
{
	*cfg = s->base.cfg;
	double v[64];
	if (s->naxes > 64)
		return iw_fail(e, IW_EINPUT, "%s: at most 64 axes", s->path);
	iw_sweep_point(s, c, v);
	for (size_t i = 0; i < s->naxes; i++) {
		char a[192];
		assignment(a, sizeof a, s->axes[i].key, v[i]);
		int rc = iw_config_set(cfg, a, e);
		if (rc)
			return rc;
	}
	return iw_config_check(cfg, e);
}

int iw_sweep_unit(const struct iw_sweep *s, size_t unit, struct iw_row *rows, struct iw_base_cache *bc,
		  struct iw_err *e)
{
	size_t c = unit / s->base.nworkloads, wi = unit % s->base.nworkloads, ns = s->base.nschemes;
	struct iw_config cfg;
	double v[64];
	memset(rows, 0, ns * sizeof *rows);
	int rc = iw_sweep_config(s, c, &cfg, e);
	if (rc)
		return rc;
	iw_sweep_point(s, c, v);
	size_t done = 0;
	for (size_t si = 0; si < ns; si++) {
		struct iw_row *r = &rows[si];
		/* the baseline of an earlier point with the same key */
		int base = bc && strcmp(s->base.schemes[si], "inorder") == 0;
		char *key = base ? iw_base_key(&cfg, s->base.workloads[wi]) : NULL;
		if (key && iw_base_cache_get(bc, key, &r->run)) {
			done = si + 1;
		} else {
			struct iw_workload *w = NULL;
			rc = iw_workload_open(s->base.workloads[wi], (uint64_t)cfg.seed, cfg.workload_scale, &w, e);
			if (rc) {
				if (key)
					iw_base_cache_abandon(bc, key);
				iw_free(key);
				break;
			}
			struct iw_kernel_pricer kp = {.cfg = &cfg, .tech = &s->base.tech};
			struct iw_sim_opts o = {.cfg = &cfg, .scheme = s->base.schemes[si], .on_kernel = iw_price_kernel,
						.kernel_ctx = &kp};
			rc = iw_kernel_pricer_done(&kp, &r->run, iw_simulate(&o, w, &r->run, e), e);
			iw_workload_close(w);
			done = si + 1;
			if (key && rc == 0)
				iw_base_cache_put(bc, key, &r->run);
			else if (key)
				iw_base_cache_abandon(bc, key);
		}
		iw_free(key);
		if (rc)
			break;
		snprintf(r->workload, sizeof r->workload, "%s", s->base.workloads[wi]);
		snprintf(r->scheme, sizeof r->scheme, "%s", s->base.schemes[si]);
		if ((rc = iw_row_price(r, &cfg, &s->base.tech, e)))
			break;
		r->nparams = s->naxes;
		if (!(r->params = iw_calloc(s->naxes ? s->naxes : 1, sizeof *r->params))) {
			rc = iw_fail(e, IW_ERUN, "out of memory");
			break;
		}
		memcpy(r->params, v, s->naxes * sizeof *v);
	}
	if (rc) {
		for (size_t si = 0; si < done; si++)
			iw_row_free(&rows[si]);
		/* name the point: the message alone does not say which configuration */
		char pt[256] = "", msg[sizeof e->msg + 600];
		for (size_t i = 0; i < s->naxes; i++)
			snprintf(pt + strlen(pt), sizeof pt - strlen(pt), " %s=%g", s->axes[i].key, v[i]);
		snprintf(msg, sizeof msg, "%.200s: point {%s }, workload %.100s: %s", s->path, pt, s->base.workloads[wi], e->msg);
		size_t l = IW_MIN(strlen(msg), sizeof e->msg - 1);
		memcpy(e->msg, msg, l);
		e->msg[l] = 0;
		return rc;
	}
	for (size_t si = 0; si < ns; si++)
		iw_row_metrics(&rows[si], &rows[0]);
	for (size_t si = 0; si < ns && !rc; si++)
		rc = iw_row_model_se(&rows[si], &rows[0], &cfg, &s->base.tech, e);
	if (rc)
		for (size_t si = 0; si < ns; si++)
			iw_row_free(&rows[si]);
	return rc;
}

/* ------------------------------------------------------------ rows as bytes */
/* The struct as it is (both ends run the same binary), then the arrays its
 * pointers refer to; the receiver re-points them at its own copies. */
int iw_row_pack(const struct iw_row *r, unsigned char **buf, size_t *len, struct iw_err *e)
{
	size_t n = r->run.series.n, np = r->power.nseries == n && r->power.series_w ? n : 0;
	size_t nps = np && r->power.series_struct_w ? np : 0;
	size_t nk = r->run.kstats ? r->run.nkstats : 0;
	size_t ns = r->sens ? r->nsens * IW_SE_COUNT : 0;
	size_t nks = r->run.ksens ? nk * r->run.nksens : 0;
	uint64_t hdr[8] = {n, np, nps, r->nparams, nk, ns, nks, r->run.ksens ? r->run.nksens : 0};
	size_t sz = sizeof *r + sizeof hdr + n * (IW_A_COUNT + 2) * sizeof(uint64_t) + np * sizeof(double) +
		    nps * IW_S_COUNT * sizeof(double) + r->nparams * sizeof(double) + nk * sizeof(struct iw_kernel_stat) +
		    (ns + nks) * sizeof(double);
	unsigned char *b = iw_malloc(sz), *p = b;
	if (!b)
		return iw_fail(e, IW_ERUN, "out of memory");
#define PUT(src, bytes)                          \
	do {                                     \
		if ((bytes) != 0)                \
			memcpy(p, src, bytes);   \
		p += (bytes);                    \
	} while (0)
	PUT(r, sizeof *r);
	PUT(hdr, sizeof hdr);
	PUT(r->run.series.act, n * IW_A_COUNT * sizeof(uint64_t));
	PUT(r->run.series.insts, n * sizeof(uint64_t));
	PUT(r->run.series.cycles, n * sizeof(uint64_t));
	PUT(r->power.series_w, np * sizeof(double));
	PUT(r->power.series_struct_w, nps * IW_S_COUNT * sizeof(double));
	PUT(r->params, r->nparams * sizeof(double));
	PUT(r->run.kstats, nk * sizeof(struct iw_kernel_stat));
	PUT(r->sens, ns * sizeof(double));
	PUT(r->run.ksens, nks * sizeof(double));
#undef PUT
	*buf = b;
	*len = sz;
	return 0;
}

int iw_row_unpack(struct iw_row *r, const unsigned char *buf, size_t len, size_t *used, struct iw_err *e)
{
	uint64_t hdr[8];
	const unsigned char *p = buf;
	if (len < sizeof *r + sizeof hdr)
		return iw_fail(e, IW_ERUN, "internal: truncated row message");
	memcpy(r, p, sizeof *r);
	memcpy(hdr, p + sizeof *r, sizeof hdr);
	p += sizeof *r + sizeof hdr;
	size_t n = hdr[0], np = hdr[1], nps = hdr[2], npar = hdr[3], nk = hdr[4], ns = hdr[5], nks = hdr[6],
	       nksens = hdr[7];
	size_t need = sizeof *r + sizeof hdr + n * (IW_A_COUNT + 2) * sizeof(uint64_t) + np * sizeof(double) +
		      nps * IW_S_COUNT * sizeof(double) + npar * sizeof(double) + nk * sizeof(struct iw_kernel_stat) +
		      (ns + nks) * sizeof(double);
	memset(&r->run.series, 0, sizeof r->run.series);
	r->run.series.interval = ((const struct iw_row *)(const void *)buf)->run.series.interval;
	r->power.series_t_s = r->power.series_w = r->power.series_struct_w = NULL;
	r->power.nseries = 0;
	r->params = NULL;
	r->nparams = 0;
	r->run.kstats = NULL;
	r->run.nkstats = 0;
	r->sens = NULL;
	r->nsens = 0;
	r->run.ksens = NULL;
	r->run.nksens = 0;
	if (len < need || ns % IW_SE_COUNT || nks != nk * nksens)
		return iw_fail(e, IW_ERUN, "internal: truncated row message");
	struct iw_series *se = &r->run.series;
	se->n = se->cap = n;
	se->act = iw_malloc((n ? n : 1) * IW_A_COUNT * sizeof(uint64_t));
	se->insts = iw_malloc((n ? n : 1) * sizeof(uint64_t));
	se->cycles = iw_malloc((n ? n : 1) * sizeof(uint64_t));
	r->params = iw_malloc((npar ? npar : 1) * sizeof(double));
	r->run.kstats = iw_malloc((nk ? nk : 1) * sizeof(struct iw_kernel_stat));
	if (np)
		r->power.series_w = iw_malloc(np * sizeof(double));
	if (nps)
		r->power.series_struct_w = iw_malloc(nps * IW_S_COUNT * sizeof(double));
	if (ns)
		r->sens = iw_malloc(ns * sizeof(double));
	if (nks)
		r->run.ksens = iw_malloc(nks * sizeof(double));
	if ((ns && !r->sens) || (nks && !r->run.ksens) || !se->act || !se->insts || !se->cycles || !r->params || !r->run.kstats || (np && !r->power.series_w) ||
	    (nps && !r->power.series_struct_w)) {
		iw_results_row_free(r);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	r->nparams = npar;
	r->run.nkstats = nk;
	r->power.nseries = np;
	r->nsens = ns / IW_SE_COUNT;
	r->run.nksens = nks ? nksens : 0;
#define GET(dst, bytes)                          \
	do {                                     \
		if ((bytes) != 0)                \
			memcpy(dst, p, bytes);   \
		p += (bytes);                    \
	} while (0)
	GET(se->act, n * IW_A_COUNT * sizeof(uint64_t));
	GET(se->insts, n * sizeof(uint64_t));
	GET(se->cycles, n * sizeof(uint64_t));
	GET(r->power.series_w, np * sizeof(double));
	GET(r->power.series_struct_w, nps * IW_S_COUNT * sizeof(double));
	GET(r->params, npar * sizeof(double));
	GET(r->run.kstats, nk * sizeof(struct iw_kernel_stat));
	GET(r->sens, ns * sizeof(double));
	GET(r->run.ksens, nks * sizeof(double));
#undef GET
	if (used)
		*used = need;
	return 0;
}
