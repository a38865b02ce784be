/*
 * instlimits — the cache of Mastodon instances' own limits (see
 * instlimits.h). The file is one JSON object:
 *   {"instances": {"https://m.example": {"max_characters": 5000,
 *    "characters_reserved_per_url": 23, "read_at": "2026-12-01T09:00:00Z",
 *    "max_media_attachments": 4, "image_size_limit": 16777216,
 *    "image_matrix_limit": 33177600, "description_limit": 1500,
 *    "image_types": ["image/jpeg", "image/png"]}}}
 * (the media fields optional: an older cache, or an instance that does
 * not announce them, keeps Mastodon's defaults).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/instlimits.h"
#include "core/json.h"
#include "core/statedir.h"
#include "core/timeutil.h"

#define INSTLIMITS_NAME	"instance-limits.json"
#define INSTLIMITS_FILE	".fronts/" INSTLIMITS_NAME

/* The cache as parsed (an empty object when there is none). */
static int
instlimits_read(const char *dir, cJSON **out, struct error *err)
{
	char *path = path_join(dir, INSTLIMITS_FILE), *data;
	size_t len;
	cJSON *j;
	int rc;

	*out = NULL;
	if ((rc = statedir_read(dir, INSTLIMITS_NAME, &data, &len, err)) != 0) {
		free(path);
		if (rc < 0)
			return -1;
		*out = cJSON_CreateObject();
		return 0;
	}
	j = cJSON_ParseWithLength(data, len);
	free(data);
	if (!cJSON_IsObject(j) || (cJSON_HasObjectItem(j, "instances") &&
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j,
	    "instances")))) {
		cJSON_Delete(j);
		error_set(err, EXIT_ERROR, "%s: not a JSON object with an "
		    "\"instances\" object (`fronts check` writes it anew)", path);
		free(path);
		return -1;
	}
	free(path);
	*out = j;
	return 0;
}

static bool
instlimits_int(const cJSON *o, const char *name, int *out)
{
	long n;

	if (!json_int_in(cJSON_GetObjectItemCaseSensitive(o, name), 1, 1000000,
	    &n))
		return false;
	*out = (int)n;
	return true;
}

static const char *const media_keys[] = { "max_media_attachments",
    "image_size_limit", "image_matrix_limit", "description_limit" };

unsigned
instlimits_mime_bit(const char *mime)
{
	static const char *const names[IMAGE_NTYPES] = { NULL, "image/jpeg",
	    "image/png", "image/gif", "image/webp" };
	int i;

	for (i = 1; i < IMAGE_NTYPES; i++)
		if (strcmp(mime, names[i]) == 0)
			return 1u << i;
	return 0;
}

/* The optional media fields of an entry; one that is absent or not a
 * whole positive number stays 0 (the defaults). */
static void
instlimits_media(const cJSON *e, struct instlimits *out)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "image_types"), *s;
	long v[4] = { 0, 0, 0, 0 };
	int i;

	for (i = 0; i < 4; i++)
		if (!json_int_in(cJSON_GetObjectItemCaseSensitive(e,
		    media_keys[i]), 1, 1L << 40, &v[i]))
			v[i] = 0;
	out->max_media = (int)(v[0] > 1000 ? 1000 : v[0]);
	out->image_bytes = v[1];
	out->image_pixels = v[2];
	out->alt_length = (int)(v[3] > 1000000 ? 1000000 : v[3]);
	out->image_types = 0;
	if (!cJSON_IsArray(t))
		t = NULL;
	cJSON_ArrayForEach(s, t)
		if (cJSON_IsString(s))
			out->image_types |= instlimits_mime_bit(s->valuestring);
}

/* One instance's entry; -1 with err naming the field when it is bad. */
static int
instlimits_entry(const char *dir, const cJSON *e, const char *key,
    struct instlimits *out, struct error *err)
{
	const char *t = json_str(e, "read_at");

