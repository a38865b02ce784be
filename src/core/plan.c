/*
 * plan — a posting plan as docs/DESIGN.md's `fronts plan --json` object, read
 * and written, and built from a finished search: the principal variation's
 * posts, each re-checked against this process's legality engine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/plan.h"
#include "core/timeutil.h"

#define ALTS_PER_DECISION	3

static void
plan_post_free(struct plan_post *pp)
{
	int k;

	free(pp->text);
	for (k = 0; k < pp->nlater; k++)
		free(pp->later[k]);
	free(pp->later);
	pp->text = NULL;
	pp->later = NULL;
	pp->nlater = 0;
}

void
plan_free(struct plan *pl)
{
	int i;

	if (pl == NULL)
		return;
	for (i = 0; i < pl->nposts; i++)
		plan_post_free(&pl->posts[i]);
	free(pl->posts);
	free(pl->alts);
	pl->posts = NULL;
	pl->alts = NULL;
	pl->nposts = pl->nalts = 0;
}

void
plan_copy(struct plan *dst, const struct plan *src)
{
	int i, k;

	*dst = *src;
	dst->posts = xcalloc((size_t)src->nposts + 1, sizeof *dst->posts);
	for (i = 0; i < src->nposts; i++) {
		dst->posts[i] = src->posts[i];
		dst->posts[i].text = xstrdup(src->posts[i].text);
		if (src->posts[i].later == NULL)
			continue;
		dst->posts[i].later = xcalloc((size_t)src->posts[i].nlater,
		    sizeof *dst->posts[i].later);
		for (k = 0; k < src->posts[i].nlater; k++)
			dst->posts[i].later[k] = xstrdup(src->posts[i].later[k]);
	}
	dst->alts = xcalloc((size_t)src->nalts + 1, sizeof *dst->alts);
	if (src->nalts > 0)
		memcpy(dst->alts, src->alts, (size_t)src->nalts *
		    sizeof *dst->alts);
}

/* The sha256 of what a stream collected, as hex; the stream is closed.
 * (open_memstream grows its buffer geometrically: one pass, linear.) */
static void
plan_stream_sha(FILE *f, char **buf, size_t *len, char hex[65])
{
	fclose(f);
	sha256_hex(*buf != NULL ? *buf : "", *buf != NULL ? *len : 0, hex);
	free(*buf);
}

/* A stable id: the first 16 hex digits of a sha256 over the posts. */
static void
plan_compute_id(struct plan *pl, const struct project *p)
{
	char *buf = NULL, hex[65];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, k;

	if (f == NULL)
		abort();
	for (i = 0; i < pl->nposts; i++) {
		fprintf(f, "%d|%s|%s|%s\n", pl->posts[i].slot,
		    p->fronts[pl->posts[i].front].id,
		    p->drafts[pl->posts[i].draft].id, pl->posts[i].text);
		/* Later parts count only once edited: the ids of plans
		 * without such edits stay what they were. */
		for (k = 0; k < pl->posts[i].nlater; k++)
			fprintf(f, "+%d|%s\n", k + 2, pl->posts[i].later[k]);
	}
	plan_stream_sha(f, &buf, &len, hex);
	snprintf(pl->id, sizeof pl->id, "p%.16s", hex);
}

void
plan_project_hashes(const struct project *p, char fronts[PLAN_HASH_LEN + 1],
    char drafts[PLAN_HASH_LEN + 1])
{
	char *buf = NULL, *raw, hex[65];
	size_t len = 0;
	FILE *f;
	int i;

	if ((f = open_memstream(&buf, &len)) == NULL)
		abort();
	for (i = 0; i < p->nfronts; i++) {
		raw = p->fronts[i].raw != NULL ?
		    cJSON_PrintUnformatted(p->fronts[i].raw) : NULL;
		fprintf(f, "%s\n%s\n", p->fronts[i].id, raw != NULL ? raw : "");
		free(raw);
	}
	plan_stream_sha(f, &buf, &len, hex);
	snprintf(fronts, PLAN_HASH_LEN + 1, "%s", hex);
	buf = NULL;
	len = 0;
	if ((f = open_memstream(&buf, &len)) == NULL)
		abort();
	for (i = 0; i < p->ndrafts; i++) {
		fprintf(f, "%s\n%llx\n%zu\n%s\n", p->drafts[i].id,
		    (unsigned long long)p->drafts[i].front_mask,
		    strlen(p->drafts[i].text), p->drafts[i].text);
		/* A thread, images, variants or a window: a plain draft's
		 * fingerprint stays what older plans recorded. */
		project_draft_shape_print(f, &p->drafts[i]);
	}
	plan_stream_sha(f, &buf, &len, hex);
	snprintf(drafts, PLAN_HASH_LEN + 1, "%s", hex);
}

