/* area/area.c -- area and FPGA resources (being built). */
#include "area.h"

#include <string.h>

const char *const iw_fpga_res_name[IW_FPGA_COUNT] = {"lut", "lutram", "ff", "bram", "dsp"};

int iw_area_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		 struct iw_area_result *a, struct iw_err *e)
{
	(void)scheme;
	(void)t;
	(void)e;
	memset(a, 0, sizeof *a);
	a->die_mm2 = c->die_area_mm2;
	return 0;
}
