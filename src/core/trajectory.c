/*
 * trajectory — writes the record of a planning run (see trajectory.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/statedir.h"
#include "core/trajectory.h"

static cJSON *
trajectory_params(const struct project *p, const struct trajectory *t)
{
	const struct search_params *sp = t->params;
	cJSON *o = cJSON_CreateObject();
	char seed[24];

	cJSON_AddStringToObject(o, "record", "parameters");
	cJSON_AddStringToObject(o, "project", p->name);
	cJSON_AddStringToObject(o, "model", t->model_path);
	cJSON_AddStringToObject(o, "model_sha256", t->model_sha256);
	cJSON_AddNumberToObject(o, "iterations", (double)sp->iterations);
	cJSON_AddNumberToObject(o, "seconds", sp->seconds);
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)sp->seed);
	cJSON_AddStringToObject(o, "seed", seed);
	cJSON_AddNumberToObject(o, "workers", sp->workers);
	cJSON_AddStringToObject(o, "isolation",
	    sp->isolation == ISOLATION_THREAD ? "thread" : "process");
	cJSON_AddNumberToObject(o, "call_timeout_ms", sp->call_timeout_ms);
	cJSON_AddNumberToObject(o, "horizon_slots", p->horizon_slots);
	cJSON_AddNumberToObject(o, "slot_minutes", p->slot_minutes);
	return o;
}

static cJSON *
trajectory_stats(const struct trajectory *t)
{
	cJSON *o = cJSON_CreateObject(), *arr, *e;
	int i;

	cJSON_AddStringToObject(o, "record", "outcome");
	cJSON_AddNumberToObject(o, "model_errors",
	    (double)t->plan->stats.model_errors);
	arr = cJSON_AddArrayToObject(o, "errors");
	for (i = 0; i < t->nerrors; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "type", t->errors[i].type);
		cJSON_AddStringToObject(e, "message", t->errors[i].message);
		cJSON_AddNumberToObject(e, "line", t->errors[i].line);
		cJSON_AddStringToObject(e, "function", t->errors[i].function);
		cJSON_AddItemToArray(arr, e);
	}
	arr = cJSON_AddArrayToObject(o, "dropped");
	for (i = 0; i < t->ndropped; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(t->dropped[i]));
	return o;
}

/* Appends one object as one line to *buf. */
static void
trajectory_line(char **buf, cJSON *o)
{
	char *s = cJSON_PrintUnformatted(o), *next;

	xasprintf(&next, "%s%s\n", *buf, s);
	free(*buf);
	free(s);
	*buf = next;
	cJSON_Delete(o);
}

int
trajectory_write(const struct project *p, const struct trajectory *t,
    char **path_out, struct error *err)
{
	char *dir, *path, *name, *buf = xstrdup(""), stamp[32];
	cJSON *plan;
	struct tm tm;
	time_t now = clock_now();
	int rc;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	xasprintf(&name, "trajectories/%s-%llu.jsonl", stamp,
	    (unsigned long long)t->params->seed);
	dir = path_join(p->dir, ".fronts");
	path = path_join(dir, name);
	trajectory_line(&buf, trajectory_params(p, t));
	plan = plan_to_json(p, t->plan);
	cJSON_AddStringToObject(plan, "record", "plan");
	trajectory_line(&buf, plan);
	trajectory_line(&buf, trajectory_stats(t));
	rc = statedir_write(p->dir, name, buf, strlen(buf), err);
	if (rc == 0 && path_out != NULL)
		*path_out = path;
	else
		free(path);
	free(buf);
	free(name);
	free(dir);
	return rc;
}
