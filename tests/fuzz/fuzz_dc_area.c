/* tests/fuzz/fuzz_dc_area.c -- the dc-area synthesis-report parser (calib/report.c). */
#include "fuzz.h"

int iw_fuzz_dc_area(const uint8_t *data, size_t n) { return iw_fuzz_assert_report("dc-area", data, n); }
