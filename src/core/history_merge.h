/*
 * history_merge — folding imported or pulled posts into history.jsonl:
 * a post already there (same front and platform_id on the same host, or
 * url, or the same time and text) has its changed counts updated, a new
 * one becomes a new line, nothing is ever removed. A post the input
 * gives twice counts once, at its first occurrence, on every import. Lines it does not change keep their
 * bytes. The write is atomic and keeps the previous file as
 * .fronts/history.jsonl.bak.
 */
#ifndef FRONTS_HISTORY_MERGE_H
#define FRONTS_HISTORY_MERGE_H

#include <stdbool.h>
#include <time.h>

#include "core/history.h"
#include "core/topics.h"
#include "core/util.h"

#define HIST_SETTLE_SECONDS	(72 * 3600)

enum hist_change_kind { HIST_ADDED, HIST_UPDATED, HIST_UNCHANGED,
	HIST_SKIPPED };

struct hist_change {
	enum hist_change_kind	 kind;
	char			*id;		/* history id; NULL for skips */
	char			*what;		/* the post (platform id, url) */
	char			*detail;	/* what changed, or why skipped */
};

struct hist_merge {
	char			*text;		/* the new history.jsonl */
	size_t			 len;
	struct hist_change	*changes;
	int			 nchanges;
	int			 count[4];	/* by enum hist_change_kind */
	int			 duplicates;	/* skips of posts given twice */
};

struct hist_merge_in {
	const char		*file;		/* history.jsonl's path */
	const char		*existing;	/* its contents ("" when none) */
	size_t			 len;
	const char		*front;		/* front id of the batch */
	const struct topics	*topics;
	time_t			 now;		/* settles posts 72 h old */
};

/* Merges b into the existing file; refuses (nothing merged) when a line
 * of it is not a JSON object. b's skips are carried into the changes. */
int	hist_merge(const struct hist_merge_in *, const struct hist_batch *b,
	    struct hist_merge *out, struct error *err);
void	hist_merge_free(struct hist_merge *);
/* Writes DIR/history.jsonl atomically after copying the current one (if
 * any) to DIR/.fronts/history.jsonl.bak. */
int	hist_write(const char *dir, const char *text, size_t len,
	    struct error *err);

#endif
