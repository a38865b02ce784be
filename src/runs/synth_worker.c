/*
 * synth_worker — runs validate_run() on a candidate in a fresh sandbox
 * worker and brings the report back as JSON. The worker gates the source
 * again, drops privileges before the first model call, and is killed at
 * the deadline; every way it can die becomes err.
 */
#include <stdlib.h>

#include "core/validate.h"
#include "runs/synth_worker.h"
#include "runs/worker_validate.h"

int
synth_worker_validate(void *arg, const struct project *p, const char *src,
    size_t len, cJSON **report, char **text, struct error *err)
{
	const struct synth_worker *sw = arg;
	struct worker_validate_job vj = {
		.p = p,
		.project_dir = sw->project_dir,
		.src = src,
		.len = len,
		.deadline = sw->deadline,
		.memory_mb = sw->memory_mb,
		.cancel = sw->cancel
	};
	struct validate_report rep;

	if (worker_validate(&vj, report, err) != 0)
		return -1;
	if (validate_report_from_json(p, *report, &rep, err) != 0) {
		cJSON_Delete(*report);
		*report = NULL;
		return -1;
	}
	*text = validate_report_text(p, &rep);
	validate_report_free(&rep);
	return 0;
}
