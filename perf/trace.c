/*
 * perf/trace.c -- Accel-Sim SASS trace reader (docs/ACCELSIM-TRACE-FORMAT.md):
 * kernelslist.g, kernel-N.traceg and kernel-N.traceg.xz or .gz, tracer versions 0-5
 * (a newer one is refused at its header line), exposed as a struct iw_workload.
 *
 * Design (memory bounded by the resident warps, never by the trace length):
 *  - kernelslist.g is read one line at a time as kernels are asked for.
 *  - A kernel file is used in place; an .xz or .gz file is first decompressed,
 *    streamed through liblzma or zlib, into an unlinked temporary file (so the disk,
 *    not the memory, holds the text, and nothing is left behind on a crash).
 *  - One sequential "structure cursor" per kernel walks the body CTA by CTA
 *    as the engine asks for CTAs: for each warp it records the byte offset,
 *    the line number and the instruction count, and skips the instruction
 *    lines with memchr, checking only that each one looks like one.  This is
 *    what catches fewer/more lines than `insts` and truncated files.
 *  - Each warp then reads its own lines through a small private buffer with
 *    pread (allocated on the warp's first fetch, freed when it ends) and
 *    decodes each line when it is fetched, straight into the engine's
 *    entries; after a control instruction it reads the next line's PC, which
 *    gives IW_F_TAKEN (successor is not the fall-through).  Resident memory
 *    is about (resident warps) x 4.2 KiB.
 *  - Opcode strings are decoded once per distinct string into a small cache
 *    (opcode table row plus register-width rules), so the per-line work is
 *    tokenising numbers.
 *
 * Derived semantics (the tracer omits predicates and upper registers):
 *  - destinations widen to Rd..Rd+k-1: k = 4 for `.128`, 2 for `.64`/`.WIDE`,
 *    loads to ceil(mem_width/4) (so LDG.E.64 gets a pair even unmarked), FP64
 *    arithmetic (DADD/DMUL/DFMA/DMNMX) and conversions whose destination type
 *    is 64-bit get pairs;
 *  - sources widen where the opcode reads pairs: the address of a global,
 *    local or generic access with `.E` (64-bit addressing), the store data
 *    register to ceil(mem_width/4), FP64 operands, the addend of IMAD.WIDE,
 *    and a conversion's 64-bit source type;  tensor-core fragments are not
 *    widened (their layout depends on the shape modifier; only the base
 *    register is a dependence);
 *  - R255 (RZ) is dropped everywhere; widened registers past R254 too;
 *  - a control instruction after a compare (IW_F_SETS_PRED) with no control
 *    instruction in between is IW_F_PRED_BRANCH (predicates are not traced);
 *    convergence set-up (IW_F_CONV_SETUP: BSSY, SSY, PBK, ...) does not
 *    count as either, since it does not branch;
 *  - a generic LD/ST/LDU/ATOM is shared when its first active lane's address
 *    is in the shared window the header's `-shmem base_addr` opens, local in
 *    the `-local mem base_addr` one (see SHM_WINDOW), global otherwise or
 *    when the header gives no base;
 *  - the fall-through PC depends on the encoding: 16-byte instructions from
 *    binary version 70 on; 8-byte ones with a scheduling word every 4 (Maxwell,
 *    Pascal, 50-62) or every 8 (Kepler, 30-37) slots before that.
 */
#include "perf.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define SCAN_BUF (256u * 1024u) /* structure cursor */
#define WARP_BUF 4096u           /* per-warp line buffer (grows for long lines) */
/* Warp line buffers come in slabs of 2 MiB pages where the kernel allows:
 * thousands of warps are resident, and with 4 KiB pages each buffer's first
 * use is a page fault (tens of microseconds on virtual machines). */
#define BUF_STRIDE (WARP_BUF + 64u)         /* a buffer, its NUL, cache-line aligned */
#define SLAB_BYTES ((size_t)4 << 20)        /* two 2 MiB pages */
#define SLAB_BUFS ((uint32_t)(SLAB_BYTES / BUF_STRIDE))
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define MAX_LINE (1u << 20)      /* longer than this is not a trace line */
#define PREFETCH_STRIDE 4u       /* sub-cores of most NVIDIA SMs since Volta (see tr_fetch) */
#define OPC_CACHE 1024u          /* distinct opcode strings cached (power of two) */
#define DLINE_BITS 9u            /* log2 of the decoded lines kept (see struct dline) */
#define MAX_UNKNOWN 256u         /* distinct unknown opcodes named individually */
/* Generic-address windows above the header's base addresses.  Accel-Sim
 * takes [shmem base, local base) as shared and local base + LOCAL_MEM_SIZE_MAX
 * as local; but NVBit puts the local window 32 MiB below the shared one on
 * some GPUs (the sm61 fixtures), which empties Accel-Sim's shared window.  So
 * each window has a size of its own, cut at the other's base: the shared
 * memory of the largest SM the opcode table covers (Hopper, 228 KiB) and
 * CUDA's per-thread local memory limit. */
#define SHM_WINDOW ((uint64_t)256 << 10)
#define LOCAL_WINDOW ((uint64_t)512 << 10)

/* ------------------------------------------------------------ line reader */
/* The file (descriptor and size) is the caller's: a warp's reader is one of
 * thousands the engine visits in turn, so it keeps to what a read touches. */
struct rd {
	char *buf;
	char *home;     /* the slab buffer it was given (NULL: buf is its own) */
	uint64_t base;  /* file offset of buf[0] */
	uint64_t line;  /* number of the line last returned */
	uint32_t cap, len, pos;
};

/* Start reading at file offset `off`, after line number `line_before`. */
static int rd_init(struct rd *r, uint64_t off, uint64_t line_before, uint32_t cap, char *buf)
{
	memset(r, 0, sizeof *r);
	r->base = off;
	r->line = line_before;
	r->cap = cap;
	r->buf = buf ? buf : iw_malloc((size_t)cap + 1);
	return r->buf ? 0 : -1;
}

static void rd_free(struct rd *r)
{
	iw_free(r->buf);
	r->buf = NULL;
}

/* Next line (NUL-terminated, '\n' and '\r' removed) or NULL at end of file.
 * *off receives its file offset.  Returns NULL with *err set on I/O error or
 * an over-long line. */
static char *rd_line_slow(struct rd *r, int fd, uint64_t limit, uint64_t *off, size_t *lenp, int *err);

/* Hand out the line of n characters at s (used bytes consumed, with its
 * newline): its offset, a '\r' before the newline dropped, NUL-terminated. */
static inline char *rd_take(struct rd *r, char *s, size_t n, size_t used, uint64_t *off, size_t *lenp)
{
	if (off)
		*off = r->base + r->pos;
	r->pos += used;
	if (n && s[n - 1] == '\r')
		n--;
	s[n] = 0;
	r->line++;
	if (lenp)
		*lenp = n;
	return s;
}

static inline char *rd_line(struct rd *r, int fd, uint64_t limit, uint64_t *off, size_t *lenp, int *err)
{
	/* the usual case: a whole line in the buffer */
	char *s = r->buf + r->pos;
	size_t avail = r->len - r->pos;
	char *nl = avail ? memchr(s, '\n', avail) : NULL;
	if (!nl)
		return rd_line_slow(r, fd, limit, off, lenp, err);
	*err = 0;
	size_t n = (size_t)(nl - s);
	return rd_take(r, s, n, n + 1, off, lenp);
}

/* The general case: the last line without a newline, refills, growth. */
static char *rd_line_slow(struct rd *r, int fd, uint64_t limit, uint64_t *off, size_t *lenp, int *err)
{
	*err = 0;
	for (;;) {
		char *s = r->buf + r->pos;
		size_t avail = r->len - r->pos;
		char *nl = avail ? memchr(s, '\n', avail) : NULL;
		int at_eof = r->base + r->len >= limit;
		if (nl || (at_eof && avail)) {
			size_t n = nl ? (size_t)(nl - s) : avail;
			return rd_take(r, s, n, n + (nl != NULL), off, lenp);
		}
		if (at_eof)
			return NULL;
		/* refill: keep the partial line, grow if it fills the buffer */
		if (r->pos) {
			memmove(r->buf, s, avail);
			r->base += r->pos;
			r->len = avail;
			r->pos = 0;
		}
		if (r->len == r->cap) {
			if (r->cap >= MAX_LINE) {
				*err = E2BIG;
				return NULL;
			}
			char *nb;
			if (r->buf == r->home) { /* a slab buffer cannot grow: move out */
				if ((nb = iw_malloc((size_t)r->cap * 2 + 1)))
					memcpy(nb, r->buf, r->len);
			} else {
				nb = iw_realloc(r->buf, (size_t)r->cap * 2 + 1);
			}
			if (!nb) {
				*err = ENOMEM;
				return NULL;
			}
			r->buf = nb;
			r->cap *= 2;
		}
		size_t want = r->cap - r->len;
		if (r->base + r->len + want > limit)
			want = (size_t)(limit - r->base - r->len);
		ssize_t got = pread(fd, r->buf + r->len, want, (off_t)(r->base + r->len));
		if (got < 0) {
			if (errno == EINTR)
				continue;
			*err = errno;
			return NULL;
		}
		if (got == 0) { /* file shrank under us */
			limit = r->base + r->len;
			continue;
		}
		r->len += (uint32_t)got;
	}
}

/* ---------------------------------------------------------- opcode cache */
struct opc {
	char tok[56];
	uint8_t len, used;
	uint16_t opcode;   /* table index, or table size + unknown index */
	uint8_t unit, space, lat;
	uint16_t flags;
	uint8_t dst_k;     /* destination width in registers (before the load rule) */
	uint8_t src_pair;  /* bit i: source token i is a 64-bit pair */
	uint8_t all_pairs; /* every source is a pair (FP64 arithmetic) */
	uint8_t store_data;/* the last source is store/atomic data: widen by mem_width */
	uint8_t load_dst;  /* widen the destination by mem_width */
	uint8_t unknown;
};

/* A line's text from its PC to its memory width -- PC, mask, destinations,
 * opcode, sources, width: what is the same every time the PC runs with the
 * same lanes -- and what it decodes to.  A kernel's CTAs and warps run the
 * same few hundred lines, so a line starting with these bytes takes its
 * decoded fields from here instead of parsing them (only its addresses are
 * parsed): the bytes decide, so an entry is never stale, whatever kernel
 * wrote it.  Found by a hash of the line's first 16 bytes (its PC and mask,
 * so a PC that runs with a few masks keeps an entry for each).  Host
 * instructions per warp-instruction on the real matrixmul block repeated
 * 120 times (callgrind): an inorder run 2,922 -> 2,559 keyed by the PC
 * (parsed) with the rest compared, 2,516 -> 2,417 with the PC and mask
 * compared too; reading it alone (trace-info) 1,182 -> 819 -> 736. */
struct dline {
	struct iw_inst tmpl; /* the line's fields as decode_fields derives them (no addresses) */
	uint8_t cmp;         /* bytes of text to compare (0: empty); the line's NUL counted if it ends there */
	uint8_t adv;         /* bytes the text takes, with the blanks after it */
	uint8_t unknown;
	uint16_t width;
	char text[74];
};

