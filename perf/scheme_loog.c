/*
 * perf/scheme_loog.c -- LOOG and LOOG-Vortex (SCHEMES.md section 5;
 * seeds/loog-vortex-*, sections 5.2-5.4): collector units used as
 * reservation stations, a Register Alias Table per warp, and an optional
 * Register Renaming Stack (RRS) per sub-core.
 *
 * Flow of one instruction:
 *   IB (in order, loog.ib_size) -> issue = allocate the lowest free CU of the
 *   sub-core (and, with an RRS and a destination, a free RRS entry; none:
 *   stall no_cu / no_rrs) and look up the RAT for each source: the tag of
 *   the in-flight producer (CU id, or RRS id with an RRS) or "from RF"; the
 *   destination is renamed, RAT[warp][dst] = my tag.
 *   -> operand collection: RF sources through the bank model; tagged sources
 *   wait for the producer's broadcast -> dispatch -> write-back = broadcast.
 *
 * This file replaces the engine's collect/dispatch stage (ops->collect).
 * Choices the thesis leaves open, written down here:
 *   - The RAT is consulted in the issue cycle and the first RF read happens
 *     the next cycle (the thesis spends one cycle on the RAT, one on the read
 *     request; we fold the RAT cycle into issue like the baseline's
 *     scoreboard check).
 *   - A broadcast value captured at write-back in cycle t is usable for
 *     dispatch from t+1 (no same-cycle bypass), as the thesis's clock 12/13.
 *   - Results broadcast per cycle and sub-core = loog.broadcasts (SCHEMES.md
 *     section 5 and Vortex: one).  An instruction without a result (a
 *     store, a branch) broadcasts nothing and completes when due, whatever
 *     the results waiting for the bus (wb_results_only).
 *   - Dispatch: up to core.issue_width CUs per cycle (the thesis: one),
 *     by dispatch = oldest (allocation order) or lowest_id (Vortex).
 *   - rf_read_ports = 1: one CU owns the single port until all its RF
 *     operands are read (section 5.3.2), lowest CU id first among those
 *     waiting; otherwise each bank serves one read per cycle, within
 *     rf_read_ports reads (0 = one per bank), oldest CU first.
 *   - Without RRS a CU with a destination stays allocated until its broadcast,
 *     a CU without one is freed at dispatch (section 5.3.3); with RRS every CU
 *     is freed at dispatch and the RRS entry at the broadcast.
 *   - loog.mem = lsq: a memory instruction may dispatch ahead of an older,
 *     undispatched one of its warp only when both have trace addresses and
 *     their address ranges (lowest..highest lane address + width) are
 *     disjoint; plain loads may pass plain loads (an LSQ orders a pair only
 *     when one of them writes memory).  No addresses (built-in workloads):
 *     in order.  loog.mem = inorder (LOOG-Vortex): memory instructions,
 *     loads included, dispatch in program order.
 *   - Control, barriers and fences keep the rules of the baseline at issue
 *     (CU allocation): nothing is allocated past an unresolved control
 *     instruction or a pending barrier/fence, and a barrier/fence allocates
 *     only when no older memory instruction is in flight.
 *   - A predicated branch waits for the last compare through a predicate
 *     entry of the RAT (index 256) that is renamed like a register and
 *     resolved by broadcast, never read from the RF.
 */
#include "sim.h"

#include <string.h>

#define RAT_PRED 256
#define RAT_N 257
#define TAG_RRS 64 /* tags 0..63 are CU ids, 64.. RRS entries */

/* A predicate awaited by a predicated branch: its tag with this bit, so the
 * broadcast that delivers it is not counted as a register operand (a
 * predicate is a bit per lane, and never an RF read).  Tags are CU and RRS
 * indices, at most 64 + IW_LOOG_RRS_MAX: far below it. */
#define LG_PRED_WAIT 0x8000u

struct lg_cu {
	uint16_t wait[IW_MAX_SRC + 1]; /* producer tags still awaited (+1: predicate, with LG_PRED_WAIT) */
	uint8_t nwait;
	uint8_t dispatched;
	uint8_t mem;                   /* a memory instruction (iw_is_mem) */
	uint8_t left;                  /* RF operands still to read (the slot's srcs_left) */
	uint8_t bank[IW_MAX_SRC];      /* their banks ... */
	uint16_t src[IW_MAX_SRC];      /* ... and registers (WAR guard), first `left` */
};

