/*
 * channel — what every publishing channel shares: opening a front's call
 * through its platform's table (platform.h), request storage, describing
 * requests for a dry run, reading the secret from the environment, and
 * turning a broken exchange into failed or unknown (see channel.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/json.h"
#include "net/channel_int.h"
#include "net/platform.h"

#define CHANNEL_CONNECT_MS	10000

const char *
channel_front_str(const struct front *f, const char *obj, const char *name)
{
	const cJSON *o = f->raw;

	if (obj != NULL)
		o = cJSON_GetObjectItemCaseSensitive(o, obj);
	return json_str_nonempty(o, name);
}

const char *
channel_kind_of(const struct front *f, enum channel_kind *kind,
    struct error *err)
{
	const struct platform_handler *pl = platform_front(f, err);

	if (pl == NULL)
		return NULL;
	*kind = pl->kind;
	return pl->channel;
}

int
channel_url_check(const char *url, const char *what, struct error *err)
{
	static const char *local[] = { "http://127.0.0.1:", "http://127.0.0.1/",
	    "http://localhost:", "http://localhost/", "http://[::1]:" };
	size_t i;

	if (strncmp(url, "https://", 8) == 0 && url[8] != '\0')
		return 0;
	for (i = 0; i < sizeof local / sizeof local[0]; i++)
		if (strncmp(url, local[i], strlen(local[i])) == 0)
			return 0;
	return error_set(err, EXIT_ERROR, "%s \"%s\" must be an https:// URL "
	    "(plain http only to this machine): a credential travels with "
	    "the request", what, url);
}

/* A POST of len bytes of body under content_type (not owned), with the
 * secret header auth_name: auth when auth is given. */
static void
channel_req_post(struct channel_req *r, const char *url, char *body,
    size_t len, const char *content_type, const char *auth_name, char *auth,
    long timeout_ms)
{
	r->url = xstrdup(url);
	r->body = body;
	r->auth = auth;
	r->http.method = "POST";
	r->http.url = r->url;
	r->http.headers = r->headers;
	r->http.body = body;
	r->http.body_len = len;
	r->http.connect_timeout_ms = CHANNEL_CONNECT_MS;
	r->http.timeout_ms = timeout_ms;
	r->http.max_response = 1 << 20;
	channel_req_add(r, "Content-Type", content_type, false);
	if (auth_name != NULL)
		channel_req_add(r, auth_name, auth != NULL ? auth : "", true);
}

void
channel_req_set(struct channel_req *r, const char *url, char *body,
    const char *auth_name, char *auth, long timeout_ms)
{
	channel_req_post(r, url, body, strlen(body), "application/json",
	    auth_name, auth, timeout_ms);
}

void
channel_req_upload(struct channel_req *r, const char *url,
    char *content_type, char *body, size_t len, char *shown,
    const char *auth_name, char *auth, long timeout_ms)
{
	r->content_type = content_type;
	r->shown_body = shown;
	channel_req_post(r, url, body, len, content_type, auth_name, auth,
	    timeout_ms);
}

void
channel_note(struct channel_call *c, const char *fmt, ...)
{
	char *line, *all;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		abort();
	va_end(ap);
	xasprintf(&all, "%swarning: %s\n", c->notes != NULL ? c->notes : "",
	    line);
	free(c->notes);
	free(line);
	c->notes = all;
}

void
channel_req_put(struct channel_req *r, const char *url, char *content_type,
    char *body, size_t len, char *shown, long timeout_ms)
{
	channel_req_upload(r, url, content_type, body, len, shown, NULL, NULL,
	    timeout_ms);
	r->http.method = "PUT";
}

char *
channel_image_shown(const struct channel_image *im)
{
	char h[65], *out;

	sha256_hex(im->data, im->len, h);
	xasprintf(&out, "<%zu bytes of %s, %dx%d, sha256 %.16s…>", im->len,
	    im->mime, im->width, im->height, h);
	return out;
}

char *
channel_why(const struct http_response *r, int rc, const struct error *err,
    long ok, long also_ok)
{
	char *t, *why;

	if (rc != 0)
		return xstrdup(err->msg);
	if (r->status == ok || (also_ok != 0 && r->status == also_ok))
		return NULL;
	t = channel_error_text(r);
	xasprintf(&why, "HTTP %ld: %s", r->status, t);
	free(t);
	return why;
}

void
channel_post_rebody(struct channel_call *c)
{
	char *body = cJSON_PrintUnformatted(c->post_json);

	free(c->post.body);
	c->post.body = body;
	c->post.http.body = body;
	c->post.http.body_len = strlen(body);
}

