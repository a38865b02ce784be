/*
 * project_jsonl — history.jsonl (the posts already made, with their
 * metrics) and drafts.jsonl (the texts the plan may place).
 *
 * Each line is one object; ids must be unique within a file, and a
 * duplicate is reported on its second line, naming the first.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/project_int.h"
#include "core/timeutil.h"

/* Whether a value is a non-negative finite number. */
static bool
nonneg_number(const cJSON *v)
{
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    v->valuedouble >= 0;
}

static int
load_metrics(const struct json_loc *l, const cJSON *obj,
    struct history_post *h)
{
	double *slots[PROJECT_NMETRICS] = { &h->impressions, &h->likes,
	    &h->reposts, &h->replies, &h->clicks };
	const cJSON *v;
	char f[64];
	int i;

	if (obj == NULL)
		return json_fail(l, "metrics", NULL, "missing; expected an object "
		    "of impressions, likes, reposts, replies, clicks");
	if (!cJSON_IsObject(obj))
		return json_fail(l, "metrics", obj, "expected an object of "
		    "impressions, likes, reposts, replies, clicks");
	for (i = 0; i < PROJECT_NMETRICS; i++) {
		if ((v = cJSON_GetObjectItemCaseSensitive(obj,
		    project_metric_names[i])) == NULL)
			continue;
		snprintf(f, sizeof f, "metrics.%s", project_metric_names[i]);
		if (!nonneg_number(v))
			return json_fail(l, f, v, "expected a non-negative number");
		*slots[i] = v->valuedouble;
		h->metrics_set |= 1u << i;
	}
	json_warn_unknown(l, obj, "metrics", project_metric_names);
	return 0;
}

void
project_history_free(struct history_post *h)
{
	free(h->id);
	free(h->posted_at_text);
	free(h->text);
	free(h->platform_id);
	free(h->url);
	json_strings_free(h->topics, h->ntopics);
}

/* "predicted": {"reward": R, "ci95": [lo, hi], "sd": S}, for posts fronts
 * published; sd (the spread of one post's reward) is absent from
 * predictions saved before it was kept. */
static int
load_predicted(const struct json_loc *l, const cJSON *v,
    struct history_post *h)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(v, "reward");
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(v, "ci95");
	const cJSON *lo = cJSON_GetArrayItem(ci, 0), *hi = cJSON_GetArrayItem(ci, 1);
	const cJSON *sd = cJSON_GetObjectItemCaseSensitive(v, "sd");

	if (v == NULL)
		return 0;
	if (!cJSON_IsObject(v) || !json_finite(r) || !json_finite(lo) ||
	    !json_finite(hi) || cJSON_GetArraySize(ci) != 2 ||
	    (sd != NULL && (!json_finite(sd) || sd->valuedouble < 0)))
		return json_fail(l, "predicted", v, "expected {\"reward\": "
		    "number, \"ci95\": [low, high], \"sd\": number >= 0 "
		    "(optional)}");
	h->has_predicted = true;
	h->predicted = r->valuedouble;
	h->predicted_lo = lo->valuedouble;
	h->predicted_hi = hi->valuedouble;
	h->predicted_sd = sd != NULL ? sd->valuedouble : NAN;
	return 0;
}

/* The optional fields imports and pulls write. */
static int
load_history_origin(const struct json_loc *l, const cJSON *obj,
    struct history_post *h)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "settled");

	if (json_get_string(l, obj, "", "platform_id", JSON_NONEMPTY,
	    &h->platform_id) != 0 ||
	    json_get_string(l, obj, "", "url", JSON_NONEMPTY, &h->url) != 0)
		return -1;
	if (v != NULL && !cJSON_IsBool(v))
		return json_fail(l, "settled", v, "expected true or false");
	h->unsettled = cJSON_IsFalse(v);
	return load_predicted(l, cJSON_GetObjectItemCaseSensitive(obj,
	    "predicted"), h);
}

static int
load_history_fields(const struct json_loc *l, struct project *p,
    const cJSON *obj, struct history_post *h)
{
	const cJSON *v;
	char *front = NULL;

	if (json_get_string(l, obj, "", "id", JSON_FILLED, &h->id) != 0 ||
	    project_check_id(l, "id", h->id, false) != 0 ||
	    json_get_string(l, obj, "", "front", JSON_FILLED, &front) != 0)
		return -1;
	h->front = project_front_index(p, front);
	free(front);
	if (h->front < 0)
		return json_fail(l, "front",
		    cJSON_GetObjectItemCaseSensitive(obj, "front"),
		    "expected the id of a front in fronts.json");
	if (json_get_string(l, obj, "", "posted_at", JSON_FILLED,
	    &h->posted_at_text) != 0)
		return -1;
	if (time_parse_iso(h->posted_at_text, &h->posted_at) != 0) {
		v = cJSON_GetObjectItemCaseSensitive(obj, "posted_at");
		return json_fail(l, "posted_at", v, "expected an ISO-8601 time "
		    "with offset (2026-11-20T09:05:00+01:00 or …Z)");
	}
	if (json_get_string(l, obj, "", "text", JSON_REQUIRED, &h->text) != 0 ||
	    json_get_strings(l, obj, "topics", &h->topics, &h->ntopics) != 0 ||
	    load_history_origin(l, obj, h) != 0)
		return -1;
	return load_metrics(l, cJSON_GetObjectItemCaseSensitive(obj, "metrics"),
	    h);
}

