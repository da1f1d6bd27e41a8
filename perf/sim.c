/*
 * perf/sim.c -- the SM model every scheme shares (SCHEMES.md section 1).
 *
 * Interval-style and event-skipping: a sub-core is ticked only in cycles where
 * something can move.  After a tick in which nothing moved, nothing can move
 * until the next timed event (a write-back, a unit leaving its initiation
 * interval, a scheme timer, a newly launched warp), so the sub-core sleeps
 * until then and its scheduler's stall reason is charged for the skipped
 * cycles.  Every stimulus that crosses sub-cores takes effect at the next
 * cycle at the earliest (new warps start at launch + 1, barrier releases
 * write back after a latency, address buffers are per warp), which is what
 * makes fast-forward give exactly the cycle counts of stepping every cycle;
 * a test checks it.
 *
 * Two orders give the same results: SM after SM over short spans (the
 * default, run_sm_major: the host's caches hold one SM at a time) and cycle
 * after cycle over the whole GPU (run_cycle_major: the reference, and the
 * order of runs with an event log).
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

/* --------------------------------------------------------------- helpers */

/* The per-cycle code: inlined into each scheme's copy of the SM run (see
 * IW_RUN_SM_FOR), where the scheme's hooks are compile-time constants. */
#ifdef IW_PROF /* a stage-by-stage profile (callgrind's inclusive counts): make OPT='-O2 -g -DIW_PROF' */
#define IW_HOT static __attribute__((noinline))
#else
#define IW_HOT static inline __attribute__((always_inline))
#endif


/* Sub-core sc must be ticked at t (> s->now, or == s->now while moving far
 * wake-ups in before the cycle's ticks): file it in the wheel. */
static inline void wheel_mark(struct iw_sim *s, const struct iw_subcore *sc, uint64_t t)
{
	if (s->sm_major)
		return; /* each SM's run scans its own sub-cores' wake-ups */
	uint64_t bit = 1ull << (sc->gid & 63);
	if (t - s->now < IW_WHEEL) {
		uint32_t slot = (uint32_t)t & (IW_WHEEL - 1);
		s->wheel[(size_t)(sc->gid >> 6) * IW_WHEEL + slot] |= bit;
		s->wsum[slot >> 6] |= 1ull << (slot & 63);
	} else if (t != IW_NEVER) {
		s->far[sc->gid >> 6] |= bit;
		if (t < s->far_min)
			s->far_min = t;
	}
}

/* Move the far wake-ups that are within the wheel at `now` into it. */
static void wheel_far(struct iw_sim *s, uint64_t now)
{
	s->far_min = IW_NEVER;
	for (uint32_t j = 0; j < s->gwords; j++)
		for (uint64_t m = s->far[j]; m; m &= m - 1) {
			uint32_t b = (uint32_t)__builtin_ctzll(m);
			const struct iw_subcore *sc = s->scs[j * 64 + b];
			uint64_t t = *sc->wake;
			if (t == IW_NEVER || t - now < IW_WHEEL) {
				s->far[j] &= ~(1ull << b);
				wheel_mark(s, sc, t); /* (nothing if never) */
			} else if (t < s->far_min) {
				s->far_min = t;
			}
		}
}

/* The earliest cycle after `now` with a slot of the wheel in use (IW_NEVER
 * if none). */
static uint64_t wheel_next(const struct iw_sim *s, uint64_t now)
{
	uint32_t start = (uint32_t)(now + 1) & (IW_WHEEL - 1);
	for (uint32_t n = 0; n < IW_WHEEL;) {
		uint32_t pos = (start + n) & (IW_WHEEL - 1);
		uint64_t m = s->wsum[pos >> 6] >> (pos & 63);
		if (m)
			return now + 1 + n + (uint64_t)__builtin_ctzll(m);
		n += 64 - (pos & 63);
	}
	return IW_NEVER;
}

/* The scheme keeps state the engine's masks do not describe ("opaque"), so
 * the engine looks at it every cycle after progress; otherwise it may sleep
 * through stalls on busy units and CUs ("precise wake", see might_move).
 * From the hooks alone: in a scheme's own copy of the SM run (IW_RUN_SM_FOR)
 * a constant, so the per-tick tests on it and on the flags that follow from
 * it fold away. */
static inline int sim_opaque(const struct iw_scheme_ops *ops)
{
	return ops->collect || !ops->candidate_cacheable || (ops->tick && !(ops->tick_unblocks && ops->busy));
}

/* iw_sim.cache_cand, a constant too for a scheme without cand_stable. */
static inline int sim_cache_cand(const struct iw_sim *s, const struct iw_scheme_ops *ops)
{
	return ops->cand_stable ? s->cache_cand : !sim_opaque(ops);
}

/* Lower sc's wake-up to t if t is earlier. */
static inline void wake_lower(struct iw_sim *s, struct iw_subcore *sc, uint64_t t)
{
	if (t < *sc->wake) {
		*sc->wake = t;
		wheel_mark(s, sc, t);
	}
}

static int wb_less(const struct iw_wb_event *a, const struct iw_wb_event *b)
{
	return a->t < b->t || (a->t == b->t && a->key < b->key);
}

/* The pending write-backs of a sub-core, sorted latest first: the next one
 * pops off the end.  A new one goes at the end or one step in (most results
 * are short-latency ALU ones); a later one (a load's, on a trace with tens
 * of loads in flight) is placed by halving and one block move. */
IW_HOT void wb_push(struct iw_subcore *sc, struct iw_wb_event ev)
{
	IW_ASSERT(sc->nwb < sc->capwb);
	uint32_t n = sc->nwb++, i = n;
	if (i && wb_less(&sc->wb[i - 1], &ev)) {
		/* due after the next one: most are short-latency results that stop
		 * a step or two from the end; a load's goes further, by halving */
		if (i < 2 || !wb_less(&sc->wb[i - 2], &ev)) {
			sc->wb[i] = sc->wb[i - 1];
			i--;
		} else {
			uint32_t lo = 0, hi = i - 1; /* wb[hi] is due before ev */
			while (lo < hi) {
				uint32_t mid = (lo + hi) / 2;
				if (wb_less(&sc->wb[mid], &ev))
					hi = mid;
				else
					lo = mid + 1;
			}
			i = lo;
			memmove(&sc->wb[i + 1], &sc->wb[i], (size_t)(n - i) * sizeof sc->wb[0]);
		}
	}
	sc->wb[i] = ev;
	sc->next_wb = sc->wb[sc->nwb - 1].t;
	wake_lower(sc->sm->sim, sc, ev.t);
}

static struct iw_wb_event wb_pop(struct iw_subcore *sc)
{
	struct iw_wb_event top = sc->wb[--sc->nwb];
	sc->next_wb = sc->nwb ? sc->wb[sc->nwb - 1].t : IW_NEVER;
	return top;
}

/* Warp `local` of sub-core sc: warps are dealt to sub-cores round robin. */
static inline struct iw_warp *sc_warp(struct iw_sm *sm, const struct iw_subcore *sc, uint32_t local)
{
	(void)sm;
	return sc->wp[local];
}

/* Something happened to warp w: its candidate must be asked again, and
 * decode retried.  Fetch is not: what stops a warp's fetch (a full front
 * buffer, no free slot or address entry, a taken branch in flight, its end)
 * changes only at decode, write-back and launch, which clear nofetch_mask
 * themselves; retrying after every issue or dispatch found nothing. */
static inline void unblock(struct iw_sm *sm, struct iw_warp *w)
{
	struct iw_subcore *sc = &sm->sc[w->subcore];
	uint64_t bit = ~(1ull << w->local);
	sc->blocked_mask &= bit;
	sc->noinsert_mask &= bit;
	sc->stalled_mask &= bit;
	sc->cand_mask &= bit;
}

void iw_sim_unblock(struct iw_sm *sm, struct iw_warp *w) { unblock(sm, w); }

void iw_sim_event_emit(struct iw_sim *s, struct iw_warp *w, struct iw_slot *sl, enum iw_event_kind k, uint8_t sub)
{
	struct iw_event ev = {s->now, w->sm, w->id, sl->seq, w->cta ? w->cta->cta.id : 0, (uint8_t)k, sub, &sl->in};
	s->on_event(s->event_ctx, &ev);
}


static const enum iw_act unit_act[IW_UNIT_COUNT] = {
	IW_A_FU_INT_OP, IW_A_FU_SP_OP, IW_A_FU_DP_OP, IW_A_FU_SFU_OP,
	IW_A_FU_TENSOR_OP, IW_A_FU_MEM_OP, IW_A_FU_BRANCH_OP,
};

static void barrier_arrive(struct iw_sim *s, struct iw_sm *sm, struct iw_cta_slot *cs);

/* Lane-address pools (traces only), made at the run's first memory
 * instruction with addresses, so synthetic runs pay nothing.  A pool serves
 * a group of SMs (as many as 16-bit entry numbers allow) with
 * max_warps x min(window, 32) entries per SM, so a warp always finds one for
 * each of its in-flight memory instructions (at most 32, as before) and no
 * warp can take another's.  The warps share the entries through a stack of
 * free ones: the entry a write-back just freed is the next one a fetch
 * takes, and only the pages of the entries in use at once are ever touched
 * (per-warp pools touched two fresh pages per warp; a page fault costs tens
 * of microseconds on virtual machines).  A header before the entries points
 * to the stack (its height, then entry numbers). */
struct maddr_hdr {
	_Alignas(64) uint16_t *stack;
	void *raw; /* the allocation (first pool only) */
};

static inline uint16_t *maddr_stack(struct iw_mem_addrs *pool)
{
	return ((struct maddr_hdr *)(void *)((char *)pool - sizeof(struct maddr_hdr)))->stack;
}

static int maddr_pools_new(struct iw_sim *s)
{
	const struct iw_config *c = s->cfg;
	uint32_t per_sm = (uint32_t)c->max_warps * s->maddr_cap;
	uint32_t g = IW_MIN((uint32_t)c->sms, (uint32_t)IW_MADDR_NONE / per_sm); /* SMs per pool */
	uint32_t n = g * per_sm, npools = ((uint32_t)c->sms + g - 1) / g;
	size_t per = (sizeof(struct maddr_hdr) + (size_t)n * sizeof(struct iw_mem_addrs) +
		      (n + 1) * sizeof(uint16_t) + 63) & ~(size_t)63;
	const uintptr_t huge = (uintptr_t)2 << 20;
	/* not zeroed: an entry is written at fetch before it is read */
	unsigned char *raw = iw_malloc((size_t)npools * per + huge);
	if (!raw)
		return -1;
	/* 2 MiB pages where the kernel allows: the entries in use at once
	 * span a few MiB */
	unsigned char *block = (unsigned char *)(((uintptr_t)raw + huge - 1) & ~(huge - 1));
#ifdef MADV_HUGEPAGE
	if ((size_t)npools * per >= huge) /* a hint: failure changes nothing */
		madvise(block, (size_t)npools * per & ~(size_t)(huge - 1), MADV_HUGEPAGE);
#endif
	for (uint32_t p = 0; p < npools; p++) {
		struct maddr_hdr *h = (struct maddr_hdr *)(void *)(block + (size_t)p * per);
		struct iw_mem_addrs *pool = (struct iw_mem_addrs *)(void *)(h + 1);
		h->stack = (uint16_t *)(void *)(pool + n);
		h->raw = raw;
		h->stack[0] = (uint16_t)n;
		for (uint32_t k = 0; k < n; k++)
			h->stack[1 + k] = (uint16_t)(n - 1 - k); /* entry 0 on top */
		for (uint32_t i = p * g; i < (p + 1) * g && i < (uint32_t)c->sms; i++)
			for (int w = 0; w < c->max_warps; w++)
				s->sms[i].warps[w].maddr = pool;
	}
	return 0;
}

static inline uint32_t maddr_get(struct iw_warp *w)
{
	uint16_t *st = maddr_stack(w->maddr);
	IW_ASSERT(st[0] > 0); /* see maddr_pools_new */
	w->maddr_used++;
	return st[st[0]--];
}

/* The entry back on the pool's stack (at dispatch or at write-back, see
 * frees_addresses_at_dispatch); w->maddr_used drops at write-back only. */
static inline void maddr_put(struct iw_warp *w, uint32_t m)
{
	uint16_t *st = maddr_stack(w->maddr);
	st[++st[0]] = (uint16_t)m;
}


