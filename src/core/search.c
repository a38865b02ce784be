/*
 * search — information-set MCTS with determinization (docs/DESIGN.md "Planner").
 *
 * Every iteration reseeds the model (ops->seed with a number derived from
 * the search's seed and the iteration index), draws a determinization with
 * sample_hidden, and recomputes the states along its path from there: the
 * tree holds only C statistics keyed by action, never a model state. At
 * each node the actions available in this determinization are the model's
 * legal_actions intersected with the legality engine (plus the wait, which
 * is always legal before the horizon); every expanded child that is
 * available has its availability count raised, and selection is UCT over
 * available children with availability in place of the parent's visits.
 *
 * Choices made where the design leaves room (the measurements behind each
 * constant are in bench/RESULTS.md, with how to re-measure them):
 *   - Selection values an edge by its mean reward plus the best value of
 *     its children (MaxUCT, see search_q), not by the mean return below
 *     it, which keeps counting exploration against good lines, or, while
 *     every step's reward has been the same on every visit, by the best
 *     return seen through it (see search_value). The value is divided by
 *     the range of total returns seen so far, or by twice the spread
 *     among the siblings compared where that is narrower (see
 *     search_scale), so the exploration constant (default SEARCH_UCT_C)
 *     does not depend on the model's reward units. Once a step's reward
 *     has varied, the exploration constant counts at NOISY_UCT of itself.
 *     The plan still follows visits.
 *   - Progressive widening: a node may have at most
 *     ceil(PW_K * sqrt(visits + 1)) available children expanded before it
 *     selects among them; the next expansion is a uniformly drawn
 *     unexpanded available action.
 *   - Posts within one slot are taken in increasing (draft, front) order:
 *     the same set of same-slot posts is one path, not all its orders.
 *   - Rollouts follow the best mean return seen for each (action, slot)
 *     over every path so far, one step in ROLLOUT_UNIFORM uniform, and
 *     uniform wherever an available action was never tried in that slot
 *     (see search_rollout_pick). Where the model
 *     defines value(), a rollout stops after ROLLOUT_ACTIONS actions
 *     (posts and waits alike; search_params.rollout_actions) and adds
 *     value(state); without value() it runs to the horizon. Counting
 *     actions, not slots, bounds a rollout's model calls however many
 *     posts a slot allows.
 *   - Deepening: the first FOCUS_START of the budget searches from the
 *     root; the rest is spent in FOCUS_CHUNKS equal chunks, each of which
 *     forces every other iteration (the rest keep improving the decisions
 *     above) along the principal variation down to the
 *     deepest node that still has focus_min visits (an eighth of a chunk,
 *     at least 2) and searches from there. So the plan keeps its quality,
 *     and reaches the horizon, where the principal variation would
 *     otherwise thin out.
 *     A forced action that a determinization does not allow ends the
 *     forcing for that iteration. The forced iterations of the last chunk
 *     complete the plan: their rollouts run to the horizon (value() or
 *     not) and join the tree, so that where the budget is too small to
 *     deepen the tree that far the plan still covers the horizon, along
 *     the best of those rollouts (visits tie at one, the higher mean wins).
 *     A run that ends before that chunk (a stop: Ctrl-C, Esc, a worker
 *     asked to stop; or a budget in seconds that ran out first) completes
 *     its plan instead (search_fill): at most FILL_ITERATIONS iterations,
 *     within FILL_SECONDS, force the whole principal variation and run a
 *     completing rollout from its end. An iteration budget spent to its end is left as it
 *     was: same seed, same plan.
 *   - Where the model has value(), a completing rollout (the plan's far
 *     end, beyond what the tree reached) takes at each step the best
 *     immediate reward among the available actions: all of them the first
 *     time, then each front's COMPLETE_TOP best by their last rewards and
 *     COMPLETE_SAMPLE drawn at random (search_complete_pick), and a budget
 *     in seconds keeps a
 *     share for it (search_reserve): over a horizon the search cannot
 *     reach, the next slots are searched deeply and the rest is greedy.
 *   - Where no step's reward ever varied and the model has no value(),
 *     every rollout's return is a whole plan's true value: the plan is the
 *     best path evaluated (see search_follow_best), and no deepening
 *     is done, since every rollout reaches the horizon.
 *   - Where the model has value() and the budget is in seconds, the last
 *     SEARCH_CLIMB_SHARE of what the completion's share leaves climbs
 *     from the plan: variants of the whole plan judged by replays on a
 *     few common determinizations (search_climb.c).
 *   - Where rewards vary and the model has no value(), the last
 *     SEARCH_POLISH_SHARE of an iteration budget improves the plan itself
 *     by replaying it and variants of it open loop on common
 *     determinizations (search_polish.c); the deepening's chunks divide
 *     the rest.
 *   - A model error ends its iteration without backup. The run fails with
 *     EXIT_MODEL when more than half of all iterations failed (checked at the
 *     end, and early once 50 iterations ran and 90% of them failed).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/search.h"
#include "core/search_int.h"

#define PW_K		2.0
#define LOCAL_SPREAD	2.0
#define NOISY_UCT	0.35
#define ROLLOUT_UNIFORM	4
#define FOCUS_START	0.6
#define FOCUS_CHUNKS	64
#define FAIL_EARLY_MIN	50
#define FILL_ITERATIONS	8
#define FILL_SECONDS	0.5
#define COMPLETE_SHARE	0.1
#define COMPLETE_LEGAL	2
#define COMPLETE_MAX	0.8
#define LEGAL_SAMPLE	8	/* a power of two */
#define SHUT_TRIES	4

