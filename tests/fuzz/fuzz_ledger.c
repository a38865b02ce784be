/*
 * fuzz_ledger — libFuzzer harness for the two files a publisher trusts:
 * the first byte picks .fronts/ledger.jsonl (even) or a PLAN.json (odd),
 * the rest is that file. The ledger must read back with every problem
 * named by line, never crash; the plan must load within the project's
 * bounds or fail with a message.
 */
#include <errno.h>
#include <sys/stat.h>

#include "fuzz_project_common.h"
#include "core/ledger.h"
#include "core/plan.h"

static struct project *fuzz_proj;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err = { 0 };
	char path[128];

	fuzz_setup();
	fuzz_load();		/* the scratch project is a valid one */
	snprintf(path, sizeof path, "%s/.fronts", fuzz_dir);
	if ((mkdir(path, 0700) != 0 && errno != EEXIST) ||
	    project_load(fuzz_dir, &fuzz_proj, &err) != 0) {
		fprintf(stderr, "fuzz_ledger: %s\n", err.msg);
		abort();
	}
	return 0;
}

static void
fuzz_ledger(const unsigned char *data, size_t len)
{
	struct error err = { 0 };
	struct ledger l;
	int i;

	fuzz_put(".fronts/ledger.jsonl", data, len);
	if (ledger_open(fuzz_dir, &l, &err) != 0)
		abort();	/* damage is a problem, not a failed read */
	for (i = 0; i < l.nproblems; i++)
		if (strstr(l.problems[i], "ledger.jsonl:") == NULL)
			abort();
	for (i = 0; i < l.nentries; i++)
		if (l.entries[i].front == NULL || l.entries[i].draft == NULL)
			abort();
	ledger_free(&l);
}

static void
fuzz_plan(const unsigned char *data, size_t len)
{
	struct error err = { 0 };
	struct plan pl;
	char warn[512];
	cJSON *j = cJSON_ParseWithLength((const char *)data, len);

	if (j == NULL)
		return;
	if (plan_from_json(fuzz_proj, j, &pl, &err) != 0) {
		if (err.msg[0] == '\0')
			abort();
	} else {
		if (pl.nposts > fuzz_proj->horizon_slots * fuzz_proj->nfronts)
			abort();
		plan_identity_check(fuzz_proj, &pl, warn, sizeof warn, &err);
		plan_free(&pl);
	}
	cJSON_Delete(j);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	if (len == 0)
		return 0;
	if (data[0] % 2 == 0)
		fuzz_ledger(data + 1, len - 1);
	else
		fuzz_plan(data + 1, len - 1);
	return 0;
}