/* --------------------------------------------------------------- kernels */
struct kfile {
	char path[1024];   /* as shown in messages */
	int fd;
	uint64_t size;
	int refs;          /* the workload while current + each live CTA */
	struct iw_kernel_info ki;
	uint32_t tracer, binary;
	int lineinfo;
	/* generic-address windows from the header's base addresses (hi 0: none) */
	uint64_t shm_lo, shm_hi, loc_lo, loc_hi;
	uint64_t unk_count[MAX_UNKNOWN + 1];
	struct iw_workload_trace *owner;
};

/* One cache line per warp: a fetch touches nothing else of the reader's
 * but the line's own bytes. */
struct twarp {
	_Alignas(64) struct rd rd; /* before its first fetch: where it starts */
	uint32_t left;        /* instruction lines not yet read */
	uint32_t pend_off;    /* with pend: offset of that line in rd.buf */
	uint8_t listed, after_cmp;
	uint8_t pend;         /* the next line is read (its PC was needed), not decoded */
};
_Static_assert(sizeof(struct twarp) == 64, "a warp's reader state is one cache line");

struct tcta {
	struct tcta *next_free; /* in the workload's pool when released */
	struct kfile *k;
	void *raw;              /* as allocated (the warps are cache-line aligned) */
	uint32_t nwarps;
	uint32_t tb[3];         /* its 'thread block = x,y,z' (version 0-2 lines repeat it) */
	struct twarp w[];
};

static void cta_free(struct tcta *c)
{
	if (c)
		iw_free(c->raw);
}

static const struct iw_workload_ops trace_ops;

struct iw_workload_trace {
	struct iw_workload base;
	char dir[1024];     /* folder of the kernel list */
	char list_path[1024];
	FILE *list;         /* NULL: single kernel file */
	char *list_text;    /* backing store of `list` when made from a folder listing */
	uint64_t list_line;
	int single_done;
	int listed;        /* kernels kernelslist.g has named so far */
	uint64_t ignored;  /* its lines that are neither a memcpy nor a kernel */
	int raw_seen;      /* one of them names an unprocessed kernel-N.trace */
	int warn_list;     /* this process's first reading of the list: warn */
	struct kfile *cur;
	struct rd scan;     /* structure cursor over cur */
	int in_body;
	uint64_t ctas_seen;
	uint8_t *cta_seen;  /* bitmap of CTA ids, to reject duplicates (bounded by the grid) */
	struct opc cache[OPC_CACHE];
	uint32_t ncache;
	struct dline dlines[1u << DLINE_BITS];
	char unk_name[MAX_UNKNOWN][56];
	uint32_t nunk;
	/* unknown opcodes over the whole trace: instructions and kernel files
	 * (folded in as each file is let go), said once its reading is whole */
	uint64_t unk_total[MAX_UNKNOWN + 1];
	uint32_t unk_kernels[MAX_UNKNOWN + 1];
	int kernel_whole;   /* the current kernel's cursor reached its end */
	int tb_open;        /* the header ended at '#BEGIN_TB' (no '#traces format' line) */
	int partial;        /* a kernel or a warp was left before its end */
	int whole;          /* the list was read to its end, every kernel whole */
	char shown[1024];   /* the trace as the user named it */
	/* pools, so that starting a CTA or a warp allocates nothing once the
	 * resident set is warm (sized by the peak number of live warps/CTAs) */
	char **bufs;        /* free slab buffers */
	uint32_t nbufs, capbufs, live_bufs;
	void **slabs;       /* as allocated */
	uint32_t nslabs;
	struct tcta *free_ctas;
};

/* A warp's line buffer back to the pool (a grown one is freed). */
static void warp_buf_put(struct iw_workload_trace *t, struct rd *r)
{
	if (!r->buf)
		return;
	t->live_bufs--;
	if (r->buf != r->home)
		iw_free(r->buf);
	t->bufs[t->nbufs++] = r->home; /* capbufs counts every slab buffer */
	r->buf = r->home = NULL;
}

/* One more slab of line buffers into the pool. */
static int bufs_refill(struct iw_workload_trace *t)
{
	char **nb = iw_realloc(t->bufs, (t->capbufs + SLAB_BUFS) * sizeof *nb);
	if (!nb)
		return -1;
	t->bufs = nb;
	void **ns = iw_realloc(t->slabs, (t->nslabs + 1) * sizeof *ns);
	if (!ns)
		return -1;
	t->slabs = ns;
	/* not zeroed: a buffer is filled by pread before it is read */
	char *raw = iw_malloc(SLAB_BYTES + HUGE_PAGE);
	if (!raw)
		return -1;
	t->slabs[t->nslabs++] = raw;
	t->capbufs += SLAB_BUFS;
	char *base = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
#ifdef MADV_HUGEPAGE
	madvise(base, SLAB_BYTES, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#endif
	for (uint32_t i = SLAB_BUFS; i-- > 0;) /* the lowest address on top */
		t->bufs[t->nbufs++] = base + (size_t)i * BUF_STRIDE;
	return 0;
}

static void pools_free(struct iw_workload_trace *t)
{
	for (uint32_t i = 0; i < t->nslabs; i++)
		iw_free(t->slabs[i]);
	iw_free(t->slabs);
	iw_free(t->bufs);
	t->slabs = NULL;
	t->bufs = NULL;
	t->nbufs = t->capbufs = t->nslabs = 0;
	while (t->free_ctas) {
		struct tcta *c = t->free_ctas;
		t->free_ctas = c->next_free;
		cta_free(c);
	}
}

const char *iw_trace_opcode_name(const struct iw_workload *w, uint16_t opcode)
{
	size_t n = iw_opcode_count();
	if (opcode < n)
		return iw_opcode_get(opcode)->name;
	if (!w || w->ops != &trace_ops)
		return "?";
	const struct iw_workload_trace *t = (const struct iw_workload_trace *)w;
	size_t k = opcode - n;
	if (k < t->nunk)
		return t->unk_name[k];
	return k == MAX_UNKNOWN ? "(other unknown opcodes)" : "?";
}

/* A trace's warnings are given once per process: a run of every scheme, or
 * a sweep, reads the same trace again and again (and on several threads).
 * Traces are told apart by a hash of their path; past the table's size,
 * every reading warns again. */
static pthread_mutex_t warned_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t warned[4096];
static size_t nwarned;

static int first_warning(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (const char *c = path; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	int first = 1;
	pthread_mutex_lock(&warned_mu);
	for (size_t i = 0; i < nwarned && first; i++)
		first = warned[i] != h;
	if (first && nwarned < sizeof warned / sizeof *warned)
		warned[nwarned++] = h;
	pthread_mutex_unlock(&warned_mu);
	return first;
}

/* One line per unknown opcode with its count over the whole trace, the first
 * time in the process the trace has been read whole (any whole reading gives
 * the same counts, so which scheme's reading says it does not matter; a
 * reading stopped early, e.g. at an error, says nothing). */
static void warn_unknown(struct iw_workload_trace *t)
{
	int any = 0;
	for (uint32_t i = 0; i <= MAX_UNKNOWN; i++)
		any |= t->unk_total[i] != 0;
	char key[1100];
	snprintf(key, sizeof key, "unknown\n%s", t->list_path);
	if (!any || !t->whole || t->partial || !first_warning(key))
		return;
	for (uint32_t i = 0; i <= MAX_UNKNOWN; i++)
		if (t->unk_total[i])
			fprintf(stderr,
				"issuewatt: warning: %s: opcode %s is not in the SASS table (%llu instruction%s in "
				"%u kernel%s), simulated as INT\n",
				t->shown, i < t->nunk ? t->unk_name[i] : "(other unknown opcodes)",
				(unsigned long long)t->unk_total[i], t->unk_total[i] == 1 ? "" : "s",
				t->unk_kernels[i], t->unk_kernels[i] == 1 ? "" : "s");
}

static void kfile_unref(struct kfile *k)
{
	if (!k || --k->refs > 0)
		return;
	for (uint32_t i = 0; i <= MAX_UNKNOWN; i++)
		if (k->unk_count[i]) {
			k->owner->unk_total[i] += k->unk_count[i];
			k->owner->unk_kernels[i]++;
		}
	if (k->fd >= 0)
		close(k->fd);
	iw_free(k);
}

/* ------------------------------------------------------------ small parse */
/* Population count without a libgcc call (plain x86-64 has no POPCNT). */
static inline uint32_t popcount32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}

/* Hex digit value + 1 (0: not a hex digit). */
static const uint8_t hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9,
	['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11,
	['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Copy with truncation (names and paths longer than their fields are cut). */
static void scopy(char *dst, size_t n, const char *src)
{
	size_t l = strlen(src);
	if (l >= n)
		l = n - 1;
	memcpy(dst, src, l);
	dst[l] = 0;
}

static const char *show(const char *s)
{
	/* Quote at most 60 characters of the offending text. */
	static _Thread_local char buf[72];
	size_t n = strlen(s);
	if (n <= 60)
		return s;
	memcpy(buf, s, 57);
	memcpy(buf + 57, "...", 4);
	return buf;
}

static int is_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == 0;
}

/* "key = value": returns the value or NULL if the line does not start with key. */
static const char *kv(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != '=')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* A decimal count (spaces after it allowed).  Decimal only, whatever its
 * leading zeros: the tracer writes these fields with %d, so "032" registers
 * are 32 (strtol's base 0 read them as octal 26, and refused "08192"). */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		return -1;
	*out = v;
	return 0;
}

/* "0x<hex>" (spaces after it allowed), as the tracer writes addresses */
static int parse_hex64(const char *s, uint64_t *out)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2]))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s + 2, &end, 16);
	while (*end == ' ' || *end == '\t')
		end++;
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* "(x,y,z)" or "x,y,z" */
static int parse_dim3(const char *s, uint32_t d[3])
{
	const char *p = s;
	while (*p == ' ')
		p++;
	int paren = *p == '(';
	if (paren)
		p++;
	for (int i = 0; i < 3; i++) {
		char *end;
		if (!isdigit((unsigned char)*p))
			return -1;
		unsigned long v = strtoul(p, &end, 10);
		if (v > UINT32_MAX)
			return -1;
		d[i] = (uint32_t)v;
		p = end;
		while (*p == ' ')
			p++;
		if (i < 2) {
			if (*p != ',')
				return -1;
			p++;
			while (*p == ' ')
				p++;
		}
	}
	if (paren) {
		if (*p != ')')
			return -1;
		p++;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return *p ? -1 : 0;
}

/* --------------------------------------------------------- opening files */
/* Compressed kernels (xz, gzip) are decompressed into an unlinked temporary
 * file: the disk, not the memory, holds the text, and nothing is left behind
 * on a crash.  The pieces both decoders share: */
static int text_tmp(const char *path, int *fd, struct iw_err *e)
{
	const char *td = getenv("TMPDIR");
	char tmpl[1100];
	snprintf(tmpl, sizeof tmpl, "%s/issuewatt-trace-XXXXXX", td && *td ? td : "/tmp");
	*fd = mkstemp(tmpl);
	if (*fd < 0)
		return iw_fail(e, IW_ERUN, "%s: cannot create a temporary file in %s to decompress into: %s",
			       path, td && *td ? td : "/tmp", strerror(errno));
	unlink(tmpl); /* gone when closed, whatever happens */
	return 0;
}

static int text_put(int fd, const uint8_t *b, size_t n, const char *path, struct iw_err *e)
{
	for (size_t o = 0; o < n;) {
		ssize_t w = write(fd, b + o, n - o);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return iw_fail(e, IW_ERUN, "%s: cannot write the decompressed text: %s", path, strerror(errno));
		o += (size_t)w;
	}
	return 0;
}

/* The next piece of compressed input: its length (0 at the end), or -1. */
static ssize_t comp_get(int in, uint8_t *b, size_t cap, const char *path, struct iw_err *e)
{
	for (;;) {
		ssize_t n = read(in, b, cap);
		if (n >= 0)
			return n;
		if (errno != EINTR) {
			iw_fail(e, IW_ERUN, "%s: read error: %s", path, strerror(errno));
			return -1;
		}
	}
}

enum { COMP_IN = 1u << 16, TEXT_OUT = 1u << 18 };

/* A decoder's end: its buffers freed; the text file kept on success. */
static int text_done(int rc, int fd, uint64_t total, uint8_t *ib, uint8_t *ob, int *out_fd, uint64_t *size)
{
	iw_free(ib);
	iw_free(ob);
	if (rc) {
		close(fd);
		return rc;
	}
	*out_fd = fd;
	*size = total;
	return 0;
}

static int decompress_xz(int in, const char *path, int *out_fd, uint64_t *size, struct iw_err *e)
{
	int fd;
	if (text_tmp(path, &fd, e))
		return -e->code;
	lzma_stream s = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		close(fd);
		return iw_fail(e, IW_ERUN, "%s: cannot start the xz decoder", path);
	}
	uint8_t *ib = iw_malloc(COMP_IN), *ob = iw_malloc(TEXT_OUT);
	int rc = 0;
	uint64_t total = 0, consumed = 0;
	if (!ib || !ob) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	lzma_action act = LZMA_RUN;
	s.next_out = ob;
	s.avail_out = TEXT_OUT;
	for (;;) {
		if (s.avail_in == 0 && act == LZMA_RUN) {
			ssize_t n = comp_get(in, ib, COMP_IN, path, e);
			if (n < 0) {
				rc = -e->code;
				goto done;
			}
			consumed += (uint64_t)n;
			s.next_in = ib;
			s.avail_in = (size_t)n;
			if (n == 0)
				act = LZMA_FINISH;
		}
		lzma_ret r = lzma_code(&s, act);
		if (s.avail_out == 0 || r == LZMA_STREAM_END) {
			size_t n = TEXT_OUT - s.avail_out;
			if ((rc = text_put(fd, ob, n, path, e)))
				goto done;
			total += n;
			s.next_out = ob;
			s.avail_out = TEXT_OUT;
		}
		if (r == LZMA_STREAM_END)
			break;
		if (r != LZMA_OK) {
			const char *why = r == LZMA_FORMAT_ERROR ? "not in the xz format"
					  : r == LZMA_DATA_ERROR ? "corrupt compressed data"
					  : r == LZMA_BUF_ERROR	 ? "truncated compressed data"
					  : r == LZMA_MEM_ERROR	 ? "out of memory"
								 : "unsupported xz options";
			rc = iw_fail(e, r == LZMA_MEM_ERROR ? IW_ERUN : IW_EINPUT,
				     "%s: expected a valid xz stream, found %s (near compressed byte %llu)", path,
				     why, (unsigned long long)(consumed - s.avail_in));
			goto done;
		}
	}
done:
	lzma_end(&s);
	return text_done(rc, fd, total, ib, ob, out_fd, size);
}

