/*
 * cmd_tui — `fronts tui` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_tui(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts tui: not available in this build\n");
	return EXIT_ERROR;
}
