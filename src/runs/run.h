/*
 * run — `fronts run` and the TUI's run mode: the plan carried out over
 * time. Each post is offered when its slot comes (within its window, the
 * slot plus the lateness allowed), the operator answers with one key, and
 * after every outcome the rest of the horizon is re-planned from what
 * happened: counts pulled where a front can be pulled, everything sent
 * fixed, the world model seeing the new history.
 *
 * The ledger is the memory: a run killed at any moment and started again
 * finds every post it sent, skipped or attempted there, so nothing is sent
 * twice and nothing due is forgotten. A post whose window closed while no
 * run was watching is recorded as skipped (late), never sent late. Every
 * generation of the plan is kept in .fronts/plans/ with the reason it was
 * made; a restart continues from the newest one.
 *
 * Nothing here reads the terminal: the front end shows each offer and
 * answers with the operator's key (struct run_ui).
 */
#ifndef FRONTS_RUN_H
#define FRONTS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <sys/types.h>

#include "core/plan.h"
#include "core/project.h"
#include "core/search.h"
#include "core/util.h"
#include "runs/publish.h"

struct run_opts {
	const char		*dir;
	const char		*plan_path;	/* NULL: the newest generation */
	bool			 live;
	int			 late_minutes;	/* < 0: one slot */
	const char		*notify;	/* operator's command; NULL: none */
	int			 replan_minutes; /* regular re-plan; 0: only
						  * after outcomes */
	const char		*model_src;	/* approved model; NULL: no
						 * re-plan */
	size_t			 model_len;
	struct search_params	 sp;		/* each re-plan's budget */
	long			 timeout_ms;	/* per publish request */
};

/* One post offered to the operator. */
struct run_offer {
	int			 index;		/* in the current plan */
	const struct project	*project;
	const struct plan_post	*post;
	struct publish_item	 item;
	char			*request;	/* publish_describe(); NULL: */
	char			 request_error[512];	/* why not */
	time_t			 window_end;
	bool			 live;
};

struct run_ui {
	/* A line for the operator (already terminal-safe text). */
	void	(*say)(void *arg, const char *line);
	/* Pulls the counts of the posts already sent into history.jsonl
	 * (where the front can be pulled); NULL: no pull. Its failures are
	 * told, never fatal. */
	int	(*pull)(void *arg, const char *dir, struct error *err);
	void	 *arg;
};

/* What run_key() accepts. */
#define RUN_KEY_SEND	'y'
#define RUN_KEY_LATER	'n'
#define RUN_KEY_SKIP	's'
#define RUN_KEY_QUIT	'q'

struct run;

/* Loads the project and the plan (PLAN, or the newest generation),
 * records every post whose window closed unsent as skipped (late), and
 * re-plans when it did. The caller holds the project lock. */
int	run_open(const struct run_opts *, const struct run_ui *,
	    struct run **out, struct error *err);
void	run_close(struct run *);

/* Brings the run up to now: windows that closed, the regular re-plan.
 * Returns 1 when the run is over (nothing left to offer), 0 otherwise. */
int	run_tick(struct run *, time_t now, struct error *err);
/* The next post to offer now, or false; the offer is the caller's to
 * release with run_offer_free(). Runs the --notify command for it. */
bool	run_due(struct run *, time_t now, struct run_offer *out);
void	run_offer_free(struct run_offer *);
/* The operator's key for the offer: send, not now, skip for good. A
 * send, skip or failure re-plans the rest. -1 with err on a failure that
 * must stop the run (an unknown outcome, the ledger). */
int	run_key(struct run *, const struct run_offer *, int key,
	    struct error *err);
/* When something next happens (a post comes due, a window closes, the
 * regular re-plan), for the caller's sleep. */
time_t	run_next_event(struct run *, time_t now);
/* The next post to come (for a status line); false when none. */
bool	run_next_post(struct run *, time_t now, const struct plan_post **out,
	    const struct project **p);
/* What the run did, for its closing line. */
struct run_tally {
	int	offered, sent, failed, skipped, late, later, generations;
};
void	run_tally(const struct run *, struct run_tally *out);

/* Starts `sh -c cmd` for a post that came due (--notify), with
 * FRONTS_FRONT, FRONTS_DRAFT, FRONTS_AT, PATH and HOME its whole
 * environment: no credential reaches it. The caller reaps *pid. */
int	run_notify_start(const char *cmd, const char *front, const char *draft,
	    time_t at, pid_t *pid);
/* Reaps the --notify commands of pids[0..*n) that ended, keeping the rest;
 * only those (the planner's workers and a synthesis are others' to wait for). */
void	run_notify_reap(pid_t *pids, int *n);

/* Records post i of plan pl (of p) in the ledger as skipped (late), for a
 * front end whose post's window closed unsent (the TUI's run mode); 1 when
 * the ledger holds the post already (nothing written). The caller holds
 * the project lock. */
int	run_skip_late(const struct project *p, const struct plan *pl, int i,
	    time_t now, struct error *err);

/* The window a post may go out in, from its slot. */
time_t	run_window_end(const struct project *, const struct plan_post *,
	    int late_minutes);

#endif
