/* The bundled demo's world model runs under the real sandbox (gate,
 * restricted namespace, guard): rollouts raise nothing, propose nothing
 * illegal, earn positive reward, and repeat under one seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/project.h"
#include "sandbox/pyhost.h"
#include "sandbox/rollout.h"
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollouts),
		cmocka_unit_test(test_seeded_runs_repeat),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
