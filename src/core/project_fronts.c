/*
 * project_fronts — fronts.json: the project's settings, its provider and
 * its fronts with their limits (see project.h for what they mean).
 *
 * Keys a front may carry for its channel (composio, instance, handle…)
 * are checked for shape here and kept whole in front.raw, where the
 * channels read them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/project_int.h"
#include "core/timeutil.h"

static int
load_limits(const struct json_loc *l, const cJSON *obj, const char *prefix,
    struct limits *lim)
{
	static const char *known[] = { "max_length", "max_posts_per_day",
	    "min_gap_minutes", "quiet_hours", "max_links", "max_hashtags",
	    "alt_required", NULL };
	const cJSON *q;
	char f[256];
	long a, b;

	lim->max_length = lim->max_posts_per_day = lim->min_gap_minutes =
	    lim->quiet_start = lim->quiet_end = lim->max_links =
	    lim->max_hashtags = lim->instance_length = lim->url_weight =
	    LIMIT_UNSET;
	if (obj == NULL)
		return 0;
	if (!cJSON_IsObject(obj))
		return json_fail(l, prefix, obj, "expected an object of limits");
	if (json_get_int(l, obj, prefix, "max_length", false, 1, 1000000,
	    &lim->max_length) != 0 ||
	    json_get_int(l, obj, prefix, "max_posts_per_day", false, 0, 1000,
	    &lim->max_posts_per_day) != 0 ||
	    json_get_int(l, obj, prefix, "min_gap_minutes", false, 0, 527040,
	    &lim->min_gap_minutes) != 0 ||
	    json_get_int(l, obj, prefix, "max_links", false, 0, 1000,
	    &lim->max_links) != 0 ||
	    json_get_int(l, obj, prefix, "max_hashtags", false, 0, 1000,
	    &lim->max_hashtags) != 0)
		return -1;
	if ((q = cJSON_GetObjectItemCaseSensitive(obj, "quiet_hours")) != NULL) {
		json_path(f, sizeof f, prefix, "quiet_hours");
		if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != 2 ||
		    !json_int_in(cJSON_GetArrayItem(q, 0), 0, 23, &a) ||
		    !json_int_in(cJSON_GetArrayItem(q, 1), 0, 23, &b))
			return json_fail(l, f, q,
			    "expected [start, end], local hours in 0..23");
		lim->quiet_start = (int)a;
		lim->quiet_end = (int)b;
	}
	if ((q = cJSON_GetObjectItemCaseSensitive(obj, "alt_required")) != NULL) {
		json_path(f, sizeof f, prefix, "alt_required");
		if (!cJSON_IsBool(q))
			return json_fail(l, f, q, "expected true or false");
		lim->alt_required = cJSON_IsTrue(q);
	}
	json_warn_unknown(l, obj, prefix, known);
	return 0;
}

static int
load_composio(const struct json_loc *l, const cJSON *obj, const char *prefix)
{
	char f[256], *s;

	if (obj == NULL)
		return 0;
	json_path(f, sizeof f, prefix, "composio");
	if (!cJSON_IsObject(obj))
		return json_fail(l, f, obj,
		    "expected an object with \"tool\" and \"user_id\"");
	if (json_get_string(l, obj, f, "tool", JSON_FILLED, &s) != 0)
		return -1;
	free(s);
	if (json_get_string(l, obj, f, "user_id", JSON_NONEMPTY, &s) != 0)
		return -1;
	free(s);
	return 0;
}

/* keep_metadata: true sends images with their EXIF and XMP (media.h);
 * by default they are removed. */
static int
load_keep_metadata(const struct json_loc *l, const cJSON *obj,
    const char *prefix, struct front *fr)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "keep_metadata");
	char f[128];

	if (v == NULL)
		return 0;
	if (!cJSON_IsBool(v)) {
		json_path(f, sizeof f, prefix, "keep_metadata");
		return json_fail(l, f, v, "expected true or false");
	}
	fr->keep_metadata = cJSON_IsTrue(v);
	return 0;
}

