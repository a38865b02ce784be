/* Unit tests for the legality engine: every rule, day boundaries, DST. */
#include "testutil.h"
#include "fixture_project.h"
#include "core/legal.h"


static struct action
post(int d, int f)
{
	struct action a = { ACTION_POST, (uint16_t)f, (uint32_t)d };

	return a;
}

static const struct action waitact = { ACTION_WAIT, 0, 0 };

static void
wait_n(struct legal *lg, struct legal_path *lp, int n)
{
	while (n-- > 0)
		legal_apply(lg, lp, &waitact);
}

static enum legal_verdict
check(struct legal *lg, struct legal_path *lp, int d, int f)
{
	struct action a = post(d, f);

	return legal_check(lg, lp, &a);
}

/* Posts d on f at the path's current slot, asserting it was legal. */
static void
do_post(struct legal *lg, struct legal_path *lp, int d, int f)
{
	struct action a = post(d, f);

	assert_int_equal(legal_check(lg, lp, &a), LEGAL_OK);
	legal_apply(lg, lp, &a);
}

static void
test_static_verdicts(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 2, 5);
	struct action a = { 7, 0, 0 };
	struct legal *lg;
	struct legal_path *lp;

	p->drafts[1].front_mask = 1;			/* f0 only */
	p->fronts[1].limits.max_length = 25;
	fx_set_text(p, 2, "a text clearly longer than twenty-five");
	p->fronts[0].limits.max_links = 0;
	fx_set_text(p, 3, "see https://ex.com");
	p->fronts[0].limits.max_hashtags = 1;
	fx_set_text(p, 4, "#one #two");
	lg = legal_new(p, NULL, 0, NULL);
	assert_non_null(lg);
	lp = legal_path_new(lg);
	assert_int_equal(legal_check(lg, lp, &a), LEGAL_BAD_KIND);
	assert_int_equal(check(lg, lp, 5, 0), LEGAL_UNKNOWN_DRAFT);
	assert_int_equal(check(lg, lp, 0, 2), LEGAL_UNKNOWN_FRONT);
	assert_int_equal(check(lg, lp, 1, 1), LEGAL_NOT_ALLOWED);
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_OK);
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_TOO_LONG);
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_OK);
	assert_int_equal(check(lg, lp, 3, 0), LEGAL_TOO_MANY_LINKS);
	assert_int_equal(check(lg, lp, 3, 1), LEGAL_OK);
	assert_int_equal(check(lg, lp, 4, 0), LEGAL_TOO_MANY_HASHTAGS);
	assert_true(legal_never(LEGAL_TOO_LONG));
	assert_true(legal_never(LEGAL_NOT_ALLOWED));
	assert_false(legal_never(LEGAL_CAP));
	assert_false(legal_never(LEGAL_POSTED));
	assert_false(legal_never(LEGAL_OK));
	assert_string_equal(legal_verdict_name(LEGAL_GAP), "gap");
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* The text verdict alone, as publish and drafts use it: invalid UTF-8
 * first, then length, then links before hashtags; each cap on its own. */
static void
test_text_verdict(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 1, 1);
	struct front *f = &p->fronts[0];
	struct text_measure m;

	f->limits.max_length = 20;
	f->limits.max_links = 0;
	f->limits.max_hashtags = 0;
	assert_int_equal(legal_text(f, "ok", &m), LEGAL_OK);
	assert_int_equal(legal_text(f, "bad \xff byte", &m), LEGAL_BAD_TEXT);
	assert_int_equal(legal_text(f, "#a https://ex.com and more words",
	    &m), LEGAL_TOO_LONG);
	assert_false(m.ok);
	assert_int_equal(legal_text(f, "#a https://ex.com", &m),
	    LEGAL_TOO_MANY_LINKS);
	assert_true(legal_over_links(&f->limits, &m));
	assert_true(legal_over_hashtags(&f->limits, &m));
	assert_int_equal(legal_text(f, "#a #b", &m), LEGAL_TOO_MANY_HASHTAGS);
	assert_false(legal_over_links(&f->limits, &m));
	f->limits.max_links = LIMIT_UNSET;
	f->limits.max_hashtags = LIMIT_UNSET;
	assert_int_equal(legal_text(f, "#a #b https://ex.com", &m), LEGAL_OK);
	fx_free(p);
}