int
plan_identity_check(const struct project *p, const struct plan *pl,
    char *warn, size_t len, struct error *err)
{
	char fronts[PLAN_HASH_LEN + 1], drafts[PLAN_HASH_LEN + 1];

	warn[0] = '\0';
	if (!pl->has_project) {
		snprintf(warn, len, "the plan carries no project identity "
		    "(made by an older fronts?): its draft ids are taken as "
		    "project %s's", p->name);
		return 0;
	}
	if (strcmp(pl->project_name, p->name) != 0)
		return error_set(err, EXIT_ERROR, "project: the plan was made "
		    "for project \"%s\", not \"%s\": its draft ids name other "
		    "drafts here", pl->project_name, p->name);
	plan_project_hashes(p, fronts, drafts);
	if (strcmp(pl->project_drafts, drafts) != 0)
		snprintf(warn, len, "the plan was made before the drafts "
		    "changed (drafts.jsonl): check each post's text against "
		    "its draft, or plan again");
	else if (strcmp(pl->project_fronts, fronts) != 0)
		snprintf(warn, len, "the plan was made before the fronts "
		    "changed (fronts.json): its times and limits may be "
		    "stale; plan again if in doubt");
	return 0;
}

int
plan_post_nparts(const struct project *p, const struct plan_post *pp)
{
	return project_draft_body(p, pp->draft, pp->front)->nparts;
}

const char *
plan_post_part(const struct project *p, const struct plan_post *pp, int k)
{
	const struct body *b = project_draft_body(p, pp->draft, pp->front);

	if (k == 0 || k >= b->nparts)
		return pp->text;
	if (pp->later != NULL && k - 1 < pp->nlater)
		return pp->later[k - 1];
	return b->parts[k].text;
}

bool
plan_post_part_edited(const struct project *p, const struct plan_post *pp,
    int k)
{
	const struct body *b = project_draft_body(p, pp->draft, pp->front);

	if (k == 0)
		return strcmp(pp->text, project_draft_text(p, pp->draft,
		    pp->front)) != 0;
	return k < b->nparts && strcmp(plan_post_part(p, pp, k),
	    b->parts[k].text) != 0;
}

bool
plan_post_edited(const struct project *p, const struct plan_post *pp)
{
	int k, n = plan_post_nparts(p, pp);

	for (k = 0; k < n; k++)
		if (plan_post_part_edited(p, pp, k))
			return true;
	return false;
}

void
plan_post_set_part(const struct project *p, struct plan_post *pp, int k,
    char *text)
{
	const struct body *b = project_draft_body(p, pp->draft, pp->front);
	int j;

	if (k == 0 || k >= b->nparts) {
		free(pp->text);
		pp->text = text;
		return;
	}
	if (pp->later == NULL) {
		pp->nlater = b->nparts - 1;
		pp->later = xcalloc((size_t)pp->nlater, sizeof *pp->later);
		for (j = 0; j < pp->nlater; j++)
			pp->later[j] = xstrdup(b->parts[j + 1].text);
	}
	free(pp->later[k - 1]);
	pp->later[k - 1] = text;
}

static double
plan_round(double x)
{
	return isfinite(x) ? round(x * 1000) / 1000 : 0;
}

static void
plan_add_time(cJSON *o, time_t t)
{
	char buf[64];

	time_format_local(t, buf, sizeof buf);
	cJSON_AddStringToObject(o, "at", buf);
}

