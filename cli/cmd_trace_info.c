/* cli/cmd_trace_info.c -- 'issuewatt trace-info' (being built). */
#include "cli.h"

int cmd_trace_info(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'trace-info' is not available in this build yet");
}
