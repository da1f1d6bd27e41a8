/*
 * core/iw.h -- the interface of issuewatt's core utilities: the one status and
 * error convention every module uses, checked allocation (with an injectable
 * failure counter for fault-injection tests), and atomic output files.
 *
 * Convention (after SQLite/git): a library function returns 0 on success or a
 * negative status (-IW_EINPUT, ...) and fills a struct iw_err with one message
 * of the form "file:line: what was expected, what was found".  Only main()
 * turns a status into an exit code.
 */
#ifndef IW_CORE_H
#define IW_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IW_VERSION "0.1.0"

/* The highest clock, in MHz, of a configuration (gpu.clock_mhz) and of a
 * technology file (clock_mhz, --set tech.clock_mhz): a run may take its clock
 * from either, so both have one limit.  tech/tech.xsd repeats the number (a
 * schema cannot include it); tests/test_tech.c checks that they agree. */
#define IW_CLOCK_MHZ_MAX 10000

/* Exit codes, also the positive status codes (DESIGN.md "Exit codes"). */
enum iw_status {
	IW_OK = 0,
	IW_ERUN = 1,   /* the run failed (I/O, out of memory, internal) */
	IW_EUSAGE = 2, /* usage error on the command line */
	IW_EINPUT = 3, /* invalid input: file, value, preset */
};

struct iw_err {
	int code;       /* enum iw_status of the first error, 0 if none */
	char msg[1536]; /* "file:line: what was expected, what was found" */
};

/* Record the first error only (later ones are usually consequences); returns -code. */
int iw_fail(struct iw_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int iw_vfail(struct iw_err *e, int code, const char *fmt, va_list ap);
void iw_err_clear(struct iw_err *e);

/* Allocation.  All project allocations go through these so that a test can
 * make the N-th one fail (iw_alloc_fail_after) and check that every caller
 * reports the error and leaks nothing.  They return NULL on failure. */
void *iw_malloc(size_t n);
void *iw_calloc(size_t n, size_t size);
void *iw_realloc(void *p, size_t n);
char *iw_strdup(const char *s);
void iw_free(void *p);
/* Fail every allocation after `n` more succeed; n < 0 disables injection. */
void iw_alloc_fail_after(long n);
long iw_alloc_count(void); /* allocations made so far (for fault-injection loops) */

/* Atomic output: write to "<path>.tmp.<pid>" in the same folder, rename onto
 * <path> in iw_out_commit, unlink in iw_out_abort.  A reader never sees a
 * half-written file and a failed run leaves nothing behind. */
struct iw_out {
	char *path;
	char *tmp;
	FILE *f;  /* NULL when the caller writes the temporary file itself (HDF5) */
	int slot; /* its entry (+1) among the names iw_out_unlink_pending removes; 0: none */
};
int iw_out_open(struct iw_out *o, const char *path, int want_stdio, struct iw_err *e);
int iw_out_commit(struct iw_out *o, struct iw_err *e);
void iw_out_abort(struct iw_out *o);
/* Unlink the temporary name of every output still open.  Async-signal-safe:
 * a program's SIGINT/SIGTERM handler calls it before dying of the signal, so
 * an interrupted write leaves no half-written file either. */
void iw_out_unlink_pending(void);
/* Can <path> be written?  Creates and removes the temporary name iw_out_open
 * uses: a long run checks its output before it starts, not at its end. */
int iw_out_check(const char *path, struct iw_err *e);

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
 * comma, a quote or a line break (workload names such as
 * "synth:warps=4,ctas=160" and trace paths do). */
void iw_csv_field(FILE *f, const char *s);
/* A JSON string (RFC 8259: quotes, backslashes and control characters
 * escaped; UTF-8 passes through), and a JSON number, exact (17 significant
 * digits), or null for NaN and infinity, which JSON lacks. */
void iw_json_str(FILE *f, const char *s);
void iw_json_num(FILE *f, double v);
/* Text for XML (or HTML) content or a double-quoted attribute: <, >, & and "
 * as entities; NULL writes nothing.  iw_xml_text_buf does it into dst (always
 * terminated, cut at a whole character or entity) and returns the length the
 * whole text needs, as snprintf does. */
void iw_xml_text(FILE *f, const char *s);
/* The shortest decimal (15 to 17 significant digits) that reads back as
 * exactly v, into b (n >= 32 bytes); returns b.  Files the program writes for
 * itself to read again (technology files, calibrated coefficients) use it, so
 * a re-read file is the same file, to the last bit. */
char *iw_num_exact(char *b, size_t n, double v);
size_t iw_xml_text_buf(char *dst, size_t cap, const char *s);

/* Read a whole small text file (configuration, technology, specs) into memory. */
int iw_read_file(const char *path, char **text, size_t *len, struct iw_err *e);

/* String helpers used by every parser. */
/* Cores this process may run on (its CPU affinity, as a Slurm job or
 * taskset sets it; else the online ones): the default number of workers. */
int iw_cores(void);
int iw_parse_long(const char *s, long *out);     /* whole string, base 10 or 0x */
int iw_parse_double(const char *s, double *out); /* whole string, finite */
char *iw_trim(char *s);

/* Deterministic random numbers (splitmix64 seeding xoshiro256**): the same
 * seed gives the same stream on every platform and whatever the parallelism. */
struct iw_rng {
	uint64_t s[4];
};
void iw_rng_seed(struct iw_rng *r, uint64_t seed);
uint64_t iw_rng_next(struct iw_rng *r);
double iw_rng_uniform(struct iw_rng *r);                 /* [0,1) */
uint32_t iw_rng_below(struct iw_rng *r, uint32_t bound); /* [0,bound) */
uint64_t iw_hash64(uint64_t x);                          /* splitmix64 finaliser */

#define IW_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define IW_MIN(a, b) ((a) < (b) ? (a) : (b))
#define IW_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Internal-invariant check that keeps the expression, file and line, and is
 * never compiled out (the simulator's correctness depends on it). */
void iw_assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));
#define IW_ASSERT(x) ((x) ? (void)0 : iw_assert_fail(#x, __FILE__, __LINE__))

/* ---- Embedded resources: presets, technology files and schemas are compiled
 * into the program (build/resources.c, generated by core/embed.c) so an
 * installed binary needs no data folder. */
struct iw_resource {
	const char *name; /* source path, e.g. "perf/presets/v100.xml" */
	const char *data; /* NUL-terminated */
	size_t len;
};
extern const struct iw_resource iw_resources[];
extern const size_t iw_resource_count;
const struct iw_resource *iw_resource_find(const char *name);

/* ---- XML: parse with network access off and validate against an embedded
 * XSD.  On error, e->msg is "name:line:col: <libxml2's expected/found text>". */
struct _xmlDoc;
int iw_xml_load(const char *name, const char *text, size_t len, const char *xsd_resource,
		struct _xmlDoc **doc, struct iw_err *e);
/* Load `arg` as a preset (resource "<dir>/<arg>.xml") or else as a file path. */
int iw_xml_load_preset_or_file(const char *arg, const char *dir, const char *xsd_resource,
			       struct _xmlDoc **doc, char **text_out, char **origin_out,
			       struct iw_err *e);

#endif
