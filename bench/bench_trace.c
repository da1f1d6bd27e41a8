/* bench/bench_trace.c -- Accel-Sim trace parsing speed and resident memory.
 *
 * Builds a large synthetic trace in $TMPDIR (default /tmp) by repeating the
 * real matrixmul-sm61 thread block (32 warps, 138 instructions each, memory
 * lines with addresses) N times with distinct block ids, then:
 *  1. reads it warp after warp (what trace-info does): MB/s of trace text;
 *  2. reads it the way the simulator does: 160 CTAs (5120 warps, 80 SMs x
 *     64 warps) resident at once, one instruction per warp in turn, CTAs
 *     replaced as they finish: MB/s and the peak resident set, which must not
 *     depend on the trace length (only on the resident warps);
 *  3. the xz path on a compressed copy of the real fixture (MB/s of text);
 *  4. simulating a smaller copy with the in-order scheme on v100 against
 *     only parsing it (issue 3: at most 2x), CPU time of this process.
 * Goal (issue 3): >= 100 MB/s of uncompressed text on one core.
 */
#include "bench.h"
#include "iw.h"
#include "perf.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define CTAS 1400     /* ~ 250 MB of text */
#define SIM_CTAS 300  /* ~ 54 MB, 1.3 M warp-instructions: simulated with inorder */

static char *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)len + 1);
	if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s)
		s[len] = 0;
	*n = (size_t)len;
	return s;
}

static uint64_t make_trace(const char *path, int ctas)
{
	size_t n;
	char *src = read_all(bench_path("tests/data/traces/matrixmul-sm61/kernel-1.traceg"), &n);
	if (!src)
		return 0;
	char *body = strstr(src, "#BEGIN_TB");
	char *tb = strstr(body, "thread block = 0,0,0");
	char *warps = strchr(tb, '\n') + 1;
	char *end = strstr(warps, "#END_TB");
	FILE *f = fopen(path, "w");
	if (!f) {
		free(src);
		return 0;
	}
	/* header with the grid widened to CTAS blocks */
	char *grid = strstr(src, "-grid dim");
	fwrite(src, 1, (size_t)(grid - src), f);
	fprintf(f, "-grid dim = (%d,1,1)\n", ctas);
	char *after = strchr(grid, '\n') + 1;
	fwrite(after, 1, (size_t)(body - after), f);
	for (int c = 0; c < ctas; c++) {
		fprintf(f, "#BEGIN_TB\n\nthread block = %d,0,0\n", c);
		fwrite(warps, 1, (size_t)(end - warps), f);
		fputs("#END_TB\n\n", f);
	}
	uint64_t size = (uint64_t)ftell(f);
	fclose(f);
	free(src);
	return size;
}

/* Sequential: every warp of a CTA to its end, then the next CTA. */
static int read_sequential(const char *path, uint64_t *insts)
{
	struct iw_workload *w;
	struct iw_err e = {0};
	if (iw_trace_open(path, &w, &e))
		return -1;
	struct iw_kernel_info ki;
	struct iw_cta cta;
	struct iw_inst in;
	struct iw_mem_addrs ma;
	int r = 0;
	while (w->ops->next_kernel(w, &ki, &e) == 1)
		while ((r = w->ops->next_cta(w, &cta, &e)) == 1) {
			for (uint32_t i = 0; i < cta.warps; i++)
				while ((r = w->ops->fetch(w, &cta, i, &in, &ma, &e)) == 1)
					(*insts)++;
			w->ops->release_cta(w, &cta);
		}
	iw_workload_close(w);
	if (e.code)
		fprintf(stderr, "%s\n", e.msg);
	return e.code ? -1 : 0;
}

/* Interleaved like the simulator: many CTAs resident, one instruction per
 * warp in turn. */
#define RESIDENT 160
static int read_interleaved(const char *path, uint64_t *insts)
{
	struct iw_workload *w;
	struct iw_err e = {0};
	if (iw_trace_open(path, &w, &e))
		return -1;
	struct iw_kernel_info ki;
	static struct iw_cta cta[RESIDENT];
	static uint32_t live[RESIDENT];
	static uint8_t done[RESIDENT][64];
	int used[RESIDENT] = {0};
	struct iw_inst in;
	struct iw_mem_addrs ma;
	while (w->ops->next_kernel(w, &ki, &e) == 1) {
		int more = 1, nlive = 0;
		for (;;) {
			for (int s = 0; s < RESIDENT && more; s++)
				if (!used[s]) {
					int r = w->ops->next_cta(w, &cta[s], &e);
					if (r != 1) {
						more = 0;
						break;
					}
					used[s] = 1;
					nlive++;
					live[s] = cta[s].warps;
					memset(done[s], 0, sizeof done[s]);
				}
			if (!nlive)
				break;
			for (int s = 0; s < RESIDENT; s++) {
				if (!used[s])
					continue;
				for (uint32_t i = 0; i < cta[s].warps && i < 64; i++) {
					if (done[s][i])
						continue;
					int r = w->ops->fetch(w, &cta[s], i, &in, &ma, &e);
					if (r == 1)
						(*insts)++;
					else {
						done[s][i] = 1;
						live[s]--;
					}
				}
				if (!live[s]) {
					w->ops->release_cta(w, &cta[s]);
					used[s] = 0;
					nlive--;
				}
			}
			if (e.code)
				break;
		}
	}
	iw_workload_close(w);
	return e.code ? -1 : 0;
}

