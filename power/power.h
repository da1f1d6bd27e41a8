/*
 * power/power.h -- energy and power: activity counts x energy per action from
 * the technology file, plus leakage per structure and the components every
 * scheme shares (register file, execution units, caches, DRAM, NoC, constant
 * and idle power), per interval and for the whole run.  power/ never knows a
 * warp: it sees only counts, the configuration and the technology.
 */
#ifndef IW_POWER_H
#define IW_POWER_H

#include "perf.h"
#include "tech.h"

struct iw_power_result {
	double seconds;                    /* run time = cycles / clock */
	double clock_mhz;
	double dynamic_j[IW_S_COUNT];      /* per structure, whole GPU */
	double leakage_w[IW_S_COUNT];      /* per structure, whole GPU */
	double static_j;                   /* leakage + constant + idle power over the run */
	double constant_w, idle_w;         /* chip constant power, idle-SM power */
	double energy_j;                   /* total */
	double avg_power_w;
	size_t nseries;
	double *series_t_s;                /* sample end times, s */
	double *series_w;                  /* total power per sample, W */
	double *series_struct_w;           /* nseries x IW_S_COUNT, W */
	/* Additions */
	double act_j[IW_A_COUNT];          /* energy of one count of each action, J */
	double dynamic_total_j;            /* sum of dynamic_j */
	double leakage_total_w;            /* sum of leakage_w */
	double idle_fraction;              /* scheduler-cycles with no resident warp / all */
	/* Shared components in the AccelWattch manner (ASIC only; 0 on an FPGA).
	 * pipe_j is part of dynamic_j[IW_S_FETCH] and dynamic_total_j; the powers
	 * below are part of static_j (drawn per unit of time, whatever the
	 * activity, so a faster run saves them). */
	double pipe_j;                     /* per-warp-instruction pipeline energy, J */
	double clock_w;                    /* clock tree + pipeline registers of active SMs, W */
	double lane_static_w;              /* static power of active SMs, grows with active lanes, W */
	double dram_background_w;          /* DRAM background and refresh, W */
	/* mean active threads per warp instruction; of a run of several kernels,
	 * each kernel's weighted by its scheduler-cycles with a resident warp
	 * (what lane_static_w follows) */
	double active_lanes;
};

/* Metrics of one run (MODELS.md "Metrics"): delay = the workload's run time
 * (s); energy includes leakage, constant and idle power; area = modelled GPU
 * area (mm^2) on an ASIC node, Total Area(%) on an FPGA device (the thesis's
 * ADP).  ADP = area x delay, PDP = average power x delay (= energy),
 * EDP = energy x delay. */
struct iw_metrics {
	double delay_s, energy_j, avg_power_w, area, adp, pdp, edp;
};
struct iw_area_result;
void iw_metrics_of(const struct iw_power_result *p, const struct iw_area_result *a, struct iw_metrics *m);
/* Each field of m divided by the baseline's (baseline = 1, below 1 is better). */
void iw_metrics_relative(const struct iw_metrics *m, const struct iw_metrics *base, struct iw_metrics *rel);

int iw_power_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		  const struct iw_run_result *r, struct iw_power_result *p, struct iw_err *e);
void iw_power_result_free(struct iw_power_result *p);

#endif
