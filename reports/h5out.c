/*
 * reports/h5out.c -- the HDF5 result file (layout in reports/README.md).
 * Only built-in filters (shuffle + deflate) so h5py and h5dump read it with no
 * plugins; units as UTF-8 string attributes; written to a temporary name and
 * renamed when complete.
 */
#include "reports.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <string.h>
#include <time.h>

#define CHECK(x)                                                                                         \
	do {                                                                                             \
		if ((x) < 0) {                                                                           \
			iw_fail(e, IW_ERUN, "%s: HDF5 write failed (%s:%d: %s)", path, __FILE__, __LINE__, #x); \
			goto fail;                                                                       \
		}                                                                                        \
	} while (0)

static hid_t utf8_type(size_t len)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, len ? len : H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	H5Tset_strpad(t, H5T_STR_NULLTERM);
	return t;
}

static herr_t attr_str(hid_t obj, const char *name, const char *value)
{
	hid_t t = utf8_type(strlen(value) + 1), sp = H5Screate(H5S_SCALAR);
	hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
	herr_t r = a < 0 ? -1 : H5Awrite(a, t, value);
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(sp);
	H5Tclose(t);
	return r;
}

static herr_t attr_double(hid_t obj, const char *name, double v)
{
	hsize_t one = 1;
	return H5LTset_attribute_double(obj, ".", name, &v, one);
}

static herr_t attr_u64(hid_t obj, const char *name, uint64_t v)
{
	hid_t sp = H5Screate(H5S_SCALAR);
	hid_t a = H5Acreate2(obj, name, H5T_STD_U64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
	herr_t r = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_UINT64, &v);
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(sp);
	return r;
}

/* A 1-D or 2-D dataset with a units attribute; chunked and compressed when
 * it is a time series (compress != 0). */
static herr_t dset(hid_t loc, const char *name, hid_t file_type, hid_t mem_type, int rank, const hsize_t *dims,
		   const void *data, const char *units, int compress)
{
	hid_t sp = H5Screate_simple(rank, dims, NULL), pl = H5Pcreate(H5P_DATASET_CREATE);
	int empty = 0;
	for (int i = 0; i < rank; i++)
		empty |= dims[i] == 0;
	if (compress && !empty) {
		hsize_t chunk[2] = {dims[0] < 256 ? dims[0] : 256, rank > 1 ? dims[1] : 1};
		H5Pset_chunk(pl, rank, chunk);
		H5Pset_shuffle(pl);
		H5Pset_deflate(pl, 1); /* shuffled counts: level 6 is 1.7% smaller and 3% slower per sweep */
	}
	hid_t d = H5Dcreate2(loc, name, file_type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
	herr_t r = d < 0 ? -1 : 0;
	if (r == 0 && !empty)
		r = H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
	if (r == 0 && units)
		r = attr_str(d, "units", units);
	if (d >= 0)
		H5Dclose(d);
	H5Pclose(pl);
	H5Sclose(sp);
	return r;
}

static herr_t ddouble(hid_t loc, const char *name, int rank, const hsize_t *dims, const double *v, const char *units,
		      int compress)
{
	return dset(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, rank, dims, v, units, compress);
}

static herr_t du64(hid_t loc, const char *name, int rank, const hsize_t *dims, const uint64_t *v, const char *units,
		   int compress)
{
	return dset(loc, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, rank, dims, v, units, compress);
}

static herr_t names(hid_t loc, const char *name, const char *const *v, size_t n)
{
	hsize_t dim = n;
	hid_t t = utf8_type(0), sp = H5Screate_simple(1, &dim, NULL);
	hid_t d = H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	herr_t r = d < 0 ? -1 : H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(t);
	return r;
}

static herr_t text(hid_t loc, const char *name, const char *value)
{
	hid_t t = utf8_type(strlen(value) + 1), sp = H5Screate(H5S_SCALAR);
	hid_t d = H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	herr_t r = d < 0 ? -1 : H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, value);
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(t);
	return r;
}

