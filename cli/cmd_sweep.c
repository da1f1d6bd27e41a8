/* cli/cmd_sweep.c -- 'issuewatt sweep', 'merge' and 'report'. */
#include "cli.h"
#include "reports.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef IW_MPI
#include <mpi.h>
#endif

static const char exit_status[] =
	"Exit status:\n"
	"  0  success\n"
	"  1  the run failed or was stopped (I/O error, out of memory, SIGINT/SIGTERM, --limit); the\n"
	"     results file then holds every finished point (unless it could not be written: the message\n"
	"     says) and --resume finishes the rest; a results file that existed before a sweep without\n"
	"     --resume is left as it was, and the finished points go to NAME.partial.h5 beside it\n"
	"  2  usage error (unknown option, missing argument)\n"
	"  3  invalid input (the spec, a results file, a trace, a workload or configuration value; the\n"
	"     message names the file and line); no results file is written (one being resumed stays as\n"
	"     it was). Each trace is read through once before any point runs.\n";

static const char merge_exit_status[] =
	"Exit status:\n"
	"  0  success\n"
	"  1  the merge failed (I/O error, out of memory); no merged file is written\n"
	"  2  usage error (unknown option, missing argument)\n"
	"  3  invalid input (a file that is not a sweep's results, or the results of another spec,\n"
	"     configuration, technology or issuewatt version than the first file's; the message names\n"
	"     the file and what differs); no merged file is written\n";

static const char report_exit_status[] =
	"Exit status:\n"
	"  0  success\n"
	"  1  the report failed (I/O error, out of memory); a report already in DIR stays as it was, a\n"
	"     folder the report made is removed\n"
	"  2  usage error (unknown option, missing argument, -o with --format csv|json)\n"
	"  3  invalid input (a file that is not a results file, a --power-runs run it does not hold)\n";

static void sweep_help(FILE *f)
{
	fprintf(f,
		"Usage: issuewatt sweep SPEC.xml -o RESULTS.h5 [OPTION]...\n"
		"Run a design-space sweep: the spec's workloads x schemes x every combination of its parameter\n"
		"axes (reports/sweep.xsd; examples/*.xml), the in-order baseline of every configuration included,\n"
		"into one HDF5 results file (the layout of 'issuewatt run -o', plus a column per axis).\n\n"
		"Options:\n"
		"  -o, --output=FILE.h5   results file (required); written atomically\n"
		"  -j, --jobs=N           worker threads (default: every core the process may use)\n"
		"      --shard=I/N        run only shard I of N (1-based; points are dealt round-robin), e.g.\n"
		"                         --shard=$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT in a job array\n"
		"                         submitted with --array=1-N; join the shards' files with 'issuewatt merge'\n"
		"      --resume           keep the finished points of an existing FILE.h5 and run the rest\n"
		"      --limit=N          stop after N points (as if interrupted; finish later with --resume)\n"
		"  -q, --quiet            no progress on standard error\n"
		"      --help             show this help and exit\n\n"
		"Progress goes to standard error: a bar with ETA on a terminal, a line every 5 s otherwise.\n"
		"SIGINT or SIGTERM stops the sweep: the running points finish and the results file holds every\n"
		"finished point (NAME.partial.h5 does if FILE existed and --resume was not given; a second signal\n"
		"quits at once, exit 128 + the signal, leaving no results file but one being resumed, as it was).\n"
		"Built with 'make MPI=1', 'mpirun -np N issuewatt sweep ...' deals the points from rank 0 to the\n"
		"other ranks, and rank 0 alone writes the file.\n"
		"The results are the same bit for bit whatever -j, --shard, MPI or interruptions.\n\n%s",
		exit_status);
}

static volatile int stop_flag;
static void on_signal(int sig)
{
	stop_flag = 1;
	cli_signal_cleanup(sig); /* a second signal quits at once, leaving no half-written file */
}

