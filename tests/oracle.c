/* tests/oracle.c -- see oracle.h.  The oracle rebuilds program order from the
 * INSERT events (in order per warp in every scheme), derives each source's
 * producer (the latest older writer), keeps a versioned copy of each warp's
 * architectural register file, and checks every later event against the
 * rules.  Events of one cycle arrive in pipeline order (write-back, operand
 * read and dispatch, issue, insert), which the cycle comparisons rely on. */
#include "oracle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { E_INS, E_ISS, E_READ, E_DISP, E_WB, E_RET, E_N };

struct rec {
	struct iw_inst in;
	uint64_t t[E_N];
	uint8_t seen[E_N];
	int64_t prod[IW_MAX_SRC]; /* seq of the producer of each source, -1 none */
	int64_t pred_prod;
	uint8_t from_rf;          /* bit i: source i read from the RF (renaming) */
	uint8_t op_read;          /* bit i: source i's IW_EV_OPERAND seen (renaming) */
	uint8_t released, cu_held, rrs_held;
	uint32_t bar_no;          /* a barrier: its ordinal among the warp's barriers, from 1 */
};

struct owarp {
	int used;
	struct rec *r;
	uint64_t n, cap;          /* inserted */
	uint64_t lo;              /* oldest not retired */
	int64_t last_writer[256], last_issued_writer[256], rf[256], last_pred;
	int buf;
	uint64_t cta;             /* of its instructions */
	uint32_t bars, bars_arrived; /* barriers inserted, dispatched (arrived at) */
};

struct oiss {
	uint64_t t;               /* the cycle */
	int n;                    /* issues in it */
	uint32_t warp;            /* the warp of the first */
	int unit;                 /* the unit class of the last */
};

struct orc {
	struct orc_rules ru;
	struct owarp *w;
	int *cu, *rrs;            /* per (sm, sub-core) */
	uint64_t *wb_t;           /* per (sm, sub-core): the cycle of its last counted write-back, */
	int *wb_n;                /* and how many were counted in it */
	struct oiss *iss;         /* per (sm, sub-core): the issues of its last issuing cycle */
	uint64_t violations, retired;
	char msg[512];
};

_Static_assert((int)E_N == (int)IW_EV_OPERAND && (int)E_RET == (int)IW_EV_RETIRE, "the oracle's kinds are the log's");
static const char *const ev_name[E_N + 1] = {"insert", "issue", "read", "dispatch", "writeback", "retire", "operand"};

