/* tests/test_calib.c -- synthesis-report parsers on the real fixtures (totals
 * equal the reports' own totals), 'calibrate --show', calibration specs end to
 * end, and bad input (exit 3 with file:line and what was expected). */
#include "calib.h"
#include "tech.h"
#include "testutil.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RPT(f) tu_path("tests/data/reports/" f)

static double get(const struct iw_report *r, const char *inst, const char *q)
{
	double v = NAN;
	struct iw_err e = {0};
	if (iw_report_get(r, inst, q, &v, NULL, &e) != 0)
		fprintf(stderr, "\n%s\n", e.msg);
	return v;
}

/* Sum of one quantity over every instance (for "the table adds up" checks). */
static double sum_all(const struct iw_report *r, const char *q)
{
	double s = 0;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->rows[i].quantity, q) == 0)
			s += r->rows[i].value;
	return s;
}

static int load(struct iw_report *r, const char *path)
{
	struct iw_err e = {0};
	int rc = iw_report_load(r, path, NULL, &e);
	if (rc)
		fprintf(stderr, "\n%s\n", e.msg);
	return rc;
}

static void vivado_flat_2019(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("vivado2019.1.1_util_flat_rosebud_final_with_pcie.rpt")), 0);
	CU_ASSERT_STRING_EQUAL(r.format, "vivado-util");
	CU_ASSERT_STRING_EQUAL(r.top, "fpga");
	CU_ASSERT_EQUAL(get(&r, NULL, "CLB LUTs"), 83081);
	CU_ASSERT_EQUAL(get(&r, NULL, "LUT"), 83081);
	CU_ASSERT_EQUAL(get(&r, NULL, "LUT as Logic"), 70607);
	CU_ASSERT_EQUAL(get(&r, NULL, "FF"), 99827);
	CU_ASSERT_EQUAL(get(&r, NULL, "LUTRAM"), 11180);
	CU_ASSERT_EQUAL(get(&r, NULL, "BRAM"), 428);
	CU_ASSERT_EQUAL(get(&r, NULL, "CARRY8"), 869);
	/* The parts add up to the whole, as the report says. */
	CU_ASSERT_EQUAL(get(&r, NULL, "LUT as Logic") + get(&r, NULL, "LUT as Memory"), get(&r, NULL, "CLB LUTs"));
	/* Primitives table. */
	CU_ASSERT_EQUAL(get(&r, NULL, "FDRE"), 96124);
	iw_report_free(&r);
}

static void vivado_flat_2024_prohibited_column(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("vivado2024.1_util_flat_rfsoc_design_1_wrapper.rpt")), 0);
	CU_ASSERT_STRING_EQUAL(r.top, "design_1_wrapper");
	CU_ASSERT_EQUAL(get(&r, NULL, "CLB LUTs"), 29992);
	CU_ASSERT_EQUAL(get(&r, NULL, "LUT as Shift Register"), 20647);
	CU_ASSERT_EQUAL(get(&r, NULL, "FF"), 25689);
	CU_ASSERT_EQUAL(get(&r, NULL, "LUT as Logic") + get(&r, NULL, "LUT as Memory"), 29992);
	/* A primitive named as a site-type row is kept under its section. */
	CU_ASSERT_EQUAL(get(&r, NULL, "CARRY8"), 91);
	CU_ASSERT_EQUAL(get(&r, NULL, "Primitives/CARRY8"), 91);
	CU_ASSERT_EQUAL(get(&r, NULL, "Primitives/PS8"), 1);
	CU_ASSERT_EQUAL(get(&r, NULL, "Primitives/BUFG_PS"), 1);
	CU_ASSERT_EQUAL(get(&r, NULL, "BUFG_GT_SYNC"), 1); /* no clash: as named */
	iw_report_free(&r);
}

static void vivado_hierarchical_2018(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt")), 0);
	CU_ASSERT_STRING_EQUAL(r.top, "fpga");
	CU_ASSERT_EQUAL(get(&r, "fpga", "Total LUTs"), 31757);
	CU_ASSERT_EQUAL(get(&r, NULL, "LUT"), 31757);
	CU_ASSERT_EQUAL(get(&r, "core_inst/sys/controller", "Total LUTs"), 207);
	CU_ASSERT_EQUAL(get(&r, "fpga/core_inst/sys/controller/(controller)", "Logic LUTs"), 55);
	CU_ASSERT_EQUAL(get(&r, "core_inst/sys/eth_dma_0/eth_mac_10g_inst/axis_xgmii_rx_inst/eth_crc_64", "Total LUTs"),
			165);
	/* A parent's total is its own logic plus its children's (controller). */
	double kids = get(&r, "core_inst/sys/controller/(controller)", "Total LUTs") +
		      get(&r, "core_inst/sys/controller/len_fifo_0", "Total LUTs") +
		      get(&r, "core_inst/sys/controller/len_fifo_1", "Total LUTs") +
		      get(&r, "core_inst/sys/controller/rx_desc_fifo", "Total LUTs") +
		      get(&r, "core_inst/sys/controller/trigger_fifo", "Total LUTs");
	CU_ASSERT_EQUAL(kids, 207);
	CU_ASSERT_PTR_NULL(iw_report_instance(&r, "core_inst/nope"));
	iw_report_free(&r);
}

