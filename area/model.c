/*
 * area/model.c -- the structure model: one table, one geometry function per
 * structure.  Each function states, once, a structure's storage (entries x
 * bits, cell kind, ports), its logic (comparators, muxes, encoders, NOR trees
 * in NAND2 gate equivalents), its FPGA mapping and the bits each of its
 * actions touches.  Area (area.c) and energy (power.c) are both read from here.
 *
 * Entry widths follow the papers where they give them:
 *   GhOST Table II: Valid 1 + Index 3 + Mask 32 + IB-dep 11 + Instruction 64 = 111 bits;
 *     with other sizes Index = log2(isb), Mask = warp_size, IB-dep = isb + 3
 *     (the 3 bits beyond one per IsB slot: in-flight, control and barrier flags,
 *     which makes the paper's 11 at isb = 8).
 *   LOOG-Vortex thesis Fig. 5.2/5.12: CU = alloc 1 + dispatch 1 + rd valid 1 + rs valid 3
 *     + rs-from-RF 3 + 3 x tag + instruction data + T x 32 rd data (without RRS)
 *     + 3 x T x 32 rs data; RRS entry = alloc 1 + rd_valid 1 + tmask T + T x 32 data.
 *   RAT (thesis Fig. 5.3): per warp and architectural register: from-RF bit + tag.
 * and derive from the configuration otherwise.  The decoded instruction is 64
 * bits (GhOST Table II) in every buffer, so schemes differ only by what they add.
 */
#include "area.h"

#include <math.h>
#include <string.h>

const char *const iw_scope_name[4] = {"warp", "sub-core", "SM", "GPU"};

#define INST_BITS 64.0 /* decoded instruction (GhOST Table II) */
#define N_REG_COMPARES 7.0 /* RAW 3 src x 1 dst, WAR 1 dst x 3 src, WAW 1 dst x 1 dst */

static double lg2(double n) { return n <= 2 ? 1 : ceil(log2(n)); }

/* Gate-equivalent counts of logic primitives (NanGate45 cell areas over NAND2_X1). */
struct ge_lib {
	double xor2, mux2, and2, fa, nand2_um2, dff_um2, sram_um2, port_growth, layout, sram_eff;
};
static double eq_ge(const struct ge_lib *g, double k) { return k * g->xor2 + (k - 1) * g->and2; }
static double mux_ge(const struct ge_lib *g, double n) { return (n - 1) * g->mux2; }
static double nor_ge(const struct ge_lib *g, double n) { return (n - 1) * g->and2; }
static double prio_ge(const struct ge_lib *g, double n) { return 2 * n * g->and2; }

/* ---- FPGA rules (AMD UltraScale+, LUT6; MODELS.md, checked with Yosys
 * synth_xilinx -family xcup). */
static double eq_lut(double k) { return ceil((2 * k - 1) / 5); }
static double mux_lut(double n) { return n <= 1 ? 0 : ceil(n / 4); } /* per bit, F7/F8 muxes */
static double nor_lut(double n) { return n <= 1 ? 0 : ceil((n - 1) / 5); }
double iw_fpga_cam_luts(double entries, double tag_bits) { return entries * eq_lut(tag_bits); }
/* LUTRAM: 8 LUTs hold a 32x14 or 64x7 simple-dual-port RAM; each extra read
 * port is another copy; deeper memories stack 64-deep blocks behind a mux. */
double iw_fpga_lutram(double depth, double width, double read_ports)
{
	if (depth <= 0 || width <= 0)
		return 0;
	if (read_ports < 1)
		read_ports = 1;
	if (depth <= 32)
		return read_ports * 8 * ceil(width / 14);
	return read_ports * 8 * ceil(depth / 64) * ceil(width / 7);
}
/* Logic LUTs of the read mux behind stacked LUTRAM blocks. */
static double lutram_mux(double depth, double width, double read_ports)
{
	return depth > 64 ? read_ports * width * mux_lut(ceil(depth / 64)) : 0;
}
/* BRAM36: 512x72 (simple dual port), 1Kx36, 2Kx18, 4Kx9, 8Kx4, 16Kx2, 32Kx1;
 * the cheapest aspect ratio for depth x width. */
double iw_fpga_bram(double depth, double width)
{
	static const double d[] = {512, 1024, 2048, 4096, 8192, 16384, 32768};
	static const double w[] = {72, 36, 18, 9, 4, 2, 1};
	if (depth <= 0 || width <= 0)
		return 0;
	double best = INFINITY;
	for (int i = 0; i < 7; i++) {
		double n = ceil(depth / d[i]) * ceil(width / w[i]);
		if (n < best)
			best = n;
	}
	return best;
}
/* Dependence matrix N x N: measured Yosys points in the device file
 * (fpga.dm.lut.16/32/64), power-law between them; outside them the MODELS.md
 * rule N^2 + N ceil((N-1)/5) scaled to the nearest measured point. */
