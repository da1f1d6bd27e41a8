/*
 * perf/scheme_socgpu.c -- SOCGPU (SCHEMES.md section 3; seeds/socgpu-*):
 * a per-warp Instruction Buffer of socgpu.ib_size entries and an
 * ib_size x ib_size Dependence matrix that replaces the scoreboards.
 *
 * Insert: the decoded instruction A takes the lowest free entry ("first empty
 * entry available regardless of the program order") and its row gets bit P
 * for each valid older entry P it depends on (the paper's list, section 3):
 *   WAR/WAW  A.dst in P.src or P.dst
 *   RAW      A.src in P.dst
 *   memory   A memory and P barrier; A store and P load/store; A load and P store
 *   stop     A control/return (older P must issue first), P control/return
 * Choices the paper leaves open, written down here:
 *   - atomics count as both load and store;
 *   - the rules every scheme of this model keeps (SCHEMES.md section 1, the
 *     baseline's): a CTA barrier blocks every younger instruction of the warp
 *     (Accel-Sim parks the warp at a barrier, the paper only names memory
 *     instructions) and a barrier or memory fence waits for every older memory
 *     instruction; a memory instruction waits for an older fence;
 *   - a predicated branch is a control instruction, so its dependence on the
 *     last compare is covered by the stop rule.
 * Candidate: valid, not issued, row all zero; the warp offers the lowest
 * physical index ("the first entry ... in physical ascending order ... chosen
 * regardless of its seniority").  Issue marks the entry issued; write-back
 * clears its valid bit and its whole column.
 *
 * release_at = operands (the second mode of the authors' simulator): the entry
 * and its column are freed when the operands have been read (at issue for an
 * instruction without register sources: it has nothing to read).  Hazards with the
 * released, still executing instructions are then the baseline scoreboard's
 * (RAW/WAW on destinations; WAR cannot arise, the reader has read), plus the
 * in-flight control/barrier/fence counters, so the rules above still hold.
 */
#include "sim.h"

/* Dependence classes, in the order of the deps_found counters.  A class is
 * also kept per row bit as two bit planes (pl_set: raw | mem = bit 0,
 * stop | mem = bit 1). */
enum { DEP_WARWAW, DEP_RAW, DEP_STOP, DEP_MEM, DEP_NONE };
_Static_assert(DEP_RAW == 1 && DEP_STOP == 2 && DEP_MEM == 3, "bit planes of the class");

/* A warp's state is one record of the SM's array, laid out for the IB's
 * size n (socgpu.ib_size) rather than for the largest: the GPU's warps do not
 * fit in the host's caches and an SM's run is short, so each line a warp
 * touches per instruction is a likely host cache miss.  With the default
 * n = 8 the masks, the matrix and the per-entry fields take five lines and
 * the register table a few more (sg_layout).
 *
 * The header: the entry masks. */
struct sg_warp {
	uint64_t valid, issued;
	uint64_t ready;          /* valid entries whose row is all zero */
	/* Valid entries by instruction class, for the memory and stop rules:
	 * memory, load (or atomic), store (or atomic), barrier or fence,
	 * control/return or barrier. */
	struct {
		uint64_t mem, ld, st, sync, stop;
	} kind;
	/* then, at the offsets SG_O_* (for N = SG_N entries):
	 *   uint64_t nwait, ord[(N + 7) / 8]  the waiting entries in program
	 *            order, entry e as byte e + 1, 0 past the last (see
	 *            ord_find): the oldest is the first byte, and an entry's
	 *            position is the number of waiting entries older than
	 *            it, the reorder distance
	 *   uint64_t row[N]   row e: the older entries e waits for
	 *   uint64_t col[N]   column q: the entries waiting for q
	 *   pl                the class of each row bit (pl_set)
	 *   slot[N]           slot id of each entry
	 *   uint8_t kcls[N]   kind_of() each entry
	 *   the register table (regs_*), then struct sg_flight */
};
_Static_assert(sizeof(struct sg_warp) == 64, "the header is one cache line");

/* Register occupancy of the IB, transposed: for each architectural register
 * R0..R254 (RZ never appears) the entries that write it and the entries that
 * read it.  An insert then finds its RAW and WAR/WAW producers with one OR
 * per operand instead of comparing its registers with every valid entry's.
 * With n <= 8 a mask is a byte ([0] readers, [1] writers): 510 bytes, the
 * registers a kernel uses in a few lines, where 16-byte pairs spread them
 * over one line per four registers. */
struct sg_regmask {
	uint64_t writers, readers;
};
typedef uint8_t sg_reg8[2];

/* In flight after release (release_at = operands only). */
struct sg_flight {
	struct iw_scoreboard sb; /* destinations only: the matrix orders WAR */
	uint16_t ctrl, bar, fence, mem, pred;
};

