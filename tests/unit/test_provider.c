/* Unit tests for the providers: Anthropic and OpenAI shapes against the
 * loopback fake server (streamed, as both are asked to), the fields each
 * request carries, stop reasons, a model the API does not know, broken
 * streams, truncation, malformed answers, missing keys, and a
 * record/replay round trip that keeps the key out of the recording. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fakellm.h"
#include "net/provider_int.h"

#define KEY "sk-ant-SENTINEL-1234"

static const struct llm_message msgs[] = {
	{ "user", "write the model" },
};
static const struct llm_request req = { "fake-model", "be careful", msgs, 1,
    1000 };

/* Runs one turn of api against a server following script, with the
 * sentinel key; record_dir (or NULL) records the exchange. */
static int
turn(const char *api, const char *script, const char *record_dir,
    struct llm_answer *ans, struct error *err)
{
	struct provider_options o = { 0 };
	struct provider *p;
	struct fakellm f;
	char base[160];
	int rc;

	assert_int_equal(fakellm_start(&f, script, KEY), 0);
	if (strcmp(api, "openai") == 0) {
		snprintf(base, sizeof base, "%s/v1/", f.url);
		setenv("OPENAI_BASE_URL", base, 1);
		setenv("OPENAI_API_KEY", KEY, 1);
	} else {
		setenv("ANTHROPIC_BASE_URL", f.url, 1);
		setenv("ANTHROPIC_API_KEY", KEY, 1);
	}
	o.name = api;
	o.model = "fake-model";
	o.timeout_ms = 5000;
	o.retry_scale = 0.001;
	o.record = record_dir != NULL;
	o.record_dir = record_dir;
	assert_int_equal(provider_open(&o, &p, err), 0);
	rc = provider_complete(p, &req, ans, err);
	provider_close(p);
	fakellm_stop(&f);
	return rc;
}

static void
test_anthropic_success(void **state)
{
	struct llm_answer a;
	struct error err = { 0 };

	assert_int_equal(turn("anthropic", "[{\"text\":\"hello\"}]", NULL, &a,
	    &err), 0);
	assert_string_equal(a.text, "hello");
	assert_string_equal(a.stop_reason, "end_turn");
	assert_int_equal(a.input_tokens, 1200);
	assert_int_equal(a.output_tokens, 800);
	assert_string_equal(a.request_id, "req_fake_1");
	assert_non_null(strstr(a.wire_request, "\"system\":\"be careful\""));
	llm_answer_free(&a);
}

static void
test_openai_success(void **state)
{
	struct llm_answer a;
	struct error err = { 0 };

	assert_int_equal(turn("openai", "[{\"text\":\"hola\"}]", NULL, &a,
	    &err), 0);
	assert_string_equal(a.text, "hola");
	assert_string_equal(a.stop_reason, "stop");
	assert_int_equal(a.output_tokens, 800);
	/* Current models take instructions as "developer", and the limit
	 * as max_completion_tokens; no sampling parameters. */
	assert_non_null(strstr(a.wire_request, "\"role\":\"developer\","
	    "\"content\":\"be careful\""));
	assert_null(strstr(a.wire_request, "\"role\":\"system\""));
	assert_non_null(strstr(a.wire_request, "\"max_completion_tokens\":1000"));
	assert_null(strstr(a.wire_request, "\"max_tokens\""));
	assert_null(strstr(a.wire_request, "temperature"));
	assert_null(strstr(a.wire_request, "top_p"));
	assert_non_null(strstr(a.wire_request, "\"stream\":true"));
	assert_non_null(strstr(a.wire_request, "\"include_usage\":true"));
	/* The stream is recorded as the unstreamed answer it adds up to. */
	assert_non_null(strstr(a.wire_response, "\"object\":\"chat.completion\""));
	llm_answer_free(&a);
}

/* The Messages API body carries exactly these fields: none of the
 * sampling or thinking settings current models refuse. The thinking
 * block current models always send is not part of the answer. */
