/* tests/test_sweep.c -- sweep specs, identical results whatever the
 * parallelism (threads, shards + merge, resume after a stop), and the report. */
#include "reports.h"
#include "testutil.h"

#include <dirent.h>
#include <hdf5.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static char out[65536], err[8192];

/* A tiny sweep: 2 workloads x 4 configurations, every scheme the build has. */
static const char tiny_spec[] =
	"<?xml version=\"1.0\"?>\n"
	"<sweep name=\"tiny\">\n"
	"  <config>vortex</config>\n"
	"  <workload>vecadd</workload>\n"
	"  <workload>reduce</workload>\n"
	"  <scheme>loog</scheme>\n"
	"  <set key=\"run.workload_scale\" value=\"0.02\"/>\n"
	"  <set key=\"run.interval\" value=\"500\"/>\n"
	"  <axis key=\"sm.max_warps\" label=\"warps\" values=\"8 16\"/>\n"
	"  <axis key=\"sm.warp_size\" label=\"threads\" values=\"8 16\"/>\n"
	"  <axis key=\"loog.cus\" values=\"6\"/>\n"
	"</sweep>\n";

static const char *write_spec(const char *dir, const char *name, const char *text)
{
	static char path[8][600];
	static int k;
	k = (k + 1) % 8;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	FILE *f = fopen(path[k], "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path[k];
}

/* Same numbers bit for bit: h5diff compares every dataset and run attribute
 * exactly; only the root attributes (command line, creation time) differ. */
static int same_h5(const char *a, const char *b)
{
	char cmd[1400];
	snprintf(cmd, sizeof cmd, "h5diff --exclude-attribute / '%s' '%s' >/dev/null 2>&1", a, b);
	int st = system(cmd);
	int same = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (!same && getenv("IW_TEST_VERBOSE")) {
		snprintf(cmd, sizeof cmd, "h5diff --exclude-attribute / '%s' '%s' | head -20 >&2", a, b);
		if (system(cmd) != 0)
			fprintf(stderr, "h5diff failed\n");
	}
	return same;
}

static size_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

static void spec_errors_name_file_and_line(void)
{
	const char *dir = tu_tmpdir();
	char args[1400];
	static const struct {
		const char *axis, *where, *what;
	} cases[] = {
		{"<axis key=\"sm.no_such_key\" values=\"1 2\"/>", ":4:", "expected a configuration key"},
		{"<axis key=\"sm.max_warps\" values=\" \"/>", ":4:", "empty list"},
		{"<axis key=\"sm.max_warps\" from=\"8\" to=\"4\" step=\"2\"/>", ":4:", "bad range"},
		{"<axis key=\"sm.max_warps\" from=\"4\" to=\"8\" step=\"0\"/>", ":4:", "bad range"},
		{"<axis key=\"sm.max_warps\" from=\"4\" to=\"8\"/>", ":4:", "from, to and step"},
		{"<axis key=\"sm.max_warps\" values=\"8 x\"/>", ":4:", "expected a number"},
		{"<axis key=\"sm.max_warps\" values=\"8 100000\"/>", ":4:", "rejected"},
		{"<axis key=\"core.policy\" values=\"gto fifo\"/>", ":4:",
		 "axis core.policy: expected one of gto|lrr|srr, found 'fifo'"},
		{"<axis key=\"core.policy\" values=\"lrr gto lrr\"/>", ":4:", "expected distinct values, lrr appears twice"},
		{"<axis key=\"core.policy\" from=\"0\" to=\"2\" step=\"1\"/>", ":4:", "(its names), found from/to/step"},
		{"<axis key=\"ghost.precise\" values=\"true maybe\"/>", ":4:", "expected true or false, found 'maybe'"},
		/* a run the sweep does not make would leave the power figure empty */
		{"<power-trace workload=\"sgemm\" scheme=\"loog\"/>", ":4:",
		 "power-trace sgemm:loog: expected a workload the sweep runs (vecadd), found 'sgemm'"},
		{"<power-trace workload=\"vecadd\" scheme=\"warp9\"/>", ":4:",
		 "power-trace vecadd:warp9: expected a scheme the sweep runs (inorder, "},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024];
		snprintf(text, sizeof text,
			 "<?xml version=\"1.0\"?>\n<sweep>\n  <workload>vecadd</workload>\n  %s\n</sweep>\n", cases[i].axis);
		const char *p = write_spec(dir, "bad.xml", text);
		snprintf(args, sizeof args, "sweep '%s' -o '%s/x.h5' -q", p, dir);
		CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.xml:4:"));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].what));
		snprintf(args, sizeof args, "%s/x.h5", dir);
		CU_ASSERT_EQUAL(file_size(args), 0); /* nothing left behind */
	}
	/* an unknown workload, an unknown scheme, a schema violation */
	const char *p = write_spec(dir, "bad2.xml",
				   "<?xml version=\"1.0\"?>\n<sweep>\n  <workload>vecadd</workload>\n"
				   "  <workload>no_such_kernel</workload>\n</sweep>\n");
	snprintf(args, sizeof args, "sweep '%s' -o '%s/x.h5' -q", p, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad2.xml:4:"));
	p = write_spec(dir, "bad3.xml", "<?xml version=\"1.0\"?>\n<sweep>\n  <workload>vecadd</workload>\n"
					"  <scheme>warp9</scheme>\n</sweep>\n");
	snprintf(args, sizeof args, "sweep '%s' -o '%s/x.h5' -q", p, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad3.xml:4:"));
	p = write_spec(dir, "bad4.xml", "<?xml version=\"1.0\"?>\n<sweep>\n  <axis key=\"sm.max_warps\" values=\"4\"/>\n"
					"</sweep>\n");
	snprintf(args, sizeof args, "sweep '%s' -o '%s/x.h5' -q", p, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad4.xml:"));
	/* a results file that cannot be written fails before the first point,
	 * not after the last (here the -o names a folder) */
	snprintf(args, sizeof args, "sweep examples/sweep-small.xml -j 1 -o '%s'", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "it is a folder"));
	CU_ASSERT_PTR_NULL(strstr(err, "points (")); /* no progress line: nothing ran */
	/* an empty output path is a usage error before any work (not a failed
	 * rename after it), for every command that writes one */
	static const char *const empty_out[] = {"sweep examples/sweep-small.xml -j 1 -o ''",
						"merge no-such-a.h5 no-such-b.h5 -o ''", "report no-such.h5 -o ''"};
	for (size_t i = 0; i < sizeof empty_out / sizeof empty_out[0]; i++) {
		CU_ASSERT_EQUAL(tu_run(empty_out[i], out, sizeof out, err, sizeof err), 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "--output: expected a "));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "name, found an empty path"));
		CU_ASSERT_PTR_NULL(strstr(err, "points ("));
	}
	/* usage errors */
	CU_ASSERT_EQUAL(tu_run("sweep examples/sweep-small.xml -q", out, sizeof out, err, sizeof err), 2);
	CU_ASSERT_EQUAL(tu_run("sweep examples/sweep-small.xml -o x.h5 --shard 3/2", out, sizeof out, err, sizeof err), 2);
}

static void ranges_expand_inclusively_and_order_is_canonical(void)
{
	struct iw_sweep s;
	struct iw_err e = {0};
	static const char spec[] = "<?xml version=\"1.0\"?>\n<sweep>\n<workload>vecadd</workload>\n<workload>sgemm</workload>\n"
				   "<scheme>inorder</scheme>\n"
				   "<axis key=\"loog.rrs_factor\" from=\"0\" to=\"0.3\" step=\"0.1\"/>\n"
				   "<axis key=\"sm.max_warps\" values=\"4,8\"/>\n</sweep>\n";
	CU_ASSERT_EQUAL_FATAL(iw_sweep_parse(&s, "mem.xml", spec, sizeof spec - 1, &e), 0);
	CU_ASSERT_EQUAL(s.naxes, 2);
	CU_ASSERT_EQUAL(s.axes[0].n, 4);
	CU_ASSERT_EQUAL(s.axes[0].values[3], 0.3); /* snapped to the decimal value, not 0.30000000000000004 */
	CU_ASSERT_EQUAL(s.nconfigs, 8);
	CU_ASSERT_EQUAL(s.nunits, 16);
	CU_ASSERT_EQUAL(s.nrows, 16);
	double v[2];
	iw_sweep_point(&s, 1, v); /* the last axis varies fastest */
	CU_ASSERT_EQUAL(v[0], 0);
	CU_ASSERT_EQUAL(v[1], 8);
	iw_sweep_point(&s, 2, v);
	CU_ASSERT_EQUAL(v[0], 0.1);
	CU_ASSERT_EQUAL(v[1], 4);
	iw_sweep_free(&s);
}

/* Every example spec shipped in examples/ loads: its keys, values and
 * workloads are the program's (checked against the table, not only the
 * schema), so a renamed key cannot leave an example behind. */
