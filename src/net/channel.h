/*
 * channel — how one post reaches one platform: Composio's tool-execution
 * API for X, LinkedIn and Reddit; Mastodon's statuses API and Bluesky's
 * createRecord directly. Which, and how, is the front's platform's table
 * (platform.h).
 *
 * A channel call is built completely before anything is sent, so a dry
 * run prints exactly the bytes a live run would send (secrets as ***).
 * Sending never retries: the outcome says whether the post went out
 * (sent), certainly did not (failed: nothing reached the platform, or it
 * refused), or may have (unknown).
 *
 * Secrets come only from the environment: COMPOSIO_API_KEY, or the
 * variable a front names in "api_key_env"; for Mastodon
 * MASTODON_ACCESS_TOKEN, or the variable a front names in "token_env"; for
 * Bluesky BLUESKY_APP_PASSWORD, or the front's "password_env".
 */
#ifndef FRONTS_CHANNEL_H
#define FRONTS_CHANNEL_H

#include <stdbool.h>
#include <time.h>

#include "core/ledger.h"
#include "core/project.h"
#include "core/util.h"
#include "net/http.h"

enum channel_kind { CHANNEL_COMPOSIO, CHANNEL_MASTODON, CHANNEL_BLUESKY };

struct platform_handler;	/* net/platform.h: what the call's steps are */

#define CHANNEL_MAX_HEADERS	4
#define CHANNEL_MAX_IMAGES	20	/* per post, on any platform (LinkedIn's
					   MultiImage: 20); each table's
					   max_images is its own */

/* One image of a post: the bytes to upload (already read and cleaned by
 * core/media.h) and what the platform is told about them. */
struct channel_image {
	const unsigned char	*data;
	size_t			 len;
	const char		*mime;		/* "image/jpeg", … */
	const char		*alt;		/* NULL: none */
	int			 width, height;	/* as shown */
};

/* What a later part of a thread replies to: the thread's first post and
 * the part just before (Bluesky wants both as strong references, uri and
 * cid; Mastodon the parent's id). */
struct channel_reply {
	const char	*root_id, *root_cid;
	const char	*parent_id, *parent_cid;
};

/* One post: its text, its images, and what it replies to (NULL: none). */
struct channel_post {
	const char			*text;
	const struct channel_image	*images;
	int				 nimages;
	const struct channel_reply	*reply;
};

/* One HTTP request of a call, with the storage it points into. */
struct channel_req {
	struct http_request	 http;
	struct http_header	 headers[CHANNEL_MAX_HEADERS];
	char			*url;
	char			*body;
	char			*shown_body;	/* body with secrets as ***; NULL: body */
	char			*auth;		/* secret header value, owned */
	char			*content_type;	/* owned; NULL: JSON */
};

struct channel_call {
	enum channel_kind	 kind;
	const struct platform_handler	*platform;
	const struct front	*front;
	char			*name;		/* "composio/TOOL", "mastodon", "bluesky" */
	char			*key;		/* idempotency key or record key */
	char			*secret_env;	/* the variable the secret comes from */
	char			*secret;	/* its value; NULL when unset */
	char			*handle;	/* bluesky */
	char			*did;		/* bluesky: from the session */
	char			*notes;		/* "warning: …\n" lines for the
						   operator (unresolved mentions) */
	bool			 has_session;	/* bluesky: session request first */
	struct channel_req	 session;
	/* One upload per image, sent before the post; the post's body names
	 * what they answer (media ids, blobs), so it is built again with
	 * their answers before it is sent. */
	struct channel_req	 uploads[CHANNEL_MAX_IMAGES];
	int			 nuploads;
	char			*upload_ids[CHANNEL_MAX_IMAGES];
	/* Composio: an image goes to Composio's file store first (stage:
	 * the upload request; put: its bytes to the presigned URL the
	 * stage answers), and uploads[i] hands it to the platform's media
	 * tool by the key the store gave it. */
	struct channel_req	 stage[CHANNEL_MAX_IMAGES];
	struct channel_req	 put[CHANNEL_MAX_IMAGES];
	void			*post_json;	/* cJSON of the post's body */
	struct channel_req	 post;
};

