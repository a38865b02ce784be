/*
 * history_pull — the pull loop over a project's fronts (see
 * history_pull.h): the window each front is read over, the ledger's sent
 * posts attached to what the platform returned, the posts it no longer
 * returns, and the merge into history.jsonl.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist_predict.h"
#include "core/hook.h"
#include "core/lock.h"
#include "net/pull.h"
#include "runs/history_pull.h"

/* The default window: 30 days, reaching back to the oldest post of the
 * front that is not settled yet. (The project as loaded is current for
 * every front: a pull rewrites only its own front's lines.) */
static time_t
history_default_since(const struct project *p, int front, time_t now)
{
	time_t since = now - HISTORY_PULL_DEFAULT_DAYS * 86400;
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
history_known_in_window(const struct project *p, int i, int front,
    time_t since)
{
	return p->history[i].front == front &&
	    p->history[i].platform_id != NULL &&
	    p->history[i].posted_at >= since;
}

static struct hist_item *
history_find_item(struct hist_batch *b, const char *platform_id)
{
	int i;

	for (i = 0; i < b->nitems; i++)
		if (b->items[i].platform_id != NULL &&
		    strcmp(b->items[i].platform_id, platform_id) == 0)
			return &b->items[i];
	return NULL;
}

static void
history_lost_add(struct history_lost **v, int *n, const char *id,
    const char *post_id)
{
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[*n].id = xstrdup(id);
	(*v)[*n].post_id = xstrdup(post_id);
	(*n)++;
}

/* Sent ledger entries of the front become history lines under their
 * entry id, with the plan's prediction; one sent inside the window the
 * platform did not return is missing. */
static void
history_attach_ledger(const char *dir, const struct ledger *l,
    struct history_front *hf, struct hist_batch *b)
{
	const struct ledger_entry *e;
	struct hist_prediction pr;
	struct hist_item *it;
	int i;

	for (i = 0; i < l->nentries; i++) {
		e = &l->entries[i];
		if (e->state != LEDGER_SENT || strcmp(e->front, hf->front) != 0 ||
		    e->post_id == NULL)
			continue;
		if ((it = history_find_item(b, e->post_id)) == NULL) {
			if (e->attempted >= hf->since)
				history_lost_add(&hf->missing, &hf->nmissing,
				    e->id, e->post_id);
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
history_find_gone(const struct project *p, int front,
    struct history_front *hf, struct hist_batch *b)
{
	int i;

	for (i = 0; i < p->nhistory; i++)
		if (history_known_in_window(p, i, front, hf->since) &&
		    history_find_item(b, p->history[i].platform_id) == NULL)
			history_lost_add(&hf->gone, &hf->ngone,
			    p->history[i].id, p->history[i].platform_id);
}

struct history_idlist {
	char	**v;
	int	  n;
};

static void
history_idlist_add(struct history_idlist *l, const char *id)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], id) == 0)
			return;
	l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	l->v[l->n++] = xstrdup(id);
}

static void
history_idlist_free(struct history_idlist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* The posts of the front fronts knows inside the window: X has no
 * timeline read, so these are what an X pull refreshes. */
static void
history_known_ids(const struct project *p, const struct ledger *l,
    int front, time_t since, struct history_idlist *out)
{
	const char *id = p->fronts[front].id;
	int i;

	for (i = 0; i < p->nhistory; i++)
		if (history_known_in_window(p, i, front, since))
			history_idlist_add(out, p->history[i].platform_id);
	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].state == LEDGER_SENT &&
		    strcmp(l->entries[i].front, id) == 0 &&
		    l->entries[i].post_id != NULL &&
		    l->entries[i].attempted >= since)
			history_idlist_add(out, l->entries[i].post_id);
}

static double
history_wait_scale(void)
{
	const char *v = hook_env(HOOK_WAIT_SCALE);

	return v != NULL ? strtod(v, NULL) : 1;
}

/* Pulls front fi into hf and merges what came back; the exit code of
 * this front. */
static int
history_pull_one(const struct history_pull_opts *a,
    struct history_context *hc, const struct ledger *l, int fi,
    struct history_front *hf)
{
	const struct front *f = &hc->project->fronts[fi];
	struct pull_opts o = { .front = f, .now = a->now,
	    .wait_scale = history_wait_scale() };
	struct pull_result r;
	struct history_idlist ids = { 0 };
	int rc;

