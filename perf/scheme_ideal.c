/*
 * perf/scheme_ideal.c -- the limit study of GhOST Table V (SCHEMES.md
 * section 6): a window of ideal.window instructions per warp (inserted and
 * not yet written back), oldest ready first (among those whose unit is free:
 * see id_candidate), with three idealisations that
 * can each be switched off:
 *   renaming            unbounded renaming: only RAW dependences remain;
 *                       off: WAW waits for the older writer's write-back and
 *                       WAR for the older readers' (the baseline scoreboards)
 *   disambiguation      memory instructions are ordered only when their trace
 *                       addresses overlap (no addresses: ordered, as unknown);
 *                       off: a pair that is not two plain loads keeps order
 *   fetch_through_control  perfect prediction: fetch never stops at taken
 *                       control and nothing waits for a control instruction;
 *                       off: fetch stops and younger instructions wait for
 *                       the control instruction's write-back
 * Kept in every mode (rules of the SM model, not of a predictor): a barrier
 * blocks the younger instructions of its warp until the CTA passes it and
 * issues after the warp's older memory instructions completed; a predicated
 * branch reads the last compare's predicate (a RAW dependence).
 * Choices left open by the table, written down here: "ordered" memory means
 * the younger issues after the older issued (as GhOST's IsB); the scheme
 * uses max(opc.cus, loog.cus) collector units so that a limit study is not
 * bounded by fewer operand buffers than a compared scheme has.
 *
 * Each instruction's dependences are found once at insertion (the latest
 * writers from a per-register table, memory and barrier order from the
 * window's memory instructions) and kept as a short list.  Readiness is then
 * maintained, not searched for: every unresolved dependence sits on a list of
 * its producer and is resolved when the producer issues or writes back.  An
 * instruction with more than MAXD dependences (a barrier or a store behind
 * many memory instructions) keeps no list: it is judged by scanning the older
 * part of the window whenever it is older than the oldest ready instruction.
 *
 * The window is memory-bound to simulate (a warp's state is long evicted
 * from the host's caches when it is next touched), so its order is kept in a
 * few cache lines instead of links through per-instruction data: each instruction
 * gets a position in a per-warp ring in program order, and bit masks over
 * the ring say which positions are in the window, waiting, ready, memory
 * instructions and so on.  "Oldest ready first" is then the first ready bit,
 * the oldest waiting one the first waiting bit, and the reorder distance of
 * an issue (how many older instructions still wait) a population count; an
 * instruction's own data is a record of 8 bytes (position, wake lists: what
 * its consumers' insertion and its own issue read) and a dependence list of
 * 32 bytes (links, open dependences: what its producers' wake walks read),
 * in per-warp arrays (see struct id_rec and struct id_dl).  The ring has four
 * times the window's positions, so it fills (and is compacted) only when the
 * oldest instruction stays while three windows of younger ones pass it.  The
 * latest-writer table names a writer only while it is in the window (its
 * write-back clears it), so looking a register up touches no record.
 */
#include "sim.h"

#include <string.h>

#define MAXD 12     /* dependences kept per instruction (bits of id_dl.open) */
#define NIL 0xffff  /* no slot / no dependence */
#define NLW 257     /* latest writers: registers 0..255, 256 = the predicate */

enum { K_WB, K_ISSUE }; /* wait for the older one's write-back / issue */
#define K_WB2 2 /* the second write-back list (see struct id_rec) */
/* Dependence classes, in the order of deps_found (a barrier counts as control). */
enum { C_WAR_WAW, C_RAW, C_CONTROL, C_MEM, C_BARRIER };
static const int cls_reason[5] = {IW_STALL_WAR_WAW, IW_STALL_RAW, IW_STALL_CONTROL, IW_STALL_MEM_ORDER,
				  IW_STALL_BARRIER};

/* Dependence i of the instruction in slot c is named (c << 4) | i (slots are
 * below 4096, sim_init's bound, and i below MAXD, so no name is NIL). */
#define DEP_ID(c, i) ((uint16_t)((c) << 4 | (i)))

/* Per instruction, what the scheme reads and writes of OTHER instructions
 * (a producer's wake lists when a consumer is inserted, a consumer's open
 * bits and position when a producer resolves it) is kept in compact per-warp
 * arrays indexed by slot, not in the engine's slots (two cache lines each)
 * or a line per instruction: the simulation is bound by host cache misses
 * (a warp's state is evicted between its turns), and a warp's records are
 * then a few cache lines for its whole window.  Whether an instruction is in
 * the window, issued, overflowed and so on is in the ring's masks. */
/* The producer's side: what inserting a consumer and its own issue and
 * write-back read (8 per cache line: a warp's are a few lines). */
struct id_rec {
	uint16_t pos;          /* ring position (physical: index into the ring) */
	uint16_t wake[3];      /* [K_WB] and [K_WB2], [K_ISSUE]: dependences of
				  younger ones resolved at its write-back / issue,
				  NIL-ended; a list runs through the consumers'
				  dnext.  Write-back dependences are dealt to two lists,
				  [K_WB] and [K_WB2], in turn: walking a list is
				  a miss per consumer, each waiting for the one
				  before (the link is in its line), and two
				  lists walked side by side overlap theirs.  The
				  order in which dependences resolve does not
				  matter (each clears its own bit; the oldest
				  ready one is a minimum). */
};
/* The consumer's side, its dependence list: all that walking a wake list
 * reads of a consumer (the next link, the open bits, the position when the
 * last one resolves) in one cache line, so that a consumer costs one line,
 * not two (slots are reused from a stack: consumers' records are scattered
 * and each is a miss of its own).  pos is a copy of id_rec.pos (both are
 * written at insert and compaction).  The class of each dependence (read
 * for stall reasons, with the open bits) is here for the first DCLS_IN of
 * them and in id_cold past those (rare: only a long list reaches them). */
#define DCLS_IN 10
struct id_dl {
	uint16_t dnext[MAXD];  /* next dependence on the same producer and event */
	uint16_t open;         /* bit i: dependence i not resolved yet */
	uint16_t pos;          /* = id_rec.pos */
	uint32_t dcls;         /* class of dependence i < DCLS_IN in bits 3i..3i+2 */
};
_Static_assert(sizeof(struct id_rec) == 8 && sizeof(struct id_dl) == 32, "records pack into cache lines");
_Static_assert(3 * DCLS_IN <= 32 && DCLS_IN < MAXD, "classes split between id_dl and id_cold");

/* Per slot, read only for overflowed instructions: the last rescan found
 * dependence class bcls open on the instruction in slot bon, at epoch checked. */