/* Link caps count what each platform links: two https://a.example links are
 * two on Bluesky (its client links every http(s) URL), none on X or
 * Mastodon (no known TLD: plain text there, counted by its characters);
 * bare domains are links everywhere but on Mastodon. */
static void
test_link_caps_per_platform(void **state)
{
	static const struct { enum platform p; enum legal_verdict two, bare; }
	    want[] = {
		{ PLATFORM_BLUESKY, LEGAL_TOO_MANY_LINKS, LEGAL_TOO_MANY_LINKS },
		{ PLATFORM_X, LEGAL_OK, LEGAL_TOO_MANY_LINKS },
		{ PLATFORM_MASTODON, LEGAL_TOO_MANY_LINKS, LEGAL_OK },
		{ PLATFORM_LINKEDIN, LEGAL_TOO_MANY_LINKS, LEGAL_TOO_MANY_LINKS },
	};
	int n = (int)(sizeof(want) / sizeof(want[0])), f;
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, n, 3);
	struct legal *lg;
	struct legal_path *lp;

	for (f = 0; f < n; f++) {
		p->fronts[f].platform = want[f].p;
		p->fronts[f].limits.max_links = 1;
	}
	fx_set_text(p, 0, "read https://a.example/one and https://a.example/two");
	fx_set_text(p, 1, "see example.com and example.org");
	fx_set_text(p, 2, "one https://a.example (and example.test)");
	lg = legal_new(p, NULL, 0, NULL);
	assert_non_null(lg);
	lp = legal_path_new(lg);
	for (f = 0; f < n; f++) {
		assert_int_equal(check(lg, lp, 0, f), want[f].two);
		assert_int_equal(check(lg, lp, 1, f), want[f].bare);
		assert_int_equal(check(lg, lp, 2, f), LEGAL_OK);
	}
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

static void
test_wait_and_horizon(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 3, 1, 1);
	struct legal *lg = legal_new(p, NULL, 0, NULL);
	struct legal_path *lp = legal_path_new(lg);
	struct action out[4];

	assert_int_equal(legal_check(lg, lp, &waitact), LEGAL_OK);
	assert_int_equal(legal_enumerate(lg, lp, out), 2);
	assert_int_equal(out[0].kind, ACTION_WAIT);
	wait_n(lg, lp, 2);
	assert_int_equal(legal_check(lg, lp, &waitact), LEGAL_OK);
	wait_n(lg, lp, 1);
	assert_true(legal_path_done(lg, lp));
	assert_int_equal(legal_check(lg, lp, &waitact), LEGAL_HORIZON);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_HORIZON);
	assert_int_equal(legal_enumerate(lg, lp, out), 0);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

static void
test_already_posted(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 2, 2);
	struct legal *lg = legal_new(p, NULL, 0, NULL);
	struct legal_path *lp = legal_path_new(lg), *copy = legal_path_new(lg);

	do_post(lg, lp, 0, 0);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_POSTED);
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_OK);
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_OK);
	legal_path_copy(lg, copy, lp);
	wait_n(lg, copy, 2);
	assert_int_equal(check(lg, copy, 0, 0), LEGAL_POSTED);
	legal_path_reset(lg, lp);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_OK);
	legal_path_free(lp);
	legal_path_free(copy);
	legal_free(lg);
	fx_free(p);
}