struct sg_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct iw_sm *sm;
	char *w;                /* the warps' records, SG_STRIDE bytes apart */
	uint64_t all;           /* one bit per IB entry */
	int narrow;             /* n <= 8: the layout for 8 entries (SG_N) */
	int release_operands;
	/* Ask the warp's candidate again after every ready insert (release_at =
	 * operands: in-flight hazards, see insert_entry). */
	int ask_ready_insert;
	/* Per warp, per slot id (sim->window bytes a warp): the slot's IB
	 * entry, plus ENT_RELEASED once released at its operand read.  Kept
	 * here rather than in the slot's aux, on the slot's second host cache
	 * line, which nothing else of this scheme touches: a warp's entries
	 * share one or two lines. */
	uint8_t *ent;
	uint32_t window;
};
enum { ENT_RELEASED = 0x80 }; /* (entries are below 64) */

/* The record's layout, for at most 8 entries (nar, ib_size <= 8: byte
 * register masks, both class planes in one word) or 64.  Two constant
 * layouts rather than one per size: every function below is compiled for
 * both (the entry points choose, their f_wide functions), so each offset
 * is an immediate. */
#define SG_N(nar) ((nar) ? 8u : 64u)
/* Narrow: the header, then one line of nwait, ord[1], slot[8] and kcls[8]
 * as bytes, the class planes as uint16_t pl[8], row[8] and col[8] as bytes
 * (the masks have 8 bits), then the register table.  Wide: the header,
 * nwait, ord[8], row[64], col[64], pl[128], slot[64] (uint16_t), kcls[64],
 * the register table.  (slot ids are below the window, ib_size.) */
#define SG_O_NWAIT(nar) 64u
#define SG_O_ORD(nar) 72u
#define SG_O_ROW(nar) ((nar) ? 112u : 136u)
#define SG_O_COL(nar) ((nar) ? 120u : SG_O_ROW(0) + 8u * 64u)
#define SG_O_PL(nar) ((nar) ? 96u : SG_O_COL(0) + 8u * 64u)
#define SG_O_SLOT(nar) ((nar) ? 80u : SG_O_PL(0) + 16u * 64u)
#define SG_O_KCLS(nar) ((nar) ? 88u : SG_O_SLOT(0) + 2u * 64u)
#define SG_O_REG(nar) ((nar) ? 128u : SG_O_KCLS(0) + 64u)
_Static_assert(SG_O_SLOT(1) + 8u <= SG_O_KCLS(1) && SG_O_KCLS(1) + 8u <= SG_O_PL(1) &&
		       SG_O_PL(1) + 16u <= SG_O_ROW(1) && SG_O_ROW(1) + 8u <= SG_O_COL(1) &&
		       SG_O_COL(1) + 8u <= SG_O_REG(1) && SG_O_REG(1) == 128u,
	       "the narrow record's second line");
_Static_assert(SG_O_ORD(0) + 64u <= SG_O_ROW(0), "the wide ord[] ends before row[]");
/* in-flight hazards (release_at = operands only) on lines of their own */
#define SG_O_FL(nar) ((SG_O_REG(nar) + ((nar) ? 2u : (uint32_t)sizeof(struct sg_regmask)) * IW_REG_RZ + 63u) & ~63u)
#define SG_STRIDE(nar) ((SG_O_FL(nar) + (uint32_t)sizeof(struct sg_flight) + 63u) & ~63u)
#define SG_AT(x, o, T) ((T *)((char *)(x) + (o)))

static inline uint8_t *sg_ent(const struct sg_state *st, const struct iw_warp *w, const struct iw_slot *s)
{
	return &st->ent[(size_t)w->id * st->window + s->id];
}
static inline struct sg_warp *sg_w(const struct sg_state *st, const struct iw_warp *w, int nar)
{
	return (struct sg_warp *)(st->w + (size_t)w->id * SG_STRIDE(nar));
}
static inline uint64_t *sg_nwait(int nar, struct sg_warp *x) { return SG_AT(x, SG_O_NWAIT(nar), uint64_t); }
static inline uint64_t *sg_ord(int nar, struct sg_warp *x) { return SG_AT(x, SG_O_ORD(nar), uint64_t); }
/* row[e], col[e] and slot[e] are bytes in the narrow layout; ROW and COL
 * name the matrix's two arrays */
