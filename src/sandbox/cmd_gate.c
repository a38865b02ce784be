/*
 * cmd_gate — `fronts gate` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_gate(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts gate: not available in this build\n");
	return EXIT_ERROR;
}