/* Dispatch is tried every cycle and a broadcast searches every CU: the masks
 * below let both visit only the CUs that can act, and answer from the
 * sub-core's own arrays instead of each CU's slot (a cache miss apiece). */
struct lg_sub {
	struct lg_cu *cu;
	uint64_t rrs_free[IW_LOOG_RRS_MAX / 64]; /* bit set = RRS entry free */
	uint64_t *rrs_t;               /* allocation cycle per RRS entry */
	int reader;                    /* CU holding the single RF port, -1 none */
	uint64_t pending;              /* CUs allocated and not yet dispatched */
	uint64_t tagwait;              /* pending CUs awaiting a broadcast (nwait > 0) */
	uint64_t *waiters;             /* per tag: the CUs awaiting its broadcast */
	uint32_t nwaits;               /* tags awaited, summed over the CUs (CAM compares) */
	uint64_t norrs;                /* local warps whose candidate waits for a free RRS entry */
	uint64_t mem;                  /* pending CUs holding a memory instruction */
	/* A broadcast captured in cycle t is usable from t + 1: `late` holds
	 * the CUs that captured one in cycle late_at - 1.  Write-backs come
	 * before collection in a sub-core's tick, so a CU may not use its
	 * operands in cycle `now` exactly when late_at > now (= now + 1) and
	 * its bit is set; older bits are stale and ignored. */
	uint64_t late, late_at;
	/* The pending CUs, and those of them still reading, in allocation
	 * order (by cycle, then CU id: an issue takes the lowest free CU), the
	 * order `oldest` dispatch and the RF reads serve them in. */
	uint8_t pq[64], rq[64];
	uint8_t npq, nrq;
};

struct lg_warp {
	uint16_t ib[64];
	uint8_t head, n;
	uint16_t rat[RAT_N];           /* 0 = from RF, else tag + 1 */
	uint16_t ctrl_pending, sync_pending, mem_inflight;
	uint64_t cus;                  /* its pending CUs (a warp stays in one sub-core) */
};

struct lg_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct iw_sm *sm;
	struct lg_warp *w;
	struct lg_sub *sub;
	uint32_t ncu, nrrs;
	uint64_t *rrs_pool;
	uint64_t *waiters_pool;
	struct lg_cu *cu_pool;
};

static inline int writes_mem(const struct iw_inst *in) { return (in->flags & (IW_F_STORE | IW_F_ATOMIC)) != 0; }

static uint32_t lg_rrs_entries(const struct iw_config *c) { return iw_config_loog_rrs(c); }

static uint32_t lg_cus(const struct iw_config *c) { return (uint32_t)c->loog_cus; }

static uint32_t lg_window(const struct iw_config *c)
{
	/* IB + CUs + results pending in the RRS; stores leave their CU at dispatch */
	return (uint32_t)c->loog_ib_size + (uint32_t)c->loog_cus + lg_rrs_entries(c) + 16;
}

/* The IB integral ends at issue (the CU allocation): the IB alone, not the
 * window, which also counts the CUs and the RRS. */
static void lg_entries(const struct iw_config *c, uint32_t e[IW_OCC_COUNT])
{
	e[IW_OCC_IB] = (uint32_t)c->loog_ib_size;
	e[IW_OCC_RRS] = lg_rrs_entries(c);
}

static void lg_sm_free(void *p)
{
	struct lg_state *st = p;
	iw_free(st->w);
	iw_free(st->sub);
	iw_free(st->rrs_pool);
	iw_free(st->waiters_pool);
	iw_free(st->cu_pool);
	iw_free(st);
}

