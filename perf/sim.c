/* perf/sim.c -- the SM model (being built). */
#include "sim.h"

int iw_simulate(const struct iw_sim_opts *o, struct iw_workload *w, struct iw_run_result *r,
		struct iw_err *e)
{
	(void)o;
	(void)w;
	(void)r;
	return iw_fail(e, IW_ERUN, "simulation is not available in this build yet");
}
void iw_run_result_free(struct iw_run_result *r) { (void)r; }
size_t iw_scheme_count(void) { return 0; }
const char *iw_scheme_name(size_t i) { (void)i; return NULL; }
const char *iw_scheme_help(size_t i) { (void)i; return NULL; }
int iw_scheme_find(const char *name) { (void)name; return -1; }
