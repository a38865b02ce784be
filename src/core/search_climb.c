/*
 * search_climb — improves the whole plan by local search where the model
 * has value() and the budget is in seconds.
 *
 * With value() a rollout stops after a few actions, so on a horizon longer
 * than the tree reaches, the tree decides the next slots and the rest of
 * the plan is the greedy completion (search.c); nothing judges the plan
 * as a whole. So the last SEARCH_CLIMB_SHARE of what a budget in seconds
 * leaves after the completion's share goes to the plan itself: a random
 * change of it (a post moved up to CLIMB_MOVE slots, two posts at most
 * CLIMB_NEAR apart trading slots, a post re-fronted or given another
 * draft (of CLIMB_DRAWS drawn, the best by the greedy's screen), a post
 * added or dropped) that the legality engine allows is
 * replayed open loop on CLIMB_SAMPLES determinizations, the same for every
 * variant (common random numbers), and kept where the plan's return up
 * to the variant's tail rises on every one of them (cplan_above);
 * repeated until the budget ends, on CLIMB_SAMPLES new determinizations
 * after each sweep of the plan (climb_redraw).
 * The polishing without value() (search_polish.c) races every variant
 * instead: on a horizon of hundreds of slots they are millions. The
 * greedy plan it starts from is built here too (climb_greedy).
 *
 * What keeps a variant cheap to judge:
 *   - the plan's model states at each slot's start are kept, so a variant
 *     is replayed from the slot of its first change, not from the start;
 *   - a variant whose return CLIMB_WINDOW slots past its last change
 *     trails the plan's is dropped there (most are); one that passes is
 *     judged CLIMB_TAIL slots further, not at the horizon: effects that
 *     show later are what the climb can miss, and far from a change the
 *     plan and the variant differ mostly by the draws' noise;
 *   - variants change posts of one region of the plan at a time (a sweep
 *     of CLIMB_REGION posts, CLIMB_TRIES variants each, then the next),
 *     and the plan's states past a kept variant's tail are replayed only
 *     when a variant needs them (cplan_extend): a kept variant costs its
 *     window and tail, and the plan is replayed to the horizon once a
 *     sweep, not once a kept variant;
 *   - the model's legal_actions (the cost of a step on long action lists)
 *     is asked only about the posts a variant changes, on the first
 *     determinization, once the variant passed the window; the other
 *     posts keep the verdict they had (the tree's, or the variant's that
 *     brought them).
 * Each variant judged is one iteration. The plan joins the tree with the
 * replays' statistics and becomes the plan (search_join).
 *
 * The share and the constants were measured: bench/RESULTS.md "Climbing"
 * and "Climbing on new states".
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"

#define CLIMB_SAMPLES	4	/* determinizations plans are compared on */
#define CLIMB_WINDOW	8	/* slots past a change before a cut */
#define CLIMB_MOVE	24	/* a move's farthest, in slots */
#define CLIMB_NEAR	8	/* a swap's partner, in posts */
#define CLIMB_FINAL	8	/* a greedy step's best judged on every state */
#define CLIMB_VISITS	32	/* the tree's plan kept down to nodes
				 * of this many visits */
#define CLIMB_TAIL	48	/* slots past the window a variant is
				 * judged to */
#define CLIMB_REGION	16	/* posts in the sweep's region */
#define CLIMB_TRIES	16	/* variants tried in a region */
#define CLIMB_DRAWS	4	/* drafts drawn for another draft */

/* A plan: its posts and actions, and for each determinization k the
 * model's state at each slot's start, the return before it and each
 * action's reward. */
struct cplan {
	struct search_post	*post;
	int			 npost;
	struct action		*act;
	int			 nact;
	int			*at;		/* each slot's first action */
	model_state		**st;		/* [k * (h + 1) + slot] */
	double			*cum;		/* the same */
	double			*r;		/* [k * amax + action] */
	int			 reach[CLIMB_SAMPLES];	/* states held up to */
};