static int lg_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	const struct iw_config *c = sm->sim->cfg;
	struct lg_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = c;
	st->sim = sm->sim;
	st->sm = sm;
	st->ncu = lg_cus(c);
	st->nrrs = lg_rrs_entries(c);
	IW_ASSERT(st->nrrs <= IW_LOOG_RRS_MAX); /* iw_config_check refused more */
	/* not zeroed: a warp's entry is cleared when it starts (lg_warp_start),
	 * and only the entries of warps that run are ever touched */
	st->w = iw_malloc((size_t)c->max_warps * sizeof *st->w);
	st->sub = iw_calloc((size_t)c->subcores, sizeof *st->sub);
	st->cu_pool = iw_calloc((size_t)c->subcores * st->ncu, sizeof *st->cu_pool);
	st->rrs_pool = iw_calloc((size_t)c->subcores * (st->nrrs + 1), sizeof *st->rrs_pool);
	st->waiters_pool = iw_calloc((size_t)c->subcores * (TAG_RRS + st->nrrs), sizeof *st->waiters_pool);
	if (!st->w || !st->sub || !st->cu_pool || !st->rrs_pool || !st->waiters_pool) {
		lg_sm_free(st);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	for (int k = 0; k < c->subcores; k++) {
		struct lg_sub *sb = &st->sub[k];
		sb->cu = st->cu_pool + (size_t)k * st->ncu;
		sb->rrs_t = st->rrs_pool + (size_t)k * (st->nrrs + 1);
		sb->waiters = st->waiters_pool + (size_t)k * (TAG_RRS + st->nrrs);
		sb->reader = -1;
		for (uint32_t r = 0; r < st->nrrs; r++)
			sb->rrs_free[r >> 6] |= 1ull << (r & 63);
	}
	*state = st;
	return 0;
}

static void lg_warp_start(void *p, struct iw_warp *w)
{
	struct lg_state *st = p;
	memset(&st->w[w->id], 0, sizeof st->w[w->id]);
}

static int lg_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct lg_state *st = p;
	struct lg_warp *x = &st->w[w->id];
	if (x->n == st->cfg->loog_ib_size)
		return IW_STALL_IB_FULL;
	x->ib[(x->head + x->n) % 64] = s->id;
	x->n++;
	return x->n == st->cfg->loog_ib_size ? IW_INSERT_FULL : 0;
}

_Static_assert(IW_LOOG_RRS_MAX == 4 * 64, "rrs_any_free looks at four words");
static int rrs_any_free(const struct lg_sub *sb)
{
	return (sb->rrs_free[0] | sb->rrs_free[1] | sb->rrs_free[2] | sb->rrs_free[3]) != 0;
}

static int needs_tag(const struct iw_inst *in) { return iw_has_result(in); } /* a result to broadcast */

static struct iw_slot *lg_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct lg_state *st = p;
	struct lg_warp *x = &st->w[w->id];
	if (!x->n) {
		*reason = IW_STALL_IB_EMPTY;
		return NULL;
	}
	if (x->ctrl_pending) {
		*reason = IW_STALL_CONTROL;
		return NULL;
	}
	if (x->sync_pending) {
		*reason = IW_STALL_BARRIER;
		return NULL;
	}
	struct iw_slot *s = &w->slots[x->ib[x->head]];
	if (iw_is_sync(&s->in) && x->mem_inflight) {
		*reason = IW_STALL_MEM_ORDER;
		return NULL;
	}
	if (st->nrrs && needs_tag(&s->in) && !rrs_any_free(&st->sub[w->subcore])) {
		/* freed by another warp's write-back: lg_writeback asks it again */
		st->sub[w->subcore].norrs |= 1ull << w->local;
		*reason = IW_STALL_NO_RRS;
		return NULL;
	}
	return s;
}

