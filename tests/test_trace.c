/* tests/test_trace.c -- Accel-Sim trace reader, SASS opcode table, trace-info. */
#include "iw.h"
#include "perf.h"
#include "reports.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ------------------------------------------------------------- helpers */
/* A fixture under the source tree, or a folder a test wrote (absolute). */
static const char *tpath(const char *p) { return p[0] == '/' ? p : tu_path(p); }

struct tally {
	uint64_t kernels, ctas, insts, mask0, taken, pred_branch, mem_addrs;
	uint64_t unit[IW_UNIT_COUNT];
	struct iw_kernel_info ki;
	int rc;
	char msg[1600];
};

static void walk(const char *rel, struct tally *t)
{
	memset(t, 0, sizeof *t);
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	t->rc = iw_trace_open(tpath(rel), &w, &e);
	if (t->rc)
		goto out;
	for (;;) {
		struct iw_kernel_info ki;
		int r = w->ops->next_kernel(w, &ki, &e);
		if (r <= 0) {
			t->rc = r;
			break;
		}
		t->kernels++;
		t->ki = ki;
		struct iw_cta cta;
		while ((r = w->ops->next_cta(w, &cta, &e)) == 1) {
			t->ctas++;
			for (uint32_t i = 0; i < cta.warps && r >= 0; i++) {
				struct iw_inst in;
				struct iw_mem_addrs ma;
				while ((r = w->ops->fetch(w, &cta, i, &in, &ma, &e)) == 1) {
					t->insts++;
					t->unit[in.unit]++;
					t->mask0 += (in.flags & IW_F_MASK0) != 0;
					t->taken += (in.flags & IW_F_TAKEN) != 0;
					t->pred_branch += (in.flags & IW_F_PRED_BRANCH) != 0;
					t->mem_addrs += ma.n;
				}
			}
			w->ops->release_cta(w, &cta);
			if (r < 0)
				break;
		}
		if (r < 0) {
			t->rc = r;
			break;
		}
	}
out:
	snprintf(t->msg, sizeof t->msg, "%s", e.msg);
	iw_workload_close(w);
}

static void real_fixtures_count_and_header(void)
{
	struct tally t;
	walk("tests/data/traces/vectoradd-sm61", &t);
	CU_ASSERT_EQUAL(t.rc, 0);
	CU_ASSERT_EQUAL(t.kernels, 1);
	CU_ASSERT_EQUAL(t.insts, 344);
	CU_ASSERT_STRING_EQUAL(t.ki.name, "_Z6vecAddIfEvPT_S1_S1_i");
	CU_ASSERT_EQUAL(t.ki.grid[0], 1);
	CU_ASSERT_EQUAL(t.ki.block[0], 1024);
	CU_ASSERT_EQUAL(t.ki.block[1], 1);
	CU_ASSERT_EQUAL(t.ki.nregs, 8);
	CU_ASSERT_EQUAL(t.ki.shmem, 0);
	CU_ASSERT_EQUAL(t.ki.binary_version, 61);
	CU_ASSERT_EQUAL(t.ki.tracer_version, 4);
	CU_ASSERT_EQUAL(t.ki.warps_per_cta, 32);
	CU_ASSERT_EQUAL(t.ki.ctas, 1);
	/* mix counted from the file's opcode column: EXIT 36; LDG 8 + STG 4; FADD 4 */
	CU_ASSERT_EQUAL(t.unit[IW_UNIT_BRANCH], 36);
	CU_ASSERT_EQUAL(t.unit[IW_UNIT_MEM], 12);
	CU_ASSERT_EQUAL(t.unit[IW_UNIT_SP], 4);
	CU_ASSERT_EQUAL(t.unit[IW_UNIT_INT], 292);
	CU_ASSERT_EQUAL(t.mask0, 3);

	walk("tests/data/traces/matrixmul-sm61/kernelslist.g", &t);
	CU_ASSERT_EQUAL(t.rc, 0);
	CU_ASSERT_EQUAL(t.insts, 4416);
	CU_ASSERT_STRING_EQUAL(t.ki.name, "_Z8mult_gpuIfEvPT_S1_S1_ii");
	CU_ASSERT_EQUAL(t.ki.block[0], 32);
	CU_ASSERT_EQUAL(t.ki.block[1], 32);
	CU_ASSERT_EQUAL(t.ki.nregs, 30);
	CU_ASSERT_EQUAL(t.ki.shmem, 8192);
	CU_ASSERT_EQUAL(t.ki.warps_per_cta, 32);

	walk("tests/data/traces/matrixmul-sm61/kernel-1.traceg", &t);
	CU_ASSERT_EQUAL(t.rc, 0);
	CU_ASSERT_EQUAL(t.insts, 4416);
}

/* Pull the instructions of one warp of one CTA into arrays. */
#define MAXI 32
struct warp_dump {
	int n;
	struct iw_inst in[MAXI];
	struct iw_mem_addrs ma[MAXI];
	char names[MAXI][24];
};

static int dump_warp(const char *rel, uint64_t want_cta, uint32_t warp, struct warp_dump *d)
{
	memset(d, 0, sizeof *d);
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	struct iw_kernel_info ki;
	struct iw_cta cta;
	int rc = iw_trace_open(tpath(rel), &w, &e);
	if (rc || w->ops->next_kernel(w, &ki, &e) != 1) {
		iw_workload_close(w);
		return -1;
	}
	while (w->ops->next_cta(w, &cta, &e) == 1) {
		if (cta.id == want_cta)
			while (d->n < MAXI && w->ops->fetch(w, &cta, warp, &d->in[d->n], &d->ma[d->n], &e) == 1) {
				snprintf(d->names[d->n], sizeof d->names[0], "%s",
					 iw_trace_opcode_name(w, d->in[d->n].opcode));
				d->n++;
			}
		w->ops->release_cta(w, &cta);
	}
	iw_workload_close(w);
	return e.code ? -1 : 0;
}

static void derived_semantics(void)
{
	struct warp_dump d;
	CU_ASSERT_EQUAL_FATAL(dump_warp("tests/data/traces/hand/v3", 0, 0, &d), 0);
	CU_ASSERT_EQUAL_FATAL(d.n, 12);
	/* MOV R1 <- R255: RZ is no dependence */
	CU_ASSERT_EQUAL(d.in[0].ndst, 1);
	CU_ASSERT_EQUAL(d.in[0].dst[0], 1);
	CU_ASSERT_EQUAL(d.in[0].nsrc, 0);
	/* IMAD.WIDE R4 <- R2, RZ, R6: writes R4,R5, reads R2 and the pair R6,R7 */
	CU_ASSERT_EQUAL(d.in[2].ndst, 2);
	CU_ASSERT_EQUAL(d.in[2].dst[1], 5);
	CU_ASSERT_EQUAL(d.in[2].nsrc, 3);
	CU_ASSERT_EQUAL(d.in[2].src[0], 2);
	CU_ASSERT_EQUAL(d.in[2].src[1], 6);
	CU_ASSERT_EQUAL(d.in[2].src[2], 7);
	/* LDG.E.64: R8,R9 from the address pair R4,R5; 32 lanes, mode 1 */
	CU_ASSERT_STRING_EQUAL(d.names[3], "LDG");
	CU_ASSERT_EQUAL(d.in[3].unit, IW_UNIT_MEM);
	CU_ASSERT_EQUAL(d.in[3].space, IW_SPACE_GLOBAL);
	CU_ASSERT(d.in[3].flags & IW_F_LOAD);
	CU_ASSERT_EQUAL(d.in[3].ndst, 2);
	CU_ASSERT_EQUAL(d.in[3].dst[1], 9);
	CU_ASSERT_EQUAL(d.in[3].nsrc, 2);
	CU_ASSERT_EQUAL(d.in[3].src[1], 5);
	CU_ASSERT_EQUAL(d.in[3].mem_width, 8);
	CU_ASSERT_EQUAL(d.ma[3].n, 32);
	CU_ASSERT_EQUAL(d.ma[3].addr[0], 0x7f0000001000ull);
	CU_ASSERT_EQUAL(d.ma[3].addr[31], 0x7f0000001000ull + 31 * 8);
	/* STS: shared store, data R8 only (R255 address dropped) */
	CU_ASSERT_EQUAL(d.in[4].space, IW_SPACE_SHARED);
	CU_ASSERT(d.in[4].flags & IW_F_STORE);
	CU_ASSERT_EQUAL(d.in[4].nsrc, 1);
	CU_ASSERT_EQUAL(d.ma[4].addr[5], 40);
	/* ISETP then BRA: compare, then a control-dependent taken branch */
	CU_ASSERT(d.in[5].flags & IW_F_SETS_PRED);
	CU_ASSERT(d.in[6].flags & IW_F_CONTROL);
	CU_ASSERT(d.in[6].flags & IW_F_TAKEN);
	CU_ASSERT(d.in[6].flags & IW_F_PRED_BRANCH);
	CU_ASSERT_EQUAL(d.in[6].unit, IW_UNIT_BRANCH);
	CU_ASSERT_FALSE(d.in[7].flags & (IW_F_TAKEN | IW_F_CONTROL));
	/* mode 2 addresses: base then deltas, 16 active lanes */
	CU_ASSERT_EQUAL(d.ma[8].n, 16);
	CU_ASSERT_EQUAL(d.ma[8].addr[0], 0x7f0000001000ull + 0x800 + 64);
	CU_ASSERT_EQUAL(d.ma[8].addr[1], 0x7f0000001000ull + 0x804);
	CU_ASSERT_EQUAL(d.ma[8].addr[15], 0x7f0000001000ull + 0x800 + 60 + 64);
	/* predicated-off EXIT falls through: mask 0, not taken, no second flag */
	CU_ASSERT(d.in[9].flags & IW_F_MASK0);
	CU_ASSERT(d.in[9].flags & IW_F_RETURN);
	CU_ASSERT_FALSE(d.in[9].flags & IW_F_TAKEN);
	CU_ASSERT_FALSE(d.in[9].flags & IW_F_PRED_BRANCH);
	/* unknown opcode: named, simulated as INT */
	CU_ASSERT_STRING_EQUAL(d.names[10], "FOOBAR");
	CU_ASSERT_EQUAL(d.in[10].unit, IW_UNIT_INT);
	CU_ASSERT(d.in[10].opcode >= iw_opcode_count());
	/* the last instruction has no successor: not taken */
	CU_ASSERT_FALSE(d.in[11].flags & IW_F_TAKEN);

	/* warp 1 of CTA 0 has insts = 0; CTA 1 lists its warps in reverse order */
	CU_ASSERT_EQUAL(dump_warp("tests/data/traces/hand/v3", 0, 1, &d), 0);
	CU_ASSERT_EQUAL(d.n, 0);
	CU_ASSERT_EQUAL(dump_warp("tests/data/traces/hand/v3", 1, 1, &d), 0);
	CU_ASSERT_EQUAL(d.n, 3);
	CU_ASSERT_EQUAL(dump_warp("tests/data/traces/hand/v3", 1, 0, &d), 0);
	CU_ASSERT_EQUAL(d.n, 12);
	CU_ASSERT_EQUAL(d.ma[3].addr[0], 0x7f0000002000ull);

	/* Pascal encoding: 0x58 falls through to 0x68 (0x60 is a control word);
	 * @P EXIT after ISETP is control-dependent on it */
	CU_ASSERT_EQUAL(dump_warp("tests/data/traces/vectoradd-sm61", 0, 0, &d), 0);
	CU_ASSERT_STRING_EQUAL(d.names[8], "EXIT");
	CU_ASSERT_EQUAL(d.in[8].pc, 0x58);
	CU_ASSERT(d.in[8].flags & IW_F_MASK0);
	CU_ASSERT_FALSE(d.in[8].flags & IW_F_TAKEN);
	CU_ASSERT(d.in[8].flags & IW_F_PRED_BRANCH);
}

