/* Unit tests for the ISMCTS search against world models written in C. */
#include <math.h>
#include <pthread.h>

#include "testutil.h"
#include "fixture_project.h"
#include "fixture_model.h"
#include "fixture_export.h"
#include "core/legal.h"
#include "core/search.h"
#include "core/search_int.h"

static struct search_params
params(uint64_t iterations, uint64_t seed)
{
	struct search_params sp;

	memset(&sp, 0, sizeof sp);
	sp.iterations = iterations;
	sp.seed = seed;
	sp.workers = 1;
	sp.isolation = ISOLATION_THREAD;
	return sp;
}

/* A small project: 2 fronts with gaps (so same-slot order never matters
 * for the fixture model), 3 drafts, 5 slots. */
static struct project *
small_project(void)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 5, 2, 3);

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.min_gap_minutes = 60;
	return p;
}

/* The best total return over every legal action sequence. */
static double
brute(struct cm *m, struct legal *lg, struct legal_path *lp, model_state *st)
{
	struct action acts[64];
	struct legal_path *child;
	model_state *next;
	double best = 0, r, v;
	int n, i;

	if (legal_path_done(lg, lp))
		return 0;
	n = legal_enumerate(lg, lp, acts);
	child = legal_path_new(lg);
	for (i = 0; i < n; i++) {
		assert_int_equal(cm_apply(m, st, &acts[i], &next, &r), MODEL_OK);
		legal_path_copy(lg, child, lp);
		legal_apply(lg, child, &acts[i]);
		v = r + brute(m, lg, child, next);
		cm_free(m, next);
		if (v > best)
			best = v;
	}
	legal_path_free(child);
	return best;
}

/* Replays the principal variation from st (freed): every step legal,
 * returns its total; *slot is the slot it ends at. */
static double
replay_from(struct cm *m, struct legal *lg, const struct search_result *res,
    model_state *st, int *slot)
{
	struct legal_path *lp = legal_path_new(lg);
	model_state *next;
	double total = 0, r;
	int i;

	for (i = 0; i < res->npv; i++) {
		assert_int_equal(legal_check(lg, lp, &res->pv[i].action),
		    LEGAL_OK);
		assert_int_equal(res->pv[i].slot, legal_path_slot(lp));
		assert_int_equal(cm_apply(m, st, &res->pv[i].action, &next,
		    &r), MODEL_OK);
		cm_free(m, st);
		st = next;
		legal_apply(lg, lp, &res->pv[i].action);
		total += r;
	}
	*slot = legal_path_slot(lp);
	cm_free(m, st);
	legal_path_free(lp);
	return total;
}

static double
replay(struct cm *m, struct legal *lg, const struct search_result *res,
    int *slot)
{
	model_state *st;

	cm_initial(m, &st);
	return replay_from(m, lg, res, st, slot);
}

/*
 * Plans of the small project (horizon 4) at n iterations, seeds 1 to 6:
 * each replayed, covering the horizon; got[] their totals, est[] the
 * search's estimates of them. Returns the brute-force optimum.
 */
static double
small_plans(uint64_t n, double got[6], double est[6], int nalts[6])
{
	struct project *p = small_project();
	struct search_params sp;
	struct error err = { 0 };
	struct search_result res;
	struct legal *lg;
	struct legal_path *lp;
	struct search *s;
	model_state *st;
	struct cm m;
	double best;
	int slot, seed;

	p->horizon_slots = 4;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	cm_init(&m, p, 0);
	cm_initial(&m, &st);
	best = brute(&m, lg, lp, st);
	cm_free(&m, st);
	for (seed = 1; seed <= 6; seed++) {
		sp = params(n, seed);
		s = search_new(p, &sp, 0);
		assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
		assert_int_equal(search_result(s, 3, &res), 0);
		got[seed - 1] = replay(&m, lg, &res, &slot);
		assert_int_equal(slot, p->horizon_slots);
		est[seed - 1] = res.expected_total;
		nalts[seed - 1] = res.nalts;
		search_result_free(&res);
		search_free(s);
	}
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
	return best;
}

/* The planner finds the brute-force optimum, whatever the seed. */
static void
test_finds_optimum(void **state)
{
	double best, got[6], est[6];
	int nalts[6], i;

	best = small_plans(20000, got, est, nalts);
	assert_true(best > 0);
	for (i = 0; i < 6; i++) {
		assert_true(fabs(got[i] - best) < 1e-9);
		assert_true(fabs(est[i] - best) < 0.01 * best);
		assert_true(nalts[i] > 0);
	}
}

/* With a deterministic model the plan is the best whole path evaluated:
 * at a budget too small for the visits to settle (200 iterations), it
 * still covers the horizon (small_plans), its replayed total is exactly
 * the search's estimate of it, and half the seeds reach the optimum. */
static void
test_deterministic_best_path(void **state)
{
	double best, got[6], est[6];
	int nalts[6], i, hits = 0;

	best = small_plans(200, got, est, nalts);
	for (i = 0; i < 6; i++) {
		assert_true(got[i] <= best + 1e-9);
		assert_true(fabs(got[i] - est[i]) < 1e-9 * (1 + fabs(got[i])));
		hits += fabs(got[i] - best) < 1e-9;
	}
	assert_true(hits >= 3);
}

static void
test_illegal_proposals(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(5000, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search_result res;
	struct legal *lg;
	struct search *s;
	struct cm m;
	int i, slot;

	p->fronts[0].limits.max_length = 12;
	fx_set_text(p, 2, "this draft is too long for f0");
	p->drafts[2].front_mask = 1;		/* and not allowed on f1 */
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_ILLEGAL);
	m.illegal_draft = 2;
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	search_snapshot(s, &snap);
	assert_true(snap.illegal_proposals > 0);
	assert_int_equal(search_result(s, 3, &res), 0);
	for (i = 0; i < res.npv; i++)
		assert_false(res.pv[i].action.kind == ACTION_POST &&
		    res.pv[i].action.draft == 2);
	for (i = 0; i < res.nalts; i++)
		assert_int_equal(legal_static(lg, &res.alts[i].edge.action),
		    LEGAL_OK);
	m.flags = 0;
	replay(&m, lg, &res, &slot);	/* asserts every step legal */
	search_result_free(&res);
	search_free(s);
	legal_free(lg);
	fx_free(p);
}

static void
test_raising_model_fails(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(400, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct model_error errs[SEARCH_MAX_ERRORS];
	struct search *s;
	struct cm m;

	cm_init(&m, p, CM_RAISE);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), -1);
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg, "ValueError: boom"));
	assert_non_null(strstr(err.msg, "line 7"));
	search_snapshot(s, &snap);
	assert_int_equal(snap.state, SEARCH_FAILED);
	assert_int_equal(search_errors(s, errs, SEARCH_MAX_ERRORS), 1);
	search_free(s);

	/* A model failing now and then plans, and the errors are counted. */
	cm_init(&m, p, CM_RAISE);
	m.raise_rate = 0.1;
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	search_snapshot(s, &snap);
	assert_int_equal(snap.state, SEARCH_DONE);
	assert_true(snap.model_errors > 0 && snap.model_errors < 200);
	assert_int_equal(snap.iterations, 400);
	search_free(s);
	fx_free(p);
}

static void
run_snapshot(struct project *p, uint64_t seed, int flags,
    struct search_snapshot *snap)
{
	struct search_params sp = params(3000, seed);
	struct error err = { 0 };
	struct search *s;
	struct cm m;

	cm_init(&m, p, flags);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	search_snapshot(s, snap);
	snap->elapsed = snap->model_seconds = snap->rate = 0;
	search_free(s);
}

