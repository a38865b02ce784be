/* Unit tests for the backtest: a model written as the process that made
 * the history beats both baselines; an uninformed one does not. */
#include "testutil.h"
#include "fixture_history.h"
#include "core/backtest.h"

static void
backtest(struct project *p, enum fh_kind kind, struct backtest_report *r)
{
	struct backtest_params bp = { .window = 0, .draws = 0, .seed = 1 };
	struct fh_model m = { .p = p, .kind = kind, .rng = 1 };

	assert_int_equal(backtest_run(p, &fh_ops, &m, &bp, r, NULL), 0);
	assert_true(r->ran);
	assert_string_equal(r->error, "");
}

static void
test_true_model_beats_baselines(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;
	int b;

	backtest(p, FH_TRUE, &r);
	assert_int_equal(r.nposts, 60);
	assert_int_equal(r.scored, 60);
	print_message("true model: spearman %.3f mae_log %.3f coverage80 "
	    "%.3f; front_median %.3f, hour_weekday %.3f\n", r.model.spearman,
	    r.model.mae_log, r.model.coverage80,
	    r.base[BASE_FRONT_MEDIAN].mae_log,
	    r.base[BASE_HOUR_WEEKDAY].mae_log);
	assert_true(r.beats_baselines);
	for (b = 0; b < BASE_BUILTIN; b++)
		assert_true(r.model.mae_log < r.base[b].mae_log);
	/* the builtin baseline was not asked for: not measured, and said */
	assert_false(r.builtin_asked);
	assert_true(isnan(r.base[BASE_BUILTIN].mae_log));
	assert_int_equal(r.base[BASE_BUILTIN].why[FIG_MAE_LOG], WHY_NO_BUILTIN);
	assert_true(r.model.spearman >= 0.6);
	assert_true(r.model.coverage80 >= 0.65 && r.model.coverage80 <= 0.95);
	/* the heatmap: Monday 18-21 on front 1 for draft 0 (topic a) */
	assert_non_null(r.grid);
	assert_true(fabs(log(r.grid[BACKTEST_CELLS + 6]) - (fh_front[1] +
	    fh_block[6] + fh_topic[0])) < 0.25);
	backtest_report_free(&r);
	fx_free(p);
}

static void
test_uninformed_model_does_not(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;

	backtest(p, FH_UNINFORMED, &r);
	print_message("uninformed: spearman %.3f mae_log %.3f; front_median "
	    "%.3f\n", r.model.spearman, r.model.mae_log,
	    r.base[BASE_FRONT_MEDIAN].mae_log);
	assert_false(r.beats_baselines);
	assert_true(r.model.mae_log > r.base[BASE_FRONT_MEDIAN].mae_log);
	backtest_report_free(&r);
	fx_free(p);
}

/* Every question's ctx holds exactly the earlier posts, the window's
 * without metrics, and never the post itself. */
static const struct project *ctx_p;
static int ctx_questions;

static int
checking_predict(void *v, const struct predict_query *q, double *draws)
{
	const struct history_post *post;
	int i;

	if (q->post < 0) {
		/* the heatmap: drafts in the project's own ctx */
		assert_null(q->history);
		assert_true(q->draft >= 0 && q->at >= ctx_p->start);
		return fh_predict(v, q, draws);
	}
	post = &ctx_p->history[q->post];
	assert_true(q->history != NULL);
	assert_int_equal(q->at, post->posted_at);
	assert_int_equal(q->known, ctx_p->nhistory - 60);
	assert_int_equal(q->nhistory, q->known + ctx_questions);
	for (i = 0; i < q->nhistory; i++) {
		assert_int_not_equal(q->history[i], q->post);
		assert_true(ctx_p->history[q->history[i]].posted_at <=
		    post->posted_at);
		if (i > 0)
			assert_true(ctx_p->history[q->history[i - 1]].posted_at
			    <= ctx_p->history[q->history[i]].posted_at);
	}
	ctx_questions++;
	return fh_predict(v, q, draws);
}

static void
test_context_rule(void **state)
{
	struct project *p = fh_project(7);
	struct model_ops ops = fh_ops;
	struct fh_model m = { .p = p, .kind = FH_TRUE, .rng = 1 };
	struct backtest_params bp = { .window = 0.2, .draws = 10, .seed = 1 };
	struct backtest_report r;
	uint64_t calls = 0;

	ops.predict = checking_predict;
	ctx_p = p;
	ctx_questions = 0;
	assert_int_equal(backtest_run(p, &ops, &m, &bp, &r, &calls), 0);
	assert_int_equal(ctx_questions, 60);
	assert_int_equal(calls, 600 + 2 * BACKTEST_CELLS * BACKTEST_GRID_DRAWS);
	backtest_report_free(&r);
	fx_free(p);
}

