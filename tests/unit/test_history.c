/* Unit tests for the export parsers, the topic rules and the history
 * merge: every format against files built from the platforms' documented
 * formats (tests/data/history and
 * fixtures/demo/exports), unknown metrics stay unknown, a re-import
 * adds nothing, a changed count updates its line, damaged input is
 * refused with its position. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/hist_predict.h"
#include "core/history.h"
#include "core/history_merge.h"
#include "core/project.h"
#include "core/timeutil.h"
#include "core/topics.h"
#include "runs/synth.h"

#ifndef TOP
#define TOP "."
#endif
#define DATA TOP "/tests/data/history/"
/* The demo's exports double as the X and Mastodon test files. */
#define EXPORTS TOP "/fixtures/demo/exports/"

static char *
slurp(const char *name, size_t *len)
{
	struct error err = { 0 };
	char *s;

	assert_int_equal(file_read(name, &s, len, &err), 0);
	return s;
}

static void
parse_file(const char *name, enum hist_format f, const char *account,
    const struct hist_csv_map *map, struct hist_batch *b)
{
	struct hist_opts o = { name, account, map, 0, false };
	struct error err = { 0 };
	enum hist_format got;
	size_t len;
	char *s = slurp(name, &len);

	if (f != HIST_FMT_CSV) {
		assert_int_equal(hist_format_detect(name, s, len, &got, &err), 0);
		assert_int_equal(got, f);
	}
	if (hist_parse(f, &o, s, len, b, &err) != 0)
		fail_msg("%s", err.msg);
	free(s);
}

static bool
metric_known(const struct hist_item *it, enum hist_metric m)
{
	return (it->metrics_set & (1u << m)) != 0;
}

static void
test_x_archive(void **state)
{
	struct hist_batch b;
	time_t t;

	parse_file(EXPORTS "tweets.js", HIST_FMT_X, "@TidewaterDev", NULL, &b);
	assert_int_equal(b.nitems, 2);
	assert_int_equal(b.nskips, 2);
	assert_string_equal(b.items[0].platform_id, "1859000000000000001");
	assert_string_equal(b.items[0].text, "Sync & merge, finally boring > "
	    "#launch https://tidewater.dev/pricing");
	assert_string_equal(b.items[0].url,
	    "https://x.com/TidewaterDev/status/1859000000000000001");
	assert_int_equal(time_parse_iso("2026-11-20T08:05:00Z", &t), 0);
	assert_int_equal(b.items[0].posted_at, t);
	assert_true(metric_known(&b.items[0], HIST_LIKES));
	assert_true(b.items[0].metrics[HIST_LIKES] == 61);
	assert_true(b.items[0].metrics[HIST_REPOSTS] == 9);
	assert_false(metric_known(&b.items[0], HIST_IMPRESSIONS));
	assert_false(metric_known(&b.items[0], HIST_REPLIES));
	/* the self-reply stays, its media link goes */
	assert_string_equal(b.items[1].text, "The dashboard, in one photo:");
	assert_non_null(strstr(b.skips[0].reason, "retweet"));
	assert_non_null(strstr(b.skips[1].reason, "@alice"));
	hist_batch_free(&b);
}

static void
test_mastodon_outbox(void **state)
{
	struct hist_batch b;
	int i;

	parse_file(EXPORTS "outbox.json", HIST_FMT_MASTODON,
	    "@tidewater@mastodon.example", NULL, &b);
	assert_int_equal(b.nitems, 2);
	assert_int_equal(b.nskips, 3);
	assert_string_equal(b.items[0].text, "Why we moved the WAL reader off "
	    "the main thread & what broke.\nDetails: "
	    "https://tidewater.dev/blog/wal\n\nFeedback welcome! #rustlang "
	    "cc @bob");
	assert_string_equal(b.items[0].platform_id, "113500000000000001");
	assert_string_equal(b.items[0].url,
	    "https://mastodon.example/@tidewater/113500000000000001");
	assert_string_equal(b.items[1].text,
	    "2/2 numbers: p99 < 4\xC2\xA0ms \xF0\x9F\x9A\x80");
	for (i = 0; i < b.nitems; i++)
		assert_int_equal(b.items[i].metrics_set, 0);
	hist_batch_free(&b);
}

