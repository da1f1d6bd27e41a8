/* cli/cmd_run.c -- 'issuewatt run' (the default command) and 'issuewatt list'. */
#include "cli.h"
#include "reports.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void run_help(FILE *f)
{
	fprintf(f,
		"Usage: issuewatt [run] [OPTION]...\n"
		"Simulate workloads on a GPU configuration with instruction-issue schemes, count what every\n"
		"structure does, and report cycles, energy, power, area, speed-up, ADP, PDP and EDP against the\n"
		"in-order baseline (which always runs).\n\n"
		"Options:\n"
		"  -c, --config=PRESET|FILE   GPU/SM configuration (default: v100; presets: 'issuewatt list presets')\n"
		"  -t, --tech=PRESET|FILE     technology or FPGA device file (default: 12nm; 'issuewatt list tech')\n"
		"  -s, --scheme=NAME[,NAME]   schemes to compare, or 'all' (default: all); repeatable\n"
		"  -w, --workload=NAME|PATH   built-in workload, 'builtin' for the default set, or an Accel-Sim\n"
		"                             trace (folder, kernelslist.g or .traceg[.xz|.gz]) (default: builtin); repeatable\n"
		"      --set=KEY=VALUE        override a configuration key (see --help-config), or tech.vdd /\n"
		"                             tech.clock_mhz / tech.COEFFICIENT of the technology, or give a\n"
		"                             coefficient an error: tech.COEFFICIENT.std_error=X or =N%%; repeatable\n"
		"      --interval=CYCLES      cycles per activity/power sample (default: 1000)\n"
		"      --seed=N               seed of the built-in workload generator (default: 1)\n"
		"      --scale=X              multiply the built-in workloads' grid sizes by X (default: 1); below 1\n"
		"                             a kernel may not fill the GPU: fewer warps per SM, where\n"
		"                             out-of-order issue gains more than at full occupancy\n"
		"  -o, --output=FILE.h5       write every result to an HDF5 file (default: none)\n"
		"      --format=text|csv|json summary on standard output (default: text); csv: one row per run;\n"
		"                             json: {\"runs\": [...], \"geomeans\": [...]}: the csv's fields, the\n"
		"                             stall breakdown, the IB/IsB/CU/RRS utilisation and the kernels;\n"
		"                             each scheme's geometric means over the workloads.  A technology\n"
		"                             file with fitted standard errors (issuewatt calibrate) adds the\n"
		"                             model's uncertainty: the *_se columns (0 otherwise) and, in\n"
		"                             text, a second table\n"
		"      --kernels              per kernel too (cycles, warp-instructions, IPC, energy; speed-up\n"
		"                             and energy against inorder on the same kernel): text: a second\n"
		"                             table; csv: one row per run and kernel instead of one per run;\n"
		"                             with fitted standard errors, each kernel's (*_se)\n"
		"  -j, --jobs=N               simulations at a time (default: every core the process may use, as\n"
		"                             taskset or Slurm allow; the results are the same)\n"
		"  -q, --quiet                no progress lines on standard error\n"
		"      --help-config          list every configuration key with type, unit, default and range\n"
		"      --help                 show this help and exit\n"
		"      --version              show the version and exit\n\n"
		"Other commands: issuewatt list|trace-info|area|calibrate|sweep|merge|report (each has --help).\n\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the run failed (I/O error, out of memory, simulation deadlock)\n"
		"  2  usage error (unknown option or command, missing argument)\n"
		"  3  invalid input (a file, preset, scheme, workload or --set value; the message names the file\n"
		"     and line or the key, and no output file is left behind)\n"
		"SIGINT or SIGTERM ends the run at once, with no output file left behind (not even half\n"
		"written); the shell sees 128 + the signal (130 for SIGINT).\n");
}