struct climb {
	struct search		*s;
	int			 h, amax;
	struct cplan		 cur, var;	/* the plan, a variant of it */
	int			 c0, c1, c2;	/* the variant's first change,
						 * the end of its window, of
						 * its tail */
	int			 q, tries;	/* the sweep's region's first
						 * post, variants tried there */
	bool			 broken;	/* the plan's replay failed */
	struct search_post	 chg[2];	/* its posts the model judges */
	int			 nchg;
	uint64_t		 rng;
	bool			 grew;		/* the greedy went past the tree */
	uint64_t		 base;		/* the determinizations' seed */
	int			 epoch;		/* sweeps so far */
	bool			 redraw;	/* new ones before the next */
};

bool
search_climbs(const struct search *s)
{
	return s->has_value && s->params.iterations == 0 &&
	    s->params.seconds > 0 && s->climb_share > 0;
}

static uint32_t
climb_rand(struct climb *cl, uint32_t n)
{
	cl->rng = search_mix(cl->rng);
	return n > 0 ? (uint32_t)(cl->rng % n) : 0;
}

static void
cplan_init(struct climb *cl, struct cplan *c)
{
	const struct project *p = cl->s->p;

	memset(c, 0, sizeof *c);
	c->post = xcalloc((size_t)p->ndrafts * cl->s->nfronts + 1,
	    sizeof *c->post);
	c->act = xcalloc(cl->amax, sizeof *c->act);
	c->at = xcalloc(cl->h + 1, sizeof *c->at);
	c->st = xcalloc((size_t)CLIMB_SAMPLES * (cl->h + 1), sizeof *c->st);
	c->cum = xcalloc((size_t)CLIMB_SAMPLES * (cl->h + 1), sizeof *c->cum);
	c->r = xcalloc((size_t)CLIMB_SAMPLES * cl->amax, sizeof *c->r);
}

/* Frees c's states after slot from (those before are another's). */
static void
cplan_drop(struct climb *cl, struct cplan *c, int from)
{
	int k, slot;

	for (k = 0; k < CLIMB_SAMPLES; k++) {
		for (slot = from + 1; slot <= c->reach[k]; slot++)
			if (c->st[k * (cl->h + 1) + slot] != NULL)
				cl->s->ops->state_free(cl->s->m,
				    c->st[k * (cl->h + 1) + slot]);
		c->reach[k] = from < c->reach[k] ? from : c->reach[k];
	}
}

static void
cplan_free(struct cplan *c)
{
	free(c->post);
	free(c->act);
	free(c->at);
	free(c->st);
	free(c->cum);
	free(c->r);
}

/* c's actions under determinization k from slot from (its state held) to
 * slot to, each slot's first state kept. */
static int
climb_replay(struct climb *cl, struct cplan *c, int k, int from, int to)
{
	struct search *s = cl->s;
	int base = k * (cl->h + 1), i, slot = from, rc = MODEL_OK;
	model_state *st = c->st[base + from], *next;
	double g = c->cum[base + from], r;
	bool held = true;

	for (i = c->at[from]; i < c->at[to]; i++) {
		if (i == c->at[slot])
			s->ops->seed(s->m, search_climb_seed(cl->base,
			    k + CLIMB_SAMPLES * cl->epoch, slot));
		if ((rc = search_m_step(s, st, &c->act[i], &next, &r)) !=
		    MODEL_OK)
			break;
		if (!held)
			s->ops->state_free(s->m, st);
		st = next;
		held = false;
		g += r;
		c->r[k * cl->amax + i] = r;
		if (c->act[i].kind == ACTION_WAIT) {
			c->st[base + ++slot] = st;
			c->cum[base + slot] = g;
			c->reach[k] = slot;
			held = true;
		}
	}
	if (!held)
		s->ops->state_free(s->m, st);
	return rc;
}

/* The sum over the determinizations of c's return before slot. */
static double
cplan_sum(const struct climb *cl, const struct cplan *c, int slot)
{
	double t = 0;
	int k;

	for (k = 0; k < CLIMB_SAMPLES; k++)
		t += c->cum[k * (cl->h + 1) + slot];
	return t;
}