/* The same for a gzip file (one or more members, as `cat a.gz b.gz` makes),
 * through zlib. */
static int decompress_gz(int in, const char *path, int *out_fd, uint64_t *size, struct iw_err *e)
{
	int fd;
	if (text_tmp(path, &fd, e))
		return -e->code;
	z_stream s;
	memset(&s, 0, sizeof s);
	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK) { /* 16: a gzip header and trailer */
		close(fd);
		return iw_fail(e, IW_ERUN, "%s: cannot start the gzip decoder", path);
	}
	uint8_t *ib = iw_malloc(COMP_IN), *ob = iw_malloc(TEXT_OUT);
	int rc = 0, eof = 0, ended = 0;
	uint64_t total = 0, consumed = 0;
	if (!ib || !ob) {
		rc = iw_fail(e, IW_ERUN, "out of memory");
		goto done;
	}
	for (;;) {
		if (s.avail_in == 0 && !eof) {
			ssize_t n = comp_get(in, ib, COMP_IN, path, e);
			if (n < 0) {
				rc = -e->code;
				goto done;
			}
			consumed += (uint64_t)n;
			s.next_in = ib;
			s.avail_in = (uInt)n;
			eof = n == 0;
		}
		if (ended) { /* a member ended: another follows, or the file does */
			if (s.avail_in == 0 && eof)
				break;
			if (s.avail_in == 0)
				continue;
			inflateReset(&s);
			ended = 0;
		}
		s.next_out = ob;
		s.avail_out = TEXT_OUT;
		int r = inflate(&s, Z_NO_FLUSH);
		size_t n = TEXT_OUT - s.avail_out;
		if ((rc = text_put(fd, ob, n, path, e)))
			goto done;
		total += n;
		if (r == Z_STREAM_END) {
			ended = 1;
			continue;
		}
		/* no progress possible: the input ended inside a member */
		int truncated = r == Z_BUF_ERROR && eof && s.avail_in == 0;
		if ((r != Z_OK && r != Z_BUF_ERROR) || truncated) {
			const char *why = truncated ? "truncated compressed data"
					  : r == Z_DATA_ERROR ? "corrupt compressed data"
					  : r == Z_MEM_ERROR ? "out of memory"
							     : "an unusable stream";
			rc = iw_fail(e, r == Z_MEM_ERROR ? IW_ERUN : IW_EINPUT,
				     "%s: expected a valid gzip stream, found %s (near compressed byte %llu)", path, why,
				     (unsigned long long)(consumed - s.avail_in));
			goto done;
		}
	}
done:
	inflateEnd(&s);
	return text_done(rc, fd, total, ib, ob, out_fd, size);
}

/* Open a kernel file (plain, xz or gzip, by content) and read its header. */
static int kfile_open(struct iw_workload_trace *t, const char *path, const char *shown, struct kfile **out,
		      struct iw_err *e)
{
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return iw_fail(e, IW_EINPUT, "%s: expected a readable kernel trace, found: %s", shown,
			       strerror(errno));
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return iw_fail(e, IW_EINPUT, "%s: expected a kernel trace file, found something else", shown);
	}
	unsigned char magic[6] = {0};
	ssize_t got = pread(fd, magic, sizeof magic, 0);
	uint64_t size = (uint64_t)st.st_size;
	if (got == 6 && memcmp(magic, "\xfd" "7zXZ\0", 6) == 0) {
		int dfd = -1;
		int rc = decompress_xz(fd, shown, &dfd, &size, e);
		close(fd);
		if (rc)
			return rc;
		fd = dfd;
	} else if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		int dfd = -1;
		int rc = decompress_gz(fd, shown, &dfd, &size, e);
		close(fd);
		if (rc)
			return rc;
		fd = dfd;
	}
	struct kfile *k = iw_calloc(1, sizeof *k);
	if (!k) {
		close(fd);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	k->fd = fd;
	k->size = size;
	k->refs = 1;
	k->owner = t;
	snprintf(k->path, sizeof k->path, "%s", shown);
	*out = k;
	return 0;
}

static int header_fail(struct kfile *k, uint64_t line, struct iw_err *e, const char *what, const char *found)
{
	return iw_fail(e, IW_EINPUT, "%s:%llu: expected %s, found '%s'", k->path, (unsigned long long)line,
		       what, show(found));
}

/* Header: '-key = value' lines until the first '#' line. */
static int read_header(struct iw_workload_trace *t, struct kfile *k, struct iw_err *e)
{
	struct rd *r = &t->scan;
	struct iw_kernel_info *ki = &k->ki;
	int have_grid = 0, have_block = 0, have_version = 0;
	uint64_t shm_base = 0, loc_base = 0;
	char *s;
	int err;
	for (;;) {
		s = rd_line(r, k->fd, k->size, NULL, NULL, &err);
		if (!s) {
			if (err)
				return iw_fail(e, err == E2BIG ? IW_EINPUT : IW_ERUN, "%s:%llu: %s", k->path,
					       (unsigned long long)r->line + 1,
					       err == E2BIG ? "expected a header line, found a line over 1 MiB"
							    : strerror(err));
			return iw_fail(e, IW_EINPUT,
				       "%s:%llu: expected the kernel header ('-kernel name = ...' ... "
				       "'#traces format'), found the end of the file",
				       k->path, (unsigned long long)r->line + 1);
		}
		if (is_blank(s))
			continue;
		if (s[0] == '#') {
			/* The first '#' line ends the header.  A header without
			 * its '#traces format' line (an edited or hand-written
			 * trace) ends at the first block, which is not lost. */
			t->tb_open = strcmp(iw_trim(s), "#BEGIN_TB") == 0;
			break;
		}
		if (s[0] != '-')
			return header_fail(k, r->line, e, "a header line '-key = value' or '#traces format'", s);
		const char *v;
		uint64_t u;
		if ((v = kv(s, "-kernel name"))) {
			snprintf(ki->name, sizeof ki->name, "%s", v);
		} else if ((v = kv(s, "-grid dim"))) {
			if (parse_dim3(v, ki->grid) || !ki->grid[0] || !ki->grid[1] || !ki->grid[2])
				return header_fail(k, r->line, e, "grid dim = (x,y,z) with positive integers", s);
			have_grid = 1;
		} else if ((v = kv(s, "-block dim"))) {
			if (parse_dim3(v, ki->block) || !ki->block[0] || !ki->block[1] || !ki->block[2])
				return header_fail(k, r->line, e, "block dim = (x,y,z) with positive integers", s);
			have_block = 1;
			ki->line_block = (uint32_t)IW_MIN(r->line, UINT32_MAX);
		} else if ((v = kv(s, "-shmem"))) {
			if (parse_u64(v, &u) || u > UINT32_MAX)
				return header_fail(k, r->line, e, "shmem = <bytes>", s);
			ki->shmem = (uint32_t)u;
			ki->line_shmem = (uint32_t)IW_MIN(r->line, UINT32_MAX);
		} else if ((v = kv(s, "-nregs"))) {
			if (parse_u64(v, &u) || u > 255)
				return header_fail(k, r->line, e, "nregs = <0..255>", s);
			ki->nregs = (uint32_t)u;
			ki->line_nregs = (uint32_t)IW_MIN(r->line, UINT32_MAX);
		} else if ((v = kv(s, "-binary version"))) {
			if (parse_u64(v, &u) || u > 1000)
				return header_fail(k, r->line, e, "binary version = <integer, e.g. 70>", s);
			ki->binary_version = (uint32_t)u;
		} else if ((v = kv(s, "-accelsim tracer version"))) {
			/* "1.2"-style versions predate the numbered ones: prefix format. */
			char *end;
			double d = strtod(v, &end);
			while (*end == ' ')
				end++;
			if (*end || d < 0 || d > 1000)
				return header_fail(k, r->line, e, "accelsim tracer version = <number>", s);
			/* A newer tracer changes its lines in ways the format doc does
			 * not describe (whatever it adds after the immediate would be
			 * refused at the first line, or worse, misread): refused here,
			 * at the line that says so, rather than promised as version 5. */
			if (d >= 6)
				return header_fail(k, r->line, e,
						   "accelsim tracer version 0 to 5 (the versions "
						   "docs/ACCELSIM-TRACE-FORMAT.md describes)", s);
			ki->tracer_version = (uint32_t)d;
			have_version = 1;
		} else if ((v = kv(s, "-enable lineinfo"))) {
			if (parse_u64(v, &u) || u > 1)
				return header_fail(k, r->line, e, "enable lineinfo = 0 or 1", s);
			k->lineinfo = (int)u;
		} else if ((v = kv(s, "-shmem base_addr"))) {
			if (parse_hex64(v, &shm_base))
				return header_fail(k, r->line, e, "shmem base_addr = 0x<hex address>", s);
		} else if ((v = kv(s, "-local mem base_addr"))) {
			if (parse_hex64(v, &loc_base))
				return header_fail(k, r->line, e, "local mem base_addr = 0x<hex address>", s);
		}
		/* other keys (kernel id, stream, nvbit version, and whatever later
		 * tracers add) are informative */
	}
	/* A base of 0 (or none) is no window, as in Accel-Sim: generic accesses
	 * then stay global. */
	if (shm_base) {
		k->shm_lo = shm_base;
		k->shm_hi = shm_base + IW_MIN(SHM_WINDOW, UINT64_MAX - shm_base);
		if (loc_base > shm_base && loc_base < k->shm_hi)
			k->shm_hi = loc_base;
	}
	if (loc_base) {
		k->loc_lo = loc_base;
		k->loc_hi = loc_base + IW_MIN(LOCAL_WINDOW, UINT64_MAX - loc_base);
		if (shm_base > loc_base && shm_base < k->loc_hi)
			k->loc_hi = shm_base;
	}
	if (!have_grid || !have_block)
		return iw_fail(e, IW_EINPUT, "%s:%llu: expected '-%s dim = (x,y,z)' in the header, found '%s'",
			       k->path, (unsigned long long)r->line, have_grid ? "block" : "grid", show(s));
	if (!have_version)
		ki->tracer_version = 0;
	k->tracer = ki->tracer_version;
	k->binary = ki->binary_version;
	ki->ctas = (uint64_t)ki->grid[0] * ki->grid[1] * ki->grid[2];
	uint64_t threads = (uint64_t)ki->block[0] * ki->block[1] * ki->block[2];
	if (threads > 65536 || ki->ctas > (1ull << 40))
		return iw_fail(e, IW_EINPUT, "%s: expected a block of at most 65536 threads and a sane grid, found "
			       "block %u x %u x %u, grid %u x %u x %u", k->path, ki->block[0], ki->block[1],
			       ki->block[2], ki->grid[0], ki->grid[1], ki->grid[2]);
	ki->warps_per_cta = (uint32_t)((threads + 31) / 32);
	if (!ki->name[0])
		scopy(ki->name, sizeof ki->name, k->path);
	scopy(ki->src, sizeof ki->src, k->path);
	return 0;
}

