/*
 * cmd_synth — `fronts synth`: asks a language model to write the world
 * model, refines it over rounds, writes the best candidate (unapproved)
 * and a synthesis report in .fronts/.
 *
 * Recordings: --record stores each exchange in <project>/.fronts/replay/
 * (or --fixtures DIR). Replay looks in --fixtures DIR alone when given,
 * else in <project>/.fronts/replay/, then in the source tree's
 * fixtures/replay/ next to the binary (build/fronts -> fixtures/replay),
 * then in the installed share directory (FRONTS_SHAREDIR/replay), which
 * is where the bundled demo's recordings live.
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
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/hook.h"
#include "cli/cli.h"
#include "core/termsafe.h"
#include "core/project.h"
#include "net/provider.h"
#include "runs/conform.h"
#include "runs/synth.h"
#include "runs/synth_worker.h"

#define SYNTH_REPLAY_DIRS	4

struct synth_args {
	const char	*provider;
	const char	*model;
	const char	*out;
	const char	*fixtures;
	bool		 record;
	bool		 from_builtin;
	int		 rounds;
	long		 timeout_ms;
	uint64_t	 seed;
	double		 time_limit;	/* per candidate; 0: the default */
	long		 memory_mb;	/* 0: the worker's default */
};

static void
synth_progress(void *arg, const char *line)
{
	termsafe_fprintf(stderr, "%s\n", line);
}

static void
synth_parse(const struct args *args, struct synth_args *a)
{
	memset(a, 0, sizeof *a);
	a->out = args_string(args, "out");
	a->provider = args_string(args, "provider");
	a->model = args_string(args, "llm-model");
	a->record = args_has(args, "record");
	a->from_builtin = args_has(args, "from-builtin");
	a->fixtures = args_string(args, "fixtures");
	a->rounds = (int)args_whole(args, "rounds", 0);
	a->timeout_ms = args_ms(args, "timeout", 0);
	a->time_limit = args_number(args, "time-limit", 0);
	a->memory_mb = (long)args_whole(args, "memory-mb", 0);
	a->seed = args_whole(args, "seed", 0);
}

/* Where replay looks, most specific first (see the top of this file). */
static void
synth_replay_dirs(const struct cli *cli, const struct synth_args *a,
    char *dirs[SYNTH_REPLAY_DIRS + 1])
{
	const char *self = self_exe_path();
	char *copy;
	int n = 0;

	if (a->fixtures != NULL) {
		dirs[n++] = xstrdup(a->fixtures);
	} else {
		dirs[n++] = path_join(cli->dir, ".fronts/replay");
		if (self != NULL) {
			copy = xstrdup(self);
			xasprintf(&dirs[n++], "%s/fixtures/replay",
			    dirname(dirname(copy)));
			free(copy);
		}
		dirs[n++] = xstrdup(FRONTS_SHAREDIR "/replay");
	}
	dirs[n] = NULL;
}

/* Picks the provider: --provider, else fronts.json's, falling back to
 * replay (and saying so) when that provider's key is not set. */
static int
synth_open(const struct cli *cli, const struct synth_args *a,
    const struct project *p, char **dirs, char *record_dir,
    struct provider **prov, struct error *err)
{
	struct provider_options o = { 0 };
	const char *api = p->provider_name != NULL ? p->provider_name :
	    "anthropic", *env;

	o.name = a->provider != NULL ? a->provider : api;
	if (strcmp(o.name, "replay") != 0)
		api = o.name;
	if (a->provider == NULL && !a->record && provider_key(api) == NULL) {
		fprintf(stderr, "fronts synth: %s is not set; answering from "
		    "recordings (--provider replay; --provider builtin needs "
		    "no key)\n", provider_key_var(api));
		o.name = "replay";
	}
	o.api = api;
	o.model = a->model != NULL ? a->model : p->provider_model != NULL ?
	    p->provider_model : provider_default_model(api);
	o.timeout_ms = a->timeout_ms;
	if ((env = hook_env(HOOK_RETRY_SCALE)) != NULL)
		o.retry_scale = strtod(env, NULL);
	o.record = a->record;
	o.record_dir = record_dir;
	o.replay_dirs = (const char *const *)dirs;
	return provider_open(&o, prov, err);
}

/* The report names the provider; the builtin model has none. */
static void
synth_write_report(const struct cli *cli, const struct synth_result *r,
    struct provider *prov, const char *written)
{
	char stamp[32], name[64], *fdir, *path, *text;
	struct error err = { 0 };
	time_t now = clock_now();
	struct tm tm;
	cJSON *rep;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	snprintf(name, sizeof name, "synth-%s.json", stamp);
	fdir = path_join(cli->dir, ".fronts");
	path = path_join(fdir, name);
	rep = prov != NULL ? synth_report_json(r, provider_name(prov),
	    provider_api(prov), provider_model(prov), written) :
	    synth_report_json(r, "builtin", "none", "builtin", written);
	text = cJSON_Print(rep);
	if (dir_ensure(fdir, &err) != 0 ||
	    file_write_atomic(path, text, strlen(text), &err) != 0)
		cli_report("synth", &err);
	else
		fprintf(stderr, "report: %s\n", path);
	cJSON_free(text);
	cJSON_Delete(rep);
	free(path);
	free(fdir);
}

