/* perf/workload.c -- opening a workload by name or path. */
#include "perf.h"

#include <string.h>

int iw_workload_open(const char *spec, uint64_t seed, double scale, struct iw_workload **out,
		     struct iw_err *e)
{
	*out = NULL;
	if (iw_path_is_trace(spec))
		return iw_trace_open(spec, out, e);
	return iw_builtin_open(spec, seed, scale, out, e);
}

void iw_workload_close(struct iw_workload *w)
{
	if (w)
		w->ops->close(w);
}
