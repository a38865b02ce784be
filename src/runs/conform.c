/*
 * conform — the conformance verdict of a model's exact bytes, kept by
 * sha256 (see conform.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/conform.h"
#include "runs/worker_validate.h"
#include "sandbox/builtin.h"
#include "sandbox/wmodel.h"

#define CONFORM_CALL_MS	1000	/* as a worker's VALIDATE job */

static char *
conform_path(const char *dir, const char *sha256)
{
	char name[128];

	snprintf(name, sizeof name, ".fronts/conformance/%.64s.json", sha256);
	return path_join(dir, name);
}

void
conform_failed_names(const cJSON *report, char *buf, size_t len)
{
	const cJSON *checks, *c, *st, *name;
	size_t off = 0;

	buf[0] = '\0';
	checks = cJSON_GetObjectItemCaseSensitive(report, "checks");
	cJSON_ArrayForEach(c, checks) {
		st = cJSON_GetObjectItemCaseSensitive(c, "status");
		name = cJSON_GetObjectItemCaseSensitive(c, "name");
		if (!cJSON_IsString(st) || strcmp(st->valuestring, "fail") != 0 ||
		    !cJSON_IsString(name) || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    off > 0 ? ", " : "", name->valuestring);
	}
}

/* Whether every failed check failed by a call's time limit. */
static bool
conform_only_timeouts(const cJSON *checks)
{
	const cJSON *c, *st;
	int n = 0;

	cJSON_ArrayForEach(c, checks) {
		st = cJSON_GetObjectItemCaseSensitive(c, "status");
		if (!cJSON_IsString(st) || strcmp(st->valuestring, "fail") != 0)
			continue;
		if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c,
		    "timed_out")))
			return false;
		n++;
	}
	return n > 0;
}

/* The state a report gives: its "conformant", the failed checks' names
 * and the first failure's message. */
static void
conform_from_json(const cJSON *report, struct conform *out)
{
	const cJSON *checks, *c, *msg, *st;

	memset(out, 0, sizeof *out);
	out->state = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(report,
	    "conformant")) ? CONFORM_PASS : CONFORM_FAIL;
	conform_failed_names(report, out->failed, sizeof out->failed);
	checks = cJSON_GetObjectItemCaseSensitive(report, "checks");
	cJSON_ArrayForEach(c, checks) {
		msg = cJSON_GetObjectItemCaseSensitive(c, "message");
		st = cJSON_GetObjectItemCaseSensitive(c, "status");
		if (cJSON_IsString(st) && strcmp(st->valuestring, "fail") == 0 &&
		    cJSON_IsString(msg)) {
			snprintf(out->message, sizeof out->message, "%s",
			    msg->valuestring);
			break;
		}
	}
	if (out->state == CONFORM_FAIL && out->failed[0] == '\0')
		snprintf(out->failed, sizeof out->failed, "(unnamed)");
	out->timed_out = out->state == CONFORM_FAIL &&
	    conform_only_timeouts(checks);
}

void
conform_read(const char *dir, const char *sha256, struct conform *out)
{
	struct error err = { 0 };
	char *path = conform_path(dir, sha256), *text;
	const cJSON *sha;
	cJSON *j;
	size_t len;

	memset(out, 0, sizeof *out);
	if (file_read(path, &text, &len, &err) != 0) {
		free(path);
		return;
	}
	free(path);
	j = cJSON_ParseWithLength(text, len);
	free(text);
	sha = cJSON_GetObjectItemCaseSensitive(j, "sha256");
	if (cJSON_IsObject(j) && cJSON_IsString(sha) &&
	    strcmp(sha->valuestring, sha256) == 0 &&
	    cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(j, "conformant")))
		conform_from_json(j, out);
	cJSON_Delete(j);
}

int
conform_keep(const char *dir, const char *sha256, const cJSON *report,
    struct conform *out, struct error *err)
{
	char *sub, *path, *text;
	cJSON *j;
	int rc;

	struct conform mine;