/* A predict slower than the budget ends the backtest with an error that
 * says so (each call here outlasts the whole budget). */
static int
slow_predict(void *v, const struct predict_query *q, double *draws)
{
	double t0 = clock_seconds();

	while (clock_seconds() - t0 < 0.002)
		;
	return fh_predict(v, q, draws);
}

static void
test_slow_predict(void **state)
{
	struct project *p = fh_project(3);
	struct model_ops ops = fh_ops;
	struct fh_model m = { .p = p, .kind = FH_TRUE, .rng = 1 };
	struct backtest_params bp = { .draws = 5, .seed = 1, .seconds = 0.001 };
	struct backtest_report r;

	ops.predict = slow_predict;
	assert_int_equal(backtest_run(p, &ops, &m, &bp, &r, NULL), 0);
	assert_non_null(strstr(r.error, "too slow: 1 of 60 posts"));
	assert_int_equal(r.scored, 1);
	assert_null(r.grid);
	backtest_report_free(&r);
	fx_free(p);
}

/* Baselines by hand, and a window post with an unknown metric is not
 * scored while an earlier one does not feed the baselines. */
static void
test_baselines_and_unknown_metrics(void **state)
{
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 4,
	    1, 1);
	static const char *at[] = { "2026-11-02T10:00:00Z",
	    "2026-11-03T10:00:00Z", "2026-11-04T12:00:00Z",
	    "2026-11-05T10:00:00Z", "2026-11-09T10:30:00Z",
	    "2026-11-10T10:00:00Z" };
	static const double likes[] = { 1, 5, 9, 1000, 4, 6 };
	struct backtest_params bp = { .window = 0.33, .draws = 20, .seed = 1 };
	struct fh_model m = { .p = p, .kind = FH_TRUE, .rng = 1 };
	struct backtest_report r;
	int i;

	for (i = 0; i < 6; i++) {
		fx_history(p, 0, at[i]);
		p->history[i].likes = likes[i];
		p->history[i].metrics_set = 0x1e;
	}
	p->history[3].metrics_set = 0x02;	/* reposts &c unknown */
	p->history[5].metrics_set = 0x06;
	assert_int_equal(backtest_run(p, &fh_ops, &m, &bp, &r, NULL), 0);
	assert_int_equal(r.nposts, 2);
	assert_int_equal(r.posts[0].history, 4);
	assert_true(r.posts[0].scored);
	assert_false(r.posts[1].scored);
	assert_int_equal(r.scored, 1);
	assert_int_equal(r.unscored, 1);
	/* 1, 5, 9: the 1000 of h3 is partial and left out */
	assert_true(r.posts[0].base[BASE_FRONT_MEDIAN] == 5);
	/* Monday 10:00 block: h0 (Monday 10:00) alone, shrunk to 5 */
	assert_true(fabs(r.posts[0].base[BASE_HOUR_WEEKDAY] -
	    expm1((log1p(1) + 3 * log1p(5)) / 4)) < 1e-9);
	backtest_report_free(&r);
	fx_free(p);
}

/* The worker's report read back: figures recomputed, the same. */
static void
test_json_round_trip(void **state)
{
	struct project *p = fh_project(3);
	struct backtest_report r, back;
	struct error err = { 0 };
	cJSON *j, *k;
	const char *keys[] = { "window", "posts", "min_posts", "few",
	    "spearman", "mae_log", "coverage80", "baselines",
	    "beats_baselines", "beats_builtin", "worst" };
	size_t i;

	backtest(p, FH_TRUE, &r);
	j = backtest_json(p, &r, true);
	assert_int_equal(backtest_from_json(p, j, &back, &err), 0);
	assert_true(back.ran);
	assert_int_equal(back.scored, r.scored);
	assert_true(back.model.mae_log == r.model.mae_log);
	assert_true(back.model.spearman == r.model.spearman);
	assert_true(back.beats_baselines == r.beats_baselines);
	backtest_report_free(&back);
	cJSON_Delete(j);
	j = backtest_json(p, &r, false);
	assert_int_equal(cJSON_GetArraySize(j), 11);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		assert_non_null(cJSON_GetObjectItemCaseSensitive(j, keys[i]));
	k = cJSON_GetObjectItemCaseSensitive(j, "worst");
	assert_int_equal(cJSON_GetArraySize(k), BACKTEST_WORST);
	k = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    j, "baselines"), "hour_weekday");
	assert_non_null(cJSON_GetObjectItemCaseSensitive(k, "mae_log"));
	cJSON_Delete(j);
	/* a worker that names another post is refused */
	j = backtest_json(p, &r, true);
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(j, "entries"), 0), "id",
	    cJSON_CreateString("h0-not"));
	assert_int_equal(backtest_from_json(p, j, &back, &err), -1);
	cJSON_Delete(j);
	backtest_report_free(&back);
	backtest_report_free(&r);
	fx_free(p);
}

