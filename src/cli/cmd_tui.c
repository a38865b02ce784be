/*
 * cmd_tui — `fronts tui [-C DIR] [--live] [--theme NAME] [--notify CMD]`:
 * the interactive planner (src/ui), started with what the options say.
 * Needs a terminal on stdin and stdout.
 */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ui/ui.h"

static int
cmd_tui_exec(struct cli *cli, struct args *args)
{
	struct ui_args a = { 0 };
	struct error err = { 0 };

	a.live = args_has(args, "live");
	a.theme = args_string(args, "theme");
	a.notify = args_string(args, "notify");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "fronts tui: needs a terminal on stdin and "
		    "stdout (the CLI commands work without one)\n");
		return EXIT_USAGE;
	}
	a.dir = cli->dir;
	if (ui_run(&a, &err) != 0)
		return cli_report("tui", &err);
	return EXIT_OK;
}

const struct cmd_entry cmd_tui_entry = {
	.name = "tui",
	.summary = "the interactive planner (also: fronts alone on a terminal)",
	.usage = "[-C DIR] [--live] [--theme NAME] [--notify CMD]",
	.options = (const struct args_option[]){
		{ .name = "live", .kind = ARGS_FLAG,
		  .help = "publish for real (default: a dry run)" },
		{ .name = "theme", .kind = ARGS_STRING, .metavar = "NAME",
		  .help = "the colour theme (themes/NAME.theme)" },
		CLI_OPTION_NOTIFY,
		{ .name = NULL }
	},
	.exec = cmd_tui_exec,
};