static void vivado_power_2024(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("vivado2024.1_power_rfsoc_design_1_wrapper.rpt")), 0);
	CU_ASSERT_STRING_EQUAL(r.format, "vivado-power");
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "Total On-Chip Power"), 5.613, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.total"), 5.613, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.dynamic"), 4.322, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.static"), 1.290, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "PS8"), 2.382, 1e-12);
	/* "<0.001" is read as half the bound. */
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "CARRY8"), 0.0005, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "design_1_i/zynq_ultra_ps_e_0", "power.dynamic"), 2.384, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "design_1_i/ps8_0_axi_periph/xbar", "power.dynamic"), 0.004, 1e-12);
	iw_report_free(&r);
}

static void dc_area_hier(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("dc_S-2021.06-SP4_area_hier_cva6_cv32a65x.rpt")), 0);
	CU_ASSERT_STRING_EQUAL(r.format, "dc-area");
	CU_ASSERT_STRING_EQUAL(r.top, "cva6");
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "Total cell area"), 199819.829791, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "area"), 199819.829791, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "csr_regfile_i", "area"), 8660.12, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "csr_regfile_i", "Noncombinational"), 3855.88, 1e-9);
	/* Every row read: the local columns sum to the table's Total line. */
	CU_ASSERT_DOUBLE_EQUAL(sum_all(&r, "Combinational"), 94183.5999, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(sum_all(&r, "Noncombinational"), 48549.7602, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(sum_all(&r, "Blackboxes"), 57086.4697, 0.01);
	/* A long name that pushes the columns out of line is still read. */
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "issue_stage_i/i_scoreboard/clk_gate_mem_q_reg_7__sbe__result_", "area"), 5.04,
			       1e-9);
	iw_report_free(&r);
}

static void dc_power_units(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("dc_S-2021.06-SP4_power_cva6_cv32a65x.rpt")), 0);
	CU_ASSERT_STRING_EQUAL(r.format, "dc-power");
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.total"), 1.2149e-3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.internal"), 1.0923e-3, 1e-12);
	/* Leakage is in pW: 1.3087e+07 pW = 13.087 uW. */
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.leakage"), 1.3087e-5, 1e-14);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.memory.leakage"), 7.7069e-6, 1e-14);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.register.total"), 0.5373e-3, 1e-12);
	const char *groups[] = {"io_pad", "memory", "black_box", "clock_network", "register", "sequential", "combinational"};
	double s = 0;
	for (size_t i = 0; i < IW_ARRAY_LEN(groups); i++) {
		char q[64];
		snprintf(q, sizeof q, "power.%s.total", groups[i]);
		s += get(&r, NULL, q);
	}
	CU_ASSERT_DOUBLE_EQUAL(s, 1.2149e-3, 1e-7);
	iw_report_free(&r);
}

static void yosys_stat_liberty(void)
{
	static const struct {
		const char *file, *top;
		double area, cells;
	} t[] = {{"yosys_stat_liberty_array_mult_8.txt", "array_8", 357.504, 320},
		 {"yosys_stat_liberty_array_mult_16.txt", "array_16", 1650.53, 1467},
		 {"yosys_stat_liberty_array_mult_32.txt", "array_32", 5135.928, 4555}};
	for (size_t i = 0; i < IW_ARRAY_LEN(t); i++) {
		struct iw_report r;
		char rel[256];
		snprintf(rel, sizeof rel, "tests/data/reports/%s", t[i].file);
		CU_ASSERT_EQUAL_FATAL(load(&r, tu_path(rel)), 0);
		CU_ASSERT_STRING_EQUAL(r.format, "yosys-stat");
		CU_ASSERT_STRING_EQUAL(r.top, t[i].top);
		CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "area"), t[i].area, 1e-9);
		CU_ASSERT_EQUAL(get(&r, NULL, "cells"), t[i].cells);
		/* Per-cell counts of the whole design add up to its cell count. */
		double s = 0;
		for (size_t k = 0; k < r.n; k++)
			if (strcmp(r.rows[k].instance, t[i].top) == 0 && strcmp(r.rows[k].unit, "cells") == 0 &&
			    strcmp(r.rows[k].quantity, "cells") != 0)
				s += r.rows[k].value;
		CU_ASSERT_EQUAL(s, t[i].cells);
		/* A submodule keeps its own (local) figures. */
		CU_ASSERT_DOUBLE_EQUAL(get(&r, "FullBitAdder", "area"), 5.586, 1e-9);
		iw_report_free(&r);
	}
}

/* A sub-module's figures are the whole instance (own cells + its children's),
 * as the same module's totals where it is the top; Yosys prints only its own
 * cells' area under "Chip area for module". */
static void yosys_submodule_is_hierarchical(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("yosys_stat_liberty_array_mult_32.txt")), 0);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "array_16", "area"), 1650.53, 1e-9); /* was 220.514 */
	CU_ASSERT_EQUAL(get(&r, "array_16", "cells"), 1467);
	CU_ASSERT_EQUAL(get(&r, "array_16", "XNOR2_X1"), 435);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "array_8", "area"), 357.504, 1e-9);
	iw_report_free(&r);
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("yosys_stat_liberty_array_mult_16.txt")), 0);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "array_8", "area"), 357.504, 1e-9); /* was 8.512 */
	CU_ASSERT_EQUAL(get(&r, "array_8", "cells"), 320);
	iw_report_free(&r);
	/* A leaf cell the liberty lacks: no figure rather than a partial one. */
	const char *txt = "\n9. Printing statistics.\n\n=== m ===\n\n"
			  "   Number of cells:                  3\n"
			  "     AND2_X1                         2\n"
			  "     SRAM64                          1\n\n"
			  "   Area for cell type \\SRAM64 is unknown!\n\n"
			  "   Chip area for module '\\m': 2.128000\n";
	struct iw_err e = {0};
	double v;
	CU_ASSERT_EQUAL_FATAL(iw_report_parse(&r, "m.stat", txt, strlen(txt), NULL, &e), 0);
	CU_ASSERT_NOT_EQUAL(iw_report_get(&r, "m", "area", &v, NULL, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "m.stat:10: expected the whole 'area' of instance 'm'"));
	CU_ASSERT_EQUAL(get(&r, "m", "cells"), 3);
	iw_report_free(&r);
}