static void
test_bluesky_feed(void **state)
{
	struct hist_batch b;

	parse_file(DATA "author_feed.json", HIST_FMT_BLUESKY_FEED, NULL, NULL,
	    &b);
	assert_int_equal(b.nitems, 2);
	assert_int_equal(b.nskips, 2);
	assert_string_equal(b.items[0].platform_id,
	    "at://did:plc:fakefakefake/app.bsky.feed.post/3lbkfeed00001");
	assert_string_equal(b.items[0].url,
	    "https://bsky.app/profile/tidewater.dev/post/3lbkfeed00001");
	assert_true(b.items[0].metrics[HIST_LIKES] == 19);
	assert_true(b.items[0].metrics[HIST_REPOSTS] == 3);
	assert_true(b.items[0].metrics[HIST_REPLIES] == 2);
	assert_false(metric_known(&b.items[0], HIST_IMPRESSIONS));
	assert_string_equal(b.next, "2026-11-21T08:30:00.000Z");
	assert_string_equal(b.items[1].text, "Release notes for 0.4: "
	    "https://tidewater.dev/blog/0.4-release-notes");
	hist_batch_free(&b);
}

static void
test_bluesky_car(void **state)
{
	struct hist_batch b;

	parse_file(DATA "repo.car", HIST_FMT_BLUESKY_CAR, NULL, NULL, &b);
	assert_int_equal(b.nitems, 2);
	assert_int_equal(b.nskips, 1);	/* the reply; like and repost are no posts */
	assert_string_equal(b.items[0].platform_id,
	    "at://did:plc:fakefakefake/app.bsky.feed.post/3lbkpost00001");
	assert_string_equal(b.items[0].text,
	    "Open role: SRE, remote within the EU #hiring");
	/* the link facet's URL, not the shortened text clients show */
	assert_string_equal(b.items[1].text, "Caf\xC3\xA9 edition: "
	    "https://tidewater.dev/blog/0.4-release-notes");
	assert_int_equal(b.items[0].metrics_set, 0);
	hist_batch_free(&b);
}

static void
test_linkedin_shares(void **state)
{
	struct hist_batch b;
	time_t t;

	parse_file(DATA "Shares.csv", HIST_FMT_LINKEDIN, NULL, NULL, &b);
	assert_int_equal(b.nitems, 3);
	assert_int_equal(b.nskips, 1);
	assert_string_equal(b.items[0].text, "We are hiring an SRE.\n"
	    "\"Remote within the EU\" means it, from Lisbon to Tallinn.");
	assert_string_equal(b.items[0].platform_id,
	    "urn:li:share:7264000000000000001");
	assert_int_equal(time_parse_iso("2026-11-18T09:30:00Z", &t), 0);
	assert_int_equal(b.items[0].posted_at, t);
	assert_string_equal(b.items[2].text,
	    "Our pricing, explained\nhttps://tidewater.dev/pricing");
	assert_int_equal(b.items[0].metrics_set, 0);
	hist_batch_free(&b);
}

static void
test_generic_csv(void **state)
{
	struct hist_csv_map m = { .time = "when", .text = "body",
	    .id = "post id" };
	struct hist_batch b;

	m.metrics[HIST_IMPRESSIONS] = "views";
	m.metrics[HIST_LIKES] = "likes";
	parse_file(DATA "posts.csv", HIST_FMT_CSV, NULL, &m, &b);
	assert_int_equal(b.nitems, 2);
	assert_true(b.items[0].metrics[HIST_IMPRESSIONS] == 5400);
	/* an empty cell is unknown, not 0 */
	assert_false(metric_known(&b.items[1], HIST_IMPRESSIONS));
	assert_true(metric_known(&b.items[1], HIST_LIKES));
	hist_batch_free(&b);
}

static void
refused(enum hist_format f, const char *data, size_t len, const char *want)
{
	struct hist_csv_map m = { .time = "t", .text = "x" };
	struct hist_opts o = { "in", NULL, &m, 0, false };
	struct error err = { 0 };
	struct hist_batch b;

	assert_int_equal(hist_parse(f, &o, data, len, &b, &err), -1);
	assert_int_equal(b.nitems, 0);
	if (strstr(err.msg, want) == NULL)
		fail_msg("\"%s\" lacks \"%s\"", err.msg, want);
}

