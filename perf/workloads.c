/*
 * perf/workloads.c -- the built-in workloads: the embedded default set that
 * `issuewatt run` simulates with no input, the named kernels one by one, and a
 * synthetic kernel driven by knobs.
 *
 * A name may carry knobs: "NAME:key=value:key=value" (',' also separates
 * knobs, but the command line splits --workload lists at commas).  For every kernel:
 *   ctas   number of CTAs (before --scale),  iters  trip count of the main loop,
 *   l1, l2 share of global loads whose data is found in L1 / L2 (rest DRAM).
 * For "synth" also: int sp dp sfu tensor ld st lds sts (mix weights by unit
 * class and memory kind), dep (mean dependence distance in producers,
 * geometric), br (forward branches per instruction), skip / div (probability
 * that a warp skips / diverges at one), warps (per CTA), regs (per thread),
 * shmem (bytes per CTA), body (loop body length), bar (barriers per iteration).
 *
 * Determinism: every warp draws from its own random stream seeded from
 * (seed, kernel, CTA, warp), so a warp's instructions do not depend on the
 * order in which the simulator pulls warps, CTAs or kernels.  Generation is
 * lazy: fetch() walks the kernel's static program with the warp's program
 * counter, loop counters and mask stack; nothing per dynamic instruction is
 * stored or allocated.
 */
#include "workloads_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- registry */
enum { KIND_KERNEL, KIND_SET, KIND_SYNTH };
static const struct {
	struct iw_builtin_desc d; /* name, description for `issuewatt list workloads`, set member */
	int kind;
	const char *kernel; /* KIND_KERNEL: the source it runs */
	const char *knobs;  /* applied before the user's */
} registry[] = {
	{{"builtin",
	  "the default set: vecadd, sgemm, reduce, stencil, bfs, rnn, each run as a workload of its own (a row "
	  "each, as if named one by one: 8.9 M warp-instructions at scale 1, each kernel at least one full wave "
	  "on 80 SMs); with knobs, one workload running the six as a sequence of kernels, each kernel taking the "
	  "knobs (builtin:iters=1: every loop runs once, 2.8 M warp-instructions; iters=2: 3.7 M)", 0},
	 KIND_SET, NULL, NULL},
	{{"vecadd", "vector add c[i] = a[i] + b[i], grid-stride loop (4 elements per thread), streaming from DRAM",
	  1},
	 KIND_KERNEL, "vecadd", NULL},
	{{"sgemm",
	  "SGEMM 1280x1024x64, 64x64 tiles, K-tile of 8 staged in shared memory, 2 barriers per tile, "
	  "4x4 FFMA register blocking", 1},
	 KIND_KERNEL, "sgemm", NULL},
	{{"reduce",
	  "tree reduction with shared memory and a barrier per step, active masks halving "
	  "(grid-stride first pass over 12 elements per thread)", 1},
	 KIND_KERNEL, "reduce", NULL},
	{{"stencil", "2-D 5-point Jacobi, 32x8 tiles marching 8 rows, neighbours through shared memory, halo lanes",
	  1},
	 KIND_KERNEL, "stencil", NULL},
	{{"bfs",
	  "BFS frontier expansion (Rodinia): divergent frontier test, per-lane edge loops, "
	  "dependent gather visited[edges[i]]", 1},
	 KIND_KERNEL, "bfs", NULL},
	{{"rnn", "RNN/GEMV layer step: 8 independent FFMA accumulators per thread over K=48, weights from L1/L2, tanh",
	  1},
	 KIND_KERNEL, "rnn", NULL},
	/* One CTA of 4 warps per SM (one warp per scheduler) over a 4x longer K:
	 * almost no warps to switch between, 8 independent FFMA chains per warp --
	 * the case where issuing out of order pays most. */
	{{"rnn_lowocc",
	  "rnn with 80 CTAs of 4 warps (one warp per scheduler) over K=192: low occupancy, high ILP, "
	  "where out-of-order issue pays", 0},
	 KIND_KERNEL, "rnn", "ctas=80,iters=48"},
	/* Four warps per SM and a long dependent body: the in-order baseline waits
	 * on every chain; a window of a few instructions finds independent work. */
	{{"ilp_lowocc", "synthetic kernel, 80 CTAs of 4 warps, dependence distance 6: little TLP, some ILP", 0},
	 KIND_SYNTH, NULL, "ctas=80,warps=4,regs=96,dep=6,iters=64,ld=0.08,lds=0,sts=0,br=0.02"},
	{{"synth",
	  "synthetic kernel from knobs, e.g. synth:sp=0.5:int=0.2:ld=0.1:dep=3:br=0.05:warps=8:ctas=640 "
	  "(keys: ctas iters l1 l2 int sp dp sfu tensor ld st lds sts dep br skip div warps regs shmem body bar)", 0},
	 KIND_SYNTH, NULL, NULL},
};

