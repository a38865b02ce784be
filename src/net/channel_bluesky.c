/*
 * channel_bluesky — a post on the front's PDS: a session from the handle
 * and an app password (com.atproto.server.createSession), then
 * com.atproto.repo.createRecord in app.bsky.feed.post under a record key
 * derived from the ledger entry. A repository holds one record per key, so
 * a repeated request cannot make a second post; when the PDS refuses the
 * key as taken, the record is looked up, and an existing record under our
 * key is the post an earlier attempt made.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/text.h"
#include "net/channel.h"

#define BLUESKY_DEFAULT_SERVICE	"https://bsky.social"
#define BLUESKY_COLLECTION	"app.bsky.feed.post"
#define BLUESKY_MAX_FACETS	32

static char *
bluesky_service(const struct front *f)
{
	const char *s = channel_front_str(f, NULL, "service");
	char *out = xstrdup(s != NULL ? s : BLUESKY_DEFAULT_SERVICE);

	while (out[0] != '\0' && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	return out;
}

static char *
bluesky_session_body(const char *handle, const char *password)
{
	cJSON *b = cJSON_CreateObject();
	char *out;

	cJSON_AddStringToObject(b, "identifier", handle);
	cJSON_AddStringToObject(b, "password", password);
	out = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return out;
}

static void
bluesky_facet(cJSON *facets, const struct text_span *sp, const char *type,
    const char *field, const char *value)
{
	cJSON *f = cJSON_CreateObject(), *idx, *feat;

	idx = cJSON_AddObjectToObject(f, "index");
	cJSON_AddNumberToObject(idx, "byteStart", (double)sp->start);
	cJSON_AddNumberToObject(idx, "byteEnd", (double)sp->end);
	feat = cJSON_CreateObject();
	cJSON_AddStringToObject(feat, "$type", type);
	cJSON_AddStringToObject(feat, field, value);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(f, "features"), feat);
	cJSON_AddItemToArray(facets, f);
}

/* Bluesky shows links and hashtags as such only where the record says so:
 * rich-text facets over UTF-8 byte ranges. */
static void
bluesky_facets(cJSON *rec, const char *text)
{
	struct text_span sp[BLUESKY_MAX_FACETS];
	cJSON *facets = cJSON_CreateArray();
	char *v, *uri;
	int n, i;

	/* The links Bluesky's own client would find (and the link caps
	 * counted). A link without a scheme gets "https://", also where the
	 * client keeps a word such as "httpbin.org" as it is: a facet's uri
	 * must be a URI. */
	n = text_extract_links(text, PLATFORM_BLUESKY, sp, BLUESKY_MAX_FACETS);
	for (i = 0; i < n && i < BLUESKY_MAX_FACETS; i++) {
		v = xstrndup(text + sp[i].start, sp[i].end - sp[i].start);
		if (strncmp(v, "http://", 7) != 0 &&
		    strncmp(v, "https://", 8) != 0)
			xasprintf(&uri, "https://%s", v);
		else
			uri = xstrdup(v);
		bluesky_facet(facets, &sp[i], "app.bsky.richtext.facet#link",
		    "uri", uri);
		free(uri);
		free(v);
	}
	n = text_extract_hashtags(text, sp, BLUESKY_MAX_FACETS);
	for (i = 0; i < n && i < BLUESKY_MAX_FACETS; i++) {
		v = xstrndup(text + sp[i].start, sp[i].end - sp[i].start);
		bluesky_facet(facets, &sp[i], "app.bsky.richtext.facet#tag",
		    "tag", v[0] == '#' ? v + 1 : v);
		free(v);
	}
	if (cJSON_GetArraySize(facets) > 0)
		cJSON_AddItemToObject(rec, "facets", facets);
	else
		cJSON_Delete(facets);
}

int
channel_bluesky_build(struct channel_call *c, const char *text, time_t now,
    struct error *err)
{
	const struct front *f = c->front;
	const char *handle = channel_front_str(f, NULL, "handle");
	char *service, *url, created[40];
	cJSON *body, *rec;
	struct tm tm;