struct id_cold {
	uint64_t checked;
	uint16_t bon;
	uint8_t bcls;
	uint8_t dcls_hi;       /* class of dependence DCLS_IN + i in bits 3i..3i+2 */
};

/* The ring's masks for 64 consecutive positions: one cache line, so that an
 * operation on an instruction touches one line for all of them. */
enum { M_LIVE, M_WAIT, M_READY, M_MEM, M_STORE, M_OVF, M_OVFREE, M_COUNT };
/* live     in the window (inserted, not written back)
 * wait     waiting (inserted, not issued)
 * ready    waiting, not overflowed, no dependence open
 * mem      a memory instruction; store: one that is not a plain load
 * ovf      waiting and overflowed; ovfree: ... and no kept dependence open */
struct id_blk {
	uint64_t m[8];
};

/* A warp's scalars.  Ring positions are counted modulo 2^32 ("virtual"; the
 * ring index is the low bits): the window's positions are lo..hi-1, the
 * oldest (lo) in it unless it is empty (lo == hi). */
struct id_warp {
	uint32_t n;              /* instructions in the window */
	uint32_t lo, hi;
	uint32_t novf;           /* waiting overflowed instructions */
	uint32_t novf_free;      /* of those, how many have no kept dependence open */
	uint16_t last_ctrl, last_sync; /* slot of the latest control / barrier instruction in the window */
	uint64_t epoch;          /* issues and write-backs so far */
	/* the oldest ready instruction (the first ready bit), kept so that
	 * asking for the candidate reads this line only */
	uint32_t top;            /* its position */
	uint16_t top_slot;       /* its slot, NIL if none is ready */
	/* the last answer was top_slot with every ready instruction waiting
	 * for a busy unit of these classes (0: none kept): until an issue or
	 * an instruction becoming ready (resolve; an insert adds its class),
	 * and while they stay busy, so is the next one, without a walk over
	 * the ready instructions (asked at every issue stage) */
	uint8_t held_busy;
};
_Static_assert(sizeof(struct id_warp) <= 64, "a warp's scalars fill one cache line");
_Static_assert(sizeof(struct id_blk) == 64, "mask blocks are cache lines");

/* What a warp's operations touch is one block of memory: its scalars (one
 * cache line), the ring's mask blocks, the records, the ring's slots, the
 * latest-writer table, the dependence lists and the stamps (see rescan).  The scheme's own fields every operation reads
 * are the first cache line of the state. */
struct id_state {
	unsigned char *chunk;    /* warp i's block at chunk + i * stride (cache-line aligned) */
	struct iw_sim *sim;
	struct iw_sm *sm;        /* the SM it belongs to (for the engine's helpers) */
	/* the run's counters, fixed for the simulation (sim_init sets them
	 * before sm_new): one load instead of a chain through sim */
	struct iw_counters *cnt;
	uint64_t *ib_read;       /* &sim->cur_act[IW_A_IB_READ] */
	const struct iw_config *cfg;
	uint32_t stride, r_off, ord_off, uc_off, lw_off, dl_off, mv_off; /* offsets in a warp's block */
	uint32_t nslots, nblk, cap, cmask, win;
	/* cold */
	struct id_cold *cold;    /* [warp * nslots + slot], apart: only overflowed ones use it */
	struct id_blk *tmp_blk;  /* compaction scratch: nblk blocks, cap slots */
	uint16_t *tmp_ord;
};

/* The parts of warp `wid`'s state an operation needs. */
struct id_view {
	struct id_warp *x;
	struct iw_slot *slots;   /* the engine's slots of the warp */
	struct id_blk *b;        /* [ring index / 64] */
	struct id_rec *r;        /* [slot] */
	struct id_dl *dl;        /* [slot] */
	uint64_t *moved;         /* [slot]: the warp's epoch at its last issue or write-back (see rescan) */
	uint16_t *ord;           /* [ring index]: the slot at each position */
	uint8_t *unit;           /* [ring index]: its instruction's unit class (candidate_unit) */
	uint16_t *lw;            /* [register]: slot of the latest writer in the window, or NIL */
	uint32_t cmask;
};

static inline struct id_view view(const struct id_state *st, const struct iw_warp *w)
{
	unsigned char *base = st->chunk + (size_t)w->id * st->stride;
	struct id_view v = {(struct id_warp *)base, w->slots, (struct id_blk *)(base + 64),
			    (struct id_rec *)(base + st->r_off), (struct id_dl *)(base + st->dl_off),
			    (uint64_t *)(base + st->mv_off), (uint16_t *)(base + st->ord_off),
			    base + st->uc_off, (uint16_t *)(base + st->lw_off), st->cmask};
	return v;
}

static inline struct id_cold *cold_of(const struct id_state *st, uint32_t wid, uint16_t slot)
{
	return st->cold + (size_t)wid * st->nslots + slot;
}

/* The class of dependence i of the instruction in slot `slot`. */
static inline int dl_cls(const struct id_state *st, const struct id_view *v, uint32_t wid, uint16_t slot, int i)
{
	if (i < DCLS_IN)
		return (int)(v->dl[slot].dcls >> (3 * i) & 7);
	return (int)(cold_of(st, wid, slot)->dcls_hi >> (3 * (i - DCLS_IN)) & 7);
}

static uint32_t id_window(const struct iw_config *c) { return (uint32_t)c->ideal_window; }
static uint32_t id_cus(const struct iw_config *c) { return (uint32_t)(c->cus > c->loog_cus ? c->cus : c->loog_cus); }
static int id_through(const struct iw_config *c) { return c->ideal_fetch_through_control; }

/* ------------------------------------------------------------- ring masks */

/* Population count without a libgcc call (the build targets plain x86-64). */
static inline uint32_t popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

static inline int bit_get(const struct id_view *v, int m, uint32_t i)
{
	return (int)(v->b[i >> 6].m[m] >> (i & 63) & 1);
}
static inline void bit_set(const struct id_view *v, int m, uint32_t i) { v->b[i >> 6].m[m] |= 1ull << (i & 63); }
static inline void bit_clr(const struct id_view *v, int m, uint32_t i) { v->b[i >> 6].m[m] &= ~(1ull << (i & 63)); }

/* The instruction in `slot` became the warp's oldest ready one: the engine
 * reads its slot's first line when it asks for the candidate and writes it
 * at issue, usually a few stages later in the same or the next cycle (the
 * second line is not touched with ideal).  The slot was last touched at
 * decode, long evicted (the SM-major order runs the other SMs in between),
 * so it is asked for now (and the scheme's record of it, for id_issue) and
 * the misses overlap the rest of the tick instead of stalling the issue
 * stage. */