struct channel_result {
	enum ledger_state	 state;		/* SENT, FAILED or UNKNOWN */
	char			*post_id;
	char			*cid;		/* bluesky: the record's cid */
	char			*url;
	char			*message;	/* why, for failed and unknown */
	long			 status;	/* HTTP status of the post request */
};

/* Builds every request of the post of `text` on front f. entry_id is the
 * ledger entry (the idempotency key and record key derive from it), at the
 * planned time, now the time to stamp the record with. timeout_ms bounds
 * each request (0: http's default). */
int	channel_open(const struct front *f, const char *text,
	    const char *entry_id, time_t at, time_t now, long timeout_ms,
	    struct channel_call *out, struct error *err);
void	channel_close(struct channel_call *);
/* The same for a post with images or replying to an earlier one. */
int	channel_open_post(const struct front *f, const struct channel_post *,
	    const char *entry_id, time_t at, time_t now, long timeout_ms,
	    struct channel_call *out, struct error *err);
/* The requests as they would be sent, in order (uploads first), secrets
 * shown as ***, an image's bytes as their size and sha256. */
char	*channel_describe(const struct channel_call *);
/* Refuses (EXIT_USAGE) when the secret's variable is not set. */
int	channel_ready(const struct channel_call *, struct error *err);
/* Sends the uploads, then the post; never retries. Always fills out:
 * an upload that fails leaves the post failed (it was never sent). */
void	channel_send(struct channel_call *, struct channel_result *out);
void	channel_result_free(struct channel_result *);

/* The channel name a front publishes through, or NULL with err. */
const char *channel_kind_of(const struct front *f, enum channel_kind *kind,
	    struct error *err);

/* The variable a front's credential comes from (token_env, password_env
 * or api_key_env in fronts.json, or the channel's default); NULL for a
 * platform fronts has no channel to. */
const char *channel_secret_var(const struct front *f);
/* Where each channel's API is: COMPOSIO_BASE_URL (or Composio's own), a
 * front's Bluesky "service" (or bsky.social); caller frees. */
char	*channel_composio_base(void);
char	*channel_bluesky_service(const struct front *f);
/* The Bluesky handle a front posts as, without "@"; NULL when missing. */
const char *channel_bluesky_handle(const struct front *f);

/* A Bluesky session (com.atproto.server.createSession): publishing and
 * `fronts check` both log in through these two. */
struct channel_session {
	char	*token;		/* accessJwt; a secret */
	char	*did;		/* NULL when the answer has none */
	char	*handle;	/* as the PDS names the account, or NULL */
};
enum channel_login {
	CHANNEL_LOGIN_OK,
	CHANNEL_LOGIN_FAILED,		/* no answer: err says why */
	CHANNEL_LOGIN_REFUSED,		/* an answer other than 200 */
	CHANNEL_LOGIN_INCOMPLETE	/* 200 without an accessJwt */
};
/* The createSession request of handle and password on service into r
 * (a dry run shows the password as ***); channel_req_free frees it. */
void	channel_bluesky_session_req(struct channel_req *r,
	    const char *service, const char *handle, const char *password,
	    long timeout_ms);
/* Sends it and reads the answer into s (freed with channel_session_free
 * whatever the outcome); resp holds the answer (the caller frees it). */
enum channel_login channel_bluesky_login(const struct channel_req *r,
	    struct channel_session *s, struct http_response *resp,
	    struct error *err);
void	channel_session_free(struct channel_session *);
void	channel_req_free(struct channel_req *);

/* Credentials go only over https (or plain http to this machine). */
int	channel_url_check(const char *url, const char *what,
	    struct error *err);
/* A front's non-empty string field name, in its object obj (NULL: at
 * the top); NULL when missing. */
const char *channel_front_str(const struct front *, const char *obj,
	    const char *name);
/* The message of a JSON error body ("error", "message", …) or the body. */
char	*channel_error_text(const struct http_response *);

#endif
