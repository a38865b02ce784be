/* Unit tests for the publish ledger: records survive a reopen, states
 * follow the records, an intent alone reads as unknown, sent posts feed
 * the legality history, and damaged lines are reported by file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "core/ledger.h"
#include "core/timeutil.h"

static char *
tmp_project(void)
{
	char tmpl[] = "/tmp/fronts-ledger-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return strdup(tmpl);
}

static void
rm_project(char *dir)
{
	char *cmd;

	assert_true(xasprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

static struct ledger_intent
intent_for(const char *front, const char *draft, int slot, time_t now)
{
	struct ledger_intent in = { "plan1", slot, front, draft,
	    "Launch day: fronts ships.", "composio/TWITTER_CREATION_OF_A_POST",
	    NULL, 1796112000, now, false, 0, 0 };

	return in;
}

static void
append_raw(const char *dir, const char *text)
{
	char *path;
	FILE *f;

	xasprintf(&path, "%s/.fronts/ledger.jsonl", dir);
	assert_non_null(f = fopen(path, "a"));
	fputs(text, f);
	fclose(f);
	free(path);
}

/* A record as ledgers held them before lines carried a checksum. */
#define LEGACY_INTENT "{\"record\":\"intent\",\"entry\":\"e0123456789abcdef\"," \
	"\"time\":\"2026-12-01T09:00:00Z\",\"plan\":\"old\",\"slot\":0," \
	"\"front\":\"x\",\"draft\":\"d9\",\"at\":\"2026-12-01T09:00:00Z\"," \
	"\"text_sha256\":\"" \
	"0000000000000000000000000000000000000000000000000000000000000000\"," \
	"\"channel\":\"mastodon\",\"key\":\"e0123456789abcdef\"}"

static void
mkdir_fronts(const char *dir)
{
	char *path;

	xasprintf(&path, "%s/.fronts", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	free(path);
}

static void
test_empty_ledger(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct error err = { 0 };

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nentries, 0);
	assert_int_equal(l.nproblems, 0);
	ledger_free(&l);
	rm_project(dir);
}

static void
test_intent_then_sent_survives_reopen(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct ledger_intent in = intent_for("x", "d1", 3, 1796115600);
	struct ledger_entry *e;
	struct ledger_sent *sent;
	struct error err = { 0 };

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	assert_int_equal(e->state, LEDGER_PENDING);
	assert_int_equal(ledger_unresolved(&l), 1);
	assert_int_equal(ledger_outcome(&l, e, LEDGER_SENT, "1234",
	    "https://x.com/acme/status/1234", NULL, 1796115601, &err), 0);
	ledger_free(&l);

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 0);
	assert_int_equal(l.nentries, 1);
	e = &l.entries[0];
	assert_int_equal(e->state, LEDGER_SENT);
	assert_string_equal(e->post_id, "1234");
	assert_string_equal(e->front, "x");
	assert_int_equal(e->slot, 3);
	assert_int_equal(e->at, 1796112000);
	assert_int_equal(ledger_unresolved(&l), 0);
	assert_int_equal(ledger_sent_posts(&l, false, &sent), 1);
	assert_string_equal(sent[0].front, "x");
	assert_string_equal(sent[0].draft, "d1");
	assert_int_equal(sent[0].at, 1796115600);
	free(sent);
	/* A sent post is never attempted again. */
	assert_int_equal(ledger_intent(&l, &in, &e, &err), -1);
	assert_int_equal(err.code, EXIT_REFUSED);
	ledger_free(&l);
	rm_project(dir);
}

static void
test_intent_without_outcome_is_unknown(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct ledger_intent in = intent_for("x", "d1", 0, 1796115600);
	struct ledger_entry *e;
	struct ledger_sent *sent;
	struct error err = { 0 };

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	ledger_free(&l);	/* the process "dies" here */

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nentries, 1);
	assert_int_equal(l.entries[0].state, LEDGER_PENDING);
	assert_string_equal(ledger_state_name(l.entries[0].state), "unknown");
	assert_int_equal(ledger_unresolved(&l), 1);
	/* For caps it may count as posted; it is not known to be sent. */
	assert_int_equal(ledger_sent_posts(&l, false, &sent), 0);
	free(sent);
	assert_int_equal(ledger_sent_posts(&l, true, &sent), 1);
	assert_int_equal(sent[0].at, 1796115600);
	free(sent);
	/* No second attempt while the first is unresolved. */
	assert_int_equal(ledger_intent(&l, &in, &e, &err), -1);
	assert_non_null(strstr(err.msg, "unknown"));
	ledger_free(&l);
	rm_project(dir);
}

