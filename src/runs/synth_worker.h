/*
 * synth_worker — validation of an unapproved candidate inside the sandbox
 * worker process (WORKER_JOB_VALIDATE), never in this process: synthesis
 * is the one place fronts runs code nobody has approved yet.
 */
#ifndef FRONTS_SYNTH_WORKER_H
#define FRONTS_SYNTH_WORKER_H

#include "runs/synth.h"

struct synth_worker {
	const char	*project_dir;
	double		 deadline;	/* seconds per candidate; 0: 120 */
	long		 memory_mb;	/* 0: the worker's default */
	const atomic_bool *cancel;	/* NULL: never stopped */
};

/* A synth_validate_fn; arg is a struct synth_worker. */
int	synth_worker_validate(void *arg, const struct project *,
	    const char *src, size_t len, cJSON **report, char **text,
	    struct error *err);

#endif