static void
test_damaged_refused(void **state)
{
	size_t len;
	char *car = slurp(DATA "repo.car", &len);
	char *js = slurp(EXPORTS "tweets.js", &len);

	refused(HIST_FMT_X, js, 3000, "line 89");
	refused(HIST_FMT_X, js, 3000, "truncated");
	refused(HIST_FMT_MASTODON, "{\"orderedItems\": [1,]}", 22,
	    "line 1, column");
	refused(HIST_FMT_BLUESKY_CAR, car, 900, "byte ");
	refused(HIST_FMT_BLUESKY_CAR, "\x01\x00", 2, "not a version 1");
	refused(HIST_FMT_CSV, "t,x\n2026-11-20T09:00:00Z,\"open", 30,
	    "truncated");
	refused(HIST_FMT_CSV, "t,x\nyesterday,hi\n", 16, "line 2");
	refused(HIST_FMT_LINKEDIN, "Date,ShareLink\n", 15, "ShareCommentary");
	free(car);
	free(js);
}

static void
test_topics(void **state)
{
	cJSON *fj = cJSON_Parse("{\"topics\": {\"pricing\": [\"pricing\", "
	    "\"price\", \"#plans\"], \"hiring\": [\"open role\", \"#hiring\"]}}");
	struct error err = { 0 };
	struct topics t;
	cJSON *a;
	char *s;

	assert_int_equal(topics_from_json(fj, "fronts.json", &t, &err), 0);
	a = topics_tag(&t, "New PRICE list, see #Plans");
	s = cJSON_PrintUnformatted(a);
	assert_string_equal(s, "[\"pricing\"]");
	free(s);
	cJSON_Delete(a);
	a = topics_tag(&t, "priceless plans; Open role for #hiringmanagers");
	s = cJSON_PrintUnformatted(a);
	assert_string_equal(s, "[\"hiring\"]");
	free(s);
	cJSON_Delete(a);
	topics_free(&t);
	cJSON_Delete(fj);
	fj = cJSON_Parse("{\"topics\": {\"x\": [\"\"]}}");
	assert_int_equal(topics_from_json(fj, "fronts.json", &t, &err), -1);
	assert_non_null(strstr(err.msg, "topics.x[0]"));
	cJSON_Delete(fj);
}

static void
merge_once(const char *existing, const struct hist_batch *b, time_t now,
    struct hist_merge *m)
{
	struct hist_merge_in in = { "history.jsonl", existing, strlen(existing),
	    "x", NULL, now };
	struct error err = { 0 };

	if (hist_merge(&in, b, m, &err) != 0)
		fail_msg("%s", err.msg);
}

static void
test_merge(void **state)
{
	struct hist_batch b;
	struct hist_merge m1, m2, m3;
	time_t now;
	char *first;

	assert_int_equal(time_parse_iso("2026-11-21T09:00:00Z", &now), 0);
	parse_file(EXPORTS "tweets.js", HIST_FMT_X, "@tidewaterdev", NULL, &b);
	merge_once("{\"id\":\"h1\",\"front\":\"x\"}\n", &b, now, &m1);
	assert_int_equal(m1.count[HIST_ADDED], 2);
	assert_int_equal(m1.count[HIST_SKIPPED], 2);
	assert_non_null(strstr(m1.text, "{\"id\":\"h1\",\"front\":\"x\"}\n"));
	/* 25 h old at now: not settled; no impressions key at all */
	assert_non_null(strstr(m1.text, "\"settled\":false"));
	assert_null(strstr(m1.text, "impressions"));
	first = xstrdup(m1.text);
	merge_once(first, &b, now, &m2);
	assert_int_equal(m2.count[HIST_ADDED], 0);
	assert_int_equal(m2.count[HIST_UPDATED], 0);
	assert_int_equal(m2.count[HIST_UNCHANGED], 2);
	assert_string_equal(m2.text, first);
	b.items[0].metrics[HIST_LIKES] = 75;
	merge_once(first, &b, now + 3 * 86400, &m3);
	assert_int_equal(m3.count[HIST_UPDATED], 2);	/* one count, both settle */
	assert_non_null(strstr(m3.changes[2].detail, "likes 61 → 75"));
	assert_non_null(strstr(m3.text, "\"likes\":75"));
	assert_null(strstr(m3.text, "\"settled\""));
	free(first);
	hist_merge_free(&m1);
	hist_merge_free(&m2);
	hist_merge_free(&m3);
	hist_batch_free(&b);
}