static const struct wl_kernel_src *kernel_src(const char *name)
{
	for (size_t i = 0; i < wl_kernel_count; i++)
		if (strcmp(wl_kernels[i].name, name) == 0)
			return &wl_kernels[i];
	return NULL;
}

size_t iw_builtin_count(void) { return IW_ARRAY_LEN(registry); }

const struct iw_builtin_desc *iw_builtin_get(size_t i)
{
	return i < IW_ARRAY_LEN(registry) ? &registry[i].d : NULL;
}

/* ------------------------------------------------------------------- knobs */
static void knobs_default(struct wl_knobs *k)
{
	memset(k, 0, sizeof *k);
	k->ctas = k->l1 = k->l2 = k->iters = NAN;
	/* synthetic defaults: a compute kernel of FP32 and integer work with 20 %
	 * memory instructions, as in the mix of Rodinia/Parboil averages */
	k->mix[IW_UNIT_INT] = 0.28;
	k->mix[IW_UNIT_SP] = 0.40;
	k->mix[IW_UNIT_SFU] = 0.03;
	k->ld = 0.12;
	k->st = 0.04;
	k->lds = 0.05;
	k->sts = 0.02;
	k->br = 0.03;
	k->skip = 0.3;
	k->div = 0.3;
	k->dep = 3;
	k->warps = 8;
	k->regs = 40;
	k->shmem = 4096;
	k->body = 64;
	k->bar = 1;
	k->synth_l1 = 0.3;
	k->synth_l2 = 0.5;
}

static int knobs_parse(struct wl_knobs *k, const char *spec, int synth, const char *wname,
		       struct iw_err *e)
{
	static const struct {
		const char *key;
		size_t off;
		double min, max;
		int synth_only;
	} keys[] = {
#define K(name, field, lo, hi, so) {name, offsetof(struct wl_knobs, field), lo, hi, so}
		K("ctas", ctas, 1, 1e7, 0),
		K("iters", iters, 1, 1e5, 0),
		K("l1", l1, 0, 1, 0),
		K("l2", l2, 0, 1, 0),
		K("int", mix[IW_UNIT_INT], 0, 1e3, 1),
		K("sp", mix[IW_UNIT_SP], 0, 1e3, 1),
		K("dp", mix[IW_UNIT_DP], 0, 1e3, 1),
		K("sfu", mix[IW_UNIT_SFU], 0, 1e3, 1),
		K("tensor", mix[IW_UNIT_TENSOR], 0, 1e3, 1),
		K("ld", ld, 0, 1e3, 1),
		K("st", st, 0, 1e3, 1),
		K("lds", lds, 0, 1e3, 1),
		K("sts", sts, 0, 1e3, 1),
		K("dep", dep, 1, 64, 1),
		K("br", br, 0, 0.3, 1),
		K("skip", skip, 0, 1, 1),
		K("div", div, 0, 1, 1),
		K("warps", warps, 1, 32, 1),
		K("regs", regs, 16, 255, 1),
		K("shmem", shmem, 0, 98304, 1),
		K("body", body, 8, 2000, 1),
		K("bar", bar, 0, 8, 1),
#undef K
	};
	char buf[512];
	snprintf(buf, sizeof buf, "%s", spec);
	char *save = NULL;
	for (char *t = strtok_r(buf, ",:", &save); t; t = strtok_r(NULL, ",:", &save)) {
		char *eq = strchr(t, '=');
		if (!eq)
			return iw_fail(e, IW_EINPUT, "workload %s: expected key=value, found '%s'", wname, t);
		*eq = 0;
		size_t i;
		for (i = 0; i < IW_ARRAY_LEN(keys); i++)
			if (strcmp(keys[i].key, t) == 0)
				break;
		if (i == IW_ARRAY_LEN(keys) || (keys[i].synth_only && !synth))
			return iw_fail(e, IW_EINPUT,
				       "workload %s: unknown knob '%s' (every kernel: ctas iters l1 l2; synth also: "
				       "int sp dp sfu tensor ld st lds sts dep br skip div warps regs shmem body bar)",
				       wname, t);
		double v;
		if (iw_parse_double(eq + 1, &v) || v < keys[i].min || v > keys[i].max)
			return iw_fail(e, IW_EINPUT, "workload %s: knob %s expects a number in [%g, %g], found '%s'",
				       wname, t, keys[i].min, keys[i].max, eq + 1);
		*(double *)((char *)k + keys[i].off) = v;
	}
	return 0;
}