static uint32_t
search_rand(struct search *s, uint32_t n)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (uint32_t)(((s->rng * 0x2545f4914f6cdd1dULL) >> 32) % n);
}

/*
 * Does the engine close every front now (quiet hours, gaps, caps), so that
 * the wait is the only action whatever the model proposes? Each front is
 * asked about a post of one of its drafts (s->rep, the next one where that
 * draft is already posted, outside its window or pinned elsewhere: those
 * say nothing of the front); a front none of SHUT_TRIES drafts can tell
 * about counts as open. Long horizons spend most slots with every front
 * closed (a day's caps reached, the night's quiet hours), and there no
 * legal_actions call is needed.
 */
static bool
search_all_shut(struct search *s)
{
	struct action a = { ACTION_POST, 0, 0 };
	enum legal_verdict v;
	int f, t;

	if (s->p->ndrafts == 0)
		return false;
	for (f = 0; f < s->nfronts; f++) {
		a.front = (uint16_t)f;
		for (t = 0; t < SHUT_TRIES; t++) {
			a.draft = s->rep[f];
			if (s->verdict[search_action_id(s, &a)] != LEGAL_OK)
				v = LEGAL_POSTED;	/* never on f: next */
			else
				v = legal_check(s->lg, s->lp, &a);
			if (v == LEGAL_QUIET || v == LEGAL_GAP ||
			    v == LEGAL_CAP || v == LEGAL_HORIZON) {
				s->shut[f] = s->gen;
				break;
			}
			if (v != LEGAL_POSTED && v != LEGAL_WINDOW &&
			    v != LEGAL_PINNED)
				return false;
			s->rep[f] = (s->rep[f] + 1) % (uint32_t)s->p->ndrafts;
		}
		if (t == SHUT_TRIES)
			return false;
	}
	return true;
}

/*
 * The draft-independent part of every front's verdict now, once per
 * list: a front that quiet hours, a gap or the cap close is shut before
 * any of its proposals is looked at.
 */
static void
search_fronts_now(struct search *s)
{
	enum legal_verdict v;
	int f;

	for (f = 0; f < s->nfronts; f++) {
		v = legal_front_now(s->lg, s->lp, (uint32_t)f);
		s->fnow[f] = v;
		if (v == LEGAL_QUIET || v == LEGAL_GAP || v == LEGAL_CAP ||
		    v == LEGAL_HORIZON)
			s->shut[f] = s->gen;
	}
}

/*
 * The n proposals in s->mids that the engine allows now, added to the
 * available set; returns the never-legal ones. Runs for every proposal of
 * every list, so what it reads of s is in locals (stores through the set
 * would otherwise reload it all).
 */
static int
search_filter(struct search *s, int n)
{
	const uint32_t nids = s->nids, gen = s->gen;
	const uint8_t *verdict = s->verdict;
	const uint32_t *id = s->mids, *end = s->mids + n;
	const struct action *acts = s->acts, *a;
	const struct legal *lg = s->lg;
	const struct legal_path *lp = s->lp;
	const enum legal_verdict *fnow = s->fnow;
	uint32_t *stamp = s->stamp, *shut = s->shut;
	struct action *set = s->set;
	enum legal_verdict v;
	int nset = s->nset, illegal = 0;
	uint32_t last = (uint32_t)s->last_key;	/* 0 or a post's id */

	for (; id < end; id++) {
		if (*id - 1 >= nids - 1) {	/* the wait (in already) */
			illegal += *id != 0;	/* or no action at all */
			continue;
		}
		if ((v = verdict[*id]) != LEGAL_OK) {
			illegal += legal_never(v);
			continue;
		}
		a = &acts[*id];
		if (*id <= last || stamp[*id] == gen || shut[a->front] == gen)
			continue;
		v = legal_check_now(lg, lp, a, fnow[a->front]);
		if (v == LEGAL_QUIET || v == LEGAL_GAP || v == LEGAL_CAP ||
		    v == LEGAL_HORIZON)
			shut[a->front] = gen;
		if (v != LEGAL_OK)
			continue;
		stamp[*id] = gen;
		set[nset++] = *a;
	}
	s->nset = nset;
	return illegal;
}

/*
 * The available set at state st: the model's proposals that the engine
 * allows now, in canonical same-slot order, without duplicates, plus the
 * wait. Never-legal proposals are counted. Quiet hours, gaps and caps
 * close a whole front at once, so its proposals are passed over without
 * asking the engine (hundreds of drafts make this most of the
 * proposals), and the engine's verdict of the others is their draft's
 * part only (legal_check_now). A pinned post due now is the only choice,
 * whatever the model proposes (legal.h).
 */
