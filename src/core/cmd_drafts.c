/*
 * cmd_drafts — `fronts drafts` (being built; see the issue that owns it).
 */
#include <stdio.h>

#include "core/cli.h"

int
cmd_drafts(struct cli *cli, int argc, char **argv)
{
	fprintf(stderr, "fronts drafts: not available in this build\n");
	return EXIT_ERROR;
}
