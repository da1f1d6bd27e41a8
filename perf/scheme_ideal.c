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
 * Each instruction's dependences are found once at insertion (the latest
 * writers from a per-register table, memory and barrier order from the
 * window's memory instructions) and kept as a short list.  Readiness is then
 * maintained, not searched for: every unresolved dependence sits on a list of
 * its producer and is resolved when the producer issues or writes back; an
 * instruction with none left joins a heap of ready instructions ordered by
 * age, so "oldest ready first" is the heap's top.  An instruction with more
 * than MAXD dependences (a barrier or a store behind many memory
 * instructions) keeps no list: it is judged by scanning the older part of the
 * window whenever it is older than the oldest ready instruction.
 */
#include "sim.h"

#include <string.h>

#define MAXD 12     /* dependences kept per instruction (bits of id_ent.open) */
#define NIL 0xffff  /* no slot / no dependence */

enum { K_WB, K_ISSUE }; /* wait for the older one's write-back / issue */
/* Dependence classes, in the order of deps_found (a barrier counts as control). */
enum { C_WAR_WAW, C_RAW, C_CONTROL, C_MEM, C_BARRIER };
static const int cls_reason[5] = {IW_STALL_WAR_WAW, IW_STALL_RAW, IW_STALL_CONTROL, IW_STALL_MEM_ORDER,
				  IW_STALL_BARRIER};

/* An instruction instance of a warp: program-order number above the slot id
 * (sim_init bounds slots to 4096, 12 bits), so tags order by age and a reused
 * slot never matches an old tag. */
#define TAG(seq, slot) ((uint64_t)(seq) << 12 | (uint64_t)(slot))
#define TAG_SLOT(t) ((uint16_t)((t) & 0xfff))
#define TAG_NONE UINT64_MAX

/* Dependence i of the instruction in slot c is named (c << 4) | i. */
#define DEP_ID(c, i) ((uint16_t)((c) << 4 | (i)))

/* Per slot: the instruction's place in the window and its dependences. */
struct id_ent {
	uint64_t tag;
	uint16_t prev, next;   /* the window (inserted, not written back), program order */
	uint16_t wprev, wnext; /* waiting (inserted, not issued), program order */
	uint16_t mprev, mnext; /* memory instructions of the window, program order */
	uint16_t sprev, snext; /* the window's memory instructions other than plain loads */
	uint16_t wake[2];      /* [kind]: dependences of younger ones resolved at this one's write-back / issue */
	uint16_t open;         /* bit i: dependence i not resolved yet */
	uint8_t nd;            /* dependences found; MAXD + 1 = overflowed (rescan) */
	uint8_t mem;           /* 0 not memory, 1 plain load, 2 other memory (store, atomic) */
	uint8_t live;          /* in the window (inserted, not written back) */
	uint8_t issued;
	uint16_t dnext[MAXD];  /* next dependence on the same producer and event */
	uint8_t dcls[MAXD];
	uint64_t moved;        /* the warp's epoch at this one's last issue or write-back */
	/* overflowed: the last rescan found dependence class bcls open on the
	 * instruction in slot bon, at epoch checked */
	uint64_t checked;
	uint16_t bon;
	uint8_t bcls;
};

struct id_warp {
	uint64_t lw[257];        /* tag of the latest writer of each register (256: the predicate) */
	uint64_t last_ctrl, last_sync;
	uint32_t n;              /* instructions in the window */
	uint16_t head, tail;     /* window: oldest, youngest */
	uint16_t whead, wtail;   /* waiting: oldest, youngest */
	uint16_t mtail, stail;   /* youngest memory instruction, youngest non-plain-load one */
	struct id_ent *e;        /* [slot] */
	uint64_t *ready;         /* min-heap of the tags of waiting instructions with no open dependence */
	uint32_t nready;
	uint16_t *ovf;           /* waiting overflowed instructions, program order */
	uint32_t novf;
	uint32_t novf_free;      /* of those, how many have no kept dependence open */
	uint64_t epoch;          /* issues and write-backs so far */
};

