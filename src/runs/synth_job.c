/*
 * synth_job — a whole synthesis (see synth_job.h) around the rounds of
 * synth.c: which provider answers, where recordings are looked for,
 * writing the best candidate, keeping its conformance verdict, and the
 * report.
 *
 * Replay looks in the fixtures directory alone when one is given, else
 * in <project>/.fronts/replay/, then in the source tree's
 * fixtures/replay/ next to the binary (build/fronts -> fixtures/replay),
 * then in the installed share directory (FRONTS_SHAREDIR/replay), which
 * is where the bundled demo's recordings live.
 */
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/hook.h"
#include "net/provider.h"
#include "runs/conform.h"
#include "runs/synth_job.h"
#include "runs/synth_worker.h"

#define SYNTH_REPLAY_DIRS	4

#define synth_job_say(o, ...) \
	synth_progress_say((o)->progress, (o)->progress_arg, __VA_ARGS__)

/* Where replay looks, most specific first (see the top of this file). */
static void
synth_job_replay_dirs(const struct synth_job_opts *o,
    char *dirs[SYNTH_REPLAY_DIRS + 1])
{
	const char *self = self_exe_path();
	char *copy;
	int n = 0;

	if (o->fixtures != NULL) {
		dirs[n++] = xstrdup(o->fixtures);
	} else {
		dirs[n++] = path_join(o->dir, ".fronts/replay");
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

/* Picks the provider: opts', else fronts.json's, falling back to replay
 * (and saying so) when that provider's key is not set. */
static int
synth_job_open(const struct synth_job_opts *a, const struct project *p,
    char **dirs, char *record_dir, struct provider **prov, struct error *err)
{
	struct provider_options o = { 0 };
	const char *api = p->provider_name != NULL ? p->provider_name :
	    "anthropic", *env;

	o.name = a->provider != NULL ? a->provider : api;
	if (strcmp(o.name, "replay") != 0)
		api = o.name;
	if (a->provider == NULL && !a->record && provider_key(api) == NULL) {
		synth_job_say(a, "fronts synth: %s is not set; answering from "
		    "recordings (--provider replay; --provider builtin needs "
		    "no key)", provider_key_var(api));
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
	o.cancel = a->cancel;
	return provider_open(&o, prov, err);
}

/* The report names the provider; the builtin model has none. */
static void
synth_job_report(const struct synth_job_opts *o, struct synth_job_result *out,
    struct provider *prov)
{
	char stamp[32], name[64], *fdir, *path, *text;
	time_t now = clock_now();
	struct tm tm;
	cJSON *rep;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	snprintf(name, sizeof name, "synth-%s.json", stamp);
	fdir = path_join(o->dir, ".fronts");
	path = path_join(fdir, name);
	rep = prov != NULL ? synth_report_json(&out->r, provider_name(prov),
	    provider_api(prov), provider_model(prov), out->written) :
	    synth_report_json(&out->r, "builtin", "none", "builtin",
	    out->written);
	text = cJSON_Print(rep);
	if (dir_ensure(fdir, &out->report_err) == 0 &&
	    file_write_atomic(path, text, strlen(text), &out->report_err) == 0) {
		out->report = path;
		path = NULL;
	}
	cJSON_free(text);
	cJSON_Delete(rep);
	free(path);
	free(fdir);
}

/* Writes the best candidate and keeps its conformance verdict. */
static int
synth_job_write(const struct synth_job_opts *o, struct synth_job_result *out,
    struct error *err)
{
	const struct synth_result *r = &out->r;
	const struct synth_candidate *c;
	char *path;

	if (r->best < 0)
		return error_set(err, EXIT_REFUSED, "no candidate passed the "
		    "gate in %d %s; nothing written (see the report)",
		    r->ncands, r->ncands == 1 ? "round" : "rounds");
	c = &r->cands[r->best];
	path = o->out != NULL ? xstrdup(o->out) : path_join(o->dir,
	    "model.py");
	if (file_write_atomic(path, c->code, strlen(c->code), err) != 0) {
		free(path);
		return -1;
	}
	out->written = path;
	if (c->validation != NULL) {
		/* kept by sha256: `plan` after approving needs no new run */
		conform_failed_names(c->validation, out->failed,
		    sizeof out->failed);
		conform_keep(o->dir, c->sha256, c->validation, NULL,
		    &out->keep_err);
	}
	if (!c->all_pass)
		return error_set(err, EXIT_ERROR, "the best candidate still "
		    "fails %d validation %s%s%s%s; written for review, not for "
		    "use", c->fails - c->losses, c->fails - c->losses == 1 ?
		    "check" : "checks", out->failed[0] != '\0' ? " (" : "",
		    out->failed, out->failed[0] != '\0' ? ")" : "");
	return 0;
}

static bool
synth_job_cancelled(const struct synth_job_opts *o)
{
	return o->cancel != NULL && atomic_load(o->cancel);
}

int
synth_job_run(const struct project *p, const struct synth_job_opts *o,
    struct synth_job_result *out, struct error *err)
{
	struct synth_options so = { 0 };
	struct synth_worker sw = { 0 };
	struct provider *prov = NULL;
	struct error werr = { 0 };
	char *dirs[SYNTH_REPLAY_DIRS + 1], *record_dir;
	bool builtin;
	int rc, i;

	memset(out, 0, sizeof *out);
	synth_job_replay_dirs(o, dirs);
	record_dir = o->fixtures != NULL ? xstrdup(o->fixtures) :
	    path_join(o->dir, ".fronts/replay");
	builtin = o->provider != NULL && strcmp(o->provider, "builtin") == 0;
	if (!builtin && synth_job_open(o, p, dirs, record_dir, &prov,
	    err) != 0) {
		rc = -1;
		goto out;
	}
	so.rounds = o->rounds;
	so.from_builtin = o->from_builtin;
	so.seed = o->seed;
	so.progress = o->progress;
	so.progress_arg = o->progress_arg;
	so.cancel = o->cancel;
	sw.project_dir = o->dir;
	sw.deadline = o->time_limit;
	sw.memory_mb = o->memory_mb;
	sw.cancel = o->cancel;
	so.validate = synth_worker_validate;
	so.validate_arg = &sw;
	rc = builtin ? synth_builtin(p, &so, &out->r, err) :
	    synth_run(p, prov, &so, &out->r, err);
	out->ran = true;
	/* A stopped synthesis writes nothing: the operator left. */
	if (synth_job_cancelled(o)) {
		if (rc == 0)
			error_set(err, EXIT_ERROR, "synthesis was stopped");
		rc = -1;
		goto out;
	}
	/* After a provider failure the best earlier candidate is still
	 * written (for review); the failure decides the answer. */
	if ((rc == 0 || out->r.best >= 0) &&
	    synth_job_write(o, out, &werr) != 0 && rc == 0) {
		*err = werr;
		rc = -1;
	}
	if (out->r.ncands > 0 || rc != 0)
		synth_job_report(o, out, prov);
out:
	provider_close(prov);
	for (i = 0; dirs[i] != NULL; i++)
		free(dirs[i]);
	free(record_dir);
	return rc != 0 ? -1 : 0;
}

void
synth_job_result_free(struct synth_job_result *out)
{
	if (out->ran)
		synth_result_free(&out->r);
	free(out->written);
	free(out->report);
	memset(out, 0, sizeof *out);
}
