/*
 * channel_bluesky — a post on the front's PDS: a session from the handle
 * and an app password (com.atproto.server.createSession), then
 * com.atproto.repo.createRecord in app.bsky.feed.post under a record key
 * derived from the ledger entry. A repository holds one record per key, so
 * a repeated request cannot make a second post; after any non-2xx answer
 * the record is looked up (com.atproto.repo.getRecord), and a record under
 * our key with our text is the post (an earlier attempt's, or this one's
 * when the PDS failed after writing it).
 *
 * Images go first, each with com.atproto.repo.uploadBlob (the bytes as
 * the body, under the session's token); the blob it answers is what the
 * record's app.bsky.embed.images embed names, with the alt text and the
 * aspect ratio. A later part of a thread is a reply: strong references
 * (uri and cid) to the thread's first post (root) and the part before
 * (parent).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/json.h"
#include "core/text.h"
#include "net/channel_int.h"
#include "net/platform.h"

#define BLUESKY_DEFAULT_SERVICE	"https://bsky.social"
#define BLUESKY_COLLECTION	"app.bsky.feed.post"
#define BLUESKY_MAX_FACETS	32	/* links */
#define BLUESKY_TAG_GRAPHEMES	64
#define BLUESKY_TAG_BYTES	640

char *
channel_bluesky_service(const struct front *f)
{
	const char *s = channel_front_str(f, NULL, "service");

	return xstrdup_rtrim(s != NULL ? s : BLUESKY_DEFAULT_SERVICE, '/');
}