enum { ROW, COL };
static inline uint64_t mat_get(int nar, struct sg_warp *x, int which, int e)
{
	uint32_t o = which == COL ? SG_O_COL(nar) : SG_O_ROW(nar);
	return nar ? SG_AT(x, o, uint8_t)[e] : SG_AT(x, o, uint64_t)[e];
}
static inline void mat_put(int nar, struct sg_warp *x, int which, int e, uint64_t v)
{
	uint32_t o = which == COL ? SG_O_COL(nar) : SG_O_ROW(nar);
	if (nar)
		SG_AT(x, o, uint8_t)[e] = (uint8_t)v;
	else
		SG_AT(x, o, uint64_t)[e] = v;
}
static inline uint32_t slot_get(int nar, struct sg_warp *x, int e)
{
	return nar ? SG_AT(x, SG_O_SLOT(1), uint8_t)[e] : SG_AT(x, SG_O_SLOT(0), uint16_t)[e];
}
static inline void slot_put(int nar, struct sg_warp *x, int e, uint16_t id)
{
	if (nar)
		SG_AT(x, SG_O_SLOT(1), uint8_t)[e] = (uint8_t)id; /* id < ib_size <= 8 */
	else
		SG_AT(x, SG_O_SLOT(0), uint16_t)[e] = id;
}
static inline uint64_t *sg_pl(int nar, struct sg_warp *x) { return SG_AT(x, SG_O_PL(nar), uint64_t); }
static inline uint8_t *sg_kcls(int nar, struct sg_warp *x) { return SG_AT(x, SG_O_KCLS(nar), uint8_t); }
static inline struct sg_flight *sg_fl(int nar, struct sg_warp *x) { return SG_AT(x, SG_O_FL(nar), struct sg_flight); }

/* The class of each row bit of entry e, for the stall reason, as two bit
 * planes: raw | mem and stop | mem (the hardware's matrix holds one bit; the
 * class is a statistic).  With at most 8 entries both share 16 bits. */
static inline void pl_set(int nar, struct sg_warp *x, int e, uint64_t p2, uint64_t p3)
{
	uint64_t *pl = sg_pl(nar, x);
	if (nar) {
		((uint16_t *)pl)[e] = (uint16_t)(p2 | p3 << 8);
	} else {
		pl[2 * e] = p2;
		pl[2 * e + 1] = p3;
	}
}
static inline int pl_class(int nar, struct sg_warp *x, int e, int q)
{
	uint64_t *pl = sg_pl(nar, x);
	if (nar) {
		uint32_t v = ((uint16_t *)pl)[e];
		return (int)(v >> (q + 8) & 1) << 1 | (int)(v >> q & 1);
	}
	return (int)(pl[2 * e + 1] >> q & 1) << 1 | (int)(pl[2 * e] >> q & 1);
}

/* The entry points run their body (always inline, last argument nar) in the
 * layout of st: the narrow one inline, the wide one in a separate function
 * (f_wide), so that the common path's prologue saves only the registers its
 * own copy uses. */

/* The classes of an instruction the memory and stop rules ask about, as
 * bits (the kind masks of struct sg_warp, plus control):
 *   K_MEM   memory (not a fence)       K_LD    memory load or atomic
 *   K_ST    memory store or atomic     K_SYNC  barrier or fence
 *   K_CTRL  control or return          K_BAR   barrier
 * Most instructions have none, which one test then tells. */
enum { K_MEM = 1, K_LD = 2, K_ST = 4, K_SYNC = 8, K_CTRL = 16, K_BAR = 32 };

/* The classes depend on the seven low flags and whether the unit is the
 * memory unit (index bit 7): one table look-up per insert instead of the
 * tests of iw_is_mem, iw_is_sync and iw_is_ctrl, which these repeat. */
_Static_assert(IW_F_LOAD == 1 && IW_F_STORE == 2 && IW_F_ATOMIC == 4 && IW_F_BARRIER == 8 && IW_F_MEMBAR == 16 &&
		       IW_F_CONTROL == 32 && IW_F_RETURN == 64,
	       "kind_tab indexes the seven low flags");
#define KT(i)                                                                                                          \
	((((i) & 128) && !((i) & 16) ? K_MEM | ((i) & 5 ? K_LD : 0) | ((i) & 6 ? K_ST : 0) : 0) |                     \
	 ((i) & 24 ? K_SYNC : 0) | ((i) & 96 ? K_CTRL : 0) | ((i) & 8 ? K_BAR : 0))
#define KT4(i) KT(i), KT((i) + 1), KT((i) + 2), KT((i) + 3)
#define KT16(i) KT4(i), KT4((i) + 4), KT4((i) + 8), KT4((i) + 12)
#define KT64(i) KT16(i), KT16((i) + 16), KT16((i) + 32), KT16((i) + 48)
static const uint8_t kind_tab[256] = {KT64(0), KT64(64), KT64(128), KT64(192)};
#undef KT64
#undef KT16
#undef KT4
#undef KT

static inline uint32_t kind_of(const struct iw_inst *in)
{
	return kind_tab[(in->flags & 127u) | (uint32_t)(in->unit == IW_UNIT_MEM) << 7];
}

/* Position of waiting entry e in ord[] (it is there).  Bytes equal to e + 1
 * become zero bytes of t; the lowest bit of z marks the first of them (the
 * borrow of the subtraction can mark bytes above a zero byte, never below). */
static inline uint32_t ord_find(struct sg_warp *x, int e, int nar)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t *ord = sg_ord(nar, x);
	uint64_t pat = ones * (uint64_t)(e + 1);
	for (uint32_t i = 0; i < (SG_N(nar) + 7) / 8; i++) {
		uint64_t t = ord[i] ^ pat;
		uint64_t z = (t - ones) & ~t & (ones << 7);
		if (z)
			return i * 8 + ((uint32_t)__builtin_ctzll(z) >> 3);
	}
	IW_ASSERT(!"a waiting entry is in ord[]");
	return 0;
}

