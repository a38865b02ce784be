/*
 * provider_openai — OpenAI Chat Completions: POST {base}/chat/completions
 * with a bearer key, streamed; the answer is choices[0].message.content,
 * and finish_reason "length" marks a truncated answer.
 *
 * The system prompt goes as a "developer" message, which replaces
 * "system" for o1 and newer models, and the limit as
 * max_completion_tokens (it bounds reasoning and visible tokens; the older
 * max_tokens is deprecated and refused by reasoning models). No sampling
 * parameters are sent.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "net/provider_int.h"

#define OPENAI_BASE	"https://api.openai.com/v1"

static char *
openai_body(const struct llm_request *req)
{
	cJSON *b = cJSON_CreateObject(), *opts;
	char *s;

	cJSON_AddStringToObject(b, "model", req->model);
	cJSON_AddNumberToObject(b, "max_completion_tokens", req->max_tokens);
	cJSON_AddItemToObject(b, "messages", provider_messages(req,
	    "developer"));
	cJSON_AddBoolToObject(b, "stream", true);
	cJSON_AddItemToObject(b, "stream_options", opts = cJSON_CreateObject());
	cJSON_AddBoolToObject(opts, "include_usage", true);
	s = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return s;
}

int
openai_parse(const char *body, struct llm_answer *ans, struct error *err)
{
	cJSON *root = cJSON_Parse(body);
	const cJSON *choice, *msg, *content, *refusal, *fin, *usage, *n;

	if (root == NULL)
		return error_set(err, EXIT_NETWORK, "the answer is not valid "
		    "JSON (%zu bytes, starting '%.40s')", strlen(body), body);
	choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root,
	    "choices"), 0);
	msg = cJSON_GetObjectItemCaseSensitive(choice, "message");
	content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	if (!cJSON_IsObject(msg)) {
		cJSON_Delete(root);
		return error_set(err, EXIT_NETWORK, "the answer has no "
		    "choices[0].message");
	}
	if (cJSON_IsString(content))
		ans->text = xstrdup(content->valuestring);
	refusal = cJSON_GetObjectItemCaseSensitive(msg, "refusal");
	if (cJSON_IsString(refusal) && refusal->valuestring[0] != '\0') {
		error_set(err, EXIT_NETWORK, "the model refused to answer "
		    "(refusal): %.300s; fronts does not retry a refusal: check "
		    "rules.md and the drafts for what may have triggered it",
		    refusal->valuestring);
		cJSON_Delete(root);
		return -1;
	}
	fin = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
	if (cJSON_IsString(fin)) {
		ans->stop_reason = xstrdup(fin->valuestring);
		ans->truncated = strcmp(fin->valuestring, "length") == 0;
	}
	usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
	if ((n = cJSON_GetObjectItemCaseSensitive(usage, "prompt_tokens")) &&
	    cJSON_IsNumber(n))
		ans->input_tokens = (long)n->valuedouble;
	if ((n = cJSON_GetObjectItemCaseSensitive(usage,
	    "completion_tokens")) && cJSON_IsNumber(n))
		ans->output_tokens = (long)n->valuedouble;
	cJSON_Delete(root);
	return 0;
}

/* The answer being rebuilt from a stream of chunks. */
struct openai_acc {
	cJSON		*head;		/* the first chunk: id, model */
	cJSON		*usage;
	cJSON		*finish;
	struct llm_buf	 content;
	struct llm_buf	 refusal;
	bool		 any_content;
	bool		 any_refusal;
	bool		 done;
};

static void
openai_delta(struct openai_acc *a, const cJSON *choice)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(choice, "delta"), *v;

	v = cJSON_GetObjectItemCaseSensitive(d, "content");
	if (cJSON_IsString(v)) {
		llm_buf_add(&a->content, v->valuestring, strlen(v->valuestring));
		a->any_content = true;
	}
	v = cJSON_GetObjectItemCaseSensitive(d, "refusal");
	if (cJSON_IsString(v)) {
		llm_buf_add(&a->refusal, v->valuestring, strlen(v->valuestring));
		a->any_refusal = true;
	}
	v = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
	if (cJSON_IsString(v)) {
		cJSON_Delete(a->finish);
		a->finish = cJSON_Duplicate(v, true);
	}
}