static void
test_anthropic_fields_and_thinking(void **state)
{
	static const char *const want[] = { "model", "max_tokens", "system",
	    "messages", "stream" };
	struct llm_answer a;
	struct error err = { 0 };
	const cJSON *item;
	cJSON *body;
	size_t i = 0;

	assert_int_equal(turn("anthropic", "[{\"text\":\"hello\",\"thinking\":"
	    "\"let me think\",\"chunk_chars\":2}]", NULL, &a, &err), 0);
	assert_string_equal(a.text, "hello");
	body = cJSON_Parse(a.wire_request);
	assert_non_null(body);
	cJSON_ArrayForEach(item, body) {
		assert_true(i < sizeof want / sizeof want[0]);
		assert_string_equal(item->string, want[i]);
		i++;
	}
	assert_int_equal(i, sizeof want / sizeof want[0]);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(body, "stream")));
	cJSON_Delete(body);
	assert_non_null(strstr(a.wire_response, "\"thinking\":\"let me think\""));
	assert_non_null(strstr(a.wire_response, "\"stop_reason\":\"end_turn\""));
	assert_int_equal(a.input_tokens, 1200);
	assert_int_equal(a.output_tokens, 800);
	llm_answer_free(&a);
}

static void
test_default_models(void **state)
{
	/* Retired or shut-down models must not be the default. */
	assert_string_equal(provider_default_model("anthropic"),
	    "claude-opus-5-5");
	assert_string_equal(provider_default_model("openai"), "gpt-6-astra");
}

/* Runs a turn expecting failure; returns whether err.msg holds want. */
static void
expect_failure(const char *api, const char *script, const char *want)
{
	struct llm_answer a;
	struct error err = { 0 };

	assert_int_equal(turn(api, script, NULL, &a, &err), -1);
	assert_int_equal(err.code, EXIT_NETWORK);
	if (strstr(err.msg, want) == NULL)
		fail_msg("%s: wanted \"%s\" in \"%s\"", api, want, err.msg);
	assert_null(strstr(err.msg, KEY));
	llm_answer_free(&a);
}

static void
test_stop_reasons(void **state)
{
	expect_failure("anthropic", "[{\"text\":\"I can't\",\"stop\":"
	    "\"refusal\"}]", "the model refused to answer (stop reason "
	    "refusal)");
	expect_failure("anthropic", "[{\"text\":\"I can't\",\"stop\":"
	    "\"refusal\",\"stop_details\":{\"type\":\"refusal\",\"category\":"
	    "\"cyber\",\"explanation\":\"looks like malware\"}}]", "for what "
	    "may have triggered it; category cyber: looks like malware");
	expect_failure("anthropic", "[{\"text\":\"def f(\",\"stop\":"
	    "\"model_context_window_exceeded\"}]", "filled the model's context "
	    "window (stop reason model_context_window_exceeded)");
	expect_failure("anthropic", "[{\"text\":\"working\",\"stop\":"
	    "\"pause_turn\"}]", "paused the turn before the answer was "
	    "complete (stop reason pause_turn)");
	expect_failure("openai", "[{\"text\":\"def f(\",\"stop\":"
	    "\"content_filter\"}]", "content filter withheld the answer "
	    "(finish reason content_filter)");
	expect_failure("openai", "[{\"text\":\"No.\",\"stop\":"
	    "\"refusal\"}]", "the model refused to answer (refusal): No.");
	expect_failure("anthropic", "[{\"text\":\"def f(\",\"stop\":"
	    "\"max_tokens\"}]", "cut off at the 1000-token limit (stop reason "
	    "max_tokens)");
}

static void
test_unknown_model(void **state)
{
	expect_failure("anthropic", "[{\"no_model\":true}]", "the Anthropic "
	    "API has no model 'fake-model' (404) [request id req_fake_1]: it "
	    "may be retired or misspelled; set provider.model in fronts.json");
	expect_failure("openai", "[{\"no_model\":true}]", "the OpenAI API has "
	    "no model 'fake-model' (404)");
	/* An older model with a smaller output limit: the API's own words,
	 * then what to do. */
	expect_failure("anthropic", "[{\"status\":400,\"error\":{\"type\":"
	    "\"invalid_request_error\",\"message\":\"max_tokens: 1000 > 512, "
	    "which is the maximum allowed number of output tokens for "
	    "fake-model\"}}]", "max_tokens: 1000 > 512, which is the maximum "
	    "allowed number of output tokens for fake-model (model 'fake-model' "
	    "allows fewer than the 1000 output tokens fronts asks for: set "
	    "provider.model to a current model)");
}

