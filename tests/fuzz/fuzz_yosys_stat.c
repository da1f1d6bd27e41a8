/* tests/fuzz/fuzz_yosys_stat.c -- the yosys-stat synthesis-report parser (calib/report.c). */
#include "fuzz.h"

int iw_fuzz_yosys_stat(const uint8_t *data, size_t n) { return iw_fuzz_assert_report("yosys-stat", data, n); }
