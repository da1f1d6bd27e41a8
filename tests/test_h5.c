/* tests/test_h5.c -- the HDF5 result file read back through the C API, and
 * determinism of a whole run. */
#include "reports.h"
#include "testutil.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct iw_inst op(int unit, int dst, int s0)
{
	struct iw_inst in;
	memset(&in, 0, sizeof in);
	in.mask = 0xffffffffu;
	in.unit = (uint8_t)unit;
	in.maddr = IW_MADDR_NONE;
	in.dst[0] = (uint16_t)dst;
	in.ndst = 1;
	in.src[0] = (uint16_t)s0;
	in.nsrc = 1;
	return in;
}

static int make_rows(struct iw_row *rows, struct iw_config *c, struct iw_tech *t)
{
	struct iw_err e = {0};
	iw_config_defaults(c);
	c->sms = 2;
	c->interval = 50;
	if (iw_tech_load(t, "12nm", &e))
		return -1;
	enum { N = 300 };
	struct iw_inst prog[N];
	for (int i = 0; i < N; i++)
		prog[i] = op(i % 3 ? IW_UNIT_SP : IW_UNIT_INT, 1 + i % 7, 1 + (i + 2) % 7);
	for (int k = 0; k < 2; k++) {
		struct iw_workload *w;
		if (iw_program_open("prog", prog, N, 6, 4, &w, &e))
			return -1;
		memset(&rows[k], 0, sizeof rows[k]);
		struct iw_sim_opts o = {.cfg = c, .scheme = "inorder"};
		int rc = iw_simulate(&o, w, &rows[k].run, &e);
		iw_workload_close(w);
		snprintf(rows[k].workload, sizeof rows[k].workload, "prog");
		snprintf(rows[k].scheme, sizeof rows[k].scheme, "inorder");
		if (rc || iw_row_price(&rows[k], c, t, &e))
			return -1;
		iw_row_metrics(&rows[k], &rows[0]);
	}
	return 0;
}

static void round_trip_through_the_c_api(void)
{
	struct iw_row rows[2];
	struct iw_config c;
	struct iw_tech t;
	CU_ASSERT_EQUAL_FATAL(make_rows(rows, &c, &t), 0);
	char path[600];
	snprintf(path, sizeof path, "%s/r.h5", tu_tmpdir());
	struct iw_err e = {0};
	struct iw_h5_meta m = {"issuewatt test", "default", "<gpu-config/>", t.name, "", NULL, 0, NULL, NULL, NULL};
	CU_ASSERT_EQUAL_FATAL(iw_h5_write(path, &m, rows, 2, &e), 0);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	CU_ASSERT_FATAL(f >= 0);
	/* summary: two records with the run's cycles */
	hsize_t n = 0;
	hid_t d = H5Dopen2(f, "summary", H5P_DEFAULT);
	hid_t sp = H5Dget_space(d);
	H5Sget_simple_extent_dims(sp, &n, NULL);
	CU_ASSERT_EQUAL(n, 2);
	struct {
		uint64_t cycles;
		double speedup;
	} rec[2];
	hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof rec[0]);
	H5Tinsert(mt, "cycles", 0, H5T_NATIVE_UINT64);
	H5Tinsert(mt, "speedup", sizeof(uint64_t), H5T_NATIVE_DOUBLE);
	CU_ASSERT(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rec) >= 0);
	CU_ASSERT_EQUAL(rec[0].cycles, rows[0].run.cycles);
	CU_ASSERT_DOUBLE_EQUAL(rec[1].speedup, 1.0, 1e-12);
	H5Tclose(mt);
	H5Sclose(sp);
	H5Dclose(d);
	/* the activity series: samples x activities, summing to the totals */
	d = H5Dopen2(f, "runs/000000/series/activity", H5P_DEFAULT);
	CU_ASSERT_FATAL(d >= 0);
	sp = H5Dget_space(d);
	hsize_t dims[2];
	H5Sget_simple_extent_dims(sp, dims, NULL);
	CU_ASSERT_EQUAL(dims[0], rows[0].run.series.n);
	CU_ASSERT_EQUAL(dims[1], IW_A_COUNT);
	uint64_t *act = iw_calloc(dims[0] * dims[1], sizeof *act);
	CU_ASSERT(H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, act) >= 0);
	uint64_t sum = 0;
	for (hsize_t i = 0; i < dims[0]; i++)
		sum += act[i * IW_A_COUNT + IW_A_FETCH_INST];
	CU_ASSERT_EQUAL(sum, rows[0].run.warp_insts);
	iw_free(act);
	/* units are string attributes */
	char units[128] = "";
	hid_t a = H5Aopen(d, "units", H5P_DEFAULT);
	hid_t at = H5Aget_type(a);
	CU_ASSERT(H5Aread(a, at, units) >= 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(units, "count"));
	H5Tclose(at);
	H5Aclose(a);
	H5Sclose(sp);
	H5Dclose(d);
	H5Fclose(f);
	for (int k = 0; k < 2; k++)
		iw_row_free(&rows[k]);
	iw_tech_free(&t);
}

