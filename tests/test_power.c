/* tests/test_power.c -- energy and power of a run: sums, SI units, static
 * energy saved by a faster run, node scaling, time series. */
#include "area.h"
#include "power.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL(a, b) (fabs((a) - (b)) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-30)

/* A synthetic run: `n` samples of 1000 cycles with a fixed activity mix. */
static void fake_run(struct iw_run_result *r, uint64_t cycles, size_t n, uint64_t mult, uint64_t act[IW_A_COUNT],
		     uint64_t *cyc, uint64_t *insts)
{
	memset(r, 0, sizeof *r);
	r->cycles = cycles;
	for (int a = 0; a < IW_A_COUNT; a++)
		r->act[a] = 0;
	for (size_t i = 0; i < n; i++) {
		cyc[i] = cycles / n;
		insts[i] = 10 * (i + 1);
		r->warp_insts += insts[i];
		r->thread_insts += 24 * insts[i];
		for (int a = 0; a < IW_A_COUNT; a++) {
			act[i * IW_A_COUNT + a] = mult * (uint64_t)(a + 1) * (i + 1);
			r->act[a] += act[i * IW_A_COUNT + a];
		}
	}
	r->series.interval = cycles / n;
	r->series.n = n;
	r->series.cap = n;
	r->series.act = act;
	r->series.cycles = cyc;
	r->series.insts = insts;
	r->cnt.stall[IW_STALL_IDLE] = cycles; /* some schedulers idle */
}

static uint64_t act_buf[8 * IW_A_COUNT], cyc_buf[8], inst_buf[8];

static void energy_is_sum_of_parts_in_si_units(void)
{
	static const char *const schemes[] = {"inorder", "socgpu", "ghost", "loog", "ideal"};
	static const char *const techs[] = {"45nm", "12nm", "7nm", "xcu50"};
	for (size_t ti = 0; ti < IW_ARRAY_LEN(techs); ti++) {
		struct iw_tech t;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, techs[ti], &e), 0);
		for (size_t si = 0; si < IW_ARRAY_LEN(schemes); si++) {
			struct iw_config c;
			iw_config_defaults(&c);
			struct iw_run_result r;
			fake_run(&r, 8000, 8, 1000, act_buf, cyc_buf, inst_buf);
			struct iw_power_result p;
			CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, schemes[si], &t, &r, &p, &e), 0);
			/* seconds from cycles and the clock */
			CU_ASSERT(REL(p.seconds, 8000 / (c.clock_mhz * 1e6)));
			/* dynamic = sum over actions of count x energy, and = sum over structures */
			double dyn = 0, dyn_s = 0, leak = 0;
			for (int a = 0; a < IW_A_COUNT; a++)
				dyn += (double)r.act[a] * p.act_j[a];
			for (int s = 0; s < IW_S_COUNT; s++) {
				dyn_s += p.dynamic_j[s];
				leak += p.leakage_w[s];
			}
			CU_ASSERT(REL(dyn + p.pipe_j, p.dynamic_total_j));
			CU_ASSERT(REL(dyn_s, p.dynamic_total_j));
			CU_ASSERT(REL(leak, p.leakage_total_w));
			/* W x s = J */
			/* static = every power drawn per unit of time (leakage, constant,
			 * idle SMs, active-SM lane static, clock, DRAM background) x time */
			double time_w = p.leakage_total_w + p.constant_w + p.idle_w + p.lane_static_w + p.clock_w +
					p.dram_background_w;
			CU_ASSERT(REL(p.static_j, time_w * p.seconds));
			CU_ASSERT(REL(dyn + p.pipe_j, p.dynamic_total_j) || t.kind == IW_TECH_FPGA);
			CU_ASSERT(REL(p.energy_j, p.dynamic_total_j + p.static_j));
			CU_ASSERT(REL(p.avg_power_w * p.seconds, p.energy_j));
			/* the power series integrates to the run's energy, and its parts sum */
			CU_ASSERT_EQUAL_FATAL(p.nseries, 8);
			double ej = 0, tprev = 0;
			for (size_t i = 0; i < p.nseries; i++) {
				double dt = p.series_t_s[i] - tprev,
				       sum = time_w - p.leakage_total_w;
				tprev = p.series_t_s[i];
				for (int s = 0; s < IW_S_COUNT; s++)
					sum += p.series_struct_w[i * IW_S_COUNT + s];
				CU_ASSERT(REL(sum, p.series_w[i]));
				ej += p.series_w[i] * dt;
			}
			CU_ASSERT(REL(tprev, p.seconds));
			CU_ASSERT(fabs(ej - p.energy_j) <= 1e-9 * p.energy_j);
			/* plausibility of magnitudes: picojoules per action, watts for a GPU */
			CU_ASSERT(p.act_j[IW_A_RF_BANK_READ] > 1e-13 && p.act_j[IW_A_RF_BANK_READ] < 1e-9);
			CU_ASSERT(p.avg_power_w > 1 && p.avg_power_w < 1e5);
			if (t.kind == IW_TECH_FPGA)
				CU_ASSERT(p.leakage_total_w == 0 && p.constant_w > 1);
			iw_power_result_free(&p);
		}
		iw_tech_free(&t);
	}
}

