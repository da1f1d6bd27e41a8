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
	{"w16", "vecadd", 2679, 9984, 0xe4f354b5cee9ba21ULL},
	{"w16", "sgemm", 9606, 30888, 0x692e96cf846f1df2ULL},
	{"w16", "reduce", 1912, 6810, 0xc4b692e6a79e314dULL},
	{"w16", "bfs", 8795, 10463, 0x06ec2dc1239ba8fdULL},
	{"w16", "rnn", 4120, 15816, 0x27a40409e82e9e04ULL},
	{"w16", "ilp_lowocc", 59360, 17618, 0x81f359d3dd5f98deULL},
	{"w16", MM, 2842, 4416, 0x495af877177a7f40ULL},
	{"w2", "vecadd", 2749, 9984, 0x086a90744e524703ULL},
	{"w2", "sgemm", 12395, 30888, 0xf3f3fe6481e85ef0ULL},
	{"w2", "reduce", 8278, 6810, 0xdf90e22056cda1fdULL},
	{"w2", "bfs", 20762, 10463, 0x61a644a7fde326c1ULL},
	{"w2", "rnn", 11770, 15816, 0xe01b898f3426dfb2ULL},
	{"w2", "ilp_lowocc", 89648, 17618, 0xabbb70c66937fe59ULL},
	{"w2", MM, 2843, 4416, 0x3155d33e8009caf0ULL},
	{"norename", "vecadd", 2691, 9984, 0x7fa7c4bb4274cd92ULL},
	{"norename", "sgemm", 9758, 30888, 0x3ee681eadd760463ULL},
	{"norename", "reduce", 8144, 6810, 0x85b5982dc2a8e154ULL},
	{"norename", "bfs", 14479, 10463, 0x0d75db48d8ccb4b0ULL},
	{"norename", "rnn", 5833, 15816, 0xc89c14f6f5101d44ULL},
	{"norename", "ilp_lowocc", 56536, 17618, 0x2c81bc6703534c66ULL},
	{"norename", MM, 2845, 4416, 0x294a773cfa03fb21ULL},
	{"nodisamb", "vecadd", 2679, 9984, 0x922b019150da1645ULL},
	{"nodisamb", "sgemm", 8901, 30888, 0xd3793199e3e84c42ULL},
	{"nodisamb", "reduce", 1361, 6810, 0x320ebca7c739e43dULL},
	{"nodisamb", "bfs", 8507, 10463, 0xf973c249f928b500ULL},
	{"nodisamb", "rnn", 2546, 15816, 0xeab1a111cae61826ULL},
	{"nodisamb", "ilp_lowocc", 56568, 17618, 0x2a0dcf6bc9220cd9ULL},
	{"nodisamb", MM, 2844, 4416, 0x4fcd4c5f0ca6cc7eULL},
	{"noftc", "vecadd", 2679, 9984, 0x6c70964b779dd642ULL},
	{"noftc", "sgemm", 8961, 30888, 0xd158fd28826670beULL},
	{"noftc", "reduce", 1628, 6810, 0x25b7a92eff85bcedULL},
	{"noftc", "bfs", 20817, 10463, 0x1316c20b8db104d7ULL},
	{"noftc", "rnn", 2569, 15816, 0x097d1d5aedde433eULL},
	{"noftc", "ilp_lowocc", 56625, 17618, 0x3c53e14b90887398ULL},
	{"noftc", MM, 2842, 4416, 0x04b6d0aa9e90b560ULL},
	{"none-w8", "vecadd", 2691, 9984, 0xda606daaa440774cULL},
	{"none-w8", "sgemm", 10033, 30888, 0x1e4691ea018646f2ULL},
	{"none-w8", "reduce", 8278, 6810, 0xa97adf3d85834558ULL},
	{"none-w8", "bfs", 20814, 10463, 0x10a894508f1f7534ULL},
	{"none-w8", "rnn", 7183, 15816, 0xeceba5218698312eULL},
	{"none-w8", "ilp_lowocc", 78739, 17618, 0x8d8aa539f6f76864ULL},
	{"none-w8", MM, 2848, 4416, 0x004f488323f0ec84ULL},
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
