/* cli/cmd_run.c -- 'issuewatt run' and 'issuewatt list' (being built). */
#include "cli.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'run' is not available in this build yet");
}

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'list' is not available in this build yet");
}
