/*
 * worker_validate — validate_run() on a model inside a fresh sandbox
 * worker (WORKER_JOB_VALIDATE), never in this process. Used by `fronts
 * validate` (process isolation, the default) and by synthesis, which
 * validates candidates nobody has approved yet.
 */
#ifndef FRONTS_WORKER_VALIDATE_H
#define FRONTS_WORKER_VALIDATE_H

#include <stdatomic.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/project.h"
#include "core/util.h"
#include "core/validate.h"

struct worker_validate_job {
	const struct project *p;	/* sizes the report's bound */
	const char	*project_dir;
	const char	*src;		/* the exact bytes to gate and run */
	size_t		 len;
	double		 deadline;	/* seconds; 0: 120 */
	long		 memory_mb;	/* 0: the worker's default */
	int		 call_timeout_ms;	/* 0: 1000 */
	double		 window;	/* backtest window; 0: its default */
	/* Set by another thread: the worker is killed, and the answer is
	 * an error saying so. NULL: never. */
	const atomic_bool *cancel;
};

/* The report as validate_report_json() made it (*report: the caller's).
 * Every way the worker can die is err (EXIT_MODEL), as worker_poll says. */
int	worker_validate(const struct worker_validate_job *, cJSON **report,
	    struct error *err);

/* The same, read back into *out (every backtest figure recomputed from
 * p, which must be the project the job names). */
int	worker_validate_report(const struct worker_validate_job *,
	    const struct project *p, struct validate_report *out,
	    struct error *err);

#endif