static void lg_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct lg_state *st = p;
	struct lg_warp *x = &st->w[w->id];
	struct lg_sub *sb = &st->sub[w->subcore];
	const struct iw_inst *in = &s->in;
	IW_ASSERT(x->n && x->ib[x->head] == s->id);
	x->head = (uint8_t)((x->head + 1) % 64);
	x->n--;
	iw_count(st->sim, IW_A_IB_READ, 1);
	struct lg_cu *cu = &sb->cu[s->cu];
	cu->dispatched = 0;
	cu->mem = (uint8_t)iw_is_mem(in);
	/* RAT lookup: the engine listed the distinct sources in src_rf; keep
	 * there only those read from the RF, the others wait for a tag. */
	uint32_t nrf = 0, nw = 0;
	for (uint32_t i = 0; i < s->nsrc_rf; i++) {
		uint16_t r = s->src_rf[i], t = x->rat[r];
		if (t) {
			cu->wait[nw++] = (uint16_t)(t - 1);
		} else {
			s->src_rf[nrf] = r;
			cu->src[nrf] = r;
			cu->bank[nrf] = (uint8_t)iw_sim_bank(st->cfg, w->id, r);
			nrf++;
		}
	}
	cu->nwait = (uint8_t)nw;
	s->nsrc_rf = (uint8_t)nrf;
	s->srcs_left = (uint8_t)nrf;
	cu->left = (uint8_t)nrf;
	sb->pq[sb->npq++] = s->cu;
	if (nrf)
		sb->rq[sb->nrq++] = s->cu;
	else /* the engine marked it reading before the RAT lookup */
		st->sm->sc[w->subcore].cu_reading &= ~(1ull << s->cu);
	sb->pending |= 1ull << s->cu;
	x->cus |= 1ull << s->cu;
	if (cu->mem)
		sb->mem |= 1ull << s->cu;
	uint32_t lookups = s->nsrc_rf + cu->nwait, pred = 0;
	if ((in->flags & IW_F_PRED_BRANCH)) {
		lookups++;
		if (x->rat[RAT_PRED]) {
			cu->wait[cu->nwait++] = (uint16_t)(x->rat[RAT_PRED] - 1 + LG_PRED_WAIT);
			pred = 1;
		}
	}
	if (cu->nwait) {
		sb->tagwait |= 1ull << s->cu;
		sb->nwaits += cu->nwait;
		for (uint32_t i = 0; i < cu->nwait; i++)
			sb->waiters[cu->wait[i] & ~LG_PRED_WAIT] |= 1ull << s->cu;
	}
	iw_count(st->sim, IW_A_RAT_READ, lookups);
	/* dependences found at insertion into the CUs: RAW on in-flight
	 * producers (tags), a predicated branch on its compare (a control
	 * dependence, SCHEMES.md 1), and WAW that renaming removes */
	struct iw_counters *cnt = &st->sim->res->cnt;
	cnt->deps_found[1] += cu->nwait - pred;
	cnt->deps_found[2] += pred;
	for (int i = 0; i < in->ndst; i++)
		cnt->deps_found[0] += x->rat[in->dst[i]] != 0;
	/* rename the destination(s) */
	uint16_t tag = (uint16_t)s->cu;
	if (st->nrrs && needs_tag(in)) {
		uint32_t k = 0; /* the lowest free entry (the candidate saw one) */
		while (!sb->rrs_free[k])
			k++;
		uint32_t r = 64 * k + (uint32_t)__builtin_ctzll(sb->rrs_free[k]);
		sb->rrs_free[k] &= sb->rrs_free[k] - 1;
		sb->rrs_t[r] = now;
		tag = (uint16_t)(TAG_RRS + r);
		iw_count(st->sim, IW_A_RRS_ALLOC, 1);
		/* The last entry went: every warp's offer that needs one is now
		 * refused (lg_candidate), so the engine asks them all again
		 * (the offers it keeps, lg_cand_stable). */
		if (!rrs_any_free(sb))
			st->sm->sc[w->subcore].cand_mask = 0;
	}
	s->aux[0] = (uint64_t)tag + 1;
	for (int i = 0; i < in->ndst; i++)
		x->rat[in->dst[i]] = (uint16_t)(tag + 1);
	if (in->flags & IW_F_SETS_PRED)
		x->rat[RAT_PRED] = (uint16_t)(tag + 1);
	iw_count(st->sim, IW_A_RAT_WRITE, (uint64_t)in->ndst + ((in->flags & IW_F_SETS_PRED) != 0));
	if (iw_is_ctrl(in))
		x->ctrl_pending++;
	if (iw_is_sync(in))
		x->sync_pending++;
	x->mem_inflight += iw_is_mem(in);
}


/* Lowest and highest byte a memory instruction touches; 0 without addresses. */
static int mem_range(const struct iw_warp *w, const struct iw_inst *in, uint64_t *lo, uint64_t *hi)
{
	if (in->maddr == IW_MADDR_NONE || !w->maddr)
		return 0;
	const struct iw_mem_addrs *ma = &w->maddr[in->maddr];
	if (!ma->n)
		return 0;
	uint64_t a = UINT64_MAX, b = 0;
	for (uint32_t i = 0; i < ma->n; i++) {
		uint64_t x = iw_mem_lane(ma, i);
		if (x < a)
			a = x;
		if (x > b)
			b = x;
	}
	*lo = a;
	*hi = b + (in->mem_width ? in->mem_width : 4);
	return 1;
}

/* May the collector unit `k` dispatch now, by the WAR guard and memory order?
 * Only the warp's own pending CUs holding older instructions matter: those
 * allocated before it (`before`: a warp issues in program order). */
