/*
 * perf/scheme_ghost.c -- GhOST (SCHEMES.md section 4; seeds/ghost-*): an
 * in-order front IB per warp, a Dependence Checker (DC) time-shared by the
 * scheduler's warps, a per-warp Issue Buffer (IsB) with IB-dep bit vectors
 * and an age index, and the GhOST scheduler that fills each warp's
 * Instruction Table (ITab) with its oldest ready entries.  The warp scheduler
 * is the baseline's: per warp the oldest ITab entry, else the oldest IsB entry
 * checked by the scoreboard (in-order fallback).
 *
 * Pipeline order inside a sub-core cycle (tick runs before issue): the GhOST
 * scheduler first fills one warp's ITab from the IsB as it stood at the start
 * of the cycle (the paper's "marked ... in the previous cycle"), then the DC
 * moves up to dc_units instructions, one per warp, from the heads of the IBs
 * into the IsB; they are seen by the GhOST scheduler from the next cycle.
 *
 * Choices the paper leaves open, written down here:
 *   - IsB slots are indexed 0..isb_size-1; the free-slot FIFO is modelled by
 *     taking the lowest free slot (which slot is free does not change timing);
 *     the age index is the program order (seq).
 *   - "recent write-back" = the warp had a write-back since its ITab was last
 *     filled; ties go round-robin from the last warp served (pointer moves
 *     only when the scheduler serves a warp, so idle cycles change nothing).
 *   - Barriers and memory fences wait in the DC until the warp's IsB is empty,
 *     then block further moves, and issue only when no older memory
 *     instruction of the warp is in flight.  A barrier's block ends at its
 *     issue, as the paper's control flag does ("after the synchronization
 *     instruction has been issued ... the control flag is unset"): younger
 *     instructions then fill the IsB while the warp waits for the CTA.  The
 *     warp issues nothing until the barrier has completed (its write-back,
 *     which is the CTA's release in this model), as Accel-Sim, where GhOST
 *     was evaluated, keeps a warp "waiting" from its barrier's issue to the
 *     release while its front end runs on; stall reason `barrier`
 *     (bar_wait).  A fence blocks moves until it has completed: Accel-Sim's
 *     warp waits at a fence until its pending writes drain, which keeping
 *     younger instructions out of the IsB approximates (SCHEMES.md's "until
 *     issued" would let them issue under the executing fence).
 *   - A predicated branch depends on the last compare (the predicate is not
 *     in the trace): an IB-dep bit on an IsB compare, and an in-flight
 *     predicate counter beside the scoreboard.
 *   - Precise: a load's TLB check passes tlb_check_latency cycles after it
 *     issues (the paper's TLB hit); misses are not modelled.
 *
 * Bookkeeping (model speed only, no effect on timing): every per-cycle
 * question is answered from bit masks kept up to date at the few events that
 * change them (insert, DC move, issue, write-back), so an idle sub-core cycle
 * costs a few mask tests:
 *   - the age index is kept as a list of IsB slots in program order (the DC
 *     moves instructions from the IB head, so appending keeps it sorted);
 *   - a "ready" mask holds the IsB slots whose IB-dep vector is all zero, and
 *     each slot keeps the transposed IB-dep column (which entries wait for
 *     it), so an issue clears only the bits that are set;
 *   - per sub-core, a mask of the warps whose IB head the DC could move now,
 *     and one of the warps whose ITab the GhOST scheduler could now grow;
 *   - each entry's scoreboard answer is kept until an issue or write-back of
 *     its warp could change it (sb_forget_issue, sb_forget_writeback);
 *   - an instruction whose registers all lie in one block of 64 (regm_blk,
 *     the usual case) has a 64-bit register signature that is exact: the
 *     DC and the scoreboard then test words, not register lists;
 *   - the reorder statistics come from the age index (counts_reorders);
 *   - the engine is told exactly when to look again: decode is retried only
 *     after the DC drained the warp's IB (IW_INSERT_UNTIL_ROOM), and the
 *     warp's candidate is asked again after a decode or DC move only when
 *     the IsB was empty (insert_keeps_candidate): otherwise neither changes
 *     what gh_candidate answers.
 * The state a warp's events touch sits in few cache lines (with 80 SMs it is
 * out of the host's caches between two events): one line of masks and
 * counters per warp, and IsB entries split into a 32-byte hot part (what the
 * loops over entries read) and a 16-byte cold part (age and IB-dep column);
 * the instruction itself stays in its slot, read only for the register
 * lists of a mixed block (regm_blk) and Precise's non-idempotence.
 */
#include "sim.h"

#include <stddef.h>
#include <string.h>

/* Register signature of an instruction: bit r % 64 per register.  Two
 * instructions can share a register only if their signatures meet, so the DC
 * compares register lists only then (an exact filter, not an approximation). */
struct gh_regm {
	uint64_t src, dst;
};

/* The DC rules other than shared registers (dc_dep_m), as bits, so the DC can
 * skip an IsB entry none of its rules can match without running them. */
enum {
	GH_K_MEM = 1,       /* memory instruction (iw_is_mem) */
	GH_K_ATOMIC = 2,
	GH_K_SETS_PRED = 4, /* a compare a predicated branch depends on */
	GH_K_CTRL = 8,      /* unresolved control */
};

/* One Issue Buffer (IsB) entry, in two parts so that the loops over a
 * warp's entries (the DC's comparison, the scoreboard caches) read a few
 * cache lines: the hot part, 32 bytes, has what they look at; the cold part,
 * 16 bytes, what the ITab's order and an issue read of one entry.  (The
 * decoded instruction is not copied: it stays in the slot, x->slots.) */
struct gh_hot {
	uint64_t src, dst;      /* register signature (struct gh_regm) */
	uint64_t dep;           /* IB-dep vector: older IsB entries it waits for */
	uint16_t slot;          /* slot id in the warp's pool */
	uint16_t flags;         /* in.flags */
	uint8_t kind;           /* GH_K_* */
	uint8_t sbr;            /* cached sb_block answer, while its sb_known bit is set */
	uint8_t blk;            /* register block (see regm_blk) */
	uint8_t pad;
};

struct gh_cold {
	uint64_t seq;           /* program order (the age index compares it) */
	uint64_t waiters;       /* IB-dep column: entries whose vector holds this slot's bit */
};