static int
load_front(const struct json_loc *l, const cJSON *obj, int i, struct front *fr)
{
	static const char *known[] = { "id", "platform", "account", "composio",
	    "limits", "instance", "handle", "service", "visibility",
	    "token_env", "password_env", "api_key_env", "appview",
	    "keep_metadata", NULL };
	char prefix[64], f[128], *platform = NULL, *s = NULL;
	int pl;

	snprintf(prefix, sizeof prefix, "fronts[%d]", i);
	if (!cJSON_IsObject(obj))
		return json_fail(l, prefix, obj, "expected an object");
	json_path(f, sizeof f, prefix, "id");
	if (json_get_string(l, obj, prefix, "id", JSON_FILLED, &fr->id) != 0 ||
	    project_check_id(l, f, fr->id, true) != 0)
		return -1;
	if (json_get_string(l, obj, prefix, "platform", JSON_FILLED,
	    &platform) != 0)
		return -1;
	pl = platform_from_name(platform);
	free(platform);
	if (pl < 0) {
		json_path(f, sizeof f, prefix, "platform");
		return json_fail(l, f,
		    cJSON_GetObjectItemCaseSensitive(obj, "platform"),
		    "expected one of x, linkedin, bluesky, mastodon, threads, reddit");
	}
	fr->platform = (enum platform)pl;
	if (json_get_string(l, obj, prefix, "account", JSON_NONEMPTY,
	    &fr->account) != 0)
		return -1;
	if (json_get_string(l, obj, prefix, "instance", JSON_NONEMPTY, &s) != 0)
		return -1;
	if (s != NULL && strncmp(s, "https://", 8) != 0 &&
	    strncmp(s, "http://", 7) != 0) {
		free(s);
		json_path(f, sizeof f, prefix, "instance");
		return json_fail(l, f,
		    cJSON_GetObjectItemCaseSensitive(obj, "instance"),
		    "expected the instance's URL (https://…)");
	}
	free(s);
	if (json_get_string(l, obj, prefix, "handle", JSON_NONEMPTY, &s) != 0)
		return -1;
	free(s);
	if (load_composio(l, cJSON_GetObjectItemCaseSensitive(obj, "composio"),
	    prefix) != 0)
		return -1;
	if (load_keep_metadata(l, obj, prefix, fr) != 0)
		return -1;
	json_path(f, sizeof f, prefix, "limits");
	if (load_limits(l, cJSON_GetObjectItemCaseSensitive(obj, "limits"), f,
	    &fr->limits) != 0)
		return -1;
	json_warn_unknown(l, obj, prefix, known);
	fr->raw = cJSON_Duplicate(obj, true);
	return 0;
}

static int
load_fronts_array(const struct json_loc *l, struct project *p,
    const cJSON *arr)
{
	const cJSON *item;
	int i, j;

	if (arr == NULL)
		return json_fail(l, "fronts", NULL,
		    "missing; expected an array of fronts");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
		return json_fail(l, "fronts", arr,
		    "expected a non-empty array of fronts");
	if (cJSON_GetArraySize(arr) > PROJECT_MAX_FRONTS)
		return json_fail(l, "fronts", NULL, "expected at most %d fronts",
		    PROJECT_MAX_FRONTS);
	p->fronts = xcalloc((size_t)cJSON_GetArraySize(arr), sizeof *p->fronts);
	i = 0;
	cJSON_ArrayForEach(item, arr) {
		p->nfronts = i + 1;
		if (load_front(l, item, i, &p->fronts[i]) != 0)
			return -1;
		for (j = 0; j < i; j++)
			if (strcmp(p->fronts[j].id, p->fronts[i].id) == 0) {
				char f[64];

				snprintf(f, sizeof f, "fronts[%d].id", i);
				return json_fail(l, f, NULL,
				    "duplicate front id \"%s\" (also fronts[%d])",
				    p->fronts[i].id, j);
			}
		i++;
	}
	return 0;
}

static int
load_provider(const struct json_loc *l, struct project *p, const cJSON *obj)
{
	static const char *known[] = { "name", "model", NULL };

	if (obj == NULL)
		return 0;
	if (!cJSON_IsObject(obj))
		return json_fail(l, "provider", obj,
		    "expected an object with \"name\" and \"model\"");
	if (json_get_string(l, obj, "provider", "name", JSON_FILLED,
	    &p->provider_name) != 0 ||
	    json_get_string(l, obj, "provider", "model", JSON_NONEMPTY,
	    &p->provider_model) != 0)
		return -1;
	json_warn_unknown(l, obj, "provider", known);
	return 0;
}

