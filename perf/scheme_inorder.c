/*
 * perf/scheme_inorder.c -- the in-order baseline (SCHEMES.md section 2):
 * Accel-Sim's per-warp instruction buffer of ib_size entries, of which only
 * the oldest is a candidate, and a scoreboard that reserves destinations at
 * issue and releases them at write-back (RAW, WAW).  With war_scoreboard (on
 * by default, as the SOCGPU evaluation added) sources are marked at issue and
 * cleared at write-back, blocking the WAR hazards operand collectors make
 * possible.  Common rules every scheme keeps: nothing issues past an
 * unresolved control instruction; a barrier blocks the warp until the CTA
 * passes it; a memory fence waits for the warp's memory operations.
 */
#include "sim.h"

#include <string.h>

struct io_warp {
	uint16_t ib[64];
	uint8_t head, n;
	uint16_t ctrl_pending, bar_pending, mem_inflight;
	uint16_t pred_pending; /* compares whose predicate is not yet written */
	struct iw_scoreboard sb;
};

struct io_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct io_warp *w;
	int ib_size;
};


static uint32_t io_window(const struct iw_config *c) { return (uint32_t)c->inorder_ib_size; }

static int io_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	struct io_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = sm->sim->cfg;
	st->sim = sm->sim;
	st->ib_size = st->cfg->inorder_ib_size;
	/* not zeroed here: warp_start clears a warp's state when it launches,
	 * before anything reads it (an SM's worth is tens of KiB per run) */
	st->w = iw_malloc((size_t)st->cfg->max_warps * sizeof *st->w);
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
	iw_free(st->w);
	iw_free(st);
}

static void io_warp_start(void *p, struct iw_warp *w)
{
	struct io_state *st = p;
	memset(&st->w[w->id], 0, sizeof st->w[w->id]);
}

static int io_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct io_state *st = p;
	struct io_warp *x = &st->w[w->id];
	if (x->n == st->ib_size)
		return IW_STALL_IB_FULL;
	x->ib[(x->head + x->n) % 64] = s->id;
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
	struct iw_slot *s = &w->slots[x->ib[x->head]];
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
	return s;
}

static void io_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct io_state *st = p;
	struct io_warp *x = &st->w[w->id];
	const struct iw_inst *in = &s->in;
	IW_ASSERT(x->n && x->ib[x->head] == s->id);
	x->head = (uint8_t)((x->head + 1) % 64);
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
};