struct gh_warp {
	/* One cache line (the array is aligned): what every event of the warp
	 * reads and writes. */
	_Alignas(64) uint64_t valid; /* IsB slots in use (not yet issued) */
	uint64_t ready;         /* valid slots whose IB-dep vector is all zero */
	uint64_t in_itab;       /* slots in the ITab */
	/* sb_block answers that still hold (see sb_forget_*); not with
	 * Precise, whose answer depends on the cycle */
	uint64_t sb_known, sb_pass;
	struct gh_hot *h;       /* its isb_size IsB entries; the cold parts follow (cold_of) */
	uint16_t mem_inflight, pred_inflight;
	uint8_t ib_head, ib_n;
	uint8_t nage;           /* valid IsB entries */
	uint8_t itab_n;
	uint8_t block_moves;    /* a fence moved in and has not completed, or a barrier has not issued */
	uint8_t ctrl_unresolved; /* control instructions in the IsB or in flight */
	uint8_t head_sync;      /* the IB head is a barrier/fence */
	uint8_t bar_wait;       /* a barrier issued and has not completed: nothing issues */
	/* The rest in lines that the warp's instructions all touch whatever
	 * the configuration (the GPU's warps do not fit in the host's caches,
	 * so every line is a likely miss).  Line 1: IsB slots by kind, bit k
	 * of GH_K_* in kind_slots[k] (stale bits of issued slots are masked by
	 * `valid`): the DC takes the entries whose kind meets one of its rules
	 * in one go, not one entry at a time; then the scoreboard's pending
	 * bits, whose reader counts follow (registers R0..R63 in line 2). */
	uint64_t kind_slots[4];
	/* scoreboard for in-flight instructions, as the baseline */
	struct iw_scoreboard sb;
	/* One line with the defaults (ITab 2, IsB 8, IB 4): */
	uint64_t sb_raw;        /* sb_known answers that are RAW */
	/* Precise: IsB slots holding a load (stale bits masked by `valid`) */
	uint64_t load_slots;
	uint64_t ib_sync;       /* IB ring positions holding a barrier/fence (head_sync: the head's bit) */
	uint8_t itab[16];       /* IsB slots in the ITab, oldest first */
	/* the age index (the valid IsB slots, oldest first; isb_size entries),
	 * then the front IB: a ring (ib_of) of slot ids (the slot pool has at
	 * most 64 + 64 + 64 + 16 entries: ghost.ib_size + ghost.isb_size +
	 * core.fetch_buffer + 16, see sim.c) */
	uint8_t age[64 + 64];
	/* the rest is rarely read */
	/* precise: TLB-check completion of issued loads, (seq, cycle) ring */
	uint64_t *tlb_seq, *tlb_t;
	uint32_t tlb_head, tlb_n;
	/* its slot pool (w->slots): the rare look at an entry's register lists
	 * (a mixed block) reads the instruction in its slot, hot_of(...)->slot */
	struct iw_slot *slots;
};
_Static_assert(offsetof(struct gh_warp, sb) + offsetof(struct iw_scoreboard, readers) == 128,
	       "line 1: kinds and pending bits; line 2: readers of R0..R63");

/* Per sub-core, one bit per local warp in the masks. */
struct gh_sc {
	uint64_t stale;         /* the GhOST scheduler may find something new (sched_mark) */
	uint64_t recent_wb;     /* a write-back since the warp's ITab was last filled */
	uint64_t dc_ready;      /* the DC could move the warp's IB head into its IsB */
	uint32_t sched_rr;      /* last warp served by the GhOST scheduler */
	uint32_t dc_rr;         /* DC round-robin pointer */
};

struct gh_state {
	/* what every tick reads first */
	struct gh_sc *sc;
	int precise;            /* cfg->ghost_precise, read once */
	int itab_size;          /* cfg->ghost_itab_size, read once */
	struct gh_warp *w;
	size_t hot_bytes;       /* a warp's hot IsB parts, rounded to a cache line */
	uint64_t isb_all;       /* bits of the isb_size IsB slots */
	int war_sb;             /* cfg->war_scoreboard, read once */
	int ib_size;            /* cfg->ghost_ib_size, read once */
	uint32_t ib_at;         /* the IB ring's first entry in gh_warp.age (isb_size) */
	uint32_t ib_mask;       /* the ring's entries - 1: a power of two >= ib_size */
	uint64_t *act;          /* sim->cur_act: the activities being counted */
	struct iw_sim *sim;
	struct iw_counters *cnt; /* sim->res->cnt */
	const struct iw_config *cfg;
	struct iw_sm *sm;
	uint32_t tlb_cap;
	uint64_t *tlb_pool;
	/* Precise: every TLB check of the SM in flight, (completion cycle,
	 * warp) in issue order, so in time order (see gh_issue): the tick and
	 * next_event find the checks that end at a cycle without looking at
	 * every warp's ring. */
	struct gh_tq *tq;
	uint32_t tq_cap, tq_head, tq_n;
	unsigned char *isb;     /* the warps' IsB entries (isb_per_warp bytes each) */
	size_t isb_per_warp;
};

/* One TLB check in flight (Precise): it passes at cycle t; warp `wid`
 * of the SM, local index `local` of sub-core `sid`. */
struct gh_tq {
	uint64_t t;
	uint32_t wid;
	uint16_t sid, local;
};

_Static_assert(sizeof(struct gh_hot) == 32, "gh_hot: two per 64-byte line");
_Static_assert(sizeof(struct gh_cold) == 16, "gh_cold: four per 64-byte line");

/* iw_count without the look-up of the simulation's counters */
static inline void gh_count(const struct gh_state *st, enum iw_act a, uint64_t n) { st->act[a] += n; }

static inline struct gh_hot *hot_of(const struct gh_state *st, const struct gh_warp *x)
{
	(void)st;
	return x->h;
}
/* The front IB's ring (st->ib_mask + 1 entries), after the age index. */
static inline uint8_t *ib_of(const struct gh_state *st, struct gh_warp *x) { return x->age + st->ib_at; }
static inline const uint8_t *ib_of_c(const struct gh_state *st, const struct gh_warp *x) { return x->age + st->ib_at; }

static inline struct gh_cold *cold_of(const struct gh_state *st, const struct gh_warp *x)
{
	return (struct gh_cold *)(void *)((unsigned char *)x->h + st->hot_bytes);
}


/* Lowest set bit of m (not 0) at or after `start` (at most 64: from 0),
 * wrapping: rotated right by start, the first set bit is the distance. */
static inline int next_rr(uint64_t m, uint32_t start)
{
	uint32_t r = start & 63;
	uint64_t rot = m >> r | m << ((64 - r) & 63);
	return (int)((r + (uint32_t)__builtin_ctzll(rot)) & 63);
}


/* A overwrites one of its own sources: re-executing it would read the result. */
static inline __attribute__((always_inline)) int non_idempotent(const struct iw_inst *in)
{
	return (in->flags & (IW_F_STORE | IW_F_ATOMIC)) || iw_regs_meet(in->dst, in->ndst, in->src, in->nsrc);
}

#define GH_BLK_MIXED 0x80u
/* The block of 64 registers (r >> 6) all of an instruction's registers lie
 * in, or GH_BLK_MIXED.  Within one block the signature bit of a register is
 * the register itself, so for two instructions with a block each, their
 * lists share a register exactly when the blocks are equal and the
 * signatures meet: the DC then need not compare the lists. */
static inline __attribute__((always_inline)) struct gh_regm regm_blk(const struct iw_inst *in, uint8_t *blk)
{
	/* all registers share bits 6.. exactly when their OR and AND agree there */
	uint32_t or = 0, and = ~0u;
	uint64_t src = 0, dst = 0;
	for (int i = 0; i < in->nsrc; i++) {
		src |= 1ull << (in->src[i] & 63);
		or |= in->src[i];
		and &= in->src[i];
	}
	for (int i = 0; i < in->ndst; i++) {
		dst |= 1ull << (in->dst[i] & 63);
		or |= in->dst[i];
		and &= in->dst[i];
	}
	/* (no registers: "mixed", the lists are empty; registers are below 256,
	 * the scoreboard's range, or the block is called mixed too) */
	*blk = (or ^ and) >> 6 || or >> 8 ? GH_BLK_MIXED : (uint8_t)(or >> 6);
	return (struct gh_regm){src, dst};
}

/* Do register lists of A (signature as, block ab) and of IsB entry P (ps,
 * pb) share a register?  The lists (pl: P's, in its slot) are compared
 * only when a block is mixed. */
static inline __attribute__((always_inline)) int regs_meet_b(uint64_t as, uint64_t ps, uint8_t ab, uint8_t pb,
							       const uint16_t *al, int an, const uint16_t *pl, int pn)
{
	if (!(as & ps))
		return 0;
	if ((ab | pb) & GH_BLK_MIXED)
		return iw_regs_meet(al, an, pl, pn);
	return ab == pb;
}

