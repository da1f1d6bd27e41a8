/* cli/cmd_calibrate.c -- 'issuewatt calibrate': show what a synthesis report
 * holds, or fit cost-model coefficients to a calibration spec. */
#include "calib.h"
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: issuewatt calibrate --show REPORT [--instance PATH] [--format text|csv] [--report-format F]\n"
		"       issuewatt calibrate SPEC.xml [-o TECH.xml] [--fit-report FILE.txt] [--h5 FILE.h5]\n"
		"                           [--method ols|wls|robust|nnls] [--tech FILE|PRESET]\n"
		"Fit cost-model coefficients to synthesis reports (see calib/README.md).\n\n"
		"  --show REPORT        print every (instance, quantity, value, unit) parsed from REPORT\n"
		"  --instance PATH      only this instance (path from the top, '/' between levels)\n"
		"  --format text|csv    output of --show (default text)\n"
		"  --report-format F    parser to use instead of detecting it:");
	for (size_t i = 0; i < iw_report_format_count(); i++)
		fprintf(f, " %s", iw_report_format_name(i));
	fprintf(f, "\n"
		   "  -o, --output FILE    calibrated technology/device file (the spec's tech file,\n"
		   "                       fitted coefficients marked with std_error, points, sources)\n"
		   "  --fit-report FILE    fit report as text (default: printed to stdout)\n"
		   "  --h5 FILE            fit report as HDF5 (coefficients, errors, per-point residuals)\n"
		   "  --method M           override the spec's fitting method\n"
		   "  --tech T             technology/device file or preset to mark (default: the spec's)\n"
		   "  --list-structures    structures, their parameters and model features\n\n"
		   "Report formats:\n");
	for (size_t i = 0; i < iw_report_format_count(); i++)
		fprintf(f, "  %-14s %s\n", iw_report_format_name(i), iw_report_format_help(i));
	fprintf(f, "\nExit status: 0 ok, 1 run failed, 2 usage, 3 invalid input (file:line and what was expected).\n");
}

static int show(const char *path, const char *instance, const char *fmt, const char *rfmt)
{
	struct iw_err e = {0};
	struct iw_report r;
	int csv = 0;
	if (strcmp(fmt, "csv") == 0)
		csv = 1;
	else if (strcmp(fmt, "text") != 0)
		return cli_fail(2, "--format: expected text or csv, found '%s'", fmt);
	if (iw_report_load(&r, path, rfmt, &e))
		return cli_fail(e.code, "%s", e.msg);
	const char *inst = NULL;
	if (instance) {
		inst = iw_report_instance(&r, instance);
		if (!inst) {
			int rc = cli_fail(3, "%s: expected an instance '%s' (path from the top '%s'), found no such path",
					  path, instance, r.top);
			iw_report_free(&r);
			return rc;
		}
	}
	if (csv)
		printf("instance,quantity,value,unit,line\n");
	else
		printf("# %s: format %s, top '%s', %zu values\n", path, r.format, r.top, r.n);
	for (size_t i = 0; i < r.n; i++) {
		const struct iw_report_row *w = &r.rows[i];
		if (inst && strcmp(w->instance, inst) != 0)
			continue;
		if (csv) {
			iw_csv_field(stdout, w->instance);
			putchar(',');
			iw_csv_field(stdout, w->quantity);
			printf(",%.10g,", w->value);
			iw_csv_field(stdout, w->unit);
			printf(",%d\n", w->line);
		} else {
			printf("%-40s %-32s %14.10g %-8s line %d\n", w->instance[0] ? w->instance : "-", w->quantity,
			       w->value, w->unit, w->line);
		}
	}
	iw_report_free(&r);
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{"show", required_argument, 0, 's'},   {"instance", required_argument, 0, 'i'},
		{"format", required_argument, 0, 'f'}, {"report-format", required_argument, 0, 'r'},
		{"output", required_argument, 0, 'o'}, {"fit-report", required_argument, 0, 't'},
		{"h5", required_argument, 0, 'H'},     {"method", required_argument, 0, 'm'},
		{"tech", required_argument, 0, 'T'},   {"list-structures", no_argument, 0, 'L'},
		{"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
	};
	const char *show_path = NULL, *instance = NULL, *fmt = "text", *rfmt = NULL, *out = NULL, *txt = NULL,
		   *h5 = NULL, *method = NULL, *tech = NULL;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': show_path = optarg; break;
		case 'i': instance = optarg; break;
		case 'f': fmt = optarg; break;
		case 'r': rfmt = optarg; break;
		case 'o': out = optarg; break;
		case 't': txt = optarg; break;
		case 'H': h5 = optarg; break;
		case 'm': method = optarg; break;
		case 'T': tech = optarg; break;
		case 'L': iw_calib_features_print(stdout); return 0;
		case 'h': usage(stdout); return 0;
		default:
			usage(stderr);
			return cli_fail(2, "calibrate: unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (show_path) {
		if (optind < argc)
			return cli_fail(2, "calibrate --show: unexpected argument '%s'", argv[optind]);
		return show(show_path, instance, fmt, rfmt);
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return cli_fail(2, "calibrate: expected one calibration spec (or --show REPORT)");
	}
	if (cli_path_given("--output", "a file name", out) || cli_path_given("--fit-report", "a file name", txt) ||
	    cli_path_given("--h5", "a file name", h5))
		return 2;
	int m = -1;
	if (method) {
		enum iw_fit_method fm;
		if (iw_fit_method_parse(method, &fm))
			return cli_fail(2, "--method: expected ols, wls, robust or nnls, found '%s'", method);
		m = (int)fm;
	}
	struct iw_err e = {0};
	struct iw_calib cal;
	int rc = iw_calib_load(&cal, argv[optind], &e);
	/* Usage and outputs before the fit, as run and sweep check theirs before
	 * simulating: not a whole fit printed and then refused. */
	if (!rc && tech && !out)
		rc = iw_fail(&e, IW_EUSAGE, "--tech needs -o FILE for the calibrated file");
	if (!rc && out && !tech && !cal.tech)
		rc = iw_fail(&e, IW_EUSAGE, "-o %s: expected a technology/device file to mark (the spec's tech attribute "
				       "or --tech), found none", out);
	const char *outs[] = {txt, h5, out};
	for (size_t i = 0; i < 3 && !rc; i++)
		if (outs[i])
			rc = iw_out_check(outs[i], &e);
	if (!rc && out) /* the file to mark, read before the fit as after it */
		rc = iw_calib_tech_check(&cal, tech, &e);
	if (!rc)
		rc = iw_calib_run(&cal, m, &e);
	if (!rc) {
		if (txt)
			rc = iw_calib_write_text(&cal, txt, &e);
		else
			iw_calib_print(&cal, stdout);
	}
	if (!rc && h5)
		rc = iw_calib_write_h5(&cal, h5, &e);
	if (!rc && out)
		rc = iw_calib_write_tech(&cal, tech, out, &e);
	iw_calib_free(&cal);
	if (rc)
		return cli_fail(e.code, "%s", e.msg);
	return 0;
}
