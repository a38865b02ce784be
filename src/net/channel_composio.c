/*
 * channel_composio — X, LinkedIn and Reddit through Composio's
 * tool-execution API: POST {base}/api/v3.1/tools/execute/{tool} with the
 * front's composio block (tool, user_id, connected_account_id, and the
 * tool's fixed arguments) and the post's text under the argument name that
 * tool expects. The version is always sent: the front's composio.version,
 * else "latest" (Composio's changelog and its versioning guide disagree on
 * what an execute without one runs: the latest, or 00000000_00).
 *
 * A later part of a thread on X is a reply: TWITTER_CREATION_OF_A_POST's
 * reply__in_reply_to_tweet_id (the X API's reply.in_reply_to_tweet_id,
 * flattened as Composio lists its input parameters) names the part
 * before. LinkedIn and Reddit posts take no replies. Images go first
 * (channel_composio_media.c), and the post names their media ids.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/json.h"
#include "net/channel_int.h"
#include "net/platform.h"

#define COMPOSIO_DEFAULT_BASE	"https://backend.composio.dev"

char *
channel_composio_base(void)
{
	const char *b = getenv("COMPOSIO_BASE_URL");

	return xstrdup_rtrim(b != NULL && b[0] != '\0' ? b :
	    COMPOSIO_DEFAULT_BASE, '/');
}

/* A fixed argument: from composio.arguments, or (the older spelling) the
 * composio block itself. */
static const char *
composio_arg(const struct front *f, const char *name)
{
	const cJSON *blk = cJSON_GetObjectItemCaseSensitive(f->raw, "composio");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(blk, "arguments");
	const char *v = json_str(args, name);

	return v != NULL ? v : channel_front_str(f, "composio", name);
}

static int
composio_need(cJSON *args, const struct front *f, const char *name,
    const char *dflt, struct error *err)
{
	const char *v = composio_arg(f, name);

	if (cJSON_HasObjectItem(args, name))
		return 0;
	if (v == NULL)
		v = dflt;
	if (v == NULL)
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "composio.arguments.%s is missing (the %s tool needs it)",
		    f->id, name, platform_name(f->platform));
	cJSON_AddStringToObject(args, name, v);
	return 0;
}

/* The argument that carries the post's text: X `text`, LinkedIn
 * `commentary`, Reddit `title` (the length limit is the title's). */
static const char *
composio_text_arg(const struct front *f)
{
	return platform_of(f->platform)->composio->text_arg;
}

/* Every fixed argument the front configures in composio.arguments goes
 * through as written (Reddit's flair_id, say); then the post's text, and
 * the arguments each tool cannot do without: LinkedIn `author`,
 * `visibility`; Reddit `subreddit`, `kind`, `text`. */
static int
composio_arguments(const struct front *f, const char *text, cJSON *args,
    struct error *err)
{
	const cJSON *blk = cJSON_GetObjectItemCaseSensitive(f->raw, "composio");
	const cJSON *fixed = cJSON_GetObjectItemCaseSensitive(blk, "arguments");
	const char *tf = composio_text_arg(f);
	const struct platform_arg *need;
	const cJSON *a;

	if (fixed != NULL && !cJSON_IsObject(fixed))
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "composio.arguments must be an object of the tool's fixed "
		    "arguments", f->id);
	if (cJSON_HasObjectItem(fixed, tf))
		return error_set(err, EXIT_ERROR, "fronts.json: front \"%s\": "
		    "composio.arguments.%s is the post's text, which comes from "
		    "the plan; remove it", f->id, tf);
	cJSON_ArrayForEach(a, fixed)
		cJSON_AddItemToObject(args, a->string, cJSON_Duplicate(a, true));
	cJSON_AddStringToObject(args, tf, text);
	for (need = platform_of(f->platform)->composio->needs;
	    need != NULL && need->name != NULL; need++)
		if (composio_need(args, f, need->name, need->dflt, err) != 0)
			return -1;
	return 0;
}