static void
test_reproducible(void **state)
{
	struct project *p = small_project();
	struct search_snapshot *a = malloc(sizeof *a), *b = malloc(sizeof *b);

	run_snapshot(p, 7, CM_NOISE, a);
	run_snapshot(p, 7, CM_NOISE, b);
	assert_int_equal(a->model_calls, b->model_calls);
	assert_int_equal(a->nodes, b->nodes);
	assert_memory_equal(a, b, sizeof *a);
	run_snapshot(p, 8, CM_NOISE, b);
	assert_true(a->root[0].mean != b->root[0].mean ||
	    a->nodes != b->nodes);
	free(a);
	free(b);
	fx_free(p);
}

static void
test_value_truncates_rollouts(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 60, 1, 2);
	struct search_params sp = params(200, 1);
	struct error err = { 0 };
	struct search *s;
	struct cm m;

	cm_init(&m, p, CM_VALUE);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	assert_true(m.value_calls > 0);
	search_free(s);
	fx_free(p);
}

/* With value(), a rollout ends after rollout_actions actions, however many
 * slots they span: fewer actions, fewer model calls, value() still used. */
static void
test_rollout_actions(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 60, 2, 4);
	struct search_params sp = params(300, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	uint64_t calls[2];
	struct search *s;
	struct cm m;
	int i;

	for (i = 0; i < 2; i++) {
		cm_init(&m, p, CM_VALUE);
		sp.rollout_actions = i == 0 ? 2 : 30;
		s = search_new(p, &sp, 0);
		assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
		search_snapshot(s, &snap);
		calls[i] = snap.model_calls;
		assert_true(m.value_calls > 0);
		search_free(s);
	}
	assert_true(calls[0] * 2 < calls[1]);
	fx_free(p);
}

/* A budget far too small to deepen the tree to a long horizon: the plan
 * still covers it (the last chunk's rollouts join the tree), with every
 * step legal, with and without value(). */
static void
test_plan_covers_horizon(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 60, 2, 3);
	struct search_params sp = params(300, 1);
	struct search_result res;
	struct error err = { 0 };
	struct legal *lg;
	struct search *s;
	struct cm m;
	int slot, flags;

	lg = legal_new(p, NULL, 0, NULL);
	for (flags = 0; flags <= CM_VALUE; flags += CM_VALUE) {
		cm_init(&m, p, CM_NOISE | flags);
		s = search_new(p, &sp, 0);
		assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
		assert_int_equal(search_result(s, 0, &res), 0);
		replay(&m, lg, &res, &slot);
		assert_int_equal(slot, p->horizon_slots);
		search_result_free(&res);
		search_free(s);
	}
	legal_free(lg);
	fx_free(p);
}

/* The mean return of a plan over the first k determinizations the
 * polishing replays plans on (search_polish.c). */
static double
polish_value(struct cm *m, struct legal *lg, const struct search_result *res,
    uint64_t seed, int k)
{
	model_state *st = NULL;
	double total = 0;
	int j, slot;

	for (j = 0; j < k; j++) {
		cm_seed(m, search_mix(search_mix(seed) ^
		    (SEARCH_POLISH_SALT + (uint64_t)j)));
		assert_int_equal(cm_hidden(m, &st), MODEL_OK);
		total += replay_from(m, lg, res, st, &slot);
	}
	return total / k;
}

/* A search of n iterations on a noisy model, polishing at its default
 * share or (share 0) not at all; its plan in *res. */
static void
polish_run(struct project *p, uint64_t n, uint64_t seed, double share,
    struct search_result *res, struct search_snapshot *snap)
{
	struct search_params sp = params(n, seed);
	struct error err = { 0 };
	struct search *s;
	struct cm m;

	cm_init(&m, p, CM_NOISE);
	s = search_new(p, &sp, 0);
	s->polish_share = share;
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	assert_int_equal(search_result(s, 0, res), 0);
	search_snapshot(s, snap);
	search_free(s);
}

/*
 * Polishing the plan (the last share of the budget): on the
 * determinizations it compared plans on, the plan is never worse than
 * the tree's own (the same search with the tree's share of the budget
 * and no polishing: the same tree), and better for some seeds; the plan
 * is legal and covers the horizon; every iteration of the budget is
 * counted; the same seed gives the same plan.
 */
static void
test_polish(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 16, 2, 5);
	struct search_result a, b, c;
	struct search_snapshot *snap = malloc(sizeof *snap);
	uint64_t n = 2000, seed, tree = n - (uint64_t)(n * SEARCH_POLISH_SHARE);
	double va, vb;
	struct legal *lg;
	struct cm m;
	int slot, better = 0, i;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.min_gap_minutes = 180;
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_NOISE);
	for (seed = 1; seed <= 4; seed++) {
		polish_run(p, n, seed, SEARCH_POLISH_SHARE, &a, snap);
		assert_int_equal(snap->iterations, n);
		replay(&m, lg, &a, &slot);
		assert_int_equal(slot, p->horizon_slots);
		polish_run(p, tree, seed, 0, &b, snap);
		assert_int_equal(snap->iterations, tree);
		va = polish_value(&m, lg, &a, seed, 64);
		vb = polish_value(&m, lg, &b, seed, 64);
		assert_true(va >= vb);
		better += va > vb;
		polish_run(p, n, seed, SEARCH_POLISH_SHARE, &c, snap);
		assert_int_equal(a.npv, c.npv);
		for (i = 0; i < a.npv; i++)
			assert_true(action_equal(&a.pv[i].action,
			    &c.pv[i].action));
		search_result_free(&a);
		search_result_free(&b);
		search_result_free(&c);
	}
	assert_true(better > 0);
	free(snap);
	legal_free(lg);
	fx_free(p);
}

/* The mean return of a plan over the climb's CLIMB_SAMPLES (4)
 * determinizations, the model reseeded at each slot's start as the climb
 * does (search_climb_seed). */
static double
climb_value(struct cm *m, struct legal *lg, const struct search_result *res,
    uint64_t seed)
{
	struct legal_path *lp = legal_path_new(lg);
	model_state *st = NULL, *next;
	double total = 0, r;
	int i, k, slot;

	for (k = 0; k < 4; k++) {
		cm_seed(m, search_climb_seed(seed, k, -1));
		assert_int_equal(cm_hidden(m, &st), MODEL_OK);
		legal_path_reset(lg, lp);
		for (i = 0, slot = -1; i < res->npv; i++) {
			if (res->pv[i].slot != slot)
				cm_seed(m, search_climb_seed(seed, k,
				    slot = res->pv[i].slot));
			assert_int_equal(legal_check(lg, lp,
			    &res->pv[i].action), LEGAL_OK);
			assert_int_equal(cm_apply(m, st, &res->pv[i].action,
			    &next, &r), MODEL_OK);
			cm_free(m, st);
			st = next;
			legal_apply(lg, lp, &res->pv[i].action);
			total += r;
		}
		cm_free(m, st);
	}
	legal_path_free(lp);
	return total / 4;
}

/*
 * The climb's greedy start (search_climb.c): from a tree that holds no
 * plan yet, a plan to the horizon, every step legal, each slot's posts the
 * greedy's best by their mean on the climb's determinizations (so at
 * least as good there as posting nothing), the same twice.
 */
