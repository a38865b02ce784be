/*
 * history_apply — merging a batch of one front's posts into
 * history.jsonl (see history_apply.h), and the import of a platform's
 * export that produces such a batch. The figures a caller shows after a
 * write (how many posts the objective scores, how many published posts
 * have outcomes) are computed here from the project as written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/live.h"
#include "core/objective.h"
#include "runs/history_apply.h"

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

/* How many of the posts this merge wrote the objective can score, and
 * how many posts fronts published have outcomes to hold against their
 * predictions (validate measures them against the backtest). */
static void
history_score(const char *dir, struct history_applied *a)
{
	const struct hist_merge *m = &a->merge;
	struct backtest_report none = { .ran = false };
	struct live_report lv;
	struct project *p;
	struct error err = { 0 };
	char **ids = xcalloc((size_t)m->nchanges + 1, sizeof *ids);
	int i, n = 0;

	for (i = 0; i < m->nchanges; i++)
		if (m->changes[i].kind == HIST_ADDED ||
		    m->changes[i].kind == HIST_UPDATED)
			ids[n++] = m->changes[i].id;
	if (n > 0 && project_load(dir, &p, &err) == 0) {
		a->scored = true;
		a->nwritten = n;
		objective_describe(p, a->objective, sizeof a->objective);
		a->scorable = objective_scorable_count(p, ids, n);
		live_measure(p, &none, &lv);
		a->live_n = lv.n;
		a->live_published = lv.published;
		live_report_free(&lv);
		project_free(p);
	}
	free(ids);
}

int
history_apply(const char *dir, struct history_context *hc, const char *front,
    const struct hist_batch *b, bool dry_run, time_t now,
    struct history_applied *out, struct error *err)
{
	struct hist_merge_in in = { hc->history_path, hc->history,
	    hc->history_len, front, &hc->topics, now };
	struct hist_merge *m = &out->merge;

	memset(out, 0, sizeof *out);
	out->dry_run = dry_run;
	memcpy(out->bad_counts, b->bad_counts, sizeof out->bad_counts);
	if (hist_merge(&in, b, m, err) != 0)
		return -1;
	if (!dry_run && m->count[HIST_ADDED] + m->count[HIST_UPDATED] > 0) {
		if (hist_write(dir, m->text, m->len, err) != 0) {
			history_applied_free(out);
			return -1;
		}
		free(hc->history);
		hc->history = m->text;
		hc->history_len = m->len;
		m->text = NULL;
	}
	if (!dry_run)
		history_score(dir, out);
	return 0;
}

void
history_applied_free(struct history_applied *a)
{
	hist_merge_free(&a->merge);
	memset(a, 0, sizeof *a);
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

int
history_import_run(const struct history_import_opts *a,
    struct history_applied *out, struct error *err)
{
	struct history_context hc;
	struct hist_batch b;
	struct hist_opts o = { a->file, NULL, a->map, a->now, a->force };
	const struct front *fr;
	enum hist_format f;
	char *data = NULL;
	size_t len;
	int fi, rc = -1;

	if (history_context_open(a->dir, &hc, err) != 0)
		return -1;
	if ((fi = project_front_index(hc.project, a->front)) < 0) {
		history_context_close(&hc);
		error_set(err, EXIT_USAGE, "no front \"%s\" in fronts.json",
		    a->front);
		return HISTORY_NO_FRONT;
	}
	fr = &hc.project->fronts[fi];
	o.account = fr->account;
	if (file_read(a->file, &data, &len, err) != 0)
		goto out;
	if (a->format != NULL)
		f = (enum hist_format)hist_format_from_name(a->format);
	else if (a->has_map)
		f = HIST_FMT_CSV;
	else if (hist_format_detect(a->file, data, len, &f, err) != 0)
		goto out;
	if (format_platform(f) >= 0 && format_platform(f) != (int)fr->platform) {
		error_set(err, EXIT_USAGE, "%s is in the %s format, but front "
		    "\"%s\" is on %s", a->file, hist_format_names[f], fr->id,
		    platform_name(fr->platform));
		goto out;
	}
	if (hist_parse(f, &o, data, len, &b, err) != 0)
		goto out;
	rc = history_apply(a->dir, &hc, fr->id, &b, a->dry_run, a->now, out,
	    err);
	hist_batch_free(&b);
out:
	free(data);
	history_context_close(&hc);
	return rc;
}
