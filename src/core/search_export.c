/*
 * search_export — a tree as bytes and back: root-parallel workers export
 * their trees, and the planner merges them by action path into one. The
 * merge checks every node against the project's bounds first, since the
 * bytes come from a process that ran the operator's model.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"

static void
search_export_node(const struct node *n, uint32_t parent,
    struct export_node *e)
{
	memset(e, 0, sizeof *e);
	e->parent = parent;
	e->slot = n->slot;
	e->action = n->action;
	e->visits = n->visits;
	e->avail = n->avail;
	e->sum = n->sum;
	e->rsum = n->rsum;
	e->rsq = n->rsq;
}

/* Marks the tree's plan, the path search_result() would follow. */
static uint8_t *
search_export_pv(const struct search *s)
{
	uint8_t *on = xcalloc(s->nnodes, 1);
	uint32_t ni = 0;

	while ((ni = search_best_child(s, ni)) != NIL)
		on[ni] = 1;
	return on;
}

int
search_export(struct search *s, char **buf, size_t *len)
{
	struct export_head h;
	struct export_node *out;
	uint32_t *stack, *pidx, ni, ci, n = 0, sp = 0;
	uint8_t *pv;

	mutex_lock(&s->lock);
	out = xcalloc(s->nnodes, sizeof *out);
	stack = xcalloc(s->nnodes + 1, sizeof *stack);
	pidx = xcalloc(s->nnodes + 1, sizeof *pidx);
	pv = search_export_pv(s);
	stack[sp++] = 0;
	pidx[0] = NIL;
	while (sp > 0) {
		ni = stack[--sp];
		search_export_node(&s->nodes[ni], pidx[ni], &out[n]);
		out[n].pv = pv[ni];
		NODE_FOREACH_CHILD(ci, &s->nodes[ni]) {
			if (s->nodes[ci].visits < 2 && !pv[ci])
				continue;
			pidx[ci] = n;
			stack[sp++] = ci;
		}
		n++;
	}
	free(pv);
	memset(&h, 0, sizeof h);
	h.magic = EXPORT_MAGIC;
	h.nnodes = n;
	h.iterations = s->iterations;
	h.failed = s->failed;
	h.model_calls = search_get(&s->model_calls);
	h.illegal = search_get(&s->illegal);
	h.model_seconds = search_getf(&s->model_seconds);
	h.elapsed = s->elapsed;
	h.nerrors = s->nerrors;
	memcpy(h.errors, s->errors, sizeof h.errors);
	mutex_unlock(&s->lock);
	*len = sizeof h + (size_t)n * sizeof *out;
	*buf = xmalloc(*len);
	memcpy(*buf, &h, sizeof h);
	memcpy(*buf + sizeof h, out, (size_t)n * sizeof *out);
	free(out);
	free(stack);
	free(pidx);
	return 0;
}

/*
 * A node's sums are what its visits could have added up: every step's
 * reward within ±MODEL_NUMBER_MAX, and a path at most the horizon's waits,
 * one post per draft and front, and a value. A tree within these bounds
 * cannot make a merged sum infinite, and so no mean or score NaN.
 */
static bool
search_export_sums_valid(const struct search *s, const struct export_node *e)
{
	double v = e->visits, r = MODEL_NUMBER_MAX, steps;

	steps = (double)s->p->horizon_slots + (double)s->p->ndrafts *
	    s->nfronts + 1;
	return fabs(e->sum) <= v * r * steps && fabs(e->rsum) <= v * r &&
	    e->rsq >= 0 && e->rsq <= v * r * r;
}

static bool
search_export_valid(const struct search *s, const struct export_node *e,
    uint32_t i)
{
	const struct action *a = &e->action;

	if (!search_export_sums_valid(s, e))
		return false;
	if (e->pv > 1)
		return false;
	if (i == 0)
		return e->parent == NIL;
	if (e->parent >= i || e->slot < 0 || e->slot >= s->p->horizon_slots)
		return false;
	if (a->kind == ACTION_WAIT)
		return true;
	return a->kind == ACTION_POST && a->draft < (uint32_t)s->p->ndrafts &&
	    a->front < (uint32_t)s->nfronts;
}

static bool
search_export_head_valid(const struct export_head *h, size_t len)
{
	size_t body = len - sizeof *h, each = sizeof(struct export_node);

	return h->magic == EXPORT_MAGIC && h->nnodes > 0 &&
	    body / each == h->nnodes && body % each == 0 && h->nerrors >= 0 &&
	    h->model_seconds >= 0 && isfinite(h->model_seconds) &&
	    h->elapsed >= 0 && isfinite(h->elapsed);
}

