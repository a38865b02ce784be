/*
 * Unit tests for text: the twitter-text conformance cases
 * (tests/data/twitter-text), the reference table tests/data/lengths.jsonl
 * (values from the platforms' reference implementations, produced by
 * tools/reference/gen_lengths.js), and the rules of text_measure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "testutil.h"
#include "core/text.h"
#include "core/text_int.h"
#include "core/util.h"

#define MAX_SPANS 64

/* Calls fn on every JSON line of path; returns the number of lines. */
static int
each_line(const char *path, void (*fn)(const cJSON *, const char *, int *, int *),
    int *passed, int *failed)
{
	struct error err = { 0 };
	char *data, *line, *save = NULL;
	size_t len;
	int n = 0;

	if (file_read(path, &data, &len, &err) == -1)
		fail_msg("%s", err.msg);
	for (line = strtok_r(data, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		cJSON *j = cJSON_Parse(line);

		if (j == NULL)
			fail_msg("%s:%d: not JSON", path, n + 1);
		fn(j, path, passed, failed);
		cJSON_Delete(j);
		n++;
	}
	free(data);
	return n;
}

static const char *
jstr(const cJSON *j, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Every case must agree in every field: there are no known differences. */
static void
report(const char *file, const char *text, bool ok, const char *detail,
    int *passed, int *failed)
{
	if (ok) {
		(*passed)++;
		return;
	}
	print_error("%s: %s: %s\n", file, text, detail);
	(*failed)++;
}

static void
check_weighted(const cJSON *j, const char *file, int *passed, int *failed)
{
	struct text_measure m;
	const char *text = jstr(j, "text");
	int want = cJSON_GetObjectItem(j, "weightedLength")->valueint;
	bool valid = cJSON_IsTrue(cJSON_GetObjectItem(j, "valid"));
	char detail[128];

	assert_int_equal(text_measure(text, PLATFORM_X, NULL, &m), 0);
	snprintf(detail, sizeof(detail), "weighted %d (want %d), valid %d (want %d)",
	    m.length, want, m.ok, valid);
	report("weighted_length_v3", text, m.length == want && m.ok == valid,
	    detail, passed, failed);
}

/* Compares extracted spans (as strings, without prefix chars) to the
 * expected array. */
static void
check_spans(const cJSON *j, const char *file, int skip, bool urls,
    int *passed, int *failed)
{
	struct text_span s[MAX_SPANS];
	const char *text = jstr(j, "text");
	const cJSON *want = cJSON_GetObjectItem(j, "expected"), *w;
	char detail[1024] = "", got[512];
	int n, i = 0;
	bool ok;

	n = urls ? text_extract_urls(text, s, MAX_SPANS) :
	    text_extract_hashtags(text, s, MAX_SPANS);
	ok = n == cJSON_GetArraySize(want);
	for (i = 0; i < n && i < MAX_SPANS; i++) {
		snprintf(got, sizeof(got), "%.*s", (int)(s[i].end - s[i].start -
		    skip), text + s[i].start + skip);
		strncat(detail, got, sizeof(detail) - strlen(detail) - 2);
		strcat(detail, "|");
		w = cJSON_GetArrayItem(want, i);
		if (w == NULL || strcmp(w->valuestring, got) != 0)
			ok = false;
	}
	report(file, text, ok, detail, passed, failed);
}

static void
check_url(const cJSON *j, const char *file, int *passed, int *failed)
{
	check_spans(j, "extract_urls", 0, true, passed, failed);
}

static void
check_hashtag(const cJSON *j, const char *file, int *passed, int *failed)
{
	struct text_span s;
	const char *text = jstr(j, "text");
	int skip = 1;

	/* The hash sign may be '#' (1 byte) or '＃' (3 bytes). */
	if (text_extract_hashtags(text, &s, 1) > 0 &&
	    (unsigned char)text[s.start] == 0xef)
		skip = 3;
	check_spans(j, "extract_hashtags", skip, false, passed, failed);
}

static void
conformance(const char *name, void (*fn)(const cJSON *, const char *, int *, int *))
{
	char path[256];
	int passed = 0, failed = 0, n;

	snprintf(path, sizeof(path), "tests/data/twitter-text/%s.jsonl", name);
	n = each_line(path, fn, &passed, &failed);
	print_message("%s: %d of %d pass\n", name, passed, n);
	assert_int_equal(failed, 0);
}

static int
jint(const cJSON *j, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);

	if (!cJSON_IsNumber(v))
		fail_msg("lengths.jsonl: row without \"%s\"", k);
	return v->valueint;
}

/* Whether Bluesky's links are the row's facets, byte for byte. */
static bool
bluesky_links_agree(const char *text, const cJSON *want, char *got,
    size_t len)
{
	struct text_span sp[MAX_SPANS];
	const cJSON *w;
	size_t o = 0;
	int n, i;
	bool ok;

	n = text_extract_links(text, PLATFORM_BLUESKY, sp, MAX_SPANS);
	if (!cJSON_IsArray(want))
		fail_msg("lengths.jsonl: row without \"bluesky_links\"");
	ok = n == cJSON_GetArraySize(want);
	for (i = 0; i < n && i < MAX_SPANS; i++) {
		o += snprintf(got + o, len - o, "[%zu,%zu]", sp[i].start,
		    sp[i].end);
		if (o >= len)
			o = len - 1;
		w = cJSON_GetArrayItem(want, i);
		if (w == NULL ||
		    cJSON_GetArrayItem(w, 0)->valueint != (int)sp[i].start ||
		    cJSON_GetArrayItem(w, 1)->valueint != (int)sp[i].end)
			ok = false;
	}
	return ok;
}

/* One row of the reference table: every platform's count at once. */
static void
check_lengths(const cJSON *j, const char *file, int *passed, int *failed)
{
	const char *text = jstr(j, "text");
	struct text_measure x, bsky, masto, chars;
	char detail[512], facets[160] = "";
	bool ok;

	assert_int_equal(text_measure(text, PLATFORM_X, NULL, &x), 0);
	assert_int_equal(text_measure(text, PLATFORM_BLUESKY, NULL, &bsky), 0);
	assert_int_equal(text_measure(text, PLATFORM_MASTODON, NULL, &masto), 0);
	assert_int_equal(text_measure(text, PLATFORM_THREADS, NULL, &chars), 0);
	ok = x.length == jint(j, "x") &&
	    x.ok == cJSON_IsTrue(cJSON_GetObjectItem(j, "x_valid")) &&
	    bsky.length == jint(j, "graphemes") &&
	    masto.length == jint(j, "mastodon") &&
	    chars.length == jint(j, "chars") && x.bytes == jint(j, "bytes") &&
	    x.links == jint(j, "links") && x.hashtags == jint(j, "hashtags") &&
	    masto.links == jint(j, "mastodon_links");
	ok &= bluesky_links_agree(text, cJSON_GetObjectItem(j, "bluesky_links"),
	    facets, sizeof(facets));
	ok &= bsky.links == cJSON_GetArraySize(cJSON_GetObjectItem(j,
	    "bluesky_links"));
	snprintf(detail, sizeof(detail), "got x %d/%d graphemes %d mastodon %d "
	    "chars %d bytes %d links %d bluesky_links %s (%d) mastodon_links %d "
	    "hashtags %d", x.length, x.ok, bsky.length, masto.length,
	    chars.length, x.bytes, x.links, facets, bsky.links, masto.links,
	    x.hashtags);
	report("lengths", text, ok, detail, passed, failed);
}

static void
test_reference_table(void **state)
{
	int passed = 0, failed = 0, n;

	n = each_line("tests/data/lengths.jsonl", check_lengths, &passed,
	    &failed);
	print_message("lengths: %d of %d rows agree in every field\n", passed,
	    n);
	assert_true(n >= 200);
	assert_int_equal(failed, 0);
}

static void
test_weighted_length_v3(void **state)
{
	conformance("weighted_length_v3", check_weighted);
}

static void
test_extract_urls(void **state)
{
	conformance("extract_urls", check_url);
}

static void
test_extract_hashtags(void **state)
{
	conformance("extract_hashtags", check_hashtag);
}

static void
test_invalid_utf8(void **state)
{
	static const char *bad[] = { "\xff", "abc\xc3", "\xed\xa0\x80",
	    "\xc0\xaf", "\xf4\x90\x80\x80" };
	struct text_measure m;
	size_t i;
	int p;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (p = 0; p < PLATFORM_COUNT; p++)
			assert_int_equal(text_measure(bad[i], p, NULL, &m), -1);
		assert_int_equal(text_weighted_length(bad[i]), -1);
		assert_int_equal(text_grapheme_count(bad[i]), -1);
		assert_int_equal(text_codepoint_count(bad[i]), -1);
		assert_int_equal(text_extract_urls(bad[i], NULL, 0), -1);
		assert_int_equal(text_extract_hashtags(bad[i], NULL, 0), -1);
	}
}