/* The summary table: one compound record per run. */
struct summary_rec {
	char workload[256], scheme[32], config[64], tech[64];
	uint64_t cycles, warp_insts;
	double ipc, seconds, energy_j, static_j, avg_power_w, area_mm2, speedup, energy_rel, adp_rel, pdp_rel, edp_rel;
	double fpga_area_pct, sm_busy_mean, sm_speedup;
	double se[IW_SE_COUNT]; /* named by iw_se_names */
};

static int write_summary(hid_t f, const struct iw_h5_meta *m, const struct iw_h5_source *src, size_t n,
			 const char *path, struct iw_err *e)
{
	size_t np = m->param_names ? m->nparams : 0;
	size_t recsz = sizeof(struct summary_rec) + np * sizeof(double);
	char *buf = iw_calloc(n ? n : 1, recsz);
	hid_t ct = -1, sp = -1, d = -1;
	hid_t s256 = utf8_type(256), s32 = utf8_type(32), s64 = utf8_type(64);
	if (!buf) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		struct summary_rec *r = (struct summary_rec *)(buf + i * recsz);
		struct iw_row xr;
		if (src->get(src->ctx, i, &xr, e))
			goto fail;
		const struct iw_row *x = &xr;
		snprintf(r->workload, sizeof r->workload, "%.255s", x->workload);
		snprintf(r->scheme, sizeof r->scheme, "%.31s", x->scheme);
		snprintf(r->config, sizeof r->config, "%.63s", x->config);
		snprintf(r->tech, sizeof r->tech, "%.63s", x->tech);
		r->cycles = x->run.cycles;
		r->warp_insts = x->run.warp_insts;
		r->ipc = x->run.ipc;
		r->seconds = x->seconds;
		r->energy_j = x->power.energy_j;
		r->static_j = x->power.static_j;
		r->avg_power_w = x->power.avg_power_w;
		r->area_mm2 = x->area_mm2;
		r->speedup = x->speedup;
		r->energy_rel = x->energy_rel;
		r->adp_rel = x->adp_rel;
		r->pdp_rel = x->pdp_rel;
		r->edp_rel = x->edp_rel;
		r->fpga_area_pct = x->fpga_area_pct;
		r->sm_busy_mean = x->run.sm_busy_mean;
		r->sm_speedup = x->sm_speedup;
		memcpy(r->se, x->se, sizeof r->se);
		double *p = (double *)(buf + i * recsz + sizeof *r);
		for (size_t k = 0; k < np; k++)
			p[k] = k < x->nparams ? x->params[k] : 0;
		if (src->put)
			src->put(src->ctx, &xr);
	}
	ct = H5Tcreate(H5T_COMPOUND, recsz);
#define F(name, type) CHECK(H5Tinsert(ct, #name, HOFFSET(struct summary_rec, name), type))
	F(workload, s256);
	F(scheme, s32);
	F(config, s64);
	F(tech, s64);
	F(cycles, H5T_NATIVE_UINT64);
	F(warp_insts, H5T_NATIVE_UINT64);
	F(ipc, H5T_NATIVE_DOUBLE);
	F(seconds, H5T_NATIVE_DOUBLE);
	F(energy_j, H5T_NATIVE_DOUBLE);
	F(static_j, H5T_NATIVE_DOUBLE);
	F(avg_power_w, H5T_NATIVE_DOUBLE);
	F(area_mm2, H5T_NATIVE_DOUBLE);
	F(speedup, H5T_NATIVE_DOUBLE);
	F(energy_rel, H5T_NATIVE_DOUBLE);
	F(adp_rel, H5T_NATIVE_DOUBLE);
	F(pdp_rel, H5T_NATIVE_DOUBLE);
	F(edp_rel, H5T_NATIVE_DOUBLE);
	F(fpga_area_pct, H5T_NATIVE_DOUBLE);
	F(sm_busy_mean, H5T_NATIVE_DOUBLE);
	F(sm_speedup, H5T_NATIVE_DOUBLE);
