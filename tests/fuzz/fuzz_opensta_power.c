/* tests/fuzz/fuzz_opensta_power.c -- the opensta-power synthesis-report parser (calib/report.c). */
#include "fuzz.h"

int iw_fuzz_opensta_power(const uint8_t *data, size_t n) { return iw_fuzz_assert_report("opensta-power", data, n); }
