/*
 * area/area.c -- ASIC area and FPGA resources per structure, rolled up per
 * sub-core, SM and GPU, from the structure model (area/model.c).
 */
#include "area.h"

#include <math.h>
#include <string.h>

const char *const iw_fpga_res_name[IW_FPGA_COUNT] = {"lut", "lutram", "ff", "bram", "dsp"};

static const char *const dev_coef[IW_FPGA_COUNT] = {"device.lut", "device.lutram", "device.ff", "device.bram",
						    "device.dsp"};
static const char *const dev_unit[IW_FPGA_COUNT] = {"LUT", "LUTRAM", "FF", "BRAM", "DSP"};

int iw_area_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t, struct iw_area_result *a,
		 struct iw_err *e)
{
	memset(a, 0, sizeof *a);
	a->kind = t->kind;
	/* the die at the node it is priced at, as every structure (the
	 * configuration gives it at its own process, gpu.die_area_factor) */
	a->die_mm2 = t->kind == IW_TECH_ASIC ? c->die_area_mm2 * t->area_factor / c->die_area_factor : c->die_area_mm2;
	struct iw_model m;
	int rc = iw_model_build(c, scheme, t, &m, e);
	if (rc)
		return rc;
	double S = c->subcores > 0 ? c->subcores : 1;
	for (int s = 0; s < IW_S_COUNT; s++) {
		const struct iw_struct_model *sm = &m.s[s];
		a->present[s] = sm->present;
		if (!sm->present)
			continue;
		double n = iw_model_gpu_count(c, &m, s);
		if (t->kind == IW_TECH_ASIC) {
			a->gpu_um2[s] = sm->um2 * n;
			a->sm_um2[s] = a->gpu_um2[s] / c->sms;
			a->sm_total_um2 += a->sm_um2[s];
			if (s >= IW_S_IB && s <= IW_S_BCAST)
				a->issue_sm_um2 += a->sm_um2[s];
			if (sm->scope != IW_SCOPE_GPU)
				a->subcore_um2 += a->sm_um2[s] / S;
		} else {
			for (int r = 0; r < IW_FPGA_COUNT; r++) {
				a->fpga[s][r] = sm->fpga[r] * n;
				a->fpga_total[r] += a->fpga[s][r];
			}
		}
	}
	if (t->kind == IW_TECH_ASIC) {
		for (int s = 0; s < IW_S_COUNT; s++)
			a->gpu_mm2 += a->gpu_um2[s] * 1e-6;
		return 0;
	}
	/* CLB LUTs as Vivado counts them: logic + memory; LUTRAM is the part used as memory. */
	a->fpga_total[IW_FPGA_LUT] += a->fpga_total[IW_FPGA_LUTRAM];
	for (int s = 0; s < IW_S_COUNT; s++)
		a->fpga[s][IW_FPGA_LUT] += a->fpga[s][IW_FPGA_LUTRAM];
	for (int r = 0; r < IW_FPGA_COUNT; r++) {
		if (iw_tech_need(t, dev_coef[r], dev_unit[r], "device totals", &a->fpga_device[r], e))
			return -e->code;
		if (a->fpga_device[r] <= 0)
			return iw_fail(e, IW_EINPUT, "%s: coefficient '%s' needed by the device totals: expected > 0, found 0",
				       t->origin, dev_coef[r]);
		a->fpga_pct[r] = 100 * a->fpga_total[r] / a->fpga_device[r];
	}
	/* LOOG-Vortex thesis section 6.2: Total Area(%) = (FF% + LUT% + BRAM% + DSP%) / 4 */
	a->total_area_pct = (a->fpga_pct[IW_FPGA_FF] + a->fpga_pct[IW_FPGA_LUT] + a->fpga_pct[IW_FPGA_BRAM] +
			     a->fpga_pct[IW_FPGA_DSP]) / 4;
	return 0;
}

