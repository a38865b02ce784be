/*
 * cmd_validate — `fronts validate`: runs the approved world model's
 * conformance checks and its backtest against history.jsonl, prints the
 * report (or --json) and exits 1 when a conformance check failed.
 * `--backtest` prints the backtest alone (the table, or with --json the
 * one object {"backtest": …}) and exits 1 when the model cannot be
 * measured (no predict, or predict failed). Like `plan`, it runs the
 * model in a sandboxed worker unless the operator asks for --isolation
 * thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/live.h"
#include "core/termsafe.h"
#include "core/project.h"
#include "core/validate.h"
#include "sandbox/approval.h"
#include "runs/conform.h"
#include "runs/worker_validate.h"

struct validate_opts {
	const char	*dir;
	const char	*model;
	bool		 json;
	bool		 thread;	/* --isolation thread */
	bool		 backtest;
	double		 window;
	double		 time_limit;	/* 0: the worker's default */
	long		 memory_mb;	/* 0: the worker's default */
};

static int
validate_options(struct cli *cli, struct args *a,
    struct validate_opts *o)
{
	const char *iso = args_string(a, "isolation");

	memset(o, 0, sizeof *o);
	o->dir = cli->dir;
	o->model = args_string(a, "model");
	o->json = args_has(a, "json");
	o->backtest = args_has(a, "backtest");
	o->window = args_number(a, "window", 0);
	o->time_limit = args_number(a, "time-limit", 0);
	o->memory_mb = (long)args_whole(a, "memory-mb", 0);
	o->thread = iso != NULL && strcmp(iso, "thread") == 0;
	if (o->thread && (o->time_limit > 0 || o->memory_mb > 0))
		return cli_usage_error("validate", "--time-limit and --memory-mb "
		    "are the worker's: --isolation thread has none");
	if (o->window > 0 && !o->backtest)
		return cli_usage_error("validate", "--window goes with "
		    "--backtest");
	return 0;
}

/* The report, then the live error of published posts beside the
 * backtest's figures. */
static void
validate_print(const struct project *p, const struct validate_report *r,
    const struct validate_opts *o)
{
	struct live_report live;
	char *s;
	cJSON *j;

	live_measure(p, &r->backtest, &live);
	if (o->json) {
		if (o->backtest) {
			j = cJSON_CreateObject();
			cJSON_AddItemToObject(j, "backtest", backtest_json(p,
			    &r->backtest, false));
		} else
			j = validate_report_json(p, r);
		cJSON_AddItemToObject(j, "live", live_json(&live));
		s = cJSON_Print(j);
		termsafe_json_puts(s, stdout);
		cJSON_Delete(j);
	} else {
		s = o->backtest ? backtest_text(p, &r->backtest) :
		    validate_report_text(p, r);
		termsafe_fputs(s, stdout);
		free(s);
		s = live_text(&live);
		termsafe_fputs(s, stdout);
	}
	free(s);
	live_report_free(&live);
}

/* In this process, under the guard: only when the operator asked. */
static int
validate_in_thread(const struct project *p, const char *src, size_t len,
    double window, struct validate_report *r, struct error *err)
{
	struct validate_params vp = { .rollouts = 20, .seed = 1,
	    .window = window };

	return conform_validate_thread(p, src, len, 0, &vp, r, err);
}

static int
validate_in_worker(const struct project *p, const struct validate_opts *o,
    const char *src, size_t len, struct validate_report *r,
    struct error *err)
{
	struct worker_validate_job vj = { .project_dir = o->dir, .src = src,
	    .len = len, .window = o->window, .deadline = o->time_limit,
	    .memory_mb = o->memory_mb };

	return worker_validate_report(&vj, p, r, err);
}

/* The checks' verdict, kept by the model's sha256 for `plan`; a file
 * that cannot be written is a warning: the report stands. */
static void
validate_keep(const char *dir, const char *src, size_t len,
    const struct project *p, const struct validate_report *r)
{
	struct error err = { 0 };
	struct conform c;
	char sha[65];
	cJSON *j = validate_report_json(p, r);

	sha256_hex(src, len, sha);
	if (conform_keep(dir, sha, j, &c, &err) != 0)
		fprintf(stderr, "fronts validate: the conformance result is "
		    "not kept: %s\n", err.msg);
	else if (c.not_kept[0] != '\0')
		fprintf(stderr, "fronts validate: the conformance result is "
		    "not kept: %s\n", c.not_kept);
	cJSON_Delete(j);
}

static int
cmd_validate_exec(struct cli *cli, struct args *a)
{
	struct validate_opts o;
	struct validate_report r;
	struct project *p = NULL;
	struct error err = { 0 };
	char *path, *src;
	size_t len;
	int rc;

	if ((rc = validate_options(cli, a, &o)) != 0)
		return rc;
	memset(&r, 0, sizeof r);
	rc = -1;
	if (cli_load_approved(o.dir, o.model, &p, &path, &src, &len,
	    &err) != 0)
		goto out;
	rc = o.thread ? validate_in_thread(p, src, len, o.window, &r, &err) :
	    validate_in_worker(p, &o, src, len, &r, &err);
	if (rc == 0) {
		validate_keep(o.dir, src, len, p, &r);
		validate_print(p, &r, &o);
		if (o.backtest && !r.backtest.ran)
			rc = error_set(&err, EXIT_ERROR, "the model defines no "
			    "predict(), so the backtest cannot measure it");
		else if (o.backtest && r.backtest.error[0] != '\0')
			rc = error_set(&err, EXIT_ERROR, "the backtest stopped: "
			    "%s", r.backtest.error);
		else if (o.backtest)
			;
		else if (!r.conformant)
			rc = error_set(&err, EXIT_ERROR, "the model does not "
			    "conform to the contract (see the failed checks)");
	}
out:
	validate_report_free(&r);
	project_free(p);
	free(src);
	free(path);
	return rc == 0 ? EXIT_OK : cli_report("validate", &err);
}

const struct cmd_entry cmd_validate_entry = {
	.name = "validate",
	.summary = "check the model's conformance and measure it on history",
	.usage = "[-C DIR] [--model FILE] [--isolation process|thread] "
	    "[--backtest [--window F]] [--json]\n"
	    "               [--time-limit S] [--memory-mb MB]",
	.options = (const struct args_option[]){
		CLI_OPTION_MODEL,
		CLI_OPTION_ISOLATION,
		{ .name = "backtest", .kind = ARGS_FLAG,
		  .help = "print only the backtest on history.jsonl" },
		{ .name = "window", .kind = ARGS_NUMBER, .metavar = "F",
		  .over = 0, .upto = 1, .below = true,
		  .help = "with --backtest: the newest fraction of history\n"
		  "predicted (default 0.2)" },
		CLI_OPTION_TIME_LIMIT("120; the worker is killed at it)"),
		CLI_OPTION_MEMORY_MB,
		CLI_OPTION_JSON,
		{ .name = NULL }
	},
	.exec = cmd_validate_exec,
};