/* Whether the knobs after NAME: in spec set key (else it has its default). */
static int knob_given(const char *spec, const char *key)
{
	size_t n = strlen(key);
	for (const char *s = strchr(spec, ':'); s; s = strpbrk(s + 1, ",:"))
		if (strncmp(s + 1, key, n) == 0 && s[1 + n] == '=')
			return 1;
	return 0;
}

/* Constraints across knobs, checked when the workload is opened: otherwise the
 * assembler refuses the generated kernel, naming a line the user never saw,
 * and a knob at its default reads as if the user had set it. */
static int knobs_check(const struct wl_knobs *k, int synth, const char *spec, struct iw_err *e)
{
	static const char *const dflt[] = {"", ", the default"};
	double l1 = isnan(k->l1) ? (synth ? k->synth_l1 : 0) : k->l1;
	double l2 = isnan(k->l2) ? (synth ? k->synth_l2 : 0) : k->l2;
	if (l1 + l2 > 1.000001)
		return iw_fail(e, IW_EINPUT, "workload %s: expected the shares l1 (%g%s) + l2 (%g%s) to sum to at most 1",
			       spec, l1, dflt[!knob_given(spec, "l1")], l2, dflt[!knob_given(spec, "l2")]);
	if (synth && k->skip + k->div > 1.000001)
		return iw_fail(e, IW_EINPUT,
			       "workload %s: expected the probabilities skip (%g%s) + div (%g%s) to sum to at most 1",
			       spec, k->skip, dflt[!knob_given(spec, "skip")], k->div, dflt[!knob_given(spec, "div")]);
	return 0;
}

/* ----------------------------------------------------------------- state */
struct wl_warp {
	struct iw_rng rng;
	uint32_t pc, mask;
	uint8_t done, from_back, depth;
	struct {
		uint32_t it, trip, entry_mask;
	} loop[WL_MAX_LOOPS];
	struct {
		uint32_t end, mask;
	} region[WL_MAX_REGION];
	uint8_t lane_trip[32]; /* the active per-lane loop (one at a time) */
};

struct wl_cta {
	struct wl_cta *next_free, *next_all;
	const struct wl_prog *prog;
	uint32_t nwarps, threads;
	struct wl_warp w[];
};

struct wl_workload {
	struct iw_workload base;
	uint64_t seed;
	struct wl_prog *progs;
	uint32_t nprogs, kidx, max_warps;
	const struct wl_prog *cur;
	uint64_t cta_next, cta_total;
	struct wl_cta *free_list, *all;
};

static uint64_t warp_seed(uint64_t seed, uint64_t kernel, uint64_t cta, uint64_t warp)
{
	uint64_t h = iw_hash64(seed ^ 0x6275696c74696eull);
	h = iw_hash64(h ^ kernel);
	h = iw_hash64(h ^ cta);
	return iw_hash64(h ^ warp);
}

static uint32_t rng32(struct wl_warp *s) { return (uint32_t)(iw_rng_next(&s->rng) >> 32); }

/* Lanes of the per-lane loop still iterating at iteration `it`. */
static uint32_t lanes_alive(const struct wl_warp *s, uint32_t entry, uint32_t it)
{
	uint32_t m = 0;
	for (uint32_t l = 0; l < 32; l++)
		if (s->lane_trip[l] > it)
			m |= 1u << l;
	return m & entry;
}

