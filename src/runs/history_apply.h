/*
 * history_apply — what `fronts history import` and `pull` share: the
 * project loaded with its raw files, and the merge-and-write of a batch
 * of one front's posts into history.jsonl. Nothing here prints: the
 * result says what changed, and the caller tells the operator.
 */
#ifndef FRONTS_HISTORY_APPLY_H
#define FRONTS_HISTORY_APPLY_H

#include <stdbool.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/history.h"
#include "core/history_merge.h"
#include "core/project.h"
#include "core/topics.h"
#include "core/util.h"

struct history_context {
	struct project	*project;
	char		*fronts_text;
	cJSON		*fronts_json;
	struct topics	 topics;
	char		*history_path;
	char		*history;	/* history.jsonl as it is now ("" if none) */
	size_t		 history_len;
};

/* What one merge did. */
struct history_applied {
	struct hist_merge merge;	/* its text moved into the context */
	int		 bad_counts[HIST_BAD_NREASONS];	/* the batch's */
	bool		 dry_run;
	/* After a write with posts added or updated (scored is false
	 * otherwise): how many of the nwritten the objective can score, the
	 * objective in words, and of the posts fronts published how many
	 * have settled outcomes to hold against their predictions. */
	bool		 scored;
	int		 nwritten;
	int		 scorable;
	char		 objective[512];
	int		 live_n;
	int		 live_published;
};

int	history_context_open(const char *dir, struct history_context *,
	    struct error *err);
void	history_context_close(struct history_context *);
/* Merges b (posts of front) into history and, unless dry_run, writes the
 * file (written first: a failed write changes nothing and is the only
 * answer); hc->history then holds the new contents. *out is filled on 0
 * and is the caller's to history_applied_free(). */
int	history_apply(const char *dir, struct history_context *,
	    const char *front, const struct hist_batch *b, bool dry_run,
	    time_t now, struct history_applied *out, struct error *err);
void	history_applied_free(struct history_applied *);

/* `fronts history import`: a platform's export for one front. format
 * NULL: the map's CSV when has_map, else detected from the bytes. */
struct history_import_opts {
	const char			*dir;
	const char			*file;
	const char			*front;
	const char			*format;
	const struct hist_csv_map	*map;
	bool				 has_map;
	bool				 dry_run;
	bool				 force;	/* another account's outbox */
	time_t				 now;
};

/* HISTORY_NO_FRONT (with err) when the project has no such front: the
 * operator's usage error, not the file's. */
#define HISTORY_NO_FRONT	(-2)

int	history_import_run(const struct history_import_opts *,
	    struct history_applied *out, struct error *err);

#endif