/* A stream that breaks off (cut short, or the server's own overload or
 * internal error) is asked for again, three times in all; any other error
 * in a stream is reported at once. */
static void
test_broken_streams(void **state)
{
	struct llm_answer a;
	struct error err = { 0 };

	expect_failure("anthropic", "[{\"text\":\"0123456789\",\"chunk_chars\":"
	    "1,\"times\":9,\"stream_error\":{\"type\":\"overloaded_error\","
	    "\"message\":\"Overloaded\"}}]", "the answer stream broke off with "
	    "an error (overloaded_error): Overloaded (asked 3 times)");
	expect_failure("anthropic", "[{\"text\":\"0123456789\",\"chunk_chars\":"
	    "1,\"stream_error\":{\"type\":\"invalid_request_error\",\"message\":"
	    "\"no\"}},{\"text\":\"not asked\"}]", "the Anthropic API [request "
	    "id req_fake_1]: the answer stream broke off with an error "
	    "(invalid_request_error): no");
	expect_failure("openai", "[{\"text\":\"0123456789\",\"chunk_chars\":1,"
	    "\"times\":9,\"stream_error\":{\"type\":\"server_error\",\"message\":"
	    "\"boom\"}}]", "broke off with an error: boom (asked 3 times)");
	expect_failure("anthropic", "[{\"text\":\"0123456789\",\"chunk_chars\":"
	    "1,\"truncate\":true,\"times\":9}]", "ended before message_stop "
	    "(cut short) (asked 3 times)");
	expect_failure("openai", "[{\"text\":\"0123456789\",\"chunk_chars\":1,"
	    "\"truncate\":true,\"times\":9}]", "ended before [DONE] (cut short)");
	/* What the server says is shown, but never the key it echoes. */
	expect_failure("openai", "[{\"text\":\"0123456789\",\"chunk_chars\":1,"
	    "\"stream_error\":{\"type\":\"invalid_request_error\",\"message\":"
	    "\"bad key " KEY "\"}}]", "broke off with an error: bad key ***");
	/* Cut short once, then whole: the answer, and the failure forgotten. */
	assert_int_equal(turn("anthropic", "[{\"text\":\"0123456789\","
	    "\"chunk_chars\":1,\"truncate\":true},{\"text\":\"whole\"}]", NULL,
	    &a, &err), 0);
	assert_string_equal(a.text, "whole");
	assert_int_equal(a.tries, 2);
	assert_int_equal(err.code, 0);
	llm_answer_free(&a);
}

/* A stream is read by its event types and exact keys: a message_start
 * whose message carries a "Content" key (and no "content") is still
 * rebuilt whole, and a message_start without a message is an error. */
static void
test_unstream_keys(void **state)
{
	const char *sse =
	    "event: message_start\n"
	    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\","
	    "\"Content\":1,\"usage\":{\"input_tokens\":5}}}\n\n"
	    ": a comment line\n"
	    "event: content_block_start\n"
	    "data: {\"type\":\"content_block_start\",\"index\":0,"
	    "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	    "event: content_block_delta\r\n"
	    "data: {\"type\":\"content_block_delta\",\"index\":0,"
	    "\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\r\n\r\n"
	    "event: message_delta\n"
	    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
	    "\"end_turn\"},\"usage\":{\"output_tokens\":3}}\n\n"
	    "event: message_stop\n"
	    "data: {\"type\":\"message_stop\"}\n\n";
	struct llm_answer a;
	struct error err = { 0 };
	char *body = NULL;

	assert_int_equal(anthropic_unstream(sse, &body, &err), 0);
	memset(&a, 0, sizeof a);
	assert_int_equal(anthropic_parse(body, &a, &err), 0);
	assert_string_equal(a.text, "hi");
	assert_string_equal(a.stop_reason, "end_turn");
	assert_int_equal(a.input_tokens, 5);
	assert_int_equal(a.output_tokens, 3);
	llm_answer_free(&a);
	cJSON_free(body);
	assert_int_equal(anthropic_unstream("data: {\"type\":\"message_start\","
	    "\"message\":7}\n\n", &body, &err), -1);
	assert_non_null(strstr(err.msg, "message_start holds no message"));
}

