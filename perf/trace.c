/* perf/trace.c -- Accel-Sim trace reader (being built). */
#include "perf.h"

#include <string.h>

int iw_path_is_trace(const char *path)
{
	return strchr(path, '/') != NULL || strstr(path, ".traceg") != NULL || strstr(path, ".g") != NULL;
}

int iw_trace_open(const char *path, struct iw_workload **out, struct iw_err *e)
{
	*out = NULL;
	return iw_fail(e, IW_EINPUT, "%s: reading Accel-Sim traces is not available in this build yet", path);
}