static double dm_rule(double n) { return n * n + n * nor_lut(n); }
double iw_fpga_dm_luts(const struct iw_tech *t, double n)
{
	double px[8], py[8];
	int k = 0;
	static const int sizes[] = {4, 8, 16, 32, 64, 128};
	for (size_t i = 0; i < IW_ARRAY_LEN(sizes); i++) {
		char name[64];
		snprintf(name, sizeof name, "fpga.dm.lut.%d", sizes[i]);
		const struct iw_coef *c = t ? iw_tech_coef(t, name) : NULL;
		if (c && c->value > 0) {
			px[k] = sizes[i];
			py[k++] = c->value;
		}
	}
	if (k == 0)
		return dm_rule(n);
	if (n <= px[0])
		return floor(dm_rule(n) * py[0] / dm_rule(px[0]) + 0.5);
	if (n >= px[k - 1])
		return floor(dm_rule(n) * py[k - 1] / dm_rule(px[k - 1]) + 0.5);
	for (int i = 0; i + 1 < k; i++)
		if (n <= px[i + 1]) {
			double a = log(py[i + 1] / py[i]) / log(px[i + 1] / px[i]);
			return floor(py[i] * pow(n / px[i], a) + 0.5);
		}
	return dm_rule(n);
}

/* ---- the configuration's derived sizes */
struct geo {
	const struct iw_config *c;
	const struct iw_tech *t;
	struct ge_lib g;
	int fpga;
	double T, W, S, Wsc, R, regw, widw;
	const char *scheme;
	int inorder, socgpu, ghost, loog, ideal;
};

/* Architectural registers per thread: a SASS register field is 8 bits (R0-R254
 * and RZ); Vortex (the single-ported-RF configuration) has 32 integer + 32 FP
 * registers (LOOG-Vortex thesis Fig. 5.3). */
static double arch_regs(const struct iw_config *c) { return c->rf_read_ports == 1 ? 64 : 256; }

static double ib_entries(const struct geo *q)
{
	const struct iw_config *c = q->c;
	return q->socgpu ? c->socgpu_ib_size : q->ghost ? c->ghost_ib_size : q->loog ? c->loog_ib_size
									       : c->inorder_ib_size;
}
static double loog_rrs(const struct iw_config *c) { return iw_config_loog_rrs(c); }
static double loog_tagw(const struct iw_config *c)
{
	double r = loog_rrs(c);
	return lg2(r > c->loog_cus ? r : c->loog_cus);
}
static double isb_entry_bits(const struct geo *q)
{
	double isb = q->c->ghost_isb_size;
	return 1 + lg2(isb) + q->T + (isb + 3) + INST_BITS;
}

#define NOTE(m, ...) snprintf((m)->note + strlen((m)->note), sizeof (m)->note - strlen((m)->note), __VA_ARGS__)

static void fetch_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	(void)q;
	(void)M;
	m->scope = IW_SCOPE_SUBCORE;
	NOTE(m, "fetch/decode is the same in every scheme: energy per instruction only, area not modelled; "
		"power/ also charges here the per-warp-instruction pipeline energy (energy.pipe.inst: issue, "
		"operand crossbar, pipeline registers, write-back), shared by every scheme.");
	m->present = 0;
}

static void ib_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double E = ib_entries(q);
	/* valid + decoded instruction; SOCGPU adds an issued bit (entries live until write-back) */
	double w = 1 + INST_BITS + (q->socgpu ? 1 : 0);
	m->scope = IW_SCOPE_WARP;
	m->entries = E;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->logic_ge = w * mux_ge(&q->g, E) + 2 * lg2(E) * q->g.fa;
	m->fpga[IW_FPGA_LUTRAM] = iw_fpga_lutram(E, w, 1);
	m->fpga[IW_FPGA_FF] = 2 * lg2(E) + E; /* head/tail pointers, valid bits */
	m->fpga[IW_FPGA_LUT] = lutram_mux(E, w, 1) + 2 * lg2(E) + E;
	M->act_bits[IW_A_IB_WRITE] = w;
	M->act_bits[IW_A_IB_READ] = w;
	M->act_ge[IW_A_IB_READ] = w * lg2(E) * q->g.mux2;
	NOTE(m, "%g entries x %g bits (valid + %g-bit decoded instruction%s); read mux %g:1 per bit, "
		"head/tail pointers of %g bits as adders", E, w, INST_BITS, q->socgpu ? " + issued" : "", E, lg2(E));
}

/* Scoreboard as NVIDIA's (Coon et al., US patent 7,434,032): per warp a
 * memory region holding the register ids of pending writes (and, with the
 * WAR scoreboard, of pending reads), each with a size indicator for wide
 * destinations; an instruction's registers are compared with every entry.
 * The configuration has no key for the entries per region: SB_ENTRIES. */
