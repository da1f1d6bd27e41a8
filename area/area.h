/*
 * area/area.h -- silicon area (ASIC) and FPGA resources of each structure a
 * scheme uses, from the configuration and the technology/device file, rolled
 * up per sub-core, SM and GPU and compared with the die.
 */
#ifndef IW_AREA_H
#define IW_AREA_H

#include "perf.h"
#include "tech.h"

enum iw_fpga_res { IW_FPGA_LUT, IW_FPGA_LUTRAM, IW_FPGA_FF, IW_FPGA_BRAM, IW_FPGA_DSP, IW_FPGA_COUNT };
extern const char *const iw_fpga_res_name[IW_FPGA_COUNT];

struct iw_area_result {
	enum iw_tech_kind kind;
	/* ASIC: um^2 per structure, for one SM and for the GPU */
	double sm_um2[IW_S_COUNT];
	double gpu_mm2;                   /* sum over the GPU of modelled structures */
	double die_mm2;                   /* the die (whole chip) at this node: gpu.die_area_mm2 scaled from gpu.die_area_factor's process */
	/* FPGA: resources per structure, whole design */
	double fpga[IW_S_COUNT][IW_FPGA_COUNT];
	double fpga_total[IW_FPGA_COUNT];
	double fpga_device[IW_FPGA_COUNT]; /* device capacity */
	double total_area_pct;            /* (FF% + LUT% + BRAM% + DSP%) / 4 */
	/* Additions: per-structure detail and roll-ups */
	int present[IW_S_COUNT];          /* the scheme has this structure */
	double gpu_um2[IW_S_COUNT];       /* whole GPU, um^2 */
	double subcore_um2;               /* sum over structures of one sub-core's share */
	double sm_total_um2;              /* sum of sm_um2 */
	double issue_sm_um2;              /* issue-stage structures only (ib..bcast), one SM */
	double fpga_pct[IW_FPGA_COUNT];   /* utilisation of the device, % */
};

/* ---- The structure model (area/model.c): one table of structures, each
 * with its storage, logic, FPGA mapping and the bits every action touches.
 * power/ prices actions with it; area/ sums its storage and logic. */
enum iw_scope { IW_SCOPE_WARP, IW_SCOPE_SUBCORE, IW_SCOPE_SM, IW_SCOPE_GPU };
enum iw_cell { IW_CELL_NONE, IW_CELL_DFF, IW_CELL_SRAM };
extern const char *const iw_scope_name[4];

struct iw_struct_model {
	int present;                /* the scheme has it (area and leakage counted) */
	enum iw_scope scope;
	double per_sm;              /* instances per SM; for IW_SCOPE_GPU: per GPU */
	double entries, width;      /* storage of one instance: entries x bits */
	enum iw_cell cell;
	int ports;                  /* SRAM ports (read + write) */
	double logic_ge;            /* logic of one instance, NAND2 gate equivalents */
	double lane_um2;            /* datapath area of one instance from per-lane areas */
	double um2;                 /* ASIC area of one instance */
	double fpga[IW_FPGA_COUNT]; /* FPGA resources of one instance */
	char note[1024];            /* the working, for --explain */
};
struct iw_model {
	struct iw_struct_model s[IW_S_COUNT];
	double act_bits[IW_A_COUNT]; /* storage/compare bits one count touches */
	double act_ge[IW_A_COUNT];   /* logic gate equivalents one count switches */
	int act_per_bit[IW_A_COUNT]; /* 1: energy.<act> is pJ/bit, 0: pJ per count */
	double act_pj[IW_A_COUNT];   /* energy per count, pJ */
	double arch_regs, warps_per_subcore;
};
/* Build the model of `scheme` ("inorder", "socgpu", "ghost", "loog", "ideal")
 * for the configuration with the technology's coefficients.  A missing or
 * ill-formed coefficient is -IW_EINPUT naming the file, line, coefficient and
 * structure. */
int iw_model_build(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		   struct iw_model *m, struct iw_err *e);
/* Instances of structure s in the whole GPU. */
double iw_model_gpu_count(const struct iw_config *c, const struct iw_model *m, int s);
/* Print the working of one structure (bits, gates, cells, factors, FPGA rules). */
int iw_area_explain(FILE *f, const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		    const char *structure, struct iw_err *e);
/* FPGA mapping rules (MODELS.md), exposed for tests. */
double iw_fpga_dm_luts(const struct iw_tech *t, double n);
double iw_fpga_cam_luts(double entries, double tag_bits);
double iw_fpga_lutram(double depth, double width, double read_ports);
double iw_fpga_bram(double depth, double width);

int iw_area_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		 struct iw_area_result *a, struct iw_err *e);
/* An FPGA design using over 100% of a device resource does not fit: its
 * figures describe no buildable design.  Writes the resources over 100% and
 * how many devices the scarcest one needs ("lut 2237%, ff 875% (23 devices'
 * worth of its scarcest resource)") to buf; returns how many are over (0 on
 * an ASIC node or when the design fits). */
int iw_area_misfit(const struct iw_area_result *a, char *buf, size_t n);

#endif