static void
test_platform_defaults(void **state)
{
	static const struct { enum platform p; int limit; enum len_unit u;
	    int bytes; } want[] = {
		{ PLATFORM_X, 280, UNIT_WEIGHTED, 0 },
		{ PLATFORM_LINKEDIN, 3000, UNIT_CHARS, 0 },
		{ PLATFORM_BLUESKY, 300, UNIT_GRAPHEMES, 3000 },
		{ PLATFORM_MASTODON, 500, UNIT_GRAPHEMES, 0 },
		{ PLATFORM_THREADS, 500, UNIT_CHARS, 0 },
		{ PLATFORM_REDDIT, 300, UNIT_CHARS, 0 },
	};
	struct text_measure m;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(text_measure("hello", want[i].p, NULL, &m), 0);
		assert_int_equal(m.limit, want[i].limit);
		assert_int_equal(m.unit, want[i].u);
		assert_int_equal(m.byte_limit, want[i].bytes);
		assert_int_equal(m.length, 5);
		assert_int_equal(m.bytes, 5);
		assert_true(m.ok);
	}
	assert_string_equal(text_unit_name(UNIT_WEIGHTED), "weighted");
	assert_string_equal(text_unit_name(UNIT_GRAPHEMES), "graphemes");
	assert_string_equal(text_unit_name(UNIT_CHARS), "chars");
}

