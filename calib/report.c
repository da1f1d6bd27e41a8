/*
 * calib/report.c -- synthesis-report parsers behind one table.  Each parser
 * turns one report kind into rows of (instance, quantity, value, unit); a new
 * report kind is one entry in `formats` (a detector and a parser).
 *
 * Tables are read by their header names, never by column position, because
 * the columns change between tool versions (Vivado 2024 added "Prohibited",
 * -hierarchical tables grow URAM/DSP columns with the device, DC prints or
 * omits the percentage column).
 */
#include "calib.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows --------------------------------------------------------------- */

/* Rows of one instance are added together, so a search may start where the
 * instance's rows start (keeps parsing linear in the report size). */
static int find_row_from(const struct iw_report *r, size_t from, const char *inst, const char *q)
{
	for (size_t i = from; i < r->n; i++)
		if (strcmp(r->rows[i].quantity, q) == 0 && strcmp(r->rows[i].instance, inst) == 0)
			return (int)i;
	return -1;
}

static int find_row(const struct iw_report *r, const char *inst, const char *q)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->rows[i].quantity, q) == 0 && strcmp(r->rows[i].instance, inst) == 0)
			return (int)i;
	return -1;
}

/* Append a row; with `replace`, an existing (instance, quantity) is updated
 * instead (a later section of the same report refines an earlier one). */
static int add_row(struct iw_report *r, const char *inst, const char *q, double v, const char *unit,
		   int line, int replace, struct iw_err *e)
{
	if (replace) {
		int i = find_row(r, inst, q);
		if (i >= 0) {
			r->rows[i].value = v;
			r->rows[i].line = line;
			snprintf(r->rows[i].unit, sizeof r->rows[i].unit, "%s", unit);
			return 0;
		}
	}
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 64;
		struct iw_report_row *nr = iw_realloc(r->rows, nc * sizeof *nr);
		if (!nr)
			return iw_fail(e, IW_ERUN, "%s: out of memory", r->path);
		r->rows = nr;
		r->cap = nc;
	}
	struct iw_report_row *row = &r->rows[r->n];
	row->instance = iw_strdup(inst);
	row->quantity = iw_strdup(q);
	if (!row->instance || !row->quantity) {
		iw_free(row->instance);
		iw_free(row->quantity);
		return iw_fail(e, IW_ERUN, "%s: out of memory", r->path);
	}
	row->value = v;
	snprintf(row->unit, sizeof row->unit, "%s", unit);
	row->line = line;
	r->n++;
	return 0;
}

void iw_report_free(struct iw_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		iw_free(r->rows[i].instance);
		iw_free(r->rows[i].quantity);
	}
	iw_free(r->rows);
	iw_free(r->path);
	memset(r, 0, sizeof *r);
}

/* ---- lines -------------------------------------------------------------- */

struct lines {
	char *buf;
	char **l;
	size_t n;
	const char *name;
};

static int split_lines(struct lines *L, const char *name, const char *text, size_t len, struct iw_err *e)
{
	L->name = name;
	L->buf = iw_malloc(len + 1);
	size_t cnt = 1;
	for (size_t i = 0; i < len; i++)
		cnt += text[i] == '\n';
	L->l = iw_malloc(cnt * sizeof *L->l);
	if (!L->buf || !L->l) {
		iw_free(L->buf);
		iw_free(L->l);
		return iw_fail(e, IW_ERUN, "%s: out of memory", name);
	}
	memcpy(L->buf, text, len);
	L->buf[len] = 0;
	L->n = 0;
	char *p = L->buf;
	while (*p || L->n == 0) {
		char *nl = strchr(p, '\n');
		L->l[L->n++] = p;
		if (!nl)
			break;
		*nl = 0;
		if (nl > p && nl[-1] == '\r')
			nl[-1] = 0;
		p = nl + 1;
	}
	if (L->n && L->l[L->n - 1][0] == 0)
		L->n--; /* the empty string after a final newline is not a line */
	for (size_t i = 0; i < L->n; i++) { /* a last line without newline may still end in \r */
		size_t k = strlen(L->l[i]);
		if (k && L->l[i][k - 1] == '\r')
			L->l[i][k - 1] = 0;
	}
	return 0;
}

static void free_lines(struct lines *L)
{
	iw_free(L->buf);
	iw_free(L->l);
}

static int starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }
static const char *skipws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Is the line these tl characters, give or take surrounding blanks? */
static int same_words(const char *line, const char *text, size_t tl)
{
	const char *s = skipws(line);
	return strncmp(s, text, tl) == 0 && !*skipws(s + tl);
}

/* Strict number (the whole token), accepting a leading '<' bound as half of it
 * (Vivado prints "<0.001" for powers under a milliwatt: half the bound is the
 * unbiased guess when nothing else is known). */
static int num(const char *s, double *v)
{
	char tmp[64];
	size_t n = strlen(s);
	if (n == 0 || n >= sizeof tmp)
		return -1;
	memcpy(tmp, s, n + 1);
	char *t = iw_trim(tmp);
	int half = 0;
	if (*t == '<') {
		half = 1;
		t++;
	}
	if (iw_parse_double(t, v) != 0)
		return -1;
	if (half)
		*v /= 2;
	return 0;
}

static void copy_trim(char *dst, size_t n, const char *src, size_t len)
{
	while (len && isspace((unsigned char)*src))
		src++, len--;
	while (len && isspace((unsigned char)src[len - 1]))
		len--;
	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = 0;
}

/* "Power (W)" -> name "Power", unit "W". */
static void split_unit(const char *h, char *name, size_t nn, char *unit, size_t un)
{
	const char *o = strrchr(h, '(');
	const char *c = o ? strchr(o, ')') : NULL;
	if (o && c && c[1] == 0) {
		copy_trim(name, nn, h, (size_t)(o - h));
		copy_trim(unit, un, o + 1, (size_t)(c - o - 1));
	} else {
		copy_trim(name, nn, h, strlen(h));
		unit[0] = 0;
	}
}

/* ---- Vivado pipe tables ------------------------------------------------- */

#define MAXCOL 32
struct vtable {
	size_t first, last;     /* line range, inclusive, of the whole +--+ block */
	size_t hdr;             /* header row line, 0 if none */
	size_t ncol;
	char col[MAXCOL][96];
	size_t body;            /* first body line */
};

/* Split "| a | b |" into cells (pointers into a scratch copy); returns count.
 * indent[k] = spaces after the '|' before the text of cell k. */
static size_t pipe_cells(const char *line, char *scratch, size_t ss, char **cells, int *indent)
{
	snprintf(scratch, ss, "%s", line);
	size_t n = 0;
	char *p = strchr(scratch, '|');
	if (!p)
		return 0;
	p++;
	while (*p && n < MAXCOL) {
		char *q = strchr(p, '|');
		if (!q)
			break;
		*q = 0;
		int ind = 0;
		while (p[ind] == ' ')
			ind++;
		if (indent)
			indent[n] = ind;
		cells[n++] = iw_trim(p);
		p = q + 1;
	}
	return n;
}

/* Find the next +---+ table from line *at; fill t; returns 0 if found. */
static int next_vtable(const struct lines *L, size_t *at, struct vtable *t)
{
	size_t i = *at;
	while (i < L->n && !starts(L->l[i], "+-"))
		i++;
	if (i >= L->n)
		return -1;
	memset(t, 0, sizeof *t);
	t->first = i;
	size_t j = i + 1, seps[3] = {i, 0, 0}, ns = 1;
	while (j < L->n && (L->l[j][0] == '|' || L->l[j][0] == '+')) {
		if (L->l[j][0] == '+' && ns < 3)
			seps[ns++] = j;
		j++;
	}
	t->last = j - 1;
	*at = j;
	/* A header exists when a second separator closes a single row and more rows follow. */
	if (ns >= 2 && seps[1] == seps[0] + 2 && seps[1] < t->last) {
		t->hdr = seps[0] + 1;
		t->body = seps[1] + 1;
		char scratch[4096], *cells[MAXCOL];
		t->ncol = pipe_cells(L->l[t->hdr], scratch, sizeof scratch, cells, NULL);
		for (size_t k = 0; k < t->ncol; k++)
			snprintf(t->col[k], sizeof t->col[k], "%s", cells[k]);
	} else {
		t->hdr = 0;
		t->body = t->first + 1;
	}
	return 0;
}