static void
test_quiet_hours(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T20:00:00+01:00", 60, 14, 3, 1);
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.quiet_start = 23;	/* wraps: 23:00–06:59 */
	p->fronts[0].limits.quiet_end = 7;
	p->fronts[1].limits.quiet_start = 21;	/* 21:00–21:59 */
	p->fronts[1].limits.quiet_end = 22;
	p->fronts[2].limits.quiet_start = 5;	/* a == b: none */
	p->fronts[2].limits.quiet_end = 5;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_OK);	/* 20:00 */
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_OK);
	wait_n(lg, lp, 1);					/* 21:00 */
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_QUIET);
	wait_n(lg, lp, 1);					/* 22:00 */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_OK);
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_OK);
	wait_n(lg, lp, 1);					/* 23:00 */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_QUIET);
	wait_n(lg, lp, 1);					/* 00:00 */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_QUIET);
	wait_n(lg, lp, 6);					/* 06:00 */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_QUIET);
	assert_int_equal(check(lg, lp, 0, 2), LEGAL_OK);
	wait_n(lg, lp, 1);					/* 07:00 */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_OK);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

static void
test_min_gap(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 6, 3, 3);
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.min_gap_minutes = 0;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	do_post(lg, lp, 0, 0);
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_GAP);	/* same slot */
	do_post(lg, lp, 0, 1);
	do_post(lg, lp, 1, 1);		/* gap 0: two posts share a slot */
	do_post(lg, lp, 0, 2);
	do_post(lg, lp, 1, 2);		/* no gap set */
	wait_n(lg, lp, 1);		/* 60 minutes later */
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_GAP);
	wait_n(lg, lp, 1);		/* 120 minutes: exactly the gap */
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_OK);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

static void
test_daily_cap_midnight(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T22:00:00+01:00", 60, 6, 1, 4);
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.max_posts_per_day = 2;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	do_post(lg, lp, 0, 0);				/* 22:00 */
	wait_n(lg, lp, 1);				/* 23:00 */
	do_post(lg, lp, 1, 0);
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_CAP);
	wait_n(lg, lp, 1);				/* 00:00, next day */
	do_post(lg, lp, 2, 0);
	do_post(lg, lp, 3, 0);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

static void
test_history_counts(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T22:00:00+01:00", 60, 6, 2, 2);
	struct legal_past *past;
	struct legal *lg;
	struct legal_path *lp;
	int n;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.max_posts_per_day = 1;
	fx_history(p, 0, "2026-12-01T21:30:00+01:00");
	fx_history(p, 1, "2026-12-01T08:00:00+01:00");
	n = legal_past_from_history(p, &past);
	assert_int_equal(n, 2);
	lg = legal_new(p, past, n, NULL);
	lp = legal_path_new(lg);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_GAP);	/* 30 min */
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_CAP);	/* same day */
	wait_n(lg, lp, 1);					/* 90 min */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_GAP);
	wait_n(lg, lp, 1);			/* 00:00: 150 min, new day */
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_OK);
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_OK);
	legal_path_free(lp);
	legal_free(lg);
	free(past);
	fx_free(p);
}

/* A past post whose draft is known makes that draft posted on its front
 * in every path (fronts run's re-plans never offer it again); one the
 * operator skipped for good does that without counting toward the cap. */
static void
test_past_drafts_posted(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 2, 2);
	struct legal_past past[2] = { { 0 } };
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.max_posts_per_day = 1;
	p->fronts[1].limits.max_posts_per_day = 1;
	assert_int_equal(time_parse_iso("2026-12-01T08:00:00+01:00",
	    &past[0].at), 0);
	past[0].front = 0;
	past[0].draft = 1 + 1;		/* draft 1, sent on front 0 */
	past[1] = past[0];
	past[1].front = 1;
	past[1].draft = 0 + 1;		/* draft 0, skipped on front 1 */
	past[1].uncounted = true;
	lg = legal_new(p, past, 2, NULL);
	lp = legal_path_new(lg);
	legal_path_reset(lg, lp);
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_POSTED);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_CAP);
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_POSTED);
	assert_int_equal(check(lg, lp, 1, 1), LEGAL_OK);	/* no cap */
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* Ledger posts arrive as an array: the same effect as history. */
static void
test_past_array(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T22:00:00+01:00", 60, 4, 1, 2);
	struct legal_past past[1] = { { 0 } };
	struct error err = { 0 };
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.max_posts_per_day = 1;
	assert_int_equal(time_parse_iso("2026-12-01T10:00:00+01:00",
	    &past[0].at), 0);
	past[0].front = 3;
	assert_null(legal_new(p, past, 1, &err));
	assert_non_null(strstr(err.msg, "unknown front"));
	past[0].front = 0;
	lg = legal_new(p, past, 1, &err);
	lp = legal_path_new(lg);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_CAP);
	wait_n(lg, lp, 2);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_OK);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* 2026-03-29 in Berlin has 23 hours: still one day for the cap. */
