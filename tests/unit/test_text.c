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

/* What a reference-table row compares; a known difference names the
 * fields it affects, and the rest of the row is still checked. */
enum {
	F_X = 1,		/* X weighted length and validity */
	F_GRAPHEMES = 2,	/* Bluesky graphemes, and Mastodon's count of them */
	F_OTHER = 4,		/* code points, bytes, links, hashtags */
	F_ALL = 7
};

/* Cases this implementation knowingly answers differently, with why. */
struct known {
	const char	*file;
	const char	*text;
	int		 fields;
	const char	*why;
};

#define WHY_GB9C "Intl.Segmenter (ICU, Unicode 15.1) keeps Devanagari " \
	"conjuncts in one grapheme (rule GB9c); utf8proc 2.6 implements " \
	"Unicode 13, which breaks after the virama"
#define WHY_EMOJI11 "twitter-text 3.1.0 matches emoji with the list of " \
	"twemoji-parser 11 (Emoji 11.0); this sequence is newer, so the npm " \
	"package weighs its parts, while utf8proc's Unicode 13 properties " \
	"make it one emoji sequence (2)"

static const struct known known_failures[] = {
	{ "lengths", "\u0939\u093f\u0928\u094d\u0926\u0940 \u092d\u093e\u0937\u093e",
	    F_GRAPHEMES, WHY_GB9C },
	{ "lengths", "\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f",
	    F_GRAPHEMES, WHY_GB9C },
	{ "lengths", "\u0915\u094d\u0937", F_GRAPHEMES, WHY_GB9C },
	{ "lengths", "\u00dcn\u00efc\u00f6d\u00e9 everywhere: "
	    "\U0001d518\U0001d52b\U0001d526\U0001d520\U0001d52c\U0001d521"
	    "\U0001d522 and \U0001f1e9\U0001f1ea and "
	    "\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f",
	    F_GRAPHEMES, WHY_GB9C },
	{ "lengths", "\U0001f441\ufe0f\u200d\U0001f5e8\ufe0f", F_X,
	    "twemoji-parser 11 lists this Emoji 2.0 sequence only without "
	    "U+FE0F, so twitter-text weighs the fully qualified form in parts" },
	{ "lengths", "\U0001f9d1\u200d\U0001f4bb", F_X, WHY_EMOJI11 },
	{ "lengths", "\U0001f9d1\u200d\U0001f91d\u200d\U0001f9d1", F_X,
	    WHY_EMOJI11 },
	{ "lengths", "\U0001f3f3\ufe0f\u200d\u26a7\ufe0f", F_X, WHY_EMOJI11 },
	{ "lengths", "\u2764\ufe0f\u200d\U0001f525", F_X, WHY_EMOJI11 },
	{ "lengths", "\U0001f415\u200d\U0001f9ba", F_X, WHY_EMOJI11 },
	{ "lengths", "\U0001f43b\u200d\u2744\ufe0f", F_X, WHY_EMOJI11 },
	{ "lengths", "\U0001faf6\U0001f3fd", F_X, WHY_EMOJI11 },
	{ "lengths", "\u26a7\ufe0f", F_X, WHY_EMOJI11 },
	{ "lengths", "\u267e\ufe0f", F_X,
	    "twemoji-parser 11's list lacks the emoji form of U+267E, so "
	    "twitter-text weighs U+FE0F on its own" },
	{ NULL, NULL, 0, NULL }
};

static int
known_fields(const char *file, const char *text)
{
	const struct known *k;

	for (k = known_failures; k->file != NULL; k++)
		if (strcmp(k->file, file) == 0 && strcmp(k->text, text) == 0)
			return k->fields;
	return 0;
}

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

/* A case passes when exactly the fields listed as known differences
 * differ: a listed case that starts to agree fails too, so the list stays
 * true. */
static void
report(const char *file, const char *text, int differ, const char *detail,
    int *passed, int *failed)
{
	int known = known_fields(file, text);

	if (differ == known) {
		(*passed) += differ == 0;
		return;
	}
	print_error("%s: %s: %s (differs 0x%x, known 0x%x)\n", file, text,
	    detail, differ, known);
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
	report("weighted_length_v3", text,
	    m.length == want && m.ok == valid ? 0 : F_ALL, detail, passed,
	    failed);
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
	report(file, text, ok ? 0 : F_ALL, detail, passed, failed);
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

/* One row of the reference table: every platform's count at once. */
static void
check_lengths(const cJSON *j, const char *file, int *passed, int *failed)
{
	const char *text = jstr(j, "text");
	struct text_measure x, bsky, masto, chars;
	char detail[256];
	int differ = 0;

	assert_int_equal(text_measure(text, PLATFORM_X, NULL, &x), 0);
	assert_int_equal(text_measure(text, PLATFORM_BLUESKY, NULL, &bsky), 0);
	assert_int_equal(text_measure(text, PLATFORM_MASTODON, NULL, &masto), 0);
	assert_int_equal(text_measure(text, PLATFORM_THREADS, NULL, &chars), 0);
	if (x.length != jint(j, "x") ||
	    x.ok != cJSON_IsTrue(cJSON_GetObjectItem(j, "x_valid")))
		differ |= F_X;
	if (bsky.length != jint(j, "graphemes") ||
	    masto.length != jint(j, "mastodon"))
		differ |= F_GRAPHEMES;
	if (chars.length != jint(j, "chars") || x.bytes != jint(j, "bytes") ||
	    x.links != jint(j, "links") || x.hashtags != jint(j, "hashtags"))
		differ |= F_OTHER;
	snprintf(detail, sizeof(detail), "got x %d/%d graphemes %d mastodon %d "
	    "chars %d bytes %d links %d hashtags %d", x.length, x.ok,
	    bsky.length, masto.length, chars.length, x.bytes, x.links,
	    x.hashtags);
	report("lengths", text, differ, detail, passed, failed);
}

static void
test_reference_table(void **state)
{
	int passed = 0, failed = 0, n;

	n = each_line("tests/data/lengths.jsonl", check_lengths, &passed,
	    &failed);
	print_message("lengths: %d of %d rows agree in every field; the rest "
	    "differ only where known_failures says\n", passed, n);
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
	struct limits l = { LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET,
	    LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET, LIMIT_UNSET };
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
	assert_int_equal(m.links, 1);
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

/* The embedded TLD table is tlds.json, in order. */
static void
test_tlds_in_sync(void **state)
{
	struct error err = { 0 };
	const char *const *tab[] = { text_tlds_generic, text_tlds_country };
	const char *key[] = { "generic", "country" };
	cJSON *j, *arr;
	char *data;
	size_t len;
	int i, k;

	assert_int_equal(file_read("tests/data/twitter-text/tlds.json", &data,
	    &len, &err), 0);
	assert_non_null(j = cJSON_Parse(data));
	for (k = 0; k < 2; k++) {
		arr = cJSON_GetObjectItem(j, key[k]);
		for (i = 0; i < cJSON_GetArraySize(arr); i++) {
			assert_non_null(tab[k][i]);
			assert_string_equal(tab[k][i],
			    cJSON_GetArrayItem(arr, i)->valuestring);
		}
		assert_null(tab[k][i]);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