static uint8_t kind_of(const struct iw_inst *in)
{
	return (uint8_t)((iw_is_mem(in) ? GH_K_MEM : 0) | (in->flags & IW_F_ATOMIC ? GH_K_ATOMIC : 0) |
			 (in->flags & IW_F_SETS_PRED ? GH_K_SETS_PRED : 0) | (iw_is_ctrl(in) ? GH_K_CTRL : 0));
}

/* DC rule: does the new instruction A depend on the older IsB entry P?
 * (The DC itself runs dc_dep_h, the same rules over P's hot part.)
 * Returns the deps_found class (0 war_waw, 1 raw, 2 control, 3 memory) or -1. */
static inline __attribute__((always_inline)) int dc_dep_m(const struct gh_state *st, const struct iw_inst *a, struct gh_regm am, const struct iw_inst *p,
		    struct gh_regm pm)
{
	if ((am.src & pm.dst) && iw_regs_meet(a->src, a->nsrc, p->dst, p->ndst))
		return 1;
	if ((a->flags & IW_F_PRED_BRANCH) && (p->flags & IW_F_SETS_PRED))
		return 1;
	if (((am.dst & pm.dst) && iw_regs_meet(a->dst, a->ndst, p->dst, p->ndst)) ||
	    ((am.dst & pm.src) && iw_regs_meet(a->dst, a->ndst, p->src, p->nsrc)))
		return 0;
	if (iw_is_mem(a) && iw_is_mem(p)) {
		if (!(iw_is_plain_load(a) && iw_is_plain_load(p)))
			return 3;
		if (st->precise) /* GhOST-Precise: loads stay in order */
			return 3;
	}
	if ((a->flags | p->flags) & IW_F_ATOMIC)
		return 3;
	if (iw_is_ctrl(p)) /* cannot happen: nothing moves in behind unresolved control */
		return 2;
	return -1;
}

/* dc_dep_m for an IsB entry given by its hot part pe (same answer): P's
 * instruction p (in its slot) is read only for the register lists of a
 * mixed block.  P's class tests use pe->kind (GH_K_MEM is iw_is_mem,
 * GH_K_CTRL iw_is_ctrl) and pe->flags (its in.flags). */
static inline __attribute__((always_inline)) int dc_dep_h(const struct gh_state *st, const struct iw_inst *a,
							    struct gh_regm am, uint8_t ab, const struct gh_hot *pe,
							    const struct iw_inst *p)
{
	if (regs_meet_b(am.src, pe->dst, ab, pe->blk, a->src, a->nsrc, p->dst, p->ndst))
		return 1;
	if ((a->flags & IW_F_PRED_BRANCH) && (pe->flags & IW_F_SETS_PRED))
		return 1;
	if (regs_meet_b(am.dst, pe->dst, ab, pe->blk, a->dst, a->ndst, p->dst, p->ndst) ||
	    regs_meet_b(am.dst, pe->src, ab, pe->blk, a->dst, a->ndst, p->src, p->nsrc))
		return 0;
	if (iw_is_mem(a) && (pe->kind & GH_K_MEM)) {
		int p_plain_load = (pe->flags & IW_F_LOAD) && !(pe->flags & (IW_F_STORE | IW_F_ATOMIC));
		if (!(iw_is_plain_load(a) && p_plain_load))
			return 3;
		if (st->precise) /* GhOST-Precise: loads stay in order */
			return 3;
	}
	if ((a->flags | pe->flags) & IW_F_ATOMIC)
		return 3;
	if (pe->kind & GH_K_CTRL) /* cannot happen: nothing moves in behind unresolved control */
		return 2;
	return -1;
}

static uint32_t gh_window(const struct iw_config *c) { return (uint32_t)(c->ghost_ib_size + c->ghost_isb_size); }

/* The engine charges an instruction from its insert into the IB to its issue
 * from the IsB: the IB integral spans both buffers (the window); the IsB's
 * own integral starts at the move. */
static void gh_entries(const struct iw_config *c, uint32_t e[IW_OCC_COUNT])
{
	e[IW_OCC_ISB] = (uint32_t)c->ghost_isb_size;
}

static inline size_t up64(size_t n) { return (n + 63) & ~(size_t)63; }

static int gh_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	const struct iw_config *c = sm->sim->cfg;
	/* All on the simulation's arena (iw_sim_alloc): zeroed already, so a
	 * run does not clear tens of KiB per SM, on large pages, and freed with
	 * the simulation (no sm_free). */
	struct gh_state *st = iw_sim_alloc(sm->sim, 1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	if (sm->sim->window > 256) /* the IB keeps slot ids in bytes (cannot happen, see gh_warp.age) */
		return iw_fail(e, IW_ERUN, "ghost: a window of %u slots per warp is too large", sm->sim->window);
	st->cfg = c;
	st->sim = sm->sim;
	st->act = sm->sim->cur_act;
	st->cnt = &sm->sim->res->cnt;
	st->sm = sm;
	st->isb_all = c->ghost_isb_size == 64 ? ~0ull : (1ull << c->ghost_isb_size) - 1;
	st->war_sb = c->war_scoreboard;
	st->precise = c->ghost_precise;
	st->itab_size = c->ghost_itab_size;
	st->ib_size = c->ghost_ib_size;
	st->ib_at = (uint32_t)c->ghost_isb_size;
	st->ib_mask = 1;
	while (st->ib_mask < (uint32_t)c->ghost_ib_size)
		st->ib_mask <<= 1;
	st->ib_mask--;
	/* loads issued within one TLB-check latency: at most issue_width per cycle */
	st->tlb_cap = (uint32_t)((c->ghost_tlb_check_latency + 2) * c->issue_width);
	/* One allocation, carved into cache-line aligned pieces: the warps, the
	 * sub-cores' masks, the TLB rings, and per warp its IsB entries (hot
	 * parts, then cold parts). */
	size_t nw = (size_t)c->max_warps, isb = (size_t)c->ghost_isb_size;
	st->hot_bytes = up64(isb * sizeof(struct gh_hot));
	size_t per_warp = st->hot_bytes + isb * sizeof(struct gh_cold);
	size_t o_sc = up64(nw * sizeof *st->w), o_tlb = o_sc + up64((size_t)c->subcores * sizeof *st->sc);
	/* the SM's checks in flight: those of the last tlb_check_latency + 2
	 * cycles (older ones are dropped at every tick, tq_drop) */
	st->tq_cap = st->tlb_cap * (uint32_t)c->subcores;
	size_t o_tq = o_tlb + (c->ghost_precise ? up64(nw * st->tlb_cap * 2 * sizeof *st->tlb_pool) : 0);
	size_t o_isb = o_tq + (c->ghost_precise ? up64(st->tq_cap * sizeof *st->tq) : 0);
	unsigned char *b = iw_sim_alloc(sm->sim, 1, o_isb + nw * per_warp); /* cache-line aligned */
	if (!b)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->w = (struct gh_warp *)(void *)b;
	st->sc = (struct gh_sc *)(void *)(b + o_sc);
	if (c->ghost_precise) {
		st->tlb_pool = (uint64_t *)(void *)(b + o_tlb);
		st->tq = (struct gh_tq *)(void *)(b + o_tq);
	}
	st->isb = b + o_isb;
	st->isb_per_warp = per_warp;
	*state = st;
	return 0;
}

