/* tests/test_workloads.c -- the built-in workload generator: determinism,
 * independence from pull order, program structure (loops, EXIT, barriers,
 * masks, predicates), register ranges, launch sizes, knobs and errors. */
#include "perf.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define PC_STEP 16

static struct iw_workload *open_wl(const char *name, uint64_t seed, double scale)
{
	struct iw_workload *w = NULL;
	struct iw_err e = {0};
	int rc = iw_builtin_open(name, seed, scale, &w, &e);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "\n%s: %s\n", name, e.msg);
	return w;
}

static uint64_t mix64(uint64_t h, uint64_t v) { return iw_hash64(h ^ v) + 0x9e3779b97f4a7c15ull; }

static uint64_t inst_hash(uint64_t h, const struct iw_inst *in)
{
	h = mix64(h, in->pc);
	h = mix64(h, in->mask);
	h = mix64(h, (uint64_t)in->opcode << 32 | in->flags);
	h = mix64(h, (uint64_t)in->unit << 24 | (uint64_t)in->space << 16 | (uint64_t)in->ndst << 8 | in->nsrc);
	for (int i = 0; i < in->ndst; i++)
		h = mix64(h, in->dst[i]);
	for (int i = 0; i < in->nsrc; i++)
		h = mix64(h, in->src[i] + 1000u);
	return mix64(h, (uint64_t)in->mem_width << 8 | in->mem_level);
}

/* Per-warp facts gathered while pulling a whole workload warp by warp. */
struct stats {
	uint64_t insts, hash, kernels, ctas, warps;
	uint64_t taken_back, barriers, partial_masks, mask0_bad, exit_last_bad, pc_flow_bad;
	uint64_t reg_bad, pred_bad, mem_levels[4], loads, level_bad, width_bad;
	uint64_t bar_mismatch;
	uint32_t max_warps_per_cta;
};

typedef void (*kernel_fn)(const struct iw_kernel_info *ki, void *ctx);

static void pull_all(struct iw_workload *w, struct stats *st, kernel_fn on_kernel, void *ctx)
{
	memset(st, 0, sizeof *st);
	struct iw_err e = {0};
	struct iw_kernel_info ki;
	while (w->ops->next_kernel(w, &ki, &e) == 1) {
		st->kernels++;
		if (on_kernel)
			on_kernel(&ki, ctx);
		st->hash = mix64(st->hash, ki.ctas);
		struct iw_cta cta;
		while (w->ops->next_cta(w, &cta, &e) == 1) {
			st->ctas++;
			if (cta.warps > st->max_warps_per_cta)
				st->max_warps_per_cta = cta.warps;
			uint64_t bars0 = UINT64_MAX;
			for (uint32_t wp = 0; wp < cta.warps; wp++) {
				st->warps++;
				struct iw_inst in, prev;
				struct iw_mem_addrs ma;
				int have_prev = 0, seen_cmp = 0;
				uint64_t bars = 0;
				int rc;
				while ((rc = w->ops->fetch(w, &cta, wp, &in, &ma, &e)) == 1) {
					st->insts++;
					st->hash = inst_hash(st->hash, &in);
					if (ma.n != 0)
						st->level_bad++;
					if (have_prev) {
						if (prev.flags & IW_F_RETURN)
							st->exit_last_bad++; /* something after EXIT */
						int fall = in.pc == prev.pc + PC_STEP;
						if ((prev.flags & IW_F_TAKEN) ? fall : !fall)
							st->pc_flow_bad++;
						if ((prev.flags & IW_F_TAKEN) && in.pc <= prev.pc)
							st->taken_back++;
					}
					if (in.flags & IW_F_BARRIER)
						bars++;
					if (in.mask != 0 && in.mask != UINT32_MAX)
						st->partial_masks++;
					if ((in.mask == 0) != ((in.flags & IW_F_MASK0) != 0))
						st->mask0_bad++;
					if (in.ndst > IW_MAX_DST || in.nsrc > IW_MAX_SRC)
						st->reg_bad++;
					for (int i = 0; i < in.ndst; i++)
						if (in.dst[i] >= ki.nregs || in.dst[i] == IW_REG_RZ)
							st->reg_bad++;
					for (int i = 0; i < in.nsrc; i++)
						if (in.src[i] >= ki.nregs || in.src[i] == IW_REG_RZ)
							st->reg_bad++;
					if (in.flags & IW_F_SETS_PRED)
						seen_cmp = 1;
					if ((in.flags & IW_F_PRED_BRANCH) && !seen_cmp)
						st->pred_bad++;
					if ((in.flags & IW_F_LOAD) && in.space == IW_SPACE_GLOBAL) {
						st->loads++;
						st->mem_levels[in.mem_level & 3]++;
						if (in.mem_level < 1 || in.mem_level > 3)
							st->level_bad++;
					}
					if (in.unit == IW_UNIT_MEM && in.space != IW_SPACE_NONE &&
					    !(in.mem_width == 1 || in.mem_width == 2 || in.mem_width == 4 ||
					      in.mem_width == 8 || in.mem_width == 16))
						st->width_bad++;
					prev = in;
					have_prev = 1;
				}
				CU_ASSERT_EQUAL(rc, 0);
				if (!have_prev || (prev.flags & (IW_F_CONTROL | IW_F_RETURN)) !=
							  (IW_F_CONTROL | IW_F_RETURN))
					st->exit_last_bad++;
				/* a finished warp stays finished */
				CU_ASSERT_EQUAL(w->ops->fetch(w, &cta, wp, &in, NULL, &e), 0);
				if (bars0 == UINT64_MAX)
					bars0 = bars;
				else if (bars != bars0)
					st->bar_mismatch++;
				st->barriers += bars;
			}
			w->ops->release_cta(w, &cta);
		}
	}
}

