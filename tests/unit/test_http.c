/* Unit tests for http: responses, retries (x-should-retry, transport
 * failures only where asked for, never for publishing), give-ups,
 * timeouts (total and silence), a cancel flag, caps, options libcurl
 * refuses, and that no key leaves through a message, against a loopback
 * fake server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fakellm.h"
#include "net/channel.h"
#include "net/http.h"

#define KEY "sk-ant-SENTINEL-1234"

static const struct http_header hdrs[] = {
	{ "content-type", "application/json", false },
	{ "x-api-key", KEY, true },
};

static struct http_request
req_for(const struct fakellm *f, char *url, size_t n)
{
	struct http_request r = { 0 };

	snprintf(url, n, "%s/v1/messages", f->url);
	r.method = "POST";
	r.url = url;
	r.headers = hdrs;
	r.nheaders = 2;
	r.body = "{\"x\":1}";
	r.body_len = strlen(r.body);
	r.timeout_ms = 5000;
	return r;
}

static const struct http_retry fast = { "the Anthropic API", 4, 1000, 60000,
    0.001, 7 };

/* Runs one request against a server following script; returns the rc and
 * fills resp, err and *count (requests the server saw). */
static int
run_script(const char *script, const char *key, long timeout_ms, size_t cap,
    bool retry, struct http_response *resp, struct error *err, int *count)
{
	struct fakellm f;
	struct http_request r;
	char url[160];
	int rc;

	assert_int_equal(fakellm_start(&f, script, key), 0);
	r = req_for(&f, url, sizeof url);
	if (timeout_ms > 0)
		r.timeout_ms = timeout_ms;
	r.max_response = cap;
	rc = retry ? http_perform_retry(&r, &fast, resp, err) :
	    http_perform(&r, resp, err);
	*count = fakellm_count(&f);
	fakellm_stop(&f);
	return rc;
}

static void
test_success(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"text\":\"hi\"}]", KEY, 0, 0, true,
	    &resp, &err, &count), 0);
	assert_int_equal(resp.status, 200);
	assert_int_equal(resp.phase, HTTP_RESPONDED);
	assert_string_equal(resp.request_id, "req_fake_1");
	assert_non_null(strstr(resp.body, "\"hi\""));
	assert_int_equal(resp.tries, 1);
	http_response_free(&resp);
}

static void
test_429_retry_after_then_success(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"status\":429,\"headers\":"
	    "{\"retry-after\":\"2\"},\"error\":{\"type\":\"rate_limit_error\","
	    "\"message\":\"slow down\"}},{\"text\":\"ok\"}]", NULL, 0, 0, true,
	    &resp, &err, &count), 0);
	assert_int_equal(resp.tries, 2);
	assert_int_equal(count, 2);
	http_response_free(&resp);
}

static void
test_529_gives_up(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"status\":529,\"times\":9,"
	    "\"error\":{\"type\":\"overloaded_error\",\"message\":"
	    "\"Overloaded\"}}]", NULL, 0, 0, true,
	    &resp, &err, &count), -1);
	assert_int_equal(err.code, EXIT_NETWORK);
	assert_int_equal(count, 4);
	assert_non_null(strstr(err.msg, "the Anthropic API is overloaded (529)"));
	assert_non_null(strstr(err.msg, "gave up after 4 tries"));
	assert_non_null(strstr(err.msg, "request id req_fake_4"));
	http_response_free(&resp);
}

static void
test_401_not_retried(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"text\":\"x\"}]", "another-key", 0, 0,
	    true, &resp, &err, &count), -1);
	assert_int_equal(count, 1);
	assert_non_null(strstr(err.msg, "the Anthropic API rejected the key "
	    "(401)"));
	assert_non_null(strstr(err.msg, "req_fake_1"));
	http_response_free(&resp);
}

static void
test_quota_429_not_retried(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"status\":429,\"times\":5,"
	    "\"error\":{\"type\":\"insufficient_quota\",\"message\":"
	    "\"You exceeded your current quota\"}}]", NULL, 0, 0, true,
	    &resp, &err, &count), -1);
	assert_int_equal(count, 1);
	assert_non_null(strstr(err.msg, "quota or spend limit is exhausted"));
	http_response_free(&resp);
}

