/* Unit tests for timeutil: ISO-8601 parsing, the project zone, local hours
 * and days across daylight-saving changes, and slot rounding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/timeutil.h"

/* 2026-12-01T08:00:00Z */
#define DEC1_08Z ((time_t)1796112000)

static time_t
iso(const char *s)
{
	time_t t = 0;

	assert_int_equal(time_parse_iso(s, &t), 0);
	return t;
}

static int
berlin(void **state)
{
	return timeutil_set_zone("Europe/Berlin");
}

static void
test_parse_forms(void **state)
{
	assert_int_equal(iso("2026-12-01T08:00:00Z"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T09:00:00+01:00"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T09:00:00+0100"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T09:00:00+01"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T03:00:00-05:00"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T08:00:00.123Z"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T09:00:00,5+01:00"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01t08:00:00z"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01 08:00:00Z"), DEC1_08Z);
	assert_int_equal(iso("2026-12-01T08:00Z"), DEC1_08Z);
	assert_int_equal(iso("1970-01-01T00:00:00Z"), 0);
	assert_int_equal(iso("2026-12-01T13:45:00+05:45"), DEC1_08Z);
}

static void
test_parse_calendar(void **state)
{
	time_t t;

	assert_int_equal(iso("2028-02-29T00:00:00Z") - iso("2028-02-28T00:00:00Z"),
	    86400);
	assert_int_equal(iso("2000-03-01T00:00:00Z") - iso("2000-02-28T00:00:00Z"),
	    2 * 86400);
	assert_int_equal(time_parse_iso("2026-02-29T00:00:00Z", &t), -1);
	assert_int_equal(time_parse_iso("1900-02-29T00:00:00Z", &t), -1);
	assert_int_equal(time_parse_iso("2026-04-31T00:00:00Z", &t), -1);
	assert_int_equal(time_parse_iso("2026-13-01T00:00:00Z", &t), -1);
	assert_int_equal(time_parse_iso("2026-00-01T00:00:00Z", &t), -1);
	assert_int_equal(time_parse_iso("2026-12-00T00:00:00Z", &t), -1);
}

