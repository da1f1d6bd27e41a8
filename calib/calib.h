/*
 * calib/calib.h -- the interface of the calibration module: synthesis-report
 * parsers, the regression that fits cost-model coefficients to them, the
 * calibration spec (calib/calib.xsd) and the calibrated outputs.
 *
 * Data flow: report file -> iw_report (rows of instance, quantity, value,
 * unit) -> points of a spec (structure parameters + measured quantity) ->
 * design matrix from the structure's feature table -> iw_fit -> fitted
 * coefficients marked in a copy of the technology/device file, plus a fit
 * report (text and HDF5).
 */
#ifndef IW_CALIB_H
#define IW_CALIB_H

#include "iw.h"

/* ---- Reports ------------------------------------------------------------ */

/* One parsed value.  Instance paths use '/' between levels and start with the
 * top design ("fpga/core_inst/sys"); quantity is the report's own name for
 * the column or row ("CLB LUTs", "Total cell area") or one of the canonical
 * names every parser also fills where the report has them:
 *   LUT, FF, LUTRAM, BRAM (RAMB36 equivalents), DSP, CARRY, cells,
 *   area (library units, normally um^2), power.total, power.dynamic,
 *   power.static, power.internal, power.switching, power.leakage (W). */
struct iw_report_row {
	char *instance;
	char *quantity;
	double value;     /* NaN: a total the report leaves incomplete (iw_report_get refuses it) */
	char unit[16];
	int line; /* line of the report it came from */
};

struct iw_report {
	char *path;
	const char *format; /* name of the parser that read it */
	char top[256];      /* top design or module, "" if the report names none */
	size_t n, cap;
	struct iw_report_row *rows;
};

/* Parse a report; format NULL or "auto" detects it from the text.  Errors
 * (unknown format, missing column, empty table) name path:line and what was
 * expected. */
int iw_report_load(struct iw_report *r, const char *path, const char *format, struct iw_err *e);
/* Parse text already in memory (name is used in messages). */
int iw_report_parse(struct iw_report *r, const char *name, const char *text, size_t len,
		    const char *format, struct iw_err *e);
void iw_report_free(struct iw_report *r);
/* The instance path as stored: exact match, or relative to the top design
 * ("core_inst/sys" for "fpga/core_inst/sys").  NULL if absent. */
const char *iw_report_instance(const struct iw_report *r, const char *instance);
/* Value of quantity at instance (NULL = top); error names the report, the
 * instance and the quantities it does have. */
int iw_report_get(const struct iw_report *r, const char *instance, const char *quantity,
		  double *value, const char **unit, struct iw_err *e);
/* Registered formats (the parser table), for help and --format. */
size_t iw_report_format_count(void);
const char *iw_report_format_name(size_t i);
const char *iw_report_format_help(size_t i);

/* ---- Fitting ------------------------------------------------------------ */

enum iw_fit_method {
	IW_FIT_OLS,    /* ordinary least squares */
	IW_FIT_WLS,    /* weighted (relative weights; errors scaled by the residual variance) */
	IW_FIT_ROBUST, /* bisquare M-estimator (gsl_multifit_robust), flags outliers */
	IW_FIT_NNLS,   /* non-negative least squares (Lawson-Hanson active set) */
};
const char *iw_fit_method_name(enum iw_fit_method m);
int iw_fit_method_parse(const char *s, enum iw_fit_method *m);

struct iw_fit_result {
	size_t n, p;
	enum iw_fit_method method;
	double *coef;     /* p */
	double *se;       /* p, standard errors (NNLS: conditional on the active set; 0 at the bound) */
	int *at_bound;    /* p, NNLS coefficient held at 0 */
	double *fitted;   /* n, predicted values */
	double *loo;      /* n, leave-one-out prediction of each point (NaN if it cannot be refitted) */
	double *weight;   /* n, final robust weights (1 for the other methods) */
	int *outlier;     /* n */
	size_t noutliers;
	double r2, adj_r2;
	double sigma;     /* residual standard deviation */
	double loo_rmse;  /* root mean square leave-one-out prediction error */
	double rcond;     /* reciprocal condition number of the column-scaled design */
	double *cov;      /* p x p covariance of the coefficients */
	char warning[512];
};

/* Fit y ~ X c (X row-major n x p; w optional weights, NULL = all 1).
 * names[k] names coefficient k and hints[k] (may be NULL) says which input
 * parameters drive its feature, for the ill-conditioning message.  The
 * result's arrays are allocated here; free with iw_fit_result_free. */