static void
test_failed_then_retry_then_settle(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct ledger_intent in = intent_for("m", "d2", 1, 1796115600);
	struct ledger_entry *e;
	struct ledger_sent *sent;
	struct error err = { 0 };

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	assert_int_equal(ledger_outcome(&l, e, LEDGER_FAILED, NULL, NULL,
	    "connection refused", 1796115601, &err), 0);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	assert_int_equal(ledger_outcome(&l, e, LEDGER_UNKNOWN, NULL, NULL,
	    "timed out after sending", 1796115700, &err), 0);
	/* Only one outcome per attempt. */
	assert_int_equal(ledger_outcome(&l, e, LEDGER_SENT, NULL, NULL, NULL,
	    1796115701, &err), -1);
	ledger_free(&l);

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	e = &l.entries[0];
	assert_int_equal(l.nentries, 1);
	assert_int_equal(e->attempts, 2);
	assert_int_equal(e->state, LEDGER_UNKNOWN);
	assert_string_equal(e->reason, "timed out after sending");
	assert_int_equal(ledger_settle(&l, e, true, "https://m.example/@a/1",
	    1796119200, &err), 0);
	assert_int_equal(ledger_settle(&l, e, false, NULL, 1796119201, &err),
	    -1);
	ledger_free(&l);

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.entries[0].state, LEDGER_SENT);
	assert_true(l.entries[0].settled);
	assert_string_equal(l.entries[0].url, "https://m.example/@a/1");
	assert_int_equal(ledger_sent_posts(&l, false, &sent), 1);
	assert_int_equal(sent[0].at, 1796115600);
	free(sent);
	ledger_free(&l);
	rm_project(dir);
}

/* A skipped post survives a reopen with its reason, takes no intent
 * afterwards, and never reaches the legality history. */
static void
test_skipped_is_final_and_not_sent(void **state)
{
	char *dir = tmp_project();
	struct ledger_intent in = intent_for("x", "d3", 4, 1796112600);
	struct ledger_entry *e;
	struct ledger_sent *sent;
	struct ledger l;
	struct error err = { 0 };

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(ledger_skip(&l, &in, "late", &err), 0);
	assert_int_equal(ledger_skip(&l, &in, "late", &err), -1);
	ledger_free(&l);
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 0);
	assert_int_equal(l.nentries, 1);
	assert_int_equal(l.entries[0].state, LEDGER_SKIPPED);
	assert_string_equal(l.entries[0].reason, "late");
	assert_string_equal(ledger_state_name(LEDGER_SKIPPED), "skipped");
	assert_int_equal(ledger_unresolved(&l), 0);
	assert_int_equal(ledger_sent_posts(&l, true, &sent), 0);
	free(sent);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), -1);
	assert_non_null(strstr(err.msg, "skipped"));
	ledger_free(&l);
	rm_project(dir);
}

static void
test_truncated_last_line_is_reported(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct ledger_intent in = intent_for("x", "d1", 0, 1796115600);
	struct ledger_entry *e;
	struct error err = { 0 };

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	ledger_free(&l);
	append_raw(dir, "{\"record\":\"sent\",\"entry\":\"e0");

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:2:"));
	assert_non_null(strstr(l.problems[0], "truncated"));
	/* The entry before it is still there, and nothing is appended after
	 * the damage. */
	assert_int_equal(l.nentries, 1);
	e = &l.entries[0];
	assert_int_equal(ledger_outcome(&l, e, LEDGER_FAILED, NULL, NULL, "x",
	    1796115601, &err), -1);
	assert_non_null(strstr(err.msg, "ledger.jsonl:2:"));
	ledger_free(&l);
	rm_project(dir);
}

