/*
 * cmd_history_pull — `fronts history pull`.
 */
#include "cli/cmd_history_int.h"

int
history_pull(struct cli *cli, int argc, char **argv)
{
	return cli_usage_error("history", "pull is not available yet");
}