static void shipped_examples_load(void)
{
	DIR *d = opendir(tu_path("examples"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	int n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		size_t l = strlen(de->d_name);
		if (l < 4 || strcmp(de->d_name + l - 4, ".xml"))
			continue;
		char path[1200];
		snprintf(path, sizeof path, "%s/%s", tu_path("examples"), de->d_name);
		struct iw_sweep s = {0};
		struct iw_err e = {0};
		int rc = iw_sweep_load(&s, path, &e);
		CU_ASSERT_EQUAL(rc, 0);
		if (rc)
			fprintf(stderr, "\n%s\n", e.msg);
		else
			CU_ASSERT(s.nconfigs >= 2 && s.base.nworkloads >= 1);
		iw_sweep_free(&s);
		n++;
	}
	closedir(d);
	CU_ASSERT(n >= 4);
}

static size_t slurp(const char *path, char *buf, size_t sz);
static int file_has(const char *dir, const char *rel, const char *needle);

/* Keys that take names (an enum, a bool) sweep by their names: each point
 * gets the value it names, and results show the names again. */
static void named_values_sweep_and_read_back(void)
{
	struct iw_sweep s;
	struct iw_err e = {0};
	static const char spec[] = "<?xml version=\"1.0\"?>\n<sweep>\n<workload>vecadd</workload>\n"
				   "<scheme>ghost</scheme>\n<set key=\"run.workload_scale\" value=\"0.02\"/>\n"
				   "<axis key=\"core.policy\" values=\"srr gto\"/>\n"
				   "<axis key=\"ghost.precise\" values=\"true false\"/>\n</sweep>\n";
	CU_ASSERT_EQUAL_FATAL(iw_sweep_parse(&s, "names.xml", spec, sizeof spec - 1, &e), 0);
	CU_ASSERT_EQUAL(s.nconfigs, 4);
	static const int policy[] = {IW_POLICY_SRR, IW_POLICY_SRR, IW_POLICY_GTO, IW_POLICY_GTO};
	static const int precise[] = {1, 0, 1, 0};
	for (size_t c = 0; c < 4; c++) {
		struct iw_config cfg;
		CU_ASSERT_EQUAL_FATAL(iw_sweep_config(&s, c, &cfg, &e), 0);
		CU_ASSERT_EQUAL(cfg.policy, policy[c]);
		CU_ASSERT_EQUAL(cfg.ghost_precise, precise[c]);
	}
	iw_sweep_free(&s);

	/* run it: CSV and JSON name the values; the figures' axes too */
	const char *dir = tu_tmpdir();
	const char *p = write_spec(dir, "names.xml", spec);
	char args[2400];
	snprintf(args, sizeof args, "sweep '%s' -o '%s/n.h5' -q", p, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "report '%s/n.h5' --format csv", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "workload,scheme,config,tech,core.policy,ghost.precise,cycles,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nvecadd,ghost,v100,12nm,srr,true,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nvecadd,ghost,v100,12nm,gto,false,"));
	snprintf(args, sizeof args, "report '%s/n.h5' --format json", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"params\": {\"core.policy\": \"srr\", \"ghost.precise\": true}"));
	snprintf(args, sizeof args, "report '%s/n.h5' -o '%s/rep' --no-render -q", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	char path[1200];
	snprintf(path, sizeof path, "%s/rep/heat_ipc_ghost.gp", dir);
	char gp[16384];
	CU_ASSERT_FATAL(slurp(path, gp, sizeof gp) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set xtics ('gto' 0, 'srr' 1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ytics ('false' 0, 'true' 1)"));
	/* pareto.dat names each configuration's parameters */
	snprintf(path, sizeof path, "%s/rep/pareto.dat", dir);
	CU_ASSERT_FATAL(slurp(path, gp, sizeof gp) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, " srr true\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, " gto false\n"));
	/* and the figure names the front's points by them */
	CU_ASSERT(file_has(dir, "rep/pareto.gp", "using 1:2:('policy=' . strcol(5) . ' precise=' . strcol(6)) with labels"));
}

static void same_results_whatever_the_parallelism(void)
{
	const char *dir = tu_tmpdir();
	const char *spec = write_spec(dir, "tiny.xml", tiny_spec);
	char args[2000], a[600], b[600], c1[600], c2[600], m[600];
	snprintf(a, sizeof a, "%s/j1.h5", dir);
	snprintf(b, sizeof b, "%s/j2.h5", dir);
	snprintf(c1, sizeof c1, "%s/s1.h5", dir);
	snprintf(c2, sizeof c2, "%s/s2.h5", dir);
	snprintf(m, sizeof m, "%s/merged.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 1", spec, a);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "results:"));
	CU_ASSERT_PTR_NULL(strstr(out, "ETA")); /* progress never on stdout */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ETA"));
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 2 -q", spec, b);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_EQUAL(err[0], 0); /* -q: nothing on stderr */
	CU_ASSERT(same_h5(a, b));
	/* shards (one of them with two threads), then merged in the wrong order */
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --shard 1/2 -j 2 -q", spec, c1);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --shard 2/2 -j 1 -q", spec, c2);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(!same_h5(a, c1)); /* a shard alone is not the whole sweep */
	snprintf(args, sizeof args, "merge '%s' '%s' -o '%s'", c2, c1, m);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(same_h5(a, m));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(all 16 runs of the spec)")); /* 8 points x 2 schemes */
	/* one shard alone: merged, and said to be part of the spec */
	snprintf(args, sizeof args, "merge '%s' '%s' -o '%s/half.h5'", c1, c1, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(8 of the spec's 16 runs;"));
	/* the summary table: one row per run, every swept parameter a column */
	snprintf(args, sizeof args, "report '%s' --format csv", m);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "workload,scheme,config,tech,sm.max_warps,sm.warp_size,loog.cus,cycles,"));
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	struct iw_results res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(m, &res, &e), 0);
	CU_ASSERT_EQUAL(lines, res.n + 1);
	CU_ASSERT_EQUAL(res.n % 8, 0); /* 4 configurations x 2 workloads x the schemes */
	CU_ASSERT_EQUAL(res.nparams, 3);
	CU_ASSERT_STRING_EQUAL(res.rows[0].scheme, "inorder");
	for (size_t i = 1; i < res.n; i++)
		CU_ASSERT(res.point_ids[i] > res.point_ids[i - 1]);
	iw_results_free(&res);
	/* a file of another spec does not merge */
	const char *other = write_spec(dir, "other.xml", "<?xml version=\"1.0\"?>\n<sweep>\n<config>vortex</config>\n"
							  "<workload>vecadd</workload>\n<scheme>inorder</scheme>\n"
							  "<set key=\"run.workload_scale\" value=\"0.02\"/>\n</sweep>\n");
	snprintf(args, sizeof args, "sweep '%s' -o '%s/other.h5' -q", other, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "merge '%s' '%s/other.h5' -o '%s/bad.h5'", a, dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "different spec"));
}

static void stopped_sweep_resumes_to_the_same_results(void)
{
	const char *dir = tu_tmpdir();
	const char *spec = write_spec(dir, "tiny.xml", tiny_spec);
	char args[2000], full[600], part[600];
	snprintf(full, sizeof full, "%s/full.h5", dir);
	snprintf(part, sizeof part, "%s/part.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -q", spec, full);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	/* stopped after 3 of 8 points: exit 1, a valid file with those 3 */
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 2 --limit 3 -q", spec, part);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--resume"));
	struct iw_results res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(part, &res, &e), 0);
	size_t nsch = res.n / 3;
	CU_ASSERT_EQUAL(res.n, 3 * nsch);
	iw_results_free(&res);
	CU_ASSERT(!same_h5(full, part));
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --resume --limit 2 -q", spec, part);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --resume -j 2 -q", spec, part);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(same_h5(full, part));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(8 points")); /* resumed points counted once */
	/* a signal: whenever it lands, the file is valid and resuming completes it */
	snprintf(args, sizeof args,
		 "sweep '%s' -o '%s/sig.h5' -j 1 -q >/dev/null 2>&1 & p=$!; sleep 0.15; kill -TERM $p; wait $p; "
		 "'%s' sweep '%s' -o '%s/sig.h5' --resume -q",
		 spec, dir, getenv("IW_BIN") ? getenv("IW_BIN") : "build/issuewatt", spec, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(part, sizeof part, "%s/sig.h5", dir);
	CU_ASSERT(same_h5(full, part));
	/* --resume of another spec's file is refused */
	const char *other = write_spec(dir, "other.xml", "<?xml version=\"1.0\"?>\n<sweep>\n<config>vortex</config>\n"
							  "<workload>vecadd</workload>\n<scheme>inorder</scheme>\n"
							  "<set key=\"run.workload_scale\" value=\"0.02\"/>\n</sweep>\n");
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --resume -q", other, full);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "found the results of a different spec"));
}

/* A fresh sweep over an existing results file that stops part-way leaves
 * the file as it was (it may hold a whole earlier sweep) and writes what
 * finished to NAME.partial.h5, which --resume then completes. */
static void stopped_sweep_keeps_an_existing_results_file(void)
{
	const char *dir = tu_tmpdir();
	const char *spec = write_spec(dir, "keep.xml", tiny_spec);
	char args[2000], full[600], copy[600], partial[600];
	snprintf(full, sizeof full, "%s/keep.h5", dir);
	snprintf(copy, sizeof copy, "%s/keep-copy.h5", dir);
	snprintf(partial, sizeof partial, "%s/keep.partial.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -q && cp '%s' '%s'", spec, full, full, copy);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --limit 2 -q", spec, full);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "keep.partial.h5"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "left as it was"));
	snprintf(args, sizeof args, "--version >/dev/null && cmp -s '%s' '%s'", full, copy); /* untouched, byte for byte */
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	struct iw_results res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(partial, &res, &e), 0);
	CU_ASSERT(res.n > 0);
	iw_results_free(&res);
	CU_ASSERT(!same_h5(full, partial));
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --resume -q", spec, partial);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(same_h5(full, partial));
	/* completed, a fresh sweep replaces the file as before */
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -q", spec, full);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(same_h5(full, copy));
}

/* Every figure the page names exists, rendered and with its script and data. */
/* The spec names its configuration by path: results of the file as it was
 * before an edit are not joined with those after it. */
