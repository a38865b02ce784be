/*
 * bench_plan — loading a plan (`fronts publish`, the TUI's `:open`) at
 * 2,000, 20,000 and 200,000 posts on a project that can hold them (30,000
 * hourly slots × 20 fronts): the time per post should stay flat, since
 * the plan's id is one pass over its posts (`make bench`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/plan.h"
#include "../tests/unit/fixture_project.h"

static double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static cJSON *
bench_plan_json(const struct project *p, int n)
{
	cJSON *o = cJSON_CreateObject(), *arr, *e;
	int i;

	arr = cJSON_AddArrayToObject(o, "plan");
	for (i = 0; i < n; i++) {
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "slot", i % p->horizon_slots);
		cJSON_AddStringToObject(e, "front", p->fronts[i % p->nfronts].id);
		cJSON_AddStringToObject(e, "draft", p->drafts[i % p->ndrafts].id);
		cJSON_AddStringToObject(e, "text", p->drafts[i % p->ndrafts].text);
		cJSON_AddItemToArray(arr, e);
	}
	return o;
}

int
main(void)
{
	static const int sizes[] = { 2000, 20000, 200000 };
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 30000,
	    20, 5);
	struct error err = { 0 };
	struct plan pl;
	double t;
	size_t i;
	cJSON *j;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		j = bench_plan_json(p, sizes[i]);
		t = cpu_seconds();
		if (plan_from_json(p, j, &pl, &err) != 0) {
			fprintf(stderr, "bench_plan: %s\n", err.msg);
			return 1;
		}
		t = cpu_seconds() - t;
		printf("plan load %7d posts: %.3f s, %.2f us/post\n", sizes[i],
		    t, t / sizes[i] * 1e6);
		plan_free(&pl);
		cJSON_Delete(j);
	}
	fx_free(p);
	return 0;
}