int iw_area_explain(FILE *f, const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		    const char *structure, struct iw_err *e)
{
	int s = -1;
	for (int i = 0; i < IW_S_COUNT; i++)
		if (strcmp(iw_structs[i].name, structure) == 0)
			s = i;
	if (s < 0)
		return iw_fail(e, IW_EINPUT, "--explain '%s': expected a structure name (see 'issuewatt list structures')",
			       structure);
	struct iw_model m;
	int rc = iw_model_build(c, scheme, t, &m, e);
	if (rc)
		return rc;
	const struct iw_struct_model *sm = &m.s[s];
	double n = iw_model_gpu_count(c, &m, s);
	fprintf(f, "structure %s (%s), scheme %s, configuration %s, technology %s\n", iw_structs[s].name,
		iw_structs[s].help, scheme, c->name, t->name);
	fprintf(f, "  present in this scheme: %s\n", sm->present ? "yes" : "no (no area; actions, if counted, still priced)");
	fprintf(f, "  layout: %s\n", sm->note);
	fprintf(f, "  replication: one per %s, %g per %s, %g in the GPU\n", iw_scope_name[sm->scope], sm->per_sm,
		sm->scope == IW_SCOPE_GPU ? "GPU" : "SM", n);
	char ports[32] = "";
	if (sm->cell == IW_CELL_SRAM)
		snprintf(ports, sizeof ports, sm->ports > 1 ? " (%dR1W)" : " (single port)", sm->ports - 1);
	fprintf(f, "  storage per instance: %g entries x %g bits = %g bits, %s%s\n", sm->entries, sm->width,
		sm->entries * sm->width, sm->cell == IW_CELL_SRAM ? "SRAM" : sm->cell == IW_CELL_DFF ? "flip-flops" : "none",
		ports);
	fprintf(f, "  logic per instance: %.1f NAND2 gate equivalents\n", sm->logic_ge);
	if (t->kind == IW_TECH_ASIC) {
		const struct iw_coef *dff = iw_tech_coef(t, "area.cell.dff"), *sr = iw_tech_coef(t, "area.cell.sram"),
				     *ge = iw_tech_coef(t, "area.gate.nand2"), *lo = iw_tech_coef(t, "area.layout_overhead"),
				     *ef = iw_tech_coef(t, "area.sram.efficiency"), *pg = iw_tech_coef(t, "area.port_growth");
		if (dff && sr && ge && lo && ef && pg) {
			if (sm->cell == IW_CELL_DFF)
				fprintf(f, "  area = %g (layout) x (%g bits x %g um^2 DFF + %.1f GE x %g um^2 NAND2)%s = %.1f um^2\n",
					lo->value, sm->entries * sm->width, dff->value, sm->logic_ge, ge->value,
					sm->lane_um2 > 0 ? " + lanes" : "", sm->um2);
			else if (sm->cell == IW_CELL_SRAM) {
				double pf = 1 + pg->value * (sm->ports - 1);
				fprintf(f, "  area = %g bits x %g um^2 SRAM cell x %.2f port factor / %g array efficiency = %.1f um^2\n",
					sm->entries * sm->width, sr->value, pf * pf, ef->value, sm->um2);
			} else
				fprintf(f, "  area = %.1f um^2 (datapath lanes x area per lane)\n", sm->um2);
			const struct iw_coef *cell = sm->cell == IW_CELL_SRAM ? sr : dff;
			fprintf(f, "  per SM: %.1f um^2; GPU: %.4f mm^2\n  sources: %s = %s; %s = %s\n",
				sm->um2 * n / c->sms, sm->um2 * n * 1e-6, cell->name, cell->source, ge->name, ge->source);
		}
	} else {
		fprintf(f, "  FPGA per instance:");
		for (int r = 0; r < IW_FPGA_COUNT; r++)
			fprintf(f, " %s %g", iw_fpga_res_name[r], sm->fpga[r] + (r == IW_FPGA_LUT ? sm->fpga[IW_FPGA_LUTRAM] : 0));
		fprintf(f, "\n  FPGA whole design:");
		for (int r = 0; r < IW_FPGA_COUNT; r++)
			fprintf(f, " %s %g", iw_fpga_res_name[r], n * (sm->fpga[r] + (r == IW_FPGA_LUT ? sm->fpga[IW_FPGA_LUTRAM] : 0)));
		fprintf(f, "\n  rules: k-bit equality ceil((2k-1)/5) LUTs, N:1 mux ceil(N/4) LUTs per bit, N-input NOR "
			   "ceil((N-1)/5), LUTRAM 8 LUTs per 32x14 or 64x7 (one copy per read port), BRAM36 best aspect, "
			   "dependence matrix from measured Yosys points\n");
	}
	fprintf(f, "  actions:\n");
	for (int a = 0; a < IW_A_COUNT; a++) {
		if ((int)iw_acts[a].structure != s)
			continue;
		char name[80];
		snprintf(name, sizeof name, "energy.%s", iw_act_name(a));
		const struct iw_coef *k = iw_tech_coef(t, name);
		if (m.act_per_bit[a])
			fprintf(f, "    %-20s %g bits x %g pJ/bit + %.1f GE x energy.logic.ge = %.4g pJ per %s\n",
				iw_act_name(a), m.act_bits[a], k ? k->value : 0, m.act_ge[a], m.act_pj[a], iw_acts[a].unit);
		else
			fprintf(f, "    %-20s %.4g pJ per %s (%s)\n", iw_act_name(a), m.act_pj[a], iw_acts[a].unit,
				k ? k->source : "");
	}
	return 0;
}

int iw_area_misfit(const struct iw_area_result *a, char *buf, size_t n)
{
	int over = 0;
	double worst = 0;
	size_t at = 0;
	if (n)
		buf[0] = 0;
	for (int r = 0; a->kind == IW_TECH_FPGA && r < IW_FPGA_COUNT; r++)
		if (a->fpga_pct[r] > 100) {
			if (at < n)
				at += (size_t)snprintf(buf + at, n - at, "%s%s %.0f%%", over ? ", " : "", iw_fpga_res_name[r],
						       a->fpga_pct[r]);
			over++;
			worst = a->fpga_pct[r] > worst ? a->fpga_pct[r] : worst;
		}
	if (over && at < n)
		snprintf(buf + at, n - at, " (%.0f devices' worth of its scarcest resource)", ceil(worst / 100));
	return over;
}