/* Drop position p of ord[]: the younger entries move down one byte. */
static inline void ord_remove(struct sg_warp *x, uint32_t p, int nar)
{
	uint64_t *ord = sg_ord(nar, x), *nwait = sg_nwait(nar, x);
	uint32_t i = p >> 3, last = (uint32_t)(*nwait - 1) >> 3;
	uint64_t low = (1ull << (8 * (p & 7))) - 1; /* bytes before p in its word */
	uint64_t v = ord[i];
	v = (v & low) | ((v >> 8) & ~low);
	for (; i < last; i++) {
		uint64_t next = ord[i + 1];
		ord[i] = v | next << 56;
		v = next >> 8;
	}
	ord[i] = v;
	(*nwait)--;
}

/* Set bits of a dependence mask: few (an instruction depends on a handful of
 * older entries), so clearing the lowest bit per step beats a full count. */
static inline uint32_t nbits(uint64_t m)
{
	uint32_t n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Set bits of a byte: the narrow layout's dependence masks are counted with
 * one look-up each, where nbits' loop ends at a mispredicted branch. */
#define PC2(n) n, n + 1, n + 1, n + 2
#define PC4(n) PC2(n), PC2(n + 1), PC2(n + 1), PC2(n + 2)
#define PC6(n) PC4(n), PC4(n + 1), PC4(n + 1), PC4(n + 2)
static const uint8_t pop8[256] = {PC6(0), PC6(1), PC6(1), PC6(2)};
#undef PC6
#undef PC4
#undef PC2

static uint32_t sg_window(const struct iw_config *c) { return (uint32_t)c->socgpu_ib_size; }

static int sg_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	struct sg_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = sm->sim->cfg;
	st->sim = sm->sim;
	st->sm = sm;
	int n = st->cfg->socgpu_ib_size;
	st->all = n == 64 ? ~0ull : (1ull << n) - 1;
	/* (slot ids are below the window, at most 8 + 64 + 16 with n <= 8) */
	st->narrow = n <= 8 && sm->sim->window <= 256;
	st->release_operands = st->cfg->socgpu_release_at == 1;
	st->ask_ready_insert = st->release_operands;
	/* zeroed once, in the model's mapping (pages the kernels never use are
	 * never touched); a warp leaves its state zero when it finishes (see
	 * sg_warp_start), so the next warp in its place starts clean */
	st->w = iw_sim_alloc(sm->sim, (size_t)st->cfg->max_warps, st->narrow ? SG_STRIDE(1) : SG_STRIDE(0));
	st->window = sm->sim->window;
	st->ent = iw_sim_alloc(sm->sim, (size_t)st->cfg->max_warps * st->window, 1);
	if (!st->w || !st->ent) {
		iw_free(st);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	*state = st;
	return 0;
}

static void sg_sm_free(void *p)
{
	struct sg_state *st = p;
	iw_free(st); /* st->w goes with the simulation's mapping */
}

/* Take a released entry's registers out of the register masks (keep: every
 * bit but the entry's). */
static inline void regs_drop(struct sg_warp *x, const struct iw_inst *in, uint64_t keep, int nar)
{
	if (nar) {
		sg_reg8 *r = SG_AT(x, SG_O_REG(1), sg_reg8);
		uint8_t k8 = (uint8_t)keep; /* the masks have bits 0..7 only */
		for (int i = 0; i < in->nsrc; i++)
			r[in->src[i]][0] &= k8;
		for (int i = 0; i < in->ndst; i++)
			r[in->dst[i]][1] &= k8;
		return;
	}
	struct sg_regmask *r = SG_AT(x, SG_O_REG(0), struct sg_regmask);
	for (int i = 0; i < in->nsrc; i++)
		r[in->src[i]].readers &= keep;
	for (int i = 0; i < in->ndst; i++)
		r[in->dst[i]].writers &= keep;
}

/* Nothing to clear: a warp starts when the one before it in this place
 * had nothing in flight (the engine asserts it), so each of its entries was
 * released, which zeroes everything an empty IB reads (valid, issued,
 * ready, the kind and register masks, rows and columns, the scoreboard and
 * the in-flight counters, ord[] and nwait); the planes, slot and kcls are
 * read only for valid entries.  Clearing the ~6 KiB per warp cost about 20
 * host instructions per simulated one. */
static inline __attribute__((always_inline)) void warp_start(struct sg_state *st, struct iw_warp *w, int nar)
{
	struct sg_warp *x = sg_w(st, w, nar);
	IW_ASSERT(!x->valid && !x->issued && !x->ready && !*sg_nwait(nar, x));
	if (st->release_operands) {
		const struct sg_flight *f = sg_fl(nar, x);
		IW_ASSERT(!f->ctrl && !f->bar && !f->fence && !f->mem && !f->pred);
	}
}
static void sg_warp_start(void *p, struct iw_warp *w)
{
	struct sg_state *st = p;
	if (st->narrow)
		warp_start(st, w, 1);
	else
		warp_start(st, w, 0);
}

/* The memory and stop rules for an instruction of classes k (not 0), and
 * its entry (bit) in the kind masks.  Out of line: most instructions have
 * no class, and inlined, the compiler turns these tests into conditional
 * moves that every insert pays. */
static __attribute__((noinline)) void kind_enter(struct sg_warp *x, uint32_t k, uint64_t bit, uint64_t *mem_out,
						  uint64_t *stop_out)
{
	uint64_t mem = 0;
	if (k & K_MEM)
		mem |= x->kind.sync;              /* A memory, P barrier or fence */
	if (k & K_ST)
		mem |= x->kind.ld | x->kind.st;   /* A store, P load or store */
	if (k & K_LD)
		mem |= x->kind.st;                /* A load, P store */
	if (k & K_SYNC)
		mem |= x->kind.mem;               /* A barrier or fence, P memory */
	if (k & K_CTRL)
		*stop_out = x->valid;             /* A control/return waits for everything older */
	*mem_out = mem;
	if (k & K_MEM)
		x->kind.mem |= bit;
	if (k & K_LD)
		x->kind.ld |= bit;
	if (k & K_ST)
		x->kind.st |= bit;
	if (k & K_SYNC)
		x->kind.sync |= bit;
	if (k & (K_CTRL | K_BAR))
		x->kind.stop |= bit;
}

/* Write s into the free entry e.
 *
 * The dependences of A = s on the valid entries of the IB, one mask per
 * class: a pair with several reasons is counted in the first class of the
 * order RAW, WAR/WAW, memory, stop, so each mask excludes the earlier ones.
 * Every valid entry is older: entries live from insert (in order) until
 * release, and s is the youngest fetched. */
static inline __attribute__((always_inline)) void insert_entry(struct sg_state *st, struct sg_warp *x, struct iw_warp *w,
								struct iw_slot *s, int e, int nar)
{
	uint64_t bit = 1ull << e;
	const struct iw_inst *in = &s->in;
	/* Find the register dependences and enter A's registers in one pass.
	 * A free entry's bit is in no register mask (release drops it), so the
	 * only bits of e the masks read here are A's own, set by this pass (a
	 * register A reads and writes, or writes twice): masked off below. */
	uint64_t raw = 0, ww = 0;
	if (nar) {
		sg_reg8 *rg = SG_AT(x, SG_O_REG(1), sg_reg8);
		uint8_t b8 = (uint8_t)bit; /* e < 8 */
		for (int i = 0; i < in->nsrc; i++) {
			uint8_t *r = rg[in->src[i]];
			raw |= r[1];              /* RAW: A.src in P.dst */
			r[0] |= b8;
		}
		for (int i = 0; i < in->ndst; i++) {
			uint8_t *r = rg[in->dst[i]];
			ww |= r[0] | r[1];        /* WAR/WAW: A.dst in P.src or P.dst */
			r[1] |= b8;
		}
	} else {
		struct sg_regmask *rg = SG_AT(x, SG_O_REG(0), struct sg_regmask);
		for (int i = 0; i < in->nsrc; i++) {
			struct sg_regmask *r = &rg[in->src[i]];
			raw |= r->writers;        /* RAW: A.src in P.dst */
			r->readers |= bit;
		}
		for (int i = 0; i < in->ndst; i++) {
			struct sg_regmask *r = &rg[in->dst[i]];
			ww |= r->readers | r->writers; /* WAR/WAW: A.dst in P.src or P.dst */
			r->writers |= bit;
		}
	}
	raw &= ~bit;
	ww &= ~(raw | bit);
	uint32_t k = kind_of(in);
	uint64_t mem = 0, stop = x->kind.stop; /* P control/return or barrier holds everything younger */
	if (__builtin_expect(k != 0, 0))
		kind_enter(x, k, bit, &mem, &stop);
	sg_kcls(nar, x)[e] = (uint8_t)k;
	mem &= ~(raw | ww);
	stop &= ~(raw | ww | mem);
	uint64_t row = raw | ww | mem | stop;
	if (row) {
		struct iw_counters *cnt = &st->sim->res->cnt;
		if (nar) { /* the masks are below 256 */
			cnt->deps_found[DEP_RAW] += pop8[raw];
			cnt->deps_found[DEP_WARWAW] += pop8[ww];
			cnt->deps_found[DEP_MEM] += pop8[mem];
			cnt->deps_found[DEP_STOP] += pop8[stop];
		} else {
			cnt->deps_found[DEP_RAW] += nbits(raw);
			cnt->deps_found[DEP_WARWAW] += nbits(ww);
			cnt->deps_found[DEP_MEM] += nbits(mem);
			cnt->deps_found[DEP_STOP] += nbits(stop);
		}
		/* col[e] is 0 (release clears it) */
		for (uint64_t m = row; m; m &= m - 1) {
			int q = __builtin_ctzll(m);
			mat_put(nar, x, COL, q, mat_get(nar, x, COL, q) | bit);
		}
	}
	/* The class of each row bit, for the stall reason (see pl_set). */
	pl_set(nar, x, e, raw | mem, stop | mem);
	/* insert_keeps_candidate: the warp's answer changes only if the new entry
	 * is a candidate before the current one (lowest ready index), or the IB
	 * had nothing waiting (IB_EMPTY).  An entry with a non-empty row leaves
	 * the ready entries, and so first_r, alone, and it is the youngest, so
	 * the oldest waiting entry that names the stall stays.  With
	 * release_at = operands a ready entry may be held by in-flight hazards
	 * that the loop skips: any ready insert asks again there. */
	uint64_t waiting = x->valid & ~x->issued;
	if (!row) {
		if (st->ask_ready_insert || !(waiting & x->ready & (bit - 1))) /* (also when nothing waits) */
			iw_sim_cand_changed(st->sm, w);
		x->ready |= bit;
	} else if (!waiting) {
		iw_sim_cand_changed(st->sm, w);
	}
	mat_put(nar, x, ROW, e, row);
	uint64_t n = (*sg_nwait(nar, x))++; /* the youngest waiting entry */
	sg_ord(nar, x)[n >> 3] |= (uint64_t)(e + 1) << (8 * (n & 7));
	slot_put(nar, x, e, s->id);
	x->valid |= bit; /* (its issued bit is 0: release clears it) */
	*sg_ent(st, w, s) = (uint8_t)e; /* not released at its operand read (yet): see writeback */
	iw_count(st->sim, IW_A_DM_ROW_WRITE, 1);
	/* The ready NOR of each row changes only when the matrix does: count one
	 * evaluation of the warp per change (idle cycles are clock power). */
	iw_count(st->sim, IW_A_DM_READY_EVAL, 1);
}

/* Decode retries a refused insert after each event of the warp, so a full IB
 * is the common answer: it is decided before any of the insert's work. */
static inline __attribute__((always_inline)) int insert(struct sg_state *st, struct iw_warp *w, struct iw_slot *s,
							 int nar)
{
	struct sg_warp *x = sg_w(st, w, nar);
	uint64_t freem = ~x->valid & st->all;
	if (!freem)
		return IW_STALL_IB_FULL;
	insert_entry(st, x, w, s, __builtin_ctzll(freem), nar);
	/* IW_INSERT_UNTIL_ROOM: a full IB gets room only when release() frees
	 * an entry (it calls iw_sim_insert_room), so decode is not retried
	 * before; the refusals it saves had no effect */
	return freem & (freem - 1) ? 0 : IW_INSERT_FULL;
}
static __attribute__((noinline)) int insert_wide(struct sg_state *st, struct iw_warp *w, struct iw_slot *s)
{
	return insert(st, w, s, 0);
}
static int sg_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	return st->narrow ? insert(st, w, s, 1) : insert_wide(st, w, s);
}