/* Writes the best candidate and says what the operator must do next. */
static int
synth_finish(const struct cli *cli, const struct synth_args *a,
    const struct synth_result *r, char **written, struct error *err)
{
	const struct synth_candidate *c;
	struct error kerr = { 0 };
	char *out, sp[32], bi[32], failed[256] = "";

	*written = NULL;
	if (r->best < 0)
		return error_set(err, EXIT_REFUSED, "no candidate passed the "
		    "gate in %d %s; nothing written (see the report)",
		    r->ncands, r->ncands == 1 ? "round" : "rounds");
	c = &r->cands[r->best];
	out = a->out != NULL ? xstrdup(a->out) : path_join(cli->dir,
	    "model.py");
	if (file_write_atomic(out, c->code, strlen(c->code), err) != 0) {
		free(out);
		return -1;
	}
	printf("wrote %s (sha256 %s): candidate %d of %d\n", out, c->sha256,
	    r->best + 1, r->ncands);
	if (c->measured)
		printf("backtest: mae_log %.3f (front_median %.3f, hour_weekday "
		    "%.3f, builtin %s), spearman %s, coverage80 %.0f%%: %s%s\n",
		    c->mae_log, c->base_mae[0], c->base_mae[1],
		    backtest_figure_text(c->builtin_mae, false, false, bi,
		    sizeof bi), backtest_figure_text(c->spearman, false, false,
		    sp, sizeof sp), c->coverage80 * 100, c->beats ?
		    "beats both baselines" : "does NOT beat both baselines",
		    synth_builtin_word(c));
	else if (c->validation != NULL)
		printf("backtest: not measured (no working predict(), or no "
		    "history to hold out)\n");
	if (c->validation != NULL) {
		/* kept by sha256: `plan` after approving needs no new run */
		conform_failed_names(c->validation, failed, sizeof failed);
		if (failed[0] != '\0')
			termsafe_fprintf(stdout, "conformance: FAILED: %s\n",
			    failed);
		if (conform_keep(cli->dir, c->sha256, c->validation, NULL,
		    &kerr) != 0)
			fprintf(stderr, "fronts synth: the conformance result "
			    "is not kept: %s\n", kerr.msg);
	}
	printf("it is NOT approved: review it, then run `fronts approve%s%s`\n",
	    a->out != NULL ? " --model " : "", a->out != NULL ? out : "");
	*written = out;
	if (!c->all_pass)
		return error_set(err, EXIT_ERROR, "the best candidate still "
		    "fails %d validation %s%s%s%s; written for review, not for "
		    "use", c->fails - c->losses, c->fails - c->losses == 1 ?
		    "check" : "checks", failed[0] != '\0' ? " (" : "", failed,
		    failed[0] != '\0' ? ")" : "");
	return 0;
}

static int
cmd_synth_exec(struct cli *cli, struct args *args)
{
	struct synth_args a;
	struct synth_options so = { 0 };
	struct synth_result r;
	struct synth_worker sw = { 0 };
	struct error err = { 0 }, ferr = { 0 };
	struct project *p = NULL;
	struct provider *prov = NULL;
	char *dirs[SYNTH_REPLAY_DIRS + 1], *record_dir, *written = NULL;
	bool builtin;
	int rc, i;

	synth_parse(args, &a);
	if (project_load(cli->dir, &p, &err) != 0)
		return cli_report("synth", &err);
	synth_replay_dirs(cli, &a, dirs);
	record_dir = a.fixtures != NULL ? xstrdup(a.fixtures) :
	    path_join(cli->dir, ".fronts/replay");
	builtin = a.provider != NULL && strcmp(a.provider, "builtin") == 0;
	if (builtin && (a.record || a.model != NULL || a.rounds > 1 ||
	    a.from_builtin)) {
		rc = cli_usage_error("synth", "--provider builtin asks no "
		    "language model: no --record, --llm-model, --rounds or "
		    "--from-builtin");
		goto out;
	}
	if (!builtin && synth_open(cli, &a, p, dirs, record_dir, &prov,
	    &err) != 0) {
		rc = cli_report("synth", &err);
		goto out;
	}
	so.rounds = a.rounds;
	so.from_builtin = a.from_builtin;
	so.seed = a.seed;
	so.progress = synth_progress;
	sw.project_dir = cli->dir;
	sw.deadline = a.time_limit;
	sw.memory_mb = a.memory_mb;
	so.validate = synth_worker_validate;
	so.validate_arg = &sw;
	/* After a provider failure the best earlier candidate is still
	 * written (for review); the failure decides the exit code. */
	rc = builtin ? synth_builtin(p, &so, &r, &err) :
	    synth_run(p, prov, &so, &r, &err);
	if ((rc == 0 || r.best >= 0) &&
	    synth_finish(cli, &a, &r, &written, &ferr) != 0 && rc == 0)
		err = ferr;
	if (r.ncands > 0 || rc != 0)
		synth_write_report(cli, &r, prov, written);
	rc = err.code != 0 ? cli_report("synth", &err) : EXIT_OK;
	synth_result_free(&r);
	free(written);
out:
	provider_close(prov);
	for (i = 0; dirs[i] != NULL; i++)
		free(dirs[i]);
	free(record_dir);
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