IW_HOT void sim_dispatch(struct iw_subcore *sc, struct iw_warp *w, struct iw_slot *sl, int unit, uint64_t now,
		  const struct iw_scheme_ops *ops)
{
	struct iw_sim *s = sc->sm->sim;
	const struct iw_config *c = s->cfg;
	const struct iw_inst *in = &sl->in;
	int u = in->unit;
	sc->fu_free[u][unit] = now + (uint64_t)c->ii[u];
	uint64_t fmin = IW_NEVER;
	for (int i = 0; i < c->units[u]; i++)
		fmin = sc->fu_free[u][i] < fmin ? sc->fu_free[u][i] : fmin;
	sc->fu_min[u] = fmin;
	uint64_t lat = (uint64_t)c->latency[u];
	uint32_t lanes = iw_popcount32(in->mask & s->lane_mask);
	/* counted here rather than at write-back, which then reads only the
	 * slot's first line (the same sum at a kernel's and the run's end:
	 * every dispatched instruction writes back before either) */
	s->res->thread_insts += lanes;
	iw_count(s, unit_act[u], u == IW_UNIT_BRANCH ? 1 : lanes);
	int deferred = 0;
	if (u == IW_UNIT_MEM && !(in->flags & IW_F_MASK0)) {
		const struct iw_mem_addrs *ma = in->maddr != IW_MADDR_NONE ? &w->maddr[in->maddr] : NULL;
		/* A store leaves with its data: the warp sees only the pipeline
		 * latency; loads and atomics wait for the hierarchy.  A reduction
		 * (RED, SURED: an atomic without a result) is a store here: the
		 * compiler emits it where the result is unused, and the SM sends it
		 * to L2 without waiting for an answer.  So every access the warp
		 * waits for beyond L1 is a load's, at least l2_latency away, which
		 * bounds the SM-major span (iw_simulate). */
		int waits = !(in->flags & IW_F_STORE) || (in->flags & IW_F_LOAD);
		uint64_t cookie = waits && !(in->flags & IW_F_BARRIER) ? ((uint64_t)w->sm << 32) | ((uint64_t)w->id << 16) | sl->id : IW_MEM_NO_COOKIE;
		uint32_t ml = ma && in->space == IW_SPACE_SHARED
				      ? iw_mem_access_shared(s->mem, w->sm, in, in->shm_k, now, s->cur_act)
				      : iw_mem_access_entry(s->mem, w->sm, in, ma, now, s->cur_act, cookie);
		if (ml >= IW_MEM_FAILED) { /* SM-major: its L2 trip is served at the span's end (mem_done) */
			if (ml == IW_MEM_FAILED)
				s->mem_oom = 1;
			deferred = cookie != IW_MEM_NO_COOKIE;
		} else if (waits) {
			lat += ml;
		}
	}
	if (ops->frees_addresses_at_dispatch && in->maddr != IW_MADDR_NONE)
		maddr_put(w, in->maddr);
	sl->state = IW_SLOT_EXEC;
	if (ops->candidate_cacheable == 1)
		unblock(sc->sm, w);
	iw_sim_event(s, w, sl, IW_EV_DISPATCH, (uint8_t)unit);
	if (ops->dispatch)
		ops->dispatch(sc->sm->scheme_state, w, sl, now);
	if (in->flags & IW_F_BARRIER) {
		/* The barrier completes when every live warp of the CTA got here. */
		sl->state = IW_SLOT_BARRIER;
		if (w->nbar < IW_BAR_IDS)
			w->bar_ids[w->nbar] = sl->id;
		w->nbar++;
		w->cta->bar_arrived++;
		barrier_arrive(s, sc->sm, w->cta);
		return;
	}
	if (deferred)
		return;
	struct iw_wb_event ev = {now + lat, ((uint64_t)w->id << 40) | (sl->seq & 0xffffffffffULL), w->id, sl->id};
	wb_push(sc, ev);
}

void iw_sim_dispatch(struct iw_subcore *sc, struct iw_warp *w, struct iw_slot *sl, int unit, uint64_t now)
{
	sim_dispatch(sc, w, sl, unit, now, sc->sm->sim->ops);
}

void iw_sim_count_reorder(struct iw_sim *s, struct iw_warp *w, struct iw_slot *sl)
{
	/* Older unissued instructions of the warp = entries before sl in the
	 * program-order queue that are still waiting in the scheme. */
	uint64_t d = 0;
	for (uint32_t k = 0; k < w->uq_n; k++) {
		uint32_t i = (w->uq_head + k) & (w->uq_cap - 1);
		if (w->uq_seq[i] == sl->seq)
			break;
		struct iw_slot *o = &w->slots[w->uq_id[i]];
		if (o->seq == w->uq_seq[i] && o->state == IW_SLOT_SCHEME && ++d == IW_REORDER_BINS)
			break; /* the last bin holds every longer distance */
	}
	if (d) {
		s->res->cnt.reorders++;
		s->res->cnt.reorder_dist[d > IW_REORDER_BINS ? IW_REORDER_BINS - 1 : d - 1]++;
	}
}

/* Drop issued (or recycled) entries from the head of the program-order queue. */
static void uq_trim(struct iw_warp *w)
{
	while (w->uq_n) {
		struct iw_slot *o = &w->slots[w->uq_id[w->uq_head]];
		if (o->seq == w->uq_seq[w->uq_head] && o->state == IW_SLOT_SCHEME)
			break;
		w->uq_head = (w->uq_head + 1) & (w->uq_cap - 1);
		w->uq_n--;
	}
}

static void uq_push(struct iw_warp *w, struct iw_slot *sl)
{
	if (w->uq_n == w->uq_cap) { /* compact: keep only entries still waiting */
		uint32_t n = 0;
		for (uint32_t k = 0; k < w->uq_n; k++) {
			uint32_t i = (w->uq_head + k) & (w->uq_cap - 1);
			struct iw_slot *o = &w->slots[w->uq_id[i]];
			if (o->seq == w->uq_seq[i] && o->state == IW_SLOT_SCHEME) {
				uint32_t j = (w->uq_head + n) & (w->uq_cap - 1);
				w->uq_id[j] = w->uq_id[i];
				w->uq_seq[j] = w->uq_seq[i];
				n++;
			}
		}
		w->uq_n = n;
		IW_ASSERT(n < w->uq_cap);
	}
	uint32_t i = (w->uq_head + w->uq_n) & (w->uq_cap - 1);
	w->uq_id[i] = sl->id;
	w->uq_seq[i] = sl->seq;
	w->uq_n++;
}

/* ------------------------------------------------------- CTAs and warps */

static void sc_order_add(struct iw_subcore *sc, struct iw_warp *w)
{
	sc->opos[w->local] = (uint8_t)sc->norder;
	sc->order[sc->norder++] = (uint8_t)w->local; /* ages increase: appending keeps oldest first */
}

static void sc_order_remove(struct iw_subcore *sc, struct iw_warp *w)
{
	for (uint32_t i = 0; i < sc->norder; i++)
		if (sc->order[i] == w->local) {
			memmove(&sc->order[i], &sc->order[i + 1], (sc->norder - i - 1) * sizeof sc->order[0]);
			sc->norder--;
			sc->opos[w->local] = 0xff;
			for (; i < sc->norder; i++)
				sc->opos[sc->order[i]] = (uint8_t)i;
			return;
		}
}

/* Registers limit residency where warps share one register file (a GPU);
 * where every thread slot has its own set (sm.regs_per_thread, Vortex) a
 * kernel's register count does not limit residency, its thread slots do. */
static inline int regs_fit(const struct iw_config *c, uint64_t regs)
{
	return c->regs_per_thread || regs <= (uint64_t)iw_sm_regs(c);
}

/* Registers per thread as allocated: rounded up to sm.reg_granularity, as
 * Accel-Sim's max_cta and the hardware do (see config.c). */
static inline uint64_t alloc_regs(const struct iw_config *c, uint32_t nregs)
{
	uint64_t g = (uint64_t)c->reg_granularity;
	return ((uint64_t)nregs + g - 1) / g * g;
}

static int cta_fits(const struct iw_sim *s, const struct iw_sm *sm)
{
	const struct iw_config *c = s->cfg;
	return sm->used_ctas < (uint32_t)c->max_ctas && sm->used_warps + s->cta_warps <= (uint32_t)c->max_warps &&
	       sm->used_threads + s->cta_threads <= (uint32_t)iw_sm_threads(c) &&
	       regs_fit(c, (uint64_t)sm->used_regs + s->cta_regs) &&
	       sm->used_shmem + s->cta_shmem <= (uint32_t)c->shmem_kb * 1024u;
}

/* Launch one CTA of the current kernel on sm; 1 launched, 0 none left, <0 error. */
static int launch_cta(struct iw_sim *s, struct iw_sm *sm)
{
	const struct iw_config *c = s->cfg;
	struct iw_cta_slot *cs = NULL;
	for (int i = 0; i < c->max_ctas; i++)
		if (!sm->ctas[i].used) {
			cs = &sm->ctas[i];
			break;
		}
	IW_ASSERT(cs);
	memset(&cs->cta, 0, sizeof cs->cta);
	int rc = s->wl->ops->next_cta(s->wl, &cs->cta, s->err);
	if (rc <= 0) {
		if (rc == 0)
			s->kernel_ctas_left = 0;
		return rc;
	}
	if (cs->cta.warps != s->cta_warps) {
		rc = iw_fail(s->err, IW_EINPUT, "%s: CTA %llu has %u warps, the kernel header implies %u", s->wl->name,
			     (unsigned long long)cs->cta.id, cs->cta.warps, s->cta_warps);
		if (s->wl->ops->release_cta)
			s->wl->ops->release_cta(s->wl, &cs->cta);
		return rc;
	}
	cs->used = 1;
	cs->nwarps = cs->cta.warps;
	cs->live_warps = cs->nwarps;
	cs->bar_arrived = 0;
	cs->threads = s->cta_threads;
	cs->regs = s->cta_regs;
	cs->shmem = s->cta_shmem;
	if (!sm->busy) {
		sm->busy = 1;
		sm->busy_from = s->now;
	}
	sm->used_ctas++;
	sm->used_warps += cs->nwarps;
	sm->used_threads += cs->threads;
	sm->used_regs += cs->regs;
	sm->used_shmem += cs->shmem;
	s->live_ctas++;
	uint32_t k = 0;
	for (uint32_t wi = 0; wi < (uint32_t)c->max_warps && k < cs->nwarps; wi++) {
		struct iw_warp *w = &sm->warps[wi];
		if (w->active)
			continue;
		w->active = 1;
		w->cta = cs;
		w->warp_in_cta = k;
		cs->warp_ids[k++] = wi;
		w->age = s->warp_age++;
		w->start = s->now + 1;
		w->fetch_done = 0;
		w->fetch_blocked = 0;
		w->next_seq = 0;
		w->last_issue = 0;
		w->unissued = 0;
		w->uq_head = w->uq_n = 0;
		IW_ASSERT(w->inflight == 0 && w->front_n == 0);
		struct iw_subcore *sc = &sm->sc[w->subcore];
		sc_order_add(sc, w);
		sc->unstarted_mask |= 1ull << w->local;
		unblock(sm, w);
		sc->nofetch_mask &= ~(1ull << w->local);
		wake_lower(s, sc, w->start);
		if (s->ops->warp_start)
			s->ops->warp_start(sm->scheme_state, w);
	}
	IW_ASSERT(k == cs->nwarps);
	return 1;
}

static int fill_sm(struct iw_sim *s, struct iw_sm *sm)
{
	while (s->kernel_open && s->kernel_ctas_left && cta_fits(s, sm)) {
		int rc = launch_cta(s, sm);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
	}
	return 0;
}

/* The kernel ended (every SM is idle): add each SM's busy period to the
 * run's SM-cycles. */
static void close_busy(struct iw_sim *s)
{
	for (int i = 0; i < s->cfg->sms; i++) {
		struct iw_sm *sm = &s->sms[i];
		if (sm->busy)
			s->sm_cycles += sm->busy_last + 1 - sm->busy_from;
		sm->busy = 0;
	}
}

IW_HOT void account(struct iw_sim *s, struct iw_subcore *sc, uint64_t upto);

/* Every sub-core's stall reason charged up to (not incl.) cycle `upto` (a
 * charge in two steps adds up to the same). */
static void account_all(struct iw_sim *s, uint64_t upto)
{
	for (int i = 0; i < s->cfg->sms; i++)
		for (int k = 0; k < s->cfg->subcores; k++)
			account(s, &s->sms[i].sc[k], upto);
}

/* The run's activity totals so far (after account_all). */
static void acts_now(struct iw_sim *s, uint64_t *act)
{
	for (int a = 0; a < IW_A_COUNT; a++)
		act[a] = s->res->act[a] + s->cur_act[a]; /* (samples pushed, and the current one) */
}

/* The open kernel's record ends with cycle s->now (after close_busy). */
static void kstat_close(struct iw_sim *s)
{
	if (!s->kstat_live)
		return;
	struct iw_run_result *r = s->res;
	struct iw_kernel_stat *k = &r->kstats[r->nkstats - 1];
	k->warp_insts = r->warp_insts - s->k_insts0;
	k->ctas = r->ctas - s->k_ctas0; /* the CTAs that ran */
	k->sm_busy_mean = (double)(s->sm_cycles - s->k_smc0) / (double)s->cfg->sms;
	if (k->ctas) {
		k->cycles = s->now + 1 - k->start;
		s->k_next_start = s->now + 1;
	}
	k->ipc = k->cycles ? (double)k->warp_insts / (double)k->cycles : 0;
	account_all(s, k->start + k->cycles); /* (to its last cycle) */
	k->thread_insts = r->thread_insts - s->k_thr0;
	k->idle_sched_cycles = r->cnt.stall[IW_STALL_IDLE] - s->k_stall0[IW_STALL_IDLE];
	acts_now(s, k->act);
	for (int a = 0; a < IW_A_COUNT; a++)
		k->act[a] -= s->k_act0[a];
	s->kstat_live = 0;
	if (s->on_kernel) {
		/* the kernel's own counts, as a run of one kernel */
		struct iw_run_result *part = s->k_part;
		memset(part, 0, sizeof *part);
		memcpy(part->act, k->act, sizeof part->act);
		for (int x = 0; x < IW_STALL_COUNT; x++)
			part->cnt.stall[x] = r->cnt.stall[x] - s->k_stall0[x];
		snprintf(part->scheme, sizeof part->scheme, "%s", r->scheme);
		snprintf(part->workload, sizeof part->workload, "%s", r->workload);
		part->cycles = k->cycles;
		part->warp_insts = k->warp_insts;
		part->thread_insts = k->thread_insts;
		part->kernels = 1;
		part->ctas = k->ctas;
		part->ipc = k->ipc;
		part->sm_busy_mean = k->sm_busy_mean;
		s->on_kernel(s->kernel_ctx, part, k);
	}
}

/* A record for the kernel just opened (at kernel boundaries only: the
 * array doubles, never in the cycle loop). */
