/*
 * perf/workloads_gen.h -- perf-internal: the built-in workload generator's
 * static programs.  A kernel is a small SASS-like program (assembled once at
 * open from the text in perf/workloads_kernels.c, or built from knobs by the
 * synthetic generator) whose dynamic behaviour (loop trip counts, branch
 * outcomes, active masks, where each load's data is found) is drawn lazily per
 * warp at fetch time from a per-warp random stream.  Only the static program
 * and the state of the live CTAs are held, so memory does not grow with the
 * length of the workload.
 */
#ifndef IW_WORKLOADS_GEN_H
#define IW_WORKLOADS_GEN_H

#include "perf.h"

#define WL_MAX_LOOPS 4   /* loop nesting / loops per program */
#define WL_MAX_REGION 4  /* nested divergent regions */
#define WL_NONE 0xffff
#define WL_PC_BYTES 16   /* Volta and later: 128-bit instructions */

enum wl_kind {
	WL_K_PLAIN,  /* runs with the current mask */
	WL_K_LOOP,   /* backward branch closing loop `loop` */
	WL_K_COND,   /* forward predicated branch to `target` */
	WL_K_EXIT,
};

/* How a forward branch decides, per warp. */
enum wl_cond {
	WL_C_PROB,  /* whole warp skips with p_skip, diverges with p_div, else falls through */
	WL_C_TREE,  /* tree reduction: lanes with tid >= s skip, s = threads/2 >> iteration */
	WL_C_MASK,  /* lanes outside a fixed mask skip (halo lanes, lane 0 of warp 0) */
};

/* How a loop's trip count is drawn. */
enum wl_trip {
	WL_T_FIXED, /* the same for every warp (CTA-uniform: barriers inside stay matched) */
	WL_T_LANES, /* per lane (geometric, mean `mean`): lanes drop out, the warp runs the maximum */
	WL_T_TREE,  /* log2(threads per CTA) halvings */
};

struct wl_loop {
	uint8_t trip_kind;
	uint32_t trip;    /* WL_T_FIXED */
	double mean;      /* WL_T_LANES */
	uint16_t head, back;
};

struct wl_sinst {
	struct iw_inst proto;  /* pc, opcode, unit, space, flags, registers, width */
	uint8_t kind;          /* enum wl_kind */
	uint8_t cond;          /* enum wl_cond for WL_K_COND */
	uint8_t loop;          /* WL_K_LOOP: its loop; WL_C_TREE: the loop counting halvings */
	uint8_t head_of;       /* loop whose header this is, or 0xff */
	uint8_t warp0;         /* WL_C_MASK: only warp 0 of the CTA has the lanes */
	uint8_t has_level;     /* global/local memory: draw mem_level */
	uint16_t target;       /* branch target (instruction index) */
	uint32_t mask;         /* WL_C_MASK lanes */
	uint32_t p1, p2;       /* 32-bit thresholds: level L1 / L1+L2, or skip / skip+div */
};

struct wl_prog {
	char name[64];
	uint32_t grid[3], block[3];
	uint32_t nregs, shmem;
	struct wl_sinst *code;
	uint32_t n, cap;
	struct wl_loop loops[WL_MAX_LOOPS];
	uint32_t nloops;
};

/* Knobs (`name:key=value:...`): NaN in ctas/iters/l1/l2 means "keep the kernel's own". */
struct wl_knobs {
	double ctas, l1, l2;  /* l1/l2: share of global accesses found there (rest DRAM) */
	/* synthetic kernel only */
	double mix[IW_UNIT_COUNT]; /* weights by unit class (MEM unused: see ld st lds sts) */
	double ld, st, lds, sts;   /* memory weights (global load/store, shared load/store) */
	double br;                 /* forward branches per body instruction */
	double skip, div;          /* branch: whole-warp skip, divergence probability */
	double dep;                /* mean dependence distance (producers), geometric */
	double warps, regs, shmem, iters, body, bar;
	double synth_l1, synth_l2; /* the synthetic kernel's own l1/l2 shares */
};

/* The opcode table (index = iw_inst.opcode for built-in workloads). */
const char *wl_opcode_name(uint16_t op);

/* Assemble `src` into p (appending); errors name the kernel and line. */
int wl_assemble(struct wl_prog *p, const char *src, struct iw_err *e);
void wl_prog_free(struct wl_prog *p);
/* Build the synthetic kernel from knobs (seeded: same seed, same program). */
int wl_synth_build(struct wl_prog *p, const struct wl_knobs *k, uint64_t seed, struct iw_err *e);

/* The named kernels' sources and launch shapes (perf/workloads_kernels.c). */
struct wl_kernel_src {
	const char *name, *source;
	uint32_t grid[3], block[3];
	uint32_t nregs, shmem;
};
extern const struct wl_kernel_src wl_kernels[];
extern const size_t wl_kernel_count;

#endif
