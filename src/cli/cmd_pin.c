/*
 * cmd_pin — `fronts pin`: edits pins.jsonl, the operator's fixed
 * decisions every plan honours. `fronts pin DRAFT FRONT [TIME]` keeps a
 * draft on a front (then, with TIME), `--drop DRAFT` keeps it out of every
 * plan, `--clear DRAFT` forgets its pins, `--list` shows them. A new pin
 * is checked against the rules (as the planner will) before the file is
 * written, so a pin that no plan could honour never lands in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/legal.h"
#include "core/project.h"
#include "core/termsafe.h"
#include "core/timeutil.h"

enum pin_mode { PIN_SET, PIN_DROP, PIN_CLEAR, PIN_LIST };

struct pin_opts {
	enum pin_mode	 mode;
	bool		 json;
	const char	*draft, *front, *at;
};

static int
pin_options(struct args *a, struct pin_opts *o)
{
	int n, want;

	memset(o, 0, sizeof *o);
	if (args_has(a, "drop") + args_has(a, "clear") + args_has(a, "list") > 1)
		return cli_usage_error("pin", "--drop, --clear and --list "
		    "exclude each other");
	o->mode = args_has(a, "drop") ? PIN_DROP : args_has(a, "clear") ?
	    PIN_CLEAR : args_has(a, "list") ? PIN_LIST : PIN_SET;
	o->json = args_has(a, "json");
	n = args_count(a);
	want = o->mode == PIN_LIST ? 0 : o->mode == PIN_SET ? 2 : 1;
	if (n < want || n > want + (o->mode == PIN_SET))
		return cli_usage_error("pin", "%s", o->mode == PIN_LIST ?
		    "--list takes no draft" : o->mode == PIN_SET ?
		    "expected DRAFT FRONT [TIME]" : "expected one DRAFT");
	if (o->json && o->mode != PIN_LIST)
		return cli_usage_error("pin", "--json goes with --list");
	o->draft = args_arg(a, 0);
	o->front = args_arg(a, 1);
	o->at = args_arg(a, 2);
	return 0;
}

static int
pin_list(const struct project *p, bool json)
{
	const struct pin *pin;
	cJSON *arr, *o;
	char *s;
	int i;

	if (json) {
		arr = cJSON_CreateArray();
		for (i = 0; i < p->npins; i++) {
			o = project_pin_json(p, &p->pins[i]);
			cJSON_AddNumberToObject(o, "line", p->pins[i].line);
			cJSON_AddItemToArray(arr, o);
		}
		s = cJSON_Print(arr);
		termsafe_json_puts(s, stdout);
		free(s);
		cJSON_Delete(arr);
		return EXIT_OK;
	}
	if (p->npins == 0)
		printf("no pins\n");
	for (i = 0; i < p->npins; i++) {
		pin = &p->pins[i];
		if (pin->drop)
			termsafe_fprintf(stdout, "%4d  %-10s dropped from every "
			    "plan\n", pin->line, p->drafts[pin->draft].id);
		else
			termsafe_fprintf(stdout, "%4d  %-10s on %-10s %s%s\n",
			    pin->line, p->drafts[pin->draft].id,
			    p->fronts[pin->front].id, pin->has_at ?
			    pin->at_text : "whenever the plan likes",
			    pin->has_at && pin->at < clock_now() ?
			    "  (passed: ignored)" : "");
	}
	return EXIT_OK;
}

/* The pins as the next plan will see them, checked as the planner will. */
static int
pin_check(struct project *p, struct error *err)
{
	project_start_at(p, clock_now());
	return legal_pins_verify(p, err);
}

static int
pin_edit(struct project *p, const struct pin_opts *o, struct error *err)
{
	int d, f = -1;
	time_t at = 0;

	if ((d = project_draft_index(p, o->draft)) < 0)
		return error_set(err, EXIT_USAGE, "no draft \"%s\" in "
		    "drafts.jsonl", o->draft);
	if (o->mode == PIN_DROP)
		project_pin_drop(p, d);
	else if (o->mode == PIN_CLEAR)
		project_pin_clear(p, d);
	else {
		if ((f = project_front_index(p, o->front)) < 0)
			return error_set(err, EXIT_USAGE, "no front \"%s\" in "
			    "fronts.json", o->front);
		if (o->at != NULL && time_parse_iso(o->at, &at) != 0)
			return error_set(err, EXIT_USAGE, "TIME: \"%s\" is not "
			    "an ISO-8601 time with offset (like "
			    "2026-12-02T10:00:00+01:00)", o->at);
		project_pin_set(p, d, f, o->at, at);
		if (pin_check(p, err) != 0)
			return -1;
	}
	if (project_pins_save(p, err) != 0)
		return -1;
	if (o->mode == PIN_DROP)
		termsafe_fprintf(stdout, "%s dropped from every plan\n",
		    o->draft);
	else if (o->mode == PIN_CLEAR)
		termsafe_fprintf(stdout, "%s has no pins\n", o->draft);
	else
		termsafe_fprintf(stdout, "%s pinned on %s%s%s\n", o->draft,
		    o->front, o->at != NULL ? " at " : "",
		    o->at != NULL ? o->at : "");
	return 0;
}

static int
cmd_pin_exec(struct cli *cli, struct args *a)
{
	struct pin_opts o;
	struct project *p = NULL;
	struct error err = { 0 };
	int rc, i;

	if ((rc = pin_options(a, &o)) != 0)
		return rc;
	if (project_load(cli->dir, &p, &err) != 0)
		return cli_report("pin", &err);
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], "pins.jsonl:") != NULL)
			termsafe_fprintf(stderr, "fronts pin: warning: %s\n",
			    p->warnings[i]);
	if (o.mode == PIN_LIST)
		rc = pin_list(p, o.json);
	else
		rc = pin_edit(p, &o, &err) == 0 ? EXIT_OK :
		    cli_report("pin", &err);
	project_free(p);
	return rc;
}

const struct cmd_entry cmd_pin_entry = {
	.name = "pin",
	.summary = "pin a draft to a front and time, or drop it (pins.jsonl)",
	.usage = "[-C DIR] DRAFT FRONT [TIME] | --drop DRAFT | --clear DRAFT |\n"
	    "               --list [--json]",
	.options = (const struct args_option[]){
		{ .name = "drop", .kind = ARGS_FLAG,
		  .help = "keep DRAFT out of every plan" },
		{ .name = "clear", .kind = ARGS_FLAG,
		  .help = "forget DRAFT's pins" },
		{ .name = "list", .kind = ARGS_FLAG, .help = "list the pins" },
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_pin_exec,
};
