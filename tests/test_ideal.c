/*
 * tests/test_ideal.c -- the ideal scheme's exact results with its
 * idealisations switched off and with small windows, pinned.
 *
 * tests/test_pinned.c pins every scheme with its defaults; the limit study's
 * switches (renaming, disambiguation, fetch through control) and small
 * windows take paths the defaults rarely or never reach: WAR and WAW found
 * by walking the window, memory order without addresses, instructions with
 * more dependences than are kept (judged by rescanning the window), and the
 * ring that orders the window filling up.  Each run's cycles,
 * warp-instructions and a fingerprint of everything else it reports (as in
 * test_pinned.c) must stay as recorded.  Regenerate, only for a change meant
 * to alter the results, with IW_PIN_PRINT=1 build/test_runner ideal.
 */
#include "perf.h"
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ideal_pin {
	const char *setup; /* see ideal_sets() */
	const char *workload;
	uint64_t cycles, warp_insts, fingerprint;
};

/* The settings of a set-up (after v100's defaults), NULL if it has none. */
static const char *const *ideal_sets(const char *setup)
{
	static const struct {
		const char *name;
		const char *sets[5];
	} setups[] = {
		{"w16", {"ideal.window=16", NULL}},
		{"w2", {"ideal.window=2", NULL}},
		{"norename", {"ideal.renaming=false", NULL}},
		{"nodisamb", {"ideal.disambiguation=false", NULL}},
		{"noftc", {"ideal.fetch_through_control=false", NULL}},
		{"none-w8",
		 {"ideal.renaming=false", "ideal.disambiguation=false", "ideal.fetch_through_control=false", "ideal.window=8",
		  NULL}},
	};
	for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++)
		if (strcmp(setups[i].name, setup) == 0)
			return setups[i].sets;
	return NULL;
}

static int ideal_run(const struct ideal_pin *p, struct ideal_pin *got)
{
	const char *const *sets = ideal_sets(p->setup);
	struct tu_pinned r;
	*got = *p;
	if (!sets) {
		fprintf(stderr, "\nset-up %s does not exist\n", p->setup);
		return -1;
	}
	if (tu_pinned_run(sets, NULL, p->workload, "ideal", 0, &r))
		return -1;
	got->cycles = r.cycles;
	got->warp_insts = r.warp_insts;
	got->fingerprint = r.fingerprint;
	return 0;
}

#define MM "tests/data/traces/matrixmul-sm61"
/* clang-format off */
static const struct ideal_pin ideal_pins[] = {
	{"w16", "vecadd", 2714, 9984, 0xcf78ab61e9deb29dULL},
	{"w16", "sgemm", 9789, 30888, 0x5c8961bda8d7cdceULL},
	{"w16", "reduce", 1912, 6810, 0xdd006c7eb6f8a8edULL},
	{"w16", "bfs", 8795, 10463, 0x50cf244d5c932a5dULL},
	{"w16", "rnn", 4145, 15816, 0x861c4aa1da9e5680ULL},
	{"w16", "ilp_lowocc", 59360, 17618, 0x5726ffffdbed7cdfULL},
	{"w16", MM, 2842, 4416, 0x014f92361086c440ULL},
	{"w2", "vecadd", 2779, 9984, 0x4642a7bc13a0403fULL},
	{"w2", "sgemm", 12995, 30888, 0x9d76c012e648b857ULL},
	{"w2", "reduce", 8278, 6810, 0xb60ad1a22424d39dULL},
	{"w2", "bfs", 20762, 10463, 0xaccfc75df677a0e1ULL},
	{"w2", "rnn", 11789, 15816, 0xa91a806821089704ULL},
	{"w2", "ilp_lowocc", 89648, 17618, 0xee50f1945ef88842ULL},
	{"w2", MM, 2843, 4416, 0xc7a0a5ed3ff034b0ULL},
	{"norename", "vecadd", 2725, 9984, 0xe2395245fc75d7e3ULL},
	{"norename", "sgemm", 10315, 30888, 0xf2ef0a84debd94afULL},
	{"norename", "reduce", 8144, 6810, 0xa69d5d1d0d040274ULL},
	{"norename", "bfs", 14479, 10463, 0xa005a31a0bbda1b0ULL},
	{"norename", "rnn", 5834, 15816, 0xe8bdd5c18254ad0aULL},
	{"norename", "ilp_lowocc", 56536, 17618, 0xa5b7a636090aa539ULL},
	{"norename", MM, 2845, 4416, 0xab6075b7fcf5c7e1ULL},
	{"nodisamb", "vecadd", 2714, 9984, 0xc88ed5600daea78dULL},
	{"nodisamb", "sgemm", 9715, 30888, 0x579d635d02e0a632ULL},
	{"nodisamb", "reduce", 1361, 6810, 0xc6e40244b9bccdbdULL},
	{"nodisamb", "bfs", 8507, 10463, 0x901049b9e4671340ULL},
	{"nodisamb", "rnn", 2551, 15816, 0x7ea7c6f36e770878ULL},
	{"nodisamb", "ilp_lowocc", 56568, 17618, 0x99e371000a1ed5caULL},
	{"nodisamb", MM, 2844, 4416, 0xbd1bd6e2f80cd47eULL},
	{"noftc", "vecadd", 2714, 9984, 0x11c70133793e67e3ULL},
	{"noftc", "sgemm", 9748, 30888, 0xc6dad36460bbafc8ULL},
	{"noftc", "reduce", 1628, 6810, 0xb5a924cc3a4d84edULL},
	{"noftc", "bfs", 20817, 10463, 0x66de9ccf234eac97ULL},
	{"noftc", "rnn", 2570, 15816, 0x944c9499152dbe90ULL},
	{"noftc", "ilp_lowocc", 56625, 17618, 0x71018552c0c1d42bULL},
	{"noftc", MM, 2842, 4416, 0x5134d33c9c9f6ea0ULL},
	{"none-w8", "vecadd", 2725, 9984, 0x6696f62ec6f35dedULL},
	{"none-w8", "sgemm", 10572, 30888, 0x860b2762e831ab55ULL},
	{"none-w8", "reduce", 8278, 6810, 0xbd615e8104dfb4d8ULL},
	{"none-w8", "bfs", 20814, 10463, 0xaa193a5eb6acec74ULL},
	{"none-w8", "rnn", 7204, 15816, 0x896d8d368ad70c0dULL},
	{"none-w8", "ilp_lowocc", 78739, 17618, 0xdd43932ea196c17bULL},
	{"none-w8", MM, 2848, 4416, 0x86e79605e4320de4ULL},
};
/* clang-format on */

