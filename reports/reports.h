/*
 * reports/reports.h -- runs, their metrics and their outputs: a job (one
 * configuration and technology, workloads x schemes, the in-order baseline
 * always included), the baseline-normalised metrics (speed-up, energy, ADP,
 * PDP, EDP), the text/CSV summary and the HDF5 file; and, built on them,
 * design-space sweeps and reports.
 */
#ifndef IW_REPORTS_H
#define IW_REPORTS_H

#include "area.h"
#include "perf.h"
#include "power.h"
#include "tech.h"

/* The metrics whose model uncertainty a row carries (iw_row.se). */
enum { IW_SE_ENERGY, IW_SE_POWER, IW_SE_AREA, IW_SE_FPGA_PCT, IW_SE_ENERGY_REL, IW_SE_ADP_REL, IW_SE_PDP_REL,
       IW_SE_EDP_REL, IW_SE_COUNT };
extern const char *const iw_se_names[IW_SE_COUNT]; /* "energy_j_se", ... */

/* The technology's coefficients with a standard error, in file order, and
 * their correlations: what every row's sensitivities (iw_row.sens) refer to,
 * stored once per results file (/model_uncertainty). */
struct iw_model_unc {
	size_t n;
	char (*names)[64];
	double *std_error; /* n, in each coefficient's unit */
	double *corr;      /* n x n, 1 on the diagonal */
};
int iw_model_unc_of(struct iw_model_unc *u, const struct iw_tech *t, struct iw_err *e);
void iw_model_unc_free(struct iw_model_unc *u);
/* One standard error of an aggregate whose change under coefficient k is
 * d[k * stride] (iw_se_combine with u's correlations). */
double iw_model_unc_se(const struct iw_model_unc *u, const double *d, size_t stride);
/* 1 if a and b are the same coefficients with the same errors and
 * correlations (results of one technology file: resumable, mergeable). */
int iw_model_unc_same(const struct iw_model_unc *a, const struct iw_model_unc *b);

/* One simulated (workload, scheme) pair with everything derived from it. */
struct iw_row {
	char workload[256];
	char scheme[32];
	char config[64];
	char tech[64];
	struct iw_run_result run;
	struct iw_power_result power;
	struct iw_area_result area;
	double seconds;     /* simulated run time = cycles / clock */
	double area_mm2;    /* modelled structures of the whole GPU (ASIC; 0 on an FPGA device) */
	double fpga_area_pct; /* FPGA device: Total Area(%) = (FF% + LUT% + BRAM% + DSP%) / 4 (0 on ASIC) */
	/* against the in-order run of the same workload and configuration */
	double speedup, energy_rel, adp_rel, pdp_rel, edp_rel;
	/* the baseline's mean SM busy cycles over this run's: the speed-up of the
	 * GPU's throughput, without the last SM's tail (perf.h, sm_busy_mean) */
	double sm_speedup;
	/* the model's uncertainty: one standard error of energy_j, avg_power_w,
	 * area_mm2, fpga_area_pct, energy_rel, adp_rel, pdp_rel and edp_rel (in
	 * that order, IW_SE_*) from the technology file's fitted coefficients
	 * (iw_row_model_se); all 0 when no coefficient has a standard error */
	double se[IW_SE_COUNT];
	/* what se is made of: sens[k * IW_SE_COUNT + m] is the change of metric
	 * m when the k-th coefficient with an error (struct iw_model_unc, file
	 * order) moves by one standard error; nsens of them (0: none).  An
	 * aggregate of rows (a mean over workloads or configurations) gets its
	 * error from them, since one coefficient moves every row at once. */
	size_t nsens;
	double *sens;
	/* sweep parameters of this row (NULL for a plain run) */
	size_t nparams;
	double *params;
};

struct iw_job {
	struct iw_config cfg;
	struct iw_tech tech;
	char *config_xml;   /* effective configuration (after --set), for provenance */
	const char *command_line;
	char **workloads;
	size_t nworkloads;
	char **schemes;     /* "inorder" first */
	size_t nschemes;
	int verbose;        /* progress on stderr */
	int jobs;           /* runs at a time: 0 or 1 one after another, < 0 every core; same results */
	/* results, nworkloads x nschemes, row-major by workload */
	struct iw_row *rows;
	size_t nrows;
};