/* Is v's return before slot above c's on every determinization? A mean
 * over a few of them rises by luck on half the variants that change
 * nothing of worth (the draws of a changed slot are new); on all of them
 * at once, on one in 2^CLIMB_SAMPLES. */
static bool
cplan_above(const struct climb *cl, const struct cplan *v,
    const struct cplan *c, int slot)
{
	int k, i;

	for (k = 0; k < CLIMB_SAMPLES; k++) {
		i = k * (cl->h + 1) + slot;
		if (v->cum[i] <= c->cum[i])
			return false;
	}
	return true;
}

/* The plan replayed whole on every determinization. */
static int
climb_start(struct climb *cl)
{
	struct search *s = cl->s;
	int k, rc;

	for (k = 0; k < CLIMB_SAMPLES; k++) {
		s->ops->seed(s->m, search_climb_seed(cl->base, k +
		    CLIMB_SAMPLES * cl->epoch, -1));
		if ((rc = search_m_hidden(s, &cl->cur.st[k * (cl->h + 1)])) !=
		    MODEL_OK)
			return rc;
		cl->cur.reach[k] = 0;
	}
	return MODEL_OK;
}

/*
 * After a sweep the plan is judged on CLIMB_SAMPLES new determinizations.
 * Kept where it rises on every one of a few states, a variant that is
 * worth nothing passes by luck one time in 2^CLIMB_SAMPLES; on the same
 * states for a whole run those passes add up, and the plan fits the
 * states' own draws (the judge's value stops rising after 20 s of 60).
 * On new states the next sweep keeps what holds on them too. Where the
 * model fails to draw them, the climb goes on on the states it had.
 */
static int
climb_redraw(struct climb *cl)
{
	int rc;

	cl->redraw = false;
	cl->epoch++;
	cplan_drop(cl, &cl->cur, -1);
	if ((rc = climb_start(cl)) == MODEL_OK || rc == MODEL_TIMEOUT) {
		cl->broken = rc != MODEL_OK;
		return rc;
	}
	cplan_drop(cl, &cl->cur, -1);
	cl->epoch--;
	if ((rc = climb_start(cl)) != MODEL_OK)
		cl->broken = true;
	return rc;
}

/* c replayed up to slot to on every determinization, from where its
 * states are held. */
static int
cplan_extend(struct climb *cl, struct cplan *c, int to)
{
	int k, rc = MODEL_OK;

	for (k = 0; k < CLIMB_SAMPLES && rc == MODEL_OK; k++)
		if (c->reach[k] < to)
			rc = climb_replay(cl, c, k, c->reach[k], to);
	return rc;
}

/* The post a variant changes: one of the sweep's region's, which moves on
 * by CLIMB_REGION posts every CLIMB_TRIES variants. */
static int
climb_where(struct climb *cl, int n)
{
	int m;

	if (++cl->tries > CLIMB_TRIES) {
		cl->tries = 1;
		cl->q += CLIMB_REGION;
	}
	if (cl->q >= n) {
		cl->q = 0;
		cl->redraw = true;
	}
	m = n - cl->q < CLIMB_REGION ? n - cl->q : CLIMB_REGION;
	return cl->q + (int)climb_rand(cl, (uint32_t)m);
}

static bool
climb_has(const struct cplan *c, const struct action *a)
{
	int i;

	for (i = 0; i < c->npost; i++)
		if (action_equal(&c->post[i].a, a))
			return true;
	return false;
}

/* Post i of the variant as changed (the model judges it), at slot. */
static void
climb_changed(struct climb *cl, int i, int *lo, int *hi)
{
	const struct search_post *p = &cl->var.post[i];

	cl->chg[cl->nchg++] = *p;
	*lo = p->slot < *lo ? p->slot : *lo;
	*hi = p->slot > *hi ? p->slot : *hi;
}

/* A post's draft or front changed to a's: false where the plan has a
 * already or the engine never allows it. */