/* A project whose posts have no counts: every figure is not measured,
 * with its reason, in the text and the JSON; never 0.000 or 0%. */
/* The builtin baseline: another model's draws for the same posts, in
 * the table and the JSON, read back from the worker's report; without a
 * builtin to run, not measured with the reason. */
static void
test_builtin_baseline(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_params bp = { .seed = 1 };
	struct fh_model base = { .p = p, .kind = FH_UNINFORMED, .rng = 1 };
	struct backtest_report r, back;
	struct error err = { 0 };
	char *text, buf[256];
	cJSON *j;

	backtest(p, FH_TRUE, &r);
	backtest_baseline_run(p, &fh_ops, &base, NULL, &bp, &r, NULL);
	assert_true(r.builtin_asked);
	assert_int_equal(r.base[BASE_BUILTIN].n, r.model.n);
	print_message("true model %.3f, builtin (uninformed) %.3f\n",
	    r.model.mae_log, r.base[BASE_BUILTIN].mae_log);
	assert_true(r.beats_builtin);
	text = backtest_text(p, &r);
	assert_non_null(strstr(text, "  builtin "));
	assert_non_null(strstr(text, "it also beats the builtin model"));
	free(text);
	j = backtest_json(p, &r, true);
	assert_int_equal(backtest_from_json(p, j, &back, &err), 0);
	assert_true(back.base[BASE_BUILTIN].mae_log ==
	    r.base[BASE_BUILTIN].mae_log);
	assert_true(back.beats_builtin);
	backtest_report_free(&back);
	cJSON_Delete(j);
	j = backtest_json(p, &r, false);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j,
	    "beats_builtin")));
	assert_non_null(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "baselines"), "builtin"));
	cJSON_Delete(j);
	backtest_report_free(&r);

	/* the builtin could not be loaded: the reason, not a number */
	backtest(p, FH_TRUE, &r);
	backtest_baseline_run(p, &fh_ops, NULL, "it did not load: boom", &bp,
	    &r, NULL);
	assert_true(isnan(r.base[BASE_BUILTIN].mae_log));
	assert_false(r.beats_builtin);
	assert_non_null(strstr(backtest_why(p, &r, &r.base[BASE_BUILTIN],
	    FIG_MAE_LOG, buf, sizeof buf), "boom"));
	text = backtest_text(p, &r);
	assert_non_null(strstr(text, "builtin: not measured (the builtin "
	    "model was not run: it did not load: boom)"));
	free(text);
	j = backtest_json(p, &r, false);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j,
	    "beats_builtin")));
	cJSON_Delete(j);
	backtest_report_free(&r);

	/* the model is the builtin: its own baseline */
	backtest(p, FH_TRUE, &r);
	backtest_baseline_self(&r);
	assert_true(r.builtin_self);
	assert_false(r.beats_builtin);
	text = backtest_text(p, &r);
	assert_non_null(strstr(text, "the model is the builtin model"));
	free(text);
	backtest_report_free(&r);
	fx_free(p);
}