static int kstat_open(struct iw_sim *s, const struct iw_kernel_info *ki)
{
	struct iw_run_result *r = s->res;
	if (r->nkstats == s->kstats_cap) {
		size_t cap = s->kstats_cap ? 2 * s->kstats_cap : 8;
		struct iw_kernel_stat *nk = iw_realloc(r->kstats, cap * sizeof *nk);
		if (!nk)
			return iw_fail(s->err, IW_ERUN, "out of memory");
		r->kstats = nk;
		s->kstats_cap = cap;
	}
	struct iw_kernel_stat *k = &r->kstats[r->nkstats++];
	memset(k, 0, sizeof *k);
	snprintf(k->name, sizeof k->name, "%s", ki->name);
	k->start = s->k_next_start;
	s->k_insts0 = r->warp_insts;
	s->k_ctas0 = r->ctas;
	s->k_smc0 = s->sm_cycles;
	s->kstat_live = 1;
	k->energy_j = k->avg_power_w = k->energy_j_se = k->avg_power_w_se = NAN; /* unless the hook prices it */
	/* (its first cycle on; every run's, as power/ prices a run's active-SM
	 * static power kernel by kernel) */
	account_all(s, k->start);
	memcpy(s->k_stall0, r->cnt.stall, sizeof s->k_stall0);
	s->k_thr0 = r->thread_insts;
	acts_now(s, s->k_act0);
	return 0;
}

/* Open kernels until one has CTAs; distribute CTAs round-robin over the SMs
 * (one per SM per round, as a hardware CTA scheduler does). */
int iw_kernel_fits(const struct iw_config *c, const char *workload, const struct iw_kernel_info *k,
		   uint32_t *cta_warps, struct iw_err *e)
{
	uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
	uint64_t warps = (threads + (uint64_t)c->warp_size - 1) / (uint64_t)c->warp_size;
	if (k->warps_per_cta && k->warps_per_cta != warps)
		warps = k->warps_per_cta;
	/* Thread slots go by whole warps (GPGPU-Sim's max_cta pads a CTA to a
	 * multiple of the warp size), and a workload's warps are the CTA's: on
	 * a narrower SM (vortex: 16 lanes) a warp of a trace or built-in kernel
	 * runs its first warp_size lanes, and the CTA holds warps x warp_size
	 * threads, not the block's. */
	threads = warps * (uint64_t)c->warp_size;
	uint64_t regs = alloc_regs(c, k->nregs) * threads;
	*cta_warps = (uint32_t)IW_MIN(warps, UINT32_MAX);
	/* a trace's kernel is named by its file and the header line of the
	 * first thing that does not fit (the block, the registers, the shared
	 * memory), so that a run of many kernels says which to look at */
	uint32_t line = 0;
	if (warps == 0 || warps > (uint64_t)c->max_warps || threads > (uint64_t)iw_sm_threads(c))
		line = k->line_block;
	else if (!regs_fit(c, regs))
		line = k->line_nregs;
	else if (k->shmem > (uint32_t)c->shmem_kb * 1024u)
		line = k->line_shmem;
	else
		return 0;
	char where[1100];
	if (k->src[0] && line)
		snprintf(where, sizeof where, "%s:%u", k->src, line);
	else
		snprintf(where, sizeof where, "%s", k->src[0] ? k->src : workload);
	/* the registers as allocated, and how they came from the header's count
	 * (which a user would otherwise multiply out and find fitting) */
	char rdesc[160] = "";
	if (!c->regs_per_thread && alloc_regs(c, k->nregs) != k->nregs)
		snprintf(rdesc, sizeof rdesc, " (%u per thread rounded up to %llu, a multiple of sm.reg_granularity = %d)",
			 k->nregs, (unsigned long long)alloc_regs(c, k->nregs), c->reg_granularity);
	return iw_fail(e, IW_EINPUT,
		       "%s: kernel '%s' needs %llu warps, %llu threads, %llu registers%s and %u B shared memory per "
		       "CTA; an SM of '%s' has %d, %d, %d and %d KiB",
		       where, k->name, (unsigned long long)warps, (unsigned long long)threads, (unsigned long long)regs,
		       rdesc, k->shmem, c->name, c->max_warps, iw_sm_threads(c), iw_sm_regs(c), c->shmem_kb);
}

static int start_kernel(struct iw_sim *s)
{
	const struct iw_config *c = s->cfg;
	close_busy(s);
	kstat_close(s);
	for (;;) {
		int rc = s->wl->ops->next_kernel(s->wl, &s->kernel, s->err);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			s->no_more_kernels = 1;
			s->kernel_open = 0;
			return 0;
		}
		struct iw_kernel_info *k = &s->kernel;
		if ((rc = iw_kernel_fits(c, s->wl->name, k, &s->cta_warps, s->err)))
			return rc;
		s->cta_threads = s->cta_warps * (uint32_t)c->warp_size;
		s->cta_regs = (uint32_t)(alloc_regs(c, k->nregs) * s->cta_threads);
		s->cta_shmem = k->shmem;
		s->kernel_open = 1;
		s->kernel_ctas_left = 1;
		s->res->kernels++;
		if ((rc = kstat_open(s, k)))
			return rc;
		for (;;) {
			int any = 0;
			for (uint32_t i = 0; i < (uint32_t)c->sms && s->kernel_ctas_left; i++) {
				struct iw_sm *sm = &s->sms[i];
				if (!cta_fits(s, sm))
					continue;
				rc = launch_cta(s, sm);
				if (rc < 0)
					return rc;
				any |= rc;
			}
			if (!any || !s->kernel_ctas_left)
				break;
		}
		if (s->live_ctas)
			return 0;
		/* An empty kernel: move on to the next. */
		kstat_close(s);
	}
}

static void barrier_arrive(struct iw_sim *s, struct iw_sm *sm, struct iw_cta_slot *cs)
{
	if (cs->live_warps == 0 || cs->bar_arrived < cs->live_warps)
		return;
	/* Every live warp is waiting: release them after the branch-unit latency. */
	cs->bar_arrived = 0;
	uint64_t t = s->now + (uint64_t)s->cfg->latency[IW_UNIT_BRANCH];
	for (uint32_t k = 0; k < cs->nwarps; k++) {
		struct iw_warp *w = &sm->warps[cs->warp_ids[k]];
		if (!w->active || w->cta != cs)
			continue;
		/* its slots in barrier state: by their ids, or (more than
		 * IW_BAR_IDS waiting, never seen in practice) in slot order as far
		 * as the last.  The order does not matter: the write-back queue
		 * sorts by (cycle, warp, sequence number), which are unique. */
		struct iw_subcore *sc = &sm->sc[w->subcore];
		if (w->nbar <= IW_BAR_IDS) {
			for (uint32_t j = 0; j < w->nbar; j++) {
				struct iw_slot *sl = &w->slots[w->bar_ids[j]];
				IW_ASSERT(sl->state == IW_SLOT_BARRIER);
				struct iw_wb_event ev = {t, ((uint64_t)w->id << 40) | (sl->seq & 0xffffffffffULL), w->id, sl->id};
				sl->state = IW_SLOT_EXEC;
				wb_push(sc, ev);
			}
			w->nbar = 0;
		}
		for (uint32_t j = 0; j < s->window && w->nbar; j++) {
			struct iw_slot *sl = &w->slots[j];
			if (sl->state != IW_SLOT_BARRIER)
				continue;
			w->nbar--;
			struct iw_wb_event ev = {t, ((uint64_t)w->id << 40) | (sl->seq & 0xffffffffffULL), w->id, sl->id};
			sl->state = IW_SLOT_EXEC;
			wb_push(sc, ev);
		}
	}
}

static int warp_finish(struct iw_sim *s, struct iw_sm *sm, struct iw_warp *w)
{
	struct iw_cta_slot *cs = w->cta;
	struct iw_subcore *sc = &sm->sc[w->subcore];
	w->active = 0;
	w->cta = NULL;
	sc_order_remove(sc, w);
	sc->active_mask &= ~(1ull << w->local);
	sc->ibfull_mask &= ~(1ull << w->local);
	sc->unstarted_mask &= ~(1ull << w->local);
	unblock(sm, w);
	if (sc->greedy == w->local)
		sc->greedy = UINT32_MAX;
	cs->live_warps--;
	if (cs->live_warps) {
		barrier_arrive(s, sm, cs); /* the finished warp no longer counts */
		return 0;
	}
	/* The CTA is done: free its resources and give the SM new work. */
	sm->used_ctas--;
	sm->used_warps -= cs->nwarps;
	sm->used_threads -= cs->threads;
	sm->used_regs -= cs->regs;
	sm->used_shmem -= cs->shmem;
	cs->used = 0;
	s->live_ctas--;
	s->res->ctas++;
	sm->busy_last = s->now;
	if (s->wl->ops->release_cta)
		s->wl->ops->release_cta(s->wl, &cs->cta);
	/* The CTA scheduler sees the freed resources at the end of the cycle,
	 * after every sub-core of the GPU has ticked (as a hardware CTA
	 * dispatcher acts on a clock edge): an SM whose CTAs finish in one cycle
	 * is refilled once, and refills follow (cycle, SM) order. */
	if (s->kernel_ctas_left && !sm->refill) {
		sm->refill = 1;
		if (!s->sm_major) /* (SM-major runs stop at the cycle's end and claim) */
			s->refill[s->nrefill++] = sm->id;
	}
	return 0;
}

/* The end-of-cycle refills, SM after SM (they take CTAs in that order). */
static int refill_sms(struct iw_sim *s)
{
	for (uint32_t k = 0; k < s->nrefill; k++) {
		struct iw_sm *sm = &s->sms[s->refill[k]];
		sm->refill = 0;
		int rc = fill_sm(s, sm);
		if (rc)
			return rc;
	}
	s->nrefill = 0;
	return 0;
}

/* ------------------------------------------------------------- stages */

/* Write back and retire the instruction of ev, just taken off sc's queue. */
static inline __attribute__((always_inline)) int wb_retire(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc,
							  struct iw_wb_event ev, uint64_t now,
							  const struct iw_scheme_ops *ops)
{
	struct iw_warp *w = &sm->warps[ev.warp];
	struct iw_slot *sl = &w->slots[ev.slot];
	IW_ASSERT(sl->state == IW_SLOT_EXEC);
	int writes = ops->writeback(sm->scheme_state, w, sl, now);
	unblock(sm, w);
	sc->nofetch_mask &= ~(1ull << w->local); /* a slot (and maybe a branch) freed */
	if (sl->in.flags & IW_F_BARRIER) /* (srr: the barrier's wait ends) */
		sc->bar_mask &= ~(1ull << w->local);
	iw_count(s, IW_A_RF_BANK_WRITE, (uint64_t)writes);
	s->res->cnt.rf_writes += (uint64_t)writes;
	iw_sim_event(s, w, sl, IW_EV_WRITEBACK, 0);
	iw_sim_event(s, w, sl, IW_EV_RETIRE, 0);
	if ((sl->in.flags & IW_F_TAKEN) && w->fetch_blocked)
		w->fetch_blocked = 0;
	if (sl->in.maddr != IW_MADDR_NONE) {
		if (!ops->frees_addresses_at_dispatch)
			maddr_put(w, sl->in.maddr);
		w->maddr_used--;
	}
	s->res->warp_insts++;
	s->cur_insts++;
	sl->state = IW_SLOT_FREE;
	w->free_ids[w->nfree++] = sl->id;
	w->inflight--;
	if (w->fetch_done && w->inflight == 0)
		return warp_finish(s, sm, w);
	return 0;
}

/* wb_results_only: every due instruction without a result retires; results
 * take the wb_width slots in queue order, and the rest wait at the queue's
 * end, where they were (whatever a retirement queues meanwhile, a barrier's
 * release, is due later). */
static __attribute__((noinline)) int stage_writeback_results(struct iw_sim *s, struct iw_sm *sm,
							     struct iw_subcore *sc, uint64_t now,
							     const struct iw_scheme_ops *ops)
{
	int n = 0, results = 0;
	uint32_t held = 0;
	while (sc->next_wb <= now) {
		struct iw_wb_event ev = wb_pop(sc);
		if (iw_has_result(&sm->warps[ev.warp].slots[ev.slot].in)) {
			if (results == s->wb_width) {
				s->wb_held[held++] = ev;
				continue;
			}
			results++;
		}
		int rc = wb_retire(s, sm, sc, ev, now, ops);
		if (rc)
			return rc;
		n++;
	}
	IW_ASSERT(sc->nwb + held <= sc->capwb);
	while (held) /* (the earliest last) */
		sc->wb[sc->nwb++] = s->wb_held[--held];
	if (sc->nwb)
		sc->next_wb = sc->wb[sc->nwb - 1].t;
	return n;
}

IW_HOT int stage_writeback(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  const struct iw_scheme_ops *ops)
{
	if (ops->wb_results_only)
		return stage_writeback_results(s, sm, sc, now, ops);
	int n = 0;
	while (sc->next_wb <= now && n < s->wb_width) {
		int rc = wb_retire(s, sm, sc, wb_pop(sc), now, ops);
		if (rc)
			return rc;
		n++;
	}
	return n;
}

/* A CU's release: its occupancy and the histogram of its allocation period. */
IW_HOT void cu_release(struct iw_sim *s, struct iw_subcore *sc, uint32_t i, uint64_t now)
{
	uint64_t period = now - sc->cu[i].t_alloc;
	s->res->cnt.cu_occ += period;
	s->res->cnt.cu_alloc_period[period < 64 ? s->hist_small[period] : iw_hist_bin(period)]++;
	sc->cu[i].busy = 0;
	sc->cu_busy &= ~(1ull << i);
}

IW_HOT void cu_free(struct iw_subcore *sc, uint32_t i, uint64_t now)
{
	cu_release(sc->sm->sim, sc, i, now);
	for (uint32_t k = 0; k < sc->ncu_fifo; k++)
		if (sc->cu_fifo[k] == i) {
			if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && sc->ncu_fifo <= 8) {
				/* the usual few units: drop byte k of one word, no
				 * library call */
				uint64_t v, low = k ? ~0ull >> (64 - 8 * k) : 0;
				memcpy(&v, sc->cu_fifo, 8);
				v = (v & low) | ((v >> 8) & ~low);
				memcpy(sc->cu_fifo, &v, 8);
				sc->ncu_fifo--;
				break;
			}
			for (sc->ncu_fifo--; k < sc->ncu_fifo; k++)
				sc->cu_fifo[k] = sc->cu_fifo[k + 1];
			break;
		}
}

