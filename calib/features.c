/*
 * calib/features.c -- the one table of cost-model features per structure.
 * A structure's quantity (LUTs, FFs, um^2, pJ ...) is modelled as
 *     quantity = sum_k coef_k * feature_k(parameters)
 * and the calibration fits the coef_k.  The features follow the mapping
 * rules of MODELS.md (AMD UltraScale+ LUT6 counts checked with Yosys
 * synth_xilinx): k-bit equality ~ceil((2k-1)/5) LUTs, wide NOR ~ceil((N-1)/5),
 * N:1 mux per bit ~ceil(N/4) with F7/F8, N x N dependence matrix ~N^2 +
 * N ceil((N-1)/5) LUTs and N^2 FFs.  Adding a structure or a feature is one
 * entry below.
 */
#include "calib.h"

#include <math.h>
#include <string.h>

/* Parameters are looked up by name; `opt` gives the default of an optional one. */
struct pv {
	const char *const *names;
	const double *values;
	size_t n;
	const char *missing;
};

static double P(struct pv *v, const char *name, double dflt)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->names[i], name) == 0)
			return v->values[i];
	if (isnan(dflt) && !v->missing)
		v->missing = name;
	return dflt;
}
#define REQ NAN

static double cdiv(double a, double b) { return ceil(a / b); }
static double clog2(double x) { return x > 1 ? ceil(log2(x)) : 0; }

/* ---- features (x = parameters) ------------------------------------------- */
/* Dependence matrix (SOCGPU/GhOST style): W warps x N x N bits, each row a
 * wide NOR for ready. */
static double dm_cells(struct pv *v) { return P(v, "warps", 1) * pow(P(v, "entries", REQ), 2); }
static double dm_rows(struct pv *v) { return P(v, "warps", 1) * P(v, "entries", REQ); }
static double dm_ready(struct pv *v)
{
	double n = P(v, "entries", REQ);
	return P(v, "warps", 1) * n * cdiv(n - 1, 5);
}
/* CAM tag match: E entries of k-bit tags; equality ~ceil((2k-1)/5) LUT6 per entry. */
static double cam_match(struct pv *v)
{
	return P(v, "warps", 1) * P(v, "entries", REQ) * cdiv(2 * P(v, "tag_bits", REQ) - 1, 5);
}
static double cam_bits(struct pv *v) { return P(v, "warps", 1) * P(v, "entries", REQ) * P(v, "tag_bits", REQ); }
static double cam_entries(struct pv *v) { return P(v, "warps", 1) * P(v, "entries", REQ); }
static double cam_any(struct pv *v) { return P(v, "warps", 1) * cdiv(P(v, "entries", REQ) - 1, 5); }
/* RAT: R architectural registers of b bits, p read ports (R:1 mux per bit). */
static double rat_bits(struct pv *v) { return P(v, "entries", REQ) * P(v, "width", REQ); }
static double rat_mux(struct pv *v)
{
	return P(v, "read_ports", 1) * P(v, "width", REQ) * cdiv(P(v, "entries", REQ), 4);
}
/* LUTRAM (MODELS.md): 8 LUTs hold 32 x 14 bits (depth <= 32) or 64 x 7
 * (depth <= 64), deeper arrays stack 64-deep blocks, and each read port
 * beyond the first is another copy. */
static double lutram_luts(double depth, double width, double ports)
{
	double per = depth <= 32 ? 14 : 7, blocks = depth <= 64 ? 1 : cdiv(depth, 64);
	return ports * 8 * blocks * cdiv(width, per);
}
static double rat_lutram(struct pv *v)
{
	return lutram_luts(P(v, "entries", REQ), P(v, "width", REQ), P(v, "read_ports", 1));
}
/* Collector unit (LOOG-Vortex): operands x threads x 32-bit words per unit. */
static double cu_bits(struct pv *v)
{
	return P(v, "units", 1) * P(v, "operands", 3) * P(v, "threads", REQ) * P(v, "word_bits", 32);
}
static double cu_tags(struct pv *v) { return P(v, "units", 1) * P(v, "operands", 3); }
/* Priority select (one-hot arbiter over N requests): ~N LUTs plus a carry chain. */
static double ps_n(struct pv *v) { return P(v, "entries", REQ); }
static double ps_carry(struct pv *v) { return cdiv(P(v, "entries", REQ), 8); }
static double ps_enc(struct pv *v) { return clog2(P(v, "entries", REQ)) * cdiv(P(v, "entries", REQ), 4); }
/* RRS (LOOG result reservation station): E entries of threads x 32 result bits,
 * read through an E:1 mux. */
static double rrs_bits(struct pv *v) { return P(v, "entries", REQ) * P(v, "threads", REQ) * P(v, "word_bits", 32); }
static double rrs_lutram(struct pv *v)
{
	return lutram_luts(P(v, "entries", REQ), P(v, "threads", REQ) * P(v, "word_bits", 32), 1);
}
static double rrs_word(struct pv *v) { return P(v, "threads", REQ) * P(v, "word_bits", 32); }
static double rrs_mux(struct pv *v)
{
	return P(v, "threads", REQ) * P(v, "word_bits", 32) * cdiv(P(v, "entries", REQ), 4);
}
static double one(struct pv *v)
{
	(void)v;
	return 1;
}
/* Generic structures: the feature is a parameter itself (see "param:"). */

