/* perf/workloads.c -- built-in workloads (being built). */
#include "perf.h"

size_t iw_builtin_count(void) { return 0; }
const struct iw_builtin_desc *iw_builtin_get(size_t i)
{
	(void)i;
	return NULL;
}
int iw_builtin_open(const char *name, uint64_t seed, double scale, struct iw_workload **out, struct iw_err *e)
{
	(void)seed;
	(void)scale;
	*out = NULL;
	return iw_fail(e, IW_EINPUT, "%s: no such built-in workload", name);
}
