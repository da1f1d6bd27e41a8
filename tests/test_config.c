/* tests/test_config.c -- configuration: presets, XML validation errors with
 * file:line, --set, the generated schema and help. */
#include "perf.h"
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *write_file(const char *name, const char *text)
{
	static char path[4][600];
	static int k;
	k = (k + 1) % 4;
	snprintf(path[k], sizeof path[k], "%s/%s", tu_tmpdir(), name);
	FILE *f = fopen(path[k], "w");
	fputs(text, f);
	fclose(f);
	return path[k];
}

static void presets_load_with_paper_values(void)
{
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "v100", NULL, &e), 0);
	CU_ASSERT_EQUAL(c.sms, 80); /* SOCGPU Table 1 */
	CU_ASSERT_EQUAL(c.max_warps, 64);
	CU_ASSERT_EQUAL(c.socgpu_ib_size, 8);
	CU_ASSERT_EQUAL(c.cus, 2);
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "rtx2060s", NULL, &e), 0);
	CU_ASSERT_EQUAL(c.sms, 34); /* GhOST Table III */
	CU_ASSERT_EQUAL(c.max_warps, 32);
	CU_ASSERT_DOUBLE_EQUAL(c.clock_mhz, 1905, 1e-9);
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "rtx3070", NULL, &e), 0);
	CU_ASSERT_EQUAL(c.sms, 46);
	CU_ASSERT_EQUAL(c.max_threads, 1536);
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "vortex", NULL, &e), 0);
	CU_ASSERT_EQUAL(c.rf_read_ports, 1);
	CU_ASSERT_EQUAL(c.loog_dispatch, 1); /* lowest_id */
	for (size_t i = 0; i < iw_preset_count(); i++) {
		iw_config_defaults(&c);
		CU_ASSERT_EQUAL(iw_config_load(&c, iw_preset_name(i), NULL, &e), 0);
		CU_ASSERT_EQUAL(iw_config_check(&c, &e), 0);
	}
}

static void wrong_element_names_file_and_line(void)
{
	const char *p = write_file("bad.xml", "<?xml version=\"1.0\"?>\n<gpu-config name=\"x\">\n  <gpu sms=\"4\"/>\n"
					      "  <bogus a=\"1\"/>\n</gpu-config>\n");
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL(iw_config_load(&c, p, NULL, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "bad.xml:4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "bogus"));
}

static void out_of_range_value_is_rejected(void)
{
	const char *p = write_file("range.xml", "<?xml version=\"1.0\"?>\n<gpu-config name=\"x\">\n"
						"  <sm max_warps=\"100000\"/>\n</gpu-config>\n");
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL(iw_config_load(&c, p, NULL, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "range.xml:3:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "max_warps"));
	/* a class without units cannot run its instructions: the schema's range
	 * (the one --help-config prints) says so, at the line */
	p = write_file("units0.xml", "<?xml version=\"1.0\"?>\n<gpu-config name=\"x\">\n"
				     "  <exec tensor_units=\"0\"/>\n</gpu-config>\n");
	struct iw_err e0 = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL(iw_config_load(&c, p, NULL, &e0), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e0.msg, "units0.xml:3:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e0.msg, "tensor_units"));
}

static void malformed_xml_is_rejected(void)
{
	const char *p = write_file("broken.xml", "<?xml version=\"1.0\"?>\n<gpu-config name=\"x\">\n  <gpu sms=\"4\">\n");
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL(iw_config_load(&c, p, NULL, &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "broken.xml:"));
	/* the configuration an Accel-Sim user has at hand: said what to use instead */
	p = write_file("gpgpusim.config", "# functional simulator specification\n-gpgpu_n_clusters 80\n"
					  "-gpgpu_n_cores_per_cluster 1\n");
	struct iw_err e2 = {0};
	CU_ASSERT_EQUAL(iw_config_load(&c, p, NULL, &e2), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e2.msg, "gpgpusim.config:1:1:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e2.msg, "(a GPGPU-Sim/Accel-Sim gpgpusim.config? issuewatt reads its own XML"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e2.msg, "--help-config"));
	/* as a technology file too */
	char err[4096], args[1200];
	snprintf(args, sizeof args, "run -q -s inorder -w vecadd --scale 0.01 -t '%s'", p);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "copy a technology file from tech/"));
	/* where make install puts them (the source layout, so their schema references resolve) */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(installed in PREFIX/share/issuewatt/tech/)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e2.msg, "copy a preset from perf/presets/ (installed in PREFIX/share/issuewatt/perf/presets/)"));
}

static void set_checks_key_type_and_range(void)
{
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL(iw_config_set(&c, "loog.cus=12", &e), 0);
	CU_ASSERT_EQUAL(c.loog_cus, 12);
	CU_ASSERT_EQUAL(iw_config_set(&c, "core.policy=lrr", &e), 0);
	CU_ASSERT_EQUAL(c.policy, IW_POLICY_LRR);
	iw_err_clear(&e);
	CU_ASSERT_EQUAL(iw_config_set(&c, "loog.cuz=12", &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "loog.cuz"));
	iw_err_clear(&e);
	CU_ASSERT_EQUAL(iw_config_set(&c, "loog.cus=twelve", &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "integer"));
	iw_err_clear(&e);
	CU_ASSERT_EQUAL(iw_config_set(&c, "loog.cus=0", &e), -IW_EINPUT);
	iw_err_clear(&e);
	CU_ASSERT_EQUAL(iw_config_set(&c, "core.policy=fifo", &e), -IW_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "gto|lrr|srr"));
	iw_err_clear(&e);
	CU_ASSERT_EQUAL(iw_config_set(&c, "novalue", &e), -IW_EUSAGE);
}

static void shipped_schema_matches_the_table(void)
{
	char *text = NULL;
	size_t len;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_read_file(tu_path("perf/config.xsd"), &text, &len, &e), 0);
	char *gen = NULL;
	size_t glen = 0;
	FILE *f = open_memstream(&gen, &glen);
	iw_config_write_xsd(f);
	fclose(f);
	CU_ASSERT_EQUAL(len, glen);
	CU_ASSERT(strcmp(text, gen) == 0); /* regenerate with: issuewatt list schema > perf/config.xsd */
	free(gen);
	iw_free(text);
}

static void effective_config_round_trips_through_xml(void)
{
	struct iw_config c, d;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c, "rtx3070", NULL, &e), 0);
	CU_ASSERT_EQUAL(iw_config_set(&c, "loog.rrs_factor=1.5", &e), 0);
	char *x = iw_config_to_xml(&c);
	const char *p = write_file("rt.xml", x);
	iw_free(x);
	iw_config_defaults(&d);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&d, p, NULL, &e), 0);
	for (size_t i = 0; i < iw_param_count; i++) {
		double a, b;
		iw_config_get(&c, iw_params[i].key, &a);
		iw_config_get(&d, iw_params[i].key, &b);
		CU_ASSERT_DOUBLE_EQUAL(a, b, 0);
	}
}

