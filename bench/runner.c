/* bench/runner.c -- runs every benchmark (or those named) and summarises. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define IW_BENCH(name) void bench_##name(void);
#include "benches.h"
#undef IW_BENCH

static int missed;

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

long bench_child_rss_kb(int (*fn)(void *), void *arg)
{
	fflush(NULL); /* the child exits with _exit: nothing buffered twice */
	pid_t p = fork();
	if (p == 0)
		_exit(fn(arg) ? 1 : 0);
	int st;
	struct rusage ru;
	if (p < 0 || wait4(p, &st, 0, &ru) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return ru.ru_maxrss;
}

const char *bench_path(const char *rel)
{
	static char buf[4][1024];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", IW_SRCDIR, rel);
	return buf[k];
}

void bench_report(const char *name, double value, const char *unit, const char *goal, int met)
{
	printf("%-48s %14.3f %-12s goal %-22s %s\n", name, value, unit, goal, met ? "met" : "MISSED");
	fflush(stdout);
	missed += !met;
}

static const struct {
	const char *name;
	void (*fn)(void);
} benches[] = {
#define IW_BENCH(name) {#name, bench_##name},
#include "benches.h"
#undef IW_BENCH
};

int main(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
		int want = argc < 2;
		for (int a = 1; a < argc; a++)
			want |= strcmp(argv[a], benches[i].name) == 0;
		if (want)
			benches[i].fn();
	}
	printf("%d goal(s) missed\n", missed);
	return missed ? 1 : 0;
}
