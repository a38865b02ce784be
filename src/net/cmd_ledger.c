/*
 * cmd_ledger — `fronts ledger` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_ledger(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts ledger: not available in this build\n");
	return EXIT_ERROR;
}