static int vcol(const struct vtable *t, const char *name)
{
	for (size_t k = 0; k < t->ncol; k++)
		if (strcmp(t->col[k], name) == 0)
			return (int)k;
	return -1;
}

static void header_field(const struct lines *L, const char *key, char *out, size_t n)
{
	/* "| Design       : fpga" */
	for (size_t i = 0; i < L->n && i < 40; i++) {
		const char *s = L->l[i];
		if (*s != '|')
			continue;
		s = skipws(s + 1);
		if (!starts(s, key))
			continue;
		const char *c = strchr(s, ':');
		if (c && strspn(s + strlen(key), " \t") == (size_t)(c - s - (long)strlen(key))) {
			copy_trim(out, n, c + 1, strlen(c + 1));
			return;
		}
	}
}

/* Alias rows: canonical quantities that every parser offers where it can. */
struct alias {
	const char *canon, *src[4];
	double scale;
	const char *unit;
};

static int apply_aliases_from(struct iw_report *r, size_t from, const char *inst, const struct alias *a,
			      size_t na, struct iw_err *e)
{
	for (size_t k = 0; k < na; k++) {
		if (find_row_from(r, from, inst, a[k].canon) >= 0)
			continue;
		for (size_t s = 0; s < 4 && a[k].src[s]; s++) {
			int i = find_row_from(r, from, inst, a[k].src[s]);
			if (i >= 0) {
				int rc = add_row(r, inst, a[k].canon, r->rows[i].value * a[k].scale,
						 a[k].unit ? a[k].unit : r->rows[i].unit, r->rows[i].line, 0, e);
				if (rc)
					return rc;
				break;
			}
		}
	}
	return 0;
}

static int apply_aliases(struct iw_report *r, const char *inst, const struct alias *a, size_t na,
			 struct iw_err *e)
{
	return apply_aliases_from(r, 0, inst, a, na, e);
}

static const struct alias vivado_util_alias[] = {
	{"LUT", {"CLB LUTs", "Slice LUTs", "Total LUTs"}, 1, "LUT"},
	{"FF", {"CLB Registers", "Slice Registers", "FFs"}, 1, "FF"},
	{"LUTRAM", {"LUT as Distributed RAM", "LUTRAMs"}, 1, "LUT"},
	{"BRAM", {"Block RAM Tile"}, 1, "BRAM36"},
	{"DSP", {"DSPs", "DSP48 Blocks", "DSP Blocks"}, 1, "DSP"},
	{"CARRY", {"CARRY8", "CARRY4"}, 1, "CARRY"},
};
static const struct alias vivado_power_alias[] = {
	{"power.total", {"Total On-Chip Power"}, 1, "W"},
	{"power.dynamic", {"Dynamic"}, 1, "W"},
	{"power.static", {"Device Static"}, 1, "W"},
};

/* Instance path from an indented name: depth = (indent - 1) / 2 (Vivado
 * indents each level by two spaces after one leading blank). */
struct pathstack {
	char name[64][256];
	size_t depth;
};

static void path_push(struct pathstack *ps, size_t depth, const char *name, char *out, size_t n)
{
	if (depth >= 64)
		depth = 63;
	snprintf(ps->name[depth], sizeof ps->name[depth], "%s", name);
	ps->depth = depth + 1;
	size_t k = 0;
	out[0] = 0;
	for (size_t d = 0; d <= depth; d++) {
		int w = snprintf(out + k, n - k, "%s%s", d ? "/" : "", ps->name[d]);
		if (w < 0 || (size_t)w >= n - k)
			break;
		k += (size_t)w;
	}
}

/* A report cut short (a copy interrupted, a disk full when Vivado wrote it)
 * must not pass for a small design.  Vivado's reports say what they hold:
 * the table of contents lists every section, each of which appears later as
 * its title over a dashes line, and every +---+ table closes with a
 * separator line.  So: the file may not end inside a table, and every
 * section the contents list must be there. */
static int vivado_complete(const struct lines *L, struct iw_err *e)
{
	size_t last = L->n;
	while (last > 0 && !*skipws(L->l[last - 1]))
		last--;
	if (last > 0 && L->l[last - 1][0] == '|')
		return iw_fail(e, IW_EINPUT,
			       "%s:%zu: expected the table to close with a '+---' line, found the end of the file: is the "
			       "report truncated?",
			       L->name, last);
	size_t toc = 0;
	while (toc < L->n && toc < 80 && !same_words(L->l[toc], "Table of Contents", 17))
		toc++;
	if (toc >= L->n || toc >= 80)
		return 0; /* an excerpt without contents: nothing to check against */
	size_t i = toc + 1;
	if (i < L->n && starts(L->l[i], "---"))
		i++;
	size_t end = i;
	while (end < L->n && *skipws(L->l[end]))
		end++;
	/* The sections follow in the order listed: one pass from the contents' end. */
	size_t at = end;
	for (size_t k = i; k < end; k++) {
		const char *title = skipws(L->l[k]);
		size_t tl = strlen(title);
		while (tl && isspace((unsigned char)title[tl - 1]))
			tl--;
		while (at + 1 < L->n && !(same_words(L->l[at], title, tl) && starts(L->l[at + 1], "---")))
			at++;
		if (at + 1 >= L->n)
			return iw_fail(e, IW_EINPUT,
				       "%s:%zu: expected section '%.*s' (listed in the table of contents, line %zu), found "
				       "the end of the file: is the report truncated?",
				       L->name, L->n, (int)tl, title, k + 1);
		at += 2;
	}
	return 0;
}

/* A Vivado count cell: a number (or '<0.001'), 1 for what Vivado prints when
 * there is none ('-' or empty), and an error for anything else: a cell that
 * is not a count must not quietly leave the instance without it. */
static int vcount(const struct lines *L, size_t i, const char *col, const char *cell, double *v, struct iw_err *e)
{
	if (num(cell, v) == 0)
		return 0;
	const char *t = skipws(cell);
	if (!*t || strcmp(t, "-") == 0)
		return 1;
	return iw_fail(e, IW_EINPUT, "%s:%zu: expected a number in column '%s', found '%s'", L->name, i + 1, col, t);
}

