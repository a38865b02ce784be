/*
 * cmd_validate — `fronts validate` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_validate(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts validate: not available in this build\n");
	return EXIT_ERROR;
}
