/*
 * cmd_check — `fronts check [-C DIR] [--json]`: proves the set-up before
 * anything is sent. For the language-model provider and for every front
 * it says which credential variable is read and whether it is set (never
 * the value), and makes read-only calls that need the credential; each
 * line passes or fails with what to do. Nothing is posted, and nothing is
 * written but the Mastodon limits cache. Exits 0 only when every check
 * passes, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/project.h"
#include "core/termsafe.h"
#include "net/check.h"

static void
check_print(const struct check_target *t, bool provider)
{
	int i;

	/* Details quote servers and fronts.json: shown made safe. */
	termsafe_fprintf(stdout, "%s %s (%s)\n", provider ? "provider" :
	    "front", provider ? t->what : t->id, provider ? "language model" :
	    t->what);
	for (i = 0; i < t->nsteps; i++) {
		termsafe_fprintf(stdout, "  %s  %s\n", t->steps[i].ok ? "PASS" :
		    "FAIL", t->steps[i].detail);
		if (t->steps[i].fix != NULL)
			printf("        to do: %s\n", t->steps[i].fix);
	}
}

static int
cmd_check_exec(struct cli *cli, struct args *a)
{
	struct project *p = NULL;
	struct check_target *t;
	struct error err = { 0 };
	cJSON *out, *fronts;
	char *s;
	bool json = args_has(a, "json"), ok = true;
	int i, n, failed = 0;

	if (project_load(cli->dir, &p, &err) != 0)
		return cli_report("check", &err);
	n = p->nfronts + 1;
	t = xcalloc((size_t)n, sizeof *t);
	check_provider(p, &t[0]);
	for (i = 0; i < p->nfronts; i++)
		check_front(p, &p->fronts[i], &t[i + 1]);
	for (i = 0; i < n; i++)
		if (!check_target_ok(&t[i])) {
			ok = false;
			failed++;
		}
	if (json) {
		out = cJSON_CreateObject();
		cJSON_AddBoolToObject(out, "ok", ok);
		cJSON_AddItemToObject(out, "provider", check_target_json(&t[0]));
		fronts = cJSON_AddArrayToObject(out, "fronts");
		for (i = 1; i < n; i++)
			cJSON_AddItemToArray(fronts, check_target_json(&t[i]));
		s = cJSON_Print(out);
		termsafe_json_puts(s, stdout);
		free(s);
		cJSON_Delete(out);
	} else {
		for (i = 0; i < n; i++)
			check_print(&t[i], i == 0);
		if (ok)
			printf("\nall checks pass: the provider and %d front%s "
			    "are ready\n", p->nfronts, p->nfronts == 1 ? "" : "s");
		else
			printf("\n%d of %d failing: fix each FAIL above, then run "
			    "`fronts check` again\n", failed, n);
	}
	for (i = 0; i < n; i++)
		check_target_free(&t[i]);
	free(t);
	project_free(p);
	return ok ? EXIT_OK : EXIT_ERROR;
}

const struct cmd_entry cmd_check_entry = {
	.name = "check",
	.summary = "prove credentials and platform limits before a live run (read-only)",
	.usage = "[-C DIR] [--json]",
	.options = (const struct args_option[]){
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.exec = cmd_check_exec,
};
