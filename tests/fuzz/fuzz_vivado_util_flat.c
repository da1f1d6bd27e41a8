/* tests/fuzz/fuzz_vivado_util_flat.c -- the vivado-util synthesis-report parser (calib/report.c). */
#include "fuzz.h"

int iw_fuzz_vivado_util_flat(const uint8_t *data, size_t n) { return iw_fuzz_assert_report("vivado-util", data, n); }