int
search_available(struct search *s, model_state *st)
{
	struct action wait = { ACTION_WAIT, 0, 0 };
	int n = 0, illegal = 0, rc;
	double t0, tl;

	if (++s->gen == 0) {
		memset(s->stamp, 0, ((size_t)s->p->ndrafts * s->nfronts + 1) *
		    sizeof *s->stamp);
		memset(s->shut, 0, ((size_t)s->nfronts + 1) * sizeof *s->shut);
		s->gen = 1;
	}
	if (legal_pins_due(s->lg, s->lp, s->set) > 0) {
		s->stamp[search_action_id(s, &s->set[0])] = s->gen;
		s->nset = 1;
		return MODEL_OK;
	}
	if (search_all_shut(s)) {
		s->set[0] = wait;
		s->stamp[0] = s->gen;
		s->nset = 1;
		return MODEL_OK;
	}
	t0 = search_call_begin(s);
	tl = (s->legal_calls++ & (LEGAL_SAMPLE - 1)) == 0 ? clock_seconds() : 0;
	rc = s->ops->legal_ids(s->m, st, s->mids, s->mcap, &n, &illegal);
	if (tl > 0) {
		s->legal_seconds += clock_seconds() - tl;
		s->legal_timed++;
	}
	if (search_call_done(s, t0, rc) != MODEL_OK)
		return rc;
	s->set[0] = wait;
	s->stamp[0] = s->gen;
	s->nset = 1;
	if (n > s->mcap)
		n = s->mcap;
	search_fronts_now(s);
	illegal += search_filter(s, n);
	if (illegal > 0)
		search_add(&s->illegal, (uint64_t)illegal);
	return MODEL_OK;
}

static void
search_record(struct search *s, const struct action *a, int slot, double r)
{
	if (s->ntrace < s->tracecap) {
		s->trace[s->ntrace].action = *a;
		s->trace[s->ntrace].slot = slot;
		s->trace[s->ntrace++].reward = r;
	}
	legal_apply(s->lg, s->lp, a);
	/* After a slot's pins its other posts start their order afresh. A
	 * completion's greedy steps keep none: it takes a slot's best post
	 * first, and the order would leave the slot's other posts only the
	 * drafts after it (the engine refuses a pair posted twice). */
	s->last_key = a->kind == ACTION_WAIT || legal_pinned_at(s->lg, a,
	    slot) || (s->completing && s->has_value) ? 0 :
	    (int)search_action_id(s, a);
}

/*
 * An edge's value for selection. Until some step's reward has differed
 * between two visits, the model has shown itself deterministic, and there
 * the best return seen through an edge is a plan's true value that the
 * edge can reach, where a mean (even MaxUCT's) counts the rollouts' poorer
 * luck against it. Any noise, hidden state that changes a reward
 * included, makes the best return a lucky draw: from then on MaxUCT.
 */
static inline double
search_value(const struct search *s, const struct node *c)
{
	return s->noisy ? c->q : c->best;
}

/*
 * What values are divided by before the exploration term is added: the
 * range of total returns seen, or LOCAL_SPREAD times the spread of the
 * values among the available visited children where that is narrower.
 * Over a long horizon the range of whole returns is mostly the rollouts'
 * luck, and next to it the differences between siblings deep in the tree
 * vanish: exploration there would be uniform at any budget.
 */
static double
search_scale(const struct search *s, uint32_t ni)
{
	const struct node *c;
	double lo = INFINITY, hi = -INFINITY, scale = s->gmax - s->gmin;
	uint32_t ci;

	NODE_FOREACH_CHILD(ci, &s->nodes[ni]) {
		c = &s->nodes[ci];
		if (c->visits == 0 ||
		    s->stamp[search_action_id(s, &c->action)] != s->gen)
			continue;
		lo = search_value(s, c) < lo ? search_value(s, c) : lo;
		hi = search_value(s, c) > hi ? search_value(s, c) : hi;
	}
	if (hi > lo && LOCAL_SPREAD * (hi - lo) < scale)
		scale = LOCAL_SPREAD * (hi - lo);
	return scale > 0 && isfinite(scale) ? scale : 1;
}

/* log(n) for an availability count: from the table while n is small
 * (the same value log() gives, so plans do not change), which spares
 * selection most of its logarithms, one per child and step. */
static inline double
search_log(const struct search *s, uint32_t n)
{
	return n < SEARCH_LOG_TABLE ? s->logtab[n] : log((double)n);
}

/*
 * Selection at node ni over the available set: raises availability of the
 * available children, then either picks an action to expand (*expand) or
 * the UCT-best child. The caller holds the lock. Returns the child, or NIL
 * with *expand set. The set always holds the wait, so where no child is
 * available there is an action to expand; where one is, the first
 * available child stands until a better score replaces it, so that even a
 * score that is not a number (which bounded rewards rule out, see
 * search_number_ok) could not leave the choice empty.
 */
