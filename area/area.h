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
	double die_mm2;                   /* configuration's die area (whole chip) */
	/* FPGA: resources per structure, whole design */
	double fpga[IW_S_COUNT][IW_FPGA_COUNT];
	double fpga_total[IW_FPGA_COUNT];
	double fpga_device[IW_FPGA_COUNT]; /* device capacity */
	double total_area_pct;            /* (FF% + LUT% + BRAM% + DSP%) / 4 */
};

int iw_area_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		 struct iw_area_result *a, struct iw_err *e);

#endif