/* The same work in fewer cycles saves static energy (SOCGPU's saving). */
static void faster_run_saves_static_energy(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result slow, fast;
	static uint64_t a2[8 * IW_A_COUNT], c2[8], i2[8];
	fake_run(&slow, 16000, 8, 1000, act_buf, cyc_buf, inst_buf);
	fake_run(&fast, 8000, 8, 1000, a2, c2, i2);
	fast.cnt.stall[IW_STALL_IDLE] = slow.cnt.stall[IW_STALL_IDLE] / 2;
	struct iw_power_result ps, pf;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "socgpu", &t, &slow, &ps, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "socgpu", &t, &fast, &pf, &e), 0);
	CU_ASSERT(REL(pf.dynamic_total_j, ps.dynamic_total_j));
	CU_ASSERT(pf.static_j < ps.static_j);
	CU_ASSERT(pf.energy_j < ps.energy_j);
	CU_ASSERT(pf.avg_power_w > ps.avg_power_w);
	iw_power_result_free(&ps);
	iw_power_result_free(&pf);
	iw_tech_free(&t);
}

/* Per-action energy at a node / at 45 nm = the file's energy factor (DRAM aside). */
static void node_energy_ratio_is_the_files_factor(void)
{
	struct iw_tech a, b;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&a, "45nm", &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&b, "14nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_model ma, mb;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "loog", &a, &ma, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "loog", &b, &mb, &e), 0);
	for (int k = 0; k < IW_A_COUNT; k++) {
		if (ma.act_pj[k] == 0)
			continue;
		double want = k == IW_A_DRAM_ACCESS ? 1.0 : b.derive_energy;
		CU_ASSERT_DOUBLE_EQUAL(mb.act_pj[k] / ma.act_pj[k], want, 1e-9);
	}
	iw_tech_free(&a);
	iw_tech_free(&b);
}

/* Wider structures cost more per action; more warps leak more. */
static void energy_per_action_grows_with_width(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_model m8, m16;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "socgpu", &t, &m8, &e), 0);
	c.socgpu_ib_size = 16;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "socgpu", &t, &m16, &e), 0);
	CU_ASSERT(m16.act_pj[IW_A_DM_ROW_WRITE] > m8.act_pj[IW_A_DM_ROW_WRITE]);
	CU_ASSERT(m16.act_pj[IW_A_DM_READY_EVAL] > m8.act_pj[IW_A_DM_READY_EVAL]);
	iw_config_defaults(&c);
	c.loog_cus = 4;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "loog", &t, &m8, &e), 0);
	c.loog_cus = 12;
	CU_ASSERT_EQUAL_FATAL(iw_model_build(&c, "loog", &t, &m16, &e), 0);
	CU_ASSERT(m16.act_pj[IW_A_BCAST_SEND] > m8.act_pj[IW_A_BCAST_SEND]);
	iw_tech_free(&t);
}

