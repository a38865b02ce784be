/*
 * run_gen — the generations of a running plan in .fronts/plans/: each a
 * PLAN.json object (so `fronts publish` and `fronts show` read it) with a
 * "run" object beside it saying which generation it is, why it was made,
 * when, and the window it was planned for. Written atomically; a restart
 * reads the newest.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/clock.h"
#include "core/json.h"
#include "core/timeutil.h"
#include "runs/run_int.h"

static char *
run_gen_path(const char *dir, int n)
{
	char name[32], *plans, *path;

	plans = path_join(dir, ".fronts/plans");
	snprintf(name, sizeof name, "%04d.json", n);
	path = path_join(plans, name);
	free(plans);
	return path;
}

int
run_gen_latest(const char *dir)
{
	char *plans = path_join(dir, ".fronts/plans");
	struct dirent *de;
	DIR *d;
	int n, best = 0, len;

	if ((d = opendir(plans)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (sscanf(de->d_name, "%d.json%n", &n, &len) == 1 &&
			    de->d_name[len] == '\0' && n > best)
				best = n;
		closedir(d);
	}
	free(plans);
	return best;
}

static void
run_gen_time(cJSON *o, const char *key, time_t t)
{
	char buf[40];

	time_format_local(t, buf, sizeof buf);
	cJSON_AddStringToObject(o, key, buf);
}

int
run_gen_save(struct run *r, const char *reason, struct error *err)
{
	cJSON *j = plan_to_json(r->p, &r->plan), *o = cJSON_CreateObject();
	char *plans, *path, *s;
	int rc;

	cJSON_AddNumberToObject(o, "generation", r->generation + 1);
	cJSON_AddStringToObject(o, "reason", reason);
	run_gen_time(o, "made_at", clock_now());
	run_gen_time(o, "start", r->p->start);
	cJSON_AddNumberToObject(o, "horizon_slots", r->p->horizon_slots);
	run_gen_time(o, "horizon_end", r->horizon_end);
	cJSON_AddStringToObject(o, "source", r->source);
	cJSON_AddItemToObject(j, "run", o);
	plans = path_join(r->o.dir, ".fronts/plans");
	rc = dir_ensure(plans, err);
	free(plans);
	if (rc == 0) {
		path = run_gen_path(r->o.dir, r->generation + 1);
		s = cJSON_Print(j);
		rc = file_write_atomic(path, s, strlen(s), err);
		free(s);
		free(path);
	}
	cJSON_Delete(j);
	if (rc == 0)
		r->generation++;
	return rc;
}

static int
run_gen_get_time(const cJSON *o, const char *key, const char *path,
    time_t *out, struct error *err)
{
	const char *s = json_str(o, key);

	if (s == NULL || time_parse_iso(s, out) != 0)
		return error_set(err, EXIT_ERROR, "%s: run.%s: missing or not "
		    "an ISO-8601 time", path, key);
	return 0;
}

int
run_gen_load(const char *dir, int n, struct project **p, struct plan *plan,
    char source[40], time_t *horizon_end, struct error *err)
{
	char *path = run_gen_path(dir, n), *data;
	const cJSON *o;
	size_t len;
	cJSON *j = NULL;
	long slots;
	int rc = -1;

	*p = NULL;
	if (file_read(path, &data, &len, err) != 0)
		goto out;
	j = cJSON_ParseWithLength(data, len);
	free(data);
	o = j != NULL ? cJSON_GetObjectItemCaseSensitive(j, "run") : NULL;
	if (!cJSON_IsObject(o)) {
		error_set(err, EXIT_ERROR, "%s: not a plan generation", path);
		goto out;
	}
	if (project_load(dir, p, err) != 0)
		goto out;
	if (run_gen_get_time(o, "start", path, &(*p)->start, err) != 0 ||
	    run_gen_get_time(o, "horizon_end", path, horizon_end, err) != 0)
		goto out;
	if (!json_int_in(cJSON_GetObjectItemCaseSensitive(o, "horizon_slots"),
	    0, 1000000, &slots)) {
		error_set(err, EXIT_ERROR, "%s: run.horizon_slots: not a "
		    "count", path);
		goto out;
	}
	(*p)->horizon_slots = (int)slots;
	(*p)->start_now = false;
	snprintf(source, 40, "%s", json_str(o, "source") != NULL ?
	    json_str(o, "source") : "");
	if (plan_from_json(*p, j, plan, err) != 0) {
		error_wrap(err, "%s", path);
		goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		project_free(*p);
		*p = NULL;
	}
	cJSON_Delete(j);
	free(path);
	return rc;
}