/* A names dataset (variable-length UTF-8 strings) into v; their count, or -1. */
static int read_names(hid_t f, const char *name, char **v, int max)
{
	hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
	if (d < 0)
		return -1;
	hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
	hsize_t n = 0;
	H5Sget_simple_extent_dims(sp, &n, NULL);
	int rc = n <= (hsize_t)max && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 ? (int)n : -1;
	H5Tclose(t);
	H5Sclose(sp);
	H5Dclose(d);
	return rc;
}

/* A dataset's (or attribute holder's) string attribute into buf. */
static int read_attr(hid_t f, const char *obj, const char *name, char *buf, size_t len)
{
	memset(buf, 0, len);
	hid_t a = H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT);
	if (a < 0)
		return -1;
	hid_t t = H5Aget_type(a);
	int rc = H5Tget_size(t) < len && H5Aread(a, t, buf) >= 0 ? 0 : -1;
	H5Tclose(t);
	H5Aclose(a);
	return rc;
}

/* Every entry of runs/N/counters has its unit: /names/counter_units,
 * parallel to /names/counters (as /names/activity_units is to activities),
 * and the dataset's units attribute names it. */
static void counters_carry_units(void)
{
	struct iw_row rows[2];
	struct iw_config c;
	struct iw_tech t;
	CU_ASSERT_EQUAL_FATAL(make_rows(rows, &c, &t), 0);
	char path[600];
	snprintf(path, sizeof path, "%s/units.h5", tu_tmpdir());
	struct iw_err e = {0};
	struct iw_h5_meta m = {"issuewatt test", "default", "<gpu-config/>", t.name, "", NULL, 0, NULL, NULL, NULL};
	CU_ASSERT_EQUAL_FATAL(iw_h5_write(path, &m, rows, 2, &e), 0);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	CU_ASSERT_FATAL(f >= 0);
	char *cn[32] = {0}, *cu[32] = {0};
	int n = read_names(f, "names/counters", cn, 32), nu = read_names(f, "names/counter_units", cu, 32);
	CU_ASSERT_EQUAL(n, 11);
	CU_ASSERT_EQUAL(nu, n);
	for (int k = 0; k < n && k < nu; k++) {
		CU_ASSERT(cu[k] && cu[k][0]);
		if (strcmp(cn[k], "rf_reads") == 0)
			CU_ASSERT_STRING_EQUAL(cu[k], "operand");
		if (strstr(cn[k], "_occupancy"))
			CU_ASSERT_STRING_EQUAL(cu[k], "entry-cycle");
	}
	for (int k = 0; k < 32; k++) {
		H5free_memory(cn[k]);
		H5free_memory(cu[k]);
	}
	char units[256];
	CU_ASSERT_EQUAL(read_attr(f, "runs/000000/counters", "units", units, sizeof units), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(units, "/names/counter_units"));
	H5Fclose(f);
	for (int k = 0; k < 2; k++)
		iw_row_free(&rows[k]);
	iw_tech_free(&t);
}

