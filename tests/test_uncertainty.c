/* tests/test_uncertainty.c -- the model's uncertainty: the standard errors
 * and correlations of a calibrated file's coefficients, written by
 * `calibrate`, checked on load, and carried into every result's *_se. */
#include "calib.h"
#include "iw.h"
#include "reports.h"
#include "tech.h"
#include "testutil.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write to `path` a 45 nm file (derived with factors 1) named `name` whose
 * own coefficients `body` override the anchor's (0, or -1 if it cannot). */
static int tech_at(const char *path, const char *name, const char *body)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "<tech name=\"%s\" kind=\"asic\" node_nm=\"45\" vdd=\"1.0\">\n"
		   "  <derive from=\"45nm\" area=\"1\" energy=\"1\" leakage=\"1\" source=\"the 45 nm anchor\"/>\n%s</tech>\n",
		name, body);
	return fclose(f) ? -1 : 0;
}

/* That file at a fresh tmpdir/NAME.xml: its path. */
static const char *utech(const char *name, const char *body)
{
	static char paths[16][600];
	static int next;
	char *p = paths[next++ % 16];
	snprintf(p, 600, "%s/%s.xml", tu_tmpdir(), name);
	return tech_at(p, name, body) ? NULL : p;
}

/* <coef> of the 45 nm anchor's coefficient `name` at value + `plus`, with
 * standard error `se` (0: none). */
static void coef_el(char *out, size_t n, const char *name, double plus, double se)
{
	struct iw_tech t;
	struct iw_err e = {0};
	const struct iw_coef *c = iw_tech_load(&t, "45nm", &e) == 0 ? iw_tech_coef(&t, name) : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	snprintf(out, n, "  <coef name=\"%s\" value=\"%.17g\" unit=\"%s\" source=\"test\"%s std_error=\"%.17g\"/>\n", name,
		 c->value + plus, c->unit, se > 0 ? " fitted=\"true\"" : "", se);
	iw_tech_free(&t);
}

static double anchor(const char *name)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "45nm", &e), 0);
	const struct iw_coef *c = iw_tech_coef(&t, name);
	double v = c ? c->value : NAN;
	iw_tech_free(&t);
	return v;
}

/* inorder and socgpu on small `workloads` with technology `tech` (4 SMs):
 * a finished job, which the caller frees (also after a failure). */
static int small_job(const char *tech, const char *workloads, struct iw_job *j)
{
	char *sets[] = {"run.workload_scale=0.02", "gpu.sms=4"};
	struct iw_err e = {0};
	int rc = iw_job_init(j, "v100", tech, sets, IW_ARRAY_LEN(sets), "inorder,socgpu", workloads, &e);
	j->verbose = 0;
	if (rc == 0)
		rc = iw_job_run(j, &e);
	if (rc)
		fprintf(stderr, "%s\n", e.msg);
	return rc;
}

/* The two rows of vecadd: inorder [0], socgpu [1]. */
struct two {
	double e[2], rel[2], area[2], se_e[2], se_rel[2], se_area[2], se_edp[2];
};
static int run2(const char *tech, struct two *o)
{
	struct iw_job j;
	int rc = small_job(tech, "vecadd", &j);
	for (size_t i = 0; rc == 0 && i < 2; i++) {
		const struct iw_row *r = &j.rows[i];
		o->e[i] = r->power.energy_j;
		o->rel[i] = r->energy_rel;
		o->area[i] = r->area_mm2;
		o->se_e[i] = r->se[IW_SE_ENERGY];
		o->se_rel[i] = r->se[IW_SE_ENERGY_REL];
		o->se_area[i] = r->se[IW_SE_AREA];
		o->se_edp[i] = r->se[IW_SE_EDP_REL];
	}
	iw_job_free(&j);
	return rc;
}

#define NEAR(a, b) CU_ASSERT(fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-300)

/* One standard error of a coefficient moves a result as much as moving the
 * coefficient's value by it does; independent errors add in quadrature; a
 * structure only socgpu has gives inorder no error, and the baseline's own
 * _rel metrics none at all. */
static void an_error_moves_a_result_as_its_coefficient_does(void)
{
	double s_dm = 0.3 * anchor("energy.dm.row_write"), s_dff = 0.1 * anchor("area.cell.dff");
	char a[512], b[512], body[1100];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, s_dm);
	coef_el(b, sizeof b, "area.cell.dff", 0, s_dff);
	snprintf(body, sizeof body, "%s%s", a, b);
	struct two t0, t1, t2, none;
	CU_ASSERT_EQUAL_FATAL(run2(utech("u0", body), &t0), 0);
	coef_el(a, sizeof a, "energy.dm.row_write", s_dm, 0);
	CU_ASSERT_EQUAL_FATAL(run2(utech("u1", a), &t1), 0);
	coef_el(b, sizeof b, "area.cell.dff", s_dff, 0);
	CU_ASSERT_EQUAL_FATAL(run2(utech("u2", b), &t2), 0);
	for (int i = 0; i < 2; i++) {
		NEAR(t0.se_e[i], hypot(t1.e[i] - t0.e[i], t2.e[i] - t0.e[i]));
		NEAR(t0.se_rel[i], hypot(t1.rel[i] - t0.rel[i], t2.rel[i] - t0.rel[i]));
		NEAR(t0.se_area[i], fabs(t2.area[i] - t0.area[i]));
	}
	CU_ASSERT(t0.se_e[0] > 0);                   /* flip-flop area leaks */
	CU_ASSERT_EQUAL(t1.e[0], t0.e[0]);           /* inorder has no dependence matrix */
	CU_ASSERT(t0.se_rel[1] > 0); /* socgpu's matrix: its own error */
	/* the flip-flops' share both runs pay cancels in the ratio */
	CU_ASSERT(t0.se_rel[1] / t0.rel[1] < t0.se_e[1] / t0.e[1]);
	CU_ASSERT_EQUAL(t0.se_rel[0], 0);
	CU_ASSERT_EQUAL(t0.se_edp[0], 0);
	/* a file without errors: no uncertainty */
	CU_ASSERT_EQUAL_FATAL(run2("45nm", &none), 0);
	CU_ASSERT_EQUAL(none.se_e[1] + none.se_rel[1] + none.se_area[1], 0);
}

/* Correlated errors add, anti-correlated ones cancel:
 * se^2 = dA^2 + dB^2 + 2 r dA dB. */
