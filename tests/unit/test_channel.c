/* Unit tests for the publishing channels: requests as built and shown
 * (secrets never in the description), record keys, and how each kind of
 * answer or broken exchange becomes sent, failed or unknown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "net/channel_int.h"

#define SECRET	"sk-UNIT-SENTINEL-41"

static struct front
front_of(const char *id, enum platform pl, const char *json)
{
	struct front f;

	memset(&f, 0, sizeof f);
	f.id = (char *)id;
	f.platform = pl;
	f.account = (char *)"@acme";
	f.raw = cJSON_Parse(json);
	assert_non_null(f.raw);
	return f;
}

static void
test_tid_is_valid_and_stable(void **state)
{
	char a[14], b[14], c[14];
	int i;

	channel_tid(1796112000, "e0123456789abcdef", a);
	channel_tid(1796112000, "e0123456789abcdef", b);
	channel_tid(1796112000, "e0123456789abcdee", c);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	assert_int_equal(strlen(a), 13);
	assert_non_null(strchr("234567abcdefghij", a[0]));
	for (i = 0; i < 13; i++)
		assert_non_null(strchr("234567abcdefghijklmnopqrstuvwxyz", a[i]));
}

static void
test_composio_request_hides_key(void **state)
{
	struct front f = front_of("x", PLATFORM_X, "{\"composio\":{\"tool\":"
	    "\"TWITTER_CREATION_OF_A_POST\",\"user_id\":\"acme\","
	    "\"version\":\"20250909_00\"}}");
	struct channel_call c;
	struct error err = { 0 };
	char *d;

	setenv("COMPOSIO_API_KEY", SECRET, 1);
	setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9/", 1);
	assert_int_equal(channel_open(&f, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_int_equal(channel_ready(&c, &err), 0);
	assert_string_equal(c.name, "composio/TWITTER_CREATION_OF_A_POST");
	d = channel_describe(&c);
	assert_non_null(strstr(d, "POST http://127.0.0.1:9/api/v3.1/tools/"
	    "execute/TWITTER_CREATION_OF_A_POST\n"));
	assert_non_null(strstr(d, "x-api-key: ***\n"));
	assert_non_null(strstr(d, "{\"arguments\":{\"text\":\"hello\"},"
	    "\"user_id\":\"acme\",\"version\":\"20250909_00\"}"));
	assert_null(strstr(d, SECRET));
	free(d);
	channel_close(&c);
	cJSON_Delete(f.raw);
	unsetenv("COMPOSIO_BASE_URL");
}

static void
test_missing_key_names_the_variable(void **state)
{
	struct front f = front_of("m", PLATFORM_MASTODON, "{\"instance\":"
	    "\"https://m.example\",\"token_env\":\"ACME_MASTODON_TOKEN\"}");
	struct channel_call c;
	struct error err = { 0 };
	char *d;

	unsetenv("ACME_MASTODON_TOKEN");
	assert_int_equal(channel_open(&f, "hi", "e0123456789abcdef", 0, 0, 0,
	    &c, &err), 0);
	d = channel_describe(&c);
	assert_non_null(strstr(d, "Idempotency-Key: fronts-e0123456789abcdef\n"));
	free(d);
	assert_int_equal(channel_ready(&c, &err), -1);
	assert_non_null(strstr(err.msg, "ACME_MASTODON_TOKEN"));
	channel_close(&c);
	cJSON_Delete(f.raw);
}

static void
test_linkedin_needs_author(void **state)
{
	struct front f = front_of("li", PLATFORM_LINKEDIN, "{\"composio\":"
	    "{\"tool\":\"LINKEDIN_CREATE_LINKED_IN_POST\"}}");
	struct channel_call c;
	struct error err = { 0 };

	assert_int_equal(channel_open(&f, "hi", "e0123456789abcdef", 0, 0, 0,
	    &c, &err), -1);
	assert_non_null(strstr(err.msg, "composio.arguments.author"));
	assert_non_null(strstr(err.msg, "\"li\""));
	cJSON_Delete(f.raw);
}

static void
test_composio_fixed_arguments_pass_through(void **state)
{
	struct front f = front_of("r", PLATFORM_REDDIT, "{\"composio\":{"
	    "\"tool\":\"REDDIT_CREATE_REDDIT_POST\",\"arguments\":{"
	    "\"subreddit\":\"acme\",\"flair_id\":\"f-1\",\"nsfw\":false,"
	    "\"spoiler\":{\"x\":1}}}}");
	struct front g = front_of("r", PLATFORM_REDDIT, "{\"composio\":{"
	    "\"tool\":\"T\",\"arguments\":{\"subreddit\":\"a\",\"title\":"
	    "\"fixed\"}}}");
	struct channel_call c;
	struct error err = { 0 };

	assert_int_equal(channel_open(&f, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "{\"arguments\":{\"subreddit\":"
	    "\"acme\",\"flair_id\":\"f-1\",\"nsfw\":false,\"spoiler\":{\"x\":"
	    "1},\"title\":\"hello\",\"kind\":\"self\",\"text\":\"\"}"));
	channel_close(&c);
	/* The text argument is the plan's, never a fixed one. */
	assert_int_equal(channel_open(&g, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), -1);
	assert_non_null(strstr(err.msg, "composio.arguments.title"));
	cJSON_Delete(f.raw);
	cJSON_Delete(g.raw);
}

