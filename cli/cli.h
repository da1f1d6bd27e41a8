/*
 * cli/cli.h -- the sub-commands of the issuewatt program.  Each returns the
 * process exit code (0 success, 1 run failed, 2 usage, 3 invalid input) and
 * prints its own messages; only cli/main.c calls exit.
 */
#ifndef IW_CLI_H
#define IW_CLI_H

int cmd_run(int argc, char **argv);        /* cli/cmd_run.c */
int cmd_list(int argc, char **argv);       /* cli/cmd_run.c */
int cmd_trace_info(int argc, char **argv); /* cli/cmd_trace_info.c */
int cmd_area(int argc, char **argv);       /* cli/cmd_area.c */
int cmd_calibrate(int argc, char **argv);  /* cli/cmd_calibrate.c */
int cmd_sweep(int argc, char **argv);      /* cli/cmd_sweep.c */
int cmd_merge(int argc, char **argv);      /* cli/cmd_sweep.c */
int cmd_report(int argc, char **argv);     /* cli/cmd_sweep.c */

/* Print "issuewatt: <msg>" to stderr and return the status as an exit code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 0 when path (an option's value, NULL if not given) names something, else
 * a usage error: an empty -o '' would otherwise pass until the finished
 * output is renamed into place, after all the work. */
int cli_path_given(const char *opt, const char *what, const char *path);
/* SIGINT or SIGTERM (sig) ends the program as without a handler, having
 * removed the temporary file of every output being written (main sets it for
 * both; a sweep, which stops on the first signal, again for the second). */
void cli_signal_cleanup(int sig);
/* The whole command line, for provenance attributes. */
extern const char *cli_command_line;

#endif