const char *
channel_bluesky_handle(const struct front *f)
{
	const char *h = channel_front_str(f, NULL, "handle");

	if (h == NULL)
		h = f->account;
	if (h == NULL || h[0] == '\0')
		return NULL;
	return h[0] == '@' ? h + 1 : h;
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

/* Hashtags as tag facets, within the lexicon's limits on a tag
 * (app.bsky.richtext.facet#tag: 64 graphemes, 640 bytes, without the
 * "#"); a longer one stays plain text, as Bluesky's own client leaves it. */
static void
bluesky_tags(struct channel_call *c, cJSON *facets, const char *text)
{
	struct text_span *sp;
	const char *tag;
	char *v;
	int n, i;

	n = text_extract_hashtags(text, NULL, 0);
	sp = xcalloc((size_t)n + 1, sizeof *sp);
	n = text_extract_hashtags(text, sp, n);
	for (i = 0; i < n; i++) {
		v = xstrndup(text + sp[i].start, sp[i].end - sp[i].start);
		tag = v[0] == '#' ? v + 1 : v;
		if (text_grapheme_count(tag) > BLUESKY_TAG_GRAPHEMES ||
		    strlen(tag) > BLUESKY_TAG_BYTES)
			channel_note(c, "#%.40s… is longer than a Bluesky tag may "
			    "be (%d graphemes, %d bytes): it stays plain text",
			    tag, BLUESKY_TAG_GRAPHEMES, BLUESKY_TAG_BYTES);
		else
			bluesky_facet(facets, &sp[i],
			    "app.bsky.richtext.facet#tag", "tag", tag);
		free(v);
	}
	free(sp);
}

/* The "@handle" at text[at], as Bluesky's client finds mentions: after
 * the start, a space or "(", letters, digits, dots and hyphens ending in a
 * letter or digit, with a dot (a handle is a domain). Its length, or 0. */
static size_t
bluesky_mention_at(const char *text, size_t at)
{
	size_t e = at + 1;

	if (text[at] != '@' || (at > 0 && !isspace((unsigned char)text[at - 1])
	    && text[at - 1] != '('))
		return 0;
	while (isalnum((unsigned char)text[e]) || text[e] == '.' ||
	    text[e] == '-')
		e++;
	while (e > at + 1 && !isalnum((unsigned char)text[e - 1]))
		e--;
	if (memchr(text + at + 1, '.', e - at - 1) == NULL || text[e] == '@')
		return 0;
	return e - at;
}

/* The DID a handle resolves to (com.atproto.identity.resolveHandle on the
 * front's service), or NULL with why. */
static char *
bluesky_resolve(struct channel_call *c, const char *handle, char **why)
{
	struct http_request q = { 0 };
	struct http_response resp;
	struct error err = { 0 };
	char *service = channel_bluesky_service(c->front), *url, *did = NULL;
	const char *d;
	cJSON *j;

	xasprintf(&url, "%s/xrpc/com.atproto.identity.resolveHandle?handle=%s",
	    service, handle);
	q.method = "GET";
	q.url = url;
	q.connect_timeout_ms = 10000;
	q.timeout_ms = c->post.http.timeout_ms;
	q.max_response = 1 << 16;
	*why = NULL;
	if (http_perform(&q, &resp, &err) != 0)
		*why = xstrdup(err.msg);
	else if (resp.status != 200)
		*why = channel_error_text(&resp);
	else {
		j = cJSON_Parse(resp.body);
		d = json_str(j, "did");
		if (d != NULL && strncmp(d, "did:", 4) == 0)
			did = xstrdup(d);
		else
			*why = xstrdup("the answer has no DID");
		cJSON_Delete(j);
	}
	http_response_free(&resp);
	free(url);
	free(service);
	return did;
}

/* Mentions as mention facets with the DID each handle resolves to; a
 * handle that does not resolve stays plain text, with a warning. */
static void
bluesky_mentions(struct channel_call *c, cJSON *facets, const char *text)
{
	struct text_span sp;
	char *handle, *did, *why, *h;
	size_t i, n;

	for (i = 0; text[i] != '\0'; i++) {
		if ((n = bluesky_mention_at(text, i)) == 0)
			continue;
		handle = xstrndup(text + i + 1, n - 1);
		for (h = handle; *h != '\0'; h++)
			*h = (char)tolower((unsigned char)*h);
		if ((did = bluesky_resolve(c, handle, &why)) != NULL) {
			sp.start = i;
			sp.end = i + n;
			bluesky_facet(facets, &sp,
			    "app.bsky.richtext.facet#mention", "did", did);
		} else
			channel_note(c, "@%s does not resolve to an account "
			    "(%s): it stays plain text, not a mention", handle,
			    why);
		free(did);
		free(why);
		free(handle);
		i += n - 1;
	}
}

/* Bluesky shows links, hashtags and mentions as such only where the
 * record says so: rich-text facets over UTF-8 byte ranges. */
static void
bluesky_facets(struct channel_call *c, cJSON *rec, const char *text)
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
	bluesky_tags(c, facets, text);
	bluesky_mentions(c, facets, text);
	if (cJSON_GetArraySize(facets) > 0)
		cJSON_AddItemToObject(rec, "facets", facets);
	else
		cJSON_Delete(facets);
}

static cJSON *
bluesky_ref(const char *uri, const char *cid)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "uri", uri != NULL ? uri : "");
	cJSON_AddStringToObject(r, "cid", cid != NULL ? cid : "");
	return r;
}

/* A copy of the image's bytes, for the upload request to own. */
static char *
bluesky_bytes(const struct channel_image *im)
{
	char *b = xmalloc(im->len > 0 ? im->len : 1);

	memcpy(b, im->data, im->len);
	return b;
}

/* The embed of the post's images and one upload request per image: each
 * image's blob is a marker in the record until its upload's answer puts
 * the real blob there (a dry run shows the marker). */
