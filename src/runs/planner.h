/*
 * planner — drives a whole plan: runs the search in N sandbox worker
 * processes (or in this process with --isolation thread) from a background
 * thread, merges their trees, and builds the plan, every post of which is
 * re-checked by this process's own legality engine.
 *
 * Used by `fronts plan` and by the TUI; planner_snapshot() is the
 * thread-safe view the TUI polls.
 */
#ifndef FRONTS_PLANNER_H
#define FRONTS_PLANNER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/plan.h"
#include "core/project.h"
#include "core/search.h"
#include "core/util.h"

struct planner;

/* Starts planning in a background thread and returns at once. model_src is
 * the approved model's exact bytes (copied). */
int	planner_start(const struct project *p, const char *model_src,
	    size_t model_len, const struct search_params *params,
	    struct planner **out, struct error *err);
/* As planner_start(), from a tree of an earlier search of this window
 * (search_export_subtree()): the search goes on from its statistics. */
int	planner_start_from(const struct project *p, const char *model_src,
	    size_t model_len, const struct search_params *params,
	    const char *prior, size_t prior_len, struct planner **out,
	    struct error *err);
/* After planner_wait(): the merged tree, for a later re-plan. */
int	planner_export(struct planner *, char **buf, size_t *len);
void	planner_snapshot(struct planner *, struct search_snapshot *);
void	planner_stop(struct planner *);
/* False once the plan (or the error) is ready for planner_wait(). */
bool	planner_running(struct planner *);		/* any thread; returns at once */
/* Waits for the end; fills the plan (even after a stop) or the error. */
int	planner_wait(struct planner *, struct plan *out, struct error *err);
void	planner_free(struct planner *);

/* After planner_wait(): the plan's steps the legality re-check refused, as
 * sentences (borrowed), and the first distinct model errors. */
int	planner_dropped(struct planner *, char *const **out);
int	planner_errors(struct planner *, struct model_error *out, int max);
/* After planner_wait(): how the search ended where the plan should be read
 * with it, as sentences (borrowed): workers whose trees were lost to a
 * stop they did not answer. */
int	planner_notes(struct planner *, char *const **out);
/* The sha256 of the model's bytes (borrowed). */
const char *planner_model_sha256(struct planner *);

#endif
