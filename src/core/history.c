/*
 * history — what every export parser shares: the batch, positions in
 * error messages, entity and HTML decoding, and the choice of parser.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/history_int.h"
#include "core/timeutil.h"

const char *const hist_metric_names[HIST_NMETRICS] = {
	"impressions", "likes", "reposts", "replies", "clicks"
};

const char *const hist_bad_count_names[HIST_BAD_NREASONS] = {
	"negative", "not a number", "not a whole number",
	"not written in digits", "above 10^15"
};

const char *const hist_format_names[HIST_FMT_COUNT] = {
	"x", "mastodon", "mastodon-api", "bluesky-car", "bluesky-feed",
	"linkedin", "csv", "x-api"
};

int
hist_format_from_name(const char *name)
{
	int i;

	for (i = 0; i < HIST_FMT_COUNT; i++)
		if (name != NULL && strcmp(name, hist_format_names[i]) == 0)
			return i;
	return -1;
}

struct hist_item *
hist_item_add(struct hist_batch *b)
{
	struct hist_item *it;

	b->items = xrealloc(b->items, (size_t)(b->nitems + 1) * sizeof *b->items);
	it = &b->items[b->nitems++];
	memset(it, 0, sizeof *it);
	return it;
}

void
hist_skip_add(struct hist_batch *b, const char *what, const char *fmt, ...)
{
	struct hist_skip *s;
	va_list ap;

	b->skips = xrealloc(b->skips, (size_t)(b->nskips + 1) * sizeof *b->skips);
	s = &b->skips[b->nskips++];
	s->what = xstrdup(what);
	va_start(ap, fmt);
	if (vasprintf(&s->reason, fmt, ap) < 0)
		s->reason = xstrdup("?");
	va_end(ap);
}

void
hist_item_clear(struct hist_item *it)
{
	free(it->platform_id);
	free(it->url);
	free(it->text);
	free(it->line_id);
	memset(it, 0, sizeof *it);
}

void
hist_batch_free(struct hist_batch *b)
{
	int i;

	for (i = 0; i < b->nitems; i++)
		hist_item_clear(&b->items[i]);
	for (i = 0; i < b->nskips; i++) {
		free(b->skips[i].what);
		free(b->skips[i].reason);
	}
	free(b->items);
	free(b->skips);
	free(b->next);
	memset(b, 0, sizeof *b);
}

void
hist_batch_move(struct hist_batch *dst, struct hist_batch *src)
{
	int i;

	dst->items = xrealloc(dst->items, (size_t)(dst->nitems + src->nitems + 1) *
	    sizeof *dst->items);
	/* memcpy from an empty batch's NULL is undefined, even for 0 bytes. */
	if (src->nitems > 0)
		memcpy(dst->items + dst->nitems, src->items,
		    (size_t)src->nitems * sizeof *src->items);
	dst->nitems += src->nitems;
	dst->skips = xrealloc(dst->skips, (size_t)(dst->nskips + src->nskips + 1) *
	    sizeof *dst->skips);
	if (src->nskips > 0)
		memcpy(dst->skips + dst->nskips, src->skips,
		    (size_t)src->nskips * sizeof *src->skips);
	dst->nskips += src->nskips;
	for (i = 0; i < HIST_BAD_NREASONS; i++) {
		dst->bad_counts[i] += src->bad_counts[i];
		src->bad_counts[i] = 0;
	}
	free(src->items);
	free(src->skips);
	src->items = NULL;
	src->skips = NULL;
	src->nitems = src->nskips = 0;
}

void
hist_position(const char *data, size_t off, char *buf, size_t size)
{
	csv_position(data, off, buf, size);
}

void
hist_locate(const char *data, size_t len, const char *s, char *buf,
    size_t size)
{
	size_t n = strlen(s);
	const char *p = data, *end = data + len;

	while (n + 2 <= (size_t)(end - p) &&
	    (p = memchr(p, '"', (size_t)(end - p))) != NULL &&
	    (size_t)(end - p) >= n + 2) {
		if (memcmp(p + 1, s, n) == 0 && p[n + 1] == '"') {
			hist_position(data, (size_t)(p + 1 - data), buf, size);
			return;
		}
		p++;
	}
	snprintf(buf, size, "(position unknown)");
}

int
hist_bad_time(const struct hist_opts *o, const struct hist_src *src,
    const char *where, const char *field, const char *value,
    struct error *err)
{
	char pos[64];

	hist_locate(src->data, src->len, value, pos, sizeof pos);
	return error_set(err, EXIT_ERROR, "%s: %s: %s: %s \"%.64s\" is no "
	    "date and time (ISO-8601 with an offset, a day the month has)",
	    o->name, pos, where, field, value);
}

/* Does the JSON text stop inside a string, an array or an object? Then
 * the file was cut short, whatever cJSON stumbled over. */
