/*
 * channel_mastodon — a status on the front's instance
 * (POST {instance}/api/v1/statuses) with a bearer token and an
 * Idempotency-Key derived from the ledger entry: Mastodon answers a
 * repeated key with the status it already created instead of a second one
 * (for as long as the instance remembers keys, an hour by default).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/json.h"
#include "net/channel_int.h"

int
channel_mastodon_build(struct channel_call *c, const char *text,
    struct error *err)
{
	const struct front *f = c->front;
	const char *instance = channel_front_str(f, NULL, "instance");
	const char *vis = channel_front_str(f, NULL, "visibility");
	char *url, *auth = NULL, *base;
	cJSON *body;

	if (instance == NULL)
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "\"instance\" (the Mastodon server's URL) is missing", f->id);
	if (channel_url_check(instance, "fronts.json: mastodon \"instance\"",
	    err) != 0)
		return -1;
	base = xstrdup_rtrim(instance, '/');
	xasprintf(&url, "%s/api/v1/statuses", base);
	free(base);
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "status", text);
	cJSON_AddStringToObject(body, "visibility", vis != NULL ? vis : "public");
	if (c->secret != NULL)
		xasprintf(&auth, "Bearer %s", c->secret);
	channel_req_set(&c->post, url, cJSON_PrintUnformatted(body),
	    "Authorization", auth, c->post.http.timeout_ms);
	channel_req_add(&c->post, "Idempotency-Key", c->key, false);
	cJSON_Delete(body);
	free(url);
	return 0;
}

void
channel_mastodon_result(const struct channel_call *c,
    const struct http_response *r, struct channel_result *out)
{
	cJSON *j = cJSON_Parse(r->body);
	const char *id = json_str(j, "id"), *url = json_str(j, "url");

	if (id == NULL) {
		out->state = LEDGER_UNKNOWN;
		xasprintf(&out->message, "HTTP %ld but no status id in the "
		    "answer: %.200s", r->status, r->body);
	} else {
		out->state = LEDGER_SENT;
		out->post_id = xstrdup(id);
		if (url != NULL)
			out->url = xstrdup(url);
	}
	cJSON_Delete(j);
}