static void
test_parse_rejects(void **state)
{
	static const char *bad[] = {
		"", "now", "2026-12-01", "2026-12-01T08:00:00",
		"2026-12-01T24:00:00Z", "2026-12-01T08:60:00Z",
		"2026-12-01T08:00:60Z", "2026-12-01T08:00:00+24:00",
		"2026-12-01T08:00:00+01:60", "2026-12-01T08:00:00Z ",
		"2026-12-01T08:00:00Zjunk", "2026-12-01T08:00:00.Z",
		"2026-12-1T08:00:00Z", "26-12-01T08:00:00Z",
		"2026/12/01T08:00:00Z", "2026-12-01T8:00:00Z",
		"2026-12-01T08:00:00+1", "2026-12-01T08:00:00 +01:00",
		"2026-12-01X08:00:00Z", NULL
	};
	time_t t;
	int i;

	for (i = 0; bad[i] != NULL; i++)
		if (time_parse_iso(bad[i], &t) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
	assert_int_equal(time_parse_iso(NULL, &t), -1);
}

static void
test_zone_names(void **state)
{
	assert_true(timeutil_zone_exists("Europe/Berlin"));
	assert_true(timeutil_zone_exists("America/New_York"));
	assert_true(timeutil_zone_exists("UTC"));
	assert_false(timeutil_zone_exists("Mars/Olympus_Mons"));
	assert_false(timeutil_zone_exists(""));
	assert_false(timeutil_zone_exists(NULL));
	assert_false(timeutil_zone_exists("../../etc/passwd"));
	assert_false(timeutil_zone_exists("/usr/share/zoneinfo/UTC"));
	assert_false(timeutil_zone_exists("Europe"));	/* a directory */
	assert_false(timeutil_zone_exists("Europe/Berlin;rm"));
	assert_int_equal(timeutil_set_zone("Mars/Olympus_Mons"), -1);
	assert_int_equal(timeutil_set_zone("Europe/Berlin"), 0);
}

static void
test_format_local(void **state)
{
	char buf[64];

	time_format_local(DEC1_08Z, buf, sizeof buf);
	assert_string_equal(buf, "2026-12-01T09:00:00+01:00");
	time_format_local(iso("2026-07-01T12:00:00Z"), buf, sizeof buf);
	assert_string_equal(buf, "2026-07-01T14:00:00+02:00");
	assert_int_equal(timeutil_set_zone("America/St_Johns"), 0);
	time_format_local(DEC1_08Z, buf, sizeof buf);
	assert_string_equal(buf, "2026-12-01T04:30:00-03:30");
	assert_int_equal(timeutil_set_zone("UTC"), 0);
	time_format_local(DEC1_08Z, buf, sizeof buf);
	assert_string_equal(buf, "2026-12-01T08:00:00+00:00");
	assert_int_equal(timeutil_set_zone("Europe/Berlin"), 0);
	/* A formatted time parses back to the same instant. */
	time_format_local(DEC1_08Z + 12345, buf, sizeof buf);
	assert_int_equal(iso(buf), DEC1_08Z + 12345);
}

static void
test_hour_spring_forward(void **state)
{
	/* 2026-03-29: Berlin goes from 02:00 CET to 03:00 CEST at 01:00Z. */
	assert_int_equal(time_local_hour(iso("2026-03-29T00:30:00Z")), 1);
	assert_int_equal(time_local_hour(iso("2026-03-29T01:00:00Z")), 3);
	assert_int_equal(time_local_hour(iso("2026-03-29T01:30:00Z")), 3);
	assert_int_equal(time_local_hour(iso("2026-03-29T21:59:00Z")), 23);
}

static void
test_hour_fall_back(void **state)
{
	/* 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00Z; the hour
	 * 02:00-02:59 happens twice. */
	assert_int_equal(time_local_hour(iso("2026-10-25T00:30:00Z")), 2);
	assert_int_equal(time_local_hour(iso("2026-10-25T01:30:00Z")), 2);
	assert_int_equal(time_local_hour(iso("2026-10-25T02:00:00Z")), 3);
}

static void
test_day_23_hours(void **state)
{
	long d = time_local_day(iso("2026-03-28T23:00:00Z"));	/* 00:00 */

	assert_int_equal(d, time_days_from_civil(2026, 3, 29));
	assert_int_equal(time_local_day(iso("2026-03-29T21:59:59Z")), d);
	assert_int_equal(time_local_day(iso("2026-03-29T22:00:00Z")), d + 1);
	assert_int_equal(time_local_day(iso("2026-03-28T22:59:59Z")), d - 1);
	assert_int_equal(iso("2026-03-29T22:00:00Z") -
	    time_local_midnight(iso("2026-03-29T12:00:00Z")), 23 * 3600);
}

static void
test_day_25_hours(void **state)
{
	long d = time_local_day(iso("2026-10-24T22:00:00Z"));	/* 00:00 */

	assert_int_equal(d, time_days_from_civil(2026, 10, 25));
	assert_int_equal(time_local_day(iso("2026-10-25T22:59:59Z")), d);
	assert_int_equal(time_local_day(iso("2026-10-25T23:00:00Z")), d + 1);
	assert_int_equal(iso("2026-10-25T23:00:00Z") -
	    time_local_midnight(iso("2026-10-25T12:00:00Z")), 25 * 3600);
}

static void
test_weekday(void **state)
{
	assert_int_equal(time_local_weekday(DEC1_08Z), 1);	/* Tuesday */
	assert_int_equal(time_local_weekday(iso("2026-12-06T22:59:00Z")), 6);
	assert_int_equal(time_local_weekday(iso("2026-12-06T23:00:00Z")), 0);
	assert_int_equal(time_days_from_civil(1970, 1, 1), 0);
	assert_int_equal(time_days_from_civil(2000, 3, 1), 11017);
}

static void
test_round_up_slot(void **state)
{
	time_t t = iso("2026-12-01T09:10:00+01:00");

	assert_int_equal(time_round_up_slot(t, 60), iso("2026-12-01T10:00:00+01:00"));
	assert_int_equal(time_round_up_slot(t, 90), iso("2026-12-01T10:30:00+01:00"));
	assert_int_equal(time_round_up_slot(t, 15), iso("2026-12-01T09:15:00+01:00"));
	assert_int_equal(time_round_up_slot(t, 1440), iso("2026-12-02T00:00:00+01:00"));
	/* Exactly on a slot: that slot. */
	t = iso("2026-12-01T09:00:00+01:00");
	assert_int_equal(time_round_up_slot(t, 60), t);
	assert_int_equal(time_round_up_slot(t + 1, 60), t + 3600);
	/* Local midnight, not UTC midnight, anchors the slots. */
	t = iso("2026-12-01T00:20:00+01:00");
	assert_int_equal(time_round_up_slot(t, 45), iso("2026-12-01T00:45:00+01:00"));
}

static void
test_round_up_slot_dst_and_midnight(void **state)
{
	/* Spring forward: 03:10 CEST is 2 h 10 min after midnight. */
	assert_int_equal(time_round_up_slot(iso("2026-03-29T03:10:00+02:00"), 60),
	    iso("2026-03-29T04:00:00+02:00"));
	/* Fall back: the second 02:30 (CET) rounds to 03:00 CET. */
	assert_int_equal(time_round_up_slot(iso("2026-10-25T02:30:00+01:00"), 60),
	    iso("2026-10-25T03:00:00+01:00"));
	assert_int_equal(time_round_up_slot(iso("2026-10-25T02:30:00+02:00"), 60),
	    iso("2026-10-25T02:00:00+01:00"));
	/* A slot that would run past midnight snaps to midnight. */
	assert_int_equal(time_round_up_slot(iso("2026-12-01T23:58:00+01:00"), 7),
	    iso("2026-12-02T00:00:00+01:00"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_calendar),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_zone_names),
		cmocka_unit_test(test_format_local),
		cmocka_unit_test(test_hour_spring_forward),
		cmocka_unit_test(test_hour_fall_back),
		cmocka_unit_test(test_day_23_hours),
		cmocka_unit_test(test_day_25_hours),
		cmocka_unit_test(test_weekday),
		cmocka_unit_test(test_round_up_slot),
		cmocka_unit_test(test_round_up_slot_dst_and_midnight),
	};

	return cmocka_run_group_tests(tests, berlin, NULL);
}
