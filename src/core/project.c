/*
 * project — loads and validates a project directory as one unit.
 *
 * Every check names the file, the line (for JSON lines), the field and
 * what was expected, so the operator can fix the input without guessing.
 * Loading builds a private struct project and hands it over only when
 * every file passed: a failure frees everything, nothing is half-loaded.
 * Unknown fields are kept as warnings, not errors, so files written by a
 * newer version still load.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <utf8proc.h>

#include "core/instlimits.h"
#include "core/project.h"
#include "core/timeutil.h"

static const char *platform_names[PLATFORM_COUNT] = {
	"x", "linkedin", "bluesky", "mastodon", "threads", "reddit"
};

static const char *metric_names[] = {
	"impressions", "likes", "reposts", "replies", "clicks", NULL
};
#define NMETRICS 5

/* Where a check is: the file, its line (0 for a whole JSON file), and the
 * project being built (for warnings). */
struct loc {
	struct project	*p;
	const char	*file;
	int		 line;
	struct error	*err;
};

int
platform_from_name(const char *name)
{
	int i;

	for (i = 0; i < PLATFORM_COUNT; i++)
		if (name != NULL && strcmp(name, platform_names[i]) == 0)
			return i;
	return -1;
}

const char *
platform_name(enum platform p)
{
	return (unsigned)p < PLATFORM_COUNT ? platform_names[p] : "?";
}

static void
loc_where(const struct loc *l, char *buf, size_t len)
{
	if (l->line > 0)
		snprintf(buf, len, "%s:%d", l->file, l->line);
	else
		snprintf(buf, len, "%s", l->file);
}

/* "FILE:LINE: field "F": expected …, got …". Returns -1. */
static int
loc_fail(const struct loc *l, const char *field, const cJSON *got,
    const char *fmt, ...)
{
	char where[512], what[512], shown[64] = "";
	char *text;
	va_list ap;

	loc_where(l, where, sizeof where);
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (got != NULL && (text = cJSON_PrintUnformatted(got)) != NULL) {
		if (strlen(text) > 40)
			snprintf(shown, sizeof shown, ", got %.37s...", text);
		else
			snprintf(shown, sizeof shown, ", got %s", text);
		free(text);
	}
	if (field != NULL && *field != '\0')
		return error_set(l->err, EXIT_ERROR, "%s: field \"%s\": %s%s",
		    where, field, what, shown);
	return error_set(l->err, EXIT_ERROR, "%s: %s%s", where, what, shown);
}

static void
loc_warn(const struct loc *l, const char *fmt, ...)
{
	struct project *p = l->p;
	char where[512], what[512], *msg;
	va_list ap;

	loc_where(l, where, sizeof where);
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	xasprintf(&msg, "%s: %s", where, what);
	p->warnings = xrealloc(p->warnings,
	    (p->nwarnings + 1) * sizeof *p->warnings);
	p->warnings[p->nwarnings++] = msg;
}

/* Warns about every key of obj that is not in known (NULL-terminated). */
static void
warn_unknown(const struct loc *l, const cJSON *obj, const char *prefix,
    const char *const *known)
{
	const cJSON *item;
	int i;

	cJSON_ArrayForEach(item, obj) {
		for (i = 0; known[i] != NULL; i++)
			if (item->string != NULL &&
			    strcmp(item->string, known[i]) == 0)
				break;
		if (known[i] == NULL)
			loc_warn(l, "field \"%s%s%s\": unknown field, ignored",
			    prefix, *prefix != '\0' ? "." : "",
			    item->string != NULL ? item->string : "");
	}
}

static bool
utf8_valid(const char *s, size_t len)
{
	const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)s;
	utf8proc_int32_t cp;
	utf8proc_ssize_t n;
	size_t i = 0;

	while (i < len) {
		n = utf8proc_iterate(u + i, (utf8proc_ssize_t)(len - i), &cp);
		if (n <= 0 || cp < 0)
			return false;
		i += (size_t)n;
	}
	return true;
}