static int may_dispatch(struct lg_state *st, struct iw_subcore *sc, uint32_t k, struct iw_warp *w, struct iw_slot *s,
			uint64_t before)
{
	const struct iw_inst *in = &s->in;
	const struct lg_sub *sb = &st->sub[sc->id];
	int mem = sb->cu[k].mem;
	/* only older pending CUs still reading (WAR, if I write a register)
	 * or holding a memory instruction (if I am one) can hold me back */
	uint64_t near = before & st->w[w->id].cus & ((in->ndst ? sc->cu_reading : 0) | (mem ? sb->mem : 0));
	if (!near)
		return 1;
	uint64_t lo = 0, hi = 0;
	int have = -1; /* my address range is found when first needed */
	for (uint64_t m = near; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(m);
		const struct lg_cu *oc = &sb->cu[i];
		/* WAR guard: an older reader still to read a register I write */
		for (uint32_t a = 0; a < oc->left; a++)
			for (int d = 0; d < in->ndst; d++)
				if (oc->src[a] == in->dst[d])
					return 0;
		if (mem && oc->mem) {
			if (st->cfg->loog_mem != 0)
				return 0; /* inorder (LOOG-Vortex): memory in program order, loads too */
			const struct iw_slot *o = &w->slots[sc->cu[i].slot];
			if (!writes_mem(in) && !writes_mem(&o->in))
				continue; /* loads commute */
			uint64_t olo, ohi;
			if (have < 0)
				have = st->cfg->loog_mem == 0 && mem_range(w, in, &lo, &hi);
			if (!have || !mem_range(w, &o->in, &olo, &ohi) || !(ohi <= lo || hi <= olo))
				return 0;
		}
	}
	return 1;
}

/* s dispatches ahead of this many older, undispatched instructions of its
 * warp: its pending CUs allocated before s's (`before`). */
static void count_reorder(struct lg_state *st, struct iw_warp *w, uint64_t before)
{
	uint64_t d = 0;
	for (uint64_t m = before & st->w[w->id].cus; m; m &= m - 1)
		d++;
	if (d) {
		struct iw_counters *c = &st->sim->res->cnt;
		c->reorders++;
		c->reorder_dist[d > IW_REORDER_BINS ? IW_REORDER_BINS - 1 : d - 1]++;
	}
}

/* The CUs that may dispatch in cycle `now` as far as the masks tell:
 * pending, no tag awaited, no RF read left (a pending CU is in cu_reading
 * exactly while it has operands left to read), and no operand captured in
 * this very cycle. */
static inline uint64_t lg_ready(const struct lg_sub *sb, const struct iw_subcore *sc, uint64_t now)
{
	uint64_t ready = sb->pending & ~sb->tagwait & ~sc->cu_reading;
	if (sb->late_at > now)
		ready &= ~sb->late;
	return ready;
}

/* Drop entry k of a CU queue of n entries, keeping the order. */
static inline void q_drop(uint8_t *q, uint8_t *n, uint32_t k)
{
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && *n <= 8) {
		/* the usual few CUs: drop byte k of one word (as iw_sim_cu_free) */
		uint64_t v, low = k ? ~0ull >> (64 - 8 * k) : 0;
		memcpy(&v, q, 8);
		v = (v & low) | ((v >> 8) & ~low);
		memcpy(q, &v, 8);
	} else {
		for (uint32_t j = k + 1; j < *n; j++)
			q[j - 1] = q[j];
	}
	(*n)--;
}

/* 1. dispatch, among the CUs lg_ready names: the first in priority order
 * whose class has a unit free and that may go.  `oldest` walks the pending
 * CUs in allocation order (sb->pq), `lowest_id` the mask. */
