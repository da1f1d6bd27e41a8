/* cli/main.c -- the issuewatt program: dispatch to a sub-command. */
#include "cli.h"
#include "iw.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{"run", cmd_run, "simulate workloads with issue schemes; energy, area, speed-up (default)"},
	{"list", cmd_list, "list presets, schemes, workloads, structures, activities, tech"},
	{"trace-info", cmd_trace_info, "summarise an Accel-Sim trace (kernels, warps, mix, footprint)"},
	{"area", cmd_area, "area and FPGA resources of a configuration and scheme, no simulation"},
	{"calibrate", cmd_calibrate, "fit cost-model coefficients to synthesis reports"},
	{"sweep", cmd_sweep, "run a design-space study from an XML spec into HDF5"},
	{"merge", cmd_merge, "merge sweep result files (shards) into one"},
	{"report", cmd_report, "figures and tables (HTML, SVG/PNG, CSV, LaTeX) from sweep results"},
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: issuewatt COMMAND [OPTION]...\n"
		   "What a GPU instruction-issue scheme costs and gains: simulate, count, price.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < IW_ARRAY_LEN(commands); i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'issuewatt COMMAND --help' describes each command's options.\n"
		   "Without a command, 'issuewatt' runs 'issuewatt run': every scheme on the built-in\n"
		   "workloads, on the v100 preset at 12 nm.\n");
}

int main(int argc, char **argv)
{
	/* Keep the command line for provenance (HDF5 attributes). */
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 3;
	char *cl = malloc(n);
	if (cl) {
		cl[0] = 0;
		for (int i = 0; i < argc; i++) {
			if (i)
				strcat(cl, " ");
			strcat(cl, argv[i]);
		}
		cli_command_line = cl;
	}
	cli_signal_cleanup(SIGINT);
	cli_signal_cleanup(SIGTERM);
	int rc;
	if (argc >= 2 && argv[1][0] != '-') {
		for (size_t i = 0; i < IW_ARRAY_LEN(commands); i++)
			if (strcmp(argv[1], commands[i].name) == 0) {
				rc = commands[i].fn(argc - 1, argv + 1);
				goto out;
			}
		usage(stderr);
		rc = cli_fail(2, "unknown command '%s'", argv[1]);
		goto out;
	}
	/* No command: options belong to 'run' (so --help, --version and --help-config
	 * describe the default command, which help2man turns into the man page). */
	rc = cmd_run(argc, argv);
out:
	/* A summary lost on a full disk or a closed pipe is a failed run, not a success. */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0)
		rc = cli_fail(1, "standard output: write failed: %s", strerror(errno ? errno : EIO));
	free(cl);
	return rc;
}