static void a_changed_configuration_is_not_merged_or_resumed(void)
{
	const char *dir = tu_tmpdir();
	char args[3000], cfg[600], spec[2000];
	snprintf(cfg, sizeof cfg, "%s/mine.xml", dir);
	write_spec(dir, "mine.xml", "<?xml version=\"1.0\"?>\n<gpu-config name=\"mine\">\n<gpu sms=\"2\"/>\n</gpu-config>\n");
	snprintf(spec, sizeof spec,
		 "<?xml version=\"1.0\"?><sweep name=\"mine\"><config>%s</config><workload>vecadd</workload>"
		 "<scheme>ghost</scheme><set key=\"run.workload_scale\" value=\"0.02\"/>"
		 "<axis key=\"opc.cus\" values=\"2 4\"/></sweep>\n",
		 cfg);
	const char *sp = write_spec(dir, "sp.xml", spec);
	snprintf(args, sizeof args, "sweep '%s' --shard 1/2 -o '%s/m1.h5' -q", sp, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "sweep '%s' --limit 1 -o '%s/r.h5' -q", sp, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	write_spec(dir, "mine.xml", "<?xml version=\"1.0\"?>\n<gpu-config name=\"mine\">\n<gpu sms=\"4\"/>\n</gpu-config>\n");
	snprintf(args, sizeof args, "sweep '%s' --shard 2/2 -o '%s/m2.h5' -q", sp, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "merge '%s/m1.h5' '%s/m2.h5' -o '%s/m.h5'", dir, dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	char want[1000];
	snprintf(want, sizeof want, "m2.h5: the configuration (%s) changed between the runs: expected the one of %s/m1.h5",
		 cfg, dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "sms=\"4\""));
	snprintf(want, sizeof want, "%s/m.h5", dir);
	CU_ASSERT_NOT_EQUAL(access(want, F_OK), 0);
	snprintf(args, sizeof args, "sweep '%s' --resume -o '%s/r.h5' -q", sp, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	snprintf(want, sizeof want, "r.h5: --resume: expected results of the configuration (%s) as it is now", cfg);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
}

/* Give an output file another root tool_version, as an older or newer
 * issuewatt would have written (delete, then create: a string of its size). */
static void set_tool_version(const char *path, const char *version)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	CU_ASSERT_FATAL(f >= 0);
	CU_ASSERT(H5Adelete(f, "tool_version") >= 0);
	hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
	H5Tset_size(t, strlen(version) + 1);
	hid_t a = H5Acreate2(f, "tool_version", t, sp, H5P_DEFAULT, H5P_DEFAULT);
	CU_ASSERT(a >= 0 && H5Awrite(a, t, version) >= 0);
	H5Aclose(a);
	H5Sclose(sp);
	H5Tclose(t);
	H5Fclose(f);
}

/* Results simulated by two versions of the model are not joined: merge
 * names both files and both versions, --resume the file's version and this
 * one's; equal versions merge, and the merged file keeps theirs. */
static void results_of_another_version_are_not_merged_or_resumed(void)
{
	const char *dir = tu_tmpdir();
	const char *spec = write_spec(dir, "tiny.xml", tiny_spec);
	char args[3000], s1[600], s2[600], r[600], m[600], want[2000];
	snprintf(s1, sizeof s1, "%s/v1.h5", dir);
	snprintf(s2, sizeof s2, "%s/v2.h5", dir);
	snprintf(r, sizeof r, "%s/vr.h5", dir);
	snprintf(m, sizeof m, "%s/vm.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' --shard 1/2 -o '%s' -q", spec, s1);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "sweep '%s' --shard 2/2 -o '%s' -q", spec, s2);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	set_tool_version(s2, "0.0.9-older");
	snprintf(args, sizeof args, "merge '%s' '%s' -o '%s'", s1, s2, m);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	snprintf(want, sizeof want, "%s: expected results of the issuewatt version of %s (%s), found version 0.0.9-older",
		 s2, s1, IW_VERSION);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_NOT_EQUAL(access(m, F_OK), 0);
	/* the same version on both sides merges, and the result says which */
	set_tool_version(s1, "0.0.9-older");
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	struct iw_results res;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(m, &res, &e), 0);
	CU_ASSERT(res.tool_version && strcmp(res.tool_version, "0.0.9-older") == 0);
	iw_results_free(&res);
	/* --resume of another version's file */
	snprintf(args, sizeof args, "sweep '%s' --limit 1 -o '%s' -q", spec, r);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	set_tool_version(r, "0.0.9-older");
	snprintf(args, sizeof args, "sweep '%s' --resume -o '%s' -q", spec, r);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	snprintf(want, sizeof want, "%s: --resume: expected results of this issuewatt version (%s), found results of version 0.0.9-older",
		 r, IW_VERSION);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	/* and of this version it completes */
	set_tool_version(r, IW_VERSION);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
}

/* What cannot change a result (comments, blanks, attribute order and
 * quoting) does not make a spec another; a real difference is named. */
static void a_spec_laid_out_anew_still_merges_and_resumes(void)
{
	const char *dir = tu_tmpdir();
	const char *spec = write_spec(dir, "tiny.xml", tiny_spec);
	const char *laid = write_spec(dir, "laid.xml",
				      "<?xml version=\"1.0\"?>\n<!-- the tiny sweep, laid out anew -->\n"
				      "<sweep name='tiny'><config> vortex </config><workload>vecadd</workload>\n"
				      "<workload>reduce</workload><scheme>loog</scheme>\n"
				      "<set value=\"0.02\" key=\"run.workload_scale\"/><set key=\"run.interval\" value=\"500\"/>\n"
				      "<axis values=\" 8  16\" label='warps' key=\"sm.max_warps\"/>\n"
				      "<axis key=\"sm.warp_size\" label=\"threads\" values=\"8 16\"/><!-- one value -->\n"
				      "<axis key=\"loog.cus\" values=\"6\"/></sweep>\n");
	char args[2000], full[600];
	snprintf(full, sizeof full, "%s/full.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -q", spec, full);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "sweep '%s' --shard 1/2 -o '%s/s1.h5' -q", spec, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "sweep '%s' --shard 2/2 -o '%s/s2.h5' -q", laid, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "merge '%s/s1.h5' '%s/s2.h5' -o '%s/m.h5'", dir, dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(all 16 runs of the spec)"));
	snprintf(args, sizeof args, "sweep '%s' --limit 3 -o '%s/r.h5' -q", spec, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	snprintf(args, sizeof args, "sweep '%s' --resume -o '%s/r.h5' -q", laid, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(8 points"));
	/* the same numbers (the stored spec text is the laid-out one) */
	snprintf(args, sizeof args, "h5diff '%s' '%s/r.h5' /summary /summary >/dev/null 2>&1", full, dir);
	CU_ASSERT_EQUAL(system(args), 0);
	/* a value changed for real: the message says which */
	char other[sizeof tiny_spec + 8];
	snprintf(other, sizeof other, "%s", tiny_spec);
	char *v = strstr(other, "values=\"8 16\"");
	memcpy(v, "values=\"8 32\"", 13);
	const char *o = write_spec(dir, "other.xml", other);
	snprintf(args, sizeof args, "sweep '%s' --shard 2/2 -o '%s/o2.h5' -q", o, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "merge '%s/s1.h5' '%s/o2.h5' -o '%s/bad.h5'", dir, dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "found a different spec"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "s1.h5's spec line 9: <axis values=\"8 16\">"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "o2.h5's spec line 9: <axis values=\"8 32\">"));
	snprintf(args, sizeof args, "sweep '%s' --resume -o '%s' -q", o, full);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "other.xml line 9: <axis values=\"8 32\">"));
}

/* A trace cut short fails the sweep before any point runs, with its
 * file:line; an input a point brings out later leaves no output either, and
 * an existing file being resumed stays as it was. */
static void a_bad_trace_fails_the_sweep_before_any_point(void)
{
	const char *dir = tu_tmpdir();
	char args[3000], spec[2000], h5[600], cmd[1600];
	snprintf(cmd, sizeof cmd, "mkdir '%s/cut' && head -c 6000 '%s' > '%s/cut/kernel-1.traceg' && "
				  "echo kernel-1.traceg > '%s/cut/kernelslist.g'",
		 dir, tu_path("tests/data/traces/vectoradd-sm61/kernel-1.traceg"), dir, dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(spec, sizeof spec,
		 "<?xml version=\"1.0\"?><sweep name=\"cut\"><config>v100</config><workload>vecadd</workload>"
		 "<workload>%s/cut</workload><scheme>ghost</scheme><set key=\"run.workload_scale\" value=\"0.02\"/>"
		 "<axis key=\"opc.cus\" values=\"2 4\"/></sweep>\n",
		 dir);
	const char *sp = write_spec(dir, "cut.xml", spec);
	snprintf(h5, sizeof h5, "%s/cut.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 1", sp, h5);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cut/kernel-1.traceg:213: expected instruction line"));
	CU_ASSERT_PTR_NULL(strstr(err, "point {")); /* no point ran */
	CU_ASSERT_PTR_NULL(strstr(err, "ETA"));
	CU_ASSERT_NOT_EQUAL(access(h5, F_OK), 0);
	/* a CTA too big for one configuration's SM: found at that point */
	snprintf(spec, sizeof spec,
		 "<?xml version=\"1.0\"?><sweep name=\"fit\"><config>v100</config><workload>%s</workload>"
		 "<scheme>ghost</scheme><axis key=\"sm.max_threads\" values=\"2048 64\"/></sweep>\n",
		 tu_path("tests/data/traces/vectoradd-sm61"));
	sp = write_spec(dir, "fit.xml", spec);
	snprintf(h5, sizeof h5, "%s/fit.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 1 -q", sp, h5);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "point { sm.max_threads=64 }"));
	CU_ASSERT_NOT_EQUAL(access(h5, F_OK), 0);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --limit 1 -q", sp, h5);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 1);
	struct stat before, after;
	CU_ASSERT_EQUAL_FATAL(stat(h5, &before), 0);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' --resume -q", sp, h5);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT_EQUAL_FATAL(stat(h5, &after), 0);
	CU_ASSERT(before.st_ino == after.st_ino && before.st_mtime == after.st_mtime);
}

/* A sweep names a trace by the path its spec gives (the results file keeps
 * it: <power-trace> and --power-runs match it); its figures and tables name
 * it as `run` does, by its folder, or by the full name where two would
 * share one. */
