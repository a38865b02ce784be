/*
 * cmd_plan — `fronts plan`: searches for the best posting plan with the
 * approved world model and prints it (a table in the project's time zone,
 * its calendar, or docs/DESIGN.md's JSON object), optionally writes PLAN.json,
 * and keeps a trajectory record of the run under .fronts/trajectories/.
 *
 * Ctrl-C (SIGINT) stops the search gracefully: the plan found so far is
 * printed, marked as stopped early, and the exit status is 0. A second
 * Ctrl-C while the workers wind down ends the program at once.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/plan.h"
#include "runs/planner.h"
#include "core/project.h"
#include "core/termsafe.h"
#include "core/timeutil.h"
#include "core/trajectory.h"
#include "sandbox/approval.h"
#include "runs/conform.h"

#define EXCERPT_BYTES	40

/* Set by the SIGINT handler, read by plan_wait(). */
static volatile sig_atomic_t plan_interrupted;

struct plan_opts {
	const char		*dir;
	const char		*model;
	const char		*out;
	bool			 json;
	bool			 force;	/* plan with a model that failed */
	char			 warning[768];	/* into the plan's stats */
	bool			 calendar;
	struct search_params	 sp;
};

static int
plan_options(struct cli *cli, struct args *a, struct plan_opts *o)
{
	memset(o, 0, sizeof *o);
	o->dir = cli->dir;
	o->out = args_string(a, "out");
	o->model = args_string(a, "model");
	o->json = args_has(a, "json");
	o->force = args_has(a, "force");
	o->calendar = args_has(a, "calendar");
	search_params_default(&o->sp);
	cli_search_options(a, &o->sp);
	o->sp.seconds = args_number(a, "seconds", 0);
	o->sp.call_timeout_ms = (int)args_ms(a, "call-timeout-ms",
	    o->sp.call_timeout_ms);
	o->sp.time_limit = args_number(a, "time-limit", 0);
	o->sp.memory_mb = (long)args_whole(a, "memory-mb",
	    (uint64_t)o->sp.memory_mb);
	if (o->json && o->calendar)
		return cli_usage_error("plan", "--json and --calendar exclude "
		    "each other");
	if (args_has(a, "iterations") && args_has(a, "seconds"))
		return cli_usage_error("plan", "--iterations and --seconds "
		    "exclude each other");
	if (o->sp.seconds > 0)
		o->sp.iterations = 0;
	if (o->sp.isolation == ISOLATION_PROCESS &&
	    o->sp.memory_mb / o->sp.workers < SEARCH_MEMORY_MIN)
		return cli_usage_error("plan", "--memory-mb: %ld MiB gives each "
		    "of %d workers less than %d MiB (the budget is the total "
		    "over all workers)", o->sp.memory_mb, o->sp.workers,
		    SEARCH_MEMORY_MIN);
	return 0;
}

/* The start of a text on one line, cut at a code point boundary. */
static void
plan_excerpt(const char *text, char *buf, size_t len)
{
	size_t n = 0, cut = 0;

	while (text[n] != '\0' && n + 4 < len && n < EXCERPT_BYTES) {
		if (((unsigned char)text[n] & 0xc0) != 0x80)
			cut = n;
		buf[n] = text[n] == '\n' || text[n] == '\t' ? ' ' : text[n];
		n++;
	}
	if (text[n] == '\0') {
		buf[n] = '\0';
		return;
	}
	memcpy(buf + cut, "\u2026", 4);
}

static void
plan_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%a %Y-%m-%d %H:%M %Z", &tm);
}

static void
plan_print_alts(const struct project *p, const struct plan *pl, int i)
{
	const struct plan_alt *a;
	int k, n = 0;

	for (k = 0; k < pl->nalts; k++) {
		a = &pl->alts[k];
		if (a->decision != i)
			continue;
		printf("%s", n++ == 0 ? "      instead: " : "; ");
		if (a->action.kind == ACTION_WAIT)
			printf("wait (mean %.1f, %llu visits)", a->mean,
			    (unsigned long long)a->visits);
		else
			termsafe_fprintf(stdout, "%s on %s at slot %d (mean "
			    "%.1f, %llu visits)", p->drafts[a->action.draft].id,
			    p->fronts[a->action.front].id, a->slot, a->mean,
			    (unsigned long long)a->visits);
	}
	if (n > 0)
		printf("\n");
}