static void
test_corrupt_line_is_reported(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct error err = { 0 };

	mkdir_fronts(dir);
	append_raw(dir, LEGACY_INTENT "\n"
	    "{\"record\":\"sent\",\"entry\":\"e0000000000000000\"}\n"
	    "garbage\n");

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 2);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:2:"));
	assert_non_null(strstr(l.problems[0], "no intent"));
	assert_non_null(strstr(l.problems[1], "ledger.jsonl:3:"));
	ledger_free(&l);
	rm_project(dir);
}

/* A hand repair that lost a newline: the second record must not hide. */
static void
test_two_records_on_one_line(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct error err = { 0 };

	mkdir_fronts(dir);
	append_raw(dir, LEGACY_INTENT LEGACY_INTENT "\n");
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:1: text after the "
	    "record's JSON"));
	ledger_free(&l);
	rm_project(dir);
	dir = tmp_project();
	mkdir_fronts(dir);
	append_raw(dir, LEGACY_INTENT " x\n");
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "text after"));
	ledger_free(&l);
	rm_project(dir);
}

/* Lines carry a checksum: an edit, or a line without one after the first
 * that had one, is damage; old lines without any are read as they are. */
static void
test_checksum(void **state)
{
	char *dir = tmp_project(), *path, *data, *p;
	struct ledger l;
	struct ledger_intent in = intent_for("x", "d1", 0, 1796115600);
	struct ledger_entry *e;
	struct error err = { 0 };
	size_t len;
	FILE *f;

	mkdir_fronts(dir);
	append_raw(dir, LEGACY_INTENT "\n");
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 0);		/* legacy: accepted */
	assert_int_equal(l.nunsealed, 1);
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	ledger_free(&l);
	xasprintf(&path, "%s/.fronts/ledger.jsonl", dir);
	assert_int_equal(file_read(path, &data, &len, &err), 0);
	assert_non_null(p = strstr(data, "\"sum\":\""));
	assert_int_equal(p[6 + LEDGER_SUM_LEN + 1], '"');
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 0);
	ledger_free(&l);
	/* An edit: the draft of the sealed intent changed by hand. */
	p = strstr(data + strlen(LEGACY_INTENT) + 1, "\"draft\":\"d1\"");
	assert_non_null(p);
	p[10] = '2';
	assert_non_null(f = fopen(path, "w"));
	fputs(data, f);
	fclose(f);
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:2: checksum "
	    "mismatch"));
	ledger_free(&l);
	p[10] = '1';
	assert_non_null(f = fopen(path, "w"));
	fputs(data, f);
	fclose(f);
	/* After a sealed line, a line without a checksum. */
	append_raw(dir, "{\"record\":\"failed\",\"entry\":\"e1\"}\n");
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:3: no checksum"));
	assert_int_equal(ledger_intent(&l, &in, &e, &err), -1);
	ledger_free(&l);
	free(data);
	free(path);
	rm_project(dir);
}

static void
test_entry_id_is_stable_and_distinct(void **state)
{
	char a[LEDGER_ID_LEN], b[LEDGER_ID_LEN], c[LEDGER_ID_LEN];

	ledger_entry_id("p", 1, "x", "d1", "hello", a);
	ledger_entry_id("p", 1, "x", "d1", "hello", b);
	assert_string_equal(a, b);
	assert_int_equal(strlen(a), LEDGER_ID_LEN - 1);
	assert_int_equal(a[0], 'e');
	ledger_entry_id("p", 1, "x", "d1", "hello!", c);
	assert_string_not_equal(a, c);
	ledger_entry_id("p", 2, "x", "d1", "hello", c);
	assert_string_not_equal(a, c);
}

static void
test_time_roundtrip(void **state)
{
	char buf[32];
	time_t t;

	time_format_utc(1796112000, buf, sizeof buf);
	assert_string_equal(buf, "2026-12-01T08:00:00Z");
	assert_int_equal(time_parse_iso(buf, &t), 0);
	assert_int_equal(t, 1796112000);
	assert_int_equal(time_parse_iso("2026-12-01T09:00:00+01:00", &t), 0);
	assert_int_equal(t, 1796112000);
	assert_int_equal(time_parse_iso("2026-12-01", &t), -1);
}

#define SHA64	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"

