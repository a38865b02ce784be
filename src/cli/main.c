/*
 * main — fronts' entry point; everything else starts in cli_main().
 */
#include "cli/cli.h"

int
main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
