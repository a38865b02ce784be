/*
 * channel_int — what the channel implementations (channel_*.c) share and
 * nobody else needs: building and sending each platform's requests, and
 * reading its answers.
 */
#ifndef FRONTS_CHANNEL_INT_H
#define FRONTS_CHANNEL_INT_H

#include <stdbool.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "net/channel.h"

/* Bluesky record key for an entry: a TID built from the planned time and
 * the entry id, so each attempt at one post uses the same key. */
void	channel_tid(time_t at, const char *entry_id, char out[14]);

int	channel_composio_build(struct channel_call *,
	    const struct channel_post *, struct error *err);

/* The steps the platform tables (platform.h) point at, per channel. */
char	*channel_composio_name(const struct front *);
char	*channel_composio_key(const char *entry_id, time_t at);
int	channel_composio_open(struct channel_call *,
	    const struct channel_post *, time_t now, struct error *err);
void	channel_composio_send(struct channel_call *,
	    struct channel_result *);
char	*channel_mastodon_key(const char *entry_id, time_t at);
int	channel_mastodon_build(struct channel_call *,
	    const struct channel_post *, time_t now, struct error *err);
void	channel_mastodon_send(struct channel_call *, struct channel_result *);
char	*channel_bluesky_key(const char *entry_id, time_t at);
int	channel_bluesky_build(struct channel_call *,
	    const struct channel_post *, time_t now, struct error *err);
void	channel_composio_result(const struct channel_call *,
	    const struct http_response *, struct channel_result *);
void	channel_mastodon_result(const struct channel_call *,
	    const struct http_response *, struct channel_result *);
void	channel_bluesky_send(struct channel_call *, struct channel_result *);
void	channel_req_set(struct channel_req *, const char *url, char *body,
	    const char *auth_name, char *auth, long timeout_ms);
void	channel_req_add(struct channel_req *, const char *name,
	    const char *value, bool secret);
/* An upload: a binary body of len bytes under content_type, shown in a
 * dry run as shown (all three owned by the request from here). */
void	channel_req_upload(struct channel_req *, const char *url,
	    char *content_type, char *body, size_t len, char *shown,
	    const char *auth_name, char *auth, long timeout_ms);
/* A "warning: …" line for whoever reads the requests (c->notes). */
void	channel_note(struct channel_call *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* The same as a PUT without credentials (a presigned URL carries its
 * own). */
void	channel_req_put(struct channel_req *, const char *url,
	    char *content_type, char *body, size_t len, char *shown,
	    long timeout_ms);
/* Composio: image i of p to the file store and the platform's media
 * tool (channel_composio_media.c), built into c; sent by
 * channel_composio_file(), which puts the media id (without a media
 * tool: the file's key) into c->upload_ids[i] (0), or says why not (-1,
 * *why the caller's). channel_composio_file_arg: file i as a tool's
 * file argument {"name", "mimetype", "s3key"}. */
int	channel_composio_media(struct channel_call *, const char *base,
	    const struct channel_post *p, int i, struct error *err);
int	channel_composio_file(struct channel_call *, int i, char **why);
cJSON	*channel_composio_file_arg(int i, const char *mime,
	    const char *s3key);
/* The body Composio's execute takes: arguments, the front's user or
 * connected account, the version (NULL: "latest"). */
cJSON	*channel_composio_body(const struct front *, cJSON *arguments,
	    const char *version);
/* "<N bytes of image/jpeg, sha256 …>": how an image's bytes are shown. */
char	*channel_image_shown(const struct channel_image *);
/* Why an exchange gave no answer to go on with: the transport error, or
 * a status other than ok and also_ok (0: none) with what the body says;
 * NULL when the answer is one of them. */
char	*channel_why(const struct http_response *, int rc,
	    const struct error *, long ok, long also_ok);
/* The post's body again from c->post_json (after the uploads answered). */
void	channel_post_rebody(struct channel_call *);
/* Outcome of a request that did not get a readable answer: never reached
 * the server (failed) or may have (unknown). Returns true when handled. */
bool	channel_transport(const struct http_response *, int rc,
	    const struct error *, struct channel_result *);
/* Whether an HTTP status to a publishing request means nothing was
 * created (failed); every other non-2xx leaves the post unknown. */
bool	channel_status_failed(long status);

#endif
