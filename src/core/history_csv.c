/*
 * history_csv — CSV exports: LinkedIn's Shares.csv (the member data
 * export: Date, ShareLink, ShareCommentary, SharedUrl, MediaUrl,
 * Visibility; no counts) and any CSV whose columns the operator names
 * (--map time=…,text=…,likes=…).
 *
 * The reader is RFC 4180: fields in double quotes may hold commas, line
 * breaks and doubled quotes; CRLF or LF ends a record. A quote left open
 * at the end of the file is refused as truncated.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/history_int.h"
#include "core/timeutil.h"

struct csv {
	const struct hist_opts	*o;
	const char		*data;
	size_t			 len;
	size_t			 off;
	int			 line;		/* of the next record */
	char			**f;		/* the current record */
	int			 nf;
	int			 at;		/* line the current record began */
};

static void
csv_clear(struct csv *c)
{
	int i;

	for (i = 0; i < c->nf; i++)
		free(c->f[i]);
	free(c->f);
	c->f = NULL;
	c->nf = 0;
}

static void
csv_field(struct csv *c, const char *s, size_t n)
{
	c->f = xrealloc(c->f, (size_t)(c->nf + 1) * sizeof *c->f);
	c->f[c->nf++] = xstrndup(s, n);
}

/* A quoted field starting after its opening quote; -1 when unclosed. */
static int
csv_quoted(struct csv *c, struct error *err)
{
	char *buf = xmalloc(c->len - c->off + 1);
	size_t n = 0;
	char pos[64];

	while (c->off < c->len) {
		char ch = c->data[c->off++];
		if (ch == '"') {
			if (c->off < c->len && c->data[c->off] == '"') {
				buf[n++] = '"';
				c->off++;
				continue;
			}
			csv_field(c, buf, n);
			free(buf);
			return 0;
		}
		if (ch == '\r' && c->off < c->len && c->data[c->off] == '\n')
			continue;	/* a line break inside the text is "\n" */
		if (ch == '\n')
			c->line++;
		buf[n++] = ch;
	}
	free(buf);
	hist_position(c->data, c->len, pos, sizeof pos);
	return error_set(err, EXIT_ERROR, "%s: %s: the file ends inside a "
	    "quoted field opened in the record of line %d (truncated?)",
	    c->o->name, pos, c->at);
}

/* Reads the next record; 0 with c->nf == 0 at the end of the file. */
static int
csv_next(struct csv *c, struct error *err)
{
	size_t s;
	char pos[64];

	csv_clear(c);
	while (c->off < c->len && (c->data[c->off] == '\n' ||
	    c->data[c->off] == '\r')) {
		if (c->data[c->off++] == '\n')
			c->line++;
	}
	if (c->off >= c->len)
		return 0;
	c->at = c->line;
	for (;;) {
		if (c->data[c->off] == '"') {
			c->off++;
			if (csv_quoted(c, err) != 0)
				return -1;
		} else {
			s = c->off;
			while (c->off < c->len && strchr(",\r\n",
			    c->data[c->off]) == NULL) {
				if (c->data[c->off] == '"' || c->data[c->off] == '\0') {
					hist_position(c->data, c->off, pos,
					    sizeof pos);
					return error_set(err, EXIT_ERROR, "%s: %s: a "
					    "quote or NUL inside an unquoted field",
					    c->o->name, pos);
				}
				c->off++;
			}
			csv_field(c, c->data + s, c->off - s);
		}
		if (c->off >= c->len || c->data[c->off] != ',')
			break;
		c->off++;
	}
	if (c->off < c->len && c->data[c->off] != '\r' &&
	    c->data[c->off] != '\n') {
		hist_position(c->data, c->off, pos, sizeof pos);
		return error_set(err, EXIT_ERROR, "%s: %s: expected a comma or "
		    "the end of the record after a quoted field", c->o->name,
		    pos);
	}
	return 0;
}

static int
csv_col(const struct csv *hdr, int nh, const char *name)
{
	int i;

	for (i = 0; name != NULL && i < nh; i++)
		if (strcasecmp(hdr->f[i], name) == 0)
			return i;
	return -1;
}

/* The header: names copied into cols[] order of want[]; a required
 * column missing is refused. */
static int
csv_header(struct csv *c, const char *const *want, const bool *required,
    int nwant, int *cols, struct error *err)
{
	int i;

	if (csv_next(c, err) != 0)
		return -1;
	if (c->nf == 0)
		return error_set(err, EXIT_ERROR, "%s: empty file", c->o->name);
	if (c->nf > 0 && strncmp(c->f[0], "\xEF\xBB\xBF", 3) == 0)
		memmove(c->f[0], c->f[0] + 3, strlen(c->f[0] + 3) + 1);
	for (i = 0; i < nwant; i++) {
		cols[i] = csv_col(c, c->nf, want[i]);
		if (cols[i] < 0 && required[i])
			return error_set(err, EXIT_ERROR, "%s: line 1: no "
			    "column \"%s\"", c->o->name, want[i]);
	}
	return 0;
}

static const char *
cell(const struct csv *c, int col)
{
	return col >= 0 && col < c->nf ? c->f[col] : "";
}

/* "2024-01-15 10:30:00" (LinkedIn's exports are in UTC). */
static int
utc_time(const char *s, time_t *out)
{
	int y, mo, d, h, mi, sec, n = 0;

	if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec,
	    &n) != 6 || s[n] != '\0' || mo < 1 || mo > 12 || d < 1 ||
	    d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970)
		return -1;
	*out = (time_t)time_days_from_civil(y, mo, d) * 86400 + h * 3600 +
	    mi * 60 + sec;
	return 0;
}

