/*
 * project_draft — the shape of a draft beyond its first text: the parts of
 * a thread, the images of each part, the variants per front or platform,
 * and the window it may be posted in (drafts.jsonl, see README "Drafts").
 *
 * Every error names the field by its path ("variants.x.thread[1].media[0]
 * .path"), so a long draft line still points at the one value at fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/project_int.h"
#include "core/timeutil.h"

void
project_body_free(struct body *b)
{
	int i, j;

	for (i = 0; i < b->nparts; i++) {
		for (j = 0; j < b->parts[i].nmedia; j++) {
			free(b->parts[i].media[j].path);
			free(b->parts[i].media[j].alt);
			free(b->parts[i].media[j].facts.problem);
		}
		free(b->parts[i].media);
		free(b->parts[i].text);
	}
	free(b->parts);
	b->parts = NULL;
	b->nparts = 0;
}

void
project_draft_set_text(struct draft *d, const char *text)
{
	project_body_free(&d->body);
	d->body.parts = xcalloc(1, sizeof *d->body.parts);
	d->body.parts[0].text = xstrdup(text);
	d->body.nparts = 1;
	free(d->text);
	d->text = xstrdup(text);
}

/* A path inside the project directory, by its words alone: not absolute,
 * and no ".." that climbs above where it started. (The file itself is
 * read, and its real path checked, where images are probed.) */
static bool
path_inside(const char *s)
{
	const char *p = s, *e;
	int depth = 0;

	if (*s == '/' || *s == '\\' || strchr(s, '\\') != NULL)
		return false;
	while (*p != '\0') {
		e = p + strcspn(p, "/");
		if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (e - p > 0 && !(e - p == 1 && p[0] == '.'))
			depth++;
		p = *e == '/' ? e + 1 : e;
	}
	return depth > 0;
}

static int
load_one_media(const struct json_loc *l, const cJSON *o, const char *f,
    struct media *m)
{
	static const char *known[] = { "path", "alt", NULL };
	char pf[256];

	if (!cJSON_IsObject(o))
		return json_fail(l, f, o,
		    "expected an object {\"path\": …, \"alt\": …}");
	if (json_get_string(l, o, f, "path", JSON_FILLED, &m->path) != 0 ||
	    json_get_string(l, o, f, "alt", JSON_NONEMPTY, &m->alt) != 0)
		return -1;
	if (!path_inside(m->path)) {
		json_path(pf, sizeof pf, f, "path");
		return json_fail(l, pf, cJSON_GetObjectItemCaseSensitive(o,
		    "path"), "expected a file path relative to the project "
		    "directory and inside it");
	}
	json_warn_unknown(l, o, f, known);
	return 0;
}

/* "media": [{"path", "alt"}, …] of one part (prefix: the part's path). */
static int
load_media(const struct json_loc *l, const cJSON *obj, const char *prefix,
    struct part *pt)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "media"), *o;
	char f[256], mf[300];
	int n;

	if (arr == NULL)
		return 0;
	json_path(f, sizeof f, prefix, "media");
	n = cJSON_GetArraySize(arr);
	if (!cJSON_IsArray(arr))
		return json_fail(l, f, arr, "expected an array of "
		    "{\"path\", \"alt\"} objects");
	if (n > DRAFT_MAX_MEDIA)
		return json_fail(l, f, NULL, "%d images; at most %d per part",
		    n, DRAFT_MAX_MEDIA);
	pt->media = xcalloc((size_t)n + 1, sizeof *pt->media);
	cJSON_ArrayForEach(o, arr) {
		snprintf(mf, sizeof mf, "%s[%d]", f, pt->nmedia);
		if (load_one_media(l, o, mf, &pt->media[pt->nmedia++]) != 0)
			return -1;
	}
	return 0;
}

/* One part after the first: a string, or {"text", "media"}. */
static int
load_part(const struct json_loc *l, const cJSON *v, const char *f,
    struct part *pt)
{
	static const char *known[] = { "text", "media", NULL };

	if (cJSON_IsString(v)) {
		if (v->valuestring[0] == '\0')
			return json_fail(l, f, NULL, "expected a non-empty string");
		if (!json_utf8_valid(v->valuestring, strlen(v->valuestring)))
			return json_fail(l, f, NULL, "expected valid UTF-8");
		pt->text = xstrdup(v->valuestring);
		return 0;
	}
	if (!cJSON_IsObject(v))
		return json_fail(l, f, v, "expected a text, or an object "
		    "{\"text\": …, \"media\": […]}");
	if (json_get_string(l, v, f, "text", JSON_FILLED, &pt->text) != 0 ||
	    load_media(l, v, f, pt) != 0)
		return -1;
	json_warn_unknown(l, v, f, known);
	return 0;
}

