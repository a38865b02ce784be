/*
 * worker_validate — one VALIDATE job in a fresh worker (see
 * worker_validate.h). The worker gates the source again and locks itself
 * down before the model's first line; it is killed at the deadline.
 */
#include <stdlib.h>
#include <string.h>

#include "sandbox/worker.h"
#include "runs/worker_validate.h"

#define WV_DEADLINE	120.0
#define WV_CALL_MS	1000

int
worker_validate(const struct worker_validate_job *vj, cJSON **report,
    struct error *err)
{
	struct worker_job job;
	struct search_snapshot snap;
	struct worker *w;
	char *result = NULL;
	size_t rlen = 0;
	int ev;

	*report = NULL;
	memset(&job, 0, sizeof job);
	job.kind = WORKER_JOB_VALIDATE;
	job.project_dir = vj->project_dir;
	job.model_src = vj->src;
	job.model_len = vj->len;
	job.params.seed = 1;
	job.params.workers = 1;
	job.params.seconds = vj->window;
	job.params.call_timeout_ms = vj->call_timeout_ms > 0 ?
	    vj->call_timeout_ms : WV_CALL_MS;
	job.deadline = vj->deadline > 0 ? vj->deadline : WV_DEADLINE;
	job.memory_mb = vj->memory_mb;
	job.result_max = worker_report_max(vj->p);
	if (worker_spawn(&job, &w, err) != 0)
		return -1;
	do {
		if (vj->cancel != NULL && atomic_load(vj->cancel)) {
			worker_free(w);
			return error_set(err, EXIT_ERROR, "the validation was "
			    "stopped");
		}
		memset(&snap, 0, sizeof snap);
		ev = worker_poll(w, vj->cancel != NULL ? 100 : 1000, &snap,
		    &result, &rlen, err);
	} while (ev == WORKER_EVENT_NONE || ev == WORKER_EVENT_SNAPSHOT);
	worker_free(w);
	if (ev != WORKER_EVENT_RESULT)
		return -1;
	*report = cJSON_ParseWithLength(result, rlen);
	free(result);
	if (*report == NULL)
		return error_set(err, EXIT_MODEL, "the worker's validation "
		    "report is not valid JSON");
	return 0;
}

int
worker_validate_report(const struct worker_validate_job *vj,
    const struct project *p, struct validate_report *out, struct error *err)
{
	cJSON *j;
	int rc;

	memset(out, 0, sizeof *out);
	if (worker_validate(vj, &j, err) != 0)
		return -1;
	rc = validate_report_from_json(p, j, out, err);
	cJSON_Delete(j);
	return rc;
}
