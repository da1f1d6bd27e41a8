/*
 * reports/merge_h5read.c -- a results file read back into rows: the inverse
 * of reports/h5out.c for every field it stores, so that resuming, merging and
 * reporting work on exactly the numbers that were written (HDF5 stores IEEE
 * doubles and u64 as they are: writing the rows again is bit-identical).
 */
#include "reports.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <math.h>
#include <string.h>

#define RCHECK(x, what)                                                                            \
	do {                                                                                       \
		if ((x) < 0) { /* (unless the cause is known already: no memory) */              \
			if (!e->code)                                                              \
				iw_fail(e, IW_EINPUT, "%s: expected %s in an issuewatt results file", path, what); \
			goto fail;                                                                 \
		}                                                                                  \
	} while (0)

/* A string attribute or scalar string dataset, fixed or variable length;
 * NULL if absent or unreadable, or (with e set) if out of memory. */
static char *read_str(hid_t obj, const char *name, int is_dataset, struct iw_err *e)
{
	hid_t a = is_dataset ? H5Dopen2(obj, name, H5P_DEFAULT) : H5Aopen(obj, name, H5P_DEFAULT);
	if (a < 0)
		return NULL;
	hid_t ft = is_dataset ? H5Dget_type(a) : H5Aget_type(a);
	char *out = NULL;
	if (H5Tis_variable_str(ft) > 0) {
		char *v = NULL;
		hid_t mt = H5Tcopy(H5T_C_S1);
		H5Tset_size(mt, H5T_VARIABLE);
		H5Tset_cset(mt, H5Tget_cset(ft));
		if ((is_dataset ? H5Dread(a, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) : H5Aread(a, mt, &v)) >= 0 && v) {
			if (!(out = iw_strdup(v)))
				iw_fail(e, IW_ERUN, "out of memory");
			H5free_memory(v);
		}
		H5Tclose(mt);
	} else {
		size_t sz = H5Tget_size(ft);
		if (!(out = iw_calloc(sz + 1, 1)))
			iw_fail(e, IW_ERUN, "out of memory");
		hid_t mt = H5Tcopy(H5T_C_S1);
		H5Tset_size(mt, sz + 1);
		H5Tset_cset(mt, H5Tget_cset(ft));
		if (out && (is_dataset ? H5Dread(a, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) : H5Aread(a, mt, out)) < 0) {
			iw_free(out);
			out = NULL;
		}
		H5Tclose(mt);
	}
	H5Tclose(ft);
	if (is_dataset)
		H5Dclose(a);
	else
		H5Aclose(a);
	return out;
}

static int attr_str_into(hid_t g, const char *name, char *dst, size_t n, struct iw_err *e)
{
	char *s = read_str(g, name, 0, e);
	if (!s)
		return -1;
	snprintf(dst, n, "%s", s);
	iw_free(s);
	return 0;
}

static herr_t attr_u64(hid_t g, const char *name, uint64_t *v)
{
	hid_t a = H5Aopen(g, name, H5P_DEFAULT);
	if (a < 0)
		return -1;
	herr_t r = H5Aread(a, H5T_NATIVE_UINT64, v);
	H5Aclose(a);
	return r;
}

static herr_t attr_dbl(hid_t g, const char *name, double *v)
{
	hid_t a = H5Aopen(g, name, H5P_DEFAULT);
	if (a < 0)
		return -1;
	herr_t r = H5Aread(a, H5T_NATIVE_DOUBLE, v);
	H5Aclose(a);
	return r;
}

/* Number of elements of a dataset, or -1 if absent. */
static long long dset_len(hid_t g, const char *name)
{
	if (H5Lexists(g, name, H5P_DEFAULT) <= 0)
		return -1;
	hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
	if (d < 0)
		return -1;
	hid_t sp = H5Dget_space(d);
	long long n = (long long)H5Sget_simple_extent_npoints(sp);
	H5Sclose(sp);
	H5Dclose(d);
	return n;
}

/* Read a dataset of exactly `n` elements into `buf` (an empty one reads nothing). */
static herr_t dread(hid_t g, const char *name, hid_t mt, void *buf, size_t n)
{
	if (dset_len(g, name) != (long long)n)
		return -1;
	if (n == 0)
		return 0;
	hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
	herr_t r = H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
	H5Dclose(d);
	return r;
}

