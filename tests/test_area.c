/* tests/test_area.c -- area and FPGA resources: monotonicity, roll-ups, the
 * FPGA mapping rules against Yosys figures, paper entry widths, and the
 * 'issuewatt area' command a user runs. */
#include "area.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct iw_tech asic, fpga;
static int loaded;

static void load(void)
{
	if (loaded)
		return;
	struct iw_err e = {0};
	IW_ASSERT(iw_tech_load(&asic, "12nm", &e) == 0);
	IW_ASSERT(iw_tech_load(&fpga, "xcu50", &e) == 0);
	loaded = 1;
}

static const char *const schemes[] = {"inorder", "socgpu", "ghost", "loog", "ideal"};

static void eval(const struct iw_config *c, const char *s, const struct iw_tech *t, struct iw_area_result *a)
{
	struct iw_err e = {0};
	int rc = iw_area_eval(c, s, t, a, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
}

/* Growing `key` from lo to hi in steps never makes any scheme cheaper, on an
 * ASIC node or on the FPGA (every resource). */
static void monotone_in(const char *key, int lo, int hi, int step)
{
	load();
	for (size_t s = 0; s < IW_ARRAY_LEN(schemes); s++) {
		struct iw_area_result prev_a = {0}, prev_f = {0};
		for (int v = lo; v <= hi; v += step) {
			struct iw_config c;
			iw_config_defaults(&c);
			char set[96];
			struct iw_err e = {0};
			snprintf(set, sizeof set, "%s=%d", key, v);
			CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, set, &e), 0);
			if (strcmp(key, "sm.warp_size") == 0) {
				/* same registers per thread: the register file gets wider, not shallower */
				snprintf(set, sizeof set, "sm.max_threads=%d", v * c.max_warps);
				CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, set, &e), 0);
				snprintf(set, sizeof set, "sm.regs=%d", v * 2048);
				CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, set, &e), 0);
			}
			struct iw_area_result a, f;
			eval(&c, schemes[s], &asic, &a);
			eval(&c, schemes[s], &fpga, &f);
			if (v > lo) {
				CU_ASSERT(a.gpu_mm2 >= prev_a.gpu_mm2 - 1e-12);
				for (int st = 0; st < IW_S_COUNT; st++)
					CU_ASSERT(a.sm_um2[st] >= prev_a.sm_um2[st] - 1e-9);
				for (int r = 0; r < IW_FPGA_COUNT; r++)
					CU_ASSERT(f.fpga_total[r] >= prev_f.fpga_total[r] - 1e-9);
			}
			prev_a = a;
			prev_f = f;
		}
	}
}

static void more_entries_never_cost_less(void)
{
	monotone_in("inorder.ib_size", 1, 16, 1);
	monotone_in("socgpu.ib_size", 2, 64, 2);
	monotone_in("ghost.isb_size", 2, 32, 2);
	monotone_in("ghost.itab_size", 1, 8, 1);
	monotone_in("loog.cus", 2, 16, 1);
	monotone_in("loog.rrs", 4, 32, 4); /* 0 -> some is a reorganisation: rd data moves from the CUs to the RRS */
	monotone_in("sm.max_warps", 8, 64, 8);
}

static void wider_entries_and_more_ports_never_cost_less(void)
{
	monotone_in("sm.warp_size", 4, 32, 4);        /* masks, operand and result data */
	monotone_in("ghost.dc_units", 1, 8, 1);        /* checker ports of the scheduler */
	monotone_in("sm.regs", 16384, 131072, 16384);  /* register-file depth */
	monotone_in("opc.rf_read_ports", 1, 8, 1);     /* register-file read ports */
	for (double d = 16; d <= 128; d *= 2)
		for (double r = 1; r < 4; r++)
			CU_ASSERT(iw_fpga_lutram(d, 40, r + 1) > iw_fpga_lutram(d, 40, r));
	/* SRAM ports grow the cell: a 1R1W RF costs more than its single-port equivalent */
	load();
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_model m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "inorder", &asic, &m, &e), 0);
	double two = m.s[IW_S_RF].um2;
	struct iw_tech t1 = asic;
	struct iw_coef copy[512];
	CU_ASSERT_FATAL(asic.ncoef <= 512);
	memcpy(copy, asic.coef, asic.ncoef * sizeof *copy);
	t1.coef = copy;
	CU_ASSERT_EQUAL(iw_tech_set(&t1, "area.port_growth=0.6", &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "inorder", &t1, &m, &e), 0);
	CU_ASSERT(m.s[IW_S_RF].um2 > two);
}

