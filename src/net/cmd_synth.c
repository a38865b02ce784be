/*
 * cmd_synth — `fronts synth` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_synth(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts synth: not available in this build\n");
	return EXIT_ERROR;
}