/* k: the class; barrier: the older instruction is a barrier (its kcls).
 * A table rather than a switch: the class varies from stall to stall, and
 * the switch's jumps were mispredicted about one time in six. */
static int reason_of(int k, int barrier)
{
	_Static_assert(IW_STALL_COUNT <= 256, "a stall reason fits a byte");
	static const uint8_t tab[2][4] = {
		[0] = {[DEP_WARWAW] = IW_STALL_WAR_WAW, [DEP_RAW] = IW_STALL_RAW, [DEP_STOP] = IW_STALL_CONTROL,
		       [DEP_MEM] = IW_STALL_MEM_ORDER},
		[1] = {[DEP_WARWAW] = IW_STALL_WAR_WAW, [DEP_RAW] = IW_STALL_RAW, [DEP_STOP] = IW_STALL_BARRIER,
		       [DEP_MEM] = IW_STALL_MEM_ORDER},
	};
	return tab[barrier != 0][k];
}


/* Hazards with released, still executing instructions (release_at = operands). */
static int inflight_block(const struct sg_flight *f, const struct iw_inst *in)
{
	if (f->bar)
		return IW_STALL_BARRIER;
	if (f->ctrl)
		return IW_STALL_CONTROL;
	if (iw_sb_raw(&f->sb, in))
		return IW_STALL_RAW;
	if ((in->flags & IW_F_PRED_BRANCH) && f->pred)
		return IW_STALL_RAW;
	if (iw_sb_war_waw(&f->sb, in, 0))
		return IW_STALL_WAR_WAW;
	if ((iw_is_mem(in) && f->fence) || ((in->flags & (IW_F_BARRIER | IW_F_MEMBAR)) && f->mem))
		return IW_STALL_MEM_ORDER;
	return 0;
}

