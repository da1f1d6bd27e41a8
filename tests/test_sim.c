/* tests/test_sim.c -- SM-model invariants on fixed programs: every instruction
 * retires once, cycles bounded by issue width and by dependence chains, the
 * issue-width bound is approached, fast-forward equals stepping. */
#include "perf.h"
#include "testutil.h"

#include <stdio.h>
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

/* Strict round robin (core.policy=srr) looks at one warp per cycle, whose
 * turn moves on only after an issue (or off a warp that waits at a barrier
 * or has nothing left to issue), as Accel-Sim's "rrr" scheduler that GhOST
 * was evaluated with; loose round robin takes any ready warp.  Two warps in
 * one sub-core run an SFU instruction (one SFU, busy 100 cycles per warp)
 * then K = 40 independent INT ones.  Warp A's SFU instruction issues at
 * cycle 3 (launch 0, fetch 1, decode 2), dispatches at 4 (no operand to
 * read) and holds the unit to 104, so B's issues at 103 (issue looks one
 * cycle ahead).  Under lrr A's INT instructions issue meanwhile and B's
 * issue at 104..143; the last reads its operand at 144, dispatches at 145
 * and writes back at 149 (latency 4): 150 cycles.  Under srr the turn is
 * B's from cycle 4: the scheduler waits on B with A ready, then A and B
 * alternate through 2K INT instructions at 104..183: 190 cycles. */
static void srr_waits_on_the_turn_warp(void)
{
	enum { K = 40 };
	struct iw_inst prog[1 + K];
	prog[0] = tu_op(IW_UNIT_SFU, 2, -1, -1); /* (no operand: it dispatches the cycle after its issue) */
	for (int i = 0; i < K; i++) /* (register 250 is never written) */
		prog[1 + i] = tu_op(IW_UNIT_INT, 10 + i, 250, -1);
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	c.subcores = 1;
	c.ii[IW_UNIT_SFU] = 100;
	c.ii[IW_UNIT_INT] = 1;
	struct iw_run_result lrr, srr, srr_step;
	c.policy = IW_POLICY_LRR;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, 1 + K, 1, 2, &lrr), 0);
	c.policy = IW_POLICY_SRR;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, 1 + K, 1, 2, &srr), 0);
	c.fast_forward = 0;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, 1 + K, 1, 2, &srr_step), 0);
	CU_ASSERT_EQUAL(srr.warp_insts, 2 * (1 + K));
	CU_ASSERT_EQUAL(lrr.cycles, 150);
	CU_ASSERT_EQUAL(srr.cycles, 190);
	/* B's wait is the stall: cycles 4..102 under srr, 44..102 under lrr */
	CU_ASSERT_EQUAL(srr.cnt.stall[IW_STALL_FU_BUSY], 99);
	CU_ASSERT_EQUAL(lrr.cnt.stall[IW_STALL_FU_BUSY], 59);
	CU_ASSERT_EQUAL(srr_step.cycles, srr.cycles);
	CU_ASSERT_EQUAL(memcmp(srr_step.cnt.stall, srr.cnt.stall, sizeof srr.cnt.stall), 0);
	iw_run_result_free(&lrr);
	iw_run_result_free(&srr);
	iw_run_result_free(&srr_step);
}

/* The turn moves on after every issue: two warps in one sub-core, each a
 * chain of N dependent SP instructions (latency L), interleave under srr as
 * under lrr (N x L cycles and a few).  A turn that stayed with a warp while
 * it can issue would run the chains one after the other (2 N x L). */
static void srr_turn_moves_after_an_issue(void)
{
	enum { N = 60 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++)
		prog[i] = tu_op(IW_UNIT_SP, 1 + (i + 1) % 2, 1 + i % 2, -1);
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	c.subcores = 1;
	struct iw_run_result lrr, srr;
	c.policy = IW_POLICY_LRR;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 1, 2, &lrr), 0);
	c.policy = IW_POLICY_SRR;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 1, 2, &srr), 0);
	CU_ASSERT_EQUAL(srr.warp_insts, 2 * N);
	CU_ASSERT_EQUAL(srr.cycles, lrr.cycles);
	CU_ASSERT(srr.cycles < (uint64_t)N * (uint64_t)(c.latency[IW_UNIT_SP] + 6));
	iw_run_result_free(&lrr);
	iw_run_result_free(&srr);
}

/* A one-CTA trace of two warps (one sub-core with gpu.subcores=1), each with
 * its own instructions (Accel-Sim lines without the PC), run under `policy`. */