static char *
repeat(const char *s, int n)
{
	size_t len = strlen(s);
	char *out = xmalloc(len * (size_t)n + 1);
	int i;

	for (i = 0; i < n; i++)
		memcpy(out + len * (size_t)i, s, len);
	out[len * (size_t)n] = '\0';
	return out;
}

static void
test_limits_override(void **state)
{
	struct limits l = LIMITS_UNSET;
	struct text_measure m;
	char *s = repeat("\xe4\xb8\xad", 141);	/* 中 × 141 = weight 282 */

	assert_int_equal(text_measure(s, PLATFORM_X, &l, &m), 0);
	assert_int_equal(m.length, 282);
	assert_false(m.ok);
	l.max_length = 300;
	assert_int_equal(text_measure(s, PLATFORM_X, &l, &m), 0);
	assert_int_equal(m.limit, 300);
	assert_true(m.ok);
	l.max_length = 140;
	assert_int_equal(text_measure(s, PLATFORM_THREADS, &l, &m), 0);
	assert_int_equal(m.length, 141);
	assert_false(m.ok);
	free(s);
}

static void
test_bluesky_bytes(void **state)
{
	/* 250 family emoji: 250 graphemes but 6250 bytes. */
	char *s = repeat("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9"
	    "\xe2\x80\x8d\xf0\x9f\x91\xa7", 250);
	struct text_measure m;

	assert_int_equal(text_measure(s, PLATFORM_BLUESKY, NULL, &m), 0);
	assert_int_equal(m.length, 250);
	assert_int_equal(m.bytes, 250 * 18);
	assert_false(m.ok);
	free(s);
}

