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
 * and its column are freed when the operands have been read.  Hazards with the
 * released, still executing instructions are then the baseline scoreboard's
 * (RAW/WAW on destinations; WAR cannot arise, the reader has read), plus the
 * in-flight control/barrier/fence counters, so the rules above still hold.
 */
#include "sim.h"

/* Dependence classes, in the order of the deps_found counters.  A class is
 * also kept per row bit as two bit planes (aux[2] = bit 0, aux[3] = bit 1). */
enum { DEP_WARWAW, DEP_RAW, DEP_STOP, DEP_MEM, DEP_NONE };
_Static_assert(DEP_RAW == 1 && DEP_STOP == 2 && DEP_MEM == 3, "bit planes of the class");

/* Register occupancy of the IB, transposed: for each architectural register
 * the entries that write it and the entries that read it.  An insert then
 * finds its RAW and WAR/WAW producers with one OR per operand instead of
 * comparing its registers with every valid entry's. */
struct sg_regmask {
	uint64_t writers, readers;
};

struct sg_warp {
	uint64_t valid, issued;
	uint64_t ready;          /* valid entries whose row is all zero */
	/* Valid entries by instruction class, for the memory and stop rules:
	 * memory, load (or atomic), store (or atomic), barrier or fence,
	 * control/return or barrier. */
	struct {
		uint64_t mem, ld, st, sync, stop;
	} kind;
	uint64_t row[64];        /* row e: the older entries e waits for */
	uint64_t col[64];        /* column q: the entries waiting for q */
	/* The waiting (inserted, not issued) entries in program order, entry e
	 * as byte e + 1, 0 past the last (see ord_find): the oldest is the
	 * first byte, and an entry's position is the number of waiting entries
	 * older than it, the reorder distance. */
	uint64_t ord[8];
	uint32_t nwait;
	uint16_t slot[64];       /* slot id of each entry */
	uint8_t kcls[64];        /* kind_of() each entry */
	struct sg_regmask reg[IW_REG_RZ]; /* R0..R254; RZ never appears */
	/* in flight after release (release_at = operands only) */
	struct iw_scoreboard sb; /* destinations only: the matrix orders WAR */
	uint16_t ctrl, bar, fence, mem, pred;
};

struct sg_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct iw_sm *sm;
	struct sg_warp *w;
	uint64_t all;           /* one bit per IB entry */
	int release_operands;
	/* Ask the warp's candidate again after every insert (strict round
	 * robin: see insert_entry), or after every ready one (also with
	 * release_at = operands: in-flight hazards). */
	int ask_every_insert;
	int ask_ready_insert;
};

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
static inline uint32_t ord_find(const struct sg_warp *x, int e)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t pat = ones * (uint64_t)(e + 1);
	for (uint32_t i = 0; i < 8; i++) {
		uint64_t t = x->ord[i] ^ pat;
		uint64_t z = (t - ones) & ~t & (ones << 7);
		if (z)
			return i * 8 + ((uint32_t)__builtin_ctzll(z) >> 3);
	}
	IW_ASSERT(!"a waiting entry is in ord[]");
	return 0;
}