#define SB_ENTRIES 8.0
static void sb_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	/* Present in inorder and ghost (GhOST keeps the scoreboard for in-flight
	 * RAW/WAW); SOCGPU replaces it with the matrix, LOOG with the RAT.  Not
	 * in ideal: its unbounded renaming (SCHEMES.md 6) leaves no WAR/WAW to
	 * track and its window is not hardware, so it counts no sb action and
	 * carries no scoreboard area or leakage either. */
	double war = q->c->war_scoreboard ? 1 : 0;
	double E = SB_ENTRIES, w = 1 + q->regw + 2; /* valid, register id, size indicator */
	double regions = 1 + war;
	/* RAW: 3 sources and WAW: destination against pending writes; WAR: destination against pending reads */
	double cmps = 4 * E + war * E;
	m->present = q->inorder || q->ghost;
	m->scope = IW_SCOPE_WARP;
	m->entries = regions * E;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->logic_ge = cmps * eq_ge(&q->g, q->regw) + regions * prio_ge(&q->g, E) /* free-entry pick */ +
		      regions * E * eq_ge(&q->g, q->regw) /* release match at write-back */;
	if (q->fpga) {
		/* On the FPGA the Vortex organisation (VX_scoreboard): one pending bit
		 * per architectural register and warp, read through R:1 muxes. */
		double lookups = 4 + war;
		m->fpga[IW_FPGA_FF] = regions * q->R;
		m->fpga[IW_FPGA_LUT] = lookups * mux_lut(q->R) + regions * q->R;
	} else {
		m->fpga[IW_FPGA_FF] = regions * E * w;
		m->fpga[IW_FPGA_LUT] = cmps * eq_lut(q->regw) + regions * E * (1 + eq_lut(q->regw)) + 4 * nor_lut(E);
	}
	M->act_bits[IW_A_SB_CHECK] = cmps * q->regw;
	M->act_ge[IW_A_SB_CHECK] = 4 * nor_ge(&q->g, E);
	int set[] = {IW_A_SB_SET, IW_A_SB_CLEAR, IW_A_SB_WAR_SET, IW_A_SB_WAR_CLEAR};
	for (int i = 0; i < 4; i++) {
		M->act_bits[set[i]] = w;
		M->act_ge[set[i]] = prio_ge(&q->g, E);
	}
	NOTE(m, "%g region(s) (pending writes%s) x %g entries x %g bits (valid, %g-bit register id, 2-bit size; "
		"Coon et al., US 7,434,032); %g %g-bit comparisons per check, release match per entry%s",
	     regions, war ? " + pending reads for WAR" : "", E, w, q->regw, cmps, q->regw,
	     q->fpga ? "; FPGA: Vortex's VX_scoreboard, a pending bit per register and warp in flip-flops" : "");
}

static void sched_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double n = q->Wsc;
	m->present = 1;
	m->scope = IW_SCOPE_SUBCORE;
	m->entries = n;
	m->width = lg2(n); /* GTO age order */
	m->cell = IW_CELL_DFF;
	m->logic_ge = 2 * prio_ge(&q->g, n) + n * eq_ge(&q->g, lg2(n));
	m->fpga[IW_FPGA_FF] = n * lg2(n);
	m->fpga[IW_FPGA_LUT] = 2 * n + n * eq_lut(lg2(n));
	M->act_bits[IW_A_SCHED_SELECT] = n;
	M->act_ge[IW_A_SCHED_SELECT] = prio_ge(&q->g, n);
	NOTE(m, "%g warps per scheduler: age order %g x %g bits, two priority arbiters, age comparators", n, n, lg2(n));
}

static void dm_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double E = q->c->socgpu_ib_size;
	double cmp = E * (N_REG_COMPARES * eq_ge(&q->g, q->regw) + 4 * q->g.and2); /* + class rules */
	m->present = q->socgpu;
	m->scope = IW_SCOPE_WARP;
	m->entries = E;
	m->width = E;
	m->cell = IW_CELL_DFF;
	m->logic_ge = E * E * q->g.and2 /* set/clear per cell */ + E * nor_ge(&q->g, E) + cmp;
	m->fpga[IW_FPGA_FF] = E * E;
	m->fpga[IW_FPGA_LUT] = iw_fpga_dm_luts(q->fpga ? q->t : NULL, E) + E * N_REG_COMPARES * eq_lut(q->regw);
	M->act_bits[IW_A_DM_ROW_WRITE] = E;
	M->act_ge[IW_A_DM_ROW_WRITE] = cmp;
	M->act_bits[IW_A_DM_COL_CLEAR] = E;
	M->act_bits[IW_A_DM_READY_EVAL] = E;
	M->act_ge[IW_A_DM_READY_EVAL] = nor_ge(&q->g, E);
	NOTE(m, "%g x %g bit matrix; ready = NOR of each row (%g inputs); insert compares the new "
		"instruction's registers with %g entries: %g %g-bit comparisons each (RAW 3, WAR 3, WAW 1)",
	     E, E, E, E, N_REG_COMPARES, q->regw);
}