/* A body from obj's "text", "media" and "thread" (prefix: where obj is). */
static int
load_body(const struct json_loc *l, const cJSON *obj, const char *prefix,
    struct body *b)
{
	const cJSON *th = cJSON_GetObjectItemCaseSensitive(obj, "thread"), *v;
	char f[256], pf[300];
	int n = 0;

	if (th != NULL && !cJSON_IsArray(th)) {
		json_path(f, sizeof f, prefix, "thread");
		return json_fail(l, f, th, "expected an array of the parts "
		    "after the first (texts or {\"text\", \"media\"} objects)");
	}
	n = cJSON_GetArraySize(th);
	if (n + 1 > DRAFT_MAX_PARTS) {
		json_path(f, sizeof f, prefix, "thread");
		return json_fail(l, f, NULL, "%d parts; at most %d",
		    n + 1, DRAFT_MAX_PARTS);
	}
	b->parts = xcalloc((size_t)n + 1, sizeof *b->parts);
	b->nparts = 1;
	if (json_get_string(l, obj, prefix, "text", JSON_FILLED,
	    &b->parts[0].text) != 0 ||
	    load_media(l, obj, prefix, &b->parts[0]) != 0)
		return -1;
	json_path(f, sizeof f, prefix, "thread");
	cJSON_ArrayForEach(v, th) {
		snprintf(pf, sizeof pf, "%s[%d]", f, b->nparts - 1);
		if (load_part(l, v, pf, &b->parts[b->nparts++]) != 0)
			return -1;
	}
	return 0;
}

/* Whether key names a front the draft may go to, or a platform one of
 * them is on. */
static bool
variant_serves(const struct project *p, const struct draft *d,
    const char *key)
{
	int f;

	for (f = 0; f < p->nfronts; f++)
		if ((d->front_mask & (UINT64_C(1) << f)) &&
		    (strcmp(p->fronts[f].id, key) == 0 ||
		    strcmp(platform_name(p->fronts[f].platform), key) == 0))
			return true;
	return false;
}

static int
load_variant(const struct json_loc *l, const struct project *p,
    const cJSON *v, struct draft *d)
{
	static const char *known[] = { "text", "thread", "media", NULL };
	struct variant *va = &d->variants[d->nvariants++];
	char f[256];
	int i;

	snprintf(f, sizeof f, "variants.%.200s", v->string);
	va->key = xstrdup(v->string);
	if (project_front_index(p, va->key) < 0 &&
	    platform_from_name(va->key) < 0)
		return json_fail(l, f, NULL, "expected the key to be a front "
		    "id in fronts.json or a platform name");
	for (i = 0; i < d->nvariants - 1; i++)
		if (strcmp(d->variants[i].key, va->key) == 0)
			return json_fail(l, f, NULL, "key given twice");
	if (cJSON_IsString(v)) {
		if (v->valuestring[0] == '\0' ||
		    !json_utf8_valid(v->valuestring, strlen(v->valuestring)))
			return json_fail(l, f, NULL,
			    "expected a non-empty UTF-8 text");
		va->body.parts = xcalloc(1, sizeof *va->body.parts);
		va->body.parts[0].text = xstrdup(v->valuestring);
		va->body.nparts = 1;
	} else if (!cJSON_IsObject(v))
		return json_fail(l, f, v, "expected a text, or an object "
		    "{\"text\", \"thread\", \"media\"}");
	else if (load_body(l, v, f, &va->body) != 0)
		return -1;
	else
		json_warn_unknown(l, v, f, known);
	if (!variant_serves(p, d, va->key))
		json_warn(l, "field \"%s\": no front of this draft is %s; "
		    "the variant is never used", f, va->key);
	return 0;
}

static int
load_variants(const struct json_loc *l, const struct project *p,
    const cJSON *obj, struct draft *d)
{
	const cJSON *vs = cJSON_GetObjectItemCaseSensitive(obj, "variants"), *v;

	if (vs == NULL)
		return 0;
	if (!cJSON_IsObject(vs))
		return json_fail(l, "variants", vs, "expected an object of "
		    "front ids or platform names to a text or "
		    "{\"text\", \"thread\", \"media\"}");
	d->variants = xcalloc((size_t)cJSON_GetArraySize(vs) + 1,
	    sizeof *d->variants);
	cJSON_ArrayForEach(v, vs)
		if (load_variant(l, p, v, d) != 0)
			return -1;
	return 0;
}

