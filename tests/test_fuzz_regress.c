/*
 * tests/test_fuzz_regress.c -- replay every input the fuzzers once crashed,
 * leaked or hung on (the files of tests/fuzz/regress/TARGET) through the same target
 * body the fuzzer runs (tests/fuzz/fuzz_TARGET.c), plus each target's seeds
 * built from the fixtures.  A plain build catches crashes; `make check SAN=1`
 * also catches the out-of-bounds accesses and leaks these inputs triggered.
 */
#include "fuzz/fuzz.h"
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*fuzz_fn)(const uint8_t *, size_t);
static const struct {
	const char *name;
	fuzz_fn fn;
} targets[] = {
#define IW_FUZZ_ROW(n) {#n, iw_fuzz_##n},
	IW_FUZZERS(IW_FUZZ_ROW)
};

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	uint8_t *b = malloc(cap);
	size_t r;
	while (b && (r = fread(b + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap) {
			uint8_t *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(f);
	*n = len;
	return b;
}

/* Run every file of `dir` through `fn`; return how many ran. */
static int replay_dir(const char *dir, fuzz_fn fn)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		size_t n = 0;
		uint8_t *data = slurp(path, &n);
		CU_ASSERT_PTR_NOT_NULL_FATAL(data);
		int rc = fn(data, n);
		if (rc)
			fprintf(stderr, "fuzz regression %s: target returned %d\n", path, rc);
		CU_ASSERT_EQUAL(rc, 0);
		free(data);
		count++;
	}
	closedir(d);
	return count;
}

static void regressions_replay_clean(void)
{
	int total = 0;
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		char dir[512];
		snprintf(dir, sizeof dir, "tests/fuzz/regress/%s", targets[i].name);
		total += replay_dir(tu_path(dir), targets[i].fn);
	}
	/* The folder holds the inputs found so far; none found would mean the
	 * path is wrong, not that the parsers are perfect. */
	CU_ASSERT(total > 0);
}

/* The seeds (fixtures, as tests/fuzz/seed.sh lays them out) go through the
 * targets cleanly too: the targets themselves are exercised by `make check`. */
static void seeds_replay_clean(void)
{
	const char *tmp = tu_tmpdir();
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		char cmd[1024], dir[600];
		snprintf(dir, sizeof dir, "%s/%s", tmp, targets[i].name);
		snprintf(cmd, sizeof cmd, "cd '%s' && sh tests/fuzz/seed.sh %s '%s'", tu_path(""), targets[i].name, dir);
		CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
		int n = replay_dir(dir, targets[i].fn);
		if (n == 0)
			fprintf(stderr, "fuzz target %s has no seeds\n", targets[i].name);
		CU_ASSERT(n > 0);
	}
}

void suite_fuzz_regress(void)
{
	TU_SUITE("fuzz_regress", {"regressions_replay_clean", regressions_replay_clean},
		 {"seeds_replay_clean", seeds_replay_clean});
}
