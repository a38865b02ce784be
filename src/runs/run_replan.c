/*
 * run_replan — the rest of the horizon planned again from what happened:
 * counts pulled into history, the posts the ledger says were sent (and
 * the drafts skipped for good) fixed through the legality engine's past,
 * and a new search from the current slot to the horizon's end. The world
 * model reads the new history through ctx. Where the plan held so far
 * (every post it placed before now went out, nothing else did) the new
 * search goes on from the last search's tree below the steps that
 * happened, on a quarter of the budget; otherwise it searches from
 * scratch on the whole budget. The operator is told which, and what moved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/search.h"
#include "runs/planner.h"
#include "runs/run_int.h"

#define RUN_REUSE_SHARE	4	/* a reused tree's re-plan: budget / this */
#define RUN_REUSE_MIN	200	/* iterations at least */

/* "14:00", with the day when it differs from ref's. */
static void
run_hhmm(time_t t, time_t ref, char *buf, size_t len)
{
	struct tm a, b;

	localtime_r(&t, &a);
	localtime_r(&ref, &b);
	strftime(buf, len, a.tm_yday == b.tm_yday && a.tm_year == b.tm_year ?
	    "%H:%M" : "%a %H:%M", &a);
}

/* Index of the post of b with a's draft on front (any front: -1), not
 * yet matched. */
static int
run_match(const struct plan *b, const uint8_t *used, int draft, int front,
    time_t from)
{
	int k;

	for (k = 0; k < b->nposts; k++)
		if (!used[k] && b->posts[k].at >= from &&
		    b->posts[k].draft == draft &&
		    (front < 0 || b->posts[k].front == front))
			return k;
	return -1;
}

void
run_diff(struct run *r, const struct project *pa, const struct plan *a,
    const struct project *pb, const struct plan *b, time_t from)
{
	uint8_t *used = xcalloc((size_t)b->nposts + 1, 1);
	const struct plan_post *x, *y;
	char t1[16], t2[16];
	int i, k, n = 0;
	time_t now = clock_now();

	for (i = 0; i < a->nposts; i++) {
		x = &a->posts[i];
		if (x->at < from || (r->plan.posts == a->posts &&
		    run_post_settled(r, i)))
			continue;
		if ((k = run_match(b, used, x->draft, x->front, from)) < 0)
			k = run_match(b, used, x->draft, -1, from);
		run_hhmm(x->at, now, t1, sizeof t1);
		if (k < 0) {
			run_say(r, "  %s dropped (was %s on %s)",
			    pa->drafts[x->draft].id, t1, pa->fronts[x->front].id);
			n++;
			continue;
		}
		used[k] = 1;
		y = &b->posts[k];
		run_hhmm(y->at, now, t2, sizeof t2);
		if (y->front != x->front)
			run_say(r, "  %s moved from %s on %s to %s on %s",
			    pa->drafts[x->draft].id, t1, pa->fronts[x->front].id,
			    t2, pb->fronts[y->front].id);
		else if (y->at != x->at)
			run_say(r, "  %s moved from %s to %s on %s",
			    pa->drafts[x->draft].id, t1, t2,
			    pb->fronts[y->front].id);
		else
			continue;
		n++;
	}
	for (k = 0; k < b->nposts; k++) {
		if (used[k])
			continue;
		y = &b->posts[k];
		run_hhmm(y->at, now, t2, sizeof t2);
		run_say(r, "  %s added at %s on %s", pb->drafts[y->draft].id, t2,
		    pb->fronts[y->front].id);
		n++;
	}
	if (n == 0)
		run_say(r, "  the rest of the plan is unchanged");
	free(used);
}

/* Where the new plan starts: the current slot, or the slot of an earlier
 * post whose window is still open (so it is not forgotten). */
static time_t
run_replan_start(struct run *r, time_t now)
{
	long slot = r->p->slot_minutes * 60L;
	time_t start = r->p->start;
	int i;

	if (now > start)
		start += (now - start) / slot * slot;
	for (i = 0; i < r->plan.nposts; i++)
		if (r->plan.posts[i].at < start &&
		    now < run_window_end(r->p, &r->plan.posts[i],
		    r->o.late_minutes) && !run_post_settled(r, i))
			start = r->plan.posts[i].at;
	return start;
}

/* Was post i of the current plan sent (by the ledger)? */
static bool
run_post_sent(struct run *r, int i)
{
	const struct plan_post *pp = &r->plan.posts[i];
	const struct ledger_entry *e;
	char id[LEDGER_ID_LEN];

	ledger_entry_id(r->pub.plan_id, pp->slot, r->p->fronts[pp->front].id,
	    r->p->drafts[pp->draft].id, pp->text, id);
	e = ledger_find(&r->pub.ledger, id);
	return e != NULL && e->state == LEDGER_SENT;
}

/* The steps from the last tree's root to the new start, when the plan
 * held: its posts before the new start all sent, those of the start's
 * slot sent in plan order as far as they went. -1 when it did not. */
