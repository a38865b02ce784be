/*
 * cmd_run — `fronts run [PLAN.json] [-C DIR] [--live] [--late MINUTES]
 * [--notify CMD]`: the options, the terminal and the printing around
 * src/runs/run.c, which does the work. Stays running until the plan is
 * over or the operator presses q; each due post is shown in full and
 * answered with one key read raw from the terminal (anything typed before
 * the question is discarded). Holds the project lock the whole time.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_history_int.h"
#include "core/clock.h"
#include "core/lock.h"
#include "core/termsafe.h"
#include "core/timeutil.h"
#include "runs/conform.h"
#include "runs/run.h"

#define RUN_TIMEOUT_MS		30000
#define RUN_REPLAN_MINUTES	240
#define RUN_ITERATIONS		20000

static volatile sig_atomic_t run_interrupted;

struct run_args {
	struct run_opts	 o;
	bool		 tty;
	char		*model_path;
	char		*model_src;
};

static void
run_on_interrupt(int sig)
{
	(void)sig;
	run_interrupted = 1;
}

static void
run_say_line(void *arg, const char *line)
{
	(void)arg;
	termsafe_fprintf(stdout, "%s\n", line);
	fflush(stdout);
}

static int
run_pull(void *arg, const char *dir, struct error *err)
{
	struct cli c = *(struct cli *)arg;

	c.dir = dir;
	if (history_pull_sent(&c) != EXIT_OK)
		return error_set(err, EXIT_NETWORK, "see the lines above");
	return 0;
}

/* One key of y, n, s, q from the terminal, raw; 0 when the deadline (the
 * post's window) passes first, 'q' at end of input or on Ctrl-C. */
static int
run_read_key(const char *question, time_t deadline)
{
	struct termios old;
	struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
	unsigned char ch;
	int key = 0;
	ssize_t n;

	if (cli_key_begin(question, &old) != 0)
		return 'q';
	while (key == 0 && clock_now() < deadline) {
		if (run_interrupted) {
			key = 'q';
			break;
		}
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		do
			n = read(STDIN_FILENO, &ch, 1);
		while (n < 0 && errno == EINTR && !run_interrupted);
		if (n != 1)
			key = 'q';
		else if (strchr("ynsq", ch) != NULL)
			key = ch;
	}
	cli_key_end(&old);
	printf("%c\n", key != 0 ? key : ' ');
	return key;
}

static void
run_show(const struct run_offer *of)
{
	const struct project *p = of->project;
	const struct plan_post *pp = of->post;
	const struct front *f = &p->fronts[pp->front];
	const struct text_measure *m = &of->item.measure;
	char at[40], until[40], now[40];

	time_format_local(pp->at, at, sizeof at);
	time_format_local(of->window_end, until, sizeof until);
	time_format_local(clock_now(), now, sizeof now);
	termsafe_fprintf(stdout, "\n== due: %s on front %s (%s, %s) at %s, "
	    "window until %s; now %s\n", p->drafts[pp->draft].id, f->id,
	    platform_name(f->platform), f->account != NULL ? f->account : "-",
	    at, until, now);
	termsafe_fprintf(stdout, "%s\n", pp->text);
	printf("-- length %d/%d %s%s, expected reward %.1f [%.1f, %.1f], "
	    "ledger entry %s\n", m->length, m->limit, text_unit_name(m->unit),
	    m->ok ? "" : " (OVER THE LIMIT)", pp->expected_reward, pp->ci_lo,
	    pp->ci_hi, of->item.entry);
	cli_print_post_notes(p, &of->item);
	if (of->request == NULL)
		termsafe_fprintf(stdout, "request: cannot be built: %s\n",
		    of->request_error);
	else {
		printf("request%s:\n", of->live ? "" : " (DRY RUN: not sent)");
		termsafe_json_fputs(of->request, stdout);
	}
}