static void
test_key_echo_redacted(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"status\":400,\"error\":"
	    "{\"type\":\"invalid_request_error\",\"message\":\"bad key "
	    KEY "\"}}]", NULL, 0, 0, true,
	    &resp, &err, &count), -1);
	assert_null(strstr(err.msg, KEY));
	assert_non_null(strstr(err.msg, "bad key ***"));
	http_response_free(&resp);
}

static void
test_truncated_body(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"text\":\"0123456789abcdef\","
	    "\"truncate\":true}]", NULL, 0, 0, false,
	    &resp, &err, &count), -1);
	assert_int_equal(resp.phase, HTTP_SENT);
	assert_non_null(strstr(err.msg, "cut short"));
	http_response_free(&resp);
}

static void
test_stall_times_out(void **state)
{
	struct fakellm f;
	struct http_response resp;
	struct error err = { 0 };
	char url[160];
	struct http_request r;

	assert_int_equal(fakellm_start(&f, "[{\"text\":\"late\",\"stall\":3}]",
	    NULL), 0);
	r = req_for(&f, url, sizeof url);
	r.timeout_ms = 300;
	assert_int_equal(http_perform_retry(&r, &fast, &resp, &err), -1);
	assert_int_equal(resp.phase, HTTP_SENT);
	assert_non_null(strstr(err.msg, "timed out"));
	assert_int_equal(fakellm_count(&f), 1);
	http_response_free(&resp);
	fakellm_stop(&f);
}

static void
test_size_cap(void **state)
{
	struct fakellm f;
	struct http_response resp;
	struct error err = { 0 };
	char url[160];
	struct http_request r;

	assert_int_equal(fakellm_start(&f, "[{\"text\":\"a long answer\"}]",
	    NULL), 0);
	r = req_for(&f, url, sizeof url);
	r.max_response = 20;
	assert_int_equal(http_perform(&r, &resp, &err), -1);
	assert_non_null(strstr(err.msg, "20-byte limit"));
	http_response_free(&resp);
	/* An oversized answer would come back oversized: not asked again. */
	r.retry_transport = true;
	assert_int_equal(http_perform_retry(&r, &fast, &resp, &err), -1);
	assert_int_equal(resp.tries, 1);
	assert_int_equal(fakellm_count(&f), 2);
	http_response_free(&resp);
	fakellm_stop(&f);
}

static void
test_not_connected(void **state)
{
	struct fakellm f;
	struct http_response resp;
	struct error err = { 0 };
	char url[160];
	struct http_request r;

	assert_int_equal(fakellm_start(&f, "[]", NULL), 0);
	fakellm_stop(&f);	/* the port is now closed */
	r = req_for(&f, url, sizeof url);
	assert_int_equal(http_perform(&r, &resp, &err), -1);
	assert_int_equal(resp.phase, HTTP_NOT_CONNECTED);
	assert_non_null(strstr(err.msg, "cannot reach 127.0.0.1"));
	http_response_free(&resp);
}

static void
test_should_retry_false_forbids(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_script("[{\"status\":529,\"times\":9,"
	    "\"should_retry\":\"false\",\"error\":{\"type\":"
	    "\"overloaded_error\",\"message\":\"Overloaded\"}}]", NULL, 0, 0,
	    true, &resp, &err, &count), -1);
	assert_int_equal(count, 1);
	assert_non_null(strstr(err.msg, "x-should-retry: false"));
	assert_non_null(strstr(err.msg, "overloaded (529)"));
	http_response_free(&resp);
}

