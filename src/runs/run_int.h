/*
 * run_int — what run.c, run_gen.c and run_replan.c share: the run's
 * state and the plan generations kept in .fronts/plans/.
 */
#ifndef FRONTS_RUN_INT_H
#define FRONTS_RUN_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "runs/run.h"

struct run {
	struct run_opts		 o;
	struct run_ui		 ui;
	struct project		*p;	/* start and horizon: the plan's frame */
	struct plan		 plan;
	struct publish		 pub;
	bool			 pub_open;
	int			 generation;	/* 0: none kept (dry run) */
	char			 source[40];	/* id of the plan the chain began with */
	time_t			 horizon_end;
	time_t			*snooze;	/* per post: not offered before */
	uint8_t			*done;		/* per post: settled in this process */
	time_t			 last_replan;
	struct run_tally	 t;
	pid_t			*children;	/* --notify commands not reaped */
	int			 nchildren;
	char			*tree;		/* the last search's tree (root:
						 * p->start), for the next re-plan */
	size_t			 tree_len;
};

/* A post of the plan by index: its ledger entry, and whether the ledger
 * (or this process) settled it. */
bool	run_post_settled(struct run *, int i);

/* Says a formatted line through the front end. */
void	run_say(struct run *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Puts plan (of project p, which the run takes over) in place as the
 * current plan, and keeps it as the next generation with reason (not in a
 * dry run). */
int	run_adopt(struct run *, struct project *p, struct plan *plan,
	    const char *reason, struct error *err);

/* Generations: .fronts/plans/NNNN.json, the plan object plus "run"
 * (generation, reason, made_at, start, horizon_slots, horizon_end,
 * source). The newest number, 0 when none. */
int	run_gen_latest(const char *dir);
int	run_gen_save(struct run *, const char *reason, struct error *err);
/* Loads generation n: the project with the generation's frame, the plan,
 * its source and horizon end. */
int	run_gen_load(const char *dir, int n, struct project **p,
	    struct plan *plan, char source[40], time_t *horizon_end,
	    struct error *err);

/* Re-plans the rest of the horizon from the current slot, with reason;
 * says what changed. Without a model (or in a dry run) says why not. */
int	run_replan(struct run *, const char *reason, struct error *err);
/* The lines that say how plan b differs from plan a from `from` on. */
void	run_diff(struct run *, const struct project *pa, const struct plan *a,
	    const struct project *pb, const struct plan *b, time_t from);

#endif