static inline void prefetch_slot(const struct id_view *v, uint16_t slot)
{
	__builtin_prefetch(&v->slots[slot], 0);
	__builtin_prefetch(&v->r[slot], 1); /* and its record, which id_issue reads and writes */
}

/* Virtual position of ring index i, a position of the window. */
static inline uint32_t vpos(const struct id_view *v, uint32_t i)
{
	return v->x->lo + ((i - v->x->lo) & v->cmask);
}

/* The first position in [from, to) whose mask-m bit is set, or `to`.  The
 * first word decides most calls: bits past the word's end shift in as 0. */
static inline uint32_t first_set(const struct id_view *v, int m, uint32_t from, uint32_t to)
{
	uint32_t left = to - from;
	if (!left)
		return to;
	uint32_t i = from & v->cmask, span = 64 - (i & 63);
	uint64_t bits = v->b[i >> 6].m[m] >> (i & 63);
	if (bits) {
		uint32_t t = (uint32_t)__builtin_ctzll(bits);
		return t < left ? from + t : to;
	}
	while (left > span) {
		from += span;
		left -= span;
		span = 64;
		bits = v->b[(from & v->cmask) >> 6].m[m];
		if (bits) {
			uint32_t t = (uint32_t)__builtin_ctzll(bits);
			return t < left ? from + t : to;
		}
	}
	return to;
}

/* Move *at to the last position in [lo, *at) whose mask-m bit is set; 0 if none. */
static inline int prev_set(const struct id_view *v, int m, uint32_t lo, uint32_t *at)
{
	uint32_t to = *at, left = to - lo;
	while (left) {
		uint32_t i = (to - 1) & v->cmask, top = i & 63;
		/* bits at or below position to - 1 of its word, moved to the top */
		uint64_t bits = v->b[i >> 6].m[m] << (63 - top);
		if (bits) {
			uint32_t t = (uint32_t)__builtin_clzll(bits); /* to - 1 - t is the position */
			if (t >= left)
				return 0;
			*at = to - 1 - t;
			return 1;
		}
		if (left <= top + 1)
			return 0;
		left -= top + 1;
		to -= top + 1;
	}
	return 0;
}

/* How many positions in [from, to) have their mask-m bit set, counted from
 * the young end and stopped once `cap` are found. */
static inline __attribute__((always_inline)) uint32_t count_set(const struct id_view *v, int m, uint32_t from, uint32_t to, uint32_t cap)
{
	uint32_t len = to - from, fi = from & v->cmask;
	if (len && (fi & 63) + len <= 64) {
		/* within one word (the usual distance is short): one count */
		uint64_t bits = v->b[fi >> 6].m[m] >> (fi & 63);
		if (len < 64)
			bits &= (1ull << len) - 1;
		uint32_t n = bits ? popcount64(bits) : 0;
		return n < cap ? n : cap;
	}
	uint32_t d = 0;
	while (to != from && d < cap) {
		uint32_t i = (to - 1) & v->cmask, nb = (i & 63) + 1, left = to - from;
		uint64_t bits = v->b[i >> 6].m[m];
		if (nb < 64)
			bits &= (1ull << nb) - 1;
		if (left < nb) {
			bits &= ~((1ull << (nb - left)) - 1);
			nb = left;
		}
		if (bits) /* (the usual issue has no older waiting one) */
			d += popcount64(bits);
		to -= nb;
	}
	return d < cap ? d : cap;
}

/* The ring is full (hi - lo == cap): renumber the window's instructions
 * lo, lo + 1, ... in program order.  Rare (see the top of the file), and
 * linear in the window. */
static __attribute__((noinline)) void compact(struct id_state *st, const struct iw_warp *w)
{
	struct id_view vw = view(st, w), *v = &vw;
	struct id_warp *x = v->x;
	memcpy(st->tmp_blk, v->b, st->nblk * sizeof *v->b);
	memcpy(st->tmp_ord, v->ord, st->cap * sizeof *v->ord);
	memset(v->b, 0, st->nblk * sizeof *v->b);
	struct id_view old = *v;
	old.b = st->tmp_blk;
	uint32_t to = x->lo;
	for (uint32_t p = first_set(&old, M_LIVE, x->lo, x->hi); p != x->hi; p = first_set(&old, M_LIVE, p + 1, x->hi)) {
		uint32_t i = p & v->cmask, j = to++ & v->cmask;
		uint16_t slot = st->tmp_ord[i];
		v->ord[j] = slot;
		v->unit[j] = (uint8_t)w->slots[slot].in.unit;
		v->r[slot].pos = v->dl[slot].pos = (uint16_t)j;
		for (int m = 0; m < M_COUNT; m++)
			if (bit_get(&old, m, i))
				bit_set(v, m, j);
	}
	x->hi = to;
	if (x->top_slot != NIL)
		x->top = vpos(v, v->r[x->top_slot].pos);
}

/* --------------------------------------------------------------- lifetime */

static uint32_t round64(size_t n) { return (uint32_t)((n + 63) & ~(size_t)63); }

/* All of it from the simulation's large pages, freed with it. */
static int id_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	const struct iw_config *c = sm->sim->cfg;
	struct id_state *st = iw_sim_alloc(sm->sim, 1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = c;
	st->sim = sm->sim;
	st->sm = sm;
	st->cnt = &sm->sim->res->cnt;
	st->ib_read = &sm->sim->cur_act[IW_A_IB_READ];
	st->win = (uint32_t)c->ideal_window;
	st->nslots = sm->sim->window;
	/* a power of two (the index is the position's low bits), at least one
	 * mask word; the window is at most 4096, so indices fit 16 bits */
	for (st->cap = 64; st->cap < 4 * st->win; st->cap *= 2)
		;
	st->cmask = st->cap - 1;
	st->nblk = st->cap / 64;
	st->r_off = 64 + st->nblk * (uint32_t)sizeof(struct id_blk);
	st->ord_off = st->r_off + round64(st->nslots * sizeof(struct id_rec));
	st->uc_off = st->ord_off + round64(st->cap * sizeof(uint16_t));
	st->lw_off = st->uc_off + round64(st->cap);
	st->dl_off = st->lw_off + round64(NLW * sizeof(uint16_t));
	st->mv_off = st->dl_off + round64(st->nslots * sizeof(struct id_dl));
	st->stride = st->mv_off + round64(st->nslots * sizeof(uint64_t));
	/* everything is set when a warp starts or an instruction is inserted */
	st->chunk = iw_sim_alloc(sm->sim, (size_t)c->max_warps, st->stride);
	st->cold = iw_sim_alloc(sm->sim, (size_t)c->max_warps * st->nslots, sizeof *st->cold);
	st->tmp_blk = iw_sim_alloc(sm->sim, st->nblk, sizeof *st->tmp_blk);
	st->tmp_ord = iw_sim_alloc(sm->sim, st->cap, sizeof *st->tmp_ord);
	if (!st->chunk || !st->cold || !st->tmp_blk || !st->tmp_ord)
		return iw_fail(e, IW_ERUN, "out of memory");
	*state = st;
	return 0;
}