/* A 1-D dataset of n strings into names (each cut at 63 bytes). */
static herr_t read_names(hid_t g, const char *name, char (*out)[64], size_t n, struct iw_err *e)
{
	if (dset_len(g, name) != (long long)n)
		return -1;
	hid_t d = H5Dopen2(g, name, H5P_DEFAULT), ft = d < 0 ? -1 : H5Dget_type(d);
	herr_t r = ft < 0 || H5Tis_variable_str(ft) <= 0 ? -1 : 0;
	char **v = r < 0 ? NULL : iw_calloc(n ? n : 1, sizeof *v);
	if (r == 0 && !v)
		iw_fail(e, IW_ERUN, "out of memory");
	hid_t mt = H5Tcopy(H5T_C_S1);
	H5Tset_size(mt, H5T_VARIABLE);
	H5Tset_cset(mt, H5T_CSET_UTF8);
	r = v && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 ? 0 : -1;
	for (size_t k = 0; v && k < n; k++) {
		if (!v[k])
			r = -1;
		else
			snprintf(out[k], sizeof out[k], "%s", v[k]);
		H5free_memory(v[k]);
	}
	iw_free(v);
	H5Tclose(mt);
	if (ft >= 0)
		H5Tclose(ft);
	if (d >= 0)
		H5Dclose(d);
	return r;
}

/* /model_uncertainty (files without it, or of earlier versions: none). */
static int read_unc(hid_t f, struct iw_model_unc *u, const char *path, struct iw_err *e)
{
	memset(u, 0, sizeof *u);
	if (H5Lexists(f, "model_uncertainty", H5P_DEFAULT) <= 0)
		return 0;
	hid_t g = H5Gopen2(f, "model_uncertainty", H5P_DEFAULT);
	RCHECK(g, "a /model_uncertainty group");
	long long n = dset_len(g, "coefficients");
	RCHECK(n > 0 ? 0 : -1, "/model_uncertainty/coefficients");
	u->names = iw_calloc((size_t)n, sizeof *u->names);
	u->std_error = iw_calloc((size_t)n, sizeof *u->std_error);
	u->corr = iw_calloc((size_t)(n * n), sizeof *u->corr);
	if (!u->names || !u->std_error || !u->corr) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	u->n = (size_t)n;
	RCHECK(read_names(g, "coefficients", u->names, u->n, e), "/model_uncertainty/coefficients as strings");
	RCHECK(dread(g, "std_error", H5T_NATIVE_DOUBLE, u->std_error, u->n),
	       "/model_uncertainty/std_error with one value per coefficient");
	RCHECK(dread(g, "correlation", H5T_NATIVE_DOUBLE, u->corr, u->n * u->n),
	       "/model_uncertainty/correlation of coefficients x coefficients");
	H5Gclose(g);
	return 0;
fail:
	if (g >= 0)
		H5Gclose(g);
	iw_model_unc_free(u);
	return -e->code;
}