static void yosys_stat_xilinx_resources(void)
{
	const char *txt = "\n3. Printing statistics.\n\n=== t ===\n\n"
			  "   Number of wires:                 18\n"
			  "   Number of cells:                 24\n"
			  "     CARRY4                          2\n"
			  "     FDRE                            8\n"
			  "     LUT2                            8\n"
			  "     LUT6                            3\n"
			  "     RAM32M16                        2\n"
			  "     RAMB18E2                        1\n";
	struct iw_report r;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_report_parse(&r, "t.stat", txt, strlen(txt), NULL, &e), 0);
	CU_ASSERT_EQUAL(get(&r, "t", "LUT"), 8 + 3 + 16);
	CU_ASSERT_EQUAL(get(&r, "t", "LUTRAM"), 16);
	CU_ASSERT_EQUAL(get(&r, "t", "FF"), 8);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "t", "BRAM"), 0.5, 1e-12);
	CU_ASSERT_STRING_EQUAL(r.top, "t");
	iw_report_free(&r);
}

/* Yosys 0.4x and later: count-first columns (OpenROAD's synth_stat layout). */
static void yosys_stat_count_first(void)
{
	const char *txt = "16. Printing statistics.\n\n=== gcd ===\n\n"
			  "        +----------------------------Count including submodules.\n"
			  "        |        +-------------------Area including submodules.\n"
			  "        |        |        +----------Local count, excluding submodules.\n"
			  "        |        |        |        +-Local area, excluding submodules.\n"
			  "        |        |        |        |\n"
			  "      546        -      546        - wires\n"
			  "        8        -        8        - ports\n"
			  "        -        -        -        - memories\n"
			  "      521  663.138      500  640.000 cells\n"
			  "        4    4.256        4    4.256   AND2_X1\n"
			  "       35  159.257       35  159.257   DFF_X1\n\n"
			  "   Chip area for top module '\\gcd': 663.138000\n";
	struct iw_report r;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_report_parse(&r, "synth_stat.txt", txt, strlen(txt), NULL, &e), 0);
	CU_ASSERT_STRING_EQUAL(r.format, "yosys-stat");
	CU_ASSERT_EQUAL(get(&r, "gcd", "cells"), 521); /* including submodules */
	CU_ASSERT_EQUAL(get(&r, "gcd", "wires"), 546);
	CU_ASSERT_EQUAL(get(&r, "gcd", "DFF_X1"), 35);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, "gcd", "area"), 663.138, 1e-9);
	iw_report_free(&r);
}

static void opensta_power(void)
{
	struct iw_report r;
	CU_ASSERT_EQUAL_FATAL(load(&r, RPT("opensta_power_array_mult_8.txt")), 0);
	CU_ASSERT_STRING_EQUAL(r.format, "opensta-power");
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.total"), 4.64e-4, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.leakage"), 7.99e-6, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(get(&r, NULL, "power.combinational.switching"), 3.82e-4, 1e-15);
	double s = 0;
	const char *g[] = {"sequential", "combinational", "clock", "macro", "pad"};
	for (size_t i = 0; i < 5; i++) {
		char q[64];
		snprintf(q, sizeof q, "power.%s.total", g[i]);
		s += get(&r, NULL, q);
	}
	CU_ASSERT_DOUBLE_EQUAL(s, 4.64e-4, 1e-15);
	iw_report_free(&r);
}

/* ---- command line -------------------------------------------------------- */

static char out[1 << 16], err[8192];

static const char *write_tmp(const char *name, const char *text)
{
	static char path[8][600];
	static int k;
	k = (k + 1) % 8;
	snprintf(path[k], sizeof path[k], "%s/%s", tu_tmpdir(), name);
	FILE *f = fopen(path[k], "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path[k];
}

static void show_prints_parsed_values(void)
{
	CU_ASSERT_EQUAL(tu_run("calibrate --show tests/data/reports/vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt "
			       "--instance core_inst/sys/controller --format csv",
			       out, sizeof out, err, sizeof err),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "instance,quantity,value,unit,line\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "fpga/core_inst/sys/controller,Total LUTs,207,"));
	CU_ASSERT_PTR_NULL(strstr(out, "len_fifo_0")); /* only the instance asked for */
	CU_ASSERT_EQUAL(tu_run("calibrate --show tests/data/reports/dc_S-2021.06-SP4_power_cva6_cv32a65x.rpt", out,
			       sizeof out, err, sizeof err),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "format dc-power"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "power.total"));
}

/* A report cut short (a copy interrupted, a disk full) is refused, not read
 * as a smaller design: each real report, cut at 90% of its lines, fails with
 * exit 3's code and says where and why; whole, it parses. */
static void truncated_report_exit_3(void)
{
	static const char *const files[] = {
		"dc_S-2021.06-SP4_area_hier_cva6_cv32a65x.rpt",	   "dc_S-2021.06-SP4_power_cva6_cv32a65x.rpt",
		"opensta_power_array_mult_8.txt",		   "vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt",
		"vivado2019.1.1_util_flat_rosebud_final_with_pcie.rpt", "vivado2024.1_power_rfsoc_design_1_wrapper.rpt",
		"vivado2024.1_util_flat_rfsoc_design_1_wrapper.rpt", "yosys_stat_liberty_array_mult_32.txt"};
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char rel[256], *text;
		size_t len, lines = 0;
		struct iw_err e = {0};
		snprintf(rel, sizeof rel, "tests/data/reports/%s", files[f]);
		CU_ASSERT_EQUAL_FATAL(iw_read_file(tu_path(rel), &text, &len, &e), 0);
		struct iw_report r;
		CU_ASSERT_EQUAL(iw_report_parse(&r, files[f], text, len, NULL, &e), 0);
		iw_report_free(&r);
		for (size_t i = 0; i < len; i++)
			lines += text[i] == '\n';
		/* the first 90% of the lines (for the Yosys report, 97%: its last module's cell list) */
		size_t keep = lines * (strstr(files[f], "yosys") ? 97 : 90) / 100, cut = 0;
		for (size_t n = 0; cut < len && n < keep; cut++)
			n += text[cut] == '\n';
		e.msg[0] = 0;
		int rc = iw_report_parse(&r, files[f], text, cut, NULL, &e);
		CU_ASSERT_EQUAL(rc, -IW_EINPUT);
		if (rc == 0)
			iw_report_free(&r);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "truncated"));
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, files[f]));
		iw_free(text);
	}
}

