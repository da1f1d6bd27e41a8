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
 *   - Barriers and memory fences wait in the DC until the warp's IsB is empty
 *     and block further moves until they have completed (the baseline parks a
 *     warp at a barrier until the CTA passes it), and issue only when no older
 *     memory instruction of the warp is in flight.
 *   - A predicated branch depends on the last compare (the predicate is not
 *     in the trace): an IB-dep bit on an IsB compare, and an in-flight
 *     predicate counter beside the scoreboard.
 *   - Precise: a load's TLB check passes tlb_check_latency cycles after it
 *     issues (the paper's TLB hit); misses are not modelled.
 */
#include "sim.h"

#include <string.h>

struct gh_warp {
	uint16_t ib[64];        /* front IB, FIFO of slot ids */
	uint8_t ib_head, ib_n;
	uint64_t valid;         /* IsB slots in use (not yet issued) */
	uint64_t dep[64];       /* IB-dep vector of each IsB slot */
	uint16_t slot[64];      /* slot id in each IsB slot */
	uint64_t seq[64];
	struct iw_inst *in;     /* the IsB holds the decoded instruction (no slot look-ups) */
	struct gh_regm *rm;     /* register signatures of the IsB entries */
	uint8_t itab[16];       /* IsB slots in the ITab, oldest first */
	uint8_t itab_n;
	uint8_t block_moves;    /* a barrier/fence moved in and has not completed */
	uint8_t ctrl_unresolved; /* control instructions in the IsB or in flight */
	/* scoreboard for in-flight instructions, as the baseline */
	struct iw_scoreboard sb;
	uint16_t mem_inflight, pred_inflight;
	/* precise: TLB-check completion of issued loads, (seq, cycle) ring */
	uint64_t *tlb_seq, *tlb_t;
	uint32_t tlb_head, tlb_n;
};

/* Register signature of an instruction: bit r % 64 per register.  Two
 * instructions can share a register only if their signatures meet, so the DC
 * compares register lists only then (an exact filter, not an approximation). */
struct gh_regm {
	uint64_t src, dst;
};

struct gh_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct iw_sm *sm;
	struct gh_warp *w;
	uint32_t tlb_cap;
	uint64_t *tlb_pool;
	uint32_t *sched_rr;     /* per sub-core: last warp served by the GhOST scheduler */
	uint32_t *dc_rr;        /* per sub-core: DC round-robin pointer */
	/* per sub-core, one bit per local warp: */
	uint64_t *stale;        /* state changed since the GhOST scheduler last looked */
	uint64_t *recent_wb;    /* a write-back since the warp's ITab was last filled */
	uint64_t *ib_nonempty;  /* instructions waiting in the front IB */
	struct iw_inst *isb_pool;
	struct gh_regm *rm_pool;
	uint64_t isb_all;       /* bits of the isb_size IsB slots */
	int war_sb;             /* cfg->war_scoreboard, read once */
};

static inline void mark(uint64_t *m, const struct iw_warp *w) { m[w->subcore] |= 1ull << w->local; }

/* Lowest set bit of m at or after `start` (wrapping), -1 if none. */
static inline int next_rr(uint64_t m, uint32_t start)
{
	uint64_t hi = start < 64 ? m & (~0ull << start) : 0;
	return hi ? __builtin_ctzll(hi) : m ? __builtin_ctzll(m) : -1;
}


/* A overwrites one of its own sources: re-executing it would read the result. */
static int non_idempotent(const struct iw_inst *in)
{
	return (in->flags & (IW_F_STORE | IW_F_ATOMIC)) || iw_regs_meet(in->dst, in->ndst, in->src, in->nsrc);
}

/* DC rule: does the new instruction A depend on the older IsB entry P?
 * Returns the deps_found class (0 war_waw, 1 raw, 2 control, 3 memory) or -1. */
static uint64_t regs_sig(const uint16_t *r, int n)
{
	uint64_t m = 0;
	for (int i = 0; i < n; i++)
		m |= 1ull << (r[i] & 63);
	return m;
}

static struct gh_regm regm_of(const struct iw_inst *in)
{
	return (struct gh_regm){regs_sig(in->src, in->nsrc), regs_sig(in->dst, in->ndst)};
}

static int dc_dep_m(const struct gh_state *st, const struct iw_inst *a, struct gh_regm am, const struct iw_inst *p,
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
		if (st->cfg->ghost_precise) /* GhOST-Precise: loads stay in order */
			return 3;
	}
	if ((a->flags | p->flags) & IW_F_ATOMIC)
		return 3;
	if (iw_is_ctrl(p)) /* cannot happen: nothing moves in behind unresolved control */
		return 2;
	return -1;
}