static uint32_t
search_select(struct search *s, uint32_t ni, int depth, struct action *pick,
    bool *expand)
{
	struct node *c, *nodes = s->nodes;
	uint32_t ci, best = NIL, forced = NIL, id, r;
	double score, bscore = -INFINITY, scale, uct_c;
	int ncompat = 0, nunexp, i;

	INVARIANT(mutex_held(&s->lock));
	*expand = false;
	if (depth < s->nprefix) {
		forced = search_find_child(s, ni, &s->prefix[depth]);
		if (forced != NIL && s->stamp[search_action_id(s,
		    &nodes[forced].action)] == s->gen)
			return forced;
	}
	if (++s->egen == 0) {
		memset(s->expd, 0, ((size_t)s->p->ndrafts * s->nfronts + 1) *
		    sizeof *s->expd);
		s->egen = 1;
	}
	/* One pass: availability, and the UCT choice should there be no
	 * expansion (an unvisited child first). */
	scale = search_scale(s, ni);
	uct_c = s->params.uct_c * (s->noisy ? NOISY_UCT : 1);
	NODE_FOREACH_CHILD(ci, &nodes[ni]) {
		c = &nodes[ci];
		id = search_action_id(s, &c->action);
		if (s->stamp[id] != s->gen)
			continue;
		s->expd[id] = s->egen;
		c->avail++;
		ncompat++;
		if (c->visits == 0)
			score = INFINITY;
		else
			score = search_value(s, c) / scale + uct_c *
			    sqrt(search_log(s, c->avail) / c->visits);
		if (best == NIL || score > bscore) {
			bscore = score;
			best = ci;
		}
	}
	nunexp = s->nset - ncompat;
	if (nunexp > 0 &&
	    ncompat < ceil(PW_K * sqrt((double)nodes[ni].visits + 1))) {
		r = search_rand(s, (uint32_t)nunexp);
		for (i = 0; i < s->nset; i++) {
			if (s->expd[search_action_id(s, &s->set[i])] == s->egen)
				continue;
			if (r-- == 0)
				break;
		}
		*pick = s->set[i];
		*expand = true;
		return NIL;
	}
	return best;
}

static void
search_push(struct search *s, uint32_t node, double reward)
{
	if (s->nstack == s->stackcap) {
		s->stackcap *= 2;
		s->stack = xrealloc(s->stack, s->stackcap * sizeof *s->stack);
	}
	s->stack[s->nstack].node = node;
	s->stack[s->nstack].reward = reward;
	s->nstack++;
}

/* Is the path over: horizon reached or the model says terminal? */
static int
search_over(struct search *s, model_state *st, bool *over)
{
	if (legal_path_done(s->lg, s->lp)) {
		*over = true;
		return MODEL_OK;
	}
	return search_m_terminal(s, st, over);
}

/* A completing rollout's step joins the tree (see search_rollout). */
static void
search_keep_step(struct search *s, const struct action *a, int slot,
    double r)
{
	uint32_t ni = s->nstack > 0 ? s->stack[s->nstack - 1].node : 0, c;

	mutex_lock(&s->lock);
	if ((c = search_find_child(s, ni, a)) == NIL)
		c = search_node_new(s, ni, a, slot);
	mutex_unlock(&s->lock);
	search_push(s, c, r);
}

/* A table entry of search_learn, or -1 out of the horizon. */
static inline long
search_mkey(const struct search *s, const struct action *a, int slot)
{
	if (slot < 0 || slot >= s->p->horizon_slots)
		return -1;
	return (long)search_action_id(s, a) * s->p->horizon_slots + slot;
}

/*
 * The rollout's action: the one whose (action, slot) has the best mean
 * return from there on over every path so far (search_learn), except one
 * time in ROLLOUT_UNIFORM, or where one of the actions was never tried
 * there, uniform. (Untried first would make every early rollout post the
 * same way; with hundreds of drafts the table stays thin for long, and
 * rollouts stay uniform.)
 */
static int
search_rollout_pick(struct search *s, int slot)
{
	double m, bm = -INFINITY;
	long k;
	int i, bi = 0;

	if (search_rand(s, ROLLOUT_UNIFORM) == 0)
		return (int)search_rand(s, (uint32_t)s->nset);
	for (i = 0; i < s->nset; i++) {
		if ((k = search_mkey(s, &s->set[i], slot)) < 0 ||
		    s->mn[k] == 0)
			return (int)search_rand(s, (uint32_t)s->nset);
		m = s->msum[k] / s->mn[k];
		if (m > bm) {
			bm = m;
			bi = i;
		}
	}
	return bi;
}

/*
 * The actions a completion step tries (indices into the set, in s->ctop):
 * every available one the first time (one screen), then of each front the
 * COMPLETE_TOP whose last reward tried was the highest, and COMPLETE_SAMPLE
 * drawn at random (the wait among them where drawn). The ranking of a
 * front's posts changes slowly from one step to the next (the hour and the
 * front's fatigue scale them alike), so a front's best posts are found
 * again without trying hundreds of them at every step.
 */