/* Append `v` as one more line of *list (grown as needed: any number of -w). */
static int append_line(char **list, const char *v)
{
	size_t n = *list ? strlen(*list) : 0, m = strlen(v);
	char *p = realloc(*list, n + m + 2);
	if (!p)
		return -1;
	if (n)
		p[n++] = '\n';
	memcpy(p + n, v, m + 1);
	*list = p;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"config", required_argument, 0, 'c'},   {"tech", required_argument, 0, 't'},
		{"scheme", required_argument, 0, 's'},   {"workload", required_argument, 0, 'w'},
		{"set", required_argument, 0, 'S'},      {"interval", required_argument, 0, 'I'},
		{"seed", required_argument, 0, 'R'},     {"scale", required_argument, 0, 'X'},
		{"output", required_argument, 0, 'o'},   {"format", required_argument, 0, 'F'},
		{"quiet", no_argument, 0, 'q'},          {"help", no_argument, 0, 'h'},
		{"help-config", no_argument, 0, 'H'},    {"version", no_argument, 0, 'V'},
		{"jobs", required_argument, 0, 'j'},     {"kernels", no_argument, 0, 'K'},
		{0, 0, 0, 0},
	};
	const char *config = "v100", *tech = "12nm", *output = NULL, *format = "text";
	char *schemes = NULL, *workloads = NULL; /* one line per -s / -w */
	char **sets = calloc((size_t)argc + 4, sizeof *sets);
	char *owned[3] = {0}; /* --interval/--seed/--scale become --set assignments */
	size_t nsets = 0;
	int quiet = 0, rc = 0, jobs = -1, per_kernel = 0;
	long v;
	if (!sets)
		return cli_fail(1, "out of memory");
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":c:t:s:w:o:j:qh", opts, NULL)) != -1) {
		char buf[64];
		switch (c) {
		case 'c': config = optarg; break;
		case 't': tech = optarg; break;
		case 's':
		case 'w':
			if (append_line(c == 's' ? &schemes : &workloads, optarg)) {
				rc = cli_fail(1, "out of memory");
				goto done;
			}
			break;
		case 'S': sets[nsets++] = optarg; break;
		case 'I':
		case 'R':
		case 'X': {
			int k = c == 'I' ? 0 : c == 'R' ? 1 : 2;
			static const char *const key[] = {"run.interval", "run.seed", "run.workload_scale"};
			/* checked here, so the message names the option the user typed */
			static const char *const opt[] = {"--interval", "--seed", "--scale"};
			double value;
			struct iw_err pe = {0};
			if (iw_param_parse(iw_param_find(key[k]), optarg, &value, &pe)) {
				rc = cli_fail(3, "%s: %s", opt[k], pe.msg);
				goto done;
			}
			snprintf(buf, sizeof buf, "%s=%s", key[k], optarg);
			free(owned[k]);
			if (!(owned[k] = strdup(buf))) {
				rc = cli_fail(1, "out of memory");
				goto done;
			}
			sets[nsets++] = owned[k];
			break;
		}
		case 'o': output = optarg; break;
		case 'F': format = optarg; break;
		case 'K': per_kernel = 1; break;
		case 'q': quiet = 1; break;
		case 'j':
			if (iw_parse_long(optarg, &v) || v < 1) {
				rc = cli_fail(2, "--jobs %s: expected a whole number >= 1", optarg);
				goto done;
			}
			jobs = (int)IW_MIN(v, 1024);
			break;
		case 'h': run_help(stdout); goto done;
		case 'H': iw_config_help(stdout); goto done;
		case 'V': printf("issuewatt %s\n", IW_VERSION); goto done;
		case ':': rc = cli_fail(2, "option '%s' needs an argument (see --help)", argv[optind - 1]); goto done;
		default: rc = cli_fail(2, "unknown option '%s' (see --help)", argv[optind - 1]); goto done;
		}
	}
	if (optind < argc && strcmp(argv[optind], "run") != 0) {
		rc = cli_fail(2, "unexpected argument '%s' (see --help)", argv[optind]);
		goto done;
	}
	if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "json")) {
		rc = cli_fail(2, "--format %s: expected text, csv or json", format);
		goto done;
	}
	if ((rc = cli_path_given("--output", "a file name", output)))
		goto done;
	struct iw_err e = {0};
	struct iw_job job;
	int r = iw_job_init(&job, config, tech, sets, nsets, schemes ? schemes : "all",
			    workloads ? workloads : "builtin", &e);
	job.verbose = !quiet && strcmp(format, "text") == 0;
	job.jobs = jobs;
	if (r == 0 && output) /* before the simulations, not after them */
		r = iw_out_check(output, &e);
	for (size_t si = 0; r == 0 && job.tech.kind == IW_TECH_FPGA && si < job.nschemes; si++) {
		/* before the simulations too: a design the device cannot hold is
		 * worth knowing before waiting for its figures */
		struct iw_area_result a;
		char misfit[256];
		r = iw_area_eval(&job.cfg, job.schemes[si], &job.tech, &a, &e);
		if (r == 0 && iw_area_misfit(&a, misfit, sizeof misfit))
			fprintf(stderr,
				"issuewatt: warning: %s on %s does not fit the %s device: %s; its FPGA figures describe "
				"no design that can be built\n",
				job.schemes[si], job.cfg.name, job.tech.name, misfit);
	}
	if (r == 0)
		r = iw_job_run(&job, &e);
	/* the coefficients' errors: what the rows' sensitivities refer to */
	struct iw_model_unc unc = {0};
	if (r == 0)
		r = iw_model_unc_of(&unc, &job.tech, &e);
	const double *corr = unc.n ? unc.corr : NULL;
	if (r == 0 && output) {
		char *used = iw_tech_to_xml(&job.tech);
		struct iw_h5_meta m = {cli_command_line, job.cfg.name, job.config_xml, job.tech.name,
				       job.tech.xml_text ? job.tech.xml_text : "", NULL, 0, &unc, used, NULL};
		r = used ? iw_h5_write(output, &m, job.rows, job.nrows, &e) : iw_fail(&e, IW_ERUN, "out of memory");
		iw_free(used);
	}
	if (r == 0) {
		if (strcmp(format, "csv") == 0 && per_kernel)
			iw_kernels_csv(stdout, job.rows, job.nrows, corr);
		else if (strcmp(format, "csv") == 0)
			iw_summary_csv(stdout, job.rows, job.nrows, NULL, 0, 1);
		else if (strcmp(format, "json") == 0)
			r = iw_job_json(stdout, &job, &e);
		else {
			printf("issuewatt %s: %s at %s, %zu workload(s) x %zu scheme(s)\n\n", IW_VERSION, job.cfg.name,
			       job.tech.name, job.nworkloads, job.nschemes);
			iw_summary_text(stdout, job.rows, job.nrows);
			r = iw_job_geomean_text(stdout, &job, &e);
			if (r == 0 && per_kernel) {
				putchar('\n');
				iw_kernels_text(stdout, job.rows, job.nrows, corr);
			}
			if (r == 0 && output)
				printf("\nresults: %s\n", output);
		}
	}
	iw_model_unc_free(&unc);
	if (r)
		rc = cli_fail(e.code ? e.code : 1, "%s", e.msg);
	iw_job_free(&job);