static cJSON *
plan_post_json(const struct project *p, const struct plan_post *pp)
{
	cJSON *o = cJSON_CreateObject(), *ci, *th;
	int k;

	cJSON_AddNumberToObject(o, "slot", pp->slot);
	plan_add_time(o, pp->at);
	cJSON_AddStringToObject(o, "front", p->fronts[pp->front].id);
	cJSON_AddStringToObject(o, "draft", p->drafts[pp->draft].id);
	cJSON_AddStringToObject(o, "text", pp->text);
	if (pp->later != NULL) {
		th = cJSON_AddArrayToObject(o, "thread");
		for (k = 0; k < pp->nlater; k++)
			cJSON_AddItemToArray(th,
			    cJSON_CreateString(pp->later[k]));
	}
	if (pp->reward_known)
		cJSON_AddNumberToObject(o, "expected_reward",
		    plan_round(pp->expected_reward));
	cJSON_AddNumberToObject(o, "visits", (double)pp->visits);
	if (pp->reward_known) {
		ci = cJSON_AddArrayToObject(o, "ci95");
		cJSON_AddItemToArray(ci,
		    cJSON_CreateNumber(plan_round(pp->ci_lo)));
		cJSON_AddItemToArray(ci,
		    cJSON_CreateNumber(plan_round(pp->ci_hi)));
	}
	return o;
}

static cJSON *
plan_alt_json(const struct project *p, const struct plan_alt *a)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "decision", a->decision);
	cJSON_AddNumberToObject(o, "slot", a->slot);
	plan_add_time(o, project_slot_time(p, a->slot));
	if (a->action.kind == ACTION_WAIT)
		cJSON_AddStringToObject(o, "action", "wait");
	else {
		cJSON_AddStringToObject(o, "action", "post");
		cJSON_AddStringToObject(o, "front",
		    p->fronts[a->action.front].id);
		cJSON_AddStringToObject(o, "draft",
		    p->drafts[a->action.draft].id);
	}
	cJSON_AddNumberToObject(o, "visits", (double)a->visits);
	cJSON_AddNumberToObject(o, "mean", plan_round(a->mean));
	return o;
}

cJSON *
plan_to_json(const struct project *p, const struct plan *pl)
{
	cJSON *o = cJSON_CreateObject(), *arr, *st, *id;
	char fronts[PLAN_HASH_LEN + 1], drafts[PLAN_HASH_LEN + 1];
	int i;

	/* Who the plan is for: publish refuses another project's plan. */
	plan_project_hashes(p, fronts, drafts);
	id = cJSON_AddObjectToObject(o, "project");
	cJSON_AddStringToObject(id, "name", p->name);
	cJSON_AddStringToObject(id, "fronts_sha256", fronts);
	cJSON_AddStringToObject(id, "drafts_sha256", drafts);
	arr = cJSON_AddArrayToObject(o, "plan");
	for (i = 0; i < pl->nposts; i++)
		cJSON_AddItemToArray(arr, plan_post_json(p, &pl->posts[i]));
	cJSON_AddNumberToObject(o, "expected_total",
	    plan_round(pl->expected_total));
	arr = cJSON_AddArrayToObject(o, "alternatives");
	for (i = 0; i < pl->nalts; i++)
		cJSON_AddItemToArray(arr, plan_alt_json(p, &pl->alts[i]));
	st = cJSON_AddObjectToObject(o, "stats");
	cJSON_AddNumberToObject(st, "iterations", (double)pl->stats.iterations);
	cJSON_AddNumberToObject(st, "model_calls",
	    (double)pl->stats.model_calls);
	cJSON_AddNumberToObject(st, "illegal_proposals",
	    (double)pl->stats.illegal_proposals);
	cJSON_AddNumberToObject(st, "seconds", plan_round(pl->stats.seconds));
	cJSON_AddNumberToObject(st, "model_seconds",
	    plan_round(pl->stats.model_seconds));
	cJSON_AddNumberToObject(st, "workers", pl->stats.workers);
	cJSON_AddStringToObject(st, "isolation",
	    pl->stats.isolation == ISOLATION_THREAD ? "thread" : "process");
	cJSON_AddNumberToObject(st, "seed", (double)pl->stats.seed);
	cJSON_AddBoolToObject(st, "stopped", pl->stats.stopped);
	if (pl->stats.sandbox[0] != '\0')
		cJSON_AddStringToObject(st, "sandbox", pl->stats.sandbox);
	if (pl->stats.warning[0] != '\0')
		cJSON_AddItemToArray(cJSON_AddArrayToObject(st, "warnings"),
		    cJSON_CreateString(pl->stats.warning));
	return o;
}