static void loop_head(struct wl_warp *s, const struct wl_prog *p, uint32_t L, uint32_t from_back)
{
	const struct wl_loop *lp = &p->loops[L];
	if (!from_back) {
		s->loop[L].it = 0;
		s->loop[L].entry_mask = s->mask;
		if (lp->trip_kind == WL_T_LANES) {
			/* Geometric trip counts with the loop's mean (support >= 1): the
			 * degree of a vertex in a random graph; the warp runs the longest. */
			double lq = log1p(-1.0 / lp->mean);
			uint32_t mx = 1;
			for (uint32_t l = 0; l < 32; l++) {
				uint32_t t = 0;
				if (s->mask >> l & 1) {
					double u = (double)(iw_rng_next(&s->rng) >> 11) * 0x1.0p-53;
					double x = lp->mean > 1 ? 1 + floor(log1p(-u) / lq) : 1;
					t = x > 255 ? 255 : (uint32_t)x;
				}
				s->lane_trip[l] = (uint8_t)t;
				mx = t > mx ? t : mx;
			}
			s->loop[L].trip = mx;
		} else {
			s->loop[L].trip = lp->trip;
		}
	}
	if (lp->trip_kind == WL_T_LANES)
		s->mask = lanes_alive(s, s->loop[L].entry_mask, s->loop[L].it);
}

/* A forward branch at which the lanes in `fall` run the fall-through path
 * (the rest jump to the target): uniform taken, uniform not taken, or a
 * divergent region that ends at the target. */
static void branch(struct wl_warp *s, const struct wl_sinst *si, struct iw_inst *in, uint32_t fall,
		   uint32_t pc)
{
	fall &= s->mask;
	if (fall == 0) {
		in->flags |= IW_F_TAKEN;
		s->pc = si->target;
		return;
	}
	s->pc = pc + 1;
	if (fall == s->mask || s->depth >= WL_MAX_REGION) {
		/* predicate false on every lane: the trace records mask 0 */
		in->mask = 0;
		in->flags |= IW_F_MASK0;
		return;
	}
	in->mask = s->mask & ~fall;
	s->region[s->depth].end = si->target;
	s->region[s->depth++].mask = s->mask;
	s->mask = fall;
}

static int wl_fetch(struct iw_workload *wb, struct iw_cta *cta, uint32_t warp, struct iw_inst *in,
		    struct iw_mem_addrs *ma, struct iw_err *e)
{
	(void)wb;
	struct wl_cta *c = cta->priv;
	if (ma)
		ma->n = 0;
	if (!c || warp >= c->nwarps)
		return iw_fail(e, IW_ERUN, "built-in workload: fetch for warp %u of a CTA with %u warps", warp,
			       c ? c->nwarps : 0);
	struct wl_warp *s = &c->w[warp];
	if (s->done)
		return 0;
	const struct wl_prog *p = c->prog;
	uint32_t pc = s->pc, from_back = s->from_back;
	const struct wl_sinst *si = &p->code[pc];
	s->from_back = 0;
	while (s->depth && s->region[s->depth - 1].end == pc)
		s->mask = s->region[--s->depth].mask;
	if (si->head_of != 0xff)
		loop_head(s, p, si->head_of, from_back);
	*in = si->proto;
	in->mask = s->mask;
	switch (si->kind) {
	case WL_K_PLAIN:
		if (si->has_level) {
			uint32_t u = rng32(s);
			in->mem_level = u < si->p1 ? 1 : u < si->p2 ? 2 : 3;
		}
		s->pc = pc + 1;
		break;
	case WL_K_LOOP: {
		uint32_t L = si->loop;
		uint32_t it = ++s->loop[L].it;
		if (it < s->loop[L].trip) {
			in->flags |= IW_F_TAKEN;
			if (p->loops[L].trip_kind == WL_T_LANES)
				in->mask = lanes_alive(s, s->loop[L].entry_mask, it);
			s->pc = si->target;
			s->from_back = 1;
		} else {
			in->mask = 0;
			in->flags |= IW_F_MASK0;
			s->mask = s->loop[L].entry_mask;
			s->pc = pc + 1;
		}
		break;
	}
	case WL_K_COND: {
		uint32_t fall;
		if (si->cond == WL_C_PROB) {
			uint32_t u = rng32(s);
			if (u < si->p1) {
				fall = 0;
			} else if (u < si->p2) {
				/* a partial mask of 1/8, 1/4, 1/2 or 3/4 of the lanes */
				uint64_t r = iw_rng_next(&s->rng);
				uint32_t a = (uint32_t)r, b = (uint32_t)(r >> 32);
				uint32_t c3 = (uint32_t)(iw_rng_next(&s->rng) >> 16);
				switch (u & 3) {
				case 0: fall = a & b & c3; break;
				case 1: fall = a & b; break;
				case 2: fall = a; break;
				default: fall = a | b; break;
				}
				fall &= s->mask;
				if (fall == 0 || fall == s->mask) /* keep it divergent when it can be */
					fall = s->mask & (s->mask - 1) ? s->mask & -s->mask : s->mask;
			} else {
				fall = UINT32_MAX;
			}
		} else if (si->cond == WL_C_TREE) {
			/* if (tid < s): s = threads/2 >> iteration; this warp's lanes are
			 * tids 32*warp .. 32*warp+31 */
			uint32_t sv = (c->threads / 2) >> s->loop[si->loop].it;
			uint32_t base = 32 * warp;
			uint32_t n = sv > base ? sv - base : 0;
			fall = n >= 32 ? UINT32_MAX : (1u << n) - 1;
		} else {
			fall = si->warp0 && warp != 0 ? 0 : si->mask;
		}
		branch(s, si, in, fall, pc);
		break;
	}
	default: /* WL_K_EXIT */
		s->done = 1;
		break;
	}
	return 1;
}

