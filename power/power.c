/*
 * power/power.c -- energy and power of a run (Accelergy style): dynamic energy
 * = sum over actions of count x energy per action (area/model.c prices each
 * action from the bits and gates it touches); static power = leakage of every
 * structure present (leakage density x its area) + the chip's constant power +
 * the idle-SM power (AccelWattch) + the shared components below.  All outputs
 * in SI units: J, W, s.
 *
 * Shared components in the AccelWattch manner (Kandiah et al., MICRO 2021):
 * per-warp-instruction pipeline energy (GPUWattch/AccelWattch PIPEP/IBP:
 * issue, operand crossbar, pipeline registers, write-back), clock tree and
 * pipeline registers of active SMs, AccelWattch's static power of active SMs
 * growing linearly with active lanes, and DRAM background/refresh.  Which of
 * their coefficients is fitted, and to what, is stated in tech/45nm.xml.
 *
 * The whole-GPU figure includes the components every scheme shares (register
 * file, execution units, caches, DRAM, NoC, constant and idle power), so a
 * faster run's saved static energy shows.
 */
#include "power.h"

#include "area.h"

#include <string.h>

/* Mean active lanes beyond the first over n warp-instructions of `threads`
 * active threads in all (AccelWattch's per-lane increment counts from the
 * second lane; none without instructions). */
static double lanes_extra(uint64_t n, uint64_t threads)
{
	double lanes = n > 0 ? (double)threads / (double)n : 0;
	return lanes > 1 ? lanes - 1 : 0;
}

/* AccelWattch's static-power categories (gpgpu_sim_wrapper::
 * calculate_static_power), coefficients power.static.<name>.sm_first_lane
 * and, where it has one, .sm_add_lane. */
enum static_cat { SC_INT, SC_INT_FP, SC_INT_FP_DP, SC_INT_FP_SFU, SC_INT_FP_TENSOR, SC_OTHER, SC_LIGHT, SC_L1, SC_SHARED,
		  SC_L2, SC_COUNT };
static const struct {
	const char *name;
	int add_lane; /* (its memory-only categories have no per-lane term) */
} static_cats[SC_COUNT] = {{"int", 1},   {"int_fp", 1}, {"int_fp_dp", 1}, {"int_fp_sfu", 1}, {"int_fp_tensor", 1},
			   {"other", 1}, {"light", 1},  {"l1", 0},        {"shared", 0},     {"l2", 0}};

/* The category of a kernel (or run) from the units its instructions used, as
 * AccelWattch picks it from a sample's accesses.  Texture accesses are not
 * counted apart from constant ones, so its INT + FP + TEX category is never
 * picked, and integer adds are not told from multiplies, so an integer-only
 * kernel is its INT (add and mul) category. */
static enum static_cat static_category(const uint64_t *act)
{
	int i = act[IW_A_FU_INT_OP] > 0, f = act[IW_A_FU_SP_OP] > 0, d = act[IW_A_FU_DP_OP] > 0,
	    u = act[IW_A_FU_SFU_OP] > 0, x = act[IW_A_FU_TENSOR_OP] > 0;
	if (i && f && d && !u && !x)
		return SC_INT_FP_DP;
	if (i && f && !d && !u && x)
		return SC_INT_FP_TENSOR;
	if (i && f && !d && u && !x)
		return SC_INT_FP_SFU;
	if (i && f && !d && !u && !x)
		return SC_INT_FP;
	if (i && !f && !d && !u && !x)
		return SC_INT;
	if (!i && !f && !d && !u && !x)
		return act[IW_A_L1_ACCESS] ? SC_L1 : act[IW_A_SHMEM_ACCESS] ? SC_SHARED : act[IW_A_L2_ACCESS] ? SC_L2 : SC_LIGHT;
	return SC_OTHER;
}

