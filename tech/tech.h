/*
 * tech/tech.h -- technology (ASIC node) and device (FPGA) files: loading and
 * validating them (tech/tech.xsd), and looking up coefficients by name.
 * Every coefficient carries a unit and a source; a calibrated file adds the
 * standard error, point count and source reports of each fitted value.
 */
#ifndef IW_TECH_H
#define IW_TECH_H

#include "iw.h"

enum iw_tech_kind { IW_TECH_ASIC, IW_TECH_FPGA };

struct iw_coef {
	char name[64];    /* e.g. "energy.dm.row_write", "area.cell.dff" */
	double value;
	char unit[16];    /* e.g. "pJ", "um2", "W", "LUT" */
	char source[1024]; /* where the value comes from (longer: the file is refused) */
	int fitted;       /* replaced by calib */
	double std_error; /* of a fitted value, else 0 */
	int points;
	int line;         /* line in the file, for error messages */
	char sources[256]; /* synthesis reports a fitted value came from (calib) */
	int imported;     /* from a <derive> base file (and not overridden by this one) */
};

/* Two fitted coefficients whose errors are correlated (<correlation>;
 * issuewatt calibrate writes one per pair of values of a fit).  Pairs not
 * listed are independent. */
struct iw_corr {
	size_t a, b; /* indices into iw_tech.coef */
	double r;    /* in [-1, 1] */
	int line;
};

struct iw_tech {
	char name[64];
	char origin[512]; /* preset resource name or file path */
	enum iw_tech_kind kind;
	double node_nm;   /* ASIC */
	double vdd;       /* V */
	double clock_mhz; /* 0 = use the GPU configuration's clock */
	/* area of a design at this node / at 45 nm (the anchor): <tech area_factor>,
	 * else the <derive> chain's area factors multiplied, else 1; scales a
	 * configuration's die to the node (iw_area_eval) */
	double area_factor;
	size_t ncoef;
	struct iw_coef *coef;
	size_t ncorr;
	struct iw_corr *corr;
	char *xml_text;   /* verbatim, for provenance */
	/* Additions: the <derive> factors this file was computed with (1 if none) */
	double derive_area, derive_energy, derive_leakage;
	char derive_from[64];
	int line;         /* line of the <tech> element, for errors about absent coefficients */
};

int iw_tech_load(struct iw_tech *t, const char *preset_or_file, struct iw_err *e);
void iw_tech_free(struct iw_tech *t);
/* Coefficient by name; NULL if absent. */
const struct iw_coef *iw_tech_coef(const struct iw_tech *t, const char *name);
/* Coefficient that must be present with the given unit: error names the file,
 * line (of the tech element or the coefficient), coefficient and the structure
 * that needs it. */
int iw_tech_need(const struct iw_tech *t, const char *name, const char *unit, const char *structure,
		 double *value, struct iw_err *e);
/* Does c have a standard error (finite, > 0)?  Coefficients with one are
 * "uncertain", and counted, listed and moved in file order. */
int iw_coef_has_error(const struct iw_coef *c);
/* Coefficients with a standard error (0: the results have no model
 * uncertainty). */
size_t iw_tech_uncertain(const struct iw_tech *t);
/* The standard errors se[0..nv) of nv results that `eval` computes from a
 * technology, carried from the file's coefficient errors to first order
 * (GUM, JCGM 100:2008 eq. 13): eval on t gives the values; for each
 * coefficient k with a standard error u_k, eval on a copy with c_k + u_k
 * gives the changes d_k; se^2 = sum_j sum_k d_j d_k r_jk, r_kk = 1 and r_jk
 * the file's correlations (0 where none).  All 0, eval not called, for a
 * file without errors. */
typedef int (*iw_tech_eval)(const struct iw_tech *t, void *ctx, double *values, struct iw_err *e);
int iw_tech_propagate(const struct iw_tech *t, iw_tech_eval eval, void *ctx, size_t nv, double *se,
		      struct iw_err *e);
/* The changes themselves, d[k * nv + m]: result m with the k-th coefficient
 * with an error (file order, iw_tech_uncertain of them) moved by its
 * standard error, minus result m.  Keeping them lets a later aggregate of
 * several results (a mean over workloads or configurations) get its own
 * error: the same coefficient moves them all. */
int iw_tech_sensitivities(const struct iw_tech *t, iw_tech_eval eval, void *ctx, size_t nv, double *d,
			  struct iw_err *e);
/* The correlation matrix of the coefficients with an error (nk x nk,
 * nk = iw_tech_uncertain, file order; 1 on the diagonal). */
void iw_tech_uncertain_corr(const struct iw_tech *t, double *r);
/* sqrt(sum_j sum_k d_j d_k r_jk) of d_k = d[k * stride], r nk x nk: one
 * standard error from sensitivities and their correlations. */
double iw_se_combine(size_t nk, const double *r, const double *d, size_t stride);
/* Override vdd/clock ("tech.vdd=0.8"); error names the key. */
int iw_tech_set(struct iw_tech *t, const char *assignment, struct iw_err *e);
size_t iw_tech_preset_count(void);
const char *iw_tech_preset_name(size_t i);
/* Write the file back (with fitted coefficients marked), atomically: every
 * coefficient as the program holds it (--set applied, <derive> resolved),
 * each number the shortest decimal that reads back to the same bits. */
int iw_tech_save(const struct iw_tech *t, const char *path, struct iw_err *e);
/* The same text in memory (free with iw_free), NULL if out of memory: the
 * technology a run used, for its provenance. */
char *iw_tech_to_xml(const struct iw_tech *t);

#endif