static void rollups_equal_sums_of_parts(void)
{
	load();
	struct iw_config c;
	iw_config_defaults(&c);
	for (size_t s = 0; s < IW_ARRAY_LEN(schemes); s++) {
		struct iw_area_result a, f;
		eval(&c, schemes[s], &asic, &a);
		eval(&c, schemes[s], &fpga, &f);
		double gpu = 0, sm = 0, issue = 0;
		for (int st = 0; st < IW_S_COUNT; st++) {
			gpu += a.gpu_um2[st];
			sm += a.sm_um2[st];
			if (st >= IW_S_IB && st <= IW_S_BCAST)
				issue += a.sm_um2[st];
			if (a.present[st] && st != IW_S_L2)
				CU_ASSERT_DOUBLE_EQUAL(a.gpu_um2[st], a.sm_um2[st] * c.sms, 1e-6 * a.gpu_um2[st]);
		}
		CU_ASSERT_DOUBLE_EQUAL(a.gpu_mm2, gpu * 1e-6, 1e-9 * a.gpu_mm2);
		CU_ASSERT_DOUBLE_EQUAL(a.sm_total_um2, sm, 1e-9 * sm);
		CU_ASSERT_DOUBLE_EQUAL(a.issue_sm_um2, issue, 1e-9 * issue + 1e-9);
		for (int r = 0; r < IW_FPGA_COUNT; r++) {
			double t = 0;
			for (int st = 0; st < IW_S_COUNT; st++)
				t += f.fpga[st][r];
			CU_ASSERT_DOUBLE_EQUAL(f.fpga_total[r], t, 1e-9 * t + 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(f.fpga_pct[r], 100 * t / f.fpga_device[r], 1e-9);
		}
		CU_ASSERT_DOUBLE_EQUAL(f.total_area_pct,
				       (f.fpga_pct[IW_FPGA_FF] + f.fpga_pct[IW_FPGA_LUT] + f.fpga_pct[IW_FPGA_BRAM] +
					f.fpga_pct[IW_FPGA_DSP]) / 4, 1e-12);
		CU_ASSERT(f.fpga_total[IW_FPGA_LUT] >= f.fpga_total[IW_FPGA_LUTRAM]);
	}
}

static void fpga_rules_reproduce_yosys_figures(void)
{
	load();
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_dm_luts(&fpga, 16), 308, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_dm_luts(&fpga, 32), 1344, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_dm_luts(&fpga, 64), 4736, 1e-9);
	/* without measured points the analytic rule stays within Yosys +-10% */
	CU_ASSERT(fabs(iw_fpga_dm_luts(NULL, 16) / 308 - 1) < 0.1);
	CU_ASSERT(fabs(iw_fpga_dm_luts(NULL, 32) / 1344 - 1) < 0.1);
	CU_ASSERT(fabs(iw_fpga_dm_luts(NULL, 64) / 4736 - 1) < 0.1);
	for (double n = 4; n <= 128; n++)
		CU_ASSERT(iw_fpga_dm_luts(&fpga, n + 1) > iw_fpga_dm_luts(&fpga, n));
	for (int E = 1; E <= 64; E++)
		CU_ASSERT_DOUBLE_EQUAL(iw_fpga_cam_luts(E, 8), 3.0 * E, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_lutram(32, 14, 1), 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_lutram(64, 7, 1), 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_lutram(64, 8, 1), 16, 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_bram(512, 72), 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_bram(1024, 36), 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_bram(4096, 9), 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_fpga_bram(4096, 10), 2, 0);
	/* the SOCGPU matrix on the device uses the measured curve: a 16-entry IB gives 308 matrix LUTs + compares */
	struct iw_config c;
	iw_config_defaults(&c);
	c.socgpu_ib_size = 16;
	struct iw_model m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "socgpu", &fpga, &m, &e), 0);
	CU_ASSERT(m.s[IW_S_DM].fpga[IW_FPGA_LUT] >= 308);
	CU_ASSERT_DOUBLE_EQUAL(m.s[IW_S_DM].fpga[IW_FPGA_FF], 256, 0);
}

