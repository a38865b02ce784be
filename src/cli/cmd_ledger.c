/*
 * cmd_ledger — `fronts ledger`: lists the publish ledger, and
 * `fronts ledger resolve ID --sent URL|--failed` records the operator's
 * word on a post whose outcome is unknown, which is what lets publishing
 * continue after a crash or a broken connection. A resolve holds the
 * project lock (core/lock.h) from reading the ledger to its settle record;
 * --wait waits for another holder instead of exiting 1. A thread is listed
 * as one entry (its part 1's) with a line per part.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "cli/cli.h"
#include "core/ledger.h"
#include "core/lock.h"
#include "core/termsafe.h"
#include "core/timeutil.h"

static void
ledger_print_entry(const struct ledger_entry *e)
{
	char at[32], tried[32];

	time_format_utc(e->at, at, sizeof at);
	time_format_utc(e->attempted, tried, sizeof tried);
	termsafe_fprintf(stdout, "%s  %-7s  front %s  draft %s  slot %d  "
	    "planned %s\n", e->id,
	    ledger_state_name(e->state), e->front, e->draft, e->slot, at);
	termsafe_fprintf(stdout, "    plan %s  channel %s  attempts %d  "
	    "last attempt %s%s%s\n",
	    e->plan, e->channel, e->attempts, tried,
	    e->settled ? "  (settled by the operator)" : "",
	    e->edited ? "  (text edited from the draft)" : "");
	if (e->state == LEDGER_SENT && (e->url != NULL || e->post_id != NULL))
		termsafe_fprintf(stdout, "    %s\n", e->url != NULL ? e->url :
		    e->post_id);
	if (e->state == LEDGER_PENDING)
		printf("    no outcome recorded: the request may or may not "
		    "have reached the platform\n");
	else if (e->reason != NULL && e->state != LEDGER_SENT)
		termsafe_fprintf(stdout, "    %s\n", e->reason);
}

/* Do a and b belong to one thread (one post of one plan)? */
static bool
ledger_same_thread(const struct ledger_entry *a, const struct ledger_entry *b)
{
	return a->nparts > 1 && b->nparts > 1 && a->slot == b->slot &&
	    strcmp(a->plan, b->plan) == 0 && strcmp(a->front, b->front) == 0 &&
	    strcmp(a->draft, b->draft) == 0;
}

/* The entry of part 1 of e's thread; NULL: none (e is not a thread's). */
static const struct ledger_entry *
ledger_thread_head(const struct ledger *l, const struct ledger_entry *e)
{
	int i;

	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].part == 1 && ledger_same_thread(&l->entries[i],
		    e))
			return &l->entries[i];
	return NULL;
}

/* Part 1 (the entry itself, printed above), then a line per part. */
static void
ledger_print_parts(const struct ledger *l, const struct ledger_entry *head)
{
	const struct ledger_entry *e, *stop = NULL;
	int k, i, sent = 0;

	for (k = 1; k <= head->nparts; k++) {
		for (i = 0, e = NULL; i < l->nentries && e == NULL; i++)
			if (l->entries[i].part == k &&
			    ledger_same_thread(&l->entries[i], head))
				e = &l->entries[i];
		if (e == NULL) {
			/* After a skipped part (the thread's window closed),
			 * the rest will not be sent either. */
			printf("    part %d/%d  %s\n", k, head->nparts, stop !=
			    NULL ? "not sent: the part before was skipped" :
			    "not attempted");
			continue;
		}
		if (e->state == LEDGER_SKIPPED && stop == NULL)
			stop = e;
		sent += e->state == LEDGER_SENT;
		termsafe_fprintf(stdout, "    part %d/%d  %s  %-7s  %s\n", k,
		    head->nparts, e->id, ledger_state_name(e->state),
		    e->state == LEDGER_SENT ? (e->url != NULL ? e->url :
		    e->post_id != NULL ? e->post_id : "") : e->state ==
		    LEDGER_PENDING ? "no outcome recorded" : e->reason != NULL ?
		    e->reason : "");
	}
	printf("    thread: %d of %d parts sent%s\n", sent, head->nparts,
	    stop != NULL ? "; the rest will not be sent" : "");
}