static int parse_vivado(struct iw_report *r, const struct lines *L, int power, struct iw_err *e)
{
	int rc0 = vivado_complete(L, e);
	if (rc0)
		return rc0;
	header_field(L, "Design", r->top, sizeof r->top);
	char cmd[512] = "";
	header_field(L, "Command", cmd, sizeof cmd);
	int hier = strstr(cmd, "-hier") != NULL;
	size_t at = 0;
	struct vtable t;
	int saw_main = 0;
	const char *top = r->top[0] ? r->top : "";
	char scratch[8192], *cells[MAXCOL], path[4096];
	int indent[MAXCOL];
	while (next_vtable(L, &at, &t) == 0) {
		int ci = vcol(&t, "Instance"), cu = vcol(&t, "Used"), cs = vcol(&t, "Site Type");
		int cn = vcol(&t, "Name"), cp = vcol(&t, "Power (W)"), co = vcol(&t, "On-Chip");
		int rc;
		if (!power && ci >= 0) { /* report_utilization -hierarchical */
			int cmod = vcol(&t, "Module"); /* the only other text column */
			saw_main = 1;
			if (t.body > t.last)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected rows in the hierarchy table, found none",
					       L->name, t.hdr + 1);
			struct pathstack ps = {0};
			size_t rows = 0;
			for (size_t i = t.body; i <= t.last; i++) {
				if (L->l[i][0] != '|')
					continue;
				size_t nc = pipe_cells(L->l[i], scratch, sizeof scratch, cells, indent);
				if (nc != t.ncol)
					return iw_fail(e, IW_EINPUT, "%s:%zu: expected %zu columns as in the header, found %zu",
						       L->name, i + 1, t.ncol, nc);
				size_t depth = indent[ci] > 0 ? (size_t)(indent[ci] - 1) / 2 : 0;
				path_push(&ps, depth, cells[ci], path, sizeof path);
				if (!r->top[0] && depth == 0)
					snprintf(r->top, sizeof r->top, "%s", cells[ci]);
				rows++;
				size_t from = r->n;
				for (size_t k = 0; k < nc; k++) {
					double v;
					if ((int)k == ci || (int)k == cmod)
						continue;
					if ((rc = vcount(L, i, t.col[k], cells[k], &v, e)) < 0)
						return rc;
					if (rc)
						continue;
					rc = add_row(r, path, t.col[k], v, "", (int)i + 1, 0, e);
					if (rc)
						return rc;
				}
				/* BRAM in RAMB36 equivalents: two RAMB18 fit in one RAMB36 site. */
				int c36 = vcol(&t, "RAMB36"), c18 = vcol(&t, "RAMB18");
				double b36 = 0, b18 = 0;
				if (c36 >= 0 && num(cells[c36], &b36) == 0 && (c18 < 0 || num(cells[c18], &b18) == 0)) {
					rc = add_row(r, path, "BRAM", b36 + b18 / 2, "BRAM36", (int)i + 1, 0, e);
					if (rc)
						return rc;
				}
				rc = apply_aliases_from(r, from, path, vivado_util_alias, IW_ARRAY_LEN(vivado_util_alias), e);
				if (rc)
					return rc;
			}
			if (!rows)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected rows in the hierarchy table, found none",
					       L->name, t.hdr + 1);
		} else if (!power && cs >= 0) { /* flat site-type tables */
			if (cu < 0) {
				char cols[512] = "";
				for (size_t k = 0; k < t.ncol; k++)
					snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s'%s'", k ? ", " : "",
						 t.col[k]);
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected a 'Used' column in the table header, found %s",
					       L->name, t.hdr + 1, cols);
			}
			size_t rows = 0;
			char parent[256] = "";
			for (size_t i = t.body; i <= t.last; i++) {
				if (L->l[i][0] != '|')
					continue;
				size_t nc = pipe_cells(L->l[i], scratch, sizeof scratch, cells, indent);
				if (nc != t.ncol)
					return iw_fail(e, IW_EINPUT, "%s:%zu: expected %zu columns as in the header, found %zu",
						       L->name, i + 1, t.ncol, nc);
				rows++;
				char name[256];
				snprintf(name, sizeof name, "%s", cells[cs]);
				size_t nl = strlen(name);
				while (nl && name[nl - 1] == '*') /* "Slice LUTs*": footnote mark */
					name[--nl] = 0;
				if (indent[cs] <= 1)
					snprintf(parent, sizeof parent, "%s", name);
				double v;
				if ((rc = vcount(L, i, t.col[cu], cells[cu], &v, e)) < 0)
					return rc;
				if (rc)
					continue;
				const char *q = name;
				char qual[520];
				if (find_row(r, top, q) >= 0) {
					/* Same label under another parent ("using O5 output only"). */
					snprintf(qual, sizeof qual, "%s/%s", parent, name);
					q = qual;
					if (find_row(r, top, q) >= 0)
						continue;
				}
				rc = add_row(r, top, q, v, "", (int)i + 1, 0, e);
				if (rc)
					return rc;
			}
			if (!saw_main && !rows)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected rows in the '%s' table, found an empty table",
					       L->name, t.hdr + 1, t.col[cs]);
			saw_main = 1;
		} else if (!power && vcol(&t, "Ref Name") >= 0 && cu >= 0) { /* primitives */
			int cr = vcol(&t, "Ref Name");
			/* A primitive named as a site-type row (CARRY8, BUFGCE, PS8 ...)
			 * keeps its count under its section, "Primitives/CARRY8", as a
			 * repeated site-type label does under its parent row. */
			char sect[96] = "";
			for (size_t i = t.first; i-- > 0 && !sect[0];)
				if (starts(L->l[i + 1], "---") && *skipws(L->l[i])) {
					const char *h = skipws(L->l[i]);
					while (isdigit((unsigned char)*h) || *h == '.')
						h++;
					copy_trim(sect, sizeof sect, h, strlen(h));
				}
			for (size_t i = t.body; i <= t.last; i++) {
				if (L->l[i][0] != '|')
					continue;
				size_t nc = pipe_cells(L->l[i], scratch, sizeof scratch, cells, NULL);
				if (nc != t.ncol) /* (as the site-type tables: a cut row is a damaged report) */
					return iw_fail(e, IW_EINPUT, "%s:%zu: expected %zu columns as in the header, found %zu",
						       L->name, i + 1, t.ncol, nc);
				double v;
				if ((rc = vcount(L, i, t.col[cu], cells[cu], &v, e)) < 0)
					return rc;
				if (rc)
					continue;
				const char *q = cells[cr];
				char qual[400];
				if (find_row(r, top, q) >= 0) {
					snprintf(qual, sizeof qual, "%s/%s", sect, cells[cr]);
					q = qual;
					if (find_row(r, top, q) >= 0)
						continue;
				}
				rc = add_row(r, top, q, v, "cells", (int)i + 1, 0, e);
				if (rc)
					return rc;
			}
		} else if (power && !t.hdr && t.ncol == 0) { /* headerless summary: "| Total On-Chip Power (W) | 5.613 |" */
			for (size_t i = t.body; i <= t.last; i++) {
				if (L->l[i][0] != '|')
					continue;
				size_t nc = pipe_cells(L->l[i], scratch, sizeof scratch, cells, NULL);
				double v;
				char name[256], unit[32];
				if (nc != 2 || num(cells[1], &v) != 0)
					continue;
				split_unit(cells[0], name, sizeof name, unit, sizeof unit);
				if (strcmp(unit, "W") != 0)
					continue; /* temperatures, thermal resistances */
				if (find_row(r, top, name) >= 0)
					continue;
				rc = add_row(r, top, name, v, unit, (int)i + 1, 0, e);
				if (rc)
					return rc;
				saw_main = 1;
			}
		} else if (power && (cp >= 0 || vcol(&t, "Power (W)") >= 0) && (cn >= 0 || co >= 0)) {
			int cname = cn >= 0 ? cn : co;
			struct pathstack ps = {0};
			for (size_t i = t.body; i <= t.last; i++) {
				if (L->l[i][0] != '|')
					continue;
				size_t nc = pipe_cells(L->l[i], scratch, sizeof scratch, cells, indent);
				double v;
				if (nc != t.ncol || num(cells[cp], &v) != 0)
					continue;
				if (cn >= 0) { /* "By Hierarchy": dynamic power per instance */
					size_t depth = indent[cname] > 0 ? (size_t)(indent[cname] - 1) / 2 : 0;
					path_push(&ps, depth, cells[cname], path, sizeof path);
					rc = add_row(r, path, "power.dynamic", v, "W", (int)i + 1, 1, e);
				} else {
					char q[300];
					snprintf(q, sizeof q, "%s", cells[cname]);
					if (find_row(r, top, q) >= 0)
						continue;
					rc = add_row(r, top, q, v, "W", (int)i + 1, 0, e);
				}
				if (rc)
					return rc;
				saw_main = 1;
			}
		}
	}
	if (hier && !power && !saw_main)
		return iw_fail(e, IW_EINPUT,
			       "%s: expected a 'Utilization by Hierarchy' table with an 'Instance' column, found none",
			       L->name);
	if (!saw_main)
		return iw_fail(e, IW_EINPUT, "%s: expected a table with %s, found none", L->name,
			       power ? "'Total On-Chip Power (W)'" : "'Site Type' and 'Used' columns");
	if (power)
		return apply_aliases(r, top, vivado_power_alias, IW_ARRAY_LEN(vivado_power_alias), e);
	if (!hier)
		return apply_aliases(r, top, vivado_util_alias, IW_ARRAY_LEN(vivado_util_alias), e);
	return 0;
}