static void clock_override_and_errors(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result r;
	fake_run(&r, 8000, 8, 1, act_buf, cyc_buf, inst_buf);
	struct iw_power_result p;
	CU_ASSERT_EQUAL(iw_tech_set(&t, "tech.clock_mhz=1000", &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "inorder", &t, &r, &p, &e), 0);
	CU_ASSERT(REL(p.seconds, 8e-6));
	/* the same clock set in the configuration prices the run the same,
	 * DRAM background (peak bandwidth per cycle x clock) included */
	struct iw_config c1 = c;
	struct iw_tech t1 = t;
	c1.clock_mhz = 1000;
	t1.clock_mhz = 0;
	struct iw_power_result q;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c1, "inorder", &t1, &r, &q, &e), 0);
	CU_ASSERT(REL(q.dram_background_w, p.dram_background_w));
	CU_ASSERT(REL(q.energy_j, p.energy_j));
	iw_power_result_free(&q);
	iw_power_result_free(&p);
	CU_ASSERT_EQUAL(iw_power_eval(&c, "nosuch", &t, &r, &p, &e), -IW_EINPUT);
	/* a per-structure leakage density overrides leak.density for that structure only */
	struct iw_power_result p0, p1;
	e.code = 0;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "inorder", &t, &r, &p0, &e), 0);
	struct iw_tech t2 = t;
	struct iw_coef cs[512];
	CU_ASSERT_FATAL(t.ncoef < 512);
	memcpy(cs, t.coef, t.ncoef * sizeof *cs);
	t2.coef = cs;
	cs[t2.ncoef] = *iw_tech_coef(&t, "leak.density");
	snprintf(cs[t2.ncoef].name, sizeof cs[t2.ncoef].name, "leak.rf");
	cs[t2.ncoef].value *= 0.1;
	t2.ncoef++;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "inorder", &t2, &r, &p1, &e), 0);
	CU_ASSERT(REL(p1.leakage_w[IW_S_RF], 0.1 * p0.leakage_w[IW_S_RF]));
	CU_ASSERT(REL(p1.leakage_w[IW_S_CU], p0.leakage_w[IW_S_CU]));
	iw_power_result_free(&p0);
	iw_power_result_free(&p1);
	iw_tech_free(&t);
}

static void metrics_relative_to_baseline(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result r;
	fake_run(&r, 8000, 8, 1000, act_buf, cyc_buf, inst_buf);
	struct iw_power_result p;
	struct iw_area_result a;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "ghost", &t, &r, &p, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_area_eval(&c, "ghost", &t, &a, &e), 0);
	struct iw_metrics m, rel;
	iw_metrics_of(&p, &a, &m);
	CU_ASSERT(REL(m.pdp, p.energy_j));                 /* PDP is the energy */
	CU_ASSERT(REL(m.edp, p.energy_j * p.seconds));
	CU_ASSERT(REL(m.adp, a.gpu_mm2 * p.seconds));
	iw_metrics_relative(&m, &m, &rel);
	CU_ASSERT(REL(rel.adp, 1.0) && REL(rel.pdp, 1.0) && REL(rel.edp, 1.0) && REL(rel.delay_s, 1.0));
	iw_power_result_free(&p);
	iw_tech_free(&t);
}

/* Whole-GPU power of the V100 preset at 12 nm on the built-in sgemm (inorder,
 * --scale 0.3).  Band: AccelWattch (Kandiah et al., MICRO 2021) measures
 * compute-bound SGEMM on a GV100 (its Quadro GV100, the V100's 80-SM die) at
 * 200-250 W, and reports its Volta model within about 10% (mean absolute
 * error) of measured power, hence the floor 180 W; a board cannot exceed its
 * TDP, 300 W for the preset's V100 SXM2, the ceiling.  A memory-bound kernel (bfs) draws less, but more than
 * the constant + idle floor (32.3 + 80 x 0.28 W). */