static void
test_dst_spring(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-03-28T23:00:00+01:00", 60, 30, 2, 4);
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.max_posts_per_day = 1;
	p->fronts[1].limits.quiet_start = 3;
	p->fronts[1].limits.quiet_end = 4;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	do_post(lg, lp, 0, 0);		/* 28th 23:00 */
	wait_n(lg, lp, 1);		/* 29th 00:00 CET */
	do_post(lg, lp, 1, 0);
	wait_n(lg, lp, 2);		/* 01:00Z is 03:00 CEST */
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_QUIET);
	wait_n(lg, lp, 20);		/* slot 23: 23:00 CEST, same day */
	assert_int_equal(legal_path_slot(lp), 23);
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_CAP);
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_OK);
	wait_n(lg, lp, 1);		/* slot 24: 30th 00:00 CEST */
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_OK);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* 2026-10-25 in Berlin has 25 hours; 02:00 happens twice. */
static void
test_dst_autumn(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-10-24T23:00:00+02:00", 60, 30, 2, 4);
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.max_posts_per_day = 1;
	p->fronts[1].limits.quiet_start = 2;
	p->fronts[1].limits.quiet_end = 3;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	do_post(lg, lp, 0, 0);		/* 24th 23:00 */
	wait_n(lg, lp, 1);		/* 25th 00:00 CEST */
	do_post(lg, lp, 1, 0);
	wait_n(lg, lp, 2);		/* 02:00 CEST */
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_QUIET);
	wait_n(lg, lp, 1);		/* 02:00 CET, again */
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_QUIET);
	wait_n(lg, lp, 1);		/* 03:00 CET */
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_OK);
	wait_n(lg, lp, 20);		/* slot 25: 23:00 CET, same day */
	assert_int_equal(legal_path_slot(lp), 25);
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_CAP);
	wait_n(lg, lp, 1);		/* slot 26: 26th 00:00 */
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_OK);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

static void
test_enumerate(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 2, 3);
	struct legal *lg;
	struct legal_path *lp;
	struct action out[16];

	p->drafts[2].front_mask = 2;
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	assert_int_equal(legal_max_actions(lg), 7);
	assert_int_equal(legal_enumerate(lg, lp, out), 6);
	do_post(lg, lp, 0, 0);
	assert_int_equal(legal_enumerate(lg, lp, out), 5);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* A pinned post is the only legal move at its slot until made (the wait
 * too is refused), and is legal nowhere and never else. */
static void
test_pin_forced(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 6, 2, 4);
	struct action due[16];
	struct legal *lg;
	struct legal_path *lp;

	fx_pin(p, 1, 0, "2026-12-01T11:00:00+01:00");	/* slot 2 */
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_PINNED);	/* elsewhen */
	assert_int_equal(check(lg, lp, 1, 1), LEGAL_PINNED);	/* elsewhere */
	assert_int_equal(legal_pins_due(lg, lp, due), 0);
	wait_n(lg, lp, 2);
	assert_int_equal(legal_pins_due(lg, lp, due), 1);
	assert_int_equal(due[0].draft, 1);
	assert_int_equal(due[0].front, 0);
	assert_int_equal(legal_check(lg, lp, &waitact), LEGAL_PINNED);
	assert_int_equal(check(lg, lp, 0, 1), LEGAL_PINNED);	/* pin first */
	assert_int_equal(legal_enumerate(lg, lp, due), 1);
	assert_true(legal_pinned_at(lg, &due[0], 2));
	do_post(lg, lp, 1, 0);
	assert_int_equal(legal_check(lg, lp, &waitact), LEGAL_OK);
	do_post(lg, lp, 0, 1);		/* the others, once the pin is made */
	wait_n(lg, lp, 1);
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_POSTED);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* A drop keeps the draft off every front; a front pin keeps it on its
 * fronts; a pin whose time has passed is ignored. */
