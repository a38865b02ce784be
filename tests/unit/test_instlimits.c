/* Unit tests for the Mastodon instance-limits cache: stored and found
 * again per instance, other instances kept, a bad entry named by field,
 * and the cached limits used by the length counter (a front's own
 * max_length still wins). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "core/instlimits.h"
#include "core/text.h"

static char *
tmpdir(void)
{
	char *d = xstrdup("/tmp/fronts-instlimits-XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void
rmtree(const char *d)
{
	char *cmd;

	xasprintf(&cmd, "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void
test_store_and_find(void **state)
{
	char *d = tmpdir();
	struct instlimits a = { .max_characters = 5000, .url_characters = 30,
	    .read_at = 1796112000 }, b = { .max_characters = 777,
	    .url_characters = 23, .read_at = 1796112001 }, got;
	struct error err = { 0 };

	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    -1);
	assert_int_equal(err.code, 0);	/* no cache: not an error */
	assert_int_equal(instlimits_store(d, "https://m.example/", &a, &err),
	    0);
	assert_int_equal(instlimits_store(d, "https://o.example", &b, &err), 0);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    0);
	assert_int_equal(got.max_characters, 5000);
	assert_int_equal(got.url_characters, 30);
	assert_int_equal(got.read_at, 1796112000);
	a.max_characters = 6000;
	assert_int_equal(instlimits_store(d, "https://m.example", &a, &err),
	    0);
	assert_int_equal(instlimits_find(d, "https://o.example//", &got, &err),
	    0);
	assert_int_equal(got.max_characters, 777);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    0);
	assert_int_equal(got.max_characters, 6000);
	rmtree(d);
	free(d);
}

/* The media limits an instance announced round-trip through the cache
 * and reach its Mastodon fronts; an entry without them (an older cache)
 * keeps Mastodon's defaults (0). */
static void
test_media_limits(void **state)
{
	char *d = tmpdir();
	struct instlimits a = { .max_characters = 500, .url_characters = 23,
	    .read_at = 1796112000, .max_media = 8, .image_bytes = 10485760,
	    .image_pixels = 8294400, .alt_length = 1000,
	    .image_types = (1u << IMAGE_JPEG) | (1u << IMAGE_WEBP) }, got;
	struct instlimits old = { .max_characters = 500, .url_characters = 23,
	    .read_at = 1796112000 };
	struct error err = { 0 };

	assert_int_equal(instlimits_store(d, "https://m.example", &a, &err), 0);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    0);
	assert_int_equal(got.max_media, 8);
	assert_int_equal(got.image_bytes, 10485760);
	assert_int_equal(got.image_pixels, 8294400);
	assert_int_equal(got.alt_length, 1000);
	assert_int_equal(got.image_types, (1u << IMAGE_JPEG) |
	    (1u << IMAGE_WEBP));
	assert_int_equal(instlimits_store(d, "https://m.example", &old, &err),
	    0);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    0);
	assert_int_equal(got.max_media, 0);
	assert_int_equal(got.image_types, 0);
	assert_int_equal(instlimits_mime_bit("image/png"), 1u << IMAGE_PNG);
	assert_int_equal(instlimits_mime_bit("image/heic"), 0);
	rmtree(d);
	free(d);
}

static void
test_bad_entry_names_the_field(void **state)
{
	char *d = tmpdir(), *f, *path;
	struct instlimits got = { 0 };
	struct error err = { 0 };
	const char *bad = "{\"instances\":{\"https://m.example\":"
	    "{\"max_characters\":\"many\",\"characters_reserved_per_url\":23,"
	    "\"read_at\":\"2026-12-01T09:00:00Z\"}}}";

	f = path_join(d, ".fronts");
	assert_int_equal(dir_ensure(f, &err), 0);
	path = path_join(f, "instance-limits.json");
	assert_int_equal(file_write_atomic(path, bad, strlen(bad), &err), 0);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    -1);
	assert_non_null(strstr(err.msg, "instance-limits.json"));
	assert_non_null(strstr(err.msg, "instances.https://m.example"));
	assert_non_null(strstr(err.msg, "max_characters"));
	/* A broken cache is replaced by the next store. */
	assert_int_equal(file_write_atomic(path, "{not json", 9, &err), 0);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    -1);
	assert_non_null(strstr(err.msg, "not a JSON object"));
	got.max_characters = 900;
	got.url_characters = 23;
	got.read_at = 1796112000;
	assert_int_equal(instlimits_store(d, "https://m.example", &got, &err),
	    0);
	got.max_characters = 0;
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    0);
	assert_int_equal(got.max_characters, 900);
	free(path);
	free(f);
	rmtree(d);
	free(d);
}

/* read_at goes through the one ISO-8601 parser: a date that does not
 * exist is a bad entry, not the next month's. */
static void
test_impossible_read_at(void **state)
{
	static const char *bad[] = { "2026-02-30T09:00:00Z",
	    "2026-04-31T09:00:00Z", "2026-13-01T09:00:00Z",
	    "2026-12-01T24:00:00Z", "2025-02-29T09:00:00Z" };
	char *d = tmpdir(), *f, *path, *text;
	struct instlimits got = { 0 };
	struct error err = { 0 };
	size_t i;

	f = path_join(d, ".fronts");
	assert_int_equal(dir_ensure(f, &err), 0);
	path = path_join(f, "instance-limits.json");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		xasprintf(&text, "{\"instances\":{\"https://m.example\":"
		    "{\"max_characters\":500,\"characters_reserved_per_url\":23,"
		    "\"read_at\":\"%s\"}}}", bad[i]);
		assert_int_equal(file_write_atomic(path, text, strlen(text),
		    &err), 0);
		memset(&err, 0, sizeof err);
		if (instlimits_find(d, "https://m.example", &got, &err) == 0)
			fail_msg("read_at %s accepted", bad[i]);
		assert_non_null(strstr(err.msg, "read_at"));
		free(text);
	}
	text = "{\"instances\":{\"https://m.example\":{\"max_characters\":500,"
	    "\"characters_reserved_per_url\":23,"
	    "\"read_at\":\"2028-02-29T09:00:00+01:00\"}}}";
	assert_int_equal(file_write_atomic(path, text, strlen(text), &err), 0);
	assert_int_equal(instlimits_find(d, "https://m.example", &got, &err),
	    0);
	assert_int_equal(got.read_at, 1835424000);
	free(path);
	free(f);
	rmtree(d);
	free(d);
}

static void
test_cached_limits_count(void **state)
{
	struct limits l = LIMITS_UNSET;
	struct text_measure m;
	const char *t = "see https://example.com/a/very/long/path/indeed ok";

	assert_int_equal(text_measure(t, PLATFORM_MASTODON, &l, &m), 0);
	assert_int_equal(m.limit, 500);
	assert_int_equal(m.length, 4 + 23 + 3);
	l.instance_length = 5000;
	l.url_weight = 30;
	assert_int_equal(text_measure(t, PLATFORM_MASTODON, &l, &m), 0);
	assert_int_equal(m.limit, 5000);
	assert_int_equal(m.length, 4 + 30 + 3);
	l.max_length = 400;	/* the front's own limit wins */
	assert_int_equal(text_measure(t, PLATFORM_MASTODON, &l, &m), 0);
	assert_int_equal(m.limit, 400);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_and_find),
		cmocka_unit_test(test_media_limits),
		cmocka_unit_test(test_bad_entry_names_the_field),
		cmocka_unit_test(test_impossible_read_at),
		cmocka_unit_test(test_cached_limits_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
