/*
 * cmd_history — `fronts history import FILE --front ID`: the platforms'
 * own exports into history.jsonl; `fronts history pull`: the metrics of
 * known posts and the posts history lacks, from the platforms' read-only
 * APIs, with the publish ledger's sent posts becoming history lines;
 * `fronts history topics`: the posts no topic rule tags.
 *
 * Every run prints what it added, updated and skipped (and why); with
 * --dry-run it writes nothing. A refusal changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "cli/cli.h"
#include "cli/cmd_history_int.h"
#include "core/history.h"
#include "core/history_merge.h"
#include "core/project.h"
#include "core/termsafe.h"
#include "core/topics.h"

static const char *const change_names[] = { "added", "updated",
	"unchanged", "skipped" };

/* The first line of text, cut to about 60 bytes at a character boundary. */
static void
first_line(const char *text, char *buf, size_t size)
{
	size_t n = strcspn(text, "\n");

	if (n > 60) {
		n = 60;
		while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
			n--;
	}
	snprintf(buf, size, "%.*s%s", (int)n, text, text[n] != '\0' ? "…" : "");
}

/* "counts left unknown: 2 negative, 1 not a number" when any were. */
static void
history_print_bad_counts(const int bad_counts[HIST_BAD_NREASONS])
{
	const char *sep = "";
	int i, n = 0;

	for (i = 0; i < HIST_BAD_NREASONS; i++)
		n += bad_counts[i];
	if (n == 0)
		return;
	printf("  %d count%s left unknown: ", n, n == 1 ? "" : "s");
	for (i = 0; i < HIST_BAD_NREASONS; i++)
		if (bad_counts[i] > 0) {
			printf("%s%d %s", sep, bad_counts[i],
			    hist_bad_count_names[i]);
			sep = ", ";
		}
	printf("\n");
}

void
history_print_applied(const struct history_applied *a)
{
	const struct hist_merge *m = &a->merge;
	const struct hist_change *c;
	int i;

	for (i = 0; i < m->nchanges; i++) {
		c = &m->changes[i];
		if (c->kind == HIST_UNCHANGED)
			continue;
		if (c->kind == HIST_SKIPPED)
			termsafe_fprintf(stdout, "  skipped  %s: %s\n", c->what,
			    c->detail);
		else
			termsafe_fprintf(stdout, "  %-8s %s  %s%s%s%s\n",
			    change_names[c->kind], c->id, c->what,
			    *c->detail ? " (" : "", c->detail,
			    *c->detail ? ")" : "");
	}
	history_print_bad_counts(a->bad_counts);
	printf("%s%d added, %d updated, %d unchanged, %d skipped",
	    a->dry_run ? "dry run, nothing written: " : "",
	    m->count[HIST_ADDED], m->count[HIST_UPDATED],
	    m->count[HIST_UNCHANGED], m->count[HIST_SKIPPED]);
	if (m->duplicates > 0)
		printf(" (%d given twice)", m->duplicates);
	printf("\n");
	if (!a->scored)
		return;
	termsafe_fprintf(stdout, "%d of the %d posts written can be scored "
	    "under the objective (%s)\n", a->scorable, a->nwritten,
	    a->objective);
	/* validate measures these against the backtest. */
	if (a->live_published > 0)
		termsafe_fprintf(stdout, "%d of the %d posts fronts published "
		    "have settled outcomes to compare with the prediction saved "
		    "at publish: `fronts validate` shows the live error\n",
		    a->live_n, a->live_published);
}

/* --map time=Date,text=Body,likes=Likes: names point into arg (edited). */
static int
parse_map(char *arg, struct hist_csv_map *m)
{
	char *tok, *eq, *save = NULL;
	int i;

	for (tok = strtok_r(arg, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL || eq[1] == '\0')
			return -1;
		*eq++ = '\0';
		if (strcmp(tok, "time") == 0)
			m->time = eq;
		else if (strcmp(tok, "text") == 0)
			m->text = eq;
		else if (strcmp(tok, "id") == 0)
			m->id = eq;
		else if (strcmp(tok, "url") == 0)
			m->url = eq;
		else {
			for (i = 0; i < HIST_NMETRICS; i++)
				if (strcmp(tok, hist_metric_names[i]) == 0)
					break;
			if (i == HIST_NMETRICS)
				return -1;
			m->metrics[i] = eq;
		}
	}
	return 0;
}

struct import_args {
	const char		*file;
	const char		*front;
	const char		*format;
	bool			 dry_run;
	bool			 force;		/* another account's outbox */
	struct hist_csv_map	 map;
	bool			 has_map;
	time_t			 now;
};