static void same_seed_same_stream(void)
{
	struct stats a, b, c;
	struct iw_workload *w = open_wl("builtin", 7, 0.01);
	pull_all(w, &a, NULL, NULL);
	iw_workload_close(w);
	w = open_wl("builtin", 7, 0.01);
	pull_all(w, &b, NULL, NULL);
	iw_workload_close(w);
	w = open_wl("builtin", 8, 0.01);
	pull_all(w, &c, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT(a.insts > 0);
	CU_ASSERT_EQUAL(a.insts, b.insts);
	CU_ASSERT_EQUAL(a.hash, b.hash);
	CU_ASSERT_NOT_EQUAL(a.hash, c.hash);
}

/* Hash of each warp's stream, pulled (a) warp after warp, (b) all CTAs of a
 * kernel held at once and one instruction from each warp in turn, in reverse
 * order.  A simulator pulls in any order; the streams must not change. */
static void pull_order_does_not_matter(void)
{
	static const char *names[] = {"builtin", "rnn_lowocc", "synth"};
	for (size_t n = 0; n < IW_ARRAY_LEN(names); n++) {
		enum { MAXW = 4096 };
		uint64_t *ha = calloc(MAXW, sizeof *ha), *hb = calloc(MAXW, sizeof *hb);
		struct iw_err e = {0};
		struct iw_kernel_info ki;
		struct iw_inst in;
		size_t na = 0, nb = 0;
		struct iw_workload *w = open_wl(names[n], 3, 0.01);
		while (w && w->ops->next_kernel(w, &ki, &e) == 1) {
			struct iw_cta cta;
			while (w->ops->next_cta(w, &cta, &e) == 1) {
				for (uint32_t wp = 0; wp < cta.warps && na < MAXW; wp++, na++)
					while (w->ops->fetch(w, &cta, wp, &in, NULL, &e) == 1)
						ha[na] = inst_hash(ha[na], &in);
				w->ops->release_cta(w, &cta);
			}
		}
		iw_workload_close(w);
		w = open_wl(names[n], 3, 0.01);
		while (w && w->ops->next_kernel(w, &ki, &e) == 1) {
			struct iw_cta ctas[64];
			size_t nc = 0, base = nb;
			while (nc < 64 && w->ops->next_cta(w, &ctas[nc], &e) == 1)
				nc++;
			CU_ASSERT(nc < 64);
			size_t total = nc * ki.warps_per_cta;
			CU_ASSERT_FATAL(base + total <= MAXW);
			int live = 1;
			while (live) {
				live = 0;
				for (size_t k = total; k-- > 0;) {
					size_t c = k / ki.warps_per_cta, wp = k % ki.warps_per_cta;
					if (w->ops->fetch(w, &ctas[c], (uint32_t)wp, &in, NULL, &e) == 1) {
						hb[base + k] = inst_hash(hb[base + k], &in);
						live = 1;
					}
				}
			}
			for (size_t c = nc; c-- > 0;)
				w->ops->release_cta(w, &ctas[c]);
			nb += total;
		}
		iw_workload_close(w);
		CU_ASSERT_EQUAL(na, nb);
		CU_ASSERT(na > 0);
		size_t diff = 0;
		for (size_t i = 0; i < na && i < nb; i++)
			diff += ha[i] != hb[i];
		CU_ASSERT_EQUAL(diff, 0);
		free(ha);
		free(hb);
	}
}

/* Every named kernel, checked for structure on a small launch. */
static void kernels_are_well_formed(void)
{
	for (size_t i = 0; i < iw_builtin_count(); i++) {
		const struct iw_builtin_desc *d = iw_builtin_get(i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		CU_ASSERT(d->description && strlen(d->description) > 20);
		struct iw_workload *w = open_wl(d->name, 1, 0.02);
		if (!w)
			continue;
		CU_ASSERT_STRING_EQUAL(w->name, d->name);
		CU_ASSERT(strlen(w->description) > 20);
		struct stats st;
		pull_all(w, &st, NULL, NULL);
		iw_workload_close(w);
		CU_ASSERT(st.insts > 0);
		if (st.exit_last_bad || st.pc_flow_bad || st.reg_bad || st.pred_bad || st.mask0_bad ||
		    st.bar_mismatch || st.level_bad || st.width_bad || !st.taken_back)
			fprintf(stderr, "\n%s: exit %lu flow %lu reg %lu pred %lu mask0 %lu bar %lu level %lu "
					"width %lu back %lu\n",
				d->name, (unsigned long)st.exit_last_bad, (unsigned long)st.pc_flow_bad,
				(unsigned long)st.reg_bad, (unsigned long)st.pred_bad, (unsigned long)st.mask0_bad,
				(unsigned long)st.bar_mismatch, (unsigned long)st.level_bad,
				(unsigned long)st.width_bad, (unsigned long)st.taken_back);
		CU_ASSERT_EQUAL(st.exit_last_bad, 0); /* each warp ends with EXIT, nothing after */
		CU_ASSERT_EQUAL(st.pc_flow_bad, 0);   /* taken <=> successor is not the fall-through */
		CU_ASSERT(st.taken_back >= st.warps); /* every warp loops */
		CU_ASSERT_EQUAL(st.reg_bad, 0);
		CU_ASSERT_EQUAL(st.pred_bad, 0);
		CU_ASSERT_EQUAL(st.mask0_bad, 0);
		CU_ASSERT_EQUAL(st.bar_mismatch, 0); /* no CTA can deadlock at a barrier */
		CU_ASSERT_EQUAL(st.level_bad, 0);
		CU_ASSERT_EQUAL(st.width_bad, 0);
	}
}

static void kernel_shapes(void)
{
	struct stats st;
	struct iw_workload *w = open_wl("sgemm", 1, 0.02);
	pull_all(w, &st, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT(st.barriers >= 2 * st.warps * 8); /* two per K-tile */
	CU_ASSERT(st.mem_levels[2] > st.mem_levels[3]); /* tiles re-read from L2 */

	w = open_wl("reduce", 1, 0.02);
	pull_all(w, &st, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT(st.barriers >= 9 * st.warps); /* one after the store, one per halving */
	CU_ASSERT(st.partial_masks > 0);         /* the last halvings run on part of warp 0 */

	w = open_wl("vecadd", 1, 0.02);
	pull_all(w, &st, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT_EQUAL(st.barriers, 0);
	CU_ASSERT(st.mem_levels[3] > 0.8 * (double)st.loads); /* streaming: DRAM */
	CU_ASSERT_EQUAL(st.partial_masks, 0);

	w = open_wl("bfs", 1, 0.02);
	pull_all(w, &st, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT(st.partial_masks > st.warps); /* divergence everywhere */

	w = open_wl("rnn", 1, 0.02);
	pull_all(w, &st, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT(st.mem_levels[1] + st.mem_levels[2] > 0.9 * (double)st.loads);

	/* knobs common to every kernel: where loads find their data, CTAs */
	w = open_wl("vecadd:l1=1:ctas=5", 1, 1);
	pull_all(w, &st, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT_EQUAL(st.ctas, 5);
	CU_ASSERT(st.loads > 0);
	CU_ASSERT_EQUAL(st.mem_levels[1], st.loads);

	/* the low-occupancy variant: one 4-warp CTA per SM of an 80-SM GPU */
	struct iw_err e = {0};
	struct iw_kernel_info ki;
	w = open_wl("rnn_lowocc", 1, 1);
	CU_ASSERT_EQUAL(w->ops->next_kernel(w, &ki, &e), 1);
	CU_ASSERT_EQUAL(ki.ctas, 80);
	CU_ASSERT_EQUAL(ki.warps_per_cta, 4);
	iw_workload_close(w);
}

/* The default set at scale 1: at least 5 M warp-instructions, and every
 * kernel enough CTAs for one full wave on an 80-SM V100 at its occupancy. */
struct fill_ctx {
	int short_kernels;
};
static void check_fill(const struct iw_kernel_info *ki, void *ctx)
{
	struct fill_ctx *f = ctx;
	uint32_t threads = ki->block[0] * ki->block[1] * ki->block[2];
	uint32_t by_warps = 64 / ki->warps_per_cta, by_threads = 2048 / threads;
	uint32_t by_regs = 65536 / (ki->nregs * threads);
	uint32_t by_shmem = ki->shmem ? 98304 / ki->shmem : 32;
	uint32_t per_sm = IW_MIN(IW_MIN(by_warps, by_threads), IW_MIN(by_regs, IW_MIN(by_shmem, 32u)));
	if (ki->ctas < 80ull * per_sm) {
		fprintf(stderr, "\n%s: %lu CTAs < one wave of %u\n", ki->name, (unsigned long)ki->ctas, 80 * per_sm);
		f->short_kernels++;
	}
}

static void default_set_is_real_sized(void)
{
	struct stats st;
	struct fill_ctx f = {0};
	struct iw_workload *w = open_wl("builtin", 1, 1.0);
	pull_all(w, &st, check_fill, &f);
	iw_workload_close(w);
	CU_ASSERT(st.insts >= 5000000);
	CU_ASSERT_EQUAL(st.kernels, 6);
	size_t members = 0;
	for (size_t i = 0; i < iw_builtin_count(); i++)
		members += iw_builtin_get(i)->in_default_set != 0;
	CU_ASSERT_EQUAL(members, st.kernels); /* the set's members are flagged for `run` to list */
	CU_ASSERT_EQUAL(f.short_kernels, 0);
	CU_ASSERT_EQUAL(st.reg_bad + st.exit_last_bad + st.pc_flow_bad + st.bar_mismatch, 0);

	struct stats small;
	w = open_wl("builtin", 1, 0.01);
	pull_all(w, &small, NULL, NULL);
	iw_workload_close(w);
	CU_ASSERT(small.insts < st.insts / 50); /* scale shrinks the grids */
	CU_ASSERT(small.insts > 0);
}

static void unknown_name_lists_known_ones(void)
{
	struct iw_workload *w = (struct iw_workload *)1;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_builtin_open("nosuchkernel", 1, 1, &w, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "nosuchkernel"));
	for (size_t i = 0; i < iw_builtin_count(); i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, iw_builtin_get(i)->name));
	/* bad knobs name the key */
	struct iw_err e2 = {0};
	CU_ASSERT_EQUAL(iw_builtin_open("synth:dep=0", 1, 1, &w, &e2), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e2.msg, "dep"));
	struct iw_err e3 = {0};
	CU_ASSERT_EQUAL(iw_builtin_open("sgemm:warps=4", 1, 1, &w, &e3), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e3.msg, "warps"));
	struct iw_err e4 = {0};
	CU_ASSERT_EQUAL(iw_builtin_open("vecadd", 1, 0, &w, &e4), -IW_EINPUT);
}

/* Knobs that must sum to at most 1 are refused when the workload is named,
 * before any workload runs, saying which of them were left at their default
 * (not as a run failure at a line of generated text). */
static void knob_sums_refused_when_named(void)
{
	char err[2048], args[1200];
	CU_ASSERT_EQUAL(tu_run("run -q --scale 0.1 -s inorder -w sgemm -w synth:div=0.8", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "synth:div=0.8: expected the probabilities skip (0.3, the default) + "
					   "div (0.8) to sum to at most 1"));
	CU_ASSERT_PTR_NULL(strstr(err, "built-in kernel"));
	CU_ASSERT_EQUAL(tu_run("run -s inorder -w sgemm -w synth:l1=0.8", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected the shares l1 (0.8) + l2 (0.5, the default) to sum to at most 1"));
	CU_ASSERT_PTR_NULL(strstr(err, "sgemm with inorder")); /* nothing ran */
	CU_ASSERT_EQUAL(tu_run("run -q -w vecadd:l1=0.7:l2=0.5", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "l1 (0.7) + l2 (0.5)"));
	/* in a sweep spec, at its line ("," separates knobs there) */
	const char *dir = tu_tmpdir();
	snprintf(args, sizeof args, "%s/knobs.xml", dir);
	FILE *f = fopen(args, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<?xml version=\"1.0\"?>\n<sweep>\n  <workload>vecadd</workload>\n"
	      "  <workload>synth:warps=4,skip=0.6,div=0.5</workload>\n</sweep>\n", f);
	fclose(f);
	snprintf(args, sizeof args, "sweep '%s/knobs.xml' -o '%s/knobs.h5' -q", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "knobs.xml:4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "skip (0.6) + div (0.5) to sum to at most 1"));
	/* at exactly 1 the kernel is built and runs */
	CU_ASSERT_EQUAL(tu_run("run -q --scale 0.02 -s inorder -w synth:skip=0.2:div=0.8:ctas=4", NULL, 0, err, sizeof err), 0);
}

/* What 'list workloads' says of 'builtin' is what run does with it: six
 * workloads (a row each), or one sequence of six kernels with knobs. */
static void builtin_listing_matches_what_run_does(void)
{
	static char out[65536];
	char err[2048];
	CU_ASSERT_EQUAL_FATAL(tu_run("list workloads", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "each run as a workload of its own"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "with knobs, one workload running the six as a sequence of kernels, each kernel taking the knobs"));
	CU_ASSERT_EQUAL_FATAL(tu_run("run --scale 0.02 -s inorder -w builtin --format csv", out, sizeof out, err, sizeof err), 0);
	int rows = 0;
	for (const char *p = strchr(out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		rows++;
	CU_ASSERT_EQUAL(rows, 6);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nbfs,inorder,"));
	CU_ASSERT_EQUAL_FATAL(tu_run("run --scale 0.02 -s inorder -w builtin:iters=2 --kernels --format csv", out, sizeof out,
				     err, sizeof err), 0);
	rows = 0;
	for (const char *p = strchr(out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		rows += strncmp(p + 1, "builtin:iters=2,", 16) == 0;
	CU_ASSERT_EQUAL(rows, 6); /* one workload, its six kernels */
}

/* Knobs steer the synthetic kernel: mix, dependence distance, shape. */
static void synth_knobs(void)
{
	struct iw_err e = {0};
	struct iw_kernel_info ki;
	struct iw_workload *w = open_wl("synth:sp=1,int=0,sfu=0,ld=0,st=0,lds=0,sts=0,br=0,bar=0,warps=4,"
					"ctas=3,regs=64,dep=1",
					5, 1);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_EQUAL(w->ops->next_kernel(w, &ki, &e), 1);
	CU_ASSERT_EQUAL(ki.ctas, 3);
	CU_ASSERT_EQUAL(ki.warps_per_cta, 4);
	CU_ASSERT_EQUAL(ki.nregs, 64);
	struct iw_cta cta;
	CU_ASSERT_EQUAL(w->ops->next_cta(w, &cta, &e), 1);
	struct iw_inst in;
	uint64_t sp = 0, chain = 0, n = 0;
	uint16_t last_dst = IW_REG_NONE;
	while (w->ops->fetch(w, &cta, 0, &in, NULL, &e) == 1) {
		n++;
		if (in.unit == IW_UNIT_SP) {
			sp++;
			for (int i = 0; i < in.nsrc; i++)
				if (in.src[i] == last_dst) {
					chain++;
					break;
				}
			last_dst = in.dst[0];
		}
	}
	w->ops->release_cta(w, &cta);
	iw_workload_close(w);
	CU_ASSERT(sp > 0.8 * (double)n);
	CU_ASSERT(chain > 0.95 * (double)sp); /* dep=1: each FFMA reads the previous result */

	/* corners of the knob space still give well-formed kernels */
	static const char *specs[] = {"synth:dep=16:regs=128", "synth:regs=16:dp=1:tensor=1:dep=64",
				      "synth:regs=255:body=2000:br=0.3:bar=8:ctas=2", "synth:body=8:bar=8:br=0.3",
				      "synth:st=1:int=0:sp=0:sfu=0:ld=0:lds=0:sts=0:div=1:skip=0"};
	for (size_t i = 0; i < IW_ARRAY_LEN(specs); i++) {
		w = open_wl(specs[i], 5, 0.01);
		if (!w)
			continue;
		struct stats st;
		pull_all(w, &st, NULL, NULL);
		iw_workload_close(w);
		CU_ASSERT(st.insts > 0);
		CU_ASSERT_EQUAL(st.reg_bad + st.exit_last_bad + st.pc_flow_bad + st.bar_mismatch + st.pred_bad +
					st.mask0_bad,
				0);
	}
}

/* Every allocation failure during open is reported, and nothing leaks (the
 * sanitizer build checks the latter). */
static void open_survives_allocation_failures(void)
{
	for (long n = 0; n < 40; n++) {
		struct iw_workload *w = NULL;
		struct iw_err e = {0};
		iw_alloc_fail_after(n);
		int rc = iw_builtin_open("builtin", 1, 0.01, &w, &e);
		iw_alloc_fail_after(-1);
		if (rc == 0) {
			iw_workload_close(w);
			break;
		}
		CU_ASSERT_EQUAL(rc, -IW_ERUN);
		CU_ASSERT_PTR_NULL(w);
	}
}

void suite_workloads(void)
{
	TU_SUITE("workloads", {"same_seed_same_stream", same_seed_same_stream},
		 {"pull_order_does_not_matter", pull_order_does_not_matter},
		 {"kernels_are_well_formed", kernels_are_well_formed}, {"kernel_shapes", kernel_shapes},
		 {"default_set_is_real_sized", default_set_is_real_sized},
		 {"unknown_name_lists_known_ones", unknown_name_lists_known_ones}, {"synth_knobs", synth_knobs},
		 {"knob_sums_refused_when_named", knob_sums_refused_when_named},
		 {"builtin_listing_matches_what_run_does", builtin_listing_matches_what_run_does},
		 {"open_survives_allocation_failures", open_survives_allocation_failures});
}
