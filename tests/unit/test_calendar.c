/* Unit tests for the calendar layout: rows by slot and front, days
 * separated, marks from the clock and the ledger, 80 columns by
 * abbreviating and wider where there is room, the JSON form. */
#include "testutil.h"
#include "fixture_project.h"
#include "core/calendar.h"

/* Code points of s (the calendar's own measure of width). */
static int
width(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void
add_post(struct project *p, struct plan *pl, int slot, int f, int d,
    double r)
{
	struct plan_post *pp;

	pl->posts = xrealloc(pl->posts, (pl->nposts + 1) * sizeof *pp);
	pp = &pl->posts[pl->nposts++];
	memset(pp, 0, sizeof *pp);
	pp->slot = slot;
	pp->at = project_slot_time(p, slot);
	pp->front = f;
	pp->draft = d;
	pp->text = xstrdup(p->drafts[d].text);
	pp->expected_reward = r;
}

/* Four fronts, posts over two days, one slot with two posts on a front. */
static struct project *
cal_fixture(struct plan *pl)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T20:00:00+01:00", 60, 24, 4, 6);

	free(p->drafts[5].id);
	p->drafts[5].id = xstrdup("a-rather-long-draft-identifier");
	free(p->fronts[3].id);
	p->fronts[3].id = xstrdup("mastodon-community-front");
	memset(pl, 0, sizeof *pl);
	add_post(p, pl, 0, 0, 0, 12.5);
	add_post(p, pl, 0, 1, 1, 3.25);
	add_post(p, pl, 0, 1, 2, 4);		/* a second post on f1 */
	add_post(p, pl, 5, 3, 5, 1234.5);	/* 01:00, the next day */
	add_post(p, pl, 2, 2, 3, 7);
	return p;
}

static void
free_lines(char **lines, int n)
{
	while (n-- > 0)
		free(lines[n]);
	free(lines);
}

static void
test_rows_and_marks(void **state)
{
	struct plan pl;
	struct project *p = cal_fixture(&pl);
	struct ledger l;
	struct ledger_entry e;
	struct calendar c;
	time_t now = project_slot_time(p, 2) + 60;	/* inside slot 2 */

	memset(&l, 0, sizeof l);
	memset(&e, 0, sizeof e);
	e.front = "f1";
	e.draft = "d1";
	e.at = pl.posts[1].at;
	e.state = LEDGER_SENT;
	l.entries = &e;
	l.nentries = 1;
	calendar_build(p, &pl, &l, now, false, &c);
	assert_int_equal(c.nrows, 4);
	assert_int_equal(c.rows[0].slot, 0);
	assert_true(c.rows[0].day_start);
	assert_int_equal(c.rows[0].cells[0].post, 0);
	assert_int_equal(c.rows[0].cells[0].mark, CAL_PAST);
	assert_int_equal(c.rows[0].cells[1].post, 1);
	assert_int_equal(c.rows[0].cells[1].mark, CAL_SENT);
	assert_int_equal(c.rows[1].slot, 0);		/* the second on f1 */
	assert_int_equal(c.rows[1].cells[1].post, 2);
	assert_int_equal(c.rows[1].cells[0].post, -1);
	assert_false(c.rows[1].day_start);
	assert_int_equal(c.rows[2].cells[2].mark, CAL_DUE);
	assert_int_equal(c.rows[3].cells[3].mark, CAL_PLANNED);
	assert_true(c.rows[3].day_start);		/* after midnight */
	e.state = LEDGER_FAILED;
	assert_int_equal(calendar_mark(p, &pl, &l, 1, now), CAL_FAILED);
	e.state = LEDGER_UNKNOWN;
	assert_int_equal(calendar_mark(p, &pl, &l, 1, now), CAL_UNKNOWN);
	assert_int_equal(calendar_mark(p, &pl, NULL, 1, now), CAL_PAST);
	assert_string_equal(calendar_mark_name(CAL_SKIPPED), "skipped");
	calendar_free(&c);
	plan_free(&pl);
	fx_free(p);
}

static void
test_render_widths(void **state)
{
	struct plan pl;
	struct project *p = cal_fixture(&pl);
	struct calendar c;
	char **lines;
	int n, i, wide = 0, days = 0;

	calendar_build(p, &pl, NULL, p->start - 1, false, &c);
	n = calendar_render(p, &pl, &c, 80, &lines);
	for (i = 0; i < n; i++) {
		assert_true(width(lines[i]) <= 80);
		days += strncmp(lines[i], "-- ", 3) == 0;
	}
	assert_int_equal(days, 2);
	assert_non_null(strstr(lines[0], "mastodon-communi\u2026"));
	assert_non_null(strstr(lines[2], "20:00"));
	assert_non_null(strstr(lines[2], "d0 12.5"));
	for (i = 0; i < n; i++)
		if (strstr(lines[i], "a-rather") != NULL) {
			assert_non_null(strstr(lines[i], "\u2026 1234"));
			wide = 1;
		}
	assert_true(wide);
	free_lines(lines, n);
	n = calendar_render(p, &pl, &c, 200, &lines);
	wide = 0;
	for (i = 0; i < n; i++) {
		wide |= width(lines[i]) > 80;
		if (strstr(lines[i], "a-rather") != NULL)
			assert_non_null(strstr(lines[i],
			    "a-rather-long-draft-identifier 1234.5"));
	}
	assert_true(wide);
	free_lines(lines, n);
	calendar_free(&c);
	plan_free(&pl);
	fx_free(p);
}

static void
test_json(void **state)
{
	struct plan pl;
	struct project *p = cal_fixture(&pl);
	struct calendar c;
	cJSON *j, *rows, *cell;

	calendar_build(p, &pl, NULL, p->start - 1, false, &c);
	j = calendar_json(p, &pl, &c);
	rows = cJSON_GetObjectItem(j, "rows");
	assert_int_equal(cJSON_GetArraySize(rows), 4);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "fronts")),
	    4);
	cell = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    rows, 0), "cells"), 0);
	assert_string_equal(cJSON_GetObjectItem(cell, "draft")->valuestring,
	    "d0");
	assert_string_equal(cJSON_GetObjectItem(cell, "state")->valuestring,
	    "planned");
	assert_true(cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(rows, 1), "cells"), 0)));
	cJSON_Delete(j);
	calendar_free(&c);
	plan_free(&pl);
	fx_free(p);
}

/* Every slot: the posts' rows in place, an empty row for each other. */
static void
test_every_slot(void **state)
{
	struct plan pl;
	struct project *p = cal_fixture(&pl);
	struct calendar c;
	int i, days = 0;

	calendar_build(p, &pl, NULL, p->start - 1, true, &c);
	assert_int_equal(c.nrows, p->horizon_slots + 1);
	assert_int_equal(c.rows[1].cells[1].post, 2);
	assert_int_equal(c.rows[2].slot, 1);
	assert_int_equal(c.rows[2].cells[0].post, -1);
	assert_int_equal(c.rows[6].slot, 5);
	assert_int_equal(c.rows[6].cells[3].post, 3);
	for (i = 0; i < c.nrows; i++) {
		assert_true(i == 0 || c.rows[i].at >= c.rows[i - 1].at);
		days += c.rows[i].day_start;
	}
	assert_int_equal(days, 2);
	calendar_free(&c);
	plan_free(&pl);
	fx_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_marks),
		cmocka_unit_test(test_render_widths),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_every_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