/* A field path "prefix.key" (or "key" at the top). */
static void
field_path(char *buf, size_t len, const char *prefix, const char *key)
{
	if (prefix == NULL || *prefix == '\0')
		snprintf(buf, len, "%s", key);
	else
		snprintf(buf, len, "%s.%s", prefix, key);
}

/* A string member. *out stays NULL when optional and absent. */
static int
get_string(const struct loc *l, const cJSON *obj, const char *prefix,
    const char *key, bool required, bool nonempty, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char f[256];

	field_path(f, sizeof f, prefix, key);
	*out = NULL;
	if (v == NULL) {
		if (required)
			return loc_fail(l, f, NULL, "missing; expected a %sstring",
			    nonempty ? "non-empty " : "");
		return 0;
	}
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return loc_fail(l, f, v, "expected a string");
	if (nonempty && v->valuestring[0] == '\0')
		return loc_fail(l, f, NULL, "expected a non-empty string");
	if (!utf8_valid(v->valuestring, strlen(v->valuestring)))
		return loc_fail(l, f, NULL, "expected valid UTF-8");
	*out = xstrdup(v->valuestring);
	return 0;
}

static bool
json_int(const cJSON *v, long lo, long hi, long *out)
{
	double d;

	if (!cJSON_IsNumber(v))
		return false;
	d = v->valuedouble;
	if (!isfinite(d) || floor(d) != d || d < lo || d > hi)
		return false;
	*out = (long)d;
	return true;
}

/* An integer member in lo..hi; *out keeps its value when absent. */
static int
get_int(const struct loc *l, const cJSON *obj, const char *prefix,
    const char *key, bool required, long lo, long hi, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char f[256];
	long n;

	field_path(f, sizeof f, prefix, key);
	if (v == NULL) {
		if (required)
			return loc_fail(l, f, NULL,
			    "missing; expected an integer in %ld..%ld", lo, hi);
		return 0;
	}
	if (!json_int(v, lo, hi, &n))
		return loc_fail(l, f, v, "expected an integer in %ld..%ld",
		    lo, hi);
	*out = (int)n;
	return 0;
}

static bool
id_char_ok(unsigned char c, bool strict)
{
	if (strict)
		return isalnum(c) || c == '_' || c == '-' || c == '.';
	return c >= 0x20 && c != 0x7f;
}

/* Ids appear in actions, plans and on screen: non-empty, at most 128
 * bytes, no control characters; front ids only [A-Za-z0-9_.-]. */
static int
check_id(const struct loc *l, const char *field, const char *id, bool strict)
{
	const char *c;

	if (strlen(id) > 128)
		return loc_fail(l, field, NULL, "expected an id of at most 128 bytes");
	for (c = id; *c != '\0'; c++)
		if (!id_char_ok((unsigned char)*c, strict))
			return loc_fail(l, field, NULL, strict ?
			    "expected an id of letters, digits, '_', '-' or '.'" :
			    "expected an id without control characters");
	return 0;
}

/* An array of non-empty strings (topics). */
static int
get_strings(const struct loc *l, const cJSON *obj, const char *key,
    char ***out, int *n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key), *s;
	char f[256];
	int i = 0;

	*out = NULL;
	*n = 0;
	if (v == NULL)
		return 0;
	if (!cJSON_IsArray(v))
		return loc_fail(l, key, v, "expected an array of strings");
	*out = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **out);
	cJSON_ArrayForEach(s, v) {
		snprintf(f, sizeof f, "%s[%d]", key, i);
		if (!cJSON_IsString(s) || s->valuestring[0] == '\0')
			return loc_fail(l, f, s, "expected a non-empty string");
		if (!utf8_valid(s->valuestring, strlen(s->valuestring)))
			return loc_fail(l, f, NULL, "expected valid UTF-8");
		(*out)[i++] = xstrdup(s->valuestring);
		*n = i;
	}
	return 0;
}