/* The value of "key": in the JSON object "obj" of the first run of scheme sc
 * (NaN for null or none). */
static double json_run_value(const char *json, const char *sc, const char *obj, const char *key)
{
	char k[160];
	snprintf(k, sizeof k, "\"scheme\": \"%s\"", sc);
	const char *p = strstr(json, k);
	snprintf(k, sizeof k, "\"%s\": {", obj);
	p = p ? strstr(p, k) : NULL;
	snprintf(k, sizeof k, "\"%s\": ", key);
	p = p ? strstr(p, k) : NULL;
	double v;
	return p && sscanf(p + strlen(k), "%lf", &v) == 1 ? v : NAN;
}

/* CU and RRS utilisation (SCHEMES.md section 5) can be read from the run:
 * the HDF5 file has each structure's entries and its utilisation, the JSON
 * the utilisation; a LOOG with few CUs keeps them busier than one with many
 * on a memory-bound workload. */
static void utilisation_of_cus_and_rrs(void)
{
	static char json[2][16384];
	char args[2048], path[2][600];
	const int cus[2] = {2, 16};
	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof path[i], "%s/util%d.h5", tu_tmpdir(), cus[i]);
		snprintf(args, sizeof args, "run -q -s inorder,loog -w vecadd --scale 0.02 --set loog.cus=%d "
			 "--set loog.rrs=8 --format json -o %s", cus[i], path[i]);
		CU_ASSERT_EQUAL_FATAL(tu_run(args, json[i], sizeof json[i], NULL, 0), 0);
		CU_ASSERT_FATAL(tu_json_valid(json[i]));
	}
	double few = json_run_value(json[0], "loog", "utilisation", "cu");
	double many = json_run_value(json[1], "loog", "utilisation", "cu");
	double rrs = json_run_value(json[0], "loog", "utilisation", "rrs");
	CU_ASSERT(few > 0 && few <= 1);
	CU_ASSERT(many > 0 && many <= 1);
	CU_ASSERT(few > many);
	CU_ASSERT(rrs > 0 && rrs <= 1);
	CU_ASSERT(isnan(json_run_value(json[0], "loog", "utilisation", "isb"))); /* (LOOG has no IsB: null) */
	CU_ASSERT(json_run_value(json[0], "inorder", "utilisation", "ib") > 0);
	/* the HDF5 file: the capacities (v100: 80 SMs x 4 sub-cores) and the same numbers */
	hid_t f = H5Fopen(path[0], H5F_ACC_RDONLY, H5P_DEFAULT);
	CU_ASSERT_FATAL(f >= 0);
	char *nm[8] = {0};
	CU_ASSERT_EQUAL(read_names(f, "names/utilisation", nm, 8), 4);
	CU_ASSERT(nm[2] && strcmp(nm[2], "cu") == 0);
	CU_ASSERT(nm[3] && strcmp(nm[3], "rrs") == 0);
	for (int k = 0; k < 8; k++)
		H5free_memory(nm[k]);
	uint64_t entries[4] = {0};
	double util[4] = {0};
	CU_ASSERT(H5LTread_dataset(f, "runs/000001/entries", H5T_NATIVE_UINT64, entries) >= 0);
	CU_ASSERT(H5LTread_dataset_double(f, "runs/000001/utilisation", util) >= 0);
	CU_ASSERT_EQUAL(entries[2], 2 * 4 * 80);
	CU_ASSERT_EQUAL(entries[3], 8 * 4 * 80);
	CU_ASSERT_EQUAL(entries[1], 0);
	CU_ASSERT_DOUBLE_EQUAL(util[2], few, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(util[3], rrs, 1e-12);
	char units[256];
	CU_ASSERT_EQUAL(read_attr(f, "runs/000001/utilisation", "units", units, sizeof units), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(units, "entries x cycles"));
	H5Fclose(f);
	/* merge keeps them */
	snprintf(args, sizeof args, "report %s --format json", path[0]);
	static char again[16384];
	CU_ASSERT_EQUAL(tu_run(args, again, sizeof again, NULL, 0), 0);
	CU_ASSERT_DOUBLE_EQUAL(json_run_value(again, "loog", "utilisation", "cu"), few, 1e-12);
}