static int parse_count(const char *s, long lo, long *out)
{
	return iw_parse_long(s, out) || *out < lo ? -1 : 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, 0, 'o'}, {"jobs", required_argument, 0, 'j'},
		{"shard", required_argument, 0, 'S'},  {"resume", no_argument, 0, 'r'},
		{"limit", required_argument, 0, 'L'},  {"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
	};
	const char *out = NULL;
	struct iw_sweep_opts o;
	memset(&o, 0, sizeof o);
	o.progress = 1;
	int c;
	long v;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'j':
			if (parse_count(optarg, 1, &v))
				return cli_fail(2, "--jobs %s: expected a whole number >= 1", optarg);
			o.jobs = (int)IW_MIN(v, 1024);
			break;
		case 'S': {
			long i, n;
			char buf[64];
			snprintf(buf, sizeof buf, "%s", optarg);
			char *sl = strchr(buf, '/');
			if (!sl)
				return cli_fail(2, "--shard %s: expected I/N, e.g. 2/8", optarg);
			*sl = 0;
			if (parse_count(buf, 1, &i) || parse_count(sl + 1, 1, &n) || i > n)
				return cli_fail(2, "--shard %s: expected I/N with 1 <= I <= N", optarg);
			o.shard = (size_t)(i - 1);
			o.nshards = (size_t)n;
			break;
		}
		case 'r': o.resume = 1; break;
		case 'L':
			if (parse_count(optarg, 1, &v))
				return cli_fail(2, "--limit %s: expected a whole number >= 1", optarg);
			o.limit = (size_t)v;
			break;
		case 'q': o.progress = 0; break;
		case 'h': sweep_help(stdout); return 0;
		case ':': return cli_fail(2, "option '%s' needs an argument (see --help)", argv[optind - 1]);
		default: return cli_fail(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_fail(2, optind >= argc ? "sweep: expected a spec file (see --help)"
						  : "sweep: expected one spec file, found '%s' too (see --help)",
				argv[optind + 1 < argc ? optind + 1 : optind]);
	if (!out)
		return cli_fail(2, "sweep: expected -o RESULTS.h5 (see --help)");
	if (cli_path_given("--output", "a file name", out))
		return 2;
	const char *spec = argv[optind];
#ifdef IW_MPI
	int mpi_inited = 0, rank = 0;
	MPI_Initialized(&mpi_inited);
	if (!mpi_inited)
		MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank > 0)
		o.progress = 0;
#else
	const char *ws = getenv("OMPI_COMM_WORLD_SIZE");
	if (ws && atoi(ws) > 1 && strcmp(getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : "0", "0") == 0)
		fprintf(stderr, "issuewatt: warning: started by mpirun but built without MPI (make MPI=1): every rank "
				"runs the whole sweep\n");
#endif
	struct iw_err e = {0};
	struct iw_sweep s;
	int rc = 0;
	if (iw_sweep_load(&s, spec, &e) == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		o.stop = &stop_flag;
		o.command_line = cli_command_line;
		int r = iw_sweep_run(&s, out, &o, &e);
		cli_signal_cleanup(SIGINT);
		cli_signal_cleanup(SIGTERM);
		if (r)
			rc = cli_fail(e.code ? e.code : 1, "%s", e.msg);
		else if (o.is_writer) {
			/* the baseline runs other points' served (a sweep over other schemes' parameters) */
			char shared[64] = "";
			if (o.base_shared)
				snprintf(shared, sizeof shared, "; %zu in-order baseline run%s shared", o.base_shared,
					 o.base_shared == 1 ? "" : "s");
			printf("results: %s (%zu points x %zu schemes%s)\n", out, o.done, s.base.nschemes, shared);
		}
	} else {
		rc = cli_fail(e.code ? e.code : 1, "%s", e.msg);
	}
	iw_sweep_free(&s);
#ifdef IW_MPI
	if (o.mpi_abandoned) {
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, rc ? rc : 1);
	}
	if (!mpi_inited)
		MPI_Finalize();