/*
 * Field readers: each names the field in its error. An optional field that
 * is absent reads as 0 and is not checked: *out is always set, never left
 * as whatever the caller's variable held.
 */
static int
plan_get_number(const cJSON *o, const char *where, const char *name,
    bool required, double *out, struct error *err)
{
	enum json_found f = json_number(o, name, out);

	if (f == JSON_ABSENT && !required) {
		*out = 0;
		return 0;
	}
	if (f != JSON_OK)
		return error_set(err, EXIT_ERROR, "%s.%s: %s", where, name,
		    f == JSON_ABSENT ? "missing" : "not a number");
	return 0;
}

/* A whole number from 0 to max. */
static int
plan_get_count(const cJSON *o, const char *where, const char *name,
    bool required, double max, double *out, struct error *err)
{
	if (plan_get_number(o, where, name, required, out, err) != 0)
		return -1;
	if (*out < 0 || *out > max || *out != floor(*out))
		return error_set(err, EXIT_ERROR, "%s.%s: %g is not a whole "
		    "number from 0 to %g", where, name, *out, max);
	return 0;
}

static const char *
plan_get_string(const cJSON *o, const char *where, const char *name,
    struct error *err)
{
	const char *s = NULL;
	enum json_found f = json_string(o, name, &s);

	if (f != JSON_OK)
		error_set(err, EXIT_ERROR, "%s.%s: %s", where, name,
		    f == JSON_ABSENT ? "missing" : "not a string");
	return s;
}

static int
plan_get_ids(const struct project *p, const cJSON *o, const char *where,
    int *front, int *draft, struct error *err)
{
	const char *s;

	if ((s = plan_get_string(o, where, "front", err)) == NULL)
		return -1;
	if ((*front = project_front_index(p, s)) < 0)
		return error_set(err, EXIT_ERROR, "%s.front: unknown front "
		    "\"%s\"", where, s);
	if ((s = plan_get_string(o, where, "draft", err)) == NULL)
		return -1;
	if ((*draft = project_draft_index(p, s)) < 0)
		return error_set(err, EXIT_ERROR, "%s.draft: unknown draft "
		    "\"%s\"", where, s);
	return 0;
}

/* A text its front could never take makes the plan no plan of this
 * project: refused with the post's name. */
static int
plan_text_fits(const struct project *p, int front, const char *text,
    const char *where, const char *field, struct error *err)
{
	struct text_measure m;

	if (legal_text(&p->fronts[front], text, &m) != LEGAL_TOO_LONG)
		return 0;
	return error_set(err, EXIT_ERROR, "%s%s: length %d/%d %s on front "
	    "%s: over the front's limit", where, field, m.length, m.limit,
	    text_unit_name(m.unit), p->fronts[front].id);
}

/* "project": who the plan was made for (optional, for older plans). */
static int
plan_parse_project(const cJSON *json, struct plan *out, struct error *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(json, "project");
	const char *name, *fr, *dr;

	if (o == NULL)
		return 0;
	name = json_str(o, "name");
	fr = json_str(o, "fronts_sha256");
	dr = json_str(o, "drafts_sha256");
	if (!cJSON_IsObject(o) || name == NULL || fr == NULL || dr == NULL)
		return error_set(err, EXIT_ERROR, "project: not an object with "
		    "\"name\", \"fronts_sha256\" and \"drafts_sha256\" strings");
	out->has_project = true;
	snprintf(out->project_name, sizeof out->project_name, "%s", name);
	snprintf(out->project_fronts, sizeof out->project_fronts, "%s", fr);
	snprintf(out->project_drafts, sizeof out->project_drafts, "%s", dr);
	return 0;
}