	if (!cJSON_IsObject(e) ||
	    !instlimits_int(e, "max_characters", &out->max_characters) ||
	    !instlimits_int(e, "characters_reserved_per_url",
	    &out->url_characters) || t == NULL ||
	    time_parse_iso(t, &out->read_at) != 0)
		return error_set(err, EXIT_ERROR, "%s/%s: field \"instances.%s\": "
		    "expected max_characters and characters_reserved_per_url "
		    "(whole numbers >= 1) and read_at (UTC ISO-8601)", dir,
		    INSTLIMITS_FILE, key);
	instlimits_media(e, out);
	return 0;
}

int
instlimits_find(const char *dir, const char *instance,
    struct instlimits *out, struct error *err)
{
	char *key = xstrdup_rtrim(instance, '/');
	const cJSON *e;
	cJSON *j;
	int rc = -1;

	if (instlimits_read(dir, &j, err) != 0) {
		free(key);
		return -1;
	}
	e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    j, "instances"), key);
	if (e != NULL)
		rc = instlimits_entry(dir, e, key, out, err);
	cJSON_Delete(j);
	free(key);
	return rc;
}

static void
instlimits_put_media(cJSON *e, const struct instlimits *l)
{
	static const char *const mimes[IMAGE_NTYPES] = { NULL, "image/jpeg",
	    "image/png", "image/gif", "image/webp" };
	double v[4] = { l->max_media, (double)l->image_bytes,
	    (double)l->image_pixels, l->alt_length };
	cJSON *t;
	int i;

	for (i = 0; i < 4; i++)
		if (v[i] > 0)
			cJSON_AddNumberToObject(e, media_keys[i], v[i]);
	if (l->image_types == 0)
		return;
	t = cJSON_AddArrayToObject(e, "image_types");
	for (i = 1; i < IMAGE_NTYPES; i++)
		if (l->image_types & (1u << i))
			cJSON_AddItemToArray(t, cJSON_CreateString(mimes[i]));
}

int
instlimits_store(const char *dir, const char *instance,
    const struct instlimits *l, struct error *err)
{
	char *key = xstrdup_rtrim(instance, '/'), *text, t[32];
	cJSON *j, *all, *e;
	int rc;

	/* A cache that cannot be read is derived data: it is replaced. */
	if (instlimits_read(dir, &j, NULL) != 0)
		j = cJSON_CreateObject();
	if ((all = cJSON_GetObjectItemCaseSensitive(j, "instances")) == NULL)
		all = cJSON_AddObjectToObject(j, "instances");
	cJSON_DeleteItemFromObjectCaseSensitive(all, key);
	e = cJSON_AddObjectToObject(all, key);
	cJSON_AddNumberToObject(e, "max_characters", l->max_characters);
	cJSON_AddNumberToObject(e, "characters_reserved_per_url",
	    l->url_characters);
	time_format_utc(l->read_at, t, sizeof t);
	cJSON_AddStringToObject(e, "read_at", t);
	instlimits_put_media(e, l);
	text = cJSON_Print(j);
	cJSON_Delete(j);
	rc = statedir_write(dir, INSTLIMITS_NAME, text, strlen(text), err);
	free(text);
	free(key);
	return rc;
}

void
instlimits_apply(struct project *p, char **warning)
{
	struct instlimits l;
	struct error err = { 0 };
	const char *inst;
	struct front *f;
	int i;

	*warning = NULL;
	for (i = 0; i < p->nfronts; i++) {
		f = &p->fronts[i];
		inst = json_str(f->raw, "instance");
		if (f->platform != PLATFORM_MASTODON || inst == NULL)
			continue;
		if (instlimits_find(p->dir, inst, &l, &err) == 0) {
			f->limits.instance_length = l.max_characters;
			f->limits.url_weight = l.url_characters;
			f->limits.instance_max_media = l.max_media;
			f->limits.instance_image_bytes = l.image_bytes;
			f->limits.instance_image_pixels = l.image_pixels;
			f->limits.instance_alt_length = l.alt_length;
			f->limits.instance_image_types = l.image_types;
		} else if (err.code != 0) {
			xasprintf(warning, "%s; Mastodon's defaults (500, URLs 23) "
			    "are used", err.msg);
			return;
		}
	}
}
