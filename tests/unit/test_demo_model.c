/* The bundled demo's world model runs under the real sandbox (gate,
 * restricted namespace, guard): rollouts raise nothing, propose nothing
 * illegal, earn positive reward, and repeat under one seed; it offers
 * the thread a front's variant makes of a draft and keeps a draft inside
 * its window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/project.h"
#include "sandbox/pyhost.h"
#include "core/rollout.h"
#include "sandbox/wmodel.h"

static struct project *demo;
static struct wmodel *model;

static int
setup(void **state)
{
	struct error err = { 0 };
	char *src = NULL;
	size_t len;

	if (project_load("fixtures/demo", &demo, &err) != 0 ||
	    pyhost_init(&err) != 0 ||
	    file_read("fixtures/demo/model.py", &src, &len, &err) != 0 ||
	    wmodel_load(demo, src, len, 5000, &model, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		free(src);
		return -1;
	}
	free(src);
	return 0;
}

static int
teardown(void **state)
{
	wmodel_free(model);
	project_free(demo);
	return 0;
}

static void
run(uint64_t seed, uint64_t n, struct rollout_stats *st)
{
	struct rollout_params rp = { n, 0, seed };
	struct error err = { 0 };

	memset(st, 0, sizeof *st);
	if (rollout_run(demo, &wmodel_ops, model, &rp, NULL, NULL, 1.0, st,
	    &err) != 0)
		fail_msg("%s", err.msg);
}

static void
test_rollouts(void **state)
{
	struct rollout_stats st;

	run(1, 20, &st);
	print_message("%llu rollouts, %llu model calls, %.0f calls/s, "
	    "mean return %.1f\n", (unsigned long long)st.rollouts,
	    (unsigned long long)st.model_calls,
	    st.model_calls / (st.seconds > 0 ? st.seconds : 1), st.mean_return);
	assert_int_equal(st.rollouts, 20);
	assert_int_equal(st.illegal_proposals, 0);
	assert_true(st.posts > 0);
	assert_true(st.mean_return > 0);
	/* Every rollout reaches the horizon: at least one step per slot. */
	assert_true(st.steps >= 20 * (uint64_t)demo->horizon_slots);
}

static void
test_seeded_runs_repeat(void **state)
{
	struct rollout_stats a, b, c;

	run(7, 5, &a);
	run(7, 5, &b);
	run(8, 5, &c);
	assert_true(a.mean_return == b.mean_return);
	assert_int_equal(a.posts, b.posts);
	assert_true(a.mean_return != c.mean_return);
}

/* Walks the horizon with waits only; offered[d][f] is the last slot
 * legal_actions offered draft d on front f at, -1 if none. */
static void
walk(int offered[][8])
{
	struct action acts[512];
	model_state *s, *next;
	double r;
	int i, k, n, illegal;

	for (i = 0; i < demo->ndrafts; i++)
		for (k = 0; k < 8; k++)
			offered[i][k] = -1;
	assert_true(demo->nfronts <= 8);
	assert_int_equal(wmodel_ops.initial_state(model, &s), MODEL_OK);
	for (k = 0; k < demo->horizon_slots; k++) {
		assert_int_equal(wmodel_ops.legal_actions(model, s, acts, 512, &n,
		    &illegal), MODEL_OK);
		assert_int_equal(illegal, 0);
		for (i = 0; i < n; i++)
			if (acts[i].kind == ACTION_POST)
				offered[acts[i].draft][acts[i].front] = k;
		acts[0] = (struct action){ .kind = ACTION_WAIT };
		assert_int_equal(wmodel_ops.apply(model, s, &acts[0], &next, &r),
		    MODEL_OK);
		wmodel_ops.state_free(model, s);
		s = next;
	}
	wmodel_ops.state_free(model, s);
}

/* d18 is too long for one Bluesky post; its Bluesky variant is a thread
 * of three parts that each fit, so the model offers it there. */
static void
test_variant_thread_offered(void **state)
{
	int offered[64][8];
	int d = project_draft_index(demo, "d18");

	assert_true(demo->ndrafts <= 64 && d >= 0);
	walk(offered);
	assert_true(offered[d][project_front_index(demo, "bluesky")] >= 0);
	assert_true(offered[d][project_front_index(demo, "mastodon")] >= 0);
}

/* d10's not_after falls inside the horizon: no front is offered it at a
 * slot after it, and some front is at a slot before. */
static void
test_window_kept(void **state)
{
	int offered[64][8];
	int d = project_draft_index(demo, "d10"), f, last, seen = 0;

	assert_true(d >= 0 && demo->drafts[d].has_not_after);
	last = (int)((demo->drafts[d].not_after - demo->start) /
	    (60 * demo->slot_minutes));
	assert_true(last > 0 && last < demo->horizon_slots - 1);
	walk(offered);
	for (f = 0; f < demo->nfronts; f++) {
		assert_true(offered[d][f] <= last);
		seen |= offered[d][f] >= 0;
	}
	assert_true(seen);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollouts),
		cmocka_unit_test(test_seeded_runs_repeat),
		cmocka_unit_test(test_variant_thread_offered),
		cmocka_unit_test(test_window_kept),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