static void unwritable_output_leaves_nothing(void)
{
	struct iw_row rows[2];
	struct iw_config c;
	struct iw_tech t;
	CU_ASSERT_EQUAL_FATAL(make_rows(rows, &c, &t), 0);
	struct iw_err e = {0};
	struct iw_h5_meta m = {"", "", "", "", "", NULL, 0, NULL, NULL, NULL};
	CU_ASSERT_EQUAL(iw_h5_write("/nonexistent-folder/r.h5", &m, rows, 2, &e), -IW_ERUN);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent-folder/r.h5"));
	for (int k = 0; k < 2; k++)
		iw_row_free(&rows[k]);
	iw_tech_free(&t);
}

static void same_seed_same_numbers(void)
{
	struct iw_row a[2], b[2];
	struct iw_config c;
	struct iw_tech t, t2;
	CU_ASSERT_EQUAL_FATAL(make_rows(a, &c, &t), 0);
	CU_ASSERT_EQUAL_FATAL(make_rows(b, &c, &t2), 0);
	CU_ASSERT_EQUAL(a[0].run.cycles, b[0].run.cycles);
	CU_ASSERT_EQUAL(memcmp(a[0].run.act, b[0].run.act, sizeof a[0].run.act), 0);
	CU_ASSERT_EQUAL(a[0].run.series.n, b[0].run.series.n);
	CU_ASSERT_DOUBLE_EQUAL(a[0].power.energy_j, b[0].power.energy_j, 0);
	for (int k = 0; k < 2; k++) {
		iw_row_free(&a[k]);
		iw_row_free(&b[k]);
	}
	iw_tech_free(&t);
	iw_tech_free(&t2);
}

/* `run --format json` is one valid JSON document with the CSV's numbers
 * (exact, so a script reads what the file holds), and `report --format json`
 * reads the same document back from the results file. */
static void json_summary_is_valid_and_matches_csv(void)
{
	static char json[16384], json2[16384], csv[8192], args[1024];
	const char *d = tu_tmpdir();
	snprintf(args, sizeof args, "run -q -s inorder,ghost --scale 0.02 -w vecadd,sgemm --format json -o %s/j.h5", d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, json, sizeof json, NULL, 0), 0);
	CU_ASSERT_FATAL(tu_json_valid(json));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"runs\": ["));
	snprintf(args, sizeof args, "report %s/j.h5 --format csv", d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, csv, sizeof csv, NULL, 0), 0);
	/* every CSV row's cycles, in order, as the JSON run's */
	const char *c = strchr(csv, '\n'), *j = json;
	int rows = 0;
	for (; c && c[1]; c = strchr(c + 1, '\n'), rows++) {
		char wl[64], sc[64];
		unsigned long long cy = 0, jcy = 0;
		CU_ASSERT_EQUAL_FATAL(sscanf(c + 1, "%63[^,],%63[^,],%*[^,],%*[^,],%llu", wl, sc, &cy), 3);
		char key[160];
		snprintf(key, sizeof key, "{\"workload\": \"%s\", \"scheme\": \"%s\"", wl, sc);
		j = strstr(j, key);
		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		const char *cj = strstr(j, "\"cycles\": ");
		CU_ASSERT_PTR_NOT_NULL_FATAL(cj);
		CU_ASSERT_EQUAL(sscanf(cj, "\"cycles\": %llu", &jcy), 1);
		CU_ASSERT_EQUAL(jcy, cy);
	}
	CU_ASSERT_EQUAL(rows, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"stall_cycles\": {\"idle\": "));
	/* the CSV's stall columns: every scheduler-cycle (v100: 80 SMs x 4, issue
	 * width 1) either issued a warp-instruction or is charged to a reason */
	for (int line = 1; line <= rows; line++) {
		double stalls = 0;
		for (int k = 0; k < IW_STALL_COUNT; k++) {
			char col[64];
			snprintf(col, sizeof col, "stall_%s", iw_stall_name[k]);
			stalls += tu_csv_value(csv, line, col);
		}
		CU_ASSERT_EQUAL(stalls + tu_csv_value(csv, line, "warp_insts"), 80 * 4 * tu_csv_value(csv, line, "cycles"));
	}
	CU_ASSERT_PTR_NULL(strstr(json, "\"stall_idle\"")); /* (JSON has the object) */
	snprintf(args, sizeof args, "report %s/j.h5 --format json", d);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, json2, sizeof json2, NULL, 0), 0);
	/* the same document: the runs and each scheme's geometric means over the
	 * workloads (one configuration; the preset has no model errors) */
	CU_ASSERT_PTR_NOT_NULL(strstr(json, ", \"geomeans\": [\n  {\"scheme\": \"inorder\", \"workloads\": 2, \"speedup\": 1, "));
	CU_ASSERT_STRING_EQUAL(json2, json);
	CU_ASSERT_EQUAL(tu_run("run -q --format xml", NULL, 0, NULL, 0), 2);
}