/* An answer of a 4 MB text block and 400,000 empty ones after it: joined
 * in linear time (the old join measured the text so far for each block,
 * some 10^12 byte reads). */
static void
test_anthropic_many_blocks(void **state)
{
	size_t big = 4000000, nblk = 400000, i, off;
	static const char head[] = "{\"content\":[{\"type\":\"text\","
	    "\"text\":\"", empty[] = ",{\"type\":\"text\",\"text\":\"\"}",
	    tail[] = "],\"stop_reason\":\"end_turn\"}";
	char *body = xmalloc(sizeof head + big + 2 + nblk * (sizeof empty -
	    1) + sizeof tail);
	struct llm_answer a;
	struct error err = { 0 };

	off = sizeof head - 1;
	memcpy(body, head, off);
	memset(body + off, 'w', big);
	off += big;
	memcpy(body + off, "\"}", 2);
	off += 2;
	for (i = 0; i < nblk; i++, off += sizeof empty - 1)
		memcpy(body + off, empty, sizeof empty - 1);
	memcpy(body + off, tail, sizeof tail);
	memset(&a, 0, sizeof a);
	assert_int_equal(anthropic_parse(body, &a, &err), 0);
	assert_int_equal(strlen(a.text), big);
	llm_answer_free(&a);
	free(body);
}

/* A language-model call has no side effect: a dropped connection is
 * asked again. */
static void
test_transport_failure_retried(void **state)
{
	struct llm_answer a;
	struct error err = { 0 };

	assert_int_equal(turn("anthropic", "[{\"drop\":true},"
	    "{\"text\":\"second time\"}]", NULL, &a, &err), 0);
	assert_string_equal(a.text, "second time");
	assert_int_equal(a.tries, 2);
	llm_answer_free(&a);
}

/* A long answer streams for longer than the silence limit (turn's 5 s
 * is replaced by 1 s here) without failing, since it never goes quiet. */
static void
test_long_answer_streams(void **state)
{
	struct provider_options o = { 0 };
	struct provider *p;
	struct fakellm f;
	struct llm_answer a;
	struct error err = { 0 };
	char text[81];

	memset(text, 'x', 80);
	text[80] = '\0';
	assert_int_equal(fakellm_start(&f, "[{\"text\":\"xxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\","
	    "\"chunk_chars\":2,\"chunk_delay\":0.05}]", KEY), 0);
	setenv("ANTHROPIC_BASE_URL", f.url, 1);
	setenv("ANTHROPIC_API_KEY", KEY, 1);
	o.name = "anthropic";
	o.model = "fake-model";
	o.timeout_ms = 1000;
	o.retry_scale = 0.001;
	assert_int_equal(provider_open(&o, &p, &err), 0);
	assert_int_equal(provider_complete(p, &req, &a, &err), 0);
	assert_string_equal(a.text, text);
	assert_int_equal(a.tries, 1);
	llm_answer_free(&a);
	provider_close(p);
	fakellm_stop(&f);
}

static void
test_truncated_answers(void **state)
{
	struct llm_answer a;
	struct error err = { 0 };

	assert_int_equal(turn("anthropic", "[{\"text\":\"def f(\","
	    "\"stop\":\"max_tokens\"}]", NULL, &a, &err), -1);
	assert_int_equal(err.code, EXIT_NETWORK);
	assert_non_null(strstr(err.msg, "cut off at the 1000-token limit"));
	llm_answer_free(&a);
	memset(&err, 0, sizeof err);
	assert_int_equal(turn("openai", "[{\"text\":\"def f(\","
	    "\"stop\":\"max_tokens\"}]", NULL, &a, &err), -1);
	assert_non_null(strstr(err.msg, "stop reason length"));
	llm_answer_free(&a);
}

