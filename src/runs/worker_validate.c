/*
 * worker_validate — one VALIDATE job in a fresh worker (see
 * worker_validate.h). The worker gates the source again and locks itself
 * down before the model's first line; it is killed at the deadline.
 */
#include <stdlib.h>
#include <string.h>

#include "core/backtest.h"
#include "sandbox/worker.h"
#include "runs/worker_validate.h"

#define WV_DEADLINE	120.0
#define WV_CALL_MS	1000

/*
 * The longest report validate_report_json() can make for p: the checks
 * (at most WV_CHECKS, each a name, a function and a message of struct
 * validate_check, every byte escaped at worst as six), the backtest's
 * fixed figures, one entry per history post (its id twice: entries and
 * the worst list), and the grid. A number prints in at most 26 bytes.
 */
#define WV_CHECKS	64
#define WV_CHECK_MAX	(6 * (48 + 32 + 512) + 256)
#define WV_ENTRY_MAX	512
#define WV_FIXED	65536

static size_t
wv_report_max(const struct project *p)
{
	size_t n = WV_FIXED + WV_CHECKS * WV_CHECK_MAX;
	int i;

	for (i = 0; p != NULL && i < p->nhistory; i++)
		n += WV_ENTRY_MAX + 2 * 6 * strlen(p->history[i].id);
	if (p != NULL)
		n += (size_t)p->nfronts * BACKTEST_CELLS * 32;
	return n;
}

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
	job.result_max = wv_report_max(vj->p);
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