/* Parses data as format f for account, with now pinned. */
static int
parse_str(enum hist_format f, const char *data, const char *account,
    time_t now, bool force, struct hist_batch *b, struct error *err)
{
	struct hist_opts o = { "in", account, NULL, now, force };

	return hist_parse(f, &o, data, strlen(data), b, err);
}

#define X_TWEET(id, at, likes) "{\"tweet\": {\"id_str\": \"" id "\", " \
	"\"created_at\": \"" at "\", \"full_text\": \"post " id "\", " \
	"\"favorite_count\": " likes "}}"

static void
test_import_refuses_nul(void **state)
{
	const char js[] = "window.YTD.tweets.part0 = [" X_TWEET("1",
	    "Wed Nov 18 08:05:00 +0000 2026", "\"5\"") "]";
	char raw[sizeof js];
	struct error err = { 0 };
	struct hist_batch b;

	/* \u0000 in a JSON string: refused, with its line and column */
	assert_int_equal(parse_str(HIST_FMT_MASTODON_API, "[{\"id\": \"1\",\n"
	    "\"content\": \"cut\\u0000here\"}]", NULL, 0, false, &b, &err), -1);
	assert_non_null(strstr(err.msg, "line 2, column 16"));
	assert_non_null(strstr(err.msg, "NUL"));
	/* an escaped backslash before "u0000" is text, not a NUL */
	assert_int_equal(parse_str(HIST_FMT_MASTODON_API, "[{\"id\": \"1\", "
	    "\"created_at\": \"2026-11-18T08:00:00Z\", \"content\": "
	    "\"C:\\\\u0000\"}]", NULL, 0, false, &b, &err), 0);
	assert_string_equal(b.items[0].text, "C:\\u0000");
	hist_batch_free(&b);
	/* a raw NUL byte: refused with its position */
	memcpy(raw, js, sizeof js);
	raw[40] = '\0';
	assert_int_equal(hist_parse(HIST_FMT_X, &(struct hist_opts){ "in",
	    NULL, NULL, 0, false }, raw, sizeof js - 1, &b, &err), -1);
	assert_non_null(strstr(err.msg, "byte 40"));
}

static void
test_import_dates(void **state)
{
	struct error err = { 0 };
	struct hist_batch b;
	time_t now;

	assert_int_equal(time_parse_iso("2026-11-21T09:00:00Z", &now), 0);
	/* February has no 30th: refused, with where it is written */
	assert_int_equal(parse_str(HIST_FMT_X, "window.YTD.tweets.part0 = [\n"
	    X_TWEET("7", "Mon Feb 30 08:05:00 +0000 2026", "\"5\"") "]", NULL,
	    now, false, &b, &err), -1);
	assert_non_null(strstr(err.msg, "line 2, column"));
	assert_non_null(strstr(err.msg, "Mon Feb 30"));
	assert_int_equal(parse_str(HIST_FMT_X, "window.YTD.tweets.part0 = ["
	    X_TWEET("7", "Sun Feb 29 08:05:00 +0000 2032", "\"5\"") "]", NULL,
	    0, false, &b, &err), 0);
	hist_batch_free(&b);
	/* the ISO formats too: the field, the value and where it is */
	assert_int_equal(parse_str(HIST_FMT_MASTODON_API, "[{\"id\": \"1\",\n"
	    "\"created_at\": \"2026-02-30T08:00:00Z\", \"content\": \"x\"}]",
	    NULL, now, false, &b, &err), -1);
	assert_non_null(strstr(err.msg, "line 2, column 16: status 1: "
	    "created_at \"2026-02-30T08:00:00Z\" is no date"));
	assert_int_equal(parse_str(HIST_FMT_BLUESKY_FEED, "{\"feed\": [{"
	    "\"post\": {\"uri\": \"at://did:plc:a/app.bsky.feed.post/1\", "
	    "\"record\": {\"text\": \"x\", \"createdAt\": "
	    "\"2026-04-31T00:00:00Z\"}}}]}", NULL, now, false, &b, &err), -1);
	assert_non_null(strstr(err.msg, "record.createdAt \"2026-04-31"));
	assert_non_null(strstr(err.msg, "line 1, column"));
	/* dated 2100: skipped, with the reason; now's own post kept */
	assert_int_equal(parse_str(HIST_FMT_X, "window.YTD.tweets.part0 = ["
	    X_TWEET("8", "Fri Jan 01 00:00:00 +0000 2100", "\"5\"") ","
	    X_TWEET("9", "Sat Nov 21 09:00:00 +0000 2026", "\"5\"") "]", NULL,
	    now, false, &b, &err), 0);
	assert_int_equal(b.nitems, 1);
	assert_string_equal(b.items[0].platform_id, "9");
	assert_int_equal(b.nskips, 1);
	assert_string_equal(b.skips[0].what, "8");
	assert_non_null(strstr(b.skips[0].reason, "2100-01-01"));
	assert_non_null(strstr(b.skips[0].reason, "after now"));
	hist_batch_free(&b);
}

