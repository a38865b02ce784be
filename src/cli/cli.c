/*
 * cli — fronts' command table, global options and error reporting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/hook.h"
#include "core/project.h"
#include "core/search.h"
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

/* -C DIR: every command takes it (and --help, answered before). */
static const struct args_option cli_common[] = {
	{ .name = "dir", .letter = 'C', .short_only = true,
	  .kind = ARGS_STRING, .metavar = "DIR",
	  .help = "the project directory (default: the current one)" },
	{ .name = NULL }
};

static void
cli_print_cmd_help(FILE *f, const struct cmd_entry *c)
{
	const struct cmd_entry *const *s;

	fprintf(f, "usage: fronts %s %s\n\n%s\n", c->name, c->usage, c->summary);
	if (!c->raw) {
		fprintf(f, "\noptions:\n");
		args_print_help(f, cli_common);
		args_print_help(f, c->options);
	}
	for (s = c->subcommands; s != NULL && *s != NULL; s++) {
		if ((*s)->options == NULL)
			continue;
		fprintf(f, "\noptions of %s %s:\n", c->name, (*s)->name);
		args_print_help(f, (*s)->options);
	}
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

void
cli_search_options(const struct args *a, struct search_params *sp)
{
	const char *iso = args_string(a, "isolation");

	sp->iterations = args_whole(a, "iterations", sp->iterations);
	sp->workers = (int)args_whole(a, "workers", (uint64_t)sp->workers);
	sp->seed = args_whole(a, "seed", sp->seed);
	if (iso != NULL)
		sp->isolation = strcmp(iso, "thread") == 0 ? ISOLATION_THREAD :
		    ISOLATION_PROCESS;
	if (sp->isolation == ISOLATION_THREAD)
		sp->workers = 1;
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

/* The entry argv names: c, or its subcommand in argv[1]. */
static const struct cmd_entry *
cli_pick(const struct cmd_entry *c, int argc, char **argv)
{
	const struct cmd_entry *const *s;

	for (s = c->subcommands; s != NULL && *s != NULL && argc > 1; s++)
		if (strcmp((*s)->name, argv[1]) == 0)
			return *s;
	return NULL;
}

/* Parses argv (argv[0] the command's name) against the command's options
 * and runs it. */
static int
cli_exec(struct cli *cli, const struct cmd_entry *c, int argc, char **argv)
{
	const struct cmd_entry *run = c, *sub;
	struct error err = { 0 };
	struct args a;
	int rc;

	if ((sub = cli_pick(c, argc, argv)) != NULL) {
		run = sub;
		argc--;
		argv++;
	}
	if (run->raw)
		args_raw(argc, argv, &a);
	else if (args_parse(cli_common, run->options, argc, argv, &a,
	    &err) != 0)
		return cli_usage_error(c->name, "%s", err.msg);
	if (!run->raw && run->args_max >= 0 && args_count(&a) > run->args_max) {
		rc = cli_usage_error(c->name, "unexpected argument %s",
		    args_arg(&a, run->args_max));
		args_free(&a);
		return rc;
	}
	if (!run->raw && args_has(&a, "dir"))
		cli->dir = args_string(&a, "dir");
	rc = run->exec(cli, &a);
	args_free(&a);
	return rc;
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
			return cli_exec(&cli, &cmd_tui_entry, 1,
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
	return cli_exec(&cli, c, argc - i, argv + i);
}

int
cli_key_begin(const char *question, struct termios *old)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, old) != 0)
		return -1;
	raw = *old;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
	fputs(question, stdout);
	fflush(stdout);
	return 0;
}

void
cli_key_end(const struct termios *old)
{
	tcsetattr(STDIN_FILENO, TCSANOW, old);
}
