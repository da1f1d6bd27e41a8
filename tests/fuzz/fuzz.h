/*
 * tests/fuzz/fuzz.h -- shared pieces of the fuzz targets.  Each
 * tests/fuzz/fuzz_NAME.c defines `int iw_fuzz_NAME(const uint8_t *, size_t)`:
 * the libFuzzer driver (driver.c) calls it for every generated input, and the
 * CUnit suite tests/test_fuzz_regress.c replays tests/fuzz/regress/NAME/ with
 * it, so a found crash stays fixed in `make check`.
 *
 * Parsers that read paths get their input as a file in one private scratch
 * folder per process (removed at exit): the trace reader needs a real file
 * (pread, fstat) and a folder around it, and the XML loaders take paths.
 */
#ifndef IW_FUZZ_H
#define IW_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The scratch folder of this process ("/tmp/iwfuzz.XXXXXX"). */
const char *iw_fuzz_dir(void);
/* Write data to <dir>/<name>; return the full path (static buffer), NULL on failure. */
const char *iw_fuzz_file(const char *name, const void *data, size_t n);
/* Copy a fixture (path relative to the source tree) to <dir>/<name>. */
int iw_fuzz_fixture(const char *rel, const char *name);
/* The contract every parser keeps on any input: success, or a negative
 * status that is IW_EINPUT or IW_ERUN, recorded in the error with a message
 * (a user always learns what was wrong).  Returns 0 if `rc` keeps it, 1 (and
 * says why on stderr) if not: the driver aborts on it, so libFuzzer keeps the
 * input, and the regression replay fails. */
struct iw_err;
int iw_fuzz_assert_status(int rc, const struct iw_err *e, const char *what);
/* Parse one synthesis report in memory with the given format and assert the
 * contract and that every value is a number. */
int iw_fuzz_assert_report(const char *format, const uint8_t *data, size_t n);

#define IW_FUZZERS(X)                                                                                  \
	X(trace_kernel) X(trace_line) X(kernelslist) X(config) X(tech) X(calib_spec) X(vivado_util_flat) \
	X(vivado_util_hier) X(vivado_power) X(dc_area) X(dc_power) X(yosys_stat) X(opensta_power) X(sweep_spec)

#define IW_FUZZ_DECL(name) int iw_fuzz_##name(const uint8_t *data, size_t n);
IW_FUZZERS(IW_FUZZ_DECL)

#endif
