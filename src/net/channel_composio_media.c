/*
 * channel_composio_media — an image through Composio's tools, in the
 * three steps Composio's SDK takes for a tool's file argument
 * (composio/core/models/_files.py): POST /api/v3/files/upload/request
 * with the file's md5, name, type and the tool it is for, answered with
 * a key and a presigned URL; a PUT of the bytes to that URL under the
 * same Content-Type (anything but 200 is a failure); then the platform's
 * media tool (X: TWITTER_UPLOAD_MEDIA) with the file as
 * {"name", "mimetype", "s3key"}, which answers the media id the post
 * names. LinkedIn's post tool takes the files themselves: they are
 * staged for LINKEDIN_CREATE_LINKED_IN_POST, there is no media tool, and
 * the post's `images` carries each file argument with its key.
 *
 * The bytes are the cleaned ones publish hands over (core/media.h), so
 * the md5 is theirs. A dry run shows the key and the presigned URL as
 * placeholders, since only the file store can give them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "net/channel_int.h"
#include "net/platform.h"

/* "image1.jpg": a neutral name, nothing of the file's own. */
static char *
media_name(int i, const char *mime)
{
	const char *slash = strchr(mime, '/');
	char *name;

	xasprintf(&name, "image%d.%s", i + 1, slash != NULL &&
	    strcmp(slash + 1, "jpeg") != 0 ? slash + 1 : "jpg");
	return name;
}

cJSON *
channel_composio_file_arg(int i, const char *mime, const char *s3key)
{
	cJSON *file = cJSON_CreateObject();
	char *name = media_name(i, mime);

	cJSON_AddStringToObject(file, "name", name);
	cJSON_AddStringToObject(file, "mimetype", mime);
	cJSON_AddStringToObject(file, "s3key", s3key);
	free(name);
	return file;
}

/* The media tool's execute for file i, naming the file by s3key. */
static char *
media_tool_body(const struct channel_call *c, int i, const char *mime,
    const char *s3key)
{
	const struct platform_composio *cp = c->platform->composio;
	const char *const *fx;
	cJSON *args = cJSON_CreateObject(), *body;
	char *out;

	cJSON_AddItemToObject(args, cp->media_file_arg,
	    channel_composio_file_arg(i, mime, s3key));
	for (fx = cp->media_fixed; fx != NULL && fx[0] != NULL; fx += 2)
		cJSON_AddStringToObject(args, fx[0], fx[1]);
	body = channel_composio_body(c->front, args, NULL);
	out = cJSON_PrintUnformatted(body);
	cJSON_Delete(body);
	return out;
}

int
channel_composio_media(struct channel_call *c, const char *base,
    const struct channel_post *p, int i, struct error *err)
{
	const struct platform_composio *cp = c->platform->composio;
	const struct channel_image *im = &p->images[i];
	long tmo = c->post.http.timeout_ms;
	char md5[33], key[32], *url, *name = media_name(i, im->mime), *b;
	cJSON *stage = cJSON_CreateObject();
	/* Without a media tool the file is the post tool's own. */
	const char *tool = cp->media_tool != NULL ? cp->media_tool :
	    channel_front_str(c->front, "composio", "tool");

	md5_hex(im->data, im->len, md5);
	cJSON_AddStringToObject(stage, "md5", md5);
	cJSON_AddStringToObject(stage, "filename", name);
	cJSON_AddStringToObject(stage, "mimetype", im->mime);
	cJSON_AddStringToObject(stage, "tool_slug", tool);
	cJSON_AddStringToObject(stage, "toolkit_slug", cp->toolkit);
	xasprintf(&url, "%s/api/v3/files/upload/request", base);
	channel_req_set(&c->stage[i], url, cJSON_PrintUnformatted(stage),
	    "x-api-key", c->secret != NULL ? xstrdup(c->secret) : NULL, tmo);
	free(url);
	cJSON_Delete(stage);
	free(name);

	xasprintf(&url, "<new_presigned_url of file %d>", i + 1);
	b = xmalloc(im->len > 0 ? im->len : 1);
	memcpy(b, im->data, im->len);
	channel_req_put(&c->put[i], url, xstrdup(im->mime), b, im->len,
	    channel_image_shown(im), tmo);
	free(url);

	c->nuploads = i + 1;
	if (cp->media_tool != NULL) {
		snprintf(key, sizeof key, "<key of file %d>", i + 1);
		xasprintf(&url, "%s/api/v3.1/tools/execute/%s", base,
		    cp->media_tool);
		channel_req_set(&c->uploads[i], url, media_tool_body(c, i,
		    im->mime, key), "x-api-key", c->secret != NULL ?
		    xstrdup(c->secret) : NULL, tmo);
		free(url);
	}
	if (im->alt != NULL && im->alt[0] != '\0')
		channel_note(c, "image %d's alt text is not sent: no Composio "
		    "tool carries alt text to %s", i + 1,
		    platform_name(c->front->platform));
	(void)err;
	return 0;
}