static int parse_vivado_util(struct iw_report *r, const struct lines *L, struct iw_err *e)
{
	return parse_vivado(r, L, 0, e);
}
static int parse_vivado_power(struct iw_report *r, const struct lines *L, struct iw_err *e)
{
	return parse_vivado(r, L, 1, e);
}

/* ---- Synopsys Design Compiler ------------------------------------------- */

static void dc_design(const struct lines *L, char *top, size_t n)
{
	for (size_t i = 0; i < L->n && i < 60; i++)
		if (starts(L->l[i], "Design :")) {
			copy_trim(top, n, L->l[i] + 8, strlen(L->l[i] + 8));
			return;
		}
}

static size_t tokens(char *s, char **tok, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *t = strtok_r(s, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

static const struct alias dc_area_alias[] = {
	{"area", {"Total cell area", "Absolute Total"}, 1, "um2"},
	{"cells", {"Number of cells"}, 1, "cells"},
};

static int parse_dc_area(struct iw_report *r, const struct lines *L, struct iw_err *e)
{
	dc_design(L, r->top, sizeof r->top);
	if (!r->top[0])
		return iw_fail(e, IW_EINPUT, "%s: expected a 'Design : NAME' line in the report header, found none",
			       L->name);
	size_t i = 0;
	int rc;
	/* Summary "Name:   value" lines up to the hierarchical table. */
	for (; i < L->n; i++) {
		const char *s = L->l[i];
		if (starts(s, "Hierarchical area distribution"))
			break;
		const char *c = strchr(s, ':');
		if (!c || s[0] == ' ' || starts(s, "Warning") || starts(s, "Information") || starts(s, "Report") ||
		    starts(s, "Design") || starts(s, "Version") || starts(s, "Date"))
			continue;
		char name[128];
		copy_trim(name, sizeof name, s, (size_t)(c - s));
		double v;
		if (num(c + 1, &v) != 0)
			continue; /* "undefined  (Wire load has zero net area)" */
		const char *unit = strstr(name, "area") || strstr(name, "Area") ? "um2" : "";
		if (strstr(name, "Ratio"))
			unit = "";
		rc = add_row(r, r->top, name, v, unit, (int)i + 1, 1, e);
		if (rc)
			return rc;
	}
	if (i < L->n) {
		/* Header: lines from "Hierarchical cell" to the dashes line; column
		 * spans from the dashes; names are the words in each span joined
		 * ("Combi-" + "national"). */
		size_t h = i;
		while (h < L->n && !starts(L->l[h], "Hierarchical cell"))
			h++;
		size_t d = h;
		while (d < L->n && !starts(L->l[d], "----"))
			d++;
		if (h >= L->n || d >= L->n)
			return iw_fail(e, IW_EINPUT,
				       "%s:%zu: expected the 'Hierarchical cell' table header and its dashes line, found none",
				       L->name, i + 1);
		size_t ncol = 0, cs[MAXCOL];
		for (const char *p = L->l[d]; *p && ncol < MAXCOL;) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			cs[ncol] = (size_t)(p - L->l[d]);
			while (*p == '-')
				p++;
			ncol++;
		}
		char col[MAXCOL][96];
		for (size_t k = 0; k < ncol; k++) {
			col[k][0] = 0;
			for (size_t hl = h; hl < d; hl++) {
				const char *s = L->l[hl];
				size_t len = strlen(s);
				if (cs[k] >= len)
					continue;
				size_t end = k + 1 < ncol ? cs[k + 1] : len;
				if (end > len)
					end = len;
				char w[96];
				copy_trim(w, sizeof w, s + cs[k], end - cs[k]);
				if (!w[0])
					continue;
				size_t cl = strlen(col[k]);
				if (cl && col[k][cl - 1] == '-')
					col[k][--cl] = 0;
				else if (cl && cl + 1 < sizeof col[k]) /* a header word run longer than the column name buffer */
					strcat(col[k], " ");
				snprintf(col[k] + strlen(col[k]), sizeof col[k] - strlen(col[k]), "%s", w);
			}
		}
		int cabs = -1;
		for (size_t k = 0; k < ncol; k++)
			if (strcmp(col[k], "Absolute Total") == 0)
				cabs = (int)k;
		if (cabs < 0 || ncol < 3 || strcmp(col[0], "Hierarchical cell") != 0)
			return iw_fail(e, IW_EINPUT,
				       "%s:%zu: expected the columns 'Hierarchical cell' and 'Absolute Total' in the header, found '%s' ...",
				       L->name, h + 1, ncol ? col[0] : "");
		size_t rows = 0, j;
		char buf[4096], *tok[MAXCOL + 2], path[4096];
		for (j = d + 1; j < L->n; j++) {
			if (starts(L->l[j], "----") || starts(L->l[j], "Total") || !L->l[j][0])
				break;
			snprintf(buf, sizeof buf, "%s", L->l[j]);
			size_t nt = tokens(buf, tok, MAXCOL + 2);
			if (nt != ncol)
				return iw_fail(e, IW_EINPUT,
					       "%s:%zu: expected %zu columns (%s ... %s), found %zu fields",
					       L->name, j + 1, ncol, col[0], col[ncol - 1], nt);
			if (strcmp(tok[0], r->top) == 0)
				snprintf(path, sizeof path, "%s", r->top);
			else
				snprintf(path, sizeof path, "%s/%s", r->top, tok[0]);
			rows++;
			for (size_t k = 1; k < nt; k++) {
				double v;
				if (num(tok[k], &v) != 0)
					continue;
				const char *unit = strstr(col[k], "Percent") ? "%" : "um2";
				rc = add_row(r, path, col[k], v, unit, (int)j + 1, 0, e);
				/* Every instance's "area" is its absolute total; the top's
				 * comes from the more precise summary line instead. */
				if (!rc && (int)k == cabs && strcmp(path, r->top) != 0)
					rc = add_row(r, path, "area", v, "um2", (int)j + 1, 0, e);
				if (rc)
					return rc;
			}
		}
		if (!rows)
			return iw_fail(e, IW_EINPUT, "%s:%zu: expected rows in the hierarchical area table, found an empty table",
				       L->name, d + 1);
		/* Design Compiler closes the table with a dashes line and a Total row:
		 * a file that ends among the rows was cut short. */
		if (j >= L->n)
			return iw_fail(e, IW_EINPUT,
				       "%s:%zu: expected the hierarchical area table to end with a dashes line and its "
				       "'Total' row, found the end of the file: is the report truncated?",
				       L->name, L->n);
	}
	if (find_row(r, r->top, "Total cell area") < 0 && find_row(r, r->top, "Absolute Total") < 0)
		return iw_fail(e, IW_EINPUT, "%s: expected a 'Total cell area:' line or a hierarchical area table, found neither",
			       L->name);
	/* Every instance gets "area" (its absolute total); the top's comes from the summary. */
	return apply_aliases(r, r->top, dc_area_alias, IW_ARRAY_LEN(dc_area_alias), e);
}

/* "1mW", "1pW", "10uW" -> watts per unit. */
static int power_unit(const char *s, double *scale)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s)
		v = 1;
	static const struct {
		const char *u;
		double f;
	} u[] = {{"W", 1}, {"mW", 1e-3}, {"uW", 1e-6}, {"nW", 1e-9}, {"pW", 1e-12}, {"fW", 1e-15}, {"kW", 1e3}};
	for (size_t k = 0; k < IW_ARRAY_LEN(u); k++)
		if (strcmp(end, u[k].u) == 0) {
			*scale = v * u[k].f;
			return 0;
		}
	return -1;
}