static void
test_malformed_answer(void **state)
{
	struct llm_answer a;
	struct error err = { 0 };

	assert_int_equal(turn("anthropic", "[{\"raw\":\"{\\\"content\\\": [\"}]",
	    NULL, &a, &err), -1);
	assert_int_equal(err.code, EXIT_NETWORK);
	assert_non_null(strstr(err.msg, "the Anthropic API [request id "
	    "req_fake_1]: the answer is not valid JSON"));
	llm_answer_free(&a);
	/* err is optional (util.h): without one the failure is still -1. */
	assert_int_equal(turn("anthropic", "[{\"raw\":\"{\\\"content\\\": [\"}]",
	    NULL, &a, NULL), -1);
	llm_answer_free(&a);
}

static void
test_missing_key(void **state)
{
	struct provider_options o = { 0 };
	struct provider *p;
	struct error err = { 0 };

	unsetenv("OPENAI_API_KEY");
	o.name = "openai";
	o.model = "m";
	assert_int_equal(provider_open(&o, &p, &err), -1);
	assert_non_null(strstr(err.msg, "OPENAI_API_KEY is not set"));
	o.name = "gemini";
	assert_int_equal(provider_open(&o, &p, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
}

static void
test_record_then_replay(void **state)
{
	char dir[] = "/tmp/fronts-rec-XXXXXX", hash[65], *path, *data, cmd[64];
	const char *dirs[2];
	struct provider_options o = { 0 };
	struct llm_request other = req;
	struct llm_answer a, b;
	struct error err = { 0 };
	struct provider *p;
	cJSON *canon;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(turn("anthropic", "[{\"text\":\"recorded answer\"}]",
	    dir, &a, &err), 0);
	canon = provider_canonical("anthropic", &req);
	provider_hash(canon, hash);
	cJSON_Delete(canon);
	xasprintf(&path, "%s/%s.json", dir, hash);
	assert_int_equal(file_read(path, &data, NULL, &err), 0);
	assert_null(strstr(data, KEY));
	assert_null(strstr(data, "x-api-key"));
	assert_non_null(strstr(data, "recorded answer"));
	free(data);

	unsetenv("ANTHROPIC_API_KEY");
	unsetenv("ANTHROPIC_BASE_URL");
	dirs[0] = dir;
	dirs[1] = NULL;
	o.name = "replay";
	o.api = "anthropic";
	o.model = "fake-model";
	o.replay_dirs = dirs;
	assert_int_equal(provider_open(&o, &p, &err), 0);
	assert_int_equal(provider_complete(p, &req, &b, &err), 0);
	assert_string_equal(b.text, a.text);
	assert_string_equal(b.recording, path);
	llm_answer_free(&b);

	/* A changed prompt misses and says where. */
	other.system = "be bold";
	assert_int_equal(provider_complete(p, &other, &b, &err), -1);
	assert_non_null(strstr(err.msg, "no recording answers this request"));
	assert_non_null(strstr(err.msg, hash));
	assert_non_null(strstr(err.msg, "differs in system at character 3 "
	    "(recorded \"careful\", now \"bold\")"));
	llm_answer_free(&b);
	provider_close(p);
	llm_answer_free(&a);
	free(path);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anthropic_success),
		cmocka_unit_test(test_anthropic_many_blocks),
		cmocka_unit_test(test_openai_success),
		cmocka_unit_test(test_anthropic_fields_and_thinking),
		cmocka_unit_test(test_default_models),
		cmocka_unit_test(test_stop_reasons),
		cmocka_unit_test(test_unknown_model),
		cmocka_unit_test(test_broken_streams),
		cmocka_unit_test(test_unstream_keys),
		cmocka_unit_test(test_transport_failure_retried),
		cmocka_unit_test(test_long_answer_streams),
		cmocka_unit_test(test_truncated_answers),
		cmocka_unit_test(test_malformed_answer),
		cmocka_unit_test(test_missing_key),
		cmocka_unit_test(test_record_then_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