/* ------------------------------------------------------------- kernels */
static void scaled_grid(const struct wl_prog *p, double scale, uint32_t g[3], uint64_t *ctas)
{
	uint64_t base = (uint64_t)p->grid[0] * p->grid[1] * p->grid[2];
	double t = floor((double)base * scale + 0.5);
	uint64_t n = t < 1 ? 1 : t > 1e9 ? 1000000000 : (uint64_t)t;
	uint64_t yz = (uint64_t)p->grid[1] * p->grid[2];
	if (n % yz == 0) {
		g[0] = (uint32_t)(n / yz);
		g[1] = p->grid[1];
		g[2] = p->grid[2];
	} else {
		g[0] = (uint32_t)n;
		g[1] = g[2] = 1;
	}
	*ctas = n;
}

static int wl_next_kernel(struct iw_workload *wb, struct iw_kernel_info *ki, struct iw_err *e)
{
	(void)e;
	struct wl_workload *w = (struct wl_workload *)wb;
	if (w->kidx >= w->nprogs)
		return 0;
	const struct wl_prog *p = &w->progs[w->kidx++];
	w->cur = p;
	memset(ki, 0, sizeof *ki);
	snprintf(ki->name, sizeof ki->name, "%s", p->name);
	memcpy(ki->grid, p->grid, sizeof ki->grid);
	memcpy(ki->block, p->block, sizeof ki->block);
	ki->nregs = p->nregs;
	ki->shmem = p->shmem;
	ki->binary_version = 70;
	ki->tracer_version = 0;
	ki->ctas = (uint64_t)p->grid[0] * p->grid[1] * p->grid[2];
	uint32_t threads = p->block[0] * p->block[1] * p->block[2];
	ki->warps_per_cta = (threads + 31) / 32;
	w->cta_next = 0;
	w->cta_total = ki->ctas;
	return 1;
}

static int wl_next_cta(struct iw_workload *wb, struct iw_cta *cta, struct iw_err *e)
{
	struct wl_workload *w = (struct wl_workload *)wb;
	if (!w->cur || w->cta_next >= w->cta_total)
		return 0;
	struct wl_cta *c = w->free_list;
	if (c) {
		w->free_list = c->next_free;
	} else {
		c = iw_malloc(sizeof *c + w->max_warps * sizeof c->w[0]);
		if (!c)
			return iw_fail(e, IW_ERUN, "out of memory (built-in workload CTA state)");
		c->next_all = w->all;
		w->all = c;
	}
	const struct wl_prog *p = w->cur;
	c->next_free = NULL;
	c->prog = p;
	c->threads = p->block[0] * p->block[1] * p->block[2];
	c->nwarps = (c->threads + 31) / 32;
	uint64_t id = w->cta_next++;
	for (uint32_t i = 0; i < c->nwarps; i++) {
		struct wl_warp *s = &c->w[i];
		memset(s, 0, sizeof *s);
		iw_rng_seed(&s->rng, warp_seed(w->seed, w->kidx - 1, id, i));
		uint32_t lanes = c->threads - 32 * i;
		s->mask = lanes >= 32 ? UINT32_MAX : (1u << lanes) - 1;
	}
	cta->id = id;
	cta->warps = c->nwarps;
	cta->priv = c;
	return 1;
}