static void
test_credentials_only_over_https(void **state)
{
	struct front f = front_of("m", PLATFORM_MASTODON, "{\"instance\":"
	    "\"http://m.example\"}");
	struct channel_call c;
	struct error err = { 0 };

	assert_int_equal(channel_open(&f, "hi", "e0123456789abcdef", 0, 0, 0,
	    &c, &err), -1);
	assert_non_null(strstr(err.msg, "https://"));
	assert_non_null(strstr(err.msg, "http://m.example"));
	cJSON_Delete(f.raw);
}

static void
test_bluesky_session_hides_password(void **state)
{
	struct front f = front_of("b", PLATFORM_BLUESKY, "{\"handle\":"
	    "\"acme.dev\",\"service\":\"http://127.0.0.1:9\"}");
	struct channel_call c;
	struct error err = { 0 };
	char *d;

	setenv("BLUESKY_APP_PASSWORD", SECRET, 1);
	assert_int_equal(channel_open(&f, "hi", "e0123456789abcdef",
	    1796112000, 1796112000, 0, &c, &err), 0);
	d = channel_describe(&c);
	assert_non_null(strstr(d, "\"password\":\"***\""));
	assert_non_null(strstr(d, "\"rkey\":\""));
	assert_non_null(strstr(d, c.key));
	assert_null(strstr(d, SECRET));
	/* The real body carries it; only the description hides it. */
	assert_non_null(strstr(c.session.body, SECRET));
	free(d);
	channel_close(&c);
	cJSON_Delete(f.raw);
}

static void
test_bluesky_links_and_tags_are_facets(void **state)
{
	struct front f = front_of("b", PLATFORM_BLUESKY, "{\"handle\":"
	    "\"acme.dev\",\"service\":\"https://pds.example\"}");
	struct channel_call c;
	struct error err = { 0 };

	/* "ö" is two bytes: offsets are in bytes, as Bluesky wants. */
	assert_int_equal(channel_open(&f, "Schön: example.com/x #launch",
	    "e0123456789abcdef", 1796112000, 1796112000, 0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "{\"index\":{\"byteStart\":8,"
	    "\"byteEnd\":21},\"features\":[{\"$type\":\"app.bsky.richtext."
	    "facet#link\",\"uri\":\"https://example.com/x\"}]}"));
	assert_non_null(strstr(c.post.body, "{\"index\":{\"byteStart\":22,"
	    "\"byteEnd\":29},\"features\":[{\"$type\":\"app.bsky.richtext."
	    "facet#tag\",\"tag\":\"launch\"}]}"));
	channel_close(&c);
	cJSON_Delete(f.raw);
}

/* Link facets cover what Bluesky's client links: an https:// URL on a
 * reserved .example host too, without the closing punctuation. */
static void
test_bluesky_facets_reserved_hosts(void **state)
{
	struct front f = front_of("b", PLATFORM_BLUESKY, "{\"handle\":"
	    "\"acme.dev\",\"service\":\"https://pds.example\"}");
	struct channel_call c;
	struct error err = { 0 };

	assert_int_equal(channel_open(&f, "(https://a.example/x). and "
	    "https://intranet/wiki!", "e0123456789abcdef", 1796112000,
	    1796112000, 0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "{\"index\":{\"byteStart\":1,"
	    "\"byteEnd\":20},\"features\":[{\"$type\":\"app.bsky.richtext."
	    "facet#link\",\"uri\":\"https://a.example/x\"}]}"));
	assert_non_null(strstr(c.post.body, "{\"index\":{\"byteStart\":27,"
	    "\"byteEnd\":48},\"features\":[{\"$type\":\"app.bsky.richtext."
	    "facet#link\",\"uri\":\"https://intranet/wiki\"}]}"));
	channel_close(&c);
	/* The client links a word starting "http" whatever its TLD; its uri
	 * still needs a scheme. */
	assert_int_equal(channel_open(&f, "see httpbin.test", "e0123456789abcdef",
	    1796112000, 1796112000, 0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "{\"index\":{\"byteStart\":4,"
	    "\"byteEnd\":16},\"features\":[{\"$type\":\"app.bsky.richtext."
	    "facet#link\",\"uri\":\"https://httpbin.test\"}]}"));
	channel_close(&c);
	cJSON_Delete(f.raw);
}

static struct http_response
answer(enum http_phase ph, long status, const char *body)
{
	struct http_response r;

	memset(&r, 0, sizeof r);
	r.phase = ph;
	r.status = status;
	r.body = (char *)body;
	r.len = strlen(body);
	return r;
}