done:
	for (int k = 0; k < 3; k++)
		free(owned[k]);
	free(sets);
	free(schemes);
	free(workloads);
	return rc;
}

int cmd_list(int argc, char **argv)
{
	const char *what = argc >= 2 ? argv[1] : "";
	if (!strcmp(what, "--help") || !*what) {
		FILE *f = *what ? stdout : stderr;
		fprintf(f, "Usage: issuewatt list presets|schemes|workloads|structures|activities|tech|schema\n"
			   "  presets     GPU/SM configuration presets\n"
			   "  schemes     issue schemes\n"
			   "  workloads   built-in workloads\n"
			   "  structures  modelled hardware structures\n"
			   "  activities  counted actions (structure.action) with their units\n"
			   "  tech        technology and FPGA device presets\n"
			   "  schema      the configuration XML schema (XSD), generated from the parameter table\n");
		return *what ? 0 : 2;
	}
	if (!strcmp(what, "presets")) {
		for (size_t i = 0; i < iw_preset_count(); i++) {
			struct iw_config c;
			struct iw_err e = {0};
			iw_config_defaults(&c);
			if (iw_config_load(&c, iw_preset_name(i), NULL, &e) == 0)
				printf("%-10s %s\n", iw_preset_name(i), c.description);
		}
	} else if (!strcmp(what, "schemes")) {
		for (size_t i = 0; i < iw_scheme_count(); i++)
			printf("%-8s %s\n", iw_scheme_name(i), iw_scheme_help(i));
	} else if (!strcmp(what, "workloads")) {
		for (size_t i = 0; i < iw_builtin_count(); i++)
			printf("%-12s %s\n", iw_builtin_get(i)->name, iw_builtin_get(i)->description);
		printf("%-12s %s\n", "PATH", "an Accel-Sim trace: a folder, its kernelslist.g, or one kernel-N.traceg[.xz|.gz]");
	} else if (!strcmp(what, "structures")) {
		for (int s = 0; s < IW_S_COUNT; s++)
			printf("%-6s %s\n", iw_structs[s].name, iw_structs[s].help);
	} else if (!strcmp(what, "activities")) {
		for (int a = 0; a < IW_A_COUNT; a++)
			printf("%-20s %-11s %s\n", iw_act_name(a), iw_acts[a].unit, iw_acts[a].help);
	} else if (!strcmp(what, "tech")) {
		for (size_t i = 0; i < iw_tech_preset_count(); i++)
			printf("%s\n", iw_tech_preset_name(i));
	} else if (!strcmp(what, "schema")) {
		iw_config_write_xsd(stdout);
	} else {
		return cli_fail(2, "list %s: expected presets, schemes, workloads, structures, activities, tech or schema",
				what);
	}
	return 0;
}
