/* Unit tests for model validation against world models written in C. */
#include "testutil.h"
#include "fixture_project.h"
#include "fixture_model.h"
#include "fixture_history.h"
#include "core/validate.h"

static struct project *
vproject(void)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T08:00:00Z", 60, 24, 2, 3);

	p->fronts[0].limits.min_gap_minutes = 60;
	fx_history(p, 0, "2026-11-24T10:00:00+01:00");
	fx_history(p, 1, "2026-11-25T15:00:00+01:00");
	p->history[0].likes = 10;
	p->history[1].likes = 3;
	p->history[1].replies = 1;
	return p;
}

static const struct validate_check *
find(const struct validate_report *r, const char *name)
{
	int i;

	for (i = 0; i < r->nchecks; i++)
		if (strcmp(r->checks[i].name, name) == 0)
			return &r->checks[i];
	fail_msg("no check %s", name);
	return NULL;
}

/* Validates a C model of these flags; proposals is the rollouts' budget
 * of actions read (0: the default). */
static void
run_budget(struct project *p, int flags, const struct validate_hooks *h,
    uint64_t proposals, struct validate_report *r)
{
	struct validate_params vp = { .rollouts = 5, .draws = 10, .seed = 1,
	    .proposals = proposals };
	struct error err = { 0 };
	struct cm m;

	cm_init(&m, p, flags);
	m.raise_rate = 1.0;
	assert_int_equal(validate_run(p, &cm_ops, &m, h, &vp, r, &err), 0);
	assert_true(r->model_calls > 0);
}

static void
run(struct project *p, int flags, const struct validate_hooks *h,
    struct validate_report *r)
{
	run_budget(p, flags, h, 0, r);
}

static void
test_conformant(void **state)
{
	struct project *p = vproject();
	struct validate_report r, back;
	struct error err = { 0 };
	cJSON *j;
	char *text;
	int i;

	run(p, CM_NOISE | CM_VALUE, NULL, &r);
	assert_true(r.conformant);
	for (i = 0; i < r.nchecks; i++)
		assert_int_not_equal(r.checks[i].status, VALIDATE_FAIL);
	assert_int_equal(find(&r, "value")->status, VALIDATE_PASS);
	/* no predict(): the agreement is skipped, the backtest not run */
	assert_int_equal(find(&r, "predict-agrees-with-apply")->status,
	    VALIDATE_SKIP);
	assert_false(r.backtest.ran);
	assert_int_equal(r.backtest.nposts, 1);	/* the newest of two */
	assert_int_equal(r.backtest.posts[0].history, 1);
	j = validate_report_json(p, &r);
	assert_int_equal(validate_report_from_json(p, j, &back, &err), 0);
	assert_true(back.conformant);
	assert_int_equal(back.nchecks, r.nchecks);
	assert_false(back.backtest.ran);
	assert_int_equal(back.backtest.nposts, 1);
	text = validate_report_text(p, &r);
	assert_non_null(strstr(text, "conformance: ok"));
	assert_non_null(strstr(text, "defines no predict()"));
	free(text);
	cJSON_Delete(j);
	validate_report_free(&back);
	validate_report_free(&r);
	fx_free(p);
}

/*
 * A report from the worker holds as many checks as the worker sends: its
 * text is linear in them (the old one re-copied itself for each, some
 * 10^12 bytes for these 100,000).
 */
static void
test_many_checks_text(void **state)
{
	struct project *p = vproject();
	struct validate_report r, back;
	struct error err = { 0 };
	cJSON *j, *checks, *c;
	char *text, msg[101];
	int i, n = 100000, lines = 0;

	run(p, CM_NOISE | CM_VALUE, NULL, &r);
	j = validate_report_json(p, &r);
	checks = cJSON_GetObjectItemCaseSensitive(j, "checks");
	memset(msg, 'm', 100);
	msg[100] = '\0';
	for (i = 0; i < n; i++) {
		c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "name", "forged");
		cJSON_AddStringToObject(c, "status", "fail");
		cJSON_AddStringToObject(c, "message", msg);
		cJSON_AddItemToArray(checks, c);
	}
	assert_int_equal(validate_report_from_json(p, j, &back, &err), 0);
	assert_int_equal(back.nchecks, r.nchecks + n);
	text = validate_report_text(p, &back);
	for (i = 0; text[i] != '\0'; i++)
		lines += strncmp(text + i, "fail forged ", 12) == 0 &&
		    (i == 0 || text[i - 1] == '\n');
	assert_int_equal(lines, n);
	assert_non_null(strstr(text, "conformance: "));
	free(text);
	cJSON_Delete(j);
	validate_report_free(&back);
	validate_report_free(&r);
	fx_free(p);
}

/*
 * Past its budget of actions read, the check stops after two rollouts and
 * says so (a big project's twenty took minutes); the checks still ran.
 */
static void
test_rollout_budget(void **state)
{
	struct project *p = vproject();
	struct validate_report all, cut;
	const struct validate_check *c;

	run(p, CM_NOISE | CM_VALUE, NULL, &all);
	assert_string_equal(find(&all, "random-rollouts")->message, "");
	run_budget(p, CM_NOISE | CM_VALUE, NULL, 1, &cut);
	assert_true(cut.conformant);
	c = find(&cut, "random-rollouts");
	assert_int_equal(c->status, VALIDATE_PASS);
	assert_non_null(strstr(c->message, "2 of 5 rollouts"));
	assert_non_null(strstr(c->message, "budget of 1"));
	assert_true(cut.model_calls < all.model_calls);
	validate_report_free(&cut);
	validate_report_free(&all);
	fx_free(p);
}