static int
load_history_line(const struct json_loc *l, const cJSON *obj, void *arg)
{
	static const char *known[] = { "id", "front", "posted_at", "text",
	    "topics", "metrics", "platform_id", "url", "settled", "predicted",
	    NULL };
	struct project *p = arg;
	struct history_post h;

	memset(&h, 0, sizeof h);
	h.line = l->line;
	if (load_history_fields(l, p, obj, &h) != 0) {
		project_history_free(&h);
		return -1;
	}
	json_warn_unknown(l, obj, "", known);
	p->history = xrealloc(p->history, (p->nhistory + 1) * sizeof *p->history);
	p->history[p->nhistory++] = h;
	return 0;
}

static int
load_draft_fronts(const struct json_loc *l, const struct project *p,
    const cJSON *arr, struct draft *d)
{
	const cJSON *s;
	char f[64];
	int i = 0, fi;

	if (arr == NULL) {
		d->front_mask = p->nfronts >= 64 ? UINT64_MAX :
		    (UINT64_C(1) << p->nfronts) - 1;
		return 0;
	}
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
		return json_fail(l, "fronts", arr,
		    "expected a non-empty array of front ids (or no field: all fronts)");
	cJSON_ArrayForEach(s, arr) {
		snprintf(f, sizeof f, "fronts[%d]", i++);
		if (!cJSON_IsString(s))
			return json_fail(l, f, s, "expected a front id");
		if ((fi = project_front_index(p, s->valuestring)) < 0)
			return json_fail(l, f, s,
			    "expected the id of a front in fronts.json");
		if (d->front_mask & (UINT64_C(1) << fi))
			return json_fail(l, f, s, "front listed twice");
		d->front_mask |= UINT64_C(1) << fi;
	}
	return 0;
}

static int
load_draft_fields(const struct json_loc *l, const struct project *p,
    const cJSON *obj, struct draft *d)
{
	memset(d, 0, sizeof *d);
	d->line = l->line;
	if (json_get_string(l, obj, "", "id", JSON_FILLED, &d->id) != 0 ||
	    project_check_id(l, "id", d->id, false) != 0 ||
	    json_get_strings(l, obj, "topics", &d->topics, &d->ntopics) != 0 ||
	    load_draft_fronts(l, p,
	    cJSON_GetObjectItemCaseSensitive(obj, "fronts"), d) != 0 ||
	    project_draft_load_shape(l, p, obj, d) != 0) {
		project_draft_free(d);
		return -1;
	}
	return 0;
}

int
project_draft_check(const struct project *p, const char *file, int line,
    const cJSON *obj, struct error *err)
{
	struct json_loc l = { file, line, err, NULL, NULL };
	struct draft d;

	if (load_draft_fields(&l, p, obj, &d) != 0)
		return -1;
	project_draft_free(&d);
	return 0;
}

static int
load_draft_line(const struct json_loc *l, const cJSON *obj, void *arg)
{
	static const char *known[] = { "id", "text", "topics", "fronts",
	    "thread", "media", "variants", "not_before", "not_after", NULL };
	struct project *p = arg;
	struct draft d;

	if (load_draft_fields(l, p, obj, &d) != 0)
		return -1;
	json_warn_unknown(l, obj, "", known);
	p->drafts = xrealloc(p->drafts, (p->ndrafts + 1) * sizeof *p->drafts);
	p->drafts[p->ndrafts++] = d;
	return 0;
}

/* Duplicate ids: sort (id, line) pairs and compare neighbours. */
struct idline {
	const char	*id;
	int		 line;
};

static int
idline_cmp(const void *a, const void *b)
{
	const struct idline *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

static int
check_unique(struct project *p, const char *path, struct idline *v, int n,
    struct error *err)
{
	struct json_loc l = project_loc(p, path, err);
	int i, rc = 0;

	qsort(v, (size_t)n, sizeof *v, idline_cmp);
	for (i = 1; i < n; i++)
		if (strcmp(v[i - 1].id, v[i].id) == 0) {
			l.line = v[i].line;
			rc = json_fail(&l, "id", NULL,
			    "duplicate id \"%s\" (first on line %d)",
			    v[i].id, v[i - 1].line);
			break;
		}
	free(v);
	return rc;
}

static int
check_history_ids(struct project *p, const char *path, struct error *err)
{
	struct idline *v = xcalloc((size_t)p->nhistory + 1, sizeof *v);
	int i;

	for (i = 0; i < p->nhistory; i++)
		v[i] = (struct idline){ p->history[i].id, p->history[i].line };
	return check_unique(p, path, v, p->nhistory, err);
}

static int
check_draft_ids(struct project *p, const char *path, struct error *err)
{
	struct idline *v = xcalloc((size_t)p->ndrafts + 1, sizeof *v);
	int i;

	for (i = 0; i < p->ndrafts; i++)
		v[i] = (struct idline){ p->drafts[i].id, p->drafts[i].line };
	return check_unique(p, path, v, p->ndrafts, err);
}

/* Reads path as JSON lines, one fn call per object. */
static int
load_lines(struct project *p, const char *path, struct error *err,
    int (*fn)(const struct json_loc *, const cJSON *, void *))
{
	struct json_loc l = project_loc(p, path, err);
	size_t len;
	char *text;
	int rc;

	if (file_read(path, &text, &len, err) != 0)
		return -1;
	rc = json_each_line(&l, text, len, fn, p);
	free(text);
	return rc;
}

int
project_load_history(struct project *p, const char *path, struct error *err)
{
	if (load_lines(p, path, err, load_history_line) != 0)
		return -1;
	return check_history_ids(p, path, err);
}

int
project_load_drafts(struct project *p, const char *path, struct error *err)
{
	if (load_lines(p, path, err, load_draft_line) != 0)
		return -1;
	return check_draft_ids(p, path, err);
}