int
search_complete_set(struct search *s)
{
	int *top = s->ctop, n = 0, i, j, f, *t, nt = COMPLETE_TOP;
	int *cnt = top + s->nfronts * nt + COMPLETE_SAMPLE;
	double v;

	if (!s->screened)
		return s->nset;
	memset(cnt, 0, s->nfronts * sizeof *cnt);
	for (i = 0; i < s->nset; i++) {
		if (s->set[i].kind != ACTION_POST ||
		    isnan(v = s->seen[search_action_id(s, &s->set[i])]))
			continue;
		f = s->set[i].front;
		t = top + f * nt;
		for (j = cnt[f] < nt ? cnt[f]++ : nt; j > 0 &&
		    s->seen[search_action_id(s, &s->set[t[j - 1]])] < v; j--)
			if (j < nt)
				t[j] = t[j - 1];
		if (j < nt)
			t[j] = i;
	}
	for (f = 0; f < s->nfronts; f++)
		for (j = 0; j < cnt[f]; j++)
			top[n++] = top[f * nt + j];
	for (j = 0; j < COMPLETE_SAMPLE; j++)
		top[n++] = (int)search_rand(s, (uint32_t)s->nset);
	return n;
}

/*
 * A completing rollout's action where the model has value(): the best
 * immediate reward among the actions search_complete_set() names, each
 * tried on the state. Beyond what the tree reached the learned table is
 * thin over a long horizon, and its uniform steps fill the plan's far end
 * with arbitrary posts; the greedy choice is what a search that cannot
 * reach the horizon leaves there (the run scheduler re-plans before it
 * comes). Returns the index in the set, or -1 on a model error (in *rc).
 */
static int
search_complete_pick(struct search *s, model_state *st, int *rc)
{
	model_state *next;
	double r, br = -INFINITY, t0;
	int i, k, bi = 0, n = search_complete_set(s);

	for (k = 0; k < n; k++) {
		i = s->screened ? s->ctop[k] : k;
		t0 = search_call_begin(s);
		*rc = s->ops->apply(s->m, st, &s->set[i], &next, &r);
		if (search_call_done(s, t0, *rc) != MODEL_OK)
			return -1;
		s->ops->state_free(s->m, next);
		s->seen[search_action_id(s, &s->set[i])] = r;
		if (r > br) {
			br = r;
			bi = i;
		}
	}
	s->screened = true;
	return bi;
}

/* Every step of this iteration's path adds its return from there on to
 * its (action, slot) entry. */
static void
search_learn(struct search *s)
{
	double g = s->tail;
	long k;
	int i;

	for (i = s->ntrace - 1; i >= 0; i--) {
		g += s->trace[i].reward;
		if ((k = search_mkey(s, &s->trace[i].action,
		    s->trace[i].slot)) < 0)
			continue;
		s->msum[k] += g;
		s->mn[k]++;
	}
}

/*
 * Uniform rollout from st; adds the rewards (and value()) to *ret. A
 * completing rollout (s->completing, see search_run) runs to the horizon
 * and keeps its steps in the tree, so that the plan, which goes no deeper
 * than the tree, reaches the horizon along the best of them; one that
 * completes a stopped plan (search_fill) ends at its deadline, where a
 * rollout would have ended anyway, its steps so far kept.
 */
static int
search_rollout(struct search *s, model_state **st, double *ret, bool *whole)
{
	int steps = 0, slot, rc, i;
	struct action a;
	double r, v;
	bool over, late;

	for (;; steps++) {
		if ((rc = search_over(s, *st, &over)) != MODEL_OK)
			return rc;
		if (over) {
			*whole = true;
			return MODEL_OK;
		}
		late = s->fill_by > 0 && clock_seconds() >= s->fill_by;
		if (late && !s->has_value)
			return MODEL_OK;
		if (s->has_value && (late || (!s->completing &&
		    steps >= s->rollout_actions))) {
			if ((rc = search_m_value(s, *st, &v)) != MODEL_OK)
				return rc;
			*ret += v;
			s->tail = v;
			return MODEL_OK;
		}
		if ((rc = search_available(s, *st)) != MODEL_OK)
			return rc;
		slot = legal_path_slot(s->lp);
		if (s->completing && s->has_value) {
			if ((i = search_complete_pick(s, *st, &rc)) < 0)
				return rc;
			a = s->set[i];
		} else
			a = s->set[search_rollout_pick(s, slot)];
		if ((rc = search_m_apply(s, st, &a, &r)) != MODEL_OK)
			return rc;
		search_record(s, &a, slot, r);
		if (s->completing)
			search_keep_step(s, &a, slot, r);
		else
			*ret += r;
	}
}

/*
 * The value of an edge for selection: its mean reward plus the best value
 * among its children with at least two visits, or, where it has none, the
 * mean return observed below it. Max over actions, mean over
 * determinizations and model randomness (MaxUCT): a mean of returns alone
 * would keep counting the exploration below a node against it.
 */
static void
search_rescan(const struct search *s, struct node *n)
{
	const struct node *c;
	uint32_t ci;

	n->bq = -INFINITY;
	n->bchild = NIL;
	NODE_FOREACH_CHILD(ci, n) {
		c = &s->nodes[ci];
		if (c->visits >= 2 && c->q > n->bq) {
			n->bq = c->q;
			n->bchild = ci;
		}
	}
}

/*
 * The value of an edge for selection: its mean reward plus the best value
 * among its children with at least two visits, or, where it has none, the
 * mean return observed below it. Max over actions, mean over
 * determinizations and model randomness (MaxUCT): a mean of returns alone
 * would keep counting the exploration below a node against it. The best
 * child is kept up to date from the one child a backup changed; only when
 * the best child's own value fell are the children scanned again.
 */