static void
test_climb_greedy(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 24, 2, 5);
	struct search_params sp = params(0, 3);
	struct search_result res[2];
	struct legal *lg;
	struct search *s;
	struct cm m;
	int slot, i, posts;

	sp.seconds = 1;
	p->fronts[0].limits.min_gap_minutes = 120;
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_NOISE | CM_VALUE);
	for (i = 0; i < 2; i++) {
		s = search_new(p, &sp, 0);
		s->ops = &cm_ops;
		s->m = &m;
		s->has_value = true;
		assert_true(search_climbs(s));
		assert_int_equal(search_climb(s, INFINITY, 0), MODEL_OK);
		assert_int_equal(search_result(s, 0, &res[i]), 0);
		search_free(s);
		replay(&m, lg, &res[i], &slot);
		assert_int_equal(slot, p->horizon_slots);
		assert_true(climb_value(&m, lg, &res[i], 3) > 0);
	}
	assert_int_equal(res[0].npv, res[1].npv);
	for (i = posts = 0; i < res[0].npv; i++) {
		assert_true(action_equal(&res[0].pv[i].action,
		    &res[1].pv[i].action));
		posts += res[0].pv[i].action.kind == ACTION_POST;
	}
	assert_true(posts > 0);
	search_result_free(&res[0]);
	search_result_free(&res[1]);
	legal_free(lg);
	fx_free(p);
}

/*
 * A completion step (search.c, search_complete_set): the first tries
 * every available action; after, each front's COMPLETE_TOP best by their
 * last rewards (never the untried, never a worse one), then
 * COMPLETE_SAMPLE drawn at random.
 */
static void
test_complete_set(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 2, 8);
	struct search_params sp = params(10, 1);
	struct search *s = search_new(p, &sp, 0);
	int n, i, j, f, got[2] = { 0, 0 };
	uint32_t d;

	s->nset = 0;
	s->set[s->nset++].kind = ACTION_WAIT;
	for (d = 0; d < 8; d++)
		for (f = 0; f < 2; f++) {
			s->set[s->nset].kind = ACTION_POST;
			s->set[s->nset].draft = d;
			s->set[s->nset++].front = (uint16_t)f;
		}
	assert_int_equal(search_complete_set(s), s->nset);
	s->screened = true;
	/* front 0: drafts 0-6 tried, worth their number; draft 7 untried;
	 * front 1: drafts 0-1 tried only */
	for (d = 0; d < 7; d++)
		s->seen[1 + d * 2] = d;
	s->seen[1 + 0 * 2 + 1] = 5;
	s->seen[1 + 1 * 2 + 1] = 1;
	n = search_complete_set(s);
	assert_int_equal(n, COMPLETE_TOP + 2 + COMPLETE_SAMPLE);
	for (i = 0; i < n - COMPLETE_SAMPLE; i++) {
		j = s->ctop[i];
		assert_true(j >= 0 && j < s->nset);
		assert_int_equal(s->set[j].kind, ACTION_POST);
		got[s->set[j].front]++;
		if (s->set[j].front == 0)
			assert_true(s->set[j].draft >= 7 - COMPLETE_TOP &&
			    s->set[j].draft < 7);
	}
	assert_int_equal(got[0], COMPLETE_TOP);
	assert_int_equal(got[1], 2);
	for (; i < n; i++)
		assert_true(s->ctop[i] >= 0 && s->ctop[i] < s->nset);
	search_free(s);
	fx_free(p);
}

/* A search of n iterations on a noisy model with value(), its plan in
 * *before, then a climb of at most variants changes, its plan in *after;
 * returns the iterations the climb counted. */
static uint64_t
climb_run(struct project *p, uint64_t n, uint64_t seed, uint64_t variants,
    struct search_result *before, struct search_result *after)
{
	struct search_params sp = params(n, seed);
	struct search_snapshot *snap = malloc(sizeof *snap);
	struct error err = { 0 };
	struct search *s;
	struct cm m;
	uint64_t it;

	cm_init(&m, p, CM_NOISE | CM_VALUE);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	assert_false(search_climbs(s));		/* an iteration budget */
	assert_int_equal(search_result(s, 0, before), 0);
	assert_int_equal(search_climb(s, INFINITY, variants), MODEL_OK);
	assert_int_equal(search_result(s, 0, after), 0);
	search_snapshot(s, snap);
	it = snap->iterations - n;
	free(snap);
	search_free(s);
	return it;
}

/*
 * The climb (search_climb.c): on its first determinizations (the
 * greedy's and the first sweep's; later sweeps draw new ones, see
 * test_climb_redraws), its plan is not worse than the greedy plan it
 * starts from (the
 * same climb with no change tried) and better for some seeds; it is legal
 * and covers the horizon; each variant judged counts one iteration (the
 * plan's own replay one more), at most one per change tried; the same
 * seed gives the same plan. Only budgets in seconds with value() climb.
 */
static void
test_climb(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 24, 2, 5);
	struct search_params sp = params(0, 1);
	struct search_result a, b, c, d;
	uint64_t seed, it;
	double va, vb;
	struct legal *lg;
	struct search *s;
	struct cm m;
	int slot, better = 0, i;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.min_gap_minutes = 180;
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_NOISE);
	for (seed = 1; seed <= 4; seed++) {
		it = climb_run(p, 100, seed, 400, &d, &a);
		assert_true(it > 1 && it <= 401);
		search_result_free(&d);
		replay(&m, lg, &a, &slot);
		assert_int_equal(slot, p->horizon_slots);
		assert_int_equal(climb_run(p, 100, seed, 0, &d, &b), 1);
		va = climb_value(&m, lg, &a, seed);
		vb = climb_value(&m, lg, &b, seed);
		assert_true(va >= vb);
		better += va > vb;
		search_result_free(&d);
		assert_int_equal(climb_run(p, 100, seed, 400, &d, &c), it);
		assert_int_equal(a.npv, c.npv);
		for (i = 0; i < a.npv; i++)
			assert_true(action_equal(&a.pv[i].action,
			    &c.pv[i].action));
		search_result_free(&a);
		search_result_free(&b);
		search_result_free(&c);
		search_result_free(&d);
	}
	assert_true(better > 0);
	sp.seconds = 1;
	s = search_new(p, &sp, 0);
	assert_false(search_climbs(s));		/* no value() */
	s->has_value = true;
	assert_true(search_climbs(s));
	s->climb_share = 0;
	assert_false(search_climbs(s));
	search_free(s);
	legal_free(lg);
	fx_free(p);
}

static uint64_t redraw_want;
static int redraw_seen;
static bool redraw_fails, redraw_now;

static void
redraw_seed(void *v, uint64_t seed)
{
	redraw_now = seed == redraw_want;
	redraw_seen += redraw_now;
	cm_seed(v, seed);
}

/* The model raises on the redraw's first state where redraw_fails. */
static int
redraw_hidden(void *v, model_state **out)
{
	return redraw_fails && redraw_now ? MODEL_RAISED : cm_hidden(v, out);
}

/* The climb's redraws seen in a climb of at most variants changes, its
 * plan in *res where res is not NULL. */
static int
redraw_run(struct project *p, uint64_t variants, uint64_t seed,
    struct search_result *res)
{
	struct search_params sp = params(100, seed);
	struct model_ops ops = cm_ops;
	struct error err = { 0 };
	struct search *s;
	struct cm m;

	cm_init(&m, p, CM_NOISE | CM_VALUE);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	ops.seed = redraw_seed;
	ops.sample_hidden = redraw_hidden;
	s->ops = &ops;
	redraw_want = search_climb_seed(s->params.seed, 4, -1);
	redraw_seen = 0;
	assert_int_equal(search_climb(s, INFINITY, variants), MODEL_OK);
	if (res != NULL)
		assert_int_equal(search_result(s, 0, res), 0);
	search_free(s);
	return redraw_seen;
}

