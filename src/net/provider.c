/*
 * provider — choosing a provider, the canonical request that names a
 * recording, and the one HTTP path both real APIs share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/http.h"
#include "net/provider.h"

struct provider {
	struct provider_options	 opts;
	enum provider_kind	 kind;
};

const char *
provider_key_var(const char *api)
{
	return strcmp(api, "openai") == 0 ? "OPENAI_API_KEY" :
	    "ANTHROPIC_API_KEY";
}

const char *
provider_key(const char *api)
{
	const char *v = getenv(provider_key_var(api));

	return v != NULL && *v != '\0' ? v : NULL;
}

char *
provider_base_url(const char *var, const char *dflt)
{
	const char *v = getenv(var);
	char *out = xstrdup(v != NULL && *v != '\0' ? v : dflt);
	size_t n = strlen(out);

	while (n > 0 && out[n - 1] == '/')
		out[--n] = '\0';
	return out;
}

int
provider_open(const struct provider_options *o, struct provider **out,
    struct error *err)
{
	struct provider *p;
	enum provider_kind kind;
	const char *api;

	if (strcmp(o->name, "anthropic") == 0)
		kind = PROVIDER_ANTHROPIC;
	else if (strcmp(o->name, "openai") == 0)
		kind = PROVIDER_OPENAI;
	else if (strcmp(o->name, "replay") == 0)
		kind = PROVIDER_REPLAY;
	else
		return error_set(err, EXIT_USAGE, "unknown provider '%s' "
		    "(anthropic, openai or replay)", o->name);
	api = kind == PROVIDER_REPLAY ? (o->api != NULL ? o->api :
	    "anthropic") : o->name;
	if (strcmp(api, "anthropic") != 0 && strcmp(api, "openai") != 0)
		return error_set(err, EXIT_USAGE, "cannot replay requests "
		    "for unknown provider '%s'", api);
	if (kind != PROVIDER_REPLAY && provider_key(api) == NULL)
		return error_set(err, EXIT_NETWORK, "%s is not set: the %s "
		    "provider needs its key in the environment",
		    provider_key_var(api), api);
	if (kind == PROVIDER_REPLAY && o->record)
		return error_set(err, EXIT_USAGE, "--record needs a real "
		    "provider (anthropic or openai), not replay");
	if (o->model == NULL || *o->model == '\0')
		return error_set(err, EXIT_USAGE, "no model name: set "
		    "provider.model in fronts.json or pass --llm-model");
	p = xcalloc(1, sizeof *p);
	p->opts = *o;
	p->opts.api = api;
	p->kind = kind;
	*out = p;
	return 0;
}

void
provider_close(struct provider *p)
{
	free(p);
}

const char *
provider_name(const struct provider *p)
{
	return p->opts.name;
}

const char *
provider_model(const struct provider *p)
{
	return p->opts.model;
}

const char *
provider_api(const struct provider *p)
{
	return p->opts.api;
}

int
provider_complete(struct provider *p, const struct llm_request *req,
    struct llm_answer *ans, struct error *err)
{
	char *path = NULL;
	int rc;

	memset(ans, 0, sizeof *ans);
	switch (p->kind) {
	case PROVIDER_ANTHROPIC:
		rc = anthropic_complete(&p->opts, req, ans, err);
		break;
	case PROVIDER_OPENAI:
		rc = openai_complete(&p->opts, req, ans, err);
		break;
	default:
		rc = replay_complete(&p->opts, req, ans, err);
		break;
	}
	if (rc != 0)
		return -1;
	if (p->opts.record && record_store(&p->opts, req, ans, &path, err) != 0)
		return -1;
	free(path);
	if (ans->truncated)
		return error_set(err, EXIT_NETWORK, "the answer was cut off at "
		    "the %d-token limit (stop reason %s)%s%s%s", req->max_tokens,
		    ans->stop_reason, ans->request_id != NULL ?
		    " [request id " : "", ans->request_id != NULL ?
		    ans->request_id : "", ans->request_id != NULL ? "]" : "");
	if (ans->text == NULL || *ans->text == '\0')
		return error_set(err, EXIT_NETWORK, "the %s answer has no "
		    "text%s%s%s", p->opts.api, ans->request_id != NULL ?
		    " [request id " : "", ans->request_id != NULL ?
		    ans->request_id : "", ans->request_id != NULL ? "]" : "");
	return 0;
}

void
llm_answer_free(struct llm_answer *a)
{
	if (a == NULL)
		return;
	free(a->text);
	free(a->stop_reason);
	free(a->request_id);
	free(a->recording);
	free(a->wire_request);
	free(a->wire_response);
	memset(a, 0, sizeof *a);
}

static void
provider_add_message(cJSON *arr, const char *role, const char *content)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(m, "role", role);
	cJSON_AddStringToObject(m, "content", content);
	cJSON_AddItemToArray(arr, m);
}

cJSON *
provider_messages(const struct llm_request *req, bool system_first)
{
	cJSON *arr = cJSON_CreateArray();
	int i;

	if (system_first && req->system != NULL)
		provider_add_message(arr, "system", req->system);
	for (i = 0; i < req->nmessages; i++)
		provider_add_message(arr, req->messages[i].role,
		    req->messages[i].content);
	return arr;
}

cJSON *
provider_canonical(const char *api, const struct llm_request *req)
{
	cJSON *c = cJSON_CreateObject();

	/* Fixed key order: the printed form is what gets hashed. */
	cJSON_AddStringToObject(c, "provider", api);
	cJSON_AddStringToObject(c, "model", req->model);
	cJSON_AddNumberToObject(c, "max_tokens", req->max_tokens);
	cJSON_AddStringToObject(c, "system", req->system != NULL ?
	    req->system : "");
	cJSON_AddItemToObject(c, "messages", provider_messages(req, false));
	return c;
}

void
provider_hash(const cJSON *canonical, char out[65])
{
	char *s = cJSON_PrintUnformatted(canonical);

	sha256_hex(s, strlen(s), out);
	cJSON_free(s);
}

int
provider_post(const struct provider_options *o, const char *service,
    const char *url, const char *key_header, const char *key_value,
    const char *extra_name, const char *extra_value, char *body,
    int (*parse)(const char *, struct llm_answer *, struct error *),
    struct llm_answer *ans, struct error *err)
{
	struct http_header hdrs[3] = {
		{ "content-type", "application/json", false },
		{ key_header, key_value, true },
		{ extra_name, extra_value, false },
	};
	struct http_request req = { 0 };
	struct http_retry pol = { 0 };
	struct http_response resp;
	char *rid;

	req.method = "POST";
	req.url = url;
	req.headers = hdrs;
	req.nheaders = extra_name != NULL ? 3 : 2;
	req.body = body;
	req.body_len = strlen(body);
	req.timeout_ms = o->timeout_ms;
	pol.service = service;
	pol.scale = o->retry_scale;
	ans->wire_request = body;
	if (http_perform_retry(&req, &pol, &resp, err) != 0) {
		http_response_free(&resp);
		return -1;
	}
	ans->tries = resp.tries;
	ans->request_id = resp.request_id;
	resp.request_id = NULL;
	if (parse(resp.body, ans, err) != 0) {
		rid = ans->request_id;
		if (rid != NULL)
			error_wrap(err, "%s [request id %s]", service, rid);
		else
			error_wrap(err, "%s", service);
		if (err != NULL)
			err->code = EXIT_NETWORK;
		http_response_free(&resp);
		return -1;
	}
	ans->wire_response = resp.body;
	resp.body = NULL;
	http_response_free(&resp);
	return 0;
}
