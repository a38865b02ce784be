/*
 * json — typed lookups in cJSON trees and the checked readers built on
 * them (see json.h).
 *
 * The checked readers are what every operator-written file goes through,
 * so their messages are part of the interface: tests and operators match
 * "FILE:LINE: field "PATH": expected …, got …" literally.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "core/json.h"

const char *
json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *
json_str_nonempty(const cJSON *o, const char *key)
{
	const char *s = json_str(o, key);

	return s != NULL && s[0] != '\0' ? s : NULL;
}

double
json_num_or(const cJSON *o, const char *key, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

bool
json_finite(const cJSON *v)
{
	return cJSON_IsNumber(v) && isfinite(v->valuedouble);
}

enum json_found
json_number(const cJSON *o, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return JSON_ABSENT;
	if (!json_finite(v))
		return JSON_WRONG_TYPE;
	*out = v->valuedouble;
	return JSON_OK;
}

enum json_found
json_string(const cJSON *o, const char *key, const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return JSON_ABSENT;
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return JSON_WRONG_TYPE;
	*out = v->valuestring;
	return JSON_OK;
}

bool
json_int_in(const cJSON *v, long lo, long hi, long *out)
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

bool
json_utf8_valid(const char *s, size_t len)
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

static void
json_where(const struct json_loc *l, char *buf, size_t len)
{
	if (l->line > 0)
		snprintf(buf, len, "%s:%d", l->file, l->line);
	else
		snprintf(buf, len, "%s", l->file);
}

int
json_fail(const struct json_loc *l, const char *field, const cJSON *got,
    const char *fmt, ...)
{
	char where[512], what[512], shown[64] = "";
	char *text;
	va_list ap;

	json_where(l, where, sizeof where);
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

void
json_warn(const struct json_loc *l, const char *fmt, ...)
{
	char where[512], what[512], *msg;
	va_list ap;

	if (l->warnings == NULL || l->nwarnings == NULL)
		return;
	json_where(l, where, sizeof where);
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	xasprintf(&msg, "%s: %s", where, what);
	*l->warnings = xrealloc(*l->warnings,
	    (size_t)(*l->nwarnings + 1) * sizeof **l->warnings);
	(*l->warnings)[(*l->nwarnings)++] = msg;
}

void
json_warn_unknown(const struct json_loc *l, const cJSON *obj,
    const char *prefix, const char *const *known)
{
	const cJSON *item;
	int i;

	cJSON_ArrayForEach(item, obj) {
		/* the operator's notes (JSON has no comments): no warning */
		if (item->string != NULL &&
		    strncmp(item->string, "_comment", 8) == 0)
			continue;
		for (i = 0; known[i] != NULL; i++)
			if (item->string != NULL &&
			    strcmp(item->string, known[i]) == 0)
				break;
		if (known[i] == NULL)
			json_warn(l, "field \"%s%s%s\": unknown field, ignored",
			    prefix, *prefix != '\0' ? "." : "",
			    item->string != NULL ? item->string : "");
	}
}

void
json_path(char *buf, size_t len, const char *prefix, const char *key)
{
	if (prefix == NULL || *prefix == '\0')
		snprintf(buf, len, "%s", key);
	else
		snprintf(buf, len, "%s.%s", prefix, key);
}

/* Line and column of a byte offset, for JSON syntax errors. */
static void
json_line_col(const char *text, size_t off, int *line, int *col)
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

/* cJSON stops at the end of the first value; anything but white space
 * after it makes the text invalid. */
static cJSON *
json_parse_whole(const char *text, size_t len, const char **end)
{
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, end, false);

	if (root != NULL && *end != NULL) {
		while ((size_t)(*end - text) < len &&
		    isspace((unsigned char)**end))
			(*end)++;
		if ((size_t)(*end - text) < len) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	return root;
}

cJSON *
json_parse_object(const struct json_loc *l, const char *text, size_t len)
{
	const char *end = NULL;
	cJSON *root;
	int line, col;

	if (memchr(text, '\0', len) != NULL) {
		json_fail(l, NULL, NULL, "contains a NUL byte");
		return NULL;
	}
	if (!json_utf8_valid(text, len)) {
		json_fail(l, NULL, NULL, "not valid UTF-8");
		return NULL;
	}
	if ((root = json_parse_whole(text, len, &end)) == NULL) {
		json_line_col(text, end != NULL ? (size_t)(end - text) : 0,
		    &line, &col);
		if (l->line > 0)
			json_fail(l, NULL, NULL, "invalid JSON at column %d; "
			    "expected one JSON object per line", col);
		else
			json_fail(l, NULL, NULL,
			    "invalid JSON at line %d, column %d", line, col);
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		json_fail(l, NULL, NULL, "expected a JSON object");
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int
json_each_line(struct json_loc *l, const char *text, size_t len,
    int (*fn)(const struct json_loc *, const cJSON *, void *), void *arg)
{
	const char *line, *nl;
	size_t n;
	cJSON *obj;
	int rc = 0;

	l->line = 0;
	for (line = text; rc == 0 && line < text + len; line = nl + 1) {
		l->line++;
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
		if ((obj = json_parse_object(l, line, n)) == NULL)
			rc = -1;
		else {
			rc = fn(l, obj, arg);
			cJSON_Delete(obj);
		}
	}
	return rc;
}

int
json_get_string(const struct json_loc *l, const cJSON *obj,
    const char *prefix, const char *key, int flags, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	bool nonempty = (flags & JSON_NONEMPTY) != 0;
	char f[256];

	json_path(f, sizeof f, prefix, key);
	*out = NULL;
	if (v == NULL) {
		if (flags & JSON_REQUIRED)
			return json_fail(l, f, NULL,
			    "missing; expected a %sstring",
			    nonempty ? "non-empty " : "");
		return 0;
	}
	if (!cJSON_IsString(v) || v->valuestring == NULL)
		return json_fail(l, f, v, "expected a string");
	if (nonempty && v->valuestring[0] == '\0')
		return json_fail(l, f, NULL, "expected a non-empty string");
	if (!json_utf8_valid(v->valuestring, strlen(v->valuestring)))
		return json_fail(l, f, NULL, "expected valid UTF-8");
	*out = xstrdup(v->valuestring);
	return 0;
}

int
json_get_int(const struct json_loc *l, const cJSON *obj, const char *prefix,
    const char *key, bool required, long lo, long hi, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char f[256];
	long n;

	json_path(f, sizeof f, prefix, key);
	if (v == NULL) {
		if (required)
			return json_fail(l, f, NULL,
			    "missing; expected an integer in %ld..%ld", lo, hi);
		return 0;
	}
	if (!json_int_in(v, lo, hi, &n))
		return json_fail(l, f, v, "expected an integer in %ld..%ld",
		    lo, hi);
	*out = (int)n;
	return 0;
}

int
json_get_strings(const struct json_loc *l, const cJSON *obj, const char *key,
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
		return json_fail(l, key, v, "expected an array of strings");
	*out = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **out);
	cJSON_ArrayForEach(s, v) {
		snprintf(f, sizeof f, "%s[%d]", key, i);
		if (!cJSON_IsString(s) || s->valuestring[0] == '\0')
			return json_fail(l, f, s, "expected a non-empty string");
		if (!json_utf8_valid(s->valuestring, strlen(s->valuestring)))
			return json_fail(l, f, NULL, "expected valid UTF-8");
		(*out)[i++] = xstrdup(s->valuestring);
		*n = i;
	}
	return 0;
}

void
json_strings_free(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