static void
test_composio_answers(void **state)
{
	struct front f = front_of("x", PLATFORM_X, "{\"composio\":{\"tool\":"
	    "\"T\"}}");
	struct channel_call c = { .front = &f };
	struct channel_result out;
	struct http_response r;

	r = answer(HTTP_RESPONDED, 200, "{\"data\":{\"data\":{\"id\":\"77\"}},"
	    "\"successfull\":true}");
	memset(&out, 0, sizeof out);
	channel_composio_result(&c, &r, &out);
	assert_int_equal(out.state, LEDGER_SENT);
	assert_string_equal(out.post_id, "77");
	assert_string_equal(out.url, "https://x.com/i/web/status/77");
	channel_result_free(&out);

	/* LinkedIn's post id is the share URN Composio passes on from the
	 * x-restli-id header, not the log id. */
	f.platform = PLATFORM_LINKEDIN;
	r = answer(HTTP_RESPONDED, 200, "{\"data\":{\"x_restli_id\":"
	    "\"urn:li:share:7001\"},\"successful\":true,\"error\":null,"
	    "\"log_id\":\"log_9\"}");
	channel_composio_result(&c, &r, &out);
	assert_int_equal(out.state, LEDGER_SENT);
	assert_string_equal(out.post_id, "urn:li:share:7001");
	assert_string_equal(out.url,
	    "https://www.linkedin.com/feed/update/urn:li:share:7001/");
	channel_result_free(&out);
	f.platform = PLATFORM_X;

	r = answer(HTTP_RESPONDED, 200, "{\"data\":{},\"successful\":false,"
	    "\"error\":\"Forbidden: duplicate\"}");
	channel_composio_result(&c, &r, &out);
	assert_int_equal(out.state, LEDGER_FAILED);
	assert_string_equal(out.message, "Composio: Forbidden: duplicate");
	channel_result_free(&out);

	r = answer(HTTP_RESPONDED, 200, "<html>gateway</html>");
	channel_composio_result(&c, &r, &out);
	assert_int_equal(out.state, LEDGER_UNKNOWN);
	channel_result_free(&out);
	cJSON_Delete(f.raw);
}

static void
test_transport_outcomes(void **state)
{
	struct error err = { 0 };
	struct channel_result out;
	struct http_response r;

	error_set(&err, EXIT_NETWORK, "cannot reach 127.0.0.1: refused");
	memset(&out, 0, sizeof out);
	r = answer(HTTP_NOT_CONNECTED, 0, "");
	assert_true(channel_transport(&r, -1, &err, &out));
	assert_int_equal(out.state, LEDGER_FAILED);
	channel_result_free(&out);

	r = answer(HTTP_SENT, 0, "");
	assert_true(channel_transport(&r, -1, &err, &out));
	assert_int_equal(out.state, LEDGER_UNKNOWN);
	channel_result_free(&out);

	r = answer(HTTP_RESPONDED, 502, "bad gateway");
	assert_true(channel_transport(&r, 0, &err, &out));
	assert_int_equal(out.state, LEDGER_UNKNOWN);
	channel_result_free(&out);

	r = answer(HTTP_RESPONDED, 401, "{\"error\":\"The access token is "
	    "invalid\"}");
	assert_true(channel_transport(&r, 0, &err, &out));
	assert_int_equal(out.state, LEDGER_FAILED);
	assert_non_null(strstr(out.message, "The access token is invalid"));
	channel_result_free(&out);

	/* A redirect may come after the post was made: unknown, and the
	 * request is never repeated at the Location. */
	r = answer(HTTP_RESPONDED, 303, "");
	assert_true(channel_transport(&r, 0, &err, &out));
	assert_int_equal(out.state, LEDGER_UNKNOWN);
	assert_non_null(strstr(out.message, "redirects are never followed"));
	channel_result_free(&out);
	r = answer(HTTP_RESPONDED, 101, "");
	assert_true(channel_transport(&r, 0, &err, &out));
	assert_int_equal(out.state, LEDGER_UNKNOWN);
	channel_result_free(&out);
	assert_true(channel_status_failed(422));
	assert_false(channel_status_failed(308));
	assert_false(channel_status_failed(500));

	r = answer(HTTP_RESPONDED, 200, "{}");
	assert_false(channel_transport(&r, 0, &err, &out));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tid_is_valid_and_stable),
		cmocka_unit_test(test_composio_request_hides_key),
		cmocka_unit_test(test_missing_key_names_the_variable),
		cmocka_unit_test(test_linkedin_needs_author),
		cmocka_unit_test(test_composio_fixed_arguments_pass_through),
		cmocka_unit_test(test_credentials_only_over_https),
		cmocka_unit_test(test_bluesky_session_hides_password),
		cmocka_unit_test(test_bluesky_links_and_tags_are_facets),
		cmocka_unit_test(test_bluesky_facets_reserved_hosts),
		cmocka_unit_test(test_composio_answers),
		cmocka_unit_test(test_transport_outcomes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