static void test_ideal_switches(void)
{
	int print = getenv("IW_PIN_PRINT") != NULL;
	for (size_t i = 0; i < sizeof ideal_pins / sizeof ideal_pins[0]; i++) {
		const struct ideal_pin *p = &ideal_pins[i];
		struct ideal_pin g;
		CU_ASSERT_EQUAL_FATAL(ideal_run(p, &g), 0);
		if (print)
			printf("\t{\"%s\", %s%s%s, %" PRIu64 ", %" PRIu64 ", 0x%016" PRIx64 "ULL},\n", g.setup,
			       strchr(g.workload, '/') ? "" : "\"", strchr(g.workload, '/') ? "MM" : g.workload,
			       strchr(g.workload, '/') ? "" : "\"", g.cycles, g.warp_insts, g.fingerprint);
		else if (g.cycles != p->cycles || g.warp_insts != p->warp_insts || g.fingerprint != p->fingerprint)
			fprintf(stderr,
				"\nideal on %s (%s): cycles %" PRIu64 " (pinned %" PRIu64 "), warp-instructions %" PRIu64
				" (pinned %" PRIu64 "), fingerprint 0x%016" PRIx64 " (pinned 0x%016" PRIx64 ")\n",
				p->workload, p->setup, g.cycles, p->cycles, g.warp_insts, p->warp_insts, g.fingerprint,
				p->fingerprint);
		CU_ASSERT_EQUAL(g.cycles, p->cycles);
		CU_ASSERT_EQUAL(g.warp_insts, p->warp_insts);
		CU_ASSERT_EQUAL(g.fingerprint, p->fingerprint);
	}
}

/* A warp can hold as many loads with addresses in flight as its window
 * (the pool of lane addresses once stopped fetch at 32 a warp, so windows
 * beyond 32 gained nothing on traces): one warp of 300 independent loads,
 * DRAM-bound, runs about twice as fast with a window of 64 as with 32. */
static void window_beyond_32_loads_in_flight(void)
{
	char dir[1024], path[1200], args[1600], out[4096];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	enum { LOADS = 300 };
	fprintf(f, "-kernel name = loads\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
		   "-nregs = 32\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0050000000\n"
		   "-local mem base_addr = 0x00007f0040000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 5\n"
		   "-enable lineinfo = 0\n\n#traces format = x\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\n"
		   "insts = %d\n",
		LOADS + 1);
	for (int i = 0; i < LOADS; i++) /* each its own 4 KiB apart, its own destination (R10..R209, again) */
		fprintf(f, "%04x ffffffff 1 R%d LDG.E.SYS 1 R4 4 1 0x%llx 4 0\n", 16 * i, 10 + i % 200,
			0x7f0000000000ULL + 0x1000ULL * (unsigned)i);
	fprintf(f, "%04x ffffffff 0 EXIT 0 0 0\n\n#END_TB\n", 16 * LOADS);
	fclose(f);
	double cycles[2];
	for (int k = 0; k < 2; k++) {
		snprintf(args, sizeof args,
			 "run -q -j 1 --format csv --set gpu.sms=1 --set opc.cus=64 --set ideal.window=%d -s ideal -w '%s'",
			 k ? 64 : 32, path);
		CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
		cycles[k] = tu_csv_value(out, 2, "cycles");
	}
	CU_ASSERT(cycles[1] < 0.65 * cycles[0]);
	remove(path);
}

void suite_ideal(void)
{
	TU_SUITE("ideal", {"ideal: idealisations off and small windows, pinned results", test_ideal_switches},
		 {"ideal: a window beyond 32 loads in flight pays on traces", window_beyond_32_loads_in_flight});
}
