/* tests/fuzz/fuzz_sweep_spec.c -- a sweep spec (reports/sweep_spec.c: parse,
 * validate against reports/sweep.xsd, axes, sets, workloads, schemes), then
 * the axis values and configuration of its first points. */
#include "fuzz.h"

#include "reports.h"

int iw_fuzz_sweep_spec(const uint8_t *data, size_t n)
{
	struct iw_sweep s;
	struct iw_err e = {0};
	/* The caller frees a spec whether or not it parsed (as cmd_sweep does). */
	int rc = iw_sweep_parse(&s, "fuzz.xml", (const char *)data, n, &e);
	if (rc != 0) {
		iw_sweep_free(&s);
		return iw_fuzz_assert_status(rc, &e, "the sweep spec");
	}
	double v[64];
	for (size_t c = 0; c < s.nconfigs && c < 16 && s.naxes <= 64; c++) {
		struct iw_config cfg;
		iw_sweep_point(&s, c, v);
		iw_err_clear(&e);
		iw_sweep_config(&s, c, &cfg, &e);
	}
	iw_sweep_free(&s);
	return 0;
}