static void report_labels_traces_by_their_folder(void)
{
	const char *dir = tu_tmpdir();
	char spec[3000], args[2000];
	/* the same trace by folder and by its list: one label, so both keep their names */
	snprintf(spec, sizeof spec,
		 "<?xml version=\"1.0\"?><sweep name=\"lab\"><config>v100</config><workload>%s</workload>"
		 "<workload>%s/</workload><workload>%s/kernelslist.g</workload><scheme>inorder</scheme>"
		 "<scheme>ghost</scheme></sweep>\n",
		 tu_path("tests/data/traces/matrixmul-sm61"), tu_path("tests/data/traces/vectoradd-sm61"),
		 tu_path("tests/data/traces/vectoradd-sm61"));
	const char *sp = write_spec(dir, "lab.xml", spec);
	snprintf(args, sizeof args, "sweep '%s' -o '%s/lab.h5' -q && '%s' report '%s/lab.h5' -o '%s/rep' --no-render -q", sp,
		 dir, getenv("IW_BIN") ? getenv("IW_BIN") : "build/issuewatt", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(file_has(dir, "rep/tables.tex", "\nmatrixmul-sm61 &"));
	CU_ASSERT(file_has(dir, "rep/tables.tex", "vectoradd-sm61/kernelslist.g &"));
	CU_ASSERT(file_has(dir, "rep/tables.tex", "vectoradd-sm61/ &"));
	CU_ASSERT(file_has(dir, "rep/speedup.dat", "\nmatrixmul-sm61 "));
	/* the data keep the spec's names */
	CU_ASSERT(file_has(dir, "rep/summary.csv", tu_path("tests/data/traces/matrixmul-sm61")));
}

/* A sweep that fails part-way (its spool or results file over a file-size
 * limit) keeps the points that finished, as SIGINT does, and says --resume
 * goes on from them; when it cannot write them, it leaves nothing and says
 * nothing of them.  Some limit falls between one point's file and two
 * points' spool. */
static void a_failed_sweep_keeps_a_file_to_resume(void)
{
	const char *dir = tu_tmpdir();
	const char *sp = write_spec(dir, "two.xml",
				    "<?xml version=\"1.0\"?><sweep name=\"two\"><config>vortex</config>"
				    "<workload>vecadd</workload><scheme>loog</scheme>"
				    "<set key=\"run.workload_scale\" value=\"0.02\"/>"
				    "<axis key=\"sm.max_warps\" values=\"8 16\"/></sweep>\n");
	const char *bin = getenv("IW_BIN") ? getenv("IW_BIN") : "build/issuewatt";
	char args[3000], full[600], part[600];
	snprintf(full, sizeof full, "%s/full.h5", dir);
	snprintf(part, sizeof part, "%s/part.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 1 -q", sp, full);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	int kept = 0, resumed = 0;
	for (int blocks = 64; blocks <= 640; blocks += 32) { /* 512-byte blocks in POSIX sh */
		unlink(part);
		snprintf(args, sizeof args, "--version >/dev/null; (trap '' XFSZ; ulimit -f %d; '%s' sweep '%s' -o '%s' -j 1 -q)",
			 blocks, bin, sp, part);
		int rc = tu_run(args, out, sizeof out, err, sizeof err);
		if (rc == 0)
			continue;
		CU_ASSERT_EQUAL(rc, 1);
		if (access(part, F_OK) != 0) {
			CU_ASSERT_PTR_NULL(strstr(err, "--resume"));
			continue;
		}
		kept++;
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "part.h5 holds the 1 of 2 points that finished: run again with --resume"));
		snprintf(args, sizeof args, "sweep '%s' -o '%s' --resume -q", sp, part);
		if (!resumed++) {
			CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
			CU_ASSERT(same_h5(full, part));
		}
	}
	CU_ASSERT(kept > 0);
}

/* Each command's exit status speaks of what it does: merge and report
 * have no --limit, --resume or spec. */
