/*
 * cmd_approve — `fronts approve [-C DIR] [--model FILE] [--yes]`: shows
 * the model's gate verdicts and a summary of its source, then records the
 * sha256 of its exact bytes in DIR/.fronts/approved after the operator
 * types `y` on a terminal (or with --yes). A model the gate refuses cannot
 * be approved.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "sandbox/approval.h"
#include "sandbox/gate.h"

/* The contract's functions; the last two are optional. */
static const char *const approve_contract[] = {
	"initial_state", "legal_actions", "apply", "is_terminal",
	"sample_hidden", "value", NULL
};

static int
approve_has(const struct gate_summary *s, const char *name)
{
	int i;

	for (i = 0; i < s->nfunctions; i++)
		if (strcmp(s->functions[i], name) == 0)
			return 1;
	return 0;
}

static void
approve_print_names(const char *label, char **names, int n)
{
	int i;

	printf("%-10s", label);
	for (i = 0; i < n; i++)
		printf("%s%s", i > 0 ? ", " : " ", names[i]);
	printf("%s\n", n == 0 ? " (none)" : "");
}

static void
approve_print_source(const char *src)
{
	const char *p = src, *nl;
	int line = 1;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		printf("%5d  %.*s\n", line++, nl != NULL ? (int)(nl - p) :
		    (int)strlen(p), p);
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	putchar('\n');
}

static void
approve_print_summary(const char *path, const struct gate_result *r,
    const struct gate_summary *s)
{
	char *text;
	int i;

	printf("model:     %s\nsha256:    %s\nlines:     %d\n", path, r->sha256,
	    s->lines);
	approve_print_names("functions:", s->functions, s->nfunctions);
	approve_print_names("classes:", s->classes, s->nclasses);
	for (i = 0; i < 4; i++)
		if (!approve_has(s, approve_contract[i]))
			printf("warning:   `%s` is not defined (the contract "
			    "needs it)\n", approve_contract[i]);
	printf("gate:      %s (%d verdict%s)\n", r->accepted ? "accepted" :
	    "refused", r->nverdicts, r->nverdicts == 1 ? "" : "s");
	text = gate_result_text(path, r);
	fputs(text, stdout);
	free(text);
}

/* Asks on the terminal; only `y` (or `yes`) approves. */
static int
approve_ask(const char *sha)
{
	char line[64];

	printf("Approve this model (sha256 %.12s…) to run? [y/N] ", sha);
	fflush(stdout);
	if (fgets(line, sizeof line, stdin) == NULL)
		return 0;
	line[strcspn(line, "\r\n")] = '\0';
	return strcmp(line, "y") == 0 || strcmp(line, "Y") == 0 ||
	    strcmp(line, "yes") == 0;
}

static int
approve_run(const char *dir, const char *path, int yes)
{
	struct gate_result r;
	struct gate_summary s;
	struct error err = { 0 };
	char *src;
	size_t len;
	int rc = EXIT_OK, interactive;

	if (gate_check_file(path, &r, &src, &len, &err) != 0)
		return cli_report("approve", &err);
	if (gate_summarize(src, len, &s, &err) != 0) {
		free(src);
		gate_result_free(&r);
		return cli_report("approve", &err);
	}
	interactive = !yes && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (interactive)
		approve_print_source(src);
	approve_print_summary(path, &r, &s);
	if (!r.accepted) {
		fprintf(stderr, "fronts approve: %s: the gate refuses this model; "
		    "it cannot be approved\n", path);
		rc = EXIT_REFUSED;
	} else if (approval_is_approved(dir, r.sha256))
		printf("already approved in %s\n", dir);
	else if (!yes && !interactive) {
		fprintf(stderr, "fronts approve: not a terminal: pass --yes to "
		    "approve %s (sha256 %s) non-interactively\n", path,
		    r.sha256);
		rc = EXIT_USAGE;
	} else if (!yes && !approve_ask(r.sha256)) {
		fprintf(stderr, "fronts approve: not approved\n");
		rc = EXIT_REFUSED;
	} else if (approval_add(dir, r.sha256, &err) != 0)
		rc = cli_report("approve", &err);
	else
		printf("approved: %s (sha256 %s)\n", path, r.sha256);
	gate_summary_free(&s);
	gate_result_free(&r);
	free(src);
	return rc;
}

int
cmd_approve(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "yes", no_argument, NULL, 'y' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = cli->dir, *model = NULL;
	char *path;
	int c, yes = 0, rc;

	while ((c = getopt_long(argc, argv, "C:", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			dir = optarg;
			break;
		case 'm':
			model = optarg;
			break;
		case 'y':
			yes = 1;
			break;
		default:
			return cli_usage_error("approve", "unknown option");
		}
	}
	if (optind != argc)
		return cli_usage_error("approve", "unexpected argument %s",
		    argv[optind]);
	path = model != NULL ? xstrdup(model) : path_join(dir, "model.py");
	rc = approve_run(dir, path, yes);
	free(path);
	return rc;
}
