/*
 * cmd_init — `fronts init DIR`: scaffolds a project from the bundled demo.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "core/demo.h"

static int
cmd_init_exec(struct cli *cli, int argc, char **argv)
{
	struct error err = { 0 };
	const char *dir = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] != '\0')
			return cli_usage_error("init", "unknown option %s",
			    argv[i]);
		if (dir != NULL)
			return cli_usage_error("init", "too many arguments");
		dir = argv[i];
	}
	if (dir == NULL)
		return cli_usage_error("init", "missing DIR");
	if (demo_scaffold(dir, &err) != 0)
		return cli_report("init", &err);
	printf("created project %s from the bundled demo\n\n"
	    "next:\n"
	    "  fronts -C %s drafts          lengths of the drafts per front\n"
	    "  fronts gate %s/model.py      check the world model\n"
	    "  fronts -C %s approve         review and approve it\n"
	    "  fronts -C %s plan            plan the posts\n",
	    dir, dir, dir, dir, dir);
	return EXIT_OK;
}

const struct cmd_entry cmd_init_entry = {
	.name = "init",
	.summary = "scaffold a project from the bundled demo",
	.usage = "DIR",
	.exec = cmd_init_exec,
};