static void
strings_free(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* fronts.json */

static int
load_limits(const struct loc *l, const cJSON *obj, const char *prefix,
    struct limits *lim)
{
	static const char *known[] = { "max_length", "max_posts_per_day",
	    "min_gap_minutes", "quiet_hours", "max_links", "max_hashtags", NULL };
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
		return loc_fail(l, prefix, obj, "expected an object of limits");
	if (get_int(l, obj, prefix, "max_length", false, 1, 1000000,
	    &lim->max_length) != 0 ||
	    get_int(l, obj, prefix, "max_posts_per_day", false, 0, 1000,
	    &lim->max_posts_per_day) != 0 ||
	    get_int(l, obj, prefix, "min_gap_minutes", false, 0, 527040,
	    &lim->min_gap_minutes) != 0 ||
	    get_int(l, obj, prefix, "max_links", false, 0, 1000,
	    &lim->max_links) != 0 ||
	    get_int(l, obj, prefix, "max_hashtags", false, 0, 1000,
	    &lim->max_hashtags) != 0)
		return -1;
	if ((q = cJSON_GetObjectItemCaseSensitive(obj, "quiet_hours")) != NULL) {
		field_path(f, sizeof f, prefix, "quiet_hours");
		if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != 2 ||
		    !json_int(cJSON_GetArrayItem(q, 0), 0, 23, &a) ||
		    !json_int(cJSON_GetArrayItem(q, 1), 0, 23, &b))
			return loc_fail(l, f, q,
			    "expected [start, end], local hours in 0..23");
		lim->quiet_start = (int)a;
		lim->quiet_end = (int)b;
	}
	warn_unknown(l, obj, prefix, known);
	return 0;
}

static int
load_composio(const struct loc *l, const cJSON *obj, const char *prefix)
{
	char f[256], *s;

	if (obj == NULL)
		return 0;
	field_path(f, sizeof f, prefix, "composio");
	if (!cJSON_IsObject(obj))
		return loc_fail(l, f, obj,
		    "expected an object with \"tool\" and \"user_id\"");
	if (get_string(l, obj, f, "tool", true, true, &s) != 0)
		return -1;
	free(s);
	if (get_string(l, obj, f, "user_id", false, true, &s) != 0)
		return -1;
	free(s);
	return 0;
}

static int
load_front(const struct loc *l, const cJSON *obj, int i, struct front *fr)
{
	static const char *known[] = { "id", "platform", "account", "composio",
	    "limits", "instance", "handle", "service", "visibility",
	    "token_env", "password_env", "api_key_env", NULL };
	char prefix[64], f[128], *platform = NULL, *s = NULL;
	int pl;

	snprintf(prefix, sizeof prefix, "fronts[%d]", i);
	if (!cJSON_IsObject(obj))
		return loc_fail(l, prefix, obj, "expected an object");
	field_path(f, sizeof f, prefix, "id");
	if (get_string(l, obj, prefix, "id", true, true, &fr->id) != 0 ||
	    check_id(l, f, fr->id, true) != 0)
		return -1;
	if (get_string(l, obj, prefix, "platform", true, true, &platform) != 0)
		return -1;
	pl = platform_from_name(platform);
	free(platform);
	if (pl < 0) {
		field_path(f, sizeof f, prefix, "platform");
		return loc_fail(l, f,
		    cJSON_GetObjectItemCaseSensitive(obj, "platform"),
		    "expected one of x, linkedin, bluesky, mastodon, threads, reddit");
	}
	fr->platform = (enum platform)pl;
	if (get_string(l, obj, prefix, "account", false, true, &fr->account) != 0)
		return -1;
	if (get_string(l, obj, prefix, "instance", false, true, &s) != 0)
		return -1;
	if (s != NULL && strncmp(s, "https://", 8) != 0 &&
	    strncmp(s, "http://", 7) != 0) {
		free(s);
		field_path(f, sizeof f, prefix, "instance");
		return loc_fail(l, f,
		    cJSON_GetObjectItemCaseSensitive(obj, "instance"),
		    "expected the instance's URL (https://…)");
	}
	free(s);
	if (get_string(l, obj, prefix, "handle", false, true, &s) != 0)
		return -1;
	free(s);
	if (load_composio(l, cJSON_GetObjectItemCaseSensitive(obj, "composio"),
	    prefix) != 0)
		return -1;
	field_path(f, sizeof f, prefix, "limits");
	if (load_limits(l, cJSON_GetObjectItemCaseSensitive(obj, "limits"), f,
	    &fr->limits) != 0)
		return -1;
	warn_unknown(l, obj, prefix, known);
	fr->raw = cJSON_Duplicate(obj, true);
	return 0;
}

