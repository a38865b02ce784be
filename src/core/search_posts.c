/*
 * search_posts — a plan as a set of posts with their slots, shared by the
 * two ways the search improves a whole plan after the tree search
 * (search_polish.c without value(), search_climb.c with it): the plan's
 * posts read from the tree, their actions in the search's order under the
 * legality engine, the model's word on one post, and the improved plan
 * joining the tree.
 */
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"

int
search_post_cmp(const void *x, const void *y)
{
	const struct search_post *a = x, *b = y;

	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	if (a->a.draft != b->a.draft)
		return a->a.draft < b->a.draft ? -1 : 1;
	return a->a.front < b->a.front ? -1 : a->a.front > b->a.front;
}

/* The posts of slot (from j on) that are pinned there, or the others,
 * appended to act; false where the engine refuses one. */
static bool
search_post_slot(struct search *s, const struct search_post *post, int n,
    int j, int slot, bool pinned, struct action *act, int *nact)
{
	int i;

	for (i = j; i < n && post[i].slot == slot; i++) {
		if (legal_pinned_at(s->lg, &post[i].a, slot) != pinned)
			continue;
		if (legal_check(s->lg, s->lp, &post[i].a) != LEGAL_OK)
			return false;
		legal_apply(s->lg, s->lp, &post[i].a);
		act[(*nact)++] = post[i].a;
	}
	return true;
}

/*
 * The actions of a set of posts sorted by search_post_cmp: each slot's
 * pinned posts, then its other posts, each in the search's canonical
 * (draft, front) order, then the wait, to the horizon (act has room for
 * n + horizon). at, where not NULL, gets the index of each slot's first
 * action, and at[horizon] the count. False where the legality engine
 * refuses one (free: no model call): a variant that moves, drops or
 * crowds out a pin, or breaks a cap or a gap.
 */
bool
search_post_actions(struct search *s, const struct search_post *post, int n,
    struct action *act, int *nact, int *at)
{
	int j = 0, slot;

	*nact = 0;
	legal_path_reset(s->lg, s->lp);
	for (slot = 0; slot < s->p->horizon_slots; slot++) {
		if (at != NULL)
			at[slot] = *nact;
		if (!search_post_slot(s, post, n, j, slot, true, act, nact) ||
		    !search_post_slot(s, post, n, j, slot, false, act, nact))
			return false;
		for (; j < n && post[j].slot == slot; j++)
			;
		act[*nact].kind = ACTION_WAIT;
		if (legal_check(s->lg, s->lp, &act[*nact]) != LEGAL_OK)
			return false;
		legal_apply(s->lg, s->lp, &act[(*nact)++]);
	}
	if (at != NULL)
		at[slot] = *nact;
	return j == n;
}

/* Is a among the model's legal actions at st (a post pinned at slot
 * always is)? */
int
search_proposed(struct search *s, model_state *st, const struct action *a,
    int slot, bool *yes)
{
	int n = 0, illegal = 0, i, rc;
	uint32_t id;
	double t0;

	*yes = legal_pinned_at(s->lg, a, slot);
	if (*yes)
		return MODEL_OK;
	t0 = search_call_begin(s);
	rc = s->ops->legal_ids(s->m, st, s->mids, s->mcap, &n, &illegal);
	if (search_call_done(s, t0, rc) != MODEL_OK)
		return rc;
	id = search_action_id(s, a);
	for (i = 0; i < n && i < s->mcap && !*yes; i++)
		*yes = s->mids[i] == id;
	return MODEL_OK;
}

/* The plan's actions as the tree gives them now (search_best_child), up
 * to the first node with fewer than min_visits visits, in *out, and their
 * nodes' slots in *slots where not NULL (both freed by the caller);
 * returns their count. */
int
search_plan_path(struct search *s, uint32_t min_visits, struct action **out,
    int32_t **slots)
{
	struct action *path;
	int32_t *sl;
	uint32_t ni = 0, ci;
	int n = 0, cap = 16;

	path = xcalloc(cap, sizeof *path);
	sl = xcalloc(cap, sizeof *sl);
	mutex_lock(&s->lock);
	while ((ci = search_best_child(s, ni)) != NIL &&
	    s->nodes[ci].visits >= min_visits) {
		if (n == cap) {
			cap *= 2;
			path = xrealloc(path, cap * sizeof *path);
			sl = xrealloc(sl, cap * sizeof *sl);
		}
		sl[n] = s->nodes[ci].slot;
		path[n++] = s->nodes[ci].action;
		ni = ci;
	}
	mutex_unlock(&s->lock);
	*out = path;
	if (slots != NULL)
		*slots = sl;
	else
		free(sl);
	return n;
}

/* The plan's posts with their slots, in *out (freed by the caller);
 * returns their count. */
int
search_plan_posts(struct search *s, struct search_post **out)
{
	struct action *path;
	int32_t *sl;
	int n = search_plan_path(s, 0, &path, &sl), i, np = 0;

	*out = xcalloc(n + 1, sizeof **out);
	for (i = 0; i < n; i++)
		if (path[i].kind == ACTION_POST) {
			(*out)[np].slot = sl[i];
			(*out)[np++].a = path[i];
		}
	free(sl);
	free(path);
	return np;
}

/*
 * The path joins the tree where it leaves it, each missing node with nk
 * visits, its step's reward sum rsum[i] (squares rsq[i]) and the return
 * sum from there on, and becomes the plan (search_pref_set), valued at
 * total. Under the lock.
 */
void
search_join(struct search *s, const struct action *path, int n,
    const double *rsum, const double *rsq, uint32_t nk, double total)
{
	struct node *nd;
	uint32_t ni = 0, ci;
	double g = 0;
	int i, slot = 0;

	INVARIANT(mutex_held(&s->lock));
	for (i = 0; i < n; i++)
		g += rsum[i];
	for (i = 0; i < n; i++) {
		if ((ci = search_find_child(s, ni, &path[i])) == NIL) {
			ci = search_node_new(s, ni, &path[i], slot);
			nd = &s->nodes[ci];
			nd->visits = nd->avail = nk;
			nd->sum = g;
			nd->best = nd->q = g / nk;
			nd->rsum = rsum[i];
			nd->rsq = rsq[i];
		}
		g -= rsum[i];
		slot += path[i].kind == ACTION_WAIT;
		ni = ci;
	}
	search_pref_set(s, path, n, total);
}
