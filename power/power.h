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
};

int iw_power_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		  const struct iw_run_result *r, struct iw_power_result *p, struct iw_err *e);
void iw_power_result_free(struct iw_power_result *p);

#endif