static void correlated_errors_add_and_anticorrelated_ones_cancel(void)
{
	double sa = 0.3 * anchor("energy.dm.row_write"), sb = 0.05 * anchor("energy.pipe.inst");
	char a[512], b[512], body[1400];
	struct two ta, tb, t0;
	coef_el(a, sizeof a, "energy.dm.row_write", sa, 0);
	CU_ASSERT_EQUAL_FATAL(run2(utech("ca", a), &ta), 0);
	coef_el(b, sizeof b, "energy.pipe.inst", sb, 0);
	CU_ASSERT_EQUAL_FATAL(run2(utech("cb", b), &tb), 0);
	coef_el(a, sizeof a, "energy.dm.row_write", 0, sa);
	coef_el(b, sizeof b, "energy.pipe.inst", 0, sb);
	static const double rs[] = {1, -1, 0, 0.5};
	int checked = 0;
	for (size_t k = 0; k < IW_ARRAY_LEN(rs); k++) {
		snprintf(body, sizeof body,
			 "%s%s  <correlation a=\"energy.pipe.inst\" b=\"energy.dm.row_write\" r=\"%g\"/>\n", a, b, rs[k]);
		CU_ASSERT_EQUAL_FATAL(run2(utech("cr", body), &t0), 0);
		for (int i = 0; i < 2; i++) {
			double de[2] = {ta.e[i] - t0.e[i], tb.e[i] - t0.e[i]};
			double dr[2] = {ta.rel[i] - t0.rel[i], tb.rel[i] - t0.rel[i]};
			double ve = de[0] * de[0] + de[1] * de[1] + 2 * rs[k] * de[0] * de[1];
			double vr = dr[0] * dr[0] + dr[1] * dr[1] + 2 * rs[k] * dr[0] * dr[1];
			CU_ASSERT(fabs(t0.se_e[i] - sqrt(fmax(ve, 0))) <= 1e-7 * t0.e[i]);
			CU_ASSERT(fabs(t0.se_rel[i] - sqrt(fmax(vr, 0))) <= 1e-9);
			checked++;
		}
		if (rs[k] == 1) /* both raise socgpu's energy: the errors add */
			NEAR(t0.se_e[1], (ta.e[1] - t0.e[1]) + (tb.e[1] - t0.e[1]));
		if (rs[k] == -1)
			NEAR(t0.se_e[1], fabs((ta.e[1] - t0.e[1]) - (tb.e[1] - t0.e[1])));
	}
	CU_ASSERT_EQUAL(checked, 8);
}

/* `calibrate` writes the correlation of every pair of values of a fit (its
 * coefficients and predictions) from the fit's covariance; calibrating the
 * result again replaces them, it does not add a second copy. */
static void calibrate_writes_each_fits_correlations(void)
{
	const char *dir = tu_tmpdir();
	char spec[600], out[600], out2[600], args[2000];
	snprintf(spec, sizeof spec, "%s/spec.xml", dir);
	snprintf(out, sizeof out, "%s/cal.xml", dir);
	snprintf(out2, sizeof out2, "%s/cal2.xml", dir);
	FILE *f = fopen(spec, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "<calibration method=\"ols\">\n"
		   "  <fit structure=\"generic\" quantity=\"area\" unit=\"um2\">\n"
		   "    <coef name=\"area.mult.per_n2\" feature=\"param:n2\"/>\n"
		   "    <coef name=\"area.mult.per_n\" feature=\"param:n\"/>\n"
		   "    <predict name=\"area.mult.n12\"><param name=\"n\" value=\"12\"/><param name=\"n2\" value=\"144\"/></predict>\n"
		   "  </fit>\n");
	static const int ns[] = {8, 16, 32};
	for (int i = 0; i < 3; i++)
		fprintf(f, "  <point report=\"%s\" instance=\"array_%d\" structure=\"generic\">"
			   "<param name=\"n\" value=\"%d\"/><param name=\"n2\" value=\"%d\"/></point>\n",
			tu_path(ns[i] == 8 ? "tests/data/reports/yosys_stat_liberty_array_mult_8.txt"
				: ns[i] == 16 ? "tests/data/reports/yosys_stat_liberty_array_mult_16.txt"
					      : "tests/data/reports/yosys_stat_liberty_array_mult_32.txt"),
			ns[i], ns[i], ns[i] * ns[i]);
	fputs("</calibration>\n", f);
	fclose(f);
	/* the fit as the library sees it */
	struct iw_calib c;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_calib_load(&c, spec, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_calib_run(&c, -1, &e), 0);
	const double *C = c.fits[0].res.cov;
	double x[2] = {144, 12}, cx0 = C[0] * x[0] + C[1] * x[1], cx1 = C[2] * x[0] + C[3] * x[1];
	double vp = x[0] * cx0 + x[1] * cx1;
	double want[3] = {C[1] / sqrt(C[0] * C[3]), cx0 / sqrt(C[0] * vp), cx1 / sqrt(C[3] * vp)};
	iw_calib_free(&c);
	CU_ASSERT(want[0] < -0.5); /* slope terms of one fit: far from independent */
	static char text[16384];
	snprintf(args, sizeof args, "calibrate %s --tech 45nm -o %s", spec, out);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, text, sizeof text, NULL, 0), 0);
	/* the fit report shows them too */
	char line[200];
	snprintf(line, sizeof line, "area.mult.per_n2 %*s area.mult.per_n %*s %+.4f", 19, "", 20, "", want[0]);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "correlations of the errors"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	snprintf(args, sizeof args, "calibrate %s --tech %s -o %s", spec, out, out2);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, NULL, 0, NULL, 0), 0);
	const char *files[] = {out, out2};
	for (int k = 0; k < 2; k++) {
		struct iw_tech t;
		CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, files[k], &e), 0);
		CU_ASSERT_EQUAL(t.ncorr, 3);
		int found = 0;
		for (size_t q = 0; q < t.ncorr; q++) {
			const char *a = t.coef[t.corr[q].a].name, *b = t.coef[t.corr[q].b].name;
			int p = !strcmp(a, "area.mult.per_n2") && !strcmp(b, "area.mult.per_n")   ? 0
				: !strcmp(a, "area.mult.per_n2") && !strcmp(b, "area.mult.n12") ? 1
				: !strcmp(a, "area.mult.per_n") && !strcmp(b, "area.mult.n12")  ? 2
												 : -1;
			CU_ASSERT_FATAL(p >= 0);
			CU_ASSERT(fabs(t.corr[q].r - want[p]) < 1e-5);
			found |= 1 << p;
		}
		CU_ASSERT_EQUAL(found, 7);
		iw_tech_free(&t);
	}
	/* a node derived from it: errors scale with the values, correlations
	 * come along, except those of a coefficient the node sets itself */
	struct iw_tech base, t;
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&base, out, &e), 0);
	static const char *const own[] = {"", "  <coef name=\"area.mult.per_n\" value=\"30\" unit=\"um2\" source=\"own\"/>\n"};
	for (int k = 0; k < 2; k++) {
		char path[700];
		snprintf(path, sizeof path, "%s/node%d.xml", dir, k);
		FILE *g = fopen(path, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(g);
		fprintf(g, "<tech name=\"node\" kind=\"asic\" node_nm=\"22\" vdd=\"1.0\">\n"
			   "  <derive from=\"%s\" area=\"0.5\" energy=\"0.5\" leakage=\"2\" source=\"test\"/>\n%s</tech>\n",
			out, own[k]);
		fclose(g);
		CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, path, &e), 0);
		const struct iw_coef *a = iw_tech_coef(&t, "area.mult.per_n2"), *b = iw_tech_coef(&base, "area.mult.per_n2");
		CU_ASSERT_PTR_NOT_NULL_FATAL(a);
		CU_ASSERT_DOUBLE_EQUAL(a->std_error, 0.5 * b->std_error, 1e-12 * b->std_error);
		CU_ASSERT_EQUAL(t.ncorr, k ? 1 : 3);
		for (size_t q = 0; q < t.ncorr; q++)
			CU_ASSERT(strcmp(t.coef[t.corr[q].a].name, "area.mult.per_n") && strcmp(t.coef[t.corr[q].b].name, "area.mult.per_n") ? 1 : !k);
		iw_tech_free(&t);
	}
	iw_tech_free(&base);
}

