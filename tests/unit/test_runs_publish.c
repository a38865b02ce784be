/* Unit tests for what runs/publish.c decides from the ledger before any
 * request, on a project from tests/cli/publish_fixture.py (no server: a
 * record is written to the ledger by hand, as a crash or an earlier run
 * would have left it): a failed attempt is offered again, an unknown one
 * never until the operator settles it, a skipped post never, the same
 * draft on the same front only once, and a thread whose first part went
 * out goes on at the next part, replying to it — unless its window has
 * closed, when the rest is refused and, recorded, never offered again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "testutil.h"
#include "fixture_fake.h"
#include "core/plan.h"
#include "core/project.h"
#include "runs/publish.h"
#include "runs/publish_int.h"

struct fx {
	char		*dir;
	char		*proj;
	struct project	*p;
	struct plan	 plan;
	struct publish	 pub;
};

/* Posts: 0 x/d1 at slot 1, 1 x/d1 at slot 2 (the same draft again),
 * 2 mastodon/d8 at slot 1 (a thread of three parts), all due. */
static int
setup(void **state)
{
	struct fx *x = xcalloc(1, sizeof *x);
	struct error err = { 0 };
	char *cmd, *path, *text;
	cJSON *json;

	x->dir = test_tmpdir("runs-publish");
	x->proj = path_join(x->dir, "proj");
	setenv("MASTODON_ACCESS_TOKEN", "mt-SENTINEL-runs", 1);
	xasprintf(&cmd, "FIXTURE_THREAD=1 /usr/bin/python3 "
	    "%s/tests/cli/publish_fixture.py both %s 9 5 x:d1:1 x:d1:2 "
	    "mastodon:d8:1", top(), x->proj);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(project_load(x->proj, &x->p, &err), 0);
	path = path_join(x->proj, "plan.json");
	assert_int_equal(file_read(path, &text, NULL, &err), 0);
	assert_non_null(json = cJSON_Parse(text));
	assert_int_equal(plan_from_json(x->p, json, &x->plan, &err), 0);
	cJSON_Delete(json);
	free(text);
	free(path);
	assert_int_equal(publish_open(&x->pub, x->p, &x->plan, 5000, &err), 0);
	*state = x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *x = *state;

	publish_close(&x->pub);
	plan_free(&x->plan);
	project_free(x->p);
	free(x->proj);
	test_rmdir(x->dir);
	free(x);
	return 0;
}

/* What publish_send would append for part k (0-based) of post i. */
static void
fx_intent(struct fx *x, int i, int k, struct ledger_intent *in)
{
	const struct plan_post *pp = &x->plan.posts[i];
	int n = publish_body(&x->pub, i)->nparts;

	memset(in, 0, sizeof *in);
	in->plan = x->pub.plan_id;
	in->slot = pp->slot;
	in->front = x->p->fronts[pp->front].id;
	in->draft = x->p->drafts[pp->draft].id;
	in->text = publish_part_text(&x->pub, i, k);
	in->channel = "test";
	in->at = pp->at;
	in->now = clock_now();
	if (n > 1) {
		in->part = k + 1;
		in->nparts = n;
	}
}

/* Part k of post i attempted, with that outcome (LEDGER_PENDING: none,
 * as a crash between the intent and the answer leaves it). */
static struct ledger_entry *
fx_attempt(struct fx *x, int i, int k, enum ledger_state state)
{
	struct ledger_intent in;
	struct ledger_entry *e;
	struct error err = { 0 };

	fx_intent(x, i, k, &in);
	assert_int_equal(ledger_intent(&x->pub.ledger, &in, &e, &err), 0);
	if (state != LEDGER_PENDING)
		assert_int_equal(ledger_outcome(&x->pub.ledger, e, state,
		    state == LEDGER_SENT ? "1001" : NULL, NULL,
		    state == LEDGER_SENT ? NULL : "test", clock_now(), &err), 0);
	return e;
}

/* A failed attempt sent nothing: the next run offers the post again. */
static void
test_failed_attempt_offered_again(void **state)
{
	struct fx *x = *state;
	struct publish_item it;

	fx_attempt(x, 0, 0, LEDGER_FAILED);
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_READY);
	assert_false(publish_resumable(&x->pub, 0));
}

/* An unknown outcome may be online: refused until the operator's word,
 * which then decides (sent: never again). */
static void
test_unknown_until_settled(void **state)
{
	struct fx *x = *state;
	struct publish_item it;
	struct ledger_entry *e;
	struct error err = { 0 };

	e = fx_attempt(x, 0, 0, LEDGER_UNKNOWN);
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_UNRESOLVED);
	assert_non_null(strstr(it.why, "has no known outcome"));
	assert_int_equal(ledger_settle(&x->pub.ledger, e, true,
	    "https://example/1", clock_now(), &err), 0);
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_SENT);
	assert_non_null(strstr(it.why, "already sent"));
	assert_non_null(strstr(it.why, "https://example/1"));
}

