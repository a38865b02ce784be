/*
 * history_merge — imported and pulled posts into history.jsonl, without
 * duplicates and without losing a line.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>

#include "core/history_merge.h"
#include "core/json.h"
#include "core/timeutil.h"

struct mline {
	const char	*raw;		/* into the existing file; NULL: new */
	size_t		 rawlen;
	cJSON		*obj;		/* NULL: a blank line */
	bool		 dirty;
	time_t		 at;		/* new lines: for ordering */
	const char	*taken_by;	/* the input's post that matched it */
};

/* Lines by what identifies a post ("P\x1fFRONT\x1fPLATFORM_ID", "U…"
 * url, "I\x1fID", "T\x1fFRONT\x1fTIME\x1fTEXT"): an archive of tens of
 * thousands of posts merges in linear time. */
struct mkey {
	char	*key;
	int	 line;
};

struct mindex {
	struct mkey	*v;
	size_t		 cap, n;
};

struct mstate {
	const struct hist_merge_in	*in;
	struct mline			*lines;
	int				 nlines;
	int				 nold;
	struct mindex			 index;
	struct hist_merge		*out;
};

static uint64_t
key_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t
index_slot(const struct mindex *ix, const char *key)
{
	size_t i = (size_t)key_hash(key) & (ix->cap - 1);

	while (ix->v[i].key != NULL && strcmp(ix->v[i].key, key) != 0)
		i = (i + 1) & (ix->cap - 1);
	return i;
}

static int
index_get(const struct mindex *ix, const char *key)
{
	size_t i;

	if (ix->cap == 0)
		return -1;
	i = index_slot(ix, key);
	return ix->v[i].key != NULL ? ix->v[i].line : -1;
}

/* Takes key; the first line to claim a key keeps it. */
static void
index_put(struct mindex *ix, char *key, int line)
{
	struct mindex grown;
	size_t i;

	if (2 * (ix->n + 1) > ix->cap) {
		grown.cap = ix->cap > 0 ? ix->cap * 2 : 1024;
		grown.n = 0;
		grown.v = xcalloc(grown.cap, sizeof *grown.v);
		for (i = 0; i < ix->cap; i++)
			if (ix->v[i].key != NULL)
				grown.v[index_slot(&grown, ix->v[i].key)] =
				    ix->v[i], grown.n++;
		free(ix->v);
		*ix = grown;
	}
	i = index_slot(ix, key);
	if (ix->v[i].key != NULL) {
		free(key);
		return;
	}
	ix->v[i].key = key;
	ix->v[i].line = line;
	ix->n++;
}

static void
index_free(struct mindex *ix)
{
	size_t i;

	for (i = 0; i < ix->cap; i++)
		free(ix->v[i].key);
	free(ix->v);
}

static char *
key_of(char kind, const char *front, const char *a, long long t,
    const char *b)
{
	char *k;

	if (kind == 'T')
		xasprintf(&k, "T\x1f%s\x1f%lld\x1f%s", front, t, b);
	else if (kind == 'I')
		xasprintf(&k, "I\x1f%s", a);
	else
		xasprintf(&k, "%c\x1f%s\x1f%s", kind, front, a);
	return k;
}

/* Every key line i answers to. */
static void
index_line(struct mstate *st, int i)
{
	const cJSON *o = st->lines[i].obj;
	const char *f = json_str(o, "front"), *v, *at = json_str(o,
	    "posted_at"), *text = json_str(o, "text");
	time_t t;

	if (o == NULL)
		return;
	if ((v = json_str(o, "id")) != NULL)
		index_put(&st->index, key_of('I', NULL, v, 0, NULL), i);
	if (f == NULL)
		return;
	if ((v = json_str(o, "platform_id")) != NULL)
		index_put(&st->index, key_of('P', f, v, 0, NULL), i);
	if ((v = json_str(o, "url")) != NULL)
		index_put(&st->index, key_of('U', f, v, 0, NULL), i);
	if (at != NULL && text != NULL && time_parse_iso(at, &t) == 0)
		index_put(&st->index, key_of('T', f, NULL, (long long)t, text),
		    i);
}