static void unknown_format_exit_3(void)
{
	const char *p = write_tmp("notes.txt", "just some notes\nnothing a tool wrote\n");
	char args[800];
	snprintf(args, sizeof args, "calibrate --show '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "notes.txt:1: unknown report format"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected"));
}

static void missing_used_column_exit_3(void)
{
	const char *p = write_tmp("util.rpt", "| Command      : report_utilization -file x.rpt\n"
					      "| Design       : top\n\n1. CLB Logic\n------------\n\n"
					      "+-----------+-------+-----------+\n"
					      "| Site Type | Fixed | Available |\n"
					      "+-----------+-------+-----------+\n"
					      "| CLB LUTs  |     0 |    203128 |\n"
					      "+-----------+-------+-----------+\n");
	char args[800];
	snprintf(args, sizeof args, "calibrate --show '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "util.rpt:8: expected a 'Used' column"));
}

static void empty_table_exit_3(void)
{
	const char *p = write_tmp("hier.rpt", "| Command      : report_utilization -hierarchical -file x.rpt\n"
					      "| Design       : top\n\n1. Utilization by Hierarchy\n\n"
					      "+----------+--------+------------+\n"
					      "| Instance | Module | Total LUTs |\n"
					      "+----------+--------+------------+\n"
					      "+----------+--------+------------+\n");
	char args[800];
	snprintf(args, sizeof args, "calibrate --show '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "hier.rpt:7: expected rows"));
	/* DC power report without its unit lines. */
	p = write_tmp("dcp.rpt", "Report : power\nDesign : x\n\n Power Group  x\n");
	snprintf(args, sizeof args, "calibrate --show '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Leakage Power Units"));
}

/* A cell of a Vivado hierarchy table that is not a count is refused where it
 * is (it was skipped: the instance then lacked 'Total LUTs' and 'LUT'); the
 * '-' and empty cells Vivado prints stay accepted. */
static void vivado_bad_cell_exit_3(void)
{
	char *text = NULL, args[800];
	size_t len;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_read_file(RPT("vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt"), &text, &len, &e), 0);
	char *c = strstr(text, "|        207 |"); /* controller, line 28 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	memcpy(c, "|        2x7 |", 14);
	snprintf(args, sizeof args, "calibrate --show '%s'", write_tmp("vh.rpt", text));
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "vh.rpt:28: expected a number in column 'Total LUTs', found '2x7'"));
	memcpy(c, "|          - |", 14);
	snprintf(args, sizeof args, "calibrate --show '%s' --instance core_inst/sys/controller", write_tmp("vh.rpt", text));
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Logic LUTs"));
	iw_free(text);
	/* the primitives table of a flat report too (it skipped the row) */
	CU_ASSERT_EQUAL_FATAL(iw_read_file(RPT("vivado2024.1_util_flat_rfsoc_design_1_wrapper.rpt"), &text, &len, &e), 0);
	c = strstr(text, "| FDRE         | 24873 |"); /* line 221 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	memcpy(c, "| FDRE         | 24x73 |", 24);
	snprintf(args, sizeof args, "calibrate --show '%s'", write_tmp("vf.rpt", text));
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "vf.rpt:221: expected a number in column 'Used', found '24x73'"));
	iw_free(text);
}

static void missing_instance_exit_3(void)
{
	CU_ASSERT_EQUAL(tu_run("calibrate --show tests/data/reports/yosys_stat_liberty_array_mult_8.txt --instance nope",
			       out, sizeof out, err, sizeof err),
			3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected an instance 'nope'"));
}

/* A spec over the three Yosys multiplier reports: area ~ a*n^2 + b*n. */
static const char *mult_spec(const char *dir, const char *extra_point, const char *coefs)
{
	static char path[600];
	char text[4096];
	snprintf(text, sizeof text,
		 "<?xml version=\"1.0\"?>\n"
		 "<calibration tech=\"base.xml\" method=\"ols\">\n"
		 "  <fit structure=\"generic\" quantity=\"area\" unit=\"um2\">\n%s  </fit>\n"
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_8.txt\" structure=\"generic\">\n"
		 "    <param name=\"n\" value=\"8\"/><param name=\"n2\" value=\"64\"/><param name=\"n3\" value=\"512\"/></point>\n"
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_16.txt\" structure=\"generic\">\n"
		 "    <param name=\"n\" value=\"16\"/><param name=\"n2\" value=\"256\"/><param name=\"n3\" value=\"4096\"/></point>\n"
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_32.txt\" instance=\"array_32\" "
		 "structure=\"generic\">\n"
		 "    <param name=\"n\" value=\"32\"/><param name=\"n2\" value=\"1024\"/><param name=\"n3\" value=\"32768\"/></point>\n%s"
		 "</calibration>\n",
		 coefs, IW_SRCDIR, IW_SRCDIR, IW_SRCDIR, extra_point);
	snprintf(path, sizeof path, "%s/spec.xml", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	char base[600];
	snprintf(base, sizeof base, "%s/base.xml", dir);
	f = fopen(base, "w");
	if (f) {
		fputs("<?xml version=\"1.0\"?>\n<tech name=\"nangate45\" kind=\"asic\" node_nm=\"45\" vdd=\"1.0\">\n"
		      "  <coef name=\"area.mult.n2\" value=\"1\" unit=\"um2\" source=\"guess\"/>\n"
		      "  <coef name=\"area.cell.dff\" value=\"4.522\" unit=\"um2\" source=\"NanGate45 LEF\"/>\n</tech>\n",
		      f);
		fclose(f);
	}
	return path;
}

#define TWO_COEFS                                                                                                \
	"    <coef name=\"area.mult.n2\" feature=\"param:n2\"/>\n    <coef name=\"area.mult.n\" feature=\"param:n\"/>\n"

static void spec_fit_writes_calibrated_file(void)
{
	const char *d = tu_tmpdir();
	const char *spec = mult_spec(d, "", TWO_COEFS);
	char args[2048];
	snprintf(args, sizeof args, "calibrate '%s' -o '%s/cal.xml' --h5 '%s/fit.h5' --fit-report '%s/fit.txt'", spec, d,
		 d, d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	char path[700], *text = NULL;
	size_t len;
	struct iw_err e = {0};
	snprintf(path, sizeof path, "%s/cal.xml", d);
	CU_ASSERT_EQUAL_FATAL(iw_read_file(path, &text, &len, &e), 0);
	/* The fitted coefficient is marked, the untouched one is kept as it was. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "name=\"area.mult.n2\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "fitted=\"true\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "std_error=\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "points=\"3\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "sources=\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "yosys_stat_liberty_array_mult_32.txt"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<coef name=\"area.cell.dff\" value=\"4.522\" unit=\"um2\" source=\"NanGate45 LEF\"/>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "name=\"area.mult.n\"")); /* added: the file lacked it */
	iw_free(text);
	snprintf(path, sizeof path, "%s/fit.txt", d);
	CU_ASSERT_EQUAL_FATAL(iw_read_file(path, &text, &len, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "R^2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "leave-one-out"));
	iw_free(text);
	snprintf(args, sizeof args, "h5dump -d /fit00_generic_area/coef_value '%s/fit.h5' >/dev/null", d);
	CU_ASSERT_EQUAL(system(args) == 0 ? 0 : 1, 0);
}

/* Outputs and usage are checked before the fit, not after it is printed. */
static void outputs_checked_before_fitting(void)
{
	const char *d = tu_tmpdir();
	const char *spec = mult_spec(d, "", TWO_COEFS);
	char args[2048];
	static const char *const empty[][2] = {{"-o", "--output"}, {"--fit-report", "--fit-report"}, {"--h5", "--h5"}};
	for (size_t i = 0; i < 3; i++) {
		snprintf(args, sizeof args, "calibrate '%s' %s ''", spec, empty[i][0]);
		CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, empty[i][1]));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected a file name, found an empty path"));
		CU_ASSERT_PTR_NULL(strstr(out, "R^2"));
	}
	/* -o names a folder */
	snprintf(args, sizeof args, "calibrate '%s' -o '%s'", spec, d);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "it is a folder"));
	CU_ASSERT_PTR_NULL(strstr(out, "R^2"));
	/* -o with no technology file to mark (the example spec names none) */
	snprintf(args, sizeof args, "calibrate calib/examples/yosys-multiplier-area.xml -o '%s/x.xml'", d);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected a technology/device file to mark"));
	CU_ASSERT_PTR_NULL(strstr(out, "R^2"));
	/* --tech without -o */
	CU_ASSERT_EQUAL(tu_run("calibrate calib/examples/yosys-multiplier-area.xml --tech 12nm", out, sizeof out, err,
			       sizeof err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--tech needs -o FILE"));
	CU_ASSERT_PTR_NULL(strstr(out, "R^2"));
	/* a technology preset that does not exist */
	snprintf(args, sizeof args, "calibrate calib/examples/yosys-multiplier-area.xml --tech 5nm -o '%s/x.xml'", d);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'5nm': no such technology/device preset (see 'issuewatt list tech')"));
	CU_ASSERT_PTR_NULL(strstr(out, "R^2"));
}

static void duplicate_point_exit_3(void)
{
	const char *d = tu_tmpdir();
	char extra[1024];
	snprintf(extra, sizeof extra,
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_8.txt\" instance=\"array_8\" "
		 "structure=\"generic\">\n    <param name=\"n\" value=\"8\"/><param name=\"n2\" value=\"64\"/></point>\n",
		 IW_SRCDIR);
	const char *spec = mult_spec(d, extra, TWO_COEFS);
	char args[800];
	snprintf(args, sizeof args, "calibrate '%s'", spec);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "spec.xml:13: duplicate point"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "already at line 7"));
}

static void too_few_points_exit_3(void)
{
	const char *d = tu_tmpdir();
	const char *spec = mult_spec(d, "",
				     TWO_COEFS "    <coef name=\"area.mult.c\" feature=\"const\"/>\n"
					       "    <coef name=\"area.mult.n3\" feature=\"param:n2x\"/>\n");
	char args[800];
	snprintf(args, sizeof args, "calibrate '%s'", spec);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	/* The missing parameter is named first (it is read before fitting). */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "spec.xml:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "n2x"));
	spec = mult_spec(d, "",
			 TWO_COEFS "    <coef name=\"area.mult.c\" feature=\"const\"/>\n"
				   "    <coef name=\"area.mult.n3\" feature=\"param:n3\"/>\n");
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected at least 5 points for 4 coefficients, found 3"));
	spec = mult_spec(d, "", TWO_COEFS "    <coef name=\"area.mult.c\" feature=\"const\"/>\n");
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "spec.xml:3: fit of generic 'area' over 3 points"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "more points than the 3 coefficients"));
}

