/*
 * cmd_history_pull — `fronts history pull [--front ID] [--since DATE]
 * [--dry-run]`: the options, and the printing of what
 * runs/history_pull.c did for each front as it is done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "cli/cmd_history_int.h"
#include "core/termsafe.h"
#include "core/timeutil.h"
#include "runs/history_pull.h"

struct pull_args {
	const char	*front;
	const char	*since;
	bool		 dry_run;
	bool		 wait;		/* for the project lock */
};

/* --since: a date (local midnight in the project's zone) or an instant. */
static int
parse_since(const char *s, time_t *out)
{
	int y, m, d, n = 0;

	if (time_parse_iso(s, out) == 0)
		return 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || s[n] != '\0' ||
	    m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	*out = time_local_midnight((time_t)time_days_from_civil(y, m, d) *
	    86400 + 12 * 3600);
	return 0;
}

static void
pull_print_begin(void *arg, const struct history_front *hf)
{
	char since[32];

	(void)arg;
	time_format_utc(hf->since, since, sizeof since);
	termsafe_fprintf(stdout, "front %s (%s): posts since %s\n", hf->front,
	    platform_name(hf->platform), since);
}

static void
pull_print_done(void *arg, const struct history_front *hf)
{
	int i;

	(void)arg;
	if (hf->state == HISTORY_NOT_PULLED) {
		termsafe_fprintf(stdout, "front %s (%s): not pulled: fronts "
		    "reads counts from Mastodon, Bluesky and X (with a composio "
		    "block); import the platform's export instead\n", hf->front,
		    platform_name(hf->platform));
		return;
	}
	if (hf->state == HISTORY_FAILED) {
		cli_report("history", &hf->err);
		return;
	}
	for (i = 0; i < hf->nmissing; i++)
		termsafe_fprintf(stdout, "  missing  %s  %s: sent by fronts, "
		    "not returned by the platform (deleted?)\n",
		    hf->missing[i].id, hf->missing[i].post_id);
	for (i = 0; i < hf->ngone; i++)
		termsafe_fprintf(stdout, "  gone     %s  %s: not returned by "
		    "the platform (deleted?); kept as it was\n",
		    hf->gone[i].id, hf->gone[i].post_id);
	if (hf->page_limit)
		printf("  stopped at the page limit: older posts of the window "
		    "were not fetched; run again with a later --since\n");
	printf("  %d requests, %d pages\n", hf->requests, hf->pages);
	if (!hf->applied) {
		cli_report("history", &hf->err);
		return;
	}
	history_print_applied(&hf->result);
	if (hf->stopped != NULL)
		termsafe_fprintf(stderr, "fronts history: front %s: %s\n",
		    hf->front, hf->stopped);
}

/* Pulls as o says, printing each front as it is done; an exit code. */
static int
pull_print_run(struct history_pull_opts *o)
{
	struct history_pull_result r;
	struct error err = { 0 };
	int rc;

	o->begin = pull_print_begin;
	o->done = pull_print_done;
	if ((rc = history_pull_run(o, &r, &err)) == HISTORY_NO_FRONT)
		return cli_usage_error("history", "%s", err.msg);
	if (rc != 0)
		return cli_report("history", &err);
	rc = r.code;
	history_pull_result_free(&r);
	return rc;
}

static int
pull_run(struct cli *cli, const struct pull_args *a, time_t since)
{
	struct history_pull_opts o = { .dir = cli->dir, .front = a->front,
	    .has_since = a->since != NULL, .since = since,
	    .dry_run = a->dry_run, .wait = a->wait, .now = clock_now() };

	return pull_print_run(&o);
}

int
history_pull_sent(struct cli *cli)
{
	struct history_pull_opts o = { .dir = cli->dir, .sent_only = true,
	    .now = clock_now() };

	return pull_print_run(&o);
}

int
history_pull(struct cli *cli, struct args *args)
{
	struct pull_args a = { 0 };
	time_t t;

	a.front = args_string(args, "front");
	a.since = args_string(args, "since");
	a.dry_run = args_has(args, "dry-run");
	a.wait = args_has(args, "wait");
	if (a.since != NULL && parse_since(a.since, &t) != 0)
		return cli_usage_error("history", "--since takes a date "
		    "(2026-11-01) or an ISO-8601 time");
	return pull_run(cli, &a, a.since != NULL ? t : 0);
}