/* "in 2 h 05 min" */
static void
run_in(time_t dt, char *buf, size_t len)
{
	if (dt >= 3600)
		snprintf(buf, len, "in %ld h %02ld min", (long)dt / 3600,
		    (long)dt % 3600 / 60);
	else
		snprintf(buf, len, "in %ld min", (long)(dt + 59) / 60);
}

static void
run_idle(struct run *r, time_t now, const struct plan_post **shown)
{
	const struct plan_post *pp;
	const struct project *p;
	char at[40], in[32];

	if (!run_next_post(r, now, &pp, &p)) {
		*shown = NULL;
		return;
	}
	if (pp == *shown)
		return;
	*shown = pp;
	time_format_local(pp->at, at, sizeof at);
	run_in(pp->at > now ? pp->at - now : 0, in, sizeof in);
	termsafe_fprintf(stdout, "next: %s on %s at %s (%s)\n",
	    p->drafts[pp->draft].id, p->fronts[pp->front].id, at, in);
	fflush(stdout);
}

/* The loop: tick, offer what is due, sleep until the next event. */
static int
run_loop(struct run *r, const struct run_args *a, struct error *err)
{
	const struct plan_post *shown = NULL;
	struct run_offer of;
	time_t now, next;
	int key, rc;

	for (;;) {
		if (run_interrupted)
			return 0;
		now = clock_now();
		if ((rc = run_tick(r, now, err)) != 0)
			return rc < 0 ? -1 : 0;
		if (run_due(r, now, &of)) {
			shown = NULL;
			run_show(&of);
			if (a->tty)
				key = run_read_key("Send this post now? [y = "
				    "send, n = not now, s = skip for good, q = "
				    "quit] ", of.window_end);
			else {
				printf("(no terminal: shown only)\n");
				key = RUN_KEY_SEND;
			}
			if (key == RUN_KEY_QUIT) {
				run_offer_free(&of);
				return 0;
			}
			rc = run_key(r, &of, key, err);
			run_offer_free(&of);
			if (rc != 0)
				return -1;
			continue;
		}
		run_idle(r, now, &shown);
		/* A second at a time, so that Ctrl-C is answered at once. */
		next = run_next_event(r, now);
		clock_sleep_ms(next - now > 1 ? 1000 : 500);
	}
}

static int
run_options(struct cli *cli, struct args *args, struct run_args *a)
{
	memset(a, 0, sizeof *a);
	a->o.live = args_has(args, "live");
	a->o.notify = args_string(args, "notify");
	a->o.late_minutes = (int)(args_ms(args, "late", -60000) / 60000);
	a->o.replan_minutes = (int)(args_ms(args, "replan",
	    RUN_REPLAN_MINUTES * 60000L) / 60000);
	a->o.timeout_ms = args_ms(args, "timeout-ms", RUN_TIMEOUT_MS);
	search_params_default(&a->o.sp);
	a->o.sp.iterations = RUN_ITERATIONS;
	cli_search_options(args, &a->o.sp);
	if (args_count(args) > 1)
		return cli_usage_error("run", "at most one PLAN.json");
	a->o.plan_path = args_arg(args, 0);
	a->o.dir = cli->dir;
	a->tty = isatty(STDIN_FILENO);
	return EXIT_OK;
}

/* The approved model for the re-plans; without one the run carries out
 * the plan as it is, and says so. */
static void
run_model(struct run_args *a)
{
	struct project *p = NULL;
	struct error err = { 0 };
	struct conform_how how = { .thread = a->o.sp.isolation ==
	    ISOLATION_THREAD, .call_timeout_ms = a->o.sp.call_timeout_ms,
	    .memory_mb = a->o.sp.memory_mb };
	struct conform c;
	size_t len = 0;

	if (cli_load_approved(a->o.dir, NULL, &p, &a->model_path,
	    &a->model_src, &len, &err) != 0) {
		termsafe_fprintf(stdout, "no re-plans: %s\n", err.msg);
		free(a->model_src);
		a->model_src = NULL;
	} else if (conform_ensure(p, a->o.dir, a->model_src, len, &how, &c,
	    &err) != 0 ||
	    c.state == CONFORM_FAIL) {
		/* As `fronts plan` refuses it: never re-plan with a model
		 * that failed its checks. */
		if (c.state == CONFORM_FAIL)
			termsafe_fprintf(stdout, "no re-plans: the approved "
			    "model fails the conformance checks %s: %s\n",
			    c.failed, c.message);
		else
			termsafe_fprintf(stdout, "no re-plans: the conformance "
			    "checks could not run: %s\n", err.msg);
		free(a->model_src);
		a->model_src = NULL;
	}
	project_free(p);
	a->o.model_src = a->model_src;
	a->o.model_len = len;
}