static void dc_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double isb = q->c->ghost_isb_size, w = isb_entry_bits(q);
	double cmp = isb * (N_REG_COMPARES * eq_ge(&q->g, q->regw) + 6 * q->g.and2);
	m->present = q->ghost;
	m->scope = IW_SCOPE_SUBCORE;
	m->per_sm = q->S * q->c->ghost_dc_units;
	m->entries = 1;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->logic_ge = cmp;
	m->fpga[IW_FPGA_FF] = w;
	m->fpga[IW_FPGA_LUT] = isb * (N_REG_COMPARES * eq_lut(q->regw) + 2);
	M->act_bits[IW_A_DC_CHECK] = w;
	M->act_bits[IW_A_DC_COMPARE] = N_REG_COMPARES * q->regw;
	NOTE(m, "%d units per scheduler, each one %g-bit entry (GhOST Table II: valid 1, index %g, mask %g, "
		"IB-dep %g, instruction %g) and %g x %g %g-bit comparators against the IsB entries",
	     q->c->ghost_dc_units, w, lg2(isb), q->T, isb + 3, INST_BITS, isb, N_REG_COMPARES, q->regw);
}

static void isb_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double isb = q->c->ghost_isb_size, w = isb_entry_bits(q), idx = lg2(isb);
	double fast = 1 + idx + isb + 3; /* bits updated in parallel: valid, age index, IB-dep */
	m->present = q->ghost;
	m->scope = IW_SCOPE_WARP;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->logic_ge = w * mux_ge(&q->g, isb) + isb * nor_ge(&q->g, isb + 3) + isb * idx * 2 * q->g.and2 +
		      isb * (isb + 3) * q->g.and2;
	m->fpga[IW_FPGA_FF] = isb * fast + isb * idx;
	m->fpga[IW_FPGA_LUTRAM] = iw_fpga_lutram(isb, w - fast, 1);
	m->fpga[IW_FPGA_LUT] = isb * nor_lut(isb + 3) + isb * idx + isb * (isb + 3) + fast * mux_lut(isb);
	M->act_bits[IW_A_ISB_WRITE] = w;
	M->act_bits[IW_A_ISB_READ] = w;
	M->act_ge[IW_A_ISB_READ] = w * lg2(isb) * q->g.mux2;
	M->act_bits[IW_A_ISB_DEP_CLEAR] = isb;
	M->act_bits[IW_A_ISB_AGE_UPDATE] = isb * idx;
	M->act_ge[IW_A_ISB_AGE_UPDATE] = isb * idx * 2 * q->g.and2;
	m->entries = isb;
	m->width = w + idx; /* entry + its free-slot FIFO slot */
	NOTE(m, "%g slots x (%g-bit entry as GhOST Table II + %g-bit free-slot FIFO slot); IB-dep NOR per slot, "
		"age decrementers, read mux %g:1", isb, w, idx, isb);
}

static void itab_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double n = q->c->ghost_itab_size, isb = q->c->ghost_isb_size, idx = lg2(isb);
	double w = 1 + idx + q->T + INST_BITS;
	double sel = prio_ge(&q->g, q->Wsc) + isb * eq_ge(&q->g, idx) + 2 * prio_ge(&q->g, isb);
	m->present = q->ghost;
	m->scope = IW_SCOPE_WARP;
	m->entries = n;
	m->width = w;
	m->cell = IW_CELL_DFF;
	/* the GhOST scheduler's select logic is per scheduler: its share per warp */
	m->logic_ge = sel / q->Wsc + w * mux_ge(&q->g, n);
	m->fpga[IW_FPGA_FF] = n * w;
	m->fpga[IW_FPGA_LUT] = (q->Wsc + isb * eq_lut(idx) + 2 * isb) / q->Wsc + w * mux_lut(n);
	M->act_bits[IW_A_ITAB_WRITE] = w;
	M->act_bits[IW_A_ITAB_READ] = w;
	M->act_bits[IW_A_ITAB_SELECT] = isb;
	M->act_ge[IW_A_ITAB_SELECT] = sel;
	NOTE(m, "%g entries x %g bits (valid, IsB index, mask, instruction) per warp; GhOST scheduler select "
		"(warp arbiter over %g warps + oldest-ready pick among %g IsB slots) shared by the scheduler's warps",
	     n, w, q->Wsc, isb);
}

