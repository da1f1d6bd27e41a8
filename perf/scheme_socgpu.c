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

#include <string.h>

enum { DEP_WARWAW, DEP_RAW, DEP_STOP, DEP_MEM, DEP_NONE };

struct sg_warp {
	uint64_t valid, issued;
	uint64_t row[64];
	uint16_t slot[64];      /* slot id of each entry */
	/* in flight after release (release_at = operands only) */
	struct iw_scoreboard sb; /* destinations only: the matrix orders WAR */
	uint16_t ctrl, bar, fence, mem, pred;
};

struct sg_state {
	const struct iw_config *cfg;
	struct iw_sim *sim;
	struct sg_warp *w;
	int n;                  /* entries per warp */
	int release_operands;
};

static inline int is_ld(const struct iw_inst *in) { return iw_is_mem(in) && (in->flags & (IW_F_LOAD | IW_F_ATOMIC)); }
static inline int is_st(const struct iw_inst *in) { return iw_is_mem(in) && (in->flags & (IW_F_STORE | IW_F_ATOMIC)); }

/* Class of the dependence of A on the older P, DEP_NONE if independent.
 * Order of the tests decides how a pair with several reasons is counted. */
static int dep_class(const struct iw_inst *a, const struct iw_inst *p)
{
	if (iw_regs_meet(a->src, a->nsrc, p->dst, p->ndst))
		return DEP_RAW;
	if (iw_regs_meet(a->dst, a->ndst, p->src, p->nsrc) || iw_regs_meet(a->dst, a->ndst, p->dst, p->ndst))
		return DEP_WARWAW;
	if ((iw_is_mem(a) && (p->flags & (IW_F_BARRIER | IW_F_MEMBAR))) || (is_st(a) && (is_ld(p) || is_st(p))) ||
	    (is_ld(a) && is_st(p)) || ((a->flags & (IW_F_BARRIER | IW_F_MEMBAR)) && iw_is_mem(p)))
		return DEP_MEM;
	if (iw_is_ctrl(a) || iw_is_ctrl(p) || (p->flags & IW_F_BARRIER))
		return DEP_STOP;
	return DEP_NONE;
}

static uint32_t sg_window(const struct iw_config *c) { return (uint32_t)c->socgpu_ib_size; }

static int sg_sm_new(struct iw_sm *sm, void **state, struct iw_err *e)
{
	struct sg_state *st = iw_calloc(1, sizeof *st);
	if (!st)
		return iw_fail(e, IW_ERUN, "out of memory");
	st->cfg = sm->sim->cfg;
	st->sim = sm->sim;
	st->n = st->cfg->socgpu_ib_size;
	st->release_operands = st->cfg->socgpu_release_at == 1;
	st->w = iw_calloc((size_t)st->cfg->max_warps, sizeof *st->w);
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
	iw_free(st->w);
	iw_free(st);
}

static void sg_warp_start(void *p, struct iw_warp *w)
{
	struct sg_state *st = p;
	memset(&st->w[w->id], 0, sizeof st->w[w->id]);
}

static int sg_insert(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	struct sg_warp *x = &st->w[w->id];
	uint64_t all = st->n == 64 ? ~0ull : (1ull << st->n) - 1;
	uint64_t freem = ~x->valid & all;
	if (!freem)
		return IW_STALL_IB_FULL;
	int e = __builtin_ctzll(freem);
	uint64_t row = 0;
	struct iw_counters *cnt = &st->sim->res->cnt;
	for (uint64_t m = x->valid; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		/* every valid entry is older: entries live from insert (in order)
		 * until write-back, and s is the youngest fetched */
		int k = dep_class(&s->in, &w->slots[x->slot[q]].in);
		if (k != DEP_NONE) {
			row |= 1ull << q;
			cnt->deps_found[k]++;
		}
	}
	x->row[e] = row;
	x->slot[e] = s->id;
	x->valid |= 1ull << e;
	x->issued &= ~(1ull << e);
	s->aux[0] = (uint64_t)e;
	iw_count(st->sim, IW_A_DM_ROW_WRITE, 1);
	/* The ready NOR of each row changes only when the matrix does: count one
	 * evaluation of the warp per change (idle cycles are clock power). */
	iw_count(st->sim, IW_A_DM_READY_EVAL, 1);
	return 0;
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
	for (uint64_t m = waiting; m; m &= m - 1) {
		int e = __builtin_ctzll(m);
		if (x->row[e])
			continue;
		struct iw_slot *s = &w->slots[x->slot[e]];
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
	/* Stall reason: why the oldest waiting entry waits. */
	struct iw_slot *old = NULL;
	int oe = 0;
	for (uint64_t m = waiting; m; m &= m - 1) {
		int e = __builtin_ctzll(m);
		struct iw_slot *s = &w->slots[x->slot[e]];
		if (!old || s->seq < old->seq) {
			old = s;
			oe = e;
		}
	}
	int q = __builtin_ctzll(x->row[oe]);
	const struct iw_inst *pi = &w->slots[x->slot[q]].in;
	*reason = reason_of(dep_class(&old->in, pi), pi);
	return NULL;
}

static void sg_issue(void *p, struct iw_warp *w, struct iw_slot *s, uint64_t now)
{
	struct sg_state *st = p;
	struct sg_warp *x = &st->w[w->id];
	x->issued |= 1ull << s->aux[0];
	iw_count(st->sim, IW_A_IB_READ, 1);
}

static void release(struct sg_state *st, struct sg_warp *x, struct iw_slot *s, uint64_t now)
{
	int e = (int)s->aux[0];
	uint64_t keep = ~(1ull << e);
	x->valid &= keep;
	x->issued &= keep;
	for (uint64_t m = x->valid; m; m &= m - 1) {
		int q = __builtin_ctzll(m);
		x->row[q] &= keep;
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
	release(st, x, s, now);
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
		release(st, x, s, now);
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
	.candidate_cacheable = 1, /* the matrix changes only at the warp's own events */
	.candidate = sg_candidate,
	.issue = sg_issue,
	.operands_read = sg_operands_read,
	.writeback = sg_writeback,
};