/* objective: weights over the metrics; a metric it leaves out weighs 0.
 * A name that is not a metric is an error, not a warning: a misspelt
 * weight would silently change what every plan maximises. No weight is
 * negative: more engagement never lowers the reward. */
static int
load_objective(const struct json_loc *l, struct project *p, const cJSON *obj)
{
	const cJSON *v;
	char f[64];
	int i, nonzero = 0;

	if (obj == NULL)
		return 0;
	if (!cJSON_IsObject(obj))
		return json_fail(l, "objective", obj, "expected an object of "
		    "weights over impressions, likes, reposts, replies, clicks");
	memset(&p->objective, 0, sizeof p->objective);
	cJSON_ArrayForEach(v, obj) {
		for (i = 0; i < METRIC_COUNT; i++)
			if (strcmp(v->string, objective_metric_names[i]) == 0)
				break;
		snprintf(f, sizeof f, "objective.%s", v->string);
		if (i == METRIC_COUNT)
			return json_fail(l, f, v, "not a metric; expected "
			    "impressions, likes, reposts, replies or clicks");
		if (!json_finite(v) || v->valuedouble < 0 ||
		    v->valuedouble > 1e6)
			return json_fail(l, f, v, "expected a number from 0 to "
			    "1000000");
		p->objective.weight[i] = v->valuedouble;
		nonzero += v->valuedouble != 0;
	}
	if (nonzero == 0)
		return json_fail(l, "objective", obj, "expected at least one "
		    "weight that is not 0");
	p->objective.given = true;
	return 0;
}

static int
load_start(const struct json_loc *l, struct project *p, const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "start");

	if (v == NULL)
		return json_fail(l, "start", NULL,
		    "missing; expected an ISO-8601 time with offset or \"now\"");
	if (cJSON_IsString(v) && strcmp(v->valuestring, "now") == 0) {
		p->start_now = true;
		return 0;
	}
	if (!cJSON_IsString(v) || time_parse_iso(v->valuestring,
	    &p->start) != 0)
		return json_fail(l, "start", v, "expected an ISO-8601 time with "
		    "offset (2026-12-01T08:00:00Z, …+01:00) or \"now\"");
	return 0;
}

int
project_load_fronts(struct project *p, const char *path, struct error *err)
{
	static const char *known[] = { "name", "timezone", "start",
	    "slot_minutes", "horizon_slots", "provider", "objective", "fronts",
	    "topics",
	    NULL };
	struct json_loc l = project_loc(p, path, err);
	cJSON *root;
	size_t len;
	char *text;
	int rc = -1;

	if (file_read(path, &text, &len, err) != 0)
		return -1;
	if ((root = json_parse_object(&l, text, len)) == NULL) {
		free(text);
		return -1;
	}
	if (json_get_string(&l, root, "", "name", JSON_FILLED, &p->name) != 0 ||
	    json_get_string(&l, root, "", "timezone", JSON_FILLED,
	    &p->timezone) != 0)
		goto out;
	if (!timeutil_zone_exists(p->timezone)) {
		json_fail(&l, "timezone", cJSON_GetObjectItem(root, "timezone"),
		    "expected an IANA time zone name such as \"Europe/Berlin\"");
		goto out;
	}
	if (load_start(&l, p, root) != 0 ||
	    json_get_int(&l, root, "", "slot_minutes", true, 1, 1440,
	    &p->slot_minutes) != 0 ||
	    json_get_int(&l, root, "", "horizon_slots", true, 1, 100000,
	    &p->horizon_slots) != 0 ||
	    load_provider(&l, p, cJSON_GetObjectItemCaseSensitive(root,
	    "provider")) != 0 ||
	    load_objective(&l, p, cJSON_GetObjectItemCaseSensitive(root,
	    "objective")) != 0 ||
	    load_fronts_array(&l, p, cJSON_GetObjectItemCaseSensitive(root,
	    "fronts")) != 0 ||
	    topics_from_json(root, path, &p->topics, err) != 0)
		goto out;
	json_warn_unknown(&l, root, "", known);
	rc = 0;
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