static void rat_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	double w = 1 + loog_tagw(q->c), R = q->R;
	m->present = q->loog;
	m->scope = IW_SCOPE_WARP;
	m->entries = R;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->logic_ge = 3 * w * mux_ge(&q->g, R) + 2 * R * q->g.and2 + eq_ge(&q->g, w - 1);
	m->fpga[IW_FPGA_LUTRAM] = iw_fpga_lutram(R, w, 3);
	m->fpga[IW_FPGA_LUT] = lutram_mux(R, w, 3) + eq_lut(w - 1);
	M->act_bits[IW_A_RAT_READ] = w;
	M->act_ge[IW_A_RAT_READ] = w * lg2(R) * q->g.mux2;
	M->act_bits[IW_A_RAT_WRITE] = w;
	NOTE(m, "%g architectural registers x (from-RF bit + %g-bit tag) per warp; 3 read ports (sources), "
		"1 write port; on FPGA LUTRAM with one copy per read port", R, w - 1);
}

static void cu_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	double data = q->T * 32, instr = INST_BITS + q->widw + q->T;
	double n, w, tagw = 0;
	m->scope = IW_SCOPE_SUBCORE;
	m->present = 1;
	if (q->loog) {
		n = c->loog_cus;
		tagw = loog_tagw(c);
		double rrs = loog_rrs(c) > 0;
		/* thesis Fig. 5.2 (no RRS) / 5.12 (RRS: rd data moves to the RRS, the CU keeps its RRS id) */
		w = 1 + 1 + 1 + 3 + 3 + 3 * tagw + instr + (rrs ? tagw : data) + 3 * data;
		m->logic_ge = 3 * eq_ge(&q->g, tagw) +
			      3 * data * mux_ge(&q->g, n) / n + prio_ge(&q->g, n) / n;
		m->fpga[IW_FPGA_LUT] = 3 * eq_lut(tagw) + 3 * data * mux_lut(n) / n + 2;
		NOTE(m, "%g reservation stations per sub-core, each %g bits (LOOG-Vortex Fig. 5.2%s: status 9, "
			"3 x %g-bit source tags, %g-bit instruction data, %s3 x %g operand bits); tag CAM: 3 x %g-bit "
			"comparators per CU; dispatch mux %g:1", n, w, rrs ? "/5.12" : "", tagw, instr,
		     rrs ? "RRS id, " : "rd data, ", data, tagw, n);
	} else {
		n = c->cus;
		/* operand collector: valid, instruction, 3 ready bits, 3 operands */
		w = 1 + instr + 3 + 3 * data;
		m->logic_ge = 3 * data * mux_ge(&q->g, n) / n + prio_ge(&q->g, n) / n;
		m->fpga[IW_FPGA_LUT] = 3 * data * mux_lut(n) / n + 2;
		NOTE(m, "%g operand collectors per sub-core, each %g bits (valid, %g-bit instruction, 3 ready, 3 x %g "
			"operand bits); dispatch mux %g:1", n, w, instr, data, n);
	}
	m->per_sm = q->S * n;
	m->entries = 1;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->fpga[IW_FPGA_FF] = w;
	M->act_bits[IW_A_CU_ALLOC] = 1 + instr + 3 * tagw;
	M->act_bits[IW_A_CU_OPERAND_WRITE] = data;
	M->act_bits[IW_A_CU_TAG_COMPARE] = tagw > 0 ? tagw : lg2(c->loog_cus);
	M->act_bits[IW_A_CU_DISPATCH] = 3 * data;
	M->act_ge[IW_A_CU_DISPATCH] = 3 * data * lg2(n) * q->g.mux2;
}

static void rrs_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	double n = loog_rrs(c), data = q->T * 32;
	double w = 1 + 1 + q->T + data + q->regw + q->widw;
	m->present = q->loog && n > 0;
	m->scope = IW_SCOPE_SUBCORE;
	m->per_sm = q->S * (n > 0 ? n : 1);
	m->entries = 1;
	m->width = w;
	m->cell = IW_CELL_DFF;
	m->logic_ge = data * mux_ge(&q->g, n > 1 ? n : 2) / (n > 0 ? n : 1) + 2 * q->g.and2 * 2;
	m->fpga[IW_FPGA_FF] = 2 + q->T + q->regw + q->widw;
	m->fpga[IW_FPGA_LUTRAM] = n > 0 ? iw_fpga_lutram(n, data, 1) / n : 0;
	m->fpga[IW_FPGA_LUT] = 2;
	M->act_bits[IW_A_RRS_ALLOC] = 2 + q->T;
	M->act_bits[IW_A_RRS_WRITE] = data + 1;
	M->act_bits[IW_A_RRS_READ] = data;
	NOTE(m, "%g entries per sub-core (loog.rrs, or cus x rrs_factor), each %g bits (LOOG-Vortex Fig. 5.12: "
		"alloc 1, rd_valid 1, tmask %g, %g data bits, + destination register and warp id for the RF write)",
	     n, w, q->T, data);
}

