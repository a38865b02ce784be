/*
 * history_csv — CSV exports: LinkedIn's Shares.csv (the member data
 * export: Date, ShareLink, ShareCommentary, SharedUrl, MediaUrl,
 * Visibility; no counts) and any CSV whose columns the operator names
 * (--map time=…,text=…,likes=…), read by the RFC 4180 reader of csv.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/csv.h"
#include "core/history_int.h"
#include "core/timeutil.h"

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
	struct csv c;
	struct hist_item *it;
	const char *text, *shared;
	int cols[4], rc;
	char what[32];
	time_t t;

	csv_init(&c, o->name, data, len);
	if ((rc = csv_header(&c, want, req, 4, cols, err)) != 0)
		goto out;
	while ((rc = csv_next(&c, err)) == 0 && c.nf > 0) {
		snprintf(what, sizeof what, "line %d", c.at);
		text = csv_cell(&c, cols[2]);
		shared = csv_cell(&c, cols[3]);
		if (utc_time(csv_cell(&c, cols[0]), &t) != 0) {
			rc = error_set(err, EXIT_ERROR, "%s: line %d: Date "
			    "\"%.40s\" is not \"YYYY-MM-DD HH:MM:SS\"", o->name,
			    c.at, csv_cell(&c, cols[0]));
			break;
		}
		if (*text == '\0' && *shared == '\0') {
			hist_skip_add(b, what, "a reshare without text");
			continue;
		}
		it = hist_item_add(b);
		if (*csv_cell(&c, cols[1]) != '\0') {
			it->url = xstrdup(csv_cell(&c, cols[1]));
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
	const char *s = csv_cell(c, col);
	char *end;
	double v;

	if (col < 0 || *s == '\0')
		return 0;	/* unknown, not 0 */
	v = strtod(s, &end);
	if (*end != '\0' || !(v >= 0 && v <= 1e15))
		return error_set(err, EXIT_ERROR, "%s: line %d: column \"%s\": "
		    "\"%.40s\" is not a non-negative number", c->name,
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

	if (time_parse_iso(csv_cell(c, cols[0]), &t) != 0)
		return error_set(err, EXIT_ERROR, "%s: line %d: column \"%s\": "
		    "\"%.40s\" is not an ISO-8601 time with offset", c->name,
		    c->at, m->time, csv_cell(c, cols[0]));
	if (*csv_cell(c, cols[1]) == '\0') {
		snprintf(what, sizeof what, "line %d", c->at);
		hist_skip_add(b, what, "no text");
		return 0;
	}
	it = hist_item_add(b);
	it->posted_at = t;
	it->text = xstrdup(csv_cell(c, cols[1]));
	if (*csv_cell(c, cols[2]) != '\0')
		it->platform_id = xstrdup(csv_cell(c, cols[2]));
	if (*csv_cell(c, cols[3]) != '\0')
		it->url = xstrdup(csv_cell(c, cols[3]));
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
	struct csv c;
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
	csv_init(&c, o->name, data, len);
	if ((rc = csv_header(&c, want, req, 4 + HIST_NMETRICS, cols, err)) != 0)
		goto out;
	while ((rc = csv_next(&c, err)) == 0 && c.nf > 0)
		if ((rc = csv_row(&c, m, cols, b, err)) != 0)
			break;
out:
	csv_clear(&c);
	return rc;
}
