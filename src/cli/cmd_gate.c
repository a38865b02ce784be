/*
 * cmd_gate — `fronts gate FILE [--json]`: runs the AST gate over a model
 * file and prints its verdicts (one `FILE:LINE:COL: rule: message` line
 * each, the first GATE_VERDICTS_MAX, then how many more) or docs/DESIGN.md's
 * JSON object. Exit 0 accepted, 3 refused, 1 when the file cannot be
 * read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "core/termsafe.h"
#include "sandbox/gate.h"

static void
cmd_gate_print(const char *file, const struct gate_result *r, int json)
{
	cJSON *o;
	char *s;

	if (json) {
		o = gate_result_json(r);
		s = cJSON_PrintUnformatted(o);
		termsafe_json_puts(s, stdout);
		cJSON_free(s);
		cJSON_Delete(o);
		return;
	}
	s = gate_result_text(file, r);
	termsafe_fputs(s, stdout);	/* verdicts quote the source */
	free(s);
	termsafe_fprintf(stdout, "%s: %s (sha256 %s, %d verdict%s)\n", file,
	    r->accepted ? "accepted" : "refused", r->sha256,
	    gate_result_total(r), gate_result_total(r) == 1 ? "" : "s");
}

static int
cmd_gate_exec(struct cli *cli, struct args *a)
{
	struct gate_result r;
	struct error err = { 0 };
	const char *file = args_arg(a, 0);

	if (args_count(a) != 1)
		return cli_usage_error("gate", "expected one FILE");
	if (gate_check_file(file, &r, NULL, NULL, &err) != 0)
		return cli_report("gate", &err);
	cmd_gate_print(file, &r, args_has(a, "json"));
	gate_result_free(&r);
	return r.accepted ? EXIT_OK : EXIT_REFUSED;
}

const struct cmd_entry cmd_gate_entry = {
	.name = "gate",
	.summary = "check a world model's source with the AST gate",
	.usage = "FILE [--json]",
	.options = (const struct args_option[]){
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_gate_exec,
};