/* Correlations that name no coefficient, repeat a pair, pair a coefficient
 * with itself, or contradict each other; negative errors: exit 3 with the
 * file and line. */
static void bad_correlations_and_errors_are_refused_with_their_line(void)
{
	static const struct {
		const char *body, *says;
	} bad[] = {
		{"  <correlation a=\"energy.pipe.inst\" b=\"energy.pipe.nope\" r=\"0.5\"/>\n", "nope.xml:3: <correlation> names 'energy.pipe.nope'"},
		{"  <correlation a=\"energy.pipe.inst\" b=\"energy.pipe.inst\" r=\"0.5\"/>\n", "self.xml:3: <correlation> of 'energy.pipe.inst' with itself"},
		{"  <correlation a=\"energy.pipe.inst\" b=\"energy.fetch.inst\" r=\"0.5\"/>\n"
		 "  <correlation a=\"energy.fetch.inst\" b=\"energy.pipe.inst\" r=\"0.2\"/>\n",
		 "twice.xml:4: <correlation> of 'energy.fetch.inst' and 'energy.pipe.inst': expected each pair once"},
		{"  <correlation a=\"energy.pipe.inst\" b=\"energy.fetch.inst\" r=\"0.9\"/>\n"
		 "  <correlation a=\"energy.fetch.inst\" b=\"energy.noc.flit\" r=\"0.9\"/>\n"
		 "  <correlation a=\"energy.pipe.inst\" b=\"energy.noc.flit\" r=\"-0.9\"/>\n",
		 "contradict.xml:5: <correlation> of 'energy.noc.flit': expected correlations that errors can have"},
		{"  <coef name=\"energy.noc.flit\" value=\"1\" unit=\"pJ\" source=\"s\" std_error=\"-0.1\"/>\n",
		 "negative.xml:3: coefficient 'energy.noc.flit': expected a std_error >= 0"},
		{"  <correlation a=\"energy.pipe.inst\" b=\"energy.fetch.inst\" r=\"1.5\"/>\n", "range.xml:3:"},
	};
	static const char *const names[] = {"nope", "self", "twice", "contradict", "negative", "range"};
	for (size_t i = 0; i < IW_ARRAY_LEN(bad); i++) {
		const char *p = utech(names[i], bad[i].body);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		struct iw_tech t;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL(iw_tech_load(&t, p, &e), -IW_EINPUT);
		if (!strstr(e.msg, bad[i].says))
			fprintf(stderr, "\n  expected '%s' in: %s\n", bad[i].says, e.msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i].says));
		char args[800];
		snprintf(args, sizeof args, "run -q -w vecadd --scale 0.01 --tech %s", p);
		CU_ASSERT_EQUAL(tu_run(args, NULL, 0, NULL, 0), 3);
	}
	/* a value set on the command line is chosen, not estimated: no error */
	char a[512];
	coef_el(a, sizeof a, "energy.pipe.inst", 0, 0.1 * anchor("energy.pipe.inst"));
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, utech("setme", a), &e), 0);
	CU_ASSERT_EQUAL(iw_tech_uncertain(&t), 1);
	CU_ASSERT_EQUAL(iw_tech_set(&t, "energy.pipe.inst=100", &e), 0);
	CU_ASSERT_EQUAL(iw_tech_uncertain(&t), 0);
	iw_tech_free(&t);
}

/* The report of results file `h5` in a fresh folder (its path into dir),
 * or -1 if `report` failed. */
static int report_into(const char *h5, char *dir, size_t n)
{
	char args[1400];
	snprintf(dir, n, "%s/rep", tu_tmpdir());
	snprintf(args, sizeof args, "report -q --no-render %s -o %s", h5, dir);
	return tu_run(args, NULL, 0, NULL, 0) == 0 ? 0 : -1;
}

/* The text of file `name` of report folder `dir` (the caller frees it), or
 * NULL if the report has no such file. */
static char *report_file(const char *dir, const char *name)
{
	char path[800], *text = NULL;
	size_t len;
	struct iw_err e = {0};
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return iw_read_file(path, &text, &len, &e) == 0 ? text : NULL;
}

/* A kernel of a multi-kernel run has errors of its own: its energy and
 * power move with each coefficient as the kernel priced with the moved value
 * does, and its energy against the in-order run's same kernel as both kernels
 * moved at once do (the ratio's error is not the two errors added).  The
 * sensitivities behind it survive the results file: the report's
 * kernels.csv is the run's CSV, character for character. */
