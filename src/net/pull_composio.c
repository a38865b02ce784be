/*
 * pull_composio — an X front's counts through Composio's read tool, the
 * tweet lookup (TWITTER_POST_LOOKUP_BY_POST_ID, or the front's
 * composio.read_tool): POST {base}/api/v3.1/tools/execute/{tool} with the
 * front's user_id or connected_account_id, the toolkit version (the
 * front's composio.version, else "latest": an unpinned execute's default
 * is documented two ways) and {"id", "tweet__fields"} (Composio's names
 * for X's id and tweet.fields), one known post at a time. There is no timeline read, so X pulls refresh
 * the posts fronts knows (history and ledger) and add none of the rest.
 * LinkedIn has no such tool: import its export instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/history.h"
#include "core/json.h"
#include "net/channel.h"
#include "net/pull_int.h"

#define X_READ_TOOL	"TWITTER_POST_LOOKUP_BY_POST_ID"

const char *const pull_x_lookup_args[] = { "id", "tweet__fields", NULL };

const char *
pull_x_read_tool(const struct front *f)
{
	const char *tool = channel_front_str(f, "composio", "read_tool");

	return tool != NULL ? tool : X_READ_TOOL;
}

static char *
lookup_body(const struct front *f, const char *id)
{
	static const char *top[] = { "user_id", "connected_account_id" };
	static const char *fields[] = { "created_at", "public_metrics", "text" };
	const char *version = channel_front_str(f, "composio", "version");
	cJSON *b = cJSON_CreateObject(), *a;
	char *s;
	size_t i;

	a = cJSON_AddObjectToObject(b, "arguments");
	cJSON_AddStringToObject(a, pull_x_lookup_args[0], id);
	cJSON_AddItemToObject(a, pull_x_lookup_args[1],
	    cJSON_CreateStringArray(fields, 3));
	for (i = 0; i < 2; i++)
		if (channel_front_str(f, "composio", top[i]) != NULL)
			cJSON_AddStringToObject(b, top[i],
			    channel_front_str(f, "composio", top[i]));
	cJSON_AddStringToObject(b, "version", version != NULL ? version :
	    "latest");
	s = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return s;
}

/* Composio answers 200 with successful:false when the tool failed. */
static int
tool_failed(const struct pull_session *s, const char *id,
    const struct http_response *r, struct error *err)
{
	cJSON *j = cJSON_Parse(r->body);
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(j, "successful");
	const char *why = json_str(j, "error");
	int rc = 0;

	if (cJSON_IsFalse(ok))
		rc = error_set(err, EXIT_NETWORK, "%s: the tweet lookup of %s "
		    "failed: %.300s", s->service, id, why != NULL ? why : "?");
	cJSON_Delete(j);
	return rc;
}

static int
lookup(struct pull_session *s, const char *url, int i, struct error *err)
{
	const struct front *f = s->o->front;
	struct hist_opts ho = { s->service, f->account, NULL, s->o->now,
	    true };
	const char *id = s->o->ids[i];
	struct http_response r;
	struct hist_batch one;
	char *body = lookup_body(f, id), left[96];
	enum pull_get g;
	int rc;

	snprintf(left, sizeof left, "%d of %d posts, from %.40s on",
	    s->o->nids - i, s->o->nids, id);
	g = pull_post(s, url, body, left, &r, err);
	free(body);
	if (g != PULL_OK)
		return g == PULL_FAILED ? -1 : 1;
	rc = tool_failed(s, id, &r, err);
	if (rc == 0)
		rc = hist_parse(HIST_FMT_X_API, &ho, r.body, r.len, &one, err);
	http_response_free(&r);
	if (rc != 0)
		return -1;
	s->out->pages++;
	hist_batch_move(&s->out->batch, &one);
	hist_batch_free(&one);
	return 0;
}

int
pull_composio(struct pull_session *s, struct error *err)
{
	const struct front *f = s->o->front;
	const char *key = getenv(channel_secret_var(f));
	char *base = channel_composio_base(), *url;
	int i, rc = 0;

	if (key == NULL || *key == '\0') {
		free(base);
		return error_set(err, EXIT_USAGE, "front \"%s\": %s is not set "
		    "(the key of Composio's read tool)", f->id,
		    channel_secret_var(f));
	}
	if (channel_url_check(base, "COMPOSIO_BASE_URL", err) != 0) {
		free(base);
		return -1;
	}
	s->service = strstr(base, "://") != NULL ? strstr(base, "://") + 3 : base;
	s->auth_name = "x-api-key";
	s->auth = key;
	xasprintf(&url, "%s/api/v3.1/tools/execute/%s", base,
	    pull_x_read_tool(f));
	for (i = 0; i < s->o->nids && rc == 0; i++)
		rc = lookup(s, url, i, err);
	s->out->complete = rc == 0;
	s->auth = NULL;
	free(url);
	free(base);
	return rc < 0 ? -1 : 0;
}