/* After an event of the warp: the GhOST scheduler looks at it again only if
 * filling its ITab may now find something, i.e. the ITab has room and an
 * entry with an all-zero IB-dep vector is not in it and not known to be
 * held by the scoreboard.  Otherwise a look finds nothing and changes
 * nothing (no scoreboard check is made, so not even Precise's TLB ring is
 * touched), and skipping it keeps the scheduler's choices. */
static inline __attribute__((always_inline)) void sched_mark(struct gh_state *st, const struct iw_warp *w, const struct gh_warp *x)
{
	if (x->itab_n < st->itab_size && (x->ready & ~x->in_itab & ~(x->sb_known & ~x->sb_pass)))
		st->sc[w->subcore].stale |= 1ull << w->local;
}

/* Could the DC move the warp's IB head into the IsB now (DC rules of the
 * header: room in the IsB, no unresolved control, no barrier in the IsB, no
 * fence in the IsB or in flight, a barrier/fence only into an empty IsB)?
 * Recomputed at every event that changes one of these (insert into an empty
 * IB, move, issue, write-back of control or a fence), so the DC visits only
 * such warps instead of every warp with a non-empty IB each cycle. */
static inline __attribute__((always_inline)) void dc_update(struct gh_state *st, const struct iw_warp *w, const struct gh_warp *x)
{
	uint64_t bit = 1ull << w->local;
	int can = x->ib_n && !x->block_moves && !x->ctrl_unresolved && x->valid != st->isb_all &&
		  !(x->valid && x->head_sync);
	if (can) {
		/* the DC moves it at the sub-core's next tick at the earliest:
		 * fetch its slot meanwhile (read by dc_move, and aux written;
		 * with the GPU's warps out of the host's caches, often a miss) */
		iw_slot_prefetch(&x->slots[ib_of_c(st, x)[x->ib_head]]);
		st->sc[w->subcore].dc_ready |= bit;
	} else
		st->sc[w->subcore].dc_ready &= ~bit;
}

static void gh_warp_start(void *p, struct iw_warp *w)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	memset(x, 0, sizeof *x);
	x->h = (struct gh_hot *)(void *)(st->isb + (size_t)w->id * st->isb_per_warp);
	x->slots = w->slots;
	uint64_t keep = ~(1ull << w->local);
	struct gh_sc *g = &st->sc[w->subcore];
	g->stale &= keep;
	g->recent_wb &= keep;
	g->dc_ready &= keep;
	if (st->tlb_pool) {
		x->tlb_seq = st->tlb_pool + (size_t)w->id * st->tlb_cap * 2;
		x->tlb_t = x->tlb_seq + st->tlb_cap;
	}
}

static int gh_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	if (x->ib_n == st->ib_size)
		return IW_STALL_IB_FULL;
	int sync = iw_is_sync(&s->in);
	uint32_t pos = (x->ib_head + x->ib_n) & st->ib_mask;
	ib_of(st, x)[pos] = (uint8_t)s->id;
	if (sync) /* (dc_move clears the bit when the entry leaves) */
		x->ib_sync |= 1ull << pos;
	if (!x->ib_n++) {
		x->head_sync = (uint8_t)sync;
		dc_update(st, w, x); /* a new IB head */
		/* with an empty IsB the candidate's stall reason names the IB
		 * (gh_candidate); otherwise the IB is not looked at */
		if (!x->valid)
			iw_sim_cand_changed(st->sm, w);
	}
	/* the IB drains only when the DC moves its head (gh_tick_work, which
	 * then calls iw_sim_insert_room): until then decode is not retried */
	return x->ib_n == st->ib_size ? IW_INSERT_FULL : 0;
}

/* iw_sb_reserve and iw_sb_release (the same bits, counts and activities):
 * with the destinations in one block (blk, regm_blk), their signature dsig
 * is their bits in that pending word. */
static inline void gh_sb_reserve(struct gh_state *st, struct gh_warp *x, const struct iw_inst *in, uint8_t blk,
				 uint64_t dsig)
{
	struct iw_scoreboard *b = &x->sb;
	if (!(blk & GH_BLK_MIXED))
		b->pending[blk] |= dsig;
	else
		for (int i = 0; i < in->ndst; i++)
			b->pending[in->dst[i] >> 6] |= 1ull << (in->dst[i] & 63);
	gh_count(st, IW_A_SB_SET, in->ndst);
	if (st->war_sb) {
		for (int i = 0; i < in->nsrc; i++)
			b->readers[in->src[i]]++;
		gh_count(st, IW_A_SB_WAR_SET, in->nsrc);
	}
}

static inline void gh_sb_release(struct gh_state *st, struct gh_warp *x, const struct iw_inst *in, uint8_t blk,
				 uint64_t dsig)
{
	struct iw_scoreboard *b = &x->sb;
	if (!(blk & GH_BLK_MIXED))
		b->pending[blk] &= ~dsig;
	else
		for (int i = 0; i < in->ndst; i++)
			b->pending[in->dst[i] >> 6] &= ~(1ull << (in->dst[i] & 63));
	gh_count(st, IW_A_SB_CLEAR, in->ndst);
	if (st->war_sb) {
		for (int i = 0; i < in->nsrc; i++)
			b->readers[in->src[i]]--;
		gh_count(st, IW_A_SB_WAR_CLEAR, in->nsrc);
	}
}

/* Precise: IW_NEVER while a load older than seq is still in the IsB (not
 * issued), else 0; tlb_wait then looks at the issued ones. */
static uint64_t tlb_clear_at(const struct gh_state *st, const struct gh_warp *x, uint64_t seq)
{
	const struct gh_cold *c = cold_of(st, x);
	for (uint64_t m = x->valid & x->load_slots; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		if (c[q].seq < seq)
			return IW_NEVER;
	}
	return 0;
}

static void tlb_prune(struct gh_state *st, struct gh_warp *x, uint64_t now)
{
	while (x->tlb_n && x->tlb_t[x->tlb_head] <= now) {
		x->tlb_head = (x->tlb_head + 1) % st->tlb_cap;
		x->tlb_n--;
	}
}

static uint64_t tlb_wait(struct gh_state *st, struct gh_warp *x, uint64_t seq, uint64_t now)
{
	if (tlb_clear_at(st, x, seq) == IW_NEVER)
		return IW_NEVER;
	tlb_prune(st, x, now);
	uint64_t t = 0;
	for (uint32_t k = 0; k < x->tlb_n; k++) {
		uint32_t i = (x->tlb_head + k) % st->tlb_cap;
		if (x->tlb_seq[i] < seq && x->tlb_t[i] > now && x->tlb_t[i] > t)
			t = x->tlb_t[i];
	}
	return t;
}

/* Precise: drop the checks that passed before `now` from the SM's queue
 * (no tick or next_event asks about them again: an SM's cycles only grow). */
static inline void tq_drop(struct gh_state *st, uint64_t now)
{
	while (st->tq_n && st->tq[st->tq_head].t < now) {
		if (++st->tq_head == st->tq_cap)
			st->tq_head = 0;
		st->tq_n--;
	}
}

/* Precise: might a check of a warp of sub-core sid pass now?  (If not, the
 * tick's look at the rings finds nothing.) */
static int tq_due(struct gh_state *st, uint32_t sid, uint64_t now)
{
	tq_drop(st, now);
	for (uint32_t i = 0; i < st->tq_n; i++) {
		const struct gh_tq *e = &st->tq[(st->tq_head + i) % st->tq_cap];
		if (e->t != now)
			return 0;
		if (e->sid == sid)
			return 1;
	}
	return 0;
}

