/*
 * cmd_plan — `fronts plan` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_plan(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts plan: not available in this build\n");
	return EXIT_ERROR;
}