static int read_run(hid_t f, size_t i, struct iw_row *r, size_t nunc, const char *path, struct iw_err *e)
{
	char gname[64];
	snprintf(gname, sizeof gname, "runs/%06zu", i);
	hid_t g = H5Gopen2(f, gname, H5P_DEFAULT), sg = -1;
	RCHECK(g, gname);
	RCHECK(attr_str_into(g, "workload", r->workload, sizeof r->workload, e), "a workload attribute");
	RCHECK(attr_str_into(g, "scheme", r->scheme, sizeof r->scheme, e), "a scheme attribute");
	RCHECK(attr_str_into(g, "config", r->config, sizeof r->config, e), "a config attribute");
	RCHECK(attr_str_into(g, "tech", r->tech, sizeof r->tech, e), "a tech attribute");
	snprintf(r->run.workload, sizeof r->run.workload, "%s", r->workload);
	snprintf(r->run.scheme, sizeof r->run.scheme, "%s", r->scheme);
	RCHECK(attr_u64(g, "cycles", &r->run.cycles), "cycles");
	RCHECK(attr_u64(g, "warp_insts", &r->run.warp_insts), "warp_insts");
	RCHECK(attr_u64(g, "thread_insts", &r->run.thread_insts), "thread_insts");
	RCHECK(attr_u64(g, "kernels", &r->run.kernels), "kernels");
	RCHECK(attr_u64(g, "ctas", &r->run.ctas), "ctas");
	RCHECK(attr_dbl(g, "ipc", &r->run.ipc), "ipc");
	RCHECK(attr_dbl(g, "seconds", &r->seconds), "seconds");
	RCHECK(attr_dbl(g, "energy_j", &r->power.energy_j), "energy_j");
	RCHECK(attr_dbl(g, "static_j", &r->power.static_j), "static_j");
	RCHECK(attr_dbl(g, "avg_power_w", &r->power.avg_power_w), "avg_power_w");
	RCHECK(attr_dbl(g, "dynamic_j", &r->power.dynamic_total_j), "dynamic_j");
	RCHECK(attr_dbl(g, "pipeline_j", &r->power.pipe_j), "pipeline_j");
	RCHECK(attr_dbl(g, "constant_w", &r->power.constant_w), "constant_w");
	RCHECK(attr_dbl(g, "idle_w", &r->power.idle_w), "idle_w");
	RCHECK(attr_dbl(g, "clock_w", &r->power.clock_w), "clock_w");
	RCHECK(attr_dbl(g, "lane_static_w", &r->power.lane_static_w), "lane_static_w");
	RCHECK(attr_dbl(g, "dram_background_w", &r->power.dram_background_w), "dram_background_w");
	RCHECK(attr_dbl(g, "leakage_w", &r->power.leakage_total_w), "leakage_w");
	RCHECK(attr_dbl(g, "area_mm2", &r->area_mm2), "area_mm2");
	if (H5Aexists(g, "fpga_area_pct") > 0) /* (files of earlier versions lack it: 0) */
		RCHECK(attr_dbl(g, "fpga_area_pct", &r->fpga_area_pct), "fpga_area_pct");
	RCHECK(attr_dbl(g, "speedup", &r->speedup), "speedup");
	RCHECK(attr_dbl(g, "energy_rel", &r->energy_rel), "energy_rel");
	RCHECK(attr_dbl(g, "adp_rel", &r->adp_rel), "adp_rel");
	RCHECK(attr_dbl(g, "pdp_rel", &r->pdp_rel), "pdp_rel");
	RCHECK(attr_dbl(g, "edp_rel", &r->edp_rel), "edp_rel");
	/* (files of earlier versions lack these: NAN, not a number that looks measured) */
	r->run.sm_busy_mean = r->sm_speedup = NAN;
	if (H5Aexists(g, "sm_busy_mean") > 0)
		RCHECK(attr_dbl(g, "sm_busy_mean", &r->run.sm_busy_mean), "sm_busy_mean");
	if (H5Aexists(g, "sm_speedup") > 0)
		RCHECK(attr_dbl(g, "sm_speedup", &r->sm_speedup), "sm_speedup");
	for (int k = 0; k < IW_SE_COUNT; k++) /* (files of earlier versions lack them: 0) */
		if (H5Aexists(g, iw_se_names[k]) > 0)
			RCHECK(attr_dbl(g, iw_se_names[k], &r->se[k]), iw_se_names[k]);
	r->power.seconds = r->seconds;
	RCHECK(dread(g, "stall_cycles", H5T_NATIVE_UINT64, r->run.cnt.stall, IW_STALL_COUNT), "stall_cycles");
	RCHECK(dread(g, "activity", H5T_NATIVE_UINT64, r->run.act, IW_A_COUNT), "activity");
	RCHECK(dread(g, "reorder_distance", H5T_NATIVE_UINT64, r->run.cnt.reorder_dist, IW_REORDER_BINS),
	       "reorder_distance");
	RCHECK(dread(g, "deps_found", H5T_NATIVE_UINT64, r->run.cnt.deps_found, 4), "deps_found");
	RCHECK(dread(g, "cu_alloc_period", H5T_NATIVE_UINT64, r->run.cnt.cu_alloc_period, IW_HIST_BINS),
	       "cu_alloc_period");
	RCHECK(dread(g, "rrs_alloc_period", H5T_NATIVE_UINT64, r->run.cnt.rrs_alloc_period, IW_HIST_BINS),
	       "rrs_alloc_period");
	RCHECK(dread(g, "no_cu_stall_len", H5T_NATIVE_UINT64, r->run.cnt.no_cu_stall_len, IW_HIST_BINS),
	       "no_cu_stall_len");
	uint64_t misc[11];
	RCHECK(dread(g, "counters", H5T_NATIVE_UINT64, misc, 11), "counters");
	struct iw_counters *c = &r->run.cnt;
	c->reorders = misc[0];
	c->flushes = misc[1];
	c->mask0_insts = misc[2];
	c->rf_reads = misc[3];
	c->rf_writes = misc[4];
	c->rf_reads_saved_bcast = misc[5];
	c->rf_writes_saved_rename = misc[6];
	c->ib_occ = misc[7];
	c->isb_occ = misc[8];
	c->cu_occ = misc[9];
	c->rrs_occ = misc[10];
	/* (files of earlier versions lack the capacities: 0, no utilisation) */
	if (H5Lexists(g, "entries", H5P_DEFAULT) > 0)
		RCHECK(dread(g, "entries", H5T_NATIVE_UINT64, r->run.entries, IW_OCC_COUNT), "entries");
	RCHECK(dread(g, "energy_by_structure", H5T_NATIVE_DOUBLE, r->power.dynamic_j, IW_S_COUNT), "energy_by_structure");
	RCHECK(dread(g, "leakage_by_structure", H5T_NATIVE_DOUBLE, r->power.leakage_w, IW_S_COUNT),
	       "leakage_by_structure");
	RCHECK(dread(g, "area_by_structure", H5T_NATIVE_DOUBLE, r->area.sm_um2, IW_S_COUNT), "area_by_structure");
	RCHECK(dread(g, "fpga_by_structure", H5T_NATIVE_DOUBLE, &r->area.fpga[0][0], IW_S_COUNT * IW_FPGA_COUNT),
	       "fpga_by_structure");

	if (H5Lexists(g, "model_sensitivity", H5P_DEFAULT) > 0) {
		r->sens = iw_calloc(nunc ? nunc * IW_SE_COUNT : 1, sizeof *r->sens);
		if (!r->sens) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		char what[160];
		snprintf(what, sizeof what, "%s/model_sensitivity with one row per /model_uncertainty coefficient", gname);
		RCHECK(nunc ? dread(g, "model_sensitivity", H5T_NATIVE_DOUBLE, r->sens, nunc * IW_SE_COUNT) : -1, what);
		r->nsens = nunc;
	}
	/* (files of earlier versions lack the kernel records: none) */
	long long nk = dset_len(g, "kernels");
	if (nk > 0) {
		r->run.kstats = iw_calloc((size_t)nk, sizeof *r->run.kstats);
		if (!r->run.kstats) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		r->run.nkstats = (size_t)nk;
		hid_t kt = iw_h5_kernel_type(), kd = kt < 0 ? -1 : H5Dopen2(g, "kernels", H5P_DEFAULT);
		herr_t kr = kd < 0 ? -1 : H5Dread(kd, kt, H5S_ALL, H5S_ALL, H5P_DEFAULT, r->run.kstats);
		if (kd >= 0)
			H5Dclose(kd);
		if (kt >= 0)
			H5Tclose(kt);
		RCHECK(kr, "kernels");
	}
	if (H5Lexists(g, "kernel_sensitivity", H5P_DEFAULT) > 0) {
		size_t nks = r->run.nkstats * nunc;
		r->run.ksens = iw_calloc(nks ? nks : 1, sizeof *r->run.ksens);
		if (!r->run.ksens) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		char what[200];
		snprintf(what, sizeof what,
			 "%s/kernel_sensitivity with one row per kernel record and one column per /model_uncertainty "
			 "coefficient", gname);
		RCHECK(nks ? dread(g, "kernel_sensitivity", H5T_NATIVE_DOUBLE, r->run.ksens, nks) : -1, what);
		r->run.nksens = nunc;
	}

	sg = H5Gopen2(g, "series", H5P_DEFAULT);
	RCHECK(sg, "a series group");
	struct iw_series *se = &r->run.series;
	RCHECK(attr_u64(sg, "interval_cycles", &se->interval), "series interval_cycles");
	long long n = dset_len(sg, "cycles");
	RCHECK(n, "series/cycles");
	se->n = se->cap = (size_t)n;
	size_t alloc = se->n ? se->n : 1;
	se->cycles = iw_calloc(alloc, sizeof *se->cycles);
	se->insts = iw_calloc(alloc, sizeof *se->insts);
	se->act = iw_calloc(alloc * IW_A_COUNT, sizeof *se->act);
	if (!se->cycles || !se->insts || !se->act) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	RCHECK(dread(sg, "cycles", H5T_NATIVE_UINT64, se->cycles, se->n), "series/cycles");
	RCHECK(dread(sg, "warp_insts", H5T_NATIVE_UINT64, se->insts, se->n), "series/warp_insts");
	RCHECK(dread(sg, "activity", H5T_NATIVE_UINT64, se->act, se->n * IW_A_COUNT), "series/activity");
	if (dset_len(sg, "power_w") == n) {
		r->power.nseries = se->n;
		r->power.series_w = iw_calloc(alloc, sizeof(double));
		if (!r->power.series_w) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		RCHECK(dread(sg, "power_w", H5T_NATIVE_DOUBLE, r->power.series_w, se->n), "series/power_w");
		if (dset_len(sg, "power_by_structure_w") == n * IW_S_COUNT) {
			r->power.series_struct_w = iw_calloc(alloc * IW_S_COUNT, sizeof(double));
			if (!r->power.series_struct_w) {
				iw_fail(e, IW_ERUN, "out of memory");
				goto fail;
			}
			RCHECK(dread(sg, "power_by_structure_w", H5T_NATIVE_DOUBLE, r->power.series_struct_w,
				     se->n * IW_S_COUNT),
			       "series/power_by_structure_w");
		}
	}
	H5Gclose(sg);
	H5Gclose(g);
	return 0;
fail:
	if (sg >= 0)
		H5Gclose(sg);
	if (g >= 0)
		H5Gclose(g);
	return -e->code;
}