static uint32_t gh_window(const struct iw_config *c) { return (uint32_t)(c->ghost_ib_size + c->ghost_isb_size); }

static int gh_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	const struct iw_config *c = sm->sim->cfg;
	struct gh_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = c;
	st->sim = sm->sim;
	st->sm = sm;
	st->isb_all = c->ghost_isb_size == 64 ? ~0ull : (1ull << c->ghost_isb_size) - 1;
	st->war_sb = c->war_scoreboard;
	st->w = iw_calloc((size_t)c->max_warps, sizeof *st->w);
	st->sched_rr = iw_calloc((size_t)c->subcores, sizeof *st->sched_rr);
	st->dc_rr = iw_calloc((size_t)c->subcores, sizeof *st->dc_rr);
	st->stale = iw_calloc((size_t)c->subcores * 3, sizeof *st->stale);
	st->isb_pool = iw_calloc((size_t)c->max_warps * (size_t)c->ghost_isb_size, sizeof *st->isb_pool);
	st->rm_pool = iw_calloc((size_t)c->max_warps * (size_t)c->ghost_isb_size, sizeof *st->rm_pool);
	if (st->stale) {
		st->recent_wb = st->stale + c->subcores;
		st->ib_nonempty = st->recent_wb + c->subcores;
	}
	/* loads issued within one TLB-check latency: at most issue_width per cycle */
	st->tlb_cap = (uint32_t)((c->ghost_tlb_check_latency + 2) * c->issue_width);
	if (c->ghost_precise)
		st->tlb_pool = iw_calloc((size_t)c->max_warps * st->tlb_cap * 2, sizeof *st->tlb_pool);
	if (!st->w || !st->sched_rr || !st->dc_rr || !st->stale || !st->isb_pool || !st->rm_pool ||
	    (c->ghost_precise && !st->tlb_pool)) {
		iw_free(st->isb_pool);
		iw_free(st->rm_pool);
		iw_free(st->stale);
		iw_free(st->w);
		iw_free(st->sched_rr);
		iw_free(st->dc_rr);
		iw_free(st->tlb_pool);
		iw_free(st);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	*state = st;
	return 0;
}

static void gh_sm_free(void *p)
{
	struct gh_state *st = p;
	iw_free(st->w);
	iw_free(st->sched_rr);
	iw_free(st->dc_rr);
	iw_free(st->tlb_pool);
	iw_free(st->stale);
	iw_free(st->isb_pool);
	iw_free(st->rm_pool);
	iw_free(st);
}

static void gh_warp_start(void *p, struct iw_warp *w)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	memset(x, 0, sizeof *x);
	x->in = st->isb_pool + (size_t)w->id * (size_t)st->cfg->ghost_isb_size;
	x->rm = st->rm_pool + (size_t)w->id * (size_t)st->cfg->ghost_isb_size;
	uint64_t keep = ~(1ull << w->local);
	st->stale[w->subcore] &= keep;
	st->recent_wb[w->subcore] &= keep;
	st->ib_nonempty[w->subcore] &= keep;
	if (st->tlb_pool) {
		x->tlb_seq = st->tlb_pool + (size_t)w->id * st->tlb_cap * 2;
		x->tlb_t = x->tlb_seq + st->tlb_cap;
	}
}

static int gh_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	if (x->ib_n == st->cfg->ghost_ib_size)
		return IW_STALL_IB_FULL;
	x->ib[(x->ib_head + x->ib_n) % 64] = s->id;
	x->ib_n++;
	mark(st->ib_nonempty, w);
	return 0;
}

/* Precise: IW_NEVER while a load older than seq is still in the IsB (not
 * issued), else 0; tlb_wait then looks at the issued ones. */
static uint64_t tlb_clear_at(const struct gh_warp *x, const struct iw_warp *w, uint64_t seq)
{
	uint64_t t = 0;
	for (uint64_t m = x->valid; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		if (x->seq[q] < seq && (x->in[q].flags & IW_F_LOAD))
			return IW_NEVER;
	}
	return t;
}

static void tlb_prune(struct gh_state *st, struct gh_warp *x, uint64_t now)
{
	while (x->tlb_n && x->tlb_t[x->tlb_head] <= now) {
		x->tlb_head = (x->tlb_head + 1) % st->tlb_cap;
		x->tlb_n--;
	}
}

