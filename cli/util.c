/* cli/util.c -- helpers shared by the sub-commands. */
#include "cli.h"
#include "iw.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *cli_command_line = "";

int cli_fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("issuewatt: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return code;
}

int cli_path_given(const char *opt, const char *what, const char *path)
{
	return path && !*path ? cli_fail(2, "%s: expected %s, found an empty path", opt, what) : 0;
}


/* Dies of the signal as without a handler (the shell sees 128 + its number),
 * with no output file half-written. */
static void die_clean(int sig)
{
	iw_out_unlink_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

void cli_signal_cleanup(int sig)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = die_clean;
	sigemptyset(&sa.sa_mask);
	/* a signal the caller ignores (nohup, a script's background job) stays ignored */
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(sig, &sa, NULL);
}