static const char *const fixed_cols[] = {"workload", "scheme", "config", "tech", "cycles", "warp_insts",
					 "ipc", "seconds", "energy_j", "static_j", "avg_power_w", "area_mm2",
					 "speedup", "energy_rel", "adp_rel", "pdp_rel", "edp_rel", "fpga_area_pct",
					 "sm_busy_mean", "sm_speedup"};

/* The sweep parameters: /summary members that are not the fixed columns. */
static int read_params(hid_t f, struct iw_results *res, const char *path, struct iw_err *e)
{
	hid_t d = H5Dopen2(f, "summary", H5P_DEFAULT), ft = -1, mt = -1;
	double *buf = NULL;
	RCHECK(d, "a /summary table");
	ft = H5Dget_type(d);
	int nm = H5Tget_nmembers(ft);
	RCHECK(nm, "a compound /summary table");
	res->param_names = iw_calloc((size_t)nm + 1, sizeof *res->param_names);
	if (!res->param_names) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	for (int k = 0; k < nm; k++) {
		char *name = H5Tget_member_name(ft, (unsigned)k);
		int fixed = 0;
		for (size_t j = 0; name && j < IW_ARRAY_LEN(fixed_cols); j++)
			fixed |= strcmp(name, fixed_cols[j]) == 0;
		for (int j = 0; name && j < IW_SE_COUNT; j++)
			fixed |= strcmp(name, iw_se_names[j]) == 0;
		if (name && !fixed)
			res->param_names[res->nparams++] = iw_strdup(name);
		H5free_memory(name);
	}
	buf = iw_calloc(res->n ? res->n : 1, sizeof *buf);
	if (!buf) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	for (size_t k = 0; k < res->nparams; k++) {
		if (!res->param_names[k]) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		mt = H5Tcreate(H5T_COMPOUND, sizeof(double));
		H5Tinsert(mt, res->param_names[k], 0, H5T_NATIVE_DOUBLE);
		if (res->n)
			RCHECK(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), "readable /summary parameters");
		H5Tclose(mt);
		mt = -1;
		for (size_t i = 0; i < res->n; i++) {
			struct iw_row *r = &res->rows[i];
			if (!r->params && !(r->params = iw_calloc(res->nparams, sizeof(double)))) {
				iw_fail(e, IW_ERUN, "out of memory");
				goto fail;
			}
			r->nparams = res->nparams;
			r->params[k] = buf[i];
		}
	}
	iw_free(buf);
	H5Tclose(ft);
	H5Dclose(d);
	return 0;
