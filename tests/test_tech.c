/* tests/test_tech.c -- technology and device files: presets, derivation
 * factors, overrides, saving, and the errors a user sees for bad files. */
#include "area.h"
#include "tech.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void every_preset_loads_with_units_and_sources(void)
{
	static const char *const names[] = {"45nm", "32nm", "22nm", "14nm", "12nm", "7nm", "xcu50"};
	for (size_t i = 0; i < IW_ARRAY_LEN(names); i++) {
		struct iw_tech t;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, names[i], &e), 0);
		CU_ASSERT(t.ncoef > 40);
		for (size_t k = 0; k < t.ncoef; k++) {
			CU_ASSERT(t.coef[k].unit[0] != 0);
			CU_ASSERT(strlen(t.coef[k].source) > 5);
			CU_ASSERT(isfinite(t.coef[k].value) && t.coef[k].value >= 0);
		}
		CU_ASSERT(t.vdd > 0);
		iw_tech_free(&t);
	}
	CU_ASSERT(iw_tech_preset_count() >= 7);
}

/* Node-to-node ratios equal the file's factors, coefficient by coefficient. */
static void node_ratios_equal_the_files_factors(void)
{
	static const char *const nodes[] = {"32nm", "22nm", "14nm", "12nm", "7nm"};
	struct iw_tech a;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&a, "45nm", &e), 0);
	for (size_t i = 0; i < IW_ARRAY_LEN(nodes); i++) {
		struct iw_tech b;
		CU_ASSERT_EQUAL_FATAL(iw_tech_load(&b, nodes[i], &e), 0);
		CU_ASSERT_STRING_EQUAL(b.derive_from, "45nm");
		CU_ASSERT(b.derive_area < 1 && b.derive_energy < 1 && b.derive_leakage > 1);
		size_t checked = 0;
		for (size_t k = 0; k < a.ncoef; k++) {
			const struct iw_coef *x = &a.coef[k], *y = iw_tech_coef(&b, x->name);
			CU_ASSERT_PTR_NOT_NULL_FATAL(y);
			if (x->value == 0)
				continue;
			double r = y->value / x->value, want = 1;
			if (strcmp(x->unit, "um2") == 0)
				want = b.derive_area;
			else if (x->unit[0] == 'p' && strncmp(x->name, "energy.dram.", 12) != 0)
				want = b.derive_energy;
			else if (strcmp(x->unit, "W/um2") == 0)
				want = b.derive_leakage;
			CU_ASSERT_DOUBLE_EQUAL(r, want, 1e-12 * want);
			checked++;
		}
		CU_ASSERT(checked > 50);
		iw_tech_free(&b);
	}
	iw_tech_free(&a);
}