static uint64_t tlb_wait(struct gh_state *st, struct gh_warp *x, const struct iw_warp *w, uint64_t seq, uint64_t now)
{
	if (tlb_clear_at(x, w, seq) == IW_NEVER)
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

/* Scoreboard and common-rule check of IsB slot q; 0 = may issue. */
static int sb_block(struct gh_state *st, struct gh_warp *x, struct iw_warp *w, int q, uint64_t now)
{
	const struct iw_inst *in = &x->in[q];
	if (iw_sb_raw(&x->sb, in))
		return IW_STALL_RAW;
	if ((in->flags & IW_F_PRED_BRANCH) && x->pred_inflight)
		return IW_STALL_RAW;
	if (iw_sb_war_waw(&x->sb, in, st->war_sb))
		return IW_STALL_WAR_WAW;
	if (iw_is_sync(in) && x->mem_inflight)
		return IW_STALL_MEM_ORDER;
	if (st->cfg->ghost_precise && non_idempotent(in)) {
		uint64_t t = tlb_wait(st, x, w, x->seq[q], now);
		if (t > now)
			return IW_STALL_MEM_ORDER;
	}
	return 0;
}

static int dep_reason(struct gh_state *st, struct gh_warp *x, struct iw_warp *w, int q)
{
	int p = __builtin_ctzll(x->dep[q]);
	int k = dc_dep_m(st, &x->in[q], x->rm[q], &x->in[p], x->rm[p]);
	return k == 1 ? IW_STALL_RAW : k == 0 ? IW_STALL_WAR_WAW : k == 3 ? IW_STALL_MEM_ORDER : IW_STALL_CONTROL;
}

/* The GhOST scheduler: fill one warp's ITab with its oldest ready entries. */
static int fill_itab(struct gh_state *st, struct iw_warp *w, struct gh_warp *x, uint64_t now)
{
	int size = st->cfg->ghost_itab_size, wrote = 0;
	while (x->itab_n < size) {
		int best = -1;
		if (!st->cfg->ghost_precise) {
			/* The oldest eligible entry the scoreboard lets go.  Without
			 * Precise the check has no side effect, so entries are tried
			 * oldest first and the search stops at the first that passes
			 * (the same answer as checking every entry). */
			uint64_t elig = 0;
			for (uint64_t m = x->valid; m; m &= m - 1) {
				int q = __builtin_ctzll(m);
				if (!x->dep[q])
					elig |= 1ull << q;
			}
			for (int i = 0; i < x->itab_n; i++)
				elig &= ~(1ull << x->itab[i]);
			while (elig) {
				int o = __builtin_ctzll(elig);
				for (uint64_t m = elig & (elig - 1); m; m &= m - 1) {
					int q = __builtin_ctzll(m);
					if (x->seq[q] < x->seq[o])
						o = q;
				}
				if (!sb_block(st, x, w, o, now)) {
					best = o;
					break;
				}
				elig &= ~(1ull << o);
			}
		} else {
			/* Precise: the check prunes the TLB ring, so the entries are
			 * checked in the order the model has always used. */
			for (uint64_t m = x->valid; m; m &= m - 1) {
				int q = __builtin_ctzll(m);
				if (x->dep[q])
					continue;
				int in_tab = 0;
				for (int i = 0; i < x->itab_n; i++)
					in_tab |= x->itab[i] == q;
				if (in_tab || (best >= 0 && x->seq[q] > x->seq[best]))
					continue;
				if (sb_block(st, x, w, q, now))
					continue;
				best = q;
			}
		}
		if (best < 0)
			break;
		/* keep the ITab oldest first */
		int i = x->itab_n++;
		while (i && x->seq[x->itab[i - 1]] > x->seq[best]) {
			x->itab[i] = x->itab[i - 1];
			i--;
		}
		x->itab[i] = (uint8_t)best;
		wrote++;
	}
	if (wrote) {
		iw_count(st->sim, IW_A_ITAB_SELECT, 1);
		iw_count(st->sim, IW_A_ITAB_WRITE, (uint64_t)wrote);
		iw_count(st->sim, IW_A_ISB_READ, (uint64_t)wrote);
	}
	return wrote;
}

static int gh_tick(void *p, struct iw_subcore *sc, uint64_t now)
{
	struct gh_state *st = p;
	struct iw_sm *sm = st->sm;
	const struct iw_config *c = st->cfg;
	int progress = 0;
	uint32_t n = sc->nwarps;
	/* 1. GhOST scheduler: one warp per cycle, a recent write-back first.  A
	 * warp whose IsB, scoreboard and timers did not change since it was last
	 * looked at has nothing new to offer, so only "stale" warps are visited. */
	int served = -1;
	uint32_t sid = sc->id;
	for (int pass = 0; pass < 2 && served < 0; pass++) {
		uint64_t m = pass == 0 ? st->stale[sid] & st->recent_wb[sid] : st->stale[sid];
		while (m && served < 0) {
			int local = next_rr(m, st->sched_rr[sid] + 1);
			m &= ~(1ull << local);
			struct iw_warp *w = &sm->warps[sc->warp_ids[local]];
			struct gh_warp *x = &st->w[w->id];
			st->stale[sid] &= ~(1ull << local);
			if (!w->active || x->itab_n >= c->ghost_itab_size || !x->valid)
				continue;
			if (fill_itab(st, w, x, now)) {
				served = local;
				st->recent_wb[sid] &= ~(1ull << local);
			}
		}
	}
	if (served >= 0) {
		st->sched_rr[sid] = (uint32_t)served;
		progress = 1;
	}
	/* Precise: a load passing its TLB check now may let a non-idempotent
	 * instruction go: report progress so the warps are asked again. */
	if (st->tlb_pool)
		for (uint32_t k = 0; k < n && !progress; k++) {
			struct gh_warp *x = &st->w[sc->warp_ids[k]];
			for (uint32_t j = 0; j < x->tlb_n && !progress; j++)
				if (x->tlb_t[(x->tlb_head + j) % st->tlb_cap] == now) {
					progress = 1;
					st->stale[sid] |= 1ull << k;
				}
		}
	/* 2. Dependence checker: dc_units instructions, one per warp. */
	int units = c->ghost_dc_units, moved_any = 0;
	uint32_t last = 0;
	uint64_t dm = st->ib_nonempty[sid];
	while (dm && units) {
		uint32_t local = (uint32_t)next_rr(dm, st->dc_rr[sid]);
		dm &= ~(1ull << local);
		struct iw_warp *w = &sm->warps[sc->warp_ids[local]];
		struct gh_warp *x = &st->w[w->id];
		if (!x->ib_n) {
			st->ib_nonempty[sid] &= ~(1ull << local);
			continue;
		}
		if (!w->active || x->block_moves || x->ctrl_unresolved)
			continue;
		struct iw_slot *s = &w->slots[x->ib[x->ib_head]];
		if (s->t_insert >= now)
			continue; /* decoded this cycle: reaches the DC next cycle */
		uint64_t freem = ~x->valid & st->isb_all;
		if (!freem)
			continue;
		if (iw_is_sync(&s->in) && x->valid)
			continue; /* waits in the DC until the IsB is empty */
		units--;
		uint64_t dep = 0;
		struct iw_counters *cnt = &st->sim->res->cnt;
		struct gh_regm am = regm_of(&s->in);
		for (uint64_t m = x->valid; m; m &= m - 1) {
			int q = __builtin_ctzll(m);
			int kd = dc_dep_m(st, &s->in, am, &x->in[q], x->rm[q]);
			if (kd >= 0) {
				dep |= 1ull << q;
				cnt->deps_found[kd]++;
			}
		}
		iw_count(st->sim, IW_A_DC_CHECK, 1);
		iw_count(st->sim, IW_A_DC_COMPARE, (uint64_t)__builtin_popcountll(x->valid));
		int q = __builtin_ctzll(freem);
		x->valid |= 1ull << q;
		x->dep[q] = dep;
		x->slot[q] = s->id;
		x->seq[q] = s->seq;
		x->in[q] = s->in;
		x->rm[q] = am;
		s->aux[0] = (uint64_t)q;
		s->aux[1] = now; /* entered the IsB */
		iw_count(st->sim, IW_A_ISB_WRITE, 1);
		x->ib_head = (uint8_t)((x->ib_head + 1) % 64);
		x->ib_n--;
		if (iw_is_ctrl(&s->in))
			x->ctrl_unresolved++;
		if (iw_is_sync(&s->in))
			x->block_moves = 1;
		mark(st->stale, w);
		if (!x->ib_n)
			st->ib_nonempty[sid] &= ~(1ull << local);
		moved_any = 1;
		last = local;
	}
	if (moved_any) {
		st->dc_rr[sc->id] = (last + 1) % n;
		progress = 1;
	}
	return progress;
}

static struct iw_slot *gh_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	/* the oldest ITab entry (re-checked: the ITab was filled earlier) */
	for (int i = 0; i < x->itab_n; i++) {
		int q = x->itab[i];
		if (!x->dep[q] && !sb_block(st, x, w, q, now))
			return &w->slots[x->slot[q]];
	}
	if (!x->valid) {
		*reason = x->ib_n ? (x->block_moves ? IW_STALL_BARRIER : x->ctrl_unresolved ? IW_STALL_CONTROL
											 : IW_STALL_IB_EMPTY)
				  : IW_STALL_IB_EMPTY;
		return NULL;
	}
	/* in-order fallback: the oldest IsB entry, checked by the scoreboard */
	int old = -1;
	for (uint64_t m = x->valid; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		if (old < 0 || x->seq[q] < x->seq[old])
			old = q;
	}
	if (x->dep[old]) { /* cannot happen: the oldest has no older entry */
		*reason = dep_reason(st, x, w, old);
		return NULL;
	}
	int r = sb_block(st, x, w, old, now);
	if (!r)
		return &w->slots[x->slot[old]];
	*reason = r;
	return NULL;
}