/* An intent line written by hand, with the given planned time. */
static void
append_intent(const char *dir, const char *id, const char *at,
    const char *time)
{
	char *line;

	xasprintf(&line, "{\"record\":\"intent\",\"entry\":\"%s\","
	    "\"time\":\"%s\",\"plan\":\"p\",\"slot\":0,\"front\":\"x\","
	    "\"draft\":\"d1\",\"at\":\"%s\",\"text_sha256\":\"" SHA64 "\","
	    "\"channel\":\"mastodon\"}\n", id, time, at);
	append_raw(dir, line);
	free(line);
}

/* Dates that do not exist are malformed records, never another day. */
static void
test_impossible_dates_are_reported(void **state)
{
	static const char *bad[] = {
		"2026-02-30T08:00:00Z",		/* would be 03-02 */
		"2026-04-31T08:00:00Z",
		"2026-13-01T08:00:00Z",
		"2026-12-01T24:00:00Z",
		"2025-02-29T08:00:00Z",		/* 2025 is no leap year */
		"2026-12-01T08:60:00Z",
		"2026-12-01T08:00:00+25:00",
	};
	char *dir = tmp_project(), *fronts, id[32];
	struct ledger l;
	struct error err = { 0 };
	size_t i, n = sizeof bad / sizeof bad[0];

	fronts = path_join(dir, ".fronts");
	assert_int_equal(dir_ensure(fronts, &err), 0);
	free(fronts);
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof id, "e%016zx", i);
		append_intent(dir, id, bad[i], "2026-12-01T07:00:00Z");
	}
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof id, "e%016zx", n + i);
		append_intent(dir, id, "2026-12-01T08:00:00Z", bad[i]);
	}
	/* The real leap day and an offset are fine. */
	append_intent(dir, "effffffffffffffff", "2028-02-29T08:00:00+01:00",
	    "2028-02-29T06:00:00.5Z");
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, (int)(2 * n));
	for (i = 0; i < 2 * n; i++) {
		char want[32];

		snprintf(want, sizeof want, "ledger.jsonl:%zu:", i + 1);
		assert_non_null(strstr(l.problems[i], want));
		assert_non_null(strstr(l.problems[i], "\"at\" or \"time\""));
	}
	assert_int_equal(l.nentries, 1);
	assert_int_equal(l.entries[0].at, 1835420400);
	assert_int_equal(l.entries[0].attempted, 1835416800);
	ledger_free(&l);
	rm_project(dir);
}

/* Records with none of their optional fields: no key, and outcomes
 * without post_id, url or reason. */
static void
test_optional_fields_absent(void **state)
{
	char *dir = tmp_project(), *fronts;
	struct ledger l;
	struct error err = { 0 };

	fronts = path_join(dir, ".fronts");
	assert_int_equal(dir_ensure(fronts, &err), 0);
	free(fronts);
	append_intent(dir, "e0000000000000001", "2026-12-01T08:00:00Z",
	    "2026-12-01T07:00:00Z");
	append_intent(dir, "e0000000000000002", "2026-12-01T08:00:00Z",
	    "2026-12-01T07:00:00Z");
	append_raw(dir, "{\"record\":\"sent\",\"entry\":\"e0000000000000001\"}\n"
	    "{\"record\":\"unknown\",\"entry\":\"e0000000000000002\"}\n"
	    "{\"record\":\"settle\",\"entry\":\"e0000000000000002\","
	    "\"state\":\"failed\"}\n"
	    "{\"record\":\"intent\",\"entry\":\"e0000000000000003\","
	    "\"time\":\"2026-12-01T07:00:00Z\",\"plan\":\"p\",\"slot\":1.5,"
	    "\"front\":\"x\",\"draft\":\"d1\",\"at\":\"2026-12-01T08:00:00Z\","
	    "\"text_sha256\":\"" SHA64 "\",\"channel\":\"mastodon\"}\n");
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	/* Only the fractional slot is a problem. */
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:6:"));
	assert_int_equal(l.nentries, 2);
	assert_int_equal(l.entries[0].state, LEDGER_SENT);
	assert_null(l.entries[0].key);
	assert_null(l.entries[0].post_id);
	assert_null(l.entries[0].url);
	assert_null(l.entries[0].reason);
	assert_int_equal(l.entries[1].state, LEDGER_FAILED);
	assert_true(l.entries[1].settled);
	assert_null(l.entries[1].reason);
	ledger_free(&l);
	rm_project(dir);
}