static void
test_import_bad_counts(void **state)
{
	struct error err = { 0 };
	struct hist_batch b;

	assert_int_equal(parse_str(HIST_FMT_X, "window.YTD.tweets.part0 = ["
	    X_TWEET("1", "Wed Nov 18 08:05:00 +0000 2026", "\"-5\"") ","
	    X_TWEET("2", "Wed Nov 18 08:05:00 +0000 2026", "\"abc\"") ","
	    X_TWEET("3", "Wed Nov 18 08:05:00 +0000 2026", "\"3.5\"") ","
	    X_TWEET("4", "Wed Nov 18 08:05:00 +0000 2026", "\"1e3\"") ","
	    X_TWEET("5", "Wed Nov 18 08:05:00 +0000 2026", "1e20") ","
	    X_TWEET("6", "Wed Nov 18 08:05:00 +0000 2026", "-5") ","
	    X_TWEET("7", "Wed Nov 18 08:05:00 +0000 2026", "3.5") ","
	    X_TWEET("8", "Wed Nov 18 08:05:00 +0000 2026", "\"12\"") "]",
	    NULL, 0, false, &b, &err), 0);
	assert_int_equal(b.nitems, 8);
	assert_int_equal(b.bad_counts[HIST_BAD_NEGATIVE], 2);
	assert_int_equal(b.bad_counts[HIST_BAD_NOT_NUMBER], 1);
	assert_int_equal(b.bad_counts[HIST_BAD_FRACTION], 2);
	assert_int_equal(b.bad_counts[HIST_BAD_NOT_DIGITS], 1);
	assert_int_equal(b.bad_counts[HIST_BAD_TOO_LARGE], 1);
	assert_false(metric_known(&b.items[0], HIST_LIKES));
	assert_true(metric_known(&b.items[7], HIST_LIKES));
	assert_true(b.items[7].metrics[HIST_LIKES] == 12);
	hist_batch_free(&b);
}

#define OUTBOX(actor, id) "{\"orderedItems\": [{\"type\": \"Create\", " \
	"\"actor\": \"" actor "\", \"object\": {\"type\": \"Note\", \"id\": \"" \
	id "\", \"published\": \"2026-11-18T08:00:00Z\", \"content\": " \
	"\"<p>hi</p>\", \"to\": [\"https://www.w3.org/ns/activitystreams" \
	"#Public\"]}}]}"

