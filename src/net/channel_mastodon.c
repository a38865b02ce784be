/*
 * channel_mastodon — a status on the front's instance
 * (POST {instance}/api/v1/statuses) with a bearer token and an
 * Idempotency-Key derived from the ledger entry: Mastodon answers a
 * repeated key with the status it already created instead of a second one
 * (for as long as the instance remembers keys, an hour by default).
 *
 * Images go first, one POST /api/v2/media each (multipart: the file and
 * its alt text as "description"). The instance may answer 202 while it
 * still processes one; GET /api/v1/media/:id then answers 206 until it is
 * done and 200 after, and only a processed attachment may be named in the
 * status's media_ids. A later part of a thread names the part before it
 * in in_reply_to_id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/hook.h"
#include "core/json.h"
#include "net/channel_int.h"
#include "net/platform.h"

/* How long an upload may stay in processing: polls, a second apart. */
#define MASTODON_MEDIA_POLLS	60
#define MASTODON_POLL_MS	1000

static const char *
mastodon_file_name(const char *mime)
{
	if (strcmp(mime, "image/png") == 0)
		return "image.png";
	if (strcmp(mime, "image/gif") == 0)
		return "image.gif";
	if (strcmp(mime, "image/webp") == 0)
		return "image.webp";
	return "image.jpg";
}

/* The multipart/form-data body of one upload: "file" (under a neutral
 * name, never the local path) and, with alt text, "description". The
 * boundary is the image's own sha256, which its bytes cannot contain
 * but by a collision. *shown gets the same with the bytes described. */
static char *
mastodon_multipart(const struct channel_image *im, char boundary[40],
    size_t *len, char **shown)
{
	char h[65], *body, *img = channel_image_shown(im);
	size_t n;
	FILE *f = xmemstream(&body, &n), *g = xmemstream(shown, &(size_t){0});
	FILE *both[2] = { f, g };
	int k;

	sha256_hex(im->data, im->len, h);
	snprintf(boundary, 40, "fronts-%.32s", h);
	for (k = 0; k < 2; k++) {
		fprintf(both[k], "--%s\r\nContent-Disposition: form-data; "
		    "name=\"file\"; filename=\"%s\"\r\nContent-Type: %s\r\n\r\n",
		    boundary, mastodon_file_name(im->mime), im->mime);
		if (k == 0)
			fwrite(im->data, 1, im->len, f);
		else
			fputs(img, g);
		fputs("\r\n", both[k]);
		if (im->alt != NULL)
			fprintf(both[k], "--%s\r\nContent-Disposition: form-data; "
			    "name=\"description\"\r\n\r\n%s\r\n", boundary,
			    im->alt);
		fprintf(both[k], "--%s--\r\n", boundary);
	}
	fclose(f);
	fclose(g);
	free(img);
	*len = n;
	return body;
}

static void
mastodon_uploads(struct channel_call *c, const char *base,
    const struct channel_post *p)
{
	char *url, *auth = NULL, *body, *shown, boundary[40], *ctype;
	size_t len;
	int i;

	xasprintf(&url, "%s/api/v2/media", base);
	for (i = 0; i < p->nimages && i < CHANNEL_MAX_IMAGES; i++) {
		body = mastodon_multipart(&p->images[i], boundary, &len, &shown);
		if (c->secret != NULL)
			xasprintf(&auth, "Bearer %s", c->secret);
		xasprintf(&ctype, "multipart/form-data; boundary=%s", boundary);
		channel_req_upload(&c->uploads[i], url, ctype, body, len, shown,
		    "Authorization", auth, c->post.http.timeout_ms);
		auth = NULL;
		c->nuploads++;
	}
	free(url);
}

char *
channel_mastodon_key(const char *entry_id, time_t at)
{
	char *key;

	xasprintf(&key, "fronts-%s", entry_id);
	return key;
}