static void
search_q(struct search *s, struct node *n, uint32_t changed)
{
	const struct node *c;

	if (changed != NIL) {
		c = &s->nodes[changed];
		if (c->visits >= 2 && c->q >= n->bq) {
			n->bq = c->q;
			n->bchild = changed;
		} else if (changed == n->bchild)
			search_rescan(s, n);
	}
	if (n->visits == 0)
		return;
	n->q = n->rsum / n->visits + (n->bq > -INFINITY ? n->bq :
	    (n->sum - n->rsum) / n->visits);
}

/* Backs up the return g. The forced steps of a deepening iteration only
 * refresh their values: counting their visits would make the principal
 * variation (chosen by visits) reinforce itself. */
static void
search_backup(struct search *s, double g)
{
	struct node *n;
	double r;
	uint32_t below;
	int i, nforced = s->nprefix < s->nstack ? s->nprefix : s->nstack;

	mutex_lock(&s->lock);
	for (i = s->nstack - 1; i >= 0; i--) {
		r = s->stack[i].reward;
		g += r;
		n = &s->nodes[s->stack[i].node];
		below = i + 1 < s->nstack ? s->stack[i + 1].node : NIL;
		if (g > n->best)
			n->best = g;
		if (i >= nforced && n->visits > 0 && fabs(r - n->rsum /
		    n->visits) > 1e-9 * (1 + fabs(r)))
			s->noisy = true;
		if (i >= nforced) {
			n->visits++;
			n->sum += g;
			n->rsum += r;
			n->rsq += r * r;
		}
		search_q(s, n, below);
	}
	if (nforced == 0) {
		s->nodes[0].visits++;
		s->nodes[0].sum += g;
	}
	if (g < s->gmin)
		s->gmin = g;
	if (g > s->gmax)
		s->gmax = g;
	mutex_unlock(&s->lock);
}

/* Selection came back empty-handed (see search_select: it cannot): the
 * iteration fails with an error saying so rather than follow NIL. */
static int
search_no_choice(struct search *s, uint32_t ni)
{
	return search_own_error(s, "SearchError", "search", "selection found "
	    "no action at node %u (%d available)", ni, s->nset);
}

/* The tree phase: descend by UCT (or the focus), expand one action. */
static int
search_descend(struct search *s, model_state **st)
{
	uint32_t ni = 0, next;
	struct action a;
	bool expand, over;
	double r;
	int rc, slot;

	for (;;) {
		if ((rc = search_over(s, *st, &over)) != MODEL_OK)
			return rc;
		if (over)
			return MODEL_OK;
		if ((rc = search_available(s, *st)) != MODEL_OK)
			return rc;
		mutex_lock(&s->lock);
		next = search_select(s, ni, s->nstack, &a, &expand);
		if (next != NIL)
			a = s->nodes[next].action;
		mutex_unlock(&s->lock);
		if (next == NIL && !expand)
			return search_no_choice(s, ni);
		if (s->nstack < s->nprefix && (next == NIL ||
		    !action_equal(&a, &s->prefix[s->nstack])))
			s->nprefix = s->nstack;
		slot = legal_path_slot(s->lp);
		if ((rc = search_m_apply(s, st, &a, &r)) != MODEL_OK)
			return rc;
		search_record(s, &a, slot, r);
		if (expand) {
			mutex_lock(&s->lock);
			next = search_node_new(s, ni, &a, slot);
			mutex_unlock(&s->lock);
			search_push(s, next, r);
			return MODEL_OK;
		}
		search_push(s, next, r);
		ni = next;
	}
}

/* Keeps this iteration's path when its return is the best yet: a path that
 * reached the horizon without value() is a whole plan, and its return is
 * the plan's true value where the model is deterministic. */
static void
search_keep_best(struct search *s)
{
	double total = 0;
	int i;

	if (s->ntrace == s->tracecap)
		return;
	for (i = 0; i < s->ntrace; i++)
		total += s->trace[i].reward;
	if (total <= s->btotal)
		return;
	s->btotal = total;
	s->nbtrace = s->ntrace;
	memcpy(s->btrace, s->trace, s->ntrace * sizeof *s->trace);
}

/*
 * Where no step's reward ever varied, the plan is the best whole path
 * evaluated (its return is exact, where the most visited path is only
 * the one the search spent longest on): its steps join the tree (with the
 * one visit that evaluated them where they were not there yet) and the
 * plan follows them, as it follows a merged plan.
 */
static void
search_follow_best(struct search *s)
{
	struct action *path;
	double *r, *rsq;
	int i;

	if (s->noisy || s->nbtrace == 0 || s->pact != NULL)
		return;
	path = xcalloc(s->nbtrace, sizeof *path);
	r = xcalloc(s->nbtrace, sizeof *r);
	rsq = xcalloc(s->nbtrace, sizeof *rsq);
	for (i = 0; i < s->nbtrace; i++) {
		path[i] = s->btrace[i].action;
		r[i] = s->btrace[i].reward;
		rsq[i] = r[i] * r[i];
	}
	mutex_lock(&s->lock);
	search_join(s, path, s->nbtrace, r, rsq, 1, s->btotal);
	mutex_unlock(&s->lock);
	free(rsq);
	free(r);
	free(path);
}

