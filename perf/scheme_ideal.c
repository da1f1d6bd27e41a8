/*
 * perf/scheme_ideal.c -- the limit study of GhOST Table V (SCHEMES.md
 * section 6): a window of ideal.window instructions per warp (inserted and
 * not yet written back), oldest ready first, with three idealisations that
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
 * Each instruction's dependences are found once at insertion by scanning the
 * window (O(window)) and kept as a short list; readiness is then a few slot
 * look-ups per cycle.  A list that overflows falls back to a window scan.
 */
#include "sim.h"

#include <string.h>

#define MAXD 12
#define BON_NONE 0xffff

enum { K_WB, K_ISSUE }; /* wait for the older one's write-back / issue */

struct dep {
	uint16_t slot;
	uint8_t kind, cls;  /* cls: deps_found class (0 war_waw, 1 raw, 2 control, 3 memory), 4 barrier */
	uint64_t seq;
};

struct ref {
	uint16_t slot;
	uint64_t seq;
};

struct id_warp {
	uint16_t *live;     /* window in program order: slot ids */
	uint32_t n;
	struct ref lw[257]; /* latest writer of each register (256: the predicate) */
	struct ref last_ctrl, last_sync;
	uint32_t nmem;      /* memory instructions in the window */
	uint32_t epoch;     /* issues and write-backs so far */
};

struct id_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct id_warp *w;
	uint16_t *live_pool;
	struct dep *deps;   /* [warp][slot][MAXD] */
	uint8_t *ndeps;     /* [warp][slot], MAXD + 1 = overflowed */
	uint8_t *dpos;      /* [warp][slot]: dependences before this one are resolved */
	/* Compact per-slot state so the ready scan rarely touches the slots:
	 * waiting = inserted, not issued; bon = slot of the producer it was last
	 * found blocked on (NONE: check again), bre = that stall reason; moved =
	 * the warp's event count when the slot last issued or wrote back,
	 * checked = the count when the entry was last evaluated. */
	uint8_t *waiting, *bre;
	uint16_t *bon;
	uint32_t *moved, *checked;
	uint32_t nslots;
};


static uint32_t id_window(const struct iw_config *c) { return (uint32_t)c->ideal_window; }
static uint32_t id_cus(const struct iw_config *c) { return (uint32_t)(c->cus > c->loog_cus ? c->cus : c->loog_cus); }
static int id_through(const struct iw_config *c) { return c->ideal_fetch_through_control; }

static void id_sm_free(void *p)
{
	struct id_state *st = p;
	iw_free(st->w);
	iw_free(st->live_pool);
	iw_free(st->deps);
	iw_free(st->ndeps);
	iw_free(st->dpos);
	iw_free(st->waiting);
	iw_free(st->bre);
	iw_free(st->bon);
	iw_free(st->moved);
	iw_free(st->checked);
	iw_free(st);
}

static int id_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	const struct iw_config *c = sm->sim->cfg;
	struct id_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = c;
	st->sim = sm->sim;
	st->nslots = sm->sim->window;
	size_t nw = (size_t)c->max_warps;
	st->w = iw_calloc(nw, sizeof *st->w);
	st->live_pool = iw_calloc(nw * (size_t)c->ideal_window, sizeof *st->live_pool);
	st->deps = iw_calloc(nw * st->nslots * MAXD, sizeof *st->deps);
	st->ndeps = iw_calloc(nw * st->nslots, 1);
	st->dpos = iw_calloc(nw * st->nslots, 1);
	st->waiting = iw_calloc(nw * st->nslots, 1);
	st->bre = iw_calloc(nw * st->nslots, 1);
	st->bon = iw_calloc(nw * st->nslots, sizeof *st->bon);
	st->moved = iw_calloc(nw * st->nslots, sizeof *st->moved);
	st->checked = iw_calloc(nw * st->nslots, sizeof *st->checked);
	if (!st->w || !st->live_pool || !st->deps || !st->ndeps || !st->dpos || !st->waiting || !st->bre || !st->bon ||
	    !st->moved || !st->checked) {
		id_sm_free(st);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	for (size_t i = 0; i < nw; i++)
		st->w[i].live = st->live_pool + i * (size_t)c->ideal_window;
	*state = st;
	return 0;
}