static bool
json_truncated(const char *s, size_t len)
{
	bool str = false, esc = false;
	long depth = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (str) {
			if (esc)
				esc = false;
			else if (s[i] == '\\')
				esc = true;
			else if (s[i] == '"')
				str = false;
		} else if (s[i] == '"')
			str = true;
		else if (s[i] == '[' || s[i] == '{')
			depth++;
		else if (s[i] == ']' || s[i] == '}')
			depth--;
	}
	return str || depth > 0;
}

cJSON *
hist_json_parse(const struct hist_opts *o, const char *data, size_t len,
    size_t start, struct error *err)
{
	const char *end = NULL;
	char pos[64];
	cJSON *j;

	j = cJSON_ParseWithLengthOpts(data + start, len - start, &end, false);
	if (j != NULL) {
		while (end < data + len && isspace((unsigned char)*end))
			end++;
		if (end == data + len)
			return j;
		cJSON_Delete(j);
		hist_position(data, (size_t)(end - data), pos, sizeof pos);
		error_set(err, EXIT_ERROR, "%s: %s: unexpected data after the "
		    "JSON value", o->name, pos);
		return NULL;
	}
	if (end == NULL || end < data || end > data + len ||
	    json_truncated(data + start, len - start)) {
		hist_position(data, len, pos, sizeof pos);
		error_set(err, EXIT_ERROR, "%s: %s: the file ends inside a "
		    "JSON value (truncated?)", o->name, pos);
		return NULL;
	}
	hist_position(data, (size_t)(end - data), pos, sizeof pos);
	error_set(err, EXIT_ERROR, "%s: %s: malformed JSON", o->name, pos);
	return NULL;
}

void
hist_metric_set(struct hist_item *it, enum hist_metric m, double v)
{
	it->metrics[m] = v;
	it->metrics_set |= 1u << m;
}

/* Why the count v is no count, or -1 when it is one (into *out). */
static int
metric_fault(const cJSON *v, double *out)
{
	const char *s;

	if (cJSON_IsNumber(v))
		*out = v->valuedouble;
	else if (cJSON_IsString(v)) {
		s = v->valuestring;
		if (*s == '-' && s[1] != '\0' &&
		    strspn(s + 1, "0123456789") == strlen(s + 1))
			return HIST_BAD_NEGATIVE;
		if (*s == '\0' || strspn(s, "0123456789.eE+-") != strlen(s))
			return HIST_BAD_NOT_NUMBER;
		if (strspn(s, "0123456789") != strlen(s))
			return strspn(s, "0123456789.") == strlen(s) &&
			    strchr(s, '.') == strrchr(s, '.') && *s != '.' ?
			    HIST_BAD_FRACTION : HIST_BAD_NOT_DIGITS;
		if (strlen(s) > 16)
			return HIST_BAD_TOO_LARGE;
		*out = strtod(s, NULL);
	} else
		return HIST_BAD_NOT_NUMBER;
	if (!isfinite(*out))
		return HIST_BAD_TOO_LARGE;
	if (*out < 0)
		return HIST_BAD_NEGATIVE;
	if (*out > 1e15)
		return HIST_BAD_TOO_LARGE;
	if (*out != floor(*out))
		return HIST_BAD_FRACTION;
	return -1;
}

void
hist_metric_json(struct hist_batch *b, struct hist_item *it,
    enum hist_metric m, const cJSON *v)
{
	double d;
	int why;

	if (v == NULL || cJSON_IsNull(v))
		return;		/* not given: unknown, and no fault */
	if ((why = metric_fault(v, &d)) >= 0)
		b->bad_counts[why]++;
	else
		hist_metric_set(it, m, d);
}

char *
hist_last_segment(const char *uri)
{
	const char *s;
	size_t n = strlen(uri);

	while (n > 0 && uri[n - 1] == '/')
		n--;
	for (s = uri + n; s > uri && s[-1] != '/'; s--)
		;
	return xstrndup(s, (size_t)(uri + n - s));
}

char *
hist_account_user(const char *account)
{
	const char *a = account != NULL ? account : "";
	const char *at;

	if (*a == '@')
		a++;
	at = strchr(a, '@');
	return at != NULL ? xstrndup(a, (size_t)(at - a)) : xstrdup(a);
}