/* Drop position p of ord[]: the younger entries move down one byte. */
static inline void ord_remove(struct sg_warp *x, uint32_t p)
{
	uint32_t i = p >> 3, last = (x->nwait - 1) >> 3;
	uint64_t low = (1ull << (8 * (p & 7))) - 1; /* bytes before p in its word */
	uint64_t v = x->ord[i];
	v = (v & low) | ((v >> 8) & ~low);
	for (; i < last; i++) {
		uint64_t next = x->ord[i + 1];
		x->ord[i] = v | next << 56;
		v = next >> 8;
	}
	x->ord[i] = v;
	x->nwait--;
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
	st->release_operands = st->cfg->socgpu_release_at == 1;
	st->ask_every_insert = st->cfg->policy == IW_POLICY_SRR;
	st->ask_ready_insert = st->ask_every_insert || st->release_operands;
	/* zeroed once, in the model's mapping (pages the kernels never use are
	 * never touched); a warp leaves its state zero when it finishes (see
	 * sg_warp_start), so the next warp in its place starts clean */
	st->w = iw_sim_alloc(sm->sim, (size_t)st->cfg->max_warps, sizeof *st->w);
	if (!st->w) {
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
static void regs_drop(struct sg_warp *x, const struct iw_inst *in, uint64_t keep)
{
	for (int i = 0; i < in->nsrc; i++)
		x->reg[in->src[i]].readers &= keep;
	for (int i = 0; i < in->ndst; i++)
		x->reg[in->dst[i]].writers &= keep;
}

/* Nothing to clear: a warp starts when the one before it in this place
 * had nothing in flight (the engine asserts it), so each of its entries was
 * released, which zeroes everything an empty IB reads (valid, issued,
 * ready, the kind and register masks, rows and columns, the scoreboard and
 * the in-flight counters, ord[] and nwait); slot and kcls are read only
 * for valid entries.  Clearing the ~6 KiB per warp cost about 20 host
 * instructions per simulated one. */
static void sg_warp_start(void *p, struct iw_warp *w)
{
	const struct sg_warp *x = &((struct sg_state *)p)->w[w->id];
	IW_ASSERT(!x->valid && !x->issued && !x->ready && !x->nwait && !x->ctrl && !x->bar && !x->fence && !x->mem &&
		  !x->pred);
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
static inline void insert_entry(struct sg_state *st, struct sg_warp *x, struct iw_warp *w, struct iw_slot *s, int e)
{
	uint64_t bit = 1ull << e;
	const struct iw_inst *in = &s->in;
	/* Find the register dependences and enter A's registers in one pass.
	 * A free entry's bit is in no register mask (release drops it), so the
	 * only bits of e the masks read here are A's own, set by this pass (a
	 * register A reads and writes, or writes twice): masked off below. */
	uint64_t raw = 0, ww = 0;
	for (int i = 0; i < in->nsrc; i++) {
		struct sg_regmask *r = &x->reg[in->src[i]];
		raw |= r->writers;                /* RAW: A.src in P.dst */
		r->readers |= bit;
	}
	for (int i = 0; i < in->ndst; i++) {
		struct sg_regmask *r = &x->reg[in->dst[i]];
		ww |= r->readers | r->writers;    /* WAR/WAW: A.dst in P.src or P.dst */
		r->writers |= bit;
	}
	raw &= ~bit;
	ww &= ~(raw | bit);
	uint32_t k = kind_of(in);
	uint64_t mem = 0, stop = x->kind.stop; /* P control/return or barrier holds everything younger */
	if (__builtin_expect(k != 0, 0))
		kind_enter(x, k, bit, &mem, &stop);
	x->kcls[e] = (uint8_t)k;
	mem &= ~(raw | ww);
	stop &= ~(raw | ww | mem);
	uint64_t row = raw | ww | mem | stop;
	if (row) {
		struct iw_counters *cnt = &st->sim->res->cnt;
		cnt->deps_found[DEP_RAW] += nbits(raw);
		cnt->deps_found[DEP_WARWAW] += nbits(ww);
		cnt->deps_found[DEP_MEM] += nbits(mem);
		cnt->deps_found[DEP_STOP] += nbits(stop);
		/* col[e] is 0 (release clears it) */
		for (uint64_t m = row; m; m &= m - 1)
			x->col[__builtin_ctzll(m)] |= bit;
	}
	/* The class of each row bit, for the stall reason, as two bit planes
	 * (the hardware's matrix holds one bit; the class is a statistic). */
	s->aux[2] = raw | mem;
	s->aux[3] = stop | mem;
	/* insert_keeps_candidate: the warp's answer changes only if the new entry
	 * is a candidate before the current one (lowest ready index), or the IB
	 * had nothing waiting (IB_EMPTY).  An entry with a non-empty row leaves
	 * the ready entries, and so first_r, alone, and it is the youngest, so
	 * the oldest waiting entry that names the stall stays.  With
	 * release_at = operands a ready entry may be held by in-flight hazards
	 * that the loop skips: any ready insert asks again there.  Under strict
	 * round robin every insert asks again, as without the flag: there the
	 * warp that names a stall changes every cycle, and a sub-core kept
	 * awake by the re-asked warp charges its stall cycles one by one where
	 * a sleeping one charges the last reason for all of them. */
	uint64_t waiting = x->valid & ~x->issued;
	if (!row) {
		if (st->ask_ready_insert || !(waiting & x->ready & (bit - 1))) /* (also when nothing waits) */
			iw_sim_cand_changed(st->sm, w);
		x->ready |= bit;
	} else if (st->ask_every_insert || !waiting) {
		iw_sim_cand_changed(st->sm, w);
	}
	x->row[e] = row;
	uint32_t n = x->nwait++; /* the youngest waiting entry */
	x->ord[n >> 3] |= (uint64_t)(e + 1) << (8 * (n & 7));
	x->slot[e] = s->id;
	x->valid |= bit; /* (its issued bit is 0: release clears it) */
	s->aux[0] = (uint64_t)e;
	iw_count(st->sim, IW_A_DM_ROW_WRITE, 1);
	/* The ready NOR of each row changes only when the matrix does: count one
	 * evaluation of the warp per change (idle cycles are clock power). */
	iw_count(st->sim, IW_A_DM_READY_EVAL, 1);
}

/* Decode retries a refused insert after each event of the warp, so a full IB
 * is the common answer: it is decided before any of the insert's work. */
static int sg_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	struct sg_warp *x = &st->w[w->id];
	uint64_t freem = ~x->valid & st->all;
	if (!freem)
		return IW_STALL_IB_FULL;
	insert_entry(st, x, w, s, __builtin_ctzll(freem));
	/* IW_INSERT_UNTIL_ROOM: a full IB gets room only when release() frees
	 * an entry (it calls iw_sim_insert_room), so decode is not retried
	 * before; the refusals it saves had no effect */
	return freem & (freem - 1) ? 0 : IW_INSERT_FULL;
}

static int reason_of(int k, const struct iw_inst *p)
{
	switch (k) {
	case DEP_RAW:
		return IW_STALL_RAW;
	case DEP_WARWAW:
		return IW_STALL_WAR_WAW;
	case DEP_MEM:
		return IW_STALL_MEM_ORDER;
	default:
		return (p->flags & IW_F_BARRIER) ? IW_STALL_BARRIER : IW_STALL_CONTROL;
	}
}


/* Hazards with released, still executing instructions (release_at = operands). */
static int inflight_block(const struct sg_warp *x, const struct iw_inst *in)
{
	if (x->bar)
		return IW_STALL_BARRIER;
	if (x->ctrl)
		return IW_STALL_CONTROL;
	if (iw_sb_raw(&x->sb, in))
		return IW_STALL_RAW;
	if ((in->flags & IW_F_PRED_BRANCH) && x->pred)
		return IW_STALL_RAW;
	if (iw_sb_war_waw(&x->sb, in, 0))
		return IW_STALL_WAR_WAW;
	if ((iw_is_mem(in) && x->fence) || ((in->flags & (IW_F_BARRIER | IW_F_MEMBAR)) && x->mem))
		return IW_STALL_MEM_ORDER;
	return 0;
}

/* Why the oldest waiting entry waits: the class of its dependence on the
 * lowest entry of its row (kept as bit planes in aux[2..3] at insert).  Its
 * row is not empty: an entry with an empty row would have been offered or
 * blocked by an in-flight hazard, which names the stall instead. */
static int stall_reason(const struct sg_warp *x, struct iw_warp *w)
{
	int oe = (int)(x->ord[0] & 0xff) - 1;
	int q = __builtin_ctzll(x->row[oe]);
	const struct iw_slot *old = &w->slots[x->slot[oe]];
	int k = (int)(old->aux[3] >> q & 1) << 1 | (int)(old->aux[2] >> q & 1);
	return reason_of(k, &w->slots[x->slot[q]].in);
}

static struct iw_slot *sg_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct sg_state *st = p;
	struct sg_warp *x = &st->w[w->id];
	uint64_t waiting = x->valid & ~x->issued;
	if (!waiting) {
		*reason = IW_STALL_IB_EMPTY;
		return NULL;
	}
	int first_r = 0;
	for (uint64_t m = waiting & x->ready; m; m &= m - 1) {
		struct iw_slot *s = &w->slots[x->slot[__builtin_ctzll(m)]];
		if (st->release_operands) {
			int r = inflight_block(x, &s->in);
			if (r) {
				if (!first_r)
					first_r = r;
				continue;
			}
		}
		return s;
	}
	if (first_r) {
		*reason = first_r;
		return NULL;
	}
	*reason = stall_reason(x, w);
	return NULL;
}

static void sg_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	struct sg_warp *x = &st->w[w->id];
	int e = (int)s->aux[0];
	/* Reorder statistics (counts_reorders): the older instructions of the
	 * warp still waiting, as iw_sim_count_reorder counts them, are those
	 * before e in ord[] (inserted in program order, dropped here at issue,
	 * as the engine's queue), where the engine walked the warp's slots. */
	uint32_t d = 0;
	if ((x->ord[0] & 0xff) == (uint64_t)e + 1 && x->nwait <= 8) {
		/* the oldest issues (most issues), and ord[] is one word */
		x->ord[0] >>= 8;
		x->nwait--;
	} else {
		d = ord_find(x, e);
		ord_remove(x, d);
	}
	if (d) {
		struct iw_counters *cnt = &st->sim->res->cnt;
		cnt->reorders++;
		cnt->reorder_dist[d < IW_REORDER_BINS ? d - 1 : IW_REORDER_BINS - 1]++;
	}
	x->issued |= 1ull << e;
	iw_count(st->sim, IW_A_IB_READ, 1);
}