/* Parse the common options into a job: config and tech (preset or file),
 * "--set key=value" for configuration keys (tech keys "tech.vdd", "tech.clock_mhz"),
 * scheme list ("all" expands) and workload list ("builtin" = the default set).
 * A list is comma-separated; line breaks separate the values of repeated
 * options, and such a value that names an existing file or folder is one
 * workload even if it holds a comma. */
int iw_job_init(struct iw_job *j, const char *config, const char *tech, char *const *sets, size_t nsets,
		const char *schemes, const char *workloads, struct iw_err *e);
/* Simulate every (workload, scheme), price it, and compute the metrics. */
int iw_job_run(struct iw_job *j, struct iw_err *e);
/* Each scheme's geometric mean over the workloads of its speed-up, energy,
 * ADP and EDP against inorder (gm, nschemes x IW_GM_COUNT, scheme-major),
 * and the model's standard error of each (se, the same shape; 0 without
 * fitted errors): the coefficients move every run and baseline at once, so
 * the error counts that the workloads share them.  After iw_job_run. */
enum { IW_GM_SPEEDUP, IW_GM_ENERGY, IW_GM_ADP, IW_GM_EDP, IW_GM_COUNT };
int iw_job_geomeans(const struct iw_job *j, double *gm, double *se, struct iw_err *e);
/* The same as a few lines under the summary table (nothing for one workload). */
int iw_job_geomean_text(FILE *f, const struct iw_job *j, struct iw_err *e);
/* The job as JSON: iw_runs_json's document with "geomeans": one object
 * per scheme (scheme, workloads, speedup, energy_rel, adp_rel, edp_rel and
 * their *_se), which a script cannot work out from the runs: the error of a
 * mean needs every run's sensitivity to the shared coefficients. */
int iw_job_json(FILE *f, const struct iw_job *j, struct iw_err *e);
void iw_job_free(struct iw_job *j);

/* Metrics of `r` against the baseline row `base` (same workload and configuration). */
void iw_row_metrics(struct iw_row *r, const struct iw_row *base);
/* The standard errors r->se of r's energy, power, area and _rel metrics that
 * the fitted coefficients of `t` carry (std_error, <correlation>), to first
 * order: each coefficient with an error moved by one standard error, r and
 * its baseline priced again.  After iw_row_metrics; a no-op (all 0) for a
 * file without errors. */
int iw_row_model_se(struct iw_row *r, const struct iw_row *base, const struct iw_config *c, const struct iw_tech *t,
		    struct iw_err *e);
/* Price a finished simulation: power, area and the row's scalars. */
int iw_row_price(struct iw_row *r, const struct iw_config *c, const struct iw_tech *t, struct iw_err *e);
/* The simulation's on_kernel hook (perf.h) that prices each kernel alone with
 * power/, as iw_row_price prices the run: ctx is a struct iw_kernel_pricer. */
struct iw_kernel_pricer {
	const struct iw_config *cfg;
	const struct iw_tech *tech;
	/* With coefficients with an error, each kernel's change of energy per
	 * coefficient (as iw_row.sens for the run), kernel after kernel, and
	 * the errors in its record; iw_kernel_pricer_done hands them to the run. */
	double *sens;
	size_t n, cap;
	int rc;            /* the first failure (no memory, a pricing error) */
	struct iw_err err; /* and its message; the records from there on are NaN */
};
void iw_price_kernel(void *ctx, const struct iw_run_result *kernel, struct iw_kernel_stat *k);
/* After the simulation that returned rc: the sensitivities to r->ksens, or
 * a failure if a kernel could not get them; frees the pricer's buffer. */
int iw_kernel_pricer_done(struct iw_kernel_pricer *p, struct iw_run_result *r, int rc, struct iw_err *e);
void iw_row_free(struct iw_row *r);

/* Summary on a stream: text (a readable table) or CSV (header + one row per run;
 * the columns include workload,scheme,cycles,warp_insts,ipc,energy_j,avg_power_w,
 * area_mm2,speedup,energy_rel,adp_rel,pdp_rel,edp_rel; then fpga_area_pct,
 * sm_busy_mean,sm_speedup). */