static void wl_release_cta(struct iw_workload *wb, struct iw_cta *cta)
{
	struct wl_workload *w = (struct wl_workload *)wb;
	struct wl_cta *c = cta->priv;
	if (!c)
		return;
	c->next_free = w->free_list;
	w->free_list = c;
	cta->priv = NULL;
}

static void wl_close(struct iw_workload *wb)
{
	struct wl_workload *w = (struct wl_workload *)wb;
	if (!w)
		return;
	for (struct wl_cta *c = w->all, *n; c; c = n) {
		n = c->next_all;
		iw_free(c);
	}
	for (uint32_t i = 0; i < w->nprogs; i++)
		wl_prog_free(&w->progs[i]);
	iw_free(w->progs);
	iw_free(w);
}

static const struct iw_workload_ops wl_ops = {
	.next_kernel = wl_next_kernel,
	.next_cta = wl_next_cta,
	.fetch = wl_fetch,
	.release_cta = wl_release_cta,
	.close = wl_close,
};

/* Knobs common to every kernel: CTAs, main-loop trip count, where data is found. */
static void apply_knobs(struct wl_prog *p, const struct wl_knobs *k)
{
	if (!isnan(k->ctas)) {
		p->grid[0] = (uint32_t)k->ctas;
		p->grid[1] = p->grid[2] = 1;
	}
	if (!isnan(k->iters))
		for (uint32_t l = 0; l < p->nloops; l++)
			if (p->loops[l].trip_kind == WL_T_FIXED) {
				p->loops[l].trip = (uint32_t)k->iters;
				break;
			}
	if (!isnan(k->l1) || !isnan(k->l2)) {
		double l1 = isnan(k->l1) ? 0 : k->l1, l2 = isnan(k->l2) ? 0 : k->l2;
		for (uint32_t i = 0; i < p->n; i++)
			if (p->code[i].has_level && !(p->code[i].proto.flags & IW_F_STORE)) {
				p->code[i].p1 = l1 >= 1 ? UINT32_MAX : (uint32_t)(l1 * 4294967296.0);
				p->code[i].p2 = l1 + l2 >= 1 ? UINT32_MAX : (uint32_t)((l1 + l2) * 4294967296.0);
			}
	}
	for (uint32_t l = 0; l < p->nloops; l++)
		if (p->loops[l].trip_kind == WL_T_TREE) {
			uint32_t t = p->block[0] * p->block[1] * p->block[2], n = 0;
			while (t > 1) {
				t >>= 1;
				n++;
			}
			p->loops[l].trip = n ? n : 1;
		}
}

static int build_kernel(struct wl_prog *p, const struct wl_kernel_src *ks, const struct wl_knobs *k,
			struct iw_err *e)
{
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", ks->name);
	memcpy(p->grid, ks->grid, sizeof p->grid);
	memcpy(p->block, ks->block, sizeof p->block);
	p->nregs = ks->nregs;
	p->shmem = ks->shmem;
	int rc = wl_assemble(p, ks->source, e);
	if (rc)
		return rc;
	apply_knobs(p, k);
	return 0;
}

static int build_synth(struct wl_prog *p, const char *name, const struct wl_knobs *k, uint64_t seed,
		       struct iw_err *e)
{
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	p->grid[0] = 640;
	p->grid[1] = p->grid[2] = 1;
	p->block[0] = (uint32_t)k->warps * 32;
	p->block[1] = p->block[2] = 1;
	p->nregs = (uint32_t)k->regs;
	p->shmem = k->lds > 0 || k->sts > 0 ? (uint32_t)k->shmem : 0;
	struct wl_knobs kk = *k;
	if (isnan(kk.iters))
		kk.iters = 12;
	kk.l1 = isnan(k->l1) ? k->synth_l1 : k->l1;
	kk.l2 = isnan(k->l2) ? k->synth_l2 : k->l2;
	int rc = wl_synth_build(p, &kk, seed, e);
	if (rc)
		return rc;
	struct wl_knobs rest = *k;
	rest.iters = NAN; /* already in the program */
	rest.l1 = rest.l2 = NAN;
	apply_knobs(p, &rest);
	return 0;
}

