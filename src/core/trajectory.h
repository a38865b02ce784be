/*
 * trajectory — the record of one planning run, kept in
 * DIR/.fronts/trajectories/<UTC time>-<seed>.jsonl: one JSON object per
 * line (the run's parameters with the model's sha256, the plan, the
 * statistics with the first model errors and any post the re-check
 * dropped). It holds no key, token or header of any kind.
 */
#ifndef FRONTS_TRAJECTORY_H
#define FRONTS_TRAJECTORY_H

#include "core/plan.h"
#include "core/project.h"
#include "core/search.h"
#include "core/util.h"

struct trajectory {
	const struct search_params	*params;
	const char			*model_path;
	const char			*model_sha256;
	const struct plan		*plan;
	const struct model_error	*errors;
	int				 nerrors;
	char *const			*dropped;
	int				 ndropped;
};

/* Writes the record atomically; *path_out (may be NULL) gets its path. */
int	trajectory_write(const struct project *p, const struct trajectory *t,
	    char **path_out, struct error *err);

#endif