static int
load_fronts_array(const struct loc *l, const cJSON *arr)
{
	struct project *p = l->p;
	const cJSON *item;
	int i, j;

	if (arr == NULL)
		return loc_fail(l, "fronts", NULL,
		    "missing; expected an array of fronts");
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
		return loc_fail(l, "fronts", arr,
		    "expected a non-empty array of fronts");
	if (cJSON_GetArraySize(arr) > PROJECT_MAX_FRONTS)
		return loc_fail(l, "fronts", NULL, "expected at most %d fronts",
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
				return loc_fail(l, f, NULL,
				    "duplicate front id \"%s\" (also fronts[%d])",
				    p->fronts[i].id, j);
			}
		i++;
	}
	return 0;
}

static int
load_provider(const struct loc *l, const cJSON *obj)
{
	static const char *known[] = { "name", "model", NULL };

	if (obj == NULL)
		return 0;
	if (!cJSON_IsObject(obj))
		return loc_fail(l, "provider", obj,
		    "expected an object with \"name\" and \"model\"");
	if (get_string(l, obj, "provider", "name", true, true,
	    &l->p->provider_name) != 0 ||
	    get_string(l, obj, "provider", "model", false, true,
	    &l->p->provider_model) != 0)
		return -1;
	warn_unknown(l, obj, "provider", known);
	return 0;
}

/* Line and column of a byte offset, for JSON syntax errors. */
static void
line_col(const char *text, size_t off, int *line, int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i] != '\0'; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