static void each_kernel_carries_its_error(void)
{
	double s_dm = 0.3 * anchor("energy.dm.row_write"), s_p = 0.05 * anchor("energy.pipe.inst");
	char a[512], b[512], body[1100];
	const char *trace = tu_path("tests/data/traces/hand/multi");
	coef_el(a, sizeof a, "energy.dm.row_write", 0, s_dm);
	coef_el(b, sizeof b, "energy.pipe.inst", 0, s_p);
	snprintf(body, sizeof body, "%s%s", a, b);
	struct iw_job j[3];
	CU_ASSERT_EQUAL_FATAL(small_job(utech("k0", body), trace, &j[0]), 0);
	coef_el(a, sizeof a, "energy.dm.row_write", s_dm, 0);
	CU_ASSERT_EQUAL_FATAL(small_job(utech("k1", a), trace, &j[1]), 0);
	coef_el(b, sizeof b, "energy.pipe.inst", s_p, 0);
	CU_ASSERT_EQUAL_FATAL(small_job(utech("k2", b), trace, &j[2]), 0);
	struct iw_model_unc u;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_model_unc_of(&u, &j[0].tech, &e), 0);
	CU_ASSERT_EQUAL(u.n, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct iw_row *r[3] = {&j[0].rows[i], &j[1].rows[i], &j[2].rows[i]};
		CU_ASSERT_EQUAL_FATAL(r[0]->run.nkstats, 2);
		CU_ASSERT_EQUAL(r[0]->run.nksens, 2);
		for (size_t k = 0; k < 2; k++) {
			const struct iw_kernel_stat *k0 = &r[0]->run.kstats[k], *k1 = &r[1]->run.kstats[k],
						    *k2 = &r[2]->run.kstats[k];
			NEAR(k0->energy_j_se, hypot(k1->energy_j - k0->energy_j, k2->energy_j - k0->energy_j));
			NEAR(k0->avg_power_w_se, hypot(k1->avg_power_w - k0->avg_power_w, k2->avg_power_w - k0->avg_power_w));
			CU_ASSERT(k0->energy_j_se > 0);
			struct iw_krel x0 = iw_kernel_rel(&j[0].rows[0], r[0], k, u.corr);
			struct iw_krel x1 = iw_kernel_rel(&j[1].rows[0], r[1], k, NULL);
			struct iw_krel x2 = iw_kernel_rel(&j[2].rows[0], r[2], k, NULL);
			NEAR(x0.energy_rel_se, hypot(x1.energy_rel - x0.energy_rel, x2.energy_rel - x0.energy_rel));
			if (i == 0) {
				CU_ASSERT_EQUAL(x0.energy_rel_se, 0); /* the baseline against itself */
			} else {
				CU_ASSERT(x0.energy_rel_se > 0); /* socgpu's matrix */
				/* what both kernels pay moves the ratio less than either energy */
				CU_ASSERT(x0.energy_rel_se / x0.energy_rel < k0->energy_j_se / k0->energy_j);
				/* without the correlations, no error is claimed */
				CU_ASSERT_EQUAL(iw_kernel_rel(&j[0].rows[0], r[0], k, NULL).energy_rel_se, 0);
			}
		}
	}
	iw_model_unc_free(&u);
	for (int m = 0; m < 3; m++)
		iw_job_free(&j[m]);

	/* the same through the command line, a results file and its report */
	char args[1600], h5[600], dir[700];
	static char out[16384];
	snprintf(h5, sizeof h5, "%s/kernels.h5", tu_tmpdir());
	snprintf(args, sizeof args,
		 "run -q --tech 45nm --set gpu.sms=4 --set tech.energy.dm.row_write.std_error=30%% "
		 "--set tech.energy.pipe.inst.std_error=5%% --scheme inorder,socgpu -w %s --kernels --format csv -o %s",
		 trace, h5);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",energy_j_se,avg_power_w_se,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ",energy_rel,energy_rel_se\n"));
	/* the last column: 0 for in-order's two kernels, not for socgpu's */
	int zero = 0, nonzero = 0;
	for (char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		char *end = strchr(l + 1, '\n'), *c = end;
		while (c > l && c[-1] != ',')
			c--;
		double v = strtod(c, NULL);
		zero += v == 0;
		nonzero += v > 0;
	}
	CU_ASSERT_EQUAL(zero, 2);
	CU_ASSERT_EQUAL(nonzero, 2);
	CU_ASSERT_EQUAL_FATAL(report_into(h5, dir, sizeof dir), 0);
	char *kc = report_file(dir, "kernels.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(kc);
	CU_ASSERT_STRING_EQUAL(kc, out);
	iw_free(kc);
}

/* The errors reach the CSV, the JSON, the text table and the HDF5 file (and
 * read back from it as written). */
static void the_errors_reach_every_output(void)
{
	char a[512], args[1400], h5[600];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, 0.3 * anchor("energy.dm.row_write"));
	const char *p = utech("out", a);
	snprintf(h5, sizeof h5, "%s/se.h5", tu_tmpdir());
	static char out[1 << 16];
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,socgpu --tech %s --format csv -o %s",
		 p, h5);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	double se_rel = tu_csv_value(out, 2, "energy_rel_se"), se_e = tu_csv_value(out, 2, "energy_j_se");
	CU_ASSERT(se_rel > 0 && se_e > 0);
	CU_ASSERT_EQUAL(tu_csv_value(out, 1, "energy_rel_se"), 0);
	struct iw_results res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h5, &res, &e), 0);
	CU_ASSERT_EQUAL_FATAL(res.n, 2);
	CU_ASSERT(fabs(res.rows[1].se[IW_SE_ENERGY_REL] - se_rel) <= 1e-5 * se_rel);
	CU_ASSERT(fabs(res.rows[1].se[IW_SE_ENERGY] - se_e) <= 1e-5 * se_e);
	CU_ASSERT_EQUAL(res.nparams, 0); /* the *_se columns are not taken for sweep parameters */
	iw_results_free(&res);
	/* the report's tables give a single run's cell its error */
	char rep[700], cell[64];
	CU_ASSERT_EQUAL_FATAL(report_into(h5, rep, sizeof rep), 0);
	char *text = report_file(rep, "tables.tex");
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "$\\pm$ one standard error from the calibrated cost model"));
	snprintf(cell, sizeof cell, "{\\scriptsize $\\pm$%.*f}", 1 - (int)floor(log10(se_rel)), se_rel);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, cell));
	iw_free(text);
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,socgpu --tech %s --format json", p);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT(tu_json_valid(out));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"energy_rel_se\""));
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,socgpu --tech %s", p);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Model uncertainty"));
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "Model uncertainty")); /* the presets have no errors */
}

/* The geometric mean over workloads of each scheme's ratios, and its error:
 * one coefficient moves every workload's run at once, so the mean moves as
 * the runs with the moved value make it move. */
