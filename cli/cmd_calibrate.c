/* cli/cmd_calibrate.c -- 'issuewatt calibrate' (being built). */
#include "cli.h"

int cmd_calibrate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(1, "'calibrate' is not available in this build yet");
}
