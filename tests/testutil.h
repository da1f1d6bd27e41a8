/* tests/testutil.h -- shared helpers for the CUnit suites (one runner). */
#ifndef IW_TESTUTIL_H
#define IW_TESTUTIL_H

#include <CUnit/CUnit.h>
#include <stdio.h>

/* Absolute path of a file in the source tree (IW_SRCDIR is set by the Makefile). */
const char *tu_path(const char *rel);
/* A fresh empty temporary folder for this test; removed at exit. */
const char *tu_tmpdir(void);
/* Run the issuewatt program (IW_BIN) with a shell argument string; capture
 * stdout and stderr into the given buffers (may be NULL); return the exit code. */
int tu_run(const char *args, char *out, size_t outsz, char *err, size_t errsz);
/* The number in column `col` (by the header's names) of data line `line`
 * (1 = the first after the header) of a CSV text whose fields before it hold
 * no quoted commas; NaN if either is absent. */
double tu_csv_value(const char *csv, int line, const char *col);
/* Is s exactly one JSON value (RFC 8259 syntax), nothing after it but blanks? */
int tu_json_valid(const char *s);
/* One full-mask instruction of unit class `unit` writing `dst` and reading
 * `s0`, `s1` (-1 = none), for fixed programs (iw_program_open). */
struct iw_inst;
struct iw_inst tu_op(int unit, int dst, int s0, int s1);
/* FNV-1a over everything a run reports besides cycles and warp-instructions
 * (thread-instructions, kernels, CTAs, every activity total, counter and
 * histogram, the whole time series): equal fingerprints, equal results. */
struct iw_run_result;
unsigned long long tu_result_fingerprint(const struct iw_run_result *r);
/* One run for a pinned result: v100 with the settings `sets` and then
 * `extra` ("key=value", each list NULL-terminated or NULL), a built-in
 * workload at scale 0.01 (seed 1) or a fixture path (a name with a '/', under
 * the source tree), scheme `scheme`, in the cycle-major order if asked.  Fills
 * the cycle and warp-instruction counts and the fingerprint; -1, with a
 * message on standard error, if any of it fails. */
struct tu_pinned {
	unsigned long long cycles, warp_insts, fingerprint;
};
int tu_pinned_run(const char *const *sets, const char *const *extra, const char *workload, const char *scheme,
		  int cycle_major, struct tu_pinned *out);
/* Send standard error to /dev/null (runs whose workloads warn on purpose);
 * returns a descriptor of the real one for findings, or -1.  tu_stderr_back
 * restores it. */
int tu_stderr_off(void);
void tu_stderr_back(int saved);
/* Register a suite with its tests: TU_SUITE("name", {"t1", fn1}, ...) */
struct tu_test {
	const char *name;
	CU_TestFunc fn;
};
void tu_add_suite(const char *name, const struct tu_test *tests, size_t n);
#define TU_SUITE(name, ...)                                                               \
	do {                                                                              \
		static const struct tu_test tu_tests_[] = {__VA_ARGS__};                  \
		tu_add_suite(name, tu_tests_, sizeof tu_tests_ / sizeof tu_tests_[0]);    \
	} while (0)

#endif