static int
search_iterate(struct search *s, uint64_t it, int nprefix)
{
	model_state *st = NULL;
	uint64_t seed = search_mix(search_mix(s->seed) ^ it);
	double g = 0;
	bool whole = false;
	int rc;

	s->ops->seed(s->m, seed);
	s->rng = search_mix(seed ^ 0x5851f42d4c957f2dULL) | 1;
	s->nstack = 0;
	s->ntrace = 0;
	s->tail = 0;
	s->last_key = 0;
	s->nprefix = nprefix;
	legal_path_reset(s->lg, s->lp);
	if ((rc = search_m_hidden(s, &st)) != MODEL_OK)
		return rc;
	rc = search_descend(s, &st);
	if (rc == MODEL_OK)
		rc = search_rollout(s, &st, &g, &whole);
	if (st != NULL)
		s->ops->state_free(s->m, st);
	if (rc == MODEL_OK) {
		search_backup(s, g);
		search_learn(s);
		if (whole)
			search_keep_best(s);
	}
	return rc;
}

/* The focus: the principal variation down to the deepest node that still
 * has focus_min visits. */
static int
search_focus(struct search *s)
{
	uint32_t ni = 0, c;
	int n = 0, max = s->p->horizon_slots * 2 +
	    s->p->ndrafts * s->p->nfronts;

	while (n < max && (c = search_best_child(s, ni)) != NIL &&
	    s->nodes[c].visits >= s->focus_min) {
		s->prefix[n++] = s->nodes[c].action;
		ni = c;
	}
	return n;
}

/* One iteration more, failed where rc says so, with the time spent as of
 * now; under the lock, for search_snapshot(). */
void
search_count(struct search *s, int rc, double now)
{
	mutex_lock(&s->lock);
	s->iterations++;
	if (rc != MODEL_OK)
		s->failed++;
	s->elapsed = now - s->started;
	mutex_unlock(&s->lock);
}

/*
 * The share of a budget in seconds kept for completing the plan
 * (search_fill) where the model has value(): over a horizon the tree does
 * not reach, the completing rollout is the plan's far end, and it takes
 * many calls (one step per action to the horizon), more than FILL_SECONDS
 * allows on a long horizon. At least COMPLETE_SHARE, more where the
 * legal_actions calls so far say a completion takes longer, at most
 * COMPLETE_MAX: on a horizon that long the completion is most of the
 * plan's value.
 */
static double
search_reserve(const struct search *s)
{
	double share = COMPLETE_SHARE, est;

	if (s->params.iterations > 0 || s->params.seconds <= 0 ||
	    !s->has_value)
		return 0;
	/* A completion's cost: about two actions a slot, each as long as
	 * COMPLETE_LEGAL legal_actions calls so far (one, and the actions
	 * tried and taken). */
	est = s->legal_timed > 0 ? 2.0 * s->p->horizon_slots *
	    COMPLETE_LEGAL * s->legal_seconds / s->legal_timed : 0;
	if (est / s->params.seconds > share)
		share = est / s->params.seconds;
	return share < COMPLETE_MAX ? share : COMPLETE_MAX;
}

/*
 * A run left before its last chunk's completing iterations (a stop, or a
 * budget in seconds that ran out first) completes its principal variation
 * instead: iterations that force the whole of it and run a completing
 * rollout from its end, until one kept to it, the variation already
 * reaches the horizon, or FILL_ITERATIONS or FILL_SECONDS are used up. A
 * rollout still running at that deadline ends there (search_rollout), so
 * that a stopped worker answers well inside the planner's stop grace
 * (at least 2 s) with its plan as far as it got. An iteration budget is
 * never exceeded. Returns MODEL_TIMEOUT where a call overran, as the main
 * loop would.
 */
static int
search_fill(struct search *s)
{
	uint64_t left = FILL_ITERATIONS;
	int n, i, waits, rc = MODEL_OK;

	if (s->iterations == 0 || !(s->noisy || s->has_value))
		return MODEL_OK;
	if (s->params.iterations > 0 &&
	    s->params.iterations - s->iterations < left)
		left = s->params.iterations - s->iterations;
	s->focus_min = 1;
	s->fill_by = clock_seconds() + FILL_SECONDS;
	if (search_reserve(s) > 0 && !atomic_load(&s->cancel) &&
	    s->started + s->params.seconds > s->fill_by)
		s->fill_by = s->started + s->params.seconds;
	for (; left > 0 && clock_seconds() < s->fill_by; left--) {
		n = search_focus(s);
		for (i = waits = 0; i < n; i++)
			waits += s->prefix[i].kind == ACTION_WAIT;
		if (waits >= s->p->horizon_slots)
			break;
		s->completing = true;
		rc = search_iterate(s, s->iterations, n);
		search_count(s, rc, clock_seconds());
		if (rc == MODEL_TIMEOUT || (rc == MODEL_OK && s->nprefix == n))
			break;
	}
	s->completing = false;
	s->fill_by = 0;
	return rc == MODEL_TIMEOUT ? rc : MODEL_OK;
}