/* Counts add up to at most UINT32_MAX rather than wrap. */
static uint32_t
search_add32(uint32_t a, uint32_t b)
{
	return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

static void
search_merge_head(struct search *s, const struct export_head *h)
{
	int i;

	s->iterations += h->iterations;
	s->failed += h->failed;
	search_add(&s->model_calls, h->model_calls);
	search_add(&s->illegal, h->illegal);
	search_addf(&s->model_seconds, h->model_seconds);
	if (h->elapsed > s->elapsed)
		s->elapsed = h->elapsed;
	for (i = 0; i < h->nerrors && i < SEARCH_MAX_ERRORS &&
	    s->nerrors < SEARCH_MAX_ERRORS; i++) {
		s->errors[s->nerrors] = h->errors[i];
		s->errors[s->nerrors].type[sizeof h->errors[i].type - 1] = '\0';
		s->errors[s->nerrors].message[
		    sizeof h->errors[i].message - 1] = '\0';
		s->errors[s->nerrors].function[
		    sizeof h->errors[i].function - 1] = '\0';
		s->nerrors++;
	}
}

/*
 * The merged tree's plan. Summing the workers' visits and following the
 * most visited child would splice their plans: a step one worker chose
 * and deepened can lead, by the other's visits, into a step nobody
 * deepened, and the plan stops short of the horizon. Each worker's plan is
 * a path its own search deepened, so the merged plan is one of them whole:
 * the one its own worker values highest (the mean rewards of its steps
 * plus the mean return below its last, as search_result() reports it),
 * the earlier worker on a tie, so the same trees in the same order give
 * the same plan. The statistics shown along it are the merged sums.
 */
struct merge_pv {
	struct action	*path;		/* the plan's actions from the root */
	int		 n;
	double		 total;
	uint32_t	 last;		/* export index of the last step */
	double		 tail;		/* mean return below the last step */
};

static void
search_merge_pv(struct merge_pv *pv, const struct export_node *e,
    uint32_t i)
{
	double v = e->visits > 0 ? e->visits : 1;

	if (i == 0 || !e->pv || e->parent != pv->last)
		return;
	/* The step before the last counts its reward only: the mean return
	 * below the new last step replaces what followed it. */
	if (pv->n > 0)
		pv->total -= pv->tail;
	pv->tail = (e->sum - e->rsum) / v;
	pv->total += e->rsum / v + pv->tail;
	pv->path[pv->n++] = e->action;
	pv->last = i;
}

/* Does a plan reach the horizon (a wait for every slot)? */
static bool
search_merge_whole(const struct search *s, const struct action *path, int n)
{
	int i, waits = 0;

	for (i = 0; i < n; i++)
		waits += path[i].kind == ACTION_WAIT;
	return waits >= s->p->horizon_slots;
}

/* The better of the plan so far and this tree's; either way resolved
 * again on the merged tree, whose nodes the merge moved. A plan that
 * reaches the horizon beats one that stops short of it, whose value counts
 * returns below its last step (rollouts, value()) that no step of the plan
 * makes: on a horizon longer than a worker's tree reaches, the other
 * worker's completed plan would otherwise lose to an estimate. */
static void
search_merge_prefer(struct search *s, struct merge_pv *pv)
{
	bool whole = pv->n > 0 && search_merge_whole(s, pv->path, pv->n);
	bool had = s->pact != NULL && search_merge_whole(s, s->pact, s->npact);

	if (pv->n > 0 && (s->pact == NULL || whole > had ||
	    (whole == had && pv->total > s->pref_total)))
		search_pref_set(s, pv->path, pv->n, pv->total);
	else if (s->pact != NULL)
		search_pref_set(s, s->pact, s->npact, s->pref_total);
	free(pv->path);
}

/*
 * Is every node's parent on the path from the root to the node before it
 * (preorder, as search_export() writes)? The merge relies on it: adding a
 * child moves its siblings (struct node), and in preorder no node whose
 * index the merge still needs is a sibling of one it adds. Sets *depth to
 * the deepest node's depth.
 */
static bool
search_export_preorder(const char *body, uint32_t n, uint32_t *deepest)
{
	struct export_node e;
	uint32_t *path = xcalloc(n, sizeof *path), depth = 0, i;
	bool ok = true;

	*deepest = 0;
	for (i = 1; ok && i < n; i++) {
		memcpy(&e, body + (size_t)i * sizeof e, sizeof e);
		while (depth > 0 && path[depth] != e.parent)
			depth--;
		if (depth == 0 && e.parent != 0)
			ok = false;
		path[++depth] = i;	/* depth <= i < n */
		if (depth > *deepest)
			*deepest = depth;
	}
	free(path);
	return ok;
}

int
search_merge(struct search *into, const char *buf, size_t len,
    struct error *err)
{
	struct export_head h;
	struct export_node e;
	struct merge_pv pv;
	struct node *n;
	uint32_t *map, i, ni, depth;

	if (len < sizeof h)
		return error_set(err, EXIT_MODEL, "search tree: %zu bytes, "
		    "too short", len);
	memcpy(&h, buf, sizeof h);
	if (!search_export_head_valid(&h, len))
		return error_set(err, EXIT_MODEL, "search tree: malformed "
		    "header");
	for (i = 0; i < h.nnodes; i++) {
		memcpy(&e, buf + sizeof h + (size_t)i * sizeof e, sizeof e);
		if (!search_export_valid(into, &e, i))
			return error_set(err, EXIT_MODEL, "search tree: "
			    "malformed node %u", i);
	}
	if (!search_export_preorder(buf + sizeof h, h.nnodes, &depth))
		return error_set(err, EXIT_MODEL, "search tree: nodes out of "
		    "order");
	/* A path of the tree is a path of the game: no deeper than a trace
	 * (every wait of the horizon twice over, every post once). */
	if (depth > (uint32_t)into->tracecap)
		return error_set(err, EXIT_MODEL, "search tree: a path of %u "
		    "steps, deeper than any plan of this project (at most "
		    "%d)", depth, into->tracecap);
	map = xcalloc(h.nnodes, sizeof *map);
	mutex_lock(&into->lock);
	search_merge_head(into, &h);
	pv.path = xcalloc(h.nnodes, sizeof *pv.path);
	pv.n = 0;
	pv.total = 0;
	pv.tail = 0;
	pv.last = 0;
	for (i = 0; i < h.nnodes; i++) {
		memcpy(&e, buf + sizeof h + (size_t)i * sizeof e, sizeof e);
		if (i == 0)
			ni = 0;
		else if ((ni = search_find_child(into, map[e.parent],
		    &e.action)) == NIL)
			ni = search_node_new(into, map[e.parent], &e.action,
			    e.slot);
		map[i] = ni;
		search_merge_pv(&pv, &e, i);
		n = &into->nodes[ni];
		n->visits = search_add32(n->visits, e.visits);
		n->avail = search_add32(n->avail, e.avail);
		n->sum += e.sum;
		n->rsum += e.rsum;
		n->rsq += e.rsq;
	}
	search_merge_prefer(into, &pv);
	mutex_unlock(&into->lock);
	free(map);
	return 0;
}

/* The child of node cur (an export index) reached by action a, or NIL. */
static uint32_t
search_export_child(const struct export_node *nodes, uint32_t n,
    uint32_t cur, const struct action *a)
{
	uint32_t i;

	for (i = cur + 1; i < n; i++)
		if (nodes[i].parent == cur && action_equal(&nodes[i].action, a))
			return i;
	return NIL;
}

int
search_export_subtree(const char *buf, size_t len, const struct action *path,
    int npath, int shift, char **out, size_t *outlen)
{
	struct export_head h;
	struct export_node *nodes, *sub;
	uint32_t *map, cur = 0, i, n = 0;
	int k;

	if (len < sizeof h)
		return -1;
	memcpy(&h, buf, sizeof h);
	if (!search_export_head_valid(&h, len))
		return -1;
	nodes = xcalloc(h.nnodes, sizeof *nodes);
	memcpy(nodes, buf + sizeof h, (size_t)h.nnodes * sizeof *nodes);
	for (k = 0; k < npath && cur != NIL; k++)
		cur = search_export_child(nodes, h.nnodes, cur, &path[k]);
	if (cur == NIL) {
		free(nodes);
		return -1;
	}
	map = xcalloc(h.nnodes, sizeof *map);
	sub = xcalloc(h.nnodes, sizeof *sub);
	for (i = cur; i < h.nnodes; i++) {
		map[i] = NIL;
		if (i != cur && (nodes[i].parent < cur ||
		    map[nodes[i].parent] == NIL))
			continue;
		sub[n] = nodes[i];
		sub[n].parent = i == cur ? NIL : map[nodes[i].parent];
		sub[n].slot = i == cur ? 0 : nodes[i].slot - shift;
		if (sub[n].slot < 0) {
			free(map);
			free(sub);
			free(nodes);
			return -1;
		}
		map[i] = n++;
	}
	/* The new root is the present: what led to it is behind, and the
	 * counters are the new search's own. */
	sub[0].sum -= sub[0].rsum;
	sub[0].rsum = 0;
	sub[0].rsq = 0;
	memset(&h.iterations, 0, sizeof h - offsetof(struct export_head,
	    iterations));
	h.nnodes = n;
	*outlen = sizeof h + (size_t)n * sizeof *sub;
	*out = xmalloc(*outlen);
	memcpy(*out, &h, sizeof h);
	memcpy(*out + sizeof h, sub, (size_t)n * sizeof *sub);
	free(map);
	free(sub);
	free(nodes);
	return 0;
}
