/*
 * search_result — what is read from a tree: the principal variation (most
 * visited path, or in a merged tree the plan chosen at the merge) with the
 * alternatives at each step, and the bounded snapshot the TUI and the
 * worker's progress stream show.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"

static int
search_pref_cmp(const void *a, const void *b)
{
	const struct pref_at *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * The plan's nodes by index, for search_preferred(): a walk down a plan
 * of n steps asks for each step's successor, and a scan of the plan for
 * each would make the walk quadratic (a forged tree of a million steps
 * held the search lock for hours).
 */
static void
search_pref_index(struct search *s)
{
	int i;

	free(s->pat);
	s->pat = xcalloc(s->npref > 0 ? s->npref : 1, sizeof *s->pat);
	for (i = 0; i < s->npref; i++) {
		s->pat[i].node = s->pref[i];
		s->pat[i].at = (uint32_t)i;
	}
	qsort(s->pat, s->npref, sizeof *s->pat, search_pref_cmp);
}

/*
 * The plan chosen at a merge (search_merge_prefer) or by the best path
 * (search_follow_best), as actions from the root, and its nodes. Nodes
 * move as their parents gain children (struct node), so the path is kept
 * as actions and resolved again after every change to the tree that
 * comes after it is set: only search_merge() makes such changes. The
 * caller holds the lock.
 */
void
search_pref_set(struct search *s, const struct action *path, int n,
    double total)
{
	INVARIANT(mutex_held(&s->lock));
	if (path != s->pact) {
		free(s->pact);
		s->pact = xcalloc(n > 0 ? n : 1, sizeof *s->pact);
		memcpy(s->pact, path, (size_t)n * sizeof *path);
		s->npact = n;
		s->pref_total = total;
	}
	free(s->pref);
	s->pref = xcalloc(n > 0 ? n : 1, sizeof *s->pref);
	s->npref = 0;
	while (s->npref < n && (s->pref[s->npref] = search_find_child(s,
	    s->npref == 0 ? 0 : s->pref[s->npref - 1],
	    &s->pact[s->npref])) != NIL)
		s->npref++;
	search_pref_index(s);
}

/* In a merged tree, the step after ni on the plan chosen at the merge,
 * or NIL off it and past its end. */
static uint32_t
search_preferred(const struct search *s, uint32_t ni)
{
	const struct pref_at *p, key = { ni, 0 };

	if (s->npref == 0)
		return NIL;
	if (ni == 0)
		return s->pref[0];
	p = bsearch(&key, s->pat, s->npref, sizeof *s->pat, search_pref_cmp);
	return p != NULL && p->at + 1 < (uint32_t)s->npref ?
	    s->pref[p->at + 1] : NIL;
}

/* The plan's next step: the merged plan where there is one, else the most
 * visited child (ties: the higher mean), or NIL. */
uint32_t
search_best_child(const struct search *s, uint32_t ni)
{
	uint32_t ci, best;
	const struct node *c, *b;

	if ((best = search_preferred(s, ni)) != NIL)
		return best;
	NODE_FOREACH_CHILD(ci, &s->nodes[ni]) {
		c = &s->nodes[ci];
		if (c->visits == 0)
			continue;
		b = best == NIL ? NULL : &s->nodes[best];
		if (b == NULL || c->visits > b->visits ||
		    (c->visits == b->visits && search_mean(c) > search_mean(b)))
			best = ci;
	}
	return best;
}


static void
search_edge_fill(const struct node *n, struct search_edge *e)
{
	double m, var;

	memset(e, 0, sizeof *e);
	e->action = n->action;
	e->slot = n->slot;
	e->visits = n->visits;
	e->avail = n->avail;
	if (n->visits == 0)
		return;
	e->mean = n->sum / n->visits;
	m = e->reward_mean = n->rsum / n->visits;
	var = n->visits > 1 ? (n->rsq - n->visits * m * m) / (n->visits - 1) : 0;
	var = var > 0 ? var : 0;
	e->ci_lo = m - 1.96 * sqrt(var / n->visits);
	e->ci_hi = m + 1.96 * sqrt(var / n->visits);
}

