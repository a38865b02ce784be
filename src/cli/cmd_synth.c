/*
 * cmd_synth — `fronts synth`: asks a language model to write the world
 * model, refines it over rounds, writes the best candidate (unapproved)
 * and a synthesis report in .fronts/ (runs/synth_job.c does the work;
 * this file parses the options and prints).
 *
 * Recordings: --record stores each exchange in <project>/.fronts/replay/
 * (or --fixtures DIR). Replay looks in --fixtures DIR alone when given,
 * else in <project>/.fronts/replay/, then next to the binary and in the
 * installed share directory (runs/synth_job.c).
 *
 * `--from-builtin` shows the language model the builtin model as the
 * starting point to refine (the default prompt leaves it out, so its
 * recordings still answer). `--provider builtin` asks no language model:
 * the one candidate is the builtin world model (sandbox/builtin.h),
 * fitted to the project's history when it starts, validated and written
 * as any candidate is.
 *
 * Test knob, read by test builds only (core/hook.h): FRONTS_RETRY_SCALE
 * (a number, e.g. 0.001) multiplies every retry wait, so tests run the
 * real backoff schedule in milliseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/backtest.h"
#include "core/termsafe.h"
#include "core/project.h"
#include "runs/synth_job.h"

static void
synth_progress(void *arg, const char *line)
{
	termsafe_fprintf(stderr, "%s\n", line);
}

/* The options, as the job takes them. */
static void
synth_parse(const struct cli *cli, const struct args *args,
    struct synth_job_opts *o)
{
	memset(o, 0, sizeof *o);
	o->dir = cli->dir;
	o->out = args_string(args, "out");
	o->provider = args_string(args, "provider");
	o->model = args_string(args, "llm-model");
	o->record = args_has(args, "record");
	o->from_builtin = args_has(args, "from-builtin");
	o->fixtures = args_string(args, "fixtures");
	o->rounds = (int)args_whole(args, "rounds", 0);
	o->timeout_ms = args_ms(args, "timeout", 0);
	o->time_limit = args_number(args, "time-limit", 0);
	o->memory_mb = (long)args_whole(args, "memory-mb", 0);
	o->seed = args_whole(args, "seed", 0);
	o->progress = synth_progress;
}

/* What was written and what the operator must do next. */
static void
synth_print(const struct synth_job_opts *a, const struct synth_job_result *j)
{
	const struct synth_result *r = &j->r;
	const struct synth_candidate *c;
	char sp[32], bi[32];

	if (j->written != NULL) {
		c = &r->cands[r->best];
		printf("wrote %s (sha256 %s): candidate %d of %d\n", j->written,
		    c->sha256, r->best + 1, r->ncands);
		if (c->measured)
			printf("backtest: mae_log %.3f (front_median %.3f, "
			    "hour_weekday %.3f, builtin %s), spearman %s, "
			    "coverage80 %.0f%%: %s%s\n", c->mae_log,
			    c->base_mae[0], c->base_mae[1],
			    backtest_figure_text(c->builtin_mae, false, false,
			    bi, sizeof bi), backtest_figure_text(c->spearman,
			    false, false, sp, sizeof sp), c->coverage80 * 100,
			    c->beats ? "beats both baselines" :
			    "does NOT beat both baselines",
			    synth_builtin_word(c));
		else if (c->validation != NULL)
			printf("backtest: not measured (no working predict(), "
			    "or no history to hold out)\n");
		if (j->failed[0] != '\0')
			termsafe_fprintf(stdout, "conformance: FAILED: %s\n",
			    j->failed);
		if (j->keep_err.code != 0)
			fprintf(stderr, "fronts synth: the conformance result "
			    "is not kept: %s\n", j->keep_err.msg);
		printf("it is NOT approved: review it, then run `fronts "
		    "approve%s%s`\n", a->out != NULL ? " --model " : "",
		    a->out != NULL ? j->written : "");
	}
	if (j->report != NULL)
		fprintf(stderr, "report: %s\n", j->report);
	else if (j->report_err.code != 0)
		cli_report("synth", &j->report_err);
}

static int
cmd_synth_exec(struct cli *cli, struct args *args)
{
	struct synth_job_opts o;
	struct synth_job_result j;
	struct error err = { 0 };
	struct project *p = NULL;
	bool builtin;
	int rc;

	synth_parse(cli, args, &o);
	builtin = o.provider != NULL && strcmp(o.provider, "builtin") == 0;
	if (builtin && (o.record || o.model != NULL || o.rounds > 1 ||
	    o.from_builtin))
		return cli_usage_error("synth", "--provider builtin asks no "
		    "language model: no --record, --llm-model, --rounds or "
		    "--from-builtin");
	if (project_load(cli->dir, &p, &err) != 0)
		return cli_report("synth", &err);
	rc = synth_job_run(p, &o, &j, &err);
	synth_print(&o, &j);
	rc = rc != 0 ? cli_report("synth", &err) : EXIT_OK;
	synth_job_result_free(&j);
	project_free(p);
	return rc;
}

const struct cmd_entry cmd_synth_entry = {
	.name = "synth",
	.summary = "ask a language model (or --provider builtin) to write the world model",
	.usage = "[-C DIR] [--provider P] [--llm-model M] [--record] [--rounds N] [-o FILE]\n"
	    "               [--from-builtin] [--fixtures DIR] [--timeout S] [--seed N]\n"
	    "               [--time-limit S] [--memory-mb MB]",
	.options = (const struct args_option[]){
		{ .name = "provider", .kind = ARGS_STRING, .metavar = "P",
		  .help = "anthropic, openai, replay, or builtin (no language\n"
		  "model: the builtin world model)" },
		{ .name = "llm-model", .kind = ARGS_STRING, .metavar = "M",
		  .help = "the language model (default: fronts.json's, else\n"
		  "the provider's)" },
		{ .name = "record", .kind = ARGS_FLAG,
		  .help = "store each exchange for the replay provider" },
		{ .name = "rounds", .kind = ARGS_WHOLE, .metavar = "N",
		  .min = 1, .max = 50,
		  .help = "rounds of candidates and feedback at most" },
		{ .name = "out", .letter = 'o', .short_only = true,
		  .kind = ARGS_STRING, .metavar = "FILE",
		  .help = "write the model to FILE (default DIR/model.py)" },
		{ .name = "from-builtin", .kind = ARGS_FLAG,
		  .help = "start from the builtin model, to refine" },
		{ .name = "fixtures", .kind = ARGS_STRING, .metavar = "DIR",
		  .help = "where recordings are kept and replayed from" },
		{ .name = "timeout", .kind = ARGS_DURATION, .metavar = "S",
		  .unit = "seconds", .over = 0, .upto = 3600,
		  .help = "the longest the answer may stay silent (default\n"
		  "300)" },
		CLI_OPTION_SEED,
		CLI_OPTION_TIME_LIMIT("120 for each candidate's validation;\n"
		    "its worker is killed at it)"),
		CLI_OPTION_MEMORY_MB,
		{ .name = NULL }
	},
	.exec = cmd_synth_exec,
};