static void
test_should_retry_true_forces(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	/* A 400 is never retried by status alone; the header overrides. */
	assert_int_equal(run_script("[{\"status\":400,\"should_retry\":"
	    "\"true\",\"error\":{\"type\":\"invalid_request_error\","
	    "\"message\":\"try again\"}},{\"text\":\"ok\"}]", NULL, 0, 0,
	    true, &resp, &err, &count), 0);
	assert_int_equal(count, 2);
	assert_int_equal(resp.tries, 2);
	http_response_free(&resp);
	memset(&err, 0, sizeof err);
	assert_int_equal(run_script("[{\"status\":400,\"error\":{\"type\":"
	    "\"invalid_request_error\",\"message\":\"bad\"}},"
	    "{\"text\":\"ok\"}]", NULL, 0, 0, true, &resp, &err, &count), -1);
	assert_int_equal(count, 1);
	http_response_free(&resp);
}

/* Runs req (as req_for, with retry_transport as given) against script. */
static int
run_transport(const char *script, bool retry_transport,
    struct http_response *resp, struct error *err, int *count)
{
	struct fakellm f;
	struct http_request r;
	char url[160];
	int rc;

	assert_int_equal(fakellm_start(&f, script, NULL), 0);
	r = req_for(&f, url, sizeof url);
	r.retry_transport = retry_transport;
	rc = http_perform_retry(&r, &fast, resp, err);
	*count = fakellm_count(&f);
	fakellm_stop(&f);
	return rc;
}

static void
test_transport_retried_when_asked(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_transport("[{\"drop\":true},{\"truncate\":true,"
	    "\"text\":\"0123456789abcdef\"},{\"text\":\"ok\"}]", true,
	    &resp, &err, &count), 0);
	assert_int_equal(count, 3);
	assert_int_equal(resp.tries, 3);
	assert_non_null(strstr(resp.body, "\"ok\""));
	assert_int_equal(err.code, 0);	/* the failures before are forgotten */
	http_response_free(&resp);
	memset(&err, 0, sizeof err);
	assert_int_equal(run_transport("[{\"drop\":true,\"times\":9}]", true,
	    &resp, &err, &count), -1);
	assert_int_equal(count, 4);
	assert_non_null(strstr(err.msg, "gave up after 4 tries"));
	http_response_free(&resp);
}

static void
test_transport_not_retried_by_default(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	int count;

	assert_int_equal(run_transport("[{\"drop\":true},{\"text\":\"ok\"}]",
	    false, &resp, &err, &count), -1);
	assert_int_equal(count, 1);
	assert_int_equal(resp.phase, HTTP_SENT);
	assert_null(strstr(err.msg, "gave up"));
	http_response_free(&resp);
}

/* Publishing builds its requests without retry_transport and sends them
 * once, whatever comes back: a dropped connection, a 503, an answer that
 * says x-should-retry: true. */
static void
test_publishing_never_retries(void **state)
{
	static const char *const scripts[] = {
		"[{\"drop\":true,\"times\":9}]",
		"[{\"status\":503,\"times\":9}]",
		"[{\"status\":429,\"should_retry\":\"true\",\"times\":9}]",
	};
	struct channel_call c;
	struct channel_result out;
	struct error err = { 0 };
	struct fakellm f;
	struct front fr;
	char json[256];
	size_t i;

	setenv("MASTODON_ACCESS_TOKEN", "mastodon-SENTINEL-77", 1);
	for (i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
		assert_int_equal(fakellm_start(&f, scripts[i], NULL), 0);
		memset(&fr, 0, sizeof fr);
		fr.id = (char *)"m";
		fr.platform = PLATFORM_MASTODON;
		snprintf(json, sizeof json, "{\"id\":\"m\",\"platform\":"
		    "\"mastodon\",\"instance\":\"%s\"}", f.url);
		fr.raw = cJSON_Parse(json);
		assert_int_equal(channel_open(&fr, "hello", "e1", 0, 0, 2000,
		    &c, &err), 0);
		assert_false(c.post.http.retry_transport);
		channel_send(&c, &out);
		assert_int_equal(fakellm_count(&f), 1);
		assert_int_not_equal(out.state, LEDGER_SENT);
		assert_true(out.message == NULL ||
		    strstr(out.message, "SENTINEL") == NULL);
		channel_result_free(&out);
		channel_close(&c);
		cJSON_Delete(fr.raw);
		fakellm_stop(&f);
	}
}