static void
change_add(struct hist_merge *m, enum hist_change_kind k, const char *id,
    const char *what, const char *detail)
{
	struct hist_change *c;

	m->changes = xrealloc(m->changes, (size_t)(m->nchanges + 1) *
	    sizeof *m->changes);
	c = &m->changes[m->nchanges++];
	c->kind = k;
	c->id = id != NULL ? xstrdup(id) : NULL;
	c->what = xstrdup(what != NULL ? what : "");
	c->detail = xstrdup(detail != NULL ? detail : "");
	m->count[k]++;
}

void
hist_merge_free(struct hist_merge *m)
{
	int i;

	for (i = 0; i < m->nchanges; i++) {
		free(m->changes[i].id);
		free(m->changes[i].what);
		free(m->changes[i].detail);
	}
	free(m->changes);
	free(m->text);
	memset(m, 0, sizeof *m);
}

/* Text as valid UTF-8: each invalid byte becomes U+FFFD. */
static char *
utf8_clean(const char *s)
{
	size_t n = strlen(s), i = 0, o = 0;
	char *out = xmalloc(n * 3 + 1);
	utf8proc_int32_t cp;
	utf8proc_ssize_t k;

	while (i < n) {
		k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
		    (utf8proc_ssize_t)(n - i), &cp);
		if (k <= 0) {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		} else {
			memcpy(out + o, s + i, (size_t)k);
			o += (size_t)k;
			i += (size_t)k;
		}
	}
	out[o] = '\0';
	return out;
}

static int
read_lines(struct mstate *st, struct error *err)
{
	const char *p = st->in->existing, *end = p + st->in->len, *nl;
	struct mline *l;
	int line = 0;

	while (p < end) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		st->lines = xrealloc(st->lines, (size_t)(st->nlines + 1) *
		    sizeof *st->lines);
		l = &st->lines[st->nlines++];
		memset(l, 0, sizeof *l);
		l->raw = p;
		l->rawlen = (size_t)(nl - p);
		if (strspn(p, " \t\r") < l->rawlen &&
		    ((l->obj = cJSON_ParseWithLength(p, l->rawlen)) == NULL ||
		    !cJSON_IsObject(l->obj)))
			return error_set(err, EXIT_ERROR, "%s:%d: not a JSON "
			    "object; fix the line before importing into it",
			    st->in->file, line);
		p = nl + 1;
	}
	st->nold = st->nlines;
	return 0;
}

static bool
str_eq(const cJSON *o, const char *key, const char *v)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);

	return v != NULL && cJSON_IsString(s) && strcmp(s->valuestring, v) == 0;
}

/* Line i, if it is of this front and may be the item's post: a line
 * with a platform id is matched only by that id. */
static int
candidate(const struct mstate *st, int i, const struct hist_item *it)
{
	const cJSON *o;

	if (i < 0)
		return -1;
	o = st->lines[i].obj;
	if (!str_eq(o, "front", st->in->front) || (it->platform_id != NULL &&
	    cJSON_HasObjectItem(o, "platform_id")))
		return -1;
	return i;
}

static int
lookup(const struct mstate *st, char *key)
{
	int i = index_get(&st->index, key);

	free(key);
	return i;
}

/* The host of a URL ("https://h:8443/x" → "h"), or NULL; into buf. */
static const char *
url_host(const char *url, char *buf, size_t size)
{
	const char *h = url != NULL ? strstr(url, "://") : NULL;
	size_t n;

	if (h == NULL)
		return NULL;
	h += 3;
	n = strcspn(h, ":/?#");
	snprintf(buf, size, "%.*s", (int)n, h);
	return buf;
}

/* A platform id is an instance's (Mastodon statuses are numbered per
 * server): the same number on two hosts is two posts. */
static bool
same_instance(const cJSON *o, const struct hist_item *it)
{
	char a[256], b[256];
	const char *ha = url_host(json_str(o, "url"), a, sizeof a);
	const char *hb = url_host(it->url, b, sizeof b);

	return ha == NULL || hb == NULL || strcasecmp(ha, hb) == 0;
}

