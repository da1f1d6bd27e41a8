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
	{"w16", "vecadd", 2679, 9984, 0x39954f7b50162ec6ULL},
	{"w16", "sgemm", 9606, 30888, 0xb47c692912dcf58fULL},
	{"w16", "reduce", 1912, 6810, 0xe0e151baf08f53bcULL},
	{"w16", "bfs", 8795, 10463, 0xe8cf524cf2ef3642ULL},
	{"w16", "rnn", 4120, 15816, 0x2e96f64385a4b1edULL},
	{"w16", "ilp_lowocc", 59360, 17618, 0x0bf359617360e077ULL},
	{"w16", MM, 2842, 4416, 0x10ec0952aa90385fULL},
	{"w2", "vecadd", 2749, 9984, 0x5842ee8b55d5b50bULL},
	{"w2", "sgemm", 12395, 30888, 0x93b6731f68c511ecULL},
	{"w2", "reduce", 8278, 6810, 0xe2bf2e2c2908205dULL},
	{"w2", "bfs", 20762, 10463, 0xb1fe4b05b5c69a21ULL},
	{"w2", "rnn", 11770, 15816, 0x5b9953d8114b719aULL},
	{"w2", "ilp_lowocc", 89648, 17618, 0xc25ff51e8078b9c1ULL},
	{"w2", MM, 2843, 4416, 0x71bfb85df1d02b58ULL},
	{"norename", "vecadd", 2691, 9984, 0x7fa7c4bb4274cd92ULL},
	{"norename", "sgemm", 9758, 30888, 0xa1687db54bd3b6cfULL},
	{"norename", "reduce", 8144, 6810, 0x3bc56aebed769b60ULL},
	{"norename", "bfs", 14479, 10463, 0x48ab5e94dd9129e1ULL},
	{"norename", "rnn", 5833, 15816, 0x3babd6b46fdcc4f6ULL},
	{"norename", "ilp_lowocc", 56536, 17618, 0xdb5cd9228312747dULL},
	{"norename", MM, 2845, 4416, 0x1dad2537aacd9a46ULL},
	{"nodisamb", "vecadd", 2679, 9984, 0x4a7c29901e2cebeaULL},
	{"nodisamb", "sgemm", 8901, 30888, 0x555b7b6b62924729ULL},
	{"nodisamb", "reduce", 1361, 6810, 0x0924b49af7b7901eULL},
	{"nodisamb", "bfs", 8507, 10463, 0x58383396ea222534ULL},
	{"nodisamb", "rnn", 2548, 15816, 0x99584912cc86558cULL},
	{"nodisamb", "ilp_lowocc", 56568, 17618, 0x46a6dce0ffe8f283ULL},
	{"nodisamb", MM, 2840, 4416, 0x824b6b5b387da7ecULL},
	{"noftc", "vecadd", 2679, 9984, 0x6c70964b779dd642ULL},
	{"noftc", "sgemm", 8961, 30888, 0xca18c2369850cb72ULL},
	{"noftc", "reduce", 1628, 6810, 0x25b7a92eff85bcedULL},
	{"noftc", "bfs", 20817, 10463, 0x1316c20b8db104d7ULL},
	{"noftc", "rnn", 2570, 15816, 0xd50eef2ea7ca206aULL},
	{"noftc", "ilp_lowocc", 56625, 17618, 0xbeabd08952f84b2aULL},
	{"noftc", MM, 2840, 4416, 0x3d6e89ee6f399c3dULL},
	{"none-w8", "vecadd", 2691, 9984, 0x059024ab785956ccULL},
	{"none-w8", "sgemm", 10033, 30888, 0x392c37ce84b3f25dULL},
	{"none-w8", "reduce", 8278, 6810, 0x44b23ce37be32198ULL},
	{"none-w8", "bfs", 20814, 10463, 0x16c6b9756d64b8f2ULL},
	{"none-w8", "rnn", 7183, 15816, 0x8c19028ed3ea7c82ULL},
	{"none-w8", "ilp_lowocc", 78739, 17618, 0x4784f205b5c11a6cULL},
	{"none-w8", MM, 2848, 4416, 0x5c6f72445c3c2333ULL},
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

void suite_ideal(void)
{
	TU_SUITE("ideal", {"ideal: idealisations off and small windows, pinned results", test_ideal_switches});
}