/* Does warp x's ring still hold a check that passes at t?  (The ring is in
 * time order; tlb_prune may have dropped it, warp_start cleared the ring.) */
static int tlb_holds(const struct gh_state *st, const struct gh_warp *x, uint64_t t)
{
	for (uint32_t j = x->tlb_n; j--;) {
		uint64_t e = x->tlb_t[(x->tlb_head + j) % st->tlb_cap];
		if (e <= t)
			return e == t;
	}
	return 0;
}

/* A destination still has readers in flight (the WAR half of iw_sb_war_waw),
 * for destinations all in block blk: registers blk * 64 + each bit of dsig. */
static inline int sb_read(const struct iw_scoreboard *b, uint8_t blk, uint64_t dsig)
{
	const uint8_t *r = b->readers + (size_t)blk * 64;
	for (; dsig; dsig &= dsig - 1)
		if (r[__builtin_ctzll(dsig)])
			return 1;
	return 0;
}

/* Scoreboard and common-rule check of IsB slot q; 0 = may issue. */
static inline __attribute__((always_inline)) int sb_block(struct gh_state *st, struct gh_warp *x, int q, uint64_t now)
{
	const struct gh_hot *hq = &hot_of(st, x)[q];
	/* the instruction, read only for register lists (a mixed block) */
	const struct iw_inst *in = &x->slots[hq->slot].in;
	/* With all its registers in one block, the entry's signatures are its
	 * registers there (regm_blk): one word of the scoreboard answers. */
	int one = !(hq->blk & GH_BLK_MIXED);
	if (one ? (hq->src & x->sb.pending[hq->blk]) != 0 : iw_sb_raw(&x->sb, in))
		return IW_STALL_RAW;
	if ((hq->flags & IW_F_PRED_BRANCH) && x->pred_inflight)
		return IW_STALL_RAW;
	if (one ? (hq->dst & x->sb.pending[hq->blk]) || (st->war_sb && sb_read(&x->sb, hq->blk, hq->dst))
		: iw_sb_war_waw(&x->sb, in, st->war_sb))
		return IW_STALL_WAR_WAW;
	if ((hq->flags & (IW_F_BARRIER | IW_F_MEMBAR)) && x->mem_inflight) /* iw_is_sync */
		return IW_STALL_MEM_ORDER;
	if (st->precise && non_idempotent(in)) {
		uint64_t t = tlb_wait(st, x, cold_of(st, x)[q].seq, now);
		if (t > now)
			return IW_STALL_MEM_ORDER;
	}
	return 0;
}

/* sb_block, remembering the answer until an issue or write-back of the
 * warp could change it (sb_forget_issue, sb_forget_writeback). */
static inline __attribute__((always_inline)) int sb_ask(struct gh_state *st, struct gh_warp *x, int q, uint64_t now)
{
	uint64_t b = 1ull << q;
	int r = sb_block(st, x, q, now);
	if (!st->precise) {
		hot_of(st, x)[q].sbr = (uint8_t)r;
		x->sb_known |= b;
		x->sb_pass = r ? x->sb_pass & ~b : x->sb_pass | b;
		x->sb_raw = r == IW_STALL_RAW ? x->sb_raw | b : x->sb_raw & ~b;
	}
	return r;
}

/* sb_ask out of line, for the callers whose common case is a known answer
 * (the scheduler's candidate): they stay small. */
static __attribute__((noinline)) int sb_ask_cold(struct gh_state *st, struct gh_warp *x, int q, uint64_t now)
{
	return sb_ask(st, x, q, now);
}

static inline int sb_check(struct gh_state *st, struct gh_warp *x, int q, uint64_t now)
{
	return x->sb_known >> q & 1 ? hot_of(st, x)[q].sbr : sb_ask(st, x, q, now);
}

static inline int sb_check_lean(struct gh_state *st, struct gh_warp *x, int q, uint64_t now)
{
	return x->sb_known >> q & 1 ? hot_of(st, x)[q].sbr : sb_ask_cold(st, x, q, now);
}

/* sb_block tries RAW, WAR/WAW, then memory order, and answers with the first
 * that fails.  An issue only adds (destinations pending, sources read, a
 * predicate and a memory instruction in flight), so a failing rule keeps
 * failing and an answer changes only if a rule tried before it, or a pass,
 * starts to fail: when the new in-flight registers meet the entry's
 * (signatures: an exact filter), or the predicate or memory rule applies.
 * A RAW answer never changes. */
static void sb_forget_issue(const struct gh_state *st, struct gh_warp *x, uint8_t kind, struct gh_regm im, int war)
{
	uint64_t wd = im.dst | (war ? im.src : 0);
	int pred = (kind & GH_K_SETS_PRED) != 0, mem = (kind & GH_K_MEM) != 0;
	const struct gh_hot *h = hot_of(st, x);
	for (uint64_t m = x->sb_known & ~x->sb_raw & x->valid; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		const struct gh_hot *e = &h[q];
		int raw = (e->src & im.dst) || (pred && (e->flags & IW_F_PRED_BRANCH));
		int waw = (e->dst & wd) != 0;
		int ord = mem && (e->flags & (IW_F_BARRIER | IW_F_MEMBAR));
		if (raw || (e->sbr != IW_STALL_WAR_WAW && waw) || (!e->sbr && ord))
			x->sb_known &= ~(1ull << q);
	}
}

/* A write-back only removes, so a pass stays and a failing answer changes
 * only if its own rule may stop failing. */
static void sb_forget_writeback(const struct gh_state *st, struct gh_warp *x, uint8_t kind, struct gh_regm im, int war)
{
	uint64_t wd = im.dst | (war ? im.src : 0);
	int pred = (kind & GH_K_SETS_PRED) != 0, mem = (kind & GH_K_MEM) != 0;
	const struct gh_hot *h = hot_of(st, x);
	for (uint64_t m = x->sb_known & ~x->sb_pass & x->valid; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		const struct gh_hot *e = &h[q];
		int flip = e->sbr == IW_STALL_RAW ? (e->src & im.dst) || (pred && (e->flags & IW_F_PRED_BRANCH))
			 : e->sbr == IW_STALL_WAR_WAW ? (e->dst & wd) != 0
						      : mem;
		if (flip)
			x->sb_known &= ~(1ull << q);
	}
}

static int dep_reason(struct gh_state *st, struct gh_warp *x, int q)
{
	const struct gh_hot *h = hot_of(st, x);
	int p = __builtin_ctzll(h[q].dep);
	int k = dc_dep_m(st, &x->slots[h[q].slot].in, (struct gh_regm){h[q].src, h[q].dst}, &x->slots[h[p].slot].in,
			 (struct gh_regm){h[p].src, h[p].dst});
	return k == 1 ? IW_STALL_RAW : k == 0 ? IW_STALL_WAR_WAW : k == 3 ? IW_STALL_MEM_ORDER : IW_STALL_CONTROL;
}

/* Put IsB slot q in the ITab, keeping the ITab oldest first. */
static void itab_add(const struct gh_state *st, struct gh_warp *x, int q)
{
	const struct gh_cold *c = cold_of(st, x);
	uint64_t seq = c[q].seq;
	int i = x->itab_n++;
	while (i && c[x->itab[i - 1]].seq > seq) {
		x->itab[i] = x->itab[i - 1];
		i--;
	}
	x->itab[i] = (uint8_t)q;
	x->in_itab |= 1ull << q;
	/* the scheduler is about to offer it (the issue stage follows the
	 * tick): start fetching the slot the engine then reads and writes
	 * while the DC does its part of the tick */
	iw_slot_prefetch(&x->slots[hot_of(st, x)[q].slot]);
}

