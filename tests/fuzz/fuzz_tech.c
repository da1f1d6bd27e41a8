/* tests/fuzz/fuzz_tech.c -- a technology or device file (tech/tech.c:
 * parse, validate against tech/tech.xsd, units, <derive> from a preset). */
#include "fuzz.h"

#include "tech.h"

int iw_fuzz_tech(const uint8_t *data, size_t n)
{
	const char *path = iw_fuzz_file("tech.xml", data, n);
	if (!path)
		return 0;
	struct iw_tech t;
	struct iw_err e = {0};
	int rc = iw_tech_load(&t, path, &e);
	if (rc == 0) {
		double v;
		rc = iw_tech_need(&t, "area.cell.dff", "um2", "fuzz", &v, &e);
		iw_tech_free(&t);
	}
	return iw_fuzz_assert_status(rc, &e, "the technology loader");
}
