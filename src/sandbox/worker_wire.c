/*
 * worker_wire — the job as it crosses the pipe: one JSON object in a
 * FRAME_JOB frame, followed by the model's exact bytes in a FRAME_MODEL
 * frame (frame.h has the framing; worker_parent.c and worker_child.c send
 * and read them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "sandbox/worker_int.h"

cJSON *
worker_job_json(const struct worker_job *job)
{
	cJSON *j = cJSON_CreateObject(), *p = cJSON_CreateObject();
	char seed[24];

	cJSON_AddNumberToObject(j, "kind", job->kind);
	cJSON_AddStringToObject(j, "project_dir", job->project_dir);
	cJSON_AddNumberToObject(j, "index", job->index);
	cJSON_AddNumberToObject(j, "deadline", job->deadline);
	cJSON_AddNumberToObject(j, "memory_mb", (double)job->memory_mb);
	/* The parent's clock: the worker's "now" (a plan starting "now"). */
	cJSON_AddNumberToObject(j, "now", (double)clock_now());
	cJSON_AddNumberToObject(j, "start", (double)job->start);
	cJSON_AddNumberToObject(j, "horizon_slots", job->horizon_slots);
	cJSON_AddNumberToObject(p, "iterations", (double)job->params.iterations);
	cJSON_AddNumberToObject(p, "seconds", job->params.seconds);
	/* Seeds travel as text: a double cannot hold every uint64_t. */
	snprintf(seed, sizeof seed, "%llu",
	    (unsigned long long)job->params.seed);
	cJSON_AddStringToObject(p, "seed", seed);
	cJSON_AddNumberToObject(p, "workers", job->params.workers);
	cJSON_AddNumberToObject(p, "isolation", job->params.isolation);
	cJSON_AddNumberToObject(p, "call_timeout_ms",
	    job->params.call_timeout_ms);
	cJSON_AddNumberToObject(p, "uct_c", job->params.uct_c);
	cJSON_AddItemToObject(j, "params", p);
	return j;
}

int
worker_job_parse(const char *text, struct worker_job *job, char **dir,
    struct error *err)
{
	const char *d, *seed;
	const cJSON *p;
	cJSON *j;

	memset(job, 0, sizeof *job);
	if ((j = cJSON_Parse(text)) == NULL)
		return error_set(err, EXIT_ERROR, "malformed job");
	d = json_str(j, "project_dir");
	p = cJSON_GetObjectItemCaseSensitive(j, "params");
	seed = json_str(p, "seed");
	if (d == NULL || !cJSON_IsObject(p) || seed == NULL) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "malformed job");
	}
	job->kind = (enum worker_job_kind)json_num_or(j, "kind", 0);
	*dir = xstrdup(d);
	job->project_dir = *dir;
	job->index = (int)json_num_or(j, "index", 0);
	job->deadline = json_num_or(j, "deadline", 0);
	job->memory_mb = (long)json_num_or(j, "memory_mb", 0);
	job->now = (time_t)json_num_or(j, "now", 0);
	job->start = (time_t)json_num_or(j, "start", 0);
	job->horizon_slots = (int)json_num_or(j, "horizon_slots", 0);
	job->params.iterations = (uint64_t)json_num_or(p, "iterations", 0);
	job->params.seconds = json_num_or(p, "seconds", 0);
	job->params.seed = strtoull(seed, NULL, 10);
	job->params.workers = (int)json_num_or(p, "workers", 0);
	job->params.isolation = (enum isolation)json_num_or(p, "isolation", 0);
	job->params.call_timeout_ms = (int)json_num_or(p, "call_timeout_ms",
	    0);
	job->params.uct_c = json_num_or(p, "uct_c", 0);
	cJSON_Delete(j);
	return 0;
}