/* Share of the budget spent, 0..1. */
static double
search_spent(const struct search *s, double now)
{
	if (s->params.iterations > 0)
		return (double)s->iterations / (s->params.iterations -
		    search_polish_budget(s));
	if (s->params.seconds <= 0)
		return 1;
	return (now - s->started) / (s->params.seconds *
	    (1 - search_reserve(s)) * (search_climbs(s) ? 1 - s->climb_share :
	    1));
}

/* The run fails; s->error says why. */
static int
search_failed(struct search *s, struct error *err)
{
	mutex_lock(&s->lock);
	s->state = SEARCH_FAILED;
	mutex_unlock(&s->lock);
	return error_set(err, EXIT_MODEL, "%s", s->error);
}

/*
 * A call that ran past its deadline ends the run at once (docs/DESIGN.md: exit
 * 4, the model timed out): unlike an exception, which says something
 * about one determinization, it says the model cannot keep to the budget,
 * and a plan from the iterations before it would hide that.
 */
static int
search_timed_out(struct search *s, struct error *err)
{
	const struct model_error *e = s->ops->last_error(s->m);

	mutex_lock(&s->lock);
	if (e != NULL)
		snprintf(s->error, sizeof s->error, "the model timed out: %s "
		    "(model line %d, in %s)", e->message, e->line, e->function);
	else
		snprintf(s->error, sizeof s->error, "the model timed out");
	mutex_unlock(&s->lock);
	return search_failed(s, err);
}

static int
search_fail(struct search *s, struct error *err)
{
	const struct model_error *e = s->nerrors > 0 ? &s->errors[0] : NULL;
	char where[512] = "";

	if (e != NULL)
		snprintf(where, sizeof where, "; first error: %s: %s "
		    "(model line %d, in %s)", e->type, e->message, e->line,
		    e->function);
	mutex_lock(&s->lock);
	snprintf(s->error, sizeof s->error, "the model failed %llu of %llu "
	    "iterations%s", (unsigned long long)s->failed,
	    (unsigned long long)s->iterations, where);
	mutex_unlock(&s->lock);
	return search_failed(s, err);
}

int
search_run(struct search *s, const struct model_ops *ops, void *model,
    struct error *err)
{
	double now, last_progress, spent;
	int chunk = -1, nprefix = 0, rc;
	uint64_t est;

	s->ops = ops;
	s->m = model;
	s->has_value = ops->value != NULL && ops->has_value != NULL &&
	    ops->has_value(model);
	if (s->params.iterations == 0 && s->params.seconds <= 0)
		s->params.iterations = SEARCH_ITERATIONS;
	mutex_lock(&s->lock);
	s->state = SEARCH_RUNNING;
	mutex_unlock(&s->lock);
	s->started = last_progress = clock_seconds();
	for (;;) {
		now = clock_seconds();
		spent = search_spent(s, now);
		if (spent >= 1 || atomic_load(&s->cancel))
			break;
		if (spent >= FOCUS_START && (int)((spent - FOCUS_START) /
		    (1 - FOCUS_START) * FOCUS_CHUNKS) != chunk) {
			chunk = (int)((spent - FOCUS_START) / (1 - FOCUS_START) *
			    FOCUS_CHUNKS);
			est = (uint64_t)(s->iterations / (spent > 0 ? spent : 1));
			est = (uint64_t)(est * (1 - FOCUS_START) /
			    FOCUS_CHUNKS / 8);
			s->focus_min = est > 2 ? est : 2;
			nprefix = s->noisy || s->has_value ? search_focus(s) : 0;
		}
		s->completing = (s->iterations & 1) && nprefix > 0 &&
		    chunk == FOCUS_CHUNKS - 1;
		rc = search_iterate(s, s->iterations,
		    (s->iterations & 1) ? nprefix : 0);
		search_count(s, rc, now);
		if (rc == MODEL_TIMEOUT)
			return search_timed_out(s, err);
		if (s->iterations >= FAIL_EARLY_MIN &&
		    s->failed * 10 >= s->iterations * 9)
			return search_fail(s, err);
		if (s->progress != NULL && now - last_progress >= s->interval) {
			last_progress = now;
			s->progress(s->progress_arg, s);
		}
	}
	if ((atomic_load(&s->cancel) || (s->params.iterations == 0 &&
	    !search_climbs(s))) && search_fill(s) == MODEL_TIMEOUT)
		return search_timed_out(s, err);
	if (!atomic_load(&s->cancel) && s->params.iterations > 0 &&
	    search_polish(s) == MODEL_TIMEOUT)
		return search_timed_out(s, err);
	if (!atomic_load(&s->cancel) && search_climbs(s) &&
	    search_climb(s, s->started + s->params.seconds, UINT64_MAX) ==
	    MODEL_TIMEOUT)
		return search_timed_out(s, err);
	mutex_lock(&s->lock);
	s->elapsed = clock_seconds() - s->started;
	mutex_unlock(&s->lock);
	if (s->iterations > 0 && s->failed * 2 > s->iterations)
		return search_fail(s, err);
	search_follow_best(s);
	mutex_lock(&s->lock);
	s->state = atomic_load(&s->cancel) ? SEARCH_STOPPED : SEARCH_DONE;
	mutex_unlock(&s->lock);
	if (s->progress != NULL)
		s->progress(s->progress_arg, s);
	return 0;
}