static void
plan_print(const struct project *p, const struct plan *pl)
{
	const struct plan_post *pp;
	char when[64], ex[64], rw[64];
	int i;

	termsafe_fprintf(stdout, "plan for %s: %d post%s, expected total "
	    "%.1f\n\n", p->name, pl->nposts, pl->nposts == 1 ? "" : "s", pl->expected_total);
	if (pl->nposts > 0)
		printf("  %-24s %-10s %-8s %-24s %8s  %s\n", "time", "front",
		    "draft", "expected reward (95%)", "visits", "text");
	for (i = 0; i < pl->nposts; i++) {
		pp = &pl->posts[i];
		plan_time(pp->at, when, sizeof when);
		plan_excerpt(pp->text, ex, sizeof ex);
		snprintf(rw, sizeof rw, "%.1f [%.1f, %.1f]", pp->expected_reward,
		    pp->ci_lo, pp->ci_hi);
		termsafe_fprintf(stdout, "  %-24s %-10s %-8s %-24s %8llu  %s\n",
		    when, p->fronts[pp->front].id, p->drafts[pp->draft].id, rw,
		    (unsigned long long)pp->visits, ex);
		plan_print_alts(p, pl, i);
	}
	printf("\n%llu iterations, %llu model calls (%.1f s in the model), "
	    "%llu illegal proposals, %llu failed iterations; %d worker%s, "
	    "%s isolation, seed %llu, %.1f s\n",
	    (unsigned long long)pl->stats.iterations,
	    (unsigned long long)pl->stats.model_calls, pl->stats.model_seconds,
	    (unsigned long long)pl->stats.illegal_proposals,
	    (unsigned long long)pl->stats.model_errors, pl->stats.workers,
	    pl->stats.workers == 1 ? "" : "s",
	    pl->stats.isolation == ISOLATION_THREAD ? "thread" : "process",
	    (unsigned long long)pl->stats.seed, pl->stats.seconds);
	if (pl->stats.sandbox[0] != '\0')
		printf("sandbox: %s\n", pl->stats.sandbox);
	if (pl->stats.stopped)
		printf("stopped early: this is the best plan the search had "
		    "found so far\n");
}

static void
plan_on_interrupt(int sig)
{
	(void)sig;
	plan_interrupted = 1;
}

/* Ctrl-C while planning asks the planner to stop (see the top). */
static void
plan_catch_interrupt(bool on)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? plan_on_interrupt : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* Waits for the planner, showing progress on a terminal, and stops it on
 * the first Ctrl-C. */
static int
plan_wait(struct planner *pr, struct plan *pl, struct error *err)
{
	struct search_snapshot *snap = xmalloc(sizeof *snap);
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	bool tty = isatty(STDERR_FILENO), stopped = false;
	int rc, shown = 0;

	plan_interrupted = 0;
	plan_catch_interrupt(true);
	while (planner_running(pr)) {
		if (plan_interrupted && !stopped) {
			stopped = true;
			planner_stop(pr);
			plan_catch_interrupt(false);
			if (tty)
				fprintf(stderr, "\r\033[Kstopping (Ctrl-C "
				    "again to quit at once)\n");
		}
		if (tty && !stopped) {
			planner_snapshot(pr, snap);
			fprintf(stderr, "\r%llu iterations, %.0f/s ",
			    (unsigned long long)snap->iterations, snap->rate);
			shown = 1;
		}
		nanosleep(&ts, NULL);
	}
	if (shown && !stopped)
		fprintf(stderr, "\r\033[K");
	plan_catch_interrupt(false);
	free(snap);
	rc = planner_wait(pr, pl, err);
	return rc;
}

/* The model's own words (its exception) on one line, after the prefix. */
static void
plan_model_error(const struct model_error *e)
{
	char raw[sizeof e->type + sizeof e->message + 2];
	char text[6 * sizeof raw], fn[6 * sizeof e->function];

	snprintf(raw, sizeof raw, "%s: %s", e->type, e->message);
	termsafe_copy_line(text, sizeof text, raw);
	termsafe_copy_line(fn, sizeof fn, e->function);
	fprintf(stderr, "fronts plan: model error: %s%s (model line %d, in "
	    "%s)\n", MODEL_TEXT_PREFIX, text, e->line, fn);
}

