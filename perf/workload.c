/* perf/workload.c -- opening a workload by name or path. */
#include "perf.h"

#include <string.h>

int iw_workload_open(const char *spec, uint64_t seed, double scale, struct iw_workload **out,
		     struct iw_err *e)
{
	*out = NULL;
	if (iw_path_is_trace(spec))
		return iw_trace_open(spec, out, e);
	return iw_builtin_open(spec, seed, scale, out, e);
}

void iw_workload_close(struct iw_workload *w)
{
	if (w)
		w->ops->close(w);
}

int iw_workload_check(const char *spec, uint64_t seed, double scale, struct iw_err *e)
{
	struct iw_workload *w = NULL;
	struct iw_mem_addrs *ma = iw_calloc(1, sizeof *ma);
	int rc = ma ? iw_workload_open(spec, seed, scale, &w, e) : iw_fail(e, IW_ERUN, "out of memory");
	struct iw_kernel_info ki;
	while (rc == 0 && (rc = w->ops->next_kernel(w, &ki, e)) == 1) {
		struct iw_cta cta;
		while ((rc = w->ops->next_cta(w, &cta, e)) == 1) {
			for (uint32_t wi = 0; wi < cta.warps && rc >= 0; wi++) {
				struct iw_inst in;
				while ((rc = w->ops->fetch(w, &cta, wi, &in, ma, e)) == 1)
					ma->strided = 0;
			}
			w->ops->release_cta(w, &cta);
			if (rc < 0)
				break;
		}
		rc = rc < 0 ? rc : 0;
	}
	iw_workload_close(w);
	iw_free(ma);
	return rc < 0 ? rc : 0;
}

/* ---- fixed-program workloads ---- */
struct program {
	struct iw_workload base;
	struct iw_inst *prog;
	size_t n;
	uint32_t ctas, warps, next_cta;
	int kernel_done;
	/* per (cta slot, warp) position: kept in the CTA's priv as an array */
};

static int prog_next_kernel(struct iw_workload *w, struct iw_kernel_info *ki, struct iw_err *e)
{
	struct program *p = (struct program *)w;
	if (p->kernel_done)
		return 0;
	p->kernel_done = 1;
	memset(ki, 0, sizeof *ki);
	snprintf(ki->name, sizeof ki->name, "%s", w->name);
	ki->grid[0] = p->ctas;
	ki->grid[1] = ki->grid[2] = 1;
	ki->block[0] = p->warps * 32;
	ki->block[1] = ki->block[2] = 1;
	ki->nregs = 32;
	ki->ctas = p->ctas;
	ki->warps_per_cta = p->warps;
	return 1;
}

static int prog_next_cta(struct iw_workload *w, struct iw_cta *cta, struct iw_err *e)
{
	struct program *p = (struct program *)w;
	if (p->next_cta == p->ctas)
		return 0;
	size_t *pos = iw_calloc(p->warps, sizeof *pos);
	if (!pos)
		return iw_fail(e, IW_ERUN, "out of memory");
	cta->id = p->next_cta++;
	cta->warps = p->warps;
	cta->priv = pos;
	return 1;
}

static int prog_fetch(struct iw_workload *w, struct iw_cta *cta, uint32_t warp, struct iw_inst *in,
		      struct iw_mem_addrs *ma, struct iw_err *e)
{
	struct program *p = (struct program *)w;
	size_t *pos = cta->priv;
	if (pos[warp] == p->n)
		return 0;
	*in = p->prog[pos[warp]++];
	if (ma)
		ma->n = 0;
	return 1;
}

static void prog_release_cta(struct iw_workload *w, struct iw_cta *cta)
{
	iw_free(cta->priv);
	cta->priv = NULL;
}

static void prog_close(struct iw_workload *w)
{
	struct program *p = (struct program *)w;
	iw_free(p->prog);
	iw_free(p);
}

static const struct iw_workload_ops prog_ops = {prog_next_kernel, prog_next_cta, prog_fetch, prog_release_cta,
						prog_close};

int iw_program_open(const char *name, const struct iw_inst *prog, size_t n, uint32_t ctas, uint32_t warps_per_cta,
		    struct iw_workload **out, struct iw_err *e)
{
	*out = NULL;
	struct program *p = iw_calloc(1, sizeof *p);
	if (!p || !(p->prog = iw_malloc((n ? n : 1) * sizeof *prog))) {
		iw_free(p);
		return iw_fail(e, IW_ERUN, "out of memory");
	}
	memcpy(p->prog, prog, n * sizeof *prog);
	p->n = n;
	p->ctas = ctas;
	p->warps = warps_per_cta;
	p->base.ops = &prog_ops;
	snprintf(p->base.name, sizeof p->base.name, "%s", name);
	*out = &p->base;
	return 0;
}