static int run_two_warps(int policy, const char *const *w0, int n0, const char *const *w1, int n1,
			 struct iw_run_result *r)
{
	const char *dir = tu_tmpdir();
	char path[600];
	if (!dir)
		return -1;
	snprintf(path, sizeof path, "%s/kernelslist.g", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("kernel-1.traceg\n", f);
	fclose(f);
	snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs("-kernel name = two\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n"
	      "-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0050000000\n"
	      "-local mem base_addr = 0x00007f0040000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 3\n\n"
	      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
	      "[adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\nthread block = 0,0,0\n",
	      f);
	for (int w = 0; w < 2; w++) {
		const char *const *l = w ? w1 : w0;
		int n = w ? n1 : n0;
		fprintf(f, "\nwarp = %d\ninsts = %d\n", w, n);
		for (int i = 0; i < n; i++)
			fprintf(f, "%04x ffffffff %s\n", 16 * i, l[i]);
	}
	fputs("\n#END_TB\n", f);
	fclose(f);
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	c.subcores = 1;
	c.policy = policy;
	c.ii[IW_UNIT_INT] = 1;
	struct iw_workload *wl;
	struct iw_err e = {0};
	if (iw_trace_open(dir, &wl, &e)) {
		fprintf(stderr, "trace: %s\n", e.msg);
		return -1;
	}
	struct iw_sim_opts o = {.cfg = &c, .scheme = "inorder"};
	int rc = iw_simulate(&o, wl, r, &e);
	if (rc)
		fprintf(stderr, "simulate: %s\n", e.msg);
	iw_workload_close(wl);
	return rc;
}

/* A warp that waits at a barrier, or has nothing left to issue, does not
 * hold the turn: the other warp's K independent instructions issue back to
 * back, as under lrr.  (Held at a barrier the other warp has yet to reach,
 * the turn would never come back; held by a warp whose last instruction is
 * a load from DRAM, it would wait for the load.) */
static void srr_turn_skips_waiting_and_finished_warps(void)
{
	enum { K = 40 };
	char ints[K][32];
	const char *work[K + 1];
	for (int i = 0; i < K; i++) {
		snprintf(ints[i], sizeof ints[i], "1 R%d IADD3 1 R255 0", 10 + i);
		work[i] = ints[i];
	}
	work[K] = "0 BAR.SYNC 0 0";
	static const char *const bar[] = {"0 BAR.SYNC 0 0", "1 R9 IADD3 1 R255 0"};
	static const char *const load[] = {"1 R8 LDG.E.SYS 1 R4 4 1 0x7f0000001000 4"};
	struct iw_run_result lrr, srr;
	for (int k = 0; k < 2; k++) {
		const char *const *w0 = k ? load : bar;
		int nwork = k ? K : K + 1;
		int n0 = k ? 1 : 2;
		CU_ASSERT_EQUAL_FATAL(run_two_warps(IW_POLICY_LRR, w0, n0, work, nwork, &lrr), 0);
		CU_ASSERT_EQUAL_FATAL(run_two_warps(IW_POLICY_SRR, w0, n0, work, nwork, &srr), 0);
		CU_ASSERT_EQUAL(srr.warp_insts, (uint64_t)(n0 + nwork));
		CU_ASSERT_EQUAL(srr.cycles, lrr.cycles);
		iw_run_result_free(&lrr);
		iw_run_result_free(&srr);
	}
}

/* Dual issue under srr: both slots of a cycle go to the turn warp and the
 * turn moves on after it, never a slot to another warp.  Two warps in one
 * sub-core, each K = 20 independent instructions (INT and SP alternating,
 * both pipelined, CUs to spare: only the policy decides), issue A A | B B |
 * A A ... under every scheme, one warp a cycle and no cycle without an issue.
 * The first cycle that issues (3: launch 0, fetch 1, decode 2) finds only A's
 * two decoded, fetch having served A first; B's are there a cycle later, so
 * 2K issue in cycles 3..K+2.  GhOST's dependence checker moves one of a
 * warp's instructions a cycle into its issue buffer: its first and last turns
 * of each warp issue one (3 A, 4 B, ..., 23 A, 24 B), the rest two: 3..K+4.
 * LOOG's collector units (8) free at its one result broadcast a cycle: two
 * a cycle until they are full (3..6), then one a cycle, still one warp a
 * cycle and alternating. */
struct issue_log {
	uint32_t n;
	uint64_t cycle[64];
	uint32_t warp[64];
};

static void log_issue(void *ctx, const struct iw_event *ev)
{
	struct issue_log *l = ctx;
	if (ev->kind == IW_EV_ISSUE && l->n < 64) {
		l->cycle[l->n] = ev->cycle;
		l->warp[l->n++] = ev->warp;
	}
}

/* One SM of one sub-core issuing two a cycle under `policy`, with 8
 * collector units and INT and SP units that take an instruction a cycle: only
 * the issue rules decide. */
static void dual_issue_gpu(struct iw_config *c, int policy)
{
	small_gpu(c);
	c->sms = 1;
	c->subcores = 1;
	c->policy = policy;
	c->issue_width = 2;
	c->cus = 8;
	c->ii[IW_UNIT_INT] = c->ii[IW_UNIT_SP] = 1;
}

struct issue_unit_log {
	struct issue_log *l;
	uint8_t unit[64];
};

static void log_issue_unit(void *ctx, const struct iw_event *ev)
{
	struct issue_unit_log *u = ctx;
	if (ev->kind == IW_EV_ISSUE && u->l->n < 64)
		u->unit[u->l->n] = ev->inst->unit;
	log_issue(u->l, ev);
}

static void srr_dual_issue_takes_both_slots_of_the_turn_warp(void)
{
	enum { K = 20 };
	struct iw_inst prog[K];
	for (int i = 0; i < K; i++) /* (register 250 is never written) */
		prog[i] = tu_op(i % 2 ? IW_UNIT_SP : IW_UNIT_INT, 10 + i, 250, -1);
	static const char *const schemes[] = {"inorder", "socgpu", "ghost", "loog", "ideal"};
	for (size_t si = 0; si < IW_ARRAY_LEN(schemes); si++) {
		struct iw_config c;
		dual_issue_gpu(&c, IW_POLICY_SRR);
		struct iw_workload *w;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_program_open("prog", prog, K, 1, 2, &w, &e), 0);
		struct issue_log l = {0};
		struct iw_sim_opts o = {.cfg = &c, .scheme = schemes[si], .on_event = log_issue, .event_ctx = &l};
		struct iw_run_result r;
		CU_ASSERT_EQUAL_FATAL(iw_simulate(&o, w, &r, &e), 0);
		iw_workload_close(w);
		CU_ASSERT_EQUAL_FATAL(l.n, 2 * K);
		int ghost = strcmp(schemes[si], "ghost") == 0, loog = strcmp(schemes[si], "loog") == 0, bad = 0;
		uint32_t two = 0, gaps = 0;
		for (uint32_t i = 1; i < l.n; i++) {
			if (l.cycle[i] == l.cycle[i - 1]) { /* a second slot: the same warp */
				bad += l.warp[i] != l.warp[i - 1];
				two++;
			} else { /* a later cycle: the other warp */
				bad += l.warp[i] == l.warp[i - 1];
				gaps += l.cycle[i] != l.cycle[i - 1] + 1;
			}
		}
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT_EQUAL(l.cycle[0], 3);
		CU_ASSERT_EQUAL(l.warp[0], 0);
		CU_ASSERT_EQUAL(two, ghost ? K - 2 : loog ? 4 : K);
		if (!loog) {
			CU_ASSERT_EQUAL(gaps, 0);
			CU_ASSERT_EQUAL(l.cycle[l.n - 1], (uint64_t)K + (ghost ? 4 : 2));
		}
		if (bad)
			fprintf(stderr, "\n%s: not one warp a cycle, alternating\n", schemes[si]);
		iw_run_result_free(&r);
	}
}