static void merge_and_report_help_fit_the_command(void)
{
	CU_ASSERT_EQUAL_FATAL(tu_run("merge --help", out, sizeof out, err, sizeof err), 0);
	const char *x = strstr(out, "Exit status:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_PTR_NULL(strstr(x, "--limit"));
	CU_ASSERT_PTR_NULL(strstr(x, "--resume"));
	CU_ASSERT_PTR_NULL(strstr(x, "the spec,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "no merged file is written"));
	CU_ASSERT_EQUAL_FATAL(tu_run("report --help", out, sizeof out, err, sizeof err), 0);
	x = strstr(out, "Exit status:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_PTR_NULL(strstr(x, "--limit"));
	CU_ASSERT_PTR_NULL(strstr(x, "--resume"));
	CU_ASSERT_PTR_NULL(strstr(x, "spec"));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "--power-runs"));
	CU_ASSERT_EQUAL_FATAL(tu_run("sweep --help", out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(strstr(out, "Exit status:"), "--resume"));
}

/* report's -o as its help has it: the html report's folder, made with its
 * parents, refused with csv and json (standard output); a gnuplot that is
 * there but fails is named with its exit status, the rest still written. */
static void report_output_as_the_help_says(void)
{
	const char *dir = tu_tmpdir();
	const char *bin = getenv("IW_BIN") ? getenv("IW_BIN") : "build/issuewatt";
	char args[3000], path[800], html[65536];
	snprintf(args, sizeof args, "run -c vortex -s inorder,loog -w vecadd --scale 0.02 -q -o '%s/r.h5' >/dev/null",
		 dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "report '%s/r.h5' --format csv -o '%s/csv'", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--format csv writes to standard output"));
	snprintf(args, sizeof args, "report '%s/r.h5' --format json -o '%s/json'", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 2);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/no/sub/rep' --no-render -q", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/no/sub/rep/index.html", dir);
	CU_ASSERT(file_size(path) > 0);
	/* a report that fails removes the folders it made, parents too */
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/gone/sub/rep' --power-runs nosuch:inorder", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	snprintf(path, sizeof path, "%s/gone", dir);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	/* (tu_run puts the program first: a --version, then the report with the variable) */
	snprintf(args, sizeof args, "--version >/dev/null; IW_GNUPLOT=/bin/false '%s' report '%s/r.h5' -o '%s/bad' -q",
		 bin, dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: report: '/bin/false --version' failed with exit status 1"));
	snprintf(path, sizeof path, "%s/bad/index.html", dir);
	CU_ASSERT_FATAL(slurp(path, html, sizeof html) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "'/bin/false --version' failed with exit status 1"));
	CU_ASSERT_PTR_NULL(strstr(html, "not found"));
	snprintf(path, sizeof path, "%s/bad/speedup.dat", dir);
	CU_ASSERT(file_size(path) > 0);
}

static int check_figures(const char *dir, const char *html, size_t *nfig)
{
	int ok = 1;
	*nfig = 0;
	for (const char *p = strstr(html, "<img src=\""); p; p = strstr(p + 1, "<img src=\"")) {
		char name[128];
		const char *q = p + 10, *end = strstr(q, ".svg\"");
		if (!end || end - q >= (long)sizeof name)
			return 0;
		memcpy(name, q, (size_t)(end - q));
		name[end - q] = 0;
		static const char *const ext[] = {".svg", ".png", ".gp", ".dat"};
		for (int k = 0; k < 4; k++) {
			char path[1024];
			snprintf(path, sizeof path, "%s/%s%s", dir, name, ext[k]);
			if (file_size(path) == 0) {
				fprintf(stderr, "missing or empty: %s\n", path);
				ok = 0;
			}
		}
		(*nfig)++;
	}
	return ok;
}

static size_t slurp(const char *path, char *buf, size_t sz);

/* pareto.dat's blocks, in pairs (every configuration, then the front), each
 * cheapest first: a point marked as on the front is beaten by no other point
 * of its block (at least as fast at no more cost, better in one), every
 * other point is matched or beaten by a front point, and the front block is
 * exactly the marked points.  Returns the number of block pairs, -1 if a
 * rule is broken. */
static int pareto_blocks_hold(char *dat)
{
	enum { MAXP = 512 };
	static double x[2][MAXP], sp[2][MAXP];
	static int fr[MAXP];
	size_t n[2] = {0, 0};
	int blk = 0, pairs = 0, in_block = 0;
	for (char *save = NULL, *l = strtok_r(dat, "\n", &save);; l = strtok_r(NULL, "\n", &save)) {
		int header = l && l[0] == '#';
		if ((!l || header) && in_block) { /* a block ended */
			in_block = 0;
			if (blk == 1) { /* a pair is complete: check it */
				size_t k = 0;
				for (size_t i = 0; i < n[0]; i++) {
					if (i && x[0][i] < x[0][i - 1])
						return -1;
					int beaten = 0;
					for (size_t j = 0; j < n[0]; j++)
						beaten |= x[0][j] <= x[0][i] && sp[0][j] >= sp[0][i] &&
							  (x[0][j] < x[0][i] || sp[0][j] > sp[0][i]);
					int matched = 0;
					for (size_t j = 0; j < n[0]; j++)
						matched |= fr[j] && x[0][j] <= x[0][i] && sp[0][j] >= sp[0][i];
					if ((fr[i] && beaten) || !matched)
						return -1;
					if (fr[i] && (k >= n[1] || x[1][k] != x[0][i] || sp[1][k++] != sp[0][i]))
						return -1;
				}
				if (k != n[1] || n[0] == 0)
					return -1;
				pairs++;
			}
			blk ^= 1;
			n[blk] = 0;
		}
		if (!l)
			break;
		if (header)
			continue;
		in_block = 1;
		char *end;
		double a = strtod(l, &end), b = strtod(end, &end);
		(void)strtod(end, &end); /* the cost's model error */
		long f = strtol(end, &end, 10);
		if (n[blk] >= MAXP)
			return -1;
		x[blk][n[blk]] = a;
		sp[blk][n[blk]] = b;
		if (blk == 0)
			fr[n[blk]] = (int)f;
		n[blk]++;
	}
	return pairs;
}

/* The stall stack of stalls.dat is complete: on a preset with one
 * scheduler of issue width 1, a workload's stack for a scheme plus its one
 * issue cycle per warp-instruction is the scheme's cycles per
 * warp-instruction over every configuration.  Returns the bars checked. */
static int stall_stacks_add_up(char *dat, const struct iw_results *res)
{
	int bars = 0;
	char wl[256] = "";
	for (char *line = strtok(dat, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#') {
			if (!strchr(line, ':')) /* "# WORKLOAD" opens a block (the header lines have a colon) */
				snprintf(wl, sizeof wl, "%s", line + 2);
			continue;
		}
		char scheme[64];
		int off = 0;
		if (sscanf(line, "%63s%n", scheme, &off) != 1)
			continue;
		double stack = 0, v;
		int len;
		for (const char *p = line + off; sscanf(p, "%lf%n", &v, &len) == 1; p += len)
			stack += v;
		double cycles = 0, insts = 0;
		for (size_t i = 0; i < res->n; i++)
			if (!strcmp(res->rows[i].workload, wl) && !strcmp(res->rows[i].scheme, scheme)) {
				cycles += (double)res->rows[i].run.cycles;
				insts += (double)res->rows[i].run.warp_insts;
			}
		CU_ASSERT(insts > 0);
		CU_ASSERT_DOUBLE_EQUAL(stack + 1, cycles / insts, 1e-7 * cycles / insts);
		bars++;
	}
	return bars;
}

/* Column `col` of alloc_cdf.dat (named in its "# cycles ..." line) is a
 * CDF: it never falls and ends at 1.  Returns its points (-1: no column). */
static int cdf_column_holds(const char *dat, const char *col)
{
	int idx = -1, points = 0;
	double prev = 0, v = 0;
	for (const char *line = dat; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char tok[128];
		int len, k = 0;
		if (!strncmp(line, "# cycles ", 9)) {
			for (const char *p = line + 2; *p != '\n' && sscanf(p, "%127s%n", tok, &len) == 1; p += len, k++)
				if (!strcmp(tok, col))
					idx = k;
			continue;
		}
		if (line[0] == '#' || idx < 0)
			continue;
		const char *p = line;
		for (; k <= idx && sscanf(p, "%127s%n", tok, &len) == 1; p += len, k++)
			;
		if (k <= idx)
			return -1;
		v = strtod(tok, NULL);
		CU_ASSERT(v >= prev);
		prev = v;
		points++;
	}
	CU_ASSERT_DOUBLE_EQUAL(v, 1, 1e-9);
	return idx < 0 ? -1 : points;
}

/* Files of folder dir whose name contains `part`. */
static int file_count(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *x; (x = readdir(d));)
		n += strstr(x->d_name, part) != NULL;
	closedir(d);
	return n;
}

/* A digest of a folder's files, names and contents (order-free): equal
 * digests, same files. */
static uint64_t folder_digest(const char *dir)
{
	DIR *d = opendir(dir);
	uint64_t sum = 0;
	if (!d)
		return 0;
	for (struct dirent *x; (x = readdir(d));) {
		char path[1200];
		snprintf(path, sizeof path, "%s/%s", dir, x->d_name);
		uint64_t h = 1469598103934665603ull;
		for (const char *c = x->d_name; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		FILE *f = x->d_name[0] != '.' ? fopen(path, "rb") : NULL;
		for (int ch; f && (ch = getc(f)) != EOF;)
			h = (h ^ (unsigned)ch) * 1099511628211ull;
		if (f)
			fclose(f);
		sum += h;
	}
	closedir(d);
	return sum;
}

/* A report killed outright leaves its staging folder; the next report into
 * the folder removes it, once that report's process is gone, and never the
 * staging folder of a report still running nor one it cannot place (an older
 * version's name).  Here a report waits in a gnuplot that sleeps, a second
 * report runs beside it, the first is killed, and a third follows. */
static void killed_report_leaves_nothing_for_long(const char *dir)
{
	char gp[700], started[700], path[700], args[2000], old[800];
	snprintf(gp, sizeof gp, "%s/slow-gnuplot", dir);
	snprintf(started, sizeof started, "%s/gnuplot-started", dir);
	snprintf(path, sizeof path, "%s/k", dir);
	FILE *g = fopen(gp, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	/* (answers --version, then says it started, with its pid, and sleeps) */
	fprintf(g, "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\necho $$ > '%s.tmp' && mv '%s.tmp' '%s'\nexec sleep 60\n",
		started, started, started);
	fclose(g);
	CU_ASSERT_EQUAL_FATAL(chmod(gp, 0755), 0);
	const char *bin = getenv("IW_BIN");
	char h5[700];
	snprintf(h5, sizeof h5, "%s/r.h5", dir);
	pid_t a = fork();
	CU_ASSERT_FATAL(a >= 0);
	if (a == 0) {
		setenv("IW_GNUPLOT", gp, 1);
		int nul = open("/dev/null", O_WRONLY);
		dup2(nul, 1);
		dup2(nul, 2);
		execl(bin ? bin : IW_SRCDIR "/build/issuewatt", "issuewatt", "report", h5, "-o", path, (char *)NULL);
		_exit(127);
	}
	FILE *st = NULL;
	for (int i = 0; i < 600 && !(st = fopen(started, "r")); i++) /* (at most a minute) */
		usleep(100000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	long gpid = 0;
	CU_ASSERT_EQUAL(fscanf(st, "%ld", &gpid), 1);
	fclose(st);
	CU_ASSERT_EQUAL(file_count(path, ".report."), 1); /* the first report's, in progress */
	snprintf(args, sizeof args, "report '%s' -o '%s' --no-render", h5, path);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_EQUAL(file_count(path, ".report."), 1); /* a running report's staging stays */
	CU_ASSERT_EQUAL(file_count(path, "index.html"), 1);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	if (gpid > 0)
		kill((pid_t)gpid, SIGKILL);
	CU_ASSERT_EQUAL(file_count(path, ".report."), 1); /* the killed report's staging */
	snprintf(old, sizeof old, "%s/.report.Ab12Cd", path); /* as older versions named it */
	CU_ASSERT_EQUAL(mkdir(old, 0777), 0);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_EQUAL(file_count(path, ".report."), 1);
	CU_ASSERT_EQUAL(access(old, F_OK), 0);
	rmdir(old);
}

static void report_names_every_figure_and_renders_it(void)
{
	const char *dir = tu_tmpdir();
	const char *spec = write_spec(dir, "tiny.xml", tiny_spec);
	char args[2000], rep[600], path[700];
	snprintf(args, sizeof args, "sweep '%s' -o '%s/r.h5' -q", spec, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(rep, sizeof rep, "%s/report", dir);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s'", dir, rep);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/index.html", rep);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	static char html[262144];
	size_t n = fread(html, 1, sizeof html - 1, f);
	html[n] = 0;
	fclose(f);
	size_t nfig = 0;
	CU_ASSERT(check_figures(rep, html, &nfig));
	/* speed-up, 3 heat maps per scheme, energy, power, reorder, allocation CDFs */
	CU_ASSERT(nfig >= 8);
	static const char *const must[] = {"speedup.svg", "sm_speedup.svg", "heat_ipc_", "heat_adp_", "heat_pdp_", "energy.svg", "energy_issue.svg",
					   "power.svg", "reorder.svg", "alloc_cdf.svg", "pareto.svg", "stalls.svg", "summary.csv",
					   "kernels.csv", "tables.tex", "config.xml", "tech.xml", "spec.xml"};
	for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(html, must[i]));
	/* the stall stacks: vecadd and reduce x inorder and loog */
	static char stk[65536];
	struct iw_results res;
	struct iw_err e = {0};
	snprintf(path, sizeof path, "%s/stalls.dat", rep);
	CU_ASSERT(slurp(path, stk, sizeof stk) > 0);
	snprintf(path, sizeof path, "%s/r.h5", dir);
	CU_ASSERT_EQUAL_FATAL(iw_h5_read(path, &res, &e), 0);
	CU_ASSERT_EQUAL(stall_stacks_add_up(stk, &res), 4);
	iw_results_free(&res);
	/* the thesis's CDFs: CU allocation periods and no-CU stall runs */
	snprintf(path, sizeof path, "%s/alloc_cdf.dat", rep);
	CU_ASSERT(slurp(path, stk, sizeof stk) > 0);
	CU_ASSERT_EQUAL(cdf_column_holds(stk, "cu_loog"), 64);
	CU_ASSERT_EQUAL(cdf_column_holds(stk, "no_cu_loog"), 64);
	/* the design space: loog's area and energy fronts */
	static char dat[262144];
	snprintf(path, sizeof path, "%s/pareto.dat", rep);
	CU_ASSERT(slurp(path, dat, sizeof dat) > 0);
	CU_ASSERT_EQUAL(pareto_blocks_hold(dat), 2);
	snprintf(path, sizeof path, "%s/tables.tex", rep);
	CU_ASSERT(file_size(path) > 0);
	static char tex[65536];
	CU_ASSERT(slurp(path, tex, sizeof tex) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(tex, "\\label{tab:speedup}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(tex, "\\label{tab:sm-speedup}"));
	/* EDP, not PDP: PDP relative to in-order is the energy table again */
	CU_ASSERT_PTR_NOT_NULL(strstr(tex, "\\label{tab:edp}"));
	CU_ASSERT_PTR_NULL(strstr(tex, "\\label{tab:pdp}"));
	CU_ASSERT_PTR_NULL(strstr(tex, "& PDP \\\\"));
	/* one kernel per built-in workload: no per-kernel table or figure */
	CU_ASSERT_PTR_NULL(strstr(tex, "tab:kernels"));
	CU_ASSERT_PTR_NULL(strstr(html, "kernels_1.svg"));
	CU_ASSERT_PTR_NULL(strstr(html, "where each kernel")); /* (the power figure's caption) */
	snprintf(path, sizeof path, "%s/summary.csv", rep);
	CU_ASSERT(file_size(path) > 0);
	/* one kernel per built-in run: kernels.csv has a row per summary row,
	 * each kernel as long as its run */
	static char sum[65536], ker[65536];
	CU_ASSERT(slurp(path, sum, sizeof sum) > 0);
	snprintf(path, sizeof path, "%s/kernels.csv", rep);
	CU_ASSERT(slurp(path, ker, sizeof ker) > 0);
	size_t ls = 0, lk = 0;
	for (const char *p = sum; (p = strchr(p, '\n')); p++)
		ls++;
	for (const char *p = ker; (p = strchr(p, '\n')); p++)
		lk++;
	CU_ASSERT(ls > 2 && lk == ls);
	CU_ASSERT_PTR_NOT_NULL(strstr(ker, "workload,scheme,config,tech,kernel,name,ctas,start,cycles,"));
	CU_ASSERT_PTR_NULL(strstr(html, "not rendered"));
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/p' --power-runs reduce:inorder", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	/* a report that fails leaves the folder as it found it: a report
	 * already there stays whole (nothing staged is left either), a fresh
	 * folder is not made; here with bad input, and with a gnuplot that
	 * cannot render */
	snprintf(path, sizeof path, "%s/p", dir);
	uint64_t before = folder_digest(path);
	int nbefore = file_count(path, "");
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/p' --power-runs nosuch:inorder", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	CU_ASSERT(nbefore > 20 && file_count(path, "") == nbefore && folder_digest(path) == before);
	CU_ASSERT(file_count(path, "index.html") == 1 && file_count(path, ".report.") == 0);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/f' --power-runs nosuch:inorder", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 3);
	snprintf(path, sizeof path, "%s/f", dir);
	CU_ASSERT_EQUAL(file_count(path, ""), -1);
	char gp[700];
	snprintf(gp, sizeof gp, "%s/gnuplot", dir);
	FILE *g = fopen(gp, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	/* (answers --version, then draws half a figure and fails) */
	fputs("#!/bin/sh\n[ \"$1\" = --version ] && exit 0\necho '<svg' > \"$(echo \"$2\" | sed \"s/.*set output '\\([^']*\\)'.*/\\1/\")\"\n"
	      "exit 1\n", g);
	fclose(g);
	CU_ASSERT_EQUAL(chmod(gp, 0755), 0);
	setenv("IW_GNUPLOT", gp, 1);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/g'", dir, dir);
	int grc = tu_run(args, out, sizeof out, err, sizeof err);
	snprintf(path, sizeof path, "%s/p", dir);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s'", dir, path);
	int prc = tu_run(args, out, sizeof out, err, sizeof err);
	unsetenv("IW_GNUPLOT");
	CU_ASSERT_EQUAL(grc, 1);
	CU_ASSERT_EQUAL(prc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "gnuplot failed"));
	CU_ASSERT(file_count(path, "") == nbefore && folder_digest(path) == before);
	snprintf(path, sizeof path, "%s/g", dir);
	CU_ASSERT_EQUAL(file_count(path, ""), -1);
	/* a report that succeeds replaces the earlier one's files, those it
	 * does not make too (as listed beside them), and nothing else */
	char stale[800], mine[800], manifest[800];
	snprintf(stale, sizeof stale, "%s/p/stale.svg", dir);
	snprintf(mine, sizeof mine, "%s/p/notes.txt", dir);
	snprintf(manifest, sizeof manifest, "%s/p/.report-files", dir);
	FILE *m = fopen(manifest, "a"), *x = fopen(stale, "w"), *y = fopen(mine, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m && x && y);
	fputs("stale.svg\n", m);
	fclose(m);
	fclose(x);
	fclose(y);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s/p' --power-runs reduce:inorder", dir, dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT(access(stale, F_OK) != 0 && access(mine, F_OK) == 0);
	snprintf(path, sizeof path, "%s/p", dir);
	CU_ASSERT_EQUAL(file_count(path, ""), nbefore + 1);
	char list[4000] = "";
	m = fopen(manifest, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	list[fread(list, 1, sizeof list - 1, m)] = 0;
	fclose(m);
	CU_ASSERT(strstr(list, "index.html\n") && strstr(list, "summary.csv\n") && !strstr(list, "stale") &&
		  !strstr(list, "notes"));
	killed_report_leaves_nothing_for_long(dir);

	/* no gnuplot: data and scripts still written, the page says how to render */
	snprintf(rep, sizeof rep, "%s/nognuplot", dir);
	setenv("IW_GNUPLOT", "/nonexistent/gnuplot", 1);
	snprintf(args, sizeof args, "report '%s/r.h5' -o '%s'", dir, rep);
	int rc = tu_run(args, out, sizeof out, err, sizeof err);
	unsetenv("IW_GNUPLOT");
	CU_ASSERT_EQUAL(rc, 0);
	snprintf(path, sizeof path, "%s/index.html", rep);
	f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	n = fread(html, 1, sizeof html - 1, f);
	html[n] = 0;
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "not rendered"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "render.sh"));
	snprintf(path, sizeof path, "%s/speedup.gp", rep);
	CU_ASSERT(file_size(path) > 0);
	snprintf(path, sizeof path, "%s/speedup.dat", rep);
	CU_ASSERT(file_size(path) > 0);
	snprintf(path, sizeof path, "%s/speedup.svg", rep);
	CU_ASSERT_EQUAL(file_size(path), 0);

	/* a plain run file reports too (no swept parameters, no heat maps) */
	snprintf(args, sizeof args, "run -c vortex -s inorder -w vecadd --scale 0.02 -q -o '%s/run.h5' >/dev/null && "
				    "'%s' report '%s/run.h5' --format csv",
		 dir, getenv("IW_BIN") ? getenv("IW_BIN") : "build/issuewatt", dir);
	CU_ASSERT_EQUAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "workload,scheme,config,tech,cycles,"));
	CU_ASSERT_EQUAL(tu_run("report /nonexistent.h5 --format csv", out, sizeof out, err, sizeof err), 3);
}

static void rows_survive_packing(void)
{
	struct iw_row r, back;
	memset(&r, 0, sizeof r);
	snprintf(r.workload, sizeof r.workload, "w");
	r.run.cycles = 1234;
	r.speedup = 1.25;
	uint64_t act[2 * IW_A_COUNT], ins[2] = {5, 6}, cyc[2] = {100, 50};
	for (size_t i = 0; i < 2 * IW_A_COUNT; i++)
		act[i] = i * 3;
	r.run.series = (struct iw_series){100, 2, 2, act, ins, cyc};
	double par[2] = {4, 0.5};
	r.params = par;
	r.nparams = 2;
	unsigned char *buf;
	size_t len, used;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_row_pack(&r, &buf, &len, &e), 0);
	CU_ASSERT_EQUAL_FATAL(iw_row_unpack(&back, buf, len, &used, &e), 0);
	CU_ASSERT_EQUAL(used, len);
	CU_ASSERT_STRING_EQUAL(back.workload, "w");
	CU_ASSERT_EQUAL(back.run.cycles, 1234);
	CU_ASSERT_EQUAL(back.speedup, 1.25);
	CU_ASSERT_EQUAL(back.run.series.n, 2);
	CU_ASSERT_EQUAL(back.run.series.act[2 * IW_A_COUNT - 1], act[2 * IW_A_COUNT - 1]);
	CU_ASSERT_EQUAL(back.run.series.cycles[1], 50);
	CU_ASSERT_EQUAL(back.params[1], 0.5);
	iw_results_row_free(&back);
	struct iw_row trunc;
	CU_ASSERT_NOT_EQUAL(iw_row_unpack(&trunc, buf, len - 1, &used, &e), 0); /* a short message is refused */
	iw_free(buf);
}

/* Two runs with the same numbers, row field by row field (the structs hold
 * pointers, so not one memcmp). */
static int same_run(const struct iw_run_result *a, const struct iw_run_result *b)
{
	const struct iw_series *x = &a->series, *y = &b->series;
	return a->cycles == b->cycles && a->warp_insts == b->warp_insts && a->thread_insts == b->thread_insts &&
	       a->ipc == b->ipc && a->sm_busy_mean == b->sm_busy_mean && memcmp(a->act, b->act, sizeof a->act) == 0 &&
	       memcmp(&a->cnt, &b->cnt, sizeof a->cnt) == 0 && x->interval == y->interval && x->n == y->n &&
	       memcmp(x->act, y->act, x->n * IW_A_COUNT * sizeof *x->act) == 0 &&
	       memcmp(x->insts, y->insts, x->n * sizeof *x->insts) == 0 &&
	       memcmp(x->cycles, y->cycles, x->n * sizeof *x->cycles) == 0 && a->nkstats == b->nkstats &&
	       (!a->nkstats || memcmp(a->kstats, b->kstats, a->nkstats * sizeof *a->kstats) == 0);
}

static int same_row(const struct iw_row *a, const struct iw_row *b)
{
	return strcmp(a->scheme, b->scheme) == 0 && strcmp(a->workload, b->workload) == 0 && same_run(&a->run, &b->run) &&
	       a->power.energy_j == b->power.energy_j && a->power.avg_power_w == b->power.avg_power_w &&
	       memcmp(a->power.dynamic_j, b->power.dynamic_j, sizeof a->power.dynamic_j) == 0 &&
	       a->power.nseries == b->power.nseries &&
	       (!a->power.nseries || memcmp(a->power.series_w, b->power.series_w, a->power.nseries * sizeof(double)) == 0) &&
	       a->area.gpu_mm2 == b->area.gpu_mm2 && a->area_mm2 == b->area_mm2 && a->fpga_area_pct == b->fpga_area_pct &&
	       a->seconds == b->seconds &&
	       a->speedup == b->speedup && a->energy_rel == b->energy_rel && a->adp_rel == b->adp_rel &&
	       a->pdp_rel == b->pdp_rel && a->edp_rel == b->edp_rel && a->sm_speedup == b->sm_speedup &&
	       a->nparams == b->nparams &&
	       memcmp(a->params, b->params, a->nparams * sizeof *a->params) == 0;
}

/* What lets a sweep share baselines: the in-order run reads no parameter of
 * another scheme.  Every one of them moved off its default, the numbers stay. */
static void inorder_run_ignores_other_schemes_parameters(void)
{
	struct iw_config c0, c1;
	struct iw_err e = {0};
	iw_config_defaults(&c0);
	CU_ASSERT_EQUAL_FATAL(iw_config_load(&c0, "v100", NULL, &e), 0);
	c0.workload_scale = 0.02;
	c1 = c0;
	size_t moved = 0;
	for (size_t i = 0; i < iw_param_count; i++) {
		const struct iw_param *p = &iw_params[i];
		char group[32] = "";
		const char *dot = strchr(p->key, '.');
		if (!dot || (size_t)(dot - p->key) >= sizeof group)
			continue;
		memcpy(group, p->key, (size_t)(dot - p->key));
		if (strcmp(group, "inorder") == 0 || iw_scheme_find(group) < 0)
			continue;
		char a[160];
		if (p->type == IW_PT_ENUM)
			snprintf(a, sizeof a, "%s=%s", p->key, p->enums[p->def == 0 ? 1 : 0]);
		else if (p->type == IW_PT_BOOL)
			snprintf(a, sizeof a, "%s=%s", p->key, p->def ? "false" : "true");
		else
			snprintf(a, sizeof a, "%s=%.17g", p->key, p->def == p->min ? p->min + 1 : p->min);
		CU_ASSERT_EQUAL_FATAL(iw_config_set(&c1, a, &e), 0);
		moved++;
	}
	CU_ASSERT(moved >= 15); /* socgpu, ghost, loog and ideal all have some */
	CU_ASSERT_EQUAL_FATAL(iw_config_check(&c1, &e), 0);
	struct iw_run_result r0, r1;
	const char *const wls[] = {"vecadd", "sgemm", "bfs"};
	for (size_t k = 0; k < sizeof wls / sizeof *wls; k++) {
		struct iw_workload *w = NULL;
		CU_ASSERT_EQUAL_FATAL(iw_workload_open(wls[k], 1, 0.02, &w, &e), 0);
		struct iw_sim_opts o0 = {.cfg = &c0, .scheme = "inorder"}, o1 = {.cfg = &c1, .scheme = "inorder"};
		CU_ASSERT_EQUAL_FATAL(iw_simulate(&o0, w, &r0, &e), 0);
		iw_workload_close(w);
		CU_ASSERT_EQUAL_FATAL(iw_workload_open(wls[k], 1, 0.02, &w, &e), 0);
		CU_ASSERT_EQUAL_FATAL(iw_simulate(&o1, w, &r1, &e), 0);
		iw_workload_close(w);
		CU_ASSERT(r0.cycles > 0);
		CU_ASSERT(same_run(&r0, &r1));
		iw_run_result_free(&r0);
		iw_run_result_free(&r1);
	}
	/* and the baseline's key sees them as one configuration, but not a shared parameter */
	char *k0 = iw_base_key(&c0, "vecadd"), *k1 = iw_base_key(&c1, "vecadd");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k1);
	CU_ASSERT_STRING_EQUAL(k0, k1);
	iw_free(k1);
	CU_ASSERT_EQUAL_FATAL(iw_config_set(&c1, "opc.cus=3", &e), 0);
	k1 = iw_base_key(&c1, "vecadd");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k1);
	CU_ASSERT(strcmp(k0, k1) != 0);
	iw_free(k1);
	k1 = iw_base_key(&c0, "sgemm");
	CU_ASSERT(strcmp(k0, k1) != 0);
	iw_free(k1);
	iw_free(k0);
}

/* A sweep over LOOG's collector units (the first axis) and the warps: the four
 * configurations have two baselines per workload, each simulated once, and
 * every row equals the one computed without sharing. */
static void points_share_a_baseline_row_for_row(void)
{
	static const char spec[] = "<?xml version=\"1.0\"?>\n<sweep>\n<config>vortex</config>\n"
				   "<workload>vecadd</workload>\n<workload>reduce</workload>\n<scheme>loog</scheme>\n"
				   "<set key=\"run.workload_scale\" value=\"0.02\"/>\n"
				   "<set key=\"run.interval\" value=\"500\"/>\n"
				   "<axis key=\"loog.cus\" values=\"4 8\"/>\n"
				   "<axis key=\"sm.max_warps\" values=\"8 16\"/>\n</sweep>\n";
	struct iw_sweep s;
	struct iw_err e = {0};
	CU_ASSERT_EQUAL_FATAL(iw_sweep_parse(&s, "mem.xml", spec, sizeof spec - 1, &e), 0);
	CU_ASSERT_EQUAL_FATAL(s.nunits, 8);
	/* canonical: (cus 4, warps 8), (4, 16), (8, 8), (8, 16), each x 2 workloads;
	 * run order: the points with the same warps next to each other */
	size_t order[8];
	for (size_t u = 0; u < 8; u++)
		order[u] = u;
	iw_sweep_order(&s, order, 8);
	static const size_t want[8] = {0, 1, 4, 5, 2, 3, 6, 7};
	CU_ASSERT_EQUAL(memcmp(order, want, sizeof want), 0);
	struct iw_base_cache *bc = iw_base_cache_new(8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bc);
	struct iw_row shared[2], own[2];
	size_t same = 0;
	for (size_t k = 0; k < 8; k++) {
		CU_ASSERT_EQUAL_FATAL(iw_sweep_unit(&s, order[k], shared, bc, &e), 0);
		CU_ASSERT_EQUAL_FATAL(iw_sweep_unit(&s, order[k], own, NULL, &e), 0);
		CU_ASSERT_STRING_EQUAL(shared[0].scheme, "inorder");
		same += same_row(&shared[0], &own[0]) && same_row(&shared[1], &own[1]);
		for (int i = 0; i < 2; i++) {
			iw_row_free(&shared[i]);
			iw_row_free(&own[i]);
		}
	}
	CU_ASSERT_EQUAL(same, 8);
	uint64_t hits, misses;
	iw_base_cache_stats(bc, &hits, &misses);
	CU_ASSERT_EQUAL(hits, 4);
	CU_ASSERT_EQUAL(misses, 4);
	iw_base_cache_free(bc);
	iw_sweep_free(&s);

	/* the program: workers take a family each, so with three threads too
	 * each baseline is simulated once, and the file is the one of -j 1 */
	const char *dir = tu_tmpdir();
	const char *path = write_spec(dir, "share.xml", spec);
	char args[2000], a[600], b[600];
	snprintf(a, sizeof a, "%s/j1.h5", dir);
	snprintf(b, sizeof b, "%s/j3.h5", dir);
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 1 -q", path, a);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(8 points x 2 schemes; 4 in-order baseline runs shared)"));
	snprintf(args, sizeof args, "sweep '%s' -o '%s' -j 3 -q", path, b);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "4 in-order baseline runs shared"));
	CU_ASSERT(same_h5(a, b));
}