static double csv_power(const char *args)
{
	static char out[8192];
	if (tu_run(args, out, sizeof out, NULL, 0) != 0)
		return -1;
	/* header then one row: avg_power_w is the 12th column */
	char *row = strchr(out, '\n');
	if (!row)
		return -1;
	row++;
	int col = 0;
	for (char *q = row; *q; q++)
		if (*q == ',' && ++col == 11)
			return atof(q + 1);
	return -1;
}

static void v100_sgemm_power_in_measured_band(void)
{
	double sg = csv_power("run -q -c v100 -t 12nm --scale 0.3 -w sgemm -s inorder --format csv");
	CU_ASSERT(sg >= 180 && sg <= 300);
	double bfs = csv_power("run -q -c v100 -t 12nm --scale 0.3 -w bfs -s inorder --format csv");
	CU_ASSERT(bfs > 32.3 + 80 * 0.28 && bfs < sg);
	/* TU106 (RTX 2060 S, TDP 175 W): a compute-bound kernel stays under the board limit */
	double tu = csv_power("run -q -c rtx2060s -t 12nm --scale 0.3 -w sgemm -s inorder --format csv");
	CU_ASSERT(tu > 50 && tu <= 175);
}

/* The built-in set's kernels, priced alone (`run --kernels`), add up to the
 * run's energy to the output's rounding: the run's active-SM per-lane static
 * power follows each kernel's mean active lanes over that kernel's time, not
 * one mean over all instructions (which charged bfs, long and divergent, the
 * lanes of the dense kernels: 0.8% more than its kernels here). */
static void kernels_energies_add_up_to_the_runs(void)
{
	static char run[8192], ks[8192];
	const char *args = "run -j 1 -q --scale 0.1 --set gpu.sms=8 -w builtin:iters=1 -s inorder,ghost --format csv";
	char kargs[256];
	snprintf(kargs, sizeof kargs, "%s --kernels", args);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, run, sizeof run, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(tu_run(kargs, ks, sizeof ks, NULL, 0), 0);
	for (int s = 0; s < 2; s++) {
		double sum = 0;
		for (int k = 1; k <= 6; k++)
			sum += tu_csv_value(ks, 6 * s + k, "energy_j");
		double e = tu_csv_value(run, 1 + s, "energy_j");
		CU_ASSERT(e > 0 && fabs(sum / e - 1) < 1e-8); /* (9 digits per figure) */
	}
	CU_ASSERT(isnan(tu_csv_value(ks, 13, "energy_j"))); /* 2 schemes x 6 kernels */
}

/* A run with no activity and every scheduler idle draws the chip's constant
 * power, the DRAM background and the idle-SM power of every SM (plus the
 * leakage of the structures), and nothing from the active-SM terms. */
static void idle_run_draws_constant_and_idle_power(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	struct iw_run_result r;
	memset(&r, 0, sizeof r);
	r.cycles = 100000;
	r.cnt.stall[IW_STALL_IDLE] = r.cycles * (uint64_t)c.sms * (uint64_t)(c.subcores > 0 ? c.subcores : 1);
	struct iw_power_result p;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "inorder", &t, &r, &p, &e), 0);
	double idle_sm = iw_tech_coef(&t, "power.idle_sm")->value;
	double cd = iw_tech_coef(&t, "power.constant_density")->value;
	double bg = iw_tech_coef(&t, "power.dram.background")->value;
	CU_ASSERT(REL(p.idle_w, idle_sm * c.sms));
	CU_ASSERT(REL(p.constant_w, cd * c.die_area_mm2));
	CU_ASSERT(REL(p.dram_background_w, bg * c.dram_sectors_per_cycle * 32.0 * c.clock_mhz * 1e-3));
	CU_ASSERT(p.lane_static_w == 0 && p.clock_w == 0 && p.pipe_j == 0 && p.dynamic_total_j == 0);
	CU_ASSERT(REL(p.avg_power_w, p.constant_w + p.dram_background_w + p.idle_w + p.leakage_total_w));
	iw_power_result_free(&p);
	iw_tech_free(&t);
}