static void
test_import_outbox_actor(void **state)
{
	const char *other = OUTBOX("https://other.example/users/tidewater",
	    "https://other.example/users/tidewater/statuses/42");
	const char *mine = OUTBOX("https://mastodon.example/users/tidewater",
	    "https://mastodon.example/users/tidewater/statuses/42");
	struct error err = { 0 };
	struct hist_batch b;

	assert_int_equal(parse_str(HIST_FMT_MASTODON, mine,
	    "@tidewater@mastodon.example", 0, false, &b, &err), 0);
	assert_int_equal(b.nitems, 1);
	hist_batch_free(&b);
	assert_int_equal(parse_str(HIST_FMT_MASTODON, OUTBOX(
	    "https://mastodon.example/users/ledgerline", "https://mastodon."
	    "example/users/ledgerline/statuses/1"), "@tidewater", 0, false, &b,
	    &err), -1);
	assert_non_null(strstr(err.msg, "--force"));
	assert_int_equal(parse_str(HIST_FMT_MASTODON, other,
	    "@tidewater@mastodon.example", 0, false, &b, &err), -1);
	assert_non_null(strstr(err.msg, "other.example/users/tidewater"));
	assert_int_equal(parse_str(HIST_FMT_MASTODON, other,
	    "@tidewater@mastodon.example", 0, true, &b, &err), 0);
	assert_int_equal(b.nitems, 1);
	hist_batch_free(&b);
}

/* Status 42 on two instances: two posts, on every import. */
static void
test_merge_two_instances(void **state)
{
	const char *a = OUTBOX("https://a.example/users/t",
	    "https://a.example/users/t/statuses/42");
	const char *c = OUTBOX("https://b.example/users/t",
	    "https://b.example/users/t/statuses/42");
	struct error err = { 0 };
	struct hist_batch ba, bb;
	struct hist_merge m1, m2, m3;

	assert_int_equal(parse_str(HIST_FMT_MASTODON, a, NULL, 0, false, &ba,
	    &err), 0);
	assert_int_equal(parse_str(HIST_FMT_MASTODON, c, NULL, 0, false, &bb,
	    &err), 0);
	assert_string_equal(ba.items[0].platform_id, bb.items[0].platform_id);
	merge_once("", &ba, 0, &m1);
	merge_once(m1.text, &bb, 0, &m2);
	assert_int_equal(m2.count[HIST_ADDED], 1);
	assert_non_null(strstr(m2.text, "https://b.example/users/t/statuses/42"));
	merge_once(m2.text, &bb, 0, &m3);
	assert_int_equal(m3.count[HIST_ADDED], 0);
	assert_int_equal(m3.count[HIST_UNCHANGED], 1);
	hist_merge_free(&m1);
	hist_merge_free(&m2);
	hist_merge_free(&m3);
	hist_batch_free(&ba);
	hist_batch_free(&bb);
}

/* The same id twice in one file: the first occurrence, every time. */
static void
test_merge_duplicate_ids(void **state)
{
	struct error err = { 0 };
	struct hist_batch b;
	struct hist_merge m1, m2, m3;

	assert_int_equal(parse_str(HIST_FMT_X, "window.YTD.tweets.part0 = ["
	    X_TWEET("1", "Wed Nov 18 08:05:00 +0000 2026", "\"5\"") ","
	    X_TWEET("1", "Wed Nov 18 08:05:00 +0000 2026", "\"9\"") "]",
	    NULL, 0, false, &b, &err), 0);
	merge_once("", &b, 0, &m1);
	assert_int_equal(m1.count[HIST_ADDED], 1);
	assert_int_equal(m1.count[HIST_SKIPPED], 1);
	assert_int_equal(m1.duplicates, 1);
	assert_non_null(strstr(m1.changes[1].detail, "first occurrence"));
	assert_non_null(strstr(m1.text, "\"likes\":5"));
	merge_once(m1.text, &b, 0, &m2);
	assert_int_equal(m2.count[HIST_UPDATED], 0);
	assert_int_equal(m2.duplicates, 1);
	assert_string_equal(m2.text, m1.text);
	merge_once(m2.text, &b, 0, &m3);
	assert_string_equal(m3.text, m1.text);
	hist_merge_free(&m1);
	hist_merge_free(&m2);
	hist_merge_free(&m3);
	hist_batch_free(&b);
}

static void
test_merge_refuses_damaged(void **state)
{
	struct hist_merge_in in = { "history.jsonl", "{\"id\":1}\nnot json\n",
	    18, "x", NULL, 0 };
	struct hist_batch b = { 0 };
	struct hist_merge m;
	struct error err = { 0 };

	assert_int_equal(hist_merge(&in, &b, &m, &err), -1);
	assert_non_null(strstr(err.msg, "history.jsonl:2"));
}