#undef F
	for (int k = 0; k < IW_SE_COUNT; k++)
		CHECK(H5Tinsert(ct, iw_se_names[k], HOFFSET(struct summary_rec, se) + (size_t)k * sizeof(double),
				H5T_NATIVE_DOUBLE));
	for (size_t k = 0; k < np; k++)
		CHECK(H5Tinsert(ct, m->param_names[k], sizeof(struct summary_rec) + k * sizeof(double), H5T_NATIVE_DOUBLE));
	hsize_t dim = n;
	sp = H5Screate_simple(1, &dim, NULL);
	d = H5Dcreate2(f, "summary", ct, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	CHECK(d);
	if (n)
		CHECK(H5Dwrite(d, ct, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
	CHECK(attr_str(d, "description",
		       "one record per run; speedup and *_rel against inorder on the same workload and configuration"));
	CHECK(attr_str(d, "units", "cycles: cycle; seconds: s; energy_j, static_j: J; avg_power_w: W; area_mm2: mm^2; "
				   "fpga_area_pct: % of the FPGA device; ipc: warp-instructions/cycle; sm_busy_mean: cycle; "
				   "speedup, *_rel, sm_speedup: ratio; X_se: one standard error of X from the "
				   "technology file's fitted coefficients (0 without)"));
	H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(ct);
	H5Tclose(s256);
	H5Tclose(s32);
	H5Tclose(s64);
	iw_free(buf);
	return 0;
fail:
	if (d >= 0)
		H5Dclose(d);
	if (sp >= 0)
		H5Sclose(sp);
	if (ct >= 0)
		H5Tclose(ct);
	H5Tclose(s256);
	H5Tclose(s32);
	H5Tclose(s64);
	iw_free(buf);
	return -IW_ERUN;
}

_Static_assert(sizeof(hid_t) == sizeof(int64_t), "reports.h gives hid_t as int64_t");

int64_t iw_h5_kernel_type(void)
{
	hid_t ct = H5Tcreate(H5T_COMPOUND, sizeof(struct iw_kernel_stat)), s256 = utf8_type(256);
	herr_t r = H5Tinsert(ct, "name", HOFFSET(struct iw_kernel_stat, name), s256);
	for (int k = 0; k < IW_KSTAT_FIELDS; k++)
		r |= H5Tinsert(ct, iw_kstat_fields[k].name, iw_kstat_fields[k].offset,
			       iw_kstat_fields[k].is_double ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT64);
	H5Tclose(s256);
	if (r < 0) {
		H5Tclose(ct);
		return -1;
	}
	return ct;
}

/* runs/N/kernels: one record per kernel, in launch order. */
static herr_t write_kernels(hid_t g, const struct iw_run_result *run)
{
	hid_t ct = iw_h5_kernel_type();
	if (ct < 0)
		return -1;
	char units[512] = "";
	for (int k = 0; k < IW_KSTAT_FIELDS; k++)
		snprintf(units + strlen(units), sizeof units - strlen(units), "%s%s: %s", k ? "; " : "",
			 iw_kstat_fields[k].name, iw_kstat_fields[k].unit);
	hsize_t dim = run->kstats ? run->nkstats : 0;
	/* (packed: the record's members not in iw_kstat_fields stay out of the file) */
	hid_t ft = H5Tcopy(ct);
	herr_t r = ft < 0 || H5Tpack(ft) < 0 ? -1 : dset(g, "kernels", ft, ct, 1, &dim, run->kstats, units, 0);
	if (ft >= 0)
		H5Tclose(ft);
	H5Tclose(ct);
	hid_t d = r < 0 ? -1 : H5Dopen2(g, "kernels", H5P_DEFAULT);
	r = d < 0 ? -1
		  : attr_str(d, "description", "one record per kernel, in launch order; the first starts at cycle 0, each "
					       "next the cycle after the one before ended, so cycles add up to the run's");
	if (d >= 0)
		H5Dclose(d);
	return r;
}

static int write_run(hid_t f, const struct iw_row *r, size_t i, const char *path, struct iw_err *e)
{
	char gname[64];
	snprintf(gname, sizeof gname, "runs/%06zu", i);
	hid_t g = H5Gcreate2(f, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), sg = -1;
	double *tmp = NULL;
	CHECK(g);
	CHECK(attr_str(g, "workload", r->workload));
	CHECK(attr_str(g, "scheme", r->scheme));
	CHECK(attr_str(g, "config", r->config));
	CHECK(attr_str(g, "tech", r->tech));
	CHECK(attr_u64(g, "cycles", r->run.cycles));
	CHECK(attr_u64(g, "warp_insts", r->run.warp_insts));
	CHECK(attr_u64(g, "thread_insts", r->run.thread_insts));
	CHECK(attr_u64(g, "kernels", r->run.kernels));
	CHECK(attr_u64(g, "ctas", r->run.ctas));
	CHECK(attr_double(g, "ipc", r->run.ipc));
	CHECK(attr_double(g, "seconds", r->seconds));
	CHECK(attr_double(g, "energy_j", r->power.energy_j));
	CHECK(attr_double(g, "static_j", r->power.static_j));
	CHECK(attr_double(g, "avg_power_w", r->power.avg_power_w));
	/* the whole-GPU components behind energy_j (power/README.md) */
	CHECK(attr_double(g, "dynamic_j", r->power.dynamic_total_j));
	CHECK(attr_double(g, "pipeline_j", r->power.pipe_j));
	CHECK(attr_double(g, "constant_w", r->power.constant_w));
	CHECK(attr_double(g, "idle_w", r->power.idle_w));
	CHECK(attr_double(g, "clock_w", r->power.clock_w));
	CHECK(attr_double(g, "lane_static_w", r->power.lane_static_w));
	CHECK(attr_double(g, "dram_background_w", r->power.dram_background_w));
	CHECK(attr_double(g, "leakage_w", r->power.leakage_total_w));
	CHECK(attr_double(g, "area_mm2", r->area_mm2));
	CHECK(attr_double(g, "fpga_area_pct", r->fpga_area_pct));
	CHECK(attr_double(g, "speedup", r->speedup));
	CHECK(attr_double(g, "energy_rel", r->energy_rel));
	CHECK(attr_double(g, "adp_rel", r->adp_rel));
	CHECK(attr_double(g, "pdp_rel", r->pdp_rel));
	CHECK(attr_double(g, "edp_rel", r->edp_rel));
	CHECK(attr_double(g, "sm_busy_mean", r->run.sm_busy_mean));
	CHECK(attr_double(g, "sm_speedup", r->sm_speedup));
	for (int k = 0; k < IW_SE_COUNT; k++)
		CHECK(attr_double(g, iw_se_names[k], r->se[k]));
	hsize_t d1;
	d1 = IW_STALL_COUNT;
	CHECK(du64(g, "stall_cycles", 1, &d1, r->run.cnt.stall, "scheduler-cycle", 0));
	d1 = IW_A_COUNT;
	CHECK(du64(g, "activity", 1, &d1, r->run.act, "count (see /names/activity_units)", 0));
	d1 = IW_REORDER_BINS;
	CHECK(du64(g, "reorder_distance", 1, &d1, r->run.cnt.reorder_dist, "instructions (bin i = distance i+1)", 0));
	d1 = 4;
	CHECK(du64(g, "deps_found", 1, &d1, r->run.cnt.deps_found, "dependences (war_waw, raw, stop, memory)", 0));
	d1 = IW_HIST_BINS;
	CHECK(du64(g, "cu_alloc_period", 1, &d1, r->run.cnt.cu_alloc_period, "allocations (bin b = [2^(b/4), 2^((b+1)/4)) cycles)", 0));
	CHECK(du64(g, "rrs_alloc_period", 1, &d1, r->run.cnt.rrs_alloc_period, "allocations (bin b = [2^(b/4), 2^((b+1)/4)) cycles)", 0));
	CHECK(du64(g, "no_cu_stall_len", 1, &d1, r->run.cnt.no_cu_stall_len, "runs (bin b = [2^(b/4), 2^((b+1)/4)) cycles)", 0));
	uint64_t misc[] = {r->run.cnt.reorders, r->run.cnt.flushes, r->run.cnt.mask0_insts, r->run.cnt.rf_reads,
			   r->run.cnt.rf_writes, r->run.cnt.rf_reads_saved_bcast, r->run.cnt.rf_writes_saved_rename,
			   r->run.cnt.ib_occ, r->run.cnt.isb_occ, r->run.cnt.cu_occ, r->run.cnt.rrs_occ};
	d1 = IW_ARRAY_LEN(misc);
	CHECK(du64(g, "counters", 1, &d1, misc, "count (see /names/counter_units)", 0));
	d1 = IW_OCC_COUNT;
	CHECK(du64(g, "entries", 1, &d1, r->run.entries,
		   "entry, in the whole GPU (columns: /names/utilisation; 0: the scheme has none)", 0));
	double util[IW_OCC_COUNT];
	for (int k = 0; k < IW_OCC_COUNT; k++)
		util[k] = iw_utilisation(&r->run, k);
	CHECK(ddouble(g, "utilisation", 1, &d1, util,
		      "ratio: the occupancy in counters / (entries x cycles) (columns: /names/utilisation; "
		      "NaN without entries)", 0));
	d1 = IW_S_COUNT;
	CHECK(ddouble(g, "energy_by_structure", 1, &d1, r->power.dynamic_j, "J", 0));
	CHECK(ddouble(g, "leakage_by_structure", 1, &d1, r->power.leakage_w, "W", 0));
	CHECK(ddouble(g, "area_by_structure", 1, &d1, r->area.sm_um2, "um^2 per SM", 0));
	hsize_t d2[2] = {IW_S_COUNT, IW_FPGA_COUNT};
	CHECK(ddouble(g, "fpga_by_structure", 2, d2, &r->area.fpga[0][0], "LUT, LUTRAM, FF, BRAM36, DSP48E2", 0));

	CHECK(write_kernels(g, &r->run));
	if (r->sens && r->nsens) {
		hsize_t ds[2] = {r->nsens, IW_SE_COUNT};
		CHECK(ddouble(g, "model_sensitivity", 2, ds, r->sens,
			      "each column's unit (rows: /model_uncertainty/coefficients; columns: the metrics of "
			      "/names/model_sensitivity)", 0));
	}
	if (r->run.ksens && r->run.nksens && r->run.nkstats) {
		hsize_t ds[2] = {r->run.nkstats, r->run.nksens};
		CHECK(ddouble(g, "kernel_sensitivity", 2, ds, r->run.ksens,
			      "J (rows: the kernels' records; columns: /model_uncertainty/coefficients)", 0));
	}

	const struct iw_series *se = &r->run.series;
	sg = H5Gcreate2(g, "series", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	CHECK(sg);
	CHECK(attr_u64(sg, "interval_cycles", se->interval));
	d1 = se->n;
	CHECK(du64(sg, "cycles", 1, &d1, se->cycles, "cycle", 1));
	CHECK(du64(sg, "warp_insts", 1, &d1, se->insts, "warp-instruction", 1));
	hsize_t da[2] = {se->n, IW_A_COUNT};
	CHECK(du64(sg, "activity", 2, da, se->act, "count per sample (columns: /names/activities)", 1));
	tmp = iw_calloc(se->n ? se->n : 1, sizeof *tmp);
	if (!tmp) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	uint64_t acc = 0;
	double clk = r->run.cycles && r->seconds > 0 ? (double)r->run.cycles / r->seconds : 0;
	for (size_t k = 0; k < se->n; k++) {
		acc += se->cycles[k];
		tmp[k] = clk > 0 ? (double)acc / clk : 0;
	}
	CHECK(ddouble(sg, "time_s", 1, &d1, tmp, "s (end of each sample)", 1));
	if (r->power.nseries == se->n && r->power.series_w) {
		CHECK(ddouble(sg, "power_w", 1, &d1, r->power.series_w, "W", 1));
		hsize_t dp[2] = {se->n, IW_S_COUNT};
		if (r->power.series_struct_w)
			CHECK(ddouble(sg, "power_by_structure_w", 2, dp, r->power.series_struct_w, "W (columns: /names/structures)", 1));
	}
	iw_free(tmp);
	H5Gclose(sg);
	H5Gclose(g);
	return 0;
fail:
	iw_free(tmp);
	if (sg >= 0)
		H5Gclose(sg);
	if (g >= 0)
		H5Gclose(g);
	return -IW_ERUN;
}

int iw_h5_write(const char *path, const struct iw_h5_meta *m, const struct iw_row *rows, size_t n, struct iw_err *e)
{
	return iw_h5_write_sweep(path, m, NULL, rows, n, e);
}

static int array_get(void *ctx, size_t i, struct iw_row *row, struct iw_err *e)
{
	(void)e;
	*row = ((const struct iw_row *)ctx)[i]; /* shallow: the writer only reads */
	return 0;
}

int iw_h5_write_sweep(const char *path, const struct iw_h5_meta *m, const struct iw_h5_sweep *sw,
		      const struct iw_row *rows, size_t n, struct iw_err *e)
{
	struct iw_h5_source src = {n, array_get, NULL, (void *)(uintptr_t)rows};
	return iw_h5_write_source(path, m, sw, &src, e);
}

int iw_h5_write_source(const char *path, const struct iw_h5_meta *m, const struct iw_h5_sweep *sw,
		       const struct iw_h5_source *src, struct iw_err *e)
{
	size_t n = src->n;
	struct iw_out o;
	int rc = iw_out_open(&o, path, 0, e);
	if (rc)
		return rc;
	H5dont_atexit(); /* see the H5Fclose below; an error once the library runs */
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* we report errors ourselves */
	hid_t f = H5Fcreate(o.tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), g = -1;
	if (f < 0) {
		iw_out_abort(&o);
		return iw_fail(e, IW_ERUN, "%s: cannot create the HDF5 file (is the folder writable?)", path);
	}
	CHECK(attr_str(f, "tool", "issuewatt"));
	CHECK(attr_str(f, "tool_version", m->tool_version ? m->tool_version : IW_VERSION));
	CHECK(attr_str(f, "command_line", m->command_line ? m->command_line : ""));
	CHECK(attr_str(f, "config", m->config_name ? m->config_name : ""));
	CHECK(attr_str(f, "tech", m->tech_name ? m->tech_name : ""));
	char when[64];
	time_t now = time(NULL);
	struct tm tmv;
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
	CHECK(attr_str(f, "created_utc", when));
	g = H5Gcreate2(f, "provenance", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	CHECK(g);
	CHECK(text(g, "config_xml", m->config_xml ? m->config_xml : ""));
	CHECK(text(g, "tech_xml", m->tech_xml ? m->tech_xml : ""));
	if (m->tech_used_xml)
		CHECK(text(g, "tech_used_xml", m->tech_used_xml));
	H5Gclose(g);
	g = H5Gcreate2(f, "names", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	CHECK(g);
	{
		const char *an[IW_A_COUNT], *au[IW_A_COUNT], *sn[IW_S_COUNT];
		for (int a = 0; a < IW_A_COUNT; a++) {
			an[a] = iw_act_name(a);
			au[a] = iw_acts[a].unit;
		}
		for (int s = 0; s < IW_S_COUNT; s++)
			sn[s] = iw_structs[s].name;
		static const char *const cn[] = {"reorders", "flushes", "mask0_insts", "rf_reads", "rf_writes",
						 "rf_reads_saved_bcast", "rf_writes_saved_rename", "ib_occupancy",
						 "isb_occupancy", "cu_occupancy", "rrs_occupancy"};
		/* in the words of /names/activity_units (an RF read is an operand,
		 * a write a result; an occupancy integrates held entries over cycles) */
		static const char *const cu[] = {"warp-inst", "fetch-stop", "warp-inst", "operand", "result",
						 "operand", "result", "entry-cycle", "entry-cycle", "entry-cycle",
						 "entry-cycle"};
		_Static_assert(IW_ARRAY_LEN(cn) == IW_ARRAY_LEN(cu), "a unit per counter");
		CHECK(names(g, "activities", an, IW_A_COUNT));
		CHECK(names(g, "activity_units", au, IW_A_COUNT));
		CHECK(names(g, "structures", sn, IW_S_COUNT));
		CHECK(names(g, "stalls", (const char *const *)iw_stall_name, IW_STALL_COUNT));
		CHECK(names(g, "counters", cn, IW_ARRAY_LEN(cn)));
		CHECK(names(g, "counter_units", cu, IW_ARRAY_LEN(cu)));
		CHECK(names(g, "utilisation", (const char *const *)iw_occ_name, IW_OCC_COUNT));
		CHECK(names(g, "fpga_resources", (const char *const *)iw_fpga_res_name, IW_FPGA_COUNT));
		/* the metrics whose errors the rows carry: iw_se_names without "_se" */
		char mn[IW_SE_COUNT][32];
		const char *mp[IW_SE_COUNT];
		for (int k = 0; k < IW_SE_COUNT; k++) {
			snprintf(mn[k], sizeof mn[k], "%.*s", (int)strlen(iw_se_names[k]) - 3, iw_se_names[k]);
			mp[k] = mn[k];
		}
		CHECK(names(g, "model_sensitivity", mp, IW_SE_COUNT));
	}
	H5Gclose(g);
	g = -1;
	if (m->unc && m->unc->n) {
		/* The coefficients the rows' sensitivities refer to. */
		const struct iw_model_unc *u = m->unc;
		g = H5Gcreate2(f, "model_uncertainty", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		CHECK(g);
		CHECK(attr_str(g, "description",
			       "the technology file's coefficients with a standard error; runs/N/model_sensitivity[k][m] "
			       "is the change of metric m when coefficient k moves by one standard error, and a metric's "
			       "X_se is sqrt(sum_jk d_j d_k correlation[j][k])"));
		const char **cn = iw_malloc(u->n * sizeof *cn);
		if (!cn) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		for (size_t k = 0; k < u->n; k++)
			cn[k] = u->names[k];
		herr_t hr = names(g, "coefficients", cn, u->n);
		iw_free(cn);
		CHECK(hr);
		hsize_t dn = u->n, dc[2] = {u->n, u->n};
		CHECK(ddouble(g, "std_error", 1, &dn, u->std_error, "each coefficient's unit", 0));
		CHECK(ddouble(g, "correlation", 2, dc, u->corr, "1", 0));
		H5Gclose(g);
		g = -1;
	}
	g = H5Gcreate2(f, "runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	CHECK(g);
	H5Gclose(g);
	g = -1;
	if (sw) {
		g = H5Gcreate2(f, "sweep", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		CHECK(g);
		CHECK(text(g, "spec_xml", sw->spec_xml));
		hsize_t dn = n;
		CHECK(du64(g, "point", 1, &dn, sw->point_ids, "canonical row index in the sweep", 0));
		H5Gclose(g);
		g = -1;
	}
	rc = write_summary(f, m, src, n, path, e);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* one row at a time: a source may stream rows from disk */
		struct iw_row x;
		rc = src->get(src->ctx, i, &x, e);
		if (rc == 0) {
			rc = write_run(f, &x, i, path, e);
			if (src->put)
				src->put(src->ctx, &x);
		}
	}
	if (rc)
		goto fail;
	{
		/* A close whose final flush fails (disk full) leaves HDF5 1.10 with a
		 * half-closed file: closing it again, or the library's own clean-up
		 * at exit, then crashes.  So never close it twice, and (set up
		 * before the library starts) skip that clean-up. */
		herr_t closed = H5Fclose(f);
		f = -1;
		CHECK(closed);
	}
	return iw_out_commit(&o, e);
fail:
	if (g >= 0)
		H5Gclose(g);
	if (f >= 0)
		H5Fclose(f);
	iw_out_abort(&o);
	return e->code ? -e->code : -IW_ERUN;
}