void iw_sim_cu_free(struct iw_subcore *sc, uint32_t i, uint64_t now)
{
	cu_free(sc, i, now);
}

_Static_assert(IW_MAX_SRC < 16, "a bank's operand count fits in 4 bits");
#define NIB_1 0x11111111u /* 1 in each 4-bit lane (iw_cu.nbank) */

/* One cycle of RF reads for CU cu with collect_packed: at most 8 banks, and
 * the ports cannot run out (at least one per bank, and a cycle reads each
 * bank at most once).  The loop of read_ops_ordered then tries every
 * operand once: one of each free bank is read and every other try is a
 * conflict, whatever the order; and which of a bank's operands is read does
 * not matter (they are alike).  So the count per bank is all the state, and
 * a cycle takes one off each free bank: lane arithmetic on nbank, with no
 * branch (and 32-bit constants, which are immediates).  The banks read in
 * this cycle are lanes of `used`.  Returns the reads. */
IW_HOT uint32_t read_ops_packed(struct iw_sim *s, struct iw_cu *cu, uint32_t *used)
{
	uint32_t cnt = cu->nbank;
	/* the lanes not 0 (a lane holds at most 8: adding 7 sets its top bit
	 * only if it is not 0, and never carries out of it) */
	uint32_t nz = ((cnt + 7 * NIB_1) >> 3) & NIB_1;
	uint32_t f = nz & ~*used;
	*used |= nz;
	/* the lanes of f summed into the top lane (no partial sum is above the
	 * operands, at most 8: no carry) */
	uint32_t n = (f * NIB_1) >> 28;
	cu->nbank = cnt - f;
	iw_count(s, IW_A_RF_BANK_READ, n);
	iw_count(s, IW_A_CU_OPERAND_WRITE, n);
	iw_count(s, IW_A_RF_BANK_CONFLICT, cu->left - n);
	s->res->cnt.rf_reads += n;
	cu->left = (uint8_t)(cu->left - n);
	return n;
}

/* The general case: the operands are tried in order, a read one replaced by
 * the last; the ports may run out mid-CU, and then which are left, in which
 * order, matters for the next cycles.  Returns the reads. */
IW_HOT uint32_t read_ops_ordered(struct iw_sim *s, struct iw_cu *cu, int *ports, uint64_t *used)
{
	uint32_t n = 0;
	for (uint32_t o = 0; o < cu->left;) {
		uint32_t b = cu->reg[o];
		if (*ports > 0 && !(*used >> (b & 63) & 1)) {
			*used |= 1ull << (b & 63);
			(*ports)--;
			cu->reg[o] = cu->reg[--cu->left];
			iw_count(s, IW_A_RF_BANK_READ, 1);
			iw_count(s, IW_A_CU_OPERAND_WRITE, 1);
			s->res->cnt.rf_reads++;
			n++;
		} else {
			iw_count(s, IW_A_RF_BANK_CONFLICT, 1);
			o++;
		}
	}
	return n;
}

/* CU i's last operand arrived this cycle. */
IW_HOT void read_done(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint32_t i, uint64_t now,
		      const struct iw_scheme_ops *ops)
{
	struct iw_cu *cu = &sc->cu[i];
	struct iw_warp *w = &sm->warps[cu->warp];
	struct iw_slot *sl = &w->slots[cu->slot];
	sc->cu_reading &= ~(1ull << i);
	if (ops->candidate_cacheable == 1)
		unblock(sm, w);
	iw_sim_event(s, w, sl, IW_EV_READ, cu->slot);
	if (ops->operands_read)
		ops->operands_read(sm->scheme_state, w, sl, now);
}

/* Shared stage for operand-buffer collector units: dispatch the oldest CUs
 * whose operands are all read to a free unit; then let each RF bank serve
 * one read (oldest CU first), within the sub-core's read ports. */
IW_HOT int stage_collect(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  const struct iw_scheme_ops *ops)
{
	int progress = 0;
	/* cu_fifo holds the busy collector units oldest first: by allocation
	 * time, ties by index (frees precede issues within a sub-core's cycle
	 * and an issue takes the lowest free unit).  The ones that go leave it
	 * in one pass: the others close up behind them. */
	if (sc->cu_busy & ~sc->cu_reading) {
		uint32_t j = 0, n = sc->ncu_fifo;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = sc->cu_fifo[k];
			struct iw_cu *cu = &sc->cu[i];
			int unit = cu->left ? -1 : iw_sim_unit_free(sc, cu->unit, now);
			if (unit < 0) {
				sc->cu_fifo[j++] = (uint8_t)i;
				continue;
			}
			struct iw_warp *w = &sm->warps[cu->warp];
			struct iw_slot *sl = &w->slots[cu->slot];
			cu_release(s, sc, i, now);
			iw_count(s, IW_A_CU_DISPATCH, 1);
			sim_dispatch(sc, w, sl, unit, now, ops);
			progress = 1;
		}
		sc->ncu_fifo = j;
	}
	if (!sc->cu_reading)
		return progress;
	/* The operands still to read are mirrored in the CU (filled at issue), so
	 * these loops touch only the sub-core's own arrays.  (The hooks a CU's
	 * last read calls leave cu_fifo alone.) */
	uint32_t n = sc->ncu_fifo;
	if (s->collect_packed) {
		uint32_t used = 0;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = sc->cu_fifo[k];
			struct iw_cu *cu = &sc->cu[i];
			if (!cu->left)
				continue;
			progress |= (int)read_ops_packed(s, cu, &used); /* (any non-zero value is progress) */
			if (!cu->left)
				read_done(s, sm, sc, i, now, ops);
		}
	} else {
		uint64_t used = 0;
		const struct iw_config *c = s->cfg;
		int ports = c->rf_read_ports ? c->rf_read_ports : c->rf_banks;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = sc->cu_fifo[k];
			struct iw_cu *cu = &sc->cu[i];
			if (!cu->left)
				continue;
			progress |= (int)read_ops_ordered(s, cu, &ports, &used);
			if (!cu->left)
				read_done(s, sm, sc, i, now, ops);
		}
	}
	return progress;
}

/* The distinct RF sources of sl, listed in src_rf; with collect_packed,
 * returns their number per bank of warp `warp` in 4-bit lanes (iw_cu.nbank).
 * Counted here, where each register is at hand, by register alone (a table
 * of r mod banks): warp w's banks are those turned by w mod banks
 * (iw_sim_bank), one rotation of the lanes for all the operands (a bank
 * computed per operand, in a loop of its own, cost 16 host instructions
 * per warp-instruction more). */
IW_HOT uint32_t prepare_operands(const struct iw_sim *s, struct iw_slot *sl, uint32_t warp, uint32_t *nrf)
{
	/* Each distinct source register is one bank read (RZ never appears).
	 * The distinct ones so far are the bytes of v (lane k = src_rf[k]): a
	 * new one is a duplicate if a lane below n equals it, that is if
	 * v ^ (r in every lane) has a zero byte there.  (x - 1s) & ~x & 80s
	 * flags the lowest zero byte exactly, and any flag above it only with
	 * a zero below; lanes from n up are cut off, and borrows do not run
	 * downwards. */
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t v = 0;
	uint32_t n = 0, cnt = 0, nsrc = sl->in.nsrc;
	_Static_assert(IW_MAX_SRC == 8, "src_rf is one 64-bit word");
	if (nsrc) { /* the first is distinct: no test (-10 host instructions per warp-instruction) */
		IW_ASSERT(sl->in.src[0] < IW_REG_RZ);
		v = (uint8_t)sl->in.src[0];
		n = 1;
		cnt = s->bank_nib[v];
	}
	for (uint32_t i = 1; i < nsrc; i++) {
		IW_ASSERT(sl->in.src[i] < IW_REG_RZ);
		uint64_t r = (uint8_t)sl->in.src[i];
		uint64_t x = v ^ (r * ones);
		if ((x - ones) & ~x & (ones << 7) & ((1ull << (8 * n & 63)) - 1)) /* (n < 8 here) */
			continue;
		v |= r << (8 * n & 63);
		n++;
		cnt += s->bank_nib[r];
	}
	*nrf = n;
	if (s->slot_operands) { /* (else the slot's second line stays untouched: see struct iw_slot) */
		if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
			memcpy(sl->src_rf, &v, 8);
		else
			for (uint32_t k = 0; k < n; k++)
				sl->src_rf[k] = (uint8_t)(v >> 8 * k);
		sl->nsrc_rf = (uint8_t)n;
		sl->srcs_left = (uint8_t)n;
	}
	if (!s->collect_packed)
		return 0;
	uint32_t rot = 4 * iw_sim_bank(s->cfg, warp, 0), width = 4 * (uint32_t)s->cfg->rf_banks;
	if (rot) /* a turn of the banks' lanes, within 4 x banks bits */
		cnt = ((cnt << rot) | (cnt >> (width - rot))) & (~0u >> (32 - width));
	return cnt;
}

/* The order[] positions of the local warps in m: policy order is a rotation
 * of order[], so a walk over the few warps that matter in a cycle visits
 * only their bits instead of every resident warp. */
static inline uint64_t order_bits(const struct iw_subcore *sc, uint64_t m)
{
	uint64_t p = 0;
	for (; m; m &= m - 1)
		p |= 1ull << sc->opos[__builtin_ctzll(m)];
	return p;
}

/* The first warp of m in policy order (GTO's greedy warp first, then order[]
 * from position `start` round the ring); m must not be empty. */
IW_HOT uint32_t policy_first(const struct iw_subcore *sc, int greedy_first, uint32_t start, uint64_t m)
{
	if (greedy_first && (m >> sc->greedy & 1))
		return sc->greedy;
	/* a walk of order[] from `start`: the warps that name a cycle are
	 * mostly the oldest (converting all of m to positions cost a step per
	 * warp of m) */
	for (uint32_t pos = start;; pos = pos + 1 == sc->norder ? 0 : pos + 1)
		if (m >> sc->order[pos] & 1)
			return sc->order[pos];
}

/* Strict round robin (srr) is Accel-Sim's "rrr" scheduler (GPGPU-Sim's
 * scheduler_unit::order_rrr), which GhOST was evaluated with: "strong round
 * robin (SRR) which only looks at the next warp to be considered for
 * scheduling" (the GhOST paper, section VI-B).  Each cycle the scheduler looks
 * at the warp whose turn it is and at no other; if that one cannot issue, the
 * cycle issues nothing and is its stall.  Can warp `local` hold the turn? Not
 * if its slot holds no started warp, if it waits at a barrier (GPGPU-Sim's
 * waiting(): from the barrier's issue; here to its write-back, which ends the
 * wait in this model) or if it has nothing left to issue (GPGPU-Sim's
 * functional_done, an exited warp).  Each of these changes only in the
 * sub-core's own ticks (launches start a warp at a timed tick, a barrier's
 * release reaches it as a write-back), so fast-forward sees every change. */
static inline int srr_can_take(const struct iw_subcore *sc, uint32_t local)
{
	if (!((sc->active_mask & ~sc->bar_mask) >> local & 1))
		return 0;
	const struct iw_warp *w = sc->wp[local];
	return !w->fetch_done || w->front_n || w->unissued;
}

/* The turn at the start of a cycle: it stays unless the last ticked cycle
 * issued (and the tick after an issue is always the next cycle, might_move)
 * or its warp cannot hold it; then it goes to the first warp after the last
 * issuer that can, in warp-slot order (GPGPU-Sim's supervised warps). 64: none. */
static inline uint32_t srr_turn(const struct iw_subcore *sc)
{
	uint32_t t = sc->turn;
	if (sc->last_reason != IW_STALL_COUNT && t < 64 && srr_can_take(sc, t))
		return t;
	uint64_t m = sc->active_mask & ~sc->bar_mask;
	uint32_t from = sc->rr + 1;
	uint64_t hi = from < 64 ? m & (~0ull << from) : 0;
	for (uint64_t r = hi; r; r &= r - 1)
		if (srr_can_take(sc, (uint32_t)__builtin_ctzll(r)))
			return (uint32_t)__builtin_ctzll(r);
	for (uint64_t r = m & ~hi; r; r &= r - 1)
		if (srr_can_take(sc, (uint32_t)__builtin_ctzll(r)))
			return (uint32_t)__builtin_ctzll(r);
	return 64;
}