/* The GhOST scheduler: fill one warp's ITab with its oldest ready entries. */
static int fill_itab(struct gh_state *st, struct gh_warp *x, uint64_t now)
{
	int wrote = 0;
	if (!st->precise) {
		/* The oldest entries with an all-zero IB-dep vector that the
		 * scoreboard lets go.  Without Precise the check has no side
		 * effect, so one walk of the age index, oldest first, takes them
		 * (each entry checked once; the same answer as searching for the
		 * oldest passing entry once per free ITab entry). */
		uint64_t elig = x->ready & ~x->in_itab & ~(x->sb_known & ~x->sb_pass);
		int room = st->itab_size - x->itab_n;
		for (int i = 0; elig && room; i++) {
			int q = x->age[i];
			if (!(elig >> q & 1))
				continue;
			elig &= ~(1ull << q);
			if (sb_check(st, x, q, now))
				continue;
			itab_add(st, x, q);
			room--;
			wrote++;
		}
	} else {
		/* Precise: the check prunes the TLB ring, which decides whether
		 * this cycle's TLB completions are seen (gh_tick), so the entries
		 * are checked in the order the model has always used: the oldest
		 * passing entry, searched in slot order, once per ITab entry. */
		const struct gh_cold *c = cold_of(st, x);
		while (x->itab_n < st->itab_size) {
			int best = -1;
			for (uint64_t m = x->ready & ~x->in_itab; m; m &= m - 1) {
				int q = __builtin_ctzll(m);
				if (best >= 0 && c[q].seq > c[best].seq)
					continue;
				if (sb_block(st, x, q, now))
					continue;
				best = q;
			}
			if (best < 0)
				break;
			itab_add(st, x, best);
			wrote++;
		}
	}
	if (wrote) {
		gh_count(st, IW_A_ITAB_SELECT, 1);
		gh_count(st, IW_A_ITAB_WRITE, (uint64_t)wrote);
		gh_count(st, IW_A_ISB_READ, (uint64_t)wrote);
	}
	return wrote;
}

/* The DC moves warp w's IB head into the lowest free IsB slot. */
static void dc_move(struct gh_state *st, struct iw_warp *w, struct gh_warp *x, struct iw_slot *s, uint64_t now)
{
	int q = __builtin_ctzll(~x->valid & st->isb_all);
	uint64_t qbit = 1ull << q;
	const struct iw_inst *a = &s->in;
	uint8_t ab;
	struct gh_regm am = regm_blk(a, &ab);
	uint8_t ak = kind_of(a);
	uint64_t dep = 0;
	uint64_t *found = st->cnt->deps_found;
	struct gh_hot *h = hot_of(st, x);
	struct gh_cold *c = cold_of(st, x);
	/* The entries some DC rule may match (dc_dep_h says -1 for all others):
	 * those of a kind that meets a rule whatever the registers (atomics and
	 * control always, memory for a memory instruction, compares for a
	 * predicated branch; an atomic meets every entry), then those whose
	 * register signatures meet the new one's.  dc_dep_h decides for each;
	 * the order of the checks changes nothing (dep, waiters and deps_found
	 * only add up). */
	uint64_t meet = x->kind_slots[1] | x->kind_slots[3]; /* atomics, control */
	if (ak & GH_K_MEM)
		meet |= x->kind_slots[0];
	if (a->flags & IW_F_PRED_BRANCH)
		meet |= x->kind_slots[2];
	if (ak & GH_K_ATOMIC)
		meet = ~0ull;
	meet &= x->valid;
	for (uint64_t m = x->valid & ~meet; m; m &= m - 1) {
		int p = __builtin_ctzll(m);
		const struct gh_hot *pe = &h[p];
		if ((am.src & pe->dst) | (am.dst & (pe->dst | pe->src)))
			meet |= 1ull << p;
	}
	for (uint64_t m = meet; m; m &= m - 1) {
		int p = __builtin_ctzll(m);
		const struct gh_hot *pe = &h[p];
		int kd = dc_dep_h(st, a, am, ab, pe, &x->slots[pe->slot].in);
		if (kd >= 0) {
			dep |= 1ull << p;
			c[p].waiters |= qbit;
			found[kd]++;
		}
	}
	gh_count(st, IW_A_DC_CHECK, 1);
	gh_count(st, IW_A_DC_COMPARE, x->nage);
	struct gh_hot *nh = &h[q];
	struct gh_cold *nc = &c[q];
	nc->seq = s->seq;
	nc->waiters = 0;
	nh->src = am.src;
	nh->dst = am.dst;
	nh->dep = dep;
	nh->slot = s->id;
	nh->flags = a->flags;
	nh->kind = ak;
	nh->blk = ab;
	/* a reused slot's old kinds go at its issue (gh_issue) */
	if (ak) {
		x->kind_slots[0] |= (uint64_t)(ak & 1) << q;
		x->kind_slots[1] |= (uint64_t)(ak >> 1 & 1) << q;
		x->kind_slots[2] |= (uint64_t)(ak >> 2 & 1) << q;
		x->kind_slots[3] |= (uint64_t)(ak >> 3 & 1) << q;
	}
	if (st->precise)
		x->load_slots = (x->load_slots & ~qbit) | (uint64_t)((a->flags & IW_F_LOAD) != 0) << q;
	x->valid |= qbit;
	x->sb_known &= ~qbit;
	if (!dep)
		x->ready |= qbit;
	/* program order: the DC takes the IB head, so the new entry is the youngest */
	x->age[x->nage++] = (uint8_t)q;
	/* its IsB slot, register block and kind (issue and write-back read
	 * them here instead of working them out again) */
	s->aux[0] = (uint64_t)q | (uint64_t)ab << 8 | (uint64_t)ak << 16;
	s->aux[1] = now; /* entered the IsB */
	s->aux[2] = am.src; /* its register signature, for the write-back */
	s->aux[3] = am.dst;
	/* the head leaves the front IB as it enters the IsB: one IB read, as
	 * every other scheme's IB is read at issue */
	gh_count(st, IW_A_IB_READ, 1);
	gh_count(st, IW_A_ISB_WRITE, 1);
	if (x->head_sync) /* the moved head's bit (gh_insert) */
		x->ib_sync &= ~(1ull << x->ib_head);
	x->ib_head = (uint8_t)((x->ib_head + 1) & st->ib_mask);
	if (--x->ib_n)
		x->head_sync = (uint8_t)(x->ib_sync >> x->ib_head & 1);
	if (ak & GH_K_CTRL)
		x->ctrl_unresolved++;
	if (iw_is_sync(a))
		x->block_moves = 1;
	sched_mark(st, w, x);
	dc_update(st, w, x);
}

/* Precise: a load passing its TLB check now may let a non-idempotent
 * instruction go: report progress so the warps are asked again.  (Out of
 * line: the tick without Precise stays small.) */