static bool
climb_pair_ok(struct climb *cl, const struct action *a)
{
	return !climb_has(&cl->cur, a) &&
	    cl->s->verdict[search_action_id(cl->s, a)] == LEGAL_OK;
}

/* Another draft for a's front: of CLIMB_DRAWS drawn, the one whose last
 * screened reward (the greedy's, search->seen) is best, a never screened
 * one last; false where none is a pair the plan may take. */
static bool
climb_draft(struct climb *cl, struct action *a)
{
	struct search *s = cl->s;
	struct action t = *a;
	double v, best = -INFINITY;
	bool found = false;
	int k;

	for (k = 0; k < CLIMB_DRAWS; k++) {
		t.draft = climb_rand(cl, (uint32_t)s->p->ndrafts);
		if (!climb_pair_ok(cl, &t))
			continue;
		v = s->seen[search_action_id(s, &t)];
		v = isnan(v) ? -HUGE_VAL : v;
		if (!found || v > best) {
			best = v;
			a->draft = t.draft;
			found = true;
		}
	}
	return found;
}

/* One random change of the plan as the variant; false where it is no
 * change or a pair the plan has or the engine never allows. */
static bool
climb_vary(struct climb *cl)
{
	const struct project *p = cl->s->p;
	struct cplan *v = &cl->var;
	int n = cl->cur.npost, i, j, lo = cl->h, hi = -1, t, kind;
	struct action a;

	memcpy(v->post, cl->cur.post, n * sizeof *v->post);
	v->npost = n;
	cl->nchg = 0;
	i = climb_where(cl, n);
	kind = n == 0 ? 4 : (int)climb_rand(cl, 6);
	switch (kind) {
	case 0:		/* move */
		lo = hi = v->post[i].slot;
		t = v->post[i].slot + 1 + (int)climb_rand(cl, CLIMB_MOVE);
		if (climb_rand(cl, 2))
			t = 2 * v->post[i].slot - t;
		if (t < 0 || t >= cl->h)
			return false;
		v->post[i].slot = t;
		climb_changed(cl, i, &lo, &hi);
		break;
	case 1:		/* swap */
		j = i + 1 + (int)climb_rand(cl, CLIMB_NEAR);
		if (j >= n || v->post[i].slot == v->post[j].slot)
			return false;
		t = v->post[i].slot;
		v->post[i].slot = v->post[j].slot;
		v->post[j].slot = t;
		climb_changed(cl, i, &lo, &hi);
		climb_changed(cl, j, &lo, &hi);
		break;
	case 2:		/* re-front */
	case 3:		/* another draft */
		a = v->post[i].a;
		if (kind == 2)
			a.front = (uint16_t)climb_rand(cl, cl->s->nfronts);
		if (kind == 2 ? !climb_pair_ok(cl, &a) : !climb_draft(cl, &a))
			return false;
		v->post[i].a = a;
		climb_changed(cl, i, &lo, &hi);
		break;
	case 4:		/* add */
		a.kind = ACTION_POST;
		a.draft = climb_rand(cl, (uint32_t)p->ndrafts);
		a.front = (uint16_t)climb_rand(cl, cl->s->nfronts);
		if (!climb_pair_ok(cl, &a))
			return false;
		v->post[n].a = a;
		t = n == 0 ? (int)climb_rand(cl, (uint32_t)cl->h) :
		    v->post[i].slot - CLIMB_MOVE +
		    (int)climb_rand(cl, 2 * CLIMB_MOVE + 1);
		if (t < 0 || t >= cl->h)
			return false;
		v->post[n].slot = t;
		v->npost++;
		climb_changed(cl, n, &lo, &hi);
		break;
	default:	/* drop */
		lo = hi = v->post[i].slot;
		v->post[i] = v->post[--v->npost];
		break;
	}
	qsort(v->post, v->npost, sizeof *v->post, search_post_cmp);
	cl->c0 = lo;
	cl->c1 = hi + 1 + CLIMB_WINDOW < cl->h ? hi + 1 + CLIMB_WINDOW : cl->h;
	cl->c2 = cl->c1 + CLIMB_TAIL < cl->h ? cl->c1 + CLIMB_TAIL : cl->h;
	return true;
}

