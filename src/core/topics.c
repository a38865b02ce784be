/*
 * topics — tagging text by fronts.json's keyword and hashtag rules.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/topics.h"

int
topics_from_json(const cJSON *root, const char *file, struct topics *out,
    struct error *err)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "topics");
	const cJSON *r, *w;
	struct topic_rule *tr;
	int i;

	memset(out, 0, sizeof *out);
	if (t == NULL)
		return 0;
	if (!cJSON_IsObject(t))
		return error_set(err, EXIT_ERROR, "%s: topics: expected an "
		    "object of topic → [keyword or #hashtag, …]", file);
	cJSON_ArrayForEach(r, t) {
		if (!cJSON_IsArray(r) || r->string[0] == '\0') {
			topics_free(out);
			return error_set(err, EXIT_ERROR, "%s: topics.%.64s: "
			    "expected an array of keywords", file, r->string);
		}
		out->rules = xrealloc(out->rules, (size_t)(out->n + 1) *
		    sizeof *out->rules);
		tr = &out->rules[out->n++];
		tr->topic = xstrdup(r->string);
		tr->nwords = 0;
		tr->words = xcalloc((size_t)cJSON_GetArraySize(r) + 1,
		    sizeof *tr->words);
		i = 0;
		cJSON_ArrayForEach(w, r) {
			if (!cJSON_IsString(w) || w->valuestring[0] == '\0' ||
			    strcmp(w->valuestring, "#") == 0) {
				topics_free(out);
				return error_set(err, EXIT_ERROR, "%s: topics."
				    "%.64s[%d]: expected a non-empty keyword or "
				    "#hashtag", file, r->string, i);
			}
			tr->words[tr->nwords++] = xstrdup(w->valuestring);
			i++;
		}
	}
	return 0;
}

void
topics_free(struct topics *t)
{
	int i, j;

	for (i = 0; i < t->n; i++) {
		for (j = 0; j < t->rules[i].nwords; j++)
			free(t->rules[i].words[j]);
		free(t->rules[i].words);
		free(t->rules[i].topic);
	}
	free(t->rules);
	memset(t, 0, sizeof *t);
}

/* Bytes of a word: ASCII letters, digits, '_' and every byte of a
 * multi-byte character (so "café" is one word). */
static int
word_byte(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

static int
word_at(const char *text, size_t at, const char *w, size_t wl)
{
	size_t i;

	for (i = 0; i < wl; i++)
		if (tolower((unsigned char)text[at + i]) !=
		    tolower((unsigned char)w[i]))
			return 0;
	if (at > 0 && (word_byte((unsigned char)text[at - 1]) ||
	    (w[0] == '#' && text[at - 1] == '#')))
		return 0;
	return !word_byte((unsigned char)text[at + wl]);
}

static int
topics_match(const struct topic_rule *r, const char *text)
{
	size_t n = strlen(text), wl, at;
	int j;

	for (j = 0; j < r->nwords; j++) {
		wl = strlen(r->words[j]);
		for (at = 0; wl <= n && at <= n - wl; at++)
			if (word_at(text, at, r->words[j], wl))
				return 1;
	}
	return 0;
}

cJSON *
topics_tag(const struct topics *t, const char *text)
{
	cJSON *a;
	char **v;
	int i, n = topics_tag_strings(t, text, &v);

	a = n > 0 ? cJSON_CreateStringArray((const char *const *)v, n) :
	    cJSON_CreateArray();
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return a;
}

int
topics_tag_strings(const struct topics *t, const char *text, char ***out)
{
	int i, n = 0;

	*out = NULL;
	for (i = 0; i < t->n; i++)
		if (topics_match(&t->rules[i], text)) {
			*out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
			(*out)[n++] = xstrdup(t->rules[i].topic);
		}
	return n;
}
