/* tests/test_sim.c -- SM-model invariants on fixed programs: every instruction
 * retires once, cycles bounded by issue width and by dependence chains, the
 * issue-width bound is approached, fast-forward equals stepping. */
#include "perf.h"
#include "testutil.h"

#include <string.h>

static void small_gpu(struct iw_config *c)
{
	iw_config_defaults(c);
	c->sms = 2;
}

/* A run of `ctas` CTAs of `warps` warps each running prog, SM after SM (the
 * default) or in the cycle-major reference order. */
static int run_prog_in(const struct iw_config *c, const char *scheme, const struct iw_inst *prog, size_t n,
		       uint32_t ctas, uint32_t warps, int cycle_major, struct iw_run_result *r)
{
	struct iw_workload *w;
	struct iw_err e = {0};
	if (iw_program_open("prog", prog, n, ctas, warps, &w, &e))
		return -1;
	struct iw_sim_opts o = {.cfg = c, .scheme = scheme, .cycle_major = cycle_major};
	int rc = iw_simulate(&o, w, r, &e);
	if (rc)
		fprintf(stderr, "simulate: %s\n", e.msg);
	iw_workload_close(w);
	return rc;
}

static int run_prog(const struct iw_config *c, const char *scheme, const struct iw_inst *prog, size_t n,
		    uint32_t ctas, uint32_t warps, struct iw_run_result *r)
{
	return run_prog_in(c, scheme, prog, n, ctas, warps, 0, r);
}

/* A chain of N dependent instructions of latency L takes at least N x L cycles. */
static void dependent_chain_takes_n_times_latency(void)
{
	struct iw_config c;
	small_gpu(&c);
	enum { N = 200 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++)
		prog[i] = tu_op(IW_UNIT_SP, 1 + (i + 1) % 2, 1 + i % 2, -1);
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 1, 1, &r), 0);
	CU_ASSERT_EQUAL(r.warp_insts, N);
	CU_ASSERT(r.cycles >= (uint64_t)N * (uint64_t)c.latency[IW_UNIT_SP]);
	/* and not much more: each link costs latency plus a few pipeline cycles */
	CU_ASSERT(r.cycles <= (uint64_t)N * (uint64_t)(c.latency[IW_UNIT_SP] + 6));
	iw_run_result_free(&r);
}

/* Independent instructions at full occupancy approach the issue-width bound. */
static void independent_stream_approaches_issue_width(void)
{
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	/* fully pipelined units, so only the issue width binds */
	c.ii[IW_UNIT_SP] = c.ii[IW_UNIT_INT] = 1;
	enum { N = 400 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++) /* alternate INT and SP so no unit's interval binds */
		prog[i] = tu_op(i % 2 ? IW_UNIT_INT : IW_UNIT_SP, 2 + i % 60, 100 + i % 3, -1);
	struct iw_run_result r;
	uint32_t warps = (uint32_t)c.max_warps / 4;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 4, warps, &r), 0);
	uint64_t total = (uint64_t)N * 4 * warps;
	CU_ASSERT_EQUAL(r.warp_insts, total);
	double bound = (double)total / (double)(c.subcores * c.issue_width);
	CU_ASSERT(r.cycles >= (uint64_t)bound);
	CU_ASSERT((double)r.cycles <= bound * 1.10); /* within 10% of the bound */
	iw_run_result_free(&r);
}

static void fast_forward_equals_stepping(void)
{
	struct iw_config c;
	small_gpu(&c);
	enum { N = 120 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++) {
		prog[i] = tu_op(i % 7 == 0 ? IW_UNIT_MEM : i % 5 == 0 ? IW_UNIT_SFU : IW_UNIT_SP, 2 + i % 9, 2 + (i + 3) % 9,
			     i % 4 ? 2 + (i + 5) % 9 : -1);
		if (prog[i].unit == IW_UNIT_MEM) {
			prog[i].flags = IW_F_LOAD;
			prog[i].space = IW_SPACE_GLOBAL;
			prog[i].mem_level = (uint8_t)(1 + i % 3);
			prog[i].mem_width = 4;
		}
	}
	struct iw_run_result a, b;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 5, 8, &a), 0);
	c.fast_forward = 0;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 5, 8, &b), 0);
	CU_ASSERT_EQUAL(a.cycles, b.cycles);
	CU_ASSERT_EQUAL(a.warp_insts, b.warp_insts);
	CU_ASSERT_EQUAL(memcmp(a.act, b.act, sizeof a.act), 0);
	CU_ASSERT_EQUAL(memcmp(a.cnt.stall, b.cnt.stall, sizeof a.cnt.stall), 0);
	iw_run_result_free(&a);
	iw_run_result_free(&b);
}

/* Every warp-scheduling policy and a dual-issue scheduler keep fast-forward exact,
 * and every policy retires every instruction once. */