	if (out == NULL)
		out = &mine;
	conform_from_json(report, out);
	if (out->timed_out) {
		snprintf(out->not_kept, sizeof out->not_kept, "every failure "
		    "is a call over its time limit (a loaded machine, or "
		    "--call-timeout-ms too short); the checks run again next "
		    "time");
		return 0;
	}
	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "sha256", sha256);
	cJSON_AddBoolToObject(j, "conformant", cJSON_IsTrue(
	    cJSON_GetObjectItemCaseSensitive(report, "conformant")));
	cJSON_AddItemToObject(j, "checks", cJSON_Duplicate(
	    cJSON_GetObjectItemCaseSensitive(report, "checks"), true));
	text = cJSON_Print(j);
	cJSON_Delete(j);
	sub = path_join(dir, ".fronts/conformance");
	path = conform_path(dir, sha256);
	rc = dir_ensure(sub, err) != 0 ? -1 :
	    file_write_atomic(path, text, strlen(text), err);
	free(sub);
	free(path);
	free(text);
	return rc;
}

int
conform_validate_thread(const struct project *p, const char *src, size_t len,
    int call_timeout_ms, const struct validate_params *vp,
    struct validate_report *r, struct error *err)
{
	struct validate_hooks hooks = wmodel_validate_hooks;
	struct validate_params v = *vp;
	struct wmodel *wm, *base = NULL;
	char why[256] = "";
	int rc;

	if (wmodel_load(p, src, len, call_timeout_ms > 0 ? call_timeout_ms :
	    CONFORM_CALL_MS, &wm, err) != 0)
		return -1;
	hooks.source = src;
	hooks.source_len = len;
	/* draws == 1: only the checks are wanted, not the baselines */
	if (vp->draws != 1) {
		if (!builtin_is(src, len))
			base = builtin_load(p, why, sizeof why);
		builtin_params(&v, base != NULL ? base : builtin_is(src, len) ?
		    wm : NULL, why);
	}
	wmodel_enter(wm);
	rc = validate_run(p, &wmodel_ops, wm, &hooks, &v, r, err);
	wmodel_leave(wm);
	if (base != NULL)
		wmodel_free(base);
	wmodel_free(wm);
	return rc;
}

/* The checks in this process (the operator chose thread isolation);
 * one backtest draw per post, since only the checks are kept. */
static cJSON *
conform_run_thread(const struct project *p, const char *src, size_t len,
    int call_timeout_ms, struct error *err)
{
	struct validate_params vp = { .rollouts = 20, .seed = 1, .draws = 1 };
	struct validate_report r;
	cJSON *j = NULL;

	memset(&r, 0, sizeof r);
	if (conform_validate_thread(p, src, len, call_timeout_ms, &vp, &r,
	    err) == 0)
		j = validate_report_json(p, &r);
	validate_report_free(&r);
	return j;
}

int
conform_ensure(const struct project *p, const char *dir, const char *src,
    size_t len, const struct conform_how *how, struct conform *out,
    struct error *err)
{
	struct worker_validate_job vj = { .p = p, .project_dir = dir,
	    .src = src, .len = len, .call_timeout_ms = how->call_timeout_ms,
	    .memory_mb = how->memory_mb };
	struct error kerr = { 0 };
	char sha[65];
	cJSON *report = NULL;

	sha256_hex(src, len, sha);
	conform_read(dir, sha, out);
	if (out->state != CONFORM_UNKNOWN)
		return 0;
	if (how->thread)
		report = conform_run_thread(p, src, len, how->call_timeout_ms,
		    err);
	else if (worker_validate(&vj, &report, err) != 0)
		report = NULL;
	if (report == NULL)
		return -1;
	/* a verdict that cannot be kept still stands for this run */
	if (conform_keep(dir, sha, report, out, &kerr) != 0)
		snprintf(out->not_kept, sizeof out->not_kept, "%s", kerr.msg);
	cJSON_Delete(report);
	return 0;
}
