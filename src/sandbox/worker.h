/*
 * worker — the process boundary. The parent re-executes fronts in worker
 * mode (`fronts __worker`), sends it one job over a pipe, and reads framed
 * progress snapshots and one result back. The worker gates and loads the
 * model, then drops privileges (rlimits, no_new_privs, seccomp) before the
 * first model call; the whole search loop runs inside it.
 */
#ifndef FRONTS_WORKER_H
#define FRONTS_WORKER_H

#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/search.h"
#include "core/util.h"

enum worker_job_kind {
	WORKER_JOB_PLAN,	/* search_run(); result: search_export() bytes */
	WORKER_JOB_VALIDATE,	/* validate_run(); result: the report as JSON;
				 * params.iterations: rollouts (0 default),
				 * params.seconds: backtest window (0 default) */
	WORKER_JOB_ROLLOUT	/* random rollouts, no tree; result: JSON stats */
};

struct worker_job {
	enum worker_job_kind	 kind;
	const char		*project_dir;
	const char		*model_src;	/* exact bytes to gate and run */
	size_t			 model_len;
	struct search_params	 params;	/* this worker's share */
	int			 index;		/* seed offset among workers */
	double			 deadline;	/* seconds of wall time; 0: none */
	long			 memory_mb;	/* address-space limit; 0: default */
	time_t			 now;		/* the parent's clock (set by the
						 * wire; read by the worker) */
	size_t			 result_max;	/* VALIDATE: worker_report_max() */
	/* The plan's window when the parent's differs from fronts.json's
	 * (a re-plan of the rest of the horizon); 0: the project's own. */
	time_t			 start;
	int			 horizon_slots;
};

/* The most bytes a VALIDATE report for p can need (p NULL: a project
 * without history). */
size_t	worker_report_max(const struct project *p);

enum worker_event {
	WORKER_EVENT_NONE,	/* nothing within the timeout */
	WORKER_EVENT_SNAPSHOT,	/* *snap updated */
	WORKER_EVENT_RESULT	/* *result (malloc'd, *rlen bytes) is the result */
};

struct worker;

/* The worker dies with the thread that spawned it (PR_SET_PDEATHSIG): that
 * thread must outlive it (poll it to the end, or worker_free it). */
int	worker_spawn(const struct worker_job *, struct worker **out,
	    struct error *err);
/* Waits up to timeout_ms for the next frame. Returns an enum worker_event,
 * or -1 when the worker died or misbehaved: err (code EXIT_MODEL) says how,
 * in the operator's words (timeout, memory limit, seccomp with the syscall,
 * signal, malformed output). */
int	worker_poll(struct worker *, int timeout_ms,
	    struct search_snapshot *snap, char **result, size_t *rlen,
	    struct error *err);
/* Asks a PLAN worker to stop searching: its search ends and the tree so
 * far comes back as the usual result. One that sends nothing within
 * grace_s seconds (inside a call it cannot leave) is killed, and
 * worker_poll() fails saying it did not answer the stop. */
void	worker_cancel(struct worker *, double grace_s);
void	worker_kill(struct worker *);
void	worker_free(struct worker *);
/* The layers the worker put up before the model's first line, from its
 * ready frame; NULL before that frame. */
struct lockdown;
const struct lockdown *worker_lockdown(const struct worker *);	/* kills and reaps if still running */

/* The binary to re-execute (default: self_exe_path()); for tests whose
 * own binary is not fronts. */
void	worker_set_binary(const char *path);

/* The child side: `fronts __worker` dispatches here. */
int	worker_main(int argc, char **argv);

#endif