/* Every shared-component coefficient is required: a file without it stops a
 * run with exit 3 naming the file, the coefficient and the component. */
static void shared_coefficients_are_required(void)
{
	static const char *const names[][2] = {
		{"energy.pipe.inst", "pipe"},          {"energy.clock.lane_cycle", "clock"},
		{"power.static.int.sm_first_lane", "static"}, {"power.static.int_fp.sm_add_lane", "static"},
		{"power.static.l2.sm_first_lane", "static"},
		{"power.dram.background", "dram"},     {"power.idle_sm", "idle"},
		{"power.constant_density", "const"},
	};
	FILE *f = fopen(tu_path("tech/45nm.xml"), "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	static char xml[65536];
	size_t n = fread(xml, 1, sizeof xml - 1, f);
	fclose(f);
	xml[n] = 0;
	for (size_t k = 0; k < IW_ARRAY_LEN(names); k++) {
		char key[96], path[600];
		snprintf(key, sizeof key, "name=\"%s\"", names[k][0]);
		char *at = strstr(xml, key);
		CU_ASSERT_PTR_NOT_NULL_FATAL(at);
		snprintf(path, sizeof path, "%s/missing-%zu.xml", tu_tmpdir(), k);
		FILE *o = fopen(path, "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(o);
		/* rename the coefficient: name="c" becomes name="cx" */
		size_t cut = (size_t)(at - xml) + strlen(key) - 1;
		fwrite(xml, 1, cut, o);
		fputc('x', o);
		fputs(xml + cut, o);
		fclose(o);
		struct iw_tech t;
		struct iw_err e = {0};
		CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, path, &e), 0);
		struct iw_config c;
		iw_config_defaults(&c);
		struct iw_run_result r;
		memset(&r, 0, sizeof r);
		r.cycles = 1000;
		struct iw_power_result p;
		CU_ASSERT_EQUAL(iw_power_eval(&c, "inorder", &t, &r, &p, &e), -IW_EINPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, path));
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, names[k][0]));
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, names[k][1]));
		iw_tech_free(&t);
		if (k == 0) {
			char args[800], err[2048] = "";
			snprintf(args, sizeof args, "run -q --tech %s --scale 0.05 -w vecadd -s inorder", path);
			CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
			CU_ASSERT_PTR_NOT_NULL(strstr(err, "energy.pipe.inst"));
		}
	}
}

/* The shared energies follow the node's energy factor; the AccelWattch chip
 * figures (W) and the DRAM background are not node-scaled. */
static void shared_coefficients_scale_with_the_node(void)
{
	struct iw_tech a, b;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&a, "45nm", &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&b, "7nm", &e), 0);
	static const char *const scaled[] = {"energy.pipe.inst", "energy.clock.lane_cycle"};
	static const char *const fixed[] = {"power.static.int.sm_first_lane", "power.static.int_fp_tensor.sm_first_lane",
					    "power.static.int.sm_add_lane",
					    "power.dram.background", "power.idle_sm"};
	for (size_t i = 0; i < IW_ARRAY_LEN(scaled); i++)
		CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&b, scaled[i])->value / iw_tech_coef(&a, scaled[i])->value,
				       b.derive_energy, 1e-9);
	for (size_t i = 0; i < IW_ARRAY_LEN(fixed); i++)
		CU_ASSERT_DOUBLE_EQUAL(iw_tech_coef(&b, fixed[i])->value, iw_tech_coef(&a, fixed[i])->value, 1e-12);
	iw_tech_free(&a);
	iw_tech_free(&b);
}

/* The active-SM static power is AccelWattch's category for the units a
 * kernel uses (its V100 GPU figures / 80 SMs): an integer-only kernel draws
 * INT's 15.29 W + 0.586 W per added lane, an FP kernel with integer work
 * INT + FP's 18.62 W + 0.645 W, one with tensor cores 48.95 W and nothing per
 * lane.  (Every kernel drew the INT category's.)  In a run of several
 * kernels each draws its own over its active cycles. */
