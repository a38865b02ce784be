/*
 * cmd_approve — `fronts approve` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_approve(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts approve: not available in this build\n");
	return EXIT_ERROR;
}
