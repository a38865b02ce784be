/*
 * provider_openai — OpenAI Chat Completions: POST {base}/chat/completions
 * with a bearer key; the answer is choices[0].message.content, and
 * finish_reason "length" marks a truncated answer.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "net/provider.h"

#define OPENAI_BASE	"https://api.openai.com/v1"

static char *
openai_body(const struct llm_request *req)
{
	cJSON *b = cJSON_CreateObject();
	char *s;

	cJSON_AddStringToObject(b, "model", req->model);
	cJSON_AddNumberToObject(b, "max_completion_tokens", req->max_tokens);
	cJSON_AddItemToObject(b, "messages", provider_messages(req, true));
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
	if (ans->text == NULL && cJSON_IsString(refusal)) {
		error_set(err, EXIT_NETWORK, "the model refused: %.300s",
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

int
openai_complete(const struct provider_options *o,
    const struct llm_request *req, struct llm_answer *ans, struct error *err)
{
	char *base = provider_base_url("OPENAI_BASE_URL", OPENAI_BASE);
	char *url, *bearer;
	int rc;

	xasprintf(&url, "%s/chat/completions", base);
	xasprintf(&bearer, "Bearer %s", provider_key("openai"));
	rc = provider_post(o, "the OpenAI API", url, "authorization", bearer,
	    NULL, NULL, openai_body(req), openai_parse, ans, err);
	/* The bearer line holds the key: wipe it before freeing. */
	memset(bearer, 0, strlen(bearer));
	free(bearer);
	free(url);
	free(base);
	return rc;
}