/* The weight column and point_weight are the weights the fit used (the
 * spec's), not the robust bisquare weights (1 outside a robust fit). */
static void fit_report_shows_spec_weights(void)
{
	const char *d = tu_tmpdir();
	static const char *inst[] = {"controller", "controller/len_fifo_0", "controller/len_fifo_1",
				     "controller/rx_desc_fifo"};
	static const char *wt[] = {"1", "2", "0.5", "3"};
	char text[4096], spec[700], args[2048];
	int k = snprintf(text, sizeof text,
			 "<calibration method=\"wls\">\n  <fit structure=\"generic\" quantity=\"LUT\" unit=\"LUT\">\n"
			 "    <coef name=\"c.x\" feature=\"param:x\"/><coef name=\"c.one\" feature=\"param:one\"/>\n"
			 "  </fit>\n");
	for (int i = 0; i < 4; i++)
		k += snprintf(text + k, sizeof text - (size_t)k,
			      "  <point report=\"%s/tests/data/reports/vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt\" "
			      "instance=\"core_inst/sys/%s\" structure=\"generic\" weight=\"%s\">\n"
			      "    <param name=\"x\" value=\"%d\"/><param name=\"one\" value=\"1\"/></point>\n",
			      IW_SRCDIR, inst[i], wt[i], 10 + i * i);
	snprintf(text + k, sizeof text - (size_t)k, "</calibration>\n");
	snprintf(spec, sizeof spec, "%s/w.xml", d);
	FILE *f = fopen(spec, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	snprintf(args, sizeof args, "calibrate '%s' --h5 '%s/w.h5'", spec, d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	/* The text's last column, point by point ("N  report ... weight"). */
	double got[4] = {0};
	int n = 0;
	for (const char *l = out; l && *l && n < 4; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
		if (atoi(line) == n + 1 && strstr(line, "%"))
			got[n++] = atof(strrchr(line, ' ') + 1);
	}
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_DOUBLE_EQUAL(got[0], 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(got[1], 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(got[2], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(got[3], 3, 1e-12);
	char h5[700];
	snprintf(h5, sizeof h5, "%s/w.h5", d);
	hid_t h = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
	CU_ASSERT_FATAL(h >= 0);
	double pw[4] = {0}, rw[4] = {0};
	CU_ASSERT(H5LTread_dataset_double(h, "fit00_generic_LUT/point_weight", pw) >= 0);
	CU_ASSERT(H5LTread_dataset_double(h, "fit00_generic_LUT/point_robust_weight", rw) >= 0);
	H5Fclose(h);
	CU_ASSERT_DOUBLE_EQUAL(pw[0], 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pw[1], 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pw[2], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(pw[3], 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rw[3], 1, 1e-12); /* not a robust fit */
	/* the same weights under ordinary least squares: ignored, and said so */
	char *m = strstr(text, "method=\"wls\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	memcpy(m, "method=\"ols\"", 12);
	f = fopen(spec, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	snprintf(args, sizeof args, "calibrate '%s'", spec);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "warning: method 'ols' ignores the points' weights (point 2: 2); method 'wls' uses them"));
}

/* The calibrated file holds the fit's values exactly: read back, every
 * coefficient, error and correlation is the fit's, bit for bit (6 digits
 * moved an ill-conditioned fit's prediction by 40%). */
static void calibrated_values_round_trip_exactly(void)
{
	const char *d = tu_tmpdir();
	const char *spec = mult_spec(d, "", TWO_COEFS);
	struct iw_calib c;
	struct iw_err e = {0};
	char path[700];
	snprintf(path, sizeof path, "%s/exact.xml", d);
	CU_ASSERT_EQUAL_FATAL(iw_calib_load(&c, spec, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_calib_run(&c, -1, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_calib_write_tech(&c, NULL, path, &e), 0);
	struct iw_tech t;
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, path, &e), 0);
	const struct iw_calib_fit *f = &c.fits[0];
	size_t p = f->ncoef, ncorr = 0;
	for (size_t k = 0; k < p; k++) {
		const struct iw_coef *q = iw_tech_coef(&t, f->coef_name[k]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(q);
		CU_ASSERT(q->value == f->res.coef[k]);
		CU_ASSERT(q->std_error == f->res.se[k]);
	}
	for (size_t k = 0; k < t.ncorr; k++) {
		size_t i = p, j = p;
		for (size_t m = 0; m < p; m++) {
			i = strcmp(t.coef[t.corr[k].a].name, f->coef_name[m]) == 0 ? m : i;
			j = strcmp(t.coef[t.corr[k].b].name, f->coef_name[m]) == 0 ? m : j;
		}
		CU_ASSERT_FATAL(i < p && j < p);
		const double *cv = f->res.cov;
		double r = cv[i * p + j] / sqrt(cv[i * p + i] * cv[j * p + j]);
		CU_ASSERT(t.corr[k].r == (r > 1 ? 1 : r < -1 ? -1 : r));
		ncorr++;
	}
	CU_ASSERT_EQUAL(ncorr, 1);
	iw_tech_free(&t);
	iw_calib_free(&c);
}

static void spec_instance_missing_exit_3(void)
{
	const char *d = tu_tmpdir();
	char extra[1024];
	snprintf(extra, sizeof extra,
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_16.txt\" instance=\"array_99\" "
		 "structure=\"generic\">\n    <param name=\"n\" value=\"8\"/></point>\n",
		 IW_SRCDIR);
	const char *spec = mult_spec(d, extra, TWO_COEFS);
	char args[800];
	snprintf(args, sizeof args, "calibrate '%s'", spec);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "spec.xml:13: expected instance 'array_99'"));
}

static void spec_schema_error_exit_3(void)
{
	const char *p = write_tmp("bad.xml", "<calibration><point report=\"x\"/></calibration>\n");
	char args[800];
	snprintf(args, sizeof args, "calibrate '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.xml:1:"));
}

/* The dependence-matrix LUT model fitted to real Yosys runs, its predictions
 * written over xcu50's fpga.dm.lut.N, and the result read back by 'area'. */
static void calibrated_device_file_round_trips(void)
{
	const char *d = tu_tmpdir();
	char spec[700], text[8192];
	snprintf(spec, sizeof spec, "%s/dm.xml", d);
	int k = snprintf(text, sizeof text,
			 "<calibration tech=\"%s/tech/xcu50.xml\">\n"
			 "  <fit structure=\"dep_matrix\" quantity=\"LUT\" unit=\"LUT\">\n"
			 "    <coef name=\"fpga.dep_matrix.lut.cell\" feature=\"cells\"/>\n"
			 "    <coef name=\"fpga.dep_matrix.lut.ready\" feature=\"ready\"/>\n"
			 "    <coef name=\"fpga.dep_matrix.lut.row\" feature=\"rows\"/>\n"
			 "    <predict name=\"fpga.dm.lut.16\"><param name=\"entries\" value=\"16\"/></predict>\n"
			 "    <predict name=\"fpga.dm.lut.32\"><param name=\"entries\" value=\"32\"/></predict>\n"
			 "  </fit>\n",
			 IW_SRCDIR);
	const int sizes[] = {4, 8, 12, 16, 24};
	for (int i = 0; i < 5; i++)
		k += snprintf(text + k, sizeof text - (size_t)k,
			      "  <point report=\"%s/tests/data/calib/yosys0.23_xcup_dep_matrix_N-%d.stat\" instance=\"dep_matrix\" "
			      "structure=\"dep_matrix\"><param name=\"entries\" value=\"%d\"/></point>\n",
			      IW_SRCDIR, sizes[i], sizes[i]);
	snprintf(text + k, sizeof text - (size_t)k, "</calibration>\n");
	FILE *f = fopen(spec, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	char args[2048];
	snprintf(args, sizeof args, "calibrate '%s' -o '%s/cal.xml'", spec, d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "predicted fpga.dm.lut.16"));
	/* The measured N=16 point (354 LUTs) lies within the fit's reach. */
	char path[700];
	snprintf(path, sizeof path, "%s/cal.xml", d);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, path, &e), 0);
	const struct iw_coef *c = iw_tech_coef(&t, "fpga.dm.lut.16");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(c->fitted);
	CU_ASSERT_EQUAL(c->points, 5);
	CU_ASSERT(c->std_error > 0);
	CU_ASSERT(fabs(c->value - 354) < 3 * c->std_error);
	CU_ASSERT_PTR_NOT_NULL(iw_tech_coef(&t, "device.lut")); /* the rest is kept */
	iw_tech_free(&t);
	/* 'area' accepts the calibrated file and its dependence matrix changes. */
	char a1[4096], a2[4096];
	snprintf(args, sizeof args, "area -t '%s/cal.xml' -s socgpu -f csv", d);
	CU_ASSERT_EQUAL(tu_run(args, a1, sizeof a1, err, sizeof err), 0);
	CU_ASSERT_EQUAL(tu_run("area -t xcu50 -s socgpu -f csv", a2, sizeof a2, err, sizeof err), 0);
	CU_ASSERT_STRING_NOT_EQUAL(a1, a2);
}

/* Every allocation failure is reported as a run failure and leaks nothing
 * (the sanitizer build checks the leaks). */
static void allocation_failures_are_reported(void)
{
	const char *files[] = {RPT("vivado2018.3_util_hier_rosebud_16cores_200mhz.rpt"),
			       RPT("dc_S-2021.06-SP4_power_cva6_cv32a65x.rpt"), RPT("yosys_stat_liberty_array_mult_32.txt")};
	for (size_t f = 0; f < IW_ARRAY_LEN(files); f++) {
		int ok = 0;
		for (long k = 0; k < 1000000 && !ok; k += 1 + k / 8) {
			struct iw_report r;
			struct iw_err e = {0};
			iw_alloc_fail_after(k);
			int rc = iw_report_load(&r, files[f], NULL, &e);
			iw_alloc_fail_after(-1);
			if (rc == 0) {
				ok = 1;
				iw_report_free(&r);
			} else {
				CU_ASSERT_EQUAL(rc, -IW_ERUN);
				CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "out of memory"));
			}
		}
		CU_ASSERT(ok);
	}
	const char *d = tu_tmpdir();
	const char *spec = mult_spec(d, "", TWO_COEFS);
	int ok = 0;
	for (long k = 0; k < 1000000 && !ok; k += 1 + k / 16) {
		struct iw_calib c;
		struct iw_err e = {0};
		iw_alloc_fail_after(k);
		int rc = iw_calib_load(&c, spec, &e);
		if (rc == 0) {
			rc = iw_calib_run(&c, -1, &e);
			iw_calib_free(&c);
		}
		iw_alloc_fail_after(-1);
		if (rc == 0)
			ok = 1;
		else if (rc != -IW_ERUN) {
			fprintf(stderr, "\nk=%ld rc=%d %s\n", k, rc, e.msg);
			CU_FAIL("an allocation failure reported as something else");
		}
	}
	CU_ASSERT(ok);
}