static void id_warp_start(void *p, struct iw_warp *w)
{
	struct id_state *st = p;
	struct id_view v = view(st, w);
	struct id_warp *x = v.x;
	x->n = x->lo = x->hi = 0;
	x->novf = x->novf_free = 0;
	x->held_busy = 0;
	x->epoch = 0;
	x->last_ctrl = x->last_sync = x->top_slot = NIL;
	memset(v.b, 0, st->nblk * sizeof *v.b);
	memset(v.moved, 0, st->nslots * sizeof *v.moved); /* epochs restart (see id_insert) */
	for (int i = 0; i < NLW; i++)
		v.lw[i] = NIL;
}

/* ---------------------------------------------------------- dependences */

/* A found at insertion depends on the older instruction in slot p.  Every
 * producer found is in the window, so its write-back is ahead; an issue
 * dependence is open only if it has not issued yet.  Past MAXD only the count
 * grows: the instruction is then judged by rescan(), but keeps the first MAXD
 * as a gate (it cannot be ready before they resolve: the scan finds each of
 * them open while it is, as the latest writers found here stay the latest
 * ones older than it and the other rules are the same). */
/* An instruction's dependences while insert() finds them: in locals
 * (registers), written to its record and list once. */
struct dep_list {
	uint32_t open, nd, dcls_hi;
	struct id_dl d;
};

static inline void add_dep(struct id_state *st, const struct id_view *v, struct dep_list *a, uint16_t aslot,
			   uint16_t p, int kind, int cls)
{
	st->cnt->deps_found[cls < 4 ? cls : C_CONTROL]++;
	if (a->nd >= MAXD) {
		a->nd = MAXD + 1;
		return;
	}
	int i = a->nd++;
	if (i < DCLS_IN)
		a->d.dcls |= (uint32_t)cls << (3 * i);
	else
		a->dcls_hi |= (uint32_t)cls << (3 * (i - DCLS_IN));
	struct id_rec *pr = &v->r[p];
	if (kind == K_ISSUE && !bit_get(v, M_WAIT, pr->pos))
		return; /* issued already */
	a->d.dnext[i] = pr->wake[kind];
	if (kind == K_WB) { /* pushed on [K_WB], which then becomes the other list */
		pr->wake[K_WB] = pr->wake[K_WB2];
		pr->wake[K_WB2] = DEP_ID(aslot, i);
	} else {
		pr->wake[kind] = DEP_ID(aslot, i);
	}
	a->open |= 1u << i;
}

static int mem_range(const struct iw_warp *w, const struct iw_inst *in, uint64_t *lo, uint64_t *hi)
{
	if (in->maddr == IW_MADDR_NONE || !w->maddr || !w->maddr[in->maddr].n)
		return 0;
	const struct iw_mem_addrs *ma = &w->maddr[in->maddr];
	uint64_t a = UINT64_MAX, b = 0;
	for (uint32_t i = 0; i < ma->n; i++) {
		uint64_t x = iw_mem_lane(ma, i);
		a = x < a ? x : a;
		b = x > b ? x : b;
	}
	*lo = a;
	*hi = b + (in->mem_width ? in->mem_width : 4);
	return 1;
}

/* mem_overlap with A's addresses known and their range [alo, ahi) found. */
static int mem_overlap_known(const struct iw_warp *w, const struct iw_inst *a, uint64_t alo, uint64_t ahi,
			     const struct iw_inst *b)
{
	uint64_t blo, bhi;
	if (!mem_range(w, b, &blo, &bhi))
		return 1; /* unknown addresses: assume they meet */
	if (ahi <= blo || bhi <= alo)
		return 0;
	const struct iw_mem_addrs *ma = &w->maddr[a->maddr], *mb = &w->maddr[b->maddr];
	uint64_t wa = a->mem_width ? a->mem_width : 4, wb = b->mem_width ? b->mem_width : 4;
	for (uint32_t i = 0; i < ma->n; i++) {
		uint64_t x = iw_mem_lane(ma, i);
		for (uint32_t j = 0; j < mb->n; j++) {
			uint64_t y = iw_mem_lane(mb, j);
			if (x < y + wb && y < x + wa)
				return 1;
		}
	}
	return 0;
}

/* Exact overlap of two lane-address sets (perfect disambiguation). */
static int mem_overlap(const struct iw_warp *w, const struct iw_inst *a, const struct iw_inst *b)
{
	uint64_t alo, ahi;
	if (!mem_range(w, a, &alo, &ahi))
		return 1; /* unknown addresses: assume they meet */
	return mem_overlap_known(w, a, alo, ahi, b);
}

/* Must the memory instruction A stay behind the older memory instruction P? */
static int mem_ordered(const struct iw_config *c, const struct iw_warp *w, const struct iw_inst *a,
		       const struct iw_inst *p)
{
	return !(iw_is_plain_load(a) && iw_is_plain_load(p)) && (!c->ideal_disambiguation || mem_overlap(w, a, p));
}

/* Dependences of A on the older P: up to three (kind, class) pairs. */
static int find_deps(const struct id_state *st, const struct iw_warp *w, const struct iw_inst *a,
		     const struct iw_inst *p, int latest_w, uint8_t *kind, uint8_t *cls)
{
	const struct iw_config *c = st->cfg;
	int n = 0;
	/* RAW / WAW only on the latest older writer: latest_w flags it */
	if (latest_w)
		kind[n] = K_WB, cls[n++] = C_RAW;
	else if (!c->ideal_renaming && iw_regs_meet(a->dst, a->ndst, p->src, p->nsrc))
		kind[n] = K_WB, cls[n++] = C_WAR_WAW; /* WAR: as the WAR scoreboard */
	if (iw_is_mem(a) && iw_is_mem(p) && mem_ordered(c, w, a, p))
		kind[n] = K_ISSUE, cls[n++] = C_MEM;
	if (iw_is_sync(p) || (iw_is_sync(a) && iw_is_mem(p)))
		kind[n] = K_WB, cls[n++] = C_BARRIER;
	else if (!c->ideal_fetch_through_control && iw_is_ctrl(p))
		kind[n] = K_WB, cls[n++] = C_CONTROL;
	return n;
}

