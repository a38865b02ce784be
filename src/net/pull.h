/*
 * pull — the read-only API calls of `fronts history pull`: a front's own
 * posts, newest first, with their counts, back to a date. Mastodon:
 * GET /api/v1/accounts/:id/statuses on the front's instance; Bluesky:
 * app.bsky.feed.getAuthorFeed on the public AppView (or the front's
 * "appview"); X: the posts fronts knows (ids), one by one, through
 * Composio's tweet-lookup tool. Nothing is ever written to a platform.
 *
 * Rate limits are read from the answers (x-ratelimit-*, ratelimit-*,
 * retry-after): a short wait is waited out, a long one stops the pull
 * with a message naming what is left; what was fetched until then is
 * kept. Transport failures are retried with backoff.
 */
#ifndef FRONTS_PULL_H
#define FRONTS_PULL_H

#include <stdbool.h>
#include <time.h>

#include "core/history.h"
#include "core/project.h"
#include "core/util.h"

struct pull_opts {
	const struct front	*front;
	time_t			 since;		/* stop at posts older than this */
	time_t			 now;
	int			 max_pages;	/* 0: 50 */
	long			 max_wait_ms;	/* longest rate-limit wait; 0: 60 s */
	double			 wait_scale;	/* multiplies every wait; 0: 1 */
	long			 timeout_ms;	/* per request; 0: 30 s */
	/* X: the platform ids of the posts to refresh (X has no timeline
	 * read through Composio). */
	const char *const	*ids;
	int			 nids;
};

struct pull_result {
	struct hist_batch	 batch;
	int			 pages;
	int			 requests;
	/* Why the pull ended before reaching `since`, naming what is left;
	 * NULL when it got everything. */
	char			*stopped;
	/* Every post of the window was seen (so one missing is gone);
	 * false after a stop or at the page cap. */
	bool			 complete;
};

/* The arguments an X pull sends its read tool (NULL-terminated), and
 * that tool (composio.read_tool, else Composio's tweet lookup): what
 * `fronts check` compares with the tool's input parameters. */
extern const char *const pull_x_lookup_args[];
const char	*pull_x_read_tool(const struct front *);

/* Can fronts pull this front's platform? */
bool	pull_supported(const struct front *);
/* Fetches the front's posts. -1 with err (EXIT_NETWORK, EXIT_USAGE for a
 * front without what its platform needs) when nothing usable came back;
 * a pull stopped by a rate limit returns 0 with out->stopped set. */
int	pull_front(const struct pull_opts *, struct pull_result *out,
	    struct error *err);
void	pull_result_free(struct pull_result *);

#endif
