/*
 * cmd_tui — `fronts tui [-C DIR] [--live] [--theme NAME] [--notify CMD]`:
 * the interactive planner (src/ui), started with what the options say.
 * Needs a terminal on stdin and stdout.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ui/ui.h"

static int
cmd_tui_exec(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "live", no_argument, NULL, 'l' },
		{ "theme", required_argument, NULL, 't' },
		{ "notify", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	struct ui_args a = { 0 };
	struct error err = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, "C:", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			cli->dir = optarg;
			break;
		case 'l':
			a.live = true;
			break;
		case 't':
			a.theme = optarg;
			break;
		case 'n':
			a.notify = optarg;
			break;
		default:
			return cli_usage_error("tui", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("tui", "unexpected argument '%s'",
		    argv[optind]);
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
	.exec = cmd_tui_exec,
};