static int parse_dc_power(struct iw_report *r, const struct lines *L, struct iw_err *e)
{
	dc_design(L, r->top, sizeof r->top);
	double dyn = 0, leak = 0;
	size_t i, hdr = 0;
	for (i = 0; i < L->n; i++) {
		const char *s = skipws(L->l[i]);
		const char *eq = strchr(s, '=');
		char u[32];
		if (starts(s, "Dynamic Power Units") && eq) {
			copy_trim(u, sizeof u, eq + 1, strlen(eq + 1));
			char *sp = strpbrk(u, " \t(");
			if (sp)
				*sp = 0;
			if (power_unit(u, &dyn) != 0)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected a power unit such as 1mW, found '%s'",
					       L->name, i + 1, u);
		} else if (starts(s, "Leakage Power Units") && eq) {
			copy_trim(u, sizeof u, eq + 1, strlen(eq + 1));
			char *sp = strpbrk(u, " \t(");
			if (sp)
				*sp = 0;
			if (power_unit(u, &leak) != 0)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected a power unit such as 1pW, found '%s'",
					       L->name, i + 1, u);
		} else if (starts(s, "Power Group") && !hdr) {
			hdr = i;
		}
	}
	if (dyn == 0 || leak == 0)
		return iw_fail(e, IW_EINPUT,
			       "%s: expected the 'Dynamic Power Units = ...' and 'Leakage Power Units = ...' lines, found %s",
			       L->name, dyn == 0 && leak == 0 ? "neither" : dyn == 0 ? "no dynamic unit" : "no leakage unit");
	if (!hdr)
		return iw_fail(e, IW_EINPUT, "%s: expected a 'Power Group' table, found none", L->name);
	/* Columns from the line above ("Internal Switching Leakage Total"). */
	char hb[512], *ht[MAXCOL];
	snprintf(hb, sizeof hb, "%s", hdr ? L->l[hdr - 1] : "");
	size_t nh = tokens(hb, ht, MAXCOL);
	const char *cname[4];
	double cscale[4];
	if (nh != 4)
		return iw_fail(e, IW_EINPUT, "%s:%zu: expected the column names 'Internal Switching Leakage Total', found %zu words",
			       L->name, hdr, nh);
	for (size_t k = 0; k < 4; k++) {
		for (char *p = ht[k]; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		cname[k] = ht[k];
		cscale[k] = strcmp(ht[k], "leakage") == 0 ? leak : dyn;
	}
	size_t j = hdr + 1;
	while (j < L->n && !starts(L->l[j], "----"))
		j++;
	size_t rows = 0;
	char buf[1024], *tok[MAXCOL];
	int rc;
	for (j++; j < L->n; j++) {
		if (starts(L->l[j], "----"))
			continue;
		snprintf(buf, sizeof buf, "%s", L->l[j]);
		size_t nt = tokens(buf, tok, MAXCOL);
		if (nt == 0)
			break;
		int total = strcmp(tok[0], "Total") == 0;
		double v[4];
		size_t k = 0, t = 1;
		while (k < 4 && t < nt) {
			if (num(tok[t], &v[k]) != 0)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected a number in column '%s', found '%s'", L->name,
					       j + 1, cname[k], tok[t]);
			double sc = cscale[k];
			if (t + 1 < nt && power_unit(tok[t + 1], &sc) == 0) /* "1.2149 mW" on the Total row */
				t++;
			v[k] *= sc;
			k++, t++;
		}
		if (k < 4)
			return iw_fail(e, IW_EINPUT, "%s:%zu: expected 4 power values after '%s', found %zu", L->name, j + 1,
				       tok[0], k);
		rows++;
		for (k = 0; k < 4; k++) {
			char q[160];
			if (total)
				snprintf(q, sizeof q, "power.%s", cname[k]);
			else
				snprintf(q, sizeof q, "power.%s.%s", tok[0], cname[k]);
			rc = add_row(r, r->top, q, v[k], "W", (int)j + 1, 1, e);
			if (rc)
				return rc;
		}
		if (total)
			break;
	}
	if (!rows)
		return iw_fail(e, IW_EINPUT, "%s:%zu: expected rows in the 'Power Group' table, found an empty table",
			       L->name, hdr + 1);
	if (find_row(r, r->top, "power.total") < 0)
		return iw_fail(e, IW_EINPUT,
			       "%s:%zu: expected the 'Power Group' table to end with its 'Total' row, found %s: is the "
			       "report truncated?",
			       L->name, j < L->n ? j + 1 : L->n, j < L->n ? "a blank line" : "the end of the file");
	return 0;
}

/* ---- OpenSTA report_power ----------------------------------------------- */

static int parse_opensta_power(struct iw_report *r, const struct lines *L, struct iw_err *e)
{
	size_t hdr = L->n;
	for (size_t i = 0; i < L->n; i++)
		if (starts(L->l[i], "Group") && strstr(L->l[i], "Internal") && strstr(L->l[i], "Leakage")) {
			hdr = i;
			break;
		}
	if (hdr == L->n)
		return iw_fail(e, IW_EINPUT, "%s: expected the 'Group Internal Switching Leakage Total' header, found none",
			       L->name);
	char hb[512], *ht[MAXCOL];
	snprintf(hb, sizeof hb, "%s", L->l[hdr]);
	size_t nh = tokens(hb, ht, MAXCOL);
	if (nh != 5)
		return iw_fail(e, IW_EINPUT, "%s:%zu: expected the columns Group, Internal, Switching, Leakage, Total, found %zu",
			       L->name, hdr + 1, nh);
	/* OpenSTA prints Watts and says so; anything else is not this report. */
	if (hdr + 1 < L->n && !strstr(L->l[hdr + 1], "(Watts)"))
		return iw_fail(e, IW_EINPUT, "%s:%zu: expected the unit '(Watts)' on the second header line", L->name, hdr + 2);
	size_t rows = 0, j;
	int saw_total = 0;
	char buf[512], *tok[MAXCOL];
	for (j = hdr + 2; j < L->n; j++) {
		if (starts(L->l[j], "----"))
			continue;
		snprintf(buf, sizeof buf, "%s", L->l[j]);
		size_t nt = tokens(buf, tok, MAXCOL);
		if (nt < 5)
			break;
		double v[4];
		for (size_t k = 0; k < 4; k++)
			if (num(tok[k + 1], &v[k]) != 0)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected a number in column '%s', found '%s'", L->name,
					       j + 1, ht[k + 1], tok[k + 1]);
		int total = strcmp(tok[0], "Total") == 0;
		rows++;
		for (size_t k = 0; k < 4; k++) {
			char q[160], c[32];
			snprintf(c, sizeof c, "%s", ht[k + 1]);
			for (char *p = c; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			if (total)
				snprintf(q, sizeof q, "power.%s", c);
			else {
				char g[64];
				snprintf(g, sizeof g, "%s", tok[0]);
				for (char *p = g; *p; p++)
					*p = (char)tolower((unsigned char)*p);
				snprintf(q, sizeof q, "power.%s.%s", g, c);
			}
			int rc = add_row(r, r->top, q, v[k], "W", (int)j + 1, 1, e);
			if (rc)
				return rc;
		}
		if (total) {
			saw_total = 1;
			break;
		}
	}
	if (!rows)
		return iw_fail(e, IW_EINPUT, "%s:%zu: expected rows in the power group table, found an empty table",
			       L->name, hdr + 1);
	if (!saw_total)
		return iw_fail(e, IW_EINPUT,
			       "%s:%zu: expected the power group table to end with its 'Total' row, found %s: is the "
			       "report truncated?",
			       L->name, j < L->n ? j + 1 : L->n, j < L->n ? "a line that is not a group" : "the end of the file");
	return 0;
}

/* ---- Yosys stat ----------------------------------------------------------- */

/* Xilinx primitives -> canonical resources (UltraScale+ CLB: LUTRAM and SRL
 * sit in LUT sites, so they count towards LUT as Vivado's "CLB LUTs" does). */