/*
 * After a sweep of the plan the climb judges it on new determinizations
 * (search_climb.c, climb_redraw): the fifth (the second set's first) is
 * drawn after a climb of many sweeps, never within the first sweep (at
 * least CLIMB_TRIES changes tried).
 */
static void
test_climb_redraws(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 24, 2, 5);

	p->fronts[0].limits.min_gap_minutes = 120;
	redraw_fails = false;
	assert_int_equal(redraw_run(p, 8, 1, NULL), 0);
	assert_true(redraw_run(p, 400, 1, NULL) > 0);
	fx_free(p);
}

/*
 * Where the model fails to draw the new states, the climb goes on on
 * those it had: its plan is not worse than the greedy start on them
 * (the same climb with no change tried) and better for some seed.
 */
static void
test_climb_redraw_fails(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 24, 2, 5);
	struct search_result a, b;
	struct legal *lg;
	struct cm m;
	uint64_t seed;
	double va, vb;
	int better = 0;

	p->fronts[0].limits.min_gap_minutes = 120;
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_NOISE);
	redraw_fails = true;
	for (seed = 1; seed <= 3; seed++) {
		assert_true(redraw_run(p, 400, seed, &a) > 0);
		redraw_run(p, 0, seed, &b);
		va = climb_value(&m, lg, &a, seed);
		vb = climb_value(&m, lg, &b, seed);
		assert_true(va >= vb);
		better += va > vb;
		search_result_free(&a);
		search_result_free(&b);
	}
	redraw_fails = false;
	assert_true(better > 0);
	legal_free(lg);
	fx_free(p);
}

/*
 * The climb on a horizon longer than a variant's window and tail
 * (search_climb.c: the sweep, the plan replayed past a kept variant only
 * where a variant needs it): its plan is legal and covers the horizon,
 * better than the greedy start on the climb's determinizations for every
 * seed here, each variant one iteration at most, the same seed the same
 * plan.
 */
static void
test_climb_sweep(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 160, 2, 8);
	struct search_result a, b, d;
	struct legal *lg;
	struct cm m;
	uint64_t seed, it;
	int slot, i;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.min_gap_minutes = 180;
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_NOISE);
	for (seed = 1; seed <= 3; seed++) {
		it = climb_run(p, 100, seed, 1500, &d, &a);
		assert_true(it > 1 && it <= 1501);
		search_result_free(&d);
		replay(&m, lg, &a, &slot);
		assert_int_equal(slot, p->horizon_slots);
		assert_int_equal(climb_run(p, 100, seed, 0, &d, &b), 1);
		assert_true(climb_value(&m, lg, &a, seed) >
		    climb_value(&m, lg, &b, seed));
		search_result_free(&b);
		search_result_free(&d);
		assert_int_equal(climb_run(p, 100, seed, 1500, &d, &b), it);
		assert_int_equal(a.npv, b.npv);
		for (i = 0; i < a.npv; i++)
			assert_true(action_equal(&a.pv[i].action,
			    &b.pv[i].action));
		search_result_free(&a);
		search_result_free(&b);
		search_result_free(&d);
	}
	legal_free(lg);
	fx_free(p);
}

/*
 * Every plan honours every pin, with the polishing on and off: the pinned
 * post at its slot, the front-pinned draft on its front only, the dropped
 * draft nowhere; every step legal, the horizon covered.
 */
static void
test_pins_honoured(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 16, 2, 5);
	struct search_snapshot *snap = malloc(sizeof *snap);
	struct search_result r;
	struct legal *lg;
	struct cm m;
	uint64_t seed;
	double share;
	int slot, i, pinned;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.min_gap_minutes = 180;
	fx_pin(p, 4, 0, "2026-12-01T15:00:00+01:00");	/* slot 6 */
	fx_pin(p, 0, -1, NULL);
	fx_pin(p, 1, 1, NULL);
	lg = legal_new(p, NULL, 0, NULL);
	cm_init(&m, p, CM_NOISE);
	for (seed = 1; seed <= 3; seed++)
		for (share = 0; share <= SEARCH_POLISH_SHARE;
		    share += SEARCH_POLISH_SHARE) {
			polish_run(p, 1500, seed, share, &r, snap);
			replay(&m, lg, &r, &slot);
			assert_int_equal(slot, p->horizon_slots);
			pinned = 0;
			for (i = 0; i < r.npv; i++) {
				const struct action *a = &r.pv[i].action;

				if (a->kind != ACTION_POST)
					continue;
				assert_int_not_equal(a->draft, 0);
				if (a->draft == 1)
					assert_int_equal(a->front, 1);
				if (a->draft == 4 && a->front == 0) {
					assert_int_equal(r.pv[i].slot, 6);
					pinned++;
				}
			}
			assert_int_equal(pinned, 1);
			search_result_free(&r);
		}
	free(snap);
	legal_free(lg);
	fx_free(p);
}

/* Stops the search it is given once it has run `at` iterations. */
static void
cancel_at(void *arg, struct search *s)
{
	struct search_snapshot snap;

	search_snapshot(s, &snap);
	if (snap.iterations >= *(uint64_t *)arg)
		search_cancel(s);
}

/*
 * A search stopped long before it would deepen (and so before any
 * completing rollout ran) still plans the whole horizon, with every step
 * legal: noisy with and without value(), and deterministic (the best path
 * evaluated), under an iteration budget and under one in seconds. The
 * iterations that complete the plan are few and counted; under an
 * iteration budget, a stop next to its end does not exceed it.
 */
static void
test_stop_covers_horizon(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 60, 2, 3);
	static const int flags[] = { CM_NOISE, CM_NOISE | CM_VALUE, 0 };
	struct search_snapshot snap;
	struct search_params sp;
	struct search_result res;
	struct error err = { 0 };
	struct legal *lg;
	struct search *s;
	struct cm m;
	uint64_t at;
	int slot, i, secs;

	lg = legal_new(p, NULL, 0, NULL);
	for (i = 0; i < 3; i++) {
		for (secs = 0; secs <= 1; secs++) {
			sp = params(secs ? 0 : 100000, 1);
			sp.seconds = secs ? 600 : 0;
			at = 200;
			cm_init(&m, p, flags[i]);
			s = search_new(p, &sp, 0);
			search_set_progress(s, cancel_at, &at, 0);
			assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
			search_snapshot(s, &snap);
			assert_int_equal(snap.state, SEARCH_STOPPED);
			assert_true(snap.iterations >= at);
			assert_true(snap.iterations <= at + 16);
			assert_int_equal(search_result(s, 0, &res), 0);
			replay(&m, lg, &res, &slot);
			assert_int_equal(slot, p->horizon_slots);
			search_result_free(&res);
			search_free(s);
		}
	}
	cm_init(&m, p, CM_NOISE | CM_VALUE);
	sp = params(1000, 1);
	at = 997;
	s = search_new(p, &sp, 0);
	search_set_progress(s, cancel_at, &at, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	search_snapshot(s, &snap);
	assert_true(snap.iterations <= 1000);
	search_free(s);
	legal_free(lg);
	fx_free(p);
}

/* A deterministic model keeps the search on best returns, each at least
 * its edge's mean; noisy rewards switch it to MaxUCT. */