static void
test_refused_option_is_named(void **state)
{
	struct http_response resp;
	struct error err = { 0 };
	struct http_request r = { 0 };
	size_t n = 9u << 20;	/* past libcurl's 8 MiB string limit */
	char *url = xmalloc(n + 1);

	memcpy(url, "http://127.0.0.1:9/", 19);
	memset(url + 19, 'a', n - 19);
	url[n] = '\0';
	r.method = "POST";
	r.url = url;
	r.headers = hdrs;
	r.nheaders = 2;
	assert_int_equal(http_perform(&r, &resp, &err), -1);
	assert_int_equal(resp.phase, HTTP_NOT_CONNECTED);
	assert_non_null(strstr(err.msg, "libcurl refused option CURLOPT_URL"));
	assert_non_null(strstr(err.msg, "nothing was sent"));
	http_response_free(&resp);
	/* Asking again would be refused again. */
	r.retry_transport = true;
	assert_int_equal(http_perform_retry(&r, &fast, &resp, &err), -1);
	assert_int_equal(resp.tries, 1);
	assert_non_null(strstr(err.msg, "CURLOPT_URL"));
	http_response_free(&resp);
	free(url);
}

/* A streamed answer outlasts a total timeout it would fail, once the
 * limit is on silence instead: what LLM calls use. */
static void
test_idle_timeout(void **state)
{
	const char *script = "[{\"text\":\"0123456789\",\"chunk_chars\":1,"
	    "\"chunk_delay\":0.25,\"times\":2},"
	    "{\"text\":\"late\",\"stall\":5}]";
	struct fakellm f;
	struct http_response resp;
	struct error err = { 0 };
	struct http_request r;
	char url[160];

	assert_int_equal(fakellm_start(&f, script, NULL), 0);
	r = req_for(&f, url, sizeof url);
	r.body = "{\"stream\":true}";
	r.body_len = strlen(r.body);
	r.timeout_ms = 1000;
	assert_int_equal(http_perform(&r, &resp, &err), -1);
	assert_non_null(strstr(err.msg, "timed out"));
	http_response_free(&resp);

	r.timeout_ms = 0;
	r.idle_timeout_ms = 2000;
	assert_int_equal(http_perform(&r, &resp, &err), 0);
	assert_non_null(strstr(resp.content_type, "text/event-stream"));
	assert_non_null(strstr(resp.body, "message_stop"));
	http_response_free(&resp);

	r.idle_timeout_ms = 500;
	assert_int_equal(http_perform(&r, &resp, &err), -1);
	assert_non_null(strstr(err.msg, "sent nothing for 0.5 s (timed out)"));
	http_response_free(&resp);
	fakellm_stop(&f);
}

/* A cancel flag set by another thread (here: before the call) stops the
 * transfer and every retry of it, with a message saying so. */
static void
test_cancel_stops(void **state)
{
	struct fakellm f;
	struct http_response resp;
	struct error err = { 0 };
	struct http_request r;
	atomic_bool cancel;
	char url[160];

	atomic_init(&cancel, true);
	assert_int_equal(fakellm_start(&f, "[{\"text\":\"late\",\"stall\":5,"
	    "\"times\":4}]", NULL), 0);
	r = req_for(&f, url, sizeof url);
	r.retry_transport = true;
	r.cancel = &cancel;
	assert_true(http_cancelled(&r));
	assert_int_equal(http_perform_retry(&r, &fast, &resp, &err), -1);
	assert_non_null(strstr(err.msg, "was stopped"));
	assert_true(resp.hopeless);
	assert_int_equal(resp.tries, 1);
	assert_null(strstr(err.msg, KEY));
	http_response_free(&resp);
	fakellm_stop(&f);
}