/* Readiness of an overflowed instruction (its list is not complete): scan
 * the older part of the window, youngest first, for a dependence still open.
 * 0 = ready, else the stall reason of the first one found.
 *
 * The scan's answer depends only on which instructions between the one it
 * stops at (bon) and s are in the window and which of them issued: the set of
 * the latest writers and every dependence on them.  So it is kept until one
 * of those issues or writes back: each stamps `moved` with the warp's epoch
 * (while some overflowed instruction waits: no kept scan exists otherwise),
 * and one that leaves the window stamps its younger neighbour too, so that
 * walking the same few entries (without the register matching) sees it. */
static __attribute__((noinline)) int rescan(struct id_state *st, struct iw_warp *w, const struct id_view *v, uint16_t sid)
{
	const struct id_warp *x = v->x;
	const struct iw_slot *s = &w->slots[sid];
	struct id_cold *sc = cold_of(st, w->id, sid);
	uint32_t at = vpos(v, v->r[sid].pos);
	if (sc->bon != NIL && v->moved[sid] <= sc->checked) {
		/* stops at bon or before: bon or a stamp is ahead */
		uint32_t k = at;
		int found = prev_set(v, M_LIVE, x->lo, &k);
		while (found && v->ord[k & v->cmask] != sc->bon && v->moved[v->ord[k & v->cmask]] <= sc->checked)
			found = prev_set(v, M_LIVE, x->lo, &k);
		if (found && v->ord[k & v->cmask] == sc->bon && v->moved[sc->bon] <= sc->checked)
			return cls_reason[sc->bcls];
	}
	sc->checked = x->epoch;
	sc->bon = NIL;
	int nseen = 0, pred_seen = 0;
	uint16_t seen[IW_MAX_SRC + IW_MAX_DST + 1];
	for (uint32_t k = at; prev_set(v, M_LIVE, x->lo, &k);) {
		uint16_t ks = v->ord[k & v->cmask];
		const struct iw_slot *o = &w->slots[ks];
		int latest = 0;
		for (int i = 0; i < o->in.ndst; i++) {
			uint16_t r = o->in.dst[i];
			int dup = 0, use = 0;
			for (int j = 0; j < nseen; j++)
				dup |= seen[j] == r;
			for (int j = 0; j < s->in.nsrc; j++)
				use |= s->in.src[j] == r;
			for (int j = 0; j < s->in.ndst && !st->cfg->ideal_renaming; j++)
				use |= s->in.dst[j] == r;
			if (!dup && use) {
				latest = 1;
				if (nseen < (int)IW_ARRAY_LEN(seen))
					seen[nseen++] = r;
			}
		}
		if ((s->in.flags & IW_F_PRED_BRANCH) && (o->in.flags & IW_F_SETS_PRED) && !pred_seen) {
			pred_seen = 1;
			latest = 1;
		}
		uint8_t kind[3], cls[3];
		int nf = find_deps(st, w, &s->in, &o->in, latest, kind, cls);
		/* o is in the window: a write-back dependence on it is open */
		for (int i = 0; i < nf; i++)
			if (kind[i] == K_WB || o->state == IW_SLOT_SCHEME) {
				sc->bon = ks;
				sc->bcls = cls[i];
				return cls_reason[cls[i]];
			}
	}
	return 0;
}

/* Dependence d's producer issued or wrote back. */
static inline void resolve(const struct id_view *v, uint16_t d)
{
	struct id_dl *c = &v->dl[d >> 4];
	c->open &= (uint16_t)~(1u << (d & 15));
	if (!c->open) {
		/* it waits (it cannot issue with a dependence open), so its
		 * overflow bit is valid; the bit shares the block line written
		 * below */
		struct id_warp *x = v->x;
		x->held_busy = 0; /* a new ready instruction: the kept answer goes */
		if (!bit_get(v, M_OVF, c->pos)) {
			bit_set(v, M_READY, c->pos);
			uint32_t at = vpos(v, c->pos);
			if (x->top_slot == NIL || at - x->lo < x->top - x->lo) {
				x->top = at;
				x->top_slot = (uint16_t)(d >> 4);
				prefetch_slot(v, x->top_slot);
			}
		} else {
			bit_set(v, M_OVFREE, c->pos);
			x->novf_free++;
		}
	}
}