static void
test_pin_drop_and_front(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 4, 3, 4);
	struct legal *lg;
	struct legal_path *lp;

	fx_pin(p, 0, -1, NULL);
	fx_pin(p, 1, 2, NULL);
	fx_pin(p, 1, 1, NULL);
	fx_pin(p, 2, 0, "2026-12-01T08:00:00+01:00");	/* before the start */
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	assert_int_equal(check(lg, lp, 0, 0), LEGAL_DROPPED);
	assert_int_equal(check(lg, lp, 0, 2), LEGAL_DROPPED);
	assert_false(legal_never(LEGAL_DROPPED));
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_PINNED);
	assert_int_equal(check(lg, lp, 1, 1), LEGAL_OK);
	assert_int_equal(check(lg, lp, 1, 2), LEGAL_OK);
	assert_int_equal(check(lg, lp, 2, 1), LEGAL_OK);
	assert_int_equal(legal_check(lg, lp, &waitact), LEGAL_OK);
	assert_string_equal(legal_verdict_name(LEGAL_PINNED), "pinned");
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* The other posts of a pinned front keep off the pin's gap and leave its
 * room under the day's cap, so a path can always make the pin. */
static void
test_pin_reserves(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 8, 2, 5);
	struct legal *lg;
	struct legal_path *lp;

	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[0].limits.max_posts_per_day = 2;
	fx_pin(p, 4, 0, "2026-12-01T13:00:00+01:00");	/* slot 4 */
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	do_post(lg, lp, 0, 0);				/* 09:00 */
	wait_n(lg, lp, 2);				/* 11:00 */
	/* gap-legal, but the second post of the day would take the pin's
	 * place under the cap of 2 */
	assert_int_equal(check(lg, lp, 1, 0), LEGAL_PINNED);
	do_post(lg, lp, 1, 1);				/* other fronts free */
	wait_n(lg, lp, 1);				/* 12:00 */
	assert_int_equal(check(lg, lp, 2, 0), LEGAL_PINNED);	/* its gap */
	wait_n(lg, lp, 1);				/* 13:00 */
	do_post(lg, lp, 4, 0);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* Every post's verdict in two parts (legal_front_now, then
 * legal_check_now, as the search asks about long lists) equals
 * legal_check's, all along random paths under quiet hours, gaps, caps,
 * windows, a forced pin, a front pin and a drop. */
static void
test_check_now(void **state)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T18:00:00+01:00", 60, 40, 3, 8);
	struct action a, out[64];
	struct legal *lg;
	struct legal_path *lp;
	enum legal_verdict fv;
	uint32_t rng = 12345;
	int run, d, f, n, checked = 0;

	p->fronts[0].limits.quiet_start = 23;
	p->fronts[0].limits.quiet_end = 7;
	p->fronts[0].limits.min_gap_minutes = 120;
	p->fronts[1].limits.max_posts_per_day = 2;
	p->fronts[2].limits.min_gap_minutes = 60;
	p->fronts[2].limits.max_posts_per_day = 3;
	p->drafts[5].has_not_before = true;
	p->drafts[5].not_before = p->start + 10 * 3600;
	p->drafts[6].has_not_after = true;
	p->drafts[6].not_after = p->start + 5 * 3600;
	fx_pin(p, 1, 0, "2026-12-01T21:00:00+01:00");
	fx_pin(p, 2, 2, NULL);
	fx_pin(p, 3, -1, NULL);
	lg = legal_new(p, NULL, 0, NULL);
	lp = legal_path_new(lg);
	for (run = 0; run < 20; run++) {
		legal_path_reset(lg, lp);
		for (;;) {
			for (f = 0; f < 3; f++) {
				fv = legal_front_now(lg, lp, (uint32_t)f);
				for (d = 0; d < 8; d++) {
					a = post(d, f);
					if (legal_static(lg, &a) != LEGAL_OK)
						continue;
					assert_int_equal(legal_check_now(lg,
					    lp, &a, fv), legal_check(lg, lp,
					    &a));
					checked++;
				}
			}
			if (legal_path_done(lg, lp))
				break;
			n = legal_enumerate(lg, lp, out);
			rng = rng * 1103515245u + 12345u;
			legal_apply(lg, lp, &out[(rng >> 8) % (uint32_t)n]);
		}
	}
	assert_true(checked > 1000);
	legal_path_free(lp);
	legal_free(lg);
	fx_free(p);
}