static void gh_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	int q = (int)s->aux[0];
	int from_itab = 0;
	for (int i = 0; i < x->itab_n; i++)
		if (x->itab[i] == q) {
			memmove(&x->itab[i], &x->itab[i + 1], (size_t)(x->itab_n - i - 1));
			x->itab_n--;
			from_itab = 1;
			break;
		}
	iw_count(st->sim, from_itab ? IW_A_ITAB_READ : IW_A_ISB_READ, 1);
	/* the slot is freed at once; its bit leaves the warp's IB-dep vectors and
	 * younger entries' age index drops by one */
	uint64_t keep = ~(1ull << q);
	x->valid &= keep;
	int younger = 0;
	for (uint64_t m = x->valid; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		x->dep[k] &= keep;
		younger |= x->seq[k] > s->seq;
	}
	iw_count(st->sim, IW_A_ISB_DEP_CLEAR, 1);
	mark(st->stale, w);
	if (younger)
		iw_count(st->sim, IW_A_ISB_AGE_UPDATE, 1);
	st->sim->res->cnt.isb_occ += now - s->aux[1];
	/* scoreboard, as in the baseline */
	iw_count(st->sim, IW_A_SB_CHECK, 1);
	iw_sb_reserve(st->sim, &x->sb, in, st->war_sb);
	x->mem_inflight += iw_is_mem(in);
	x->pred_inflight += (in->flags & IW_F_SETS_PRED) != 0;
	if (st->cfg->ghost_precise && (in->flags & IW_F_LOAD) && st->cfg->ghost_tlb_check_latency) {
		tlb_prune(st, x, now);
		IW_ASSERT(x->tlb_n < st->tlb_cap);
		uint32_t i = (x->tlb_head + x->tlb_n) % st->tlb_cap;
		x->tlb_seq[i] = s->seq;
		x->tlb_t[i] = now + (uint64_t)st->cfg->ghost_tlb_check_latency;
		x->tlb_n++;
	}
}