static void bcast_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	double tagw = loog_tagw(c), data = q->T * 32, n = c->loog_cus;
	double bus = data + tagw;
	m->present = q->loog;
	m->scope = IW_SCOPE_SUBCORE;
	m->entries = 1;
	m->width = bus; /* result register driving the bus */
	m->cell = IW_CELL_DFF;
	/* every CU operand field captures from the bus or the RF: a 2:1 mux per bit, plus bus drivers */
	m->logic_ge = n * 3 * data * q->g.mux2 + bus * 2 * q->g.and2;
	m->fpga[IW_FPGA_FF] = bus;
	m->fpga[IW_FPGA_LUT] = n * 3 * data;
	M->act_bits[IW_A_BCAST_SEND] = bus * n;
	NOTE(m, "%g-bit result + tag bus per sub-core reaching %g CUs; capture muxes on 3 x %g operand bits "
		"of every CU", bus, n, data);
}

static void rf_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	double bits = (double)iw_sm_regs(c) * 32 / q->S, banks = c->rf_banks, width = q->T * 32;
	double depth = bits / banks / width;
	m->present = 1;
	m->scope = IW_SCOPE_SUBCORE;
	m->per_sm = q->S * banks;
	m->entries = depth;
	m->width = width;
	m->cell = IW_CELL_SRAM;
	/* opc.rf_read_ports = 0: one read port per bank; N > 0: N operand reads per
	 * cycle for the sub-core, spread over the banks (1 = Vortex's single-ported
	 * VX_dp_ram, one 1R1W array). */
	double rports = c->rf_read_ports > 0 ? ceil((double)c->rf_read_ports / banks) : 1;
	m->ports = (int)rports + 1;
	m->logic_ge = 0;
	m->fpga[IW_FPGA_LUTRAM] = iw_fpga_lutram(depth, width, rports);
	m->fpga[IW_FPGA_LUT] = lutram_mux(depth, width, rports);
	M->act_bits[IW_A_RF_BANK_READ] = width;
	M->act_bits[IW_A_RF_BANK_WRITE] = width;
	NOTE(m, "%g banks per sub-core of %g x %g bits (%g registers x 32 bits per sub-core), %gR1W SRAM%s; "
		"FPGA: LUTRAM (Vortex VX_dp_ram .LUTRAM(1)), one copy per read port", banks, depth, width,
	     (double)iw_sm_regs(c) / q->S, rports, c->rf_read_ports == 1 ? ", one read port shared by all CUs (Vortex)" : "");
}

static const char *const fu_coef[IW_UNIT_COUNT] = {"int", "sp", "dp", "sfu", "tensor", "mem", "branch"};

static int fu_geo_t(struct geo *q, struct iw_model *M, struct iw_struct_model *m, struct iw_err *e)
{
	const struct iw_config *c = q->c;
	m->present = 1;
	m->scope = IW_SCOPE_SUBCORE;
	m->per_sm = q->S;
	m->entries = 0;
	double lanes_total = 0;
	for (int u = 0; u < IW_UNIT_COUNT; u++) {
		double lanes = c->units[u] * ceil(q->T / (c->ii[u] > 0 ? c->ii[u] : 1));
		char name[64];
		double v;
		lanes_total += lanes;
		if (lanes <= 0)
			continue;
		if (q->fpga) {
			static const char *const res[] = {"lut", "ff", "dsp"};
			static const int idx[] = {IW_FPGA_LUT, IW_FPGA_FF, IW_FPGA_DSP};
			for (int r = 0; r < 3; r++) {
				snprintf(name, sizeof name, "fpga.fu.%s.%s", fu_coef[u], res[r]);
				const char *unit = r == 0 ? "LUT" : r == 1 ? "FF" : "DSP";
				if (iw_tech_need(q->t, name, unit, "fu", &v, e))
					return -e->code;
				m->fpga[idx[r]] += lanes * v;
			}
		} else {
			snprintf(name, sizeof name, "area.fu.%s", fu_coef[u]);
			if (iw_tech_need(q->t, name, "um2", "fu", &v, e))
				return -e->code;
			m->lane_um2 += lanes * v;
		}
		NOTE(m, "%s %g lanes; ", fu_coef[u], lanes);
	}
	NOTE(m, "(lanes = units x warp_size / initiation interval, per sub-core; %g in all)", lanes_total);
	(void)M;
	return 0;
}

static void sram_geo(struct iw_struct_model *m, double bytes, double line_bits, double assoc, double line_b)
{
	double bits = bytes * 8;
	double tag = 0;
	if (assoc > 0 && line_b > 0 && bytes > 0) {
		double lines = bytes / line_b, sets = lines / assoc;
		tag = lines * (48 - lg2(sets) - lg2(line_b) + 2); /* 48-bit address, valid + dirty */
	}
	m->cell = IW_CELL_SRAM;
	m->ports = 1;
	m->entries = (bits + tag) / line_bits;
	m->width = line_bits;
	m->fpga[IW_FPGA_BRAM] = iw_fpga_bram(bits / line_bits, line_bits) + (tag > 0 ? iw_fpga_bram(bytes / line_b, tag / (bytes / line_b)) : 0);
}

