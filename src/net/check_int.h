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
/* Composio's answers (untrusted bytes, len of them) read into steps, as
 * check_composio reads what it fetched. A tool's schema (GET
 * /api/v3.1/tools/TOOL at version, NULL for "latest"): the "tool" step,
 * "parameters" when args (NULL-terminated) is given, "images" when files
 * names the argument that takes files; its toolkit's slug into *toolkit
 * when toolkit is not NULL (caller frees). A connected account (GET
 * /api/v3.1/connected_accounts/ID when id is given, else the list of
 * user's): the "connected_account" step. */
void	check_composio_tool_read(struct check_target *, const char *body,
	    size_t len, const char *tool, const char *version,
	    const char *const *args, const char *files, char **toolkit);
void	check_composio_account_read(struct check_target *, const char *body,
	    size_t len, const char *id, const char *user, const char *toolkit);
void	check_mastodon(struct check_target *, const struct project *,
	    const struct front *);
void	check_bluesky(struct check_target *, const struct project *,
	    const struct front *);

#endif