static void policies_are_exact_and_complete(void)
{
	enum { N = 90 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++) {
		prog[i] = tu_op(i % 6 == 0 ? IW_UNIT_MEM : i % 4 == 0 ? IW_UNIT_DP : IW_UNIT_SP, 2 + i % 5, 2 + (i + 2) % 5, -1);
		if (prog[i].unit == IW_UNIT_MEM) {
			prog[i].flags = IW_F_LOAD;
			prog[i].space = IW_SPACE_GLOBAL;
			prog[i].mem_level = (uint8_t)(1 + i % 3);
		}
	}
	for (int policy = IW_POLICY_GTO; policy <= IW_POLICY_SRR; policy++)
		for (int width = 1; width <= 2; width++) {
			struct iw_config c;
			small_gpu(&c);
			c.policy = policy;
			c.issue_width = width;
			struct iw_run_result a, b;
			CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 6, 6, &a), 0);
			c.fast_forward = 0;
			CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 6, 6, &b), 0);
			CU_ASSERT_EQUAL(a.warp_insts, (uint64_t)N * 6 * 6);
			CU_ASSERT_EQUAL(a.cycles, b.cycles);
			CU_ASSERT_EQUAL(memcmp(a.cnt.stall, b.cnt.stall, sizeof a.cnt.stall), 0);
			iw_run_result_free(&a);
			iw_run_result_free(&b);
		}
}

/* The stall breakdown accounts for every scheduler-cycle of the run. */
static void stalls_account_for_every_scheduler_cycle(void)
{
	struct iw_config c;
	small_gpu(&c);
	enum { N = 150 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++)
		prog[i] = tu_op(i % 3 ? IW_UNIT_SP : IW_UNIT_SFU, 1 + i % 4, 1 + (i + 1) % 4, -1);
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 3, 4, &r), 0);
	uint64_t stalled = 0;
	for (int k = 0; k < IW_STALL_COUNT; k++)
		stalled += r.cnt.stall[k];
	uint64_t sched_cycles = r.cycles * (uint64_t)(c.sms * c.subcores);
	/* each scheduler-cycle either issued or has exactly one reason */
	CU_ASSERT(stalled <= sched_cycles);
	CU_ASSERT(stalled + r.warp_insts >= sched_cycles);
	iw_run_result_free(&r);
}

/* A kernel lasts as long as its slowest SM; the mean SM busy time is the
 * GPU's throughput.  Five equal CTAs on four SMs that hold one CTA each: the
 * kernel takes two CTA times, while the SMs are busy five CTA times in all,
 * 1.25 on average.  Four CTAs keep every SM busy for the whole kernel.  The
 * SM-major and the cycle-major orders, and stepping, agree. */
static void sm_busy_mean_is_the_throughput_without_the_tail(void)
{
	enum { N = 100 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++) /* a dependent chain: every CTA takes the same time */
		prog[i] = tu_op(IW_UNIT_SP, 1 + (i + 1) % 2, 1 + i % 2, -1);
	struct iw_config c;
	small_gpu(&c);
	c.sms = 4;
	c.max_ctas = 1;
	struct iw_run_result r4, r5, rc, rs;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 4, 1, &r4), 0);
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 5, 1, &r5), 0);
	double t = r4.sm_busy_mean; /* one CTA time */
	CU_ASSERT(t > 0.95 * (double)r4.cycles && t <= (double)r4.cycles);
	CU_ASSERT(r5.cycles > 1.9 * t);
	CU_ASSERT_DOUBLE_EQUAL(r5.sm_busy_mean / t, 1.25, 0.02);
	CU_ASSERT_EQUAL_FATAL(run_prog_in(&c, "inorder", prog, N, 5, 1, 1, &rc), 0);
	CU_ASSERT_EQUAL(rc.sm_busy_mean, r5.sm_busy_mean);
	c.fast_forward = 0;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 5, 1, &rs), 0);
	CU_ASSERT_EQUAL(rs.sm_busy_mean, r5.sm_busy_mean);
	iw_run_result_free(&r4);
	iw_run_result_free(&r5);
	iw_run_result_free(&rc);
	iw_run_result_free(&rs);
}

/* The limit study selects per port, as out-of-order select logic does: while
 * the one SFU is busy (a new warp every 8 cycles), a warp's younger
 * independent INT instructions issue.  One warp, blocks of 8 SFU and 24 INT
 * instructions: in order, a block's SFU ones issue 8 cycles apart, then its
 * INT ones, about 7 x 8 + 24 = 80 cycles a block (633 in all); ideal hides
 * the INT ones under the SFU's intervals and approaches the SFU bound, 63 x 8
 * = 504 cycles between the first and the last of the 64 SFU instructions
 * (531).  Taking the oldest ready instruction whatever its unit, it stalled
 * on the busy SFU as in order does. */