static int gh_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct gh_state *st = p;
	struct gh_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	iw_sb_release(st->sim, &x->sb, in, st->war_sb);
	x->mem_inflight -= iw_is_mem(in);
	x->pred_inflight -= (in->flags & IW_F_SETS_PRED) != 0;
	if (iw_is_ctrl(in))
		x->ctrl_unresolved--;
	if (iw_is_sync(in))
		x->block_moves = 0;
	mark(st->recent_wb, w);
	mark(st->stale, w);
	return in->ndst;
}

static uint64_t gh_next_event(void *p, uint64_t now)
{
	struct gh_state *st = p;
	if (!st->tlb_pool)
		return IW_NEVER;
	uint64_t t = IW_NEVER;
	for (int i = 0; i < st->cfg->max_warps; i++) {
		struct gh_warp *x = &st->w[i];
		for (uint32_t k = 0; k < x->tlb_n; k++) {
			uint64_t e = x->tlb_t[(x->tlb_head + k) % st->tlb_cap];
			if (e > now && e < t)
				t = e;
		}
	}
	return t;
}

const struct iw_scheme_ops iw_scheme_ghost = {
	.name = "ghost",
	.help = "GhOST: IB -> dependence checker -> issue buffer (ghost.isb_size) + ITab, scoreboard; ghost.precise",
	.window = gh_window,
	.sm_new = gh_sm_new,
	.sm_free = gh_sm_free,
	.warp_start = gh_warp_start,
	.insert = gh_insert,
	.tick = gh_tick,
	.candidate = gh_candidate,
	.candidate_cacheable = 1, /* ITab/IsB change in tick (progress) or at the warp's events */
	.issue = gh_issue,
	.writeback = gh_writeback,
	.next_event = gh_next_event,
};