static void
test_x_link_expanding_to_itself(void **state)
{
	static const char js[] = "window.YTD.tweets.part0 = [{\"tweet\": {"
	    "\"id_str\": \"9\", \"created_at\": \"Fri Nov 20 08:05:00 +0000 "
	    "2026\", \"full_text\": \"see https://t.co/a and https://t.co/a\", "
	    "\"entities\": {\"urls\": [{\"url\": \"https://t.co/a\", "
	    "\"expanded_url\": \"https://t.co/a/b\"}]}}}]";
	struct hist_opts o = { "tweets.js", "@me", NULL, 0, false };
	struct error err = { 0 };
	struct hist_batch b;

	assert_int_equal(hist_parse(HIST_FMT_X, &o, js, sizeof js - 1, &b,
	    &err), 0);
	assert_string_equal(b.items[0].text,
	    "see https://t.co/a/b and https://t.co/a/b");
	assert_int_equal(b.items[0].metrics_set, 0);
	hist_batch_free(&b);
}

static void
test_x_api_lookup(void **state)
{
	static const char ok[] = "{\"data\": {\"data\": {\"id\": \"7\", "
	    "\"created_at\": \"2026-11-20T08:05:00.000Z\", \"text\": \"a &amp; b\", "
	    "\"public_metrics\": {\"impression_count\": 900, \"like_count\": 3, "
	    "\"retweet_count\": 1, \"reply_count\": 0, \"quote_count\": 2}}}, "
	    "\"successful\": true}";
	static const char gone[] = "{\"data\": {\"errors\": [{\"title\": "
	    "\"Not Found Error\"}]}, \"successful\": true}";
	struct hist_opts o = { "lookup", "@me", NULL, 0, false };
	struct error err = { 0 };
	struct hist_batch b;

	assert_int_equal(hist_parse(HIST_FMT_X_API, &o, ok, sizeof ok - 1, &b,
	    &err), 0);
	assert_int_equal(b.nitems, 1);
	assert_string_equal(b.items[0].text, "a & b");
	assert_true(b.items[0].metrics[HIST_IMPRESSIONS] == 900);
	assert_true(metric_known(&b.items[0], HIST_REPLIES));
	assert_false(metric_known(&b.items[0], HIST_CLICKS));
	hist_batch_free(&b);
	assert_int_equal(hist_parse(HIST_FMT_X_API, &o, gone, sizeof gone - 1,
	    &b, &err), 0);
	assert_int_equal(b.nitems, 0);
}

static void
put(const char *dir, const char *name, const char *text)
{
	char *path = path_join(dir, name);
	struct error err = { 0 };

	assert_int_equal(file_write_atomic(path, text, strlen(text), &err), 0);
	free(path);
}

/* The loader reads what imports write; ctx leaves unknown metrics out
 * and says which posts are unsettled; drafts without topics are tagged. */