int iw_fit(const double *X, const double *y, const double *w, size_t n, size_t p,
	   enum iw_fit_method method, const char *const *names, const char *const *hints,
	   struct iw_fit_result *res, struct iw_err *e);
void iw_fit_result_free(struct iw_fit_result *res);
/* Lawson-Hanson non-negative least squares: min ||A x - b||, x >= 0 (A row-major
 * m x p).  Returns 0, or a negative status if it did not converge. */
int iw_nnls(const double *A, const double *b, size_t m, size_t p, double *x, struct iw_err *e);

/* ---- Structures and their features --------------------------------------- */

/* A feature is one term of a structure's linear cost model: quantity =
 * sum_k coef_k * feature_k(parameters).  Defined once in calib/features.c. */
size_t iw_calib_structure_count(void);
const char *iw_calib_structure_name(size_t i);
/* Evaluate feature `feature` of `structure` for the given parameters.  Errors
 * name the missing parameter or the unknown feature and list the valid ones. */
int iw_calib_feature(const char *structure, const char *feature, const char *const *pnames,
		     const double *pvalues, size_t np, double *value, const char **params_used,
		     struct iw_err *e);
/* Text listing of structures, their parameters and features (for --help). */
void iw_calib_features_print(FILE *f);

/* ---- Spec, run, outputs -------------------------------------------------- */

struct iw_calib_point {
	char *report, *instance, *structure, *quantity;
	size_t np;
	char **pname;
	double *pvalue;
	double weight;
	int line;       /* line in the spec */
	struct iw_report rep;
};

/* A value the fitted model predicts at given parameters, written into the
 * technology file under its own name with the prediction's standard error
 * (sqrt(x' C x)); e.g. the area model's fpga.dm.lut.16 from the dep_matrix fit. */
struct iw_calib_pred {
	char *name;
	size_t np;
	char **pname;
	double *pvalue;
	double value, se;
	double *x; /* its feature vector (the fit's ncoef values): value = x.c */
	int line;
};

struct iw_calib_fit {
	char *structure, *quantity, *unit;
	enum iw_fit_method method;
	size_t ncoef;
	char **coef_name, **feature;
	const char **hint; /* parameters behind each feature (static strings) */
	size_t npoints;
	size_t *point; /* indices into the spec's points */
	double *y;     /* measured value of each point */
	const char **unit_of; /* unit the report gave for it */
	struct iw_fit_result res;
	int done;      /* res is valid */
	size_t npred;
	struct iw_calib_pred *pred;
	char *sources; /* report files, space-separated */
	int line;
};

struct iw_calib {
	char *spec_path;
	char *tech;    /* tech file or preset named by the spec (may be NULL) */
	size_t npoints, nfits;
	struct iw_calib_point *points;
	struct iw_calib_fit *fits;
};

/* Load a spec (validated against calib/calib.xsd); report paths are relative
 * to the spec's folder.  Reads every report, checks duplicates and instances. */
int iw_calib_load(struct iw_calib *c, const char *spec_path, struct iw_err *e);
/* Fit every <fit> of the spec; method_override < 0 keeps the spec's. */
int iw_calib_run(struct iw_calib *c, int method_override, struct iw_err *e);
void iw_calib_free(struct iw_calib *c);
void iw_calib_print(const struct iw_calib *c, FILE *f);
int iw_calib_write_text(const struct iw_calib *c, const char *path, struct iw_err *e);
int iw_calib_write_h5(const struct iw_calib *c, const char *path, struct iw_err *e);
/* Mark the fitted coefficients in a technology/device file's XML text: each
 * element whose name attribute is a fitted coefficient gets value, fitted="true",
 * std_error, points and sources; a coefficient the file lacks is added as a
 * <coef> element.  The values of one fit (coefficients and predictions) are
 * correlated: each pair with standard errors gets a <correlation a b r>
 * element (r from the fit's covariance), so that the uncertainty the runs
 * derive from them counts what the fit knows (tech/README).  Correlations
 * the file held for the names refitted are replaced.  *out is allocated
 * (iw_free). */
int iw_calib_mark_xml(const struct iw_calib *c, const char *xml_name, const char *xml_text,
		      size_t len, char **out, struct iw_err *e);
/* Can the technology/device file to mark be read (a preset, or a file)?
 * For a check before the fit. */
int iw_calib_tech_check(const struct iw_calib *c, const char *tech_arg, struct iw_err *e);
/* iw_calib_mark_xml then write atomically. */
int iw_calib_write_tech(const struct iw_calib *c, const char *tech_arg, const char *path,
			struct iw_err *e);

#endif