static const struct feature {
	const char *name;
	double (*fn)(struct pv *v);
	const char *params; /* which parameters drive it, for ill-conditioning hints */
	const char *formula;
} dm_f[] = {{"cells", dm_cells, "entries, warps", "warps*entries^2"},
	    {"ready", dm_ready, "entries, warps", "warps*entries*ceil((entries-1)/5)"},
	    {"rows", dm_rows, "entries, warps", "warps*entries"},
	    {"const", one, "(any: a fixed overhead)", "1"}},
  cam_f[] = {{"match", cam_match, "entries, tag_bits", "warps*entries*ceil((2*tag_bits-1)/5)"},
	     {"bits", cam_bits, "entries, tag_bits", "warps*entries*tag_bits"},
	     {"entries", cam_entries, "entries, warps", "warps*entries"},
	     {"any", cam_any, "entries", "warps*ceil((entries-1)/5)"},
	     {"const", one, "(any: a fixed overhead)", "1"}},
  rat_f[] = {{"bits", rat_bits, "entries, width", "entries*width"},
	     {"lutram", rat_lutram, "entries, width, read_ports", "read_ports*8*ceil(width/(entries<=32?14:7)) per 64-deep block"},
	     {"mux", rat_mux, "entries, width, read_ports", "read_ports*width*ceil(entries/4)"},
	     {"const", one, "(any: a fixed overhead)", "1"}},
  cu_f[] = {{"bits", cu_bits, "threads, operands, units", "units*operands*threads*word_bits"},
	    {"tags", cu_tags, "operands, units", "units*operands"},
	    {"const", one, "(any: a fixed overhead)", "1"}},
  ps_f[] = {{"n", ps_n, "entries", "entries"},
	    {"carry", ps_carry, "entries", "ceil(entries/8)"},
	    {"encode", ps_enc, "entries", "ceil(log2(entries))*ceil(entries/4)"},
	    {"const", one, "(any: a fixed overhead)", "1"}},
  rrs_f[] = {{"bits", rrs_bits, "entries, threads", "entries*threads*word_bits"},
	     {"mux", rrs_mux, "entries, threads", "threads*word_bits*ceil(entries/4)"},
	     {"lutram", rrs_lutram, "entries, threads", "8*ceil(threads*word_bits/(entries<=32?14:7)) per 64-deep block"},
	     {"word", rrs_word, "threads", "threads*word_bits"},
	     {"const", one, "(any: a fixed overhead)", "1"}},
  gen_f[] = {{"const", one, "(any: a fixed overhead)", "1"}};

static const struct structure {
	const char *name;
	const char *params; /* required, [optional=default] */
	const struct feature *f;
	size_t nf;
} structures[] = {
	{"dep_matrix", "entries [warps=1]", dm_f, IW_ARRAY_LEN(dm_f)},
	{"cam", "entries tag_bits [warps=1]", cam_f, IW_ARRAY_LEN(cam_f)},
	{"rat", "entries width [read_ports=1]", rat_f, IW_ARRAY_LEN(rat_f)},
	{"collector_unit", "threads [operands=3] [units=1] [word_bits=32]", cu_f, IW_ARRAY_LEN(cu_f)},
	{"priority_select", "entries", ps_f, IW_ARRAY_LEN(ps_f)},
	{"rrs", "entries threads [word_bits=32]", rrs_f, IW_ARRAY_LEN(rrs_f)},
	/* Any other measurement: each feature "param:NAME" is a parameter's value. */
	{"generic", "any (features param:NAME)", gen_f, IW_ARRAY_LEN(gen_f)},
};

size_t iw_calib_structure_count(void) { return IW_ARRAY_LEN(structures); }
const char *iw_calib_structure_name(size_t i) { return i < IW_ARRAY_LEN(structures) ? structures[i].name : NULL; }

int iw_calib_feature(const char *structure, const char *feature, const char *const *pnames, const double *pvalues,
		     size_t np, double *value, const char **params_used, struct iw_err *e)
{
	const struct structure *s = NULL;
	for (size_t i = 0; i < IW_ARRAY_LEN(structures); i++)
		if (strcmp(structures[i].name, structure) == 0)
			s = &structures[i];
	if (!s) {
		char list[256] = "";
		for (size_t i = 0; i < IW_ARRAY_LEN(structures); i++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", structures[i].name);
		return iw_fail(e, IW_EINPUT, "unknown structure '%s': expected one of %s", structure, list);
	}
	struct pv v = {pnames, pvalues, np, NULL};
	if (strncmp(feature, "param:", 6) == 0) {
		*value = P(&v, feature + 6, REQ);
		if (params_used)
			*params_used = feature + 6;
		if (v.missing)
			return iw_fail(e, IW_EINPUT, "feature '%s' of '%s': expected a parameter '%s', found none", feature,
				       structure, v.missing);
		return 0;
	}
	for (size_t k = 0; k < s->nf; k++) {
		if (strcmp(s->f[k].name, feature) != 0)
			continue;
		*value = s->f[k].fn(&v);
		if (params_used)
			*params_used = s->f[k].params;
		if (v.missing)
			return iw_fail(e, IW_EINPUT, "structure '%s' (parameters %s): expected a parameter '%s', found none",
				       structure, s->params, v.missing);
		return 0;
	}
	char list[256] = "";
	for (size_t k = 0; k < s->nf; k++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", s->f[k].name);
	return iw_fail(e, IW_EINPUT, "structure '%s' has no feature '%s': expected one of %s, or param:NAME", structure,
		       feature, list);
}

void iw_calib_features_print(FILE *f)
{
	fprintf(f, "Structures, parameters ([optional=default]) and features (quantity = sum coef * feature):\n");
	for (size_t i = 0; i < IW_ARRAY_LEN(structures); i++) {
		fprintf(f, "  %s: %s\n", structures[i].name, structures[i].params);
		for (size_t k = 0; k < structures[i].nf; k++)
			fprintf(f, "      %-8s = %s\n", structures[i].f[k].name, structures[i].f[k].formula);
		fprintf(f, "      param:NAME = the value of parameter NAME\n");
	}
}
