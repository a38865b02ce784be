/*
 * fuzz_project_common — shared by the project loader harnesses: a scratch
 * project directory made once per process, files written into it, and a
 * load that must either succeed with a well-formed project or fail with a
 * message, never crash or leak.
 */
#ifndef FUZZ_PROJECT_COMMON_H
#define FUZZ_PROJECT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/project.h"

static char fuzz_dir[] = "/tmp/fronts-fuzz-XXXXXX";

static const char fuzz_fronts[] =
    "{\"name\": \"f\", \"timezone\": \"Europe/Berlin\", "
    "\"start\": \"2026-12-01T08:00:00Z\", \"slot_minutes\": 60, "
    "\"horizon_slots\": 24, \"fronts\": ["
    "{\"id\": \"x\", \"platform\": \"x\", \"limits\": {\"quiet_hours\": [23, 7]}},"
    "{\"id\": \"m\", \"platform\": \"mastodon\"}]}";

static void
fuzz_put(const char *name, const void *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", fuzz_dir, name);
	if ((f = fopen(path, "wb")) == NULL)
		abort();
	if (len > 0 && fwrite(data, 1, len, f) != len)
		abort();
	fclose(f);
}

static void
fuzz_setup(void)
{
	if (mkdtemp(fuzz_dir) == NULL)
		abort();
	fuzz_put("fronts.json", fuzz_fronts, strlen(fuzz_fronts));
	fuzz_put("rules.md", "# rules\n", 8);
	fuzz_put("history.jsonl", "", 0);
	fuzz_put("drafts.jsonl", "{\"id\":\"d1\",\"text\":\"hi\"}\n", 24);
}

static inline void
fuzz_load(void)
{
	struct error err = { 0 };
	struct project *p = NULL;
	cJSON *ctx;
	char *s;
	int i, j;

	if (project_load(fuzz_dir, &p, &err) != 0) {
		if (p != NULL || err.msg[0] == '\0')
			abort();	/* a failure leaves nothing and says why */
		return;
	}
	for (i = 0; i < p->ndrafts; i++) {
		if (p->drafts[i].front_mask == 0 ||
		    project_draft_index(p, p->drafts[i].id) > i ||
		    p->drafts[i].body.nparts < 1 ||
		    strcmp(p->drafts[i].text, p->drafts[i].body.parts[0].text) != 0)
			abort();
		for (j = 0; j < p->nfronts; j++)
			if (project_draft_body(p, i, j)->nparts < 1)
				abort();
	}
	for (i = 0; i < p->nhistory; i++)
		if (p->history[i].front < 0 || p->history[i].front >= p->nfronts)
			abort();
	ctx = project_ctx_json(p);
	s = cJSON_PrintUnformatted(ctx);
	free(s);
	cJSON_Delete(ctx);
	project_free(p);
}

#endif