static void
test_deterministic_best(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(500, 1);
	struct error err = { 0 };
	struct search *s;
	struct node *n;
	struct cm m;
	uint32_t i, *stack, top = 0;
	int flags;

	for (flags = 0; flags <= CM_NOISE; flags += CM_NOISE) {
		cm_init(&m, p, flags);
		s = search_new(p, &sp, 0);
		assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
		assert_int_equal(s->noisy, flags == CM_NOISE);
		/* Every node below the root (the arena also holds free
		 * blocks). */
		stack = xcalloc(s->nnodes, sizeof *stack);
		stack[top++] = 0;
		while (top > 0) {
			n = &s->nodes[stack[--top]];
			if (n != s->nodes && n->visits > 0)
				assert_true(n->best >= n->sum / n->visits - 1e-9);
			NODE_FOREACH_CHILD(i, n)
				stack[top++] = i;
		}
		free(stack);
		search_free(s);
	}
	fx_free(p);
}

static void
test_progressive_widening(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 3, 200);
	struct search_params sp = params(400, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search *s;
	struct cm m;

	assert_true(search_node_bytes() <= 200);
	cm_init(&m, p, 0);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &cm_ops, &m, &err), 0);
	search_snapshot(s, &snap);
	/* 601 actions at the root, at most ceil(2 sqrt(401)) = 41 expanded */
	assert_true(snap.nroot <= 41);
	assert_true(snap.nroot >= 20);
	search_free(s);
	fx_free(p);
}

/* Two searches of p with seed offsets 0 and 1, run to the end. */
static void
run_two(const struct project *p, const struct search_params *sp,
    struct cm *m, struct search **a, struct search **b)
{
	struct error err = { 0 };

	*a = search_new(p, sp, 0);
	*b = search_new(p, sp, 1);
	assert_int_equal(search_run(*a, &cm_ops, m, &err), 0);
	assert_int_equal(search_run(*b, &cm_ops, m, &err), 0);
}

static void
test_export_merge(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(1000, 1);
	struct search_snapshot sa, sb;
	struct error err = { 0 };
	struct search *a, *b;
	struct cm m;
	char *buf;
	size_t len;
	uint32_t bad;

	cm_init(&m, p, CM_NOISE);
	run_two(p, &sp, &m, &a, &b);
	search_snapshot(b, &sb);
	assert_int_equal(search_export(b, &buf, &len), 0);
	assert_int_equal(search_merge(a, buf, len, &err), 0);
	search_snapshot(a, &sa);
	assert_int_equal(sa.iterations, 2000);
	assert_true(sa.model_calls > sb.model_calls);
	assert_true(sa.root[0].visits > sb.root[0].visits);
	/* Malformed trees are refused, never followed. */
	assert_int_equal(search_merge(a, buf, 10, &err), -1);
	assert_int_equal(err.code, EXIT_MODEL);
	assert_int_equal(search_merge(a, buf, len - 1, &err), -1);
	memcpy(&bad, buf, sizeof bad);
	buf[0] ^= 0x55;
	assert_int_equal(search_merge(a, buf, len, &err), -1);
	buf[0] ^= 0x55;
	/* A parent index pointing forward. */
	if (len > 200) {
		bad = 0xfffffff0u;
		memcpy(buf + len - sizeof(struct export_node), &bad,
		    sizeof bad);
		assert_int_equal(search_merge(a, buf, len, &err), -1);
	}
	free(buf);
	search_free(a);
	search_free(b);
	fx_free(p);
}

/*
 * Extreme numbers: the fixture model with its rewards (or values) replaced
 * by a sequence, on one call in `every` (1: all of them), or with its
 * apply timing out after `timeout_after` calls. struct cm comes first, so
 * the fixture's own operations take an xm as theirs.
 */
struct xm {
	struct cm	 cm;
	const double	*seq;
	int		 nseq, k;
	int		 every;
	bool		 in_value;	/* replace values, not rewards */
	uint64_t	 applies, timeout_after;
};

static bool
xm_turn(struct xm *x)
{
	return x->seq != NULL && cm_uniform(&x->cm) * x->every < 1;
}

static int
xm_apply(void *v, model_state *st, const struct action *a,
    model_state **next, double *reward)
{
	struct xm *x = v;
	int rc;

	if (x->timeout_after > 0 && ++x->applies > x->timeout_after) {
		x->cm.calls++;
		snprintf(x->cm.err.type, sizeof x->cm.err.type, "TimeoutError");
		snprintf(x->cm.err.message, sizeof x->cm.err.message,
		    "apply() ran longer than 50 ms");
		snprintf(x->cm.err.function, sizeof x->cm.err.function,
		    "apply");
		x->cm.err.line = 12;
		return MODEL_TIMEOUT;
	}
	rc = cm_apply(v, st, a, next, reward);
	if (!x->in_value && xm_turn(x))
		*reward = x->seq[x->k++ % x->nseq];
	return rc;
}

static int
xm_value(void *v, model_state *st, double *out)
{
	struct xm *x = v;
	int rc = cm_value(v, st, out);

	if (x->in_value && xm_turn(x))
		*out = x->seq[x->k++ % x->nseq];
	return rc;
}

static const struct model_ops xm_ops = {
	.seed = cm_seed, .initial_state = cm_initial,
	.sample_hidden = cm_hidden, .legal_actions = cm_legal,
	.legal_ids = cm_legal_ids, .apply = xm_apply,
	.is_terminal = cm_terminal, .value = xm_value, .state_free = cm_free,
	.last_error = cm_last_error, .has_value = cm_has_value
};

static void
xm_init(struct xm *x, const struct project *p, int flags, const double *seq,
    int nseq, int every)
{
	memset(x, 0, sizeof *x);
	cm_init(&x->cm, p, flags);
	x->seq = seq;
	x->nseq = nseq;
	x->every = every;
}

/* Every number the search shows of a tree is a number. */
static void
assert_tree_finite(struct search *s)
{
	struct search_snapshot *snap = malloc(sizeof *snap);
	struct search_result res;
	int i;

	search_snapshot(s, snap);
	for (i = 0; i < snap->nroot; i++)
		assert_true(isfinite(snap->root[i].mean) &&
		    isfinite(snap->root[i].ci_lo) &&
		    isfinite(snap->root[i].ci_hi));
	assert_int_equal(search_result(s, 3, &res), 0);
	assert_true(isfinite(res.expected_total));
	for (i = 0; i < res.npv; i++)
		assert_true(isfinite(res.pv[i].mean) &&
		    isfinite(res.pv[i].reward_mean));
	search_result_free(&res);
	free(snap);
}

static const double x_huge[] = { 1e308 };
static const double x_neg[] = { -1e308 };
static const double x_inf[] = { INFINITY };
static const double x_nan[] = { NAN };
static const double x_alt[] = { 1e308, -1e308 };
static const double x_edge[] = { 1e12, -1e12 };

/* Rewards out of the contract on every call: a model error naming apply,
 * whatever the number; nothing reaches the tree. */
static void
test_extreme_rewards_fail(void **state)
{
	static const struct { const double *seq; int n; const char *want; }
	    cases[] = {
		{ x_huge, 1, "apply returned reward 1e+308, beyond ±1e12" },
		{ x_neg, 1, "apply returned reward -1e+308, beyond ±1e12" },
		{ x_inf, 1, "apply returned reward inf, not a finite number" },
		{ x_nan, 1, "not a finite number" },
		{ x_alt, 2, "beyond ±1e12" },
	};
	struct project *p = small_project();
	struct search_params sp = params(300, 1);
	struct error err;
	struct search *s;
	struct xm x;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		xm_init(&x, p, CM_NOISE, cases[i].seq, cases[i].n, 1);
		memset(&err, 0, sizeof err);
		s = search_new(p, &sp, 0);
		assert_int_equal(search_run(s, &xm_ops, &x, &err), -1);
		assert_int_equal(err.code, EXIT_MODEL);
		assert_non_null(strstr(err.msg, cases[i].want));
		assert_non_null(strstr(err.msg, "in apply)"));
		assert_tree_finite(s);
		search_free(s);
	}
	fx_free(p);
}