/* A baseline being simulated is waited for, not simulated a second time:
 * a second asker blocks until the first puts the run (then gets it) or
 * gives up (then simulates it itself). */
struct asker {
	struct iw_base_cache *c;
	const char *key;
	int got, done;
};

static void *ask(void *p)
{
	struct asker *a = p;
	struct iw_run_result r;
	a->got = iw_base_cache_get(a->c, a->key, &r);
	if (a->got)
		iw_run_result_free(&r);
	__atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void a_baseline_in_flight_is_waited_for(void)
{
	struct iw_base_cache *c = iw_base_cache_new(4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	struct iw_run_result run, mine;
	memset(&run, 0, sizeof run);
	run.cycles = 77;
	uint64_t ins[1] = {5}, cyc[1] = {10}, act[IW_A_COUNT] = {0};
	run.series = (struct iw_series){10, 1, 1, act, ins, cyc};
	for (int give_up = 0; give_up < 2; give_up++) {
		const char *key = give_up ? "k2" : "k1";
		CU_ASSERT_EQUAL(iw_base_cache_get(c, key, &mine), 0); /* a miss: this thread simulates it */
		struct asker a = {c, key, -1, 0};
		pthread_t t;
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, ask, &a), 0);
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
		CU_ASSERT_EQUAL(__atomic_load_n(&a.done, __ATOMIC_ACQUIRE), 0); /* still waiting */
		if (give_up)
			iw_base_cache_abandon(c, key);
		else
			iw_base_cache_put(c, key, &run);
		pthread_join(t, NULL);
		CU_ASSERT_EQUAL(a.got, !give_up);
		if (give_up) /* the second asker simulates it now: its marker goes */
			iw_base_cache_abandon(c, key);
	}
	CU_ASSERT_EQUAL(iw_base_cache_get(c, "k1", &mine), 1);
	CU_ASSERT_EQUAL(mine.cycles, 77);
	CU_ASSERT_EQUAL(mine.series.insts[0], 5);
	CU_ASSERT(mine.series.insts != ins); /* a copy */
	iw_run_result_free(&mine);
	uint64_t hits, misses;
	iw_base_cache_stats(c, &hits, &misses);
	CU_ASSERT_EQUAL(hits, 2);
	CU_ASSERT_EQUAL(misses, 3);
	iw_base_cache_free(c);
}