/* A results file cut short (a copy interrupted) is named as such by the
 * commands that read one, with exit 3. */
static void truncated_results_file_exit_3(void)
{
	struct iw_row rows[2];
	struct iw_config c;
	struct iw_tech t;
	CU_ASSERT_EQUAL_FATAL(make_rows(rows, &c, &t), 0);
	char path[600], cut[600], args[1400], err[1024];
	snprintf(path, sizeof path, "%s/whole.h5", tu_tmpdir());
	snprintf(cut, sizeof cut, "%s/cut.h5", tu_tmpdir());
	struct iw_err e = {0};
	struct iw_h5_meta m = {"issuewatt test", "default", "<gpu-config/>", t.name, "", NULL, 0, NULL, NULL, NULL};
	CU_ASSERT_EQUAL_FATAL(iw_h5_write(path, &m, rows, 2, &e), 0);
	char *text;
	size_t len;
	CU_ASSERT_EQUAL_FATAL(iw_read_file(path, &text, &len, &e), 0);
	FILE *f = fopen(cut, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(text, 1, len / 3, f); /* the signature and superblock, not the rest */
	fclose(f);
	iw_free(text);
	snprintf(args, sizeof args, "report '%s' --format csv", cut);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cut.h5: expected a complete HDF5 file"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "truncated"));
	for (int k = 0; k < 2; k++)
		iw_row_free(&rows[k]);
	iw_tech_free(&t);
}

/* The text table names its ratios and says what each is relative to; PDP,
 * which has no column of its own there, is the energy column. */
static void text_table_explains_its_ratios(void)
{
	static char out[8192];
	CU_ASSERT_EQUAL_FATAL(tu_run("run -w vecadd --scale 0.01 --set gpu.sms=4 -s inorder,ghost -j 1", out, sizeof out,
				     NULL, 0),
			      0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "speedup   energy      ADP      EDP sm_speedup"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "relative to inorder on the same workload"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "PDP (power x delay) is the energy, so its ratio is the energy column"));
}

void suite_h5(void)
{
	TU_SUITE("h5", {"round_trip_through_the_c_api", round_trip_through_the_c_api},
		 {"counters_carry_units", counters_carry_units},
		 {"utilisation_of_cus_and_rrs", utilisation_of_cus_and_rrs},
		 {"unwritable_output_leaves_nothing", unwritable_output_leaves_nothing},
		 {"same_seed_same_numbers", same_seed_same_numbers},
		 {"truncated_results_file_exit_3", truncated_results_file_exit_3},
		 {"json_summary_is_valid_and_matches_csv", json_summary_is_valid_and_matches_csv},
		 {"text_table_explains_its_ratios", text_table_explains_its_ratios});
}