static __attribute__((noinline)) int tlb_scan(struct gh_state *st, struct iw_subcore *sc, int progress, uint64_t now)
{
	struct iw_sm *sm = st->sm;
	struct gh_sc *g = &st->sc[sc->id];
	uint32_t sid = sc->id;
	/* The warps of this sub-core whose ring holds a check passing now
	 * (the scheduler's checks earlier in this tick may have pruned it): candidates
	 * from the SM's queue, each confirmed in its ring, in local order
	 * as a scan over all the warps would find them. */
	int marked = progress;
	uint64_t due = 0;
	tq_drop(st, now);
	for (uint32_t i = 0; i < st->tq_n; i++) {
		const struct gh_tq *e = &st->tq[(st->tq_head + i) % st->tq_cap];
		if (e->t != now)
			break;
		if (e->sid == sid)
			due |= 1ull << e->local;
	}
	for (; due; due &= due - 1) {
		uint32_t k = (uint32_t)__builtin_ctzll(due);
		if (tlb_holds(st, &st->w[sc->warp_ids[k]], now)) {
			/* every warp whose check passes now is asked again;
			 * the scheduler revisits the first of them */
			iw_sim_unblock(sm, &sm->warps[sc->warp_ids[k]]);
			if (!marked)
				g->stale |= 1ull << k;
			marked = progress = 1;
		}
	}
	return progress;
}

static __attribute__((noinline)) int gh_tick_work(struct gh_state *st, struct iw_subcore *sc, uint64_t now)
{
	uint32_t sid = sc->id;
	struct gh_sc *g = &st->sc[sid];
	struct iw_sm *sm = st->sm;
	int progress = 0;
	/* 1. GhOST scheduler: one warp per cycle, a recent write-back first.  A
	 * warp whose IsB, scoreboard and timers did not change since it was last
	 * looked at has nothing new to offer, so only "stale" warps are visited. */
	int served = -1;
	uint64_t stale = g->stale; /* written back below: fill_itab does not touch it */
	if (stale) {
		uint32_t start = g->sched_rr + 1;
		uint64_t m = stale & g->recent_wb;
		for (int pass = 0;;) {
			if (!m) {
				if (pass++ || !(m = stale))
					break;
			}
			int local = next_rr(m, start);
			uint64_t bit = 1ull << local;
			m &= ~bit;
			stale &= ~bit;
			uint32_t wid = sc->warp_ids[local];
			struct gh_warp *x = &st->w[wid];
			/* (a warp that is not active has an empty IsB: all it held
			 * issued before it finished) */
			/* (nor does a warp waiting at a barrier: nothing it has
			 * may issue before the release, whose write-back marks
			 * it again; its ITab stays empty meanwhile) */
			if (x->itab_n >= st->itab_size || !x->valid || x->bar_wait)
				continue;
			if (fill_itab(st, x, now)) {
				served = local;
				g->recent_wb &= ~bit;
				iw_sim_unblock(sm, &sm->warps[wid]); /* its ITab grew: ask it again */
				break;
			}
		}
		g->stale = stale;
	}
	if (served >= 0) {
		g->sched_rr = (uint32_t)served;
		progress = 1;
	}
	/* Precise: checks passing now (tlb_scan) */
	if (st->precise && st->tq_n && st->tq[st->tq_head].t <= now) /* (else none passes now) */
		progress = tlb_scan(st, sc, progress, now);
	/* 2. Dependence checker: dc_units instructions, one per warp, round-robin
	 * over the warps whose IB head may move (dc_ready). */
	int units = st->cfg->ghost_dc_units, moved_any = 0;
	uint32_t last = 0;
	uint64_t dm = g->dc_ready;
	while (dm && units) {
		uint32_t local = (uint32_t)next_rr(dm, g->dc_rr);
		dm &= ~(1ull << local);
		uint32_t wid = sc->warp_ids[local];
		struct iw_warp *w = &sm->warps[wid];
		if (!w->active)
			continue;
		struct gh_warp *x = &st->w[wid];
		/* (The head was decoded in an earlier cycle, as the DC needs: the
		 * tick comes before decode in a sub-core's cycle, and dc_ready is
		 * set by a decode, or for a head already in the IB.) */
		struct iw_slot *s = &w->slots[ib_of(st, x)[x->ib_head]];
		units--;
		/* The new entry is the youngest: the warp's candidate (its ITab,
		 * else its oldest IsB entry) and its stall reason change only if
		 * the IsB was empty, so only then is it asked again. */
		if (!x->valid)
			iw_sim_unblock(sm, w);
		dc_move(st, w, x, s, now);
		iw_sim_insert_room(sm, w); /* its IB has room for one more */
		moved_any = 1;
		last = local;
	}
	if (moved_any) {
		/* last + 1 may be n: next_rr then wraps to the lowest warp, as
		 * from 0 (dc_ready has no bit at or above n) */
		g->dc_rr = last + 1;
		progress = 1;
	}
	return progress;
}

/* Precise, nothing for the scheduler or the DC: only a TLB check passing
 * now gives the tick work. */
static __attribute__((noinline)) int gh_tick_tlb(struct gh_state *st, struct iw_subcore *sc, uint64_t now)
{
	return tq_due(st, sc->id, now) ? gh_tick_work(st, sc, now) : 0;
}

static int gh_tick(void *p, struct iw_subcore *sc, uint64_t now)
{
	struct gh_state *st = p;
	/* Nothing new for the scheduler and nothing the DC can move: the
	 * common idle cycle costs these tests only. */
	const struct gh_sc *g = &st->sc[sc->id];
	if (g->stale | g->dc_ready)
		return gh_tick_work(st, sc, now);
	if (!st->precise)
		return 0;
	return gh_tick_tlb(st, sc, now); /* (tail calls: no frame here) */
}

/* Work the next tick does without any warp's event: warps the scheduler has
 * not yet looked at since they changed, IB heads the DC may move.  (TLB
 * checks of GhOST-Precise end at times next_event reports.) */
static int gh_busy(void *p, const struct iw_subcore *sc)
{
	const struct gh_state *st = p;
	const struct gh_sc *g = &st->sc[sc->id];
	return (g->stale | g->dc_ready) != 0;
}

static __attribute__((noinline)) struct iw_slot *gh_candidate_walk(struct gh_state *st, struct gh_warp *x,
								   struct iw_warp *w, uint64_t now, int *reason)
{
	/* waiting at a barrier (the ITab is empty then: gh_tick_work) */
	if (x->bar_wait) {
		*reason = IW_STALL_BARRIER;
		return NULL;
	}
	/* the oldest ITab entry (re-checked: the ITab was filled earlier) */
	for (int i = 0; i < x->itab_n; i++) {
		int q = x->itab[i];
		if ((x->ready >> q & 1) && !sb_check_lean(st, x, q, now))
			return &w->slots[hot_of(st, x)[q].slot];
	}
	if (!x->valid) {
		*reason = x->ib_n ? (x->block_moves ? IW_STALL_BARRIER : x->ctrl_unresolved ? IW_STALL_CONTROL
											 : IW_STALL_IB_EMPTY)
				  : IW_STALL_IB_EMPTY;
		return NULL;
	}
	/* in-order fallback: the oldest IsB entry, checked by the scoreboard */
	int old = x->age[0];
	if (!(x->ready >> old & 1)) { /* cannot happen: the oldest has no older entry */
		*reason = dep_reason(st, x, old);
		return NULL;
	}
	int r = sb_check_lean(st, x, old, now);
	if (!r)
		return &w->slots[hot_of(st, x)[old].slot];
	*reason = r;
	return NULL;
}

static struct iw_slot *gh_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	/* the common answer, the oldest ITab entry with a known pass, without
	 * the walk's frame */
	if (x->itab_n) {
		int q = x->itab[0];
		const struct gh_hot *h = hot_of(st, x);
		if ((x->ready & x->sb_known & x->sb_pass) >> q & 1)
			return &w->slots[h[q].slot];
	}
	return gh_candidate_walk(st, x, w, now, reason);
}