/* The reply argument of a later part, on a platform that takes one. */
static int
composio_reply(const struct front *f, const struct channel_reply *r,
    cJSON *args, struct error *err)
{
	if (r == NULL)
		return 0;
	if (!platform_of(f->platform)->composio->replies)
		return error_set(err, EXIT_REFUSED, "front \"%s\": a %s post "
		    "takes no thread of replies", f->id,
		    platform_name(f->platform));
	cJSON_AddStringToObject(args, "reply__in_reply_to_tweet_id",
	    r->parent_id != NULL ? r->parent_id : "");
	return 0;
}

cJSON *
channel_composio_body(const struct front *f, cJSON *arguments,
    const char *version)
{
	static const char *top[] = { "user_id", "connected_account_id" };
	cJSON *body = cJSON_CreateObject();
	size_t i;

	cJSON_AddItemToObject(body, "arguments", arguments);
	for (i = 0; i < sizeof top / sizeof top[0]; i++)
		if (channel_front_str(f, "composio", top[i]) != NULL)
			cJSON_AddStringToObject(body, top[i],
			    channel_front_str(f, "composio", top[i]));
	cJSON_AddStringToObject(body, "version", version != NULL ? version :
	    "latest");
	return body;
}

/* The images: each to the file store and the media tool, and the post
 * names what they answer (shown as "<id of upload N>" until then); or,
 * where the post tool takes the files, each as a file argument (its key
 * shown as "<key of file N>" until the store gives it). */
static int
composio_images(struct channel_call *c, const char *base,
    const struct channel_post *p, cJSON *args, struct error *err)
{
	const struct platform_composio *cp = c->platform->composio;
	bool files = cp->media_files_arg != NULL;
	cJSON *ids;
	char id[32];
	int i;

	if (p->nimages == 0)
		return 0;
	if (cp->media_tool == NULL && !files)
		return error_set(err, EXIT_REFUSED, "front \"%s\": fronts sends "
		    "no images to this platform through Composio",
		    c->front->id);
	if (p->nimages > c->platform->max_images)
		return error_set(err, EXIT_REFUSED, "front \"%s\": fronts sends "
		    "at most %d images a post through Composio", c->front->id,
		    c->platform->max_images);
	ids = cJSON_AddArrayToObject(args, files ? cp->media_files_arg :
	    cp->media_ids_arg);
	for (i = 0; i < p->nimages; i++) {
		if (channel_composio_media(c, base, p, i, err) != 0)
			return -1;
		snprintf(id, sizeof id, files ? "<key of file %d>" :
		    "<id of upload %d>", i + 1);
		cJSON_AddItemToArray(ids, files ? channel_composio_file_arg(i,
		    p->images[i].mime, id) : cJSON_CreateString(id));
	}
	return 0;
}

int
channel_composio_build(struct channel_call *c, const struct channel_post *p,
    struct error *err)
{
	const char *version = channel_front_str(c->front, "composio",
	    "version");
	const struct front *f = c->front;
	cJSON *args = cJSON_CreateObject();
	char *url, *base = channel_composio_base();

	if (channel_url_check(base, "COMPOSIO_BASE_URL", err) != 0 ||
	    composio_arguments(f, p->text, args, err) != 0 ||
	    composio_reply(f, p->reply, args, err) != 0 ||
	    composio_images(c, base, p, args, err) != 0) {
		cJSON_Delete(args);
		free(base);
		return -1;
	}
	c->post_json = channel_composio_body(f, args, version);
	xasprintf(&url, "%s/api/v3.1/tools/execute/%s", base,
	    channel_front_str(f, "composio", "tool"));
	channel_req_set(&c->post, url, cJSON_PrintUnformatted(c->post_json),
	    "x-api-key", c->secret != NULL ? xstrdup(c->secret) : NULL,
	    c->post.http.timeout_ms);
	free(url);
	free(base);
	return 0;
}