static void every_version_reads_the_same(void)
{
	static const char *const v[] = {"v0", "v1", "v2", "v3", "v4", "v4-lineinfo", "v5", "v5-lineinfo",
					"v3-xz", "v5-xz"};
	struct warp_dump ref, d;
	CU_ASSERT_EQUAL_FATAL(dump_warp("tests/data/traces/hand/v3", 0, 0, &ref), 0);
	for (size_t i = 0; i < IW_ARRAY_LEN(v); i++) {
		char rel[128];
		snprintf(rel, sizeof rel, "tests/data/traces/hand/%s", v[i]);
		struct tally t;
		walk(rel, &t);
		CU_ASSERT_EQUAL(t.rc, 0);
		CU_ASSERT_EQUAL(t.insts, 27);
		CU_ASSERT_EQUAL(t.ctas, 2);
		CU_ASSERT_EQUAL(t.mask0, 2);
		CU_ASSERT_EQUAL(t.taken, 2);
		CU_ASSERT_EQUAL(t.mem_addrs, 2 * (32 + 32 + 16));
		CU_ASSERT_EQUAL(dump_warp(rel, 0, 0, &d), 0);
		CU_ASSERT_EQUAL(d.n, ref.n);
		for (int k = 0; k < d.n && k < ref.n; k++) {
			CU_ASSERT_EQUAL(memcmp(&d.in[k], &ref.in[k], sizeof d.in[k]), 0);
			CU_ASSERT_EQUAL(d.ma[k].n, ref.ma[k].n);
			CU_ASSERT_EQUAL(memcmp(d.ma[k].addr, ref.ma[k].addr, d.ma[k].n * sizeof(uint64_t)), 0);
		}
	}
	struct tally t;
	walk("tests/data/traces/hand/multi", &t);
	CU_ASSERT_EQUAL(t.rc, 0);
	CU_ASSERT_EQUAL(t.kernels, 2);
	CU_ASSERT_EQUAL(t.insts, 54);
}

static char *slurp(const char *rel, size_t *n);

static void compressed_equals_plain(void)
{
	static char a[8192], b[8192], args[1200];
	CU_ASSERT_EQUAL(tu_run("trace-info --format csv tests/data/traces/vectoradd-sm61", a, sizeof a, NULL, 0), 0);
	CU_ASSERT_EQUAL(tu_run("trace-info --format csv tests/data/traces/vectoradd-sm61-xz", b, sizeof b, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, ",344,"));
	CU_ASSERT_EQUAL(tu_run("trace-info --format csv tests/data/traces/vectoradd-sm61-gz", b, sizeof b, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(a, b);
	/* a gzip file of several members (as `cat a.gz b.gz` makes) reads as their concatenation */
	size_t n;
	char *s = slurp("tests/data/traces/vectoradd-sm61/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const char *dir = tu_tmpdir();
	char path[1100];
	snprintf(path, sizeof path, "%s/kernel-1.traceg.gz", dir);
	for (size_t part = 0; part < 3; part++) { /* cut anywhere, even mid-line */
		gzFile g = gzopen(path, part ? "ab" : "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(g);
		size_t from = n * part / 3, to = n * (part + 1) / 3;
		CU_ASSERT_EQUAL(gzwrite(g, s + from, (unsigned)(to - from)), (int)(to - from));
		gzclose(g);
	}
	free(s);
	CU_ASSERT_EQUAL(tu_run("trace-info --format csv tests/data/traces/vectoradd-sm61/kernel-1.traceg", a, sizeof a, NULL,
			       0), 0);
	snprintf(args, sizeof args, "trace-info --format csv %s", path);
	CU_ASSERT_EQUAL(tu_run(args, b, sizeof b, NULL, 0), 0);
	const char *ra = strchr(a, '\n'), *rb = strchr(b, '\n'); /* (the rows name the file) */
	CU_ASSERT_FATAL(ra && rb);
	CU_ASSERT_STRING_EQUAL(strchr(ra, ','), strchr(rb, ','));
	CU_ASSERT_EQUAL(tu_run("trace-info tests/data/traces/hand/v5", a, sizeof a, NULL, 0), 0);
	CU_ASSERT_EQUAL(tu_run("trace-info tests/data/traces/hand/v5-xz", b, sizeof b, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(a, b);
}

static void trace_info_reports(void)
{
	static char out[8192], err[4096];
	CU_ASSERT_EQUAL(tu_run("trace-info tests/data/traces/matrixmul-sm61", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "warp-instructions 4416"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "registers 30"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "shared memory 8192 B"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "binary version 61"));
	/* three 32x32 float matrices = 3 x 4096 B = 384 sectors */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "footprint: 384 distinct 32-byte sectors"));
	/* the unknown opcode is warned about once, with its count */
	CU_ASSERT_EQUAL(tu_run("trace-info tests/data/traces/hand/v4", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "unknown opcodes: FOOBAR (2)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "FOOBAR"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(2 instructions in 1 kernel)"));
	CU_ASSERT_PTR_NULL(strstr(strstr(err, "FOOBAR") + 1, "FOOBAR"));
	/* 8 sectors (LDG) + 4 (STG) per CTA, two CTAs at different addresses */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "footprint: 24 distinct"));
	/* and once per process: every scheme reads the kernel, two at a time */
	CU_ASSERT_EQUAL(tu_run("run -q -s all -j 2 -w tests/data/traces/hand/v4 --format csv", out, sizeof out, err,
			       sizeof err),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "FOOBAR is not in the SASS table (2 instructions in 1 kernel)"));
	CU_ASSERT_PTR_NULL(strstr(strstr(err, "FOOBAR") + 1, "FOOBAR"));
	CU_ASSERT_EQUAL(tu_run("trace-info", NULL, 0, err, sizeof err), 2);
	CU_ASSERT_EQUAL(tu_run("trace-info --format xml tests/data/traces/hand/v4", NULL, 0, err, sizeof err), 2);
	/* JSON: one valid document with the same figures (two kernels here) */
	CU_ASSERT_EQUAL(tu_run("trace-info --format json tests/data/traces/hand/multi", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(tu_json_valid(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"kernel\": 2, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"total\": {\"kernels\": 2, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"unknown_opcodes\": {\"FOOBAR\": 4}"));
	CU_ASSERT_EQUAL(tu_run("trace-info --format json tests/data/traces/matrixmul-sm61", out, sizeof out, err, sizeof err),
			0);
	CU_ASSERT(tu_json_valid(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"warp_insts\": 4416, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"footprint_sectors\": 384, "));
	/* --help says how the JSON differs from the csv: the nested objects */
	CU_ASSERT_EQUAL(tu_run("trace-info --help", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "the csv's fields)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "grid and block as [x, y, z]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "as {\"UNIT\": count, ...}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "unknown_opcodes as\n                 {\"OPCODE\": count, ...}"));
}

/* The real traces simulate end to end; compressed and plain give the same run. */
static void real_traces_simulate(void)
{
	static char a[4096], b[4096];
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -s inorder --format csv -w tests/data/traces/matrixmul-sm61", a, sizeof a,
				     NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "\nmatrixmul-sm61,inorder,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(a, ",4416,"));
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -s inorder --format csv -w tests/data/traces/vectoradd-sm61", a, sizeof a,
				     NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -s inorder --format csv -w tests/data/traces/vectoradd-sm61-xz", b,
				     sizeof b, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, ",344,"));
	/* same numbers after the workload name */
	const char *ra = strstr(a, "vectoradd-sm61,"), *rb = strstr(b, "vectoradd-sm61-xz,");
	CU_ASSERT_FATAL(ra && rb);
	CU_ASSERT_STRING_EQUAL(ra + strlen("vectoradd-sm61,"), rb + strlen("vectoradd-sm61-xz,"));
	/* gzip: its list names kernel-1.traceg, the folder holds kernel-1.traceg.gz */
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -s inorder --format csv -w tests/data/traces/vectoradd-sm61-gz", b,
				     sizeof b, NULL, 0), 0);
	rb = strstr(b, "vectoradd-sm61-gz,");
	CU_ASSERT_FATAL(rb != NULL);
	CU_ASSERT_STRING_EQUAL(ra + strlen("vectoradd-sm61,"), rb + strlen("vectoradd-sm61-gz,"));
	/* a broken trace stops the run with exit 3 */
	CU_ASSERT_EQUAL(tu_run("run -q -s inorder -w /nonexistent/kernelslist.g", NULL, 0, NULL, 0), 3);
}