static int gms(const char *tech, double *gm, double *se)
{
	struct iw_job j;
	struct iw_err e = {0};
	int rc = small_job(tech, "vecadd,stencil", &j);
	if (rc == 0)
		rc = iw_job_geomeans(&j, gm, se, &e);
	if (rc == 0) { /* the mean is the rows' */
		double p = j.rows[1].energy_rel * j.rows[3].energy_rel;
		CU_ASSERT_DOUBLE_EQUAL(gm[IW_GM_COUNT + IW_GM_ENERGY], sqrt(p), 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(gm[IW_GM_COUNT + IW_GM_SPEEDUP], sqrt(j.rows[1].speedup * j.rows[3].speedup), 1e-12);
	}
	iw_job_free(&j);
	return rc;
}

static void a_geometric_mean_carries_the_shared_error(void)
{
	double s = 0.3 * anchor("energy.dm.row_write");
	char a[512];
	double g0[2 * IW_GM_COUNT], u0[2 * IW_GM_COUNT], g1[2 * IW_GM_COUNT], u1[2 * IW_GM_COUNT];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, s);
	CU_ASSERT_EQUAL_FATAL(gms(utech("gm0", a), g0, u0), 0);
	coef_el(a, sizeof a, "energy.dm.row_write", s, 0);
	CU_ASSERT_EQUAL_FATAL(gms(utech("gm1", a), g1, u1), 0);
	for (int k = IW_GM_ENERGY; k < IW_GM_COUNT; k++) {
		double d = fabs(g1[IW_GM_COUNT + k] - g0[IW_GM_COUNT + k]);
		CU_ASSERT(k == IW_GM_ADP ? d == 0 : d > 0); /* an energy moves no area */
		CU_ASSERT(fabs(u0[IW_GM_COUNT + k] - d) <= 1e-9 * d);
		CU_ASSERT_EQUAL(u0[k], 0); /* inorder against itself */
		CU_ASSERT_EQUAL(u1[IW_GM_COUNT + k], 0); /* a file without errors */
	}
	CU_ASSERT_EQUAL(u0[IW_GM_COUNT + IW_GM_SPEEDUP], 0);
	/* the text under the table */
	static char out[8192];
	char args[900];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, s);
	snprintf(args, sizeof args, "run -q -w vecadd,stencil --scale 0.02 --set gpu.sms=4 -s inorder,socgpu -t %s",
		 utech("gm2", a));
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Geometric mean over the 2 workloads (+- one standard error"));
	char line[128];
	snprintf(line, sizeof line, "%.4f +- %.2g", g0[IW_GM_COUNT + IW_GM_ENERGY], u0[IW_GM_COUNT + IW_GM_ENERGY]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	/* and in the JSON, exact, which a script cannot work out from the runs */
	strncat(args, " --format json", sizeof args - strlen(args) - 1);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT(tu_json_valid(out));
	snprintf(line, sizeof line, "\"energy_rel\": %.17g, \"adp_rel\": ", g0[IW_GM_COUNT + IW_GM_ENERGY]);
	const char *at = strstr(out, "\"geomeans\": [");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	CU_ASSERT_PTR_NOT_NULL(strstr(at, line));
	snprintf(line, sizeof line, "\"energy_rel_se\": %.17g", u0[IW_GM_COUNT + IW_GM_ENERGY]);
	CU_ASSERT_PTR_NOT_NULL(strstr(at, line));
}

/* A sweep over two configurations with technology `tech` into `out`
 * (socgpu against inorder on vecadd and stencil, 4 SMs; extra: more of the
 * spec, as a shard); the spec is SPEC.xml in the test's folder. */
static int mean_sweep(const char *spec, const char *tech, const char *out, const char *extra)
{
	char p[700], args[1600];
	snprintf(p, sizeof p, "%s/%s.xml", tu_tmpdir(), spec);
	FILE *f = fopen(p, "w");
	if (!f)
		return -1;
	fprintf(f, "<sweep name=\"%s\">\n  <config>v100</config>\n  <tech>%s</tech>\n"
		   "  <workload>vecadd</workload>\n  <workload>stencil</workload>\n  <scheme>socgpu</scheme>\n"
		   "  <set key=\"run.workload_scale\" value=\"0.02\"/>\n  <set key=\"gpu.sms\" value=\"4\"/>\n"
		   "  <axis key=\"socgpu.ib_size\" values=\"2 8\"/>\n</sweep>\n",
		spec, tech);
	fclose(f);
	snprintf(args, sizeof args, "sweep -q -j 1 %s -o %s %s", p, out, extra ? extra : "");
	return tu_run(args, NULL, 0, NULL, 0);
}

/* The number after the first $\pm$ on the line of table `label` that starts
 * with `lead` in a report's tables.tex (NaN if absent). */
static double tex_pm(const char *tex, const char *label, const char *lead)
{
	const char *t = strstr(tex, label), *end = t ? strstr(t, "\\end{table}") : NULL;
	char l[64];
	snprintf(l, sizeof l, "\n%s & ", lead);
	const char *row = t ? strstr(t, l) : NULL, *eol = row ? strchr(row + 1, '\n') : NULL;
	const char *pm = row && row < end ? strstr(row, "$\\pm$") : NULL;
	return pm && pm < eol ? strtod(pm + 5, NULL) : NAN;
}

/* A mean over configurations (or workloads) has an error too: every run
 * keeps its sensitivity to each coefficient (runs/N/model_sensitivity), so
 * the report's mean moves as the runs with the moved value make it move,
 * not as independent runs' would (by sqrt(2) less for two). */
static void a_mean_over_configurations_carries_the_shared_error(void)
{
	double s = 0.3 * anchor("energy.dm.row_write");
	char a[512], h0[600], h1[600], rep[600];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, s);
	snprintf(h0, sizeof h0, "%s/m0.h5", tu_tmpdir());
	snprintf(h1, sizeof h1, "%s/m1.h5", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mean_sweep("m0", utech("m0", a), h0, NULL), 0);
	coef_el(a, sizeof a, "energy.dm.row_write", s, 0);
	CU_ASSERT_EQUAL_FATAL(mean_sweep("m1", utech("m1", a), h1, NULL), 0);
	struct iw_results r0, r1;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h0, &r0, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h1, &r1, &e), 0);
	CU_ASSERT_EQUAL_FATAL(r0.n, 8);
	CU_ASSERT_EQUAL_FATAL(r1.n, 8);
	/* the file names the coefficient; each run keeps its own change */
	CU_ASSERT_EQUAL_FATAL(r0.unc.n, 1);
	CU_ASSERT_STRING_EQUAL(r0.unc.names[0], "energy.dm.row_write");
	CU_ASSERT_DOUBLE_EQUAL(r0.unc.std_error[0], s, 1e-15 * s);
	CU_ASSERT_EQUAL(r0.unc.corr[0], 1);
	CU_ASSERT_EQUAL(r1.unc.n, 0); /* a file without errors */
	double g0[2] = {1, 1}, g1[2] = {1, 1}, all0 = 1, all1 = 1;
	for (size_t i = 0; i < r0.n; i++) {
		const struct iw_row *x = &r0.rows[i], *y = &r1.rows[i];
		CU_ASSERT_EQUAL_FATAL(x->nsens, 1);
		CU_ASSERT_EQUAL(y->nsens, 0);
		double d = y->energy_rel - x->energy_rel;
		CU_ASSERT(fabs(x->sens[IW_SE_ENERGY_REL] - d) <= 1e-9 * fabs(d) + 1e-300);
		CU_ASSERT(fabs(x->se[IW_SE_ENERGY_REL] - fabs(d)) <= 1e-9 * fabs(d) + 1e-300);
		if (strcmp(x->scheme, "socgpu") == 0) {
			int w = strcmp(x->workload, "vecadd") != 0;
			CU_ASSERT(d > 0);
			g0[w] *= x->energy_rel;
			g1[w] *= y->energy_rel;
			all0 *= x->energy_rel;
			all1 *= y->energy_rel;
		}
	}
	iw_results_free(&r0);
	iw_results_free(&r1);
	CU_ASSERT_EQUAL_FATAL(report_into(h0, rep, sizeof rep), 0);
	char *text = report_file(rep, "tables.tex");
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* each workload's mean over the two configurations, and the mean of all
	 * four runs (printed to 2 significant digits) */
	double want[3] = {fabs(sqrt(g1[0]) - sqrt(g0[0])), fabs(sqrt(g1[1]) - sqrt(g0[1])),
			  fabs(pow(all1, 0.25) - pow(all0, 0.25))};
	double got[3] = {tex_pm(text, "{tab:energy}", "vecadd"), tex_pm(text, "{tab:energy}", "stencil"),
			 tex_pm(text, "{tab:energy}", "geo.\\ mean")};
	for (int k = 0; k < 3; k++)
		CU_ASSERT(fabs(got[k] - want[k]) <= 0.051 * want[k]);
	CU_ASSERT(isnan(tex_pm(text, "{tab:adp}", "vecadd"))); /* an energy moves no area */
	iw_free(text);
	/* the uncertainty budget: the one coefficient makes all of the mean's
	 * error; nothing for inorder (no error against itself) or ADP */
	text = report_file(rep, "uncertainty_budget.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "scheme,metric,geomean,se,coefficient,std_error,change,share\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "inorder,"));
	CU_ASSERT_PTR_NULL(strstr(text, ",adp_rel,"));
	const char *line = strstr(text, "\nsocgpu,energy_rel,");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	double gm = strtod(line + 19, NULL);
	CU_ASSERT(fabs(gm - pow(all0, 0.25)) <= 1e-8);
	const char *chg = strstr(line, ",energy.dm.row_write,");
	CU_ASSERT_PTR_NOT_NULL_FATAL(chg);
	char *next = NULL;
	CU_ASSERT(fabs(strtod(chg + 21, &next) - s) <= 1e-5 * s); /* std_error */
	CU_ASSERT(fabs(strtod(next + 1, &next) - want[2]) <= 0.006 * want[2]); /* change (3 digits) */
	CU_ASSERT(strncmp(next, ",1.0000\n", 8) == 0); /* share */
	iw_free(text);
	CU_ASSERT_EQUAL_FATAL(report_into(h1, rep, sizeof rep), 0);
	text = report_file(rep, "uncertainty_budget.csv");
	CU_ASSERT_PTR_NULL(text); /* no errors, no budget */
	iw_free(text);
}