static void paper_entry_widths(void)
{
	load();
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_model m;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "ghost", &asic, &m, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(m.s[IW_S_DC].width, 111, 0); /* GhOST Table II */
	CU_ASSERT_DOUBLE_EQUAL(m.act_bits[IW_A_ISB_WRITE], 111, 0);
	/* LOOG-Vortex CU: 9 status bits + 3 tags + instruction + 4 x T x 32 data without RRS */
	c.loog_cus = 8;
	c.loog_rrs = 0;
	c.loog_rrs_factor = 0;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "loog", &asic, &m, &e), 0);
	double T = c.warp_size, instr = 64 + 4 /* log2(16 warps per sub-core) */ + T;
	CU_ASSERT_DOUBLE_EQUAL(m.s[IW_S_CU].width, 9 + 3 * 3 + instr + 4 * T * 32, 0);
	CU_ASSERT_FALSE(m.s[IW_S_RRS].present);
	c.loog_rrs = 12;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "loog", &asic, &m, &e), 0);
	CU_ASSERT(m.s[IW_S_RRS].present);
	CU_ASSERT_DOUBLE_EQUAL(m.s[IW_S_RRS].per_sm, 12.0 * c.subcores, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.act_bits[IW_A_RRS_WRITE], T * 32 + 1, 0);
	/* which structures each scheme has */
	struct iw_area_result a;
	eval(&c, "socgpu", &asic, &a);
	CU_ASSERT(a.present[IW_S_DM] && !a.present[IW_S_SB] && !a.present[IW_S_RAT]);
	eval(&c, "ghost", &asic, &a);
	CU_ASSERT(a.present[IW_S_DC] && a.present[IW_S_ISB] && a.present[IW_S_ITAB] && a.present[IW_S_SB]);
	eval(&c, "loog", &asic, &a);
	CU_ASSERT(a.present[IW_S_RAT] && a.present[IW_S_BCAST] && !a.present[IW_S_SB]);
	struct iw_area_result b;
	eval(&c, "inorder", &asic, &b);
	eval(&c, "ideal", &asic, &a);
	/* limit study: no hardware of its own, and no scoreboard (its renaming has none) */
	CU_ASSERT_DOUBLE_EQUAL(a.gpu_mm2, b.gpu_mm2 - b.gpu_um2[IW_S_SB] * 1e-6, 1e-12);
	CU_ASSERT_EQUAL(iw_area_eval(&c, "nosuch", &asic, &a, &e), -IW_EINPUT);
}