/* Copy a fixture file into folder `dir` as `name`. */
static int copy_into(const char *rel, const char *dir, const char *name)
{
	char dst[700];
	snprintf(dst, sizeof dst, "%s/%s", dir, name);
	FILE *in = fopen(tu_path(rel), "rb"), *out = fopen(dst, "wb");
	int ok = in && out;
	char buf[8192];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ok = 0;
	return ok ? 0 : -1;
}

/* The contents of file `name` in folder `dir` (NULL if unreadable). */
static char *in_dir(const char *dir, const char *name)
{
	char path[700];
	size_t n;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return slurp(path, &n);
}

/* Does file `name` in folder `dir` hold `needle`?  (0 if unreadable: each
 * file is also checked for something it must hold.) */
static int in_file(const char *dir, const char *name, const char *needle)
{
	char *t = in_dir(dir, name);
	int has = t && strstr(t, needle);
	free(t);
	return has;
}

/* The three-kernel trace (vectoradd, matrixmul, vectoradd again) of the
 * per-kernel tests, in a folder of its own. */
static const char *three_kernels(void)
{
	static char dir[600];
	snprintf(dir, sizeof dir, "%s/three", tu_tmpdir());
	char list[700];
	snprintf(list, sizeof list, "%s/kernelslist.g", dir);
	FILE *f;
	if (mkdir(dir, 0700) || copy_into("tests/data/traces/vectoradd-sm61/kernel-1.traceg", dir, "kernel-1.traceg") ||
	    copy_into("tests/data/traces/matrixmul-sm61/kernel-1.traceg", dir, "kernel-2.traceg") ||
	    copy_into("tests/data/traces/vectoradd-sm61/kernel-1.traceg", dir, "kernel-3.traceg") ||
	    !(f = fopen(list, "w")))
		return NULL;
	fputs("MemcpyHtoD,0x00007fb02d700000,4096\nkernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n", f);
	return fclose(f) ? NULL : dir;
}

/* A run of a multi-kernel trace reports each kernel, as Accel-Sim's
 * per-kernel statistics do: its instructions are the trace's, the kernels'
 * cycles add up to the run's (each starts the cycle after the one before
 * ended), and both simulation orders agree on every record. */