static int
find_line(const struct mstate *st, const struct hist_item *it)
{
	const char *f = st->in->front, *pid;
	int i;

	if (it->platform_id != NULL &&
	    (i = lookup(st, key_of('P', f, it->platform_id, 0, NULL))) >= 0 &&
	    same_instance(st->lines[i].obj, it))
		return i;
	/* The same URL is the same post, unless the ids say otherwise. */
	if (it->url != NULL && (i = lookup(st, key_of('U', f, it->url, 0,
	    NULL))) >= 0 && str_eq(st->lines[i].obj, "front", f) &&
	    ((pid = json_str(st->lines[i].obj, "platform_id")) == NULL ||
	    it->platform_id == NULL || strcmp(pid, it->platform_id) == 0))
		return i;
	if (it->line_id != NULL && (i = candidate(st, lookup(st, key_of('I',
	    NULL, it->line_id, 0, NULL)), it)) >= 0)
		return i;
	return candidate(st, lookup(st, key_of('T', f, NULL,
	    (long long)it->posted_at, it->text != NULL ? it->text : "")), it);
}

/* Appends one change to the comma-separated list *d. */
static void
detail_add(char **d, const char *s)
{
	char *n;

	xasprintf(&n, "%s%s%s", *d != NULL ? *d : "", *d != NULL ? ", " : "", s);
	free(*d);
	*d = n;
}

static bool
unsettled(const struct hist_merge_in *in, const struct hist_item *it)
{
	return it->metrics_set != 0 &&
	    in->now - it->posted_at < HIST_SETTLE_SECONDS;
}

static void
update_metrics(cJSON *o, const struct hist_item *it, char **d)
{
	cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "metrics"), *v;
	char buf[128];
	int i;

	if (!cJSON_IsObject(m)) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, "metrics");
		m = cJSON_AddObjectToObject(o, "metrics");
	}
	for (i = 0; i < HIST_NMETRICS; i++) {
		if (!(it->metrics_set & (1u << i)))
			continue;	/* unknown here: keep what the line has */
		v = cJSON_GetObjectItemCaseSensitive(m, hist_metric_names[i]);
		if (cJSON_IsNumber(v) && v->valuedouble == it->metrics[i])
			continue;
		if (cJSON_IsNumber(v))
			snprintf(buf, sizeof buf, "%s %g → %g",
			    hist_metric_names[i], v->valuedouble, it->metrics[i]);
		else
			snprintf(buf, sizeof buf, "%s %g", hist_metric_names[i],
			    it->metrics[i]);
		detail_add(d, buf);
		cJSON_DeleteItemFromObjectCaseSensitive(m, hist_metric_names[i]);
		cJSON_AddNumberToObject(m, hist_metric_names[i], it->metrics[i]);
	}
}

static void
add_predicted(cJSON *o, const struct hist_item *it)
{
	cJSON *p = cJSON_AddObjectToObject(o, "predicted"), *ci;

	cJSON_AddNumberToObject(p, "reward", it->predicted);
	ci = cJSON_AddArrayToObject(p, "ci95");
	cJSON_AddItemToArray(ci, cJSON_CreateNumber(it->predicted_lo));
	cJSON_AddItemToArray(ci, cJSON_CreateNumber(it->predicted_hi));
	if (isfinite(it->predicted_sd))
		cJSON_AddNumberToObject(p, "sd", it->predicted_sd);
}