static void id_warp_start(void *p, struct iw_warp *w)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	x->n = 0;
	x->nmem = 0;
	for (int i = 0; i < 257; i++)
		x->lw[i].seq = UINT64_MAX;
	x->last_ctrl.seq = x->last_sync.seq = UINT64_MAX;
}

/* The instruction `r` names is still in the window (not written back). */
static inline int ref_live(const struct iw_warp *w, struct ref r)
{
	if (r.seq == UINT64_MAX)
		return 0;
	const struct iw_slot *o = &w->slots[r.slot];
	return o->seq == r.seq && o->state != IW_SLOT_FREE;
}

static void add_dep(struct id_state *st, struct dep *d, uint8_t *nd, struct ref r, int kind, int cls)
{
	st->sim->res->cnt.deps_found[cls < 4 ? cls : 2]++;
	if (*nd < MAXD)
		d[(*nd)++] = (struct dep){r.slot, (uint8_t)kind, (uint8_t)cls, r.seq};
	else
		*nd = MAXD + 1;
}

static int mem_range(const struct iw_warp *w, const struct iw_inst *in, uint64_t *lo, uint64_t *hi)
{
	if (in->maddr == IW_MADDR_NONE || !w->maddr || !w->maddr[in->maddr].n)
		return 0;
	const struct iw_mem_addrs *ma = &w->maddr[in->maddr];
	uint64_t a = UINT64_MAX, b = 0;
	for (uint32_t i = 0; i < ma->n; i++) {
		a = ma->addr[i] < a ? ma->addr[i] : a;
		b = ma->addr[i] > b ? ma->addr[i] : b;
	}
	*lo = a;
	*hi = b + (in->mem_width ? in->mem_width : 4);
	return 1;
}

/* Exact overlap of two lane-address sets (perfect disambiguation). */
static int mem_overlap(const struct iw_warp *w, const struct iw_inst *a, const struct iw_inst *b)
{
	uint64_t alo, ahi, blo, bhi;
	if (!mem_range(w, a, &alo, &ahi) || !mem_range(w, b, &blo, &bhi))
		return 1; /* unknown addresses: assume they meet */
	if (ahi <= blo || bhi <= alo)
		return 0;
	const struct iw_mem_addrs *ma = &w->maddr[a->maddr], *mb = &w->maddr[b->maddr];
	uint64_t wa = a->mem_width ? a->mem_width : 4, wb = b->mem_width ? b->mem_width : 4;
	for (uint32_t i = 0; i < ma->n; i++)
		for (uint32_t j = 0; j < mb->n; j++)
			if (ma->addr[i] < mb->addr[j] + wb && mb->addr[j] < ma->addr[i] + wa)
				return 1;
	return 0;
}

/* Dependences of A on the older P: up to two (kind, class) pairs. */
static int find_deps(const struct id_state *st, const struct iw_warp *w, const struct iw_inst *a,
		     const struct iw_inst *p, int *latest_w, struct dep *out)
{
	const struct iw_config *c = st->cfg;
	int n = 0;
	/* RAW / WAW only on the latest older writer: *latest_w flags it */
	if (*latest_w)
		out[n++] = (struct dep){0, K_WB, 1, 0};
	else if (!c->ideal_renaming && iw_regs_meet(a->dst, a->ndst, p->src, p->nsrc))
		out[n++] = (struct dep){0, K_WB, 0, 0}; /* WAR: as the WAR scoreboard */
	if (iw_is_mem(a) && iw_is_mem(p) && !(iw_is_plain_load(a) && iw_is_plain_load(p)) &&
	    (!c->ideal_disambiguation || mem_overlap(w, a, p)))
		out[n++] = (struct dep){0, K_ISSUE, 3, 0};
	else if (((a->flags | p->flags) & IW_F_ATOMIC) && iw_is_mem(a) && iw_is_mem(p) && !c->ideal_disambiguation)
		out[n++] = (struct dep){0, K_ISSUE, 3, 0};
	if (iw_is_sync(p) || (iw_is_sync(a) && iw_is_mem(p)))
		out[n++] = (struct dep){0, K_WB, 4, 0};
	else if (!c->ideal_fetch_through_control && iw_is_ctrl(p))
		out[n++] = (struct dep){0, K_WB, 2, 0};
	return n;
}

