/*
 * rollout — random rollouts through struct model_ops, with no tree: from
 * sample_hidden(), actions are drawn uniformly from what legal_actions()
 * returns (plus ("wait",), always legal) until the horizon or
 * is_terminal(). It exercises a model exactly as the planner's rollouts
 * do, so it serves as the sandbox worker's ROLLOUT job and as the
 * benchmark of a model call inside and outside the worker.
 */
#ifndef FRONTS_ROLLOUT_H
#define FRONTS_ROLLOUT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/model.h"
#include "core/project.h"
#include "core/util.h"

struct rollout_params {
	uint64_t	rollouts;	/* 0: until seconds */
	double		seconds;	/* 0 with rollouts 0: one rollout */
	uint64_t	seed;
};

struct rollout_stats {
	uint64_t	rollouts;
	uint64_t	steps;
	uint64_t	posts;
	uint64_t	model_calls;
	uint64_t	illegal_proposals;
	double		mean_return;
	double		seconds;
};

typedef void	rollout_progress_fn(void *arg, const struct rollout_stats *);

/* Runs the rollouts. A model error ends the run: -1 with err (EXIT_MODEL)
 * naming the exception, function and model line. progress (may be NULL)
 * is called about every interval seconds. */
int	rollout_run(const struct project *p, const struct model_ops *ops,
	    void *model, const struct rollout_params *rp,
	    rollout_progress_fn *progress, void *arg, double interval,
	    struct rollout_stats *out, struct error *err);

cJSON	*rollout_stats_json(const struct rollout_stats *);
int	 rollout_stats_from_json(const cJSON *, struct rollout_stats *,
	    struct error *err);

#endif