static void
plan_report_side(struct planner *pr)
{
	struct model_error errs[SEARCH_MAX_ERRORS];
	char *const *dropped;
	int i, n;

	n = planner_notes(pr, &dropped);
	for (i = 0; i < n; i++)
		termsafe_fprintf(stderr, "fronts plan: %s\n", dropped[i]);
	n = planner_dropped(pr, &dropped);
	for (i = 0; i < n; i++)
		termsafe_fprintf(stderr, "fronts plan: legality re-check: %s\n",
		    dropped[i]);
	n = planner_errors(pr, errs, SEARCH_MAX_ERRORS);
	for (i = 0; i < n; i++)
		plan_model_error(&errs[i]);
}

/* Writes -o FILE and the trajectory, then prints the plan whatever became
 * of them: a finished search is never lost to a full disk or a bad path.
 * The first write error is returned in err (exit 1), a second one is
 * printed here. */
/* One more line in the plan's stats.warnings. */
static void
plan_add_warning(cJSON *plan, const char *text)
{
	cJSON *st = cJSON_GetObjectItemCaseSensitive(plan, "stats");
	cJSON *w = cJSON_GetObjectItemCaseSensitive(st, "warnings");

	if (!cJSON_IsArray(w))
		w = cJSON_AddArrayToObject(st, "warnings");
	cJSON_AddItemToArray(w, cJSON_CreateString(text));
}

static int
plan_output(const struct project *p, const struct plan_opts *o,
    struct planner *pr, const char *model_path, const struct plan *pl,
    struct error *err)
{
	struct model_error errs[SEARCH_MAX_ERRORS];
	struct trajectory t;
	struct error terr = { 0 };
	char why[sizeof err->msg];
	cJSON *j = plan_to_json(p, pl);
	char *s;
	int rc = 0;

	if (o->warning[0] != '\0') {
		plan_add_warning(j, o->warning);
		fprintf(stderr, "fronts plan: warning: %s\n", o->warning);
	}
	s = cJSON_Print(j);

	if (o->out != NULL &&
	    file_write_atomic(o->out, s, strlen(s), err) != 0) {
		snprintf(why, sizeof why, "%s", err->msg);
		error_set(err, EXIT_ERROR, "%s (the plan is on standard "
		    "output)", why);
		rc = -1;
	}
	memset(&t, 0, sizeof t);
	t.params = &o->sp;
	t.model_path = model_path;
	t.model_sha256 = planner_model_sha256(pr);
	t.plan = pl;
	t.nerrors = planner_errors(pr, errs, SEARCH_MAX_ERRORS);
	t.errors = errs;
	t.ndropped = planner_dropped(pr, &t.dropped);
	if (trajectory_write(p, &t, NULL, &terr) != 0) {
		error_wrap(&terr, "trajectory not kept");
		if (rc != 0)
			cli_report("plan", &terr);
		else
			*err = terr;
		rc = -1;
	}
	if (o->json && pl->stats.stopped)
		fprintf(stderr, "fronts plan: stopped early: this is the best "
		    "plan the search had found so far\n");
	if (o->json)
		termsafe_json_puts(s, stdout);
	else if (o->calendar)
		cli_print_calendar(p, pl);
	else
		plan_print(p, pl);
	free(s);
	cJSON_Delete(j);
	return rc;
}

/* An approved model that failed the conformance checks is refused;
 * checks never run for these bytes are run first and kept. --force
 * plans anyway on the operator's word, without running checks that
 * never ran (a model that hangs in them would hang here too), and says
 * so in the plan's stats. */
static int
plan_conformance(const struct project *p, struct plan_opts *o,
    const char *src, size_t len, struct error *err)
{
	struct conform_how how = { .thread = o->sp.isolation ==
	    ISOLATION_THREAD, .call_timeout_ms = o->sp.call_timeout_ms,
	    .memory_mb = o->sp.memory_mb };
	struct conform c;
	char sha[65];
	const char *s;

	if (o->force) {
		sha256_hex(src, len, sha);
		conform_read(o->dir, sha, &c);
	} else if (conform_ensure(p, o->dir, src, len, &how, &c, err) != 0) {
		error_wrap(err, "the conformance checks could not run "
		    "(--force plans without them)");
		return -1;
	}
	if (c.not_kept[0] != '\0')
		fprintf(stderr, "fronts plan: the conformance result is not "
		    "kept: %s\n", c.not_kept);
	s = strchr(c.failed, ',') != NULL ? "s" : "";
	if (c.state == CONFORM_FAIL && !o->force)
		return error_set(err, EXIT_REFUSED, "the approved model fails "
		    "the conformance check%s %s: %s (`fronts validate` shows "
		    "every check; --force plans anyway)", s, c.failed,
		    c.message);
	if (c.state == CONFORM_FAIL)
		snprintf(o->warning, sizeof o->warning, "planned with --force: "
		    "the model fails the conformance check%s %s: %s", s,
		    c.failed, c.message);
	else if (c.state == CONFORM_UNKNOWN && o->force)
		snprintf(o->warning, sizeof o->warning, "planned with --force: "
		    "the conformance checks were never run for this model");
	return 0;
}