static int id_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	const struct iw_config *c = st->cfg;
	struct id_view v = view(st, w);
	struct id_warp *x = v.x;
	IW_ASSERT(x->n < st->win); /* IW_INSERT_FULL holds decode back until a write-back frees room */
	if (x->hi - x->lo == st->cap)
		compact(st, w);
	const struct iw_inst *a = &s->in;
	uint16_t id = s->id;
	int top_was_nil = x->top_slot == NIL;
	/* built here and stored whole at the end: the list's line is long
	 * evicted, and stores need not wait for it as loads would */
	struct dep_list dl, *e = &dl; /* dnext and dcls past nd are never read */
	dl.open = 0;
	dl.nd = 0;
	dl.d.dcls = 0;
	dl.dcls_hi = 0;
	/* RAW (and WAW without renaming): the latest older writer only, from the
	 * per-register table; the others are found by scanning the window. */
	for (int i = 0; i < a->nsrc; i++) {
		uint16_t r = v.lw[a->src[i]];
		if (r == NIL)
			continue; /* (a duplicate of it has no writer either) */
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= a->src[j] == a->src[i];
		if (!dup)
			add_dep(st, &v, e, id, r, K_WB, C_RAW);
	}
	if ((a->flags & IW_F_PRED_BRANCH) && v.lw[256] != NIL)
		add_dep(st, &v, e, id, v.lw[256], K_WB, C_RAW);
	if (!c->ideal_renaming)
		for (int i = 0; i < a->ndst; i++)
			if (v.lw[a->dst[i]] != NIL)
				add_dep(st, &v, e, id, v.lw[a->dst[i]], K_WB, C_WAR_WAW);
	if (!c->ideal_fetch_through_control && x->last_ctrl != NIL)
		add_dep(st, &v, e, id, x->last_ctrl, K_WB, C_CONTROL);
	if (x->last_sync != NIL) /* barriers chain: the latest covers the older ones */
		add_dep(st, &v, e, id, x->last_sync, K_WB, C_BARRIER);
	int mem = iw_is_mem(a), sync = iw_is_sync(a), plain = mem && iw_is_plain_load(a);
	/* Youngest first.  Ordered memory issues in order, so once an older
	 * store that A must follow is found, everything older is covered (a
	 * store itself waited for every older load and store), unless addresses
	 * let stores pass each other (disambiguation).  With renaming only the
	 * memory instructions matter, and to a plain load only the others: walk
	 * their masks, not the whole window. */
	if (!c->ideal_renaming) {
		int mem_done = 0;
		for (uint32_t k = x->hi; prev_set(&v, M_LIVE, x->lo, &k);) {
			uint16_t ks = v.ord[k & v.cmask];
			const struct iw_inst *pi = &w->slots[ks].in;
			if (iw_regs_meet(a->dst, a->ndst, pi->src, pi->nsrc))
				add_dep(st, &v, e, id, ks, K_WB, C_WAR_WAW); /* WAR: as the WAR scoreboard */
			if (!bit_get(&v, M_MEM, k & v.cmask) || mem_done)
				continue;
			if (sync) {
				add_dep(st, &v, e, id, ks, K_WB, C_BARRIER);
			} else if (mem && mem_ordered(c, w, a, pi)) {
				add_dep(st, &v, e, id, ks, K_ISSUE, C_MEM);
				mem_done = !c->ideal_disambiguation && !iw_is_plain_load(pi);
			}
		}
	} else if (sync) {
		for (uint32_t k = x->hi; prev_set(&v, M_MEM, x->lo, &k);) {
			add_dep(st, &v, e, id, v.ord[k & v.cmask], K_WB, C_BARRIER);
			if (e->nd > MAXD) { /* the older ones are only counted (add_dep) */
				st->cnt->deps_found[C_CONTROL] += count_set(&v, M_MEM, x->lo, k, UINT32_MAX);
				break;
			}
		}
	} else if (mem) {
		/* A's address range once, not per pair; without addresses it
		 * meets every one (mem_overlap) */
		uint64_t alo = 0, ahi = 0;
		int known = c->ideal_disambiguation && mem_range(w, a, &alo, &ahi);
		if (plain) {
			for (uint32_t k = x->hi; prev_set(&v, M_STORE, x->lo, &k);) {
				uint16_t ks = v.ord[k & v.cmask];
				if (!known || mem_overlap_known(w, a, alo, ahi, &w->slots[ks].in)) {
					add_dep(st, &v, e, id, ks, K_ISSUE, C_MEM);
					if (!c->ideal_disambiguation)
						break;
					if (!known && e->nd > MAXD) {
						/* each older store meets it too and is only
						 * counted (add_dep past MAXD) */
						st->cnt->deps_found[C_MEM] += count_set(&v, M_STORE, x->lo, k, UINT32_MAX);
						break;
					}
				}
			}
		} else {
			for (uint32_t k = x->hi; prev_set(&v, M_MEM, x->lo, &k);) {
				uint16_t ks = v.ord[k & v.cmask];
				if (!known || mem_overlap_known(w, a, alo, ahi, &w->slots[ks].in)) {
					add_dep(st, &v, e, id, ks, K_ISSUE, C_MEM);
					if (!c->ideal_disambiguation && bit_get(&v, M_STORE, k & v.cmask))
						break;
					if (!known && c->ideal_disambiguation && e->nd > MAXD) {
						/* as for loads, over every older memory instruction */
						st->cnt->deps_found[C_MEM] += count_set(&v, M_MEM, x->lo, k, UINT32_MAX);
						break;
					}
				}
			}
		}
	}
	for (int i = 0; i < a->ndst; i++)
		v.lw[a->dst[i]] = id;
	if (a->flags & IW_F_SETS_PRED)
		v.lw[256] = id;
	if (iw_is_ctrl(a))
		x->last_ctrl = id;
	if (sync)
		x->last_sync = id;

	/* the youngest position of the window, waiting */
	uint32_t i = x->hi++ & v.cmask;
	v.ord[i] = id;
	v.unit[i] = (uint8_t)a->unit;
	struct id_rec *ne = &v.r[id];
	ne->pos = (uint16_t)i;
	ne->wake[K_WB] = ne->wake[K_ISSUE] = ne->wake[K_WB2] = NIL;
	dl.d.open = (uint16_t)dl.open;
	dl.d.pos = (uint16_t)i;
	v.dl[id] = dl.d;
	if (dl.nd > DCLS_IN) /* (below, no class past DCLS_IN is read: none is open) */
		cold_of(st, w->id, id)->dcls_hi = (uint8_t)dl.dcls_hi;
	/* moved[id] is not reset here (a write miss per insert): it holds the
	 * last stamp E of the slot's previous instruction, or 0 (warp_start).
	 * E <= the epoch now, and a kept scan that reads moved[id] (for this
	 * one or a younger instruction: only the part of the window older
	 * than the scanned one is walked) was checked at an epoch at least the
	 * one now, so E <= checked decides as 0 would. */
	bit_set(&v, M_LIVE, i);
	bit_set(&v, M_WAIT, i);
	if (mem)
		bit_set(&v, M_MEM, i);
	if (mem && !plain)
		bit_set(&v, M_STORE, i);
	/* A kept answer (held_busy: every ready instruction waits for a busy
	 * unit of those classes) stays with a new instruction that is not
	 * ready, and with a ready one once its class joins the set: the next
	 * ask walks again if that unit is free, and otherwise the walk would
	 * pass over it too. */
	if (e->nd > MAXD) {
		x->held_busy = 0;
		cold_of(st, w->id, id)->bon = NIL;
		bit_set(&v, M_OVF, i);
		x->novf++;
		if (!e->open) {
			bit_set(&v, M_OVFREE, i);
			x->novf_free++;
		}
	} else if (!e->open) {
		if (x->held_busy)
			x->held_busy |= (uint8_t)(1u << a->unit);
		bit_set(&v, M_READY, i);
		if (x->top_slot == NIL) { /* the youngest: the oldest ready only if alone */
			x->top = x->hi - 1;
			x->top_slot = id;
		}
	}
	/* insert_keeps_candidate: the youngest instruction changes no older one's
	 * readiness, so candidate()'s answer stays unless the new one is ready
	 * or judged by a scan (open == 0): it is the answer if nothing was ready
	 * (top_slot NIL before: the answer was NULL or an overflowed one, which
	 * the new one, younger, does not displace) or every older ready one
	 * waits for a busy unit and its own unit is free; or nothing waited at
	 * all (the reason was an empty buffer).  w->unissued counts the waiting
	 * ones before this insert (the engine counts it after).  Saying so
	 * also wakes a sub-core asleep on the busy unit of the warp's offer. */
	if (!e->open || (top_was_nil && !w->unissued))
		iw_sim_cand_changed(st->sm, w);
	/* The window frees at write-back, which then calls iw_sim_insert_room:
	 * decode is not retried before (insert_until_issue). */
	x->n++;
	return x->n == st->win ? IW_INSERT_FULL : 0;
}