/* "thread": the edited texts of the parts after the first, one for each
 * part the front's body has after it, each within the front's limit. */
static int
plan_parse_later(const struct project *p, const cJSON *o, const char *where,
    struct plan_post *pp, struct error *err)
{
	const cJSON *th = cJSON_GetObjectItemCaseSensitive(o, "thread"), *t;
	int n = plan_post_nparts(p, pp) - 1, k = 0;
	char at[48];

	if (th == NULL)
		return 0;
	if (!cJSON_IsArray(th) || cJSON_GetArraySize(th) != n)
		return error_set(err, EXIT_ERROR, "%s.thread: not an array of "
		    "the %d later part%s draft %s has on front %s", where, n,
		    n == 1 ? "" : "s", p->drafts[pp->draft].id,
		    p->fronts[pp->front].id);
	pp->later = xcalloc((size_t)n + 1, sizeof *pp->later);
	cJSON_ArrayForEach(t, th) {
		snprintf(at, sizeof at, "%s.thread[%d]", where, k);
		if (!cJSON_IsString(t))
			return error_set(err, EXIT_ERROR, "%s: not a string",
			    at);
		if (plan_text_fits(p, pp->front, t->valuestring, at, "",
		    err) != 0)
			return -1;
		pp->later[k] = xstrdup(t->valuestring);
		pp->nlater = ++k;
	}
	return 0;
}

static int
plan_parse_post(const struct project *p, const cJSON *o, int i,
    struct plan_post *pp, struct error *err)
{
	const cJSON *ci;
	const char *s;
	char where[32];
	double v;

	snprintf(where, sizeof where, "plan[%d]", i);
	if (!cJSON_IsObject(o))
		return error_set(err, EXIT_ERROR, "%s: not an object", where);
	if (plan_get_count(o, where, "slot", true, 1e9, &v, err) != 0)
		return -1;
	pp->slot = (int)v;
	pp->at = project_slot_time(p, pp->slot);
	if (cJSON_GetObjectItemCaseSensitive(o, "at") != NULL) {
		if ((s = plan_get_string(o, where, "at", err)) == NULL)
			return -1;
		if (time_parse_iso(s, &pp->at) != 0)
			return error_set(err, EXIT_ERROR, "%s.at: \"%s\" is not "
			    "an ISO-8601 time", where, s);
	}
	if (plan_get_ids(p, o, where, &pp->front, &pp->draft, err) != 0)
		return -1;
	if ((s = plan_get_string(o, where, "text", err)) == NULL)
		return -1;
	if (plan_text_fits(p, pp->front, s, where, ".text", err) != 0)
		return -1;
	pp->text = xstrdup(s);
	if (plan_parse_later(p, o, where, pp, err) != 0)
		return -1;
	/* Absent stays unknown: not a prediction of 0 in [0, 0]. */
	pp->reward_known = cJSON_GetObjectItemCaseSensitive(o,
	    "expected_reward") != NULL;
	if (plan_get_number(o, where, "expected_reward", false,
	    &pp->expected_reward, err) != 0)
		return -1;
	if (plan_get_count(o, where, "visits", false, 1e18, &v, err) != 0)
		return -1;
	pp->visits = (uint64_t)v;
	ci = cJSON_GetObjectItemCaseSensitive(o, "ci95");
	pp->ci_lo = pp->ci_hi = pp->expected_reward;
	if (ci != NULL) {
		if (!cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2 ||
		    !json_finite(cJSON_GetArrayItem(ci, 0)) ||
		    !json_finite(cJSON_GetArrayItem(ci, 1)))
			return error_set(err, EXIT_ERROR, "%s.ci95: not two "
			    "numbers", where);
		pp->ci_lo = cJSON_GetArrayItem(ci, 0)->valuedouble;
		pp->ci_hi = cJSON_GetArrayItem(ci, 1)->valuedouble;
	}
	return 0;
}