static int
ledger_list(struct ledger *l)
{
	const struct ledger_entry *e;
	int i;

	if (l->nentries == 0 && l->nproblems == 0)
		termsafe_fprintf(stdout, "the ledger is empty (%s)\n", l->path);
	for (i = 0; i < l->nentries; i++) {
		e = &l->entries[i];
		if (e->part > 1 && ledger_thread_head(l, e) != NULL)
			continue;	/* listed under its part 1 */
		ledger_print_entry(e);
		if (e->part == 1)
			ledger_print_parts(l, e);
	}
	for (i = 0; i < l->nproblems; i++)
		termsafe_fprintf(stderr, "fronts ledger: %s\n",
		    l->problems[i]);
	if (l->nunsealed > 0)
		printf("%d line%s written before ledger lines carried a checksum: "
		    "read as they are, unverified\n", l->nunsealed,
		    l->nunsealed == 1 ? "" : "s");
	if (ledger_unresolved(l) > 0)
		printf("\n%d unresolved: check the platform, then `fronts ledger "
		    "resolve ID --sent URL` or `--failed`\n", ledger_unresolved(l));
	return l->nproblems > 0 ? EXIT_ERROR : EXIT_OK;
}

static int
ledger_resolve(struct ledger *l, const char *id, int sent, const char *url)
{
	struct ledger_entry *e;
	struct error err = { 0 };

	if ((e = ledger_find(l, id)) == NULL)
		return cli_usage_error("ledger", "no entry %s in %s", id,
		    l->path);
	if (ledger_settle(l, e, sent, url, clock_now(), &err) != 0)
		return cli_report("ledger", &err);
	printf("%s settled as %s\n", id, sent ? "sent" : "failed");
	return EXIT_OK;
}

static int
cmd_ledger_exec(struct cli *cli, struct args *a)
{
	struct project_lock *lock = NULL;
	struct ledger l;
	struct error err = { 0 };
	const char *url = args_string(a, "sent");
	int failed = args_has(a, "failed"), wait = args_has(a, "wait"), rc;
	int argc = args_count(a);

	if (argc == 0 && (url != NULL || failed))
		return cli_usage_error("ledger", "--sent and --failed go with "
		    "`resolve ID`");
	if (argc > 0 && (strcmp(args_arg(a, 0), "resolve") != 0 || argc != 2))
		return cli_usage_error("ledger", "expected `resolve ID`");
	if (argc > 0 && (url == NULL) == !failed)
		return cli_usage_error("ledger", "resolve needs exactly one of "
		    "--sent URL or --failed");
	if (argc > 0 && project_lock_take(cli->dir, "fronts ledger resolve",
	    wait, &lock, &err) != 0)
		return cli_report("ledger", &err);
	if (ledger_open(cli->dir, &l, &err) != 0) {
		project_lock_release(lock);
		return cli_report("ledger", &err);
	}
	if (argc == 0)
		rc = ledger_list(&l);
	else
		rc = ledger_resolve(&l, args_arg(a, 1), url != NULL, url);
	ledger_free(&l);
	project_lock_release(lock);
	return rc;
}

const struct cmd_entry cmd_ledger_entry = {
	.name = "ledger",
	.summary = "list or settle the publish ledger",
	.usage = "[-C DIR] | resolve ID --sent URL|--failed [--wait] [-C DIR]",
	.options = (const struct args_option[]){
		{ .name = "sent", .kind = ARGS_STRING, .metavar = "URL",
		  .help = "resolve: the post is on the platform, at URL" },
		{ .name = "failed", .kind = ARGS_FLAG,
		  .help = "resolve: the post never reached the platform" },
		CLI_OPTION_WAIT,
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_ledger_exec,
};