static int
run_path(struct run *r, time_t start, struct action **out, int *shift)
{
	long slot = r->p->slot_minutes * 60L;
	struct action *a;
	int sh = (int)((start - r->p->start) / slot), i, k = 0, s = 0;
	bool stopped = false;

	*shift = sh;
	a = xcalloc((size_t)r->plan.nposts + sh + 1, sizeof *a);
	for (i = 0; i < r->plan.nposts && r->plan.posts[i].slot <= sh; i++) {
		for (; s < r->plan.posts[i].slot; s++)
			a[k++].kind = ACTION_WAIT;
		if (!run_post_sent(r, i)) {
			if (r->plan.posts[i].slot < sh)
				break;
			stopped = true;
			continue;
		}
		if (stopped)
			break;
		a[k].kind = ACTION_POST;
		a[k].front = (uint16_t)r->plan.posts[i].front;
		a[k++].draft = (uint32_t)r->plan.posts[i].draft;
	}
	if (i < r->plan.nposts && r->plan.posts[i].slot <= sh) {
		free(a);
		return -1;
	}
	for (; s < sh; s++)
		a[k++].kind = ACTION_WAIT;
	*out = a;
	return k;
}

/* The last tree below what happened since its root, or NULL (said). */
static char *
run_prior(struct run *r, time_t start, size_t *len)
{
	struct action *path;
	char *sub = NULL;
	int n, shift;

	if (r->tree == NULL)
		return NULL;
	if ((n = run_path(r, start, &path, &shift)) < 0)
		return NULL;
	if (search_export_subtree(r->tree, r->tree_len, path, n, shift, &sub,
	    len) != 0)
		sub = NULL;
	free(path);
	return sub;
}

/* One search over p's window: from prior on a share of the run's budget,
 * or from scratch on all of it. Keeps the tree for the next re-plan. */
static int
run_search(struct run *r, const struct project *p, const char *prior,
    size_t plen, struct plan *out, struct error *err)
{
	struct search_params sp = r->o.sp;
	struct planner *pr = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	if (prior != NULL && sp.iterations > 0) {
		sp.iterations /= RUN_REUSE_SHARE;
		if (sp.iterations < RUN_REUSE_MIN)
			sp.iterations = RUN_REUSE_MIN;
	}
	if (planner_start_from(p, r->o.model_src, r->o.model_len, &sp, prior,
	    plen, &pr, err) != 0)
		return -1;
	rc = planner_wait(pr, out, err);
	if (rc == 0) {
		snprintf(out->model_sha256, sizeof out->model_sha256, "%s",
		    planner_model_sha256(pr));
		free(r->tree);
		r->tree = NULL;
		if (planner_export(pr, &r->tree, &r->tree_len) != 0)
			r->tree = NULL;
	}
	planner_free(pr);
	return rc;
}

int
run_replan(struct run *r, const char *reason, struct error *err)
{
	struct project *p = NULL;
	struct error perr = { 0 };
	struct plan pl;
	time_t now = clock_now(), start;
	long slot = r->p->slot_minutes * 60L;
	double was = 0, will = 0;
	char *why, *prior;
	size_t plen = 0;
	int i, rc;

	r->last_replan = now;
	if (!r->o.live)
		return 0;	/* a dry run changes nothing to plan around */
	if (r->o.model_src == NULL) {
		run_say(r, "not re-planned after %s: no approved model", reason);
		return 0;
	}
	if (r->ui.pull != NULL && r->ui.pull(r->ui.arg, r->o.dir, &perr) != 0)
		run_say(r, "counts not pulled: %s", perr.msg);
	if ((start = run_replan_start(r, now)) >= r->horizon_end)
		return 0;
	if (project_load(r->o.dir, &p, err) != 0)
		return -1;
	p->start = start;
	p->start_now = false;
	p->horizon_slots = (int)((r->horizon_end - start + slot - 1) / slot);
	prior = run_prior(r, start, &plen);
	run_say(r, "re-planning the rest of the horizon after %s (%d slots, "
	    "%s)…", reason, p->horizon_slots, prior != NULL ? "going on from "
	    "the last search's tree: the plan held" : r->tree == NULL ?
	    "a search from scratch: no earlier tree in this run" :
	    "a search from scratch: the plan did not hold");
	rc = run_search(r, p, prior, plen, &pl, &perr);
	free(prior);
	if (rc != 0) {
		run_say(r, "re-plan failed, the plan stays as it was: %s",
		    perr.msg);
		plan_free(&pl);
		project_free(p);
		return 0;
	}
	run_diff(r, r->p, &r->plan, p, &pl, start);
	for (i = 0; i < r->plan.nposts; i++)
		if (r->plan.posts[i].at >= start && !run_post_settled(r, i))
			was += r->plan.posts[i].expected_reward;
	for (i = 0; i < pl.nposts; i++)
		will += pl.posts[i].expected_reward;
	run_say(r, "  expected reward of the posts to come: %.1f (was %.1f)",
	    will, was);
	xasprintf(&why, "re-planned after %s", reason);
	rc = run_adopt(r, p, &pl, why, err);
	free(why);
	plan_free(&pl);
	if (rc == 0 && r->generation > 0)
		run_say(r, "  kept as generation %d (.fronts/plans/%04d.json)",
		    r->generation, r->generation);
	return rc;
}