IW_HOT int stage_issue_p(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  uint8_t *reason_out, int policy, int width, const struct iw_scheme_ops *ops)
{
	const struct iw_config *c = s->cfg;
	void *st = sm->scheme_state;
	int issued = 0;
	uint8_t reason = sc->norder ? IW_STALL_IB_EMPTY : IW_STALL_IDLE;
	sc->reason_warp = 64;
	sc->stalled_mask = 0;
	sc->fu_wait = 0;
	uint64_t only = ~0ull; /* the warps the scheduler may look at */
	if (policy == IW_POLICY_SRR) {
		/* every issue slot of the cycle looks at the turn's warp only */
		sc->turn = srr_turn(sc);
		only = sc->turn < 64 ? 1ull << sc->turn : 0;
		if (!only && (sc->active_mask & sc->bar_mask))
			reason = IW_STALL_BARRIER; /* no warp to name the cycle: each waits or is done */
	}
	int prev_unit = -1; /* unit class of the cycle's last issue, when the next must differ */
	for (int slotn = 0; slotn < width; slotn++) {
		uint32_t n = sc->norder, start = 0;
		int greedy_first = 0;
		if (n == 0)
			break;
		if (policy == IW_POLICY_GTO) {
			greedy_first = sc->greedy != UINT32_MAX;
		} else if (policy == IW_POLICY_LRR) {
			if (sc->opos[sc->rr] != 0xff) /* the next after the last issuer */
				start = sc->opos[sc->rr] + 1u;
		}
		if (start >= n)
			start = 0;
		struct iw_slot *pick = NULL;
		struct iw_warp *pw = NULL;
		/* Ask only warps not known to have nothing, in policy order; every
		 * answer (or cached answer) lands in creason for the stall reason. */
		uint64_t askable = sc->active_mask & ~sc->blocked_mask & only;
		/* positions in order[] still to visit: from start round the ring,
		 * found only once GTO's greedy warp did not issue (it mostly does,
		 * and the positions of every askable warp cost a step per warp:
		 * 17 host instructions per warp-instruction on inorder) */
		uint64_t hi = 0, lo = 0;
		int gfirst = greedy_first && (askable >> sc->greedy & 1);
		uint64_t rest = gfirst ? askable & ~(1ull << sc->greedy) : askable;
		for (;;) {
			uint32_t local;
			if (gfirst) {
				local = sc->greedy;
				gfirst = 0;
			} else {
				if (rest) {
					uint64_t p = order_bits(sc, rest);
					rest = 0;
					hi = p & (~0ull << start);
					lo = p & ~hi;
				}
				if (hi) {
					local = sc->order[__builtin_ctzll(hi)];
					hi &= hi - 1;
				} else if (lo) {
					local = sc->order[__builtin_ctzll(lo | 1ull << 63)]; /* (lo is not 0: the bit bounds the index for the compiler) */
					lo &= lo - 1;
				} else {
					break;
				}
			}
			int r = IW_STALL_IB_EMPTY;
			struct iw_warp *w = sc_warp(sm, sc, local);
			struct iw_slot *cand;
			if (sc->cand_mask >> local & 1) {
				cand = sc->ccand[local]; /* asked before, no event since */
			} else {
				cand = ops->candidate(st, w, now, &r);
				if (cand && sim_cache_cand(s, ops)) {
					sc->ccand[local] = cand;
					sc->cand_mask |= 1ull << local;
				}
			}
			if (!cand) {
				if (ops->candidate_cacheable)
					sc->blocked_mask |= 1ull << local;
			} else if (cand->in.unit == prev_unit) {
				/* another instruction for the unit class of the one that
				 * just issued: the warp's issue for this cycle ends
				 * (GPGPU-Sim's dual issue to different units); the tick
				 * after an issue asks it again */
				break;
			} else if (!iw_sim_unit_ready(sc, cand->in.unit, now + 1)) {
				/* Structural hazard: no unit of its class can take it at the
				 * earliest cycle it could dispatch (the next one). */
				r = IW_STALL_FU_BUSY;
				sc->stalled_mask |= 1ull << local;
				sc->fu_wait |= (uint8_t)(1u << cand->in.unit);
			} else if (sc->cu_busy == sc->cu_all) {
				r = IW_STALL_NO_CU;
				sc->stalled_mask |= 1ull << local;
			} else {
				pick = cand;
				pw = w;
				break;
			}
			sc->creason[local] = (uint8_t)r;
			if (r == IW_STALL_IB_EMPTY)
				sc->named_mask &= ~(1ull << local);
			else
				sc->named_mask |= 1ull << local;
		}
		if (!pick) {
			/* the first warp in policy order with a reason other than an
			 * empty buffer names the cycle (only a cycle without an issue:
			 * the slots after the first look at its warp alone) */
			uint64_t named = sc->active_mask & sc->named_mask & only;
			if (!issued && named) {
				sc->reason_warp = policy_first(sc, greedy_first, start, named);
				reason = sc->creason[sc->reason_warp];
			}
			break;
		}
		uint32_t cui = (uint32_t)__builtin_ctzll(~sc->cu_busy);
		struct iw_cu *cu = &sc->cu[cui];
		cu->busy = 1;
		cu->warp = pw->id;
		cu->slot = pick->id;
		cu->t_alloc = now;
		cu->unit = pick->in.unit;
		sc->cu_busy |= 1ull << cui;
		if (!ops->collect) /* the age order of the engine's collect stage */
			sc->cu_fifo[sc->ncu_fifo++] = (uint8_t)cui;
		unblock(sm, pw);
		pick->cu = (uint8_t)cui;
		pick->state = IW_SLOT_COLLECT;
		uint32_t nrf;
		uint32_t nbank = prepare_operands(s, pick, pw->id, &nrf);
		if (nrf)
			sc->cu_reading |= 1ull << cui;
		if (!ops->in_order && !ops->counts_reorders)
			iw_sim_count_reorder(s, pw, pick);
		ops->issue(st, pw, pick, now);
		/* after the scheme's issue hook, which may drop operands it gets
		 * otherwise (LOOG's renamed sources) */
		cu->left = s->slot_operands ? pick->srcs_left : nrf;
		/* the bank of each operand: all the collect stage needs of it
		 * (in its view, struct iw_cu; LOOG has a collect stage of its own) */
		if (!ops->collect && s->collect_packed) {
			cu->nbank = nbank; /* (the hook leaves the sources of the engine's collect stage) */
		} else if (!ops->collect) {
			for (uint32_t o = 0; o < cu->left; o++)
				cu->reg[o] = (uint16_t)iw_sim_bank(c, pw->id, pick->src_rf[o]);
		}
		/* the IB's occupancy integral, issue - insert summed: its insert
		 * subtracted its cycle (stage_insert), so that no stamp is
		 * kept in the slot's second line, which then stays untouched
		 * from fetch to issue (with ideal's window that is hundreds of
		 * cycles: a host cache miss at fetch or decode and another at
		 * issue); read only at the run's end, when all have issued */
		s->res->cnt.ib_occ += now;
		pw->unissued--;
		if (!ops->in_order && !ops->counts_reorders)
			uq_trim(pw);
		iw_count(s, IW_A_SCHED_SELECT, 1);
		iw_count(s, IW_A_CU_ALLOC, 1);
		iw_sim_event(s, pw, pick, IW_EV_ISSUE, (uint8_t)cui);
		sc->greedy = pw->local;
		sc->rr = pw->local;
		if (policy == IW_POLICY_SRR && (pick->in.flags & IW_F_BARRIER))
			sc->bar_mask |= 1ull << pw->local;
		/* an IB entry freed (not GhOST's: its IB drains into the IsB) */
		sc->ibfull_mask &= ~((uint64_t)(ops->insert_until_issue != IW_INSERT_UNTIL_ROOM) << pw->local);
		pw->last_issue = now;
		issued++;
		/* the cycle's later slots take this warp's next instructions
		 * only, as GPGPU-Sim's scheduler, which moves to another warp in
		 * the next cycle (SRR's turn already is this warp) */
		only = 1ull << pw->local;
		if (c->dual_issue_diff_units)
			prev_unit = pick->in.unit;
	}
	*reason_out = issued ? IW_STALL_COUNT : reason;
	return issued;
}

/* The common set-up (GTO, one issue per cycle) with its branches folded. */
IW_HOT int stage_issue(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  uint8_t *reason_out, const struct iw_scheme_ops *ops)
{
	const struct iw_config *c = s->cfg;
	if (s->gto_single)
		return stage_issue_p(s, sm, sc, now, reason_out, IW_POLICY_GTO, 1, ops);
	return stage_issue_p(s, sm, sc, now, reason_out, c->policy, c->issue_width, ops);
}

IW_HOT int stage_insert(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  const struct iw_scheme_ops *ops)
{
	int progress = 0;
	uint64_t mask = sc->front_mask & ~sc->noinsert_mask & ~sc->ibfull_mask;
	while (mask) {
		uint32_t local = (uint32_t)__builtin_ctzll(mask);
		mask &= mask - 1;
		struct iw_warp *w = sc_warp(sm, sc, local);
		for (int k = 0; k < s->cfg->fetch_width && w->front_n; k++) {
			/* (everything here was fetched in an earlier cycle: fetch
			 * comes after decode in a sub-core's tick, once per cycle) */
			struct iw_slot *sl = &w->slots[w->front[w->front_head]];
			int ir = ops->insert(sm->scheme_state, w, sl, now);
			if (ir > 0) {
				/* refused (full): retried after this warp's next event */
				sc->noinsert_mask |= 1ull << local;
				if (ops->insert_until_issue)
					sc->ibfull_mask |= 1ull << local;
				break;
			}
			sc->nofetch_mask &= ~(1ull << local); /* the front buffer has room again */
			if (++w->front_head == (uint32_t)s->cfg->fetch_buffer)
				w->front_head = 0;
			w->front_n--;
			sl->state = IW_SLOT_SCHEME;
			s->res->cnt.ib_occ -= now; /* (its issue adds its cycle: see there) */
			if (!ops->insert_keeps_candidate) {
				sc->blocked_mask &= ~(1ull << local);
				sc->cand_mask &= ~(1ull << local);
			}
			w->unissued++;
			if (!ops->in_order && !ops->counts_reorders)
				uq_push(w, sl);
			iw_count(s, IW_A_IB_WRITE, 1);
			iw_sim_event(s, w, sl, IW_EV_INSERT, 0);
			progress = 1;
			if (ir < 0) {
				/* accepted, and the next would be refused until an issue */
				sc->noinsert_mask |= 1ull << local;
				sc->ibfull_mask |= 1ull << local;
				break;
			}
		}
		if (!w->front_n)
			sc->front_mask &= ~(1ull << local);
	}
	return progress;
}

/* A warp has warp_size lanes: on a narrower SM (vortex: 16) an instruction
 * of a workload's 32-lane warp keeps only the lanes that exist, and with
 * them their addresses (listed in lane order, so the first ones) -- its
 * sectors, bank conflicts and lane energy are those of the lanes that run.
 * With none left it issues and does no lane work (a mask-0 instruction). */
static void narrow_lanes(const struct iw_sim *s, struct iw_inst *in, struct iw_mem_addrs *ma)
{
	uint32_t m = in->mask & s->lane_mask;
	uint32_t k = iw_popcount32(m);
	if (ma->n > k)
		ma->n = (uint8_t)k;
	if (!m && in->mask)
		in->flags |= IW_F_MASK0;
	in->mask = m;
}

IW_HOT int stage_fetch(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now)
{
	const struct iw_config *c = s->cfg;
	int through = s->through;
	struct iw_mem_addrs scratch;
	uint64_t cand = sc->active_mask & ~sc->nofetch_mask;
	while (cand) {
		/* round robin: the first candidate at or after fetch_rr, else the lowest */
		uint64_t hi = cand & (~0ull << sc->fetch_rr);
		uint32_t local = (uint32_t)__builtin_ctzll(hi ? hi : cand);
		cand &= ~(1ull << local);
		struct iw_warp *w = sc_warp(sm, sc, local);
		if (w->fetch_done || w->fetch_blocked || w->front_n == (uint32_t)c->fetch_buffer || w->nfree == 0 ||
		    w->maddr_used == s->maddr_cap) {
			sc->nofetch_mask |= 1ull << local; /* until this warp's next event */
			continue;
		}
		int fetched = 0;
		while (fetched < c->fetch_width && w->front_n < (uint32_t)c->fetch_buffer && w->nfree &&
		       w->maddr_used < s->maddr_cap) {
			uint16_t id = w->free_ids[--w->nfree];
			struct iw_slot *sl = &w->slots[id];
			sl->id = id;
			/* Lane addresses land in a scratch entry on the stack (in the
			 * host's cache) and only a memory instruction's are copied
			 * into the warp's pool: a pool entry is a cache miss. */
			struct iw_mem_addrs *ma = &scratch;
			ma->n = 0;
			ma->strided = 0;
			int rc = s->wl->ops->fetch(s->wl, &w->cta->cta, w->warp_in_cta, &sl->in, ma, s->err);
			if (rc <= 0) {
				w->free_ids[w->nfree++] = id;
				if (rc < 0)
					return rc;
				w->fetch_done = 1;
				if (w->inflight == 0) {
					rc = warp_finish(s, sm, w);
					if (rc)
						return rc;
				}
				break;
			}
			sl->in.maddr = IW_MADDR_NONE;
			if (s->lane_mask != 0xffffffffu)
				narrow_lanes(s, &sl->in, ma);
			if (ma->n && sl->in.unit == IW_UNIT_MEM) {
				if (!w->maddr && maddr_pools_new(s)) /* the run's first addresses */
					return iw_fail(s->err, IW_ERUN, "out of memory");
				uint32_t m = maddr_get(w);
				sl->in.maddr = (uint16_t)m;
				/* (a strided entry's lanes follow from its first: four
				 * cache lines fewer to write, and to miss on, per access) */
				uint32_t lanes = ma->strided ? 1u : IW_MIN(ma->n, 32u);
				/* A shared access's bank conflicts depend on its addresses
				 * only: counted here, where they are in the host's cache,
				 * so its dispatch does not read the pool entry (a cache
				 * miss, the entry being written long before).  Then only
				 * a scheme that compares addresses (LOOG's LSQ, ideal's
				 * disambiguation) needs them copied: for the others the
				 * entry only marks the access as one with addresses. */
				int shared = sl->in.space == IW_SPACE_SHARED;
				if (shared)
					sl->in.shm_k = (uint8_t)iw_mem_shared_conflicts(s->mem, &sl->in, ma);
				if (!shared || !s->ops->frees_addresses_at_dispatch)
					memcpy(&w->maddr[m], ma,
					       offsetof(struct iw_mem_addrs, addr) + lanes * sizeof ma->addr[0]);
			}
			sl->seq = w->next_seq++;
			sl->warp = w->id;
			sl->state = IW_SLOT_FRONT;
			uint32_t fi = w->front_head + w->front_n;
			w->front[fi >= (uint32_t)c->fetch_buffer ? fi - (uint32_t)c->fetch_buffer : fi] = id;
			w->front_n++;
			w->inflight++;
			sc->front_mask |= 1ull << local;
			iw_count(s, IW_A_FETCH_INST, 1);
			if (sl->in.flags & IW_F_MASK0)
				s->res->cnt.mask0_insts++;
			fetched++;
			if ((sl->in.flags & IW_F_TAKEN) && !through) {
				/* No speculation: the warp waits until the branch executes. */
				w->fetch_blocked = 1;
				s->res->cnt.flushes++;
				break;
			}
		}
		if (fetched || w->fetch_done) {
			sc->fetch_rr = local + 1 == sc->nwarps ? 0 : local + 1;
			return 1;
		}
	}
	return 0;
}