static void
test_no_counts_not_measured(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;
	cJSON *j, *why;
	char *text;
	int i, f;

	for (i = 0; i < p->nhistory; i++)
		p->history[i].metrics_set = 0;
	objective_derive(p);
	backtest(p, FH_TRUE, &r);
	assert_int_equal(r.scored, 0);
	assert_int_equal(r.model.n, 0);
	assert_true(isnan(r.model.spearman) && isnan(r.model.mae_log) &&
	    isnan(r.model.coverage80));
	assert_false(r.beats_baselines);
	text = backtest_text(p, &r);
	print_message("%s", text);
	assert_non_null(strstr(text, "not measured"));
	assert_non_null(strstr(text, "can be scored"));
	assert_null(strstr(text, "0.000"));
	assert_null(strstr(text, " 0%"));
	free(text);
	j = backtest_json(p, &r, false);
	for (f = 0; f < FIG_COUNT; f++) {
		assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j,
		    backtest_figure_names[f])));
		why = cJSON_GetObjectItemCaseSensitive(j, "not_measured");
		assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(why,
		    backtest_figure_names[f])));
	}
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j,
	    "beats_baselines")));
	cJSON_Delete(j);
	backtest_report_free(&r);
	fx_free(p);
}

/* Two scored posts: mae_log and coverage80 are measured but marked as
 * resting on too few; spearman needs three. */
static void
test_few_posts(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;
	char *text;
	int i;

	backtest(p, FH_TRUE, &r);
	for (i = 2; i < r.nposts; i++)
		p->history[r.posts[i].history].metrics_set = 0;
	backtest_report_free(&r);
	backtest(p, FH_TRUE, &r);
	assert_int_equal(r.model.n, 2);
	assert_true(backtest_few(&r.model));
	assert_true(isnan(r.model.spearman));
	assert_int_equal(r.model.why[FIG_SPEARMAN], WHY_FEW_RANKS);
	assert_false(isnan(r.model.mae_log));
	text = backtest_text(p, &r);
	assert_non_null(strstr(text, "rests on 2 posts, fewer than 10"));
	assert_non_null(strstr(text, "needs 3 scored posts"));
	free(text);
	backtest_report_free(&r);
	fx_free(p);
}

/* Without an objective each front is scored on the interactions its
 * history gives: an X archive's likes and reposts, while a front
 * without counts weighs every interaction and scores nothing. */
static void
test_default_objective_per_front(void **state)
{
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 4,
	    2, 1);
	char *ids[] = { "h0", "h1", "h2", "h3" };
	char buf[256];
	double rew;
	int i;

	for (i = 0; i < 4; i++) {
		fx_history(p, i < 3 ? 0 : 1, "2026-11-02T10:00:00Z");
		p->history[i].likes = 10;
		p->history[i].reposts = 2;
		p->history[i].replies = 1;
	}
	p->history[0].metrics_set = 0x06;	/* likes, reposts: archive */
	p->history[1].metrics_set = 0x0f;	/* a pull: + replies, impr. */
	p->history[2].metrics_set = 0;		/* no counts */
	p->history[3].metrics_set = 0;
	objective_derive(p);
	assert_true(objective_front(p, 0)->derived);
	assert_true(objective_front(p, 0)->weight[METRIC_LIKES] == 1);
	assert_true(objective_front(p, 0)->weight[METRIC_REPOSTS] == 1);
	assert_true(objective_front(p, 0)->weight[METRIC_REPLIES] == 0);
	assert_true(objective_front(p, 0)->weight[METRIC_CLICKS] == 0);
	assert_true(objective_front(p, 0)->weight[METRIC_IMPRESSIONS] == 0);
	assert_false(objective_front(p, 1)->derived);
	assert_true(objective_post_reward(p, &p->history[1], &rew));
	assert_true(rew == 12);
	assert_int_equal(objective_scorable_count(p, ids, 4), 2);
	objective_describe(p, buf, sizeof buf);
	assert_string_equal(buf, "default, what history gives: "
	    "f0: likes + reposts; f1: no counts yet");
	/* the project-wide one (ctx["objective"]): the union */
	assert_true(objective_of(p)->weight[METRIC_REPLIES] == 0);
	assert_true(objective_of(p)->weight[METRIC_LIKES] == 1);
	/* the same on every front: said once */
	p->history[3].metrics_set = 0x06;
	objective_derive(p);
	objective_describe(p, buf, sizeof buf);
	assert_string_equal(buf, "default, what history gives: "
	    "likes + reposts on every front");
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true_model_beats_baselines),
		cmocka_unit_test(test_uninformed_model_does_not),
		cmocka_unit_test(test_context_rule),
		cmocka_unit_test(test_slow_predict),
		cmocka_unit_test(test_baselines_and_unknown_metrics),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_builtin_baseline),
		cmocka_unit_test(test_no_counts_not_measured),
		cmocka_unit_test(test_few_posts),
		cmocka_unit_test(test_default_objective_per_front),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
