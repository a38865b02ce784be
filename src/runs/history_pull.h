/*
 * history_pull — `fronts history pull` and the pull `fronts run` makes
 * after each outcome: each Mastodon, Bluesky and X front's posts with
 * their counts, back to a date, merged into history.jsonl like an
 * import. A post the publish ledger says fronts sent becomes a line under
 * the ledger entry's id, with the plan's prediction beside the outcome.
 * Posts younger than 72 hours stay "settled": false and are refreshed by
 * the next pull. Nothing here prints: each front's result goes to the
 * caller's callback as it is done, and stays in the answer.
 */
#ifndef FRONTS_HISTORY_PULL_H
#define FRONTS_HISTORY_PULL_H

#include <stdbool.h>
#include <time.h>

#include "core/ledger.h"
#include "core/project.h"
#include "core/util.h"
#include "net/pull.h"
#include "runs/history_apply.h"

#define HISTORY_PULL_DEFAULT_DAYS	30

/* A post known by id that the platform did not return. */
struct history_lost {
	char	*id;		/* the history line's or the ledger entry's */
	char	*post_id;	/* the platform's */
};

enum history_front_state {
	HISTORY_NOT_PULLED,	/* fronts cannot pull the front's platform */
	HISTORY_FAILED,		/* err says why; nothing of it was merged */
	HISTORY_PULLED		/* merged (or stopped: see stopped) */
};

struct history_front {
	char			*front;		/* its id */
	enum platform		 platform;
	enum history_front_state state;
	time_t			 since;
	/* Sent by fronts (the ledger) inside the window, not returned. */
	struct history_lost	*missing;
	int			 nmissing;
	/* In history inside the window, not returned by a complete pull:
	 * kept as they were. */
	struct history_lost	*gone;
	int			 ngone;
	bool			 page_limit;	/* older posts not fetched */
	int			 requests;
	int			 pages;
	bool			 applied;	/* the merge ran: see result */
	struct history_applied	 result;
	/* Why the platform stopped the pull early (a long rate limit),
	 * naming what is left; NULL when it did not. */
	char			*stopped;
	struct error		 err;		/* HISTORY_FAILED, or a failed merge */
};

struct history_pull_opts {
	const char	*dir;
	const char	*front;		/* NULL: every front */
	bool		 has_since;
	time_t		 since;		/* else 30 days, or the oldest unsettled */
	bool		 dry_run;
	bool		 wait;		/* for the project lock */
	/* The run scheduler's pull: only fronts the ledger holds a sent
	 * post on, and the caller holds the project lock already. */
	bool		 sent_only;
	time_t		 now;
	/* Told as each front starts (what is pulled since when) and is done;
	 * either may be NULL. */
	void		(*begin)(void *arg, const struct history_front *);
	void		(*done)(void *arg, const struct history_front *);
	void		*arg;
};

struct history_pull_result {
	struct history_front	*fronts;
	int			 nfronts;
	int			 code;	/* the exit code the fronts add up to */
};

/* Pulls every front the options name. -1 with err when nothing could be
 * pulled (the project, the lock or the ledger could not be had; no such
 * front: HISTORY_NO_FRONT); 0 otherwise, with each front's result in out
 * (a front's own failure is in its entry and in out->code). */
int	history_pull_run(const struct history_pull_opts *,
	    struct history_pull_result *out, struct error *err);
void	history_pull_result_free(struct history_pull_result *);

/* The step after the platform answered, for front fi (hf->front and
 * hf->since set): the ledger's sent posts attached to the rows of r by
 * platform id (the history line takes the entry's id and the plan's
 * prediction), sent posts and known posts inside the window that r lacks
 * named (the latter only when r is complete), and r merged into history
 * as a->dry_run says. r's stop message moves into hf. The front's exit
 * code. */
int	history_pull_merge(const struct history_pull_opts *a,
	    struct history_context *hc, const struct ledger *l, int fi,
	    struct pull_result *r, struct history_front *hf);

#endif