/* Why the oldest waiting entry waits: the class of its dependence on the
 * lowest entry of its row (kept as bit planes at insert), and for the stop
 * class whether that entry is a barrier (K_BAR of its kcls: IW_F_BARRIER),
 * all in the warp's record rather than in the two entries' slots.  Its row
 * is not empty: an entry with an empty row would have been offered or
 * blocked by an in-flight hazard, which names the stall instead. */
static inline __attribute__((always_inline)) int stall_reason(struct sg_warp *x, int nar)
{
	int oe = (int)(sg_ord(nar, x)[0] & 0xff) - 1;
	int q = __builtin_ctzll(mat_get(nar, x, ROW, oe));
	return reason_of(pl_class(nar, x, oe, q), sg_kcls(nar, x)[q] & K_BAR);
}

/* release_at = operands: the lowest ready entry not held by an in-flight
 * hazard, else the first such hazard names the stall (m: the ready waiting
 * entries, not 0).  Out of line, so that the common path below saves no
 * registers. */
static __attribute__((noinline)) struct iw_slot *candidate_inflight(struct sg_warp *x, struct iw_warp *w, uint64_t m,
								     int *reason, int nar)
{
	int first_r = 0;
	for (; m; m &= m - 1) {
		struct iw_slot *s = &w->slots[slot_get(nar, x, __builtin_ctzll(m))];
		int r = inflight_block(sg_fl(nar, x), &s->in);
		if (!r)
			return s;
		if (!first_r)
			first_r = r;
	}
	*reason = first_r;
	return NULL;
}