/* Sends r; its JSON answer (the caller's), or NULL with *why. */
static cJSON *
media_exchange(const struct channel_req *r, long ok, long also_ok,
    char **why)
{
	struct http_response resp;
	struct error err = { 0 };
	cJSON *j = NULL;
	int rc;

	rc = http_perform(&r->http, &resp, &err);
	if ((*why = channel_why(&resp, rc, &err, ok, also_ok)) == NULL &&
	    (j = cJSON_Parse(resp.body != NULL ? resp.body : "")) == NULL)
		xasprintf(why, "HTTP %ld, an answer that is not JSON",
		    resp.status);
	http_response_free(&resp);
	return j;
}

/* The presigned PUT: 200 and nothing else, as Composio's SDK holds. */
static int
media_put(struct channel_call *c, int i, const char *url, char **why)
{
	struct http_response resp;
	struct error err = { 0 };
	int rc;

	if (channel_url_check(url, "the file store's presigned URL", &err)
	    != 0) {
		*why = xstrdup(err.msg);
		return -1;
	}
	free(c->put[i].url);
	c->put[i].url = xstrdup(url);
	c->put[i].http.url = c->put[i].url;
	rc = http_perform(&c->put[i].http, &resp, &err);
	*why = channel_why(&resp, rc, &err, 200, 0);
	http_response_free(&resp);
	if (*why != NULL) {
		char *w;

		xasprintf(&w, "the file store refused the bytes: %s", *why);
		free(*why);
		*why = w;
		return -1;
	}
	return 0;
}

/* The media id the tool answered: X's data.id (Composio hands X's
 * answer on as data, or nested once more), or media_id_string. */
static const char *
media_id(const cJSON *j)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "data");
	const cJSON *dd = cJSON_GetObjectItemCaseSensitive(d, "data");
	const char *v;

	if ((v = json_str_nonempty(dd, "id")) != NULL ||
	    (v = json_str_nonempty(d, "id")) != NULL ||
	    (v = json_str_nonempty(dd, "media_id_string")) != NULL)
		return v;
	return json_str_nonempty(d, "media_id_string");
}

/* The media tool's execute for file i with the key the store gave. */
static int
media_tool(struct channel_call *c, int i, const char *key, char **why)
{
	const cJSON *ok, *e;
	cJSON *body = cJSON_Parse(c->uploads[i].body), *file, *j;
	const char *id;

	file = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    body, "arguments"), c->platform->composio->media_file_arg);
	cJSON_ReplaceItemInObjectCaseSensitive(file, "s3key",
	    cJSON_CreateString(key));
	free(c->uploads[i].body);
	c->uploads[i].body = cJSON_PrintUnformatted(body);
	c->uploads[i].http.body = c->uploads[i].body;
	c->uploads[i].http.body_len = strlen(c->uploads[i].body);
	cJSON_Delete(body);
	if ((j = media_exchange(&c->uploads[i], 200, 201, why)) == NULL)
		return -1;
	ok = cJSON_GetObjectItemCaseSensitive(j, "successful");
	if (!cJSON_IsTrue(ok) || (id = media_id(j)) == NULL) {
		e = cJSON_GetObjectItemCaseSensitive(j, "error");
		if (cJSON_IsObject(e))
			e = cJSON_GetObjectItemCaseSensitive(e, "message");
		xasprintf(why, "%s: %s", c->platform->composio->media_tool,
		    cJSON_IsString(e) ? e->valuestring : cJSON_IsTrue(ok) ?
		    "no media id in its answer" : "the tool reported failure");
		cJSON_Delete(j);
		return -1;
	}
	c->upload_ids[i] = xstrdup(id);
	cJSON_Delete(j);
	return 0;
}

int
channel_composio_file(struct channel_call *c, int i, char **why)
{
	const char *key, *url;
	char *w;
	cJSON *j;
	int rc;

	if ((j = media_exchange(&c->stage[i], 200, 201, why)) == NULL) {
		xasprintf(&w, "Composio's file store: %s", *why);
		free(*why);
		*why = w;
		return -1;
	}
	key = json_str_nonempty(j, "key");
	url = json_str_nonempty(j, "new_presigned_url");
	if (key == NULL || url == NULL) {
		xasprintf(why, "Composio's file store answered no %s",
		    key == NULL ? "key" : "new_presigned_url");
		cJSON_Delete(j);
		return -1;
	}
	if (media_put(c, i, url, why) != 0)
		rc = -1;
	else if (c->platform->composio->media_tool == NULL) {
		c->upload_ids[i] = xstrdup(key);
		rc = 0;
	} else
		rc = media_tool(c, i, key, why);
	cJSON_Delete(j);
	return rc;
}
