/* core/iw.c -- errors, allocation with fault injection, atomic output, RNG. */
#include "iw.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int iw_vfail(struct iw_err *e, int code, const char *fmt, va_list ap)
{
	if (e && e->code == 0) {
		e->code = code;
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	}
	return -code;
}

int iw_fail(struct iw_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = iw_vfail(e, code, fmt, ap);
	va_end(ap);
	return r;
}

void iw_err_clear(struct iw_err *e)
{
	e->code = 0;
	e->msg[0] = 0;
}

/* Fault injection: a process-wide counter is enough because tests that use it
 * run one simulation at a time; production never arms it.  The count itself
 * is atomic: sweeps and runs allocate on several threads at once. */
static long fail_after = -1;
static atomic_long alloc_count;

int iw_cores(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)(n < 4096 ? n : 4096) : 1;
}

void iw_alloc_fail_after(long n) { fail_after = n; }
long iw_alloc_count(void) { return atomic_load_explicit(&alloc_count, memory_order_relaxed); }

static int alloc_ok(void)
{
	atomic_fetch_add_explicit(&alloc_count, 1, memory_order_relaxed);
	if (fail_after < 0)
		return 1;
	if (fail_after == 0)
		return 0;
	fail_after--;
	return 1;
}

void *iw_malloc(size_t n) { return alloc_ok() ? malloc(n ? n : 1) : NULL; }
void *iw_calloc(size_t n, size_t size) { return alloc_ok() ? calloc(n ? n : 1, size ? size : 1) : NULL; }
void *iw_realloc(void *p, size_t n) { return alloc_ok() ? realloc(p, n ? n : 1) : NULL; }
void iw_free(void *p) { free(p); }

char *iw_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = iw_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* The temporary names being written, for iw_out_unlink_pending (a signal
 * handler: a slot is claimed and its name copied before it reads as taken). */
#define IW_OUT_PENDING 8
static char out_pending[IW_OUT_PENDING][4096];
static atomic_int out_pending_state[IW_OUT_PENDING]; /* 0 free, 1 being filled, 2 taken */

static int out_pending_add(const char *tmp)
{
	if (strlen(tmp) >= sizeof out_pending[0])
		return 0;
	for (int i = 0; i < IW_OUT_PENDING; i++) {
		int free_slot = 0;
		if (atomic_compare_exchange_strong(&out_pending_state[i], &free_slot, 1)) {
			strcpy(out_pending[i], tmp);
			atomic_store(&out_pending_state[i], 2);
			return i + 1;
		}
	}
	return 0;
}

static void out_pending_drop(int slot)
{
	if (slot > 0)
		atomic_store(&out_pending_state[slot - 1], 0);
}

void iw_out_unlink_pending(void)
{
	for (int i = 0; i < IW_OUT_PENDING; i++)
		if (atomic_load(&out_pending_state[i]) == 2)
			unlink(out_pending[i]);
}

int iw_out_open(struct iw_out *o, const char *path, int want_stdio, struct iw_err *e)
{
	memset(o, 0, sizeof *o);
	if (!*path)
		return iw_fail(e, IW_EUSAGE, "expected an output file name, found an empty path");
	o->path = iw_strdup(path);
	size_t n = strlen(path) + 32;
	o->tmp = iw_malloc(n);
	if (!o->path || !o->tmp) {
		iw_out_abort(o);
		return iw_fail(e, IW_ERUN, "%s: out of memory", path);
	}
	snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
	o->slot = out_pending_add(o->tmp);
	if (want_stdio) {
		o->f = fopen(o->tmp, "wb");
		if (!o->f) {
			int err = errno;
			iw_out_abort(o);
			return iw_fail(e, IW_ERUN, "%s: cannot create output: %s", path, strerror(err));
		}
	}
	return 0;
}

