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
#include "core/live.h"
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
history_print_bad_counts(const struct hist_batch *b)
{
	const char *sep = "";
	int i, n = 0;

	for (i = 0; i < HIST_BAD_NREASONS; i++)
		n += b->bad_counts[i];
	if (n == 0)
		return;
	printf("  %d count%s left unknown: ", n, n == 1 ? "" : "s");
	for (i = 0; i < HIST_BAD_NREASONS; i++)
		if (b->bad_counts[i] > 0) {
			printf("%s%d %s", sep, b->bad_counts[i],
			    hist_bad_count_names[i]);
			sep = ", ";
		}
	printf("\n");
}

static void
history_print_summary(const struct hist_merge *m, const struct hist_batch *b,
    bool dry_run, bool verbose)
{
	const struct hist_change *c;
	int i;

	for (i = 0; i < m->nchanges; i++) {
		c = &m->changes[i];
		if (c->kind == HIST_UNCHANGED && !verbose)
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
	history_print_bad_counts(b);
	printf("%s%d added, %d updated, %d unchanged, %d skipped",
	    dry_run ? "dry run, nothing written: " : "", m->count[HIST_ADDED],
	    m->count[HIST_UPDATED], m->count[HIST_UNCHANGED],
	    m->count[HIST_SKIPPED]);
	if (m->duplicates > 0)
		printf(" (%d given twice)", m->duplicates);
	printf("\n");
}

int
history_context_open(const char *dir, struct history_context *hc,
    struct error *err)
{
	char *fj;
	size_t len;
	struct error rerr = { 0 };

	memset(hc, 0, sizeof *hc);
	if (project_load(dir, &hc->project, err) != 0)
		return -1;
	fj = path_join(dir, "fronts.json");
	if (file_read(fj, &hc->fronts_text, &len, err) != 0 ||
	    (hc->fronts_json = cJSON_Parse(hc->fronts_text)) == NULL ||
	    topics_from_json(hc->fronts_json, fj, &hc->topics, err) != 0) {
		free(fj);
		history_context_close(hc);
		return -1;
	}
	free(fj);
	hc->history_path = path_join(dir, "history.jsonl");
	if (file_read(hc->history_path, &hc->history, &hc->history_len,
	    &rerr) != 0) {
		hc->history = xstrdup("");
		hc->history_len = 0;
	}
	return 0;
}

void
history_context_close(struct history_context *hc)
{
	project_free(hc->project);
	cJSON_Delete(hc->fronts_json);
	free(hc->fronts_text);
	topics_free(&hc->topics);
	free(hc->history_path);
	free(hc->history);
	memset(hc, 0, sizeof *hc);
}

/* How many posts fronts published have outcomes to hold against their
 * predictions (validate measures them against the backtest). */
static void
history_print_live(const struct project *p)
{
	struct backtest_report none = { .ran = false };
	struct live_report lv;

	live_measure(p, &none, &lv);
	if (lv.published > 0)
		termsafe_fprintf(stdout, "%d of the %d posts fronts published "
		    "have settled outcomes to compare with the prediction saved "
		    "at publish: `fronts validate` shows the live error\n",
		    lv.n, lv.published);
	live_report_free(&lv);
}

/* How many of the posts this run wrote the objective can score. */
static void
history_print_scorable(const char *dir, const struct hist_merge *m)
{
	struct project *p;
	struct error err = { 0 };
	char **ids = xcalloc((size_t)m->nchanges + 1, sizeof *ids), obj[512];
	int i, n = 0;

	for (i = 0; i < m->nchanges; i++)
		if (m->changes[i].kind == HIST_ADDED ||
		    m->changes[i].kind == HIST_UPDATED)
			ids[n++] = m->changes[i].id;
	if (n > 0 && project_load(dir, &p, &err) == 0) {
		objective_describe(p, obj, sizeof obj);
		termsafe_fprintf(stdout, "%d of the %d posts written can be "
		    "scored under the objective (%s)\n",
		    objective_scorable_count(p, ids, n), n, obj);
		history_print_live(p);
		project_free(p);
	}
	free(ids);
}

int
history_apply(const char *dir, struct history_context *hc, const char *front,
    const struct hist_batch *b, bool dry_run, time_t now, struct error *err)
{
	struct hist_merge_in in = { hc->history_path, hc->history,
	    hc->history_len, front, &hc->topics, now };
	struct hist_merge m;
	int rc = 0;

	if (hist_merge(&in, b, &m, err) != 0)
		return -1;
	/* Written first, told after: a failed write reports the failure
	 * and nothing it did not do. */
	if (!dry_run && m.count[HIST_ADDED] + m.count[HIST_UPDATED] > 0) {
		rc = hist_write(dir, m.text, m.len, err);
		if (rc == 0) {
			free(hc->history);
			hc->history = m.text;
			hc->history_len = m.len;
			m.text = NULL;
		}
	}
	if (rc == 0)
		history_print_summary(&m, b, dry_run, false);
	if (rc == 0 && !dry_run)
		history_print_scorable(dir, &m);
	hist_merge_free(&m);
	return rc;
}

/* Which platform each format belongs to; -1: any (generic CSV). */
static int
format_platform(enum hist_format f)
{
	switch (f) {
	case HIST_FMT_X:
	case HIST_FMT_X_API:
		return PLATFORM_X;
	case HIST_FMT_MASTODON:
	case HIST_FMT_MASTODON_API:
		return PLATFORM_MASTODON;
	case HIST_FMT_BLUESKY_CAR:
	case HIST_FMT_BLUESKY_FEED:
		return PLATFORM_BLUESKY;
	case HIST_FMT_LINKEDIN:
		return PLATFORM_LINKEDIN;
	default:
		return -1;
	}
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
	struct history_context hc;
	struct hist_batch b;
	struct hist_opts o = { a->file, NULL, &a->map, a->now, a->force };
	struct error err = { 0 };
	const struct front *fr;
	enum hist_format f;
	char *data = NULL;
	size_t len;
	int fi, rc = -1;

	if (history_context_open(cli->dir, &hc, &err) != 0)
		return cli_report("history", &err);
	if ((fi = project_front_index(hc.project, a->front)) < 0) {
		history_context_close(&hc);
		return cli_usage_error("history", "no front \"%s\" in "
		    "fronts.json", a->front);
	}
	fr = &hc.project->fronts[fi];
	o.account = fr->account;
	if (file_read(a->file, &data, &len, &err) != 0)
		goto out;
	if (a->format != NULL)
		f = (enum hist_format)hist_format_from_name(a->format);
	else if (a->has_map)
		f = HIST_FMT_CSV;
	else if (hist_format_detect(a->file, data, len, &f, &err) != 0)
		goto out;
	if (format_platform(f) >= 0 && format_platform(f) != (int)fr->platform) {
		error_set(&err, EXIT_USAGE, "%s is in the %s format, but front "
		    "\"%s\" is on %s", a->file, hist_format_names[f], fr->id,
		    platform_name(fr->platform));
		goto out;
	}
	if (hist_parse(f, &o, data, len, &b, &err) != 0)
		goto out;
	rc = history_apply(cli->dir, &hc, fr->id, &b, a->dry_run, a->now, &err);
	hist_batch_free(&b);
out:
	free(data);
	history_context_close(&hc);
	return rc == 0 ? EXIT_OK : cli_report("history", &err);
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