int iw_power_eval(const struct iw_config *c, const char *scheme, const struct iw_tech *t,
		  const struct iw_run_result *r, struct iw_power_result *p, struct iw_err *e)
{
	memset(p, 0, sizeof *p);
	p->clock_mhz = t->clock_mhz > 0 ? t->clock_mhz : c->clock_mhz;
	if (p->clock_mhz <= 0)
		return iw_fail(e, IW_EINPUT, "clock: expected > 0 MHz, found %g", p->clock_mhz);
	double hz = p->clock_mhz * 1e6;
	p->seconds = (double)r->cycles / hz;
	struct iw_model m;
	int rc = iw_model_build(c, scheme, t, &m, e);
	if (rc)
		return rc;
	for (int a = 0; a < IW_A_COUNT; a++)
		p->act_j[a] = m.act_pj[a] * 1e-12;
	for (int a = 0; a < IW_A_COUNT; a++)
		p->dynamic_j[iw_acts[a].structure] += (double)r->act[a] * p->act_j[a];
	for (int s = 0; s < IW_S_COUNT; s++)
		p->dynamic_total_j += p->dynamic_j[s];

	double sched_cycles = (double)r->cycles * c->sms * (c->subcores > 0 ? c->subcores : 1);
	p->idle_fraction = sched_cycles > 0 ? (double)r->cnt.stall[IW_STALL_IDLE] / sched_cycles : 0;
	if (p->idle_fraction > 1)
		p->idle_fraction = 1;
	double pipe_pj = 0, clk_pj = 0;
	if (t->kind == IW_TECH_ASIC) {
		double dens, cdens, idle, bg, first[SC_COUNT], add[SC_COUNT] = {0};
		if (iw_tech_need(t, "leak.density", "W/um2", "all structures", &dens, e) ||
		    iw_tech_need(t, "power.constant_density", "W/mm2", "const (chip constant power)", &cdens, e) ||
		    iw_tech_need(t, "power.idle_sm", "W", "idle SM power", &idle, e) ||
		    iw_tech_need(t, "energy.pipe.inst", "pJ", "pipe (per-warp-instruction pipeline)", &pipe_pj, e) ||
		    iw_tech_need(t, "energy.clock.lane_cycle", "pJ", "clock (active-SM clock tree and pipeline registers)",
				 &clk_pj, e) ||
		    iw_tech_need(t, "power.dram.background", "W/(GB/s)", "dram (background and refresh)", &bg, e))
			return -e->code;
		for (int k = 0; k < SC_COUNT; k++) {
			char fl[64], al[64];
			snprintf(fl, sizeof fl, "power.static.%s.sm_first_lane", static_cats[k].name);
			snprintf(al, sizeof al, "power.static.%s.sm_add_lane", static_cats[k].name);
			if (iw_tech_need(t, fl, "W", "static (active-SM static power)", &first[k], e) ||
			    (static_cats[k].add_lane && iw_tech_need(t, al, "W", "static (active-SM static power)", &add[k], e)))
				return -e->code;
		}
		for (int s = 0; s < IW_S_COUNT; s++) {
			if (!m.s[s].present)
				continue;
			/* a file may give a structure its own density (e.g. high-Vt SRAM arrays) */
			char name[64];
			double d = dens;
			snprintf(name, sizeof name, "leak.%s", iw_structs[s].name);
			if (iw_tech_coef(t, name) && iw_tech_need(t, name, "W/um2", iw_structs[s].name, &d, e))
				return -e->code;
			p->leakage_w[s] = d * m.s[s].um2 * iw_model_gpu_count(c, &m, s);
		}
		/* AccelWattch's constant power is a chip-level figure fitted at the
		 * die's own process: the configured die, not the one scaled to the
		 * node (area/area.c), as the other chip-level watts are not scaled. */
		p->constant_w = cdens * c->die_area_mm2;
		/* AccelWattch: an SM with nothing resident draws the idle-core power */
		p->idle_w = idle * c->sms * p->idle_fraction;
		/* AccelWattch's static model: an active SM draws the first-lane
		 * static power of the category of units in use (INT, INT + FP,
		 * ..., static_category) plus that category's per-lane increment
		 * for every further active lane of the mean warp (its linear
		 * model of divergence), weighted by the fraction of SMs active
		 * (here: of scheduler-cycles with a resident warp). */
		p->active_lanes = r->warp_insts > 0 ? (double)r->thread_insts / (double)r->warp_insts : 0;
		enum static_cat cat = static_category(r->act);
		double sm_w = first[cat] + lanes_extra(r->warp_insts, r->thread_insts) * add[cat];
		if (r->nkstats > 1) {
			/* Static power is drawn per unit of time: the lanes a
			 * kernel keeps active draw theirs over that kernel's active
			 * scheduler-cycles.  Kernels run one after another, so the
			 * run's per-lane static energy is its kernels' sum: each
			 * kernel's mean lanes weighted by its active
			 * scheduler-cycles, not the run's one mean over all its
			 * instructions (which charges a long divergent kernel, bfs,
			 * the lanes of the short dense ones around it, and the
			 * kernels priced alone would not add up to the run), each in
			 * the category of the units it used. */
			double busy = 0, busy_w = 0, busy_lanes = 0;
			for (size_t k = 0; k < r->nkstats; k++) {
				const struct iw_kernel_stat *ks = &r->kstats[k];
				double ksched = (double)ks->cycles * c->sms * (c->subcores > 0 ? c->subcores : 1);
				double kidle = (double)ks->idle_sched_cycles;
				double kbusy = kidle < ksched ? ksched - kidle : 0;
				busy += kbusy;
				enum static_cat kc = static_category(ks->act);
				busy_w += kbusy * (first[kc] + lanes_extra(ks->warp_insts, ks->thread_insts) * add[kc]);
				busy_lanes += ks->warp_insts > 0 ? kbusy * (double)ks->thread_insts / (double)ks->warp_insts : 0;
			}
			sm_w = busy > 0 ? busy_w / busy : 0;
			p->active_lanes = busy > 0 ? busy_lanes / busy : 0;
		}
		p->lane_static_w = sm_w * c->sms * (1 - p->idle_fraction);
		/* Clock tree and pipeline registers toggle in every active
		 * sub-core cycle, per lane of the datapath (energy per cycle, so
		 * it follows the node's energy factor and the clock). */
		double active_lane_cycles = sched_cycles * (1 - p->idle_fraction) * c->warp_size;
		p->clock_w = p->seconds > 0 ? active_lane_cycles * clk_pj * 1e-12 / p->seconds : 0;
		/* DRAM background and refresh in proportion to the memory system's
		 * peak bandwidth (number of devices/stacks x their rate): sectors
		 * per core cycle at the clock the run is priced at (tech.clock_mhz
		 * when it overrides the configuration's, as for the seconds). */
		double peak_gbs = (double)c->dram_sectors_per_cycle * 32.0 * hz / 1e9;
		p->dram_background_w = bg * peak_gbs;
		/* Fetch, decode, issue, operand crossbar and write-back datapath of
		 * every warp instruction (GPUWattch/AccelWattch's pipeline energy),
		 * charged to the front end shared by every scheme. */
		p->pipe_j = (double)r->warp_insts * pipe_pj * 1e-12;
		p->dynamic_j[IW_S_FETCH] += p->pipe_j;
		p->dynamic_total_j += p->pipe_j;
	} else {
		/* FPGA static power is the device's, whatever the design uses. */
		double st;
		if (iw_tech_need(t, "power.device_static", "W", "device static power", &st, e))
			return -e->code;
		p->constant_w = st;
	}
	for (int s = 0; s < IW_S_COUNT; s++)
		p->leakage_total_w += p->leakage_w[s];
	double time_w = p->leakage_total_w + p->constant_w + p->idle_w + p->lane_static_w + p->clock_w +
			p->dram_background_w;
	p->static_j = time_w * p->seconds;
	p->energy_j = p->dynamic_total_j + p->static_j;
	p->avg_power_w = p->seconds > 0 ? p->energy_j / p->seconds : 0;

	/* Power time series from the activity samples. */
	const struct iw_series *se = &r->series;
	if (se->n > 0 && se->act && se->cycles) {
		p->nseries = se->n;
		p->series_t_s = iw_calloc(se->n, sizeof(double));
		p->series_w = iw_calloc(se->n, sizeof(double));
		p->series_struct_w = iw_calloc(se->n * IW_S_COUNT, sizeof(double));
		if (!p->series_t_s || !p->series_w || !p->series_struct_w) {
			iw_power_result_free(p);
			return iw_fail(e, IW_ERUN, "out of memory for the power time series");
		}
		/* the pipeline energy follows the instructions of each sample
		 * (or the time, in a sample-less count), so the series integrates
		 * to the run's energy exactly */
		double ins_sum = 0;
		for (size_t i = 0; i < se->n; i++)
			ins_sum += se->insts ? (double)se->insts[i] : 0;
		double t_end = 0;
		for (size_t i = 0; i < se->n; i++) {
			double dt = (double)se->cycles[i] / hz;
			t_end += dt;
			p->series_t_s[i] = t_end;
			double *sw = p->series_struct_w + i * IW_S_COUNT;
			if (dt > 0) {
				const uint64_t *act = se->act + i * IW_A_COUNT;
				for (int a = 0; a < IW_A_COUNT; a++)
					sw[iw_acts[a].structure] += (double)act[a] * p->act_j[a] / dt;
				double share = ins_sum > 0 ? (double)se->insts[i] / ins_sum
							   : (p->seconds > 0 ? dt / p->seconds : 0);
				sw[IW_S_FETCH] += p->pipe_j * share / dt;
			}
			double tot = time_w - p->leakage_total_w;
			for (int s = 0; s < IW_S_COUNT; s++) {
				sw[s] += p->leakage_w[s];
				tot += sw[s];
			}
			p->series_w[i] = tot;
		}
	}
	return 0;
}

