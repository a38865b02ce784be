/*
 * cli — fronts' command table, global options and error reporting.
 */
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/termsafe.h"
#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"

const struct cmd cli_commands[] = {
	{ "init", "scaffold a project from the bundled demo",
	  "DIR", cmd_init, false },
	{ "synth", "ask a language model to write the world model",
	  "[-C DIR] [--provider P] [--llm-model M] [--record] [--rounds N] [-o FILE]\n"
	  "               [--fixtures DIR] [--timeout S] [--seed N]",
	  cmd_synth, false },
	{ "gate", "check a world model's source with the AST gate",
	  "FILE [--json]", cmd_gate, false },
	{ "approve", "review and approve the world model's exact bytes",
	  "[-C DIR] [--model FILE] [--yes]", cmd_approve, false },
	{ "validate", "check the model's conformance and calibration",
	  "[-C DIR] [--model FILE] [--isolation process|thread] [--json]", cmd_validate, false },
	{ "drafts", "each draft's length per front against its limit",
	  "[-C DIR] [--json]", cmd_drafts, false },
	{ "plan", "search for the best posting plan",
	  "[-C DIR] [--model FILE] [--iterations N | --seconds S] [--workers N]\n"
	  "               [--isolation process|thread] [--seed N] [--call-timeout-ms MS]\n"
	  "               [--json] [-o PLAN.json]", cmd_plan, false },
	{ "publish", "publish a plan's posts, one keypress each (dry run unless --live)",
	  "PLAN.json [-C DIR] [--live] [--now] [--timeout-ms MS]", cmd_publish, false },
	{ "ledger", "list or settle the publish ledger",
	  "[-C DIR] | resolve ID --sent URL|--failed [-C DIR]", cmd_ledger, false },
	{ "check", "prove credentials and platform limits before a live run (read-only)",
	  "[-C DIR] [--json]", cmd_check, false },
	{ "tui", "the interactive planner (also: fronts alone on a terminal)",
	  "[-C DIR] [--live] [--theme NAME]", cmd_tui, false },
	{ "sandbox", "list the worker's sandbox layers on this machine",
	  "[-C DIR] [--json]", cmd_sandbox, false },
	{ "__worker", "sandbox worker (internal)", "", cmd_worker, true },
	{ NULL, NULL, NULL, NULL, false }
};

static const struct cmd *
cli_find(const char *name)
{
	const struct cmd *c;

	for (c = cli_commands; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void
cli_print_help(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "usage: fronts [-C DIR] COMMAND [OPTIONS]\n"
	    "       fronts --help | --version\n\n"
	    "fronts plans social-media posting across several accounts.\n\n"
	    "commands:\n");
	for (c = cli_commands; c->name != NULL; c++)
		if (!c->hidden)
			fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\nexit codes: 0 ok, 1 error, 2 usage, 3 refused (gate, approval,\n"
	    "legality), 4 model timed out, was killed or crashed, 5 provider or\n"
	    "network failure. `fronts COMMAND --help` shows a command's options.\n");
}

static void
cli_print_cmd_help(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: fronts %s %s\n\n%s\n", c->name, c->usage, c->summary);
}

int
cli_usage_error(const char *name, const char *fmt, ...)
{
	const struct cmd *c = cli_find(name);
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	/* The message may quote an argument or a file's contents. */
	termsafe_fprintf(stderr, "fronts %s: %s\n", name, msg != NULL ? msg :
	    "usage error");
	free(msg);
	if (c != NULL)
		fprintf(stderr, "usage: fronts %s %s\n", c->name, c->usage);
	return EXIT_USAGE;
}

int
cli_dir_json_options(struct cli *cli, const char *name, int argc,
    char **argv, bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*json = false;
	while ((c = getopt_long(argc, argv, "C:", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			cli->dir = optarg;
			break;
		case 'j':
			*json = true;
			break;
		default:
			return cli_usage_error(name, "unknown option");
		}
	}
	if (optind != argc)
		return cli_usage_error(name, "unexpected argument %s",
		    argv[optind]);
	return EXIT_OK;
}

int
cli_report(const char *name, const struct error *err)
{
	/* Messages quote models, files and servers: shown, never obeyed. */
	termsafe_fprintf(stderr, "fronts %s: %s\n", name,
	    err->msg[0] != '\0' ? err->msg : "failed");
	return err->code != 0 ? err->code : EXIT_ERROR;
}

const char *
cli_self_path(void)
{
	static char path[PATH_MAX];
	ssize_t n;

	if (path[0] != '\0')
		return path;
	n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return path;
}

static bool
cli_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	}
	return false;
}

int
cli_main(int argc, char **argv)
{
	struct cli cli = { ".", argv[0] };
	const struct cmd *c;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cli_print_help(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("fronts %s\nlibpython %s\n%s", FRONTS_VERSION,
			    pyhost_version(), namespace_breach_build() ?
			    "assume-breach TEST BUILD: never run a real "
			    "model with it\n" : "");
			return EXIT_OK;
		}
		if (strcmp(argv[i], "-C") == 0 && i + 1 < argc) {
			cli.dir = argv[i + 1];
			i += 2;
			continue;
		}
		termsafe_fprintf(stderr, "fronts: unknown option %s\n",
		    argv[i]);
		cli_print_help(stderr);
		return EXIT_USAGE;
	}
	if (i == argc) {
		/* `fronts` alone on a terminal opens the TUI. */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return cmd_tui(&cli, 1, (char *[]){ "tui", NULL });
		cli_print_help(stderr);
		return EXIT_USAGE;
	}
	if ((c = cli_find(argv[i])) == NULL) {
		termsafe_fprintf(stderr, "fronts: unknown command '%s'\n",
		    argv[i]);
		cli_print_help(stderr);
		return EXIT_USAGE;
	}
	if (!c->hidden && cli_wants_help(argc - i, argv + i)) {
		cli_print_cmd_help(stdout, c);
		return EXIT_OK;
	}
	optind = 0;	/* each command runs its own getopt_long */
	return c->run(&cli, argc - i, argv + i);
}