static void
bluesky_images(struct channel_call *c, cJSON *rec, const char *service,
    const struct channel_post *p)
{
	const struct channel_image *im;
	cJSON *embed, *arr, *one, *ar;
	char *url, ph[32];
	int i;

	if (p->nimages == 0)
		return;
	embed = cJSON_AddObjectToObject(rec, "embed");
	cJSON_AddStringToObject(embed, "$type", "app.bsky.embed.images");
	arr = cJSON_AddArrayToObject(embed, "images");
	xasprintf(&url, "%s/xrpc/com.atproto.repo.uploadBlob", service);
	for (i = 0; i < p->nimages && i < CHANNEL_MAX_IMAGES; i++) {
		im = &p->images[i];
		one = cJSON_CreateObject();
		/* The lexicon requires alt; "" is an image without it. */
		cJSON_AddStringToObject(one, "alt", im->alt != NULL ? im->alt :
		    "");
		snprintf(ph, sizeof ph, "<blob of upload %d>", i + 1);
		cJSON_AddStringToObject(one, "image", ph);
		ar = cJSON_AddObjectToObject(one, "aspectRatio");
		cJSON_AddNumberToObject(ar, "width", im->width);
		cJSON_AddNumberToObject(ar, "height", im->height);
		cJSON_AddItemToArray(arr, one);
		channel_req_upload(&c->uploads[i], url, xstrdup(im->mime),
		    bluesky_bytes(im), im->len,
		    channel_image_shown(im), "Authorization", NULL,
		    c->post.http.timeout_ms);
		c->nuploads++;
	}
	free(url);
}

static void
bluesky_reply(cJSON *rec, const struct channel_reply *r)
{
	cJSON *reply;

	if (r == NULL)
		return;
	reply = cJSON_AddObjectToObject(rec, "reply");
	cJSON_AddItemToObject(reply, "root", bluesky_ref(r->root_id,
	    r->root_cid));
	cJSON_AddItemToObject(reply, "parent", bluesky_ref(r->parent_id,
	    r->parent_cid));
}

void
channel_bluesky_session_req(struct channel_req *r, const char *service,
    const char *handle, const char *password, long timeout_ms)
{
	char *url;

	xasprintf(&url, "%s/xrpc/com.atproto.server.createSession", service);
	channel_req_set(r, url, bluesky_session_body(handle, password), NULL,
	    NULL, timeout_ms);
	r->shown_body = bluesky_session_body(handle, "***");
	free(url);
}

enum channel_login
channel_bluesky_login(const struct channel_req *r, struct channel_session *s,
    struct http_response *resp, struct error *err)
{
	const char *v;
	cJSON *j;

	memset(s, 0, sizeof *s);
	if (http_perform(&r->http, resp, err) != 0)
		return CHANNEL_LOGIN_FAILED;
	if (resp->status != 200)
		return CHANNEL_LOGIN_REFUSED;
	j = cJSON_Parse(resp->body);
	if ((v = json_str(j, "accessJwt")) != NULL)
		s->token = xstrdup(v);
	if ((v = json_str(j, "did")) != NULL)
		s->did = xstrdup(v);
	if ((v = json_str(j, "handle")) != NULL)
		s->handle = xstrdup(v);
	cJSON_Delete(j);
	return s->token != NULL ? CHANNEL_LOGIN_OK : CHANNEL_LOGIN_INCOMPLETE;
}

void
channel_session_free(struct channel_session *s)
{
	if (s->token != NULL) {
		explicit_bzero(s->token, strlen(s->token));
		free(s->token);
	}
	free(s->did);
	free(s->handle);
	memset(s, 0, sizeof *s);
}

static int
bluesky_session_req(struct channel_call *c, const char *service,
    struct error *err)
{
	const char *handle = channel_bluesky_handle(c->front);

	if (handle == NULL)
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "\"handle\" is missing", c->front->id);
	c->handle = xstrdup(handle);
	if (channel_url_check(service, "fronts.json: bluesky \"service\"",
	    err) != 0)
		return -1;
	c->has_session = true;
	channel_bluesky_session_req(&c->session, service, c->handle,
	    c->secret != NULL ? c->secret : "", c->post.http.timeout_ms);
	return 0;
}

char *
channel_bluesky_key(const char *entry_id, time_t at)
{
	char *key = xmalloc(14);

	channel_tid(at, entry_id, key);
	return key;
}

