/*
 * cmd_init — `fronts init DIR`: scaffolds a project from the bundled demo,
 * or with --empty an empty one (an example front, no history, drafts or
 * model; README.txt says what goes where).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/demo.h"

static void
cmd_init_next(const char *dir, bool empty)
{
	if (empty) {
		printf("created an empty project in %s (see %s/README.txt)\n\n"
		    "next:\n"
		    "  edit %s/fronts.json          your fronts and their "
		    "limits\n"
		    "  fronts -C %s history import FILE --front ID   past "
		    "posts\n"
		    "  fronts -C %s synth --provider builtin   a world model "
		    "fitted to them\n"
		    "  fronts -C %s approve         review and approve it\n",
		    dir, dir, dir, dir, dir, dir);
		return;
	}
	printf("created project %s from the bundled demo\n\n"
	    "next:\n"
	    "  fronts -C %s drafts          lengths of the drafts per front\n"
	    "  fronts gate %s/model.py      check the world model\n"
	    "  fronts -C %s approve         review and approve it\n"
	    "  fronts -C %s plan            plan the posts\n",
	    dir, dir, dir, dir, dir);
}

static int
cmd_init_exec(struct cli *cli, struct args *a)
{
	struct error err = { 0 };
	const char *dir = args_arg(a, 0);
	bool empty = args_has(a, "empty");

	if (args_count(a) > 1)
		return cli_usage_error("init", "too many arguments");
	if (dir == NULL)
		return cli_usage_error("init", "missing DIR");
	if (demo_scaffold(dir, empty, &err) != 0)
		return cli_report("init", &err);
	cmd_init_next(dir, empty);
	return EXIT_OK;
}

const struct cmd_entry cmd_init_entry = {
	.name = "init",
	.summary = "scaffold a project from the bundled demo (--empty: an empty one)",
	.usage = "[--empty] DIR",
	.options = (const struct args_option[]){
		{ .name = "empty", .kind = ARGS_FLAG,
		  .help = "an empty project instead of the demo" },
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_init_exec,
};