static inline __attribute__((always_inline)) struct iw_slot *candidate(struct sg_state *st, struct iw_warp *w,
									int *reason, int nar)
{
	struct sg_warp *x = sg_w(st, w, nar);
	uint64_t waiting = x->valid & ~x->issued;
	if (!waiting) {
		*reason = IW_STALL_IB_EMPTY;
		return NULL;
	}
	uint64_t m = waiting & x->ready;
	if (!m) {
		*reason = stall_reason(x, nar);
		return NULL;
	}
	if (st->release_operands)
		return candidate_inflight(x, w, m, reason, nar);
	return &w->slots[slot_get(nar, x, __builtin_ctzll(m))];
}
static __attribute__((noinline)) struct iw_slot *candidate_wide(struct sg_state *st, struct iw_warp *w, int *reason)
{
	return candidate(st, w, reason, 0);
}
static struct iw_slot *sg_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct sg_state *st = p;
	return st->narrow ? candidate(st, w, reason, 1) : candidate_wide(st, w, reason);
}

static inline __attribute__((always_inline)) void issue(struct sg_state *st, struct iw_warp *w, struct iw_slot *s,
							  int nar)
{
	struct sg_warp *x = sg_w(st, w, nar);
	int e = *sg_ent(st, w, s);
	/* Reorder statistics (counts_reorders): the older instructions of the
	 * warp still waiting, as iw_sim_count_reorder counts them, are those
	 * before e in ord[] (inserted in program order, dropped here at issue,
	 * as the engine's queue), where the engine walked the warp's slots. */
	uint32_t d = 0;
	uint64_t *ord = sg_ord(nar, x), *nwait = sg_nwait(nar, x);
	if ((ord[0] & 0xff) == (uint64_t)e + 1 && *nwait <= 8) {
		/* the oldest issues (most issues), and ord[] is one word */
		ord[0] >>= 8;
		(*nwait)--;
	} else {
		d = ord_find(x, e, nar);
		ord_remove(x, d, nar);
	}
	if (d) {
		struct iw_counters *cnt = &st->sim->res->cnt;
		cnt->reorders++;
		cnt->reorder_dist[d < IW_REORDER_BINS ? d - 1 : IW_REORDER_BINS - 1]++;
	}
	x->issued |= 1ull << e;
	iw_count(st->sim, IW_A_IB_READ, 1);
}
static __attribute__((noinline)) void issue_wide(struct sg_state *st, struct iw_warp *w, struct iw_slot *s)
{
	issue(st, w, s, 0);
}
static void sg_operands_read(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now);
static void sg_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	if (st->narrow)
		issue(st, w, s, 1);
	else
		issue_wide(st, w, s);
	/* Nothing to read from the RF (a load from a constant address, a
	 * branch, a barrier, S2R): its operands are read at issue, and the
	 * engine's collect stage, which calls the hook after a last read,
	 * never sees it.  (An instruction with sources frees in the cycle of
	 * its last read, the cycle before it can dispatch; this one can
	 * dispatch in the next cycle.) */
	if (st->release_operands && !s->in.nsrc) /* (no sources: none from the RF) */
		sg_operands_read(p, w, s, now);
	st->sim->res->cnt.ib_occ -= now; /* (release adds its cycle) */
}

