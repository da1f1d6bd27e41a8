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
	{"w16", "sgemm", 9835, 30888, 0x19333c602e664957ULL},
	{"w16", "reduce", 1912, 6810, 0x53d55cc623326a9cULL},
	{"w16", "bfs", 8796, 10463, 0xac303567b0fd459aULL},
	{"w16", "rnn", 4156, 15816, 0x34b8cb82e6b7736eULL},
	{"w16", "ilp_lowocc", 59297, 17618, 0x238823f6adea0d98ULL},
	{"w16", MM, 2845, 4416, 0xe2f3ce2024f647b7ULL},
	{"w2", "vecadd", 2749, 9984, 0x5842ee8b55d5b50bULL},
	{"w2", "sgemm", 12395, 30888, 0x93b6731f68c511ecULL},
	{"w2", "reduce", 8278, 6810, 0xdb151d7341bcdc94ULL},
	{"w2", "bfs", 20762, 10463, 0xb1fe4b05b5c69a21ULL},
	{"w2", "rnn", 11770, 15816, 0x5b9953d8114b719aULL},
	{"w2", "ilp_lowocc", 89648, 17618, 0xc25ff51e8078b9c1ULL},
	{"w2", MM, 2843, 4416, 0x71bfb85df1d02b58ULL},
	{"norename", "vecadd", 2691, 9984, 0x7fa7c4bb4274cd92ULL},
	{"norename", "sgemm", 9963, 30888, 0xac876814fdf3ceb4ULL},
	{"norename", "reduce", 8144, 6810, 0x4810901f05da5a54ULL},
	{"norename", "bfs", 14479, 10463, 0xdeb7deca26f0a130ULL},
	{"norename", "rnn", 5848, 15816, 0x09bfed53f7c98490ULL},
	{"norename", "ilp_lowocc", 56551, 17618, 0xf12b63d22650d008ULL},
	{"norename", MM, 2846, 4416, 0xfe565a8420456c22ULL},
	{"nodisamb", "vecadd", 2679, 9984, 0x06fe776b9e4cae12ULL},
	{"nodisamb", "sgemm", 9787, 30888, 0x306be58143276179ULL},
	{"nodisamb", "reduce", 1361, 6810, 0x7eb963a48762c42bULL},
	{"nodisamb", "bfs", 8507, 10463, 0x048db0df814ad02eULL},
	{"nodisamb", "rnn", 2559, 15816, 0xe73492545b75f27bULL},
	{"nodisamb", "ilp_lowocc", 56602, 17618, 0xb671c9ffabcca6d6ULL},
	{"nodisamb", MM, 2842, 4416, 0x118d6e168c781830ULL},
	{"noftc", "vecadd", 2679, 9984, 0x6c70964b779dd642ULL},
	{"noftc", "sgemm", 9833, 30888, 0x70afea4cc4d71ae5ULL},
	{"noftc", "reduce", 1628, 6810, 0x25b7a92eff85bcedULL},
	{"noftc", "bfs", 20817, 10463, 0x1316c20b8db104d7ULL},
	{"noftc", "rnn", 2621, 15816, 0x74995bd4d6e2f682ULL},
	{"noftc", "ilp_lowocc", 56694, 17618, 0x67bccbeec103ff9eULL},
	{"noftc", MM, 2843, 4416, 0xd20f53528ad9ba76ULL},
	{"none-w8", "vecadd", 2691, 9984, 0x059024ab785956ccULL},
	{"none-w8", "sgemm", 10044, 30888, 0x0f81c1e54d4ad950ULL},
	{"none-w8", "reduce", 8278, 6810, 0x1a0cffa25dbe3ad8ULL},
	{"none-w8", "bfs", 20814, 10463, 0x16c6b9756d64b8f2ULL},
	{"none-w8", "rnn", 7224, 15816, 0x88c3d9dba7cdc065ULL},
	{"none-w8", "ilp_lowocc", 78804, 17618, 0xffb60bf107bb5e32ULL},
	{"none-w8", MM, 2849, 4416, 0x1085a583c8a24428ULL},
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
			       strchr(g.workload, '/') ? "" : "\"", strchr(g.workload, '/') ? MM : g.workload,
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