int
channel_bluesky_build(struct channel_call *c, const struct channel_post *p,
    time_t now, struct error *err)
{
	char *service, *url, created[40];
	cJSON *body, *rec;
	struct tm tm;

	if (p->nimages > c->platform->max_images)
		return error_set(err, EXIT_REFUSED, "front \"%s\": %d images; a "
		    "Bluesky post takes at most %d", c->front->id, p->nimages,
		    c->platform->max_images);
	service = channel_bluesky_service(c->front);
	if (bluesky_session_req(c, service, err) != 0) {
		free(service);
		return -1;
	}
	gmtime_r(&now, &tm);
	strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "repo", c->handle);
	cJSON_AddStringToObject(body, "collection", BLUESKY_COLLECTION);
	cJSON_AddStringToObject(body, "rkey", c->key);
	rec = cJSON_AddObjectToObject(body, "record");
	cJSON_AddStringToObject(rec, "$type", BLUESKY_COLLECTION);
	cJSON_AddStringToObject(rec, "text", p->text);
	cJSON_AddStringToObject(rec, "createdAt", created);
	bluesky_facets(c, rec, p->text);
	bluesky_reply(rec, p->reply);
	bluesky_images(c, rec, service, p);
	xasprintf(&url, "%s/xrpc/com.atproto.repo.createRecord", service);
	/* The bearer token exists only after the session request. */
	channel_req_set(&c->post, url, cJSON_PrintUnformatted(body),
	    "Authorization", NULL, c->post.http.timeout_ms);
	c->post_json = body;
	free(url);
	free(service);
	return 0;
}

/* The session's token on every upload request too. */
static void
bluesky_upload_auth(struct channel_call *c, const char *token)
{
	int i;

	for (i = 0; i < c->nuploads; i++) {
		xasprintf(&c->uploads[i].auth, "Bearer %s", token);
		c->uploads[i].headers[1].value = c->uploads[i].auth;
	}
}

/* Logs in and puts the session's access token on the post and the
 * uploads; the DID is kept for the lookup. */
static int
bluesky_session(struct channel_call *c, struct channel_result *out)
{
	struct channel_session s;
	struct http_response resp;
	struct error err = { 0 };
	enum channel_login l;
	char *why;

	l = channel_bluesky_login(&c->session, &s, &resp, &err);
	if (l == CHANNEL_LOGIN_OK) {
		c->did = s.did;
		s.did = NULL;
		xasprintf(&c->post.auth, "Bearer %s", s.token);
		c->post.headers[1].value = c->post.auth;
		bluesky_upload_auth(c, s.token);
	} else if (l == CHANNEL_LOGIN_INCOMPLETE) {
		out->state = LEDGER_FAILED;
		out->message = xstrdup("no post was sent: the Bluesky session "
		    "answer has no accessJwt");
	} else {
		why = l == CHANNEL_LOGIN_FAILED ? xstrdup(err.msg) :
		    channel_error_text(&resp);
		out->state = LEDGER_FAILED;
		if (l == CHANNEL_LOGIN_REFUSED)
			xasprintf(&out->message, "no post was sent: the Bluesky "
			    "session for %s failed: HTTP %ld: %s", c->handle,
			    resp.status, why);
		else
			xasprintf(&out->message, "no post was sent: the Bluesky "
			    "session for %s failed: %s", c->handle, why);
		free(why);
	}
	channel_session_free(&s);
	http_response_free(&resp);
	return l == CHANNEL_LOGIN_OK ? 0 : -1;
}

static void
bluesky_sent(struct channel_call *c, const char *uri, const char *cid,
    struct channel_result *out)
{
	out->state = LEDGER_SENT;
	out->post_id = xstrdup(uri);
	if (cid != NULL)
		out->cid = xstrdup(cid);
	xasprintf(&out->url, "https://bsky.app/profile/%s/post/%s", c->handle,
	    c->key);
}

enum bluesky_found {
	BLUESKY_FOUND,		/* our record, as we sent it */
	BLUESKY_OTHER,		/* a different record holds our key */
	BLUESKY_ABSENT,		/* RecordNotFound */
	BLUESKY_LOOKUP_FAILED	/* no answer we can trust */
};

/* The text of the record in a createRecord body or a getRecord answer. */
static const char *
bluesky_record_text(const cJSON *j, const char *field)
{
	const cJSON *rec = cJSON_GetObjectItemCaseSensitive(j, field);

	return json_str(rec, "text");
}

