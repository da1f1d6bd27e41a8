/* tests/fuzz/fuzz_dc_power.c -- the dc-power synthesis-report parser (calib/report.c). */
#include "fuzz.h"

int iw_fuzz_dc_power(const uint8_t *data, size_t n) { return iw_fuzz_assert_report("dc-power", data, n); }
