/*
 * provider_anthropic — the Anthropic Messages API: POST {base}/v1/messages
 * with x-api-key and anthropic-version, streamed; the answer is the text
 * blocks of "content" (thinking blocks, which current models always send,
 * are kept in the recording but are not the answer), and stop_reason
 * "max_tokens" marks a truncated answer.
 *
 * The body carries only model, max_tokens, system, messages and stream:
 * no temperature, top_p, top_k or thinking settings, which current models
 * reject or fix themselves (adaptive thinking is always on for Claude
 * Opus 5.5, and max_tokens bounds thinking and text together).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "net/provider_int.h"

#define ANTHROPIC_BASE		"https://api.anthropic.com"
#define ANTHROPIC_VERSION	"2023-06-01"
#define ANTHROPIC_MAX_BLOCKS	256

static char *
anthropic_body(const struct llm_request *req)
{
	cJSON *b = cJSON_CreateObject();
	char *s;

	cJSON_AddStringToObject(b, "model", req->model);
	cJSON_AddNumberToObject(b, "max_tokens", req->max_tokens);
	if (req->system != NULL)
		cJSON_AddStringToObject(b, "system", req->system);
	cJSON_AddItemToObject(b, "messages", provider_messages(req, NULL));
	cJSON_AddBoolToObject(b, "stream", true);
	s = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return s;
}

/* A refusal's stop_details, as "category C: explanation". */
static char *
anthropic_stop_details(const cJSON *root)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "stop_details");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(d, "category");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(d, "explanation");
	char *out;

	if (!cJSON_IsString(c) && !cJSON_IsString(e))
		return NULL;
	xasprintf(&out, "category %.40s%s%.300s", cJSON_IsString(c) ?
	    c->valuestring : "unknown", cJSON_IsString(e) ? ": " : "",
	    cJSON_IsString(e) ? e->valuestring : "");
	return out;
}

int
anthropic_parse(const char *body, struct llm_answer *ans, struct error *err)
{
	cJSON *root = cJSON_Parse(body);
	const cJSON *content, *blk, *type, *text, *stop, *usage, *n;
	struct llm_buf all = { 0 };

	if (root == NULL)
		return error_set(err, EXIT_NETWORK, "the answer is not valid "
		    "JSON (%zu bytes, starting '%.40s')", strlen(body), body);
	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	if (!cJSON_IsArray(content)) {
		cJSON_Delete(root);
		return error_set(err, EXIT_NETWORK, "the answer has no "
		    "\"content\" array");
	}
	/* One growing buffer: the answer may hold any number of blocks. */
	if (ans->text != NULL)
		llm_buf_add(&all, ans->text, strlen(ans->text));
	cJSON_ArrayForEach(blk, content) {
		type = cJSON_GetObjectItemCaseSensitive(blk, "type");
		text = cJSON_GetObjectItemCaseSensitive(blk, "text");
		if (cJSON_IsString(type) && strcmp(type->valuestring,
		    "text") == 0 && cJSON_IsString(text))
			llm_buf_add(&all, text->valuestring,
			    strlen(text->valuestring));
	}
	if (all.s != NULL) {
		free(ans->text);
		ans->text = all.s;
	}
	stop = cJSON_GetObjectItemCaseSensitive(root, "stop_reason");
	if (cJSON_IsString(stop)) {
		ans->stop_reason = xstrdup(stop->valuestring);
		ans->truncated = strcmp(stop->valuestring, "max_tokens") == 0;
	}
	ans->stop_details = anthropic_stop_details(root);
	usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
	if ((n = cJSON_GetObjectItemCaseSensitive(usage, "input_tokens")) &&
	    cJSON_IsNumber(n))
		ans->input_tokens = (long)n->valuedouble;
	if ((n = cJSON_GetObjectItemCaseSensitive(usage, "output_tokens")) &&
	    cJSON_IsNumber(n))
		ans->output_tokens = (long)n->valuedouble;
	cJSON_Delete(root);
	return 0;
}

