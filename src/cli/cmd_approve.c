/*
 * cmd_approve — `fronts approve [-C DIR] [--model FILE] [--yes]`: shows
 * the exact bytes being approved (numbered lines, the gate's verdicts under
 * the lines they refuse, control and bidi characters visible; through
 * $PAGER on a terminal) and a summary, then records the sha256 of those
 * bytes in DIR/.fronts/approved after the operator types `y` on a terminal
 * (or with --yes). A model the gate refuses cannot be approved.
 */
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/termsafe.h"
#include "sandbox/approval.h"
#include "sandbox/gate.h"

/* The contract's functions; the last three are optional. */
static const char *const approve_contract[] = {
	"initial_state", "legal_actions", "apply", "is_terminal",
	"sample_hidden", "value", "predict", NULL
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
approve_print_names(FILE *f, const char *label, char **names, int n)
{
	int i;

	fprintf(f, "%-10s", label);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i > 0 ? ", " : " ", names[i]);
	fprintf(f, "%s\n", n == 0 ? " (none)" : "");
}

/* Each line of src numbered, each kept verdict under the line it refuses
 * (the count of the others follows in the summary). */
static void
approve_print_source(FILE *f, const char *src, size_t len,
    const struct gate_result *r)
{
	const char *p = src, *end = src + len, *nl;
	const struct gate_verdict *v;
	int line = 1, k = 0;

	while (p < end || k < r->nverdicts) {
		if (p < end) {
			nl = memchr(p, '\n', (size_t)(end - p));
			fprintf(f, "%5d  ", line);
			fwrite(p, 1, nl != NULL ? (size_t)(nl - p) :
			    (size_t)(end - p), f);
			fputc('\n', f);
			p = nl != NULL ? nl + 1 : end;
		}
		/* Verdicts past the last line go after it. */
		for (; k < r->nverdicts && (r->verdicts[k].line <= line ||
		    p >= end); k++) {
			v = &r->verdicts[k];
			fprintf(f, "       ^-- gate: line %d col %d: %s: %s\n",
			    v->line, v->col, v->rule, v->message);
		}
		line++;
	}
	fputc('\n', f);
}

static void
approve_print_summary(FILE *f, const char *path, const struct gate_result *r,
    const struct gate_summary *s)
{
	char *text;
	int i;

	fprintf(f, "model:     %s\nsha256:    %s\nlines:     %d\n", path,
	    r->sha256, s->lines);
	approve_print_names(f, "functions:", s->functions, s->nfunctions);
	approve_print_names(f, "classes:", s->classes, s->nclasses);
	for (i = 0; i < 4; i++)
		if (!approve_has(s, approve_contract[i]))
			fprintf(f, "warning:   `%s` is not defined (the "
			    "contract needs it)\n", approve_contract[i]);
	fprintf(f, "gate:      %s (%d verdict%s)\n", r->accepted ? "accepted" :
	    "refused", gate_result_total(r),
	    gate_result_total(r) == 1 ? "" : "s");
	text = gate_result_text(path, r);
	fputs(text, f);
	free(text);
}

/*
 * The whole screen, made safe in one piece: the source exactly as its
 * bytes are, every control and bidi character shown visibly, so what the
 * operator reads is what gets approved.
 */
static char *
approve_screen(const char *path, const char *src, size_t len,
    const struct gate_result *r, const struct gate_summary *s)
{
	char *buf = NULL, *out;
	size_t n = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &n)) == NULL)
		return NULL;
	approve_print_source(f, src, len, r);
	approve_print_summary(f, path, r, s);
	fclose(f);
	out = termsafe_ndup(buf, n, 0);
	free(buf);
	return out;
}

/* Shows text through $PAGER (default less); prints it when no pager
 * runs. */
static void
approve_page(const char *text)
{
	const char *pager = getenv("PAGER");
	void (*oldpipe)(int), (*oldint)(int);
	FILE *p;
	int st = -1;

	if (pager == NULL || *pager == '\0')
		pager = "less";
	fflush(stdout);
	oldpipe = signal(SIGPIPE, SIG_IGN);	/* a pager quit early */
	if ((p = popen(pager, "w")) != NULL) {
		/* A Ctrl-C in the pager is the pager's, not a reason to leave
		 * it running on the terminal without us. */
		oldint = signal(SIGINT, SIG_IGN);
		fputs(text, p);
		st = pclose(p);
		signal(SIGINT, oldint);
	}
	signal(SIGPIPE, oldpipe);
	if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 127))
		fputs(text, stdout);	/* no pager ran */
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
	char *src, *screen;
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
	if ((screen = approve_screen(path, src, len, &r, &s)) == NULL) {
		error_set(&err, EXIT_ERROR, "cannot lay out %s", path);
		rc = cli_report("approve", &err);
		goto out;
	}
	if (interactive)
		approve_page(screen);
	else
		fputs(screen, stdout);
	free(screen);
	if (!r.accepted) {
		termsafe_fprintf(stderr, "fronts approve: %s: the gate refuses "
		    "this model; it cannot be approved\n", path);
		rc = EXIT_REFUSED;
	} else if (approval_is_approved(dir, r.sha256))
		termsafe_fprintf(stdout, "already approved in %s\n", dir);
	else if (!yes && !interactive) {
		termsafe_fprintf(stderr, "fronts approve: not a terminal: pass "
		    "--yes to approve %s (sha256 %s) non-interactively\n", path,
		    r.sha256);
		rc = EXIT_USAGE;
	} else if (!yes && !approve_ask(r.sha256)) {
		fprintf(stderr, "fronts approve: not approved\n");
		rc = EXIT_REFUSED;
	} else if (approval_add(dir, r.sha256, &err) != 0)
		rc = cli_report("approve", &err);
	else
		termsafe_fprintf(stdout, "approved: %s (sha256 %s)\n", path,
		    r.sha256);
out:
	gate_summary_free(&s);
	gate_result_free(&r);
	free(src);
	return rc;
}

static int
cmd_approve_exec(struct cli *cli, struct args *a)
{
	const char *dir = cli->dir, *model = args_string(a, "model");
	struct error err = { 0 };
	char *path;
	int yes = args_has(a, "yes"), rc;

	if (cli_no_model(dir, model, &err) != 0)
		return cli_report("approve", &err);
	path = model != NULL ? xstrdup(model) : path_join(dir, "model.py");
	rc = approve_run(dir, path, yes);
	free(path);
	return rc;
}

const struct cmd_entry cmd_approve_entry = {
	.name = "approve",
	.summary = "review and approve the world model's exact bytes",
	.usage = "[-C DIR] [--model FILE] [--yes]",
	.options = (const struct args_option[]){
		CLI_OPTION_MODEL,
		{ .name = "yes", .kind = ARGS_FLAG,
		  .help = "approve without asking (no terminal needed)" },
		{ .name = NULL }
	},
	.exec = cmd_approve_exec,
};