/* Cut to two rollouts, the checks still catch a model that breaks them. */
static void
test_rollout_budget_still_checks(void **state)
{
	struct project *p = vproject();
	struct validate_report r;

	run_budget(p, CM_UNSEEDED, NULL, 1, &r);
	assert_false(r.conformant);
	assert_int_equal(find(&r, "seeded-runs-repeat")->status,
	    VALIDATE_FAIL);
	validate_report_free(&r);
	fx_free(p);
}

/* Two calls on one state that differ fail the determinism check; the
 * rollouts go on with the second list. */
static void
test_legal_not_deterministic(void **state)
{
	struct project *p = vproject();
	struct validate_report r;
	const struct validate_check *c;

	run(p, CM_SHUFFLE, NULL, &r);
	assert_false(r.conformant);
	c = find(&r, "legal-actions-deterministic");
	assert_int_equal(c->status, VALIDATE_FAIL);
	assert_non_null(strstr(c->message, "different lists"));
	assert_int_equal(find(&r, "random-rollouts")->status, VALIDATE_PASS);
	validate_report_free(&r);
	fx_free(p);
}

static void
test_mutating_apply(void **state)
{
	struct project *p = vproject();
	const char *src = "x = 1\n\ndef apply(state, action, rng):\n"
	    "    return state, 0\n";
	struct validate_hooks h = { NULL, NULL, src, 0 };
	struct validate_report r;
	const struct validate_check *c;

	h.source_len = strlen(src);
	run(p, CM_MUTATE, &h, &r);
	assert_false(r.conformant);
	c = find(&r, "apply-does-not-mutate");
	assert_int_equal(c->status, VALIDATE_FAIL);
	assert_string_equal(c->function, "apply");
	assert_int_equal(c->line, 3);
	validate_report_free(&r);
	fx_free(p);
}

static void
test_unseeded(void **state)
{
	struct project *p = vproject();
	struct validate_report r;

	run(p, CM_UNSEEDED, NULL, &r);
	assert_false(r.conformant);
	assert_int_equal(find(&r, "seeded-runs-repeat")->status,
	    VALIDATE_FAIL);
	validate_report_free(&r);
	fx_free(p);
}

static void
test_raising(void **state)
{
	struct project *p = vproject();
	struct validate_report r;
	const struct validate_check *c;

	run(p, CM_RAISE, NULL, &r);
	assert_false(r.conformant);
	c = find(&r, "sample-hidden");
	assert_int_equal(c->status, VALIDATE_FAIL);
	assert_string_equal(c->function, "sample_hidden");
	assert_int_equal(c->line, 7);
	assert_non_null(strstr(c->message, "ValueError: boom"));
	assert_int_equal(r.backtest.scored, 0);
	validate_report_free(&r);
	fx_free(p);
}

static void
test_missing_function(void **state)
{
	struct project *p = vproject();
	const char *src = "def initial_state(ctx):\n    return 0\n"
	    "def legal_actions(s):\n    return []\n";
	struct validate_hooks h = { NULL, NULL, src, 0 };
	struct validate_report r;
	const struct validate_check *c;

	h.source_len = strlen(src);
	run(p, 0, &h, &r);
	c = find(&r, "functions-exist");
	assert_int_equal(c->status, VALIDATE_FAIL);
	assert_string_equal(c->function, "apply");
	validate_report_free(&r);
	fx_free(p);
}

/* The model written as the history's process agrees with itself; one
 * whose apply is three times its predict does not. */
static void
test_predict_agrees_with_apply(void **state)
{
	struct project *p = fh_project(5);
	struct validate_params vp = { .rollouts = 3, .draws = 20, .seed = 1 };
	struct fh_model m = { .p = p, .kind = FH_TRUE, .rng = 1 };
	struct validate_report r;
	struct error err = { 0 };
	const struct validate_check *c;

	assert_int_equal(validate_run(p, &fh_ops, &m, NULL, &vp, &r, &err), 0);
	c = find(&r, "predict-agrees-with-apply");
	if (c->status != VALIDATE_PASS)
		fail_msg("%s", c->message);
	assert_true(r.backtest.ran);
	validate_report_free(&r);
	m.kind = FH_DISAGREE;
	assert_int_equal(validate_run(p, &fh_ops, &m, NULL, &vp, &r, &err), 0);
	c = find(&r, "predict-agrees-with-apply");
	assert_int_equal(c->status, VALIDATE_FAIL);
	assert_string_equal(c->function, "predict");
	assert_non_null(strstr(c->message, "disagree"));
	assert_false(r.conformant);
	validate_report_free(&r);
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conformant),
		cmocka_unit_test(test_many_checks_text),
		cmocka_unit_test(test_rollout_budget),
		cmocka_unit_test(test_rollout_budget_still_checks),
		cmocka_unit_test(test_legal_not_deterministic),
		cmocka_unit_test(test_mutating_apply),
		cmocka_unit_test(test_unseeded),
		cmocka_unit_test(test_raising),
		cmocka_unit_test(test_missing_function),
		cmocka_unit_test(test_predict_agrees_with_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
