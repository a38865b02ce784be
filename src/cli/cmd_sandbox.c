/*
 * cmd_sandbox — `fronts sandbox [-C DIR] [--json]`: starts one worker on
 * the project with a probe model of fronts' own (never the project's
 * model, so nothing needs approving) and lists, layer by layer, what the
 * worker could put up on this machine before a model's first line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/project.h"
#include "sandbox/lockdown.h"
#include "sandbox/pyhost.h"
#include "sandbox/worker.h"

static const char sandbox_probe[] =
	"def initial_state(ctx):\n"
	"    return 0\n"
	"\n"
	"\n"
	"def legal_actions(state):\n"
	"    return [(\"wait\",)]\n"
	"\n"
	"\n"
	"def apply(state, action, rng):\n"
	"    return state + 1, 0.0\n"
	"\n"
	"\n"
	"def is_terminal(state):\n"
	"    return state >= 1\n";

/* One probe job to its end; *ld is what its ready frame reported. */
static int
sandbox_probe_worker(const char *dir, struct lockdown *ld, struct error *err)
{
	struct worker_job job;
	struct search_snapshot snap;
	const struct lockdown *got;
	struct worker *w;
	char *result = NULL;
	size_t rlen;
	int ev;

	memset(&job, 0, sizeof job);
	job.kind = WORKER_JOB_ROLLOUT;
	job.project_dir = dir;
	job.model_src = sandbox_probe;
	job.model_len = sizeof sandbox_probe - 1;
	job.params.iterations = 1;
	job.params.workers = 1;
	job.params.call_timeout_ms = 1000;
	job.deadline = 30;
	if (worker_spawn(&job, &w, err) != 0)
		return -1;
	do {
		ev = worker_poll(w, 1000, &snap, &result, &rlen, err);
	} while (ev == WORKER_EVENT_NONE || ev == WORKER_EVENT_SNAPSHOT);
	free(result);
	if (ev == WORKER_EVENT_RESULT && (got = worker_lockdown(w)) != NULL)
		*ld = *got;
	else if (ev == WORKER_EVENT_RESULT)
		error_set(err, EXIT_ERROR, "the worker sent no ready frame");
	worker_free(w);
	return ev == WORKER_EVENT_RESULT && err->code == 0 ? 0 : -1;
}

static int
cmd_sandbox_exec(struct cli *cli, struct args *a)
{
	struct project *p = NULL;
	struct error err = { 0 };
	struct lockdown ld;
	const char *dir;
	char *s;
	cJSON *j;
	bool json = args_has(a, "json");

	dir = cli->dir;
	/* The worker loads the project too; a bad one is reported here. */
	if (project_load(dir, &p, &err) != 0 ||
	    sandbox_probe_worker(dir, &ld, &err) != 0) {
		project_free(p);
		return cli_report("sandbox", &err);
	}
	project_free(p);
	if (json) {
		j = lockdown_json(&ld);
		cJSON_AddStringToObject(j, "libpython", pyhost_version());
		s = cJSON_Print(j);
		printf("%s\n", s);
		free(s);
		cJSON_Delete(j);
		return EXIT_OK;
	}
	printf("the worker's layers on this machine, in the order they go "
	    "up before a model's first line:\n");
	lockdown_print(&ld, stdout);
	printf("libpython %s\n", pyhost_version());
	return EXIT_OK;
}

const struct cmd_entry cmd_sandbox_entry = {
	.name = "sandbox",
	.summary = "list the worker's sandbox layers on this machine",
	.usage = "[-C DIR] [--json]",
	.options = (const struct args_option[]){
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.exec = cmd_sandbox_exec,
};