/* A thread: one entry per part, part 1 under the draft's own id, each
 * part's cid kept; only part 1 counts as the draft's post. A malformed
 * part number is damage. */
static void
test_thread_parts(void **state)
{
	char *dir = tmp_project();
	struct ledger l;
	struct ledger_intent in = intent_for("b", "d1", 3, 1796115600);
	struct ledger_entry *e;
	struct ledger_sent *sent;
	struct error err = { 0 };
	char id1[LEDGER_ID_LEN], id2[LEDGER_ID_LEN], plain[LEDGER_ID_LEN];

	assert_int_equal(ledger_open(dir, &l, &err), 0);
	in.part = 1;
	in.nparts = 2;
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	memcpy(id1, e->id, sizeof id1);
	assert_int_equal(ledger_outcome_cid(&l, e, LEDGER_SENT,
	    "at://did:plc:x/app.bsky.feed.post/a", "bafyA", NULL, NULL,
	    1796115601, &err), 0);
	in.part = 2;
	in.text = "and the second part";
	assert_int_equal(ledger_intent(&l, &in, &e, &err), 0);
	memcpy(id2, e->id, sizeof id2);
	assert_int_equal(ledger_outcome_cid(&l, e, LEDGER_SENT,
	    "at://did:plc:x/app.bsky.feed.post/b", "bafyB", NULL, NULL,
	    1796115602, &err), 0);
	ledger_free(&l);

	ledger_entry_id("plan1", 3, "b", "d1", "Launch day: fronts ships.",
	    plain);
	assert_string_equal(id1, plain);
	assert_string_not_equal(id1, id2);
	ledger_part_id("plan1", 3, "b", "d1", 2, "and the second part", plain);
	assert_string_equal(id2, plain);
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 0);
	assert_int_equal(l.nentries, 2);
	assert_int_equal(l.entries[0].part, 1);
	assert_int_equal(l.entries[0].nparts, 2);
	assert_string_equal(l.entries[0].cid, "bafyA");
	assert_int_equal(l.entries[1].part, 2);
	assert_string_equal(l.entries[1].cid, "bafyB");
	assert_string_equal(l.entries[1].draft, "d1");
	assert_int_equal(ledger_sent_posts(&l, true, &sent), 1);
	free(sent);
	ledger_free(&l);
	{
		/* Sealed as fronts seals a line, so only the part is wrong. */
		const char *bad = "{\"record\":\"intent\",\"entry\":"
		    "\"e0123456789abcdef\",\"time\":\"2026-12-01T09:00:00Z\","
		    "\"plan\":\"p\",\"slot\":0,\"front\":\"b\",\"draft\":"
		    "\"d9\",\"at\":\"2026-12-01T09:00:00Z\",\"text_sha256\":"
		    "\"0000000000000000000000000000000000000000000000000000000000000000\","
		    "\"channel\":\"bluesky\",\"part\":3,\"parts\":2}";
		char hex[65], *line;

		sha256_hex(bad, strlen(bad), hex);
		xasprintf(&line, "%.*s,\"sum\":\"%.16s\"}\n",
		    (int)strlen(bad) - 1, bad, hex);
		append_raw(dir, line);
		free(line);
	}
	assert_int_equal(ledger_open(dir, &l, &err), 0);
	assert_int_equal(l.nproblems, 1);
	assert_non_null(strstr(l.problems[0], "ledger.jsonl:5:"));
	assert_non_null(strstr(l.problems[0], "\"part\""));
	ledger_free(&l);
	rm_project(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_ledger),
		cmocka_unit_test(test_intent_then_sent_survives_reopen),
		cmocka_unit_test(test_intent_without_outcome_is_unknown),
		cmocka_unit_test(test_failed_then_retry_then_settle),
		cmocka_unit_test(test_skipped_is_final_and_not_sent),
		cmocka_unit_test(test_truncated_last_line_is_reported),
		cmocka_unit_test(test_corrupt_line_is_reported),
		cmocka_unit_test(test_two_records_on_one_line),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_entry_id_is_stable_and_distinct),
		cmocka_unit_test(test_time_roundtrip),
		cmocka_unit_test(test_impossible_dates_are_reported),
		cmocka_unit_test(test_optional_fields_absent),
		cmocka_unit_test(test_thread_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
