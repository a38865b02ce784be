/*
 * cli — fronts' command table, global options and error reporting.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/hook.h"
#include "core/project.h"
#include "sandbox/approval.h"
#include "core/termsafe.h"
#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"

/* In --help order. */
static const struct cmd_entry *cli_commands[] = {
	&cmd_init_entry,
	&cmd_synth_entry,
	&cmd_gate_entry,
	&cmd_approve_entry,
	&cmd_validate_entry,
	&cmd_drafts_entry,
	&cmd_plan_entry,
	&cmd_pin_entry,
	&cmd_show_entry,
	&cmd_publish_entry,
	&cmd_ledger_entry,
	&cmd_run_entry,
	&cmd_check_entry,
	&cmd_history_entry,
	&cmd_tui_entry,
	&cmd_sandbox_entry,
	&cmd_worker_entry,
	NULL
};

static const struct cmd_entry *
cli_find(const char *name)
{
	const struct cmd_entry **c;

	for (c = cli_commands; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

static void
cli_print_help(FILE *f)
{
	const struct cmd_entry **c;

	fprintf(f, "usage: fronts [-C DIR] COMMAND [OPTIONS]\n"
	    "       fronts --help | --version\n\n"
	    "fronts plans social-media posting across several accounts.\n\n"
	    "commands:\n");
	for (c = cli_commands; *c != NULL; c++)
		if (!(*c)->hidden)
			fprintf(f, "  %-9s %s\n", (*c)->name, (*c)->summary);
	fprintf(f, "\nexit codes: 0 ok, 1 error, 2 usage, 3 refused (gate, approval,\n"
	    "legality), 4 model timed out, was killed or crashed, 5 provider or\n"
	    "network failure. `fronts COMMAND --help` shows a command's options.\n");
}

static void
cli_print_cmd_help(FILE *f, const struct cmd_entry *c)
{
	fprintf(f, "usage: fronts %s %s\n\n%s\n", c->name, c->usage, c->summary);
	if (c->details != NULL)
		fprintf(f, "\n%s", c->details);
}

int
cli_usage_error(const char *name, const char *fmt, ...)
{
	const struct cmd_entry *c = cli_find(name);
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
cli_whole(const char *name, const char *opt, const char *arg, uint64_t min,
    uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = isdigit((unsigned char)arg[0]) ? strtoull(arg, &end, 10) : 0;
	if (!isdigit((unsigned char)arg[0]) || errno != 0 || *end != '\0' ||
	    v < min || v > max)
		return cli_usage_error(name, "--%s: expected a whole number "
		    "from %llu to %llu, got '%s'", opt, (unsigned long long)min,
		    (unsigned long long)max, arg);
	*out = v;
	return 0;
}

int
cli_number(const char *name, const char *opt, const char *arg, double over,
    double upto, bool upto_in, const char *unit, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || isspace((unsigned
	    char)arg[0]) || !(v > over) || !(upto_in ? v <= upto : v < upto))
		return cli_usage_error(name, "--%s: expected a number%s%s "
		    "above %.15g and %s %.15g, got '%s'", opt, unit[0] ? " of " : "",
		    unit, over, upto_in ? "at most" : "below", upto, arg);
	*out = v;
	return 0;
}

int
cli_time_limit(const char *name, const char *arg, double *out)
{
	return cli_number(name, "time-limit", arg, 0, 1e6, true, "seconds",
	    out);
}

int
cli_memory_mb(const char *name, const char *arg, long *out)
{
	uint64_t v;

	if (cli_whole(name, "memory-mb", arg, 64, 1048576, &v) != 0)
		return EXIT_USAGE;
	*out = (long)v;
	return 0;
}

int
cli_report(const char *name, const struct error *err)
{
	/* Messages quote models, files and servers: shown, never obeyed. */
	termsafe_fprintf(stderr, "fronts %s: %s\n", name,
	    err->msg[0] != '\0' ? err->msg : "failed");
	return err->code != 0 ? err->code : EXIT_ERROR;
}

int
cli_no_model(const char *dir, const char *model, struct error *err)
{
	char *path;
	struct stat sb;
	int rc = 0;

	if (model != NULL)
		return 0;
	path = path_join(dir, "model.py");
	if (lstat(path, &sb) != 0 && errno == ENOENT)
		rc = error_set(err, EXIT_ERROR, "%s: no world model yet; write "
		    "one with `fronts synth --provider builtin` (fitted to "
		    "history.jsonl, no language model needed) or `fronts "
		    "synth`, then `fronts approve`", path);
	free(path);
	return rc;
}

int
cli_load_approved(const char *dir, const char *model, struct project **p,
    char **path, char **src, size_t *len, struct error *err)
{
	char sha[65];

	*p = NULL;
	*src = NULL;
	*path = model != NULL ? xstrdup(model) : path_join(dir, "model.py");
	if (project_load(dir, p, err) != 0 ||
	    cli_no_model(dir, model, err) != 0 ||
	    file_read(*path, src, len, err) != 0)
		return -1;
	sha256_hex(*src, *len, sha);
	return approval_check(dir, sha, err);
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
	const struct cmd_entry *c;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cli_print_help(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("fronts %s\nlibpython %s\n%s%s", FRONTS_VERSION,
			    pyhost_version(), namespace_breach_build() ?
			    "assume-breach TEST BUILD: never run a real "
			    "model with it\n" : "", hook_enabled() ?
			    "test hooks: TEST BUILD, not for use\n" : "");
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
			return cmd_tui_entry.exec(&cli, 1,
			    (char *[]){ "tui", NULL });
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
	/* A test build reads its clock hook (and refuses a malformed one)
	 * before the command, not at the first "now" deep inside it. */
	(void)clock_now();
	optind = 0;	/* each command runs its own getopt_long */
	return c->exec(&cli, argc - i, argv + i);
}