	if (handle == NULL)
		handle = f->account;
	if (handle == NULL || handle[0] == '\0')
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "\"handle\" is missing", f->id);
	c->handle = xstrdup(handle[0] == '@' ? handle + 1 : handle);
	service = bluesky_service(f);
	if (channel_url_check(service, "fronts.json: bluesky \"service\"",
	    err) != 0) {
		free(service);
		return -1;
	}
	c->has_session = true;
	xasprintf(&url, "%s/xrpc/com.atproto.server.createSession", service);
	channel_req_set(&c->session, url, bluesky_session_body(c->handle,
	    c->secret != NULL ? c->secret : ""), NULL, NULL,
	    c->post.http.timeout_ms);
	c->session.shown_body = bluesky_session_body(c->handle, "***");
	free(url);

	gmtime_r(&now, &tm);
	strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "repo", c->handle);
	cJSON_AddStringToObject(body, "collection", BLUESKY_COLLECTION);
	cJSON_AddStringToObject(body, "rkey", c->key);
	rec = cJSON_AddObjectToObject(body, "record");
	cJSON_AddStringToObject(rec, "$type", BLUESKY_COLLECTION);
	cJSON_AddStringToObject(rec, "text", text);
	cJSON_AddStringToObject(rec, "createdAt", created);
	bluesky_facets(rec, text);
	xasprintf(&url, "%s/xrpc/com.atproto.repo.createRecord", service);
	/* The bearer token exists only after the session request. */
	channel_req_set(&c->post, url, cJSON_PrintUnformatted(body),
	    "Authorization", NULL, c->post.http.timeout_ms);
	free(url);
	free(service);
	cJSON_Delete(body);
	return 0;
}

/* Reads the session's access token (and DID) into the post request. */
static int
bluesky_session(struct channel_call *c, struct channel_result *out)
{
	struct http_response resp;
	struct error err = { 0 };
	const cJSON *tok;
	cJSON *j;
	char *why;
	int rc;

	rc = http_perform(&c->session.http, &resp, &err);
	if (rc != 0 || resp.status != 200) {
		why = rc != 0 ? xstrdup(err.msg) : channel_error_text(&resp);
		out->state = LEDGER_FAILED;
		if (rc == 0)
			xasprintf(&out->message, "no post was sent: the Bluesky "
			    "session for %s failed: HTTP %ld: %s", c->handle,
			    resp.status, why);
		else
			xasprintf(&out->message, "no post was sent: the Bluesky "
			    "session for %s failed: %s", c->handle, why);
		free(why);
		http_response_free(&resp);
		return -1;
	}
	j = cJSON_Parse(resp.body);
	tok = cJSON_GetObjectItemCaseSensitive(j, "accessJwt");
	if (!cJSON_IsString(tok)) {
		out->state = LEDGER_FAILED;
		out->message = xstrdup("no post was sent: the Bluesky session "
		    "answer has no accessJwt");
		rc = -1;
	} else {
		xasprintf(&c->post.auth, "Bearer %s", tok->valuestring);
		c->post.headers[1].value = c->post.auth;
	}
	cJSON_Delete(j);
	http_response_free(&resp);
	return rc;
}

static void
bluesky_sent(struct channel_call *c, const char *uri,
    struct channel_result *out)
{
	out->state = LEDGER_SENT;
	out->post_id = xstrdup(uri);
	xasprintf(&out->url, "https://bsky.app/profile/%s/post/%s", c->handle,
	    c->key);
}

/* After a refusal: does a record under our key exist already? */
static bool
bluesky_exists(struct channel_call *c, struct channel_result *out)
{
	struct http_request q = c->post.http;
	struct http_response resp;
	struct error err = { 0 };
	char *service = bluesky_service(c->front), *url;
	const cJSON *uri;
	cJSON *j;
	bool found = false;

	xasprintf(&url, "%s/xrpc/com.atproto.repo.getRecord?repo=%s&"
	    "collection=%s&rkey=%s", service, c->handle, BLUESKY_COLLECTION,
	    c->key);
	q.method = "GET";
	q.url = url;
	q.body = NULL;
	q.body_len = 0;
	if (http_perform(&q, &resp, &err) == 0 && resp.status == 200) {
		j = cJSON_Parse(resp.body);
		uri = cJSON_GetObjectItemCaseSensitive(j, "uri");
		if (cJSON_IsString(uri)) {
			bluesky_sent(c, uri->valuestring, out);
			out->message = xstrdup("an earlier attempt had made this "
			    "post already (same record key)");
			found = true;
		}
		cJSON_Delete(j);
	}
	http_response_free(&resp);
	free(url);
	free(service);
	return found;
}

void
channel_bluesky_send(struct channel_call *c, struct channel_result *out)
{
	struct http_response resp;
	struct error err = { 0 };
	const cJSON *uri;
	cJSON *j;
	int rc;

	if (bluesky_session(c, out) != 0)
		return;
	rc = http_perform(&c->post.http, &resp, &err);
	if (rc == 0 && resp.status == 400 && bluesky_exists(c, out)) {
		http_response_free(&resp);
		return;
	}
	if (!channel_transport(&resp, rc, &err, out)) {
		j = cJSON_Parse(resp.body);
		uri = cJSON_GetObjectItemCaseSensitive(j, "uri");
		if (cJSON_IsString(uri))
			bluesky_sent(c, uri->valuestring, out);
		else {
			out->state = LEDGER_UNKNOWN;
			xasprintf(&out->message, "HTTP %ld but no record uri in "
			    "the answer: %.200s", resp.status, resp.body);
		}
		cJSON_Delete(j);
	}
	http_response_free(&resp);
}