/* Charge the scheduler's stall reason from sc->acct up to (not incl.) `upto`. */
IW_HOT void account(struct iw_sim *s, struct iw_subcore *sc, uint64_t upto)
{
	if (upto <= sc->acct)
		return;
	uint64_t n = upto - sc->acct;
	if (sc->last_reason < IW_STALL_COUNT)
		s->res->cnt.stall[sc->last_reason] += n;
	if (sc->last_reason == IW_STALL_NO_CU)
		sc->no_cu_run += n;
	sc->acct = upto;
}

IW_HOT void set_reason(struct iw_sim *s, struct iw_subcore *sc, uint8_t r)
{
	if (sc->last_reason == IW_STALL_NO_CU && r != IW_STALL_NO_CU && sc->no_cu_run) {
		s->res->cnt.no_cu_stall_len[iw_hist_bin(sc->no_cu_run)]++;
		sc->no_cu_run = 0;
	}
	sc->last_reason = r;
}

/* Earliest future free time of a unit of class u (IW_NEVER if none is busy). */
static uint64_t unit_next_free(const struct iw_sim *s, const struct iw_subcore *sc, int u, uint64_t now)
{
	uint64_t fmin = IW_NEVER;
	for (int i = 0; i < s->cfg->units[u]; i++) {
		uint64_t f = sc->fu_free[u][i];
		fmin = f > now && f < fmin ? f : fmin;
	}
	return fmin;
}

IW_HOT uint64_t subcore_next_event(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  const struct iw_scheme_ops *ops)
{
	uint64_t t = sc->next_wb;
	if (!sim_opaque(ops)) { /* (a precise wake) */
		/* Only units someone waits for matter: a stalled candidate can
		 * issue one cycle before its class frees (issue looks at the next
		 * cycle), a collector unit holding its operands dispatches when it
		 * frees. */
		for (uint32_t m = sc->fu_wait; m; m &= m - 1) {
			uint64_t f = unit_next_free(s, sc, __builtin_ctz(m), now);
			if (f != IW_NEVER && f - 1 < t)
				t = f - 1;
		}
		for (uint64_t m = sc->cu_busy & ~sc->cu_reading; m; m &= m - 1) {
			uint64_t f = unit_next_free(s, sc, sc->cu[__builtin_ctzll(m)].unit, now);
			if (f < t)
				t = f;
		}
	} else {
		/* A unit's free time matters twice: dispatch checks it at fu_free
		 * and issue one cycle earlier (it looks at the next cycle).  A
		 * future free time f thus wakes the sub-core at max(f - 1, now + 1),
		 * which grows with f: only the earliest future free time over all
		 * units counts. */
		uint64_t fmin = IW_NEVER;
		for (uint32_t i = 0; i < sc->nfu_all; i++) {
			uint64_t f = sc->fu_all[i];
			fmin = f > now && f < fmin ? f : fmin;
		}
		if (fmin != IW_NEVER) {
			uint64_t f = fmin - 1 > now + 1 ? fmin - 1 : now + 1;
			if (f < t)
				t = f;
		}
	}
	for (uint64_t m = sc->unstarted_mask; m; m &= m - 1) {
		struct iw_warp *w = sc_warp(sm, sc, (uint32_t)__builtin_ctzll(m));
		if (w->start > now && w->start < t)
			t = w->start;
	}
	if (ops->next_event) {
		uint64_t e = ops->next_event(sm->scheme_state, now);
		if (e > now && e < t)
			t = e;
	}
	return t <= now ? now + 1 : t;
}

/* After a tick in which something moved: could anything move in the next
 * cycle without a timed event?  Answering "yes" when unsure is always safe
 * (the next tick finds out); "no" lets the sub-core sleep right away, which
 * halves the ticks of a busy simulation.  With a precise wake (a scheme that
 * is not opaque, sim_opaque), a warp whose
 * candidate waits for a busy unit or a free collector unit does not keep the
 * sub-core awake: until a unit frees (a timed event above) or a CU frees (a
 * dispatch, which is progress), asking it again gives the same answer and the
 * same stall reason. */
IW_HOT int might_move(const struct iw_sim *s, const struct iw_subcore *sc, uint64_t now,
		  const struct iw_scheme_ops *ops)
{
	if (sim_opaque(ops))
		return 1; /* the scheme owns state the masks do not describe */
	if (ops->busy && ops->busy(sc->sm->scheme_state, sc))
		return 1; /* its tick has work queued */
	uint64_t askable = sc->active_mask & ~sc->blocked_mask;
	if (s->cfg->policy == IW_POLICY_SRR) {
		/* The turn moves in the cycle after an issue, and off a warp that
		 * can no longer hold it (srr_turn): that cycle must be looked at.
		 * Otherwise only the turn's warp can issue. */
		if (sc->last_reason == IW_STALL_COUNT || srr_turn(sc) != sc->turn)
			return 1;
		askable &= sc->turn < 64 ? 1ull << sc->turn : 0;
	}
	askable &= ~sc->stalled_mask; /* (a precise wake: not opaque, above) */
	/* most often true first (measured on the built-in workloads) */
	if (sc->cu_reading || askable || (sc->active_mask & ~sc->nofetch_mask) || sc->next_wb <= now + 1 ||
	    (sc->front_mask & ~sc->noinsert_mask & ~sc->ibfull_mask))
		return 1;
	/* A collector unit with its operands, waiting for a unit free by then. */
	for (uint64_t m = sc->cu_busy; m; m &= m - 1) {
		const struct iw_cu *cu = &sc->cu[__builtin_ctzll(m)];
		if (iw_sim_unit_ready(sc, cu->unit, now + 1))
			return 1;
	}
	return 0;
}

/* One tick of sc at `now`; `sm_major`: in the SM-major order (run_sm_n, a
 * constant there), where no wheel files wake-ups. */
IW_HOT int tick_subcore_p(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now,
		  const struct iw_scheme_ops *ops, int sm_major)
{
	s->res->host_ticks++;
	account(s, sc, now);
	if (sc->unstarted_mask) { /* warps launched earlier become eligible at their start */
		uint64_t m = sc->unstarted_mask;
		while (m) {
			uint32_t local = (uint32_t)__builtin_ctzll(m);
			m &= m - 1;
			if (sc_warp(sm, sc, local)->start <= now) {
				sc->unstarted_mask &= ~(1ull << local);
				sc->active_mask |= 1ull << local;
			}
		}
	}
	int progress = 0, rc;
	rc = stage_writeback(s, sm, sc, now, ops);
	if (rc < 0)
		return rc;
	progress |= rc;
	rc = ops->collect ? ops->collect(sm->scheme_state, sc, now) : stage_collect(s, sm, sc, now, ops);
	if (rc < 0)
		return rc;
	progress |= rc;
	if (ops->tick && ops->tick(sm->scheme_state, sc, now)) {
		progress = 1;
		if (!ops->tick_unblocks) {
			/* the scheme moved something: ask every warp again, and retry
			 * decode (its buffers may have drained, as GhOST's IB into the IsB) */
			sc->blocked_mask = 0;
			sc->cand_mask = 0;
			sc->noinsert_mask = 0;
			sc->ibfull_mask = 0;
		}
	}
	uint8_t reason;
	progress |= stage_issue(s, sm, sc, now, &reason, ops);
	progress |= stage_insert(s, sm, sc, now, ops);
	rc = stage_fetch(s, sm, sc, now);
	if (rc < 0)
		return rc;
	progress |= rc;
	/* A window (SOCGPU's IB, GhOST's front IB, ideal's window) full of
	 * instructions none of which can go: the window is what stalls, a
	 * larger one would have decoded past them (SCHEMES.md 3: a full IB
	 * stalls decode, the effect GhOST blames for SOCGPU's slowdowns).  An
	 * in-order IB full behind a blocked head is that head's stall.  Read
	 * after decode, as every cycle until the next tick sees it. */
	if (ops->insert_until_issue == IW_INSERT_UNTIL_ROOM && sc->reason_warp < 64 &&
	    (sc->ibfull_mask >> sc->reason_warp & 1) &&
	    (reason == IW_STALL_RAW || reason == IW_STALL_WAR_WAW || reason == IW_STALL_MEM_ORDER))
		reason = IW_STALL_IB_FULL;
	/* This cycle is charged with the next tick's account(): the reason
	 * holds until then. */
	set_reason(s, sc, reason);
	uint64_t next = !s->cfg->fast_forward ? now + 1
			: progress && might_move(s, sc, now, ops) ? now + 1
							     : subcore_next_event(s, sm, sc, now, ops);
	/* wake may have been lowered during this tick by events pushed for later. */
	uint64_t wk = *sc->wake <= now || next < *sc->wake ? next : *sc->wake;
	if (wk <= now)
		wk = now + 1;
	*sc->wake = wk;
	if (!sm_major)
		wheel_mark(s, sc, wk);
	return 0;
}

/* The generic tick, which reads the scheme's hooks from s->ops (the
 * cycle-major reference order, and schemes without a copy of their own). */
static int tick_subcore(struct iw_sim *s, struct iw_sm *sm, struct iw_subcore *sc, uint64_t now)
{
	return tick_subcore_p(s, sm, sc, now, s->ops, s->sm_major);
}

/* ---------------------------------------------------------- time series */

static int series_push(struct iw_sim *s, uint64_t cycles)
{
	struct iw_series *se = &s->res->series;
	if (se->n == se->cap) {
		/* Merge adjacent pairs and double the interval: memory stays bounded. */
		for (size_t i = 0; i < se->n / 2; i++) {
			for (int a = 0; a < IW_A_COUNT; a++)
				se->act[i * IW_A_COUNT + a] = se->act[2 * i * IW_A_COUNT + a] + se->act[(2 * i + 1) * IW_A_COUNT + a];
			se->insts[i] = se->insts[2 * i] + se->insts[2 * i + 1];
			se->cycles[i] = se->cycles[2 * i] + se->cycles[2 * i + 1];
		}
		se->n /= 2;
		se->interval *= 2;
		/* The sample being filled now spans the doubled interval. */
		s->sample_end = s->sample_start + se->interval;
		return 1;
	}
	for (int a = 0; a < IW_A_COUNT; a++) {
		se->act[se->n * IW_A_COUNT + a] = s->cur_act[a];
		s->res->act[a] += s->cur_act[a];
	}
	se->insts[se->n] = s->cur_insts;
	se->cycles[se->n] = cycles;
	se->n++;
	memset(s->cur_act, 0, IW_A_COUNT * sizeof *s->cur_act);
	s->cur_insts = 0;
	return 0;
}

static void series_advance(struct iw_sim *s, uint64_t now)
{
	while (now >= s->sample_end) {
		if (series_push(s, s->sample_end - s->sample_start))
			continue; /* merged: the current sample got longer */
		s->sample_start = s->sample_end;
		s->sample_end += s->res->series.interval;
	}
}

/* ------------------------------------------------------- the two orders */

/* Cycle after cycle, every due sub-core of the GPU in index order: the
 * reference order, and the one the event log needs (events in time order). */
static int run_cycle_major(struct iw_sim *s, uint64_t *now_out)
{
	int rc = 0;
	uint64_t now = 0;
	while (rc == 0) {
		if (!s->kernel_open && s->no_more_kernels && s->live_ctas == 0)
			break;
		s->now = now;
		series_advance(s, now);
		if (s->far_min - now < IW_WHEEL) /* far wake-ups now within the wheel */
			wheel_far(s, now);
		/* The sub-cores due now, in index order (SM after SM): a tick
		 * files wake-ups for later cycles only. */
		uint32_t slot = (uint32_t)now & (IW_WHEEL - 1);
		if (s->wsum[slot >> 6] >> (slot & 63) & 1) {
			s->wsum[slot >> 6] &= ~(1ull << (slot & 63));
			for (uint32_t j = 0; j < s->gwords && !rc; j++) {
				uint64_t m = s->wheel[(size_t)j * IW_WHEEL + slot];
				s->wheel[(size_t)j * IW_WHEEL + slot] = 0;
				for (; m; m &= m - 1) {
					struct iw_subcore *sc = s->scs[j * 64 + (uint32_t)__builtin_ctzll(m)];
					if (*sc->wake <= now && (rc = tick_subcore(s, sc->sm, sc, now)))
						break;
				}
			}
		}
		if (!rc && s->nrefill)
			rc = refill_sms(s);
		if (rc)
			break;
		if (s->live_ctas == 0 && s->kernel_open && !s->kernel_ctas_left) {
			/* Kernels run one after another, as in Accel-Sim's default. */
			s->kernel_open = 0;
			rc = start_kernel(s);
			if (rc)
				break;
		}
		uint64_t next = wheel_next(s, now);
		if (s->far_min < next)
			next = s->far_min;
		if (!s->kernel_open && s->no_more_kernels && s->live_ctas == 0) {
			now++;
			break;
		}
		if (next == IW_NEVER) {
			rc = iw_fail(s->err, IW_ERUN,
				     "%s with scheme %s: deadlock at cycle %llu: no instruction can move and no event is "
				     "pending (%llu CTAs resident)",
				     s->wl->name, s->ops->name, (unsigned long long)now, (unsigned long long)s->live_ctas);
			break;
		}
		IW_ASSERT(next > now);
		now = next;
	}
	*now_out = now;
	return rc;
}

enum { SM_END, SM_CLAIM, SM_PARK };

/* One SM's ticks from its next due cycle up to (not incl.) `end`, in the
 * cycle-major order restricted to it.  It stops after a cycle in which one
 * of its CTAs finished while the kernel had CTAs to give (SM_CLAIM: the
 * refill must wait until every SM before it in (cycle, SM) order has
 * claimed) or after which it holds no CTA (SM_PARK: nothing can happen to
 * it until the next kernel).  `drain`: no stop (an SM without CTAs). */