/* Dual issue as GPGPU-Sim's scheduler (shader.cc, scheduler_unit::cycle):
 * the later slots of a cycle take the warp that issued in the first, and
 * with core.dual_issue_diff_units (its default) only for another unit
 * class.  Two warps of K instructions, 1 SM, 1 sub-core, units and CUs to
 * spare.  `chain`: each instruction reads the one before it (a warp's second
 * slot has nothing ready, another warp's first would be).  Counts the
 * cycles with two issues: of one warp and of one unit class, and of two
 * warps. */
static void dual_issue_pairs(const char *scheme, int policy, int diff, int chain, int unit_b, uint32_t *same_warp,
			     uint32_t *two_warps, uint32_t *same_unit)
{
	enum { K = 20 };
	struct iw_inst prog[K];
	for (int i = 0; i < K; i++) /* (register 250 is never written) */
		prog[i] = tu_op(i % 2 ? unit_b : IW_UNIT_INT, 10 + i, chain && i ? 9 + i : 250, -1);
	struct iw_config c;
	dual_issue_gpu(&c, policy);
	c.dual_issue_diff_units = diff;
	c.units[IW_UNIT_INT] = c.units[IW_UNIT_SP] = 2;
	struct iw_workload *w;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_program_open("prog", prog, K, 1, 2, &w, &e), 0);
	struct issue_log l = {0};
	struct issue_unit_log ul = {&l, {0}};
	struct iw_sim_opts o = {.cfg = &c, .scheme = scheme, .on_event = log_issue_unit, .event_ctx = &ul};
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(iw_simulate(&o, w, &r, &e), 0);
	iw_workload_close(w);
	CU_ASSERT_EQUAL_FATAL(l.n, 2 * K);
	*same_warp = *two_warps = *same_unit = 0;
	for (uint32_t i = 1; i < l.n; i++)
		if (l.cycle[i] == l.cycle[i - 1]) {
			*same_warp += l.warp[i] == l.warp[i - 1];
			*two_warps += l.warp[i] != l.warp[i - 1];
			*same_unit += ul.unit[i] == ul.unit[i - 1];
		}
	iw_run_result_free(&r);
}