	hf->since = o.since = a->has_since ? a->since :
	    history_default_since(hc->project, fi, a->now);
	if (f->platform == PLATFORM_X) {
		history_known_ids(hc->project, l, fi, o.since, &ids);
		o.ids = (const char *const *)ids.v;
		o.nids = ids.n;
	}
	if (a->begin != NULL)
		a->begin(a->arg, hf);
	rc = pull_front(&o, &r, &hf->err);
	history_idlist_free(&ids);
	if (rc != 0) {
		pull_result_free(&r);
		hf->state = HISTORY_FAILED;
		return hf->err.code != 0 ? hf->err.code : EXIT_ERROR;
	}
	rc = history_pull_merge(a, hc, l, fi, &r, hf);
	pull_result_free(&r);
	return rc;
}

int
history_pull_merge(const struct history_pull_opts *a,
    struct history_context *hc, const struct ledger *l, int fi,
    struct pull_result *r, struct history_front *hf)
{
	int rc = EXIT_OK;

	hf->state = HISTORY_PULLED;
	history_attach_ledger(a->dir, l, hf, &r->batch);
	if (r->complete)
		history_find_gone(hc->project, fi, hf, &r->batch);
	else if (r->stopped == NULL)
		hf->page_limit = true;
	hf->requests = r->requests;
	hf->pages = r->pages;
	if (history_apply(a->dir, hc, hc->project->fronts[fi].id, &r->batch,
	    a->dry_run, a->now, &hf->result, &hf->err) != 0)
		return hf->err.code != 0 ? hf->err.code : EXIT_ERROR;
	hf->applied = true;
	if ((hf->stopped = r->stopped) != NULL)
		rc = EXIT_NETWORK;
	r->stopped = NULL;
	return rc;
}

/* Does the ledger hold a post fronts sent on front f? */
static bool
history_has_sent(const struct ledger *l, const struct front *f)
{
	int i;

	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].state == LEDGER_SENT &&
		    strcmp(l->entries[i].front, f->id) == 0)
			return true;
	return false;
}

static void
history_pull_fronts(const struct history_pull_opts *a,
    struct history_context *hc, const struct ledger *l,
    struct history_pull_result *out)
{
	const struct front *f;
	struct history_front *hf;
	int i, rc;

	for (i = 0; i < hc->project->nfronts; i++) {
		f = &hc->project->fronts[i];
		if (a->front != NULL && strcmp(f->id, a->front) != 0)
			continue;
		if (a->sent_only && (!pull_supported(f) ||
		    !history_has_sent(l, f)))
			continue;
		out->fronts = xrealloc(out->fronts, (size_t)(out->nfronts + 1) *
		    sizeof *out->fronts);
		hf = &out->fronts[out->nfronts++];
		memset(hf, 0, sizeof *hf);
		hf->front = xstrdup(f->id);
		hf->platform = f->platform;
		if (!pull_supported(f)) {
			hf->state = HISTORY_NOT_PULLED;
			rc = a->front != NULL ? EXIT_USAGE : EXIT_OK;
		} else
			rc = history_pull_one(a, hc, l, i, hf);
		if (rc != EXIT_OK)
			out->code = rc;
		if (a->done != NULL)
			a->done(a->arg, hf);
	}
}

int
history_pull_run(const struct history_pull_opts *a,
    struct history_pull_result *out, struct error *err)
{
	struct history_context hc;
	struct project_lock *lock = NULL;
	struct ledger l;

	memset(out, 0, sizeof *out);
	if (history_context_open(a->dir, &hc, err) != 0)
		return -1;
	if (a->front != NULL && project_front_index(hc.project, a->front) < 0) {
		history_context_close(&hc);
		error_set(err, EXIT_USAGE, "no front \"%s\" in fronts.json",
		    a->front);
		return HISTORY_NO_FRONT;
	}
	/* The history lines of sent posts come from the ledger: no publisher
	 * may change it between the read and the write. */
	if (!a->dry_run && !a->sent_only && project_lock_take(a->dir,
	    "fronts history pull", a->wait, &lock, err) != 0) {
		history_context_close(&hc);
		return -1;
	}
	if (ledger_open(a->dir, &l, err) != 0) {
		project_lock_release(lock);
		history_context_close(&hc);
		return -1;
	}
	history_pull_fronts(a, &hc, &l, out);
	ledger_free(&l);
	project_lock_release(lock);
	history_context_close(&hc);
	return 0;
}

static void
history_lost_free(struct history_lost *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].post_id);
	}
	free(v);
}

void
history_pull_result_free(struct history_pull_result *r)
{
	struct history_front *hf;
	int i;

	for (i = 0; i < r->nfronts; i++) {
		hf = &r->fronts[i];
		free(hf->front);
		history_lost_free(hf->missing, hf->nmissing);
		history_lost_free(hf->gone, hf->ngone);
		history_applied_free(&hf->result);
		free(hf->stopped);
	}
	free(r->fronts);
	memset(r, 0, sizeof *r);
}
