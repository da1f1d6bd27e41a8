/* tests/fuzz/fuzz_kernelslist.c -- kernelslist.g (kernel file names and
 * Memcpy lines) in a trace folder that also holds two valid kernels. */
#include "fuzz.h"
#include "trace_drive.h"

static int ready;

int iw_fuzz_kernelslist(const uint8_t *data, size_t n)
{
	if (!ready) {
		ready = iw_fuzz_fixture("tests/data/traces/hand/multi/kernel-1.traceg", "kernel-1.traceg") == 0 &&
			iw_fuzz_fixture("tests/data/traces/hand/multi/kernel-2.traceg.xz", "kernel-2.traceg.xz") == 0;
		if (!ready)
			return 0;
	}
	if (iw_fuzz_file("kernelslist.g", data, n))
		return iw_fuzz_assert_trace(iw_fuzz_dir());
	return 0;
}
