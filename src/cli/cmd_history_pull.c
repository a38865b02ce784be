/*
 * cmd_history_pull — `fronts history pull [--front ID] [--since DATE]
 * [--dry-run]`: each Mastodon and Bluesky front's posts with their
 * counts, back to --since, merged into history.jsonl like an import. A
 * post the publish ledger says fronts sent becomes a line under the
 * ledger entry's id, with the plan's prediction beside the outcome.
 * Posts younger than 72 hours stay "settled": false and are refreshed by
 * the next pull.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/hook.h"
#include "cli/cmd_history_int.h"
#include "core/hist_predict.h"
#include "core/ledger.h"
#include "core/lock.h"
#include "core/termsafe.h"
#include "core/timeutil.h"
#include "net/pull.h"

#define PULL_DEFAULT_DAYS	30

struct pull_args {
	const char	*front;
	const char	*since;
	bool		 dry_run;
	bool		 wait;		/* for the project lock */
};

/* --since: a date (local midnight in the project's zone) or an instant. */
static int
parse_since(const char *s, time_t *out)
{
	int y, m, d, n = 0;

	if (time_parse_iso(s, out) == 0)
		return 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || s[n] != '\0' ||
	    m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	*out = time_local_midnight((time_t)time_days_from_civil(y, m, d) *
	    86400 + 12 * 3600);
	return 0;
}

/* The default window: 30 days, reaching back to the oldest post of the
 * front that is not settled yet. (The project as loaded is current for
 * every front: a pull rewrites only its own front's lines.) */
static time_t
default_since(const struct history_context *hc, int front, time_t now)
{
	const struct project *p = hc->project;
	time_t since = now - PULL_DEFAULT_DAYS * 86400;
	int i;

	for (i = 0; i < p->nhistory; i++)
		if (p->history[i].front == front && p->history[i].unsettled &&
		    p->history[i].posted_at < since)
			since = p->history[i].posted_at;
	return since;
}

/* Is history post i one of the front's with a platform id, inside the
 * window? */
static bool
known_in_window(const struct project *p, int i, int front, time_t since)
{
	return p->history[i].front == front &&
	    p->history[i].platform_id != NULL &&
	    p->history[i].posted_at >= since;
}

static struct hist_item *
find_item(struct hist_batch *b, const char *platform_id)
{
	int i;

	for (i = 0; i < b->nitems; i++)
		if (b->items[i].platform_id != NULL &&
		    strcmp(b->items[i].platform_id, platform_id) == 0)
			return &b->items[i];
	return NULL;
}

/* Sent ledger entries of the front become history lines under their
 * entry id, with the plan's prediction. */
static void
attach_ledger(const char *dir, const struct ledger *l, const char *front,
    struct hist_batch *b, time_t since)
{
	const struct ledger_entry *e;
	struct hist_prediction pr;
	struct hist_item *it;
	int i;

	for (i = 0; i < l->nentries; i++) {
		e = &l->entries[i];
		if (e->state != LEDGER_SENT || strcmp(e->front, front) != 0 ||
		    e->post_id == NULL)
			continue;
		if ((it = find_item(b, e->post_id)) == NULL) {
			if (e->attempted >= since)
				termsafe_fprintf(stdout, "  missing  %s  %s: sent "
				    "by fronts, not returned by the platform "
				    "(deleted?)\n", e->id, e->post_id);
			continue;
		}
		free(it->line_id);
		it->line_id = xstrdup(e->id);
		if (hist_prediction_find(dir, e->id, &pr)) {
			it->has_predicted = true;
			it->predicted = pr.reward;
			it->predicted_lo = pr.lo;
			it->predicted_hi = pr.hi;
			it->predicted_sd = pr.sd;
		}
	}
}

/* Known posts of the front inside the window that the platform no
 * longer returns: kept, and named. */
static void
report_gone(const struct history_context *hc, int front,
    struct hist_batch *b, time_t since)
{
	const struct project *p = hc->project;
	int i;

	for (i = 0; i < p->nhistory; i++)
		if (known_in_window(p, i, front, since) &&
		    find_item(b, p->history[i].platform_id) == NULL)
			termsafe_fprintf(stdout, "  gone     %s  %s: not returned "
			    "by the platform (deleted?); kept as it was\n",
			    p->history[i].id, p->history[i].platform_id);
}

struct idlist {
	char	**v;
	int	  n;
};

static void
idlist_add(struct idlist *l, const char *id)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], id) == 0)
			return;
	l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	l->v[l->n++] = xstrdup(id);
}

static void
idlist_free(struct idlist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* The posts of the front fronts knows inside the window: X has no
 * timeline read, so these are what an X pull refreshes. */
static void
known_ids(const struct history_context *hc, const struct ledger *l,
    int front, time_t since, struct idlist *out)
{
	const struct project *p = hc->project;
	const char *id = p->fronts[front].id;
	int i;

	for (i = 0; i < p->nhistory; i++)
		if (known_in_window(p, i, front, since))
			idlist_add(out, p->history[i].platform_id);
	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].state == LEDGER_SENT &&
		    strcmp(l->entries[i].front, id) == 0 &&
		    l->entries[i].post_id != NULL &&
		    l->entries[i].attempted >= since)
			idlist_add(out, l->entries[i].post_id);
}

static double
wait_scale(void)
{
	const char *v = hook_env(HOOK_WAIT_SCALE);

	return v != NULL ? strtod(v, NULL) : 1;
}