/* Can a unit of s's class take it in the cycle after `now` (when it would
 * dispatch; the engine's issue test)? */
static inline int unit_ready(const struct id_state *st, const struct iw_warp *w, const struct iw_slot *s, uint64_t now)
{
	return iw_sim_unit_ready(&st->sm->sc[w->subcore], s->in.unit, now + 1);
}

/* The oldest ready instruction `oldest` waits for a busy unit (and so do
 * those of classes `busy`, passed over before): the oldest younger ready one
 * whose unit is free, else `oldest` itself (the engine then counts fu_busy),
 * and the sub-core wakes when a unit of any class passed over frees. */
static __attribute__((noinline)) struct iw_slot *candidate_unit(struct id_state *st, struct iw_warp *w,
								 struct iw_slot *oldest, uint32_t busy, uint32_t from,
								 uint64_t now)
{
	struct id_view v = view(st, w);
	struct id_warp *x = v.x;
	const struct iw_subcore *sc = &st->sm->sc[w->subcore];
	/* The ready bits word by word, each one's class from the ring (not
	 * from its slot, a likely miss), and a class found busy is passed over
	 * without a look at its units (they do not change during the call): a
	 * walk passes about ten ready instructions, mostly of one busy class.
	 * (About 250 host instructions a call before, 145 now.) */
	for (uint32_t left = x->hi - from; left;) {
		uint32_t i = from & v.cmask, off = i & 63, n = 64 - off < left ? 64 - off : left;
		uint64_t bits = v.b[i >> 6].m[M_READY] >> off;
		if (n < 64)
			bits &= (1ull << n) - 1;
		for (; bits; bits &= bits - 1) {
			uint32_t j = i + (uint32_t)__builtin_ctzll(bits); /* (in i's word: no wrap) */
			uint32_t u = v.unit[j];
			if (busy >> u & 1)
				continue;
			if (iw_sim_unit_ready(sc, (int)u, now + 1))
				return &w->slots[v.ord[j]];
			busy |= 1u << u;
		}
		from += n;
		left -= n;
	}
	iw_sim_wait_units(st->sm, w, busy);
	if (!x->novf)
		x->held_busy = (uint8_t)busy; /* (overflowed ones are judged afresh: rescan) */
	return oldest;
}

/* id_candidate with overflowed instructions to judge: those older than the
 * oldest ready one with no kept dependence open, oldest first (one with a
 * kept dependence open is blocked without a scan), then as id_candidate. */
static __attribute__((noinline)) struct iw_slot *candidate_ovf(struct id_state *st, struct iw_warp *w, uint64_t now,
							       int *reason)
{
	struct id_view v = view(st, w);
	const struct id_warp *x = v.x;
	uint32_t top = x->top_slot != NIL ? x->top : x->hi;
	struct iw_slot *oldest = NULL;
	uint32_t busy = 0; /* classes passed over */
	for (uint32_t k = first_set(&v, M_OVFREE, x->lo, top); k != top; k = first_set(&v, M_OVFREE, k + 1, top))
		if (!rescan(st, w, &v, v.ord[k & v.cmask])) {
			struct iw_slot *s = &w->slots[v.ord[k & v.cmask]];
			if (unit_ready(st, w, s, now))
				return s;
			if (!oldest)
				oldest = s;
			busy |= 1u << s->in.unit;
		}
	if (x->top_slot != NIL) {
		struct iw_slot *t = &w->slots[x->top_slot];
		if (unit_ready(st, w, t, now))
			return t;
		return candidate_unit(st, w, oldest ? oldest : t, busy | 1u << t->in.unit, x->top + 1, now);
	}
	if (oldest) {
		iw_sim_wait_units(st->sm, w, busy);
		return oldest;
	}
	uint32_t k = first_set(&v, M_WAIT, x->lo, x->hi);
	if (k == x->hi)
		*reason = IW_STALL_IB_EMPTY;
	else if (bit_get(&v, M_OVF, k & v.cmask))
		*reason = rescan(st, w, &v, v.ord[k & v.cmask]);
	else
		*reason = cls_reason[dl_cls(st, &v, w->id, v.ord[k & v.cmask], __builtin_ctz(v.dl[v.ord[k & v.cmask]].open))];
	return NULL;
}

/* The stall reason of an overflowed oldest waiting instruction (a rescan),
 * apart so that candidate_slow saves no registers. */
static __attribute__((noinline)) struct iw_slot *rescan_reason(struct id_state *st, struct iw_warp *w, uint16_t sid,
								int *reason)
{
	struct id_view v = view(st, w);
	*reason = rescan(st, w, &v, sid);
	return NULL;
}

/* id_candidate when no instruction is ready and no overflowed one is free
 * of kept dependences: the oldest waiting instruction names the stall. */
static __attribute__((noinline)) struct iw_slot *candidate_slow(struct id_state *st, struct iw_warp *w, int *reason)
{
	struct id_view v = view(st, w);
	const struct id_warp *x = v.x;
	uint32_t k = first_set(&v, M_WAIT, x->lo, x->hi);
	if (k == x->hi) {
		*reason = IW_STALL_IB_EMPTY;
	} else if (bit_get(&v, M_OVF, k & v.cmask)) {
		return rescan_reason(st, w, v.ord[k & v.cmask], reason);
	} else {
		uint16_t ks = v.ord[k & v.cmask];
		*reason = cls_reason[dl_cls(st, &v, w->id, ks, __builtin_ctz(v.dl[ks].open))]; /* its first open dependence */
	}
	return NULL;
}

/* Oldest ready first, among the instructions a unit can take next cycle:
 * the select logic of an out-of-order core picks per issue port, so an
 * ideal one does not stall a warp on a busy unit while a younger ready
 * instruction's unit is free (SCHEMES.md says "oldest-ready first"; picking
 * the oldest whatever its unit left `ideal` 1.3% behind in-order on sgemm
 * with opc.cus = 32, fu_busy its largest stall).  The choice holds for the
 * cycle it is asked in only: a unit freeing or turning busy is no event of
 * the warp, so the engine keeps none of its answers (id_cand_stable) and
 * asks again at every issue stage; fast-forward stays exact as the sub-core
 * wakes when a unit of a class passed over frees (candidate_unit) and when
 * a ready instruction enters the window (id_insert). */