/* ---------------------------------------------------------- the workload */
static void set_kernel_path(char *dst, size_t n, const char *dir, const char *name)
{
	if (name[0] == '/' || !dir[0])
		snprintf(dst, n, "%s", name);
	else /* (a dir of "/", or "a//" from a list named "a//kernelslist.g") */
		snprintf(dst, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void end_kernel(struct iw_workload_trace *t)
{
	if (t->cur) {
		t->partial |= !t->kernel_whole;
		rd_free(&t->scan);
		kfile_unref(t->cur);
		t->cur = NULL;
	}
	iw_free(t->cta_seen);
	t->cta_seen = NULL;
}

static int start_kernel(struct iw_workload_trace *t, const char *path, const char *shown,
			struct iw_kernel_info *ki, struct iw_err *e)
{
	struct kfile *k;
	int rc = kfile_open(t, path, shown, &k, e);
	if (rc)
		return rc;
	t->cur = k;
	t->kernel_whole = 0;
	t->tb_open = 0;
	if (rd_init(&t->scan, 0, 0, SCAN_BUF, NULL))
		return iw_fail(e, IW_ERUN, "out of memory");
	if ((rc = read_header(t, k, e)))
		return rc;
	t->ctas_seen = 0;
	t->cta_seen = iw_calloc((size_t)(k->ki.ctas + 7) / 8, 1);
	if (!t->cta_seen)
		return iw_fail(e, IW_ERUN, "out of memory");
	*ki = k->ki;
	return 1;
}

/* A list's lines that are neither a memcpy nor a kernel are ignored, as
 * Accel-Sim does, with a warning for the first few; the rest are counted in
 * one line at the list's end (a list of one's own may carry notes). */
#define LIST_WARNINGS 3

/* A kernel trace's header or body line: a kernel file named where a list
 * was expected (a raw kernel-N.trace, the tracer's output before Accel-Sim's
 * post-processing, or a .traceg renamed) would otherwise be thousands of
 * ignored entries before "no kernel". */
static int looks_like_kernel_trace(const char *s)
{
	return (s[0] == '-' && strstr(s, " = ")) || strncmp(s, "#BEGIN_TB", 9) == 0 ||
	       strncmp(s, "#traces format", 14) == 0;
}

static int tr_next_kernel(struct iw_workload *w, struct iw_kernel_info *ki, struct iw_err *e)
{
	struct iw_workload_trace *t = (struct iw_workload_trace *)w;
	end_kernel(t);
	if (!t->list) {
		if (t->single_done) {
			t->whole = 1;
			return 0;
		}
		t->single_done = 1;
		return start_kernel(t, t->list_path, t->list_path, ki, e);
	}
	char line[2048];
	while (fgets(line, sizeof line, t->list)) {
		t->list_line++;
		size_t n = strlen(line);
		if (n == sizeof line - 1 && line[n - 1] != '\n')
			return iw_fail(e, IW_EINPUT, "%s:%llu: expected a kernel-list entry, found a line over %zu bytes",
				       t->list_path, (unsigned long long)t->list_line, sizeof line - 2);
		char *s = iw_trim(line);
		if (!*s)
			continue;
		if (strncmp(s, "Memcpy", 6) == 0) {
			/* MemcpyHtoD,0x<addr>,<bytes>: no kernel work; check its shape only */
			char *c1 = strchr(s, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
			if (!c1 || !c2 || strchr(c2 + 1, ','))
				fprintf(stderr, "issuewatt: warning: %s:%llu: expected 'MemcpyHtoD,0x<address>,<bytes>', "
					"found '%s'; ignored\n", t->list_path, (unsigned long long)t->list_line, show(s));
			continue;
		}
		if (!strstr(s, ".traceg")) {
			if (!t->listed && !t->ignored && looks_like_kernel_trace(s))
				return iw_fail(e, IW_EINPUT,
					       "%s:%llu: expected a kernel list (MemcpyHtoD,... and kernel-N.traceg "
					       "lines), found a kernel trace's line '%s'%s",
					       t->list_path, (unsigned long long)t->list_line, show(s),
					       ends_with(t->list_path, ".trace")
						       ? " (a raw kernel-N.trace: Accel-Sim's post-traces-processing "
							 "turns it into the kernel-N.traceg this reader takes)"
						       : " (give a kernel trace a .traceg[.xz|.gz] name)");
			int raw = ends_with(s, ".trace");
			t->raw_seen |= raw;
			if (t->warn_list && ++t->ignored <= LIST_WARNINGS)
				fprintf(stderr, "issuewatt: warning: %s:%llu: expected a memcpy or a kernel-N.traceg entry, "
					"found '%s'; ignored%s\n", t->list_path, (unsigned long long)t->list_line, show(s),
					raw ? " (an unprocessed trace: Accel-Sim's post-traces-processing writes "
					      "kernel-N.traceg from it)" : "");
			continue;
		}
		char path[2200];
		set_kernel_path(path, sizeof path, t->dir, s);
		if (access(path, R_OK) != 0) {
			/* traces are often compressed after the list was written */
			char alt[2300], alt2[2300];
			snprintf(alt, sizeof alt, "%s.xz", path);
			snprintf(alt2, sizeof alt2, "%s.gz", path);
			int plain = !ends_with(path, ".xz") && !ends_with(path, ".gz");
			if (plain && access(alt, R_OK) == 0)
				scopy(path, sizeof path, alt);
			else if (plain && access(alt2, R_OK) == 0)
				scopy(path, sizeof path, alt2);
			else
				return iw_fail(e, IW_EINPUT, "%s:%llu: expected a readable kernel trace '%s', found: %s",
					       t->list_path, (unsigned long long)t->list_line, show(s), strerror(errno));
		}
		t->listed++;
		return start_kernel(t, path, path, ki, e);
	}
	if (ferror(t->list))
		return iw_fail(e, IW_ERUN, "%s: read error", t->list_path);
	/* An empty (or truncated to nothing) list would run nothing and report
	 * zeros as if they were results. */
	if (!t->listed && !t->list_line) /* (no line to point at) */
		return iw_fail(e, IW_EINPUT, "%s: expected at least one kernel-N.traceg entry, found an empty file",
			       t->list_path);
	if (!t->listed)
		return iw_fail(e, IW_EINPUT, "%s:%llu: expected at least one kernel-N.traceg entry, found none%s",
			       t->list_path, (unsigned long long)t->list_line,
			       t->raw_seen ? " (it names unprocessed kernel-N.trace files: run Accel-Sim's "
					     "post-traces-processing on the list first)" : "");
	if (t->ignored > LIST_WARNINGS) {
		fprintf(stderr, "issuewatt: warning: %s: %llu more lines ignored (neither a memcpy nor a "
			"kernel-N.traceg entry)\n", t->list_path, (unsigned long long)(t->ignored - LIST_WARNINGS));
		t->ignored = LIST_WARNINGS; /* (said once, should the end be asked for again) */
	}
	t->whole = 1;
	return 0;
}

static int scan_fail(struct iw_workload_trace *t, struct iw_err *e, const char *what, const char *found)
{
	return iw_fail(e, IW_EINPUT, "%s:%llu: expected %s, found '%s'", t->cur->path,
		       (unsigned long long)t->scan.line, what, show(found));
}

static int scan_eof(struct iw_workload_trace *t, int err, struct iw_err *e, const char *what)
{
	if (err == E2BIG)
		return iw_fail(e, IW_EINPUT, "%s:%llu: expected %s, found a line over 1 MiB", t->cur->path,
			       (unsigned long long)t->scan.line + 1, what);
	if (err)
		return iw_fail(e, IW_ERUN, "%s: %s", t->cur->path, strerror(err));
	return iw_fail(e, IW_EINPUT, "%s:%llu: expected %s, found the end of the file (truncated trace?)",
		       t->cur->path, (unsigned long long)t->scan.line + 1, what);
}

/* Next non-blank line of the structure cursor. */
static char *scan_line(struct iw_workload_trace *t, uint64_t *off, int *err)
{
	char *s;
	while ((s = rd_line(&t->scan, t->cur->fd, t->cur->size, off, NULL, err)) && is_blank(s))
		;
	return s;
}

/* The structure cursor's usual instruction line: complete in its buffer and
 * starting (after blanks) with a hex digit.  Consumed as rd_line would
 * (position, line count; nobody reads the cursor's consumed bytes, so they
 * are not rewritten) and 1; else 0 with nothing consumed, for the general
 * path (blank lines, refills, errors). */
static inline int scan_skip_inst(struct rd *r)
{
	char *s = r->buf + r->pos;
	size_t avail = r->len - r->pos;
	char *nl = avail ? memchr(s, '\n', avail) : NULL;
	if (!nl)
		return 0;
	const char *q = s;
	while (*q == ' ' || *q == '\t')
		q++;
	if (!hexval[(unsigned char)*q]) /* '\n', '\r' and NUL are not hex digits: q < nl */
		return 0;
	r->pos += (uint32_t)(nl - s) + 1;
	r->line++;
	return 1;
}

static int tr_next_cta(struct iw_workload *w, struct iw_cta *cta, struct iw_err *e)
{
	struct iw_workload_trace *t = (struct iw_workload_trace *)w;
	struct kfile *k = t->cur;
	if (!k)
		return 0;
	const struct iw_kernel_info *ki = &k->ki;
	int err;
	char *s = NULL;
	if (t->tb_open) { /* read_header took this block's '#BEGIN_TB' */
		t->tb_open = 0;
		goto begun;
	}
	s = scan_line(t, NULL, &err);
	if (!s) {
		if (err)
			return scan_eof(t, err, e, "'#BEGIN_TB'");
		if (t->ctas_seen != ki->ctas)
			return iw_fail(e, IW_EINPUT,
				       "%s:%llu: expected %llu thread blocks (grid %u,%u,%u), found %llu before the "
				       "end of the file (truncated trace?)",
				       k->path, (unsigned long long)t->scan.line, (unsigned long long)ki->ctas,
				       ki->grid[0], ki->grid[1], ki->grid[2], (unsigned long long)t->ctas_seen);
		t->kernel_whole = 1;
		return 0;
	}
	if (strcmp(iw_trim(s), "#BEGIN_TB") != 0)
		return scan_fail(t, e, "'#BEGIN_TB'", s);
begun:
	if (!(s = scan_line(t, NULL, &err)))
		return scan_eof(t, err, e, "'thread block = x,y,z'");
	const char *v = kv(s, "thread block");
	uint32_t tb[3];
	if (!v || parse_dim3(v, tb))
		return scan_fail(t, e, "'thread block = x,y,z'", s);
	if (tb[0] >= ki->grid[0] || tb[1] >= ki->grid[1] || tb[2] >= ki->grid[2])
		return scan_fail(t, e, "a thread block inside the grid", s);
	uint64_t id = tb[0] + (uint64_t)ki->grid[0] * (tb[1] + (uint64_t)ki->grid[1] * tb[2]);
	if (t->cta_seen[id / 8] & (1u << (id % 8)))
		return scan_fail(t, e, "each thread block once", s);
	t->cta_seen[id / 8] |= (uint8_t)(1u << (id % 8));
	size_t csize = sizeof(struct tcta) + ki->warps_per_cta * sizeof(struct twarp);
	struct tcta *c = t->free_ctas;
	if (c && c->nwarps == ki->warps_per_cta) {
		t->free_ctas = c->next_free;
		void *raw = c->raw;
		memset(c, 0, csize);
		c->raw = raw;
	} else {
		void *raw = iw_calloc(1, csize + 63);
		if (!raw)
			return iw_fail(e, IW_ERUN, "out of memory");
		c = (struct tcta *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
		c->raw = raw;
	}
	c->k = k;
	memcpy(c->tb, tb, sizeof c->tb);
	c->nwarps = ki->warps_per_cta;
	for (;;) {
		if (!(s = scan_line(t, NULL, &err))) {
			cta_free(c);
			return scan_eof(t, err, e, "'warp = <n>' or '#END_TB'");
		}
		if (strcmp(iw_trim(s), "#END_TB") == 0)
			break;
		uint64_t j, n;
		if (!(v = kv(s, "warp")) || parse_u64(v, &j)) {
			cta_free(c);
			return scan_fail(t, e, "'warp = <n>' or '#END_TB'", s);
		}
		if (j >= c->nwarps || c->w[j].listed) {
			const char *what = j >= c->nwarps ? "a warp number below the block's warp count"
							  : "each warp once per thread block";
			cta_free(c);
			return scan_fail(t, e, what, s);
		}
		if (!(s = scan_line(t, NULL, &err))) {
			cta_free(c);
			return scan_eof(t, err, e, "'insts = <n>'");
		}
		if (!(v = kv(s, "insts")) || parse_u64(v, &n) || n > UINT32_MAX) {
			cta_free(c);
			return scan_fail(t, e, "'insts = <n>'", s);
		}
		struct twarp *tw = &c->w[j];
		tw->listed = 1;
		tw->left = (uint32_t)n;
		/* where its reader starts (its buffer comes at its first fetch) */
		tw->rd.line = t->scan.line;
		tw->rd.base = t->scan.base + t->scan.pos;
		for (uint64_t i = 0; i < n; i++) {
			if (scan_skip_inst(&t->scan))
				continue;
			if (!(s = scan_line(t, NULL, &err))) {
				char what[96];
				snprintf(what, sizeof what, "instruction line %llu of %llu of warp %llu",
					 (unsigned long long)i + 1, (unsigned long long)n, (unsigned long long)j);
				cta_free(c);
				return scan_eof(t, err, e, what);
			}
			while (*s == ' ' || *s == '\t')
				s++;
			if (!hexval[(unsigned char)*s]) { /* isxdigit without the locale lookup */
				char what[96];
				snprintf(what, sizeof what, "instruction line %llu of %llu of warp %llu",
					 (unsigned long long)i + 1, (unsigned long long)n, (unsigned long long)j);
				cta_free(c);
				return scan_fail(t, e, what, s);
			}
		}
	}
	t->ctas_seen++;
	k->refs++;
	cta->id = id;
	cta->warps = c->nwarps;
	cta->priv = c;
	return 1;
}

static void tr_release_cta(struct iw_workload *w, struct iw_cta *cta)
{
	struct iw_workload_trace *t = (struct iw_workload_trace *)w;
	struct tcta *c = cta->priv;
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nwarps; i++) {
		warp_buf_put(t, &c->w[i].rd);
		t->partial |= c->w[i].left || c->w[i].pend;
	}
	kfile_unref(c->k);
	c->k = NULL;
	c->next_free = t->free_ctas; /* kept for the next CTA of the same shape */
	t->free_ctas = c;
	cta->priv = NULL;
}

static void tr_close(struct iw_workload *w)
{
	struct iw_workload_trace *t = (struct iw_workload_trace *)w;
	end_kernel(t);
	warn_unknown(t);
	pools_free(t);
	if (t->list)
		fclose(t->list);
	iw_free(t->list_text);
	iw_free(t);
}

/* ----------------------------------------------------- instruction lines */
/* Same bytes, short strings: a loop the compiler keeps inline (a memcmp call
 * costs more than the usual 3-8 bytes of an opcode). */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* tok[0..len) with its FNV-1a hash h (computed by the caller while scanning). */
static struct opc *opc_lookup(struct iw_workload_trace *t, const char *tok, size_t len, uint64_t h,
			      struct opc *tmp)
{
	uint32_t slot = (uint32_t)h & (OPC_CACHE - 1);
	struct opc *o = NULL;
	if (len < sizeof tmp->tok) {
		for (uint32_t probe = 0; probe < OPC_CACHE; probe++) {
			struct opc *c = &t->cache[(slot + probe) & (OPC_CACHE - 1)];
			if (!c->used) {
				if (t->ncache < OPC_CACHE / 2)
					o = c;
				break;
			}
			if (c->len == len && same_bytes(c->tok, tok, len))
				return c;
		}
	}
	if (!o)
		o = tmp; /* cache full or token too long: decode every time */
	memset(o, 0, sizeof *o);
	/* base name and modifiers */
	size_t blen = 0;
	while (blen < len && tok[blen] != '.')
		blen++;
	int idx = iw_opcode_find(tok, blen);
	if (idx >= 0) {
		const struct iw_opcode *r = iw_opcode_get((size_t)idx);
		o->opcode = (uint16_t)idx;
		o->unit = r->unit;
		o->space = r->space;
		o->lat = r->lat;
		o->flags = r->flags;
	} else {
		uint32_t k;
		for (k = 0; k < t->nunk; k++)
			if (strlen(t->unk_name[k]) == blen && memcmp(t->unk_name[k], tok, blen) == 0)
				break;
		if (k == t->nunk && t->nunk < MAX_UNKNOWN) {
			size_t n = IW_MIN(blen, sizeof t->unk_name[0] - 1);
			memcpy(t->unk_name[k], tok, n);
			t->unk_name[k][n] = 0;
			t->nunk++;
		}
		o->opcode = (uint16_t)(iw_opcode_count() + IW_MIN(k, MAX_UNKNOWN));
		o->unit = IW_UNIT_INT;
		o->unknown = 1;
	}
	int w64 = 0, w128 = 0, wide = 0, ext = 0;
	int type_n = 0, type64[2] = {0, 0};
	for (size_t p = blen; p < len;) {
		size_t q = p + 1;
		while (q < len && tok[q] != '.')
			q++;
		const char *m = tok + p + 1;
		size_t ml = q - p - 1;
#define MOD(str) (ml == sizeof(str) - 1 && memcmp(m, str, ml) == 0)
		if (MOD("64"))
			w64 = 1;
		else if (MOD("128"))
			w128 = 1;
		else if (MOD("WIDE"))
			wide = 1;
		else if (MOD("E"))
			ext = 1;
		if (ml >= 2 && ml <= 3 && (m[0] == 'F' || m[0] == 'S' || m[0] == 'U') && isdigit((unsigned char)m[1])) {
			if (type_n < 2)
				type64[type_n] = ml == 3 && m[1] == '6' && m[2] == '4';
			type_n++;
		}
#undef MOD
		p = q;
	}
	const char *b = tok;
	o->dst_k = (uint8_t)(w128 ? 4 : (w64 || wide) ? 2 : 1);
	if ((blen == 4 && (!memcmp(b, "DADD", 4) || !memcmp(b, "DMUL", 4) || !memcmp(b, "DFMA", 4))) ||
	    (blen == 5 && !memcmp(b, "DMNMX", 5))) {
		o->dst_k = 2;
		o->all_pairs = 1;
	} else if ((blen == 5 && !memcmp(b, "DSETP", 5)) || (blen == 4 && !memcmp(b, "DSET", 4))) {
		o->all_pairs = 1;
	} else if (blen == 3 && (!memcmp(b, "F2F", 3) || !memcmp(b, "F2I", 3) || !memcmp(b, "I2F", 3) ||
				 !memcmp(b, "I2I", 3))) {
		/* SASS writes the destination type first, then the source type */
		o->dst_k = type64[0] ? 2 : 1;
		if (type_n >= 2 && type64[1])
			o->src_pair |= 1;
	} else if (blen == 4 && !memcmp(b, "FRND", 4) && type64[0]) {
		o->dst_k = 2;
		o->src_pair |= 1;
	} else if (wide && o->unit != IW_UNIT_MEM) {
		o->src_pair |= 1u << 2; /* IMAD.WIDE d, a, b, c: c is 64-bit */
	}
	if (o->unit == IW_UNIT_MEM) {
		if (ext && (o->space == IW_SPACE_GLOBAL || o->space == IW_SPACE_LOCAL))
			o->src_pair |= 1; /* 64-bit address register pair */
		if (o->flags & (IW_F_STORE | IW_F_ATOMIC))
			o->store_data = 1;
		if (o->flags & IW_F_LOAD)
			o->load_dst = 1;
	}
	if (o != tmp) {
		memcpy(o->tok, tok, len);
		o->len = (uint8_t)len;
		o->used = 1;
		t->ncache++;
	}
	return o;
}


/* Token parsers: advance *pp past the token and following blanks; 0 ok (on
 * an error *pp still points at the token, for the message).  Fields are
 * almost always separated by one space, and counts are one digit: those
 * cases are tested first, the general loops handle everything else. */
static inline void skip_ws(const char **pp)
{
	const char *p = *pp;
	if (p[0] == ' ' && p[1] > ' ') { /* one space, then a token (bytes above 0x7f take the loop) */
		*pp = p + 1;
		return;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	*pp = p;
}

static inline int is_end(char c) { return c == ' ' || c == '\t' || c == 0; }

static inline int tok_hex(const char **pp, uint64_t *out)
{
	const char *p = *pp;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	const char *d0 = p;
	uint64_t v = 0;
	for (uint32_t h; (h = hexval[(unsigned char)*p]) != 0; p++)
		v = (v << 4) | (h - 1);
	size_t n = (size_t)(p - d0);
	if (n == 0 || n > 16 || !is_end(*p))
		return -1;
	*out = v;
	skip_ws(&p);
	*pp = p;
	return 0;
}

static int tok_dec(const char **pp, int64_t *out)
{
	const char *p = *pp;
	int neg = 0;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	uint64_t v = 0;
	int n = 0;
	for (; *p >= '0' && *p <= '9'; p++, n++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (n == 0 || n > 19 || !is_end(*p))
		return -1;
	/* negated modulo 2^64 (as before, without the signed overflow of
	 * -INT64_MIN, undefined behaviour) */
	*out = (int64_t)(neg ? 0 - v : v);
	skip_ws(&p);
	*pp = p;
	return 0;
}

/* tok_dec for the count, width, mode and stride fields: one digit inline. */
static inline int tok_count(const char **pp, int64_t *out)
{
	const char *p = *pp;
	if ((unsigned)(p[0] - '0') < 10 && is_end(p[1])) {
		*out = p[0] - '0';
		p++;
		skip_ws(&p);
		*pp = p;
		return 0;
	}
	return tok_dec(pp, out);
}

static inline int tok_reg(const char **pp, uint32_t *out)
{
	const char *p = *pp;
	if (*p != 'R')
		return -1;
	p++;
	uint32_t v = 0;
	int n = 0;
	for (; *p >= '0' && *p <= '9'; p++, n++)
		v = v * 10 + (uint32_t)(*p - '0');
	if (n == 0 || n > 3 || v > 255 || !is_end(*p))
		return -1;
	*out = v;
	skip_ws(&p);
	*pp = p;
	return 0;
}

static const char *tok_text(const char *p, char *buf, size_t n)
{
	size_t i = 0;
	if (!*p)
		return "end of line";
	while (p[i] && p[i] != ' ' && p[i] != '\t' && i + 1 < n) {
		buf[i] = p[i];
		i++;
	}
	buf[i] = 0;
	return buf;
}

static int line_fail(struct kfile *k, uint64_t line, struct iw_err *e, const char *what, const char *p)
{
	char buf[64];
	const char *f = tok_text(p, buf, sizeof buf);
	return iw_fail(e, IW_EINPUT, "%s:%llu: expected %s, found %s%s%s", k->path, (unsigned long long)line, what,
		       *p ? "'" : "", f, *p ? "'" : "");
}

static inline void add_reg(uint16_t *arr, uint8_t *n, uint8_t cap, uint32_t r)
{
	if (r < IW_REG_RZ && *n < cap)
		arr[(*n)++] = (uint16_t)r;
}

/* The PC after pc when no branch is taken (see the header comment). */
static uint32_t fall_through(uint32_t binary, uint32_t pc)
{
	if (binary >= 70)
		return pc + 16;
	uint32_t bundle = binary >= 50 ? 32 : binary >= 30 ? 64 : 0;
	uint32_t n = pc + 8;
	if (bundle && n % bundle == 0)
		n += 8; /* skip the scheduling-control word */
	return n;
}

/* Same n bytes (n >= 1), eight at a time: a line's middle is 10-40 bytes. */
static inline int same_text(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i = 0;
	if (n < 8)
		return same_bytes(a, b, n);
	for (; i + 8 < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	memcpy(&x, a + n - 8, 8); /* the last eight, overlapping the previous word */
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

/* The middle of an instruction line at *pp -- destination count and
 * registers, opcode, source count and registers, memory width -- into the
 * fields of *in it determines (the opcode's and the registers' expansion);
 * *pp past it and its blanks.  0, or a negative error. */
static int decode_middle(struct iw_workload_trace *t, struct kfile *k, const char **pp, uint64_t line,
			 struct iw_inst *in, uint32_t *widthp, uint32_t *unknown, struct iw_err *e)
{
	const char *p = *pp;
	int64_t d;
	if (tok_count(&p, &d) || d < 0 || d > IW_MAX_DST)
		return line_fail(k, line, e, "a destination count 0..4", p);
	uint32_t rd[IW_MAX_DST], nd = (uint32_t)d;
	for (uint32_t i = 0; i < nd; i++)
		if (tok_reg(&p, &rd[i]))
			return line_fail(k, line, e, "a destination register R<0..255>", p);
	/* the opcode token, hashed (FNV-1a) as it is scanned */
	const char *op = p;
	uint64_t h = 1469598103934665603ull;
	for (; !is_end(*p); p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	size_t oplen = (size_t)(p - op);
	if (!oplen || !((op[0] >= 'A' && op[0] <= 'Z') || op[0] == '_'))
		return line_fail(k, line, e, "an opcode", op);
	skip_ws(&p);
	struct opc tmp;
	const struct opc *o = opc_lookup(t, op, oplen, h, &tmp);
	if (tok_count(&p, &d) || d < 0 || d > 8)
		return line_fail(k, line, e, "a source count 0..8", p);
	uint32_t rs[8], ns = (uint32_t)d;
	for (uint32_t i = 0; i < ns; i++)
		if (tok_reg(&p, &rs[i]))
			return line_fail(k, line, e, "a source register R<0..255>", p);
	if (tok_count(&p, &d) || d < 0 || d > 1024)
		return line_fail(k, line, e, "a memory width in bytes (0 if none)", p);
	uint32_t width = (uint32_t)d;
	in->opcode = o->opcode;
	in->unit = o->unit;
	in->space = o->space;
	in->flags = o->flags;
	in->latency = o->lat;
	in->mem_level = 1;
	if (o->unit == IW_UNIT_MEM)
		in->mem_width = (uint16_t)width;
	uint32_t dk = o->dst_k;
	if (o->load_dst && width > 4)
		dk = IW_MAX(dk, IW_MIN((width + 3) / 4, IW_MAX_DST));
	for (uint32_t i = 0; i < nd; i++)
		for (uint32_t j = 0; j < (nd == 1 ? dk : 1); j++)
			if (rd[i] < IW_REG_RZ)
				add_reg(in->dst, &in->ndst, IW_MAX_DST, rd[i] + j);
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t k2 = 1;
		if (o->all_pairs || (i < 8 && (o->src_pair >> i) & 1))
			k2 = 2;
		if (o->store_data && i == ns - 1 && ns >= 2 && width > 4)
			k2 = IW_MIN((width + 3) / 4, 4);
		if (rs[i] < IW_REG_RZ)
			for (uint32_t j = 0; j < k2; j++)
				add_reg(in->src, &in->nsrc, IW_MAX_SRC, rs[i] + j);
	}
	*widthp = width;
	*unknown = o->unknown;
	*pp = p;
	return 0;
}

/* Two 64-bit lanes (SSE2 on x86-64; GCC and Clang vector extension): mode-1
 * addresses are written two at a time, the same sums modulo 2^64. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* Decode one instruction line into *in and *ma; the bytes from p up to lim
 * (NULL: not known) can be read. */
static int decode_fields(struct iw_workload_trace *t, struct kfile *k, const struct tcta *c, struct twarp *tw,
			 const char *p, const char *lim, uint64_t line, struct iw_inst *in, struct iw_mem_addrs *ma,
			 struct iw_err *e)
{
	int64_t d;
	uint64_t x;
	skip_ws(&p);
	if (k->tracer < 3) { /* tb_x tb_y tb_z warpid: the enclosing block's and warp's */
		int64_t got[4];
		const char *p0 = p;
		for (int i = 0; i < 4; i++)
			if (tok_dec(&p, &got[i]) || got[i] < 0)
				return line_fail(k, line, e, "the thread-block/warp prefix 'x y z warp' of a "
							     "version 0-2 trace line", p);
		uint32_t warp = (uint32_t)(tw - c->w);
		size_t plen = (size_t)(p - p0);
		while (plen && (p0[plen - 1] == ' ' || p0[plen - 1] == '\t'))
			plen--;
		if (got[0] != c->tb[0] || got[1] != c->tb[1] || got[2] != c->tb[2] || got[3] != warp)
			return iw_fail(e, IW_EINPUT,
				       "%s:%llu: expected the prefix '%u %u %u %u' (thread block %u,%u,%u, warp %u, as the "
				       "'thread block =' and 'warp =' lines above), found '%.*s'",
				       k->path, (unsigned long long)line, c->tb[0], c->tb[1], c->tb[2], warp, c->tb[0],
				       c->tb[1], c->tb[2], warp, (int)IW_MIN(plen, 60), p0);
	}
	if (k->lineinfo && (tok_dec(&p, &d) || d < 0))
		return line_fail(k, line, e, "a source line number (lineinfo = 1)", p);
	/* The line from its PC to its memory width: that of an earlier line
	 * again (struct dline) when its bytes are, readable up to `lim` (NULL:
	 * no bound known, parse). */
	const char *key = p;
	struct dline *dl = NULL, *hit = NULL;
	uint32_t width = 0, unknown = 0;
	if (lim && lim - key >= 16) {
		uint64_t w0, w1;
		memcpy(&w0, key, 8);
		memcpy(&w1, key + 8, 8);
		uint64_t h = (w0 ^ (w1 * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
		/* two places a line may be: a kernel's few hundred lines share
		 * 512 places with a few collisions, which one more place makes
		 * rare (a miss takes an empty one, else the first) */
		struct dline *d0 = &t->dlines[h >> (64 - DLINE_BITS)], *d1 = &t->dlines[(h >> (64 - DLINE_BITS)) ^ 1];
		if (d0->cmp && (size_t)(lim - key) >= d0->cmp && same_text(key, d0->text, d0->cmp))
			hit = d0;
		else if (d1->cmp && (size_t)(lim - key) >= d1->cmp && same_text(key, d1->text, d1->cmp))
			hit = d1;
		dl = d0->cmp && !d1->cmp ? d1 : d0;
	}
	if (hit) {
		*in = hit->tmpl;
		width = hit->width;
		unknown = hit->unknown;
		p = key + hit->adv;
		skip_ws(&p); /* more blanks than the line it came from had */
	} else {
		memset(in, 0, sizeof *in);
		in->maddr = IW_MADDR_NONE;
		if (tok_hex(&p, &x) || x > UINT32_MAX)
			return line_fail(k, line, e, "a hex PC", p);
		in->pc = (uint32_t)x;
		if (p[0] == 'f' && p[1] == 'f' && p[2] == 'f' && p[3] == 'f' && p[4] == 'f' && p[5] == 'f' &&
		    p[6] == 'f' && p[7] == 'f' && is_end(p[8])) {
			/* all lanes active: most lines of most kernels */
			in->mask = 0xffffffffu;
			p += 8;
			skip_ws(&p);
		} else {
			if (tok_hex(&p, &x) || x > UINT32_MAX)
				return line_fail(k, line, e, "a hex active mask of 32 bits", p);
			in->mask = (uint32_t)x;
		}
		int rc = decode_middle(t, k, &p, line, in, &width, &unknown, e);
		if (rc)
			return rc;
		size_t adv = (size_t)(p - key), cmp = adv + (*p == 0);
		if (dl && cmp <= sizeof dl->text) {
			dl->tmpl = *in;
			dl->cmp = (uint8_t)cmp;
			dl->adv = (uint8_t)adv;
			dl->width = (uint16_t)width;
			dl->unknown = (uint8_t)unknown;
			memcpy(dl->text, key, cmp);
		}
	}
	uint32_t active = popcount32(in->mask);
	ma->n = 0;
	ma->strided = 0;
	if (width) {
		int64_t mode;
		if (tok_count(&p, &mode) || mode < 0 || mode > 2)
			return line_fail(k, line, e, "an address mode 0, 1 or 2", p);
		if (mode == 0) {
			for (uint32_t i = 0; i < active; i++)
				if (tok_hex(&p, &ma->addr[i])) {
					char what[80];
					snprintf(what, sizeof what, "hex address %u of %u (one per active lane)",
						 i + 1, active);
					return line_fail(k, line, e, what, p);
				}
		} else {
			uint64_t base;
			if (tok_hex(&p, &base))
				return line_fail(k, line, e, "a hex base address", p);
			if (mode == 1) {
				int64_t stride; /* (mostly one digit: 4, 8, 0) */
				if (tok_count(&p, &stride))
					return line_fail(k, line, e, "a decimal stride after the base address", p);
				/* base + i * stride, modulo 2^64; four lanes a step (a
				 * full warp is most memory lines) */
				uint64_t st = (uint64_t)stride;
				/* vector k holds lanes i + 2k and i + 2k + 1 */
				u64x2 v0 = {base, base + st}, v1 = v0 + 2 * st, v2 = v0 + 4 * st, v3 = v0 + 6 * st;
				uint32_t i = 0;
				for (; i + 8 <= active; i += 8) {
					memcpy(&ma->addr[i], &v0, sizeof v0);
					memcpy(&ma->addr[i + 2], &v1, sizeof v1);
					memcpy(&ma->addr[i + 4], &v2, sizeof v2);
					memcpy(&ma->addr[i + 6], &v3, sizeof v3);
					v0 += 8 * st;
					v1 += 8 * st;
					v2 += 8 * st;
					v3 += 8 * st;
				}
				for (; i + 2 <= active; i += 2, v0 += 2 * st)
					memcpy(&ma->addr[i], &v0, sizeof v0);
				if (i < active)
					ma->addr[i] = v0[0];
				if (stride >= INT32_MIN && stride <= INT32_MAX) {
					ma->strided = 1;
					ma->stride = (int32_t)stride;
				}
			} else {
				if (active)
					ma->addr[0] = base;
				for (uint32_t i = 1; i < active; i++) {
					if (tok_dec(&p, &d)) {
						char what[80];
						snprintf(what, sizeof what, "address delta %u of %u (active lanes - 1)",
							 i, active - 1);
						return line_fail(k, line, e, what, p);
					}
					ma->addr[i] = ma->addr[i - 1] + (uint64_t)d;
				}
			}
		}
		ma->n = (uint8_t)active;
	}
	/* Version 5 writes the immediate on every line, so a line without one
	 * is short: most likely an address or delta is missing and the
	 * immediate was read in its place. */
	if (k->tracer >= 5 && !*p)
		return line_fail(k, line, e, "a trailing immediate (every version-5 line ends with one; is an "
					     "address or delta missing?)", p);
	if (*p && k->tracer >= 5 && tok_dec(&p, &d) && tok_hex(&p, &x))
		return line_fail(k, line, e, "a trailing immediate", p);
	if (*p)
		return line_fail(k, line, e, "the end of the instruction line", p);

	/* ---- what the line's PC, mask and addresses add */
	if ((in->flags & IW_F_GENERIC) && ma->n) {
		/* resolved by the first active lane's address, as Accel-Sim does */
		uint64_t a = ma->addr[0];
		if (a >= k->shm_lo && a < k->shm_hi)
			in->space = IW_SPACE_SHARED;
		else if (a >= k->loc_lo && a < k->loc_hi)
			in->space = IW_SPACE_LOCAL;
	}
	if (!in->mask)
		in->flags |= IW_F_MASK0;
	if (unknown)
		k->unk_count[in->opcode - iw_opcode_count()]++;
	if (in->flags & IW_F_CONV_SETUP) {
		/* neither takes nor clears it: set-up sits between the compare
		 * and its branch (ISETP; BSSY; @P BRA) */
	} else if (in->flags & IW_F_CONTROL) {
		if (tw->after_cmp)
			in->flags |= IW_F_PRED_BRANCH;
		tw->after_cmp = 0;
	} else if (in->flags & IW_F_SETS_PRED) {
		tw->after_cmp = 1;
	}
	return 0;
}

/* A version-3+ line that reads as a version 0-2 one: four decimal fields
 * (thread block and warp) before what would be the PC, mask, destinations
 * and an opcode. */
static int looks_prefixed(const struct kfile *k, const char *p)
{
	int64_t d;
	uint64_t x;
	skip_ws(&p);
	for (int i = 0; i < 4; i++)
		if (tok_dec(&p, &d) || d < 0)
			return 0;
	if (k->lineinfo && (tok_dec(&p, &d) || d < 0))
		return 0;
	if (tok_hex(&p, &x) || tok_hex(&p, &x) || tok_dec(&p, &d) || d < 0 || d > IW_MAX_DST)
		return 0;
	for (int64_t i = 0; i < d; i++) {
		if (*p != 'R')
			return 0;
		while (!is_end(*p))
			p++;
		skip_ws(&p);
	}
	return (*p >= 'A' && *p <= 'Z') || *p == '_';
}

/* decode()'s hint on a refused line that looks like a version 0-2 one. */
static __attribute__((noinline, cold)) void hint_prefixed(const struct kfile *k, const char *p, struct iw_err *e)
{
	if (k->tracer >= 3 && looks_prefixed(k, p)) {
		size_t n = strlen(e->msg);
		snprintf(e->msg + n, sizeof e->msg - n,
			 " (the line looks like a version 0-2 one, with a 'tb_x tb_y tb_z warpid' prefix, but the header "
			 "says tracer version %u)", k->tracer);
	}
}

/* Decode one instruction line into *in and *ma; a refused version-3+ line
 * that looks like an older one says so (a header with the wrong version, or
 * lines written with the prefix the version dropped).  Inlined: a call
 * layer of ten arguments cost 27 host instructions a warp-instruction. */
static inline __attribute__((always_inline)) int decode(struct iw_workload_trace *t, struct kfile *k,
							 const struct tcta *c, struct twarp *tw, const char *p,
							 const char *lim, uint64_t line, struct iw_inst *in,
							 struct iw_mem_addrs *ma, struct iw_err *e)
{
	int first = e && !e->code; /* (only the first error is kept: hint only at ours) */
	int rc = decode_fields(t, k, c, tw, p, lim, line, in, ma, e);
	if (rc == -IW_EINPUT && first)
		hint_prefixed(k, p, e);
	return rc;
}

/* The warp's next instruction line (blank lines skipped), its buffer made
 * on first use.  Counts it off tw->left. */
static int warp_line(struct iw_workload_trace *t, struct kfile *k, struct twarp *tw, char **out, struct iw_err *e)
{
	if (!tw->rd.buf) {
		if (t->nbufs == 0 && bufs_refill(t))
			return iw_fail(e, IW_ERUN, "out of memory");
		tw->rd.buf = tw->rd.home = t->bufs[--t->nbufs];
		tw->rd.cap = WARP_BUF;
		t->live_bufs++;
	}
	char *s;
	int err;
	while ((s = rd_line(&tw->rd, k->fd, k->size, NULL, NULL, &err)) && is_blank(s))
		;
	if (!s) /* the structure cursor saw these lines: the file changed */
		return iw_fail(e, IW_EINPUT, "%s:%llu: expected an instruction line, found %s", k->path,
			       (unsigned long long)tw->rd.line + 1, err ? strerror(err) : "the end of the file");
	tw->left--;
	*out = s;
	return 0;
}

/* The PC of an instruction line: decode()'s first fields, without messages
 * (-1: decode() will say what is wrong). */
static int line_pc(const struct kfile *k, const char *p, uint32_t *pc)
{
	int64_t d;
	uint64_t x;
	skip_ws(&p);
	if (k->tracer < 3)
		for (int i = 0; i < 4; i++)
			if (tok_dec(&p, &d) || d < 0)
				return -1;
	if (k->lineinfo && (tok_dec(&p, &d) || d < 0))
		return -1;
	if (tok_hex(&p, &x) || x > UINT32_MAX)
		return -1;
	*pc = (uint32_t)x;
	return 0;
}

/* Lines are decoded when fetched, straight into the engine's instruction and
 * address entry: the engine visits thousands of warps between two fetches of
 * one, so a decoded copy kept per warp would be a few cache misses more per
 * instruction.  Only a control instruction looks at the next line (read and
 * kept in the buffer, decoded at the next fetch), whose PC says whether it
 * was taken. */
static int tr_fetch(struct iw_workload *w, struct iw_cta *cta, uint32_t warp, struct iw_inst *in,
		    struct iw_mem_addrs *ma, struct iw_err *e)
{
	struct iw_workload_trace *t = (struct iw_workload_trace *)w;
	struct tcta *c = cta->priv;
	if (!c || warp >= c->nwarps)
		return 0;
	struct twarp *tw = &c->w[warp];
	struct kfile *k = c->k;
	/* The engine's sub-cores fetch their warps round robin and a CTA's
	 * warps are dealt to them in turn, so the next warp of this CTA a
	 * sub-core asks for is usually PREFETCH_STRIDE further: its reader is
	 * loaded while this line decodes, then its next line (prefetch_next). */
	const struct twarp *nx = warp + PREFETCH_STRIDE < c->nwarps ? &c->w[warp + PREFETCH_STRIDE] : NULL;
	if (nx)
		__builtin_prefetch(nx);
	char *s;
	int rc;
	if (tw->pend) {
		s = tw->rd.buf + tw->pend_off;
		tw->pend = 0;
	} else if (tw->left) {
		if ((rc = warp_line(t, k, tw, &s, e)))
			return rc;
	} else {
		warp_buf_put(t, &tw->rd);
		if (ma)
			ma->n = 0;
		return 0;
	}
	struct iw_mem_addrs scratch;
	/* (the warp's buffer holds text, read or the NUL ending a line, up to
	 * its len: the lines after this one) */
	if ((rc = decode(t, k, c, tw, s, tw->rd.buf + tw->rd.len, tw->rd.line, in, ma ? ma : &scratch, e)))
		return rc;
	if ((in->flags & IW_F_CONTROL) && tw->left) {
		if ((rc = warp_line(t, k, tw, &s, e)))
			return rc;
		uint32_t pc;
		if (line_pc(k, s, &pc)) {
			struct iw_inst bad;
			uint8_t after = tw->after_cmp;
			if ((rc = decode(t, k, c, tw, s, NULL, tw->rd.line, &bad, &scratch, e)))
				return rc;
			tw->after_cmp = after;
			pc = bad.pc;
		}
		tw->pend = 1;
		tw->pend_off = (uint32_t)(s - tw->rd.buf);
		if (pc != fall_through(k->binary, in->pc))
			in->flags |= IW_F_TAKEN;
	}
	if (!tw->left && !tw->pend)
		warp_buf_put(t, &tw->rd); /* its last line is decoded */
	if (nx && nx->rd.buf)
		__builtin_prefetch(nx->rd.buf + nx->rd.pos);
	return 1;
}

static const struct iw_workload_ops trace_ops = {
	.next_kernel = tr_next_kernel,
	.next_cta = tr_next_cta,
	.fetch = tr_fetch,
	.release_cta = tr_release_cta,
	.close = tr_close,
};

/* A folder without kernelslist.g: its kernel-N.traceg[.xz] files in N order
 * (what a user who copied only the kernel files expects), as an in-memory list. */
struct kname {
	unsigned long n;
	char name[256];
};

static int kname_cmp(const void *a, const void *b)
{
	const struct kname *x = a, *y = b;
	return x->n < y->n ? -1 : x->n > y->n ? 1 : strcmp(x->name, y->name);
}

/* Trace folders below `dir` (Accel-Sim nests them as
 * traces/device-0/<cuda>/<app>/<args>/traces/): the paths, relative to dir,
 * of up to `cap` folders holding a kernelslist.g, at most `depth` levels
 * down, looking into at most *budget folders; returns how many were found. */
static size_t traces_below(const char *dir, const char *rel, int depth, char (*found)[256], size_t cap, size_t n,
			   int *budget)
{
	if (depth == 0 || --*budget < 0)
		return n;
	char path[2048];
	if ((size_t)snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "", rel) >= sizeof path)
		return n;
	DIR *d = opendir(path);
	if (!d)
		return n;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char sub[2048], r2[256], list[2048];
		struct stat st;
		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) >= sizeof sub ||
		    (size_t)snprintf(list, sizeof list, "%s/kernelslist.g", sub) >= sizeof list ||
		    (size_t)snprintf(r2, sizeof r2, "%s%s%s", rel, *rel ? "/" : "", de->d_name) >= sizeof r2)
			continue;
		if (stat(sub, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (access(list, F_OK) == 0) {
			if (n < cap)
				memcpy(found[n], r2, sizeof r2);
			n++;
		} else {
			n = traces_below(dir, r2, depth - 1, found, cap, n, budget);
		}
	}
	closedir(d);
	return n;
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* " (below it: a/kernelslist.g, b/...; give one of those folders)", or "". */
static void hint_traces_below(const char *dir, char *out, size_t outsz)
{
	char found[64][256];
	int budget = 4000;
	size_t n = traces_below(dir, "", 6, found, 64, 0, &budget);
	out[0] = 0;
	if (!n)
		return;
	size_t m = n < 64 ? n : 64;
	qsort(found, m, sizeof found[0], cmp_name);
	size_t len = (size_t)snprintf(out, outsz, " (below it, trace folders: ");
	for (size_t i = 0; i < m && i < 3 && len < outsz; i++)
		len += (size_t)snprintf(out + len, outsz - len, "%s%s", i ? ", " : "", found[i]);
	if (len < outsz)
		snprintf(out + len, outsz - len, "%s; give one of them, or each to a -w of its own)",
			 n > 3 ? ", ..." : "");
}

static int list_from_folder(struct iw_workload_trace *t, const char *dir, struct iw_err *e)
{
	char raw[1100];
	snprintf(raw, sizeof raw, "%s/kernelslist", dir);
	DIR *d = opendir(dir);
	if (!d)
		return iw_fail(e, IW_EINPUT, "%s: expected a readable trace folder, found: %s", dir, strerror(errno));
	struct kname *k = NULL;
	size_t n = 0, cap = 0, bytes = 1;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		char *end;
		if (strncmp(nm, "kernel-", 7) || !isdigit((unsigned char)nm[7]))
			continue;
		unsigned long id = strtoul(nm + 7, &end, 10);
		if (strcmp(end, ".traceg") && strcmp(end, ".traceg.xz") && strcmp(end, ".traceg.gz"))
			continue;
		if (strlen(nm) >= sizeof k->name)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			struct kname *nk = iw_realloc(k, cap * sizeof *k);
			if (!nk) {
				rc = iw_fail(e, IW_ERUN, "out of memory");
				break;
			}
			k = nk;
		}
		k[n].n = id;
		snprintf(k[n].name, sizeof k[n].name, "%s", nm);
		bytes += strlen(nm) + 1;
		n++;
	}
	closedir(d);
	if (!rc && n == 0) {
		char below[1024] = "";
		if (access(raw, F_OK) != 0)
			hint_traces_below(dir, below, sizeof below);
		rc = iw_fail(e, IW_EINPUT,
			     "%s: expected kernelslist.g or kernel-N.traceg[.xz|.gz] files in the folder, found none%s%s", dir,
			     access(raw, F_OK) == 0 ? " (only a raw 'kernelslist': run Accel-Sim's "
						      "post-traces-processing on it first)" : "",
			     below);
	}
	if (!rc) {
		qsort(k, n, sizeof *k, kname_cmp);
		t->list_text = iw_malloc(bytes);
		if (!t->list_text)
			rc = iw_fail(e, IW_ERUN, "out of memory");
	}
	if (!rc) {
		size_t o = 0;
		for (size_t i = 0; i < n; i++) {
			/* kernel-1.traceg and kernel-1.traceg.xz or .gz: read the plain one (it
			 * sorts first), else the .gz one */
			if (i && k[i].n == k[i - 1].n)
				continue;
			o += (size_t)sprintf(t->list_text + o, "%s\n", k[i].name);
		}
		t->list = fmemopen(t->list_text, o, "r");
		if (!t->list)
			rc = iw_fail(e, IW_ERUN, "%s: cannot list the kernels: %s", dir, strerror(errno));
		snprintf(t->list_path, sizeof t->list_path, "%s/(kernel-N.traceg files)", dir);
	}
	if (rc) {
		iw_free(t->list_text);
		t->list_text = NULL;
	}
	iw_free(k);
	return rc;
}

int iw_path_is_trace(const char *path)
{
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return 1;
	if (strchr(path, '/') != NULL || ends_with(path, ".g") || strstr(path, ".traceg") != NULL)
		return 1;
	/* A file of the working folder named bare (`-w kernelslist`, `-w
	 * kernel-1.trace`) is read as a trace, so that what it is gets said,
	 * unless a built-in workload has that name. */
	if (!exists || !S_ISREG(st.st_mode))
		return 0;
	size_t nl = strcspn(path, ":");
	for (size_t i = 0; i < iw_builtin_count(); i++)
		if (strlen(iw_builtin_get(i)->name) == nl && !strncmp(iw_builtin_get(i)->name, path, nl))
			return 0;
	return 1;
}

int iw_trace_open(const char *path, struct iw_workload **out, struct iw_err *e)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) != 0)
		return iw_fail(e, IW_EINPUT, "%s: expected an Accel-Sim trace (folder, kernelslist.g or "
			       ".traceg[.xz|.gz]), found: %s", path, strerror(errno));
	struct iw_workload_trace *t = iw_calloc(1, sizeof *t);
	if (!t)
		return iw_fail(e, IW_ERUN, "out of memory");
	t->base.ops = &trace_ops;
	scopy(t->shown, sizeof t->shown, path);
	for (size_t n = strlen(t->shown); n > 1 && t->shown[n - 1] == '/';)
		t->shown[--n] = 0;
	char list[1100];
	if (S_ISDIR(st.st_mode)) {
		/* a folder given as "bt/trunc/" joins to paths without "//" */
		snprintf(t->dir, sizeof t->dir, "%s", path);
		for (size_t n = strlen(t->dir); n > 1 && t->dir[n - 1] == '/';)
			t->dir[--n] = 0;
		set_kernel_path(list, sizeof list, t->dir, "kernelslist.g");
	} else {
		snprintf(list, sizeof list, "%s", path);
		const char *slash = strrchr(path, '/');
		if (slash)
			snprintf(t->dir, sizeof t->dir, "%.*s", (int)(slash - path), path);
		else
			snprintf(t->dir, sizeof t->dir, ".");
	}
	scopy(t->list_path, sizeof t->list_path, list);
	if (S_ISDIR(st.st_mode) || !strstr(path, ".traceg")) {
		t->list = fopen(list, "r");
		if (!t->list && errno == ENOENT && S_ISDIR(st.st_mode)) {
			int rc = list_from_folder(t, t->dir, e);
			if (rc) {
				iw_free(t);
				return rc;
			}
		}
		if (!t->list) {
			int er = errno;
			iw_free(t);
			return iw_fail(e, IW_EINPUT, "%s: expected an Accel-Sim kernel list, found: %s", list,
				       strerror(er));
		}
	}
	/* a run of every scheme, or a sweep, reads the list again and again (on
	 * several threads): its ignored lines are told about once a process */
	if (t->list) {
		char key[1100];
		snprintf(key, sizeof key, "list\n%s", t->list_path);
		t->warn_list = first_warning(key);
	}
	/* name: the trace folder's name (kernelslist.g and kernel files live in it) */
	char nm[1100];
	snprintf(nm, sizeof nm, "%s", S_ISDIR(st.st_mode) ? path : t->dir);
	size_t n = strlen(nm);
	while (n > 1 && nm[n - 1] == '/')
		nm[--n] = 0;
	const char *b = strrchr(nm, '/');
	b = b ? b + 1 : nm;
	if (!S_ISDIR(st.st_mode) && strstr(path, ".traceg")) {
		const char *f = strrchr(path, '/');
		b = f ? f + 1 : path;
	}
	/* the workload's label: a longer name is cut (the precision tells the
	 * compiler so, at every optimisation level); a list of one's own beside
	 * kernelslist.g (a subset of the kernels) adds its name: folder/list */
	const char *lb = strrchr(path, '/');
	lb = lb ? lb + 1 : path;
	int own_list = !S_ISDIR(st.st_mode) && !strstr(path, ".traceg") && strcmp(lb, "kernelslist.g") != 0;
	const char *folder = strcmp(b, ".") ? b : "trace";
	if (own_list)
		snprintf(t->base.name, sizeof t->base.name, "%.*s/%.*s", (int)sizeof t->base.name / 2 - 1, folder,
			 (int)sizeof t->base.name / 2 - 1, lb);
	else
		snprintf(t->base.name, sizeof t->base.name, "%.*s", (int)sizeof t->base.name - 1, folder);
	snprintf(t->base.description, sizeof t->base.description, "Accel-Sim SASS trace %s", path);
	*out = &t->base;
	return 0;
}
