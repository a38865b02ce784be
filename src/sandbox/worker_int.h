/*
 * worker_int — what the two sides of the worker boundary share
 * (worker_parent.c, worker_child.c, worker_wire.c): where the pipes sit in
 * the child, the stop signal, and the job's encoding.
 */
#ifndef FRONTS_WORKER_INT_H
#define FRONTS_WORKER_INT_H

#include <signal.h>

#include <cjson/cJSON.h>

#include "sandbox/worker.h"

#define WORKER_FD_IN		3	/* the job and the model's bytes */
#define WORKER_FD_OUT		4	/* frames back to the parent */
#define WORKER_DEFAULT_MB	2048
#define WORKER_STOP_SIGNAL	SIGUSR1

/* The job frame's JSON (caller deletes). */
cJSON	*worker_job_json(const struct worker_job *);
/* Reads a job frame into *job; *dir owns the project path job points to. */
int	 worker_job_parse(const char *text, struct worker_job *job, char **dir,
	    struct error *err);

#endif