static inline __attribute__((always_inline)) void release(struct sg_state *st, struct sg_warp *x, struct iw_warp *w,
							    struct iw_slot *s, uint64_t now)
{
	int e = (int)s->aux[0];
	uint64_t bit = 1ull << e, keep = ~bit;
	x->valid &= keep;
	x->issued &= keep;
	x->ready &= keep;
	/* clear the column: a row left empty makes its entry ready */
	for (uint64_t m = x->col[e]; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		x->row[q] &= keep;
		if (!x->row[q])
			x->ready |= 1ull << q;
	}
	x->col[e] = 0;
	iw_sim_insert_room(st->sm, w); /* the entry is free: retry decode */
	regs_drop(x, &s->in, keep);
	if (x->kcls[e]) {
		x->kind.mem &= keep;
		x->kind.ld &= keep;
		x->kind.st &= keep;
		x->kind.sync &= keep;
		x->kind.stop &= keep;
	}
	iw_count(st->sim, IW_A_DM_COL_CLEAR, 1);
	iw_count(st->sim, IW_A_DM_READY_EVAL, 1);
	/* the engine charged insert..issue; the entry was held until now */
	st->sim->res->cnt.ib_occ += now - s->t_issue;
}

static void sg_operands_read(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	if (!st->release_operands)
		return;
	struct sg_warp *x = &st->w[w->id];
	release(st, x, w, s, now);
	/* the matrix changed outside insert, issue and write-back: ask the
	 * warp's candidate and retry its decode */
	iw_sim_unblock(st->sm, w);
	const struct iw_inst *in = &s->in;
	iw_sb_reserve(st->sim, &x->sb, in, 0);
	x->ctrl += iw_is_ctrl(in);
	x->bar += (in->flags & IW_F_BARRIER) != 0;
	x->fence += (in->flags & IW_F_MEMBAR) != 0;
	x->mem += iw_is_mem(in);
	x->pred += (in->flags & IW_F_SETS_PRED) != 0;
	s->aux[1] = 1;
}

static int sg_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	struct sg_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	if (!s->aux[1]) {
		/* Not released at operand read (release_at = writeback, or an
		 * instruction without register operands that never reached it). */
		release(st, x, w, s, now);
		return in->ndst;
	}
	iw_sb_release(st->sim, &x->sb, in, 0);
	x->ctrl -= iw_is_ctrl(in);
	x->bar -= (in->flags & IW_F_BARRIER) != 0;
	x->fence -= (in->flags & IW_F_MEMBAR) != 0;
	x->mem -= iw_is_mem(in);
	x->pred -= (in->flags & IW_F_SETS_PRED) != 0;
	return in->ndst;
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
};