static int
plan_parse_alt(const struct project *p, const cJSON *o, int i,
    struct plan_alt *a, struct error *err)
{
	const char *s;
	char where[40];
	double v;
	int f, d;

	snprintf(where, sizeof where, "alternatives[%d]", i);
	if (!cJSON_IsObject(o))
		return error_set(err, EXIT_ERROR, "%s: not an object", where);
	if (plan_get_count(o, where, "decision", true, 1e9, &v, err) != 0)
		return -1;
	a->decision = (int)v;
	if (plan_get_count(o, where, "slot", true, 1e9, &v, err) != 0)
		return -1;
	a->slot = (int)v;
	if ((s = plan_get_string(o, where, "action", err)) == NULL)
		return -1;
	memset(&a->action, 0, sizeof a->action);
	if (strcmp(s, "post") == 0) {
		if (plan_get_ids(p, o, where, &f, &d, err) != 0)
			return -1;
		a->action.kind = ACTION_POST;
		a->action.front = (uint16_t)f;
		a->action.draft = (uint32_t)d;
	} else if (strcmp(s, "wait") != 0)
		return error_set(err, EXIT_ERROR, "%s.action: \"%s\" is neither "
		    "\"post\" nor \"wait\"", where, s);
	if (plan_get_count(o, where, "visits", false, 1e18, &v, err) != 0)
		return -1;
	a->visits = (uint64_t)v;
	return plan_get_number(o, where, "mean", false, &a->mean, err);
}

static int
plan_parse_stats(const cJSON *st, struct plan_stats *s, struct error *err)
{
	const char *iso, *sb;
	const cJSON *it;
	double v;

	if (st == NULL)
		return 0;
	if (!cJSON_IsObject(st))
		return error_set(err, EXIT_ERROR, "stats: not an object");
	if (plan_get_count(st, "stats", "iterations", false, 1e18, &v, err))
		return -1;
	s->iterations = (uint64_t)v;
	if (plan_get_count(st, "stats", "model_calls", false, 1e18, &v, err))
		return -1;
	s->model_calls = (uint64_t)v;
	if (plan_get_count(st, "stats", "illegal_proposals", false, 1e18, &v,
	    err))
		return -1;
	s->illegal_proposals = (uint64_t)v;
	if (plan_get_count(st, "stats", "seed", false, 1.8e19, &v, err))
		return -1;
	s->seed = (uint64_t)v;
	if (plan_get_count(st, "stats", "workers", false, 4096, &v, err))
		return -1;
	s->workers = (int)v;
	if (plan_get_number(st, "stats", "seconds", false, &s->seconds, err) ||
	    plan_get_number(st, "stats", "model_seconds", false,
	    &s->model_seconds, err))
		return -1;
	s->stopped = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st,
	    "stopped"));
	if ((sb = json_str(st, "sandbox")) != NULL)
		snprintf(s->sandbox, sizeof s->sandbox, "%s", sb);
	it = cJSON_GetObjectItemCaseSensitive(st, "warnings");
	it = cJSON_IsArray(it) ? cJSON_GetArrayItem(it, 0) : NULL;
	if (cJSON_IsString(it) && (sb = it->valuestring) != NULL)
		snprintf(s->warning, sizeof s->warning, "%s", sb);
	iso = json_str(st, "isolation");
	s->isolation = iso != NULL && strcmp(iso, "thread") == 0 ?
	    ISOLATION_THREAD : ISOLATION_PROCESS;
	return 0;
}

int
plan_from_json(const struct project *p, const cJSON *json, struct plan *out,
    struct error *err)
{
	const cJSON *arr, *alts, *it;
	long max;
	int i = 0;