/* After a non-2xx answer to createRecord: does the repository hold a
 * record under our key (com.atproto.repo.getRecord, which needs no
 * session), and is it the one we sent? why gets what the lookup saw. */
static enum bluesky_found
bluesky_lookup(struct channel_call *c, char **uri, char **rcid, char **why)
{
	struct http_request q = { 0 };
	struct http_response resp;
	struct error err = { 0 };
	char *service = channel_bluesky_service(c->front), *url;
	const char *have, *want;
	const cJSON *u, *cid, *e;
	cJSON *j, *sent;
	enum bluesky_found found = BLUESKY_LOOKUP_FAILED;

	xasprintf(&url, "%s/xrpc/com.atproto.repo.getRecord?repo=%s&"
	    "collection=%s&rkey=%s", service, c->did != NULL ? c->did :
	    c->handle, BLUESKY_COLLECTION, c->key);
	q.method = "GET";
	q.url = url;
	q.connect_timeout_ms = c->post.http.connect_timeout_ms;
	q.timeout_ms = c->post.http.timeout_ms;
	q.max_response = c->post.http.max_response;
	*uri = NULL;
	*rcid = NULL;
	if (http_perform(&q, &resp, &err) != 0) {
		xasprintf(why, "the lookup failed: %s", err.msg);
		goto out;
	}
	j = cJSON_Parse(resp.body);
	u = cJSON_GetObjectItemCaseSensitive(j, "uri");
	cid = cJSON_GetObjectItemCaseSensitive(j, "cid");
	e = cJSON_GetObjectItemCaseSensitive(j, "error");
	sent = cJSON_Parse(c->post.body);
	have = bluesky_record_text(j, "value");
	want = bluesky_record_text(sent, "record");
	if (resp.status == 200 && cJSON_IsString(u) && have != NULL &&
	    want != NULL) {
		found = strcmp(have, want) == 0 ? BLUESKY_FOUND : BLUESKY_OTHER;
		*uri = xstrdup(u->valuestring);
		if (cJSON_IsString(cid))
			*rcid = xstrdup(cid->valuestring);
		xasprintf(why, "%s (cid %s)", u->valuestring,
		    cJSON_IsString(cid) ? cid->valuestring : "-");
	} else if (resp.status == 400 && cJSON_IsString(e) &&
	    strcmp(e->valuestring, "RecordNotFound") == 0) {
		found = BLUESKY_ABSENT;
		*why = xstrdup("no record under the key");
	} else {
		char *t = channel_error_text(&resp);

		xasprintf(why, "the lookup answered HTTP %ld: %s", resp.status,
		    t);
		free(t);
	}
	cJSON_Delete(sent);
	cJSON_Delete(j);
out:
	http_response_free(&resp);
	free(url);
	free(service);
	return found;
}

/* A real PDS answers a reused record key with 500 (its repository code
 * fails), not a 400, so every non-2xx answer is checked against the
 * repository before it counts as failed or unknown. */
static void
bluesky_refused(struct channel_call *c, const struct http_response *r,
    struct channel_result *out)
{
	char *uri, *cid, *why, *said = channel_error_text(r);

	out->status = r->status;
	switch (bluesky_lookup(c, &uri, &cid, &why)) {
	case BLUESKY_FOUND:
		bluesky_sent(c, uri, cid, out);
		xasprintf(&out->message, "createRecord answered HTTP %ld, but "
		    "the record under this key is this post: %s", r->status,
		    why);
		break;
	case BLUESKY_OTHER:
		out->state = LEDGER_FAILED;
		xasprintf(&out->message, "HTTP %ld: %s; record key %s holds a "
		    "different record (%s), so this post was not made",
		    r->status, said, c->key, why);
		break;
	case BLUESKY_ABSENT:
		out->state = channel_status_failed(r->status) ? LEDGER_FAILED :
		    LEDGER_UNKNOWN;
		xasprintf(&out->message, "HTTP %ld: %s; %s%s", r->status, said,
		    why, out->state == LEDGER_FAILED ? "" : r->status >= 500 ?
		    ", but the PDS failed while handling the request, so the "
		    "post may still appear" : ", but that answer (redirects "
		    "are never followed) does not say the post was not made");
		break;
	default:
		out->state = LEDGER_UNKNOWN;
		xasprintf(&out->message, "HTTP %ld: %s; whether the record "
		    "exists is not known: %s", r->status, said, why);
		break;
	}
	free(uri);
	free(cid);
	free(why);
	free(said);
}