static void ideal_issues_around_a_busy_unit(void)
{
	enum { BLOCKS = 8, N = BLOCKS * 32 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++) /* no dependences: register 250 is never written */
		prog[i] = tu_op(i % 32 < 8 ? IW_UNIT_SFU : IW_UNIT_INT, 2 + i % 120, 250, -1);
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	c.ii[IW_UNIT_SFU] = 8;
	c.ii[IW_UNIT_INT] = 1;
	struct iw_run_result io, id;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 1, 1, &io), 0);
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "ideal", prog, N, 1, 1, &id), 0);
	CU_ASSERT(io.cycles >= 0.95 * BLOCKS * 80);
	CU_ASSERT(id.cycles >= 63 * 8);
	CU_ASSERT(id.cycles <= 1.1 * 63 * 8);
	CU_ASSERT(id.cycles < 0.9 * (double)io.cycles);
	iw_run_result_free(&io);
	iw_run_result_free(&id);
}

/* A reduction (RED: an atomic whose result is unused) leaves the SM with its
 * data, as a store does; an atomic with a result (ATOM) waits for L2.  Each
 * pair below is an L2 access reading R3 and then an IADD overwriting R3: with
 * the WAR scoreboard the IADD waits for the access to complete, so 40 pairs
 * of ATOM take at least 40 L2 round trips (193 cycles each), and 40 of RED
 * only their pipeline.  Both orders of simulation agree (SM after SM, a RED
 * is queued for L2 like any access that leaves the SM and served at the
 * span's end, with nobody waiting for it). */
static void reductions_do_not_wait_for_l2(void)
{
	enum { PAIRS = 40, N = 2 * PAIRS };
	struct iw_inst red[N], atom[N];
	for (int i = 0; i < PAIRS; i++) {
		red[2 * i] = tu_op(IW_UNIT_MEM, -1, 2, 3); /* RED [R2], R3 */
		red[2 * i].flags = IW_F_STORE | IW_F_ATOMIC;
		red[2 * i].space = IW_SPACE_GLOBAL;
		red[2 * i].mem_level = 2;
		red[2 * i].mem_width = 4;
		atom[2 * i] = red[2 * i]; /* ATOM R5, [R2], R3 */
		atom[2 * i].flags = IW_F_LOAD | IW_F_STORE | IW_F_ATOMIC;
		atom[2 * i].dst[0] = 5;
		atom[2 * i].ndst = 1;
		red[2 * i + 1] = atom[2 * i + 1] = tu_op(IW_UNIT_INT, 3, 4, -1); /* IADD R3, R4 */
	}
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	CU_ASSERT_FATAL(c.war_scoreboard);
	struct iw_run_result r, a, rc;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", red, N, 1, 1, &r), 0);
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", atom, N, 1, 1, &a), 0);
	CU_ASSERT_EQUAL(r.warp_insts, N);
	CU_ASSERT_EQUAL(a.warp_insts, N);
	CU_ASSERT(a.cycles >= (uint64_t)PAIRS * (uint64_t)c.l2_latency);
	CU_ASSERT(r.cycles < (uint64_t)c.l2_latency + (uint64_t)PAIRS * 16);
	/* the L2 saw every reduction */
	CU_ASSERT_EQUAL(r.act[IW_A_L2_ACCESS], a.act[IW_A_L2_ACCESS]);
	CU_ASSERT(r.act[IW_A_L2_ACCESS] >= PAIRS);
	CU_ASSERT_EQUAL_FATAL(run_prog_in(&c, "inorder", red, N, 1, 1, 1, &rc), 0);
	CU_ASSERT_EQUAL(rc.cycles, r.cycles);
	CU_ASSERT_EQUAL(memcmp(rc.act, r.act, sizeof r.act), 0);
	iw_run_result_free(&r);
	iw_run_result_free(&a);
	iw_run_result_free(&rc);
}

void suite_sim(void)
{
	TU_SUITE("sim", {"dependent_chain_takes_n_times_latency", dependent_chain_takes_n_times_latency},
		 {"independent_stream_approaches_issue_width", independent_stream_approaches_issue_width},
		 {"fast_forward_equals_stepping", fast_forward_equals_stepping},
		 {"policies_are_exact_and_complete", policies_are_exact_and_complete},
		 {"stalls_account_for_every_scheduler_cycle", stalls_account_for_every_scheduler_cycle},
		 {"sm_busy_mean_is_the_throughput_without_the_tail", sm_busy_mean_is_the_throughput_without_the_tail},
		 {"ideal_issues_around_a_busy_unit", ideal_issues_around_a_busy_unit},
		 {"reductions_do_not_wait_for_l2", reductions_do_not_wait_for_l2});
}