static void dual_issue_takes_one_warp_and_two_unit_classes(void)
{
	static const char *const schemes[] = {"inorder", "socgpu", "ghost", "loog", "ideal"};
	static const int policies[] = {IW_POLICY_GTO, IW_POLICY_LRR};
	for (size_t si = 0; si < IW_ARRAY_LEN(schemes); si++)
		for (size_t pi = 0; pi < IW_ARRAY_LEN(policies); pi++) {
			uint32_t sw, tw, su;
			/* INT, SP, INT, ...: each warp pairs its own, every cycle or
			 * nearly (GhOST's checker and LOOG's one broadcast a cycle
			 * leave some cycles one) */
			dual_issue_pairs(schemes[si], policies[pi], 1, 0, IW_UNIT_SP, &sw, &tw, &su);
			CU_ASSERT(sw >= 4);
			CU_ASSERT_EQUAL(tw, 0);
			CU_ASSERT_EQUAL(su, 0);
			/* chains: the warp that issued has nothing ready for its
			 * second slot (but LOOG, whose collector units wait for the
			 * operands), and the other warp may not take it */
			dual_issue_pairs(schemes[si], policies[pi], 1, 1, IW_UNIT_SP, &sw, &tw, &su);
			CU_ASSERT_EQUAL(tw, 0);
			if (strcmp(schemes[si], "loog"))
				CU_ASSERT_EQUAL(sw, 0);
			/* INT only: no pair of one class by default, pairs without
			 * the rule (inorder, socgpu, ghost, ideal: LOOG's one
			 * broadcast a cycle frees one CU a cycle) */
			dual_issue_pairs(schemes[si], policies[pi], 1, 0, IW_UNIT_INT, &sw, &tw, &su);
			CU_ASSERT_EQUAL(sw + tw, 0);
			dual_issue_pairs(schemes[si], policies[pi], 0, 0, IW_UNIT_INT, &sw, &tw, &su);
			CU_ASSERT_EQUAL(tw, 0);
			CU_ASSERT_EQUAL(su, sw);
			if (strcmp(schemes[si], "loog"))
				CU_ASSERT(sw >= 4);
			if (tw || (su && su != sw))
				fprintf(stderr, "\n%s policy %zu: %u pairs of one warp, %u of two\n", schemes[si], pi, sw, tw);
		}
}

/* Register r of warp w is in bank (r + w) % banks, with any number of
 * banks: warps 0, 1 and 2 reading R0, R3 and R6 on three banks each read
 * one bank of their own, three cycles long, so only their own operands
 * conflict (2 + 1 per instruction); were the banks not turned by the warp,
 * the three would also collide with each other. */
static void rf_banks_turn_with_the_warp(void)
{
	struct iw_config c;
	small_gpu(&c);
	c.sms = 1;
	c.subcores = 1;
	c.cus = 3;
	c.rf_banks = 3;
	c.rf_read_ports = 0;
	enum { N = 20 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++) {
		prog[i] = tu_op(IW_UNIT_INT, 0, 0, 3); /* each waits for the one before (R0) */
		prog[i].src[prog[i].nsrc++] = 6;
	}
	struct iw_run_result r;
	CU_ASSERT_EQUAL_FATAL(run_prog(&c, "inorder", prog, N, 1, 3, &r), 0);
	CU_ASSERT_EQUAL(r.warp_insts, 3 * N);
	CU_ASSERT_EQUAL(r.act[IW_A_RF_BANK_READ], 3 * 3 * N);
	CU_ASSERT_EQUAL(r.act[IW_A_RF_BANK_CONFLICT], 3 * 3 * N);
	iw_run_result_free(&r);
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
		 {"reductions_do_not_wait_for_l2", reductions_do_not_wait_for_l2},
		 {"srr_waits_on_the_turn_warp", srr_waits_on_the_turn_warp},
		 {"srr_turn_moves_after_an_issue", srr_turn_moves_after_an_issue},
		 {"srr_turn_skips_waiting_and_finished_warps", srr_turn_skips_waiting_and_finished_warps},
		 {"srr_dual_issue_takes_both_slots_of_the_turn_warp", srr_dual_issue_takes_both_slots_of_the_turn_warp},
		 {"dual_issue_takes_one_warp_and_two_unit_classes", dual_issue_takes_one_warp_and_two_unit_classes},
		 {"rf_banks_turn_with_the_warp", rf_banks_turn_with_the_warp});
}