	memset(out, 0, sizeof *out);
	if (!cJSON_IsObject(json))
		return error_set(err, EXIT_ERROR, "plan: not a JSON object");
	arr = cJSON_GetObjectItemCaseSensitive(json, "plan");
	if (!cJSON_IsArray(arr))
		return error_set(err, EXIT_ERROR, "plan: %s",
		    arr == NULL ? "missing" : "not an array");
	max = (long)p->horizon_slots * (p->nfronts > 0 ? p->nfronts : 1);
	if ((long)cJSON_GetArraySize(arr) > max)
		return error_set(err, EXIT_ERROR, "plan: %d posts, more than "
		    "this project can produce (%d slots × %d fronts = %ld)",
		    cJSON_GetArraySize(arr), p->horizon_slots, p->nfronts, max);
	if (plan_parse_project(json, out, err) != 0)
		return -1;
	out->posts = xcalloc(cJSON_GetArraySize(arr) + 1, sizeof *out->posts);
	cJSON_ArrayForEach(it, arr) {
		if (plan_parse_post(p, it, i, &out->posts[i], err) != 0) {
			out->nposts = i + 1;
			plan_free(out);
			return -1;
		}
		out->nposts = ++i;
	}
	alts = cJSON_GetObjectItemCaseSensitive(json, "alternatives");
	if (alts != NULL && !cJSON_IsArray(alts)) {
		plan_free(out);
		return error_set(err, EXIT_ERROR, "alternatives: not an array");
	}
	if ((long)cJSON_GetArraySize(alts) > (max + 1) * ALTS_PER_DECISION) {
		plan_free(out);
		return error_set(err, EXIT_ERROR, "alternatives: %d, more than "
		    "a plan of this project has (%d per post)",
		    cJSON_GetArraySize(alts), ALTS_PER_DECISION);
	}
	out->alts = xcalloc(cJSON_GetArraySize(alts) + 1, sizeof *out->alts);
	i = 0;
	cJSON_ArrayForEach(it, alts) {
		if (plan_parse_alt(p, it, i, &out->alts[i], err) != 0) {
			plan_free(out);
			return -1;
		}
		out->nalts = ++i;
	}
	if (plan_get_number(json, "plan", "expected_total", false,
	    &out->expected_total, err) != 0 ||
	    plan_parse_stats(cJSON_GetObjectItemCaseSensitive(json, "stats"),
	    &out->stats, err) != 0) {
		plan_free(out);
		return -1;
	}
	plan_compute_id(out, p);
	return 0;
}

/* The index of the first plan post at or after PV step `step`. */
static int
plan_decision(const int *post_of_step, int npv, int step)
{
	int i;

	for (i = step; i < npv; i++)
		if (post_of_step[i] >= 0)
			return post_of_step[i];
	return -1;
}

/*
 * Alternatives: at a post of the plan, the other actions tried there; at a
 * wait, the posts tried instead (they compete with the plan's next post).
 */
static void
plan_build_alts(const struct search_result *r, const int *post_of_step,
    struct plan *out)
{
	const struct search_alt *a;
	int i, d, per = 0, last = -1;

	out->alts = xcalloc(r->nalts + 1, sizeof *out->alts);
	for (i = 0; i < r->nalts; i++) {
		a = &r->alts[i];
		if (post_of_step[a->step] < 0 &&
		    a->edge.action.kind == ACTION_WAIT)
			continue;
		if ((d = plan_decision(post_of_step, r->npv, a->step)) < 0)
			continue;
		per = d == last ? per + 1 : 0;
		last = d;
		if (per >= ALTS_PER_DECISION)
			continue;
		out->alts[out->nalts].decision = d;
		out->alts[out->nalts].slot = a->edge.slot;
		out->alts[out->nalts].action = a->edge.action;
		out->alts[out->nalts].visits = a->edge.visits;
		out->alts[out->nalts].mean = a->edge.mean;
		out->nalts++;
	}
}

/* A principal variation that ends before the horizon still makes every
 * pin after its end (the search never valued them: no reward). */
static void
plan_add_pins(const struct project *p, const struct legal *lg,
    struct legal_path *lp, struct plan *out)
{
	struct action *due = xcalloc(legal_max_actions(lg), sizeof *due);
	struct action wait = { ACTION_WAIT, 0, 0 };
	struct plan_post *pp;
	int n, i;

