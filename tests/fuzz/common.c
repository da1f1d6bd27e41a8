/* tests/fuzz/common.c -- scratch files for the fuzz targets (see fuzz.h). */
#include "fuzz.h"

#include "calib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef IW_SRCDIR
#define IW_SRCDIR "."
#endif

static char dir[64];

static void remove_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", dir);
}

const char *iw_fuzz_dir(void)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/iwfuzz.XXXXXX");
		if (!mkdtemp(dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(remove_dir);
	}
	return dir;
}

const char *iw_fuzz_file(const char *name, const void *data, size_t n)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", iw_fuzz_dir(), name);
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	int bad = n && fwrite(data, 1, n, f) != n;
	bad |= fclose(f) != 0;
	return bad ? NULL : path;
}

int iw_fuzz_fixture(const char *rel, const char *name)
{
	char src[512];
	snprintf(src, sizeof src, "%s/%s", IW_SRCDIR, rel);
	FILE *f = fopen(src, "rb");
	if (!f)
		return -1;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return iw_fuzz_file(name, buf, n) ? 0 : -1;
}

int iw_fuzz_assert_status(int rc, const struct iw_err *e, const char *what)
{
	if (rc >= 0)
		return 0;
	if ((rc == -IW_EINPUT || rc == -IW_ERUN) && e->code == -rc && e->msg[0])
		return 0;
	fprintf(stderr, "fuzz: %s broke the error contract: status %d, error code %d, message '%s'\n", what, rc,
		e->code, e->msg);
	return 1;
}

int iw_fuzz_assert_report(const char *format, const uint8_t *data, size_t n)
{
	struct iw_report r;
	struct iw_err e = {0};
	int rc = iw_report_parse(&r, "fuzz.rpt", (const char *)data, n, format, &e);
	if (rc)
		return iw_fuzz_assert_status(rc, &e, format);
	{
		/* Touch every row as a user of the report would.  NaN is not a
		 * value a parser may return, except as a total the report leaves
		 * incomplete (Yosys: a cell without a liberty area), which
		 * iw_report_get must then refuse as invalid input. */
		double sum = 0;
		int broken = 0;
		for (size_t i = 0; i < r.n; i++) {
			double v = r.rows[i].value;
			if (v != v) {
				struct iw_err ge = {0};
				double got;
				broken |= iw_report_get(&r, r.rows[i].instance, r.rows[i].quantity, &got, NULL, &ge) !=
					  -IW_EINPUT || !ge.msg[0];
				v = 0;
			}
			sum += v + (double)strlen(r.rows[i].instance) + (double)strlen(r.rows[i].quantity);
		}
		double v;
		iw_report_get(&r, NULL, "area", &v, NULL, &e);
		iw_report_free(&r);
		return broken || sum != sum;
	}
	return 0;
}