fail:
	iw_free(buf);
	if (mt >= 0)
		H5Tclose(mt);
	if (ft >= 0)
		H5Tclose(ft);
	if (d >= 0)
		H5Dclose(d);
	return -e->code;
}

int iw_h5_read(const char *path, struct iw_results *res, struct iw_err *e)
{
	memset(res, 0, sizeof *res);
	iw_err_clear(e); /* (a code set on the way is the cause: see RCHECK) */
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	if (H5Fis_hdf5(path) <= 0)
		return iw_fail(e, IW_EINPUT, "%s: expected an HDF5 results file (missing or not HDF5)", path);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), g = -1;
	if (f < 0) /* an HDF5 signature, and then not a whole file: most often a copy cut short */
		return iw_fail(e, IW_EINPUT, "%s: expected a complete HDF5 file, found one HDF5 cannot open: is it truncated?",
			       path);
	char *tool = read_str(f, "tool", 0, e);
	int ok = tool && strcmp(tool, "issuewatt") == 0;
	iw_free(tool);
	if (!ok) {
		if (!e->code)
			iw_fail(e, IW_EINPUT, "%s: expected an issuewatt results file (root attribute tool=issuewatt)", path);
		goto fail;
	}
	res->tool_version = read_str(f, "tool_version", 0, e);
	res->command_line = read_str(f, "command_line", 0, e);
	res->config_name = read_str(f, "config", 0, e);
	res->tech_name = read_str(f, "tech", 0, e);
	res->config_xml = read_str(f, "provenance/config_xml", 1, e);
	res->tech_xml = read_str(f, "provenance/tech_xml", 1, e);
	res->tech_used_xml = read_str(f, "provenance/tech_used_xml", 1, e);
	if (e->code) /* (out of memory: absent ones are NULL) */
		goto fail;
	long long n = dset_len(f, "summary");
	RCHECK(n, "a /summary table");
	res->n = (size_t)n;
	res->rows = iw_calloc(res->n ? res->n : 1, sizeof *res->rows);
	if (!res->rows) {
		iw_fail(e, IW_ERUN, "out of memory");
		goto fail;
	}
	if (H5Lexists(f, "sweep", H5P_DEFAULT) > 0) {
		g = H5Gopen2(f, "sweep", H5P_DEFAULT);
		RCHECK(g, "a /sweep group");
		res->sweep_xml = read_str(g, "spec_xml", 1, e);
		RCHECK(res->sweep_xml ? 0 : -1, "/sweep/spec_xml");
		res->point_ids = iw_calloc(res->n ? res->n : 1, sizeof *res->point_ids);
		if (!res->point_ids) {
			iw_fail(e, IW_ERUN, "out of memory");
			goto fail;
		}
		RCHECK(dread(g, "point", H5T_NATIVE_UINT64, res->point_ids, res->n), "/sweep/point with one entry per run");
		H5Gclose(g);
		g = -1;
	}
	if (read_unc(f, &res->unc, path, e))
		goto fail;
	for (size_t i = 0; i < res->n; i++)
		if (read_run(f, i, &res->rows[i], res->unc.n, path, e))
			goto fail;
	if (read_params(f, res, path, e))
		goto fail;
	H5Fclose(f);
	return 0;