/* Every state takes a; returns the mean reward (NAN on an error, in
 * *rc). Where keep is false the states are left as they were. */
static double
climb_mean(struct climb *cl, model_state **st, const struct action *a,
    bool keep, int *rc)
{
	struct search *s = cl->s;
	model_state *next;
	double sum = 0, r;
	int k;

	for (k = 0; k < CLIMB_SAMPLES; k++) {
		if ((*rc = search_m_step(s, st[k], a, &next, &r)) != MODEL_OK)
			return NAN;
		sum += r;
		if (keep) {
			s->ops->state_free(s->m, st[k]);
			st[k] = next;
		} else
			s->ops->state_free(s->m, next);
	}
	return sum / CLIMB_SAMPLES;
}

/*
 * The greedy step: of the actions search_complete_set() names (every
 * available one the first time, then each front's best by their last
 * rewards and some at random), tried on the first state, the
 * CLIMB_FINAL best are tried on every state, and the best mean wins,
 * the wait among them where it is available.
 */
static int
climb_pick(struct climb *cl, model_state **st, struct action *pick)
{
	struct search *s = cl->s;
	int top[CLIMB_FINAL], nt = 0, n = search_complete_set(s), i, j, k;
	double v[CLIMB_FINAL], r, m, bm = -INFINITY;
	model_state *next;
	int rc = MODEL_OK;

	for (k = 0; k < n; k++) {
		i = s->screened ? s->ctop[k] : k;
		if ((rc = search_m_step(s, st[0], &s->set[i], &next, &r)) !=
		    MODEL_OK)
			return rc;
		s->ops->state_free(s->m, next);
		s->seen[search_action_id(s, &s->set[i])] = r;
		if (nt == CLIMB_FINAL && r <= v[nt - 1])
			continue;
		for (j = nt < CLIMB_FINAL ? nt++ : nt - 1; j > 0 &&
		    v[j - 1] < r; j--) {
			v[j] = v[j - 1];
			top[j] = top[j - 1];
		}
		v[j] = r;
		top[j] = i;
	}
	s->screened = true;
	*pick = s->set[0];
	if (s->set[0].kind == ACTION_WAIT &&
	    isnan(bm = climb_mean(cl, st, &s->set[0], false, &rc)))
		return rc;
	for (j = 0; j < nt; j++) {
		if (isnan(m = climb_mean(cl, st, &s->set[top[j]], false, &rc)))
			return rc;
		if (m > bm) {
			bm = m;
			*pick = s->set[top[j]];
		}
	}
	return MODEL_OK;
}

/* The post a at slot joins the plan. */
static void
climb_add(struct climb *cl, int slot, const struct action *a)
{
	cl->cur.post[cl->cur.npost].slot = slot;
	cl->cur.post[cl->cur.npost++].a = *a;
}

/*
 * The plan the climb starts from: the tree's, then from its end on the
 * greedy step (climb_pick) on the climb's determinizations until the
 * horizon or the clock reads until: the plan a careful engineer writes
 * without a tree, where the tree's own completion would follow one
 * determinization's hidden state.
 */
