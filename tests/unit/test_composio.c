/* Unit tests for what fronts sends Composio and how it reads its
 * answers: the version an execute names (the pinned one, or "latest"),
 * Composio's versions in order whatever order they are listed in, and an
 * X image's three requests before the post (file store, presigned PUT,
 * TWITTER_UPLOAD_MEDIA); `fronts check`'s reading of a tool's schema and
 * of a connected account from malformed answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "net/channel_int.h"
#include "net/check.h"
#include "net/check_int.h"
#include "net/pull.h"

static struct front
composio_front(const char *json)
{
	struct front f;

	memset(&f, 0, sizeof f);
	f.id = (char *)"x";
	f.platform = PLATFORM_X;
	f.account = (char *)"@acme";
	f.raw = cJSON_Parse(json);
	assert_non_null(f.raw);
	return f;
}

/* Unpinned, the execute says "latest": Composio's own pages disagree on
 * what an execute without a version runs. */
static void
test_execute_sends_version(void **state)
{
	struct front f = composio_front("{\"composio\":{\"tool\":"
	    "\"TWITTER_CREATION_OF_A_POST\",\"user_id\":\"acme\"}}");
	struct front g = composio_front("{\"composio\":{\"tool\":"
	    "\"TWITTER_CREATION_OF_A_POST\",\"version\":\"20251201_00\"}}");
	struct channel_call c;
	struct error err = { 0 };

	setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9/", 1);
	assert_int_equal(channel_open(&f, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "\"version\":\"latest\""));
	channel_close(&c);
	assert_int_equal(channel_open(&g, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "\"version\":\"20251201_00\""));
	assert_null(strstr(c.post.body, "latest"));
	channel_close(&c);
	unsetenv("COMPOSIO_BASE_URL");
	cJSON_Delete(f.raw);
	cJSON_Delete(g.raw);
}

/* The read tool's arguments are Composio's names for X's parameters. */
static void
test_lookup_arguments(void **state)
{
	struct front f = composio_front("{\"composio\":{\"tool\":\"T\"}}");
	struct front g = composio_front("{\"composio\":{\"tool\":\"T\","
	    "\"read_tool\":\"MY_LOOKUP\"}}");

	assert_string_equal(pull_x_lookup_args[0], "id");
	assert_string_equal(pull_x_lookup_args[1], "tweet__fields");
	assert_null(pull_x_lookup_args[2]);
	assert_string_equal(pull_x_read_tool(&f),
	    "TWITTER_POST_LOOKUP_BY_POST_ID");
	assert_string_equal(pull_x_read_tool(&g), "MY_LOOKUP");
	cJSON_Delete(f.raw);
	cJSON_Delete(g.raw);
}

static void
test_version_order(void **state)
{
	assert_true(check_composio_version_cmp("20251201_00",
	    "20250909_03") > 0);
	assert_true(check_composio_version_cmp("20251201_02",
	    "20251201_10") < 0);
	assert_true(check_composio_version_cmp("20251201_10",
	    "20251201_2") > 0);	/* numbers, not text */
	assert_true(check_composio_version_cmp("00000000_00",
	    "20250101_00") < 0);
	assert_int_equal(check_composio_version_cmp("20251201_00",
	    "20251201_00"), 0);
	/* what is not a version sorts below every version */
	assert_true(check_composio_version_cmp("latest", "00000000_00") < 0);
	assert_true(check_composio_version_cmp("20251201", "00000000_00") < 0);
	assert_true(check_composio_version_cmp("2025_12_01", "00000000_00") < 0);
}

/* An image on X: the file store's upload request carries the md5 of the
 * bytes handed over (the cleaned ones), the PUT their type, the media
 * tool the file by key, and the post the media ids; alt text is not sent
 * and says so. Four at most. */