/* With correlated coefficients the budget's shares still add up to 1, and
 * one can be negative: energy.dm.row_write and energy.pipe.inst (r = 0.5)
 * move socgpu's energy ratio in opposite directions, so together they move
 * it less than apart. */
static void the_budget_shares_add_up_with_correlations(void)
{
	char h[600], rep[600];
	snprintf(h, sizeof h, "%s/c.h5", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mean_sweep("c", tu_path("tests/fuzz/seeds/tech/correlated.xml"), h, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(report_into(h, rep, sizeof rep), 0);
	char *text = report_file(rep, "uncertainty_budget.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	double sum = 0, pipe = NAN, dm = NAN;
	int rows = 0;
	for (const char *l = strstr(text, "\nsocgpu,energy_rel,"); l; l = strstr(l + 1, "\nsocgpu,energy_rel,")) {
		const char *eol = strchr(l + 1, '\n'), *last = l + 1;
		for (const char *p = l + 1; p < eol; p++)
			if (*p == ',')
				last = p + 1;
		double share = strtod(last, NULL);
		sum += share;
		rows++;
		if (strstr(l, ",energy.pipe.inst,") && strstr(l, ",energy.pipe.inst,") < eol)
			pipe = share;
		if (strstr(l, ",energy.dm.row_write,") && strstr(l, ",energy.dm.row_write,") < eol)
			dm = share;
	}
	CU_ASSERT_EQUAL(rows, 3);
	CU_ASSERT(fabs(sum - 1) <= 3e-4); /* (4 decimals each) */
	CU_ASSERT(pipe > 0.99);
	CU_ASSERT(dm < 0);
	iw_free(text);
}

/* A results file whose sensitivities have lost the coefficients they refer
 * to (edited by hand) is refused with what was expected, not misread. */
static void sensitivities_without_their_coefficients_are_refused(void)
{
	char a[512], h[600], args[1400];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, 0.3 * anchor("energy.dm.row_write"));
	snprintf(h, sizeof h, "%s/cut.h5", tu_tmpdir());
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,socgpu --tech %s -o %s",
		 utech("cut", a), h);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, NULL, 0, NULL, 0), 0);
	hid_t f = H5Fopen(h, H5F_ACC_RDWR, H5P_DEFAULT);
	CU_ASSERT_FATAL(f >= 0);
	CU_ASSERT(H5Ldelete(f, "model_uncertainty", H5P_DEFAULT) >= 0);
	H5Fclose(f);
	struct iw_results r;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL(iw_h5_read(h, &r, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cut.h5: expected runs/000000/model_sensitivity with one row per "
					     "/model_uncertainty coefficient"));
	static char err[4096];
	snprintf(args, sizeof args, "report -q --no-render %s -o %s/rep", h, tu_tmpdir());
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "model_sensitivity"));
}

/* Results of a changed technology file are neither resumed nor merged: the
 * sensitivities would refer to other errors. */
static void results_of_another_error_model_are_not_mixed(void)
{
	double s = 0.3 * anchor("energy.dm.row_write");
	char a[512], h[600], h2[600], args[2000], merged[600];
	static char err[4096];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, s);
	const char *tech = utech("mix", a);
	snprintf(h, sizeof h, "%s/mix1.h5", tu_tmpdir());
	snprintf(h2, sizeof h2, "%s/mix2.h5", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mean_sweep("mix", tech, h, "--shard 1/2"), 0);
	coef_el(a, sizeof a, "energy.dm.row_write", 0, 2 * s);
	const char *other = utech("mix", a); /* (in another folder) */
	char *text = NULL;
	size_t len;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_read_file(other, &text, &len, &e), 0);
	FILE *f = fopen(tech, "w"); /* the same file, another error */
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(text, 1, len, f), len);
	fclose(f);
	iw_free(text);
	CU_ASSERT_EQUAL_FATAL(mean_sweep("mix", tech, h2, "--shard 2/2"), 0);
	snprintf(merged, sizeof merged, "%s/mixed.h5", tu_tmpdir());
	snprintf(args, sizeof args, "merge %s %s -o %s", h, h2, merged);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "the technology file changed between the runs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "mix2.h5"));
	f = fopen(merged, "r");
	CU_ASSERT_PTR_NULL(f);
	if (f)
		fclose(f);
	CU_ASSERT_EQUAL(mean_sweep("mix", tech, h, "--resume"), 3);
	struct iw_results r;
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h, &r, &e), 0); /* left as it was: shard 1's 4 runs */
	CU_ASSERT_EQUAL(r.n, 4);
	iw_results_free(&r);
}

/* The results file says what technology its runs were priced with, --set
 * included (/provenance/tech_used_xml, every coefficient exact), and its
 * report hands it on with the configuration: run on those two files alone,
 * the same workload and schemes give the same numbers, errors and all. */