static void kernels_are_timed_one_by_one(void)
{
	const char *dir = three_kernels();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	static const char *const schemes[] = {"inorder", "ghost", "loog"};
	for (size_t si = 0; si < 3; si++) {
		struct iw_run_result r[2];
		for (int order = 0; order < 2; order++) {
			struct iw_config c;
			struct iw_err e = {0};
			struct iw_workload *w = NULL;
			iw_config_defaults(&c);
			CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "v100", NULL, &e), 0);
			CU_ASSERT_EQUAL_FATAL(iw_trace_open(dir, &w, &e), 0);
			struct iw_sim_opts o = {.cfg = &c, .scheme = schemes[si], .cycle_major = order};
			CU_ASSERT_EQUAL_FATAL(iw_simulate(&o, w, &r[order], &e), 0);
			iw_workload_close(w);
		}
		const struct iw_run_result *a = &r[0];
		CU_ASSERT_EQUAL_FATAL(a->nkstats, 3);
		CU_ASSERT_EQUAL(a->kernels, 3);
		static const uint64_t insts[] = {344, 4416, 344};
		uint64_t next = 0, cycles = 0;
		double busy = 0;
		for (int k = 0; k < 3; k++) {
			const struct iw_kernel_stat *ks = &a->kstats[k];
			CU_ASSERT_EQUAL(ks->warp_insts, insts[k]);
			CU_ASSERT_EQUAL(ks->ctas, 1);
			CU_ASSERT_EQUAL(ks->start, next);
			CU_ASSERT(ks->cycles > 0);
			CU_ASSERT_DOUBLE_EQUAL(ks->ipc, (double)ks->warp_insts / (double)ks->cycles, 1e-12);
			next = ks->start + ks->cycles;
			cycles += ks->cycles;
			busy += ks->sm_busy_mean;
		}
		CU_ASSERT_STRING_EQUAL(a->kstats[0].name, "_Z6vecAddIfEvPT_S1_S1_i");
		CU_ASSERT_STRING_EQUAL(a->kstats[1].name, "_Z8mult_gpuIfEvPT_S1_S1_ii");
		CU_ASSERT_EQUAL(cycles, a->cycles);
		CU_ASSERT_DOUBLE_EQUAL(busy, a->sm_busy_mean, 1e-9 * a->sm_busy_mean);
		/* one CTA on one of 80 SMs: busy 1/80 of the kernel, less its launch cycle */
		CU_ASSERT(a->kstats[0].sm_busy_mean > 0 && a->kstats[0].sm_busy_mean <= a->kstats[0].cycles / 80.0);
		/* the L2 keeps its contents from one kernel to the next: the
		 * second vectoradd finds its data there and is faster */
		CU_ASSERT(a->kstats[2].cycles < a->kstats[0].cycles);
		CU_ASSERT(isnan(a->kstats[0].energy_j)); /* no pricing hook here */
		CU_ASSERT_EQUAL(r[1].nkstats, 3);
		if (r[1].nkstats == 3)
			CU_ASSERT_EQUAL(memcmp(a->kstats, r[1].kstats, 3 * sizeof *a->kstats), 0);
		iw_run_result_free(&r[0]);
		iw_run_result_free(&r[1]);
	}
	/* Priced by a job, kernel by kernel: each kernel's energy and power
	 * follow its own activities, time, idle SMs and lanes; they add up to the
	 * run's energy to rounding (the run's per-lane static power is its
	 * kernels'), and a run of one kernel is its kernel exactly. */
	static const char *const wl[] = {NULL, "tests/data/traces/vectoradd-sm61"};
	for (int one = 0; one < 2; one++) {
		struct iw_job job;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_job_init(&job, "v100", "12nm", NULL, 0, "ghost", one ? tu_path(wl[1]) : dir, &e), 0);
		CU_ASSERT_EQUAL_FATAL(iw_job_run(&job, &e), 0);
		for (size_t i = 0; i < job.nrows; i++) {
			const struct iw_row *row = &job.rows[i];
			double sum = 0, hz = (double)row->run.cycles / row->seconds;
			CU_ASSERT_EQUAL(row->run.nkstats, one ? 1 : 3);
			for (size_t k = 0; k < row->run.nkstats; k++) {
				const struct iw_kernel_stat *ks = &row->run.kstats[k];
				CU_ASSERT(ks->energy_j > 0);
				CU_ASSERT_DOUBLE_EQUAL(ks->avg_power_w, ks->energy_j / ((double)ks->cycles / hz),
						       1e-9 * ks->avg_power_w);
				sum += ks->energy_j;
			}
			if (one) {
				CU_ASSERT(sum == row->power.energy_j);
			} else {
				CU_ASSERT(fabs(sum / row->power.energy_j - 1) < 1e-12);
			}
		}
		iw_job_free(&job);
	}

	/* the command line: a table per kernel, CSV rows per run and kernel, JSON records */
	static char out[16384], args[2048];
	snprintf(args, sizeof args, "run -q -s inorder,ghost --kernels -w '%s'", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nworkload       kernel name"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "_Z8mult_gpuIfEvPT_S1_S1_ii     ghost "));
	snprintf(args, sizeof args, "run -q -s ghost --kernels --format csv -w '%s'", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	int lines = 0;
	for (const char *p = out; (p = strchr(p, '\n')); p++)
		lines++;
	CU_ASSERT_EQUAL(lines, 1 + 2 * 3); /* header, inorder and ghost x 3 kernels */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",kernel,name,ctas,start,cycles,warp_insts,ipc,sm_busy_mean,energy_j,avg_power_w,energy_j_se,"
				  "avg_power_w_se,speedup,sm_speedup,energy_rel,energy_rel_se\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",inorder,v100,12nm,2,_Z8mult_gpuIfEvPT_S1_S1_ii,1,"));
	/* the baseline's kernels are its own reference (and the preset has no
	 * coefficient errors: 0) */
	const char *row = strstr(out, ",inorder,v100,12nm,3,");
	CU_ASSERT_FATAL(row != NULL);
	const char *eol = strchr(row, '\n');
	CU_ASSERT(eol && eol - row > 20 && strncmp(eol - 20, ",1.000000,1.000000,0", 20) == 0);
	/* the report: a per-kernel table in tables.tex, and kernels.csv */
	snprintf(args, sizeof args, "run -q -s ghost,loog -w '%s' -o '%s/three.h5'", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	snprintf(args, sizeof args, "report -q --no-render '%s/three.h5' -o '%s/report'", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT(in_file(dir, "report/tables.tex", "\\label{tab:kernels-1}"));
	CU_ASSERT(in_file(dir, "report/tables.tex", "kernel & name & cycles & inorder & ghost & loog \\\\"));
	CU_ASSERT(in_file(dir, "report/tables.tex", "\n2 & \\_Z8mult\\_gpuIfEvPT\\_S1\\_S1\\_ii & "));
	CU_ASSERT(in_file(dir, "report/tables.tex", "\n3 & \\_Z6vecAddIfEvPT\\_S1\\_S1\\_i & "));
	/* and a figure of the speed-up per kernel: 3 kernels x (in-order, ghost, loog) */
	CU_ASSERT(in_file(dir, "report/kernels_1.dat", "\n# kernel inorder ghost loog name\n1 1 "));
	CU_ASSERT(in_file(dir, "report/kernels_1.dat", "\n3 1 "));
	CU_ASSERT(!in_file(dir, "report/kernels_1.dat", "\n4 "));
	CU_ASSERT(in_file(dir, "report/index.html", "kernels_1.svg"));
	/* the power figure marks where kernels 2 and 3 of its first run start */
	CU_ASSERT(in_file(dir, "report/power.gp", "set label 'k2' at first "));
	CU_ASSERT(in_file(dir, "report/power.gp", "set label 'k3' at first "));
	CU_ASSERT(!in_file(dir, "report/power.gp", "set label 'k4'"));
	char *kcsv = in_dir(dir, "report/kernels.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(kcsv);
	lines = 0;
	for (const char *p = kcsv; (p = strchr(p, '\n')); p++)
		lines++;
	CU_ASSERT_EQUAL(lines, 1 + 3 * 3); /* header, inorder, ghost and loog x 3 kernels */
	free(kcsv);
	/* a list of one's own beside kernelslist.g runs a subset, named folder/list */
	char list[700];
	snprintf(list, sizeof list, "%s/second.g", dir);
	FILE *lf = fopen(list, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(lf);
	fputs("kernel-2.traceg\n", lf);
	fclose(lf);
	snprintf(args, sizeof args, "run -q -s inorder --format csv -w '%s' -w '%s'", list, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nthree/second.g,inorder,v100,12nm,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",4416,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nthree,inorder,v100,12nm,")); /* the whole trace keeps its folder's name */
	snprintf(args, sizeof args, "run -q -s ghost --format json -w '%s'", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT(tu_json_valid(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"kernels\": [{\"name\": \"_Z6vecAddIfEvPT_S1_S1_i\", \"ctas\": 1, \"start\": 0, "));
}

/* Lane operations and L1 sectors of a run of matrixmul-sm61 on v100 with
 * warp_size lanes and max_threads thread slots per SM (0: it did not fit). */
static uint64_t narrow_run(int warp_size, int max_threads, uint64_t *lane_ops, uint64_t *l1, char *msg, size_t msz)
{
	struct iw_config c;
	struct iw_err e = {0};
	struct iw_workload *w = NULL;
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "v100", NULL, &e), 0);
	c.warp_size = warp_size;
	c.max_threads = max_threads;
	CU_ASSERT_EQUAL_FATAL(iw_config_check(&c, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_trace_open(tu_path("tests/data/traces/matrixmul-sm61"), &w, &e), 0);
	struct iw_run_result r;
	memset(&r, 0, sizeof r);
	struct iw_sim_opts o = {.cfg = &c, .scheme = "inorder"};
	int rc = iw_simulate(&o, w, &r, &e);
	iw_workload_close(w);
	snprintf(msg, msz, "%s", rc ? e.msg : "");
	uint64_t insts = rc ? 0 : r.warp_insts;
	*lane_ops = r.act[IW_A_FU_INT_OP] + r.act[IW_A_FU_SP_OP] + r.act[IW_A_FU_MEM_OP];
	*l1 = r.act[IW_A_L1_ACCESS];
	if (!rc)
		iw_run_result_free(&r);
	return insts;
}

/* A warp has warp_size lanes: on a 16-lane SM (as vortex) each 32-lane warp
 * of a trace runs its first 16 lanes -- half the lane operations, half the
 * sectors of a coalesced load -- and its CTA takes warps x 16 thread slots:
 * matrixmul's CTA of 32 warps fits an SM of 512 threads with 16 lanes, and
 * is refused, with a message saying so, with 32. */
static void narrow_warps_run_their_own_lanes(void)
{
	uint64_t ops32, l132, ops16, l116;
	static char msg[sizeof((struct iw_err *)0)->msg];
	CU_ASSERT_EQUAL(narrow_run(32, 2048, &ops32, &l132, msg, sizeof msg), 4416);
	CU_ASSERT_EQUAL(narrow_run(16, 512, &ops16, &l116, msg, sizeof msg), 4416);
	CU_ASSERT(2 * ops16 <= ops32 && 2 * ops16 >= ops32 * 9 / 10);
	CU_ASSERT(l116 < l132 && 2 * l116 >= l132 * 9 / 10);
	CU_ASSERT_EQUAL(narrow_run(32, 512, &ops32, &l132, msg, sizeof msg), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "needs 32 warps, 1024 threads"));
}

/* A trace folder whose name holds a comma is one workload (the comma does
 * not split it), its CSV name is quoted, and any number of -w options is
 * kept (the list had a fixed 4 KiB buffer that dropped the tail): 25
 * folders, each named a,bxxx...xNN. */
static void workload_paths_with_commas_and_many_of_them(void)
{
	static char out[65536], args[16384];
	char dir[700], name[300];
	const char *tmp = tu_tmpdir();
	memset(name, 'x', 200);
	memcpy(name, "a,b", 3);
	name[198] = 0;
	size_t n = (size_t)snprintf(args, sizeof args, "run -q -s inorder --format csv -w vecadd --scale 0.01");
	for (int k = 0; k < 25; k++) { /* 25 x ~260 characters */
		snprintf(dir, sizeof dir, "%s/%s%02d", tmp, name, k);
		char cmd[2000];
		snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s'/* '%s'/", dir,
			 tu_path("tests/data/traces/vectoradd-sm61"), dir);
		CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
		n += (size_t)snprintf(args + n, sizeof args - n, " -w '%s'", dir);
	}
	CU_ASSERT_FATAL(n < sizeof args);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	int rows = 0;
	char quoted[310];
	snprintf(quoted, sizeof quoted, "\n\"%s", name);
	for (const char *p = out; (p = strstr(p, quoted)); p++) {
		CU_ASSERT_PTR_NOT_NULL(strncmp(p + 1 + strlen(name) + 3, "\",inorder,v100,12nm,", 20) == 0 ? p : NULL);
		CU_ASSERT_PTR_NOT_NULL(strstr(p, ",344,"));
		rows++;
	}
	CU_ASSERT_EQUAL(rows, 25);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nvecadd,inorder,"));
}

/* --------------------------------------------------------- bad input */
static char *slurp(const char *rel, size_t *n)
{
	FILE *f = fopen(rel[0] == '/' ? rel : tu_path(rel), "rb"); /* (an absolute path as it is) */
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

static void spit(const char *dir, const char *name, const char *data, size_t n)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(data, 1, n, f);
	fclose(f);
}

static int has(const char *err, const char *dir, const char *tail);
static double csv_field_of(const char *csv, const char *key, int k);

/* A one-CTA, one-warp kernel (version `ver`, 32 threads) with the header
 * lines `extra` added and the warp's instruction lines `body`, written as
 * kernel-1.traceg and kernelslist.g into a fresh folder (returned in dir). */
static void hand_kernel(const char *ver, const char *extra, const char *body, char *dir, size_t dirsz)
{
	static char s[65536];
	int n = 0, lines = 0;
	for (const char *c = body; *c; c++)
		lines += *c == '\n';
	n += snprintf(s + n, sizeof s - (size_t)n,
		      "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
		      "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n%s"
		      "-nvbit version = 1.5.5\n-accelsim tracer version = %s\n\n#traces format = x\n\n"
		      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n%s#END_TB\n",
		      extra, ver, lines, body);
	snprintf(dir, dirsz, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", s, (size_t)n);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
}

/* A header without its '#traces format' line (an edited or hand-written
 * trace) ends at the first '#BEGIN_TB', and that block is read, not lost:
 * two blocks, both counted by trace-info and run. */
static void header_without_traces_format_keeps_the_first_block(void)
{
	static const char kernel[] =
		"-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n"
		"-shmem = 0\n-nregs = 16\n-binary version = 70\n-accelsim tracer version = 4\n\n"
		"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
		"0000 ffffffff 1 R1 IADD3 2 R2 R3 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n"
		"#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 3\n"
		"0000 ffffffff 1 R1 IADD3 2 R2 R3 0\n0010 ffffffff 1 R4 IADD3 2 R1 R3 0\n"
		"0020 ffffffff 0 EXIT 0 0\n#END_TB\n";
	char dir[1024], args[1200], out[4096], err[4096];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", kernel, sizeof kernel - 1);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	struct warp_dump d;
	CU_ASSERT_EQUAL_FATAL(dump_warp(dir, 0, 0, &d), 0);
	CU_ASSERT_EQUAL(d.n, 2);
	CU_ASSERT_EQUAL_FATAL(dump_warp(dir, 1, 0, &d), 0);
	CU_ASSERT_EQUAL(d.n, 3);
	snprintf(args, sizeof args, "run -q -w %s -s inorder --format csv", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	static const char row[] = ",inorder,v100,12nm,"; /* then cycles,warp_insts */
	const char *r = strstr(out, row);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	unsigned long long cycles = 0, insts = 0;
	CU_ASSERT_EQUAL(sscanf(r + sizeof row - 1, "%llu,%llu", &cycles, &insts), 2);
	CU_ASSERT_EQUAL(insts, 5); /* both blocks */
}

/* Convergence set-up between a compare and its predicated branch (ISETP;
 * BSSY; @P BRA, or SSY/PBK/PCNT/WARPSYNC) does not branch: the branch is
 * still the one control-dependent on the compare, the set-up is not. */
static void convergence_setup_passes_the_compare_to_its_branch(void)
{
	static const char *const setup[] = {"BSSY", "SSY", "PBK", "PCNT", "WARPSYNC"};
	for (size_t i = 0; i < IW_ARRAY_LEN(setup); i++) {
		char body[512], dir[1024];
		snprintf(body, sizeof body,
			 "0000 ffffffff 0 ISETP.GE.AND 2 R0 R3 0\n0010 ffffffff 0 %s 0 0\n0020 0000ffff 0 BRA 0 0\n"
			 "0050 ffffffff 0 BSYNC 0 0\n0060 ffffffff 0 EXIT 0 0\n",
			 setup[i]);
		hand_kernel("4", "", body, dir, sizeof dir);
		struct warp_dump d;
		CU_ASSERT_EQUAL_FATAL(dump_warp(dir, 0, 0, &d), 0);
		CU_ASSERT_EQUAL_FATAL(d.n, 5);
		CU_ASSERT_STRING_EQUAL(d.names[1], setup[i]);
		CU_ASSERT_FALSE(d.in[1].flags & IW_F_PRED_BRANCH);
		CU_ASSERT(d.in[2].flags & IW_F_PRED_BRANCH);
		CU_ASSERT(d.in[2].flags & IW_F_TAKEN);
		/* the branch took the compare: BSYNC after it is not dependent */
		CU_ASSERT_FALSE(d.in[3].flags & IW_F_PRED_BRANCH);
	}
}

/* A generic LD/ST/ATOM is shared or local when its first active lane is in
 * the window the header's base address opens (as Accel-Sim resolves them),
 * so trace-info's footprint leaves the shared one out; with no bases, global. */
static void generic_accesses_resolve_by_the_header_windows(void)
{
	static const char body[] = "0000 ffffffff 1 R4 LD.E 1 R2 4 1 0x7f0000000000 4\n"
				   "0010 ffffffff 0 ST.E 2 R2 R4 4 1 0x7e0000000100 4\n"
				   "0020 ffffffff 1 R5 ATOM.E.ADD 2 R2 R4 4 1 0x7f0000000080 4\n"
				   "0030 ffffffff 1 R6 LD.E 1 R2 4 1 0x7f0000400000 4\n"
				   "0040 ffffffff 0 EXIT 0 0\n";
	static const char bases[] = "-shmem base_addr = 0x00007f0000000000\n"
				    "-local mem base_addr = 0x00007e0000000000\n";
	char dir[1024], args[1200], out[4096];
	struct warp_dump d;
	hand_kernel("4", bases, body, dir, sizeof dir);
	CU_ASSERT_EQUAL_FATAL(dump_warp(dir, 0, 0, &d), 0);
	CU_ASSERT_EQUAL(d.in[0].space, IW_SPACE_SHARED);
	CU_ASSERT_EQUAL(d.in[1].space, IW_SPACE_LOCAL);
	CU_ASSERT_EQUAL(d.in[2].space, IW_SPACE_SHARED);
	CU_ASSERT_EQUAL(d.in[3].space, IW_SPACE_GLOBAL); /* past the shared window */
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	/* ST 4 sectors of local + the last LD's 4 of global; the shared ones not */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "footprint: 8 distinct"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "mem 4 "));

	/* local above shared (the other order NVBit uses): the shared window
	 * ends where the local one starts */
	static const char above[] = "-shmem base_addr = 0x00007f0000000000\n"
				    "-local mem base_addr = 0x00007f0000001000\n";
	hand_kernel("4", above,
		    "0000 ffffffff 1 R4 LD.E 1 R2 4 1 0x7f0000000f00 4\n"
		    "0010 ffffffff 1 R4 LD.E 1 R2 4 1 0x7f0000001000 4\n0020 ffffffff 0 EXIT 0 0\n",
		    dir, sizeof dir);
	CU_ASSERT_EQUAL_FATAL(dump_warp(dir, 0, 0, &d), 0);
	CU_ASSERT_EQUAL(d.in[0].space, IW_SPACE_SHARED);
	CU_ASSERT_EQUAL(d.in[1].space, IW_SPACE_LOCAL);

	/* no base addresses: every generic access is global */
	hand_kernel("4", "", body, dir, sizeof dir);
	CU_ASSERT_EQUAL_FATAL(dump_warp(dir, 0, 0, &d), 0);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(d.in[i].space, IW_SPACE_GLOBAL);
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "footprint: 16 distinct"));

	/* a base address that is not one is refused, naming the line */
	char err[2048];
	hand_kernel("4", "-shmem base_addr = 7f00zz\n", body, dir, sizeof dir);
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:9: expected shmem base_addr = 0x<hex address>"));
}