static int
climb_greedy(struct climb *cl, double until)
{
	struct search *s = cl->s;
	model_state *st[CLIMB_SAMPLES];
	struct action *path, a;
	int n, i, k, rc = MODEL_OK;

	n = search_plan_path(s, CLIMB_VISITS, &path, NULL);

	for (k = 0; k < CLIMB_SAMPLES; k++) {
		s->ops->seed(s->m, search_climb_seed(cl->base, k, -1));
		if ((rc = search_m_hidden(s, &st[k])) != MODEL_OK) {
			while (k-- > 0)
				s->ops->state_free(s->m, st[k]);
			free(path);
			return rc;
		}
	}
	legal_path_reset(s->lg, s->lp);
	for (i = 0; rc == MODEL_OK && !legal_path_done(s->lg, s->lp) &&
	    !atomic_load(&s->cancel); i++) {
		if (i < n)
			a = path[i];
		else if (clock_seconds() >= until ||
		    (rc = search_available(s, st[0])) != MODEL_OK ||
		    (rc = climb_pick(cl, st, &a)) != MODEL_OK)
			break;
		else
			cl->grew = true;
		if (a.kind == ACTION_POST)
			climb_add(cl, legal_path_slot(s->lp), &a);
		if (isnan(climb_mean(cl, st, &a, true, &rc)))
			break;
		legal_apply(s->lg, s->lp, &a);
		s->last_key = 0;
	}
	for (k = 0; k < CLIMB_SAMPLES; k++)
		s->ops->state_free(s->m, st[k]);
	free(path);
	return rc;
}

/* Are the variant's changed posts among the model's legal actions where
 * they are, on the first determinization? */
static int
climb_proposed(struct climb *cl, bool *yes)
{
	struct search *s = cl->s;
	struct cplan *v = &cl->var;
	model_state *st, *next;
	int c, i, rc = MODEL_OK;
	double r;

	*yes = true;
	for (c = 0; c < cl->nchg && *yes && rc == MODEL_OK; c++) {
		st = v->st[cl->chg[c].slot];
		for (i = v->at[cl->chg[c].slot]; rc == MODEL_OK &&
		    !action_equal(&v->act[i], &cl->chg[c].a); i++) {
			rc = search_m_step(s, st, &v->act[i], &next, &r);
			if (st != v->st[cl->chg[c].slot])
				s->ops->state_free(s->m, st);
			st = rc == MODEL_OK ? next : NULL;
		}
		if (rc == MODEL_OK)
			rc = search_proposed(s, st, &cl->chg[c].a,
			    cl->chg[c].slot, yes);
		if (st != NULL && st != v->st[cl->chg[c].slot])
			s->ops->state_free(s->m, st);
	}
	return rc;
}

/* The variant becomes the plan: the states it shares with the plan are
 * the plan's already, the plan's own after c0 go. */
static void
climb_keep(struct climb *cl)
{
	struct cplan t;
	int k;

	cplan_drop(cl, &cl->cur, cl->c0);
	t = cl->cur;
	cl->cur = cl->var;
	cl->var = t;
	for (k = 0; k < CLIMB_SAMPLES; k++)
		cl->var.reach[k] = 0;
}

/*
 * Judges the variant against the plan on the same determinizations, from
 * its first change: dropped where it trails the plan at the end of its
 * window or the model does not propose a post it changed, kept where its
 * whole return beats the plan's.
 */
static int
climb_try(struct climb *cl, bool *better)
{
	struct cplan *v = &cl->var, *c = &cl->cur;
	int k, h1 = cl->h + 1, rc = MODEL_OK;
	bool yes;

	*better = false;
	if ((rc = cplan_extend(cl, c, cl->c2)) != MODEL_OK) {
		cl->broken = true;
		return rc;
	}
	for (k = 0; k < CLIMB_SAMPLES; k++) {
		memcpy(v->st + k * h1, c->st + k * h1, (cl->c0 + 1) *
		    sizeof *v->st);
		memcpy(v->cum + k * h1, c->cum + k * h1, (cl->c0 + 1) *
		    sizeof *v->cum);
		memcpy(v->r + k * cl->amax, c->r + k * cl->amax,
		    c->at[cl->c0] * sizeof *v->r);
		v->reach[k] = cl->c0;
	}
	for (k = 0; k < CLIMB_SAMPLES && rc == MODEL_OK; k++)
		rc = climb_replay(cl, v, k, cl->c0, cl->c1);
	if (rc != MODEL_OK || !cplan_above(cl, v, c, cl->c1))
		goto out;
	if ((rc = climb_proposed(cl, &yes)) != MODEL_OK || !yes)
		goto out;
	for (k = 0; k < CLIMB_SAMPLES && rc == MODEL_OK; k++)
		rc = climb_replay(cl, v, k, cl->c1, cl->c2);
	*better = rc == MODEL_OK && cplan_above(cl, v, c, cl->c2);
out:
	if (*better)
		climb_keep(cl);
	else
		cplan_drop(cl, v, cl->c0);
	return rc;
}