static inline int lg_dispatch(struct lg_state *st, struct iw_subcore *sc, struct lg_sub *sb, uint64_t ready, uint64_t now)
{
	const struct iw_config *c = st->cfg;
	struct iw_sm *sm = st->sm;
	int progress = 0;
	int by_age = c->loog_dispatch != 1;
	for (int n = 0; n < c->issue_width; n++) {
		if (n)
			ready = lg_ready(sb, sc, now);
		if (!ready)
			break;
		int best = -1, best_unit = -1;
		uint32_t full = 0; /* classes found with no unit free */
		uint32_t k = 0;
		uint64_t seen = 0, before = 0; /* pq[0..k] and pq[0..k-1] */
		for (uint64_t m = ready; m; k++) {
			uint32_t i;
			if (by_age) {
				i = sb->pq[k];
				uint64_t bit = 1ull << i;
				before = seen;
				seen |= bit;
				if (!(m & bit))
					continue;
				m &= ~bit;
			} else {
				i = (uint32_t)__builtin_ctzll(m);
				m &= m - 1;
			}
			const struct iw_cu *cu = &sc->cu[i];
			uint32_t u = cu->unit;
			if (full >> u & 1)
				continue;
			int f = iw_sim_unit_free(sc, (int)u, now);
			if (f < 0) {
				full |= 1u << u;
				continue;
			}
			if (!by_age) { /* find its place in the queue */
				for (k = 0, before = 0; sb->pq[k] != i; k++)
					before |= 1ull << sb->pq[k];
			}
			struct iw_warp *w = &sm->warps[cu->warp];
			if (!may_dispatch(st, sc, i, w, &w->slots[cu->slot], before))
				continue;
			best = (int)i;
			best_unit = f;
			break;
		}
		if (best < 0)
			break;
		q_drop(sb->pq, &sb->npq, k);
		struct iw_cu *cu = &sc->cu[best];
		struct iw_warp *w = &sm->warps[cu->warp];
		struct iw_slot *s = &w->slots[cu->slot];
		count_reorder(st, w, before);
		sb->cu[best].dispatched = 1;
		sb->pending &= ~(1ull << best);
		sb->mem &= ~(1ull << best);
		st->w[w->id].cus &= ~(1ull << best);
		iw_count(st->sim, IW_A_CU_DISPATCH, 1);
		int keep = !st->nrrs && needs_tag(&s->in); /* CU is the tag until the broadcast */
		if (!keep)
			iw_sim_cu_free(sc, (uint32_t)best, now);
		iw_sim_dispatch(sc, w, s, best_unit, now);
		progress = 1;
	}
	return progress;
}

/* CU i has read its last RF operand. */
static inline void read_done(struct lg_state *st, struct iw_subcore *sc, uint32_t i)
{
	const struct iw_cu *cu = &sc->cu[i];
	struct iw_warp *w = &st->sm->warps[cu->warp];
	struct iw_slot *s = &w->slots[cu->slot];
	s->srcs_left = 0;
	sc->cu_reading &= ~(1ull << i);
	iw_sim_event(st->sim, w, s, IW_EV_READ, cu->slot);
}

/* The event log's record of CU i reading register reg from the RF: the
 * WAR guard lets a younger result in once the register itself was read, so
 * the oracle checks each read in its own cycle. */
static __attribute__((noinline, cold)) void operand_event(struct lg_state *st, struct iw_subcore *sc, uint32_t i,
							  uint16_t reg)
{
	const struct iw_cu *cu = &sc->cu[i];
	struct iw_warp *w = &st->sm->warps[cu->warp];
	iw_sim_event(st->sim, w, &w->slots[cu->slot], IW_EV_OPERAND, (uint8_t)reg);
}

/* Read from the operands CU i has left while ports and banks last (each bank
 * serves one read per cycle); the left ones fill the first `left` places. */
static inline void read_ops(struct lg_state *st, int log, struct iw_subcore *sc, uint32_t i, struct lg_cu *lc,
			    int *ports, uint64_t *bank_used, uint64_t *reads, uint64_t *conflicts)
{
	for (uint32_t o = 0; o < lc->left;) {
		uint32_t b = lc->bank[o];
		if (*ports > 0 && !(*bank_used >> (b & 63) & 1)) {
			*bank_used |= 1ull << (b & 63);
			(*ports)--;
			if (__builtin_expect(log, 0))
				operand_event(st, sc, i, lc->src[o]);
			lc->left--;
			lc->src[o] = lc->src[lc->left];
			lc->bank[o] = lc->bank[lc->left];
			(*reads)++;
		} else {
			*conflicts += *ports > 0;
			o++;
		}
	}
}

/* 2. RF reads, from the CU's own copy of the operands left (bank, register);
 * `log`: each read goes to the event log (a constant in each copy below). */
