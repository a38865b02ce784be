/* The builtin world model (sandbox/builtin.h): it passes the gate and
 * every conformance check on the demo and on a project with no history,
 * beats both baselines of the backtest on the demo, conforms on the empty
 * project, is fitted from the
 * history (other history, other predictions), and is measured as the
 * backtest's third baseline of another model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/project.h"
#include "runs/conform.h"
#include "sandbox/builtin.h"
#include "sandbox/gate.h"
#include "sandbox/pyhost.h"
#include "sandbox/wmodel.h"

static struct project *
load(const char *dir)
{
	struct error err = { 0 };
	struct project *p;

	if (project_load(dir, &p, &err) != 0)
		fail_msg("%s: %s", dir, err.msg);
	return p;
}

static void
validate(const struct project *p, const char *src, size_t len,
    struct validate_report *r)
{
	struct validate_params vp = { .rollouts = 5, .seed = 1, .draws = 20 };
	struct error err = { 0 };

	if (conform_validate_thread(p, src, len, 0, &vp, r, &err) != 0)
		fail_msg("%s", err.msg);
}

static void
test_gate_accepts(void **state)
{
	struct gate_result g;
	struct error err = { 0 };
	size_t n;
	const char *src = builtin_source(&n);

	assert_int_equal(gate_check_source(src, n, &g, &err), 0);
	assert_true(g.accepted);
	gate_result_free(&g);
	assert_true(builtin_is(src, n));
	assert_false(builtin_is(src, n - 1));
}

/* On the demo: conforming, and better than both baselines from history;
 * the model under test is the builtin, so it is its own third baseline. */
static void
test_demo_beats_baselines(void **state)
{
	struct project *p = load("fixtures/demo");
	struct validate_report r;
	const struct backtest_report *b = &r.backtest;
	size_t n;
	const char *src = builtin_source(&n);

	validate(p, src, n, &r);
	print_message("builtin on the demo: mae_log %.3f, front_median %.3f, "
	    "hour_weekday %.3f, coverage80 %.2f\n", b->model.mae_log,
	    b->base[BASE_FRONT_MEDIAN].mae_log,
	    b->base[BASE_HOUR_WEEKDAY].mae_log, b->model.coverage80);
	assert_true(r.conformant);
	assert_true(b->ran);
	assert_string_equal(b->error, "");
	assert_true(b->model.n > 0);
	assert_true(b->beats_baselines);
	assert_true(b->builtin_self);
	assert_false(b->beats_builtin);
	assert_true(b->base[BASE_BUILTIN].mae_log == b->model.mae_log);
	validate_report_free(&r);
	project_free(p);
}

/* On the empty project of `fronts init --empty` (no drafts, no history)
 * it loads and conforms; loading a model with no drafts read through a
 * NULL array before (UBSan: member access within null pointer). */
static void
test_empty_project(void **state)
{
	struct project *p = load("fixtures/empty");
	struct validate_report r;
	size_t n;
	const char *src = builtin_source(&n);

	assert_int_equal(p->ndrafts, 0);
	assert_int_equal(p->nhistory, 0);
	validate(p, src, n, &r);
	assert_true(r.conformant);
	assert_int_equal(r.backtest.nposts, 0);
	validate_report_free(&r);
	project_free(p);
}

/* Another model is measured against the builtin: every window post gets
 * the builtin's draws, and the figures come out. */
static void
test_third_baseline(void **state)
{
	struct project *p = load("fixtures/demo");
	struct validate_report r;
	const struct backtest_report *b = &r.backtest;
	struct error err = { 0 };
	char *src;
	size_t len;
	int i;

	if (file_read("fixtures/demo/model.py", &src, &len, &err) != 0)
		fail_msg("%s", err.msg);
	validate(p, src, len, &r);
	assert_true(b->builtin_asked);
	assert_false(b->builtin_self);
	assert_string_equal(b->builtin_error, "");
	for (i = 0; i < b->nposts; i++)
		assert_true(b->posts[i].builtin);
	assert_int_equal(b->base[BASE_BUILTIN].n, b->model.n);
	assert_false(isnan(b->base[BASE_BUILTIN].mae_log));
	assert_true(b->beats_builtin == (b->beats_baselines &&
	    b->model.mae_log < b->base[BASE_BUILTIN].mae_log));
	validate_report_free(&r);
	free(src);
	project_free(p);
}

/* Fitted from history: the same post is predicted differently when the
 * history says its front earns ten times as much. */
static void
test_fitted_from_history(void **state)
{
	struct project *p = load("fixtures/demo");
	struct error err = { 0 };
	struct wmodel *m;
	struct predict_query q;
	double a[64], b[64], ma = 0, mb = 0;
	size_t n;
	const char *src = builtin_source(&n);
	struct history_post *h;
	int i;

	memset(&q, 0, sizeof q);
	q.post = p->nhistory - 1;
	q.draft = q.front = -1;
	q.at = p->history[q.post].posted_at;
	q.seed = 3;
	q.ndraws = 64;
	if (wmodel_load(p, src, n, 5000, &m, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(wmodel_ops.predict(m, &q, a), MODEL_OK);
	wmodel_free(m);
	for (i = 0; i < p->nhistory; i++) {
		h = &p->history[i];
		if (h->front != p->history[q.post].front)
			continue;
		h->likes *= 10;
		h->reposts *= 10;
		h->replies *= 10;
		h->clicks *= 10;
	}
	if (wmodel_load(p, src, n, 5000, &m, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(wmodel_ops.predict(m, &q, b), MODEL_OK);
	wmodel_free(m);
	for (i = 0; i < 64; i++) {
		ma += a[i] / 64;
		mb += b[i] / 64;
	}
	print_message("mean prediction %.1f, with ten times the history %.1f\n",
	    ma, mb);
	assert_true(mb > 4 * ma);
	project_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate_accepts),
		cmocka_unit_test(test_demo_beats_baselines),
		cmocka_unit_test(test_empty_project),
		cmocka_unit_test(test_third_baseline),
		cmocka_unit_test(test_fitted_from_history),
	};
	struct error err = { 0 };

	if (pyhost_init(&err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