/* Fields of one CSV line (RFC 4180 quoting); -1 if a quote is left open. */
static int csv_fields(const char *line, char first[256])
{
	int n = 1, q = 0;
	size_t k = 0;
	for (const char *c = line; *c && *c != '\n'; c++) {
		if (*c == '"') {
			if (q && c[1] == '"') {
				c++;
			} else {
				q = !q;
				continue;
			}
		} else if (*c == ',' && !q) {
			n++;
			continue;
		}
		if (n == 1 && k < 255)
			first[k++] = *c;
	}
	first[k] = 0;
	return q ? -1 : n;
}

/* A workload whose name holds commas (synth knobs in a spec) stays one CSV
 * field: every row has as many fields as the header, the name intact. */
static void csv_rows_keep_names_with_commas_whole(void)
{
	const char *dir = tu_tmpdir();
	const char *p = write_spec(dir, "comma.xml",
				   "<?xml version=\"1.0\"?>\n<sweep>\n  <config>vortex</config>\n"
				   "  <workload>synth:warps=4,ctas=8,sp=0.5</workload>\n  <scheme>loog</scheme>\n"
				   "  <axis key=\"loog.cus\" values=\"6 8\"/>\n</sweep>\n");
	char args[2048];
	snprintf(args, sizeof args, "sweep '%s' -q -j 1 -o '%s/comma.h5'", p, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, NULL, 0, err, sizeof err), 0);
	snprintf(args, sizeof args, "report '%s/comma.h5' --format csv", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	char first[256];
	int nh = csv_fields(out, first), rows = 0;
	CU_ASSERT_STRING_EQUAL(first, "workload");
	for (const char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		CU_ASSERT_EQUAL(csv_fields(l + 1, first), nh);
		CU_ASSERT_STRING_EQUAL(first, "synth:warps=4,ctas=8,sp=0.5");
		rows++;
	}
	CU_ASSERT_EQUAL(rows, 4); /* 2 configurations x (loog + inorder) */
}

/* Read a report's text file whole into buf (0 if it cannot). */
static size_t slurp(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sz - 1, f);
	buf[n] = 0;
	fclose(f);
	return n;
}

/* Does dir/rel hold needle?  (A missing or empty file holds nothing.) */
static int file_has(const char *dir, const char *rel, const char *needle)
{
	static char buf[262144];
	char path[1200];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	return slurp(path, buf, sizeof buf) > 0 && strstr(buf, needle) != NULL;
}

/* Seeds swept alone are replicates: the speed-up figure shows the geometric
 * mean over seeds with its 95% confidence interval (Student's t on the
 * logarithms), worked out here from the runs' cycles; design points get
 * their lowest and highest value instead. */