static void l1_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	m->present = c->l1_kb > 0;
	m->scope = IW_SCOPE_SM;
	m->per_sm = 1;
	sram_geo(m, c->l1_kb * 1024.0, 256, c->l1_assoc, c->l1_line);
	NOTE(m, "%d KiB data (%d-way, %d-byte lines) + tags, single-ported SRAM read by 32-byte sectors", c->l1_kb,
	     c->l1_assoc, c->l1_line);
	(void)M;
}
static void shmem_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	m->present = c->shmem_kb > 0;
	m->scope = IW_SCOPE_SM;
	m->per_sm = 1;
	sram_geo(m, c->shmem_kb * 1024.0, 32.0 * c->shmem_banks, 0, 0);
	NOTE(m, "%d KiB in %d banks of 4 bytes", c->shmem_kb, c->shmem_banks);
	(void)M;
}
static void l2_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	const struct iw_config *c = q->c;
	m->present = c->l2_kb > 0;
	m->scope = IW_SCOPE_GPU;
	m->per_sm = 1;
	sram_geo(m, c->l2_kb * 1024.0, 256, c->l2_assoc, 128);
	NOTE(m, "%d KiB for the whole GPU (%d-way, 128-byte lines) + tags", c->l2_kb, c->l2_assoc);
	(void)M;
}
static void const_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	(void)q;
	m->present = 1;
	m->scope = IW_SCOPE_SM;
	m->per_sm = 1;
	/* The configuration has no size: 2 KiB, the L1 constant cache measured on
	 * Volta by Jia et al., "Dissecting the NVIDIA Volta GPU architecture", 2018. */
	sram_geo(m, 2048, 64, 4, 64);
	NOTE(m, "2 KiB constant cache per SM (Jia et al. 2018, Volta), 64-byte lines");
	(void)M;
}
static void offchip_geo(struct geo *q, struct iw_model *M, struct iw_struct_model *m)
{
	(void)q;
	(void)M;
	m->present = 0;
	m->scope = IW_SCOPE_GPU;
	m->per_sm = 1;
	NOTE(m, "energy per sector only; DRAM is off chip and the interconnect's area is not modelled");
}

typedef void (*geo_fn)(struct geo *, struct iw_model *, struct iw_struct_model *);
static const geo_fn geo_table[IW_S_COUNT] = {
	[IW_S_FETCH] = fetch_geo, [IW_S_IB] = ib_geo,     [IW_S_SB] = sb_geo,     [IW_S_SCHED] = sched_geo,
	[IW_S_DM] = dm_geo,       [IW_S_DC] = dc_geo,     [IW_S_ISB] = isb_geo,   [IW_S_ITAB] = itab_geo,
	[IW_S_RAT] = rat_geo,     [IW_S_CU] = cu_geo,     [IW_S_RRS] = rrs_geo,   [IW_S_BCAST] = bcast_geo,
	[IW_S_RF] = rf_geo,       [IW_S_FU] = NULL,       [IW_S_L1] = l1_geo,     [IW_S_SHMEM] = shmem_geo,
	[IW_S_L2] = l2_geo,       [IW_S_DRAM] = offchip_geo, [IW_S_NOC] = offchip_geo, [IW_S_CONST] = const_geo,
};

/* Actions priced per count (pJ) rather than per bit (pJ/bit): the shared
 * components whose size per action does not depend on the issue scheme. */
static int per_count(int a)
{
	enum iw_struct s = iw_acts[a].structure;
	return s == IW_S_FETCH || s == IW_S_FU || s == IW_S_L1 || s == IW_S_SHMEM || s == IW_S_L2 ||
	       s == IW_S_DRAM || s == IW_S_NOC || s == IW_S_CONST || a == IW_A_RF_BANK_CONFLICT;
}

static int need(const struct iw_tech *t, const char *name, const char *unit, const char *s, double *v,
		struct iw_err *e)
{
	return iw_tech_need(t, name, unit, s, v, e);
}

