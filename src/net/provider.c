/*
 * provider — choosing a provider, the canonical request that names a
 * recording, the one HTTP path both real APIs share, and what an answer
 * that did not end by itself means for the operator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/http.h"
#include "net/provider_int.h"

/* The providers' current recommendations (Anthropic's models overview:
 * "start with Claude Opus 5.5"; OpenAI's model guide: GPT-6 Astra for
 * complex reasoning and coding — gpt-6.2-astra, released 2026-11-17 and
 * not offered on every plan yet, becomes the default once the guide
 * names it). The only place the defaults are written: provider.model in
 * fronts.json or --llm-model replaces them. */
#define ANTHROPIC_DEFAULT_MODEL	"claude-opus-5-5"
#define OPENAI_DEFAULT_MODEL	"gpt-6-astra"

/* A streamed answer may take as long as it needs while it keeps coming;
 * what fails it is silence (the answer stalled) or this overall cap. */
#define LLM_IDLE_MS		300000L
#define LLM_TOTAL_MS		(30 * 60 * 1000L)
/* A streamed answer is several times the size of its text (each event
 * wraps a few characters in JSON): room for a 32k-token answer with its
 * thinking, one token per event. */
#define LLM_MAX_RESPONSE	(32u << 20)
/* Times an answer is asked for when its stream keeps breaking off. */
#define LLM_STREAM_TRIES	3

struct provider {
	struct provider_options	 opts;
	enum provider_kind	 kind;
};

const char *
provider_default_model(const char *api)
{
	return strcmp(api, "openai") == 0 ? OPENAI_DEFAULT_MODEL :
	    ANTHROPIC_DEFAULT_MODEL;
}

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

/* What a stop reason other than a natural end means, in the operator's
 * words; 0 when the answer ended by itself. */
static const char *
provider_stop_words(const char *reason)
{
	static const struct {
		const char	*reason;
		const char	*words;
	} table[] = {
		{ "refusal", "the model refused to answer (stop reason "
		    "refusal); fronts does not retry a refusal: check rules.md "
		    "and the drafts for what may have triggered it" },
		{ "model_context_window_exceeded", "the prompt and the answer "
		    "filled the model's context window (stop reason "
		    "model_context_window_exceeded); shorten rules.md or the "
		    "history, or choose a model with a larger context window" },
		{ "pause_turn", "the API paused the turn before the answer was "
		    "complete (stop reason pause_turn); fronts uses no server "
		    "tools, so run synth again" },
		{ "content_filter", "the provider's content filter withheld "
		    "the answer (finish reason content_filter); check rules.md "
		    "and the drafts for what may have triggered it" },
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(reason, table[i].reason) == 0)
			return table[i].words;
	return NULL;
}

