/* cli/cmd_area.c -- 'issuewatt area' (being built). */
#include "cli.h"

int cmd_area(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'area' is not available in this build yet");
}