static void node_scaling_of_area(void)
{
	struct iw_tech t45, t7;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t45, "45nm", &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t7, "7nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_area_result a, b;
	eval(&c, "loog", &t45, &a);
	eval(&c, "loog", &t7, &b);
	for (int s = 0; s < IW_S_COUNT; s++)
		if (a.present[s])
			CU_ASSERT_DOUBLE_EQUAL(b.sm_um2[s] / a.sm_um2[s], t7.derive_area, 1e-9);
	iw_tech_free(&t45);
	iw_tech_free(&t7);
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void area_command_csv_and_explain(void)
{
	static char out[65536], err[4096];
	CU_ASSERT_EQUAL(tu_run("area --scheme all --tech 12nm --format csv", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_EQUAL(strncmp(out, "config,scheme,tech,structure,area_mm2,overhead_mm2,overhead_pct", 63), 0);
	CU_ASSERT_EQUAL(count_lines(out), 6);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",inorder,12nm,all,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",ghost,12nm,all,"));
	CU_ASSERT_EQUAL(tu_run("area --scheme loog --tech xcu50 --format csv --per-structure", out, sizeof out, err,
			       sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "lut,lutram,ff,bram,dsp,total_area_pct"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",loog,xcu50,rat,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",loog,xcu50,all,"));
	/* per-structure rows add up to the total's LUTs and overhead */
	double lut_sum = 0, ov_sum = 0, lut_all = -1, ov_all = 0;
	for (char *line = strchr(out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		char st[32];
		double v[7];
		if (sscanf(line + 1, "%*[^,],%*[^,],%*[^,],%31[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", st, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6]) != 8)
			continue;
		if (strcmp(st, "all") == 0) {
			lut_all = v[0];
			ov_all = v[6];
		} else {
			lut_sum += v[0];
			ov_sum += v[6];
		}
	}
	CU_ASSERT_DOUBLE_EQUAL(lut_sum, lut_all, 0.5 * IW_S_COUNT);
	CU_ASSERT_DOUBLE_EQUAL(ov_sum, ov_all, 0.01);
	CU_ASSERT_EQUAL(tu_run("area --scheme ghost --tech 45nm --explain dc", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "111"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "dc.compare"));
	CU_ASSERT_EQUAL(tu_run("area --scheme inorder --set gpu.sms=40 --format csv", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_EQUAL(tu_run("area --scheme nosuch", NULL, 0, err, sizeof err), 3);
	/* a whole V100 on one Alveo U50 is said not to fit; a Vortex core fits */
	CU_ASSERT_EQUAL(tu_run("area --scheme inorder --tech xcu50", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "does not fit the device: lut "));
	CU_ASSERT_EQUAL(tu_run("area --scheme loog --tech xcu50 --config vortex", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Total Area(%)"));
	CU_ASSERT_PTR_NULL(strstr(out, "does not fit"));
	CU_ASSERT_EQUAL(tu_run("area --format xml", NULL, 0, NULL, 0), 2);
	CU_ASSERT_EQUAL(tu_run("area --explain nosuch", NULL, 0, NULL, 0), 3);
	CU_ASSERT_EQUAL(tu_run("area --set sm.nosuch=1", NULL, 0, NULL, 0), 3);
}

/* On an FPGA device `run` shows the Total Area(%) its ADP is computed from
 * (the area of the whole device, larger with LOOG's CUs), not mm^2; the CSV
 * and the results file carry it as fpga_area_pct, and the report reads it back. */
static void run_table_shows_fpga_area_in_percent(void)
{
	static char out[8192], csv[8192], args[1024], err[4096];
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -c vortex -t xcu50 -s inorder,loog --scale 0.02 -w sgemm", out, sizeof out,
				     err, sizeof err), 0);
	CU_ASSERT_PTR_NULL(strstr(err, "does not fit")); /* a Vortex core fits the U50 */
	/* a whole V100 does not: said before the run, on standard error, once per scheme */
	CU_ASSERT_EQUAL(tu_run("run -q -t xcu50 -s inorder,ghost --scale 0.02 -w vecadd --format csv", csv, sizeof csv, err,
			       sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: inorder on v100 does not fit the xcu50 device: lut "));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: ghost on v100 does not fit the xcu50 device: lut "));
	CU_ASSERT_PTR_NULL(strstr(csv, "does not fit")); /* the CSV stays a table */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "area_%"));
	CU_ASSERT_PTR_NULL(strstr(out, "area_mm2"));
	double a[2] = {0, 0};
	const char *names[2] = {"\nsgemm          inorder ", "\nsgemm          loog    "};
	for (int k = 0; k < 2; k++) {
		const char *l = strstr(out, names[k]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		CU_ASSERT_EQUAL(sscanf(l + strlen(names[k]), "%*s %*s %*s %*s %*s %lf", &a[k]), 1);
	}
	CU_ASSERT(a[0] > 1 && a[0] < 100);
	CU_ASSERT(a[1] > a[0]);
	const char *d = tu_tmpdir();
	snprintf(args, sizeof args, "run -q -c vortex -t xcu50 -s inorder,loog --scale 0.02 -w sgemm --format csv -o %s/f.h5",
		 d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, csv, sizeof csv, NULL, 0), 0);
	/* the loog row's fpga_area_pct is the table's figure */
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, "\nsgemm,loog,"));
	CU_ASSERT_DOUBLE_EQUAL(tu_csv_value(csv, 2, "fpga_area_pct"), a[1], 0.0005);
	snprintf(args, sizeof args, "report %s/f.h5 --format csv", d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_STRING_EQUAL(out, csv); /* read back from the file: the same table */
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -s inorder --scale 0.01 -w vecadd --format csv", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",1.000000,0.000000,")); /* ASIC: edp_rel 1, no FPGA area */
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -s inorder --scale 0.01 -w vecadd", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "area_mm2"));
	/* area --format json: the CSV's rows as objects, the same Total Area(%) */
	CU_ASSERT_EQUAL_FATAL(tu_run("area -c vortex -t xcu50 -s loog --format json", out, sizeof out, NULL, 0), 0);
	CU_ASSERT(tu_json_valid(out));
	const char *lj = strstr(out, "\"scheme\": \"loog\"");
	const char *tj = lj ? strstr(lj, "\"total_area_pct\": ") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(tj);
	CU_ASSERT_DOUBLE_EQUAL(atof(tj + strlen("\"total_area_pct\": ")), a[1], 0.0005);
	CU_ASSERT_EQUAL_FATAL(tu_run("area --format json --per-structure -s ghost", out, sizeof out, NULL, 0), 0);
	CU_ASSERT(tu_json_valid(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"structure\": \"isb\", \"area_mm2\": "));
}

/* The die is priced at the node as the structures are (gpu.die_area_mm2 is
 * the V100's at 12 nm): one design's overhead in % of the die, and its
 * adp_rel, are the same at 45, 12 and 7 nm (at 45 nm SOCGPU read +1.955%
 * of an unscaled 815 mm^2 die, +0.115% at 7 nm; LOOG's adp_rel 2.11 / 1.81
 * / 1.77). */
static void overhead_and_adp_do_not_depend_on_the_node(void)
{
	static const char *const nodes[] = {"45nm", "12nm", "7nm"};
	double ov[3], adp[3], am[3];
	char args[256], out[8192];
	for (int k = 0; k < 3; k++) {
		snprintf(args, sizeof args, "area -s socgpu --tech %s --format csv", nodes[k]);
		CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
		ov[k] = tu_csv_value(out, 1, "overhead_pct");
		snprintf(args, sizeof args, "run -q -s inorder,loog --scale 0.02 -w vecadd --tech %s --format csv", nodes[k]);
		CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
		adp[k] = tu_csv_value(out, 2, "adp_rel");
		am[k] = tu_csv_value(out, 1, "area_mm2");
	}
	CU_ASSERT(ov[1] > 0.1);
	CU_ASSERT(adp[1] > 1);
	for (int k = 0; k < 3; k += 2) {
		CU_ASSERT_DOUBLE_EQUAL(ov[k], ov[1], 1e-4);
		CU_ASSERT_DOUBLE_EQUAL(adp[k], adp[1], 1e-4);
	}
	/* the in-order chip is the die at its node: 815 mm^2 at 12 nm, x 1/0.17 at 45 nm */
	CU_ASSERT_DOUBLE_EQUAL(am[1], 815, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(am[0], 815 / 0.17, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(am[2], 815 * 0.059 / 0.17, 1e-3);
}

/* What a scheme is priced for, it uses: ideal counts no scoreboard action
 * (its unbounded renaming has none), so it has no scoreboard area or leakage
 * (it carried the baseline's 30,508 um^2 per SM); and the result broadcast's
 * wires switch with the NoC's activity 0.5 (it was charged the full C V^2,
 * 0.0195 pJ/bit at 45 nm). */
static void area_and_energy_agree_on_what_a_scheme_has(void)
{
	char out[16384];
	CU_ASSERT_EQUAL_FATAL(tu_run("area -s inorder --format csv --per-structure", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nv100,inorder,12nm,sb,"));
	CU_ASSERT_EQUAL_FATAL(tu_run("area -s ideal --format csv --per-structure", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nv100,ideal,12nm,ib,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nv100,ideal,12nm,sb,0.000000,-2.44")); /* none, all of it saved */
	CU_ASSERT_EQUAL_FATAL(tu_run("area -s ideal --format csv", out, sizeof out, NULL, 0), 0);
	CU_ASSERT(tu_csv_value(out, 1, "overhead_mm2") < -2.4 && tu_csv_value(out, 1, "overhead_mm2") > -2.5);
	CU_ASSERT_EQUAL_FATAL(tu_run("area -s loog --tech 45nm --explain bcast", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "x 0.00975 pJ/bit"));
}

/* The validation page compares like with like: GhOST's 1276 um^2 includes the
 * Issue Buffer (paper VI-E), so the comparable row is the one with the IsB
 * (it said the paper did not count it), and LOOG-Vortex's named cell (16
 * warps x 4 threads, 8 CUs: 5% and 4.5% with 12 RRS) is shown with its ratio
 * (it showed only the range over every 4-thread cell). */
static void validation_compares_the_papers_own_cells(void)
{
	static char out[1 << 16];
	CU_ASSERT_EQUAL_FATAL(tu_run("area --validation", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "not counted as new storage"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "so it includes the IsB"));
	CU_ASSERT_PTR_NULL(strstr(out, "| DC + ITab/select only, the logic beside the existing decoded-instruction pool (um^2) | 1276"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "| the thesis's named cell: 16 warps x 4 threads, 8 CUs, no RRS | 5% | +13.1% (2.6 x) |"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "| the same with 12 RRS | 4.5% | +12.3% (2.7 x) |"));
}

/* docs/VALIDATION.md is what --validation prints today (regenerate, don't edit). */
static void validation_page_is_current(void)
{
	static char out[65536];
	CU_ASSERT_EQUAL_FATAL(tu_run("area --validation", out, sizeof out, NULL, 0), 0);
	char *doc;
	size_t len;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_read_file(tu_path("docs/VALIDATION.md"), &doc, &len, &e), 0);
	if (strcmp(out, doc) != 0)
		fprintf(stderr, "\ndocs/VALIDATION.md is stale: regenerate it with "
				"'./build/issuewatt area --validation > docs/VALIDATION.md'\n");
	CU_ASSERT_STRING_EQUAL(out, doc);
	CU_ASSERT_PTR_NOT_NULL(strstr(doc, "1276"));
	iw_free(doc);
}

/* A Vortex core's hardware threads are its warps x threads, each with 64
 * registers: on the vortex preset a sweep over sm.max_warps and sm.warp_size
 * resizes the register file (twice the warps, twice the LUTRAM) and the
 * thread slots, so more warps are resident and hide more latency (vecadd's
 * in-order run: 16 warps take fewer cycles than 8).  A preset with a fixed
 * register file (v100) keeps it whatever the warps. */
static void vortex_threads_and_registers_follow_warps_x_threads(void)
{
	load();
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "vortex", NULL, &e), 0);
	CU_ASSERT_EQUAL(iw_sm_threads(&c), 16 * 16);
	CU_ASSERT_EQUAL(iw_sm_regs(&c), 16 * 16 * 64);
	struct iw_area_result a16, a32;
	eval(&c, "loog", &fpga, &a16);
	CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, "sm.max_warps=32", &e), 0);
	CU_ASSERT_EQUAL(iw_sm_threads(&c), 32 * 16);
	CU_ASSERT_EQUAL(iw_sm_regs(&c), 32 * 16 * 64);
	eval(&c, "loog", &fpga, &a32);
	CU_ASSERT_DOUBLE_EQUAL(a32.fpga[IW_S_RF][IW_FPGA_LUTRAM], 2 * a16.fpga[IW_S_RF][IW_FPGA_LUTRAM], 1e-9);
	CU_ASSERT(a32.total_area_pct > a16.total_area_pct);
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "v100", NULL, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, "sm.max_warps=32", &e), 0);
	CU_ASSERT_EQUAL(iw_sm_threads(&c), 2048);
	CU_ASSERT_EQUAL(iw_sm_regs(&c), 65536);

	static char o8[4096], o16[4096];
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -c vortex -s inorder -w vecadd --scale 0.2 --format csv --set sm.max_warps=8",
				     o8, sizeof o8, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -c vortex -s inorder -w vecadd --scale 0.2 --format csv", o16, sizeof o16,
				     NULL, 0), 0);
	const char *r8 = strstr(o8, "\nvecadd,inorder,"), *r16 = strstr(o16, "\nvecadd,inorder,");
	CU_ASSERT_FATAL(r8 && r16);
	unsigned long long c8 = 0, c16 = 0;
	CU_ASSERT_FATAL(sscanf(r8, "\nvecadd,inorder,%*[^,],%*[^,],%llu", &c8) == 1);
	CU_ASSERT_FATAL(sscanf(r16, "\nvecadd,inorder,%*[^,],%*[^,],%llu", &c16) == 1);
	CU_ASSERT(c16 < c8);
}

void suite_area(void)
{
	TU_SUITE("area", {"more_entries_never_cost_less", more_entries_never_cost_less},
		 {"wider_entries_and_more_ports_never_cost_less", wider_entries_and_more_ports_never_cost_less},
		 {"rollups_equal_sums_of_parts", rollups_equal_sums_of_parts},
		 {"fpga_rules_reproduce_yosys_figures", fpga_rules_reproduce_yosys_figures},
		 {"paper_entry_widths", paper_entry_widths}, {"node_scaling_of_area", node_scaling_of_area},
		 {"overhead_and_adp_do_not_depend_on_the_node", overhead_and_adp_do_not_depend_on_the_node},
		 {"area_and_energy_agree_on_what_a_scheme_has", area_and_energy_agree_on_what_a_scheme_has},
		 {"validation_compares_the_papers_own_cells", validation_compares_the_papers_own_cells},
		 {"area_command_csv_and_explain", area_command_csv_and_explain},
		 {"validation_page_is_current", validation_page_is_current},
		 {"run_table_shows_fpga_area_in_percent", run_table_shows_fpga_area_in_percent},
		 {"vortex_threads_and_registers_follow_warps_x_threads", vortex_threads_and_registers_follow_warps_x_threads});
}