static struct iw_slot *id_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct id_state *st = p;
	/* The usual answer, the oldest ready instruction with no overflowed one
	 * to judge, reads the warp's scalars only; the rest is apart so that
	 * this path builds no view (and saves no registers). */
	struct id_warp *x = (struct id_warp *)(st->chunk + (size_t)w->id * st->stride);
	if (x->novf_free)
		return candidate_ovf(st, w, now, reason);
	if (x->top_slot != NIL) {
		struct iw_slot *t = &w->slots[x->top_slot];
		if (x->held_busy) {
			const struct iw_subcore *sc = &st->sm->sc[w->subcore];
			uint32_t m = x->held_busy;
			while (m && !iw_sim_unit_ready(sc, __builtin_ctz(m), now + 1))
				m &= m - 1;
			if (!m) { /* all still busy: the walk would find what it found */
				iw_sim_wait_units(st->sm, w, x->held_busy);
				return t;
			}
			x->held_busy = 0;
		}
		return unit_ready(st, w, t, now) ? t : candidate_unit(st, w, t, 1u << t->in.unit, x->top + 1, now);
	}
	return candidate_slow(st, w, reason);
}

/* An offer depends on which units are free next cycle (id_candidate). */
static int id_cand_stable(const struct iw_config *c)
{
	(void)c;
	return 0;
}

static void id_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	struct id_view v = view(st, w);
	struct id_warp *x = v.x;
	struct id_rec *sr = &v.r[s->id];
	uint32_t i = sr->pos;
	/* reorder statistics (counts_reorders): the older instructions of the
	 * warp still waiting, the last bin holding every longer distance */
	uint32_t d = count_set(&v, M_WAIT, x->lo, vpos(&v, i), IW_REORDER_BINS);
	if (d) {
		struct iw_counters *cnt = st->cnt;
		cnt->reorders++;
		cnt->reorder_dist[d - 1]++;
	}
	bit_clr(&v, M_WAIT, i);
	x->held_busy = 0;
	if (bit_get(&v, M_OVF, i)) {
		bit_clr(&v, M_OVF, i);
		bit_clr(&v, M_OVFREE, i);
		x->novf--;
		x->novf_free--; /* it was ready: no kept dependence open */
	} else {
		IW_ASSERT(bit_get(&v, M_READY, i));
		bit_clr(&v, M_READY, i);
		if (x->top_slot == s->id) { /* it was the first ready bit: look past it */
			x->top = first_set(&v, M_READY, x->top + 1, x->hi);
			x->top_slot = x->top != x->hi ? v.ord[x->top & v.cmask] : NIL;
			if (x->top_slot != NIL)
				prefetch_slot(&v, x->top_slot);
		}
	}
	for (uint16_t dep = sr->wake[K_ISSUE]; dep != NIL; dep = v.dl[dep >> 4].dnext[dep & 15])
		resolve(&v, dep);
	sr->wake[K_ISSUE] = NIL;
	if (x->novf) /* stamps matter only to the scans kept by waiting overflowed ones */
		v.moved[s->id] = ++x->epoch;
	++*st->ib_read; /* iw_count(sim, IW_A_IB_READ, 1) */
	/* the window's share of the IB occupancy, write-back - issue summed
	 * as the engine sums issue - insert (stage_issue_p): no stamp is read
	 * from the slot's second line at write-back, long evicted after a
	 * memory access */
	st->cnt->ib_occ -= now;
}

static int id_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	struct id_view v = view(st, w);
	struct id_warp *x = v.x;
	uint16_t id = s->id;
	struct id_rec *sr = &v.r[id];
	uint32_t i = sr->pos;
	/* the lines touched below, asked for together rather than one miss
	 * after the other (the consumers' records and lists are a chain) */
	__builtin_prefetch(&v.b[i >> 6], 1);
	if (s->in.ndst)
		__builtin_prefetch(&v.lw[s->in.dst[0]], 1);
	uint16_t d0 = sr->wake[K_WB], d1 = sr->wake[K_WB2];
	while (d0 != NIL && d1 != NIL) {
		/* both links read before either is resolved: two misses at once */
		uint16_t n0 = v.dl[d0 >> 4].dnext[d0 & 15], n1 = v.dl[d1 >> 4].dnext[d1 & 15];
		resolve(&v, d0);
		resolve(&v, d1);
		d0 = n0;
		d1 = n1;
	}
	for (uint16_t d = d0 != NIL ? d0 : d1; d != NIL; d = v.dl[d >> 4].dnext[d & 15])
		resolve(&v, d);
	if (x->novf)
		v.moved[id] = ++x->epoch;
	/* (held_busy goes only if a consumer became ready: resolve) */
	uint32_t at = vpos(&v, i);
	bit_clr(&v, M_LIVE, i);
	bit_clr(&v, M_MEM, i);
	bit_clr(&v, M_STORE, i);
	if (x->novf || at == x->lo) {
		uint32_t next = first_set(&v, M_LIVE, at + 1, x->hi); /* its younger neighbour */
		if (x->novf && next != x->hi)
			v.moved[v.ord[next & v.cmask]] = x->epoch; /* see rescan() */
		if (at == x->lo)
			x->lo = next;
	}
	/* a writer leaves the latest-writer table with the window */
	const struct iw_inst *in = &s->in;
	for (int k = 0; k < in->ndst; k++)
		if (v.lw[in->dst[k]] == id)
			v.lw[in->dst[k]] = NIL;
	if ((in->flags & IW_F_SETS_PRED) && v.lw[256] == id)
		v.lw[256] = NIL;
	if (x->last_ctrl == id)
		x->last_ctrl = NIL;
	if (x->last_sync == id)
		x->last_sync = NIL;
	if (x->n-- == st->win) /* insert() said IW_INSERT_FULL: decode may go on */
		iw_sim_insert_room(st->sm, w);
	st->cnt->ib_occ += now; /* (id_issue subtracted its issue's cycle) */
	return in->ndst;
}

const struct iw_scheme_ops iw_scheme_ideal = {
	.name = "ideal",
	.help = "limit study: window of ideal.window, oldest ready first (of those whose unit is free), renaming/disambiguation/fetch through control",
	.window = id_window,
	.cus = id_cus,
	.fetch_through_control = id_through,
	.sm_new = id_sm_new,
	.warp_start = id_warp_start,
	.insert = id_insert,
	/* decode is refused only by a full window, which frees at write-back */
	.insert_until_issue = IW_INSERT_UNTIL_ROOM,
	/* see the end of id_insert */
	.insert_keeps_candidate = 1,
	.cand_stable = id_cand_stable,
	/* dependences resolve only at issue and write-back and insert adds
	 * instructions; dispatch and operand reads change nothing here */
	.candidate_cacheable = 2,
	.candidate = id_candidate,
	/* issue() knows the waiting instructions in program order (a mask) */
	.counts_reorders = 1,
	.issue = id_issue,
	.writeback = id_writeback,
};