static const struct {
	const char *prefix;
	const char *q1;
	double w1;
	const char *q2;
	double w2;
} xil_cells[] = {
	{"LUT", "LUT", 1, NULL, 0},
	{"FD", "FF", 1, NULL, 0},
	{"LD", "FF", 1, NULL, 0},
	{"SRL", "LUT", 1, "LUTRAM", 1},
	{"RAM32M16", "LUT", 8, "LUTRAM", 8},
	{"RAM64M8", "LUT", 8, "LUTRAM", 8},
	{"RAM32M", "LUT", 4, "LUTRAM", 4},
	{"RAM64M", "LUT", 4, "LUTRAM", 4},
	{"RAM32X1D", "LUT", 2, "LUTRAM", 2},
	{"RAM64X1D", "LUT", 2, "LUTRAM", 2},
	{"RAM128X1D", "LUT", 4, "LUTRAM", 4},
	{"RAM256X1D", "LUT", 8, "LUTRAM", 8},
	{"RAM32X1S", "LUT", 1, "LUTRAM", 1},
	{"RAM64X1S", "LUT", 1, "LUTRAM", 1},
	{"RAM128X1S", "LUT", 2, "LUTRAM", 2},
	{"RAM256X1S", "LUT", 4, "LUTRAM", 4},
	{"RAM512X1S", "LUT", 8, "LUTRAM", 8},
	{"RAMB36", "BRAM", 1, NULL, 0},
	{"FIFO36", "BRAM", 1, NULL, 0},
	{"RAMB18", "BRAM", 0.5, NULL, 0},
	{"FIFO18", "BRAM", 0.5, NULL, 0},
	{"URAM", "URAM", 1, NULL, 0},
	{"DSP48", "DSP", 1, NULL, 0},
	{"CARRY", "CARRY", 1, NULL, 0},
	{"MUXF", "MUXF", 1, NULL, 0},
};

static int yosys_cell(struct iw_report *r, const char *inst, const char *cell, double v, int line,
		      struct iw_err *e)
{
	int rc = add_row(r, inst, cell, v, "cells", line, 1, e);
	for (size_t k = 0; rc == 0 && k < IW_ARRAY_LEN(xil_cells); k++) {
		if (!starts(cell, xil_cells[k].prefix))
			continue;
		/* LUT1..LUT6, not LUTRAM-ish names of other libraries. */
		if (strcmp(xil_cells[k].prefix, "LUT") == 0 && !isdigit((unsigned char)cell[3]))
			break;
		const char *qs[2] = {xil_cells[k].q1, xil_cells[k].q2};
		double ws[2] = {xil_cells[k].w1, xil_cells[k].w2};
		for (int t = 0; t < 2 && rc == 0 && qs[t]; t++) {
			int i = find_row(r, inst, qs[t]);
			if (i >= 0)
				r->rows[i].value += v * ws[t];
			else
				rc = add_row(r, inst, qs[t], v * ws[t], qs[t], line, 0, e);
		}
		break;
	}
	return rc;
}

/* Remove every row of one instance (a later stat run or the hierarchy totals
 * replace what an earlier section said about it). */
static void drop_instance(struct iw_report *r, const char *inst)
{
	size_t w = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(r->rows[i].instance, inst) == 0) {
			iw_free(r->rows[i].instance);
			iw_free(r->rows[i].quantity);
		} else {
			r->rows[w++] = r->rows[i];
		}
	}
	r->n = w;
}

/* A module's cell list (classic layout) adds up to its "Number of cells:":
 * a list that falls short was cut off. */
static int yosys_cells_complete(const struct lines *L, const char *inst, double declared, size_t decl_line,
				double listed, size_t at, struct iw_err *e)
{
	if (decl_line == 0 || listed >= declared)
		return 0;
	return iw_fail(e, IW_EINPUT,
		       "%s:%zu: expected the cells of '%s' to add up to %.0f as its 'Number of cells:' line (%zu) says, "
		       "found %.0f%s",
		       L->name, at, inst[0] ? inst : "design hierarchy", declared, decl_line, listed,
		       at >= L->n ? " and the end of the file: is the report truncated?" : "");
}

/* A cell type whose area Yosys left out of a module's "Chip area for module"
 * ("Area for cell type \X is unknown!"): a child module, or a cell the
 * liberty file lacks. */
struct yosys_unknown {
	char inst[256], cell[256];
	int line;
};

static int is_module(const struct iw_report *r, const char *name) { return find_row(r, name, "cells") >= 0; }

static int yosys_area_unknown(const struct yosys_unknown *u, size_t nu, const char *inst, const char *cell)
{
	for (size_t i = 0; i < nu; i++)
		if (strcmp(u[i].inst, inst) == 0 && (!cell || strcmp(u[i].cell, cell) == 0))
			return u[i].line;
	return 0;
}

/* A cell whose area no module of the report gives (a leaf the liberty lacks):
 * the area Yosys printed for inst is only part of it. */
static void yosys_area_partial(struct iw_report *r, const char *inst, const struct yosys_unknown *u, size_t nu)
{
	int ia = find_row(r, inst, "area");
	for (size_t i = 0; ia >= 0 && i < nu; i++)
		if (strcmp(u[i].inst, inst) == 0 && (!is_module(r, u[i].cell) || find_row(r, u[i].cell, "area") < 0)) {
			r->rows[ia].value = NAN;
			r->rows[ia].line = u[i].line;
			return;
		}
}

/* Classic `stat` prints each module's own cells, a child module as one cell
 * and its own "Chip area" without the children's; only the design hierarchy
 * adds them up, and only for the top.  A spec's instance means the whole
 * instance, as Vivado's and DC's hierarchical totals do, so a module's cell
 * counts, resources and area become its own plus count x each child's (its
 * wires and the like stay local).  An area Yosys could not complete (a leaf
 * cell without a liberty area) is NaN at the line that says so, refused when
 * asked for. */
static int yosys_flatten(struct iw_report *r, const char *inst, const struct yosys_unknown *u, size_t nu,
			 char (*done)[256], size_t *ndone, size_t maxdone, int depth, struct iw_err *e)
{
	for (size_t i = 0; i < *ndone; i++)
		if (strcmp(done[i], inst) == 0)
			return 0;
	if (depth > 64 || *ndone == maxdone)
		return iw_fail(e, IW_EINPUT, "%s: expected a module hierarchy, found '%s' nested over 64 levels or in a cycle",
			       r->path, inst);
	yosys_area_partial(r, inst, u, nu);
	int ia;
	for (size_t i = 0; i < r->n; i++) {
		struct iw_report_row *c = &r->rows[i];
		if (strcmp(c->instance, inst) != 0 || strcmp(c->unit, "cells") != 0 || strcmp(c->quantity, "cells") == 0 ||
		    strcmp(c->quantity, inst) == 0 || !is_module(r, c->quantity))
			continue;
		char child[256];
		snprintf(child, sizeof child, "%s", c->quantity);
		double k = c->value;
		int line = c->line, rc;
		if ((rc = yosys_flatten(r, child, u, nu, done, ndone, maxdone, depth + 1, e)))
			return rc;
		/* The child instances become the cells inside them. */
		int ic = find_row(r, inst, "cells");
		r->rows[ic].value -= k;
		size_t n0 = r->n;
		for (size_t j = 0; j < n0; j++) {
			struct iw_report_row w = r->rows[j];
			if (strcmp(w.instance, child) != 0)
				continue;
			int additive = strcmp(w.unit, "cells") == 0 || strcmp(w.unit, w.quantity) == 0;
			if (strcmp(w.quantity, "area") == 0) {
				ia = find_row(r, inst, "area");
				if (ia < 0 || isnan(r->rows[ia].value) || !yosys_area_unknown(u, nu, inst, child))
					continue;
				r->rows[ia].value += k * w.value;
				if (isnan(w.value))
					r->rows[ia].line = w.line;
				continue;
			}
			if (!additive)
				continue;
			int t = find_row(r, inst, w.quantity);
			if (t >= 0)
				r->rows[t].value += k * w.value;
			else if ((rc = add_row(r, inst, w.quantity, k * w.value, w.unit, line, 0, e)))
				return rc;
		}
		/* Drop the child-module row: the parts now add up to "cells", as
		 * in the design hierarchy's totals. */
		int ir = find_row(r, inst, child);
		iw_free(r->rows[ir].instance);
		iw_free(r->rows[ir].quantity);
		memmove(&r->rows[ir], &r->rows[ir + 1], (r->n - (size_t)ir - 1) * sizeof r->rows[0]);
		r->n--;
		i = (size_t)-1; /* rows moved: rescan (children already done are skipped) */
	}
	snprintf(done[(*ndone)++], 256, "%s", inst);
	return 0;
}