/* Now and then (one call in 20): the iterations they end are counted as
 * failed, the rest plan, and no statistic or score turns into NaN. With
 * values at the bound itself the search runs as usual. */
static void
test_extreme_rewards_sometimes(void **state)
{
	static const double *seqs[] = { x_huge, x_neg, x_inf, x_nan, x_alt };
	static const int nseq[] = { 1, 1, 1, 1, 2 };
	struct project *p = small_project();
	struct search_params sp = params(3000, 2);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search *s;
	struct xm x;
	size_t i;

	for (i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
		xm_init(&x, p, CM_NOISE, seqs[i], nseq[i], 20);
		s = search_new(p, &sp, 0);
		assert_int_equal(search_run(s, &xm_ops, &x, &err), 0);
		search_snapshot(s, &snap);
		assert_int_equal(snap.iterations, 3000);
		assert_true(snap.model_errors > 0);
		assert_true(snap.npv > 0);
		assert_tree_finite(s);
		search_free(s);
	}
	xm_init(&x, p, CM_NOISE, x_edge, 2, 3);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &xm_ops, &x, &err), 0);
	search_snapshot(s, &snap);
	assert_int_equal(snap.model_errors, 0);
	assert_true(snap.npv > 0);
	assert_tree_finite(s);
	search_free(s);
	fx_free(p);
}

/* The same for value(), which a rollout adds after ROLLOUT_SLOTS slots. */
static void
test_extreme_values(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 60, 1, 2);
	struct search_params sp = params(200, 1);
	struct error err = { 0 };
	struct search *s;
	struct xm x;

	xm_init(&x, p, CM_VALUE, x_huge, 1, 1);
	x.in_value = true;
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &xm_ops, &x, &err), -1);
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg,
	    "value returned value 1e+308, beyond ±1e12"));
	assert_non_null(strstr(err.msg, "in value)"));
	search_free(s);

	xm_init(&x, p, CM_VALUE, x_alt, 2, 4);
	x.in_value = true;
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &xm_ops, &x, &err), 0);
	assert_true(x.cm.value_calls > 0);
	assert_tree_finite(s);
	search_free(s);
	fx_free(p);
}

/* A call that times out ends the run at once with EXIT_MODEL, naming the
 * function and the line, where an exception would only be counted. */
static void
test_timeout_ends_run(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(2000, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search *s;
	struct xm x;

	xm_init(&x, p, 0, NULL, 0, 1);
	x.timeout_after = 500;
	s = search_new(p, &sp, 0);
	assert_int_equal(search_run(s, &xm_ops, &x, &err), -1);
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg, "timed out"));
	assert_non_null(strstr(err.msg,
	    "apply() ran longer than 50 ms (model line 12, in apply)"));
	search_snapshot(s, &snap);
	assert_int_equal(snap.state, SEARCH_FAILED);
	assert_int_equal(snap.model_errors, 1);
	assert_true(snap.iterations < 2000);
	search_free(s);
	fx_free(p);
}

/* Trees from workers whose numbers could not come from a model keeping
 * to the bounds are refused whole: two of them could otherwise add up to
 * an infinite sum. */
/* The subtree below the plan's first step, shifted to a window that
 * starts after it, merges into a fresh search of that window: its root
 * holds the statistics from before, its counters none of them; a path the
 * tree does not hold gives nothing. */
static void
test_export_subtree(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(1000, 1);
	struct search_result r;
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search *a, *b;
	struct action path[2], none = { ACTION_POST, 0, 999 };
	struct cm m;
	char *buf, *sub, *no = NULL;
	size_t len, slen, nolen = 0;
	int shift;

	cm_init(&m, p, CM_NOISE);
	a = search_new(p, &sp, 0);
	assert_int_equal(search_run(a, &cm_ops, &m, &err), 0);
	assert_int_equal(search_result(a, 0, &r), 0);
	assert_true(r.npv > 0);
	path[0] = r.pv[0].action;
	shift = path[0].kind == ACTION_WAIT ? 1 : 0;
	search_result_free(&r);
	assert_int_equal(search_export(a, &buf, &len), 0);
	assert_int_equal(search_export_subtree(buf, len, path, 1, shift, &sub,
	    &slen), 0);
	assert_int_equal(search_export_subtree(buf, len, &none, 1, 0, &no,
	    &nolen), -1);
	assert_null(no);
	p->start = project_slot_time(p, shift);
	p->horizon_slots -= shift;
	b = search_new(p, &sp, 0);
	assert_int_equal(search_merge(b, sub, slen, &err), 0);
	search_snapshot(b, &snap);
	assert_int_equal(snap.iterations, 0);
	assert_true(snap.nroot > 0);
	assert_true(snap.root[0].visits > 0);
	assert_int_equal(search_run(b, &cm_ops, &m, &err), 0);
	search_snapshot(b, &snap);
	assert_int_equal(snap.iterations, 1000);
	free(buf);
	free(sub);
	search_free(a);
	search_free(b);
	fx_free(p);
}

static void
test_merge_refuses_extreme_sums(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(500, 1);
	struct search_snapshot snap;
	struct export_head h;
	struct export_node e;
	struct error err = { 0 };
	struct search *a, *b;
	struct cm m;
	char *buf, *bad;
	size_t len, at;
	uint32_t i;
	int field;

	cm_init(&m, p, CM_NOISE);
	a = search_new(p, &sp, 0);
	b = search_new(p, &sp, 1);
	assert_int_equal(search_run(b, &cm_ops, &m, &err), 0);
	assert_int_equal(search_export(b, &buf, &len), 0);
	memcpy(&h, buf, sizeof h);
	assert_true(h.nnodes > 1);
	bad = malloc(len);
	for (i = 0; i < 2; i++) {
		for (field = 0; field < 4; field++) {
			memcpy(bad, buf, len);
			at = sizeof h + i * sizeof e;
			memcpy(&e, bad + at, sizeof e);
			if (field == 0)
				e.sum = 1e308;
			else if (field == 1)
				e.rsum = -1e308;
			else if (field == 2)
				e.rsq = -1;
			else
				e.sum = NAN;
			memcpy(bad + at, &e, sizeof e);
			assert_int_equal(search_merge(a, bad, len, &err), -1);
			assert_int_equal(err.code, EXIT_MODEL);
		}
	}
	memcpy(bad, buf, len);
	h.model_seconds = NAN;
	memcpy(bad, &h, sizeof h);
	assert_int_equal(search_merge(a, bad, len, &err), -1);
	search_snapshot(a, &snap);
	assert_int_equal(snap.iterations, 0);
	assert_int_equal(snap.nodes, 1);
	/* The tree as it was merges, twice, and stays finite. */
	assert_int_equal(search_merge(a, buf, len, &err), 0);
	assert_int_equal(search_merge(a, buf, len, &err), 0);
	assert_tree_finite(a);
	free(bad);
	free(buf);
	search_free(a);
	search_free(b);
	fx_free(p);
}

/* An export of nodes given as (parent, kind, draft, visits, sum, rsum,
 * on the plan); node 0 is the root. */
struct xn {
	uint32_t	parent;
	int		kind, draft, slot;
	uint32_t	visits;
	double		sum, rsum;
	int		pv;
};