static void
run_summary(struct run *r)
{
	struct run_tally t;

	run_tally(r, &t);
	printf("\n%d offered, %d sent, %d failed, %d skipped, %d skipped "
	    "(late), %d not now; %d plan generation%s kept\n", t.offered,
	    t.sent, t.failed, t.skipped, t.late, t.later, t.generations,
	    t.generations == 1 ? "" : "s");
}

static int
run_exec(struct cli *cli, struct run_args *a)
{
	struct run_ui ui = { run_say_line, run_pull, cli };
	struct sigaction sa;
	struct error err = { 0 };
	struct run *r = NULL;
	int rc;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("%s: fronts run, project %s; each post is offered when its "
	    "slot comes; Ctrl-C stops\n", a->o.live ? "LIVE" : "DRY RUN "
	    "(nothing is sent or recorded; --live publishes)", a->o.dir);
	fflush(stdout);
	rc = run_open(&a->o, &ui, &r, &err);
	if (rc == 0)
		rc = run_loop(r, a, &err);
	if (r != NULL)
		run_summary(r);
	run_close(r);
	return rc == 0 ? EXIT_OK : cli_report("run", &err);
}

static int
cmd_run_exec(struct cli *cli, struct args *args)
{
	struct run_args a;
	struct error err = { 0 };
	int rc;
	struct project_lock *lk = NULL;

	if ((rc = run_options(cli, args, &a)) != EXIT_OK)
		return rc;
	if (a.o.live && !a.tty)
		return cli_usage_error("run", "--live needs a terminal on "
		    "stdin: every post is sent only after the operator presses "
		    "y there");
	/* A dry run sends and records nothing: it needs no lock. */
	if (a.o.live && project_lock_hold(a.o.dir, "fronts run --live", &lk,
	    &err) != 0)
		return cli_report("run", &err);
	run_model(&a);
	rc = run_exec(cli, &a);
	project_lock_release(lk);
	free(a.model_src);
	free(a.model_path);
	return rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.summary = "stay running: offer each post when it is due, re-plan the "
	    "rest (dry run unless --live)",
	.usage = "[PLAN.json] [-C DIR] [--live] [--late MINUTES] [--notify CMD]\n"
	    "               [--replan MINUTES] [--iterations N] [--workers N]\n"
	    "               [--isolation process|thread] [--seed N] "
	    "[--timeout-ms MS]",
	.options = (const struct args_option[]){
		{ .name = "live", .kind = ARGS_FLAG,
		  .help = "send for real (default: a dry run)" },
		{ .name = "late", .kind = ARGS_DURATION, .metavar = "MINUTES",
		  .unit = "minutes", .min = 0, .max = 100000,
		  .help = "a post's window after its slot (default: one\n"
		  "slot); past it the post is skipped (late)" },
		CLI_OPTION_NOTIFY,
		{ .name = "replan", .kind = ARGS_DURATION, .metavar = "MINUTES",
		  .unit = "minutes", .min = 0, .max = 100000,
		  .help = "re-plan this often (default 240; 0: only after\n"
		  "posts)" },
		CLI_OPTION_ITERATIONS("20000"),
		CLI_OPTION_WORKERS,
		CLI_OPTION_ISOLATION,
		CLI_OPTION_SEED,
		CLI_OPTION_TIMEOUT_MS,
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_run_exec,
};