struct id_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct id_warp *w;
	struct id_ent *ent_pool;
	uint64_t *ready_pool;
	uint16_t *ovf_pool;
};

static uint32_t id_window(const struct iw_config *c) { return (uint32_t)c->ideal_window; }
static uint32_t id_cus(const struct iw_config *c) { return (uint32_t)(c->cus > c->loog_cus ? c->cus : c->loog_cus); }
static int id_through(const struct iw_config *c) { return c->ideal_fetch_through_control; }

static void id_sm_free(void *p)
{
	struct id_state *st = p;
	iw_free(st->w);
	iw_free(st->ent_pool);
	iw_free(st->ready_pool);
	iw_free(st->ovf_pool);
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
	/* Not zeroed: everything is set when a warp starts or an instruction is
	 * inserted, so slots and warps never used cost no page. */
	size_t nw = (size_t)c->max_warps, nslots = sm->sim->window, win = (size_t)c->ideal_window;
	st->w = iw_malloc(nw * sizeof *st->w);
	st->ent_pool = iw_malloc(nw * nslots * sizeof *st->ent_pool);
	st->ready_pool = iw_malloc(nw * win * sizeof *st->ready_pool);
	st->ovf_pool = iw_malloc(nw * win * sizeof *st->ovf_pool);
	if (!st->w || !st->ent_pool || !st->ready_pool || !st->ovf_pool) {
		id_sm_free(st);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	for (size_t i = 0; i < nw; i++) {
		st->w[i].e = st->ent_pool + i * nslots;
		st->w[i].ready = st->ready_pool + i * win;
		st->w[i].ovf = st->ovf_pool + i * win;
	}
	*state = st;
	return 0;
}

static void id_warp_start(void *p, struct iw_warp *w)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	x->n = 0;
	x->head = x->tail = x->whead = x->wtail = x->mtail = x->stail = NIL;
	x->nready = x->novf = x->novf_free = 0;
	x->epoch = 0;
	/* sequence numbers restart with the warp: forget the old tags */
	for (int i = 0; i < 257; i++)
		x->lw[i] = TAG_NONE;
	x->last_ctrl = x->last_sync = TAG_NONE;
}

/* The instruction tag t names is still in the window (not written back).
 * Asked of the scheme's own entry, which add_dep reads next anyway, rather
 * than of the engine's slot: a cache line less per dependence. */
static inline int tag_live(const struct id_warp *x, uint64_t t)
{
	if (t == TAG_NONE)
		return 0;
	const struct id_ent *o = &x->e[TAG_SLOT(t)];
	return o->tag == t && o->live;
}

/* ------------------------------------------------------- the ready heap */

static void ready_push(struct id_warp *x, uint64_t t)
{
	uint32_t i = x->nready++;
	while (i) {
		uint32_t p = (i - 1) / 2;
		if (x->ready[p] < t)
			break;
		x->ready[i] = x->ready[p];
		i = p;
	}
	x->ready[i] = t;
}

static void ready_remove(struct id_warp *x, uint64_t t)
{
	/* the scheduler issues the top (the oldest ready) unless an older
	 * overflowed instruction went first, which is not in the heap */
	uint32_t i = 0;
	while (i < x->nready && x->ready[i] != t)
		i++;
	IW_ASSERT(i < x->nready);
	uint64_t last = x->ready[--x->nready];
	if (i == x->nready)
		return;
	/* sift `last` into hole i: up if it is older than the hole's parent, else down */
	while (i && x->ready[(i - 1) / 2] > last) {
		x->ready[i] = x->ready[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= x->nready)
			break;
		if (c + 1 < x->nready && x->ready[c + 1] < x->ready[c])
			c++;
		if (x->ready[c] > last)
			break;
		x->ready[i] = x->ready[c];
		i = c;
	}
	x->ready[i] = last;
}

/* ---------------------------------------------------------- dependences */

