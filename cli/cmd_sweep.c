/* cli/cmd_sweep.c -- 'issuewatt sweep', 'merge' and 'report' (being built). */
#include "cli.h"

int cmd_sweep(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'sweep' is not available in this build yet");
}

int cmd_merge(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'merge' is not available in this build yet");
}

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'report' is not available in this build yet");
}