/* The created post's id, wherever the tool's response keeps it: X's
 * data.data.id; LinkedIn's x_restli_id (the share's URN, from LinkedIn's
 * x-restli-id header); a plain id. */
static const char *
composio_post_id(const cJSON *data)
{
	const cJSON *inner = cJSON_GetObjectItemCaseSensitive(data, "data");
	const cJSON *rd = cJSON_GetObjectItemCaseSensitive(data,
	    "response_data");
	const char *v;

	if ((v = json_str_nonempty(data, "x_restli_id")) != NULL ||
	    (v = json_str_nonempty(rd, "x_restli_id")) != NULL ||
	    (v = json_str_nonempty(inner, "x_restli_id")) != NULL ||
	    (v = json_str_nonempty(inner, "id")) != NULL)
		return v;
	return json_str_nonempty(data, "id");
}

void
channel_composio_result(const struct channel_call *c,
    const struct http_response *r, struct channel_result *out)
{
	const struct platform_composio *cp =
	    platform_of(c->front->platform)->composio;
	cJSON *j = cJSON_Parse(r->body);
	const cJSON *ok, *data, *e;
	const char *id, *log;

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
		log = json_str(j, "log_id");
		if ((id = composio_post_id(data)) != NULL)
			out->post_id = xstrdup(id);
		else if (log != NULL)
			xasprintf(&out->post_id, "composio-log:%s", log);
		if (id != NULL && cp->post_url != NULL)
			out->url = cp->post_url(id);
	}
	cJSON_Delete(j);
}

/* What the platform tables of X, LinkedIn and Reddit point at. */

char *
channel_composio_name(const struct front *f)
{
	char *name;

	xasprintf(&name, "composio/%s", channel_front_str(f, "composio",
	    "tool"));
	return name;
}

char *
channel_composio_key(const char *entry_id, time_t at)
{
	return xstrdup(entry_id);
}

int
channel_composio_open(struct channel_call *c, const struct channel_post *p,
    time_t now, struct error *err)
{
	return channel_composio_build(c, p, err);
}

/* The post names the media ids its images' uploads answered, or its
 * file arguments the keys the file store gave. */
static void
composio_media_ids(struct channel_call *c)
{
	const struct platform_composio *cp = c->platform->composio;
	cJSON *args = cJSON_GetObjectItemCaseSensitive(c->post_json,
	    "arguments");
	cJSON *ids, *file;
	int i = 0;

	if (cp->media_files_arg != NULL) {
		cJSON_ArrayForEach(file, cJSON_GetObjectItemCaseSensitive(args,
		    cp->media_files_arg))
			if (i < c->nuploads)
				cJSON_ReplaceItemInObjectCaseSensitive(file,
				    "s3key", cJSON_CreateString(
				    c->upload_ids[i++]));
		channel_post_rebody(c);
		return;
	}
	ids = cJSON_CreateArray();
	for (i = 0; i < c->nuploads; i++)
		cJSON_AddItemToArray(ids, cJSON_CreateString(c->upload_ids[i]));
	cJSON_ReplaceItemInObjectCaseSensitive(args,
	    c->platform->composio->media_ids_arg, ids);
	channel_post_rebody(c);
}

void
channel_composio_send(struct channel_call *c, struct channel_result *out)
{
	struct http_response resp;
	struct error err = { 0 };
	char *why;
	int rc, i;

	/* An image that does not reach the platform leaves the post unsent:
	 * what went to the file store or the media tool is harmless. */
	for (i = 0; i < c->nuploads; i++)
		if (channel_composio_file(c, i, &why) != 0) {
			out->state = LEDGER_FAILED;
			xasprintf(&out->message, "image %d of %d did not upload "
			    "(the post was not sent): %s", i + 1, c->nuploads,
			    why);
			free(why);
			return;
		}
	if (c->nuploads > 0)
		composio_media_ids(c);
	rc = http_perform(&c->post.http, &resp, &err);
	if (!channel_transport(&resp, rc, &err, out))
		channel_composio_result(c, &resp, out);
	http_response_free(&resp);
}