/* A post `fronts run` passed by is never offered again. */
static void
test_skipped_never_offered(void **state)
{
	struct fx *x = *state;
	struct ledger_intent in;
	struct publish_item it;
	struct error err = { 0 };

	fx_intent(x, 0, 0, &in);
	assert_int_equal(ledger_skip(&x->pub.ledger, &in, "not today", &err),
	    0);
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_REFUSED);
	assert_non_null(strstr(it.why, "skipped (not today)"));
}

/* A draft sent on a front is refused there at any other slot. */
static void
test_same_draft_same_front_once(void **state)
{
	struct fx *x = *state;
	struct publish_item it;

	publish_assess(&x->pub, 1, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_READY);
	fx_attempt(x, 0, 0, LEDGER_SENT);
	publish_assess(&x->pub, 1, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_REFUSED);
	assert_non_null(strstr(it.why, "draft d1 was already sent on front x"));
}

/* Part 1 of a thread sent, the run stopped: the next run goes on at part
 * 2, shows only what is left, and an unknown part 2 blocks it. */
static void
test_thread_resumes_after_part_one(void **state)
{
	struct fx *x = *state;
	struct publish_item it;
	struct error err = { 0 };
	char *req;

	publish_assess(&x->pub, 2, clock_now(), false, &it);
	assert_int_equal(it.nparts, 3);
	assert_int_equal(it.next_part, 0);
	assert_false(publish_resumable(&x->pub, 2));
	fx_attempt(x, 2, 0, LEDGER_SENT);
	publish_assess(&x->pub, 2, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_READY);
	assert_int_equal(it.next_part, 1);
	assert_non_null(strstr(it.why, "it goes on at part 2, a reply to "
	    "part 1"));
	assert_true(publish_resumable(&x->pub, 2));
	req = publish_describe(&x->pub, 2, clock_now(), &err);
	assert_non_null(req);
	assert_null(strstr(req, "Tides, part one"));
	assert_non_null(strstr(req, "Part two"));
	assert_null(strstr(req, "mt-SENTINEL-runs"));
	free(req);
	fx_attempt(x, 2, 1, LEDGER_PENDING);
	publish_assess(&x->pub, 2, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_UNRESOLVED);
	assert_non_null(strstr(it.why, "part 2 of 3"));
	assert_false(publish_resumable(&x->pub, 2));
}

/* Part 1 of a thread sent, then its window closed: the rest is refused
 * with the window's reason; the run's close names the parts, records the
 * first as skipped, and the thread is no longer resumable. */
static void
test_thread_window_closed(void **state)
{
	struct fx *x = *state;
	struct draft *d = &x->p->drafts[x->plan.posts[2].draft];
	struct publish_item it;
	struct error err = { 0 };
	time_t now = clock_now(), closed;
	char msg[512];

	fx_attempt(x, 2, 0, LEDGER_SENT);
	d->has_not_after = true;
	d->not_after = now - 60;
	publish_assess(&x->pub, 2, now, false, &it);
	assert_int_equal(it.status, PUBLISH_REFUSED);
	assert_non_null(strstr(it.why, "parts 2-3 of 3 will not be sent: now"));
	closed = publish_thread_closes(&x->pub, 2, now + 3600);
	assert_true(closed == now - 59);
	assert_true(publish_thread_closes(&x->pub, 2, now - 3600) ==
	    now - 3600);
	/* A dry run says so and records nothing. */
	assert_int_equal(publish_thread_close(&x->pub, 2, closed, false, now,
	    msg, sizeof msg, &err), 0);
	assert_non_null(strstr(msg, "d8 on mastodon: parts 2-3 of 3 of the "
	    "thread will not be sent: the draft's window (not_after) closed "
	    "at "));
	assert_true(publish_resumable(&x->pub, 2));
	assert_int_equal(publish_thread_close(&x->pub, 2, closed, true, now,
	    msg, sizeof msg, &err), 0);
	assert_false(publish_resumable(&x->pub, 2));
	publish_assess(&x->pub, 2, now, false, &it);
	assert_int_equal(it.status, PUBLISH_REFUSED);
	assert_non_null(strstr(it.why, "skipped (ledger entry "));
	assert_non_null(strstr(it.why, "parts 2-3 of 3 of the thread"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_failed_attempt_offered_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_until_settled,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_skipped_never_offered,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_draft_same_front_once,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_thread_resumes_after_part_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_window_closed,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