static void
test_project_reads_imports(void **state)
{
	char tmpl[] = "/tmp/fronts-history-XXXXXX", *dir, *s, *cmd, *sys, *task;
	struct project *p;
	struct error err = { 0 };
	cJSON *ctx;

	assert_non_null(dir = mkdtemp(tmpl));
	put(dir, "fronts.json", "{\"name\": \"t\", \"timezone\": \"UTC\", "
	    "\"start\": \"2026-12-01T08:00:00Z\", \"slot_minutes\": 60, "
	    "\"horizon_slots\": 4, \"provider\": {\"name\": \"anthropic\"}, "
	    "\"fronts\": [{\"id\": \"m\", \"platform\": \"mastodon\"}], "
	    "\"topics\": {\"pricing\": [\"price\"]}}");
	put(dir, "rules.md", "rules\n");
	put(dir, "history.jsonl", "{\"id\":\"m-1\",\"front\":\"m\","
	    "\"posted_at\":\"2026-11-30T09:00:00Z\",\"text\":\"hi\","
	    "\"topics\":[],\"metrics\":{\"likes\":3},\"platform_id\":\"11\","
	    "\"url\":\"https://m.example/@a/11\",\"settled\":false,"
	    "\"predicted\":{\"reward\":4.5,\"ci95\":[1,8]}}\n");
	put(dir, "drafts.jsonl", "{\"id\":\"d1\",\"text\":\"New price list\"}\n");
	if (project_load(dir, &p, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(p->nwarnings, 0);
	assert_string_equal(p->history[0].platform_id, "11");
	assert_true(p->history[0].unsettled);
	assert_true(p->history[0].has_predicted);
	assert_true(p->history[0].predicted_hi == 8);
	assert_int_equal(p->drafts[0].ntopics, 1);
	assert_string_equal(p->drafts[0].topics[0], "pricing");
	ctx = project_ctx_json(p);
	s = cJSON_PrintUnformatted(cJSON_GetObjectItem(ctx, "history"));
	assert_non_null(strstr(s, "\"metrics\":{\"likes\":3},\"settled\":false"));
	free(s);
	cJSON_Delete(ctx);
	/* the synth prompt says unknown, not 0 */
	assert_int_equal(synth_prompt(p, &sys, &task, &err), 0);
	assert_non_null(strstr(task, "impressions unknown likes 3 reposts "
	    "unknown"));
	free(sys);
	free(task);
	project_free(p);
	put(dir, "history.jsonl", "{\"id\":\"m-1\",\"front\":\"m\","
	    "\"posted_at\":\"2026-11-30T09:00:00Z\",\"text\":\"hi\","
	    "\"metrics\":{},\"predicted\":{\"reward\":\"high\"}}\n");
	assert_int_equal(project_load(dir, &p, &err), -1);
	assert_non_null(strstr(err.msg, "predicted"));
	assert_true(xasprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* What publishing saves per ledger entry comes back for pull; the latest
 * attempt wins; a missing file is no error. */
static void
test_predictions(void **state)
{
	char tmpl[] = "/tmp/fronts-pred-XXXXXX", *dir, *cmd;
	struct hist_prediction pr, a = { 10, 5, 15, NAN }, b = { 1, 0, 2, NAN };
	struct hist_prediction c = { 12, 6, 18, 4.5 };
	struct plan_post pp = { .expected_reward = 20, .reward_known = true,
	    .ci_lo = 18.04, .ci_hi = 21.96, .visits = 100 };
	struct error err = { 0 };

	assert_non_null(dir = mkdtemp(tmpl));
	assert_false(hist_prediction_find(dir, "e1", &pr));
	assert_int_equal(hist_prediction_save(dir, "e1", &a, &err), 0);
	assert_int_equal(hist_prediction_save(dir, "e2", &b, &err), 0);
	assert_int_equal(hist_prediction_save(dir, "e1", &c, &err), 0);
	assert_true(hist_prediction_find(dir, "e1", &pr));
	assert_true(pr.reward == 12 && pr.lo == 6 && pr.hi == 18 &&
	    pr.sd == 4.5);
	assert_true(hist_prediction_find(dir, "e2", &pr));
	assert_true(isnan(pr.sd));	/* none saved: unknown, not 0 */
	assert_false(hist_prediction_find(dir, "e3", &pr));
	/* the plan's ci95 of the mean and its visits give one post's sd */
	hist_prediction_of(&pp, &pr);
	assert_true(fabs(pr.sd - 10) < 1e-9 && pr.reward == 20);
	pp.reward_known = false;
	hist_prediction_of(&pp, &pr);
	assert_true(isnan(pr.reward) && isnan(pr.sd));
	assert_true(xasprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x_archive),
		cmocka_unit_test(test_mastodon_outbox),
		cmocka_unit_test(test_bluesky_feed),
		cmocka_unit_test(test_bluesky_car),
		cmocka_unit_test(test_linkedin_shares),
		cmocka_unit_test(test_generic_csv),
		cmocka_unit_test(test_damaged_refused),
		cmocka_unit_test(test_topics),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_refuses_damaged),
		cmocka_unit_test(test_x_link_expanding_to_itself),
		cmocka_unit_test(test_project_reads_imports),
		cmocka_unit_test(test_x_api_lookup),
		cmocka_unit_test(test_predictions),
		cmocka_unit_test(test_import_refuses_nul),
		cmocka_unit_test(test_import_dates),
		cmocka_unit_test(test_import_bad_counts),
		cmocka_unit_test(test_import_outbox_actor),
		cmocka_unit_test(test_merge_two_instances),
		cmocka_unit_test(test_merge_duplicate_ids),
	};

	timeutil_set_zone("UTC");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
