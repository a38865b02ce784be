/*
 * synth_worker — runs validate_run() on a candidate in a fresh sandbox
 * worker and brings the report back as JSON. The worker gates the source
 * again, drops privileges before the first model call, and is killed at
 * the deadline; every way it can die becomes err.
 */
#include <stdlib.h>
#include <string.h>

#include "core/validate.h"
#include "net/synth_worker.h"
#include "sandbox/worker.h"

#define SYNTH_WORKER_DEADLINE	120.0

int
synth_worker_validate(void *arg, const struct project *p, const char *src,
    size_t len, cJSON **report, char **text, struct error *err)
{
	const struct synth_worker *sw = arg;
	struct worker_job job;
	struct worker *w;
	struct search_snapshot snap;
	struct validate_report rep;
	char *result = NULL;
	size_t rlen = 0;
	int ev;

	memset(&job, 0, sizeof job);
	job.kind = WORKER_JOB_VALIDATE;
	job.project_dir = sw->project_dir;
	job.model_src = src;
	job.model_len = len;
	job.params.seed = 1;
	job.params.workers = 1;
	job.params.call_timeout_ms = 1000;
	job.deadline = sw->deadline > 0 ? sw->deadline : SYNTH_WORKER_DEADLINE;
	job.memory_mb = sw->memory_mb;
	if (worker_spawn(&job, &w, err) != 0)
		return -1;
	do {
		memset(&snap, 0, sizeof snap);
		ev = worker_poll(w, 1000, &snap, &result, &rlen, err);
	} while (ev == WORKER_EVENT_NONE || ev == WORKER_EVENT_SNAPSHOT);
	worker_free(w);
	if (ev != WORKER_EVENT_RESULT)
		return -1;
	*report = cJSON_ParseWithLength(result, rlen);
	free(result);
	if (*report == NULL)
		return error_set(err, EXIT_MODEL, "the worker's validation "
		    "report is not valid JSON");
	if (validate_report_from_json(p, *report, &rep, err) != 0) {
		cJSON_Delete(*report);
		*report = NULL;
		return -1;
	}
	*text = validate_report_text(p, &rep);
	validate_report_free(&rep);
	return 0;
}
