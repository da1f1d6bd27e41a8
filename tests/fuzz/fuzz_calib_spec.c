/* tests/fuzz/fuzz_calib_spec.c -- a calibration spec (calib/spec.c: parse,
 * validate against calib/calib.xsd, read the reports it names, fit).  The
 * folder holds the three Yosys multiplier reports and a base technology
 * file under short names, so seeds can name them. */
#include "fuzz.h"

#include "calib.h"

static int ready;

int iw_fuzz_calib_spec(const uint8_t *data, size_t n)
{
	if (!ready) {
		static const char base[] = "<?xml version=\"1.0\"?>\n<tech name=\"base\">\n"
					   "  <coef name=\"area.mult.n2\" value=\"1\" unit=\"um2\" source=\"guess\"/>\n"
					   "  <coef name=\"area.cell.dff\" value=\"4.522\" unit=\"um2\" source=\"lef\"/>\n"
					   "</tech>\n";
		ready = iw_fuzz_fixture("tests/data/reports/yosys_stat_liberty_array_mult_8.txt", "m8.txt") == 0 &&
			iw_fuzz_fixture("tests/data/reports/yosys_stat_liberty_array_mult_16.txt", "m16.txt") == 0 &&
			iw_fuzz_fixture("tests/data/reports/yosys_stat_liberty_array_mult_32.txt", "m32.txt") == 0 &&
			iw_fuzz_file("base.xml", base, sizeof base - 1);
		if (!ready)
			return 0;
	}
	const char *path = iw_fuzz_file("spec.xml", data, n);
	if (!path)
		return 0;
	struct iw_calib c;
	struct iw_err e = {0};
	int rc = iw_calib_load(&c, path, &e);
	if (rc == 0) {
		rc = iw_calib_run(&c, -1, &e);
		iw_calib_free(&c);
	}
	return iw_fuzz_assert_status(rc, &e, "the calibration spec");
}