void iw_summary_text(FILE *f, const struct iw_row *rows, size_t n);
/* A swept parameter's value as text: an enum's or a bool's by its name
 * (core.policy "lrr", ghost.precise "true"; results keep the index,
 * iw_param_parse's number), else the number in `fmt` ("%g", or "%.17g" to
 * set it again).  Returns buf. */
const char *iw_param_text(const char *key, double v, const char *fmt, char *buf, size_t n);
/* Its value in JSON: an enum's name as a string, a bool as true or false,
 * else the number. */
void iw_json_param(FILE *f, const char *key, double v);
void iw_summary_csv(FILE *f, const struct iw_row *rows, size_t n, const char *const *param_names,
		    size_t nparams, int header);
/* The same as a JSON document, {"tool", "version", "runs": [...], ...}, up
 * to the runs' closing bracket (the caller adds its "geomeans" and closes
 * it): per run the CSV's columns by the same names but the stall_* ones
 * (numbers exact, null where the CSV has nan), the sweep parameters in
 * "params", the stall breakdown in "stall_cycles" (scheduler-cycles by
 * reason), iw_utilisation by iw_occ_name in "utilisation" and the kernel records in "kernels" (name and the fields of
 * iw_kstat_fields). */
void iw_runs_json(FILE *f, const struct iw_row *rows, size_t n, const char *const *param_names, size_t nparams);
/* Per kernel (struct iw_kernel_stat), with speed-up, SM speed-up and energy
 * against the in-order run's same kernel: a table (a workload's runs side by
 * side, kernel by kernel) or CSV (one row per run and kernel: workload,
 * scheme,config,tech,kernel,name,ctas,start,cycles,warp_insts,ipc,
 * sm_busy_mean,energy_j,avg_power_w,energy_j_se,avg_power_w_se,speedup,
 * sm_speedup,energy_rel,energy_rel_se; kernels numbered from 1).  corr: as
 * for iw_kernel_rel; the table shows the errors only with it. */
void iw_kernels_text(FILE *f, const struct iw_row *rows, size_t n, const double *corr);
void iw_kernels_csv(FILE *f, const struct iw_row *rows, size_t n, const double *corr);
/* Kernel k of row r against the same kernel of its baseline b (NaN where b
 * lacks it) and the energy ratio's standard error from both kernels'
 * sensitivities (run.ksens) and corr, the coefficients' correlations
 * (iw_tech_uncertain_corr; NULL or no sensitivities: 0). */
struct iw_krel {
	double speedup, sm_speedup, energy_rel, energy_rel_se;
};
struct iw_krel iw_kernel_rel(const struct iw_row *b, const struct iw_row *r, size_t k, const double *corr);

/* HDF5 output (see reports/README.md for the layout): written to a temporary
 * name and renamed when complete. */
struct iw_h5_meta {
	const char *command_line;
	const char *config_name, *config_xml;
	const char *tech_name, *tech_xml;
	const char *const *param_names; /* sweep axes, or NULL */
	size_t nparams;
	const struct iw_model_unc *unc; /* what the rows' sensitivities refer to, or NULL */
	/* The technology as the runs used it (iw_tech_to_xml: --set applied,
	 * every coefficient), or NULL; tech_xml is the file as given. */
	const char *tech_used_xml;
	/* The version whose model simulated the rows (merge: its inputs'),
	 * or NULL: this one (IW_VERSION). */
	const char *tool_version;
};
int iw_h5_write(const char *path, const struct iw_h5_meta *m, const struct iw_row *rows, size_t n,
		struct iw_err *e);
/* Sweeps also store the spec text (/sweep/spec_xml) and each row's canonical
 * point index (/sweep/point), so files can be resumed and merged. */
struct iw_h5_sweep {
	const char *spec_xml;
	const uint64_t *point_ids;
};
int iw_h5_write_sweep(const char *path, const struct iw_h5_meta *m, const struct iw_h5_sweep *sw,
		      const struct iw_row *rows, size_t n, struct iw_err *e);
/* Rows from a source, fetched one at a time (twice: summary, then runs), so a
 * caller can stream them from disk and keep memory bounded. */
struct iw_h5_source {
	size_t n;
	int (*get)(void *ctx, size_t i, struct iw_row *row, struct iw_err *e); /* fill *row with row i */
	void (*put)(void *ctx, struct iw_row *row);                             /* release it (or NULL) */
	void *ctx;
};
int iw_h5_write_source(const char *path, const struct iw_h5_meta *m, const struct iw_h5_sweep *sw,
		       const struct iw_h5_source *src, struct iw_err *e);