/* The plan joins the tree with the replays' statistics. */
static void
climb_join(struct climb *cl)
{
	struct cplan *c = &cl->cur;
	double *rsum = xcalloc(c->nact + 1, sizeof *rsum);
	double *rsq = xcalloc(c->nact + 1, sizeof *rsq), x;
	int i, k;

	for (k = 0; k < CLIMB_SAMPLES; k++)
		for (i = 0; i < c->nact; i++) {
			x = c->r[k * cl->amax + i];
			rsum[i] += x;
			rsq[i] += x * x;
		}
	mutex_lock(&cl->s->lock);
	search_join(cl->s, c->act, c->nact, rsum, rsq, CLIMB_SAMPLES,
	    cplan_sum(cl, c, cl->h) / CLIMB_SAMPLES);
	mutex_unlock(&cl->s->lock);
	free(rsq);
	free(rsum);
}

/*
 * Climbs from the tree's plan until the clock reads until, or variants
 * changes were tried, or the run is stopped; the plan joins the tree where
 * it rose. Returns MODEL_TIMEOUT where a call overran; other model errors
 * drop the variant they hit.
 */
int
search_climb(struct search *s, double until, uint64_t variants)
{
	struct climb cl;
	double last = clock_seconds();
	bool better, changed;
	int rc, n;

	memset(&cl, 0, sizeof cl);
	cl.s = s;
	cl.h = s->p->horizon_slots;
	cl.amax = s->p->ndrafts * s->nfronts + cl.h + 1;
	cl.rng = s->seed ^ SEARCH_CLIMB_SALT;
	/* Every worker's determinizations the same (the run's seed, not the
	 * worker's): the merge then compares the workers' plans on the same
	 * states, not each on its own. */
	cl.base = s->params.seed;
	cplan_init(&cl, &cl.cur);
	cplan_init(&cl, &cl.var);
	if ((rc = climb_greedy(&cl, until)) != MODEL_OK) {
		cplan_free(&cl.cur);
		cplan_free(&cl.var);
		return rc == MODEL_TIMEOUT ? rc : MODEL_OK;
	}
	n = cl.cur.npost;
	qsort(cl.cur.post, n, sizeof *cl.cur.post, search_post_cmp);
	rc = search_post_actions(s, cl.cur.post, n, cl.cur.act, &cl.cur.nact,
	    cl.cur.at) ? climb_start(&cl) : MODEL_BADTYPE;
	search_count(s, rc, clock_seconds());
	changed = cl.grew && rc == MODEL_OK;
	for (; rc == MODEL_OK && !cl.broken && variants > 0; variants--) {
		if (atomic_load(&s->cancel) || clock_seconds() >= until)
			break;
		if (cl.redraw && (rc = climb_redraw(&cl)) != MODEL_OK)
			break;
		if (!climb_vary(&cl) || !search_post_actions(s, cl.var.post,
		    cl.var.npost, cl.var.act, &cl.var.nact, cl.var.at))
			continue;
		rc = climb_try(&cl, &better);
		search_count(s, rc, clock_seconds());
		changed = changed || better;
		if (rc != MODEL_TIMEOUT)
			rc = MODEL_OK;
		if (s->progress != NULL && clock_seconds() - last >=
		    s->interval) {
			last = clock_seconds();
			s->progress(s->progress_arg, s);
		}
	}
	if (changed && !cl.broken &&
	    cplan_extend(&cl, &cl.cur, cl.h) == MODEL_OK)
		climb_join(&cl);
	cplan_drop(&cl, &cl.cur, -1);
	cplan_free(&cl.cur);
	cplan_free(&cl.var);
	return rc == MODEL_TIMEOUT ? rc : MODEL_OK;
}