static void
test_mastodon_rules(void **state)
{
	struct text_measure m;

	/* A URL with a scheme counts 23; one without counts as written. */
	assert_int_equal(text_measure("see https://example.com/a/very/long/"
	    "path/that/goes/on/and/on", PLATFORM_MASTODON, NULL, &m), 0);
	assert_int_equal(m.length, 4 + 23);
	assert_int_equal(text_measure("see example.com", PLATFORM_MASTODON,
	    NULL, &m), 0);
	assert_int_equal(m.length, 15);
	assert_int_equal(m.links, 0);	/* Mastodon links no bare domain */
	/* Its extractor's other schemes are links that count 23 too. */
	assert_int_equal(text_measure("read gemini://example.com/a/long/path",
	    PLATFORM_MASTODON, NULL, &m), 0);
	assert_int_equal(m.links, 1);
	assert_int_equal(m.length, 5 + 23);
	assert_int_equal(text_measure("read ftp://example.com/a/long/path",
	    PLATFORM_MASTODON, NULL, &m), 0);
	assert_int_equal(m.links, 0);
	/* @user@domain counts as @user; a bare @user as written. */
	assert_int_equal(text_measure("hi @alice@mastodon.social!",
	    PLATFORM_MASTODON, NULL, &m), 0);
	assert_int_equal(m.length, 10);
	assert_int_equal(text_measure("hi @alice!", PLATFORM_MASTODON, NULL,
	    &m), 0);
	assert_int_equal(m.length, 10);
	/* Graphemes, not code points. */
	assert_int_equal(text_measure("e\xcc\x81", PLATFORM_MASTODON, NULL,
	    &m), 0);
	assert_int_equal(m.length, 1);
}

static void
test_counts(void **state)
{
	struct text_measure m;

	assert_int_equal(text_measure("#one #two and #three at x.com and "
	    "https://t.co/abc #4", PLATFORM_LINKEDIN, NULL, &m), 0);
	assert_int_equal(m.hashtags, 3);
	assert_int_equal(m.links, 2);
	assert_int_equal(text_weighted_length(""), 0);
	assert_int_equal(text_measure("", PLATFORM_X, NULL, &m), 0);
	assert_false(m.ok);	/* twitter-text: an empty post is not valid */
}

/* A ZWJ chain that is no emoji sequence: twitter-text weighs each emoji 2
 * and each joiner 1, while Bluesky and Mastodon see one grapheme. */
static void
test_x_emoji_chains(void **state)
{
	static const char *chains[] = {
		"\u2764\ufe0f\u200d\u2728",			/* heart ZWJ sparkles */
		"\u2728\u200d\U0001f3f3\ufe0f\u200d\U0001f308",	/* sparkles ZWJ rainbow flag */
		"\U0001f44d\U0001f3fd\u200d\u2764\ufe0f",	/* thumbs up, tone, ZWJ heart */
	};
	struct text_measure m;
	size_t i;

	for (i = 0; i < sizeof(chains) / sizeof(chains[0]); i++) {
		assert_int_equal(text_weighted_length(chains[i]), 2 + 1 + 2);
		assert_int_equal(text_measure(chains[i], PLATFORM_BLUESKY, NULL,
		    &m), 0);
		assert_int_equal(m.length, 1);
		assert_int_equal(text_measure(chains[i], PLATFORM_MASTODON, NULL,
		    &m), 0);
		assert_int_equal(m.length, 1);
	}
	/* A recognised sequence stays 2. */
	assert_int_equal(text_weighted_length("\U0001f3f3\ufe0f\u200d\U0001f308"),
	    2);
	assert_int_equal(text_weighted_length("\U0001f468\u200d\U0001f469"
	    "\u200d\U0001f467"), 2);
}

