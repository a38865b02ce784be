/*
 * check_int — what the per-channel checks (check_composio.c,
 * check_mastodon.c, check_bluesky.c) share, and the steps the platform
 * tables (platform.h) point at.
 */
#ifndef FRONTS_CHECK_INT_H
#define FRONTS_CHECK_INT_H

#include <cjson/cJSON.h>

#include "core/project.h"
#include "net/check.h"

#define CHECK_CONNECT_MS	10000
#define CHECK_TIMEOUT_MS	30000	/* per request */

/* GET url with one secret header (hname NULL: none); the answer as JSON
 * in *j (status 200) or a step's failure text in *why. Returns the HTTP
 * status, 0 when none came back. */
long	check_get(const char *url, const char *hname, const char *hvalue,
	    cJSON **j, char **why);

/* A front's read-only calls after its credential step. */
void	check_composio(struct check_target *, const struct project *,
	    const struct front *);
void	check_mastodon(struct check_target *, const struct project *,
	    const struct front *);
void	check_bluesky(struct check_target *, const struct project *,
	    const struct front *);

#endif
