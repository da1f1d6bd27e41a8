/* tests/runner.c -- the one CUnit runner.  Every tests/test_NAME.c defines
 * suite_NAME(), listed in the generated suites.h.  The exit code comes from the
 * failure count, because CUnit's basic runner returns 0 even when tests fail.
 * Usage: test_runner [SUITE...]   (no argument: every suite) */
#include "testutil.h"

#include "perf.h"

#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#define IW_SUITE(name) void suite_##name(void);
#include "suites.h"
#undef IW_SUITE

static char tmproot[256];

const char *tu_path(const char *rel)
{
	static char buf[8][1024];
	static int k;
	k = (k + 1) % 8;
	snprintf(buf[k], sizeof buf[k], "%s/%s", IW_SRCDIR, rel);
	return buf[k];
}

const char *tu_tmpdir(void)
{
	static char buf[8][512];
	static int k, seq;
	k = (k + 1) % 8;
	snprintf(buf[k], sizeof buf[k], "%s/t%d", tmproot, ++seq);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", buf[k]);
	if (system(cmd) != 0)
		return NULL;
	return buf[k];
}

static void slurp(const char *path, char *buf, size_t n)
{
	if (!buf || !n)
		return;
	buf[0] = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	size_t r = fread(buf, 1, n - 1, f);
	buf[r] = 0;
	fclose(f);
}

/* A JSON syntax check (RFC 8259): the end of the value at p, or NULL. */
static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
		p++;
	return p;
}
static const char *json_value(const char *p, int depth)
{
	p = json_ws(p);
	if (depth > 16)
		return NULL;
	if (*p == '"') {
		for (p++; *p != '"'; p++) {
			if ((unsigned char)*p < 0x20)
				return NULL;
			if (*p == '\\' && !*++p)
				return NULL;
		}
		return p + 1;
	}
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		p = json_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (*json_ws(p) != '"' || !(p = json_value(p, depth + 1)) || *(p = json_ws(p)) != ':')
					return NULL;
				p++;
			}
			if (!(p = json_value(p, depth + 1)))
				return NULL;
			p = json_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (!strncmp(p, "null", 4) || !strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	char *end;
	strtod(p, &end);
	return end > p && (*p == '-' || (*p >= '0' && *p <= '9')) ? end : NULL;
}

double tu_csv_value(const char *csv, int line, const char *col)
{
	char hdr[4096];
	const char *nl = strchr(csv, '\n');
	if (!nl || (size_t)(nl - csv) >= sizeof hdr)
		return NAN;
	memcpy(hdr, csv, (size_t)(nl - csv));
	hdr[nl - csv] = 0;
	int idx = -1, k = 0;
	char *save = NULL;
	for (char *s = strtok_r(hdr, ",", &save); s; s = strtok_r(NULL, ",", &save), k++)
		if (!strcmp(s, col))
			idx = k;
	const char *p = nl + 1;
	for (int l = 1; l < line && p; l++)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	for (k = 0; p && k < idx; k++)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	return p && idx >= 0 ? strtod(p, NULL) : NAN;
}

int tu_json_valid(const char *s)
{
	const char *end = json_value(s, 0);
	return end && *json_ws(end) == '\0';
}

int tu_run(const char *args, char *out, size_t outsz, char *err, size_t errsz)
{
	const char *bin = getenv("IW_BIN");
	char cmd[8192], o[512], e[512];
	snprintf(o, sizeof o, "%s/stdout", tmproot);
	snprintf(e, sizeof e, "%s/stderr", tmproot);
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>'%s' </dev/null", IW_SRCDIR,
		 bin ? bin : IW_SRCDIR "/build/issuewatt", args, o, e);
	int st = system(cmd);
	slurp(o, out, outsz);
	slurp(e, err, errsz);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* FNV-1a over 64-bit values, byte by byte (the hosts we build on are
 * little-endian; the values are integers, so the hash is exact). */
static uint64_t fnv(uint64_t h, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++) {
			h ^= (v[i] >> (8 * b)) & 0xff;
			h *= 0x100000001b3ULL;
		}
	return h;
}