/* HDF5 input: a results file read back into rows (every field iw_h5_write
 * stores, so writing them again gives the same numbers bit for bit). */
struct iw_results {
	char *command_line, *config_name, *tech_name, *config_xml, *tech_xml;
	char *tool_version;    /* the root attribute tool_version, NULL if absent */
	char *tech_used_xml;   /* NULL in files of earlier versions */
	char *sweep_xml;       /* NULL when the file is not from a sweep */
	char **param_names;    /* summary columns beyond the fixed ones */
	size_t nparams;
	struct iw_row *rows;
	uint64_t *point_ids;   /* NULL when the file is not from a sweep */
	size_t n;
	struct iw_model_unc unc; /* n = 0 when the file has no model uncertainty */
};
int iw_h5_read(const char *path, struct iw_results *r, struct iw_err *e);
void iw_results_free(struct iw_results *r);
/* Free one row obtained from iw_h5_read (or iw_row_unpack). */
void iw_results_row_free(struct iw_row *r);
/* The HDF5 compound type (an hid_t) of struct iw_kernel_stat, which both
 * the writer and the reader use; the caller closes it (-1 on failure). */
int64_t iw_h5_kernel_type(void);

/* ---------------------------------------------------------------- sweeps */
/* A spec (reports/sweep.xsd): workloads x schemes x the product of the axes.
 * Canonical order: configuration c (first axis slowest), then workload, then
 * scheme (inorder first); a *unit* is one (configuration, workload) with all
 * its schemes, row id = unit * nschemes + scheme.  Results are stored in this
 * order whatever the parallelism, sharding or interruption. */
struct iw_sweep_axis {
	char key[64];
	char label[64];
	size_t n;
	double *values;
	int line;
};
struct iw_sweep {
	char *path, *xml;        /* spec file and its text (stored in the results) */
	char name[64];
	struct iw_job base;      /* configuration, tech, sets, workloads, schemes */
	struct iw_sweep_axis *axes;
	size_t naxes;
	char **param_names;      /* axis keys */
	size_t nconfigs, nunits, nrows;
	char (*power_traces)[2][256]; /* (workload, scheme) pairs for the report */
	size_t npower_traces;
};
int iw_sweep_load(struct iw_sweep *s, const char *path, struct iw_err *e);
int iw_sweep_parse(struct iw_sweep *s, const char *name, const char *text, size_t len, struct iw_err *e);
void iw_sweep_free(struct iw_sweep *s);
/* The input a spec text names for `element` ("config", "tech"), as written
 * (its last one, as iw_sweep_parse takes it), or the default, into buf; -1
 * if the text is not XML.  For messages about a results file's spec. */
int iw_sweep_spec_input(const char *xml, const char *element, char *buf, size_t n);
/* 0 if spec texts a and b (named an and bn in messages) say the same:
 * comments, blanks, attribute order and quoting aside (results kept by one
 * are those of the other); else 1 and the first difference in `what`, as
 * "A line 5: <axis values=\"2 4\">; B line 5: <axis values=\"2 8\">". */
int iw_sweep_spec_diff(const char *a, const char *an, const char *b, const char *bn, char *what, size_t n);
/* The axis values of configuration c (naxes doubles). */
void iw_sweep_point(const struct iw_sweep *s, size_t c, double *values);
/* The configuration of configuration index c (base + axis values). */
int iw_sweep_config(const struct iw_sweep *s, size_t c, struct iw_config *cfg, struct iw_err *e);
/* The in-order baseline runs of a sweep, shared by the points that differ
 * only in other schemes' parameters (sweep_base.c); thread-safe, bounded. */
struct iw_base_cache;
struct iw_base_cache *iw_base_cache_new(size_t capacity);
void iw_base_cache_free(struct iw_base_cache *c);
void iw_base_cache_stats(struct iw_base_cache *c, uint64_t *hits, uint64_t *misses);
/* The key of a baseline: the configuration (other schemes' parameters at
 * their defaults) and the workload.  NULL if out of memory. */