/* A start that passed moves to the next slot from now, with a warning. */
static void
plan_settle_start(struct project *p, char *warning, size_t len)
{
	if (!project_start_at(p, clock_now()))
		return;
	project_passed_text(p->start_passed, p->start, warning, len);
	fprintf(stderr, "fronts plan: warning: %s\n", warning);
}

/* Nothing to plan: say what to add rather than print an empty plan. */
static int
plan_no_drafts(const struct project *p, struct error *err)
{
	if (p->ndrafts > 0)
		return 0;
	return error_set(err, EXIT_ERROR, "%s/drafts.jsonl holds no draft: "
	    "nothing to plan; add one post a line ({\"id\": \"d1\", "
	    "\"text\": \"…\"}) or `fronts drafts import FILE.csv --map "
	    "text=COL`", p->dir);
}

static int
cmd_plan_exec(struct cli *cli, struct args *a)
{
	struct plan_opts o;
	struct project *p = NULL;
	struct planner *pr = NULL;
	struct error err = { 0 };
	struct plan pl;
	char *path, *src, warning[256] = "";
	size_t len;
	int rc;

	if ((rc = plan_options(cli, a, &o)) != 0)
		return rc;
	memset(&pl, 0, sizeof pl);
	rc = -1;
	if (cli_load_approved(o.dir, o.model, &p, &path, &src, &len,
	    &err) != 0 || plan_no_drafts(p, &err) != 0 ||
	    plan_conformance(p, &o, src, len, &err) != 0)
		goto out;
	plan_settle_start(p, warning, sizeof warning);
	if (planner_start(p, src, len, &o.sp, &pr, &err) != 0)
		goto out;
	if (plan_wait(pr, &pl, &err) != 0) {
		plan_report_side(pr);
		goto out;
	}
	plan_report_side(pr);
	snprintf(pl.stats.warning, sizeof pl.stats.warning, "%s", warning);
	rc = plan_output(p, &o, pr, path, &pl, &err);
out:
	plan_free(&pl);
	planner_free(pr);
	project_free(p);
	free(src);
	free(path);
	return rc == 0 ? EXIT_OK : cli_report("plan", &err);
}

const struct cmd_entry cmd_plan_entry = {
	.name = "plan",
	.summary = "search for the best posting plan",
	.usage = "[-C DIR] [--model FILE] [--iterations N | --seconds S] [--workers N]\n"
	    "               [--isolation process|thread] [--seed N] [--call-timeout-ms MS]\n"
	    "               [--time-limit S] [--memory-mb MB] [--json | --calendar]\n"
	    "               [-o PLAN.json] [--force]",
	.options = (const struct args_option[]){
		CLI_OPTION_MODEL,
		CLI_OPTION_ITERATIONS("20000"),
		{ .name = "seconds", .kind = ARGS_DURATION, .metavar = "S",
		  .unit = "seconds", .over = 0, .upto = 1e6, .below = true,
		  .help = "search for S seconds instead of a count" },
		CLI_OPTION_WORKERS,
		CLI_OPTION_ISOLATION,
		CLI_OPTION_SEED,
		{ .name = "call-timeout-ms", .kind = ARGS_DURATION,
		  .metavar = "MS", .unit = "milliseconds", .min = 1,
		  .max = 3600000,
		  .help = "the longest one call of the model may run\n"
		  "(default 1000)" },
		CLI_OPTION_TIME_LIMIT("3600, or --seconds plus 60 when later;\n"
		    "at it the best plan so far is returned)"),
		CLI_OPTION_MEMORY_MB,
		CLI_OPTION_JSON,
		{ .name = "calendar", .kind = ARGS_FLAG,
		  .help = "print the plan's day-by-front calendar" },
		{ .name = "out", .letter = 'o', .short_only = true,
		  .kind = ARGS_STRING, .metavar = "PLAN.json",
		  .help = "write the plan to PLAN.json" },
		{ .name = "force", .kind = ARGS_FLAG,
		  .help = "plan with a model that fails its conformance checks" },
		{ .name = NULL }
	},
	.exec = cmd_plan_exec,
};