unsigned long long tu_result_fingerprint(const struct iw_run_result *r)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	uint64_t head[] = {r->thread_insts, r->kernels, r->ctas, r->series.interval, r->series.n};
	h = fnv(h, head, sizeof head / sizeof head[0]);
	h = fnv(h, r->act, IW_A_COUNT);
	/* struct iw_counters holds only uint64_t fields and arrays */
	uint64_t cnt[sizeof r->cnt / sizeof(uint64_t)];
	memcpy(cnt, &r->cnt, sizeof cnt);
	h = fnv(h, cnt, sizeof cnt / sizeof cnt[0]);
	h = fnv(h, r->series.act, r->series.n * IW_A_COUNT);
	h = fnv(h, r->series.insts, r->series.n);
	h = fnv(h, r->series.cycles, r->series.n);
	return h;
}

int tu_pinned_run(const char *const *sets, const char *const *extra, const char *workload, const char *scheme,
		  int cycle_major, struct tu_pinned *out)
{
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	int bad = iw_config_load(&c, "v100", NULL, &e) != 0;
	for (; !bad && sets && *sets; sets++)
		bad = iw_config_set(&c, *sets, &e) != 0;
	for (; !bad && extra && *extra; extra++)
		bad = iw_config_set(&c, *extra, &e) != 0;
	if (bad) {
		fprintf(stderr, "\nset-up: %s\n", e.msg);
		return -1;
	}
	struct iw_workload *w;
	int rc = strchr(workload, '/') ? iw_trace_open(tu_path(workload), &w, &e)
				       : iw_workload_open(workload, 1, 0.01, &w, &e);
	if (rc) {
		fprintf(stderr, "\n%s: %s\n", workload, e.msg);
		return -1;
	}
	struct iw_sim_opts o = {.cfg = &c, .scheme = scheme, .cycle_major = cycle_major};
	struct iw_run_result r;
	rc = iw_simulate(&o, w, &r, &e);
	iw_workload_close(w);
	if (rc) {
		fprintf(stderr, "\n%s on %s: %s\n", scheme, workload, e.msg);
		return -1;
	}
	out->cycles = r.cycles;
	out->warp_insts = r.warp_insts;
	out->fingerprint = tu_result_fingerprint(&r);
	iw_run_result_free(&r);
	return 0;
}

int tu_stderr_off(void)
{
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	if (saved >= 0 && null >= 0)
		dup2(null, 2);
	if (null >= 0)
		close(null);
	return saved;
}

void tu_stderr_back(int saved)
{
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
}

struct iw_inst tu_op(int unit, int dst, int s0, int s1)
{
	struct iw_inst in;
	memset(&in, 0, sizeof in);
	in.mask = 0xffffffffu;
	in.unit = (uint8_t)unit;
	in.maddr = IW_MADDR_NONE;
	if (dst >= 0) {
		in.dst[0] = (uint16_t)dst;
		in.ndst = 1;
	}
	if (s0 >= 0)
		in.src[in.nsrc++] = (uint16_t)s0;
	if (s1 >= 0)
		in.src[in.nsrc++] = (uint16_t)s1;
	return in;
}

struct entry {
	const char *name;
	void (*fn)(void);
};
static const struct entry suites[] = {
#define IW_SUITE(name) {#name, suite_##name},
#include "suites.h"
#undef IW_SUITE
};

void tu_add_suite(const char *name, const struct tu_test *tests, size_t n)
{
	CU_pSuite s = CU_add_suite(name, NULL, NULL);
	for (size_t i = 0; s && i < n; i++)
		CU_add_test(s, tests[i].name, tests[i].fn);
}

int main(int argc, char **argv)
{
	snprintf(tmproot, sizeof tmproot, "/tmp/issuewatt-tests.%ld", (long)getpid());
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", tmproot, tmproot);
	if (system(cmd) != 0)
		return 2;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
		int want = argc < 2;
		for (int a = 1; a < argc; a++)
			want |= strcmp(argv[a], suites[i].name) == 0;
		if (want)
			suites[i].fn();
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures();
	unsigned ran = CU_get_number_of_tests_run();
	unsigned tfail = CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	printf("\n%u passed, %u failed\n", ran - tfail, tfail);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmproot);
	if (failed == 0 && system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", tmproot);
	return failed ? 1 : (ran ? 0 : 1);
}