int
channel_mastodon_build(struct channel_call *c, const struct channel_post *p,
    time_t now, struct error *err)
{
	const struct front *f = c->front;
	const char *instance = channel_front_str(f, NULL, "instance");
	const char *vis = channel_front_str(f, NULL, "visibility");
	char *url, *auth = NULL, *base, id[32];
	cJSON *body, *ids;
	int i;

	if (instance == NULL)
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "\"instance\" (the Mastodon server's URL) is missing", f->id);
	if (channel_url_check(instance, "fronts.json: mastodon \"instance\"",
	    err) != 0)
		return -1;
	if (p->nimages > c->platform->max_images)
		return error_set(err, EXIT_REFUSED, "front \"%s\": %d images; a "
		    "Mastodon status takes at most %d", f->id, p->nimages,
		    c->platform->max_images);
	base = xstrdup_rtrim(instance, '/');
	mastodon_uploads(c, base, p);
	xasprintf(&url, "%s/api/v1/statuses", base);
	free(base);
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "status", p->text);
	cJSON_AddStringToObject(body, "visibility", vis != NULL ? vis : "public");
	if (p->nimages > 0) {
		ids = cJSON_AddArrayToObject(body, "media_ids");
		for (i = 0; i < c->nuploads; i++) {
			snprintf(id, sizeof id, "<id of upload %d>", i + 1);
			cJSON_AddItemToArray(ids, cJSON_CreateString(id));
		}
	}
	if (p->reply != NULL && p->reply->parent_id != NULL)
		cJSON_AddStringToObject(body, "in_reply_to_id",
		    p->reply->parent_id);
	if (c->secret != NULL)
		xasprintf(&auth, "Bearer %s", c->secret);
	channel_req_set(&c->post, url, cJSON_PrintUnformatted(body),
	    "Authorization", auth, c->post.http.timeout_ms);
	channel_req_add(&c->post, "Idempotency-Key", c->key, false);
	c->post_json = body;
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

static double
mastodon_wait_scale(void)
{
	const char *v = hook_env(HOOK_WAIT_SCALE);

	return v != NULL ? strtod(v, NULL) : 1.0;
}

/* Polls GET /api/v1/media/:id until the attachment is processed (200);
 * 206 means not yet. NULL when it is, else why not. */
static char *
mastodon_processed(struct channel_call *c, int i, const char *id)
{
	struct http_request q = c->uploads[i].http;
	struct http_response resp;
	struct error err = { 0 };
	char *url, *why = NULL;
	const char *base_end = strstr(c->uploads[i].url, "/api/v2/media");
	int n, rc;

	xasprintf(&url, "%.*s/api/v1/media/%s", (int)(base_end -
	    c->uploads[i].url), c->uploads[i].url, id);
	q.method = "GET";
	q.url = url;
	q.body = NULL;
	q.body_len = 0;
	q.headers = &c->uploads[i].headers[1];	/* Authorization */
	q.nheaders = 1;
	for (n = 0; n < MASTODON_MEDIA_POLLS; n++) {
		http_sleep_ms(MASTODON_POLL_MS * mastodon_wait_scale());
		rc = http_perform(&q, &resp, &err);
		if (rc == 0 && resp.status == 206) {
			http_response_free(&resp);
			continue;
		}
		why = channel_why(&resp, rc, &err, 200, 0);
		http_response_free(&resp);
		free(url);
		return why;
	}
	free(url);
	xasprintf(&why, "still processing after %d checks",
	    MASTODON_MEDIA_POLLS);
	return why;
}

/* Uploads image i; 0 with its id in c->upload_ids[i], or -1 with why. */
static int
mastodon_upload(struct channel_call *c, int i, char **why)
{
	struct http_response resp;
	struct error err = { 0 };
	const char *id;
	cJSON *j;
	int rc;

	*why = NULL;
	rc = http_perform(&c->uploads[i].http, &resp, &err);
	if ((*why = channel_why(&resp, rc, &err, 200, 202)) == NULL) {
		j = cJSON_Parse(resp.body);
		if ((id = json_str(j, "id")) == NULL)
			xasprintf(why, "HTTP %ld without a media id",
			    resp.status);
		else if (resp.status == 202)
			*why = mastodon_processed(c, i, id);
		if (*why == NULL)
			c->upload_ids[i] = xstrdup(id);
		cJSON_Delete(j);
	}
	http_response_free(&resp);
	return *why == NULL ? 0 : -1;
}

void
channel_mastodon_send(struct channel_call *c, struct channel_result *out)
{
	struct http_response resp;
	struct error err = { 0 };
	cJSON *ids = cJSON_GetObjectItemCaseSensitive(c->post_json, "media_ids");
	char *why;
	int i, rc;

	for (i = 0; i < c->nuploads; i++) {
		if ((rc = mastodon_upload(c, i, &why)) != 0) {
			out->state = LEDGER_FAILED;
			xasprintf(&out->message, "no post was sent: image %d of "
			    "%d did not upload: %s", i + 1, c->nuploads, why);
			free(why);
			return;
		}
		cJSON_ReplaceItemInArray(ids, i,
		    cJSON_CreateString(c->upload_ids[i]));
	}
	if (c->nuploads > 0)
		channel_post_rebody(c);
	rc = http_perform(&c->post.http, &resp, &err);
	if (!channel_transport(&resp, rc, &err, out))
		channel_mastodon_result(c, &resp, out);
	http_response_free(&resp);
}