/* The message being rebuilt from a stream. */
struct anthropic_acc {
	cJSON		*msg;
	cJSON		*blocks[ANTHROPIC_MAX_BLOCKS];
	struct llm_buf	 text[ANTHROPIC_MAX_BLOCKS];
	int		 nblocks;
	bool		 stopped;
};

static const cJSON *
anthropic_get(const cJSON *o, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(o, name);
}

/* Sets o.name to v (owned by o afterwards, or freed). */
static void
anthropic_set(cJSON *o, const char *name, cJSON *v)
{
	if (!cJSON_IsObject(o))
		cJSON_Delete(v);
	else if (cJSON_GetObjectItemCaseSensitive(o, name) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(o, name, v);
	else
		cJSON_AddItemToObject(o, name, v);
}

/* content_block_start and content_block_delta: one block's text grows. */
static int
anthropic_block(struct anthropic_acc *a, const cJSON *ev, bool start,
    struct error *err)
{
	const cJSON *idx = anthropic_get(ev, "index"), *d, *t;
	int i;

	if (!cJSON_IsNumber(idx) || idx->valuedouble < 0 ||
	    idx->valuedouble >= ANTHROPIC_MAX_BLOCKS)
		return error_set(err, EXIT_NETWORK, "the answer stream has a "
		    "content block without a usable index");
	i = (int)idx->valuedouble;
	if (start) {
		cJSON_Delete(a->blocks[i]);
		a->blocks[i] = cJSON_Duplicate(anthropic_get(ev,
		    "content_block"), true);
		if (i >= a->nblocks)
			a->nblocks = i + 1;
		return 0;
	}
	/* text_delta carries "text", thinking_delta "thinking"; other
	 * deltas (signatures, tool input) are not the answer. */
	d = anthropic_get(ev, "delta");
	if (!cJSON_IsString(t = anthropic_get(d, "text")))
		t = anthropic_get(d, "thinking");
	if (cJSON_IsString(t))
		llm_buf_add(&a->text[i], t->valuestring, strlen(t->valuestring));
	return 0;
}

/* message_delta: the stop reason and the output token count. */
static void
anthropic_delta(struct anthropic_acc *a, const cJSON *ev)
{
	const cJSON *d = anthropic_get(ev, "delta"), *u, *v;
	cJSON *usage;

	if (a->msg == NULL)
		return;
	if ((v = anthropic_get(d, "stop_reason")) != NULL)
		anthropic_set(a->msg, "stop_reason", cJSON_Duplicate(v, true));
	if ((v = anthropic_get(d, "stop_sequence")) != NULL)
		anthropic_set(a->msg, "stop_sequence", cJSON_Duplicate(v, true));
	if ((v = anthropic_get(d, "stop_details")) != NULL)
		anthropic_set(a->msg, "stop_details", cJSON_Duplicate(v, true));
	u = anthropic_get(ev, "usage");
	if ((v = anthropic_get(u, "output_tokens")) != NULL &&
	    cJSON_IsNumber(v)) {
		if ((usage = cJSON_GetObjectItemCaseSensitive(a->msg,
		    "usage")) == NULL)
			usage = cJSON_AddObjectToObject(a->msg, "usage");
		anthropic_set(usage, "output_tokens",
		    cJSON_CreateNumber(v->valuedouble));
	}
}

static int
anthropic_event(struct anthropic_acc *a, const cJSON *ev, struct error *err)
{
	const cJSON *type = anthropic_get(ev, "type"), *e, *m;
	const char *t = cJSON_IsString(type) ? type->valuestring : "";

	if (strcmp(t, "message_start") == 0) {
		e = anthropic_get(ev, "message");
		if (!cJSON_IsObject(e))
			return error_set(err, EXIT_NETWORK, "the answer stream's "
			    "message_start holds no message");
		cJSON_Delete(a->msg);
		a->msg = cJSON_Duplicate(e, true);
	} else if (strcmp(t, "content_block_start") == 0)
		return anthropic_block(a, ev, true, err);
	else if (strcmp(t, "content_block_delta") == 0)
		return anthropic_block(a, ev, false, err);
	else if (strcmp(t, "message_delta") == 0)
		anthropic_delta(a, ev);
	else if (strcmp(t, "message_stop") == 0)
		a->stopped = true;
	else if (strcmp(t, "error") == 0) {
		e = anthropic_get(ev, "error");
		type = anthropic_get(e, "type");
		m = anthropic_get(e, "message");
		t = cJSON_IsString(type) ? type->valuestring : "unknown";
		error_set(err, EXIT_NETWORK, "the answer stream broke off with "
		    "an error (%s): %.300s", t, cJSON_IsString(m) ?
		    m->valuestring : "no message");
		return strcmp(t, "overloaded_error") == 0 ||
		    strcmp(t, "api_error") == 0 ? LLM_STREAM_BROKEN : -1;
	}
	return 0;
}

/* The rebuilt message's content: each block with its text put back. */
static void
anthropic_content(struct anthropic_acc *a)
{
	cJSON *content = cJSON_CreateArray(), *b;
	const cJSON *type;
	int i;

	for (i = 0; i < a->nblocks; i++) {
		if ((b = a->blocks[i]) == NULL)
			continue;
		a->blocks[i] = NULL;
		type = anthropic_get(b, "type");
		if (cJSON_IsString(type) && (strcmp(type->valuestring,
		    "text") == 0 || strcmp(type->valuestring, "thinking") == 0))
			anthropic_set(b, type->valuestring, cJSON_CreateString(
			    a->text[i].s != NULL ? a->text[i].s : ""));
		cJSON_AddItemToArray(content, b);
	}
	anthropic_set(a->msg, "content", content);
}

static void
anthropic_acc_free(struct anthropic_acc *a)
{
	int i;

	cJSON_Delete(a->msg);
	for (i = 0; i < ANTHROPIC_MAX_BLOCKS; i++) {
		cJSON_Delete(a->blocks[i]);
		llm_buf_free(&a->text[i]);
	}
}

int
anthropic_unstream(const char *sse, char **body, struct error *err)
{
	struct anthropic_acc *a = xcalloc(1, sizeof *a);
	struct sse_event ev = { 0 };
	const char *cur = sse;
	cJSON *j;
	int rc = 0;

	while (rc == 0 && !a->stopped && sse_next(&cur, &ev) == 1) {
		if ((j = cJSON_Parse(ev.data.s)) == NULL)
			continue;	/* not JSON: nothing for us */
		rc = anthropic_event(a, j, err);
		cJSON_Delete(j);
	}
	sse_event_free(&ev);
	if (rc == 0 && a->msg == NULL)
		rc = error_set(err, EXIT_NETWORK, "the answer stream has no "
		    "message_start event");
	else if (rc == 0 && !a->stopped) {
		error_set(err, EXIT_NETWORK, "the answer stream ended before "
		    "message_stop (cut short)");
		rc = LLM_STREAM_BROKEN;
	}
	if (rc == 0) {
		anthropic_content(a);
		*body = cJSON_PrintUnformatted(a->msg);
	}
	anthropic_acc_free(a);
	free(a);
	return rc;
}

int
anthropic_complete(const struct provider_options *o,
    const struct llm_request *req, struct llm_answer *ans, struct error *err)
{
	char *base = provider_base_url("ANTHROPIC_BASE_URL", ANTHROPIC_BASE);
	struct provider_call c = { 0 };
	char *url;
	int rc;

	xasprintf(&url, "%s/v1/messages", base);
	c.service = "the Anthropic API";
	c.url = url;
	c.key_header = "x-api-key";
	c.key_value = provider_key("anthropic");
	c.extra_name = "anthropic-version";
	c.extra_value = ANTHROPIC_VERSION;
	c.model = req->model;
	c.max_tokens = req->max_tokens;
	c.body = anthropic_body(req);
	c.parse = anthropic_parse;
	c.unstream = anthropic_unstream;
	rc = provider_post(o, &c, ans, err);
	free(url);
	free(base);
	return rc;
}