/* The URL-decoded last segment of a LinkedIn post URL: its URN. */
static char *
linkedin_urn(const char *url)
{
	char *seg = hist_last_segment(url), *o = seg, *s = seg;
	unsigned v;

	while (*s != '\0') {
		if (s[0] == '%' && isxdigit((unsigned char)s[1]) &&
		    isxdigit((unsigned char)s[2]) &&
		    sscanf(s + 1, "%2x", &v) == 1 && v != 0) {
			*o++ = (char)v;
			s += 3;
		} else
			*o++ = *s++;
	}
	*o = '\0';
	return seg;
}

int
hist_parse_linkedin(const struct hist_opts *o, const char *data, size_t len,
    struct hist_batch *b, struct error *err)
{
	static const char *const want[] = { "Date", "ShareLink",
	    "ShareCommentary", "SharedUrl" };
	static const bool req[] = { true, true, true, false };
	struct csv c = { .o = o, .data = data, .len = len, .line = 1 };
	struct hist_item *it;
	const char *text, *shared;
	int cols[4], rc;
	char what[32];
	time_t t;

	if ((rc = csv_header(&c, want, req, 4, cols, err)) != 0)
		goto out;
	while ((rc = csv_next(&c, err)) == 0 && c.nf > 0) {
		snprintf(what, sizeof what, "line %d", c.at);
		text = cell(&c, cols[2]);
		shared = cell(&c, cols[3]);
		if (utc_time(cell(&c, cols[0]), &t) != 0) {
			rc = error_set(err, EXIT_ERROR, "%s: line %d: Date "
			    "\"%.40s\" is not \"YYYY-MM-DD HH:MM:SS\"", o->name,
			    c.at, cell(&c, cols[0]));
			break;
		}
		if (*text == '\0' && *shared == '\0') {
			hist_skip_add(b, what, "a reshare without text");
			continue;
		}
		it = hist_item_add(b);
		if (*cell(&c, cols[1]) != '\0') {
			it->url = xstrdup(cell(&c, cols[1]));
			it->platform_id = linkedin_urn(it->url);
		}
		it->posted_at = t;
		if (*shared != '\0' && strstr(text, shared) == NULL)
			xasprintf(&it->text, "%s%s%s", text, *text ? "\n" : "",
			    shared);
		else
			it->text = xstrdup(text);
	}
out:
	csv_clear(&c);
	return rc;
}

static int
csv_metric(const struct csv *c, int col, const char *name,
    struct hist_item *it, enum hist_metric m, struct error *err)
{
	const char *s = cell(c, col);
	char *end;
	double v;

	if (col < 0 || *s == '\0')
		return 0;	/* unknown, not 0 */
	v = strtod(s, &end);
	if (*end != '\0' || !(v >= 0 && v <= 1e15))
		return error_set(err, EXIT_ERROR, "%s: line %d: column \"%s\": "
		    "\"%.40s\" is not a non-negative number", c->o->name,
		    c->at, name, s);
	hist_metric_set(it, m, v);
	return 0;
}

static int
csv_row(struct csv *c, const struct hist_csv_map *m, const int *cols,
    struct hist_batch *b, struct error *err)
{
	struct hist_item *it;
	char what[32];
	time_t t;
	int i;

	if (time_parse_iso(cell(c, cols[0]), &t) != 0)
		return error_set(err, EXIT_ERROR, "%s: line %d: column \"%s\": "
		    "\"%.40s\" is not an ISO-8601 time with offset", c->o->name,
		    c->at, m->time, cell(c, cols[0]));
	if (*cell(c, cols[1]) == '\0') {
		snprintf(what, sizeof what, "line %d", c->at);
		hist_skip_add(b, what, "no text");
		return 0;
	}
	it = hist_item_add(b);
	it->posted_at = t;
	it->text = xstrdup(cell(c, cols[1]));
	if (*cell(c, cols[2]) != '\0')
		it->platform_id = xstrdup(cell(c, cols[2]));
	if (*cell(c, cols[3]) != '\0')
		it->url = xstrdup(cell(c, cols[3]));
	for (i = 0; i < HIST_NMETRICS; i++)
		if (csv_metric(c, cols[4 + i], m->metrics[i], it, i, err) != 0)
			return -1;
	return 0;
}

int
hist_parse_csv(const struct hist_opts *o, const char *data, size_t len,
    struct hist_batch *b, struct error *err)
{
	const struct hist_csv_map *m = o->csv;
	const char *want[4 + HIST_NMETRICS];
	bool req[4 + HIST_NMETRICS];
	struct csv c = { .o = o, .data = data, .len = len, .line = 1 };
	int cols[4 + HIST_NMETRICS], i, rc;

	if (m == NULL || m->time == NULL || m->text == NULL)
		return error_set(err, EXIT_USAGE, "a CSV import needs --map "
		    "with at least time=COLUMN and text=COLUMN");
	want[0] = m->time;
	want[1] = m->text;
	want[2] = m->id;
	want[3] = m->url;
	for (i = 0; i < HIST_NMETRICS; i++)
		want[4 + i] = m->metrics[i];
	for (i = 0; i < 4 + HIST_NMETRICS; i++)
		req[i] = want[i] != NULL;
	if ((rc = csv_header(&c, want, req, 4 + HIST_NMETRICS, cols, err)) != 0)
		goto out;
	while ((rc = csv_next(&c, err)) == 0 && c.nf > 0)
		if ((rc = csv_row(&c, m, cols, b, err)) != 0)
			break;
out:
	csv_clear(&c);
	return rc;
}