static void report_shows_the_seeds_confidence_interval(void)
{
	const char *dir = tu_tmpdir();
	const char *p = write_spec(dir, "seeds.xml",
				   "<?xml version=\"1.0\"?>\n<sweep>\n  <config>v100</config>\n"
				   "  <workload>stencil</workload>\n  <workload>bfs</workload>\n  <scheme>ghost</scheme>\n"
				   "  <set key=\"run.workload_scale\" value=\"0.02\"/>\n"
				   "  <set key=\"run.interval\" value=\"5000\"/>\n"
				   "  <axis key=\"run.seed\" values=\"1 2 3\"/>\n</sweep>\n");
	char args[2048], path[700];
	snprintf(args, sizeof args, "sweep '%s' -q -o '%s/seeds.h5'", p, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, NULL, 0, err, sizeof err), 0);
	snprintf(args, sizeof args, "report '%s/seeds.h5' --format csv", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	/* workload,scheme,config,tech,run.seed,cycles,...: speed-up per seed */
	double lg[2][3] = {{0}};
	int seen = 0;
	for (const char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		char wl[32], sch[32];
		double seed, cycles;
		if (sscanf(l + 1, "%31[^,],%31[^,],%*[^,],%*[^,],%lf,%lf", wl, sch, &seed, &cycles) != 4)
			continue;
		int w = !strcmp(wl, "bfs"), k = (int)seed - 1;
		CU_ASSERT_FATAL(k >= 0 && k < 3);
		lg[w][k] += (strcmp(sch, "inorder") ? -1 : 1) * log(cycles);
		seen++;
	}
	CU_ASSERT_EQUAL_FATAL(seen, 12);
	snprintf(args, sizeof args, "report '%s/seeds.h5' -o '%s/rep' --no-render -q", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	static char dat[8192];
	snprintf(path, sizeof path, "%s/rep/speedup.dat", dir);
	CU_ASSERT_FATAL(slurp(path, dat, sizeof dat) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "95% confidence interval"));
	int wide = 0;
	for (int w = 0; w < 2; w++) {
		const char *l = strstr(dat, w ? "\nbfs " : "\nstencil ");
		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		double v[6];
		CU_ASSERT_EQUAL_FATAL(sscanf(strchr(l + 1, ' '), "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
					     &v[4], &v[5]), 6);
		CU_ASSERT(v[0] == 1 && v[1] == 1 && v[2] == 1); /* the baseline against itself */
		double m = (lg[w][0] + lg[w][1] + lg[w][2]) / 3, ss = 0;
		for (int k = 0; k < 3; k++)
			ss += (lg[w][k] - m) * (lg[w][k] - m);
		double half = 4.302652729911275 * sqrt(ss / 2) / sqrt(3.0); /* t(0.975, 2 degrees of freedom) */
		CU_ASSERT_DOUBLE_EQUAL(v[3], exp(m), 1e-7);
		CU_ASSERT_DOUBLE_EQUAL(v[4], exp(m - half), 1e-7);
		CU_ASSERT_DOUBLE_EQUAL(v[5], exp(m + half), 1e-7);
		wide += v[5] - v[4] > 1e-4;
	}
	CU_ASSERT(wide > 0); /* the seeds do move the result */
	CU_ASSERT(file_has(dir, "rep/index.html", "geometric mean over 3 seeds; bars: 95% confidence interval"));
	CU_ASSERT(file_has(dir, "rep/speedup.gp", "using 5:6:7 title 'ghost'"));
	CU_ASSERT(file_has(dir, "rep/tables.tex", "geo.\\ mean & 1.000 {\\scriptsize [1.000, 1.000]} & "));

	/* Energy: the pipeline's per-instruction energy is its own column, the
	 * same for both schemes (same instructions); the issue-stage figure
	 * shows GhOST's own structures, which in-order does not have. */
	snprintf(path, sizeof path, "%s/rep/energy.dat", dir);
	CU_ASSERT_FATAL(slurp(path, dat, sizeof dat) > 0);
	const char *hdr = strstr(dat, "# scheme fetch "), *in = strstr(dat, "\ninorder "), *gh = strstr(dat, "\nghost ");
	CU_ASSERT_FATAL(hdr && in && gh);
	CU_ASSERT_PTR_NOT_NULL(strstr(hdr, " pipeline static\n"));
	const char *pin = in, *pgh = gh;
	for (int k = 0; k < IW_S_COUNT + 1; k++) { /* to the pipeline column */
		pin = strchr(pin + 1, ' ');
		pgh = strchr(pgh + 1, ' ');
		CU_ASSERT_FATAL(pin && pgh);
	}
	double pipe_in = atof(pin), pipe_gh = atof(pgh);
	CU_ASSERT(pipe_in > 0);
	CU_ASSERT_DOUBLE_EQUAL(pipe_gh, pipe_in, 1e-9 * pipe_in);
	snprintf(path, sizeof path, "%s/rep/energy_issue.dat", dir);
	CU_ASSERT_FATAL(slurp(path, dat, sizeof dat) > 0);
	in = strstr(dat, "\ninorder ");
	gh = strstr(dat, "\nghost ");
	CU_ASSERT_FATAL(strstr(dat, "# scheme ib sb sched dm dc isb itab rat cu rrs bcast rf\n") && in && gh);
	double vi[12], vg[12];
	for (int k = 0; k < 12; k++) {
		in = strchr(in + 1, ' ');
		gh = strchr(gh + 1, ' ');
		CU_ASSERT_FATAL(in && gh);
		vi[k] = atof(in);
		vg[k] = atof(gh);
	}
	for (int k = 4; k <= 6; k++) /* dc isb itab */
		CU_ASSERT(vi[k] == 0 && vg[k] > 0);
	CU_ASSERT(vi[11] > 0 && vg[11] > 0); /* both read the register file */

	/* design points (the tiny spec's warps x threads): lowest and highest */
	p = write_spec(dir, "tiny.xml", tiny_spec);
	snprintf(args, sizeof args, "sweep '%s' -q -o '%s/tiny.h5' && '%s' report '%s/tiny.h5' -o '%s/trep' --no-render -q",
		 p, dir, getenv("IW_BIN") ? getenv("IW_BIN") : "build/issuewatt", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/trep/speedup.dat", dir);
	CU_ASSERT_FATAL(slurp(path, dat, sizeof dat) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(dat, "lowest and highest over the configurations"));
	const char *l = strstr(dat, "\nvecadd ");
	double v[6];
	CU_ASSERT_FATAL(l && sscanf(strchr(l + 1, ' '), "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4],
				    &v[5]) == 6);
	CU_ASSERT(v[4] <= v[3] && v[3] <= v[5] && v[4] < v[5]);
	CU_ASSERT_FATAL(file_has(dir, "trep/tables.tex", "\\label{tab:speedup}"));
	CU_ASSERT(!file_has(dir, "trep/tables.tex", "scriptsize"));
}

/* The power figure draws every interval of a run, the first too (fsteps
 * draws up to a row from the row before, and a row ends its interval), and a
 * run in its scheme's colour, its IPC in the same: gnuplot's automatic line
 * types, two per run, gave ideal in-order's colour. */
static void power_figure_draws_every_interval_in_its_schemes_colour(void)
{
	const char *dir = tu_tmpdir();
	char args[2000], path[700];
	snprintf(args, sizeof args, "run -q -w vecadd --scale 0.05 --set gpu.sms=4 -o '%s/pw.h5'", dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "report '%s/pw.h5' -o '%s/pwrep' --no-render -q", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	static char dat[262144], gp[16384];
	snprintf(path, sizeof path, "%s/pwrep/power.dat", dir);
	CU_ASSERT_FATAL(slurp(path, dat, sizeof dat) > 0);
	/* each run's block: a row at time 0 with the first interval's power and
	 * IPC, then that interval's own row at its end */
	static const char *const runs[] = {"inorder", "socgpu", "ghost", "loog", "ideal"};
	for (size_t i = 0; i < 5; i++) {
		char head[64];
		snprintf(head, sizeof head, "# vecadd, %s\n", runs[i]);
		const char *b = strstr(dat, head);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		b += strlen(head);
		double t0, p0, i0, t1, p1, i1;
		CU_ASSERT_EQUAL_FATAL(sscanf(b, "%lf %lf %lf\n%lf %lf %lf", &t0, &p0, &i0, &t1, &p1, &i1), 6);
		CU_ASSERT_EQUAL(t0, 0);
		CU_ASSERT(t1 > 0);
		CU_ASSERT_EQUAL(p0, p1);
		CU_ASSERT_EQUAL(i0, i1);
	}
	snprintf(path, sizeof path, "%s/pwrep/power.gp", dir);
	CU_ASSERT_FATAL(slurp(path, gp, sizeof gp) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, "index 0 using 1:2 with fsteps lw 2 lc 1 title 'vecadd, inorder'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, "index 4 using 1:2 with fsteps lw 2 lc 5 title 'vecadd, ideal'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(gp, "index 4 using 1:3 axes x1y2 with fsteps dt 2 lc 5 title"));
}

/* The stall figure's caption says what idle counts: on a kernel of one CTA
 * (the matrixmul trace: 79 of v100's 80 SMs without work) idle is 98% of the
 * stack, which "a kernel's tail" alone did not explain. */
static void stall_caption_says_idle_counts_sms_without_work(void)
{
	const char *dir = tu_tmpdir();
	char args[2000], path[700];
	static char html[262144];
	snprintf(args, sizeof args, "run -q -s inorder -w '%s' -o '%s/one.h5'", tu_path("tests/data/traces/matrixmul-sm61"),
		 dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(args, sizeof args, "report '%s/one.h5' -o '%s/onerep' --no-render -q", dir, dir);
	CU_ASSERT_EQUAL_FATAL(tu_run(args, out, sizeof out, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/onerep/index.html", dir);
	CU_ASSERT_FATAL(slurp(path, html, sizeof html) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "idle: no warp resident (an SM or scheduler without work: a kernel's tail, or a "
					    "kernel of too few CTAs to fill the GPU, whose idle SMs count too)"));
}

void suite_sweep(void)
{
	TU_SUITE("sweep", {"spec errors name file and line", spec_errors_name_file_and_line},
		 {"ranges expand inclusively, canonical order", ranges_expand_inclusively_and_order_is_canonical},
		 {"named values sweep and read back", named_values_sweep_and_read_back},
		 {"shipped examples load", shipped_examples_load},
		 {"same results whatever the parallelism", same_results_whatever_the_parallelism},
		 {"stopped sweep resumes to the same results", stopped_sweep_resumes_to_the_same_results},
		 {"stopped sweep keeps an existing results file", stopped_sweep_keeps_an_existing_results_file},
		 {"report labels traces by their folder", report_labels_traces_by_their_folder},
		 {"a changed configuration is not merged or resumed", a_changed_configuration_is_not_merged_or_resumed},
		 {"a spec laid out anew still merges and resumes", a_spec_laid_out_anew_still_merges_and_resumes},
		 {"results of another version are not merged or resumed", results_of_another_version_are_not_merged_or_resumed},
		 {"a bad trace fails the sweep before any point", a_bad_trace_fails_the_sweep_before_any_point},
		 {"a failed sweep keeps a file to resume", a_failed_sweep_keeps_a_file_to_resume},
		 {"merge and report help fit the command", merge_and_report_help_fit_the_command},
		 {"report output as the help says", report_output_as_the_help_says},
		 {"report names every figure and renders it", report_names_every_figure_and_renders_it},
		 {"rows survive packing", rows_survive_packing},
		 {"in-order run ignores other schemes' parameters", inorder_run_ignores_other_schemes_parameters},
		 {"points share a baseline, row for row", points_share_a_baseline_row_for_row},
		 {"a baseline in flight is waited for", a_baseline_in_flight_is_waited_for},
		 {"CSV rows keep names with commas whole", csv_rows_keep_names_with_commas_whole},
		 {"report shows the seeds' confidence interval", report_shows_the_seeds_confidence_interval},
		 {"power figure draws every interval in its scheme's colour", power_figure_draws_every_interval_in_its_schemes_colour},
		 {"stall caption says idle counts SMs without work", stall_caption_says_idle_counts_sms_without_work});
}