#endif
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	const char *out = NULL;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h':
			printf("Usage: issuewatt merge A.h5 B.h5 ... -o ALL.h5\n"
			       "Join results files of one sweep spec (shards of a Slurm job array or GNU parallel,\n"
			       "partial runs) into one, in the sweep's canonical point order: the result is the same bit\n"
			       "for bit as a single-process sweep. A point found in several files is kept once.\n\n"
			       "Options:\n"
			       "  -o, --output=FILE.h5   merged results file (required)\n"
			       "      --help             show this help and exit\n\n%s",
			       merge_exit_status);
			return 0;
		case ':': return cli_fail(2, "option '%s' needs an argument (see --help)", argv[optind - 1]);
		default: return cli_fail(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (!out)
		return cli_fail(2, "merge: expected -o ALL.h5 (see --help)");
	if (cli_path_given("--output", "a file name", out))
		return 2;
	if (optind >= argc)
		return cli_fail(2, "merge: expected at least one results file (see --help)");
	struct iw_err e = {0};
	size_t runs = 0, expected = 0;
	if (iw_sweep_merge((const char *const *)argv + optind, (size_t)(argc - optind), out, cli_command_line, &runs,
			   &expected, &e))
		return cli_fail(e.code ? e.code : 1, "%s", e.msg);
	if (expected && runs < expected)
		printf("results: %s (%zu of the spec's %zu runs; the others: the missing shards, or 'issuewatt sweep SPEC "
		       "-o %s --resume')\n",
		       out, runs, expected, out);
	else if (expected)
		printf("results: %s (all %zu runs of the spec)\n", out, runs);
	else
		printf("results: %s (%zu runs)\n", out, runs);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, 0, 'o'}, {"format", required_argument, 0, 'F'},
		{"no-render", no_argument, 0, 'N'},    {"quiet", no_argument, 0, 'q'},
		{"power-runs", required_argument, 0, 'P'},
		{"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
	const char *out = NULL, *format = "html", *power_runs = NULL;
	int c, render = 1, quiet = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'F': format = optarg; break;
		case 'N': render = 0; break;
		case 'P': power_runs = optarg; break;
		case 'q': quiet = 1; break;
		case 'h':
			printf("Usage: issuewatt report RESULTS.h5 -o DIR\n"
			       "       issuewatt report RESULTS.h5 --format csv|json\n"
			       "Turn a results file (from 'run -o', 'sweep' or 'merge') into what a paper needs: DIR/index.html\n"
			       "with figures rendered by gnuplot as SVG and PNG (speed-up per workload and scheme, of the\n"
			       "kernel time and of the mean SM busy time; IPC, ADP and PDP heat maps over warps x threads per\n"
			       "CU count and RRS factor, normalised to the in-order baseline; energy per structure, and of\n"
			       "the issue-stage structures alone; stall stacks (scheduler-cycles without an issue per\n"
			       "warp-instruction, by reason); power over time; reorder distances; CU/RRS\n"
			       "allocation-period and no-CU stall CDFs; over several configurations, speed-up against\n"
			       "area and energy with each scheme's Pareto front), each next to its gnuplot script (.gp) and\n"
			       "data (.dat) for restyling; the same data as CSV (summary.csv) and LaTeX tables (tables.tex);\n"
			       "the inputs as run (config.xml, tech.xml, a sweep's spec.xml), to run them again.\n"
			       "With a technology file whose coefficients have standard errors, the tables give every value\n"
			       "+- its model error (means too: one coefficient moves every run) and uncertainty_budget.csv\n"
			       "each coefficient's share of it.\n"
			       "Without gnuplot, or with one that fails to start, the data and scripts are still written\n"
			       "and the page says why and how to render them.\n\n"
			       "Options:\n"
			       "  -o, --output=DIR       folder for the report (created if needed, its parents too)\n"
			       "      --format=html|csv|json  html: the report in DIR (default); csv: the summary table\n"
			       "                         (one row per run, the 'run --format csv' columns plus every\n"
			       "                         swept parameter) on standard output; json: the same as one\n"
			       "                         document, as 'run --format json', the parameters in \"params\"\n"
			       "                         (csv and json take no -o: redirect standard output)\n"
			       "      --power-runs=WORKLOAD:SCHEME[,...]  runs whose power over time is plotted (at the\n"
			       "                         first configuration; default: the spec's <power-trace> elements,\n"
			       "                         else the first workload with every scheme)\n"
			       "      --no-render        write data and scripts, do not run gnuplot\n"
			       "  -q, --quiet            no progress on standard error\n"
			       "      --help             show this help and exit\n\n"
			       "Environment: IW_GNUPLOT names the gnuplot program (default: gnuplot on PATH).\n\n%s",
			       report_exit_status);
			return 0;
		case ':': return cli_fail(2, "option '%s' needs an argument (see --help)", argv[optind - 1]);
		default: return cli_fail(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_fail(2, "report: expected one results file (see --help)");
	if (strcmp(format, "html") && strcmp(format, "csv") && strcmp(format, "json"))
		return cli_fail(2, "--format %s: expected html, csv or json", format);
	if (!strcmp(format, "html") && !out)
		return cli_fail(2, "report: expected -o DIR (or --format csv|json)");
	if (strcmp(format, "html") && out)
		return cli_fail(2, "report: -o %s: --format %s writes to standard output (redirect it: > FILE); -o is "
				   "the folder of the html report",
				out, format);
	if (cli_path_given("--output", "a folder name", out))
		return 2;
	struct iw_err e = {0};
	struct iw_results res;
	if (iw_h5_read(argv[optind], &res, &e))
		return cli_fail(e.code ? e.code : 1, "%s", e.msg);
	int rc = 0;
	if (!strcmp(format, "csv")) {
		iw_summary_csv(stdout, res.rows, res.n, (const char *const *)res.param_names, res.nparams, 1);
	} else if (!strcmp(format, "json")) {
		if (iw_report_json(stdout, &res, &e))
			rc = cli_fail(e.code ? e.code : 1, "%s", e.msg);
	} else {
		struct iw_report_opts ro = {getenv("IW_GNUPLOT"), render, quiet, power_runs};
		if (iw_report_write(&res, out, &ro, &e))
			rc = cli_fail(e.code ? e.code : 1, "%s", e.msg);
		else
			printf("report: %s/index.html\n", out);
	}
	iw_results_free(&res);
	return rc;
}