char *iw_base_key(const struct iw_config *cfg, const char *workload);
/* 1 and a copy of the run in *out if the key is there (waiting while
 * another thread simulates it), else 0: then the caller simulates it and
 * must put the run, or abandon the key if it cannot. */
int iw_base_cache_get(struct iw_base_cache *c, const char *key, struct iw_run_result *out);
void iw_base_cache_put(struct iw_base_cache *c, const char *key, const struct iw_run_result *run);
void iw_base_cache_abandon(struct iw_base_cache *c, const char *key);

/* Simulate and price one unit into rows[0..nschemes-1] (baseline first);
 * with a cache `bc` (may be NULL), the baseline's run may come from it. */
int iw_sweep_unit(const struct iw_sweep *s, size_t unit, struct iw_row *rows, struct iw_base_cache *bc,
		  struct iw_err *e);
/* The order to run units in: configurations that share a baseline (differ
 * only in other schemes' axes) next to each other, else canonical. */
void iw_sweep_order(const struct iw_sweep *s, size_t *units, size_t n);
/* The units that share a unit's baseline have one family number, < nunits. */
size_t iw_sweep_family(const struct iw_sweep *s, size_t unit);
/* iw_base_key of a unit's configuration and workload (NULL: out of memory). */
char *iw_sweep_base_key(const struct iw_sweep *s, size_t unit);

struct iw_sweep_opts {
	int jobs;                    /* worker threads; <= 0 = every core */
	size_t shard, nshards;       /* this is shard `shard` (0-based) of nshards; 0/0 = all */
	int resume;                  /* keep the finished points of an existing output */
	int progress;                /* 0 none, 1 bar/heartbeat on stderr */
	const char *command_line;
	volatile int *stop;          /* set asynchronously (signal): finish writing and return */
	size_t limit;                /* stop after running this many points (0 = all) */
	size_t done, total;          /* out: units finished (incl. resumed) and units of this shard */
	size_t base_shared;          /* out: units whose baseline run an earlier point's served (as the threads
	                              * or, under MPI, the ranks report it) */
	int is_writer;               /* out: 1 on the process that wrote the file (MPI rank 0) */
	int mpi_abandoned;           /* out: rank 0 failed with workers still busy: end them with MPI_Abort
	                              * (MPI_Finalize would wait for them forever) */
};
/* Run the sweep and write `out` with every finished unit.  Returns 0, a
 * negative status, or -IW_ERUN with "interrupted" after writing what finished. */
int iw_sweep_run(const struct iw_sweep *s, const char *out, struct iw_sweep_opts *o, struct iw_err *e);
/* Merge results files of the same spec (shards, partial runs) into one.
 * *runs: the runs written; *expected: the runs of the whole spec (0 when the
 * spec cannot be expanded here, as when its traces are on another machine). */
int iw_sweep_merge(const char *const *in, size_t nin, const char *out, const char *command_line, size_t *runs,
		   size_t *expected, struct iw_err *e);

/* Rows as bytes (same binary on both ends: MPI messages). */
int iw_row_pack(const struct iw_row *r, unsigned char **buf, size_t *len, struct iw_err *e);
int iw_row_unpack(struct iw_row *r, const unsigned char *buf, size_t len, size_t *used, struct iw_err *e);

/* ---------------------------------------------------------------- report */
struct iw_report_opts {
	const char *gnuplot;         /* program, NULL = "gnuplot" (IW_GNUPLOT overrides) */
	int render;                  /* 0 = write data and scripts only */
	int quiet;
	const char *power_runs;      /* "WORKLOAD:SCHEME[,...]" for the power figure, or NULL (spec's choice) */
};
/* The HTML page, figures (gnuplot SVG + PNG with their .gp and .dat),
 * CSV and LaTeX tables of a results file into folder `dir`. */
int iw_report_write(const struct iw_results *res, const char *dir, struct iw_report_opts *o, struct iw_err *e);
/* `report --format json`: iw_runs_json's document with "geomeans", for each
 * configuration (its "params" in a sweep) and scheme the geometric means over
 * the workloads of speedup, energy_rel, adp_rel and edp_rel with their model
 * errors (*_se: first order, as the report's tables; run's own JSON prices
 * them again, and they agree to about 0.2% of the error). */
int iw_report_json(FILE *f, const struct iw_results *res, struct iw_err *e);

#endif