/* Appends code point cp as UTF-8; false for what is no character. */
static bool
put_utf8(char **out, size_t *n, unsigned long cp)
{
	char *o = *out + *n;

	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return false;
	if (cp < 0x80)
		*o++ = (char)cp;
	else if (cp < 0x800) {
		*o++ = (char)(0xC0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	*n = (size_t)(o - *out);
	return true;
}

/* The entity at s (after '&', up to ';' within len); its length with the
 * ';', or 0 when it is none (then '&' is kept as it is). */
static size_t
entity(const char *s, size_t len, char **out, size_t *n)
{
	static const struct { const char *name; unsigned long cp; } named[] = {
		{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
		{ "apos", '\'' }, { "nbsp", 0xA0 }, { "hellip", 0x2026 },
		{ "mdash", 0x2014 }, { "ndash", 0x2013 }, { "rsquo", 0x2019 },
		{ "lsquo", 0x2018 }, { "rdquo", 0x201D }, { "ldquo", 0x201C },
	};
	const char *semi = memchr(s, ';', len < 12 ? len : 12);
	unsigned long cp = 0;
	size_t i, k;

	if (semi == NULL || semi == s)
		return 0;
	k = (size_t)(semi - s);
	if (s[0] == '#') {
		bool hex = k > 1 && (s[1] == 'x' || s[1] == 'X');
		for (i = hex ? 2 : 1; i < k; i++) {
			int c = (unsigned char)s[i];
			if (hex ? !isxdigit(c) : !isdigit(c))
				return 0;
			cp = cp * (hex ? 16 : 10) + (unsigned long)(isdigit(c) ?
			    c - '0' : (tolower(c) - 'a' + 10));
			if (cp > 0x10FFFF)
				return 0;
		}
		if (i == (hex ? 2u : 1u) || !put_utf8(out, n, cp))
			return 0;
		return k + 1;
	}
	for (i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strlen(named[i].name) == k &&
		    strncmp(s, named[i].name, k) == 0)
			return put_utf8(out, n, named[i].cp) ? k + 1 : 0;
	return 0;
}

char *
hist_entities_decode(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t i = 0, n = 0, k;

	while (i < len) {
		if (s[i] == '&' &&
		    (k = entity(s + i + 1, len - i - 1, &out, &n)) > 0) {
			i += k + 1;
			continue;
		}
		out[n++] = s[i++];
	}
	out[n] = '\0';
	return out;
}

/* Appends s[0..len) to the growing buffer. */
static void
buf_add(char **buf, size_t *n, size_t *cap, const char *s, size_t len)
{
	if (*n + len + 1 > *cap) {
		*cap = (*n + len + 1) * 2;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *n, s, len);
	*n += len;
	(*buf)[*n] = '\0';
}

/* The lower-case name of the tag at s ("<p class…>" → "p", "</p>" →
 * "/p"), in name (size 8; longer names are cut, they matter not). */
static void
tag_name(const char *s, const char *end, char name[8])
{
	size_t i = 0;

	s++;
	if (s < end && *s == '/')
		name[i++] = '/', s++;
	while (s < end && i < 7 && isalpha((unsigned char)*s))
		name[i++] = (char)tolower((unsigned char)*s++);
	name[i] = '\0';
}

char *
hist_html_text(const char *html)
{
	char *buf = xstrdup(""), *dec, name[8];
	size_t n = 0, cap = 1;
	const char *s = html, *lt, *gt;

	while (*s != '\0') {
		if ((lt = strchr(s, '<')) == NULL)
			lt = s + strlen(s);
		dec = hist_entities_decode(s, (size_t)(lt - s));
		buf_add(&buf, &n, &cap, dec, strlen(dec));
		free(dec);
		if (*lt == '\0' || (gt = strchr(lt, '>')) == NULL)
			break;
		tag_name(lt, gt, name);
		if (strcmp(name, "br") == 0)
			buf_add(&buf, &n, &cap, "\n", 1);
		else if (strcmp(name, "p") == 0 && n > 0)
			buf_add(&buf, &n, &cap, "\n\n", 2);
		s = gt + 1;
	}
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return buf;
}

static int
link_cmp(const void *a, const void *b)
{
	const struct hist_link *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

static bool
char_boundary(const char *text, size_t at)
{
	return ((unsigned char)text[at] & 0xC0) != 0x80;
}

char *
hist_expand_links(const char *text, struct hist_link *links, int n)
{
	size_t len = strlen(text), done = 0, o = 0, cap = len + 1;
	char *out = xmalloc(cap);
	struct hist_link *l;
	int i;

	qsort(links, (size_t)n, sizeof *links, link_cmp);
	for (i = 0; i < n; i++) {
		l = &links[i];
		if (l->start < done || l->end <= l->start || l->end > len ||
		    !char_boundary(text, l->start) ||
		    !char_boundary(text, l->end) ||
		    strncmp(l->uri, "http", 4) != 0)
			continue;
		cap += strlen(l->uri);
		out = xrealloc(out, cap);
		memcpy(out + o, text + done, l->start - done);
		o += l->start - done;
		memcpy(out + o, l->uri, strlen(l->uri));
		o += strlen(l->uri);
		done = l->end;
	}
	memcpy(out + o, text + done, len - done + 1);
	return out;
}

static bool
starts_json(const char *data, size_t len, char c)
{
	size_t i = 0;

	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len && isspace((unsigned char)data[i]))
		i++;
	return i < len && data[i] == c;
}

static bool
ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && strcasecmp(s + a - b, tail) == 0;
}

int
hist_format_detect(const char *name, const char *data, size_t len,
    enum hist_format *out, struct error *err)
{
	char *h = xstrndup(data, len < 4096 ? len : 4096);

	if (strstr(h, "window.YTD.") != NULL)
		*out = HIST_FMT_X;
	else if (ends_with(name, ".car") || (len > 2 &&
	    (unsigned char)data[0] < 0x80 && (unsigned char)data[1] == 0xa2))
		*out = HIST_FMT_BLUESKY_CAR;
	else if (starts_json(data, len, '{') && strstr(h, "\"orderedItems\""))
		*out = HIST_FMT_MASTODON;
	else if (starts_json(data, len, '{') && strstr(h, "\"feed\""))
		*out = HIST_FMT_BLUESKY_FEED;
	else if (starts_json(data, len, '['))
		*out = HIST_FMT_MASTODON_API;
	else if (strstr(h, "ShareCommentary") != NULL)
		*out = HIST_FMT_LINKEDIN;
	else {
		free(h);
		return error_set(err, EXIT_USAGE, "%s: not a format fronts "
		    "recognises (X tweets.js, Mastodon outbox.json, Bluesky CAR "
		    "or getAuthorFeed JSON, LinkedIn Shares.csv); for another "
		    "CSV give --format csv and the columns", name);
	}
	free(h);
	return 0;
}

/* Refuses a NUL byte, and in JSON a \u0000 escape: C strings would end
 * there and cut the text short without a word. */
static int
refuse_nul(enum hist_format f, const struct hist_opts *o, const char *data,
    size_t len, struct error *err)
{
	const char *z = memchr(data, '\0', len);
	char pos[64];
	size_t i;

	if (f == HIST_FMT_BLUESKY_CAR)
		return 0;	/* binary; its strings are checked one by one */
	if (z != NULL) {
		hist_position(data, (size_t)(z - data), pos, sizeof pos);
		return error_set(err, EXIT_ERROR, "%s: %s (byte %zu): a NUL "
		    "byte; the file is damaged or not text", o->name, pos,
		    (size_t)(z - data));
	}
	if (f == HIST_FMT_LINKEDIN || f == HIST_FMT_CSV)
		return 0;
	for (i = 0; i + 1 < len; i++) {
		if (data[i] != '\\')
			continue;
		if (data[i + 1] == 'u' && i + 6 <= len &&
		    memcmp(data + i + 2, "0000", 4) == 0) {
			hist_position(data, i, pos, sizeof pos);
			return error_set(err, EXIT_ERROR, "%s: %s: \"\\u0000\" "
			    "(a NUL character) in a string; fronts refuses it "
			    "rather than cut the text there", o->name, pos);
		}
		i++;	/* the escaped character, "\\\\" included */
	}
	return 0;
}

/* Posts dated after now (past the slack) are skipped with the reason. */
static void
skip_future(const struct hist_opts *o, struct hist_batch *b)
{
	struct hist_item *it;
	char at[32];
	int i, k = 0;

	for (i = 0; i < b->nitems; i++) {
		it = &b->items[i];
		if (o->now == 0 || it->posted_at <= o->now + HIST_FUTURE_SLACK) {
			b->items[k++] = *it;
			continue;
		}
		time_format_utc(it->posted_at, at, sizeof at);
		hist_skip_add(b, it->platform_id != NULL ? it->platform_id :
		    it->url != NULL ? it->url : "a post", "dated %s, after "
		    "now: a wrong clock or a damaged export", at);
		hist_item_clear(it);
	}
	b->nitems = k;
}

int
hist_parse(enum hist_format f, const struct hist_opts *o, const char *data,
    size_t len, struct hist_batch *out, struct error *err)
{
	static int (*const parsers[HIST_FMT_COUNT])(const struct hist_opts *,
	    const char *, size_t, struct hist_batch *, struct error *) = {
		hist_parse_x, hist_parse_mastodon, hist_parse_mastodon_api,
		hist_parse_bluesky_car, hist_parse_bluesky_feed,
		hist_parse_linkedin, hist_parse_csv, hist_parse_x_api
	};
	int rc;

	memset(out, 0, sizeof *out);
	if ((unsigned)f >= HIST_FMT_COUNT)
		return error_set(err, EXIT_USAGE, "unknown export format");
	if (refuse_nul(f, o, data, len, err) != 0)
		return -1;
	if ((rc = parsers[f](o, data, len, out, err)) != 0)
		hist_batch_free(out);
	else
		skip_future(o, out);
	return rc;
}
