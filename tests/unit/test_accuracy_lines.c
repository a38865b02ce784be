/* Unit tests for the accuracy view's lines: figures, scatter and
 * heatmaps from a backtest of the known-process fixture. */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture_history.h"
#include "core/backtest.h"
#include "core/validate.h"
#include "runs/accuracy.h"
#include "ui/accuracy_lines.h"

static bool
has(const struct acc_lines *l, const char *needle)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (strstr(l->line[i], needle) != NULL)
			return true;
	return false;
}

static void
run(struct project *p, enum fh_kind kind, struct backtest_report *r)
{
	struct backtest_params bp = { .seed = 1 };
	struct fh_model m = { .p = p, .kind = kind, .rng = 1 };

	assert_int_equal(backtest_run(p, &fh_ops, &m, &bp, r, NULL), 0);
}

static void
test_lines(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;
	struct acc_lines l;
	char sum[256];
	int i, rows = 0;

	run(p, FH_TRUE, &r);
	accuracy_lines(p, &r, 40, 10, &l);
	if (getenv("SHOW") != NULL)
		for (i = 0; i < l.n; i++)
			printf("%s\n", l.line[i]);
	assert_true(has(&l, "front_median"));
	assert_true(has(&l, "hour_weekday"));
	assert_true(has(&l, "beats both baselines"));
	assert_true(has(&l, "reward = likes + reposts + replies + clicks"));
	/* ten scatter rows, each 40 cells after the axis */
	for (i = 0; i < l.n; i++)
		if (strstr(l.line[i], "▕") != NULL)
			rows++;
	assert_int_equal(rows, 10);
	/* a heatmap per front, history beside the model */
	assert_true(has(&l, "f0"));
	assert_true(has(&l, "f1"));
	assert_true(has(&l, "  Sun   "));
	/* a legend for every shading, the axes' units, the objective */
	assert_true(has(&l, "shade: backtest posts in a cell"));
	assert_true(has(&l, "in the objective's units, log scale"));
	assert_true(has(&l, "predicted (objective units)"));
	assert_true(has(&l, "reward = likes + reposts + replies + clicks per "
	    "post; shade ░"));
	assert_true(has(&l, "x: local hour (3-hour blocks), y: weekday"));
	/* only block elements and the middle dot draw */
	for (i = 0; i < l.n; i++)
		assert_null(strstr(l.line[i], "─"));
	accuracy_summary(&r, sum, sizeof sum);
	assert_non_null(strstr(sum, "beats both baselines"));
	/* no builtin asked for: no row for it */
	assert_false(has(&l, "builtin"));
	accuracy_lines_free(&l);
	backtest_report_free(&r);
	fx_free(p);
}

/* The builtin model as the third baseline: its row, the verdict, the
 * figure in the summary. */
static void
test_builtin_row(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_params bp = { .seed = 1 };
	struct fh_model base = { .p = p, .kind = FH_UNINFORMED, .rng = 1 };
	struct backtest_report r;
	struct acc_lines l;
	char sum[512];

	run(p, FH_TRUE, &r);
	backtest_baseline_run(p, &fh_ops, &base, NULL, &bp, &r, NULL);
	accuracy_lines(p, &r, 40, 10, &l);
	assert_true(has(&l, "  builtin "));
	assert_true(has(&l, "it also beats the builtin model"));
	accuracy_summary(&r, sum, sizeof sum);
	assert_non_null(strstr(sum, "builtin 0."));
	assert_non_null(strstr(sum, "and the builtin"));
	accuracy_lines_free(&l);
	backtest_report_free(&r);
	fx_free(p);
}

/* Posts fronts published are marked in the scatter with their own glyph
 * and legend, under the live figures; without them the live error is
 * not measured. */
static void
test_live_marks(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;
	struct acc_lines l;
	double obs;
	int i, marked = 0, live = 0;

	run(p, FH_TRUE, &r);
	accuracy_lines(p, &r, 40, 10, &l);
	assert_true(has(&l, "live: not measured: no post fronts published"));
	assert_false(has(&l, "◆"));
	accuracy_lines_free(&l);
	for (i = p->nhistory - 1; i >= 0 && live < 5; i--) {
		if (!objective_post_reward(p, &p->history[i], &obs))
			continue;
		p->history[i].has_predicted = true;
		p->history[i].predicted = obs * 1.2;
		p->history[i].predicted_sd = obs * 0.5;
		live++;
	}
	accuracy_lines(p, &r, 40, 10, &l);
	assert_true(has(&l, "live: 5 posts · mae_log "));
	assert_true(has(&l, "◆ live: a post fronts published"));
	for (i = 0; i < l.n; i++)
		if (strstr(l.line[i], "▕") != NULL &&
		    strstr(l.line[i], "◆") != NULL)
			marked++;
	assert_true(marked >= 1);
	accuracy_lines_free(&l);
	backtest_report_free(&r);
	fx_free(p);
}