static int
load_time(const struct json_loc *l, const cJSON *obj, const char *key,
    bool *has, time_t *t)
{
	char *s = NULL;
	int rc = 0;

	if (json_get_string(l, obj, "", key, JSON_NONEMPTY, &s) != 0)
		return -1;
	if (s != NULL && time_parse_iso(s, t) != 0)
		rc = json_fail(l, key, cJSON_GetObjectItemCaseSensitive(obj,
		    key), "expected an ISO-8601 time with offset "
		    "(2026-11-20T09:05:00+01:00 or …Z)");
	*has = s != NULL && rc == 0;
	free(s);
	return rc;
}

static int
load_window(const struct json_loc *l, const cJSON *obj, struct draft *d)
{
	if (load_time(l, obj, "not_before", &d->has_not_before,
	    &d->not_before) != 0 ||
	    load_time(l, obj, "not_after", &d->has_not_after,
	    &d->not_after) != 0)
		return -1;
	if (d->has_not_before && d->has_not_after &&
	    d->not_after <= d->not_before)
		return json_fail(l, "not_after", cJSON_GetObjectItemCaseSensitive(
		    obj, "not_after"), "expected a time after not_before");
	return 0;
}

int
project_draft_load_shape(const struct json_loc *l, const struct project *p,
    const cJSON *obj, struct draft *d)
{
	if (load_body(l, obj, "", &d->body) != 0 ||
	    load_variants(l, p, obj, d) != 0 || load_window(l, obj, d) != 0)
		return -1;
	d->text = xstrdup(d->body.parts[0].text);
	return 0;
}

void
project_draft_free(struct draft *d)
{
	int i;

	free(d->id);
	free(d->text);
	json_strings_free(d->topics, d->ntopics);
	project_body_free(&d->body);
	for (i = 0; i < d->nvariants; i++) {
		free(d->variants[i].key);
		project_body_free(&d->variants[i].body);
	}
	free(d->variants);
}

int
project_draft_variant(const struct project *p, int d, int f)
{
	const struct draft *dr = &p->drafts[d];
	const char *pl = platform_name(p->fronts[f].platform);
	int i, byplat = -1;

	for (i = 0; i < dr->nvariants; i++) {
		if (strcmp(dr->variants[i].key, p->fronts[f].id) == 0)
			return i;
		if (byplat < 0 && strcmp(dr->variants[i].key, pl) == 0)
			byplat = i;
	}
	return byplat;
}

const char *
project_draft_text(const struct project *p, int d, int f)
{
	const struct body *b = project_draft_body(p, d, f);

	return b->nparts > 0 ? b->parts[0].text : p->drafts[d].text;
}

const struct body *
project_draft_body(const struct project *p, int d, int f)
{
	int v = project_draft_variant(p, d, f);

	return v >= 0 ? &p->drafts[d].variants[v].body : &p->drafts[d].body;
}

static void
body_print(FILE *f, const struct body *b)
{
	const struct media *m;
	int i, j;

	for (i = 0; i < b->nparts; i++) {
		fprintf(f, "part %zu\n%s\n", strlen(b->parts[i].text),
		    b->parts[i].text);
		for (j = 0; j < b->parts[i].nmedia; j++) {
			m = &b->parts[i].media[j];
			fprintf(f, "media %zu\n%s\n%zd\n%s\n", strlen(m->path),
			    m->path, m->alt != NULL ? (ssize_t)strlen(m->alt) : -1,
			    m->alt != NULL ? m->alt : "");
		}
	}
}

void
project_draft_shape_print(FILE *f, const struct draft *d)
{
	int i;

	if (d->body.nparts <= 1 && (d->body.nparts == 0 ||
	    d->body.parts[0].nmedia == 0) && d->nvariants == 0 &&
	    !d->has_not_before && !d->has_not_after)
		return;
	body_print(f, &d->body);
	for (i = 0; i < d->nvariants; i++) {
		fprintf(f, "variant %s\n", d->variants[i].key);
		body_print(f, &d->variants[i].body);
	}
	if (d->has_not_before)
		fprintf(f, "not_before %lld\n", (long long)d->not_before);
	if (d->has_not_after)
		fprintf(f, "not_after %lld\n", (long long)d->not_after);
}