static void
test_retry_after_parse(void **state)
{
	static const char *bad[] = {
		"Tue, 14 Nov 2023 22:13:50 GMT x",
		"Tue, 14 Noe 2023 22:13:50 GMT",
		"Tue, 14 ovN 2023 22:13:50 GMT",
		"Die, 14 Nov 2023 22:13:50 GMT",
		"Tue, 32 Nov 2023 22:13:50 GMT",
		"Tue, 14 Nov 2023 24:13:50 GMT",
		"Tuesday, 14-Nov-23 22:13:50 GMT",
	};
	time_t now = 1700000000;	/* Tue, 14 Nov 2023 22:13:20 GMT */
	size_t i;

	assert_int_equal(http_retry_after_ms("1500", NULL, now), 1500);
	assert_int_equal(http_retry_after_ms(NULL, "3", now), 3000);
	assert_int_equal(http_retry_after_ms("x", "2", now), 2000);
	assert_int_equal(http_retry_after_ms(NULL,
	    "Tue, 14 Nov 2023 22:13:50 GMT", now), 30000);
	assert_int_equal(http_retry_after_ms(NULL,
	    "Tue, 14 Nov 2023 22:00:00 GMT", now), 0);
	assert_int_equal(http_retry_after_ms(NULL, "soon", now), -1);
	assert_int_equal(http_retry_after_ms(NULL, NULL, now), -1);
	/* Only IMF-fixdate, with English names whatever the locale. */
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(http_retry_after_ms(NULL, bad[i], now), -1);
	assert_int_equal(http_retry_after_ms(NULL,
	    "Thu, 14 Dec 2023 22:13:20 GMT", now), 30L * 86400 * 1000);
	/* A wait of 10^9 s is a wait (the caller stops and says until
	 * when), not an unparsable value to retry past. */
	assert_true(http_retry_after_ms(NULL, "1000000000", now) ==
	    1000000000L * 1000);
	assert_true(http_retry_after_ms("1e13", NULL, now) == 10000000000000L);
	assert_true(http_retry_after_ms(NULL, "99999999999999999999999", now) ==
	    HTTP_RETRY_AFTER_MAX_MS);
}

static void
test_quota_detection(void **state)
{
	assert_true(http_quota_exhausted("{\"error\":{\"type\":"
	    "\"insufficient_quota\",\"message\":\"x\"}}"));
	assert_true(http_quota_exhausted("{\"type\":\"error\",\"error\":"
	    "{\"type\":\"rate_limit_error\",\"message\":\"You have reached "
	    "your specified workspace spend limit\"}}"));
	assert_false(http_quota_exhausted("{\"type\":\"error\",\"error\":"
	    "{\"type\":\"rate_limit_error\",\"message\":\"Number of request "
	    "tokens has exceeded your per-minute rate limit\"}}"));
	assert_false(http_quota_exhausted("not json"));
}

static void
test_describe_hides_secrets(void **state)
{
	struct http_request r = { 0 };
	char *d;

	r.method = "POST";
	r.url = "https://api.example.com/v1/messages";
	r.headers = hdrs;
	r.nheaders = 2;
	r.body = "{}";
	r.body_len = 2;
	d = http_request_describe(&r);
	assert_null(strstr(d, KEY));
	assert_non_null(strstr(d, "x-api-key: ***"));
	assert_non_null(strstr(d, "POST https://api.example.com/v1/messages"));
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success),
		cmocka_unit_test(test_429_retry_after_then_success),
		cmocka_unit_test(test_529_gives_up),
		cmocka_unit_test(test_401_not_retried),
		cmocka_unit_test(test_quota_429_not_retried),
		cmocka_unit_test(test_key_echo_redacted),
		cmocka_unit_test(test_truncated_body),
		cmocka_unit_test(test_stall_times_out),
		cmocka_unit_test(test_size_cap),
		cmocka_unit_test(test_not_connected),
		cmocka_unit_test(test_should_retry_false_forbids),
		cmocka_unit_test(test_should_retry_true_forces),
		cmocka_unit_test(test_transport_retried_when_asked),
		cmocka_unit_test(test_transport_not_retried_by_default),
		cmocka_unit_test(test_publishing_never_retries),
		cmocka_unit_test(test_refused_option_is_named),
		cmocka_unit_test(test_idle_timeout),
		cmocka_unit_test(test_cancel_stops),
		cmocka_unit_test(test_retry_after_parse),
		cmocka_unit_test(test_quota_detection),
		cmocka_unit_test(test_describe_hides_secrets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