static void
update_fields(const struct mstate *st, cJSON *o, const struct hist_item *it,
    char **d)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "settled");
	const cJSON *tp = cJSON_GetObjectItemCaseSensitive(o, "topics");
	cJSON *tags;

	if (it->platform_id != NULL && !cJSON_HasObjectItem(o, "platform_id")) {
		cJSON_AddStringToObject(o, "platform_id", it->platform_id);
		detail_add(d, "platform_id");
	}
	if (it->url != NULL && !cJSON_HasObjectItem(o, "url")) {
		cJSON_AddStringToObject(o, "url", it->url);
		detail_add(d, "url");
	}
	if (it->metrics_set != 0 && cJSON_IsFalse(s) && !unsettled(st->in, it)) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, "settled");
		detail_add(d, "settled");
	} else if (s == NULL && unsettled(st->in, it)) {
		cJSON_AddFalseToObject(o, "settled");
		detail_add(d, "not settled");
	}
	if (it->has_predicted && !cJSON_HasObjectItem(o, "predicted")) {
		add_predicted(o, it);
		detail_add(d, "predicted");
	}
	if (cJSON_GetArraySize(tp) == 0 && st->in->topics != NULL &&
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "text"))) {
		tags = topics_tag(st->in->topics,
		    cJSON_GetObjectItemCaseSensitive(o, "text")->valuestring);
		if (cJSON_GetArraySize(tags) > 0) {
			cJSON_DeleteItemFromObjectCaseSensitive(o, "topics");
			cJSON_AddItemToObject(o, "topics", tags);
			detail_add(d, "topics");
		} else
			cJSON_Delete(tags);
	}
}

static const char *
item_what(const struct hist_item *it)
{
	return it->platform_id != NULL ? it->platform_id :
	    it->url != NULL ? it->url : "(no id)";
}

static bool
id_taken(const struct mstate *st, const char *id)
{
	return lookup(st, key_of('I', NULL, id, 0, NULL)) >= 0;
}

/* The id of a new line: the one asked for, or FRONT-<8 hex of what
 * identifies the post>, with -2, -3… while taken. */
static char *
new_id(const struct mstate *st, const struct hist_item *it)
{
	char hex[65], *base, *id, *key;
	int n = 2;

	if (it->line_id != NULL)
		base = xstrdup(it->line_id);
	else {
		if (it->platform_id != NULL || it->url != NULL)
			key = xstrdup(item_what(it));
		else
			xasprintf(&key, "%lld\n%s", (long long)it->posted_at,
			    it->text);
		sha256_hex(key, strlen(key), hex);
		free(key);
		hex[8] = '\0';
		xasprintf(&base, "%s-%s", st->in->front, hex);
	}
	id = xstrdup(base);
	while (id_taken(st, id)) {
		free(id);
		xasprintf(&id, "%s-%d", base, n++);
	}
	free(base);
	return id;
}

static cJSON *
new_line(const struct mstate *st, const struct hist_item *it, char *id)
{
	cJSON *o = cJSON_CreateObject(), *m;
	char at[64], *text = utf8_clean(it->text != NULL ? it->text : "");
	int i;

	time_format_local(it->posted_at, at, sizeof at);
	cJSON_AddStringToObject(o, "id", id);
	cJSON_AddStringToObject(o, "front", st->in->front);
	cJSON_AddStringToObject(o, "posted_at", at);
	cJSON_AddStringToObject(o, "text", text);
	cJSON_AddItemToObject(o, "topics", st->in->topics != NULL ?
	    topics_tag(st->in->topics, text) : cJSON_CreateArray());
	m = cJSON_AddObjectToObject(o, "metrics");
	for (i = 0; i < HIST_NMETRICS; i++)
		if (it->metrics_set & (1u << i))
			cJSON_AddNumberToObject(m, hist_metric_names[i],
			    it->metrics[i]);
	if (it->platform_id != NULL)
		cJSON_AddStringToObject(o, "platform_id", it->platform_id);
	if (it->url != NULL)
		cJSON_AddStringToObject(o, "url", it->url);
	if (unsettled(st->in, it))
		cJSON_AddFalseToObject(o, "settled");
	if (it->has_predicted)
		add_predicted(o, it);
	free(text);
	return o;
}

