/*
 * cmd_publish — `fronts publish` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_publish(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts publish: not available in this build\n");
	return EXIT_ERROR;
}