static int
search_edge_cmp(const void *a, const void *b)
{
	const struct search_edge *x = a, *y = b;

	if (x->visits != y->visits)
		return x->visits > y->visits ? -1 : 1;
	if (x->mean != y->mean)
		return x->mean > y->mean ? -1 : 1;
	return 0;
}

/* Children of ni except skip, by visits; returns the count. */
static int
search_children(const struct search *s, uint32_t ni, uint32_t skip,
    struct search_edge **out)
{
	uint32_t ci;
	int n = 0, cap = 16;

	*out = xcalloc(cap, sizeof **out);
	NODE_FOREACH_CHILD(ci, &s->nodes[ni]) {
		if (ci == skip || s->nodes[ci].visits == 0)
			continue;
		if (n == cap) {
			cap *= 2;
			*out = xrealloc(*out, cap * sizeof **out);
		}
		search_edge_fill(&s->nodes[ci], &(*out)[n++]);
	}
	qsort(*out, n, sizeof **out, search_edge_cmp);
	return n;
}

void
search_snapshot(struct search *s, struct search_snapshot *snap)
{
	struct search_edge *kids;
	uint32_t ni = 0, c;
	int n;

	memset(snap, 0, sizeof *snap);
	mutex_lock(&s->lock);
	snap->state = s->state;
	snap->iterations = s->iterations;
	snap->model_calls = search_get(&s->model_calls);
	snap->illegal_proposals = search_get(&s->illegal);
	snap->model_errors = s->failed;
	snap->nodes = s->nlive;
	snap->arena_bytes = (uint64_t)s->cap * sizeof *s->nodes;
	snap->elapsed = s->elapsed;
	snap->model_seconds = search_getf(&s->model_seconds);
	snap->rate = s->elapsed > 0 ? s->iterations / s->elapsed : 0;
	snap->workers = s->params.workers > 0 ? s->params.workers : 1;
	n = search_children(s, 0, NIL, &kids);
	snap->nroot = n < SNAPSHOT_MAX_CHILDREN ? n : SNAPSHOT_MAX_CHILDREN;
	memcpy(snap->root, kids, snap->nroot * sizeof *kids);
	free(kids);
	while (snap->npv < SNAPSHOT_MAX_PV &&
	    (c = search_best_child(s, ni)) != NIL) {
		search_edge_fill(&s->nodes[c], &snap->pv[snap->npv++]);
		ni = c;
	}
	snprintf(snap->error, sizeof snap->error, "%s", s->error);
	mutex_unlock(&s->lock);
}

int
search_result(struct search *s, int alts_per_step, struct search_result *out)
{
	struct search_edge *kids;
	uint32_t ni = 0, c;
	int cap = 64, acap = 64, n, i;

	memset(out, 0, sizeof *out);
	out->pv = xcalloc(cap, sizeof *out->pv);
	out->alts = xcalloc(acap, sizeof *out->alts);
	mutex_lock(&s->lock);
	while ((c = search_best_child(s, ni)) != NIL) {
		if (out->npv == cap) {
			cap *= 2;
			out->pv = xrealloc(out->pv, cap * sizeof *out->pv);
		}
		search_edge_fill(&s->nodes[c], &out->pv[out->npv]);
		n = search_children(s, ni, c, &kids);
		for (i = 0; i < n && i < alts_per_step; i++) {
			if (out->nalts == acap) {
				acap *= 2;
				out->alts = xrealloc(out->alts,
				    acap * sizeof *out->alts);
			}
			out->alts[out->nalts].step = out->npv;
			out->alts[out->nalts++].edge = kids[i];
		}
		free(kids);
		out->npv++;
		ni = c;
	}
	if (out->npv == 0)
		out->expected_total = search_mean(&s->nodes[0]);
	else
		out->expected_total = out->pv[out->npv - 1].mean;
	for (i = 0; i + 1 < out->npv; i++)
		out->expected_total += out->pv[i].reward_mean;
	mutex_unlock(&s->lock);
	return 0;
}

void
search_result_free(struct search_result *r)
{
	free(r->pv);
	free(r->alts);
	memset(r, 0, sizeof *r);
}