static void
merge_item(struct mstate *st, const struct hist_item *it)
{
	struct mline *l;
	const cJSON *idv;
	char *d = NULL, *id;
	int i = find_line(st, it);

	/* One rule for a post given twice: the first occurrence counts, on
	 * every import, and the others are reported. */
	if (i >= 0 && st->lines[i].taken_by != NULL) {
		xasprintf(&d, "given again in the same input (as %s); the "
		    "first occurrence is kept, this one ignored",
		    st->lines[i].taken_by);
		change_add(st->out, HIST_SKIPPED, NULL, item_what(it), d);
		st->out->duplicates++;
		free(d);
		return;
	}
	if (i >= 0) {
		l = &st->lines[i];
		l->taken_by = item_what(it);
		update_metrics(l->obj, it, &d);
		update_fields(st, l->obj, it, &d);
		idv = cJSON_GetObjectItemCaseSensitive(l->obj, "id");
		change_add(st->out, d != NULL ? HIST_UPDATED : HIST_UNCHANGED,
		    cJSON_IsString(idv) ? idv->valuestring : "?",
		    item_what(it), d);
		l->dirty |= d != NULL;
		free(d);
		index_line(st, i);	/* it may have gained an id */
		return;
	}
	id = new_id(st, it);
	st->lines = xrealloc(st->lines, (size_t)(st->nlines + 1) *
	    sizeof *st->lines);
	l = &st->lines[st->nlines++];
	memset(l, 0, sizeof *l);
	l->obj = new_line(st, it, id);
	l->dirty = true;
	l->at = it->posted_at;
	l->taken_by = item_what(it);
	index_line(st, st->nlines - 1);
	change_add(st->out, HIST_ADDED, id, item_what(it), NULL);
	free(id);
}

static int
by_time(const void *a, const void *b)
{
	const struct mline *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

static void
emit(struct mstate *st)
{
	struct hist_merge *m = st->out;
	size_t cap = st->in->len + 256;
	char *s;
	int i;

	qsort(st->lines + st->nold, (size_t)(st->nlines - st->nold),
	    sizeof *st->lines, by_time);
	m->text = xmalloc(cap);
	m->len = 0;
	for (i = 0; i < st->nlines; i++) {
		if (st->lines[i].dirty)
			s = cJSON_PrintUnformatted(st->lines[i].obj);
		else
			s = xstrndup(st->lines[i].raw, st->lines[i].rawlen);
		if (m->len + strlen(s) + 2 > cap) {
			cap = (m->len + strlen(s) + 2) * 2;
			m->text = xrealloc(m->text, cap);
		}
		memcpy(m->text + m->len, s, strlen(s));
		m->len += strlen(s);
		m->text[m->len++] = '\n';
		free(s);
	}
	m->text[m->len] = '\0';
}

int
hist_merge(const struct hist_merge_in *in, const struct hist_batch *b,
    struct hist_merge *out, struct error *err)
{
	struct mstate st = { .in = in, .out = out };
	int i, rc;

	memset(out, 0, sizeof *out);
	if ((rc = read_lines(&st, err)) == 0) {
		for (i = 0; i < st.nlines; i++)
			index_line(&st, i);
		for (i = 0; i < b->nskips; i++)
			change_add(out, HIST_SKIPPED, NULL, b->skips[i].what,
			    b->skips[i].reason);
		for (i = 0; i < b->nitems; i++)
			merge_item(&st, &b->items[i]);
		emit(&st);
	}
	for (i = 0; i < st.nlines; i++)
		cJSON_Delete(st.lines[i].obj);
	free(st.lines);
	index_free(&st.index);
	if (rc != 0)
		hist_merge_free(out);
	return rc;
}

int
hist_write(const char *dir, const char *text, size_t len, struct error *err)
{
	char *path = path_join(dir, "history.jsonl");
	char *fdir = path_join(dir, ".fronts");
	char *bak = path_join(fdir, "history.jsonl.bak");
	char *old = NULL;
	size_t olen = 0;
	struct error rerr = { 0 };
	int rc = 0;

	if (file_read(path, &old, &olen, &rerr) == 0)
		rc = dir_ensure(fdir, err) != 0 ||
		    file_write_atomic(bak, old, olen, err) != 0 ? -1 : 0;
	if (rc == 0)
		rc = file_write_atomic(path, text, len, err);
	free(old);
	free(path);
	free(fdir);
	free(bak);
	return rc;
}
