/* bench/bench.h -- the benchmark runner's helpers.  Benchmarks print measured
 * figures and compare them with the goals; they never run inside `make check`. */
#ifndef IW_BENCH_H
#define IW_BENCH_H

#include <stdio.h>

double bench_now(void);            /* monotonic seconds */
double bench_cpu_now(void);        /* CPU seconds of this process: other work on a shared machine does not count */
/* Peak resident set (KiB) of a child process that runs fn(arg) (non-zero:
 * failed, -1 returned): a figure of that work alone, whatever ran before it
 * in the runner. */
long bench_child_rss_kb(int (*fn)(void *), void *arg);
/* Print one result line: name, value, unit, goal text and whether it was met. */
void bench_report(const char *name, double value, const char *unit, const char *goal, int met);
const char *bench_path(const char *rel); /* absolute path in the source tree */

#endif