void iw_power_result_free(struct iw_power_result *p)
{
	iw_free(p->series_t_s);
	iw_free(p->series_w);
	iw_free(p->series_struct_w);
	p->series_t_s = p->series_w = p->series_struct_w = NULL;
	p->nseries = 0;
}

void iw_metrics_of(const struct iw_power_result *p, const struct iw_area_result *a, struct iw_metrics *m)
{
	m->delay_s = p->seconds;
	m->energy_j = p->energy_j;
	m->avg_power_w = p->avg_power_w;
	m->area = a ? (a->kind == IW_TECH_FPGA ? a->total_area_pct : a->gpu_mm2) : 0;
	m->adp = m->area * m->delay_s;
	m->pdp = m->avg_power_w * m->delay_s;
	m->edp = m->energy_j * m->delay_s;
}

static double ratio(double a, double b) { return b != 0 ? a / b : 0; }

void iw_metrics_relative(const struct iw_metrics *m, const struct iw_metrics *b, struct iw_metrics *r)
{
	r->delay_s = ratio(m->delay_s, b->delay_s);
	r->energy_j = ratio(m->energy_j, b->energy_j);
	r->avg_power_w = ratio(m->avg_power_w, b->avg_power_w);
	r->area = ratio(m->area, b->area);
	r->adp = ratio(m->adp, b->adp);
	r->pdp = ratio(m->pdp, b->pdp);
	r->edp = ratio(m->edp, b->edp);
}
