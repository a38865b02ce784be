/*
 * provider_anthropic — the Anthropic Messages API: POST {base}/v1/messages
 * with x-api-key and anthropic-version; the answer is the text blocks of
 * "content", and stop_reason "max_tokens" marks a truncated answer.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "net/provider.h"

#define ANTHROPIC_BASE		"https://api.anthropic.com"
#define ANTHROPIC_VERSION	"2023-06-01"

static char *
anthropic_body(const struct llm_request *req)
{
	cJSON *b = cJSON_CreateObject();
	char *s;

	cJSON_AddStringToObject(b, "model", req->model);
	cJSON_AddNumberToObject(b, "max_tokens", req->max_tokens);
	if (req->system != NULL)
		cJSON_AddStringToObject(b, "system", req->system);
	cJSON_AddItemToObject(b, "messages", provider_messages(req, false));
	s = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return s;
}

/* Appends a text fragment to *out. */
static void
anthropic_append(char **out, const char *text)
{
	size_t a = *out != NULL ? strlen(*out) : 0, b = strlen(text);

	*out = xrealloc(*out, a + b + 1);
	memcpy(*out + a, text, b + 1);
}

int
anthropic_parse(const char *body, struct llm_answer *ans, struct error *err)
{
	cJSON *root = cJSON_Parse(body);
	const cJSON *content, *blk, *type, *text, *stop, *usage, *n;

	if (root == NULL)
		return error_set(err, EXIT_NETWORK, "the answer is not valid "
		    "JSON (%zu bytes, starting '%.40s')", strlen(body), body);
	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	if (!cJSON_IsArray(content)) {
		cJSON_Delete(root);
		return error_set(err, EXIT_NETWORK, "the answer has no "
		    "\"content\" array");
	}
	cJSON_ArrayForEach(blk, content) {
		type = cJSON_GetObjectItemCaseSensitive(blk, "type");
		text = cJSON_GetObjectItemCaseSensitive(blk, "text");
		if (cJSON_IsString(type) && strcmp(type->valuestring,
		    "text") == 0 && cJSON_IsString(text))
			anthropic_append(&ans->text, text->valuestring);
	}
	stop = cJSON_GetObjectItemCaseSensitive(root, "stop_reason");
	if (cJSON_IsString(stop)) {
		ans->stop_reason = xstrdup(stop->valuestring);
		ans->truncated = strcmp(stop->valuestring, "max_tokens") == 0;
	}
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

int
anthropic_complete(const struct provider_options *o,
    const struct llm_request *req, struct llm_answer *ans, struct error *err)
{
	char *base = provider_base_url("ANTHROPIC_BASE_URL", ANTHROPIC_BASE);
	char *url;
	int rc;

	xasprintf(&url, "%s/v1/messages", base);
	rc = provider_post(o, "the Anthropic API", url, "x-api-key",
	    provider_key("anthropic"), "anthropic-version", ANTHROPIC_VERSION,
	    anthropic_body(req), anthropic_parse, ans, err);
	free(url);
	free(base);
	return rc;
}