static void coefficient_fitted_twice_exit_3(void)
{
	char text[2048];
	snprintf(text, sizeof text,
		 "<calibration>\n"
		 "  <fit structure=\"generic\" quantity=\"area\"><coef name=\"area.x.a\" feature=\"param:n\"/></fit>\n"
		 "  <fit structure=\"generic\" quantity=\"cells\"><coef name=\"area.x.a\" feature=\"param:n\"/></fit>\n"
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_8.txt\" structure=\"generic\">"
		 "<param name=\"n\" value=\"8\"/></point>\n</calibration>\n",
		 IW_SRCDIR);
	const char *p = write_tmp("twice.xml", text);
	char args[800];
	snprintf(args, sizeof args, "calibrate '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "twice.xml:3: expected each technology coefficient to be written by one fit"));
}

/* A fit that says its quantity is in other units than the reports give is
 * refused: the coefficients would be written with the wrong unit. */
static void fit_unit_mismatch_exit_3(void)
{
	char text[2048];
	snprintf(text, sizeof text,
		 "<calibration>\n"
		 "  <fit structure=\"generic\" quantity=\"area\" unit=\"pJ\"><coef name=\"area.x.a\" feature=\"param:n\"/></fit>\n"
		 "  <point report=\"%s/tests/data/reports/yosys_stat_liberty_array_mult_8.txt\" structure=\"generic\">"
		 "<param name=\"n\" value=\"8\"/></point>\n</calibration>\n",
		 IW_SRCDIR);
	const char *p = write_tmp("unit.xml", text);
	char args[800];
	snprintf(args, sizeof args, "calibrate '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unit.xml:3: expected the area in pJ, as the fit's unit attribute says, found um2"));
}