static char *
export_of(const struct xn *xs, int n, size_t *len)
{
	struct export_head h;
	struct export_node e;
	char *buf;
	int i;

	memset(&h, 0, sizeof h);
	h.magic = EXPORT_MAGIC;
	h.nnodes = n;
	h.iterations = xs[0].visits;
	*len = sizeof h + n * sizeof e;
	buf = calloc(1, *len);
	memcpy(buf, &h, sizeof h);
	for (i = 0; i < n; i++) {
		memset(&e, 0, sizeof e);
		e.parent = i == 0 ? UINT32_MAX : xs[i].parent;
		e.slot = i == 0 ? -1 : xs[i].slot;
		e.action.kind = xs[i].kind;
		e.action.draft = xs[i].draft;
		e.visits = e.avail = xs[i].visits;
		e.sum = xs[i].sum;
		e.rsum = xs[i].rsum;
		e.rsq = xs[i].rsum * xs[i].rsum;
		e.pv = xs[i].pv;
		memcpy(buf + sizeof h + i * sizeof e, &e, sizeof e);
	}
	return buf;
}

/*
 * Two workers' plans: A posted d0 and waited (a deep plan, worth 10),
 * B waited (a plan of one step, worth 5) and had more visits on it. The
 * sums of visits would pick B's first step, a plan nobody deepened; the
 * merged plan is A's whole, whichever order the trees come in.
 */
static void
test_merge_keeps_one_plan(void **state)
{
	static const struct xn a[] = {
		{ 0, 0, 0, 0, 20, 150, 0, 0 },
		{ 0, ACTION_POST, 0, 0, 10, 100, 30, 1 },
		{ 1, ACTION_WAIT, 0, 0, 9, 63, 0, 1 },
		{ 0, ACTION_WAIT, 0, 0, 9, 27, 0, 0 },
	}, b[] = {
		{ 0, 0, 0, 0, 20, 80, 0, 0 },
		{ 0, ACTION_WAIT, 0, 0, 12, 60, 0, 1 },
	};
	struct project *p = small_project();
	struct search_params sp = params(1, 1);
	struct search_result res;
	struct error err = { 0 };
	struct search *s;
	char *ba, *bb;
	size_t la, lb;
	int order;

	ba = export_of(a, 4, &la);
	bb = export_of(b, 2, &lb);
	for (order = 0; order < 2; order++) {
		s = search_new(p, &sp, 0);
		assert_int_equal(search_merge(s, order ? bb : ba,
		    order ? lb : la, &err), 0);
		assert_int_equal(search_merge(s, order ? ba : bb,
		    order ? la : lb, &err), 0);
		assert_int_equal(search_result(s, 2, &res), 0);
		assert_int_equal(res.npv, 2);
		assert_int_equal(res.pv[0].action.kind, ACTION_POST);
		assert_int_equal(res.pv[1].action.kind, ACTION_WAIT);
		/* The wait at the root carries both workers' visits. */
		assert_int_equal(res.nalts, 1);
		assert_int_equal(res.alts[0].edge.visits, 21);
		assert_true(fabs(res.expected_total - 10) < 1e-9);
		search_result_free(&res);
		search_free(s);
	}
	free(ba);
	free(bb);
	fx_free(p);
}

/*
 * A worker whose plan stops short of the horizon values it by what its
 * rollouts and value() found below its last step (B: one post, worth 20);
 * the other's plan reaches the horizon (A: five waits, worth 8). The
 * merged plan is A's, in either order: the estimate is no plan.
 */
static void
test_merge_prefers_whole_plan(void **state)
{
	static const struct xn a[] = {
		{ 0, 0, 0, 0, 10, 80, 0, 0 },
		{ 0, ACTION_WAIT, 0, 0, 10, 80, 0, 1 },
		{ 1, ACTION_WAIT, 0, 1, 10, 80, 0, 1 },
		{ 2, ACTION_WAIT, 0, 2, 10, 80, 0, 1 },
		{ 3, ACTION_WAIT, 0, 3, 10, 80, 0, 1 },
		{ 4, ACTION_WAIT, 0, 4, 10, 80, 80, 1 },
	}, b[] = {
		{ 0, 0, 0, 0, 10, 200, 0, 0 },
		{ 0, ACTION_POST, 0, 0, 10, 200, 30, 1 },
	};
	struct project *p = small_project();
	struct search_params sp = params(1, 1);
	struct search_result res;
	struct error err = { 0 };
	struct search *s;
	char *ba, *bb;
	size_t la, lb;
	int order;

	ba = export_of(a, 6, &la);
	bb = export_of(b, 2, &lb);
	for (order = 0; order < 2; order++) {
		s = search_new(p, &sp, 0);
		assert_int_equal(search_merge(s, order ? bb : ba,
		    order ? lb : la, &err), 0);
		assert_int_equal(search_merge(s, order ? ba : bb,
		    order ? la : lb, &err), 0);
		assert_int_equal(search_result(s, 0, &res), 0);
		assert_int_equal(res.npv, 5);
		assert_int_equal(res.pv[0].action.kind, ACTION_WAIT);
		search_result_free(&res);
		search_free(s);
	}
	free(ba);
	free(bb);
	fx_free(p);
}

/* Merged, two real searches give one worker's plan, step for step. */
static void
test_merge_plan_is_a_workers(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(600, 3);
	struct search_result ra, rb, rm, *want;
	struct error err = { 0 };
	struct search *a, *b, *m;
	struct cm cm;
	char *buf;
	size_t len;
	int i;

	cm_init(&cm, p, CM_NOISE);
	run_two(p, &sp, &cm, &a, &b);
	m = search_new(p, &sp, 0);
	assert_int_equal(search_export(a, &buf, &len), 0);
	assert_int_equal(search_merge(m, buf, len, &err), 0);
	free(buf);
	assert_int_equal(search_export(b, &buf, &len), 0);
	assert_int_equal(search_merge(m, buf, len, &err), 0);
	free(buf);
	search_result(a, 0, &ra);
	search_result(b, 0, &rb);
	search_result(m, 0, &rm);
	want = ra.expected_total >= rb.expected_total ? &ra : &rb;
	assert_int_equal(rm.npv, want->npv);
	for (i = 0; i < rm.npv; i++) {
		assert_true(action_equal(&rm.pv[i].action, &want->pv[i].action));
		assert_int_equal(rm.pv[i].slot, want->pv[i].slot);
	}
	search_result_free(&ra);
	search_result_free(&rb);
	search_result_free(&rm);
	search_free(a);
	search_free(b);
	search_free(m);
	fx_free(p);
}

/* A node whose parent is off the path to the node before it (not
 * preorder, which the merge relies on to add children safely) is
 * refused, and the tree is left as it was. */
static void
test_merge_refuses_out_of_order(void **state)
{
	static const struct xn x[] = {
		{ 0, 0, 0, 0, 20, 150, 0, 0 },
		{ 0, ACTION_POST, 0, 0, 10, 100, 30, 0 },
		{ 0, ACTION_WAIT, 0, 0, 9, 27, 0, 0 },
		{ 1, ACTION_WAIT, 0, 1, 9, 63, 0, 0 },
	};
	struct project *p = small_project();
	struct search_params sp = params(1, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search *s = search_new(p, &sp, 0);
	size_t len;
	char *buf = export_of(x, 4, &len);

	assert_int_equal(search_merge(s, buf, len, &err), -1);
	assert_non_null(strstr(err.msg, "out of order"));
	search_snapshot(s, &snap);
	assert_int_equal(snap.nodes, 1);
	assert_int_equal(snap.iterations, 0);
	free(buf);
	search_free(s);
	fx_free(p);
}

/*
 * A forged chain of a million nodes is deeper than any plan of the
 * project, and refused before it is merged. (The old merge took it, and
 * reading its plan then scanned the plan for every step: hours under the
 * search lock, with the TUI waiting on it.)
 */
static void
test_merge_refuses_deep_chain(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(1, 1);
	struct search_snapshot snap;
	struct search_result res;
	struct error err = { 0 };
	struct search *s = search_new(p, &sp, 0);
	size_t len;
	char *buf = fx_chain_export(1000000, p->horizon_slots, &len);
	int rc;

	rc = search_merge(s, buf, len, &err);
	if (rc == 0) {	/* the old code: show what that costs */
		search_result(s, 0, &res);
		search_result_free(&res);
	}
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "deeper than any plan"));
	search_snapshot(s, &snap);
	assert_int_equal(snap.nodes, 1);
	free(buf);
	search_free(s);
	fx_free(p);
}