static int
pull_one(struct cli *cli, struct history_context *hc, const struct ledger *l,
    const struct front *f, const struct pull_args *a, time_t now)
{
	struct pull_opts o = { .front = f, .now = now,
	    .wait_scale = wait_scale() };
	struct pull_result r;
	struct error err = { 0 };
	struct idlist ids = { 0 };
	char since[32];
	int rc, fi = (int)(f - hc->project->fronts);

	if (a->since != NULL)
		parse_since(a->since, &o.since);
	else
		o.since = default_since(hc, fi, now);
	if (f->platform == PLATFORM_X) {
		known_ids(hc, l, fi, o.since, &ids);
		o.ids = (const char *const *)ids.v;
		o.nids = ids.n;
	}
	time_format_utc(o.since, since, sizeof since);
	termsafe_fprintf(stdout, "front %s (%s): posts since %s\n", f->id,
	    platform_name(f->platform), since);
	rc = pull_front(&o, &r, &err);
	idlist_free(&ids);
	if (rc != 0) {
		pull_result_free(&r);
		return cli_report("history", &err);
	}
	attach_ledger(cli->dir, l, f->id, &r.batch, o.since);
	if (r.complete)
		report_gone(hc, fi, &r.batch, o.since);
	else if (r.stopped == NULL)
		printf("  stopped at the page limit: older posts of the window "
		    "were not fetched; run again with a later --since\n");
	printf("  %d requests, %d pages\n", r.requests, r.pages);
	rc = history_apply(cli->dir, hc, f->id, &r.batch, a->dry_run, now, &err);
	if (rc != 0)
		rc = cli_report("history", &err);
	else if (r.stopped != NULL) {
		termsafe_fprintf(stderr, "fronts history: front %s: %s\n",
		    f->id, r.stopped);
		rc = EXIT_NETWORK;
	}
	pull_result_free(&r);
	return rc;
}

static int
pull_run(struct cli *cli, const struct pull_args *a)
{
	struct history_context hc;
	struct project_lock *lock = NULL;
	struct ledger l;
	struct error err = { 0 };
	const struct front *f;
	time_t now = clock_now();
	int i, rc = EXIT_OK, r;

	if (history_context_open(cli->dir, &hc, &err) != 0)
		return cli_report("history", &err);
	if (a->front != NULL && project_front_index(hc.project, a->front) < 0) {
		history_context_close(&hc);
		return cli_usage_error("history", "no front \"%s\" in "
		    "fronts.json", a->front);
	}
	/* The history lines of sent posts come from the ledger: no publisher
	 * may change it between the read and the write. */
	if (!a->dry_run && project_lock_take(cli->dir, "fronts history pull",
	    a->wait, &lock, &err) != 0) {
		history_context_close(&hc);
		return cli_report("history", &err);
	}
	if (ledger_open(cli->dir, &l, &err) != 0) {
		project_lock_release(lock);
		history_context_close(&hc);
		return cli_report("history", &err);
	}
	for (i = 0; i < hc.project->nfronts; i++) {
		f = &hc.project->fronts[i];
		if (a->front != NULL && strcmp(f->id, a->front) != 0)
			continue;
		if (!pull_supported(f)) {
			termsafe_fprintf(stdout, "front %s (%s): not pulled: "
			    "fronts reads counts from Mastodon, Bluesky and X "
			    "(with a composio block); import the platform's "
			    "export instead\n", f->id,
			    platform_name(f->platform));
			if (a->front != NULL)
				rc = EXIT_USAGE;
			continue;
		}
		if ((r = pull_one(cli, &hc, &l, f, a, now)) != EXIT_OK)
			rc = r;
	}
	ledger_free(&l);
	project_lock_release(lock);
	history_context_close(&hc);
	return rc;
}

/* Does the ledger hold a post fronts sent on front f? */
static bool
pull_has_sent(const struct ledger *l, const struct front *f)
{
	int i;

	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].state == LEDGER_SENT &&
		    strcmp(l->entries[i].front, f->id) == 0)
			return true;
	return false;
}

int
history_pull_sent(struct cli *cli)
{
	struct pull_args a = { 0 };
	struct history_context hc;
	struct ledger l;
	struct error err = { 0 };
	const struct front *f;
	int i, rc = EXIT_OK, r;

	if (history_context_open(cli->dir, &hc, &err) != 0)
		return cli_report("history", &err);
	if (ledger_open(cli->dir, &l, &err) != 0) {
		history_context_close(&hc);
		return cli_report("history", &err);
	}
	for (i = 0; i < hc.project->nfronts; i++) {
		f = &hc.project->fronts[i];
		if (pull_supported(f) && pull_has_sent(&l, f) &&
		    (r = pull_one(cli, &hc, &l, f, &a, clock_now())) != EXIT_OK)
			rc = r;
	}
	ledger_free(&l);
	history_context_close(&hc);
	return rc;
}

int
history_pull(struct cli *cli, struct args *args)
{
	struct pull_args a = { 0 };
	time_t t;

	a.front = args_string(args, "front");
	a.since = args_string(args, "since");
	a.dry_run = args_has(args, "dry-run");
	a.wait = args_has(args, "wait");
	if (a.since != NULL && parse_since(a.since, &t) != 0)
		return cli_usage_error("history", "--since takes a date "
		    "(2026-11-01) or an ISO-8601 time");
	return pull_run(cli, &a);
}