static void example_specs(void)
{
	CU_ASSERT_EQUAL(tu_run("calibrate calib/examples/yosys-multiplier-area.xml", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "area.array_mult.per_n2"));
	/* The Vivado template is a valid spec: it fails only on its placeholder reports. */
	CU_ASSERT_EQUAL(tu_run("calibrate calib/examples/vivado-dep-matrix.xml", out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "vivado-dep-matrix.xml:21: report of this point"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "runs/dm_16_4.rpt: cannot open"));
}

void suite_calib(void)
{
	TU_SUITE("calib", {"vivado_flat_2019", vivado_flat_2019},
		 {"vivado_flat_2024_prohibited_column", vivado_flat_2024_prohibited_column},
		 {"vivado_hierarchical_2018", vivado_hierarchical_2018}, {"vivado_power_2024", vivado_power_2024},
		 {"dc_area_hier", dc_area_hier}, {"dc_power_units", dc_power_units},
		 {"yosys_stat_liberty", yosys_stat_liberty}, {"yosys_stat_xilinx_resources", yosys_stat_xilinx_resources},
		 {"yosys_submodule_is_hierarchical", yosys_submodule_is_hierarchical},
		 {"opensta_power", opensta_power}, {"yosys_stat_count_first", yosys_stat_count_first}, {"show_prints_parsed_values", show_prints_parsed_values},
		 {"unknown_format_exit_3", unknown_format_exit_3}, {"truncated_report_exit_3", truncated_report_exit_3}, {"missing_used_column_exit_3", missing_used_column_exit_3},
		 {"empty_table_exit_3", empty_table_exit_3}, {"missing_instance_exit_3", missing_instance_exit_3},
		 {"spec_fit_writes_calibrated_file", spec_fit_writes_calibrated_file},
		 {"outputs_checked_before_fitting", outputs_checked_before_fitting},
		 {"duplicate_point_exit_3", duplicate_point_exit_3}, {"too_few_points_exit_3", too_few_points_exit_3},
		 {"fit_report_shows_spec_weights", fit_report_shows_spec_weights},
		 {"vivado_bad_cell_exit_3", vivado_bad_cell_exit_3},
		 {"calibrated_values_round_trip_exactly", calibrated_values_round_trip_exactly}, {"spec_instance_missing_exit_3", spec_instance_missing_exit_3},
		 {"spec_schema_error_exit_3", spec_schema_error_exit_3},
		 {"calibrated_device_file_round_trips", calibrated_device_file_round_trips},
		 {"allocation_failures_are_reported", allocation_failures_are_reported},
		 {"example_specs", example_specs},
		 {"coefficient_fitted_twice_exit_3", coefficient_fitted_twice_exit_3},
		 {"fit_unit_mismatch_exit_3", fit_unit_mismatch_exit_3});
}
