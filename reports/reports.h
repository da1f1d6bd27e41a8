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
	double area_mm2;    /* modelled structures of the whole GPU (ASIC) */
	/* against the in-order run of the same workload and configuration */
	double speedup, energy_rel, adp_rel, pdp_rel, edp_rel;
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
	/* results, nworkloads x nschemes, row-major by workload */
	struct iw_row *rows;
	size_t nrows;
};

/* Parse the common options into a job: config and tech (preset or file),
 * "--set key=value" for configuration keys (tech keys "tech.vdd", "tech.clock_mhz"),
 * scheme list ("all" expands) and workload list ("builtin" = the default set). */
int iw_job_init(struct iw_job *j, const char *config, const char *tech, char *const *sets, size_t nsets,
		const char *schemes, const char *workloads, struct iw_err *e);
/* Simulate every (workload, scheme), price it, and compute the metrics. */
int iw_job_run(struct iw_job *j, struct iw_err *e);
void iw_job_free(struct iw_job *j);

/* Metrics of `r` against the baseline row `base` (same workload and configuration). */
void iw_row_metrics(struct iw_row *r, const struct iw_row *base);
/* Price a finished simulation: power, area and the row's scalars. */
int iw_row_price(struct iw_row *r, const struct iw_config *c, const struct iw_tech *t, struct iw_err *e);
void iw_row_free(struct iw_row *r);

/* Summary on a stream: text (a readable table) or CSV (header + one row per run;
 * the columns include workload,scheme,cycles,warp_insts,ipc,energy_j,avg_power_w,
 * area_mm2,speedup,energy_rel,adp_rel,pdp_rel,edp_rel). */
void iw_summary_text(FILE *f, const struct iw_row *rows, size_t n);
void iw_summary_csv(FILE *f, const struct iw_row *rows, size_t n, const char *const *param_names,
		    size_t nparams, int header);

/* HDF5 output (see reports/README.md for the layout): written to a temporary
 * name and renamed when complete. */
struct iw_h5_meta {
	const char *command_line;
	const char *config_name, *config_xml;
	const char *tech_name, *tech_xml;
	const char *const *param_names; /* sweep axes, or NULL */
	size_t nparams;
};
int iw_h5_write(const char *path, const struct iw_h5_meta *m, const struct iw_row *rows, size_t n,
		struct iw_err *e);

#endif