static int
openai_chunk(struct openai_acc *a, const cJSON *chunk, struct error *err)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(chunk, "error"), *v;

	if (cJSON_IsObject(e)) {
		v = cJSON_GetObjectItemCaseSensitive(e, "message");
		error_set(err, EXIT_NETWORK, "the answer stream broke off with "
		    "an error: %.300s", cJSON_IsString(v) ? v->valuestring :
		    "no message");
		v = cJSON_GetObjectItemCaseSensitive(e, "type");
		return cJSON_IsString(v) && strcmp(v->valuestring,
		    "server_error") == 0 ? LLM_STREAM_BROKEN : -1;
	}
	if (a->head == NULL)
		a->head = cJSON_Duplicate(chunk, true);
	v = cJSON_GetObjectItemCaseSensitive(chunk, "usage");
	if (cJSON_IsObject(v)) {
		cJSON_Delete(a->usage);
		a->usage = cJSON_Duplicate(v, true);
	}
	v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(chunk,
	    "choices"), 0);
	if (v != NULL)
		openai_delta(a, v);
	return 0;
}

/* The chat.completion object the unstreamed API would have returned. */
static char *
openai_rebuild(struct openai_acc *a)
{
	cJSON *o = cJSON_CreateObject(), *choices, *c, *m;
	const cJSON *v;
	char *s;

	v = cJSON_GetObjectItemCaseSensitive(a->head, "id");
	cJSON_AddStringToObject(o, "id", cJSON_IsString(v) ? v->valuestring : "");
	cJSON_AddStringToObject(o, "object", "chat.completion");
	v = cJSON_GetObjectItemCaseSensitive(a->head, "model");
	cJSON_AddStringToObject(o, "model", cJSON_IsString(v) ?
	    v->valuestring : "");
	choices = cJSON_AddArrayToObject(o, "choices");
	cJSON_AddItemToArray(choices, c = cJSON_CreateObject());
	cJSON_AddNumberToObject(c, "index", 0);
	cJSON_AddItemToObject(c, "message", m = cJSON_CreateObject());
	cJSON_AddStringToObject(m, "role", "assistant");
	if (a->any_content)
		cJSON_AddStringToObject(m, "content", a->content.s);
	else
		cJSON_AddNullToObject(m, "content");
	if (a->any_refusal)
		cJSON_AddStringToObject(m, "refusal", a->refusal.s);
	cJSON_AddItemToObject(c, "finish_reason", a->finish != NULL ?
	    a->finish : cJSON_CreateNull());
	a->finish = NULL;
	if (a->usage != NULL) {
		cJSON_AddItemToObject(o, "usage", a->usage);
		a->usage = NULL;
	}
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

int
openai_unstream(const char *sse, char **body, struct error *err)
{
	struct openai_acc a = { 0 };
	struct sse_event ev = { 0 };
	const char *cur = sse;
	cJSON *j;
	int rc = 0;

	while (rc == 0 && !a.done && sse_next(&cur, &ev) == 1) {
		if (strcmp(ev.data.s, "[DONE]") == 0) {
			a.done = true;
			break;
		}
		if ((j = cJSON_Parse(ev.data.s)) == NULL)
			continue;
		rc = openai_chunk(&a, j, err);
		cJSON_Delete(j);
	}
	sse_event_free(&ev);
	if (rc == 0 && !a.done) {
		error_set(err, EXIT_NETWORK, "the answer stream ended before "
		    "[DONE] (cut short)");
		rc = LLM_STREAM_BROKEN;
	}
	if (rc == 0)
		*body = openai_rebuild(&a);
	cJSON_Delete(a.head);
	cJSON_Delete(a.usage);
	cJSON_Delete(a.finish);
	llm_buf_free(&a.content);
	llm_buf_free(&a.refusal);
	return rc;
}

int
openai_complete(const struct provider_options *o,
    const struct llm_request *req, struct llm_answer *ans, struct error *err)
{
	char *base = provider_base_url("OPENAI_BASE_URL", OPENAI_BASE);
	struct provider_call c = { 0 };
	char *url, *bearer;
	int rc;

	xasprintf(&url, "%s/chat/completions", base);
	xasprintf(&bearer, "Bearer %s", provider_key("openai"));
	c.service = "the OpenAI API";
	c.url = url;
	c.key_header = "authorization";
	c.key_value = bearer;
	c.model = req->model;
	c.max_tokens = req->max_tokens;
	c.body = openai_body(req);
	c.parse = openai_parse;
	c.unstream = openai_unstream;
	rc = provider_post(o, &c, ans, err);
	/* The bearer line holds the key: wipe it before freeing. */
	memset(bearer, 0, strlen(bearer));
	free(bearer);
	free(url);
	free(base);
	return rc;
}