static int
provider_stop_error(const char *api, const struct llm_request *req,
    const struct llm_answer *ans, struct error *err)
{
	const char *rid = ans->request_id, *words;
	char idbuf[160] = "";

	if (rid != NULL)
		snprintf(idbuf, sizeof idbuf, " [request id %s]", rid);
	if (ans->truncated)
		return error_set(err, EXIT_NETWORK, "the answer was cut off at "
		    "the %d-token limit (stop reason %s)%s", req->max_tokens,
		    ans->stop_reason, idbuf);
	if (ans->stop_reason == NULL ||
	    (words = provider_stop_words(ans->stop_reason)) == NULL)
		return 0;
	return error_set(err, EXIT_NETWORK, "%s%s%s%s", words,
	    ans->stop_details != NULL ? "; " : "", ans->stop_details != NULL ?
	    ans->stop_details : "", idbuf);
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
	if (provider_stop_error(p->opts.api, req, ans, err) != 0)
		return -1;
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
	free(a->stop_details);
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
provider_messages(const struct llm_request *req, const char *system_role)
{
	cJSON *arr = cJSON_CreateArray();
	int i;

	if (system_role != NULL && req->system != NULL)
		provider_add_message(arr, system_role, req->system);
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
	cJSON_AddItemToObject(c, "messages", provider_messages(req, NULL));
	return c;
}

void
provider_hash(const cJSON *canonical, char out[65])
{
	char *s = cJSON_PrintUnformatted(canonical);

	sha256_hex(s, strlen(s), out);
	cJSON_free(s);
}

/* Does a 404 say that the model does not exist (Anthropic: not_found_error
 * naming the model; OpenAI: code model_not_found)? */
static bool
provider_no_model(const struct http_response *r)
{
	cJSON *root;
	const cJSON *e, *f;
	bool hit = false;

	if (r->status != 404 || (root = cJSON_Parse(r->body)) == NULL)
		return false;
	e = cJSON_GetObjectItemCaseSensitive(root, "error");
	f = cJSON_GetObjectItemCaseSensitive(e, "code");
	if (cJSON_IsString(f) && strcmp(f->valuestring, "model_not_found") == 0)
		hit = true;
	f = cJSON_GetObjectItemCaseSensitive(e, "type");
	if (cJSON_IsString(f) && strcmp(f->valuestring, "not_found_error") == 0 &&
	    (f = cJSON_GetObjectItemCaseSensitive(e, "message")) != NULL &&
	    cJSON_IsString(f) && strstr(f->valuestring, "model") != NULL)
		hit = true;
	cJSON_Delete(root);
	return hit;
}

static bool
provider_is_stream(const struct http_response *r)
{
	return r->content_type != NULL && strncasecmp(r->content_type,
	    "text/event-stream", 17) == 0;
}

/* Parses a 2xx answer into ans; a stream is first turned back into the
 * body its API would have sent unstreamed, which is what gets recorded.
 * Returns LLM_STREAM_BROKEN for a stream worth asking for again. */
static int
provider_read(const struct provider_call *c, struct http_response *resp,
    struct llm_answer *ans, struct error *err)
{
	char *body = NULL;
	int rc;

	if (provider_is_stream(resp)) {
		if ((rc = c->unstream(resp->body, &body, err)) != 0)
			return rc;
		free(resp->body);
		resp->body = body;
	}
	if (c->parse(resp->body, ans, err) != 0)
		return -1;
	ans->wire_response = resp->body;
	resp->body = NULL;
	return 0;
}

/* The error of a call that got a response it could not use. */
static void
provider_read_error(const struct provider_call *c,
    const struct http_request *req, const struct llm_answer *ans, int asked,
    struct error *err)
{
	size_t n;

	if (err == NULL)
		return;
	if (asked > 1) {
		n = strlen(err->msg);
		snprintf(err->msg + n, sizeof err->msg - n, " (asked %d times)",
		    asked);
	}
	if (ans->request_id != NULL)
		error_wrap(err, "%s [request id %s]", c->service,
		    ans->request_id);
	else
		error_wrap(err, "%s", c->service);
	err->code = EXIT_NETWORK;
	http_redact(req, err->msg, sizeof err->msg);
}

/* A 400 about the output limit: an older model allows fewer tokens. */
static bool
provider_limit_refused(const struct http_response *r)
{
	char *api;
	bool hit;

	if (r->status != 400 || (api = http_api_message(r->body)) == NULL)
		return false;
	hit = strstr(api, "max_tokens") != NULL ||
	    strstr(api, "max_completion_tokens") != NULL;
	free(api);
	return hit;
}

/* A failed request, worded for the operator where the fix is his: a model
 * the API does not know, or one that allows fewer output tokens. */
static void
provider_http_error(const struct provider_call *c,
    const struct http_response *resp, struct error *err)
{
	char rid[160] = "";
	size_t n;

	if (resp->request_id != NULL)
		snprintf(rid, sizeof rid, " [request id %s]", resp->request_id);
	if (provider_no_model(resp))
		error_set(err, EXIT_NETWORK, "%s has no model '%s' (404)%s: it "
		    "may be retired or misspelled; set provider.model in "
		    "fronts.json (or pass --llm-model) to a current model",
		    c->service, c->model, rid);
	else if (provider_limit_refused(resp) && err != NULL) {
		n = strlen(err->msg);
		snprintf(err->msg + n, sizeof err->msg - n, " (model '%s' allows "
		    "fewer than the %d output tokens fronts asks for: set "
		    "provider.model to a current model)", c->model,
		    c->max_tokens);
	}
}

int
provider_post(const struct provider_options *o, const struct provider_call *c,
    struct llm_answer *ans, struct error *err)
{
	struct http_header hdrs[3] = {
		{ "content-type", "application/json", false },
		{ c->key_header, c->key_value, true },
		{ c->extra_name, c->extra_value, false },
	};
	struct http_request req = { 0 };
	struct http_retry pol = { 0 };
	struct http_response resp;
	int rc, asked;

	req.method = "POST";
	req.url = c->url;
	req.headers = hdrs;
	req.nheaders = c->extra_name != NULL ? 3 : 2;
	req.body = c->body;
	req.body_len = strlen(c->body);
	req.timeout_ms = LLM_TOTAL_MS;
	req.idle_timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : LLM_IDLE_MS;
	req.max_response = LLM_MAX_RESPONSE;
	req.retry_transport = true;	/* asking again has no side effect */
	req.cancel = o->cancel;
	pol.service = c->service;
	pol.scale = o->retry_scale;
	ans->wire_request = c->body;
	for (asked = 1;; asked++) {
		if (http_perform_retry(&req, &pol, &resp, err) != 0) {
			provider_http_error(c, &resp, err);
			http_response_free(&resp);
			return -1;
		}
		ans->tries += resp.tries;
		free(ans->request_id);
		ans->request_id = resp.request_id;
		resp.request_id = NULL;
		rc = provider_read(c, &resp, ans, err);
		http_response_free(&resp);
		/* A stream that broke off is a transport failure too. */
		if (rc != LLM_STREAM_BROKEN || asked >= LLM_STREAM_TRIES ||
		    http_cancelled(&req))
			break;
		http_retry_pause(&pol, asked);
	}
	if (rc == 0) {
		if (err != NULL)
			memset(err, 0, sizeof *err);
		return 0;
	}
	provider_read_error(c, &req, ans, asked, err);
	return -1;
}
