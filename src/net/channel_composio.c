/*
 * channel_composio — X, LinkedIn and Reddit through Composio's
 * tool-execution API: POST {base}/api/v3/tools/execute/{tool} with the
 * front's composio block (tool, user_id, connected_account_id, version,
 * and the tool's fixed arguments) and the post's text under the argument
 * name that tool expects.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "net/channel.h"

#define COMPOSIO_DEFAULT_BASE	"https://backend.composio.dev"

static const char *
composio_base(void)
{
	const char *b = getenv("COMPOSIO_BASE_URL");

	return b != NULL && b[0] != '\0' ? b : COMPOSIO_DEFAULT_BASE;
}

/* A fixed argument from the composio block (or its "arguments" object). */
static const char *
composio_arg(const struct front *f, const char *name)
{
	const cJSON *blk = cJSON_GetObjectItemCaseSensitive(f->raw, "composio");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(blk, "arguments");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, name);

	if (cJSON_IsString(v))
		return v->valuestring;
	return channel_front_str(f, "composio", name);
}

static int
composio_need(cJSON *args, const struct front *f, const char *name,
    const char *dflt, struct error *err)
{
	const char *v = composio_arg(f, name);

	if (v == NULL)
		v = dflt;
	if (v == NULL)
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "composio.%s is missing (the %s tool needs it)", f->id,
		    name, platform_name(f->platform));
	cJSON_AddStringToObject(args, name, v);
	return 0;
}

/* The tool's arguments: X `text`; LinkedIn `commentary`, `author`,
 * `visibility`; Reddit `subreddit`, `title` (the post's text: the length
 * limit is the title's), `kind`, `text`. */
static int
composio_arguments(const struct front *f, const char *text, cJSON *args,
    struct error *err)
{
	switch (f->platform) {
	case PLATFORM_X:
		cJSON_AddStringToObject(args, "text", text);
		return 0;
	case PLATFORM_LINKEDIN:
		cJSON_AddStringToObject(args, "commentary", text);
		if (composio_need(args, f, "author", NULL, err) != 0)
			return -1;
		return composio_need(args, f, "visibility", "PUBLIC", err);
	default:
		if (composio_need(args, f, "subreddit", NULL, err) != 0)
			return -1;
		cJSON_AddStringToObject(args, "title", text);
		if (composio_need(args, f, "kind", "self", err) != 0)
			return -1;
		return composio_need(args, f, "text", "", err);
	}
}

int
channel_composio_build(struct channel_call *c, const char *text,
    struct error *err)
{
	static const char *top[] = { "user_id", "connected_account_id",
	    "version" };
	const struct front *f = c->front;
	cJSON *body = cJSON_CreateObject(), *args;
	char *url, *base = xstrdup(composio_base());
	size_t i;

	args = cJSON_AddObjectToObject(body, "arguments");
	if (channel_url_check(base, "COMPOSIO_BASE_URL", err) != 0 ||
	    composio_arguments(f, text, args, err) != 0) {
		cJSON_Delete(body);
		free(base);
		return -1;
	}
	for (i = 0; i < sizeof top / sizeof top[0]; i++)
		if (channel_front_str(f, "composio", top[i]) != NULL)
			cJSON_AddStringToObject(body, top[i],
			    channel_front_str(f, "composio", top[i]));
	while (base[0] != '\0' && base[strlen(base) - 1] == '/')
		base[strlen(base) - 1] = '\0';
	xasprintf(&url, "%s/api/v3/tools/execute/%s", base,
	    channel_front_str(f, "composio", "tool"));
	channel_req_set(&c->post, url, cJSON_PrintUnformatted(body),
	    "x-api-key", c->secret != NULL ? xstrdup(c->secret) : NULL,
	    c->post.http.timeout_ms);
	free(url);
	free(base);
	cJSON_Delete(body);
	return 0;
}

/* The created post's id, wherever the tool's response keeps it. */
static const char *
composio_post_id(const cJSON *data)
{
	const cJSON *v, *inner;

	inner = cJSON_GetObjectItemCaseSensitive(data, "data");
	if (cJSON_IsObject(inner) && (v = cJSON_GetObjectItemCaseSensitive(inner,
	    "id")) != NULL && cJSON_IsString(v))
		return v->valuestring;
	if ((v = cJSON_GetObjectItemCaseSensitive(data, "id")) != NULL &&
	    cJSON_IsString(v))
		return v->valuestring;
	return NULL;
}

void
channel_composio_result(const struct channel_call *c,
    const struct http_response *r, struct channel_result *out)
{
	cJSON *j = cJSON_Parse(r->body);
	const cJSON *ok, *data, *e, *log;
	const char *id;

	ok = cJSON_GetObjectItemCaseSensitive(j, "successful");
	if (ok == NULL)
		ok = cJSON_GetObjectItemCaseSensitive(j, "successfull");
	if (!cJSON_IsBool(ok)) {
		out->state = LEDGER_UNKNOWN;
		xasprintf(&out->message, "HTTP %ld but the answer does not say "
		    "whether the tool ran: %.200s", r->status, r->body);
	} else if (cJSON_IsFalse(ok)) {
		e = cJSON_GetObjectItemCaseSensitive(j, "error");
		out->state = LEDGER_FAILED;
		if (cJSON_IsObject(e))
			e = cJSON_GetObjectItemCaseSensitive(e, "message");
		xasprintf(&out->message, "Composio: %s", cJSON_IsString(e) ?
		    e->valuestring : "the tool reported failure");
	} else {
		out->state = LEDGER_SENT;
		data = cJSON_GetObjectItemCaseSensitive(j, "data");
		log = cJSON_GetObjectItemCaseSensitive(j, "log_id");
		if ((id = composio_post_id(data)) != NULL)
			out->post_id = xstrdup(id);
		else if (cJSON_IsString(log))
			xasprintf(&out->post_id, "composio-log:%s",
			    log->valuestring);
		if (id != NULL && c->front->platform == PLATFORM_X)
			xasprintf(&out->url, "https://x.com/i/web/status/%s", id);
	}
	cJSON_Delete(j);
}