/* A found at insertion depends on the older instruction in slot p.  Every
 * producer found is in the window, so its write-back is ahead; an issue
 * dependence is open only if it has not issued yet.  Past MAXD only the count
 * grows: the instruction is then judged by rescan(), but keeps the first MAXD
 * as a gate (it cannot be ready before they resolve: the scan finds each of
 * them open while it is, as the latest writers found here stay the latest
 * ones older than it and the other rules are the same). */
static inline void add_dep(struct id_state *st, struct iw_warp *w, struct id_ent *a, uint16_t aslot, uint16_t p,
		    int kind, int cls)
{
	st->sim->res->cnt.deps_found[cls < 4 ? cls : C_CONTROL]++;
	if (a->nd >= MAXD) {
		a->nd = MAXD + 1;
		return;
	}
	int i = a->nd++;
	a->dcls[i] = (uint8_t)cls;
	struct id_ent *pe = &st->w[w->id].e[p];
	if (kind == K_ISSUE && pe->issued)
		return;
	a->dnext[i] = pe->wake[kind];
	pe->wake[kind] = DEP_ID(aslot, i);
	a->open |= (uint16_t)(1u << i);
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
static int rescan(struct id_state *st, struct iw_warp *w, struct id_warp *x, const struct iw_slot *s)
{
	struct id_ent *se = &x->e[s->id];
	if (se->bon != NIL && se->moved <= se->checked) {
		uint16_t k = se->prev; /* stops at bon or before: bon or a stamp is ahead */
		while (k != se->bon && x->e[k].moved <= se->checked)
			k = x->e[k].prev;
		if (k == se->bon && x->e[k].moved <= se->checked)
			return cls_reason[se->bcls];
	}
	se->checked = x->epoch;
	se->bon = NIL;
	int nseen = 0, pred_seen = 0;
	uint16_t seen[IW_MAX_SRC + IW_MAX_DST + 1];
	for (uint16_t k = se->prev; k != NIL; k = x->e[k].prev) {
		const struct iw_slot *o = &w->slots[k];
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
				se->bon = k;
				se->bcls = cls[i];
				return cls_reason[cls[i]];
			}
	}
	return 0;
}

/* Dependence d's producer issued or wrote back. */
static inline void resolve(struct id_warp *x, uint16_t d)
{
	struct id_ent *c = &x->e[d >> 4];
	c->open &= (uint16_t)~(1u << (d & 15));
	if (!c->open) {
		if (c->nd <= MAXD)
			ready_push(x, c->tag);
		else
			x->novf_free++;
	}
}