/* What the reading leaves for yosys_flatten. */
struct yosys_state {
	struct yosys_unknown *unk;
	size_t nunk, capunk;
	int count_first, hier_top;
};

static int yosys_read(struct iw_report *r, const struct lines *L, struct yosys_state *st, struct iw_err *e)
{
	char inst[256] = "";
	int in_hier = 0, in_cells = 0, rc, sections = 0;
	double declared = 0, listed = 0; /* the current module's cell count and the sum of its list */
	size_t decl_line = 0;
	/* Yosys 0.4x and later print count-first columns announced by header
	 * lines "+----Local Count, excluding submodules." ("Count including
	 * submodules", "Local Area" ...): their kinds, in order. */
	size_t ncf = 0;
	int cf_incl[4] = {0}, cf_area[4] = {0};
	for (size_t i = 0; i < L->n; i++) {
		const char *s = L->l[i];
		const char *t = skipws(s);
		size_t ind = (size_t)(t - s);
		if (starts(s, "=== ")) {
			if ((rc = yosys_cells_complete(L, inst, declared, decl_line, listed, i, e)))
				return rc;
			decl_line = 0;
			char name[256];
			copy_trim(name, sizeof name, s + 4, strlen(s + 4));
			size_t nl = strlen(name);
			if (nl >= 4 && strcmp(name + nl - 4, " ===") == 0)
				name[nl - 4] = 0;
			iw_trim(name);
			in_cells = 0;
			ncf = 0;
			if (strcmp(name, "design hierarchy") == 0) {
				in_hier = 1;
				inst[0] = 0;
				continue;
			}
			in_hier = 0;
			snprintf(inst, sizeof inst, "%s", name[0] == '\\' ? name + 1 : name);
			drop_instance(r, inst);
			size_t w = 0; /* and what an earlier run said of its area */
			for (size_t k = 0; k < st->nunk; k++)
				if (strcmp(st->unk[k].inst, inst) != 0)
					st->unk[w++] = st->unk[k];
			st->nunk = w;
			sections++;
			continue;
		}
		if (in_hier && !inst[0] && ind == 3 && *t && !starts(t, "Number of")) {
			/* "   array_32      1": the top; the totals below are its whole design. */
			char buf[256], *tok[4];
			snprintf(buf, sizeof buf, "%s", t);
			if (tokens(buf, tok, 4) == 2) {
				snprintf(inst, sizeof inst, "%s", tok[0]);
				snprintf(r->top, sizeof r->top, "%s", inst);
				drop_instance(r, inst);
				st->hier_top = 1;
				sections++;
			}
			continue;
		}
		if (!inst[0])
			continue;
		if (*t == '+' || *t == '|') {
			const char *plus = strrchr(t, '+');
			if (plus && plus[1] == '-' && ncf < 4) {
				cf_incl[ncf] = strstr(plus, "including") != NULL;
				cf_area[ncf] = strstr(plus, "Area") != NULL || strstr(plus, "area") != NULL;
				ncf++;
				st->count_first = 1;
			}
			continue;
		}
		if (ncf && (isdigit((unsigned char)*t) || *t == '-')) {
			/* "  521  663.138  521  663.138 cells" / "   15   $_ANDNOT_" */
			const char *p = t;
			double cnt = NAN;
			int ccol = -1;
			for (size_t k = 0; k < ncf; k++) /* the count to use: with submodules if given */
				if (!cf_area[k] && (ccol < 0 || cf_incl[k]))
					ccol = (int)k;
			for (size_t k = 0; k < ncf; k++) {
				char tok[64];
				size_t tl = strcspn(p, " \t");
				copy_trim(tok, sizeof tok, p, tl);
				double v;
				if ((int)k == ccol && num(tok, &v) == 0)
					cnt = v;
				p += tl;
				if (k + 1 < ncf)
					p = skipws(p);
			}
			size_t gap = strspn(p, " \t");
			char name[256];
			copy_trim(name, sizeof name, p, strlen(p));
			if (!name[0] || isnan(cnt))
				continue;
			if (gap >= 2)
				rc = yosys_cell(r, inst, name[0] == '\\' ? name + 1 : name, cnt, (int)i + 1, e);
			else
				rc = add_row(r, inst, name, cnt, strcmp(name, "cells") == 0 ? "cells" : "", (int)i + 1, 1, e);
			if (rc)
				return rc;
			continue;
		}
		if (starts(t, "Number of cells:")) {
			double v;
			if (num(t + 16, &v) != 0)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected a cell count, found '%s'", L->name, i + 1, t + 16);
			if ((rc = add_row(r, inst, "cells", v, "cells", (int)i + 1, 1, e)))
				return rc;
			in_cells = 1;
			declared = v;
			listed = 0;
			decl_line = i + 1;
			continue;
		}
		if (starts(t, "Number of ")) {
			const char *c = strchr(t, ':');
			double v;
			char q[128];
			if (c && num(c + 1, &v) == 0) {
				copy_trim(q, sizeof q, t + 10, (size_t)(c - t - 10));
				if ((rc = add_row(r, inst, q, v, "", (int)i + 1, 1, e)))
					return rc;
			}
			in_cells = 0;
			continue;
		}
		if (in_cells && ind == 5) {
			char buf[512], *tok[4];
			snprintf(buf, sizeof buf, "%s", t);
			double v;
			if (tokens(buf, tok, 4) == 2 && num(tok[1], &v) == 0) {
				if ((rc = yosys_cell(r, inst, tok[0][0] == '\\' ? tok[0] + 1 : tok[0], v, (int)i + 1, e)))
					return rc;
				listed += v;
				continue;
			}
		}
		in_cells = in_cells && ind == 5;
		const char *unk_end = starts(t, "Area for cell type ") ? strstr(t + 19 + (t[19] == '\\'), " is unknown") : NULL;
		if (unk_end) { /* (searched after the cell's name: "...type  is unknown" names none) */
			if (st->nunk == st->capunk) {
				size_t nc = st->capunk ? st->capunk * 2 : 16;
				struct yosys_unknown *nu = iw_realloc(st->unk, nc * sizeof *nu);
				if (!nu)
					return iw_fail(e, IW_ERUN, "%s: out of memory", r->path);
				st->unk = nu;
				st->capunk = nc;
			}
			struct yosys_unknown *u = &st->unk[st->nunk++];
			const char *c = t + 19;
			c += *c == '\\';
			snprintf(u->inst, sizeof u->inst, "%s", inst);
			copy_trim(u->cell, sizeof u->cell, c, (size_t)(unk_end - c));
			u->line = (int)i + 1;
			continue;
		}
		if (starts(t, "Chip area for ")) {
			const char *c = strrchr(t, ':');
			double v;
			if (!c || num(c + 1, &v) != 0)
				return iw_fail(e, IW_EINPUT, "%s:%zu: expected 'Chip area for module ...: NUMBER', found '%s'",
					       L->name, i + 1, t);
			if ((rc = add_row(r, inst, "area", v, "um2", (int)i + 1, 1, e)))
				return rc;
		}
	}
	if (!sections || r->n == 0)
		return iw_fail(e, IW_EINPUT, "%s: expected '=== module ===' sections with 'Number of cells:', found none",
			       L->name);
	if ((rc = yosys_cells_complete(L, inst, declared, decl_line, listed, L->n, e)))
		return rc;
	if (!r->top[0] && sections == 1)
		snprintf(r->top, sizeof r->top, "%s", inst);
	return 0;
}

