/*
 * search — information-set MCTS over a world model (docs/DESIGN.md "Planner").
 *
 * One struct search is one tree, driven by one thread, inside one process
 * (the sandbox worker, or this process with --isolation thread). Trees from
 * several workers are merged by action path with search_merge().
 *
 * search_snapshot() may be called from any thread while search_run() runs:
 * it copies a small, bounded view (root children, principal variation,
 * counters) under the search's lock. The TUI and the worker's progress
 * stream use only this.
 */
#ifndef FRONTS_SEARCH_H
#define FRONTS_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/legal.h"
#include "core/model.h"
#include "core/project.h"
#include "core/util.h"

enum isolation { ISOLATION_PROCESS, ISOLATION_THREAD };

struct search_params {
	uint64_t	iterations;	/* total over all workers; 0: seconds */
	double		seconds;	/* budget when iterations == 0 */
	uint64_t	seed;
	int		workers;
	enum isolation	isolation;
	int		call_timeout_ms;
	double		uct_c;		/* exploration constant; 0: default */
	int		rollout_actions; /* with value(): a rollout ends after
					  * this many actions; 0: default */
	double		time_limit;	/* the plan's wall clock, seconds;
					 * 0: SEARCH_TIME_LIMIT or seconds
					 * plus a minute, the later */
	long		memory_mb;	/* total over all workers, MiB;
					 * 0: SEARCH_MEMORY_MB */
};

/* The defaults every front end starts from (fronts plan, the TUI, the
 * planner and the search itself when given no budget): SEARCH_ITERATIONS
 * iterations in total, seed 1, one process worker per online core (as
 * many as the memory budget gives SEARCH_MEMORY_MIN each), a 1000 ms call
 * timeout, the default exploration constant, the default time limit and
 * SEARCH_MEMORY_MB. */
#define SEARCH_ITERATIONS	20000
/* Every plan ends by this wall clock (or --seconds plus a minute, when
 * that is later), its tree so far completed as a stop does; the memory
 * budget is shared by the workers, each at least SEARCH_MEMORY_MIN. */
#define SEARCH_TIME_LIMIT	3600.0
#define SEARCH_MEMORY_MB	2048
#define SEARCH_MEMORY_MIN	64
void	search_params_default(struct search_params *);

#define SNAPSHOT_MAX_CHILDREN	64
#define SNAPSHOT_MAX_PV		256

struct search_edge {
	struct action	action;
	int		slot;		/* slot at which the action happens */
	uint64_t	visits;
	uint64_t	avail;		/* availability count (ISMCTS) */
	double		mean;		/* mean return from this edge on */
	double		reward_mean;	/* mean reward of this step alone */
	double		ci_lo, ci_hi;	/* 95% interval of reward_mean */
};

enum search_state {
	SEARCH_IDLE, SEARCH_RUNNING, SEARCH_DONE, SEARCH_STOPPED, SEARCH_FAILED
};

struct search_snapshot {
	enum search_state	state;
	uint64_t		iterations;
	uint64_t		model_calls;
	uint64_t		illegal_proposals;
	uint64_t		model_errors;
	uint64_t		nodes;
	uint64_t		arena_bytes;	/* the tree's memory */
	double			elapsed;	/* seconds */
	double			model_seconds;
	double			rate;		/* iterations per second */
	int			workers;
	int			nroot;
	struct search_edge	root[SNAPSHOT_MAX_CHILDREN];	/* by visits */
	int			npv;
	struct search_edge	pv[SNAPSHOT_MAX_PV];
	char			error[512];
};

struct search;

/* A fresh tree for project p. seed_offset separates root-parallel workers
 * (worker i searches with seed params->seed + i). */
struct search	*search_new(const struct project *p,
		    const struct search_params *params, uint64_t seed_offset);
void		 search_free(struct search *);

/* Called about every interval seconds from inside search_run(). */
typedef void	 search_progress_fn(void *arg, struct search *);
void		 search_set_progress(struct search *, search_progress_fn *,
		    void *arg, double interval);

/* Runs until this tree's share of the budget is spent, search_cancel(), or
 * the model fails most iterations (EXIT_MODEL). */
int		 search_run(struct search *, const struct model_ops *,
		    void *model, struct error *err);
void		 search_cancel(struct search *);	/* any thread */
void		 search_snapshot(struct search *, struct search_snapshot *);

/* As search_new(), with the posts already made (history and sent ledger
 * entries, see legal_past_load()) counting toward caps and gaps;
 * search_new() counts history.jsonl only. */
struct search	*search_new_past(const struct project *p,
		    const struct search_params *params, uint64_t seed_offset,
		    const struct legal_past *past, int npast);

/* The first distinct model errors (type, message, line); returns count. */
#define SEARCH_MAX_ERRORS	4
int		 search_errors(struct search *, struct model_error *out,
		    int max);

/* Bytes per tree node (the arena's element size). */
size_t		 search_node_bytes(void);
/* The largest search_export() a tree held in `bytes` of memory can have:
 * what the parent accepts from a worker with that budget. */
size_t		 search_export_max(size_t bytes);

/* The principal variation (most visited path) whole, the strongest
 * alternatives at each of its steps, and the mean total return of the plan:
 * the mean rewards of its steps plus the mean return from its last step. */
struct search_alt {
	int			step;	/* index into pv it competes with */
	struct search_edge	edge;
};
struct search_result {
	struct search_edge	*pv;
	int			 npv;
	struct search_alt	*alts;
	int			 nalts;
	double			 expected_total;
};
int		 search_result(struct search *, int alts_per_step,
		    struct search_result *out);
void		 search_result_free(struct search_result *);

/* The tree (or its statistics by action path) as bytes, for merging the
 * trees of root-parallel workers; search_merge() adds them into `into`. */
int		 search_export(struct search *, char **buf, size_t *len);
int		 search_merge(struct search *into, const char *buf, size_t len,
		    struct error *err);
/* The part of an exported tree below the node that path (npath actions
 * from the root) leads to, as an export whose root is that node and whose
 * slots are shift earlier: what a search of the rest of the horizon, once
 * those steps happened, can start from (search_merge() it into the fresh
 * tree before search_run()). -1 when the tree has no such node. */
int		 search_export_subtree(const char *buf, size_t len,
		    const struct action *path, int npath, int shift,
		    char **out, size_t *outlen);

#endif
