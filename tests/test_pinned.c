/*
 * tests/test_pinned.c -- the model's exact results, pinned.
 *
 * The engine and the schemes are tuned for speed again and again (event
 * skipping, candidate caches, masks instead of scans); none of that may change
 * a single number a user sees.  This suite runs a fixed set of simulations --
 * every scheme, three scheduling set-ups, built-in kernels and both real trace
 * fixtures -- and compares the cycle count, the warp-instruction count and a
 * fingerprint of everything else the run reports (thread-instructions,
 * kernels, CTAs, every activity total, every counter and histogram: stalls by
 * reason, reorders, dependences, occupancies, CU/RRS periods, and the whole
 * activity time series) with the values recorded here.
 *
 * A change that is meant to alter the model's results must re-pin them, and
 * say why in its commit: run the suite with IW_PIN_PRINT=1 in the environment
 * to print the table in the form below.
 */
#include "perf.h"
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pin {
	const char *setup;    /* configuration label, see setup_sets() */
	const char *workload; /* built-in name or fixture path under tests/data/traces */
	const char *scheme;
	uint64_t cycles, warp_insts, fingerprint;
};

/* The set-ups: v100 defaults (GTO, single issue); strict round robin with a
 * GhOST-Precise checker and LOOG's RRS at twice the CUs; loose round robin
 * with dual issue; buffers wider than the 8 entries SOCGPU lays out compactly
 * (its other layout), releasing at write-back or at operand read. */
static const char *const *setup_sets(const char *setup)
{
	static const char *const srr[] = {"core.policy=srr", "ghost.precise=true", "loog.rrs_factor=2", NULL};
	static const char *const dual[] = {"core.policy=lrr", "core.issue_width=2", NULL};
	static const char *const wide[] = {"socgpu.ib_size=16", NULL};
	static const char *const wideops[] = {"socgpu.ib_size=12", "socgpu.release_at=operands", NULL};
	return strcmp(setup, "srr") == 0       ? srr
	       : strcmp(setup, "dual") == 0    ? dual
	       : strcmp(setup, "wide") == 0    ? wide
	       : strcmp(setup, "wideops") == 0 ? wideops
					       : NULL;
}

/* One run of a pinned configuration in the given order (SM after SM, the
 * default, or cycle after cycle: the two must agree bit for bit).  `extra`:
 * more configuration settings, NULL-terminated, or NULL. */
static int run_in(const struct pin *p, struct pin *got, int cycle_major, const char *const *extra)
{
	struct tu_pinned r;
	*got = *p;
	if (tu_pinned_run(setup_sets(p->setup), extra, p->workload, p->scheme, cycle_major, &r)) {
		fprintf(stderr, "(set-up %s)\n", p->setup);
		return -1;
	}
	got->cycles = r.cycles;
	got->warp_insts = r.warp_insts;
	got->fingerprint = r.fingerprint;
	return 0;
}

static int run_one(const struct pin *p, struct pin *got) { return run_in(p, got, 0, NULL); }

#define MM "tests/data/traces/matrixmul-sm61"
#define VA "tests/data/traces/vectoradd-sm61"
/* clang-format off */
static const struct pin pins[] = {
#include "pinned.inc"
};
/* clang-format on */

static void print_row(const struct pin *g)
{
	printf("\t{\"%s\", %s%s%s, \"%s\", %" PRIu64 ", %" PRIu64 ", 0x%016" PRIx64 "ULL},\n", g->setup,
	       strchr(g->workload, '/') ? "" : "\"",
	       strcmp(g->workload, MM) == 0 ? "MM" : strcmp(g->workload, VA) == 0 ? "VA" : g->workload,
	       strchr(g->workload, '/') ? "" : "\"", g->scheme, g->cycles, g->warp_insts, g->fingerprint);
}