static void the_provenance_holds_the_technology_as_used(void)
{
	char args[2400], h5[600], used[800];
	static char out[8192], again[8192];
	const char *sets = "--set tech.energy.pipe.inst=5.5 --set tech.vdd=0.9 --set tech.energy.dm.row_write.std_error=30% "
			   "--set tech.area.cell.dff.std_error=0.1";
	snprintf(h5, sizeof h5, "%s/used.h5", tu_tmpdir());
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,socgpu --tech 45nm %s "
		 "--format csv -o %s", sets, h5);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	struct iw_results r;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(h5, &r, &e), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.tech_used_xml);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.tech_used_xml, "name=\"energy.pipe.inst\" value=\"4.455\"")); /* 5.5 x 0.9^2 */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.tech_used_xml, "source=\"set on the command line\""));
	CU_ASSERT_PTR_NULL(strstr(r.tech_used_xml, "<derive")); /* every coefficient, resolved */
	CU_ASSERT_PTR_NULL(strstr(r.tech_xml, "set on the command line")); /* the file as given */
	/* the report hands both inputs on as files */
	char dir[700];
	CU_ASSERT_EQUAL_FATAL(report_into(h5, dir, sizeof dir), 0);
	char *tech = report_file(dir, "tech.xml"), *html = report_file(dir, "index.html");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tech);
	CU_ASSERT_STRING_EQUAL(tech, r.tech_used_xml);
	CU_ASSERT_PTR_NOT_NULL(html && strstr(html, "<a href=\"config.xml\">config.xml</a>"));
	iw_free(tech);
	iw_free(html);
	iw_results_free(&r);
	snprintf(used, sizeof used, "%s/tech.xml", dir);
	snprintf(args, sizeof args, "run -q -w vecadd -s inorder,socgpu --config %s/config.xml --tech %s --format csv", dir,
		 used);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, again, sizeof again, NULL, 0), 0);
	/* (the tech column names the file's technology, 45nm, in both) */
	CU_ASSERT_STRING_EQUAL(again, out);
	CU_ASSERT(tu_csv_value(out, 2, "energy_rel_se") > 0); /* (socgpu's: the errors were used) */
	CU_ASSERT(tu_csv_value(out, 2, "area_mm2_se") > 0);
}

/* Shards or a resumed sweep priced with another technology (a coefficient's
 * value changed, not its error) are not mixed either. */
static void results_priced_with_another_technology_are_not_mixed(void)
{
	char h[600], h2[600], args[2000], merged[600];
	static char err[4096];
	snprintf(h, sizeof h, "%s/val1.h5", tu_tmpdir());
	snprintf(h2, sizeof h2, "%s/val2.h5", tu_tmpdir());
	const char *tech = utech("val", "");
	CU_ASSERT_EQUAL_FATAL(mean_sweep("val", tech, h, "--shard 1/2"), 0);
	char a[512];
	coef_el(a, sizeof a, "energy.dm.row_write", 1, 0);
	CU_ASSERT_EQUAL_FATAL(tech_at(tech, "val", a), 0); /* the same file, another value */
	CU_ASSERT_EQUAL_FATAL(mean_sweep("val", tech, h2, "--shard 2/2"), 0);
	snprintf(merged, sizeof merged, "%s/valmix.h5", tu_tmpdir());
	snprintf(args, sizeof args, "merge %s %s -o %s", h, h2, merged);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "val2.h5: expected results priced with the technology of"));
	FILE *f = fopen(merged, "r");
	CU_ASSERT_PTR_NULL(f);
	if (f)
		fclose(f);
	CU_ASSERT_EQUAL(mean_sweep("val", tech, h, "--resume"), 3);
	/* as it was: the shards of one technology merge */
	CU_ASSERT_EQUAL_FATAL(tech_at(tech, "val", ""), 0);
	CU_ASSERT_EQUAL(mean_sweep("val", tech, h2, "--shard 2/2"), 0);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 0);
}

/* The number after `key` on the line that starts at `from` (a "geomeans"
 * entry: one per line), NaN if absent. */
static double json_after(const char *from, const char *key)
{
	const char *end = strchr(from, '\n'), *k = strstr(from, key);
	return k && (!end || k < end) ? strtod(k + strlen(key), NULL) : NAN;
}

/* `report --format json` gives each configuration's means over the
 * workloads with their model errors: a sweep's configuration as `run`'s own
 * JSON gives them for that configuration alone (the means exactly, the
 * errors to first order). */
static void the_report_json_gives_each_configurations_means(void)
{
	char a[512], h[600], args[1600];
	static char js[65536], rj[32768];
	coef_el(a, sizeof a, "energy.dm.row_write", 0, 0.3 * anchor("energy.dm.row_write"));
	const char *tech = utech("rj", a);
	snprintf(h, sizeof h, "%s/rj.h5", tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mean_sweep("rj", tech, h, NULL), 0);
	snprintf(args, sizeof args, "report %s --format json", h);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, js, sizeof js, NULL, 0), 0);
	CU_ASSERT_FATAL(tu_json_valid(js));
	const char *gm = strstr(js, "\"geomeans\": [");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gm);
	int entries = 0;
	for (const char *p = gm; (p = strstr(p, "{\"scheme\": ")); p++)
		entries++;
	CU_ASSERT_EQUAL(entries, 4); /* 2 configurations x (inorder, socgpu) */
	const char *cell = strstr(gm, "{\"scheme\": \"socgpu\", \"params\": {\"socgpu.ib_size\": 8}, \"workloads\": 2, ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(cell);
	snprintf(args, sizeof args,
		 "run -q -w vecadd,stencil --scale 0.02 --set gpu.sms=4 -s inorder,socgpu --set socgpu.ib_size=8 --tech %s "
		 "--format json",
		 tech);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, rj, sizeof rj, NULL, 0), 0);
	const char *own = strstr(rj, "{\"scheme\": \"socgpu\", \"workloads\": 2, ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(own);
	static const char *const keys[] = {"\"speedup\": ", "\"energy_rel\": ", "\"edp_rel\": "};
	for (size_t k = 0; k < 3; k++)
		CU_ASSERT_DOUBLE_EQUAL(json_after(cell, keys[k]), json_after(own, keys[k]), 1e-12);
	double se = json_after(cell, "\"energy_rel_se\": "), se_own = json_after(own, "\"energy_rel_se\": ");
	CU_ASSERT(se_own > 0);
	CU_ASSERT(fabs(se - se_own) <= 0.01 * se_own);
}

/* `area` reports the same errors for a configuration: a coefficient's
 * standard error moves the GPU's area as its value moved by it does. */
