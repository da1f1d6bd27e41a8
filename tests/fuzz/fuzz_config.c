/* tests/fuzz/fuzz_config.c -- a GPU configuration file (perf/config.c via
 * core/xml.c: parse, validate against perf/config.xsd, range checks). */
#include "fuzz.h"

#include "perf.h"

#include <stdlib.h>

int iw_fuzz_config(const uint8_t *data, size_t n)
{
	const char *path = iw_fuzz_file("config.xml", data, n);
	if (!path)
		return 0;
	struct iw_config c;
	struct iw_err e = {0};
	char *text = NULL;
	int rc = iw_config_load(&c, path, &text, &e);
	if (rc == 0) {
		rc = iw_config_check(&c, &e);
		char *x = iw_config_to_xml(&c);
		iw_free(x);
	}
	iw_free(text);
	return iw_fuzz_assert_status(rc, &e, "the configuration loader");
}