static int id_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	const struct iw_config *c = st->cfg;
	struct id_warp *x = &st->w[w->id];
	if (x->n == (uint32_t)c->ideal_window)
		return IW_STALL_IB_FULL;
	const struct iw_inst *a = &s->in;
	size_t k0 = (size_t)w->id * st->nslots + s->id;
	struct dep *d = &st->deps[k0 * MAXD];
	uint8_t *nd = &st->ndeps[k0];
	*nd = 0;
	st->dpos[k0] = 0;
	st->waiting[k0] = 1;
	st->bon[k0] = BON_NONE;
	/* RAW (and WAW without renaming): the latest older writer only, from the
	 * per-register table; the others are found by scanning the window. */
	for (int i = 0; i < a->nsrc; i++) {
		struct ref r = x->lw[a->src[i]];
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= a->src[j] == a->src[i];
		if (!dup && ref_live(w, r))
			add_dep(st, d, nd, r, K_WB, 1);
	}
	if ((a->flags & IW_F_PRED_BRANCH) && ref_live(w, x->lw[256]))
		add_dep(st, d, nd, x->lw[256], K_WB, 1);
	if (!c->ideal_renaming)
		for (int i = 0; i < a->ndst; i++)
			if (ref_live(w, x->lw[a->dst[i]]))
				add_dep(st, d, nd, x->lw[a->dst[i]], K_WB, 0);
	if (!c->ideal_fetch_through_control && ref_live(w, x->last_ctrl))
		add_dep(st, d, nd, x->last_ctrl, K_WB, 2);
	if (ref_live(w, x->last_sync)) /* barriers chain: the latest covers the older ones */
		add_dep(st, d, nd, x->last_sync, K_WB, 4);
	int mem = iw_is_mem(a), sync = iw_is_sync(a);
	/* Youngest first.  Ordered memory issues in order, so once an older
	 * store that A must follow is found, everything older is covered (a
	 * store itself waited for every older load and store), unless addresses
	 * let stores pass each other (disambiguation). */
	int mem_done = 0;
	if (!c->ideal_renaming || ((mem || sync) && x->nmem))
		for (uint32_t k = x->n; k-- > 0;) {
			struct iw_slot *o = &w->slots[x->live[k]];
			const struct iw_inst *pi = &o->in;
			struct ref r = {o->id, o->seq};
			if (!c->ideal_renaming && iw_regs_meet(a->dst, a->ndst, pi->src, pi->nsrc))
				add_dep(st, d, nd, r, K_WB, 0); /* WAR: as the WAR scoreboard */
			if (!iw_is_mem(pi) || mem_done)
				continue;
			if (sync) {
				add_dep(st, d, nd, r, K_WB, 4);
			} else if (mem && !(iw_is_plain_load(a) && iw_is_plain_load(pi)) &&
				   (!c->ideal_disambiguation || mem_overlap(w, a, pi))) {
				add_dep(st, d, nd, r, K_ISSUE, 3);
				mem_done = !c->ideal_disambiguation && !iw_is_plain_load(pi);
			}
			if (c->ideal_renaming && mem_done)
				break;
		}
	struct ref me = {s->id, s->seq};
	for (int i = 0; i < a->ndst; i++)
		x->lw[a->dst[i]] = me;
	if (a->flags & IW_F_SETS_PRED)
		x->lw[256] = me;
	if (iw_is_ctrl(a))
		x->last_ctrl = me;
	if (sync)
		x->last_sync = me;
	x->nmem += mem;
	x->live[x->n++] = s->id;
	return 0;
}

static int dep_open(const struct iw_warp *w, const struct dep *d)
{
	const struct iw_slot *o = &w->slots[d->slot];
	if (o->seq != d->seq || o->state == IW_SLOT_FREE)
		return 0;
	return d->kind == K_WB ? 1 : o->state == IW_SLOT_SCHEME;
}