void
channel_req_add(struct channel_req *r, const char *name, const char *value,
    bool secret)
{
	if (r->http.nheaders >= CHANNEL_MAX_HEADERS)
		abort();
	r->headers[r->http.nheaders].name = name;
	r->headers[r->http.nheaders].value = value;
	r->headers[r->http.nheaders].secret = secret;
	r->http.nheaders++;
}

void
channel_req_free(struct channel_req *r)
{
	/* A body shown otherwise may hold a secret (a session's password). */
	if (r->shown_body != NULL && r->body != NULL)
		explicit_bzero(r->body, r->http.body_len);
	free(r->url);
	free(r->body);
	free(r->shown_body);
	free(r->content_type);
	if (r->auth != NULL) {
		explicit_bzero(r->auth, strlen(r->auth));
		free(r->auth);
	}
	memset(r, 0, sizeof *r);
}

void
channel_tid(time_t at, const char *entry_id, char out[14])
{
	static const char b32[] = "234567abcdefghijklmnopqrstuvwxyz";
	char h[65];
	uint64_t micro, clock, tid;
	int i;

	sha256_hex(entry_id, strlen(entry_id), h);
	/* Sub-second microseconds and the clock id come from the entry, so
	 * two posts planned for the same second get different keys. */
	h[8] = '\0';
	micro = (uint64_t)strtoull(h, NULL, 16);
	clock = micro >> 22;
	micro = (uint64_t)(at > 0 ? at : 0) * 1000000 + micro % 1000000;
	tid = ((micro & ((1ULL << 53) - 1)) << 10) | (clock & 1023);
	for (i = 12; i >= 0; i--) {
		out[i] = b32[tid & 31];
		tid >>= 5;
	}
	out[13] = '\0';
}

const char *
channel_secret_var(const struct front *f)
{
	const struct platform_handler *pl = platform_of(f->platform);

	return pl != NULL ? platform_secret_var(pl, f) : NULL;
}

static void
channel_secret(struct channel_call *c)
{
	const char *v;

	c->secret_env = xstrdup(channel_secret_var(c->front));
	v = getenv(c->secret_env);
	c->secret = v != NULL && v[0] != '\0' ? xstrdup(v) : NULL;
}

int
channel_open(const struct front *f, const char *text, const char *entry_id,
    time_t at, time_t now, long timeout_ms, struct channel_call *c,
    struct error *err)
{
	struct channel_post post = { .text = text };

	return channel_open_post(f, &post, entry_id, at, now, timeout_ms, c,
	    err);
}

int
channel_open_post(const struct front *f, const struct channel_post *p,
    const char *entry_id, time_t at, time_t now, long timeout_ms,
    struct channel_call *c, struct error *err)
{
	const struct platform_handler *pl;
	int rc;

	memset(c, 0, sizeof *c);
	c->front = f;
	if ((pl = platform_front(f, err)) == NULL)
		return -1;
	c->platform = pl;
	c->kind = pl->kind;
	c->session.http.timeout_ms = timeout_ms;
	c->post.http.timeout_ms = timeout_ms;
	c->name = platform_call_name(pl, f);
	c->key = pl->key(entry_id, at);
	channel_secret(c);
	if ((rc = pl->build(c, p, now, err)) != 0)
		channel_close(c);
	return rc;
}

void
channel_close(struct channel_call *c)
{
	int i;

	channel_req_free(&c->session);
	channel_req_free(&c->post);
	for (i = 0; i < c->nuploads; i++) {
		channel_req_free(&c->stage[i]);
		channel_req_free(&c->put[i]);
		channel_req_free(&c->uploads[i]);
		free(c->upload_ids[i]);
	}
	cJSON_Delete(c->post_json);
	free(c->name);
	free(c->key);
	free(c->secret_env);
	free(c->handle);
	free(c->did);
	free(c->notes);
	if (c->secret != NULL) {
		explicit_bzero(c->secret, strlen(c->secret));
		free(c->secret);
	}
	memset(c, 0, sizeof *c);
}

static char *
channel_req_describe(const struct channel_req *r)
{
	struct http_request shown = r->http;

	if (r->shown_body != NULL) {
		shown.body = r->shown_body;
		shown.body_len = strlen(r->shown_body);
	}
	return http_request_describe(&shown);
}

/* Appends request r to the description, after a line saying what it
 * waits for. */
static void
channel_describe_add(FILE *f, const struct channel_req *r, const char *then)
{
	char *d = channel_req_describe(r);

	if (then != NULL)
		fprintf(f, "\n(then, %s)\n", then);
	fputs(d, f);
	free(d);
}