static inline __attribute__((always_inline)) int lg_read_ops(struct lg_state *st, struct iw_subcore *sc,
							    struct lg_sub *sb, const int log)
{
	const struct iw_config *c = st->cfg;
	struct iw_sim *sim = st->sim;
	uint64_t bank_used = 0;
	int ports = c->rf_read_ports ? c->rf_read_ports : c->rf_banks;
	uint64_t reads = 0, conflicts = 0;
	if (c->rf_read_ports == 1) {
		/* one CU owns the port until it has read all: the lowest id first */
		if (sb->reader < 0 || !sc->cu[sb->reader].busy)
			sb->reader = -1;
		if (sb->reader < 0 && sc->cu_reading)
			sb->reader = __builtin_ctzll(sc->cu_reading);
		if (sb->reader >= 0 && sb->cu[sb->reader].left) {
			uint32_t i = (uint32_t)sb->reader;
			struct lg_cu *lc = &sb->cu[i];
			read_ops(st, log, sc, i, lc, &ports, &bank_used, &reads, &conflicts);
			if (!lc->left) {
				read_done(st, sc, i);
				sb->reader = -1;
				uint32_t k = 0;
				while (sb->rq[k] != i)
					k++;
				q_drop(sb->rq, &sb->nrq, k);
			}
		}
	} else {
		/* oldest first (sb->rq), each finished CU leaves the queue; once
		 * the ports are used up the others read nothing and count no
		 * conflict */
		uint32_t k = 0, kept = 0, n = sb->nrq;
		for (; k < n && ports > 0; k++) {
			uint32_t i = sb->rq[k];
			struct lg_cu *lc = &sb->cu[i];
			read_ops(st, log, sc, i, lc, &ports, &bank_used, &reads, &conflicts);
			if (!lc->left)
				read_done(st, sc, i);
			else
				sb->rq[kept++] = (uint8_t)i;
		}
		for (; k < n; k++)
			sb->rq[kept++] = sb->rq[k];
		sb->nrq = (uint8_t)kept;
	}
	iw_count(sim, IW_A_RF_BANK_READ, reads);
	iw_count(sim, IW_A_CU_OPERAND_WRITE, reads);
	iw_count(sim, IW_A_RF_BANK_CONFLICT, conflicts);
	sim->res->cnt.rf_reads += reads;
	return reads != 0;
}

/* A run without an event log tests for one once per call, not per read. */
static __attribute__((noinline)) int lg_read(struct lg_state *st, struct iw_subcore *sc, struct lg_sub *sb)
{
	return st->sim->on_event ? lg_read_ops(st, sc, sb, 1) : lg_read_ops(st, sc, sb, 0);
}

/* Dispatch, then the RF reads (a dispatch leaves cu_reading as it was). */
static __attribute__((noinline)) int lg_dispatch_read(struct lg_state *st, struct iw_subcore *sc, struct lg_sub *sb,
						      uint64_t ready, uint64_t now)
{
	int progress = lg_dispatch(st, sc, sb, ready, now);
	if (sc->cu_reading)
		progress |= lg_read(st, sc, sb);
	return progress;
}

/* Called in every cycle the sub-core is ticked: the common cycles with
 * nothing to dispatch return from here, without a stack frame. */
static int lg_collect(void *p, struct iw_subcore *sc, uint64_t now)
{
	struct lg_state *st = p;
	struct lg_sub *sb = &st->sub[sc->id];
	uint64_t ready = lg_ready(sb, sc, now);
	if (ready)
		return lg_dispatch_read(st, sc, sb, ready, now);
	return sc->cu_reading ? lg_read(st, sc, sb) : 0;
}