/* Conjuncts (GB9c) are one grapheme on Bluesky and Mastodon. */
static void
test_conjuncts(void **state)
{
	static const struct { const char *text; int graphemes; } want[] = {
		{ "\u0915\u094d\u0937", 1 },			/* Devanagari ksha */
		{ "\u0915\u094d\u0937\u094d\u092e", 1 },	/* three consonants */
		{ "\u0995\u09cd\u09b7", 1 },			/* Bengali */
		{ "\u0915\u094d\u200d\u0937", 1 },		/* ZWJ extends */
		{ "\u0915\u094d\u200c\u0937", 2 },		/* ZWNJ breaks */
		{ "\u0915\u094d \u0937", 3 },
		{ "a\u094d\u0937", 2 },			/* no consonant first */
	};
	struct text_measure m;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(text_grapheme_count(want[i].text) == -1, 0);
		assert_int_equal(text_measure(want[i].text, PLATFORM_BLUESKY,
		    NULL, &m), 0);
		if (m.length != want[i].graphemes)
			fail_msg("%s: %d graphemes, want %d", want[i].text,
			    m.length, want[i].graphemes);
	}
}

/* Links as each platform makes them: X by twitter-text (a known TLD), Bluesky
 * every http(s) URL and a bare domain with an IANA TLD, Mastodon every URL
 * with a scheme (whatever its host; never a bare domain), the others
 * either. */
static void
test_links_per_platform(void **state)
{
	static const struct {
		const char	*text;
		int		 x, bluesky, mastodon, other;
	} want[] = {
		{ "https://a.example", 0, 1, 1, 1 },
		{ "two https://a.example and https://b.example", 0, 2, 2, 2 },
		{ "http://x.test/ https://foo.invalid/a http://localhost:8080/",
		    0, 3, 3, 3 },
		{ "https://intranet/wiki", 0, 1, 1, 1 },
		{ "a.example and b.test", 0, 0, 0, 0 },
		{ "https://example.com example.com", 2, 2, 1, 2 },
		{ "HTTPS://a.example", 0, 0, 0, 0 },	/* the client is case-sensitive */
		{ "HTTPS://example.com", 1, 0, 1, 1 },
		{ "https://m\u00fcnchen.de", 1, 1, 1, 1 },	/* IDN host */
		{ "m\u00fcnchen.de", 1, 0, 0, 1 },
		{ "https://xn--mnchen-3ya.de/", 1, 1, 1, 1 },
		{ "(https://a.example)", 0, 1, 1, 1 },
		{ "(https://a.example).", 0, 1, 1, 1 },
		{ "see (https://example.com/x) now", 1, 1, 1, 1 },
		{ "https://a.example.", 0, 1, 1, 1 },
		{ "https://a.example!", 0, 1, 1, 1 },
		{ "Go to example.com.", 1, 1, 0, 1 },
		{ "my-site.com", 1, 0, 0, 1 },		/* the client wants [a-z0-9] labels */
		{ "x(https://a.example", 0, 1, 1, 1 },	/* "(" may follow anything */
		{ "ftp://a.example", 0, 0, 0, 0 },
	};
	static const enum platform other[] = { PLATFORM_LINKEDIN,
	    PLATFORM_THREADS, PLATFORM_REDDIT };
	struct text_measure m;
	size_t i, k;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(text_measure(want[i].text, PLATFORM_X, NULL,
		    &m), 0);
		if (m.links != want[i].x)
			fail_msg("%s: X %d links", want[i].text, m.links);
		assert_int_equal(text_measure(want[i].text, PLATFORM_BLUESKY,
		    NULL, &m), 0);
		if (m.links != want[i].bluesky)
			fail_msg("%s: Bluesky %d links", want[i].text, m.links);
		assert_int_equal(text_extract_links(want[i].text,
		    PLATFORM_BLUESKY, NULL, 0), want[i].bluesky);
		assert_int_equal(text_measure(want[i].text, PLATFORM_MASTODON,
		    NULL, &m), 0);
		if (m.links != want[i].mastodon)
			fail_msg("%s: Mastodon %d links", want[i].text, m.links);
		for (k = 0; k < sizeof(other) / sizeof(other[0]); k++) {
			assert_int_equal(text_measure(want[i].text, other[k],
			    NULL, &m), 0);
			if (m.links != want[i].other)
				fail_msg("%s: platform %d: %d links",
				    want[i].text, other[k], m.links);
		}
	}
}