static int id_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	const struct iw_config *c = st->cfg;
	struct id_warp *x = &st->w[w->id];
	if (x->n == (uint32_t)c->ideal_window)
		return IW_STALL_IB_FULL;
	const struct iw_inst *a = &s->in;
	uint16_t id = s->id;
	struct id_ent *e = &x->e[id];
	e->nd = 0;
	e->open = 0;
	e->wake[K_WB] = e->wake[K_ISSUE] = NIL;
	e->moved = 0;
	e->bon = NIL;
	/* RAW (and WAW without renaming): the latest older writer only, from the
	 * per-register table; the others are found by scanning the window. */
	for (int i = 0; i < a->nsrc; i++) {
		uint64_t r = x->lw[a->src[i]];
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= a->src[j] == a->src[i];
		if (!dup && tag_live(x, r))
			add_dep(st, w, e, id, TAG_SLOT(r), K_WB, C_RAW);
	}
	if ((a->flags & IW_F_PRED_BRANCH) && tag_live(x, x->lw[256]))
		add_dep(st, w, e, id, TAG_SLOT(x->lw[256]), K_WB, C_RAW);
	if (!c->ideal_renaming)
		for (int i = 0; i < a->ndst; i++)
			if (tag_live(x, x->lw[a->dst[i]]))
				add_dep(st, w, e, id, TAG_SLOT(x->lw[a->dst[i]]), K_WB, C_WAR_WAW);
	if (!c->ideal_fetch_through_control && tag_live(x, x->last_ctrl))
		add_dep(st, w, e, id, TAG_SLOT(x->last_ctrl), K_WB, C_CONTROL);
	if (tag_live(x, x->last_sync)) /* barriers chain: the latest covers the older ones */
		add_dep(st, w, e, id, TAG_SLOT(x->last_sync), K_WB, C_BARRIER);
	int mem = iw_is_mem(a), sync = iw_is_sync(a), plain = mem && iw_is_plain_load(a);
	/* Youngest first.  Ordered memory issues in order, so once an older
	 * store that A must follow is found, everything older is covered (a
	 * store itself waited for every older load and store), unless addresses
	 * let stores pass each other (disambiguation).  With renaming only the
	 * memory instructions matter, and to a plain load only the others: walk
	 * their lists, not the whole window. */
	if (!c->ideal_renaming) {
		int mem_done = 0;
		for (uint16_t k = x->tail; k != NIL; k = x->e[k].prev) {
			const struct iw_inst *pi = &w->slots[k].in;
			if (iw_regs_meet(a->dst, a->ndst, pi->src, pi->nsrc))
				add_dep(st, w, e, id, k, K_WB, C_WAR_WAW); /* WAR: as the WAR scoreboard */
			if (!x->e[k].mem || mem_done)
				continue;
			if (sync) {
				add_dep(st, w, e, id, k, K_WB, C_BARRIER);
			} else if (mem && mem_ordered(c, w, a, pi)) {
				add_dep(st, w, e, id, k, K_ISSUE, C_MEM);
				mem_done = !c->ideal_disambiguation && !iw_is_plain_load(pi);
			}
		}
	} else if (sync) {
		for (uint16_t k = x->mtail; k != NIL; k = x->e[k].mprev)
			add_dep(st, w, e, id, k, K_WB, C_BARRIER);
	} else if (plain) {
		for (uint16_t k = x->stail; k != NIL; k = x->e[k].sprev)
			if (!c->ideal_disambiguation || mem_overlap(w, a, &w->slots[k].in)) {
				add_dep(st, w, e, id, k, K_ISSUE, C_MEM);
				if (!c->ideal_disambiguation)
					break;
			}
	} else if (mem) {
		for (uint16_t k = x->mtail; k != NIL; k = x->e[k].mprev)
			if (!c->ideal_disambiguation || mem_overlap(w, a, &w->slots[k].in)) {
				add_dep(st, w, e, id, k, K_ISSUE, C_MEM);
				if (!c->ideal_disambiguation && x->e[k].mem == 2)
					break;
			}
	}
	uint64_t me = TAG(s->seq, id);
	for (int i = 0; i < a->ndst; i++)
		x->lw[a->dst[i]] = me;
	if (a->flags & IW_F_SETS_PRED)
		x->lw[256] = me;
	if (iw_is_ctrl(a))
		x->last_ctrl = me;
	if (sync)
		x->last_sync = me;
	e->tag = me;
	e->live = 1;
	e->issued = 0;
	e->mem = (uint8_t)(mem ? 2 - plain : 0);

	/* append to the window, its memory lists and the waiting list */
	e->next = NIL;
	e->prev = x->tail;
	if (x->tail != NIL)
		x->e[x->tail].next = id;
	else
		x->head = id;
	x->tail = id;
	if (mem) {
		e->mnext = NIL;
		e->mprev = x->mtail;
		if (x->mtail != NIL)
			x->e[x->mtail].mnext = id;
		x->mtail = id;
	}
	if (mem && !plain) {
		e->snext = NIL;
		e->sprev = x->stail;
		if (x->stail != NIL)
			x->e[x->stail].snext = id;
		x->stail = id;
	}
	e->wnext = NIL;
	e->wprev = x->wtail;
	if (x->wtail != NIL)
		x->e[x->wtail].wnext = id;
	else
		x->whead = id;
	x->wtail = id;
	if (e->nd > MAXD) {
		x->ovf[x->novf++] = id;
		x->novf_free += !e->open;
	} else if (!e->open) {
		ready_push(x, me);
	}
	x->n++;
	return 0;
}

