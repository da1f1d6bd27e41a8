/* tests/fuzz/fuzz_vivado_power.c -- the vivado-power synthesis-report parser (calib/report.c). */
#include "fuzz.h"

int iw_fuzz_vivado_power(const uint8_t *data, size_t n) { return iw_fuzz_assert_report("vivado-power", data, n); }