/* No post with counts: the view says "not measured" and why, draws no
 * scatter, and shows no 0.000 or 0%. */
static void
test_not_measured(void **state)
{
	struct project *p = fh_project(1);
	struct backtest_report r;
	struct acc_lines l;
	char sum[256];
	int i;

	for (i = 0; i < p->nhistory; i++)
		p->history[i].metrics_set = 0;
	objective_derive(p);
	run(p, FH_TRUE, &r);
	accuracy_lines(p, &r, 40, 10, &l);
	assert_true(has(&l, "not measured: none of the"));
	assert_true(has(&l, "scatter: not measured"));
	assert_true(has(&l, "f0: no counts yet"));
	assert_false(has(&l, "0.000"));
	assert_false(has(&l, " 0%"));
	accuracy_summary(&r, sum, sizeof sum);
	assert_non_null(strstr(sum, "not measured"));
	accuracy_lines_free(&l);
	backtest_report_free(&r);
	fx_free(p);
}

static void
test_without_predict(void **state)
{
	struct project *p = fh_project(1);
	struct model_ops ops = fh_ops;
	struct fh_model m = { .p = p, .kind = FH_TRUE, .rng = 1 };
	struct backtest_report r;
	struct acc_lines l;
	char sum[256];

	ops.has_predict = fh_no;
	assert_int_equal(backtest_run(p, &ops, &m, NULL, &r, NULL), 0);
	accuracy_lines(p, &r, 0, 0, &l);
	assert_true(has(&l, "defines no predict()"));
	assert_true(has(&l, "model: none"));
	accuracy_summary(&r, sum, sizeof sum);
	assert_non_null(strstr(sum, "none"));
	accuracy_lines_free(&l);
	backtest_report_free(&r);
	fx_free(p);
}

/* The Model pane's figures for unapproved bytes come from the newest
 * synthesis report that validated them, recomputed here. */
static void
test_from_synth_report(void **state)
{
	struct project *p = fh_project(1);
	struct validate_params vp = { .rollouts = 2, .draws = 30, .seed = 1 };
	struct fh_model m = { .p = p, .kind = FH_TRUE, .rng = 1 };
	struct validate_report r, back;
	struct error err = { 0 };
	char dir[] = "/tmp/fronts-acc-XXXXXX", *fd, *path, *text, src[64];
	cJSON *rep, *cands, *c;

	assert_non_null(mkdtemp(dir));
	free(p->dir);
	p->dir = xstrdup(dir);
	fd = path_join(dir, ".fronts");
	assert_int_equal(mkdir(fd, 0700), 0);
	assert_int_equal(validate_run(p, &fh_ops, &m, NULL, &vp, &r, &err), 0);
	rep = cJSON_CreateObject();
	cands = cJSON_AddArrayToObject(rep, "candidates");
	c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "sha256", "abc");
	cJSON_AddItemToObject(c, "validation", validate_report_json(p, &r));
	cJSON_AddItemToArray(cands, c);
	text = cJSON_PrintUnformatted(rep);
	path = path_join(fd, "synth-20261130T100000Z.json");
	assert_int_equal(file_write_atomic(path, text, strlen(text), &err), 0);
	free(path);
	path = path_join(fd, "synth-20261201T100000Z.json");
	assert_int_equal(file_write_atomic(path, "{\"candidates\": []}", 17,
	    &err), 0);
	assert_int_equal(accuracy_from_synth(p, "abc", &back, src, sizeof src),
	    0);
	assert_string_equal(src, "synth-20261130T100000Z.json");
	assert_true(back.backtest.ran);
	assert_true(back.backtest.model.mae_log == r.backtest.model.mae_log);
	assert_non_null(back.backtest.grid);
	validate_report_free(&back);
	assert_int_equal(accuracy_from_synth(p, "abd", &back, src, sizeof src),
	    -1);
	unlink(path);
	free(path);
	path = path_join(fd, "synth-20261130T100000Z.json");
	unlink(path);
	free(path);
	rmdir(fd);
	rmdir(dir);
	free(fd);
	free(text);
	cJSON_Delete(rep);
	validate_report_free(&r);
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_live_marks),
		cmocka_unit_test(test_builtin_row),
		cmocka_unit_test(test_not_measured),
		cmocka_unit_test(test_without_predict),
		cmocka_unit_test(test_from_synth_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
