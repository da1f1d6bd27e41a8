/* cli/util.c -- helpers shared by the sub-commands. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

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

