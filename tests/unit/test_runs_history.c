/* Unit tests for runs/history_pull.c's step after a platform answered
 * (history_pull_merge) and runs/history_apply.c's merge, on a project
 * from tests/cli/publish_fixture.py with a ledger written by hand and a
 * pull result built in memory (no server): a post fronts sent becomes the
 * history line of its ledger entry with the plan's prediction beside it,
 * a post fronts did not send is added under an id of its own, a sent
 * post the platform no longer returns is named missing and a known one
 * gone (only after a complete pull), a dry run writes nothing, and a
 * second pull of the same rows adds nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/hist_predict.h"
#include "core/timeutil.h"
#include "testutil.h"
#include "fixture_fake.h"
#include "runs/history_pull.h"

#define DAY	86400

struct fx {
	char		*dir;
	char		*proj;
	time_t		 now;
	char		 sent[LEDGER_ID_LEN];	/* returned by the platform */
	char		 lost[LEDGER_ID_LEN];	/* not returned */
	struct history_context hc;
	struct ledger	 l;
	struct history_pull_opts o;
	struct history_front hf;
	int		 fi;
};

/* A post fronts sent on the mastodon front, at, with that platform id. */
static void
fx_sent(struct fx *x, const char *draft, const char *post_id, time_t at,
    char id[LEDGER_ID_LEN])
{
	struct ledger_intent in = { .plan = "p1", .slot = 1,
	    .front = "mastodon", .draft = draft, .text = draft,
	    .channel = "mastodon", .at = at, .now = at };
	struct ledger l;
	struct ledger_entry *e;
	struct error err = { 0 };

	assert_int_equal(ledger_open(x->proj, &l, &err), 0);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	assert_int_equal(ledger_outcome(&l, e, LEDGER_SENT, post_id, NULL,
	    NULL, at, &err), 0);
	snprintf(id, LEDGER_ID_LEN, "%s", e->id);
	ledger_free(&l);
}

static int
setup(void **state)
{
	struct fx *x = xcalloc(1, sizeof *x);
	struct hist_prediction pr = { 12, 10, 14, 3 };
	struct error err = { 0 };
	char *cmd, *path, at[32];
	FILE *f;

	x->dir = test_tmpdir("runs-history");
	x->proj = path_join(x->dir, "proj");
	x->now = clock_now();
	xasprintf(&cmd, "/usr/bin/python3 %s/tests/cli/publish_fixture.py "
	    "project %s 9", top(), x->proj);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	/* m1 is known, inside the window, and the platform will not
	 * return it. */
	path = path_join(x->proj, "history.jsonl");
	assert_non_null(f = fopen(path, "a"));
	time_format_utc(x->now - 2 * DAY, at, sizeof at);
	fprintf(f, "{\"id\": \"m1\", \"front\": \"mastodon\", \"posted_at\": "
	    "\"%s\", \"text\": \"An older toot.\", \"platform_id\": \"3003\", "
	    "\"metrics\": {\"likes\": 1}}\n", at);
	fclose(f);
	free(path);
	fx_sent(x, "d1", "1001", x->now - DAY, x->sent);
	fx_sent(x, "d2", "1003", x->now - DAY, x->lost);
	assert_int_equal(hist_prediction_save(x->proj, x->sent, &pr, &err), 0);
	assert_int_equal(history_context_open(x->proj, &x->hc, &err), 0);
	assert_int_equal(ledger_open(x->proj, &x->l, &err), 0);
	x->fi = project_front_index(x->hc.project, "mastodon");
	assert_true(x->fi >= 0);
	x->o.dir = x->proj;
	x->o.now = x->now;
	x->hf.front = xstrdup("mastodon");
	x->hf.since = x->now - 30 * DAY;
	*state = x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *x = *state;
	struct history_pull_result r = { 0 };

	/* The one front's result, freed as a pull's would be. */
	r.fronts = xmalloc(sizeof *r.fronts);
	r.fronts[0] = x->hf;
	r.nfronts = 1;
	history_pull_result_free(&r);
	ledger_free(&x->l);
	history_context_close(&x->hc);
	free(x->proj);
	test_rmdir(x->dir);
	free(x);
	return 0;
}

/* What the platform answered: 1001 (fronts sent it) and 2002 (not). */
static void
fx_rows(struct fx *x, struct pull_result *r, bool complete)
{
	struct hist_item *it;

	memset(r, 0, sizeof *r);
	r->batch.items = it = xcalloc(2, sizeof *it);
	r->batch.nitems = 2;
	it[0].platform_id = xstrdup("1001");
	it[0].text = xstrdup("Tidewater 1.0 is out.");
	it[0].posted_at = x->now - DAY;
	it[0].metrics[HIST_LIKES] = 5;
	it[0].metrics_set = 1u << HIST_LIKES;
	it[0].predicted_sd = NAN;
	it[1].platform_id = xstrdup("2002");
	it[1].text = xstrdup("A toot fronts did not send.");
	it[1].posted_at = x->now - 3 * 3600;
	it[1].metrics[HIST_LIKES] = 2;
	it[1].metrics_set = 1u << HIST_LIKES;
	it[1].predicted_sd = NAN;
	r->complete = complete;
	r->requests = r->pages = 1;
}