static void
test_x_image_requests(void **state)
{
	struct front f = composio_front("{\"composio\":{\"tool\":"
	    "\"TWITTER_CREATION_OF_A_POST\",\"user_id\":\"acme\"}}");
	static const unsigned char abc[] = "abc";
	struct channel_image im[5];
	struct channel_post p = { "hello", im, 1, NULL };
	struct channel_call c;
	struct error err = { 0 };
	char *d;
	int i;

	for (i = 0; i < 5; i++)
		im[i] = (struct channel_image){ abc, 3, "image/png", "a harbour",
		    2, 2 };
	setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9", 1);
	assert_int_equal(channel_open_post(&f, &p, "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_int_equal(c.nuploads, 1);
	/* md5("abc") */
	assert_non_null(strstr(c.stage[0].body, "\"md5\":"
	    "\"900150983cd24fb0d6963f7d28e17f72\",\"filename\":\"image1.png\","
	    "\"mimetype\":\"image/png\",\"tool_slug\":\"TWITTER_UPLOAD_MEDIA\","
	    "\"toolkit_slug\":\"twitter\""));
	assert_string_equal(c.stage[0].url,
	    "http://127.0.0.1:9/api/v3/files/upload/request");
	assert_string_equal(c.put[0].http.method, "PUT");
	assert_int_equal(c.put[0].http.body_len, 3);
	assert_non_null(strstr(c.uploads[0].body, "\"media\":{\"name\":"
	    "\"image1.png\",\"mimetype\":\"image/png\",\"s3key\":"
	    "\"<key of file 1>\"},\"media_category\":\"tweet_image\""));
	assert_non_null(strstr(c.post.body,
	    "\"media__media_ids\":[\"<id of upload 1>\"]"));
	d = channel_describe(&c);
	assert_true(strstr(d, "upload/request") < strstr(d, "PUT <new_"));
	assert_true(strstr(d, "PUT <new_") <
	    strstr(d, "execute/TWITTER_UPLOAD_MEDIA"));
	assert_true(strstr(d, "execute/TWITTER_UPLOAD_MEDIA") <
	    strstr(d, "execute/TWITTER_CREATION_OF_A_POST"));
	assert_non_null(strstr(d, "image 1's alt text is not sent"));
	free(d);
	channel_close(&c);
	p.nimages = 5;
	assert_int_equal(channel_open_post(&f, &p, "e0123456789abcdef", 0, 0,
	    0, &c, &err), -1);
	assert_non_null(strstr(err.msg, "at most 4 images"));
	unsetenv("COMPOSIO_BASE_URL");
	cJSON_Delete(f.raw);
}

/* An image on LinkedIn: staged in the file store for the post tool
 * itself (toolkit linkedin), PUT, and named in the post's `images` as a
 * file argument; no media tool request. Twenty at most. */
static void
test_linkedin_image_requests(void **state)
{
	struct front li = composio_front("{\"composio\":{\"tool\":"
	    "\"LINKEDIN_CREATE_LINKED_IN_POST\",\"arguments\":{\"author\":"
	    "\"urn:li:person:1\"}}}");
	static const unsigned char abc[] = "abc";
	struct channel_image im[21];
	struct channel_post p = { "hello", im, 2, NULL };
	struct channel_call c;
	struct error err = { 0 };
	char *d;
	int i;

	for (i = 0; i < 21; i++)
		im[i] = (struct channel_image){ abc, 3, i == 1 ? "image/gif" :
		    "image/jpeg", "a harbour", 2, 2 };
	li.platform = PLATFORM_LINKEDIN;
	setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9", 1);
	assert_int_equal(channel_open_post(&li, &p, "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_int_equal(c.nuploads, 2);
	assert_non_null(strstr(c.stage[0].body, "\"filename\":\"image1.jpg\","
	    "\"mimetype\":\"image/jpeg\",\"tool_slug\":"
	    "\"LINKEDIN_CREATE_LINKED_IN_POST\",\"toolkit_slug\":\"linkedin\""));
	assert_null(c.uploads[0].url);
	assert_null(c.uploads[1].url);
	assert_non_null(strstr(c.post.body, "\"images\":[{\"name\":"
	    "\"image1.jpg\",\"mimetype\":\"image/jpeg\",\"s3key\":"
	    "\"<key of file 1>\"},{\"name\":\"image2.gif\",\"mimetype\":"
	    "\"image/gif\",\"s3key\":\"<key of file 2>\"}]"));
	assert_null(strstr(c.post.body, "media__media_ids"));
	d = channel_describe(&c);
	assert_true(strstr(d, "upload/request") < strstr(d, "PUT <new_"));
	assert_true(strstr(d, "PUT <new_presigned_url of file 2>") <
	    strstr(d, "execute/LINKEDIN_CREATE_LINKED_IN_POST"));
	assert_null(strstr(d, "TWITTER_UPLOAD_MEDIA"));
	assert_non_null(strstr(d, "image 2's alt text is not sent"));
	free(d);
	channel_close(&c);
	p.nimages = 21;
	assert_int_equal(channel_open_post(&li, &p, "e0123456789abcdef", 0, 0,
	    0, &c, &err), -1);
	assert_non_null(strstr(err.msg, "at most 20 images"));
	unsetenv("COMPOSIO_BASE_URL");
	cJSON_Delete(li.raw);
}

/* The steps check_composio_tool_read gives body; their details joined by
 * '\n' into *d (caller frees), each prefixed "+" (pass) or "-" (fail). */
static void
schema_steps(const char *body, const char *version, const char *files,
    char **d)
{
	static const char *const args[] = { "text", "images", NULL };
	struct check_target t;
	char *toolkit = NULL, *n;
	int i;

	check_target_init(&t, "li", "composio/T", NULL);
	check_composio_tool_read(&t, body, strlen(body), "T", version, args,
	    files, &toolkit);
	*d = strdup("");
	for (i = 0; i < t.nsteps; i++) {
		assert_true(t.steps[i].ok == (t.steps[i].fix == NULL));
		assert_null(strstr(t.steps[i].detail, "(null)"));
		assert_true(asprintf(&n, "%s%c%s: %s\n", *d, t.steps[i].ok ?
		    '+' : '-', t.steps[i].name, t.steps[i].detail) > 0);
		free(*d);
		*d = n;
	}
	free(toolkit);
	check_target_free(&t);
}

#define FILE_ITEMS "{\"type\":\"object\",\"file_uploadable\":true," \
	"\"properties\":{\"name\":{},\"mimetype\":{},\"s3key\":{}}}"

/* Schemas a server could answer: the good one passes every step; what is
 * not JSON or not an object is no tool; a parameter differing in case
 * only is not the one fronts sends; `images` of URNs, without
 * file_uploadable or without an s3key is no array of files. */
static void
test_schema_malformed(void **state)
{
	char *d;

	schema_steps("{\"version\":\"20260301_00\",\"available_versions\":"
	    "[\"20260403_00\",\"x\",3,\"20260301_00\"],\"toolkit\":{\"slug\":"
	    "\"linkedin\"},\"input_parameters\":{\"properties\":{\"text\":{},"
	    "\"images\":{\"type\":\"array\",\"items\":" FILE_ITEMS "}}}}",
	    "20260301_00", "images", &d);
	assert_string_equal(d, "+tool: tool T exists at version 20260301_00; "
	    "the latest is 20260403_00\n+parameters: tool T takes every "
	    "argument fronts sends\n+images: tool T takes \"images\" as an "
	    "array of uploaded files\n");
	free(d);
	schema_steps("{\"version\":", NULL, "images", &d);
	assert_string_equal(d, "-tool: tool T at version latest: the answer "
	    "is not JSON\n");
	free(d);
	schema_steps("[{\"version\":\"1\"}]", NULL, NULL, &d);
	assert_string_equal(d, "-tool: tool T at version latest: the answer "
	    "is not a tool (a JSON object)\n");
	free(d);
	schema_steps("{\"input_parameters\":{\"properties\":{\"Text\":{},"
	    "\"images\":{}}}}", NULL, NULL, &d);
	assert_non_null(strstr(d, "-parameters: tool T has no input parameter "
	    "\"text\", which fronts sends (it takes: Text, images)"));
	free(d);
	schema_steps("{\"input_parameters\":{\"properties\":{\"images\":"
	    "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}", NULL,
	    "images", &d);
	assert_non_null(strstr(d, "-images: tool T's \"images\" is array of "
	    "string (not file_uploadable)"));
	free(d);
	schema_steps("{\"input_parameters\":{\"properties\":{\"images\":"
	    "{\"type\":\"array\",\"items\":{\"file_uploadable\":true,"
	    "\"properties\":{\"key\":{}}}}}}}", NULL, "images", &d);
	assert_non_null(strstr(d, "-images: tool T's \"images\" is array of "
	    "untyped items, not"));
	free(d);
	schema_steps("{\"input_parameters\":{\"properties\":[1,2]}}", NULL,
	    "images", &d);
	assert_non_null(strstr(d, "-images: tool T's \"images\" is absent"));
	free(d);
}

/* The account step from answers a server could give: an X account
 * without an id is "?", never printed through a NULL; a list that is no
 * list has no account. */
static void
test_account_malformed(void **state)
{
	static const struct {
		const char *body, *id, *want;
	} c[] = {
		{ "{\"status\":\"ACTIVE\",\"auth_config\":{"
		  "\"is_composio_managed\":true}}", "ca_1",
		  "connected account ? uses Composio-managed X credentials" },
		{ "{\"status\":\"ACTIVE\",\"user_id\":\"other\"}", "ca_1",
		  "connected account ? is user other's, not the front's "
		  "composio.user_id acme" },
		{ "{\"items\":{\"status\":\"ACTIVE\"}}", NULL,
		  "user acme has no twitter connected account" },
		{ "{\"items\":[7,{\"status\":\"EXPIRED\",\"id\":\"ca_2\"}]}",
		  NULL, "connected account ca_2 is EXPIRED" },
		{ "nul\0l", NULL, "connected account acme: the answer is not "
		  "JSON" },
	};
	struct check_target t;
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		check_target_init(&t, "x", "composio/T", NULL);
		check_composio_account_read(&t, c[i].body, strlen(c[i].body) +
		    (i == 4 ? 2 : 0), c[i].id, "acme", "twitter");
		assert_int_equal(t.nsteps, 1);
		assert_false(t.steps[0].ok);
		assert_non_null(strstr(t.steps[0].detail, c[i].want));
		check_target_free(&t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_execute_sends_version),
		cmocka_unit_test(test_lookup_arguments),
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_x_image_requests),
		cmocka_unit_test(test_linkedin_image_requests),
		cmocka_unit_test(test_schema_malformed),
		cmocka_unit_test(test_account_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