	for (; !legal_path_done(lg, lp); legal_apply(lg, lp, &wait)) {
		n = legal_pins_due(lg, lp, due);
		for (i = 0; i < n; i++) {
			out->posts = xrealloc(out->posts, (out->nposts + 1) *
			    sizeof *out->posts);
			pp = &out->posts[out->nposts++];
			memset(pp, 0, sizeof *pp);
			pp->slot = legal_path_slot(lp);
			pp->at = project_slot_time(p, pp->slot);
			pp->front = due[i].front;
			pp->draft = due[i].draft;
			pp->text = xstrdup(project_draft_text(p, pp->draft,
			    pp->front));
			legal_apply(lg, lp, &due[i]);
		}
	}
	free(due);
}

int
plan_build(const struct project *p, const struct legal *lg,
    const struct search_result *r, struct plan *out, char ***dropped,
    int *ndropped)
{
	struct legal_path *lp = legal_path_new(lg);
	const struct search_edge *e;
	enum legal_verdict v;
	struct plan_post *pp;
	int *post_of_step, i;
	char *msg;

	memset(out, 0, sizeof *out);
	*dropped = NULL;
	*ndropped = 0;
	out->posts = xcalloc(r->npv + 1, sizeof *out->posts);
	post_of_step = xcalloc(r->npv + 1, sizeof *post_of_step);
	for (i = 0; i < r->npv; i++) {
		e = &r->pv[i];
		post_of_step[i] = -1;
		v = legal_check(lg, lp, &e->action);
		if (v != LEGAL_OK) {
			if (e->action.kind == ACTION_POST &&
			    legal_static(lg, &e->action) != LEGAL_UNKNOWN_DRAFT &&
			    legal_static(lg, &e->action) != LEGAL_UNKNOWN_FRONT)
				xasprintf(&msg, "slot %d: %s on %s dropped: %s",
				    legal_path_slot(lp),
				    p->drafts[e->action.draft].id,
				    p->fronts[e->action.front].id,
				    legal_verdict_name(v));
			else
				xasprintf(&msg, "slot %d: step dropped: %s",
				    legal_path_slot(lp), legal_verdict_name(v));
			*dropped = xrealloc(*dropped, (*ndropped + 1) *
			    sizeof **dropped);
			(*dropped)[(*ndropped)++] = msg;
			continue;
		}
		if (e->action.kind == ACTION_POST) {
			pp = &out->posts[out->nposts];
			pp->slot = legal_path_slot(lp);
			pp->at = project_slot_time(p, pp->slot);
			pp->front = e->action.front;
			pp->draft = e->action.draft;
			pp->text = xstrdup(project_draft_text(p, pp->draft,
			    pp->front));
			pp->expected_reward = e->reward_mean;
			pp->reward_known = true;
			pp->ci_lo = e->ci_lo;
			pp->ci_hi = e->ci_hi;
			pp->visits = e->visits;
			post_of_step[i] = out->nposts++;
		}
		legal_apply(lg, lp, &e->action);
	}
	plan_add_pins(p, lg, lp, out);
	out->expected_total = r->expected_total;
	plan_build_alts(r, post_of_step, out);
	plan_compute_id(out, p);
	free(post_of_step);
	legal_path_free(lp);
	return 0;
}

int
plan_read_file(const struct project *p, const char *path, struct plan *out,
    struct error *err)
{
	char *data;
	size_t len;
	cJSON *j;
	int rc;

	memset(out, 0, sizeof *out);
	if (file_read(path, &data, &len, err) != 0)
		return -1;
	j = cJSON_ParseWithLength(data, len);
	free(data);
	if (j == NULL)
		return error_set(err, EXIT_ERROR, "%s: not valid JSON", path);
	rc = plan_from_json(p, j, out, err);
	cJSON_Delete(j);
	if (rc != 0)
		return error_wrap(err, "%s", path);
	return 0;
}

bool
plan_align_start(struct project *p, const struct plan *pl, time_t now,
    char *warn, size_t len)
{
	if (pl->nposts > 0)
		p->start = pl->posts[0].at - (time_t)pl->posts[0].slot *
		    p->slot_minutes * 60;
	if (p->start >= now)
		return false;
	project_passed_text(p->start, project_next_slot(p, p->start, now),
	    warn, len);
	return true;
}