char *
channel_describe(const struct channel_call *c)
{
	const char *then = NULL;
	char *out;
	size_t len;
	FILE *f = xmemstream(&out, &len);
	int i;

	if (c->notes != NULL)
		fputs(c->notes, f);
	if (c->has_session) {
		channel_describe_add(f, &c->session, NULL);
		then = "with the session's token";
	}
	for (i = 0; i < c->nuploads; i++) {
		if (c->stage[i].url != NULL) {
			channel_describe_add(f, &c->stage[i], then);
			channel_describe_add(f, &c->put[i], "the bytes to the "
			    "presigned URL it answers");
			then = "with the key the file store gave the file";
		}
		/* A file the post tool takes itself has no media tool. */
		if (c->uploads[i].url == NULL)
			continue;
		channel_describe_add(f, &c->uploads[i], then);
		then = c->platform->upload_then != NULL ?
		    c->platform->upload_then : "with the upload's answer";
	}
	channel_describe_add(f, &c->post, then);
	fclose(f);
	return out;
}

int
channel_ready(const struct channel_call *c, struct error *err)
{
	if (c->secret == NULL)
		return error_set(err, EXIT_USAGE, "%s is not set: front \"%s\" "
		    "publishes through %s, whose credential comes only from "
		    "the environment", c->secret_env, c->front->id, c->name);
	return 0;
}

char *
channel_error_text(const struct http_response *r)
{
	cJSON *j = cJSON_Parse(r->body != NULL ? r->body : "");
	const cJSON *e = NULL, *m, *fix = NULL;
	char *out = NULL, *with;

	if (j != NULL) {
		e = cJSON_GetObjectItemCaseSensitive(j, "error");
		m = cJSON_GetObjectItemCaseSensitive(j, "message");
		if (cJSON_IsObject(e)) {
			/* Composio: {"error": {"message", "suggested_fix"}} */
			fix = cJSON_GetObjectItemCaseSensitive(e,
			    "suggested_fix");
			e = cJSON_GetObjectItemCaseSensitive(e, "message");
		}
		if (cJSON_IsString(m) && cJSON_IsString(e))
			xasprintf(&out, "%s: %s", e->valuestring,
			    m->valuestring);
		else if (cJSON_IsString(e))
			out = xstrdup(e->valuestring);
		else if (cJSON_IsString(m))
			out = xstrdup(m->valuestring);
	}
	if (out != NULL && cJSON_IsString(fix) && fix->valuestring[0] != '\0') {
		xasprintf(&with, "%s (suggested fix: %s)", out,
		    fix->valuestring);
		free(out);
		out = with;
	}
	cJSON_Delete(j);
	if (out == NULL)
		xasprintf(&out, "%.300s", r->body != NULL ? r->body : "");
	return out;
}

bool
channel_transport(const struct http_response *r, int rc,
    const struct error *err, struct channel_result *out)
{
	char *why;

	out->status = r->status;
	if (rc != 0 && r->phase == HTTP_NOT_CONNECTED) {
		out->state = LEDGER_FAILED;
		xasprintf(&out->message, "nothing was sent: %s", err->msg);
		return true;
	}
	if (rc != 0) {
		out->state = LEDGER_UNKNOWN;
		xasprintf(&out->message, "the request may have reached the "
		    "platform: %s", err->msg);
		return true;
	}
	if (r->status >= 500) {
		why = channel_error_text(r);
		out->state = LEDGER_UNKNOWN;
		xasprintf(&out->message, "HTTP %ld: the platform failed while "
		    "handling the request; it may or may not have posted: %s",
		    r->status, why);
		free(why);
		return true;
	}
	if (r->status < 200 || r->status >= 300) {
		why = channel_error_text(r);
		out->state = channel_status_failed(r->status) ? LEDGER_FAILED :
		    LEDGER_UNKNOWN;
		if (out->state == LEDGER_FAILED)
			xasprintf(&out->message, "HTTP %ld: %s", r->status, why);
		else
			xasprintf(&out->message, "HTTP %ld: an answer after "
			    "which the post may exist (redirects are never "
			    "followed): %s", r->status, why);
		free(why);
		return true;
	}
	return false;
}

bool
channel_status_failed(long status)
{
	/* A 4xx is the platform refusing the request, which every platform
	 * fronts posts to documents as nothing created; a 1xx, a 3xx (a
	 * redirect, never followed: it may come after the post was made)
	 * or a 5xx says nothing about whether the post exists. */
	return status >= 400 && status < 500;
}

void
channel_send(struct channel_call *c, struct channel_result *out)
{
	memset(out, 0, sizeof *out);
	c->platform->send(c, out);
}

void
channel_result_free(struct channel_result *r)
{
	free(r->post_id);
	free(r->cid);
	free(r->url);
	free(r->message);
	memset(r, 0, sizeof *r);
}