/* The request may have arrived but no answer came back: a record under
 * our key with our text settles it as sent; anything else stays unknown
 * (the write may still land). */
static void
bluesky_broken(struct channel_call *c, const struct error *err,
    struct channel_result *out)
{
	char *uri, *cid, *why;

	if (bluesky_lookup(c, &uri, &cid, &why) == BLUESKY_FOUND) {
		bluesky_sent(c, uri, cid, out);
		xasprintf(&out->message, "the answer was lost (%s), but the "
		    "record under this key is this post: %s", err->msg, why);
	} else {
		out->state = LEDGER_UNKNOWN;
		xasprintf(&out->message, "the request may have reached the "
		    "platform: %s; the record is not there (yet): %s",
		    err->msg, why);
	}
	free(uri);
	free(cid);
	free(why);
}

/* Uploads image i and puts the blob it answers into the record. */
static int
bluesky_upload(struct channel_call *c, int i, char **why)
{
	struct http_response resp;
	struct error err = { 0 };
	cJSON *j, *blob, *images;
	int rc;

	*why = NULL;
	rc = http_perform(&c->uploads[i].http, &resp, &err);
	if ((*why = channel_why(&resp, rc, &err, 200, 0)) == NULL) {
		j = cJSON_Parse(resp.body);
		blob = cJSON_DetachItemFromObjectCaseSensitive(j, "blob");
		if (!cJSON_IsObject(blob)) {
			xasprintf(why, "HTTP 200 without a blob");
			cJSON_Delete(blob);
		} else {
			images = cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(
			    cJSON_GetObjectItemCaseSensitive(c->post_json,
			    "record"), "embed"), "images");
			c->upload_ids[i] = xstrdup(json_str(
			    cJSON_GetObjectItemCaseSensitive(blob, "ref"),
			    "$link") != NULL ? json_str(
			    cJSON_GetObjectItemCaseSensitive(blob, "ref"),
			    "$link") : "blob");
			cJSON_ReplaceItemInObjectCaseSensitive(
			    cJSON_GetArrayItem(images, i), "image", blob);
		}
		cJSON_Delete(j);
	}
	http_response_free(&resp);
	return *why == NULL ? 0 : -1;
}

void
channel_bluesky_send(struct channel_call *c, struct channel_result *out)
{
	struct http_response resp;
	struct error err = { 0 };
	char *why;
	cJSON *j;
	int i, rc;

	if (bluesky_session(c, out) != 0)
		return;
	for (i = 0; i < c->nuploads; i++)
		if (bluesky_upload(c, i, &why) != 0) {
			out->state = LEDGER_FAILED;
			xasprintf(&out->message, "no post was sent: image %d of "
			    "%d did not upload: %s", i + 1, c->nuploads, why);
			free(why);
			return;
		}
	if (c->nuploads > 0)
		channel_post_rebody(c);
	rc = http_perform(&c->post.http, &resp, &err);
	if (rc == 0 && (resp.status < 200 || resp.status >= 300))
		bluesky_refused(c, &resp, out);
	else if (rc != 0 && resp.phase != HTTP_NOT_CONNECTED)
		bluesky_broken(c, &err, out);
	else if (!channel_transport(&resp, rc, &err, out)) {
		j = cJSON_Parse(resp.body);
		if (json_str(j, "uri") != NULL)
			bluesky_sent(c, json_str(j, "uri"), json_str(j, "cid"),
			    out);
		else {
			out->state = LEDGER_UNKNOWN;
			xasprintf(&out->message, "HTTP %ld but no record uri in "
			    "the answer: %.200s", resp.status, resp.body);
		}
		cJSON_Delete(j);
	}
	http_response_free(&resp);
}