/* 0 = ready, else a stall reason. */
static int blocked(struct id_state *st, struct iw_warp *w, struct iw_slot *s, uint32_t pos, uint16_t *on)
{
	*on = BON_NONE;
	struct dep *d = &st->deps[((size_t)w->id * st->nslots + s->id) * MAXD];
	uint8_t nd = st->ndeps[(size_t)w->id * st->nslots + s->id];
	static const int reason[5] = {IW_STALL_WAR_WAW, IW_STALL_RAW, IW_STALL_CONTROL, IW_STALL_MEM_ORDER,
				      IW_STALL_BARRIER};
	if (nd <= MAXD) {
		/* dependences only ever resolve: resume after the resolved prefix */
		uint8_t *dp = &st->dpos[(size_t)w->id * st->nslots + s->id];
		for (; *dp < nd; ++*dp)
			if (dep_open(w, &d[*dp])) {
				*on = d[*dp].slot;
				return reason[d[*dp].cls];
			}
		return 0;
	}
	/* overflowed list: rescan the older part of the window */
	struct id_warp *x = &st->w[w->id];
	int nseen = 0, pred_seen = 0;
	uint16_t seen[IW_MAX_SRC + IW_MAX_DST + 1];
	for (uint32_t k = pos; k-- > 0;) {
		struct iw_slot *o = &w->slots[x->live[k]];
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
		struct dep f[3];
		int nf = find_deps(st, w, &s->in, &o->in, &latest, f);
		for (int i = 0; i < nf; i++) {
			f[i].slot = o->id;
			f[i].seq = o->seq;
			if (dep_open(w, &f[i]))
				return reason[f[i].cls];
		}
	}
	return 0;
}

static struct iw_slot *id_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	size_t base = (size_t)w->id * st->nslots;
	int first = 0;
	for (uint32_t k = 0; k < x->n; k++) {
		uint16_t id = x->live[k];
		if (!st->waiting[base + id])
			continue;
		uint16_t b = st->bon[base + id];
		int r;
		if (b != BON_NONE && st->moved[base + b] < st->checked[base + id]) {
			r = st->bre[base + id]; /* its producer did not move: still blocked */
		} else {
			r = blocked(st, w, &w->slots[id], k, &st->bon[base + id]);
			st->bre[base + id] = (uint8_t)r;
			st->checked[base + id] = x->epoch + 1;
		}
		if (!r)
			return &w->slots[id];
		if (!first)
			first = r;
	}
	*reason = first ? first : IW_STALL_IB_EMPTY;
	return NULL;
}

static inline void mark_changed(struct id_state *st, const struct iw_warp *w, uint16_t id)
{
	struct id_warp *x = &st->w[w->id];
	st->moved[(size_t)w->id * st->nslots + id] = ++x->epoch;
}

static void id_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	st->waiting[(size_t)w->id * st->nslots + s->id] = 0;
	mark_changed(st, w, s->id);
	iw_count(st->sim, IW_A_IB_READ, 1);
}

static int id_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	x->nmem -= iw_is_mem(&s->in);
	mark_changed(st, w, s->id);
	for (uint32_t k = 0; k < x->n; k++)
		if (x->live[k] == s->id) {
			memmove(&x->live[k], &x->live[k + 1], (x->n - k - 1) * sizeof x->live[0]);
			x->n--;
			break;
		}
	st->sim->res->cnt.ib_occ += now - s->t_issue;
	return s->in.ndst;
}

const struct iw_scheme_ops iw_scheme_ideal = {
	.name = "ideal",
	.help = "limit study: window of ideal.window, oldest ready first, renaming/disambiguation/fetch through control",
	.window = id_window,
	.cus = id_cus,
	.fetch_through_control = id_through,
	.sm_new = id_sm_new,
	.sm_free = id_sm_free,
	.warp_start = id_warp_start,
	.insert = id_insert,
	.candidate_cacheable = 1, /* readiness changes only at the warp's own events */
	.candidate = id_candidate,
	.issue = id_issue,
	.writeback = id_writeback,
};