static int
import_run(struct cli *cli, const struct import_args *a)
{
	struct history_import_opts o = { cli->dir, a->file, a->front,
	    a->format, &a->map, a->has_map, a->dry_run, a->force, a->now };
	struct history_applied r;
	struct error err = { 0 };
	int rc;

	if ((rc = history_import_run(&o, &r, &err)) == HISTORY_NO_FRONT)
		return cli_usage_error("history", "%s", err.msg);
	if (rc != 0)
		return cli_report("history", &err);
	history_print_applied(&r);
	history_applied_free(&r);
	return EXIT_OK;
}

static int
history_import(struct cli *cli, struct args *args)
{
	struct import_args a = { .now = clock_now() };
	const char *map = args_string(args, "map");

	a.front = args_string(args, "front");
	a.dry_run = args_has(args, "dry-run");
	a.force = args_has(args, "force");
	a.format = args_string(args, "format");
	if (a.format != NULL && (hist_format_from_name(a.format) < 0 ||
	    strcmp(a.format, "mastodon-api") == 0))
		return cli_usage_error("history", "unknown --format %s (x, "
		    "mastodon, bluesky-car, bluesky-feed, linkedin, csv)",
		    a.format);
	/* The map cuts the spec, argv's own bytes, and points into it. */
	if (map != NULL && parse_map((char *)map, &a.map) != 0)
		return cli_usage_error("history", "--map takes time=COL,"
		    "text=COL[,id=COL][,url=COL][,likes=COL]…");
	a.has_map = map != NULL;
	if (args_count(args) != 1 || a.front == NULL)
		return cli_usage_error("history", "expected `import FILE "
		    "--front ID`");
	a.file = args_arg(args, 0);
	return import_run(cli, &a);
}

static int
history_topics(struct cli *cli, struct args *args)
{
	struct history_context hc;
	struct error err = { 0 };
	const struct history_post *h;
	char line[128];
	int i, n = 0;

	if (history_context_open(cli->dir, &hc, &err) != 0)
		return cli_report("history", &err);
	for (i = 0; i < hc.project->nhistory; i++) {
		h = &hc.project->history[i];
		if (h->ntopics > 0)
			continue;
		first_line(h->text, line, sizeof line);
		termsafe_fprintf(stdout, "%s  %s  %s  %s\n", h->id,
		    hc.project->fronts[h->front].id, h->posted_at_text, line);
		n++;
	}
	printf("%d of %d posts have no topic; add keywords or #hashtags to "
	    "\"topics\" in fronts.json and import again to tag them\n", n,
	    hc.project->nhistory);
	history_context_close(&hc);
	return EXIT_OK;
}

static int
cmd_history_exec(struct cli *cli, struct args *args)
{
	return cli_usage_error("history", "expected import, pull or topics");
}

#define HISTORY_OPTION_DRY_RUN \
	{ .name = "dry-run", .kind = ARGS_FLAG, \
	  .help = "report the merge; write nothing" }

static const struct cmd_entry cmd_history_import_entry = {
	.name = "import",
	.options = (const struct args_option[]){
		{ .name = "front", .kind = ARGS_STRING, .metavar = "ID",
		  .help = "the front the export is of" },
		HISTORY_OPTION_DRY_RUN,
		{ .name = "force", .kind = ARGS_FLAG,
		  .help = "import a Mastodon outbox of another account" },
		{ .name = "format", .kind = ARGS_STRING, .metavar = "F",
		  .help = "x, mastodon, bluesky-car, bluesky-feed, linkedin or\n"
		  "csv (default: told by the file)" },
		{ .name = "map", .kind = ARGS_STRING,
		  .metavar = "time=COL,text=COL,…",
		  .help = "csv: the columns of each field" },
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = history_import,
};

static const struct cmd_entry cmd_history_pull_entry = {
	.name = "pull",
	.options = (const struct args_option[]){
		{ .name = "front", .kind = ARGS_STRING, .metavar = "ID",
		  .help = "pull this front only (default: every one)" },
		{ .name = "since", .kind = ARGS_STRING, .metavar = "DATE",
		  .help = "posts from DATE on (2026-11-01 or ISO-8601)" },
		HISTORY_OPTION_DRY_RUN,
		CLI_OPTION_WAIT,
		{ .name = NULL }
	},
	.exec = history_pull,
};

static const struct cmd_entry cmd_history_topics_entry = {
	.name = "topics",
	.exec = history_topics,
};

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.summary = "import exports, pull metrics, list untagged posts",
	.usage = "import FILE --front ID [-C DIR] [--dry-run] [--force] "
	    "[--format F] [--map time=COL,text=COL,…]\n"
	    "       fronts history pull [-C DIR] [--front ID] [--since DATE] "
	    "[--dry-run]\n"
	    "       fronts history topics [-C DIR]",
	.exec = cmd_history_exec,
	.args_max = -1,
	.subcommands = (const struct cmd_entry *const[]){
		&cmd_history_import_entry, &cmd_history_pull_entry,
		&cmd_history_topics_entry, NULL
	},
};