static inline __attribute__((always_inline)) void release(struct sg_state *st, struct sg_warp *x, struct iw_warp *w,
							    struct iw_slot *s, uint64_t now, int nar)
{
	int e = *sg_ent(st, w, s) & ~ENT_RELEASED;
	uint64_t bit = 1ull << e, keep = ~bit;
	x->valid &= keep;
	x->issued &= keep;
	x->ready &= keep;
	/* clear the column: a row left empty makes its entry ready */
	uint64_t ready = x->ready;
	for (uint64_t m = mat_get(nar, x, COL, e); m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		uint64_t r = mat_get(nar, x, ROW, q) & keep;
		mat_put(nar, x, ROW, q, r);
		ready |= (uint64_t)(r == 0) << q; /* (no branch: often mispredicted) */
	}
	x->ready = ready;
	mat_put(nar, x, COL, e, 0);
	iw_sim_insert_room(st->sm, w); /* the entry is free: retry decode */
	regs_drop(x, &s->in, keep, nar);
	if (sg_kcls(nar, x)[e]) {
		x->kind.mem &= keep;
		x->kind.ld &= keep;
		x->kind.st &= keep;
		x->kind.sync &= keep;
		x->kind.stop &= keep;
	}
	iw_count(st->sim, IW_A_DM_COL_CLEAR, 1);
	iw_count(st->sim, IW_A_DM_READY_EVAL, 1);
	/* the engine charged insert..issue; the entry was held until now
	 * (sg_issue subtracted the issue's cycle) */
	st->sim->res->cnt.ib_occ += now;
}

static inline __attribute__((always_inline)) void operands_read(struct sg_state *st, struct iw_warp *w,
								 struct iw_slot *s, uint64_t now, int nar)
{
	struct sg_warp *x = sg_w(st, w, nar);
	release(st, x, w, s, now, nar);
	/* the matrix changed outside insert, issue and write-back: ask the
	 * warp's candidate and retry its decode */
	iw_sim_unblock(st->sm, w);
	const struct iw_inst *in = &s->in;
	struct sg_flight *f = sg_fl(nar, x);
	iw_sb_reserve(st->sim, &f->sb, in, 0);
	f->ctrl += iw_is_ctrl(in);
	f->bar += (in->flags & IW_F_BARRIER) != 0;
	f->fence += (in->flags & IW_F_MEMBAR) != 0;
	f->mem += iw_is_mem(in);
	f->pred += (in->flags & IW_F_SETS_PRED) != 0;
	*sg_ent(st, w, s) |= ENT_RELEASED;
}
static void sg_operands_read(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	if (!st->release_operands)
		return;
	if (st->narrow)
		operands_read(st, w, s, now, 1);
	else
		operands_read(st, w, s, now, 0);
}

static inline __attribute__((always_inline)) int writeback(struct sg_state *st, struct iw_warp *w, struct iw_slot *s,
							    uint64_t now, int nar)
{
	struct sg_warp *x = sg_w(st, w, nar);
	const struct iw_inst *in = &s->in;
	if (!(*sg_ent(st, w, s) & ENT_RELEASED)) {
		/* Not released at operand read: release_at = writeback. */
		release(st, x, w, s, now, nar);
		return in->ndst;
	}
	struct sg_flight *f = sg_fl(nar, x);
	iw_sb_release(st->sim, &f->sb, in, 0);
	f->ctrl -= iw_is_ctrl(in);
	f->bar -= (in->flags & IW_F_BARRIER) != 0;
	f->fence -= (in->flags & IW_F_MEMBAR) != 0;
	f->mem -= iw_is_mem(in);
	f->pred -= (in->flags & IW_F_SETS_PRED) != 0;
	return in->ndst;
}
static __attribute__((noinline)) int writeback_wide(struct sg_state *st, struct iw_warp *w, struct iw_slot *s,
						    uint64_t now)
{
	return writeback(st, w, s, now, 0);
}
static int sg_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	return st->narrow ? writeback(st, w, s, now, 1) : writeback_wide(st, w, s, now);
}

const struct iw_scheme_ops iw_scheme_socgpu = {
	.name = "socgpu",
	.help = "SOCGPU: per-warp IB of socgpu.ib_size with a dependence matrix, lowest ready entry issues",
	.window = sg_window,
	.sm_new = sg_sm_new,
	.sm_free = sg_sm_free,
	.warp_start = sg_warp_start,
	.insert = sg_insert,
	/* the matrix changes only at the warp's insert, issue and write-back,
	 * and with release_at = operands at its operand read, which asks the
	 * warp again itself (sg_operands_read) */
	.candidate_cacheable = 2,
	.counts_reorders = 1,
	/* entries free at release (write-back or operand read), not at issue */
	.insert_until_issue = IW_INSERT_UNTIL_ROOM,
	.insert_keeps_candidate = 1,
	.candidate = sg_candidate,
	.issue = sg_issue,
	.operands_read = sg_operands_read,
	.writeback = sg_writeback,
	.frees_addresses_at_dispatch = 1, /* memory order by instruction class, never by address */
};