int iw_model_build(const struct iw_config *c, const char *scheme, const struct iw_tech *t, struct iw_model *M,
		   struct iw_err *e)
{
	memset(M, 0, sizeof *M);
	struct geo q;
	memset(&q, 0, sizeof q);
	q.c = c;
	q.t = t;
	q.scheme = scheme;
	q.inorder = strcmp(scheme, "inorder") == 0;
	q.socgpu = strcmp(scheme, "socgpu") == 0;
	q.ghost = strcmp(scheme, "ghost") == 0;
	q.loog = strcmp(scheme, "loog") == 0;
	q.ideal = strcmp(scheme, "ideal") == 0;
	if (!(q.inorder || q.socgpu || q.ghost || q.loog || q.ideal))
		return iw_fail(e, IW_EINPUT, "unknown scheme '%s' (expected inorder, socgpu, ghost, loog or ideal)",
			       scheme);
	q.fpga = t->kind == IW_TECH_FPGA;
	q.T = c->warp_size;
	q.W = c->max_warps;
	q.S = c->subcores > 0 ? c->subcores : 1;
	q.Wsc = ceil(q.W / q.S);
	q.R = arch_regs(c);
	q.regw = lg2(q.R);
	q.widw = lg2(q.Wsc);
	M->arch_regs = q.R;
	M->warps_per_subcore = q.Wsc;
	/* Gate-equivalent library: needed by every issue structure. */
	if (need(t, "logic.ge.xor2", "GE", "all structures", &q.g.xor2, e) ||
	    need(t, "logic.ge.mux2", "GE", "all structures", &q.g.mux2, e) ||
	    need(t, "logic.ge.and2", "GE", "all structures", &q.g.and2, e) ||
	    need(t, "logic.ge.fa", "GE", "all structures", &q.g.fa, e))
		return -e->code;
	for (int s = 0; s < IW_S_COUNT; s++) {
		struct iw_struct_model *m = &M->s[s];
		m->present = 1;
		if (s == IW_S_FU) {
			if (fu_geo_t(&q, M, m, e))
				return -e->code;
		} else {
			geo_table[s](&q, M, m);
		}
		if (m->per_sm == 0)
			m->per_sm = m->scope == IW_SCOPE_WARP ? q.W : m->scope == IW_SCOPE_SUBCORE ? q.S : 1;
	}
	/* ideal: a limit study (unbounded window, renaming, disambiguation) with
	 * no hardware of its own to price: it is given the baseline's IB (which
	 * its ib.read counts charge) and no scoreboard (sb_geo), so its area
	 * overhead is minus the baseline's scoreboard. */
	if (q.ideal) {
		q.ideal = 0;
		q.inorder = 1;
		ib_geo(&q, M, &M->s[IW_S_IB]);
		snprintf(M->s[IW_S_IB].note + strlen(M->s[IW_S_IB].note),
			 sizeof M->s[IW_S_IB].note - strlen(M->s[IW_S_IB].note),
			 " [ideal: priced as the in-order baseline's; its window is not hardware]");
	}
	/* ASIC area of one instance. */
	if (!q.fpga) {
		if (need(t, "area.gate.nand2", "um2", "all structures", &q.g.nand2_um2, e) ||
		    need(t, "area.cell.dff", "um2", "all structures", &q.g.dff_um2, e) ||
		    need(t, "area.cell.sram", "um2", "rf, l1, shmem, l2, const", &q.g.sram_um2, e) ||
		    need(t, "area.sram.efficiency", "1", "rf, l1, shmem, l2, const", &q.g.sram_eff, e) ||
		    need(t, "area.port_growth", "1", "rf", &q.g.port_growth, e) ||
		    need(t, "area.layout_overhead", "1", "all structures", &q.g.layout, e))
			return -e->code;
		if (q.g.sram_eff <= 0)
			return iw_fail(e, IW_EINPUT, "%s: coefficient 'area.sram.efficiency' needed by structure 'rf': "
				       "expected a value > 0, found 0", t->origin);
		for (int s = 0; s < IW_S_COUNT; s++) {
			struct iw_struct_model *m = &M->s[s];
			double bits = m->entries * m->width, a = 0;
			if (m->cell == IW_CELL_DFF)
				a = q.g.layout * bits * q.g.dff_um2;
			else if (m->cell == IW_CELL_SRAM) {
				/* CACTI: each port beyond one grows cell height and width;
				 * (1 + g (p-1))^2 with g fitted to x2.0/x3.4/x9.5 */
				double pf = 1 + q.g.port_growth * (m->ports - 1);
				a = bits * q.g.sram_um2 * pf * pf / q.g.sram_eff;
			}
			m->um2 = a + q.g.layout * m->logic_ge * q.g.nand2_um2 + m->lane_um2;
		}
	}
	/* Energy per action. */
	double e_ge = 0;
	if (need(t, "energy.logic.ge", "pJ/GE", "all structures", &e_ge, e))
		return -e->code;
	for (int a = 0; a < IW_A_COUNT; a++) {
		char name[80];
		snprintf(name, sizeof name, "energy.%s", iw_act_name(a));
		M->act_per_bit[a] = !per_count(a);
		double v;
		if (need(t, name, M->act_per_bit[a] ? "pJ/bit" : "pJ", iw_structs[iw_acts[a].structure].name, &v, e))
			return -e->code;
		M->act_pj[a] = M->act_per_bit[a] ? M->act_bits[a] * v + M->act_ge[a] * e_ge : v;
	}
	return 0;
}

double iw_model_gpu_count(const struct iw_config *c, const struct iw_model *m, int s)
{
	return m->s[s].scope == IW_SCOPE_GPU ? m->s[s].per_sm : m->s[s].per_sm * c->sms;
}