/* Remove q from the list l[0..n] (n + 1 entries, q among them): the entries
 * after it move up by one.  Written as a carry from the end rather than a
 * copy, which the compiler would turn into a memmove call for a few bytes. */
static inline int list_drop(uint8_t *l, int n, uint8_t q)
{
	uint8_t carry = l[n];
	int i = n;
	while (carry != q) {
		uint8_t t = l[--i];
		l[i] = carry;
		carry = t;
	}
	return i; /* where q was */
}

static void gh_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	uint64_t a0 = s->aux[0];
	int q = (int)(a0 & 0xff);
	uint8_t kind = (uint8_t)(a0 >> 16);
	uint64_t qbit = 1ull << q, keep = ~qbit;
	int from_itab = (x->in_itab & qbit) != 0;
	if (from_itab) {
		x->itab_n--;
		list_drop(x->itab, x->itab_n, (uint8_t)q);
		x->in_itab &= keep;
	}
	gh_count(st, from_itab ? IW_A_ITAB_READ : IW_A_ISB_READ, 1);
	/* the slot is freed at once; its bit leaves the IB-dep vectors of the
	 * entries waiting for it and younger entries' age index drops by one */
	x->valid &= keep;
	x->ready &= keep;
	int younger = x->age[--x->nage] != q;
	/* Reorder statistics (counts_reorders): the older instructions of the
	 * warp still waiting in the scheme are the IsB entries older than q,
	 * i.e. q's position in the age index (the IB holds only younger ones:
	 * the DC moves its head, the oldest), binned as iw_sim_count_reorder. */
	int older = list_drop(x->age, x->nage, (uint8_t)q);
	if (older) {
		st->cnt->reorders++;
		st->cnt->reorder_dist[older < IW_REORDER_BINS ? older - 1 : IW_REORDER_BINS - 1]++;
	}
	struct gh_hot *h = hot_of(st, x);
	for (uint64_t m = cold_of(st, x)[q].waiters & x->valid; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		if (!(h[k].dep &= keep))
			x->ready |= 1ull << k;
	}
	gh_count(st, IW_A_ISB_DEP_CLEAR, 1);
	if (kind) {
		x->kind_slots[0] &= keep;
		x->kind_slots[1] &= keep;
		x->kind_slots[2] &= keep;
		x->kind_slots[3] &= keep;
	}
	if (younger)
		gh_count(st, IW_A_ISB_AGE_UPDATE, 1);
	st->cnt->isb_occ += now - s->aux[1];
	/* scoreboard, as in the baseline */
	gh_count(st, IW_A_SB_CHECK, 1);
	gh_sb_reserve(st, x, in, (uint8_t)(a0 >> 8), s->aux[3]);
	x->mem_inflight += (kind & GH_K_MEM) != 0;
	x->pred_inflight += (kind & GH_K_SETS_PRED) != 0;
	sb_forget_issue(st, x, kind, (struct gh_regm){s->aux[2], s->aux[3]}, st->war_sb);
	if (st->precise && (in->flags & IW_F_LOAD) && st->cfg->ghost_tlb_check_latency) {
		tlb_prune(st, x, now);
		IW_ASSERT(x->tlb_n < st->tlb_cap);
		uint32_t k = (x->tlb_head + x->tlb_n) % st->tlb_cap;
		x->tlb_seq[k] = s->seq;
		x->tlb_t[k] = now + (uint64_t)st->cfg->ghost_tlb_check_latency;
		x->tlb_n++;
		/* the SM's queue: its sub-cores tick cycle after cycle, so checks
		 * issued later pass later (the latency is the same for all) */
		IW_ASSERT(st->tq_n < st->tq_cap && (!st->tq_n || st->tq[(st->tq_head + st->tq_n - 1) % st->tq_cap].t <= x->tlb_t[k]));
		struct gh_tq *e = &st->tq[(st->tq_head + st->tq_n++) % st->tq_cap];
		e->t = x->tlb_t[k];
		e->wid = w->id;
		e->sid = (uint16_t)w->subcore;
		e->local = (uint16_t)w->local;
	}
	if (in->flags & IW_F_BARRIER) { /* moves resume, issue waits (header) */
		/* (it moved into an empty IsB and nothing after it: the
		 * ITab stays empty through the wait, gh_candidate_walk) */
		IW_ASSERT(!x->itab_n);
		x->block_moves = 0;
		x->bar_wait = 1;
	}
	sched_mark(st, w, x);
	dc_update(st, w, x); /* a slot came free */
}

static int gh_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	uint64_t a0 = s->aux[0];
	uint8_t kind = (uint8_t)(a0 >> 16); /* kind_of(in), from dc_move */
	gh_sb_release(st, x, in, (uint8_t)(a0 >> 8), s->aux[3]);
	x->mem_inflight -= (kind & GH_K_MEM) != 0;
	x->pred_inflight -= (kind & GH_K_SETS_PRED) != 0;
	if (x->sb_known & ~x->sb_pass & x->valid)
		sb_forget_writeback(st, x, kind, (struct gh_regm){s->aux[2], s->aux[3]}, st->war_sb);
	int sync = iw_is_sync(in);
	if ((kind & GH_K_CTRL) || sync) {
		if (kind & GH_K_CTRL)
			x->ctrl_unresolved--;
		/* a barrier's wait ends; a fence's moves resume (a younger
		 * fence may have moved in during a barrier's wait: its block
		 * stays) */
		if (in->flags & IW_F_BARRIER)
			x->bar_wait = 0;
		else if (sync)
			x->block_moves = 0;
		dc_update(st, w, x); /* moves may resume */
	}
	st->sc[w->subcore].recent_wb |= 1ull << w->local;
	sched_mark(st, w, x);
	return in->ndst;
}

static uint64_t gh_next_event(void *p, uint64_t now)
{
	struct gh_state *st = p;
	if (!st->tlb_pool)
		return IW_NEVER;
	/* The earliest check in any warp's ring passing after now: the SM's
	 * queue holds every ring entry in time order (a ring drops an entry
	 * that late only when warp_start clears it, hence the look). */
	tq_drop(st, now);
	for (uint32_t i = 0; i < st->tq_n; i++) {
		const struct gh_tq *e = &st->tq[(st->tq_head + i) % st->tq_cap];
		if (e->t > now && tlb_holds(st, &st->w[e->wid], e->t))
			return e->t;
	}
	return IW_NEVER;
}

const struct iw_scheme_ops iw_scheme_ghost = {
	.name = "ghost",
	.help = "GhOST: IB -> dependence checker -> issue buffer (ghost.isb_size) + ITab, scoreboard; ghost.precise",
	.window = gh_window,
	.entries = gh_entries,
	.sm_new = gh_sm_new,
	.warp_start = gh_warp_start,
	.insert = gh_insert,
	.tick = gh_tick,
	.candidate = gh_candidate,
	/* ITab/IsB change in tick (which names each warp it changed) or at the
	 * warp's insert, issue and write-back; GhOST keeps nothing about operand
	 * reads or dispatch */
	.candidate_cacheable = 2,
	.insert_until_issue = IW_INSERT_UNTIL_ROOM, /* the IB drains only into the IsB */
	.insert_keeps_candidate = 1, /* see gh_insert */
	.tick_unblocks = 1,       /* the tick names each warp it changed */
	.counts_reorders = 1,     /* gh_issue, from the age index */
	.busy = gh_busy,
	.issue = gh_issue,
	.writeback = gh_writeback,
	.next_event = gh_next_event,
	.frees_addresses_at_dispatch = 1, /* memory order by instruction class, never by address */
};