IW_HOT int run_sm_n(struct iw_sim *s, struct iw_sm *sm, uint64_t end, int drain, uint64_t *at, uint32_t n,
		  const struct iw_scheme_ops *ops)
{
	uint64_t *wake = &s->sc_wake[(size_t)sm->id * n];
	for (;;) {
		uint64_t t = wake[0];
		for (uint32_t k = 1; k < n; k++)
			t = wake[k] < t ? wake[k] : t;
		if (t >= end)
			return SM_END;
		s->now = t;
		/* The sub-cores due at t, found before the first tick: a tick moves
		 * other sub-cores' wake-ups only to later cycles (every latency is
		 * at least one), so none becomes due at t meanwhile, and a mask
		 * walk has one unpredictable branch where a test per sub-core had
		 * one each. */
		uint32_t due = 0;
		for (uint32_t k = 0; k < n; k++)
			due |= (uint32_t)(wake[k] <= t) << k;
		for (; due; due &= due - 1) {
			int rc = tick_subcore_p(s, sm, &sm->sc[__builtin_ctz(due)], t, ops, 1);
			if (rc)
				return rc;
		}
		if (drain)
			continue;
		if (sm->refill || !sm->used_ctas) {
			*at = t;
			return sm->refill ? SM_CLAIM : SM_PARK;
		}
	}
}

/* An SM's run, one copy per built-in scheme with its hooks known at compile
 * time (the tick inlined): with link-time optimisation (the release build)
 * the compiler calls the scheme's hooks directly and drops the branches on
 * the flags it does not set (-7% host instructions per simulated instruction
 * on inorder).  Any other scheme runs the generic copy, which reads the
 * hooks from s->ops, as the cycle-major reference does: the pinned runs of
 * tests/test_pinned.c compare the two orders. */
#define IW_RUN_SM_FOR(name, OPS)                                                                                     \
	static int run_sm_##name(struct iw_sim *s, struct iw_sm *sm, uint64_t end, int drain, uint64_t *at)         \
	{                                                                                                            \
		/* four sub-cores (every preset but vortex) and one get unrolled loops */                           \
		return s->nsubcores == 4   ? run_sm_n(s, sm, end, drain, at, 4, OPS)                                 \
		       : s->nsubcores == 1 ? run_sm_n(s, sm, end, drain, at, 1, OPS)                                 \
					   : run_sm_n(s, sm, end, drain, at, s->nsubcores, OPS);                      \
	}
extern const struct iw_scheme_ops iw_scheme_inorder, iw_scheme_socgpu, iw_scheme_ghost, iw_scheme_loog, iw_scheme_ideal;
IW_RUN_SM_FOR(inorder, &iw_scheme_inorder)
IW_RUN_SM_FOR(socgpu, &iw_scheme_socgpu)
IW_RUN_SM_FOR(ghost, &iw_scheme_ghost)
IW_RUN_SM_FOR(loog, &iw_scheme_loog)
IW_RUN_SM_FOR(ideal, &iw_scheme_ideal)
IW_RUN_SM_FOR(generic, s->ops)

static int run_sm(struct iw_sim *s, struct iw_sm *sm, uint64_t end, int drain, uint64_t *at)
{
	const struct iw_scheme_ops *o = s->ops;
	return o == &iw_scheme_inorder  ? run_sm_inorder(s, sm, end, drain, at)
	       : o == &iw_scheme_socgpu ? run_sm_socgpu(s, sm, end, drain, at)
	       : o == &iw_scheme_ghost  ? run_sm_ghost(s, sm, end, drain, at)
	       : o == &iw_scheme_loog   ? run_sm_loog(s, sm, end, drain, at)
	       : o == &iw_scheme_ideal  ? run_sm_ideal(s, sm, end, drain, at)
					: run_sm_generic(s, sm, end, drain, at);
}

/* A queued L2 trip came back (iw_memsys_flush): file the load's write-back. */
static void mem_done(void *ctx, uint64_t cookie, uint64_t now, uint32_t ml)
{
	struct iw_sim *s = ctx;
	struct iw_sm *sm = &s->sms[cookie >> 32];
	struct iw_warp *w = &sm->warps[(cookie >> 16) & 0xffff];
	struct iw_slot *sl = &w->slots[cookie & 0xffff];
	IW_ASSERT(sl->state == IW_SLOT_EXEC);
	uint64_t t = now + (uint64_t)s->cfg->latency[IW_UNIT_MEM] + ml;
	IW_ASSERT(t > s->span_end);
	struct iw_wb_event ev = {t, ((uint64_t)w->id << 40) | (sl->seq & 0xffffffffffULL), w->id, sl->id};
	wb_push(&sm->sc[w->subcore], ev);
}

/*
 * SM after SM, over spans of at most s->span cycles: the host keeps one SM's
 * state in its caches for a whole span instead of visiting every SM of the
 * GPU in each cycle (at full occupancy the cycle-major order touches ~15 MB
 * per simulated cycle and runs from the host's L3 or memory).  The results
 * are those of run_cycle_major, bit for bit, because the SMs of the model
 * interact in three places only, each kept in the cycle-major order:
 * - the shared L2 and DRAM servers: an access that leaves its SM's L1 is
 *   queued and served at the span's end in (cycle, SM, order) order; the
 *   span is shorter than the shortest trip to L2 and back, so no write-back
 *   is due before its latency is known;
 * - the kernel's CTA queue: an SM stops at a cycle in which a CTA of its
 *   finished while CTAs were left, and the stopped SMs are refilled and
 *   resumed strictly in (cycle, SM) order;
 * - the kernel's end (no CTA left anywhere): an SM without CTAs parks, and
 *   when all are parked the next kernel starts at the cycle the last CTA
 *   finished, after every SM's remaining ticks up to it.
 * The time series' sample boundaries end spans, so every activity lands in
 * its sample.
 */
static int run_sm_major(struct iw_sim *s, uint64_t *now_out)
{
	uint32_t nsm = (uint32_t)s->cfg->sms;
	uint8_t *st = s->sm_state;
	uint64_t *at = s->sm_at;
	uint64_t T = 0;
	if (!s->kernel_open && s->no_more_kernels && s->live_ctas == 0) {
		*now_out = 0; /* nothing to run */
		return 0;
	}
	for (uint32_t i = 0; i < nsm; i++) {
		st[i] = s->sms[i].used_ctas ? SM_END : SM_PARK;
		at[i] = s->now;
	}
	for (;;) {
		series_advance(s, T);
		uint64_t E = T + s->span;
		if (E > s->sample_end)
			E = s->sample_end;
		s->span_end = E;
		for (uint32_t i = 0; i < nsm; i++)
			if (st[i] == SM_END) {
				int r = run_sm(s, &s->sms[i], E, 0, &at[i]);
				if (r < 0)
					return r;
				st[i] = (uint8_t)r;
			}
		for (;;) { /* refills, in (cycle, SM) order */
			uint32_t k = nsm;
			for (uint32_t i = 0; i < nsm; i++)
				if (st[i] == SM_CLAIM && (k == nsm || at[i] < at[k]))
					k = i;
			if (k == nsm)
				break;
			struct iw_sm *sm = &s->sms[k];
			s->now = at[k];
			sm->refill = 0;
			int rc = fill_sm(s, sm);
			if (rc)
				return rc;
			if (!sm->used_ctas) {
				st[k] = SM_PARK;
				continue;
			}
			int r = run_sm(s, sm, E, 0, &at[k]);
			if (r < 0)
				return r;
			st[k] = (uint8_t)r;
		}
		if (s->mem_oom)
			return iw_fail(s->err, IW_ERUN, "out of memory");
		uint32_t parked = 0;
		uint64_t tend = 0;
		for (uint32_t i = 0; i < nsm; i++)
			if (st[i] == SM_PARK) {
				parked++;
				tend = at[i] > tend ? at[i] : tend;
			}
		if (parked == nsm) {
			/* The kernel ended at tend: finish every SM's cycles up to it,
			 * then start the next kernel there, as the cycle-major order. */
			for (uint32_t i = 0; i < nsm; i++) {
				int r = run_sm(s, &s->sms[i], tend + 1, 1, NULL);
				if (r < 0)
					return r;
			}
			iw_memsys_flush(s->mem, s->cur_act, mem_done, s);
			s->now = tend;
			s->kernel_open = 0;
			int rc = start_kernel(s);
			if (rc)
				return rc;
			if (!s->kernel_open && s->no_more_kernels && s->live_ctas == 0) {
				*now_out = tend + 1;
				return 0;
			}
			for (uint32_t i = 0; i < nsm; i++) {
				st[i] = s->sms[i].used_ctas ? SM_END : SM_PARK;
				at[i] = tend;
			}
			T = tend + 1;
			continue;
		}
		iw_memsys_flush(s->mem, s->cur_act, mem_done, s);
		uint64_t next = IW_NEVER;
		for (uint32_t i = 0; i < nsm; i++)
			if (st[i] == SM_END)
				for (uint32_t k = 0; k < s->nsubcores; k++) {
					uint64_t w = s->sc_wake[(size_t)i * s->nsubcores + k];
					next = w < next ? w : next;
				}
		if (next == IW_NEVER)
			return iw_fail(s->err, IW_ERUN,
				       "%s with scheme %s: deadlock at cycle %llu: no instruction can move and no event is "
				       "pending (%llu CTAs resident)",
				       s->wl->name, s->ops->name, (unsigned long long)E, (unsigned long long)s->live_ctas);
		T = next > E ? next : E;
	}
}

/* ------------------------------------------------------------- set-up */

/* The model's state lives in one zeroed chunk (more only for huge
 * configurations), carved in the order it is used: each warp's slots, free
 * list, front buffer and program-order queue sit next to each other, and
 * setting up a GPU of 80 SMs costs one allocation instead of tens of
 * thousands (a visible part of a short run). */
struct iw_chunk {
	struct iw_chunk *next;
	size_t used, cap;
	_Alignas(64) unsigned char mem[];
};

static void *arena_get(struct iw_sim *s, size_t n, size_t size)
{
	size_t bytes = (n * size + 63) & ~(size_t)63; /* cache-line aligned pieces */
	struct iw_chunk *c = s->arena;
	if (!c || c->cap - c->used < bytes) {
		/* One large mapping (above malloc's largest mmap threshold, so
		 * fresh and zero) backed by 2 MiB pages where the kernel allows:
		 * the per-warp state of a GPU spans tens of MiB, and with 4 KiB
		 * pages nearly every warp's access misses the TLB. */
		size_t cap = bytes > ((size_t)64 << 20) ? bytes : ((size_t)64 << 20);
		if (!(c = iw_calloc(1, sizeof *c + cap + 64)))
			return NULL;
#ifdef MADV_HUGEPAGE
		uintptr_t lo = ((uintptr_t)c + ((uintptr_t)2 << 20) - 1) & ~(((uintptr_t)2 << 20) - 1);
		uintptr_t hi = ((uintptr_t)c + sizeof *c + cap) & ~(((uintptr_t)2 << 20) - 1);
		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#endif
		/* malloc's own header puts c->mem off a cache line: start on one */
		c->used = (size_t)(-(uintptr_t)c->mem & 63);
		c->cap = cap + c->used;
		c->next = s->arena;
		s->arena = c;
	}
	void *p = c->mem + c->used;
	c->used += bytes;
	return p;
}

void *iw_sim_alloc(struct iw_sim *s, size_t n, size_t size) { return arena_get(s, n, size); }

static void sim_free(struct iw_sim *s)
{
	const struct iw_config *c = s->cfg;
	if (s->sms) {
		for (int i = 0; i < c->sms; i++) {
			struct iw_sm *sm = &s->sms[i];
			if (sm->scheme_state && s->ops->sm_free)
				s->ops->sm_free(sm->scheme_state);
			if (sm->ctas)
				for (int k = 0; k < c->max_ctas; k++)
					/* A failed run leaves CTAs resident: hand them back
					 * so the workload can free what it holds for them. */
					if (sm->ctas[k].used && s->wl && s->wl->ops->release_cta)
						s->wl->ops->release_cta(s->wl, &sm->ctas[k].cta);
		}
	}
	if (s->sms && s->sms[0].warps && s->sms[0].warps[0].maddr) /* the lane-address pools */
		iw_free(((struct maddr_hdr *)(void *)((char *)s->sms[0].warps[0].maddr - sizeof(struct maddr_hdr)))->raw);
	while (s->arena) {
		struct iw_chunk *n = s->arena->next;
		iw_free(s->arena);
		s->arena = n;
	}
	iw_free(s->cur_act);
	iw_memsys_free(s->mem);
}