fail:
	if (g >= 0)
		H5Gclose(g);
	if (f >= 0)
		H5Fclose(f);
	iw_results_free(res);
	return e->code ? -e->code : -IW_EINPUT;
}

void iw_results_row_free(struct iw_row *r)
{
	/* The power series were allocated here, whatever power/ does with its own. */
	iw_free(r->power.series_w);
	iw_free(r->power.series_struct_w);
	r->power.series_w = r->power.series_struct_w = NULL;
	r->power.nseries = 0;
	iw_row_free(r);
}

void iw_results_free(struct iw_results *r)
{
	for (size_t i = 0; r->rows && i < r->n; i++)
		iw_results_row_free(&r->rows[i]);
	for (size_t k = 0; r->param_names && k < r->nparams; k++)
		iw_free(r->param_names[k]);
	iw_free(r->param_names);
	iw_free(r->rows);
	iw_free(r->point_ids);
	iw_free(r->tool_version);
	iw_free(r->command_line);
	iw_free(r->config_name);
	iw_free(r->tech_name);
	iw_free(r->config_xml);
	iw_free(r->tech_xml);
	iw_free(r->tech_used_xml);
	iw_free(r->sweep_xml);
	iw_model_unc_free(&r->unc);
	memset(r, 0, sizeof *r);
}
