/*
 * cmd_show — `fronts show PLAN`: a saved plan (PLAN.json) with where each
 * post stands by the clock and the publish ledger (planned, due, past,
 * sent, skipped, failed, unknown); `--calendar` as the day-by-front
 * timeline `fronts plan --calendar` prints; `--json` either as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/calendar.h"
#include "core/clock.h"
#include "core/ledger.h"
#include "core/termsafe.h"
#include "core/timeutil.h"

#define SHOW_WIDTH	80

struct show_opts {
	const char	*plan;
	bool		 calendar, json;
};

/* 80 columns, or more where the terminal (or $COLUMNS) has them. */
static int
show_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");
	int w = 0;

	if (c != NULL)
		w = atoi(c);
	else if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0)
		w = ws.ws_col;
	return w > SHOW_WIDTH ? w : SHOW_WIDTH;
}

static void
show_calendar_lines(const struct project *p, const struct plan *pl,
    const struct ledger *l)
{
	struct calendar c;
	char **lines;
	int n, i;

	calendar_build(p, pl, l, clock_now(), false, &c);
	n = calendar_render(p, pl, &c, show_width(), &lines);
	for (i = 0; i < n; i++) {
		termsafe_fprintf(stdout, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
	printf("\n  planned  ! due  ~ past, not sent  + sent  - skipped  "
	    "x failed  ? unknown\n");
	calendar_free(&c);
}

/* The ledger where it can be read: marks come from what it has. */
static bool
show_ledger(const struct project *p, struct ledger *l)
{
	struct error err = { 0 };

	if (ledger_open(p->dir, l, &err) == 0)
		return true;
	termsafe_fprintf(stderr, "fronts: %s (marks by the clock only)\n",
	    err.msg);
	return false;
}

static void
show_header(const struct project *p, const struct plan *pl)
{
	termsafe_fprintf(stdout, "plan %s%sfor %s: %d post%s, expected total "
	    "%.1f\n\n", pl->id, pl->id[0] != '\0' ? " " : "", p->name,
	    pl->nposts, pl->nposts == 1 ? "" : "s", pl->expected_total);
}

void
cli_print_calendar(const struct project *p, const struct plan *pl)
{
	struct ledger l;
	bool have = show_ledger(p, &l);

	show_header(p, pl);
	show_calendar_lines(p, pl, have ? &l : NULL);
	if (have)
		ledger_free(&l);
}

static cJSON *
show_json(const struct project *p, const struct plan *pl,
    const struct ledger *l, bool calendar)
{
	struct calendar c;
	cJSON *o, *arr, *e;
	char at[40];
	int i;

	if (calendar) {
		calendar_build(p, pl, l, clock_now(), false, &c);
		o = calendar_json(p, pl, &c);
		calendar_free(&c);
	} else {
		o = cJSON_CreateObject();
		arr = cJSON_AddArrayToObject(o, "posts");
		for (i = 0; i < pl->nposts; i++) {
			e = cJSON_CreateObject();
			cJSON_AddNumberToObject(e, "slot", pl->posts[i].slot);
			time_format_local(pl->posts[i].at, at, sizeof at);
			cJSON_AddStringToObject(e, "at", at);
			cJSON_AddStringToObject(e, "front",
			    p->fronts[pl->posts[i].front].id);
			cJSON_AddStringToObject(e, "draft",
			    p->drafts[pl->posts[i].draft].id);
			cJSON_AddNumberToObject(e, "expected_reward",
			    pl->posts[i].expected_reward);
			cJSON_AddStringToObject(e, "state", calendar_mark_name(
			    calendar_mark(p, pl, l, i, clock_now())));
			cJSON_AddItemToArray(arr, e);
		}
	}
	cJSON_AddStringToObject(o, "plan", pl->id);
	cJSON_AddNumberToObject(o, "expected_total", pl->expected_total);
	return o;
}

static void
show_list(const struct project *p, const struct plan *pl,
    const struct ledger *l)
{
	const struct plan_post *pp;
	char when[64];
	struct tm tm;
	int i;

	show_header(p, pl);
	for (i = 0; i < pl->nposts; i++) {
		pp = &pl->posts[i];
		localtime_r(&pp->at, &tm);
		strftime(when, sizeof when, "%a %Y-%m-%d %H:%M %Z", &tm);
		termsafe_fprintf(stdout, "  %-24s %-10s %-8s %8.1f  %s\n",
		    when, p->fronts[pp->front].id, p->drafts[pp->draft].id,
		    pp->expected_reward, calendar_mark_name(calendar_mark(p,
		    pl, l, i, clock_now())));
	}
}

static int
show_options(struct args *a, struct show_opts *o)
{
	memset(o, 0, sizeof *o);
	o->calendar = args_has(a, "calendar");
	o->json = args_has(a, "json");
	if (args_count(a) != 1)
		return cli_usage_error("show", "expected one PLAN.json");
	o->plan = args_arg(a, 0);
	return 0;
}

static void
show_print(const struct project *p, const struct plan *pl,
    const struct show_opts *o)
{
	struct ledger l;
	bool have = show_ledger(p, &l);
	cJSON *j;
	char *s;

	if (o->json) {
		j = show_json(p, pl, have ? &l : NULL, o->calendar);
		s = cJSON_Print(j);
		termsafe_json_puts(s, stdout);
		free(s);
		cJSON_Delete(j);
	} else if (o->calendar) {
		show_header(p, pl);
		show_calendar_lines(p, pl, have ? &l : NULL);
	} else
		show_list(p, pl, have ? &l : NULL);
	if (have)
		ledger_free(&l);
}

static int
cmd_show_exec(struct cli *cli, struct args *a)
{
	struct show_opts o;
	struct project *p = NULL;
	struct error err = { 0 };
	struct plan pl;
	int rc;

	if ((rc = show_options(a, &o)) != 0)
		return rc;
	memset(&pl, 0, sizeof pl);
	if (project_load(cli->dir, &p, &err) != 0 ||
	    plan_read_file(p, o.plan, &pl, &err) != 0) {
		project_free(p);
		return cli_report("show", &err);
	}
	show_print(p, &pl, &o);
	plan_free(&pl);
	project_free(p);
	return EXIT_OK;
}

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.summary = "show a saved plan, or its calendar, with each post's state",
	.usage = "[-C DIR] PLAN.json [--calendar] [--json]",
	.options = (const struct args_option[]){
		{ .name = "calendar", .kind = ARGS_FLAG,
		  .help = "the day-by-front timeline instead of the list" },
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_show_exec,
};