static int parse_yosys(struct iw_report *r, const struct lines *L, struct iw_err *e)
{
	struct yosys_state st = {0};
	int rc = yosys_read(r, L, &st, e);
	/* Count-first layouts print the counts including submodules already. */
	if (rc == 0 && !st.count_first) {
		size_t nmod = 0, ndone = 0;
		for (size_t i = 0; i < r->n; i++)
			nmod += strcmp(r->rows[i].quantity, "cells") == 0;
		char(*done)[256] = iw_calloc(2 * nmod + 1, sizeof *done), (*mods)[256] = done ? done + nmod + 1 : NULL;
		if (!done)
			rc = iw_fail(e, IW_ERUN, "%s: out of memory", r->path);
		for (size_t i = 0, k = 0; done && i < r->n; i++)
			if (strcmp(r->rows[i].quantity, "cells") == 0)
				snprintf(mods[k++], 256, "%s", r->rows[i].instance);
		if (done && st.hier_top) { /* its totals are Yosys's own */
			yosys_area_partial(r, r->top, st.unk, st.nunk);
			snprintf(done[ndone++], 256, "%s", r->top);
		}
		for (size_t k = 0; done && rc == 0 && k < nmod; k++)
			rc = yosys_flatten(r, mods[k], st.unk, st.nunk, done, &ndone, nmod + 1, 0, e);
		iw_free(done);
	}
	iw_free(st.unk);
	return rc;
}

/* ---- the table of formats ------------------------------------------------ */

static int has(const struct lines *L, const char *needle, size_t max_lines)
{
	for (size_t i = 0; i < L->n && i < max_lines; i++)
		if (strstr(L->l[i], needle))
			return 1;
	return 0;
}

static int det_vivado_util(const struct lines *L)
{
	return has(L, "report_utilization", 20) || has(L, "Utilization Design Information", 30);
}
static int det_vivado_power(const struct lines *L)
{
	return has(L, "| Command", 20) && (has(L, "report_power", 20) || has(L, "Total On-Chip Power", 60));
}
static int det_dc_area(const struct lines *L) { return has(L, "Report : area", 5000); }
static int det_dc_power(const struct lines *L) { return has(L, "Report : power", 5000); }
static int det_yosys(const struct lines *L)
{
	return (has(L, "Printing statistics.", 1000000) || has(L, "=== ", 1000000)) &&
	       (has(L, "Number of cells:", 1000000) || has(L, "Local Count", 1000000) ||
		has(L, "Count including submodules", 1000000));
}
static int det_opensta(const struct lines *L)
{
	for (size_t i = 0; i < L->n && i < 200; i++)
		if (starts(L->l[i], "Group") && strstr(L->l[i], "Switching") && strstr(L->l[i], "Leakage"))
			return 1;
	return 0;
}

static const struct format {
	const char *name;
	const char *help;
	int (*detect)(const struct lines *L);
	int (*parse)(struct iw_report *r, const struct lines *L, struct iw_err *e);
} formats[] = {
	{"vivado-util", "Vivado report_utilization, flat or -hierarchical (2018-2024)", det_vivado_util,
	 parse_vivado_util},
	{"vivado-power", "Vivado report_power (summary, on-chip components, by hierarchy)", det_vivado_power,
	 parse_vivado_power},
	{"dc-area", "Design Compiler report_area [-hier]", det_dc_area, parse_dc_area},
	{"dc-power", "Design Compiler report_power (power groups, unit lines)", det_dc_power, parse_dc_power},
	{"yosys-stat", "Yosys stat [-liberty] (per module, hierarchy totals, chip area)", det_yosys, parse_yosys},
	{"opensta-power", "OpenSTA report_power (power groups, Watts)", det_opensta, parse_opensta_power},
};

size_t iw_report_format_count(void) { return IW_ARRAY_LEN(formats); }
const char *iw_report_format_name(size_t i) { return i < IW_ARRAY_LEN(formats) ? formats[i].name : NULL; }
const char *iw_report_format_help(size_t i) { return i < IW_ARRAY_LEN(formats) ? formats[i].help : NULL; }

int iw_report_parse(struct iw_report *r, const char *name, const char *text, size_t len, const char *format,
		    struct iw_err *e)
{
	memset(r, 0, sizeof *r);
	r->path = iw_strdup(name);
	if (!r->path)
		return iw_fail(e, IW_ERUN, "%s: out of memory", name);
	struct lines L;
	int rc = split_lines(&L, name, text, len, e);
	if (rc) {
		iw_report_free(r);
		return rc;
	}
	const struct format *f = NULL;
	if (format && strcmp(format, "auto") != 0) {
		for (size_t i = 0; i < IW_ARRAY_LEN(formats); i++)
			if (strcmp(formats[i].name, format) == 0)
				f = &formats[i];
		if (!f) {
			char names[256] = "";
			for (size_t i = 0; i < IW_ARRAY_LEN(formats); i++)
				snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
					 formats[i].name);
			rc = iw_fail(e, IW_EUSAGE, "unknown report format '%s': expected auto, %s", format, names);
		}
	} else {
		for (size_t i = 0; i < IW_ARRAY_LEN(formats) && !f; i++)
			if (formats[i].detect(&L))
				f = &formats[i];
		if (!f)
			rc = iw_fail(e, IW_EINPUT,
				     "%s:1: unknown report format: expected a Vivado report_utilization or report_power, a "
				     "Design Compiler report_area or report_power, a Yosys stat or an OpenSTA report_power",
				     name);
	}
	if (!rc) {
		r->format = f->name;
		rc = f->parse(r, &L, e);
	}
	free_lines(&L);
	if (rc)
		iw_report_free(r);
	return rc;
}

int iw_report_load(struct iw_report *r, const char *path, const char *format, struct iw_err *e)
{
	char *text;
	size_t len;
	memset(r, 0, sizeof *r);
	int rc = iw_read_file(path, &text, &len, e);
	if (rc)
		return rc;
	rc = iw_report_parse(r, path, text, len, format, e);
	iw_free(text);
	return rc;
}

const char *iw_report_instance(const struct iw_report *r, const char *inst)
{
	if (!inst || !*inst)
		return r->n ? (r->top[0] ? r->top : r->rows[0].instance) : NULL;
	size_t tl = strlen(r->top);
	for (size_t i = 0; i < r->n; i++) {
		const char *p = r->rows[i].instance;
		if (strcmp(p, inst) == 0)
			return p;
		if (tl && strncmp(p, r->top, tl) == 0 && p[tl] == '/' && strcmp(p + tl + 1, inst) == 0)
			return p;
	}
	return NULL;
}

int iw_report_get(const struct iw_report *r, const char *instance, const char *quantity, double *value,
		  const char **unit, struct iw_err *e)
{
	const char *inst = iw_report_instance(r, instance);
	if (!inst)
		return iw_fail(e, IW_EINPUT, "%s: expected an instance '%s' in the report (top '%s'), found no such path",
			       r->path, instance ? instance : "", r->top);
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->rows[i].instance, inst) == 0 && strcmp(r->rows[i].quantity, quantity) == 0) {
			if (isnan(r->rows[i].value)) /* a total the report leaves incomplete (Yosys: a cell without area) */
				return iw_fail(e, IW_EINPUT,
					       "%s:%d: expected the whole '%s' of instance '%s', found a part the report "
					       "leaves unknown at this line",
					       r->path, r->rows[i].line, quantity, inst);
			*value = r->rows[i].value;
			if (unit)
				*unit = r->rows[i].unit;
			return 0;
		}
	char have[600] = "";
	for (size_t i = 0; i < r->n && strlen(have) < sizeof have - 80; i++)
		if (strcmp(r->rows[i].instance, inst) == 0)
			snprintf(have + strlen(have), sizeof have - strlen(have), "%s'%s'", have[0] ? ", " : "",
				 r->rows[i].quantity);
	return iw_fail(e, IW_EINPUT, "%s: expected a quantity '%s' for instance '%s', found only %s", r->path, quantity,
		       inst, have);
}