int iw_out_commit(struct iw_out *o, struct iw_err *e)
{
	int rc = 0;
	if (o->f) {
		if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) {
			rc = iw_fail(e, IW_ERUN, "%s: write failed: %s", o->path, strerror(errno));
		}
		if (fclose(o->f) != 0 && rc == 0)
			rc = iw_fail(e, IW_ERUN, "%s: write failed: %s", o->path, strerror(errno));
		o->f = NULL;
	}
	if (rc == 0 && rename(o->tmp, o->path) != 0)
		rc = iw_fail(e, IW_ERUN, "%s: cannot rename the finished output into place: %s", o->path,
			     strerror(errno));
	if (rc != 0) {
		iw_out_abort(o);
		return rc;
	}
	out_pending_drop(o->slot); /* (after the rename: a handler's unlink of the old name is harmless) */
	iw_free(o->path);
	iw_free(o->tmp);
	o->path = o->tmp = NULL;
	o->slot = 0;
	return 0;
}

void iw_out_abort(struct iw_out *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	out_pending_drop(o->slot);
	iw_free(o->path);
	iw_free(o->tmp);
	memset(o, 0, sizeof *o);
}

int iw_out_check(const char *path, struct iw_err *e)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return iw_fail(e, IW_ERUN, "%s: cannot create output: it is a folder (expected a file name)", path);
	struct iw_out o;
	int rc = iw_out_open(&o, path, 1, e);
	if (rc == 0)
		iw_out_abort(&o);
	return rc;
}

void iw_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static const char *xml_entity(char c)
{
	switch (c) {
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '&': return "&amp;";
	case '"': return "&quot;";
	default: return NULL;
	}
}

void iw_xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		const char *x = xml_entity(*s);
		if (x)
			fputs(x, f);
		else
			fputc(*s, f);
	}
}

size_t iw_xml_text_buf(char *dst, size_t cap, const char *s)
{
	size_t n = 0, w = 0; /* needed, written (w stops at the first that does not fit) */
	for (; s && *s; s++) {
		const char *x = xml_entity(*s);
		size_t k = x ? strlen(x) : 1;
		if (w == n && n + k < cap) {
			memcpy(dst + w, x ? x : s, k);
			w += k;
		}
		n += k;
	}
	if (cap)
		dst[w] = 0;
	return n;
}

char *iw_num_exact(char *b, size_t n, double v)
{
	for (int p = 15; p <= 17; p++) {
		snprintf(b, n, "%.*g", p, v);
		if (strtod(b, NULL) == v)
			break;
	}
	return b;
}

void iw_json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

void iw_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int iw_read_file(const char *path, char **text, size_t *len, struct iw_err *e)
{
	*text = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return iw_fail(e, IW_EINPUT, "%s: cannot open: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return iw_fail(e, IW_EINPUT, "%s: not a regular file", path);
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = iw_malloc(cap);
	if (!buf) {
		fclose(f);
		return iw_fail(e, IW_ERUN, "%s: out of memory", path);
	}
	size_t r;
	while ((r = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += r;
		if (n == cap - 1) { /* the file grew while we read it */
			char *nb = iw_realloc(buf, cap * 2);
			if (!nb) {
				iw_free(buf);
				fclose(f);
				return iw_fail(e, IW_ERUN, "%s: out of memory", path);
			}
			buf = nb;
			cap *= 2;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		iw_free(buf);
		return iw_fail(e, IW_EINPUT, "%s: read error", path);
	}
	buf[n] = 0;
	*text = buf;
	if (len)
		*len = n;
	return 0;
}

int iw_parse_long(const char *s, long *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int iw_parse_double(const char *s, double *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

char *iw_trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

uint64_t iw_hash64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void iw_rng_seed(struct iw_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		seed += 0x9e3779b97f4a7c15ULL;
		r->s[i] = iw_hash64(seed);
	}
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t iw_rng_next(struct iw_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double iw_rng_uniform(struct iw_rng *r) { return (double)(iw_rng_next(r) >> 11) * 0x1.0p-53; }

uint32_t iw_rng_below(struct iw_rng *r, uint32_t bound)
{
	if (bound <= 1)
		return 0;
	return (uint32_t)(((iw_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}

void iw_assert_fail(const char *expr, const char *file, int line)
{
	fprintf(stderr, "issuewatt: internal error: %s:%d: assertion '%s' failed\n", file, line, expr);
	abort();
}
