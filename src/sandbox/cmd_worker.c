/*
 * cmd_worker — `fronts __worker` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_worker(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts __worker: not available in this build\n");
	return EXIT_ERROR;
}