static struct iw_slot *id_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	uint64_t top = x->nready ? x->ready[0] : TAG_NONE;
	/* overflowed instructions older than the oldest ready one, oldest first;
	 * one with a kept dependence open is blocked without a scan */
	for (uint32_t i = 0; x->novf_free && i < x->novf && x->e[x->ovf[i]].tag < top; i++)
		if (!x->e[x->ovf[i]].open && !rescan(st, w, x, &w->slots[x->ovf[i]]))
			return &w->slots[x->ovf[i]];
	if (top != TAG_NONE)
		return &w->slots[TAG_SLOT(top)];
	/* nothing is ready: the oldest waiting instruction names the stall */
	if (x->whead == NIL) {
		*reason = IW_STALL_IB_EMPTY;
	} else if (x->novf && x->ovf[0] == x->whead) {
		*reason = rescan(st, w, x, &w->slots[x->whead]);
	} else {
		const struct id_ent *e = &x->e[x->whead];
		*reason = cls_reason[e->dcls[__builtin_ctz(e->open)]]; /* its first open dependence */
	}
	return NULL;
}

static void id_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	struct id_ent *e = &x->e[s->id];
	e->issued = 1;
	if (e->wprev != NIL)
		x->e[e->wprev].wnext = e->wnext;
	else
		x->whead = e->wnext;
	if (e->wnext != NIL)
		x->e[e->wnext].wprev = e->wprev;
	else
		x->wtail = e->wprev;
	if (e->nd > MAXD) {
		uint32_t i = 0;
		while (x->ovf[i] != s->id)
			i++;
		memmove(&x->ovf[i], &x->ovf[i + 1], (x->novf - i - 1) * sizeof x->ovf[0]);
		x->novf--;
		x->novf_free--; /* it was ready: no kept dependence open */
	} else {
		ready_remove(x, e->tag);
	}
	for (uint16_t d = e->wake[K_ISSUE]; d != NIL; d = x->e[d >> 4].dnext[d & 15])
		resolve(x, d);
	e->wake[K_ISSUE] = NIL;
	if (x->novf) /* stamps matter only to the scans kept by waiting overflowed ones */
		e->moved = ++x->epoch;
	iw_count(st->sim, IW_A_IB_READ, 1);
}

static int id_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct id_state *st = p;
	struct id_warp *x = &st->w[w->id];
	struct id_ent *e = &x->e[s->id];
	for (uint16_t d = e->wake[K_WB]; d != NIL; d = x->e[d >> 4].dnext[d & 15])
		resolve(x, d);
	if (x->novf)
		e->moved = ++x->epoch;
	e->live = 0;
	if (e->prev != NIL)
		x->e[e->prev].next = e->next;
	else
		x->head = e->next;
	if (e->next != NIL) {
		x->e[e->next].prev = e->prev;
		if (x->novf)
			x->e[e->next].moved = x->epoch; /* see rescan() */
	} else {
		x->tail = e->prev;
	}
	if (e->mem) {
		if (e->mprev != NIL)
			x->e[e->mprev].mnext = e->mnext;
		if (e->mnext != NIL)
			x->e[e->mnext].mprev = e->mprev;
		else
			x->mtail = e->mprev;
	}
	if (e->mem == 2) {
		if (e->sprev != NIL)
			x->e[e->sprev].snext = e->snext;
		if (e->snext != NIL)
			x->e[e->snext].sprev = e->sprev;
		else
			x->stail = e->sprev;
	}
	x->n--;
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
	/* dependences resolve only at issue and write-back and insert adds
	 * instructions; dispatch and operand reads change nothing here */
	.candidate_cacheable = 2,
	.candidate = id_candidate,
	.issue = id_issue,
	.writeback = id_writeback,
};