/* For bench_child_rss_kb: nothing (the runner's own resident set), and
 * the read of the trace at `path` with 5120 warps resident. */
static int read_none(void *path)
{
	(void)path;
	return 0;
}
static int read_interleaved_at(void *path)
{
	uint64_t insts = 0;
	return read_interleaved(path, &insts);
}

void bench_trace(void)
{
	const char *td = getenv("TMPDIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/issuewatt-bench-%d.traceg", td && *td ? td : "/tmp", (int)getpid());
	uint64_t size = make_trace(path, CTAS);
	if (!size) {
		bench_report("trace: synthetic trace written", 0, "MB", "written", 0);
		return;
	}
	uint64_t insts = 0;
	double t0 = bench_now();
	int rc = read_sequential(path, &insts);
	double t1 = bench_now();
	double mbs = (double)size / 1e6 / (t1 - t0);
	bench_report("trace: parse, warp after warp", rc ? 0 : mbs, "MB/s", ">= 100 MB/s", !rc && mbs >= 100);
	bench_report("trace: warp-instructions parsed per second", rc ? 0 : (double)insts / (t1 - t0) / 1e6,
		     "M inst/s", "(informative)", 1);
	insts = 0;
	t0 = bench_now();
	rc = read_interleaved(path, &insts);
	t1 = bench_now();
	mbs = (double)size / 1e6 / (t1 - t0);
	bench_report("trace: parse, 5120 warps resident", rc ? 0 : mbs, "MB/s", ">= 100 MB/s", !rc && mbs >= 100);
	/* memory: the 5120-warp read in a process of its own, against one that
	 * reads nothing */
	long rss0 = bench_child_rss_kb(read_none, path), rss = bench_child_rss_kb(read_interleaved_at, path);
	char goal[64];
	snprintf(goal, sizeof goal, "< 200 MB (%.0f MB trace)", (double)size / 1e6);
	bench_report("trace: peak resident set", (double)rss / 1024.0, "MiB", goal, rss > 0 && rss < 200 * 1024);
	bench_report("trace: resident set added by reading", (double)(rss - rss0) / 1024.0, "MiB",
		     "(informative)", rss0 > 0 && rss > 0);
	unlink(path);

	/* xz: decompress + parse the compressed real fixture many times */
	insts = 0;
	t0 = bench_now();
	int reps = 50;
	for (int i = 0; i < reps && !rc; i++)
		rc = read_sequential(bench_path("tests/data/traces/vectoradd-sm61-xz"), &insts);
	t1 = bench_now();
	size_t n;
	char *plain = read_all(bench_path("tests/data/traces/vectoradd-sm61/kernel-1.traceg"), &n);
	free(plain);
	bench_report("trace: .xz open + decompress + parse", rc ? 0 : (double)n * reps / 1e6 / (t1 - t0), "MB/s",
		     "(informative, small file)", 1);

	/* simulate vs parse */
	snprintf(path, sizeof path, "%s/issuewatt-bench-sim-%d.traceg", td && *td ? td : "/tmp", (int)getpid());
	if (!make_trace(path, SIM_CTAS))
		return;
	insts = 0;
	t0 = cpu_now();
	rc = read_sequential(path, &insts);
	double parse = cpu_now() - t0;
	struct iw_config cfg;
	struct iw_err e = {0};
	struct iw_workload *w = NULL;
	struct iw_run_result res;
	memset(&res, 0, sizeof res);
	iw_config_defaults(&cfg);
	double sim = 0;
	if (!rc && iw_config_load(&cfg, "v100", NULL, &e) == 0 && iw_trace_open(path, &w, &e) == 0) {
		struct iw_sim_opts o = {.cfg = &cfg, .scheme = "inorder"};
		t0 = cpu_now();
		rc = iw_simulate(&o, w, &res, &e);
		sim = cpu_now() - t0;
		iw_run_result_free(&res);
	} else
		rc = -1;
	if (rc)
		fprintf(stderr, "bench_trace: %s\n", e.msg);
	iw_workload_close(w);
	unlink(path);
	bench_report("trace: parse only (CPU s, 1.3 M warp-inst)", parse, "s", "(informative)", 1);
	bench_report("trace: simulate inorder / parse only", rc ? 0 : sim / parse, "x", "<= 2", !rc && sim <= 2 * parse);
}