static void lane_static_power_follows_the_units_used(void)
{
	struct iw_tech t;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_tech_load(&t, "12nm", &e), 0);
	struct iw_config c;
	iw_config_defaults(&c);
	static const struct {
		int acts[3];
		double gpu_first, gpu_add;
	} k[] = {
		{{IW_A_FU_INT_OP, -1, -1}, 15.29, 0.586},
		{{IW_A_FU_INT_OP, IW_A_FU_SP_OP, -1}, 18.62, 0.645},
		{{IW_A_FU_INT_OP, IW_A_FU_SP_OP, IW_A_FU_TENSOR_OP}, 48.95, 0},
		{{IW_A_FU_SP_OP, IW_A_FU_SFU_OP, IW_A_FU_DP_OP}, 17.22, 0.651}, /* no category: geomean */
	};
	double alone[4];
	for (size_t i = 0; i < IW_ARRAY_LEN(k); i++) {
		struct iw_run_result r;
		memset(&r, 0, sizeof r);
		r.cycles = 1000;
		r.warp_insts = 1000;
		r.thread_insts = 17 * r.warp_insts; /* 16 lanes beyond the first */
		for (int a = 0; a < 3; a++)
			if (k[i].acts[a] >= 0)
				r.act[k[i].acts[a]] = 5000;
		r.act[IW_A_L1_ACCESS] = 100;
		struct iw_power_result p;
		CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "inorder", &t, &r, &p, &e), 0);
		double want = (k[i].gpu_first + 16 * k[i].gpu_add) * c.sms / 80;
		CU_ASSERT_DOUBLE_EQUAL(p.lane_static_w, want, 0.01 * want);
		alone[i] = p.lane_static_w;
		iw_power_result_free(&p);
	}
	/* a run of an integer-only kernel then an FP one, each half the time:
	 * the mean of the two, not the FP one's category for both */
	struct iw_kernel_stat ks[2];
	memset(ks, 0, sizeof ks);
	struct iw_run_result r;
	memset(&r, 0, sizeof r);
	for (int j = 0; j < 2; j++) {
		ks[j].cycles = 500;
		ks[j].warp_insts = 500;
		ks[j].thread_insts = 17 * 500;
		for (int a = 0; a < 3; a++)
			if (k[j].acts[a] >= 0)
				ks[j].act[k[j].acts[a]] = r.act[k[j].acts[a]] += 2500;
		r.warp_insts += ks[j].warp_insts;
		r.thread_insts += ks[j].thread_insts;
	}
	r.cycles = 1000;
	r.kstats = ks;
	r.nkstats = 2;
	struct iw_power_result p;
	CU_ASSERT_EQUAL_FATAL(iw_power_eval(&c, "inorder", &t, &r, &p, &e), 0);
	CU_ASSERT(REL(p.lane_static_w, (alone[0] + alone[1]) / 2));
	iw_power_result_free(&p);
	iw_tech_free(&t);
}

void suite_power(void)
{
	TU_SUITE("power", {"energy_is_sum_of_parts_in_si_units", energy_is_sum_of_parts_in_si_units},
		 {"faster_run_saves_static_energy", faster_run_saves_static_energy},
		 {"node_energy_ratio_is_the_files_factor", node_energy_ratio_is_the_files_factor},
		 {"energy_per_action_grows_with_width", energy_per_action_grows_with_width},
		 {"clock_override_and_errors", clock_override_and_errors},
		 {"metrics_relative_to_baseline", metrics_relative_to_baseline},
		 {"v100_sgemm_power_in_measured_band", v100_sgemm_power_in_measured_band},
		 {"kernels_energies_add_up_to_the_runs", kernels_energies_add_up_to_the_runs},
		 {"idle_run_draws_constant_and_idle_power", idle_run_draws_constant_and_idle_power},
		 {"shared_coefficients_are_required", shared_coefficients_are_required},
		 {"shared_coefficients_scale_with_the_node", shared_coefficients_scale_with_the_node},
		 {"lane_static_power_follows_the_units_used", lane_static_power_follows_the_units_used});
}