static void check_set(const char *setup)
{
	int print = getenv("IW_PIN_PRINT") != NULL;
	for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
		const struct pin *p = &pins[i];
		if (strcmp(p->setup, setup) != 0)
			continue;
		struct pin g;
		CU_ASSERT_EQUAL_FATAL(run_one(p, &g), 0);
		if (print)
			print_row(&g);
		int same = g.cycles == p->cycles && g.warp_insts == p->warp_insts && g.fingerprint == p->fingerprint;
		if (!same && !print)
			fprintf(stderr,
				"\n%s on %s (%s): cycles %" PRIu64 " (pinned %" PRIu64 "), warp-instructions %" PRIu64
				" (pinned %" PRIu64 "), fingerprint 0x%016" PRIx64 " (pinned 0x%016" PRIx64 ")\n",
				p->scheme, p->workload, p->setup, g.cycles, p->cycles, g.warp_insts, p->warp_insts,
				g.fingerprint, p->fingerprint);
		CU_ASSERT_EQUAL(g.cycles, p->cycles);
		CU_ASSERT_EQUAL(g.warp_insts, p->warp_insts);
		CU_ASSERT_EQUAL(g.fingerprint, p->fingerprint);
		/* the reference order gives the same numbers */
		struct pin r;
		CU_ASSERT_EQUAL_FATAL(run_in(p, &r, 1, NULL), 0);
		CU_ASSERT(r.cycles == g.cycles && r.warp_insts == g.warp_insts && r.fingerprint == g.fingerprint);
	}
}

/* Set-ups where the SM-major order has the most to get right: spans of two
 * cycles (the shortest trip to L2 and back a warp waits for is three: the
 * pipeline's cycle and L2's two), samples shorter than
 * a span, one-warp CTAs by the thousand on three SMs (a refill nearly every
 * cycle, the CTA queue contended), an L2 and DRAM busy enough to queue, no
 * L1 (every access shared), a trace on two SMs, and multi-kernel runs. */
static void test_orders(void)
{
	static const char *const tight[] = {"exec.mem_latency=1", "mem.l1_latency=2", "mem.l2_latency=2",
					    "mem.dram_latency=2", "run.interval=37", NULL};
	static const char *const few[] = {"gpu.sms=3", "run.interval=50", "mem.l1_kb=0", "mem.l2_sectors_per_cycle=1",
					  NULL};
	static const char *const nol1[] = {"mem.l1_kb=0", "gpu.sms=5", "mem.l2_sectors_per_cycle=1",
					   "mem.dram_sectors_per_cycle=1", NULL};
	static const char *const two[] = {"gpu.sms=2", NULL};
	static const struct {
		const char *workload, *scheme;
		const char *const *extra;
	} runs[] = {
		{"bfs", "inorder", tight},
		{"sgemm", "loog", tight},
		{"synth:ld=0.3:st=0.1:dep=2:warps=1:ctas=20000", "inorder", few},
		{"synth:ld=0.3:st=0.1:dep=2:warps=1:ctas=20000", "ghost", few},
		{"synth:ld=0.2:st=0.1:warps=3:ctas=7000", "socgpu", nol1},
		{"stencil", "ideal", nol1},
		{MM, "inorder", two},
		{MM, "ideal", two},
		{VA, "socgpu", two},
		{"tests/data/traces/hand/multi", "inorder", two},
		{"tests/data/traces/hand/multi", "loog", NULL},
	};
	/* the two-kernel trace's deliberate unknown opcode warns on every open:
	 * standard error keeps only the findings */
	int saved = tu_stderr_off();
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		struct pin p = {"gto", runs[i].workload, runs[i].scheme, 0, 0, 0}, a, b;
		if (run_in(&p, &a, 0, runs[i].extra) || run_in(&p, &b, 1, runs[i].extra)) {
			CU_FAIL("a run failed"); /* (not fatal: standard error is restored below) */
			continue;
		}
		int same = a.cycles == b.cycles && a.warp_insts == b.warp_insts && a.fingerprint == b.fingerprint;
		if (!same && saved >= 0)
			dprintf(saved, "\n%s on %s: SM-major %" PRIu64 " cycles, cycle-major %" PRIu64 "\n", p.scheme,
				p.workload, a.cycles, b.cycles);
		CU_ASSERT(same);
		CU_ASSERT(a.warp_insts > 0);
	}
	tu_stderr_back(saved);
}

static void test_gto(void) { check_set("gto"); }
static void test_srr(void) { check_set("srr"); }
static void test_dual(void) { check_set("dual"); }
static void test_wide(void)
{
	check_set("wide");
	check_set("wideops");
}

void suite_pinned(void)
{
	TU_SUITE("pinned", {"every scheme, v100 GTO: built-in kernels and both trace fixtures", test_gto},
		 {"every scheme, strict round robin, GhOST-Precise, LOOG RRS x2", test_srr},
		 {"every scheme, loose round robin, dual issue", test_dual},
		 {"SOCGPU with instruction buffers of 12 and 16 entries", test_wide},
		 {"simulating SM after SM gives the cycle-by-cycle results on stressful set-ups", test_orders});
}