static void fail(struct orc *o, const struct iw_event *ev, const char *fmt, ...)
{
	if (o->violations++)
		return;
	char b[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	snprintf(o->msg, sizeof o->msg, "cycle %llu sm %u warp %u seq %llu %s: %s", (unsigned long long)ev->cycle,
		 ev->sm, ev->warp, (unsigned long long)ev->seq, ev->kind <= E_N ? ev_name[ev->kind] : "?", b);
}

static int is_mem(const struct iw_inst *in) { return in->unit == IW_UNIT_MEM && !(in->flags & IW_F_MEMBAR); }
static int plain_load(const struct iw_inst *in) { return (in->flags & IW_F_LOAD) && !(in->flags & (IW_F_STORE | IW_F_ATOMIC)); }
static int is_ctrl(const struct iw_inst *in) { return (in->flags & (IW_F_CONTROL | IW_F_RETURN)) != 0; }
static int has_tag(const struct iw_inst *in) { return in->ndst || (in->flags & IW_F_SETS_PRED); }

/* GhOST-Precise's definition: a store, an atomic, or an instruction that
 * overwrites one of its own sources. */
static int non_idempotent(const struct iw_inst *in)
{
	if (in->flags & (IW_F_STORE | IW_F_ATOMIC))
		return 1;
	for (int i = 0; i < in->ndst; i++)
		for (int j = 0; j < in->nsrc; j++)
			if (in->dst[i] == in->src[j])
				return 1;
	return 0;
}

int orc_rules_for(const char *s, const struct iw_config *c, struct orc_rules *r)
{
	memset(r, 0, sizeof *r);
	r->subcores = c->subcores;
	r->sms = c->sms;
	r->max_warps = c->max_warps;
	r->control = 1;
	r->pred = 1;
	r->cu_cap = c->cus;
	r->wb_cap = c->wb_width;
	r->issue_width = c->issue_width;
	r->issue_diff_units = c->dual_issue_diff_units;
	if (!strcmp(s, "inorder")) {
		r->war = c->war_scoreboard;
		r->buf_cap = c->inorder_ib_size;
		r->buf_release = ORC_AT_ISSUE;
	} else if (!strcmp(s, "socgpu")) {
		r->war = 1;
		r->buf_cap = c->socgpu_ib_size;
		r->buf_release = c->socgpu_release_at ? ORC_AT_READ : ORC_AT_WB;
		r->ctrl_waits_older = 1;
	} else if (!strcmp(s, "ghost")) {
		r->war = c->war_scoreboard;
		r->buf_cap = c->ghost_ib_size + c->ghost_isb_size;
		r->buf_release = ORC_AT_ISSUE;
		r->loads_in_order = c->ghost_precise;
		r->tlb_latency = c->ghost_precise ? c->ghost_tlb_check_latency : 0;
	} else if (!strcmp(s, "loog")) {
		r->renaming = 1;
		r->order_at_dispatch = 1;
		r->mem_disambig = c->loog_mem == 0;
		r->loads_in_order = c->loog_mem != 0; /* inorder: no load passes a load either */
		r->buf_cap = c->loog_ib_size;
		r->buf_release = ORC_AT_ISSUE;
		r->cu_cap = c->loog_cus;
		r->rrs_cap = c->loog_rrs ? c->loog_rrs : (int)(c->loog_rrs_factor * c->loog_cus + 0.5);
		r->cu_hold_wb = r->rrs_cap == 0;
		r->wb_cap = c->loog_broadcasts;
		r->wb_results_only = 1;
	} else if (!strcmp(s, "ideal")) {
		r->renaming = c->ideal_renaming ? 2 : 0;
		r->war = !c->ideal_renaming;
		r->control = !c->ideal_fetch_through_control;
		r->mem_disambig = c->ideal_disambiguation;
		r->buf_cap = c->ideal_window;
		r->buf_release = ORC_AT_WB;
		r->cu_cap = c->cus > c->loog_cus ? c->cus : c->loog_cus;
	} else {
		return -1;
	}
	return 0;
}

struct orc *orc_new(const struct orc_rules *r)
{
	struct orc *o = calloc(1, sizeof *o);
	o->ru = *r;
	o->w = calloc((size_t)r->sms * (size_t)r->max_warps, sizeof *o->w);
	o->cu = calloc((size_t)r->sms * (size_t)r->subcores, sizeof *o->cu);
	o->rrs = calloc((size_t)r->sms * (size_t)r->subcores, sizeof *o->rrs);
	o->wb_t = calloc((size_t)r->sms * (size_t)r->subcores, sizeof *o->wb_t);
	o->wb_n = calloc((size_t)r->sms * (size_t)r->subcores, sizeof *o->wb_n);
	o->iss = calloc((size_t)r->sms * (size_t)r->subcores, sizeof *o->iss);
	return o;
}

void orc_free(struct orc *o)
{
	if (!o)
		return;
	for (int i = 0; i < o->ru.sms * o->ru.max_warps; i++)
		free(o->w[i].r);
	free(o->w);
	free(o->cu);
	free(o->rrs);
	free(o->wb_t);
	free(o->wb_n);
	free(o->iss);
	free(o);
}

static void warp_reset(struct owarp *w)
{
	w->used = 1;
	w->n = w->lo = 0;
	w->buf = 0;
	w->bars = w->bars_arrived = 0;
	w->last_pred = -1;
	for (int i = 0; i < 256; i++) {
		w->last_writer[i] = w->last_issued_writer[i] = w->rf[i] = -1;
	}
}

static void release_buf(struct orc *o, struct owarp *w, struct rec *r)
{
	if (!r->released) {
		r->released = 1;
		w->buf--;
	}
}

/* Must the younger a keep its order after the older p (memory rules)? */
static int mem_conflict(const struct orc *o, const struct iw_inst *a, const struct iw_inst *p)
{
	if (!is_mem(a) || !is_mem(p))
		return 0;
	if (plain_load(a) && plain_load(p) && !o->ru.loads_in_order)
		return 0;
	if (o->ru.mem_disambig && a->maddr != IW_MADDR_NONE && p->maddr != IW_MADDR_NONE)
		return 0; /* addresses not in the log: the scheme may have proved them disjoint */
	return 1;
}

static void check_order(struct orc *o, struct owarp *w, struct rec *r, const struct iw_event *ev, int at)
{
	uint64_t seq = ev->seq;
	for (uint64_t q = w->lo; q < seq; q++) {
		struct rec *p = &w->r[q];
		if (p->seen[E_RET])
			continue;
		if (mem_conflict(o, &r->in, &p->in) && !p->seen[at])
			fail(o, ev, "memory instruction passes the older memory instruction %llu", (unsigned long long)q);
	}
}

/* IW_EV_OPERAND: r read register ev->sub from the RF.  In that cycle the RF
 * must hold the value of the source's producer: not an older one (RAW), not
 * a younger one (WAR); the cycle's write-backs come before it in the log, as
 * a read sees them. */
static void operand_read(struct orc *o, struct owarp *w, struct rec *r, const struct iw_event *ev)
{
	const struct iw_inst *in = &r->in;
	if (!r->seen[E_ISS] || r->t[E_ISS] >= ev->cycle)
		fail(o, ev, "R%u read before the cycle after issue", ev->sub);
	if (r->seen[E_READ])
		fail(o, ev, "R%u read after the instruction's last operand read", ev->sub);
	int found = 0;
	for (int i = 0; i < in->nsrc; i++) {
		if (in->src[i] != ev->sub)
			continue;
		found = 1;
		int64_t pq = r->prod[i], have = w->rf[ev->sub];
		if (o->ru.renaming == 1 && !(r->from_rf >> i & 1))
			fail(o, ev, "R%u read from the RF, but its producer %lld had not written back at issue "
				    "(the value comes by broadcast)", ev->sub, (long long)pq);
		else if (have < pq)
			fail(o, ev, "R%u read before its producer %lld wrote it (RF holds %lld)", ev->sub, (long long)pq,
			     (long long)have);
		else if (have > pq)
			fail(o, ev, "R%u read after the younger instruction %lld overwrote it (WAR)", ev->sub,
			     (long long)have);
		r->op_read |= (uint8_t)(1u << i);
	}
	if (!found)
		fail(o, ev, "R%u read, which is not a source", ev->sub);
}

/* A barrier's write-back is the CTA passing it: every other warp of the CTA
 * (same SM and CTA id) must have arrived at (dispatched) its barrier of the
 * same ordinal, unless it has nothing left in flight (a warp that exited no
 * longer counts; one that retired all it fetched so far is let off too). */
static void barrier_passed(struct orc *o, const struct owarp *w, const struct rec *r, const struct iw_event *ev)
{
	const struct owarp *sm = &o->w[ev->sm * (uint32_t)o->ru.max_warps];
	for (int i = 0; i < o->ru.max_warps; i++) {
		const struct owarp *u = &sm[i];
		if (u != w && u->used && u->cta == w->cta && u->bars_arrived < r->bar_no && u->lo < u->n)
			fail(o, ev, "barrier %u passed before warp %d of the CTA arrived at it", r->bar_no, i);
	}
}

void orc_event(void *ctx, const struct iw_event *ev)
{
	struct orc *o = ctx;
	const struct orc_rules *ru = &o->ru;
	if (ev->sm >= (uint32_t)ru->sms || ev->warp >= (uint32_t)ru->max_warps) {
		fail(o, ev, "warp outside the configuration");
		return;
	}
	struct owarp *w = &o->w[ev->sm * (uint32_t)ru->max_warps + ev->warp];
	int sci = (int)(ev->sm * (uint32_t)ru->subcores + ev->warp % (uint32_t)ru->subcores);
	int k = ev->kind;
	if (k == E_INS) {
		if (ev->seq == 0) {
			if (w->used && w->lo != w->n)
				fail(o, ev, "warp restarted with %llu instructions not retired",
				     (unsigned long long)(w->n - w->lo));
			warp_reset(w);
			w->cta = ev->cta;
		}
		if (ev->seq != w->n) {
			fail(o, ev, "inserted out of program order (expected seq %llu)", (unsigned long long)w->n);
			return;
		}
		if (w->n == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 256;
			w->r = realloc(w->r, w->cap * sizeof *w->r);
		}
		struct rec *r = &w->r[w->n++];
		memset(r, 0, sizeof *r);
		r->in = *ev->inst;
		for (int i = 0; i < r->in.nsrc; i++)
			r->prod[i] = w->last_writer[r->in.src[i]];
		r->pred_prod = (r->in.flags & IW_F_PRED_BRANCH) ? w->last_pred : -1;
		for (int i = 0; i < r->in.ndst; i++)
			w->last_writer[r->in.dst[i]] = (int64_t)ev->seq;
		if (r->in.flags & IW_F_SETS_PRED)
			w->last_pred = (int64_t)ev->seq;
		if (r->in.flags & IW_F_BARRIER)
			r->bar_no = ++w->bars;
		if (++w->buf > ru->buf_cap)
			fail(o, ev, "%d instructions held, capacity %d", w->buf, ru->buf_cap);
		r->seen[E_INS] = 1;
		r->t[E_INS] = ev->cycle;
		return;
	}
	if (!w->used || ev->seq >= w->n) {
		fail(o, ev, "event for an instruction never inserted");
		return;
	}
	struct rec *r = &w->r[ev->seq];
	if (k == IW_EV_OPERAND) {
		operand_read(o, w, r, ev);
		return;
	}
	if (k >= E_N) {
		fail(o, ev, "unknown event kind %d", k);
		return;
	}
	if (r->seen[k]++)
		fail(o, ev, "second %s", ev_name[k]);
	r->t[k] = ev->cycle;
	const struct iw_inst *in = &r->in;
	int order_at = ru->order_at_dispatch ? E_DISP : E_ISS;
	switch (k) {
	case E_ISS:
		if (!r->seen[E_INS] || r->t[E_INS] > ev->cycle)
			fail(o, ev, "issued before insertion");
		/* a scheduler issues from one warp a cycle, at most issue_width,
		 * each later one to another unit class than the one before when
		 * dual issue takes different units (GPGPU-Sim's scheduler) */
		{
			struct oiss *is = &o->iss[sci];
			if (is->n && is->t == ev->cycle) {
				if (++is->n > ru->issue_width)
					fail(o, ev, "%d issues in the scheduler's cycle, %d allowed", is->n, ru->issue_width);
				if (is->warp != ev->warp)
					fail(o, ev, "issued in the cycle warp %u issued in: one warp a cycle", is->warp);
				if (ru->issue_diff_units && is->unit == in->unit)
					fail(o, ev, "a second issue to unit class %d in the cycle", in->unit);
			} else {
				is->t = ev->cycle;
				is->n = 1;
				is->warp = ev->warp;
			}
			is->unit = in->unit;
		}
		for (uint64_t q = w->lo; q < ev->seq; q++) {
			struct rec *p = &w->r[q];
			if (p->seen[E_WB])
				continue;
			if (ru->control && is_ctrl(&p->in))
				fail(o, ev, "issued past the unresolved control instruction %llu", (unsigned long long)q);
			if (ru->ctrl_waits_older && is_ctrl(in) && !p->released)
				fail(o, ev, "control instruction issued before the older %llu left the buffer",
				     (unsigned long long)q);
			if (p->in.flags & IW_F_BARRIER)
				fail(o, ev, "issued past the barrier %llu before the CTA passed it", (unsigned long long)q);
			/* a fence issues after every older memory instruction completed;
			 * younger memory instructions issue after it completed */
			if ((p->in.flags & IW_F_MEMBAR) && is_mem(in))
				fail(o, ev, "memory instruction issued before the fence %llu completed", (unsigned long long)q);
			if ((in->flags & (IW_F_BARRIER | IW_F_MEMBAR)) && is_mem(&p->in))
				fail(o, ev, "barrier/fence issued before the older memory instruction %llu completed",
				     (unsigned long long)q);
		}
		if (ru->tlb_latency && non_idempotent(in))
			for (uint64_t q = w->lo; q < ev->seq; q++) {
				struct rec *p = &w->r[q];
				if ((p->in.flags & IW_F_LOAD) &&
				    (!p->seen[E_ISS] || p->t[E_ISS] + (uint64_t)ru->tlb_latency > ev->cycle))
					fail(o, ev, "non-idempotent instruction issued before load %llu passed its TLB check",
					     (unsigned long long)q);
			}
		if (order_at == E_ISS)
			check_order(o, w, r, ev, E_ISS);
		if (++o->cu[sci] > ru->cu_cap)
			fail(o, ev, "%d collector units busy, capacity %d", o->cu[sci], ru->cu_cap);
		r->cu_held = 1;
		if (ru->rrs_cap && has_tag(in)) {
			r->rrs_held = 1;
			if (++o->rrs[sci] > ru->rrs_cap)
				fail(o, ev, "%d RRS entries busy, capacity %d", o->rrs[sci], ru->rrs_cap);
		}
		if (ru->renaming == 1) {
			/* the RAT names a producer that has not written back: the operand comes
			 * by broadcast; otherwise from the RF */
			for (int i = 0; i < in->nsrc; i++) {
				int64_t pq = r->prod[i];
				if (pq < 0 || w->r[pq].seen[E_WB])
					r->from_rf |= (uint8_t)(1u << i);
			}
			for (int i = 0; i < in->ndst; i++)
				w->last_issued_writer[in->dst[i]] = (int64_t)ev->seq;
		}
		/* (with nothing to read, operands are read at issue) */
		if (ru->buf_release == ORC_AT_ISSUE || (ru->buf_release == ORC_AT_READ && !in->nsrc))
			release_buf(o, w, r);
		break;
	case E_READ:
		if (!r->seen[E_ISS] || r->t[E_ISS] >= ev->cycle)
			fail(o, ev, "operands read before the cycle after issue");
		for (int i = 0; i < in->nsrc; i++) {
			int64_t pq = r->prod[i], have = w->rf[in->src[i]];
			if (ru->renaming == 2 || (ru->renaming == 1 && !(r->from_rf >> i & 1)))
				continue;
			/* Under LOOG each read was checked in its own cycle
			 * (operand_read): its WAR guard lets a younger result in
			 * once the register itself was read, so the last read's
			 * cycle says nothing about the others.  A scoreboard's WAR
			 * guard holds the younger result until all the reads are
			 * done: the RF must still hold every source's value here. */
			if (ru->renaming == 1) {
				if (!(r->op_read >> i & 1))
					fail(o, ev, "R%u never read from the RF (its producer %lld had written back at issue)",
					     in->src[i], (long long)pq);
			} else if (have < pq) {
				fail(o, ev, "R%u read before its producer %lld wrote it (RF holds %lld)", in->src[i],
				     (long long)pq, (long long)have);
			} else if (have != pq && ru->war) {
				fail(o, ev, "R%u read after the younger instruction %lld overwrote it (WAR)", in->src[i],
				     (long long)have);
			}
		}
		if (ru->buf_release == ORC_AT_READ)
			release_buf(o, w, r);
		break;
	case E_DISP:
		if (!r->seen[E_ISS] || r->t[E_ISS] >= ev->cycle)
			fail(o, ev, "dispatched before the cycle after issue");
		for (int i = 0; i < in->nsrc; i++) {
			int64_t pq = r->prod[i];
			if (pq >= 0 && (!w->r[pq].seen[E_WB] || w->r[pq].t[E_WB] >= ev->cycle))
				fail(o, ev, "RAW: R%u's producer %lld has not written back", in->src[i], (long long)pq);
		}
		if (ru->pred && r->pred_prod >= 0 &&
		    (!w->r[r->pred_prod].seen[E_WB] || w->r[r->pred_prod].t[E_WB] >= ev->cycle))
			fail(o, ev, "predicated branch before its compare %lld wrote back", (long long)r->pred_prod);
		if (order_at == E_DISP)
			check_order(o, w, r, ev, E_DISP);
		if (in->flags & IW_F_BARRIER)
			w->bars_arrived++;
		if (r->cu_held && !(ru->cu_hold_wb && has_tag(in))) {
			r->cu_held = 0;
			o->cu[sci]--;
		}
		break;
	case E_WB:
		if (!r->seen[E_DISP] || r->t[E_DISP] > ev->cycle)
			fail(o, ev, "written back before dispatch");
		if (in->flags & IW_F_BARRIER)
			barrier_passed(o, w, r, ev);
		if (!ru->wb_results_only || has_tag(in)) {
			if (o->wb_t[sci] != ev->cycle) {
				o->wb_t[sci] = ev->cycle;
				o->wb_n[sci] = 0;
			}
			if (++o->wb_n[sci] > ru->wb_cap)
				fail(o, ev, "%d write-backs in the sub-core's cycle, %d allowed", o->wb_n[sci], ru->wb_cap);
		}
		for (int i = 0; i < in->ndst; i++) {
			uint16_t d = in->dst[i];
			if (ru->renaming == 1) {
				if (w->last_issued_writer[d] == (int64_t)ev->seq)
					w->rf[d] = (int64_t)ev->seq;
			} else if (ru->renaming == 0) {
				if (w->rf[d] > (int64_t)ev->seq)
					fail(o, ev, "WAW: R%u already holds the younger %lld", d, (long long)w->rf[d]);
				else
					w->rf[d] = (int64_t)ev->seq;
			}
		}
		release_buf(o, w, r);
		if (r->cu_held) {
			r->cu_held = 0;
			o->cu[sci]--;
		}
		if (r->rrs_held) {
			r->rrs_held = 0;
			o->rrs[sci]--;
		}
		break;
	case E_RET:
		if (!r->seen[E_WB] || !r->seen[E_DISP] || !r->seen[E_ISS])
			fail(o, ev, "retired without issue, dispatch and write-back");
		o->retired++;
		while (w->lo < w->n && w->r[w->lo].seen[E_RET])
			w->lo++;
		break;
	default:
		break;
	}
}

uint64_t orc_finish(struct orc *o, uint64_t *retired, char *msg, size_t n)
{
	for (int i = 0; i < o->ru.sms * o->ru.max_warps; i++) {
		struct owarp *w = &o->w[i];
		if (!w->used)
			continue;
		for (uint64_t q = 0; q < w->n; q++)
			for (int k = 0; k < E_N; k++)
				if (k != E_READ && w->r[q].seen[k] != 1 && !o->violations++)
					snprintf(o->msg, sizeof o->msg, "sm %d warp %d seq %llu: %s seen %u times", i / o->ru.max_warps,
						 i % o->ru.max_warps, (unsigned long long)q, ev_name[k], w->r[q].seen[k]);
	}
	if (retired)
		*retired = o->retired;
	if (msg && n)
		snprintf(msg, n, "%s", o->msg);
	return o->violations;
}