/* A configuration's name is the user's text: one with XML's special
 * characters still gives an effective configuration (the HDF5 provenance, a
 * report's config.xml) that reads back, with the same name. */
static void config_name_with_xml_characters_round_trips(void)
{
	struct iw_config c, d;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	snprintf(c.name, sizeof c.name, "v100 <a&b> \"x\"");
	char *x = iw_config_to_xml(&c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "name=\"v100 &lt;a&amp;b&gt; &quot;x&quot;\""));
	const char *p = write_file("rt-name.xml", x);
	iw_free(x);
	iw_config_defaults(&d);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&d, p, NULL, &e), 0);
	CU_ASSERT_STRING_EQUAL(d.name, "v100 <a&b> \"x\"");
	char b[8];
	CU_ASSERT_EQUAL(iw_xml_text_buf(b, sizeof b, "a&b"), 7);
	CU_ASSERT_STRING_EQUAL(b, "a&amp;b");
	CU_ASSERT_EQUAL(iw_xml_text_buf(b, 6, "a&b"), 7);
	CU_ASSERT_STRING_EQUAL(b, "a"); /* cut before the entity, not in it */
}

static void cli_reports_bad_input_with_exit_3(void)
{
	char err[4096];
	CU_ASSERT_EQUAL(tu_run("run --config nosuchpreset -o /tmp/never.h5", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nosuchpreset"));
	CU_ASSERT_EQUAL(tu_run("run --set gpu.sms=-1", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "gpu.sms"));
	CU_ASSERT_EQUAL(tu_run("run --scheme nosuch", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nosuch"));
	/* a comma splits workloads: the knob it cut off gets a hint */
	CU_ASSERT_EQUAL(tu_run("run -w synth:warps=4,ctas=8", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown workload 'ctas=8'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "synth:warps=4:ctas=8"));
	/* the shorthand options name themselves, not the key they set */
	CU_ASSERT_EQUAL(tu_run("run --scale 0 -o /tmp/never.h5", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--scale: run.workload_scale: expected a value in [0.0001, 1000], found 0"));
	CU_ASSERT_EQUAL(tu_run("run --interval=x", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--interval: run.interval: expected an integer (unit cycle), found 'x'"));
	/* a value written with a unit: the message names the key's own */
	CU_ASSERT_EQUAL(tu_run("run --set gpu.clock_mhz=1.5GHz", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "gpu.clock_mhz: expected a finite number (unit MHz), found '1.5GHz'"));
	CU_ASSERT_NOT_EQUAL(access("/tmp/never.h5", F_OK), 0);
	CU_ASSERT_EQUAL(tu_run("run --bogus-option", NULL, 0, err, sizeof err), 2);
	CU_ASSERT_EQUAL(tu_run("frobnicate", NULL, 0, err, sizeof err), 2);
}

/* A workload named twice runs once, as a scheme named twice does: twice,
 * it would count twice in the geometric means. */
/* A trace whose list or a header is bad, or a kernel too big for an SM, is
 * refused before the workloads named before it run (their progress lines
 * never appear). */
static void bad_trace_refused_before_any_run(void)
{
	char err[4096], args[2048];
	const char *d = tu_tmpdir();
	char list[1200];
	snprintf(list, sizeof list, "%s/kernelslist.g", d);
	FILE *f = fopen(list, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f); /* an empty list */
	snprintf(args, sizeof args, "run -s inorder -w sgemm -w '%s'", d);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "kernelslist.g: expected at least one kernel-N.traceg entry"));
	CU_ASSERT_PTR_NULL(strstr(err, "sgemm with inorder"));
	remove(list);
	/* so is a kernel whose CTA no SM of the configuration can hold */
	CU_ASSERT_EQUAL(tu_run("run -s inorder -w sgemm -w synth:warps=32:regs=255", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "kernel 'synth' needs 32 warps, 1024 threads, 262144 registers (255 per thread rounded up to 256"));
	CU_ASSERT_PTR_NULL(strstr(err, "sgemm with inorder"));
}

static void workload_named_twice_runs_once(void)
{
	char out[8192];
	CU_ASSERT_EQUAL_FATAL(tu_run("run -q --format csv --scale 0.01 -s inorder,inorder -w vecadd -w rnn -w vecadd",
				     out, sizeof out, NULL, 0), 0);
	size_t rows = 0;
	for (const char *p = out; (p = strchr(p, '\n')); p++)
		rows++;
	CU_ASSERT_EQUAL(rows, 3); /* header, vecadd, rnn */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nvecadd,inorder,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nrnn,inorder,"));
}

/* An output that cannot be written is reported before the simulations, not
 * after them (a long run would otherwise be lost to a typo in -o): the
 * progress line of the first simulation never appears. */
static void run_checks_its_output_before_simulating(void)
{
	char err[4096], args[4096];
	CU_ASSERT_EQUAL(tu_run("run -s inorder -w sgemm -o /nonexistent-folder/r.h5", NULL, 0, err, sizeof err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent-folder/r.h5: cannot create output"));
	CU_ASSERT_PTR_NULL(strstr(err, "sgemm with inorder"));
	const char *d = tu_tmpdir();
	snprintf(args, sizeof args, "run -s inorder -w sgemm -o %s", d);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, err, sizeof err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "it is a folder"));
	CU_ASSERT_PTR_NULL(strstr(err, "sgemm with inorder"));
	/* the check leaves no file of its own behind: a run into that folder
	 * leaves its results and nothing else */
	snprintf(args, sizeof args, "run -q -s inorder -w vecadd --scale 0.01 -o %s/r.h5", d);
	CU_ASSERT_EQUAL(tu_run(args, NULL, 0, NULL, 0), 0);
	int n = 0, found = 0;
	DIR *dir = opendir(d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	for (struct dirent *de; (de = readdir(dir));)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			n++;
			found |= !strcmp(de->d_name, "r.h5");
		}
	closedir(dir);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT(found);
	/* an empty -o is a usage error, not a failed rename after the runs */
	CU_ASSERT_EQUAL(tu_run("run -s inorder -w sgemm -o ''", NULL, 0, err, sizeof err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--output: expected a file name, found an empty path"));
	CU_ASSERT_PTR_NULL(strstr(err, "sgemm with inorder"));
}

/* Cycles of 16 warps of independent DRAM loads in one LOOG sub-core with
 * 64 CUs and `rrs` RRS entries: each load holds its entry ~640 cycles, so
 * the stack is what bounds the loads in flight; *no_rrs gets its stalls. */
static uint64_t loog_loads_cycles(const char *rrs, uint64_t *no_rrs)
{
	struct iw_config c;
	struct iw_err e = {0};
	iw_config_defaults(&c);
	static const char *const sets[] = {"gpu.sms=1", "gpu.subcores=1", "loog.cus=64"};
	for (size_t i = 0; i < IW_ARRAY_LEN(sets); i++)
		CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, sets[i], &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_config_set(&c, rrs, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_config_check(&c, &e), 0);
	struct iw_inst prog[64];
	for (int i = 0; i < 64; i++) {
		prog[i] = tu_op(IW_UNIT_MEM, i % 32, -1, -1);
		prog[i].flags = IW_F_LOAD;
		prog[i].space = IW_SPACE_GLOBAL;
		prog[i].mem_level = 3;
		prog[i].mem_width = 4;
		prog[i].pc = (uint32_t)(16 * i);
	}
	struct iw_workload *w;
	CU_ASSERT_EQUAL_FATAL(iw_program_open("loads", prog, 64, 1, 16, &w, &e), 0);
	struct iw_sim_opts so = {.cfg = &c, .scheme = "loog"};
	struct iw_run_result r;
	int rc = iw_simulate(&so, w, &r, &e);
	iw_workload_close(w);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(r.warp_insts, 64 * 16);
	uint64_t cycles = r.cycles;
	*no_rrs = r.cnt.stall[IW_STALL_NO_RRS];
	iw_run_result_free(&r);
	return cycles;
}

/* loog.rrs's range (--help-config, the schema) is what LOOG holds,
 * IW_LOOG_RRS_MAX = 256 entries per sub-core: the limit runs and every entry
 * is used, one more is refused by the range, and rrs_factor x cus beyond it
 * by the configuration check, naming both keys, before any run. */
static void loog_rrs_limit_is_checked_with_the_configuration(void)
{
	uint64_t stalls192, stalls256;
	uint64_t c192 = loog_loads_cycles("loog.rrs=192", &stalls192);
	uint64_t c256 = loog_loads_cycles("loog.rrs=256", &stalls256);
	CU_ASSERT(stalls192 > 0 && stalls256 > 0); /* the stack was full */
	CU_ASSERT(c256 < c192);                    /* so the entries beyond 192 carried loads */
	static char out[200000];
	char err[4096];
	CU_ASSERT_EQUAL(tu_run("--help-config", out, sizeof out, NULL, 0), 0);
	const char *row = strstr(out, "\nloog.rrs ");
	CU_ASSERT(row && strstr(row, " 0..256 ") && strstr(row, " 0..256 ") < strchr(row + 1, '\n'));
	CU_ASSERT_EQUAL(tu_run("run -q -s loog -w vecadd --scale 0.01 --set loog.cus=64 --set loog.rrs=256", out,
			       sizeof out, err, sizeof err),
			0);
	CU_ASSERT_EQUAL(tu_run("run -s loog -w vecadd --scale 0.01 --set loog.rrs=257", NULL, 0, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--set loog.rrs: expected a value in [0, 256] entry, found 257"));
	CU_ASSERT_PTR_NULL(strstr(err, "with inorder"));
	/* 4.02 x 64 = 257.28 -> 257 entries; 4 x 64 = 256 runs (above) */
	CU_ASSERT_EQUAL(tu_run("run -s loog -w vecadd --scale 0.01 --set loog.cus=64 --set loog.rrs_factor=4.02", NULL, 0,
			       err, sizeof err),
			3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "loog.rrs_factor x loog.cus (4.02 x 64 = 257 RRS entries per sub-core) must be at most 256"));
	CU_ASSERT_PTR_NULL(strstr(err, "with inorder"));
	CU_ASSERT_EQUAL(tu_run("run -q -s loog -w vecadd --scale 0.01 --set loog.cus=64 --set loog.rrs_factor=4", out,
			       sizeof out, err, sizeof err),
			0);
}

static void help_lists_every_key_and_exit_status(void)
{
	static char out[200000];
	CU_ASSERT_EQUAL(tu_run("--help-config", out, sizeof out, NULL, 0), 0);
	for (size_t i = 0; i < iw_param_count; i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(out, iw_params[i].key));
	/* a default as the user would write it (the shortest exact decimal) */
	const char *f = strstr(out, "gpu.die_area_factor ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char def[32] = "";
	CU_ASSERT_EQUAL(sscanf(f, "%*s %*s %*s %31s", def), 1); /* key, type, unit, default */
	CU_ASSERT_STRING_EQUAL(def, "0.17");
	CU_ASSERT_EQUAL(tu_run("--help", out, sizeof out, NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Exit status"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--config"));
}

/* `make install` keeps the source layout under PREFIX/share/issuewatt, so
 * every installed preset's and technology file's schema reference
 * (../config.xsd, tech.xsd) resolves there and validates, and the man page
 * has every command's --help.  It installs from the build the tests run
 * (IW_BIN's folder) only when that is up to date: the test builds nothing
 * (a sanitizer build's folder must not get objects of another). */
static void make_install_keeps_the_source_layout(void)
{
	const char *bin = getenv("IW_BIN");
	char build[1024], cmd[8192], prefix[700];
	snprintf(build, sizeof build, "%s", bin ? bin : IW_SRCDIR "/build/issuewatt");
	char *slash = strrchr(build, '/');
	CU_ASSERT_PTR_NOT_NULL_FATAL(slash);
	*slash = '\0';
	/* (the runner may run under make: its jobserver is not this make's) */
	const char *mk = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory IW_INNER=1";
	snprintf(cmd, sizeof cmd, "%s -C '%s' BUILD='%s' -q '%s/issuewatt' '%s/libissuewatt.a' >/dev/null 2>&1", mk,
		 IW_SRCDIR, build, build, build);
	if (system(cmd) != 0) {
		fprintf(stderr, "\n    (skipped: %s is not up to date, and this test builds nothing) ", build);
		return;
	}
	snprintf(prefix, sizeof prefix, "%s/prefix", tu_tmpdir());
	snprintf(cmd, sizeof cmd, "%s -C '%s' BUILD='%s' PREFIX='%s' install >'%s/install.log' 2>&1", mk, IW_SRCDIR,
		 build, prefix, tu_tmpdir());
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	static const char *const files[] = {"perf/presets/v100.xml", "perf/config.xsd", "tech/12nm.xml",
					    "tech/tech.xsd", "calib/calib.xsd", "reports/sweep.xsd"};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(cmd, sizeof cmd, "%s/share/issuewatt/%s", prefix, files[k]);
		CU_ASSERT_EQUAL(access(cmd, R_OK), 0);
	}
	/* each file against the schema it names, relative to itself (as make check does) */
	snprintf(cmd, sizeof cmd,
		 "cd '%s/share/issuewatt' && for f in perf/presets/*.xml tech/*.xml; do "
		 "x=$(sed -n 's/.*noNamespaceSchemaLocation=\"\\([^\"]*\\)\".*/\\1/p' \"$f\" | head -1); "
		 "[ -n \"$x\" ] && xmllint --noout --nonet --schema \"$(dirname \"$f\")/$x\" \"$f\" || exit 1; "
		 "done >/dev/null 2>&1",
		 prefix);
	CU_ASSERT_EQUAL(system(cmd), 0);
	/* the man page: a section per command, its --help verbatim */
	char *man = NULL;
	size_t len = 0;
	struct iw_err e = {0};
	snprintf(cmd, sizeof cmd, "%s/share/man/man1/issuewatt.1", prefix);
	CU_ASSERT_EQUAL_FATAL(iw_read_file(cmd, &man, &len, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(man, "\n.SH COMMANDS\n"));
	static const char *const cmds[] = {"list", "trace-info", "area", "calibrate", "sweep", "merge", "report"};
	for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
		snprintf(cmd, sizeof cmd, "\n.SS \"issuewatt %s\"\n", cmds[k]);
		CU_ASSERT_PTR_NOT_NULL(strstr(man, cmd));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(man, "\\&Usage: issuewatt sweep "));
	iw_free(man);
}

void suite_config(void)
{
	TU_SUITE("config", {"presets_load_with_paper_values", presets_load_with_paper_values},
		 {"wrong_element_names_file_and_line", wrong_element_names_file_and_line},
		 {"out_of_range_value_is_rejected", out_of_range_value_is_rejected},
		 {"malformed_xml_is_rejected", malformed_xml_is_rejected},
		 {"set_checks_key_type_and_range", set_checks_key_type_and_range},
		 {"shipped_schema_matches_the_table", shipped_schema_matches_the_table},
		 {"effective_config_round_trips_through_xml", effective_config_round_trips_through_xml},
		 {"config_name_with_xml_characters_round_trips", config_name_with_xml_characters_round_trips},
		 {"cli_reports_bad_input_with_exit_3", cli_reports_bad_input_with_exit_3},
		 {"run_checks_its_output_before_simulating", run_checks_its_output_before_simulating},
		 {"workload_named_twice_runs_once", workload_named_twice_runs_once},
		 {"bad_trace_refused_before_any_run", bad_trace_refused_before_any_run},
		 {"help_lists_every_key_and_exit_status", help_lists_every_key_and_exit_status},
		 {"loog_rrs_limit_is_checked_with_the_configuration", loog_rrs_limit_is_checked_with_the_configuration},
		 {"make_install_keeps_the_source_layout", make_install_keeps_the_source_layout});
}
