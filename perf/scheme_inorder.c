/*
 * perf/scheme_inorder.c -- the in-order baseline (SCHEMES.md section 2):
 * Accel-Sim's per-warp instruction buffer of ib_size entries, of which only
 * the oldest is a candidate, and a scoreboard that reserves destinations at
 * issue and releases them at write-back (RAW, WAW).  With war_scoreboard (on
 * by default, as the SOCGPU evaluation added) sources are marked at issue and
 * cleared at write-back, blocking the WAR hazards operand collectors make
 * possible.  Common rules every scheme keeps: nothing issues past an
 * unresolved control instruction; a barrier blocks the warp until the CTA
 * passes it; a memory fence waits for the warp's memory operations, and a
 * memory instruction for an older fence to complete.
 */
#include "sim.h"

#include <stddef.h>
#include <string.h>

/* A warp's record, laid out for the candidate test, which runs for every
 * warp after each of its events: the counters, an IB of up to 8 entries and
 * the scoreboard's pending registers share the first cache line (records
 * start on one); the WAR readers follow, then the ring of a larger IB. */
struct io_warp {
	uint8_t head, n;
	uint16_t ctrl_pending, bar_pending, mem_inflight;
	uint16_t pred_pending; /* compares whose predicate is not yet written */
	uint16_t fence_pending; /* fences issued and not yet complete */
	uint16_t ib8[8];       /* the IB ring when ib_size <= 8 */
	struct iw_scoreboard sb;
	uint16_t ib64[64];     /* the IB ring otherwise */
};
_Static_assert(offsetof(struct io_warp, sb) + sizeof(uint64_t[4]) <= 64, "the hot fields fit one cache line");
_Static_assert(sizeof(struct io_warp) % 64 == 0, "records start on a cache line");

struct io_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct io_warp *w;
	int ib_size;
	uint32_t ib_mask;      /* ring index mask: 7 or 63 */
	size_t ib_off;         /* offset of the ring in a record (ib8 or ib64) */
};

static inline uint16_t *io_ib(const struct io_state *st, struct io_warp *x)
{
	return (uint16_t *)((char *)x + st->ib_off);
}


static uint32_t io_window(const struct iw_config *c) { return (uint32_t)c->inorder_ib_size; }

static int io_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	struct io_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = sm->sim->cfg;
	st->sim = sm->sim;
	st->ib_size = st->cfg->inorder_ib_size;
	int small = st->ib_size <= 8;
	st->ib_mask = small ? 7 : 63;
	st->ib_off = small ? offsetof(struct io_warp, ib8) : offsetof(struct io_warp, ib64);
	/* from the simulation's cache-line-aligned mapping, freed with it;
	 * warp_start clears a warp's state when it launches */
	st->w = iw_sim_alloc(sm->sim, (size_t)st->cfg->max_warps, sizeof *st->w);
	if (!st->w) {
		iw_free(st);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	*state = st;
	return 0;
}

static void io_sm_free(void *p)
{
	struct io_state *st = p;
	iw_free(st);
}

static void io_warp_start(void *p, struct iw_warp *w)
{
	struct io_state *st = p;
	memset(&st->w[w->id], 0, offsetof(struct io_warp, ib64)); /* (a ring holds nothing until written) */
}

static int io_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct io_state *st = p;
	struct io_warp *x = &st->w[w->id];
	if (x->n == st->ib_size)
		return IW_STALL_IB_FULL;
	io_ib(st, x)[(x->head + x->n) & st->ib_mask] = s->id;
	x->n++;
	return x->n == st->ib_size ? IW_INSERT_FULL : 0;
}

static struct iw_slot *io_candidate(void *p, struct iw_warp *w, uint64_t now, int *reason)
{
	struct io_state *st = p;
	struct io_warp *x = &st->w[w->id];
	if (!x->n) {
		*reason = IW_STALL_IB_EMPTY;
		return NULL;
	}
	if (x->bar_pending) {
		*reason = IW_STALL_BARRIER;
		return NULL;
	}
	if (x->ctrl_pending) {
		*reason = IW_STALL_CONTROL;
		return NULL;
	}
	struct iw_slot *s = &w->slots[io_ib(st, x)[x->head]];
	const struct iw_inst *in = &s->in;
	if (iw_sb_raw(&x->sb, in)) {
		*reason = IW_STALL_RAW;
		return NULL;
	}
	if (iw_sb_war_waw(&x->sb, in, st->cfg->war_scoreboard)) {
		*reason = IW_STALL_WAR_WAW;
		return NULL;
	}
	/* Predicates are scoreboarded like registers: a predicated branch waits
	 * for the compare before it (the trace does not name predicate registers). */
	if ((in->flags & IW_F_PRED_BRANCH) && x->pred_pending) {
		*reason = IW_STALL_RAW;
		return NULL;
	}
	if ((in->flags & (IW_F_MEMBAR | IW_F_BARRIER)) && x->mem_inflight) {
		*reason = IW_STALL_MEM_ORDER;
		return NULL;
	}
	/* In-order issue alone would let a memory instruction go while the
	 * fence before it still executes; every other scheme holds it until the
	 * fence completes (SOCGPU's memory rule on the fence's entry, GhOST's
	 * and LOOG's pending barrier/fence), and the baseline keeps the rules
	 * they share. */
	if (iw_is_mem(in) && x->fence_pending) {
		*reason = IW_STALL_MEM_ORDER;
		return NULL;
	}
	return s;
}

static void io_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct io_state *st = p;
	struct io_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	IW_ASSERT(x->n && io_ib(st, x)[x->head] == s->id);
	x->head = (uint8_t)((x->head + 1) & st->ib_mask);
	x->n--;
	iw_count(st->sim, IW_A_IB_READ, 1);
	iw_count(st->sim, IW_A_SB_CHECK, 1);
	iw_sb_reserve(st->sim, &x->sb, in, st->cfg->war_scoreboard);
	if (in->flags & IW_F_CONTROL)
		x->ctrl_pending++;
	if (in->flags & IW_F_SETS_PRED)
		x->pred_pending++;
	if (in->flags & IW_F_BARRIER)
		x->bar_pending++;
	if (in->flags & IW_F_MEMBAR)
		x->fence_pending++;
	if (in->unit == IW_UNIT_MEM)
		x->mem_inflight++;
}

static int io_writeback(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct io_state *st = p;
	struct io_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	iw_sb_release(st->sim, &x->sb, in, st->cfg->war_scoreboard);
	if (in->flags & IW_F_CONTROL)
		x->ctrl_pending--;
	if (in->flags & IW_F_SETS_PRED)
		x->pred_pending--;
	if (in->flags & IW_F_BARRIER)
		x->bar_pending--;
	if (in->flags & IW_F_MEMBAR)
		x->fence_pending--;
	if (in->unit == IW_UNIT_MEM)
		x->mem_inflight--;
	return in->ndst;
}

const struct iw_scheme_ops iw_scheme_inorder = {
	.name = "inorder",
	.help = "in-order baseline: IB of inorder.ib_size, oldest only, scoreboard (+WAR scoreboard)",
	.window = io_window,
	.sm_new = io_sm_new,
	.sm_free = io_sm_free,
	.warp_start = io_warp_start,
	.insert = io_insert,
	.candidate = io_candidate,
	.candidate_cacheable = 2, /* its state changes only at insert, issue, write-back */
	.in_order = 1,            /* only the IB head is ever a candidate */
	.insert_until_issue = 1,  /* IB entries free at issue */
	.issue = io_issue,
	.writeback = io_writeback,
	.frees_addresses_at_dispatch = 1, /* no memory disambiguation */
};