/* A pin the rules refuse is an error naming pins.jsonl, the line and the
 * rule; a pin that passed is not. */
static void
test_pin_check(void **state)
{
	static const struct {
		const char	*at;
		const char	*want;
	} bad[] = {
		{ "2026-12-01T09:30:00+01:00", "not on a slot boundary" },
		{ "2026-12-03T09:00:00+01:00", "after the plan's horizon" },
		{ "2026-12-01T23:00:00+01:00", "quiet hours" },
		{ "2026-12-01T10:00:00+01:00", "of a post already made" },
	};
	struct project *p;
	struct legal_past past = { 0 };
	struct error err = { 0 };
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p = fx_project("Europe/Berlin", "2026-12-01T09:00:00+01:00",
		    60, 24, 2, 3);
		p->fronts[0].limits.quiet_start = 22;
		p->fronts[0].limits.quiet_end = 7;
		p->fronts[0].limits.min_gap_minutes = 120;
		time_parse_iso("2026-12-01T08:30:00+01:00", &past.at);
		fx_pin(p, 2, 1, NULL);
		fx_pin(p, 1, 0, bad[i].at);
		assert_int_equal(legal_pins_check(p, &past, 1, &err), -1);
		assert_int_equal(err.code, EXIT_REFUSED);
		assert_non_null(strstr(err.msg, "pins.jsonl:2: pin of d1 on f0"));
		assert_non_null(strstr(err.msg, bad[i].want));
		fx_free(p);
	}
	p = fx_project("Europe/Berlin", "2026-12-01T09:00:00+01:00", 60, 24,
	    2, 3);
	p->fronts[0].limits.max_posts_per_day = 1;
	p->drafts[0].front_mask = 2;
	fx_pin(p, 1, 0, "2026-12-01T12:00:00+01:00");
	fx_pin(p, 2, 0, "2026-12-01T15:00:00+01:00");
	assert_int_equal(legal_pins_check(p, NULL, 0, &err), -1);
	assert_non_null(strstr(err.msg, "pins.jsonl:2:"));
	assert_non_null(strstr(err.msg, "max_posts_per_day"));
	p->pins[1].at -= 24 * 3600;			/* passed: ignored */
	assert_int_equal(legal_pins_check(p, NULL, 0, &err), 0);
	fx_pin(p, 0, 0, NULL);
	assert_int_equal(legal_pins_check(p, NULL, 0, &err), -1);
	assert_non_null(strstr(err.msg, "pins.jsonl:3:"));
	assert_non_null(strstr(err.msg, "leave this front out"));
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_verdicts),
		cmocka_unit_test(test_pin_forced),
		cmocka_unit_test(test_pin_drop_and_front),
		cmocka_unit_test(test_pin_reserves),
		cmocka_unit_test(test_pin_check),
		cmocka_unit_test(test_text_verdict),
		cmocka_unit_test(test_link_caps_per_platform),
		cmocka_unit_test(test_wait_and_horizon),
		cmocka_unit_test(test_already_posted),
		cmocka_unit_test(test_quiet_hours),
		cmocka_unit_test(test_min_gap),
		cmocka_unit_test(test_daily_cap_midnight),
		cmocka_unit_test(test_history_counts),
		cmocka_unit_test(test_past_drafts_posted),
		cmocka_unit_test(test_past_array),
		cmocka_unit_test(test_dst_spring),
		cmocka_unit_test(test_dst_autumn),
		cmocka_unit_test(test_enumerate),
		cmocka_unit_test(test_check_now),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