static void vdd_override_rescales_energy_and_leakage(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "45nm", &e), 0);
	double e0 = iw_tech_coef(&t, "energy.rf.bank_read")->value, l0 = iw_tech_coef(&t, "leak.density")->value;
	double a0 = iw_tech_coef(&t, "area.cell.dff")->value, d0 = iw_tech_coef(&t, "energy.dram.access")->value;
	CU_ASSERT_EQUAL(iw_tech_set(&t, "tech.vdd=0.5", &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&t, "energy.rf.bank_read")->value, e0 * 0.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&t, "leak.density")->value, l0 * 0.5, 1e-20);
	CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&t, "area.cell.dff")->value, a0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&t, "energy.dram.access")->value, d0, 1e-12); /* off chip */
	CU_ASSERT_EQUAL(iw_tech_set(&t, "clock_mhz=1000", &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(t.clock_mhz, 1000, 1e-9);
	/* gpu.clock_mhz's range (a petahertz clock priced 50 MW before) */
	struct iw_err ec = {0};
	CU_ASSERT_EQUAL(iw_tech_set(&t, "clock_mhz=1e9", &ec), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(ec.msg, "1 to 10000 MHz"));
	CU_ASSERT_DOUBLE_EQUAL(t.clock_mhz, 1000, 1e-9);
	CU_ASSERT_EQUAL(iw_tech_set(&t, "clock_mhz=0", &e), 0); /* the configuration's clock again */
	CU_ASSERT_EQUAL(iw_tech_set(&t, "clock_mhz=1000", &e), 0);
	CU_ASSERT_EQUAL(iw_tech_set(&t, "energy.fu.sp_op=3", &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&t, "energy.fu.sp_op")->value, 3, 1e-12);
	e.code = 0;
	CU_ASSERT_EQUAL(iw_tech_set(&t, "nosuch=1", &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "nosuch"));
	e.code = 0;
	CU_ASSERT_EQUAL(iw_tech_set(&t, "vdd=-1", &e), -IW_EINPUT);
	iw_tech_free(&t);
	/* a tech key is named as typed, the way configuration keys are
	 * ("--set gpu.sms: ..."), not as 'vdd=0' */
	char err[2048];
	CU_ASSERT_EQUAL(tu_run("run -w vecadd --set tech.vdd=0", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--set tech.vdd: expected a value in (0, 5] V, found 0"));
	CU_ASSERT_EQUAL(tu_run("area --set tech.clock_mhz=1e9", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--set tech.clock_mhz: expected 0 (the configuration's clock) or 1 to 10000"));
	CU_ASSERT_EQUAL(tu_run("run -w vecadd --set tech.nosuch=1", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--set tech.nosuch: unknown technology key"));
	CU_ASSERT_EQUAL(tu_run("run -w vecadd --set tech.energy.fu.sp_op.std_error=x", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--set tech.energy.fu.sp_op.std_error: expected a standard error >= 0"));
	CU_ASSERT_PTR_NULL(strstr(err, "'energy.fu.sp_op.std_error=x'"));
}

static void save_and_reload_gives_the_same_coefficients(void)
{
	struct iw_tech a, b;
	struct iw_err e = {0};
	char path[600];
	snprintf(path, sizeof path, "%s/saved14.xml", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&a, "14nm", &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_tech_save(&a, path, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&b, path, &e), 0);
	CU_ASSERT_EQUAL(a.ncoef, b.ncoef);
	for (size_t k = 0; k < a.ncoef; k++) {
		const struct iw_coef *y = iw_tech_coef(&b, a.coef[k].name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(y);
		CU_ASSERT_DOUBLE_EQUAL(y->value, a.coef[k].value, 1e-9 * (1 + a.coef[k].value));
		CU_ASSERT_STRING_EQUAL(y->unit, a.coef[k].unit);
	}
	iw_tech_free(&a);
	iw_tech_free(&b);
}

/* Write 45nm.xml (expanded) with one line changed by `edit`. */
static const char *bad_file(const char *tag, const char *find, const char *replace)
{
	static char path[600];
	char tmp[600];
	struct iw_tech t;
	struct iw_err e = {0};
	snprintf(tmp, sizeof tmp, "%s/base-%s.xml", tu_tmpdir(), tag);
	snprintf(path, sizeof path, "%s/bad-%s.xml", tu_tmpdir(), tag);
	if (iw_tech_load(&t, "45nm", &e) || iw_tech_save(&t, tmp, &e))
		return NULL;
	iw_tech_free(&t);
	char *text;
	size_t len;
	if (iw_read_file(tmp, &text, &len, &e))
		return NULL;
	FILE *f = fopen(path, "w");
	char *p = strstr(text, find);
	if (!f || !p) {
		if (f)
			fclose(f);
		iw_free(text);
		return NULL;
	}
	fwrite(text, 1, (size_t)(p - text), f);
	fputs(replace, f);
	fputs(p + strlen(find), f);
	fclose(f);
	iw_free(text);
	return path;
}

/* A coefficient's source is kept whole (it reaches the HDF5 provenance and
 * `issuewatt area`): the longest shipped one, energy.pipe.inst's fit, was cut
 * at 255 characters; one too long for the program is refused at its line. */
static void coefficient_sources_are_kept_whole(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "45nm", &e), 0);
	const struct iw_coef *c = iw_tech_coef(&t, "energy.pipe.inst");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(strlen(c->source) > 800);
	static const char end[] = "NOC_A 32.1)"; /* its last words */
	size_t n = strlen(c->source);
	CU_ASSERT(n > sizeof end && strcmp(c->source + n - (sizeof end - 1), end) == 0);
	iw_tech_free(&t);
	/* the first pJ coefficient's source grows by 1200 characters */
	static const char find[] = "\" unit=\"pJ\" source=\"";
	char repl[sizeof find + 1200];
	memcpy(repl, find, sizeof find - 1);
	memset(repl + strlen(find), 'x', 1200);
	repl[strlen(find) + 1200] = 0;
	const char *p = bad_file("longsrc", find, repl);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(iw_tech_load(&t, p, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, p));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected a source of at most 1023 characters, found 12"));
}

static void missing_coefficient_names_file_coefficient_and_structure(void)
{
	const char *p = bad_file("missing", "<coef name=\"energy.dm.row_write\"", "<coef name=\"energy.dm.row_writx\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, p, &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_area_result a;
	CU_ASSERT_EQUAL(iw_area_eval(&c, "socgpu", &t, &a, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, p));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "energy.dm.row_write"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "'dm'"));
	iw_tech_free(&t);
	char args[800], err[2048];
	snprintf(args, sizeof args, "area --tech %s --scheme socgpu", p);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "energy.dm.row_write"));
}

static void wrong_unit_is_rejected_with_its_line(void)
{
	const char *p = bad_file("unit", "name=\"area.cell.dff\" value=\"4.522\" unit=\"um2\"",
				 "name=\"area.cell.dff\" value=\"4.522\" unit=\"pJ\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, p, &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_area_result a;
	CU_ASSERT_EQUAL(iw_area_eval(&c, "inorder", &t, &a, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected unit um2, found pJ"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ":3:")); /* the coefficient's own line */
	iw_tech_free(&t);
}

static void negative_and_non_finite_values_are_rejected(void)
{
	const char *p = bad_file("neg", "value=\"4.522\"", "value=\"-4.522\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_tech_load(&t, p, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "area.cell.dff"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, p));
	p = bad_file("inf", "value=\"4.522\"", "value=\"INF\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	e.code = 0;
	CU_ASSERT_EQUAL(iw_tech_load(&t, p, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "area.cell.dff"));
	char args[800];
	snprintf(args, sizeof args, "area --tech %s", p);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, NULL, 0), 3);
}

/* A coefficient written twice in one file is refused at the second, naming
 * the first (not the last value silently kept); overriding an imported one
 * with <derive> stays allowed. */
static void duplicate_coefficient_is_rejected_with_both_lines(void)
{
	char path[600], err[2048], args[800];
	snprintf(path, sizeof path, "%s/dup.xml", tu_tmpdir());
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<?xml version=\"1.0\"?>\n<tech name=\"dup\" kind=\"asic\" node_nm=\"32\" vdd=\"0.9\">\n"
	      "  <derive from=\"45nm\" area=\"0.5\" energy=\"0.5\" leakage=\"1\" source=\"s\"/>\n"
	      "  <coef name=\"area.cell.dff\" value=\"4.5\" unit=\"um2\" source=\"a\"/>\n"
	      "  <coef name=\"area.cell.dff\" value=\"9\" unit=\"um2\" source=\"b\"/>\n</tech>\n",
	      f);
	fclose(f);
	snprintf(args, sizeof args, "area --tech '%s' -s inorder", path);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "dup.xml:5: coefficient 'area.cell.dff': expected each coefficient once, "
					   "found it again (first at line 4)"));
	/* once is fine, over the imported value */
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<?xml version=\"1.0\"?>\n<tech name=\"dup\" kind=\"asic\" node_nm=\"32\" vdd=\"0.9\">\n"
	      "  <derive from=\"45nm\" area=\"0.5\" energy=\"0.5\" leakage=\"1\" source=\"s\"/>\n"
	      "  <coef name=\"area.cell.dff\" value=\"4.5\" unit=\"um2\" source=\"a\"/>\n</tech>\n",
	      f);
	fclose(f);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, path, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&t, "area.cell.dff")->value, 4.5, 1e-12);
	iw_tech_free(&t);
}

static void schema_errors_and_unknown_presets(void)
{
	char path[600];
	snprintf(path, sizeof path, "%s/schema.xml", tu_tmpdir());
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<tech name=\"x\" kind=\"asic\" vdd=\"1\">\n  <coef name=\"area.cell.dff\" value=\"1\" unit=\"furlong\" source=\"s\"/>\n</tech>\n", f);
	fclose(f);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_tech_load(&t, path, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ":2:"));
	e.code = 0;
	CU_ASSERT_EQUAL(iw_tech_load(&t, "3nm", &e), -IW_EINPUT);
	CU_ASSERT_EQUAL(tu_run("area --tech 3nm", NULL, 0, NULL, 0), 3);
	/* an unknown preset points at the list of its own kind ('list presets'
	 * is the GPU configurations'), on --tech and in <derive from> */
	char err[2048];
	CU_ASSERT_EQUAL(tu_run("run --tech 5nm", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'5nm': no such technology/device preset (see 'issuewatt list tech')"));
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<tech name=\"x\" kind=\"asic\" node_nm=\"5\" vdd=\"1\">\n"
	      "  <derive from=\"5nm\" area=\"0.5\" energy=\"0.5\" leakage=\"1\" source=\"s\"/>\n</tech>\n",
	      f);
	fclose(f);
	char args[800];
	snprintf(args, sizeof args, "area --tech '%s'", path);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2: <derive from=\"5nm\">: '5nm': no such technology/device preset (see "
					   "'issuewatt list tech')"));
	CU_ASSERT_EQUAL(tu_run("run --config v99", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'v99': no such GPU configuration preset (see 'issuewatt list presets')"));
}

/* One clock limit, IW_CLOCK_MHZ_MAX: gpu.clock_mhz's range, --set
 * tech.clock_mhz and the technology schema take the same highest clock. */
static void configuration_and_technology_share_the_clock_limit(void)
{
	CU_ASSERT_DOUBLE_EQUAL(iw_param_find("gpu.clock_mhz")->max, IW_CLOCK_MHZ_MAX, 0);
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	char set[64];
	snprintf(set, sizeof set, "clock_mhz=%d", IW_CLOCK_MHZ_MAX);
	CU_ASSERT_EQUAL(iw_tech_set(&t, set, &e), 0);
	snprintf(set, sizeof set, "clock_mhz=%d", IW_CLOCK_MHZ_MAX + 1);
	CU_ASSERT_EQUAL(iw_tech_set(&t, set, &e), -IW_EINPUT);
	iw_tech_free(&t);
	char *xsd = NULL, want[64];
	size_t len;
	struct iw_err ex = {0};
	CU_ASSERT_EQUAL_FATAL(iw_read_file(tu_path("tech/tech.xsd"), &xsd, &len, &ex), 0);
	const char *a = strstr(xsd, "<xs:attribute name=\"clock_mhz\"");
	snprintf(want, sizeof want, "<xs:maxInclusive value=\"%d\"/>", IW_CLOCK_MHZ_MAX);
	const char *end = a ? strstr(a, "</xs:attribute>") : NULL;
	const char *m = a ? strstr(a, want) : NULL;
	CU_ASSERT(m && end && m < end);
	iw_free(xsd);
	/* below 1 MHz (other than 0, the configuration's clock) a file is
	 * refused at its line, as --set refuses it */
	snprintf(set, sizeof set, "clock_mhz=0.5");
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	CU_ASSERT_EQUAL(iw_tech_set(&t, set, &e), -IW_EINPUT);
	iw_tech_free(&t);
	const char *p = bad_file("clock", "clock_mhz=\"0\"", "clock_mhz=\"0.5\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	struct iw_err el = {0};
	CU_ASSERT_EQUAL(iw_tech_load(&t, p, &el), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(el.msg, p));
	CU_ASSERT_PTR_NOT_NULL(strstr(el.msg, "clock_mhz: expected 0 (the configuration's clock) or 1 to"));
	const char *ok = bad_file("clock1", "clock_mhz=\"0\"", "clock_mhz=\"1\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ok);
	CU_ASSERT_EQUAL(iw_tech_load(&t, ok, &el), 0);
	iw_tech_free(&t);
}

void suite_tech(void)
{
	TU_SUITE("tech", {"configuration_and_technology_share_the_clock_limit", configuration_and_technology_share_the_clock_limit},
		 {"every_preset_loads_with_units_and_sources", every_preset_loads_with_units_and_sources},
		 {"node_ratios_equal_the_files_factors", node_ratios_equal_the_files_factors},
		 {"vdd_override_rescales_energy_and_leakage", vdd_override_rescales_energy_and_leakage},
		 {"save_and_reload_gives_the_same_coefficients", save_and_reload_gives_the_same_coefficients},
		 {"coefficient_sources_are_kept_whole", coefficient_sources_are_kept_whole},
		 {"missing_coefficient_names_file_coefficient_and_structure",
		  missing_coefficient_names_file_coefficient_and_structure},
		 {"wrong_unit_is_rejected_with_its_line", wrong_unit_is_rejected_with_its_line},
		 {"negative_and_non_finite_values_are_rejected", negative_and_non_finite_values_are_rejected},
		 {"duplicate_coefficient_is_rejected_with_both_lines", duplicate_coefficient_is_rejected_with_both_lines},
		 {"schema_errors_and_unknown_presets", schema_errors_and_unknown_presets});
}