static int lg_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct lg_state *st = p;
	struct iw_sim *sim = st->sim;
	struct lg_warp *x = &st->w[w->id];
	struct iw_subcore *sc = &st->sm->sc[w->subcore];
	struct lg_sub *sb = &st->sub[w->subcore];
	const struct iw_inst *in = &s->in;
	int writes = 0;
	if (in->flags & IW_F_BARRIER || in->flags & IW_F_MEMBAR)
		x->sync_pending--;
	if (iw_is_ctrl(in))
		x->ctrl_pending--;
	x->mem_inflight -= iw_is_mem(in);
	if (!needs_tag(in))
		return 0;
	uint16_t tag = (uint16_t)(s->aux[0] - 1);
	/* broadcast: every waiting CU compares its tags (a CAM search); only
	 * the CUs listed for this tag find a match */
	iw_count(sim, IW_A_BCAST_SEND, 1);
	uint64_t compares = sb->nwaits;
	for (uint64_t m = sb->waiters[tag]; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(m);
		struct lg_cu *lc = &sb->cu[i];
		for (uint32_t k = 0; k < lc->nwait;) {
			if ((lc->wait[k] & ~LG_PRED_WAIT) == tag) {
				int reg = !(lc->wait[k] & LG_PRED_WAIT);
				lc->wait[k] = lc->wait[--lc->nwait];
				sb->nwaits--;
				if (sb->late_at != now + 1) {
					sb->late_at = now + 1;
					sb->late = 0;
				}
				sb->late |= 1ull << i;
				/* a register operand captured from the bus: a read the
				 * RF did not do (a predicate is neither) */
				iw_count(sim, IW_A_CU_OPERAND_WRITE, (uint64_t)reg);
				sim->res->cnt.rf_reads_saved_bcast += (uint64_t)reg;
			} else {
				k++;
			}
		}
		if (!lc->nwait)
			sb->tagwait &= ~(1ull << i);
	}
	sb->waiters[tag] = 0;
	iw_count(sim, IW_A_CU_TAG_COMPARE, compares);
	/* the RF is written only if the RAT still names this producer */
	int rat_writes = 0;
	for (int i = 0; i < in->ndst; i++) {
		if (x->rat[in->dst[i]] == tag + 1) {
			x->rat[in->dst[i]] = 0;
			writes++;
			rat_writes++;
		} else {
			sim->res->cnt.rf_writes_saved_rename++;
		}
	}
	if ((in->flags & IW_F_SETS_PRED) && x->rat[RAT_PRED] == tag + 1) {
		x->rat[RAT_PRED] = 0;
		rat_writes++;
	}
	iw_count(sim, IW_A_RAT_WRITE, (uint64_t)rat_writes);
	if (tag >= TAG_RRS) {
		uint32_t r = tag - TAG_RRS;
		iw_count(sim, IW_A_RRS_WRITE, 1);
		if (writes)
			iw_count(sim, IW_A_RRS_READ, 1); /* moved on to the RF */
		uint64_t period = now - sb->rrs_t[r];
		sim->res->cnt.rrs_occ += period;
		sim->res->cnt.rrs_alloc_period[iw_hist_bin(period)]++;
		sb->rrs_free[r >> 6] |= 1ull << (r & 63);
		/* the warps refused for want of an entry may now go */
		for (uint64_t m = sb->norrs; m; m &= m - 1)
			iw_sim_unblock(st->sm, &st->sm->warps[sc->warp_ids[__builtin_ctzll(m)]]);
		sb->norrs = 0;
	} else {
		IW_ASSERT(sc->cu[tag].busy && sc->cu[tag].slot == s->id && sc->cu[tag].warp == w->id);
		iw_sim_cu_free(sc, tag, now);
	}
	return writes;
}

/* The offer (the IB head) changes only at the warp's insert, issue and
 * write-back, or when the RRS runs out of entries (another warp's issue,
 * which makes the engine ask every warp again: lg_issue). */
static int lg_cand_stable(const struct iw_config *c)
{
	(void)c;
	return 1;
}

static uint32_t lg_wb_width(const struct iw_config *c) { return (uint32_t)c->loog_broadcasts; }

const struct iw_scheme_ops iw_scheme_loog = {
	.name = "loog",
	.help = "LOOG: CUs as reservation stations (loog.cus), RAT renaming, optional RRS (loog.rrs / rrs_factor)",
	.window = lg_window,
	.entries = lg_entries,
	.cus = lg_cus,
	.wb_width = lg_wb_width,
	.wb_results_only = 1,
	.sm_new = lg_sm_new,
	.sm_free = lg_sm_free,
	.warp_start = lg_warp_start,
	.insert = lg_insert,
	.candidate = lg_candidate,
	/* a refusal holds until the warp's insert, issue or write-back (IB
	 * empty, control, barrier, memory order), or an RRS entry frees, when
	 * lg_writeback asks the refused warps again */
	.candidate_cacheable = 2,
	/* the candidate is always the IB head, the warp's oldest unissued
	 * instruction: issue never reorders (dispatch does, counted by
	 * count_reorder), so the engine keeps no program-order queue */
	.in_order = 1,
	.insert_until_issue = 1, /* IB entries free at issue only */
	.cand_stable = lg_cand_stable,
	.issue = lg_issue,
	.writeback = lg_writeback,
	.collect = lg_collect,
};
