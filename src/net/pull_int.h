/*
 * pull_int — what pull.c gives the per-platform pullers: one GET that
 * honours rate limits and retries transport failures.
 */
#ifndef FRONTS_PULL_INT_H
#define FRONTS_PULL_INT_H

#include "net/http.h"
#include "net/pull.h"

struct pull_session {
	const struct pull_opts	*o;
	struct pull_result	*out;
	const char		*service;	/* "mastodon.example" */
	const char		*auth_name;	/* NULL: "Authorization" */
	const char		*auth;		/* "Bearer …" or NULL; secret */
	time_t			 wait_until;	/* quota spent until then */
};

enum pull_get { PULL_OK, PULL_STOPPED, PULL_FAILED };

/* GETs url. PULL_OK with a 2xx response (the caller frees it);
 * PULL_STOPPED when a rate limit asks for a longer wait than allowed
 * (out->stopped says until when; `left` names what is not fetched);
 * PULL_FAILED with err. resp holds nothing unless PULL_OK. */
enum pull_get pull_get(struct pull_session *, const char *url,
	    const char *left, struct http_response *resp, struct error *err);
/* Likewise a POST of a JSON body (Composio's read tools: no side
 * effects, so retried like a GET). */
enum pull_get pull_post(struct pull_session *, const char *url,
	    const char *body, const char *left, struct http_response *resp,
	    struct error *err);
/* s with every byte outside [A-Za-z0-9-._~] percent-encoded. */
char	*pull_escape(const char *s);
/* Appends a page's posts; true when paging should stop (an empty page,
 * or one reaching back past since). */
bool	pull_take_page(struct pull_session *, struct hist_batch *page);

int	pull_mastodon(struct pull_session *, struct error *err);
int	pull_bluesky(struct pull_session *, struct error *err);
int	pull_composio(struct pull_session *, struct error *err);

#endif