/* An unknown opcode is one warning line with its count over the whole trace,
 * however many kernels (past the 256 paths the once-a-process table holds
 * per kernel file, each scheme warned again per kernel) and schemes. */
static void unknown_opcode_warned_once_per_trace(void)
{
	char dir[1024], args[1200];
	hand_kernel("4", "", "0000 ffffffff 1 R5 FOO.X 1 R4 0\n0010 ffffffff 0 EXIT 0 0\n", dir, sizeof dir);
	size_t n;
	char path[1100], *k = NULL;
	snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
	FILE *f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	static char text[4096], list[8192];
	n = fread(text, 1, sizeof text, f);
	fclose(f);
	size_t ln = 0;
	for (int i = 1; i <= 300; i++) {
		char name[64];
		snprintf(name, sizeof name, "kernel-%d.traceg", i);
		spit(dir, name, text, n);
		ln += (size_t)snprintf(list + ln, sizeof list - ln, "%s\n", name);
	}
	spit(dir, "kernelslist.g", list, ln);
	static char out[1 << 16], err[1 << 16];
	snprintf(args, sizeof args, "run -q -s all -j 2 -w %s --format csv", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	k = strstr(err, "opcode FOO ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_PTR_NULL(strstr(k + 1, "opcode FOO "));
	char want[1400];
	snprintf(want, sizeof want, "warning: %s: opcode FOO is not in the SASS table (300 instructions in 300 "
		 "kernels), simulated as INT\n", dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	k = strstr(err, "opcode FOO ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_PTR_NULL(strstr(k + 1, "opcode FOO "));
	CU_ASSERT_PTR_NOT_NULL(strstr(k, "(300 instructions in 300 kernels)"));
}

/* Write hand/v3 with the first `from` replaced by `to` into a fresh folder;
 * run trace-info on it; return the exit code and stderr. */
static int run_edited_from(const char *src, const char *from, const char *to, char *err, size_t errsz, char *dir,
			   size_t dirsz)
{
	size_t n;
	char *s = slurp(src, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char *hit = strstr(s, from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
	size_t fl = strlen(from), tl = strlen(to);
	char *o = malloc(n + tl + 1);
	memcpy(o, s, (size_t)(hit - s));
	memcpy(o + (hit - s), to, tl);
	memcpy(o + (hit - s) + tl, hit + fl, n - (size_t)(hit - s) - fl);
	size_t on = n - fl + tl;
	snprintf(dir, dirsz, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", o, on);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	free(s);
	free(o);
	char args[1200];
	snprintf(args, sizeof args, "trace-info %s", dir);
	return tu_run(args, NULL, 0, err, errsz);
}

static int run_edited(const char *from, const char *to, char *err, size_t errsz, char *dir, size_t dirsz)
{
	return run_edited_from("tests/data/traces/hand/v3/kernel-1.traceg", from, to, err, errsz, dir, dirsz);
}

/* A kernel no SM can hold is refused (exit 3, no output file) naming its
 * kernel file and the header line of what does not fit. */
static void kernel_that_fits_no_sm_names_its_header_line(void)
{
	char err[4096], dir[1024], args[2400], h5[1100];
	static const char *const edit[][4] = {
		{"-shmem = 512", "-shmem = 200000", "", "kernel-1.traceg:5: kernel '_Z4handPfS_i' needs 2 warps"},
		{"-block dim = (64,1,1)", "-block dim = (4096,1,1)", "", "kernel-1.traceg:4: kernel '_Z4handPfS_i' needs 128"},
		/* 255 x 64 registers: more than an SM of 8192 has */
		{"-nregs = 16", "-nregs = 255", "--set sm.regs=8192", "kernel-1.traceg:6: kernel '_Z4handPfS_i' needs 2"},
	};
	for (size_t i = 0; i < IW_ARRAY_LEN(edit); i++) {
		run_edited(edit[i][0], edit[i][1], err, sizeof err, dir, sizeof dir);
		snprintf(h5, sizeof h5, "%s/out.h5", dir);
		snprintf(args, sizeof args, "run -q -s inorder -w %s -o %s %s", dir, h5, edit[i][2]);
		CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
		CU_ASSERT(has(err, dir, edit[i][3]));
		CU_ASSERT_NOT_EQUAL(access(h5, F_OK), 0);
	}
}

/* Registers go to a CTA rounded up to sm.reg_granularity per thread (4 by
 * default, as Accel-Sim's max_cta: (regs + 3) & ~3), its threads padded to
 * whole warps.  Three one-warp CTAs of 30 registers on one SM of 2880
 * registers: exactly 960 each, so all three are resident at granularity 1,
 * but 32 x 32 = 1024 each, so two, by default; the cycles are those of 3
 * (resp. 2) resident CTAs where nothing is rounded.  With 960 registers none
 * fits, and the refusal says the count is rounded. */
static void registers_are_allocated_in_granules(void)
{
	static char s[16384];
	int n = snprintf(s, sizeof s,
			 "-kernel name = k\n-kernel id = 1\n-grid dim = (3,1,1)\n-block dim = (32,1,1)\n"
			 "-shmem = 0\n-nregs = 30\n-binary version = 70\n-cuda stream id = 0\n"
			 "-accelsim tracer version = 4\n\n#traces format = x\n\n");
	for (int b = 0; b < 3; b++) {
		n += snprintf(s + n, sizeof s - (size_t)n, "#BEGIN_TB\nthread block = %d,0,0\nwarp = 0\ninsts = 17\n", b);
		/* a dependent chain: a CTA's time is its latency, so CTAs that
		 * are resident together finish together */
		for (int i = 0; i < 16; i++)
			n += snprintf(s + n, sizeof s - (size_t)n, "%04x ffffffff 1 R1 IADD3 2 R1 R3 0\n", i * 16);
		n += snprintf(s + n, sizeof s - (size_t)n, "0100 ffffffff 0 EXIT 0 0\n#END_TB\n");
	}
	char dir[1024], args[1400], out[4096], err[4096];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", s, (size_t)n);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	static const char *const sets[] = {
		"--set sm.regs=2880",                           /* default: 2 resident */
		"--set sm.regs=2880 --set sm.reg_granularity=1", /* exact: 3 */
		"--set sm.regs=2048",                           /* 2 whatever the rounding */
		"--set sm.regs=3072",                           /* 3 whatever the rounding */
		"--set sm.regs=2880 --set sm.reg_granularity=8", /* 30 -> 32 too: 2 */
	};
	double cyc[IW_ARRAY_LEN(sets)];
	for (size_t i = 0; i < IW_ARRAY_LEN(sets); i++) {
		snprintf(args, sizeof args, "run -q -s inorder --format csv --set gpu.sms=1 %s -w %s", sets[i], dir);
		CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
		cyc[i] = csv_field_of(out, ",inorder,", 4);
		CU_ASSERT(cyc[i] > 0);
	}
	CU_ASSERT(cyc[0] > 1.5 * cyc[1]); /* a second wave */
	CU_ASSERT_EQUAL(cyc[0], cyc[2]);
	CU_ASSERT_EQUAL(cyc[1], cyc[3]);
	CU_ASSERT_EQUAL(cyc[0], cyc[4]);
	/* one CTA of 960 exact registers: it fits only if nothing is rounded */
	snprintf(args, sizeof args, "run -q -s inorder --set sm.regs=960 -w %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:6: kernel 'k' needs 1 warps, 32 threads, 1024 registers (30 per thread "
				"rounded up to 32, a multiple of sm.reg_granularity = 4)"));
	snprintf(args, sizeof args, "run -q -s inorder --set sm.regs=960 --set sm.reg_granularity=1 -w %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 0);
}

/* A version 0-2 line's prefix is its thread block and warp: one that does
 * not match the enclosing 'thread block =' and 'warp =' lines is refused,
 * naming both; a version-3+ line carrying the prefix is refused with a hint
 * that it looks like an older line (it said only "expected an opcode"). */
static void line_prefixes_match_their_block_and_warp(void)
{
	static const char v0[] = "tests/data/traces/hand/v0/kernel-1.traceg";
	char err[4096], dir[1024];
	CU_ASSERT_EQUAL(run_edited_from(v0, "0 0 0 0 0030", "5 7 9 3 0030", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:25: expected the prefix '0 0 0 0' (thread block 0,0,0, warp 0, as "
				"the 'thread block =' and 'warp =' lines above), found '5 7 9 3'"));
	CU_ASSERT_EQUAL(run_edited_from(v0, "0 0 0 0 0030", "0 0 0 1 0030", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "found '0 0 0 1'"));
	/* untouched, it reads: the second block's lines carry its coordinates, 1 0 0 w */
	CU_ASSERT_EQUAL(run_edited_from(v0, "0 0 0 0 0030", "0 0 0 0 0030", err, sizeof err, dir, sizeof dir), 0);
	CU_ASSERT_EQUAL(run_edited("0000 ffffffff 1 R1 MOV", "0 0 0 0 0000 ffffffff 1 R1 MOV", err, sizeof err, dir,
				   sizeof dir),
			3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:23: expected an opcode, found '0' (the line looks like a version 0-2 "
				"one, with a 'tb_x tb_y tb_z warpid' prefix, but the header says tracer version 3)"));
	/* other refusals carry no such hint */
	CU_ASSERT_EQUAL(run_edited("1 R1 MOV", "1 Q1 MOV", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT_PTR_NULL(strstr(err, "version 0-2"));
}

/* Version 5 writes the immediate on every line: a line without one is short
 * (a mode-2 line one delta short had its immediate read as the delta). */
static void version5_lines_need_their_immediate(void)
{
	static const char v5[] = "tests/data/traces/hand/v5/kernel-1.traceg";
	char err[4096], dir[1024];
	CU_ASSERT_EQUAL(run_edited_from(v5, "-60 4 68 0 \n", "-60 4 0 \n", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:33: expected a trailing immediate (every version-5 line ends with "
				"one; is an address or delta missing?), found end of line"));
	CU_ASSERT_EQUAL(run_edited_from(v5, "MOV 1 R255 0 0 ", "MOV 1 R255 0 ", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:24: expected a trailing immediate"));
	/* before version 5 there is none to ask for */
	CU_ASSERT_EQUAL(run_edited("0000 ffffffff", "0000 ffffffff", err, sizeof err, dir, sizeof dir), 0);
}

static int has(const char *err, const char *dir, const char *tail)
{
	char want[1200];
	snprintf(want, sizeof want, "%s/%s", dir, tail);
	return strstr(err, want) != NULL;
}

static void bad_input_exits_3_with_file_line(void)
{
	char err[4096], dir[1024];
	/* line 23 is the first instruction line of warp 0 */
	CU_ASSERT_EQUAL(run_edited("0000 ffffffff", "0000 ffffzfff", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:23: expected a hex active mask"));
	CU_ASSERT_EQUAL(run_edited("1 R1 MOV", "1 Q1 MOV", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:23: expected a destination register"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'Q1'"));
	CU_ASSERT_EQUAL(run_edited("insts = 12", "insts = 13", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected instruction line 13 of 13 of warp 0, found 'warp = 1'"));
	CU_ASSERT_EQUAL(run_edited("insts = 12", "insts = 11", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected 'warp = <n>' or '#END_TB'"));
	{ /* the same trace given to a run: exit 3, the message, no output file */
		char a2[2400], h5[1100];
		snprintf(h5, sizeof h5, "%s/out.h5", dir);
		snprintf(a2, sizeof a2, "run -q -s inorder -w %s -o %s", dir, h5);
		CU_ASSERT_EQUAL(tu_run(a2, NULL, 0, err, sizeof err), 3);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected 'warp = <n>' or '#END_TB'"));
		CU_ASSERT_NOT_EQUAL(access(h5, F_OK), 0);
	}
	/* mode 1 with the stride missing */
	CU_ASSERT_EQUAL(run_edited("0x7f0000001000 8 ", "0x7f0000001000", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:26: expected a decimal stride"));
	/* mode 2 with one delta fewer than the 16 active lanes need */
	CU_ASSERT_EQUAL(run_edited("-60 4 68 \n", "-60 4 \n", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected address delta 15 of 15"));
	CU_ASSERT_EQUAL(run_edited("thread block = 1,0,0", "thread block = 0,0,0", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT_EQUAL(run_edited("-grid dim = (2,1,1)", "-grid dim = (2,1)", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:3: expected grid dim"));
	/* a grid of 3 blocks with only 2 in the file: truncated */
	CU_ASSERT_EQUAL(run_edited("-grid dim = (2,1,1)", "-grid dim = (3,1,1)", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected 3 thread blocks"));

	/* truncated in the middle of a warp */
	size_t n;
	char *s = slurp("tests/data/traces/hand/v3/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", s, (size_t)(strstr(s, "0090 0000ffff") - s));
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	char args[1200];
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "found the end of the file"));
	/* an address list shorter than the mask (mode 0) */
	free(s);
	s = slurp("tests/data/traces/hand/v0/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char *end = strstr(s, "STG.E.SYS");
	end = strchr(end, '\n');
	char *cut = end - 1;
	while (*cut == ' ')
		cut--;
	while (*cut != ' ')
		cut--; /* drop the last address */
	size_t keep = (size_t)(cut - s);
	char *o = malloc(n);
	memcpy(o, s, keep);
	memcpy(o + keep, end, n - (size_t)(end - s));
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", o, keep + n - (size_t)(end - s));
	snprintf(args, sizeof args, "trace-info %s/kernel-1.traceg", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected hex address 16 of 16"));
	free(o);
	free(s);

	/* a kernel list naming a missing file */
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernelslist.g", "MemcpyHtoD,0x1000,64\nkernel-9.traceg\n", 37);
	snprintf(args, sizeof args, "trace-info %s/kernelslist.g", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernelslist.g:2: expected a readable kernel trace 'kernel-9.traceg'"));

	/* a corrupt xz stream */
	s = slurp("tests/data/traces/hand/v5-xz/kernel-1.traceg.xz", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (size_t i = n / 3; i < n / 3 + 16 && i < n; i++)
		s[i] = (char)(s[i] ^ 0x5a);
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg.xz", s, n);
	snprintf(args, sizeof args, "trace-info %s/kernel-1.traceg.xz", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected a valid xz stream"));
	/* truncated xz */
	spit(dir, "kernel-1.traceg.xz", s, n / 2);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	free(s);
	/* a corrupt gzip stream, a truncated one */
	s = slurp("tests/data/traces/vectoradd-sm61-gz/kernel-1.traceg.gz", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	spit(dir, "kernel-1.traceg.gz", s, n / 2);
	snprintf(args, sizeof args, "trace-info %s/kernel-1.traceg.gz", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg.gz: expected a valid gzip stream, found truncated compressed data"));
	for (size_t i = n / 3; i < n / 3 + 16 && i < n; i++)
		s[i] = (char)(s[i] ^ 0x5a);
	spit(dir, "kernel-1.traceg.gz", s, n);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected a valid gzip stream, found corrupt compressed data"));
	free(s);

	/* no such path; an empty file */
	CU_ASSERT_EQUAL(tu_run("trace-info /nonexistent/kernel-1.traceg", NULL, 0, err, sizeof err), 3);
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", "", 0);
	snprintf(args, sizeof args, "trace-info %s/kernel-1.traceg", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:1: expected the kernel header"));
}

/* A folder with a trailing slash names its files without "//"; an empty
 * list is said to be empty (not ':0:'); a tracer version newer than 5 is
 * refused at its header line. */
static void trace_paths_empty_lists_and_newer_versions(void)
{
	char err[4096], out[4096], dir[1024], args[2600];
	size_t n;
	char *s = slurp("tests/data/traces/hand/v3/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", s, (size_t)(strstr(s, "0090 0000ffff") - s));
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	free(s);
	snprintf(args, sizeof args, "trace-info %s/", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:"));
	CU_ASSERT_PTR_NULL(strstr(err, "//"));
	/* an empty kernelslist.g */
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernelslist.g", "", 0);
	snprintf(args, sizeof args, "trace-info %s/", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernelslist.g: expected at least one kernel-N.traceg entry, found an empty file"));
	CU_ASSERT_PTR_NULL(strstr(err, ":0:"));
	/* version 9: hand/v5 with its version line changed */
	s = slurp("tests/data/traces/hand/v5/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char *v = strstr(s, "-accelsim tracer version = 5");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	v[strlen("-accelsim tracer version = ")] = '9';
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", s, n);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	free(s);
	/* refused at its header line before any run (what a newer tracer adds
	 * to the lines is not described: it was "read as 5", then refused at
	 * the first line that had more) */
	char h5[1100];
	snprintf(h5, sizeof h5, "%s/out.h5", dir);
	snprintf(args, sizeof args, "run -q -s all -j 2 -w %s -o %s", dir, h5);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:12: expected accelsim tracer version 0 to 5 (the versions "
				"docs/ACCELSIM-TRACE-FORMAT.md describes), found '-accelsim tracer version = 9'"));
	CU_ASSERT_NOT_EQUAL(access(h5, F_OK), 0);
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:12: expected accelsim tracer version 0 to 5"));
	CU_ASSERT_PTR_NULL(strstr(err, "read as"));
}

/* Header and body counts are decimal, leading zeros or not (the tracer
 * writes them with %d): "-nregs = 032" is 32 registers, not octal 26, and
 * "-shmem = 08192" is 8192 B, not refused; hex only where the format writes
 * hex (the base addresses). */
static void counts_with_leading_zeros_are_decimal(void)
{
	size_t n;
	char *s = slurp("tests/data/traces/hand/v3/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	static char o[16384];
	size_t on = 0;
	for (const char *c = s; c < s + n;) {
		const char *nl = memchr(c, '\n', (size_t)(s + n - c));
		size_t len = nl ? (size_t)(nl - c) + 1 : (size_t)(s + n - c);
		if (strncmp(c, "-nregs = 16", 11) == 0)
			on += (size_t)snprintf(o + on, sizeof o - on, "-nregs = 032\n");
		else if (strncmp(c, "-shmem = 512", 12) == 0)
			on += (size_t)snprintf(o + on, sizeof o - on, "-shmem = 08192\n");
		else if (strncmp(c, "insts = 12", 10) == 0)
			on += (size_t)snprintf(o + on, sizeof o - on, "insts = 012\n");
		else {
			memcpy(o + on, c, len);
			on += len;
		}
		c += len;
	}
	free(s);
	char dir[1024], args[1200], out[4096], err[2048];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", o, on);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	struct tally t;
	walk(dir, &t);
	CU_ASSERT_EQUAL(t.rc, 0);
	CU_ASSERT_EQUAL(t.ki.nregs, 32);
	CU_ASSERT_EQUAL(t.ki.shmem, 8192);
	CU_ASSERT_EQUAL(t.insts, 27);
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "registers 32  shared memory 8192 B"));
	/* and a count written in hex is not one */
	CU_ASSERT_EQUAL(run_edited("-nregs = 16", "-nregs = 0x10", err, sizeof err, dir, sizeof dir), 3);
	CU_ASSERT(has(err, dir, "kernel-1.traceg:6: expected nregs = <0..255>"));
}

/* Damaged traces (bytes changed, cut, deleted, duplicated; seeded, so the
 * same every run) must be read or refused with exit 3, never crash. */
static void damaged_traces_never_crash(void)
{
	static const char *const src[] = {"tests/data/traces/hand/v3/kernel-1.traceg",
					  "tests/data/traces/hand/v0/kernel-1.traceg",
					  "tests/data/traces/hand/v5-lineinfo/kernel-1.traceg",
					  "tests/data/traces/hand/v5-xz/kernel-1.traceg.xz"};
	static const char junk[] = " \n0123456789abcdefxR-.#=,zZ\t";
	struct iw_rng r;
	iw_rng_seed(&r, 3);
	const char *dir = tu_tmpdir();
	int refused = 0;
	for (int it = 0; it < 60; it++) {
		size_t si = iw_rng_below(&r, IW_ARRAY_LEN(src)), n;
		char *s = slurp(src[si], &n);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		for (int m = 0; m < 3 && n > 1; m++) {
			size_t i = iw_rng_below(&r, (uint32_t)n);
			switch (iw_rng_below(&r, 3)) {
			case 0: s[i] = junk[iw_rng_below(&r, sizeof junk - 1)]; break;
			case 1: {
				size_t k = 1 + iw_rng_below(&r, 20);
				if (k > n - i)
					k = n - i;
				memmove(s + i, s + i + k, n - i - k);
				n -= k;
				break;
			}
			default: n = i; break;
			}
		}
		const char *name = si == 3 ? "kernel-1.traceg.xz" : "kernel-1.traceg";
		spit(dir, name, s, n);
		free(s);
		char args[1200], err[2048];
		snprintf(args, sizeof args, "trace-info %s/%s", dir, name);
		int rc = tu_run(args, NULL, 0, err, sizeof err);
		CU_ASSERT(rc == 0 || rc == 3);
		refused += rc == 3;
		CU_ASSERT_PTR_NULL(strstr(err, "Sanitizer"));
	}
	CU_ASSERT(refused > 30);
}

/* Every allocation of open + read can fail: the error is reported, nothing
 * crashes or leaks (the sanitizer build checks the leaks). */
static void survives_allocation_failures(void)
{
	static const char *const paths[] = {"tests/data/traces/hand/multi", "tests/data/traces/hand/v0"};
	for (size_t p = 0; p < IW_ARRAY_LEN(paths); p++) {
		int ok = 0;
		for (long n = 0; n < 400 && !ok; n++) {
			struct tally t;
			iw_alloc_fail_after(n);
			walk(paths[p], &t);
			iw_alloc_fail_after(-1);
			if (t.rc == 0) {
				ok = 1;
				CU_ASSERT_EQUAL(t.insts, p == 0 ? 54 : 27);
			} else {
				CU_ASSERT_EQUAL(t.rc, -IW_ERUN);
				CU_ASSERT_PTR_NOT_NULL(strstr(t.msg, "out of memory"));
			}
		}
		CU_ASSERT(ok);
	}
}

/* A folder with only kernel-N.traceg[.xz] files: kernels in N order. */
static void folder_without_kernel_list(void)
{
	const char *dir = tu_tmpdir();
	size_t n;
	char *a = slurp("tests/data/traces/hand/v3/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	spit(dir, "kernel-10.traceg", a, n);
	free(a);
	a = slurp("tests/data/traces/hand/v5-xz/kernel-1.traceg.xz", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	spit(dir, "kernel-2.traceg.xz", a, n);
	free(a);
	char args[1100], out[4096];
	snprintf(args, sizeof args, "trace-info --format csv %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	/* kernel 2 (version 5) comes before kernel 10 (version 3) */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n1,_Z4handPfS_i,2,1,1,64,1,1,16,512,5,70,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n2,_Z4handPfS_i,2,1,1,64,1,1,16,512,3,70,"));
	/* only the unprocessed tracer output */
	dir = tu_tmpdir();
	spit(dir, "kernelslist", "kernel-1.trace\n", 15);
	snprintf(args, sizeof args, "trace-info %s", dir);
	char err[1024];
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "post-traces-processing"));
	/* a folder above traces, as Accel-Sim nests them (app/args/traces/):
	 * the ones below are named */
	dir = tu_tmpdir();
	char sub[600], cmd[2400];
	snprintf(sub, sizeof sub, "%s/app/args/traces", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s'/* '%s'/", sub, tu_path("tests/data/traces/vectoradd-sm61"),
		 sub);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(args, sizeof args, "trace-info %s", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "found none (below it, trace folders: app/args/traces; give one of them"));
}

/* Field k (from 0) of the first CSV row holding `key`, as a number. */
static double csv_field_of(const char *csv, const char *key, int k)
{
	const char *row = strstr(csv, key);
	if (!row)
		return -1;
	while (row > csv && row[-1] != '\n')
		row--;
	for (; k > 0 && row; k--)
		if ((row = strchr(row, ',')))
			row++;
	return row ? strtod(row, NULL) : -1;
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* What a user with Accel-Sim's output at hand may give where a kernel list
 * is expected, and a list with notes in it. */
static void kernel_lists_as_users_write_them(void)
{
	size_t n;
	char *s = slurp("tests/data/traces/hand/v3/kernel-1.traceg", &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char args[1200], err[4096], out[8192];
	/* a kernel trace itself, under the raw tracer's name: one error at
	 * line 1 that says what to do, not a warning for each of its lines */
	const char *dir = tu_tmpdir();
	spit(dir, "kernel-1.trace", s, n);
	snprintf(args, sizeof args, "trace-info %s/kernel-1.trace", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "kernel-1.trace:1: expected a kernel list"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "post-traces-processing"));
	CU_ASSERT_EQUAL(count_of(err, "warning"), 0);
	/* a list naming only raw traces: the same advice */
	spit(dir, "raw.list", "kernel-1.trace\n", 15);
	snprintf(args, sizeof args, "trace-info %s/raw.list", dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT(has(err, dir, "raw.list:1: expected at least one kernel-N.traceg entry, found none"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "post-traces-processing on the list first"));
	/* notes in a list are ignored, as Accel-Sim does: the first three
	 * warned about once for the whole run of every scheme, the rest
	 * counted in one line, and the kernels listed all run */
	spit(dir, "kernel-1.traceg", s, n);
	const char *list = "note 1\nkernel-1.traceg\nnote 3\nnote 4\nnote 5\nnote 6\nkernel-1.traceg\n";
	spit(dir, "notes.g", list, strlen(list));
	snprintf(args, sizeof args, "run -q -s all --format csv -w %s/notes.g", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_EQUAL(count_of(err, "; ignored"), 3);
	CU_ASSERT(has(err, dir, "notes.g:1: expected a memcpy or a kernel-N.traceg entry, found 'note 1'; ignored"));
	CU_ASSERT(has(err, dir, "notes.g:4: expected a memcpy"));
	CU_ASSERT(has(err, dir, "notes.g: 2 more lines ignored"));
	CU_ASSERT_EQUAL(count_of(err, "more lines ignored"), 1);
	CU_ASSERT_EQUAL(count_of(out, "\n"), 1 + iw_scheme_count()); /* header and a row per scheme */
	/* both kernels ran: twice the warp-instructions of the kernel alone */
	snprintf(args, sizeof args, "run -q -s inorder --format csv -w %s/kernel-1.traceg", dir);
	char one[4096];
	CU_ASSERT_EQUAL_FATAL(tu_run(args, one, sizeof one, NULL, 0), 0);
	CU_ASSERT_EQUAL(csv_field_of(out, ",inorder,", 5), 2 * csv_field_of(one, ",inorder,", 5));
	CU_ASSERT(csv_field_of(one, ",inorder,", 5) > 0);
	free(s);
}

static void opcode_table_is_consistent(void)
{
	size_t n = iw_opcode_count();
	CU_ASSERT(n > 150);
	for (size_t i = 0; i < n; i++) {
		const struct iw_opcode *o = iw_opcode_get(i);
		CU_ASSERT_EQUAL(iw_opcode_find(o->name, strlen(o->name)), (int)i); /* names unique */
		CU_ASSERT(o->unit < IW_UNIT_COUNT);
		if (o->flags & (IW_F_LOAD | IW_F_STORE))
			CU_ASSERT(o->unit == IW_UNIT_MEM && o->space != IW_SPACE_NONE);
	}
	static const struct {
		const char *name;
		int unit;
		unsigned flags;
	} want[] = {
		{"FFMA", IW_UNIT_SP, 0}, {"DFMA", IW_UNIT_DP, 0}, {"MUFU", IW_UNIT_SFU, 0},
		{"HMMA", IW_UNIT_TENSOR, 0}, {"LDS", IW_UNIT_MEM, IW_F_LOAD}, {"ATOMG", IW_UNIT_MEM, IW_F_ATOMIC},
		{"BAR", IW_UNIT_BRANCH, IW_F_BARRIER}, {"MEMBAR", IW_UNIT_MEM, IW_F_MEMBAR},
		{"EXIT", IW_UNIT_BRANCH, IW_F_CONTROL | IW_F_RETURN}, {"BSSY", IW_UNIT_BRANCH, IW_F_CONTROL},
		{"ISETP", IW_UNIT_INT, IW_F_SETS_PRED}, {"XMAD", IW_UNIT_INT, 0}, {"UTMALDG", IW_UNIT_MEM, IW_F_LOAD},
	};
	for (size_t i = 0; i < IW_ARRAY_LEN(want); i++) {
		int k = iw_opcode_find(want[i].name, strlen(want[i].name));
		CU_ASSERT_FATAL(k >= 0);
		CU_ASSERT_EQUAL(iw_opcode_get((size_t)k)->unit, want[i].unit);
		CU_ASSERT_EQUAL(iw_opcode_get((size_t)k)->flags & want[i].flags, want[i].flags);
	}
	CU_ASSERT_EQUAL(iw_opcode_find("LDGX", 4), -1);
	CU_ASSERT_EQUAL(iw_opcode_find("LDG.E", 3), iw_opcode_find("LDG", 3));
}

static void path_detection(void)
{
	CU_ASSERT(iw_path_is_trace(tu_path("tests/data/traces/vectoradd-sm61")));
	CU_ASSERT(iw_path_is_trace("kernel-1.traceg.xz"));
	CU_ASSERT(iw_path_is_trace("kernelslist.g"));
	CU_ASSERT_FALSE(iw_path_is_trace("vecadd"));
	/* a file of the working folder named bare is a path (a raw trace or list
	 * gets its advice, not "unknown workload"), a built-in's name never */
	char here[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(here, sizeof here));
	const char *dir = tu_tmpdir();
	spit(dir, "kernel-1.trace", "-kernel name = k\n", 17);
	spit(dir, "vecadd", "-kernel name = k\n", 17);
	CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
	CU_ASSERT(iw_path_is_trace("kernel-1.trace"));
	CU_ASSERT_FALSE(iw_path_is_trace("vecadd"));
	CU_ASSERT_FALSE(iw_path_is_trace("no-such-file"));
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_workload_open("kernel-1.trace", 1, 1.0, &w, &e), 0);
	CU_ASSERT_EQUAL(w ? w->ops->next_kernel(w, &(struct iw_kernel_info){0}, &e) : 0, -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "post-traces-processing"));
	iw_workload_close(w);
	CU_ASSERT_EQUAL(chdir(here), 0);
}

/* Lines of one PC decode each as their own text says, whichever line of
 * that PC came before (the reader keeps lines it decoded, found by their
 * text): other registers, another opcode and width, another mask, more
 * blanks, back again.  Four CTAs of one warp, read in one pass as a run
 * reads them. */
static void lines_of_one_pc_decode_each_their_own(void)
{
	static const char kernel[] =
		"-kernel name = k\n-kernel id = 1\n-grid dim = (4,1,1)\n-block dim = (32,1,1)\n"
		"-shmem = 0\n-nregs = 40\n-binary version = 70\n-accelsim tracer version = 4\n\n"
		"#traces format = x\n\n"
		"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
		"0000 ffffffff 1 R1 IADD3 2 R2 R3 0\n"
		"0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000001000 4\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"
		"#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 3\n"
		"0000 ffffffff 1 R1 IADD3 2 R2 R31 0\n"
		"0010 0000ffff 1 R4 LDG.E.64 1 R2 8 1 0x7f0000002000 8\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"
		"#BEGIN_TB\nthread block = 2,0,0\nwarp = 0\ninsts = 3\n"
		"0000 ffffffff 1 R1 IADD3 2 R2 R31 0\n"
		"0010 ffffffff 1 R4 LDG.E.64 1 R2 8  \t1  0x7f0000003000 16\n0020 ffffffff 0 EXIT 0 0\n#END_TB\n"
		"#BEGIN_TB\nthread block = 3,0,0\nwarp = 0\ninsts = 3\n"
		"0000 ffffffff 1 R1 IADD3 2 R2 R3 0\n"
		"0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000004000 4\n0020 ffffffff 0 EXIT 0 0 \n#END_TB\n";
	char dir[1024];
	snprintf(dir, sizeof dir, "%s", tu_tmpdir());
	spit(dir, "kernel-1.traceg", kernel, sizeof kernel - 1);
	spit(dir, "kernelslist.g", "kernel-1.traceg\n", 16);
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	struct iw_kernel_info ki;
	struct iw_cta cta;
	static struct warp_dump d;
	memset(&d, 0, sizeof d);
	CU_ASSERT_EQUAL_FATAL(iw_trace_open(dir, &w, &e), 0);
	CU_ASSERT_EQUAL_FATAL(w->ops->next_kernel(w, &ki, &e), 1);
	while (w->ops->next_cta(w, &cta, &e) == 1) {
		while (d.n < MAXI && w->ops->fetch(w, &cta, 0, &d.in[d.n], &d.ma[d.n], &e) == 1)
			d.n++;
		w->ops->release_cta(w, &cta);
	}
	iw_workload_close(w);
	CU_ASSERT_EQUAL_FATAL(e.code, 0);
	CU_ASSERT_EQUAL_FATAL(d.n, 12);
	static const uint16_t src1[4] = {3, 31, 31, 3};
	static const uint8_t ndst[4] = {1, 2, 2, 1}, lanes[4] = {32, 16, 32, 32};
	static const uint16_t width[4] = {4, 8, 8, 4};
	static const uint64_t base[4] = {0x7f0000001000ull, 0x7f0000002000ull, 0x7f0000003000ull, 0x7f0000004000ull};
	static const uint64_t stride[4] = {4, 8, 16, 4};
	for (int c = 0; c < 4; c++) {
		const struct iw_inst *add = &d.in[3 * c], *ld = &d.in[3 * c + 1], *ex = &d.in[3 * c + 2];
		CU_ASSERT_EQUAL(add->pc, 0);
		CU_ASSERT_EQUAL(add->nsrc, 2);
		CU_ASSERT_EQUAL(add->src[1], src1[c]);
		CU_ASSERT_EQUAL(ld->pc, 0x10);
		CU_ASSERT(ld->flags & IW_F_LOAD);
		CU_ASSERT_EQUAL(ld->ndst, ndst[c]);
		CU_ASSERT_EQUAL(ld->dst[0], 4);
		CU_ASSERT_EQUAL(ld->mem_width, width[c]);
		CU_ASSERT_EQUAL(ld->mask, c == 1 ? 0xffffu : 0xffffffffu);
		CU_ASSERT_EQUAL(d.ma[3 * c + 1].n, lanes[c]);
		CU_ASSERT_EQUAL(d.ma[3 * c + 1].addr[0], base[c]);
		CU_ASSERT_EQUAL(d.ma[3 * c + 1].addr[1], base[c] + stride[c]);
		CU_ASSERT(ex->flags & IW_F_CONTROL);
		CU_ASSERT_EQUAL(ex->ndst + ex->nsrc, 0);
	}
}

void suite_trace(void)
{
	TU_SUITE("trace", {"real_fixtures_count_and_header", real_fixtures_count_and_header},
		 {"derived_semantics", derived_semantics},
		 {"lines_of_one_pc_decode_each_their_own", lines_of_one_pc_decode_each_their_own},
		 {"header_without_traces_format_keeps_the_first_block", header_without_traces_format_keeps_the_first_block},
		 {"convergence_setup_passes_the_compare_to_its_branch", convergence_setup_passes_the_compare_to_its_branch},
		 {"generic_accesses_resolve_by_the_header_windows", generic_accesses_resolve_by_the_header_windows},
		 {"unknown_opcode_warned_once_per_trace", unknown_opcode_warned_once_per_trace}, {"every_version_reads_the_same", every_version_reads_the_same},
		 {"compressed_equals_plain", compressed_equals_plain}, {"trace_info_reports", trace_info_reports},
		 {"real_traces_simulate", real_traces_simulate},
		 {"kernels_are_timed_one_by_one", kernels_are_timed_one_by_one},
		 {"narrow_warps_run_their_own_lanes", narrow_warps_run_their_own_lanes},
		 {"workload_paths_with_commas_and_many_of_them", workload_paths_with_commas_and_many_of_them},
		 {"bad_input_exits_3_with_file_line", bad_input_exits_3_with_file_line},
		 {"damaged_traces_never_crash", damaged_traces_never_crash},
		 {"counts_with_leading_zeros_are_decimal", counts_with_leading_zeros_are_decimal},
		 {"version5_lines_need_their_immediate", version5_lines_need_their_immediate},
		 {"line_prefixes_match_their_block_and_warp", line_prefixes_match_their_block_and_warp},
		 {"kernel_that_fits_no_sm_names_its_header_line", kernel_that_fits_no_sm_names_its_header_line},
		 {"registers_are_allocated_in_granules", registers_are_allocated_in_granules},
		 {"trace_paths_empty_lists_and_newer_versions", trace_paths_empty_lists_and_newer_versions},
		 {"folder_without_kernel_list", folder_without_kernel_list},
		 {"kernel_lists_as_users_write_them", kernel_lists_as_users_write_them},
		 {"survives_allocation_failures", survives_allocation_failures},
		 {"opcode_table_is_consistent", opcode_table_is_consistent}, {"path_detection", path_detection});
}
