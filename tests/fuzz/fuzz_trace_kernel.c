/* tests/fuzz/fuzz_trace_kernel.c -- a whole kernel-N.traceg (kernel header,
 * thread blocks, warps, instruction lines; plain or xz) read by perf/trace.c. */
#include "fuzz.h"
#include "trace_drive.h"

int iw_fuzz_trace_kernel(const uint8_t *data, size_t n)
{
	const char *path = iw_fuzz_file("kernel-1.traceg", data, n);
	return path ? iw_fuzz_assert_trace(path) : 0;
}