/*
 * The deepest chain a project at the horizon limit (100,000 slots)
 * allows merges, and its plan is read step by step in n log n: the
 * plan, an export and snapshots walk all 200,000 steps (the old lookup
 * scanned the plan for each step, some 10^10 comparisons per walk).
 */
static void
test_merge_deepest_chain(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(1, 1);
	struct search_snapshot snap;
	struct search_result res;
	struct error err = { 0 };
	struct search *s;
	uint32_t n;
	size_t len, xlen;
	char *buf, *xbuf;

	p->horizon_slots = 100000;
	s = search_new(p, &sp, 0);
	n = (uint32_t)s->tracecap;
	buf = fx_chain_export(n, p->horizon_slots, &len);
	assert_int_equal(search_merge(s, buf, len, &err), 0);
	assert_int_equal(s->npref, (int)n);
	assert_int_equal(search_result(s, 1, &res), 0);
	assert_int_equal(res.npv, (int)n);
	assert_int_equal(res.nalts, 0);
	search_result_free(&res);
	search_snapshot(s, &snap);
	assert_int_equal(snap.npv, SNAPSHOT_MAX_PV);
	assert_int_equal(search_export(s, &xbuf, &xlen), 0);
	assert_int_equal(xlen, len);
	free(xbuf);
	free(buf);
	search_free(s);
	fx_free(p);
}

/*
 * The tree's shape after children blocks grew and moved (struct node):
 * every node reached once from the root, as many as the tree counts;
 * every child found by its action; the best child (bchild) inside its
 * parent's block and holding bq. Returns the nodes reached.
 */
static uint32_t
assert_blocks_sound(const struct search *s)
{
	uint8_t *seen = xcalloc(s->nnodes, 1);
	uint32_t *stack = xcalloc(s->nnodes + 1, sizeof *stack), top = 0;
	uint32_t ni, ci, n = 0;
	const struct node *nd;

	stack[top++] = 0;
	while (top > 0) {
		ni = stack[--top];
		assert_true(ni < s->nnodes);
		assert_false(seen[ni]);
		seen[ni] = 1;
		n++;
		nd = &s->nodes[ni];
		if (nd->bchild != NIL) {
			assert_true(nd->bchild >= nd->child &&
			    nd->bchild < nd->child + nd->nchild);
			assert_true(s->nodes[nd->bchild].q == nd->bq);
		}
		NODE_FOREACH_CHILD(ci, nd) {
			assert_int_equal(search_find_child(s, ni,
			    &s->nodes[ci].action), ci);
			stack[top++] = ci;
		}
	}
	assert_int_equal(n, s->nlive);
	free(seen);
	free(stack);
	return n;
}

/* Wide nodes (200 drafts x 3 fronts) grow their blocks many times; the
 * tree stays sound, searched and merged, and its arena stays within twice
 * the nodes' own size (freed blocks are reused). */
static void
test_children_blocks(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 6, 3, 200);
	struct search_params sp = params(3000, 1);
	struct search_snapshot snap;
	struct error err = { 0 };
	struct search *a, *b;
	struct cm m;
	char *buf;
	size_t len;
	uint32_t n;

	cm_init(&m, p, CM_NOISE);
	run_two(p, &sp, &m, &a, &b);
	n = assert_blocks_sound(a);
	assert_true(n > 1000);
	search_snapshot(a, &snap);
	assert_int_equal(snap.nodes, n);
	assert_true(snap.arena_bytes <= 2 * 2 * n * sizeof(struct node) +
	    1024 * sizeof(struct node));
	assert_int_equal(search_export(b, &buf, &len), 0);
	assert_int_equal(search_merge(a, buf, len, &err), 0);
	free(buf);
	assert_true(assert_blocks_sound(a) > n);
	search_free(a);
	search_free(b);
	fx_free(p);
}

struct runner {
	struct search	*s;
	struct cm	 m;
	int		 rc;
	struct error	 err;
};

static void *
runner_main(void *arg)
{
	struct runner *r = arg;

	r->rc = search_run(r->s, &cm_ops, &r->m, &r->err);
	return NULL;
}

static void
test_snapshot_while_running_and_cancel(void **state)
{
	struct project *p = small_project();
	struct search_params sp = params(0, 1);
	struct search_snapshot snap;
	struct runner r;
	pthread_t t;
	uint64_t last = 0;
	int polls = 0;

	sp.seconds = 60;
	memset(&r, 0, sizeof r);
	cm_init(&r.m, p, CM_NOISE);
	r.s = search_new(p, &sp, 0);
	assert_int_equal(pthread_create(&t, NULL, runner_main, &r), 0);
	do {
		search_snapshot(r.s, &snap);
		assert_true(snap.iterations >= last);
		last = snap.iterations;
		polls++;
	} while (snap.iterations < 2000);
	search_cancel(r.s);
	pthread_join(t, NULL);
	assert_int_equal(r.rc, 0);
	search_snapshot(r.s, &snap);
	assert_int_equal(snap.state, SEARCH_STOPPED);
	assert_true(snap.npv > 0);
	search_free(r.s);
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_optimum),
		cmocka_unit_test(test_deterministic_best_path),
		cmocka_unit_test(test_illegal_proposals),
		cmocka_unit_test(test_raising_model_fails),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_value_truncates_rollouts),
		cmocka_unit_test(test_progressive_widening),
		cmocka_unit_test(test_rollout_actions),
		cmocka_unit_test(test_plan_covers_horizon),
		cmocka_unit_test(test_polish),
		cmocka_unit_test(test_climb),
		cmocka_unit_test(test_climb_sweep),
		cmocka_unit_test(test_climb_redraws),
		cmocka_unit_test(test_climb_redraw_fails),
		cmocka_unit_test(test_climb_greedy),
		cmocka_unit_test(test_complete_set),
		cmocka_unit_test(test_pins_honoured),
		cmocka_unit_test(test_stop_covers_horizon),
		cmocka_unit_test(test_deterministic_best),
		cmocka_unit_test(test_export_merge),
		cmocka_unit_test(test_export_subtree),
		cmocka_unit_test(test_snapshot_while_running_and_cancel),
		cmocka_unit_test(test_extreme_rewards_fail),
		cmocka_unit_test(test_extreme_rewards_sometimes),
		cmocka_unit_test(test_extreme_values),
		cmocka_unit_test(test_timeout_ends_run),
		cmocka_unit_test(test_merge_refuses_extreme_sums),
		cmocka_unit_test(test_merge_keeps_one_plan),
		cmocka_unit_test(test_merge_prefers_whole_plan),
		cmocka_unit_test(test_merge_plan_is_a_workers),
		cmocka_unit_test(test_merge_refuses_out_of_order),
		cmocka_unit_test(test_merge_refuses_deep_chain),
		cmocka_unit_test(test_merge_deepest_chain),
		cmocka_unit_test(test_children_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