/* Parses one JSON text (a whole file or one line) that must be an object. */
static cJSON *
parse_object(const struct loc *l, const char *text, size_t len)
{
	const char *end = NULL;
	cJSON *root;
	int line, col;

	if (memchr(text, '\0', len) != NULL) {
		loc_fail(l, NULL, NULL, "contains a NUL byte");
		return NULL;
	}
	if (!utf8_valid(text, len)) {
		loc_fail(l, NULL, NULL, "not valid UTF-8");
		return NULL;
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (root != NULL && end != NULL) {
		while ((size_t)(end - text) < len && isspace((unsigned char)*end))
			end++;
		if ((size_t)(end - text) < len) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (root == NULL) {
		line_col(text, end != NULL ? (size_t)(end - text) : 0, &line, &col);
		if (l->line > 0)
			loc_fail(l, NULL, NULL,
			    "invalid JSON at column %d; expected one JSON object per line",
			    col);
		else
			loc_fail(l, NULL, NULL, "invalid JSON at line %d, column %d",
			    line, col);
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		loc_fail(l, NULL, NULL, "expected a JSON object");
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

static int
load_start(const struct loc *l, const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "start");

	if (v == NULL)
		return loc_fail(l, "start", NULL,
		    "missing; expected an ISO-8601 time with offset or \"now\"");
	if (cJSON_IsString(v) && strcmp(v->valuestring, "now") == 0) {
		l->p->start_now = true;
		return 0;
	}
	if (!cJSON_IsString(v) || time_parse_iso(v->valuestring,
	    &l->p->start) != 0)
		return loc_fail(l, "start", v, "expected an ISO-8601 time with "
		    "offset (2026-12-01T08:00:00Z, …+01:00) or \"now\"");
	return 0;
}

static int
load_fronts_json(struct project *p, const char *path, struct error *err)
{
	static const char *known[] = { "name", "timezone", "start",
	    "slot_minutes", "horizon_slots", "provider", "fronts", NULL };
	struct loc l = { p, path, 0, err };
	cJSON *root;
	size_t len;
	char *text;
	int rc = -1;

	if (file_read(path, &text, &len, err) != 0)
		return -1;
	if ((root = parse_object(&l, text, len)) == NULL) {
		free(text);
		return -1;
	}
	if (get_string(&l, root, "", "name", true, true, &p->name) != 0 ||
	    get_string(&l, root, "", "timezone", true, true, &p->timezone) != 0)
		goto out;
	if (!timeutil_zone_exists(p->timezone)) {
		loc_fail(&l, "timezone", cJSON_GetObjectItem(root, "timezone"),
		    "expected an IANA time zone name such as \"Europe/Berlin\"");
		goto out;
	}
	if (load_start(&l, root) != 0 ||
	    get_int(&l, root, "", "slot_minutes", true, 1, 1440,
	    &p->slot_minutes) != 0 ||
	    get_int(&l, root, "", "horizon_slots", true, 1, 100000,
	    &p->horizon_slots) != 0 ||
	    load_provider(&l, cJSON_GetObjectItemCaseSensitive(root,
	    "provider")) != 0 ||
	    load_fronts_array(&l, cJSON_GetObjectItemCaseSensitive(root,
	    "fronts")) != 0)
		goto out;
	warn_unknown(&l, root, "", known);
	rc = 0;
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

/* JSON lines */

/* Calls fn for every non-blank line of path, parsed as an object. */
static int
each_line(struct project *p, const char *path, struct error *err,
    int (*fn)(const struct loc *, const cJSON *))
{
	struct loc l = { p, path, 0, err };
	char *text, *line, *nl;
	size_t len, n;
	cJSON *obj;
	int rc = 0;

	if (file_read(path, &text, &len, err) != 0)
		return -1;
	for (line = text; rc == 0 && line < text + len; line = nl + 1) {
		l.line++;
		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (nl == NULL)
			nl = text + len;
		n = (size_t)(nl - line);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			n--;
		if (strspn(line, " \t") >= n)
			continue;	/* blank line */
		if ((obj = parse_object(&l, line, n)) == NULL)
			rc = -1;
		else {
			rc = fn(&l, obj);
			cJSON_Delete(obj);
		}
	}
	free(text);
	return rc;
}

/* Whether a value is a non-negative finite number. */
static bool
json_nonneg(const cJSON *v)
{
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    v->valuedouble >= 0;
}

static int
load_metrics(const struct loc *l, const cJSON *obj, struct history_post *h)
{
	double *slots[NMETRICS] = { &h->impressions, &h->likes, &h->reposts,
	    &h->replies, &h->clicks };
	const cJSON *v;
	char f[64];
	int i;

	if (obj == NULL)
		return loc_fail(l, "metrics", NULL, "missing; expected an object "
		    "of impressions, likes, reposts, replies, clicks");
	if (!cJSON_IsObject(obj))
		return loc_fail(l, "metrics", obj, "expected an object of "
		    "impressions, likes, reposts, replies, clicks");
	for (i = 0; i < NMETRICS; i++) {
		if ((v = cJSON_GetObjectItemCaseSensitive(obj,
		    metric_names[i])) == NULL)
			continue;
		snprintf(f, sizeof f, "metrics.%s", metric_names[i]);
		if (!json_nonneg(v))
			return loc_fail(l, f, v, "expected a non-negative number");
		*slots[i] = v->valuedouble;
		h->metrics_set |= 1u << i;
	}
	warn_unknown(l, obj, "metrics", metric_names);
	return 0;
}

static void
history_post_free(struct history_post *h)
{
	free(h->id);
	free(h->posted_at_text);
	free(h->text);
	strings_free(h->topics, h->ntopics);
}

static int
load_history_fields(const struct loc *l, const cJSON *obj,
    struct history_post *h)
{
	struct project *p = l->p;
	const cJSON *v;
	char *front = NULL;

	if (get_string(l, obj, "", "id", true, true, &h->id) != 0 ||
	    check_id(l, "id", h->id, false) != 0 ||
	    get_string(l, obj, "", "front", true, true, &front) != 0)
		return -1;
	h->front = project_front_index(p, front);
	free(front);
	if (h->front < 0)
		return loc_fail(l, "front",
		    cJSON_GetObjectItemCaseSensitive(obj, "front"),
		    "expected the id of a front in fronts.json");
	if (get_string(l, obj, "", "posted_at", true, true,
	    &h->posted_at_text) != 0)
		return -1;
	if (time_parse_iso(h->posted_at_text, &h->posted_at) != 0) {
		v = cJSON_GetObjectItemCaseSensitive(obj, "posted_at");
		return loc_fail(l, "posted_at", v, "expected an ISO-8601 time "
		    "with offset (2026-11-20T09:05:00+01:00 or …Z)");
	}
	if (get_string(l, obj, "", "text", true, false, &h->text) != 0 ||
	    get_strings(l, obj, "topics", &h->topics, &h->ntopics) != 0)
		return -1;
	return load_metrics(l, cJSON_GetObjectItemCaseSensitive(obj, "metrics"),
	    h);
}

static int
load_history_line(const struct loc *l, const cJSON *obj)
{
	static const char *known[] = { "id", "front", "posted_at", "text",
	    "topics", "metrics", NULL };
	struct project *p = l->p;
	struct history_post h;

	memset(&h, 0, sizeof h);
	h.line = l->line;
	if (load_history_fields(l, obj, &h) != 0) {
		history_post_free(&h);
		return -1;
	}
	warn_unknown(l, obj, "", known);
	p->history = xrealloc(p->history, (p->nhistory + 1) * sizeof *p->history);
	p->history[p->nhistory++] = h;
	return 0;
}

static void
draft_free(struct draft *d)
{
	free(d->id);
	free(d->text);
	strings_free(d->topics, d->ntopics);
}

static int
load_draft_fronts(const struct loc *l, const cJSON *arr, struct draft *d)
{
	const cJSON *s;
	char f[64];
	int i = 0, fi;

	if (arr == NULL) {
		d->front_mask = l->p->nfronts >= 64 ? UINT64_MAX :
		    (UINT64_C(1) << l->p->nfronts) - 1;
		return 0;
	}
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
		return loc_fail(l, "fronts", arr,
		    "expected a non-empty array of front ids (or no field: all fronts)");
	cJSON_ArrayForEach(s, arr) {
		snprintf(f, sizeof f, "fronts[%d]", i++);
		if (!cJSON_IsString(s))
			return loc_fail(l, f, s, "expected a front id");
		if ((fi = project_front_index(l->p, s->valuestring)) < 0)
			return loc_fail(l, f, s,
			    "expected the id of a front in fronts.json");
		if (d->front_mask & (UINT64_C(1) << fi))
			return loc_fail(l, f, s, "front listed twice");
		d->front_mask |= UINT64_C(1) << fi;
	}
	return 0;
}

static int
load_draft_line(const struct loc *l, const cJSON *obj)
{
	static const char *known[] = { "id", "text", "topics", "fronts", NULL };
	struct project *p = l->p;
	struct draft d;

	memset(&d, 0, sizeof d);
	d.line = l->line;
	if (get_string(l, obj, "", "id", true, true, &d.id) != 0 ||
	    check_id(l, "id", d.id, false) != 0 ||
	    get_string(l, obj, "", "text", true, true, &d.text) != 0 ||
	    get_strings(l, obj, "topics", &d.topics, &d.ntopics) != 0 ||
	    load_draft_fronts(l, cJSON_GetObjectItemCaseSensitive(obj, "fronts"),
	    &d) != 0) {
		draft_free(&d);
		return -1;
	}
	warn_unknown(l, obj, "", known);
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
	struct loc l = { p, path, 0, err };
	int i, rc = 0;

	qsort(v, (size_t)n, sizeof *v, idline_cmp);
	for (i = 1; i < n; i++)
		if (strcmp(v[i - 1].id, v[i].id) == 0) {
			l.line = v[i].line;
			rc = loc_fail(&l, "id", NULL,
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

static int
load_rules(struct project *p, const char *path, struct error *err)
{
	struct loc l = { p, path, 0, err };
	size_t len;

	if (file_read(path, &p->rules, &len, err) != 0)
		return -1;
	if (memchr(p->rules, '\0', len) != NULL || !utf8_valid(p->rules, len))
		return loc_fail(&l, NULL, NULL, "expected UTF-8 text");
	return 0;
}

/* Settles the clock once the zone is known, then warns about history that
 * lies in the future of the plan. */
static void
settle_start(struct project *p, const char *history_path)
{
	struct loc l = { p, history_path, 0, NULL };
	int i;

	if (p->start_now)
		p->start = time_round_up_slot(time(NULL), p->slot_minutes);
	for (i = 0; i < p->nhistory; i++)
		if (p->history[i].posted_at > p->start) {
			l.line = p->history[i].line;
			loc_warn(&l, "field \"posted_at\": after the plan's start");
		}
}

static int
load_all(struct project *p, struct error *err)
{
	char *fronts = path_join(p->dir, "fronts.json");
	char *rules = path_join(p->dir, "rules.md");
	char *history = path_join(p->dir, "history.jsonl");
	char *drafts = path_join(p->dir, "drafts.jsonl");
	char *warning;
	int rc = -1;

	if (load_fronts_json(p, fronts, err) != 0 ||
	    load_rules(p, rules, err) != 0 ||
	    each_line(p, history, err, load_history_line) != 0 ||
	    check_history_ids(p, history, err) != 0 ||
	    each_line(p, drafts, err, load_draft_line) != 0 ||
	    check_draft_ids(p, drafts, err) != 0)
		goto out;
	if (timeutil_set_zone(p->timezone) != 0) {
		error_set(err, EXIT_ERROR, "%s: field \"timezone\": cannot use "
		    "time zone \"%s\"", fronts, p->timezone);
		goto out;
	}
	settle_start(p, history);
	instlimits_apply(p, &warning);
	if (warning != NULL) {
		p->warnings = xrealloc(p->warnings,
		    (p->nwarnings + 1) * sizeof *p->warnings);
		p->warnings[p->nwarnings++] = warning;
	}
	rc = 0;
out:
	free(fronts);
	free(rules);
	free(history);
	free(drafts);
	return rc;
}

int
project_load(const char *dir, struct project **out, struct error *err)
{
	struct project *p = xcalloc(1, sizeof *p);

	*out = NULL;
	p->dir = xstrdup(dir != NULL ? dir : ".");
	if (load_all(p, err) != 0) {
		project_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

void
project_free(struct project *p)
{
	int i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nfronts; i++) {
		free(p->fronts[i].id);
		free(p->fronts[i].account);
		cJSON_Delete(p->fronts[i].raw);
	}
	free(p->fronts);
	for (i = 0; i < p->nhistory; i++)
		history_post_free(&p->history[i]);
	free(p->history);
	for (i = 0; i < p->ndrafts; i++)
		draft_free(&p->drafts[i]);
	free(p->drafts);
	strings_free(p->warnings, p->nwarnings);
	free(p->dir);
	free(p->name);
	free(p->timezone);
	free(p->provider_name);
	free(p->provider_model);
	free(p->rules);
	free(p);
}

int
project_front_index(const struct project *p, const char *id)
{
	int i;

	for (i = 0; id != NULL && i < p->nfronts; i++)
		if (p->fronts[i].id != NULL && strcmp(p->fronts[i].id, id) == 0)
			return i;
	return -1;
}

int
project_draft_index(const struct project *p, const char *id)
{
	int i;

	for (i = 0; id != NULL && i < p->ndrafts; i++)
		if (strcmp(p->drafts[i].id, id) == 0)
			return i;
	return -1;
}

bool
project_draft_allows(const struct project *p, int draft, int front)
{
	return draft >= 0 && draft < p->ndrafts && front >= 0 &&
	    front < p->nfronts &&
	    (p->drafts[draft].front_mask & (UINT64_C(1) << front)) != 0;
}

time_t
project_slot_time(const struct project *p, int slot)
{
	return p->start + (time_t)slot * p->slot_minutes * 60;
}

/* ctx */

static cJSON *
strings_json(char **v, int n)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static void
add_limit(cJSON *o, const char *key, int v)
{
	if (v != LIMIT_UNSET)
		cJSON_AddNumberToObject(o, key, v);
}

/* The limits fronts.json sets, as written there. */
static cJSON *
limits_json(const struct limits *l)
{
	cJSON *o = cJSON_CreateObject(), *q;

	add_limit(o, "max_length", l->max_length);
	add_limit(o, "max_posts_per_day", l->max_posts_per_day);
	add_limit(o, "min_gap_minutes", l->min_gap_minutes);
	if (l->quiet_start != LIMIT_UNSET) {
		q = cJSON_AddArrayToObject(o, "quiet_hours");
		cJSON_AddItemToArray(q, cJSON_CreateNumber(l->quiet_start));
		cJSON_AddItemToArray(q, cJSON_CreateNumber(l->quiet_end));
	}
	add_limit(o, "max_links", l->max_links);
	add_limit(o, "max_hashtags", l->max_hashtags);
	return o;
}

static cJSON *
history_json(const struct history_post *h, const struct project *p)
{
	const double v[NMETRICS] = { h->impressions, h->likes, h->reposts,
	    h->replies, h->clicks };
	cJSON *o = cJSON_CreateObject(), *m;
	int i;

	cJSON_AddStringToObject(o, "id", h->id);
	cJSON_AddStringToObject(o, "front", p->fronts[h->front].id);
	cJSON_AddStringToObject(o, "posted_at", h->posted_at_text);
	cJSON_AddStringToObject(o, "text", h->text);
	cJSON_AddItemToObject(o, "topics", strings_json(h->topics, h->ntopics));
	m = cJSON_AddObjectToObject(o, "metrics");
	for (i = 0; i < NMETRICS; i++)
		if (h->metrics_set & (1u << i))
			cJSON_AddNumberToObject(m, metric_names[i], v[i]);
	return o;
}

static cJSON *
draft_json(const struct draft *d, const struct project *p)
{
	cJSON *o = cJSON_CreateObject(), *f;
	int i;

	cJSON_AddStringToObject(o, "id", d->id);
	cJSON_AddStringToObject(o, "text", d->text);
	cJSON_AddItemToObject(o, "topics", strings_json(d->topics, d->ntopics));
	f = cJSON_AddArrayToObject(o, "fronts");
	for (i = 0; i < p->nfronts; i++)
		if (d->front_mask & (UINT64_C(1) << i))
			cJSON_AddItemToArray(f, cJSON_CreateString(p->fronts[i].id));
	return o;
}

cJSON *
project_ctx_json(const struct project *p)
{
	cJSON *ctx = cJSON_CreateObject(), *a, *f;
	char now[64];
	int i;

	time_format_local(p->start, now, sizeof now);
	cJSON_AddStringToObject(ctx, "now", now);
	cJSON_AddStringToObject(ctx, "timezone", p->timezone);
	cJSON_AddNumberToObject(ctx, "slot_minutes", p->slot_minutes);
	cJSON_AddNumberToObject(ctx, "horizon_slots", p->horizon_slots);
	a = cJSON_AddArrayToObject(ctx, "fronts");
	for (i = 0; i < p->nfronts; i++) {
		f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "id", p->fronts[i].id);
		cJSON_AddStringToObject(f, "platform",
		    platform_name(p->fronts[i].platform));
		cJSON_AddItemToObject(f, "limits", limits_json(&p->fronts[i].limits));
		cJSON_AddItemToArray(a, f);
	}
	a = cJSON_AddArrayToObject(ctx, "drafts");
	for (i = 0; i < p->ndrafts; i++)
		cJSON_AddItemToArray(a, draft_json(&p->drafts[i], p));
	a = cJSON_AddArrayToObject(ctx, "history");
	for (i = 0; i < p->nhistory; i++)
		cJSON_AddItemToArray(a, history_json(&p->history[i], p));
	return ctx;
}