static int sim_init(struct iw_sim *s, struct iw_err *e)
{
	const struct iw_config *c = s->cfg;
	uint32_t want = s->ops->window(c) + (uint32_t)c->fetch_buffer + 16;
	s->window = want < 16 ? 16 : want;
	if (s->window > 4096)
		return iw_fail(e, IW_EINPUT, "scheme %s: a window of %u instructions per warp is too large", s->ops->name,
			       s->window);
	/* (the SMs sharing an address pool index it with 16 bits) */
	s->maddr_cap = IW_MIN(IW_MIN(s->window, (uint32_t)IW_MADDR_PER_WARP_MAX), 0xfffeu / (uint32_t)c->max_warps);
	/* warps are dealt round robin: the first sub-cores may get one more */
	s->warps_per_sc = (uint32_t)((c->max_warps + c->subcores - 1) / c->subcores);
	s->nsubcores = (uint32_t)c->subcores;
	if (s->warps_per_sc > 64)
		return iw_fail(e, IW_EINPUT, "sm.max_warps / gpu.subcores (rounded up) = %u: at most 64 warps per sub-core are supported",
			       s->warps_per_sc);
	uint32_t ncu = s->ops->cus && s->ops->cus(c) ? s->ops->cus(c) : (uint32_t)c->cus;
	if (ncu > 64)
		return iw_fail(e, IW_EINPUT, "%u collector units per sub-core: at most 64 are supported", ncu);
	s->cur_act = iw_calloc(IW_A_COUNT, sizeof *s->cur_act);
	s->sms = arena_get(s, (size_t)c->sms, sizeof *s->sms);
	size_t nsc = (size_t)c->sms * (size_t)c->subcores;
	s->sc_wake = arena_get(s, nsc, sizeof *s->sc_wake);
	s->gwords = (uint32_t)((nsc + 63) / 64);
	s->wheel = arena_get(s, (size_t)IW_WHEEL * s->gwords, sizeof *s->wheel);
	s->wsum = arena_get(s, IW_WHEEL / 64, sizeof *s->wsum);
	s->far = arena_get(s, s->gwords, sizeof *s->far);
	s->scs = arena_get(s, nsc, sizeof *s->scs);
	s->refill = arena_get(s, (size_t)c->sms, sizeof *s->refill);
	s->sm_state = arena_get(s, (size_t)c->sms, sizeof *s->sm_state);
	s->sm_at = arena_get(s, (size_t)c->sms, sizeof *s->sm_at);
	s->far_min = IW_NEVER;
	if (!s->cur_act || !s->sms || !s->sc_wake || !s->wheel || !s->wsum || !s->far || !s->scs || !s->refill || !s->sm_state || !s->sm_at)
		return iw_fail(e, IW_ERUN, "out of memory");
	s->k_act0 = arena_get(s, IW_A_COUNT, sizeof *s->k_act0);
	if (!s->k_act0)
		return iw_fail(e, IW_ERUN, "out of memory");
	if (s->on_kernel) {
		s->k_part = arena_get(s, 1, sizeof *s->k_part);
		if (!s->k_part)
			return iw_fail(e, IW_ERUN, "out of memory");
	}
	int rc = iw_memsys_new(c, &s->mem, e);
	if (rc)
		return rc;
	for (int i = 0; i < c->sms; i++) {
		struct iw_sm *sm = &s->sms[i];
		sm->id = (uint32_t)i;
		sm->sim = s;
		sm->warps = arena_get(s, (size_t)c->max_warps, sizeof *sm->warps);
		sm->sc = arena_get(s, (size_t)c->subcores, sizeof *sm->sc);
		sm->ctas = arena_get(s, (size_t)c->max_ctas, sizeof *sm->ctas);
		if (!sm->warps || !sm->sc || !sm->ctas)
			return iw_fail(e, IW_ERUN, "out of memory");
		for (int k = 0; k < c->max_ctas; k++)
			if (!(sm->ctas[k].warp_ids = arena_get(s, (size_t)c->max_warps, sizeof(uint32_t))))
				return iw_fail(e, IW_ERUN, "out of memory");
		for (int k = 0; k < c->subcores; k++) {
			struct iw_subcore *sc = &sm->sc[k];
			sc->id = (uint32_t)k;
			sc->sm = sm;
			sc->greedy = UINT32_MAX;
			sc->turn = 64;
			sc->rr = c->policy == IW_POLICY_SRR ? 63 : 0; /* srr's first turn: the first warp (srr_turn) */
			memset(sc->opos, 0xff, sizeof sc->opos);
			sc->named_mask = ~0ull; /* creason starts as IW_STALL_IDLE */
			sc->gid = (uint32_t)i * (uint32_t)c->subcores + (uint32_t)k;
			s->scs[sc->gid] = sc;
			sc->wake = &s->sc_wake[sc->gid];
			*sc->wake = IW_NEVER;
			sc->next_wb = IW_NEVER;
			sc->last_reason = IW_STALL_IDLE;
			sc->ncu = ncu;
			sc->cu_all = ncu == 64 ? ~0ull : (1ull << ncu) - 1;
			sc->cu = arena_get(s, ncu, sizeof *sc->cu);
			sc->capwb = s->warps_per_sc * s->window + 1;
			sc->wb = arena_get(s, sc->capwb, sizeof *sc->wb);
			if (s->ops->wb_results_only && !s->wb_held && !(s->wb_held = arena_get(s, sc->capwb, sizeof *sc->wb)))
				return iw_fail(e, IW_ERUN, "out of memory");
			sc->warp_ids = arena_get(s, s->warps_per_sc, sizeof *sc->warp_ids);
			sc->wp = arena_get(s, s->warps_per_sc, sizeof *sc->wp);
			if (!sc->cu || !sc->wb || !sc->warp_ids || !sc->wp)
				return iw_fail(e, IW_ERUN, "out of memory");
			sc->nfu_all = 0;
			for (int u = 0; u < IW_UNIT_COUNT; u++)
				sc->nfu_all += (uint32_t)c->units[u];
			if (!(sc->fu_all = arena_get(s, sc->nfu_all + 1, sizeof(uint64_t))))
				return iw_fail(e, IW_ERUN, "out of memory");
			for (int u = 0, at = 0; u < IW_UNIT_COUNT; u++) {
				sc->fu_free[u] = sc->fu_all + at;
				sc->fu_min[u] = c->units[u] ? 0 : IW_NEVER;
				at += c->units[u];
			}
		}
		for (int wi = 0; wi < c->max_warps; wi++) {
			struct iw_warp *w = &sm->warps[wi];
			w->id = (uint32_t)wi;
			w->sm = (uint32_t)i;
			w->subcore = (uint32_t)(wi % c->subcores);
			w->local = (uint32_t)(wi / c->subcores);
			sm->sc[w->subcore].warp_ids[w->local] = (uint32_t)wi;
			sm->sc[w->subcore].wp[w->local] = w;
			sm->sc[w->subcore].nwarps = w->local + 1;
			w->slots = arena_get(s, s->window, sizeof *w->slots);
			w->free_ids = arena_get(s, s->window, sizeof *w->free_ids);
			w->front = arena_get(s, (size_t)c->fetch_buffer, sizeof *w->front);
			/* a power of two, so the ring wraps with a mask; none where
			 * nothing reorders or the scheme counts reorders itself */
			int uq = !s->ops->in_order && !s->ops->counts_reorders;
			for (w->uq_cap = 64; w->uq_cap < 4 * s->window; w->uq_cap *= 2)
				;
			w->uq_id = uq ? arena_get(s, w->uq_cap, sizeof *w->uq_id) : NULL;
			w->uq_seq = uq ? arena_get(s, w->uq_cap, sizeof *w->uq_seq) : NULL;
			if (!w->slots || !w->free_ids || !w->front || (uq && (!w->uq_id || !w->uq_seq)))
				return iw_fail(e, IW_ERUN, "out of memory");
			/* (a slot learns its id at fetch: the slots of a large window
			 * that no run reaches are never touched) */
			for (uint32_t j = 0; j < s->window; j++)
				w->free_ids[j] = (uint16_t)(s->window - 1 - j);
			w->nfree = s->window;
		}
		rc = s->ops->sm_new(sm, &sm->scheme_state, e);
		if (rc)
			return rc;
	}
	struct iw_series *se = &s->res->series;
	se->interval = (uint64_t)c->interval;
	se->cap = 4096;
	/* not zeroed: series_push writes a sample before anything reads it, and
	 * calloc would clear all 3 MiB on every run (malloc's heap serves them
	 * once a run freed its own), which a sweep of short points notices */
	se->act = iw_malloc(se->cap * IW_A_COUNT * sizeof *se->act);
	se->insts = iw_malloc(se->cap * sizeof *se->insts);
	se->cycles = iw_malloc(se->cap * sizeof *se->cycles);
	if (!se->act || !se->insts || !se->cycles)
		return iw_fail(e, IW_ERUN, "out of memory");
	s->sample_start = 0;
	s->sample_end = se->interval;
	for (uint32_t i = 0; i < 64; i++) /* every CU release bins its period: most are short */
		s->hist_small[i] = (uint8_t)iw_hist_bin(i);
	return 0;
}

void iw_run_result_free(struct iw_run_result *r)
{
	iw_free(r->series.act);
	iw_free(r->series.insts);
	iw_free(r->series.cycles);
	memset(&r->series, 0, sizeof r->series);
	iw_free(r->kstats);
	r->kstats = NULL;
	r->nkstats = 0;
	iw_free(r->ksens);
	r->ksens = NULL;
	r->nksens = 0;
}

double iw_utilisation(const struct iw_run_result *r, int k)
{
	const uint64_t occ[IW_OCC_COUNT] = {r->cnt.ib_occ, r->cnt.isb_occ, r->cnt.cu_occ, r->cnt.rrs_occ};
	if (k < 0 || k >= IW_OCC_COUNT || !r->entries[k] || !r->cycles)
		return NAN;
	return (double)occ[k] / ((double)r->entries[k] * (double)r->cycles);
}

/* The capacities behind the occupancy integrals (iw_run_result.entries):
 * the engine charges an instruction's buffer entry from insert to issue and
 * a scheme that holds it longer adds the rest, so by default the IB is the
 * window per warp; a scheme with other structures says so. */
static void set_entries(const struct iw_sim *s, uint64_t *entries)
{
	const struct iw_config *c = s->cfg;
	uint32_t cus = s->ops->cus && s->ops->cus(c) ? s->ops->cus(c) : (uint32_t)c->cus; /* (as sim_init) */
	uint32_t e[IW_OCC_COUNT] = {s->ops->window(c), 0, cus, 0};
	if (s->ops->entries)
		s->ops->entries(c, e);
	uint64_t warps = (uint64_t)c->max_warps * (uint64_t)c->sms, subcores = (uint64_t)c->subcores * (uint64_t)c->sms;
	entries[IW_OCC_IB] = e[IW_OCC_IB] * warps;
	entries[IW_OCC_ISB] = e[IW_OCC_ISB] * warps;
	entries[IW_OCC_CU] = e[IW_OCC_CU] * subcores;
	entries[IW_OCC_RRS] = e[IW_OCC_RRS] * subcores;
}

/* ------------------------------------------------------------ the loop */

int iw_simulate(const struct iw_sim_opts *o, struct iw_workload *wl, struct iw_run_result *r, struct iw_err *e)
{
	int si = iw_scheme_find(o->scheme);
	if (si < 0)
		return iw_fail(e, IW_EINPUT, "unknown scheme '%s' (see 'issuewatt list schemes')", o->scheme);
	int rc = iw_config_check(o->cfg, e);
	if (rc)
		return rc;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(r, 0, sizeof *r);
	snprintf(r->scheme, sizeof r->scheme, "%s", o->scheme);
	snprintf(r->workload, sizeof r->workload, "%s", wl->name);
	struct iw_sim s = {0};
	s.cfg = o->cfg;
	s.ops = iw_scheme_registry[si];
	s.wl = wl;
	s.res = r;
	s.err = e;
	s.on_event = o->on_event;
	s.on_kernel = o->on_kernel;
	s.kernel_ctx = o->kernel_ctx;
	s.event_ctx = o->event_ctx;
	const struct iw_config *c = o->cfg;
	/* A warp has warp_size lanes (narrow_lanes) */
	s.lane_mask = c->warp_size >= 32 ? 0xffffffffu : (1u << c->warp_size) - 1;
	s.wb_width = s.ops->wb_width ? (int)s.ops->wb_width(c) : c->wb_width;
	s.through = s.ops->fetch_through_control && s.ops->fetch_through_control(c);
	/* A cacheable scheme's answer changes only at the warp's own events, so
	 * a candidate held back by a busy unit or a full set of collector units
	 * is offered again without asking (unless cand_stable says it is not:
	 * ideal picks by which units are free). */
	s.gto_single = c->policy == IW_POLICY_GTO && c->issue_width == 1;
	s.cache_cand = s.ops->cand_stable ? s.ops->cand_stable(c) : !sim_opaque(s.ops);
	s.collect_packed = c->rf_banks <= 8 && (!c->rf_read_ports || c->rf_read_ports >= c->rf_banks);
	s.slot_operands = s.ops->collect || !s.collect_packed;
	if (s.collect_packed)
		for (uint32_t g = 0; g < 256; g++)
			s.bank_nib[g] = 1u << 4 * (g % (uint32_t)c->rf_banks);
	/* SM after SM (run_sm_major) unless events must come in time order: in
	 * spans shorter than the shortest trip to L2 and back that a warp waits
	 * for (a load or an atomic with a result: the pipeline, then at least
	 * l2_latency; stores and reductions do not wait, sim_dispatch), so no
	 * write-back waits for the queue. */
	uint64_t trip = (uint64_t)c->latency[IW_UNIT_MEM] + (uint64_t)c->l2_latency;
	s.span = IW_MIN(trip, (uint64_t)IW_SPAN + 1) - 1;
	const char *order = getenv("IW_SIM_ORDER"); /* "cycle": the reference order, to check the other against */
	s.sm_major = !o->cycle_major && !s.on_event && s.span >= 2 && !(order && strcmp(order, "cycle") == 0);
	rc = sim_init(&s, e);
	if (rc == 0) {
		iw_memsys_defer(s.mem, s.sm_major);
		rc = start_kernel(&s);
	}
	uint64_t now = 0;
	if (rc == 0)
		rc = s.sm_major ? run_sm_major(&s, &now) : run_cycle_major(&s, &now);
	if (rc == 0) {
		r->cycles = now;
		s.now = now;
		/* Close the stall accounting and the last (partial) sample. */
		for (int i = 0; i < c->sms; i++)
			for (int k = 0; k < c->subcores; k++) {
				struct iw_subcore *sc = &s.sms[i].sc[k];
				account(&s, sc, now);
				set_reason(&s, sc, IW_STALL_IDLE);
			}
		series_advance(&s, now);
		if (now > s.sample_start || s.cur_insts)
			while (series_push(&s, now - s.sample_start))
				;
		r->ipc = r->cycles ? (double)r->warp_insts / (double)r->cycles : 0;
		close_busy(&s); /* (start_kernel did, unless the run stopped early) */
		r->sm_busy_mean = (double)s.sm_cycles / (double)c->sms;
		set_entries(&s, r->entries);
	}
	sim_free(&s);
	if (rc) {
		iw_run_result_free(r);
		return rc < 0 ? rc : -IW_ERUN;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->sim_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	return 0;
}