static void area_reports_the_errors_of_its_figures(void)
{
	double u = 0.1 * anchor("area.cell.dff");
	char a[512], args[900];
	static char out[8192], out2[8192];
	coef_el(a, sizeof a, "area.cell.dff", 0, u);
	snprintf(args, sizeof args, "area -s socgpu -f csv -t %s", utech("ar0", a));
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	coef_el(a, sizeof a, "area.cell.dff", u, 0);
	snprintf(args, sizeof args, "area -s socgpu -f csv -t %s", utech("ar1", a));
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out2, sizeof out2, NULL, 0), 0);
	static const char *const cols[] = {"area_mm2", "overhead_mm2", "sm_um2"};
	for (size_t k = 0; k < IW_ARRAY_LEN(cols); k++) {
		char se[64];
		snprintf(se, sizeof se, "%s_se", cols[k]);
		double d = fabs(tu_csv_value(out2, 1, cols[k]) - tu_csv_value(out, 1, cols[k]));
		CU_ASSERT(d > 0);
		CU_ASSERT(fabs(tu_csv_value(out, 1, se) - d) <= 1e-4 * d); /* (the CSV's 6 digits) */
	}
	CU_ASSERT_EQUAL_FATAL(tu_run("area -s socgpu", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "standard error")); /* the presets have none */
	coef_el(a, sizeof a, "area.cell.dff", 0, u);
	snprintf(args, sizeof args, "area -s socgpu -t %s", utech("ar0c", a));
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "one standard error from the fitted coefficients: area +- "));
}

/* A sensitivity study without a file: --set tech.NAME.std_error=X (in the
 * coefficient's unit, or N% of its value) gives the same errors as a file
 * that carries them; a bad key or value is refused (exit 3). */
static void a_sensitivity_study_needs_no_file(void)
{
	double v = anchor("energy.pipe.inst");
	char a[512], args[900];
	static char f[8192], p[8192], q[8192];
	coef_el(a, sizeof a, "energy.pipe.inst", 0, 0.1 * v);
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,ghost --format csv -t %s",
		 utech("sens", a));
	CU_ASSERT_EQUAL_FATAL(tu_run(args, f, sizeof f, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,ghost --format csv -t 45nm "
				     "--set tech.energy.pipe.inst.std_error=10%",
				     p, sizeof p, NULL, 0), 0);
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.02 --set gpu.sms=4 -s inorder,ghost --format csv -t 45nm "
				    "--set tech.energy.pipe.inst.std_error=%.17g", 0.1 * v);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, q, sizeof q, NULL, 0), 0);
	for (int line = 1; line <= 2; line++) {
		double want = tu_csv_value(f, line, "energy_j_se");
		CU_ASSERT(want > 0);
		CU_ASSERT_DOUBLE_EQUAL(tu_csv_value(p, line, "energy_j_se"), want, 1e-5 * want);
		CU_ASSERT_DOUBLE_EQUAL(tu_csv_value(q, line, "energy_j_se"), want, 1e-5 * want);
		CU_ASSERT_DOUBLE_EQUAL(tu_csv_value(p, line, "energy_rel_se"), tu_csv_value(f, line, "energy_rel_se"),
				       1e-9);
	}
	char err[1024];
	CU_ASSERT_EQUAL(tu_run("run -q -w vecadd --scale 0.01 --set tech.energy.nope.std_error=5%", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown coefficient 'energy.nope'"));
	CU_ASSERT_EQUAL(tu_run("run -q -w vecadd --scale 0.01 --set tech.energy.pipe.inst.std_error=-1", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected a standard error >= 0"));
	CU_ASSERT_EQUAL(tu_run("area --set tech.area.cell.dff.std_error=lots", NULL, 0, NULL, 0), 3);
}

/* Every allocation failure on the way (the correlations read, checked and
 * derived; the propagation) is an out-of-memory failure, nothing else (the
 * sanitizer build checks that nothing leaks). */
static void allocation_failures_are_reported(void)
{
	const char *tech = tu_path("tests/fuzz/seeds/tech/correlated.xml");
	char *sets[] = {"run.workload_scale=0.001", "gpu.sms=1", "gpu.subcores=1", "sm.max_warps=8"};
	int ok = 0;
	for (long k = 0; k < 1000000 && !ok; k++) { /* (each one: the propagation's come last) */
		struct iw_job j;
		struct iw_err e = {0};
		iw_alloc_fail_after(k);
		int rc = iw_job_init(&j, "v100", tech, sets, IW_ARRAY_LEN(sets), "inorder,socgpu", "vecadd", &e);
		if (rc == 0) {
			j.verbose = 0;
			rc = iw_job_run(&j, &e);
			CU_ASSERT(rc != 0 || j.rows[1].se[IW_SE_ENERGY] > 0);
		}
		iw_job_free(&j); /* (also after a failed init: what it had taken) */
		iw_alloc_fail_after(-1);
		if (rc == 0)
			ok = 1;
		else if (rc != -IW_ERUN || !strstr(e.msg, "out of memory")) {
			fprintf(stderr, "\nk=%ld rc=%d %s\n", k, rc, e.msg);
			CU_FAIL("an allocation failure reported as something else");
			break;
		}
	}
	CU_ASSERT(ok);
}

void suite_uncertainty(void)
{
	TU_SUITE("uncertainty", {"an_error_moves_a_result_as_its_coefficient_does", an_error_moves_a_result_as_its_coefficient_does},
		 {"correlated_errors_add_and_anticorrelated_ones_cancel", correlated_errors_add_and_anticorrelated_ones_cancel},
		 {"calibrate_writes_each_fits_correlations", calibrate_writes_each_fits_correlations},
		 {"bad_correlations_and_errors_are_refused_with_their_line", bad_correlations_and_errors_are_refused_with_their_line},
		 {"the_errors_reach_every_output", the_errors_reach_every_output},
		 {"area_reports_the_errors_of_its_figures", area_reports_the_errors_of_its_figures},
		 {"a_sensitivity_study_needs_no_file", a_sensitivity_study_needs_no_file},
		 {"allocation_failures_are_reported", allocation_failures_are_reported},
		 {"a_geometric_mean_carries_the_shared_error", a_geometric_mean_carries_the_shared_error},
		 {"a_mean_over_configurations_carries_the_shared_error", a_mean_over_configurations_carries_the_shared_error},
		 {"results_of_another_error_model_are_not_mixed", results_of_another_error_model_are_not_mixed},
		 {"sensitivities_without_their_coefficients_are_refused",
		  sensitivities_without_their_coefficients_are_refused},
		 {"the_budget_shares_add_up_with_correlations", the_budget_shares_add_up_with_correlations},
		 {"each_kernel_carries_its_error", each_kernel_carries_its_error},
		 {"the_provenance_holds_the_technology_as_used", the_provenance_holds_the_technology_as_used},
		 {"results_priced_with_another_technology_are_not_mixed",
		  results_priced_with_another_technology_are_not_mixed},
		 {"the_report_json_gives_each_configurations_means", the_report_json_gives_each_configurations_means});
}