/* Bluesky's link spans leave out trailing punctuation and an unbalanced
 * parenthesis, as its client's facets do. */
static void
test_bluesky_link_spans(void **state)
{
	struct text_span s[4];

	assert_int_equal(text_extract_links("(https://a.example).",
	    PLATFORM_BLUESKY, s, 4), 1);
	assert_int_equal(s[0].start, 1);
	assert_int_equal(s[0].end, 18);
	assert_int_equal(text_extract_links("\u00e9 https://a.example/x_(y)!",
	    PLATFORM_BLUESKY, s, 4), 1);
	assert_int_equal(s[0].start, 3);	/* bytes, not characters */
	assert_int_equal(s[0].end, 3 + 23);	/* balanced ")" kept, "!" not */
	assert_int_equal(text_extract_links("a.com,b.org c.net", PLATFORM_BLUESKY,
	    s, 4), 2);
	assert_int_equal(s[0].end, 11);		/* "a.com,b.org" less nothing */
	assert_int_equal(text_extract_links("\xff", PLATFORM_BLUESKY, s, 4), -1);
}

/* The group of a TLD in struct tld_index. */
static int
tld_group(const char *s)
{
	return *s >= 'a' && *s <= 'z' ? *s - 'a' : TLD_GROUP_OTHER;
}

/* The embedded TLD tables are tlds.json: every TLD once, in its first
 * letter's group, list order kept within the group. */
static void
test_tlds_in_sync(void **state)
{
	struct error err = { 0 };
	const struct tld_index *tab[] = { &text_tlds_generic,
	    &text_tlds_country };
	const char *key[] = { "generic", "country" };
	const char *s;
	cJSON *j, *arr;
	char *data;
	size_t len;
	int at[TLD_GROUP_OTHER + 1], g, i, k;

	assert_int_equal(file_read("tests/data/twitter-text/tlds.json", &data,
	    &len, &err), 0);
	assert_non_null(j = cJSON_Parse(data));
	for (k = 0; k < 2; k++) {
		arr = cJSON_GetObjectItem(j, key[k]);
		for (g = 0; g <= TLD_GROUP_OTHER; g++)
			at[g] = tab[k]->start[g];
		assert_int_equal(tab[k]->start[0], 0);
		for (i = 0; i < cJSON_GetArraySize(arr); i++) {
			s = cJSON_GetArrayItem(arr, i)->valuestring;
			g = tld_group(s);
			assert_true(at[g] < tab[k]->start[g + 1]);
			assert_string_equal(tab[k]->names[at[g]++], s);
		}
		for (g = 0; g <= TLD_GROUP_OTHER; g++)
			assert_int_equal(at[g], tab[k]->start[g + 1]);
	}
	cJSON_Delete(j);
	free(data);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weighted_length_v3),
		cmocka_unit_test(test_extract_urls),
		cmocka_unit_test(test_extract_hashtags),
		cmocka_unit_test(test_reference_table),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_platform_defaults),
		cmocka_unit_test(test_limits_override),
		cmocka_unit_test(test_bluesky_bytes),
		cmocka_unit_test(test_mastodon_rules),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_tlds_in_sync),
		cmocka_unit_test(test_x_emoji_chains),
		cmocka_unit_test(test_conjuncts),
		cmocka_unit_test(test_links_per_platform),
		cmocka_unit_test(test_bluesky_link_spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