/* The line of history.jsonl holding s, or NULL. */
static char *
fx_line(struct fx *x, const char *s)
{
	char *path = path_join(x->proj, "history.jsonl"), *text, *p, *end;
	char *line = NULL;
	struct error err = { 0 };

	assert_int_equal(file_read(path, &text, NULL, &err), 0);
	if ((p = strstr(text, s)) != NULL) {
		while (p > text && p[-1] != '\n')
			p--;
		end = strchr(p, '\n');
		line = xstrndup(p, end != NULL ? (size_t)(end - p) : strlen(p));
	}
	free(text);
	free(path);
	return line;
}

static void
test_pulled_rows_meet_the_ledger(void **state)
{
	struct fx *x = *state;
	struct pull_result r;
	char *line;

	fx_rows(x, &r, true);
	assert_int_equal(history_pull_merge(&x->o, &x->hc, &x->l, x->fi, &r,
	    &x->hf), EXIT_OK);
	pull_result_free(&r);
	assert_true(x->hf.applied);
	assert_int_equal(x->hf.result.merge.count[HIST_ADDED], 2);
	/* The sent post is the ledger entry's line, with the prediction. */
	assert_non_null(line = fx_line(x, "\"1001\""));
	assert_non_null(strstr(line, x->sent));
	assert_non_null(strstr(line, "\"predicted\""));
	assert_non_null(strstr(line, "12"));
	free(line);
	/* The other is added under an id of its own, no prediction. */
	assert_non_null(line = fx_line(x, "\"2002\""));
	assert_null(strstr(line, x->sent));
	assert_null(strstr(line, "\"predicted\""));
	free(line);
	/* Sent and not returned: missing; known and not returned: gone,
	 * kept as it was. */
	assert_int_equal(x->hf.nmissing, 1);
	assert_string_equal(x->hf.missing[0].id, x->lost);
	assert_string_equal(x->hf.missing[0].post_id, "1003");
	assert_int_equal(x->hf.ngone, 1);
	assert_string_equal(x->hf.gone[0].id, "m1");
	assert_non_null(line = fx_line(x, "\"3003\""));
	free(line);
	assert_true(x->hf.result.scored);
	assert_int_equal(x->hf.result.nwritten, 2);
}

static void
test_dry_run_writes_nothing(void **state)
{
	struct fx *x = *state;
	struct pull_result r;
	struct error err = { 0 };
	char *path = path_join(x->proj, "history.jsonl"), *before, *after;

	assert_int_equal(file_read(path, &before, NULL, &err), 0);
	x->o.dry_run = true;
	fx_rows(x, &r, true);
	assert_int_equal(history_pull_merge(&x->o, &x->hc, &x->l, x->fi, &r,
	    &x->hf), EXIT_OK);
	pull_result_free(&r);
	assert_true(x->hf.result.dry_run);
	assert_int_equal(x->hf.result.merge.count[HIST_ADDED], 2);
	assert_false(x->hf.result.scored);
	assert_int_equal(file_read(path, &after, NULL, &err), 0);
	assert_string_equal(before, after);
	free(before);
	free(after);
	free(path);
}

/* Stopped short of the window (the page limit, a rate limit): a known
 * post it did not reach is not called gone; a rate limit's stop is the
 * front's network failure, after what came was merged. */
static void
test_incomplete_pull_names_nothing_gone(void **state)
{
	struct fx *x = *state;
	struct pull_result r;

	fx_rows(x, &r, false);
	assert_int_equal(history_pull_merge(&x->o, &x->hc, &x->l, x->fi, &r,
	    &x->hf), EXIT_OK);
	pull_result_free(&r);
	assert_true(x->hf.page_limit);
	assert_int_equal(x->hf.ngone, 0);
	assert_int_equal(x->hf.nmissing, 1);
	history_applied_free(&x->hf.result);
	fx_rows(x, &r, false);
	r.stopped = xstrdup("rate limited until tomorrow");
	assert_int_equal(history_pull_merge(&x->o, &x->hc, &x->l, x->fi, &r,
	    &x->hf), EXIT_NETWORK);
	pull_result_free(&r);
	assert_true(x->hf.applied);
	assert_string_equal(x->hf.stopped, "rate limited until tomorrow");
}

/* The same rows again: nothing added, the sent post still one line. */
static void
test_second_pull_adds_nothing(void **state)
{
	struct fx *x = *state;
	struct pull_result r;
	char *text, *path = path_join(x->proj, "history.jsonl");
	struct error err = { 0 };

	fx_rows(x, &r, true);
	assert_int_equal(history_pull_merge(&x->o, &x->hc, &x->l, x->fi, &r,
	    &x->hf), EXIT_OK);
	pull_result_free(&r);
	history_applied_free(&x->hf.result);
	fx_rows(x, &r, true);
	assert_int_equal(history_pull_merge(&x->o, &x->hc, &x->l, x->fi, &r,
	    &x->hf), EXIT_OK);
	pull_result_free(&r);
	assert_int_equal(x->hf.result.merge.count[HIST_ADDED], 0);
	assert_int_equal(count(path, "\"1001\""), 1);
	assert_int_equal(file_read(path, &text, NULL, &err), 0);
	assert_non_null(strstr(text, x->sent));
	free(text);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_pulled_rows_meet_the_ledger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_writes_nothing,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_incomplete_pull_names_nothing_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_pull_adds_nothing,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