static int find_entry(const char *name, size_t n)
{
	for (size_t i = 0; i < IW_ARRAY_LEN(registry); i++)
		if (strlen(registry[i].d.name) == n && strncmp(registry[i].d.name, name, n) == 0)
			return (int)i;
	return -1;
}

int iw_builtin_open(const char *spec, uint64_t seed, double scale, struct iw_workload **out,
		    struct iw_err *e)
{
	*out = NULL;
	size_t nl = strcspn(spec, ":");
	int r = find_entry(spec, nl);
	if (r < 0) {
		char known[512] = "";
		for (size_t i = 0; i < IW_ARRAY_LEN(registry); i++) {
			strcat(known, i ? ", " : "");
			strcat(known, registry[i].d.name);
		}
		/* "ctas=8" alone: a knob split off its workload by a comma on the
		 * command line, where commas separate workloads */
		int knob = memchr(spec, '=', nl) != NULL;
		return iw_fail(e, IW_EINPUT,
			       "unknown workload '%.*s': expected a built-in workload (%s) or the path of an "
			       "Accel-Sim trace%s",
			       (int)IW_MIN(nl, 200), spec, known,
			       knob ? "; on the command line a workload's knobs are separated by ':', as in "
				      "synth:warps=4:ctas=8"
				    : "");
	}
	if (!(scale > 0) || scale > 1e4)
		return iw_fail(e, IW_EINPUT, "workload scale must be in (0, 10000], found %g", scale);
	struct wl_knobs k;
	knobs_default(&k);
	int synth = registry[r].kind == KIND_SYNTH;
	int rc = 0;
	if (registry[r].knobs)
		rc = knobs_parse(&k, registry[r].knobs, synth, registry[r].d.name, e);
	if (!rc && spec[nl] == ':')
		rc = knobs_parse(&k, spec + nl + 1, synth, registry[r].d.name, e);
	if (!rc)
		rc = knobs_check(&k, synth, spec, e);
	if (rc)
		return rc;
	struct wl_workload *w = iw_calloc(1, sizeof *w);
	if (!w)
		return iw_fail(e, IW_ERUN, "out of memory");
	w->base.ops = &wl_ops;
	w->seed = seed;
	w->nprogs = registry[r].kind == KIND_SET ? (uint32_t)wl_kernel_count : 1;
	w->progs = iw_calloc(w->nprogs, sizeof *w->progs);
	if (!w->progs) {
		iw_free(w);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	for (uint32_t i = 0; i < w->nprogs && !rc; i++) {
		if (registry[r].kind == KIND_SET)
			rc = build_kernel(&w->progs[i], &wl_kernels[i], &k, e);
		else if (registry[r].kind == KIND_KERNEL)
			rc = build_kernel(&w->progs[i], kernel_src(registry[r].kernel), &k, e);
		else
			rc = build_synth(&w->progs[i], registry[r].d.name, &k, seed, e);
		if (!rc) {
			struct wl_prog *p = &w->progs[i];
			uint64_t ctas;
			scaled_grid(p, scale, p->grid, &ctas);
			uint32_t warps = (p->block[0] * p->block[1] * p->block[2] + 31) / 32;
			w->max_warps = IW_MAX(w->max_warps, warps);
			if (registry[r].kind == KIND_SET)
				snprintf(p->name, sizeof p->name, "%s", wl_kernels[i].name);
		}
	}
	if (rc) {
		wl_close(&w->base);
		return rc;
	}
	snprintf(w->base.name, sizeof w->base.name, "%s", spec);
	char sc[48] = "";
	if (scale != 1)
		snprintf(sc, sizeof sc, " (CTAs scaled x%g)", scale);
	snprintf(w->base.description, sizeof w->base.description, "%s%s",
		 iw_builtin_get((size_t)r)->description, sc);
	*out = &w->base;
	return 0;
}
