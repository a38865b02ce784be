/*
 * cmd_init — `fronts init` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_init(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts init: not available in this build\n");
	return EXIT_ERROR;
}
