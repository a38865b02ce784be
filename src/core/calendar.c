/*
 * calendar — the day-by-front timeline of a plan (see calendar.h). Widths
 * are counted in code points: ids are short and mostly ASCII, and a cell
 * that is cut ends in "…" so an abbreviation never passes for an id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/calendar.h"
#include "core/timeutil.h"

#define CAL_MIN_COLUMN	8

static const char *cal_names[] = {
	"planned", "due", "past", "sent", "skipped", "failed", "unknown"
};
static const char cal_chars[] = " !~+-x?";

const char *
calendar_mark_name(enum cal_mark m)
{
	return (unsigned)m < sizeof cal_names / sizeof cal_names[0] ?
	    cal_names[m] : "?";
}

char
calendar_mark_char(enum cal_mark m)
{
	return (unsigned)m < sizeof cal_chars - 1 ? cal_chars[m] : '?';
}

static enum cal_mark
cal_from_ledger(const struct ledger_entry *e)
{
	/* By name: a ledger that records skipped posts marks them here
	 * without this module knowing its enum. */
	if (strcmp(ledger_state_name(e->state), "skipped") == 0)
		return CAL_SKIPPED;
	switch (e->state) {
	case LEDGER_SENT:
		return CAL_SENT;
	case LEDGER_FAILED:
		return CAL_FAILED;
	default:
		return CAL_UNKNOWN;
	}
}

enum cal_mark
calendar_mark(const struct project *p, const struct plan *pl,
    const struct ledger *l, int i, time_t now)
{
	const struct plan_post *pp = &pl->posts[i];
	const struct ledger_entry *e, *found = NULL;
	time_t slot = (time_t)p->slot_minutes * 60;
	int k;

	for (k = 0; l != NULL && k < l->nentries; k++) {
		e = &l->entries[k];
		if (e->at == pp->at &&
		    strcmp(e->front, p->fronts[pp->front].id) == 0 &&
		    strcmp(e->draft, p->drafts[pp->draft].id) == 0)
			found = e;
	}
	if (found != NULL)
		return cal_from_ledger(found);
	if (now < pp->at)
		return CAL_PLANNED;
	return now < pp->at + slot ? CAL_DUE : CAL_PAST;
}

static struct cal_row *
cal_add_row(struct calendar *c, const struct plan_post *pp, long *lastday)
{
	struct cal_row *r;
	long day = time_local_day(pp->at);
	int f;

	c->rows = xrealloc(c->rows, (c->nrows + 1) * sizeof *c->rows);
	r = &c->rows[c->nrows++];
	r->slot = pp->slot;
	r->at = pp->at;
	r->day_start = day != *lastday;
	*lastday = day;
	r->cells = xcalloc(c->nfronts + 1, sizeof *r->cells);
	for (f = 0; f < c->nfronts; f++)
		r->cells[f].post = -1;
	return r;
}

static int
cal_post_cmp(const struct plan *pl, int a, int b)
{
	const struct plan_post *x = &pl->posts[a], *y = &pl->posts[b];

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (a > b) - (a < b);
}

/* Empty rows for the slots no post holds, in slot order. */
static void
cal_every_slot(const struct project *p, struct calendar *c)
{
	struct calendar all;
	struct plan_post pp;
	long lastday = -1;
	int k, i = 0;

	memset(&all, 0, sizeof all);
	all.nfronts = c->nfronts;
	memset(&pp, 0, sizeof pp);
	for (k = 0; k < p->horizon_slots; k++) {
		pp.at = project_slot_time(p, k);
		pp.slot = k;
		for (; i < c->nrows && c->rows[i].at <= pp.at; i++) {
			all.rows = xrealloc(all.rows, (all.nrows + 1) *
			    sizeof *all.rows);
			all.rows[all.nrows] = c->rows[i];
			all.rows[all.nrows++].day_start =
			    time_local_day(c->rows[i].at) != lastday;
			lastday = time_local_day(c->rows[i].at);
		}
		if (all.nrows == 0 || all.rows[all.nrows - 1].at != pp.at)
			cal_add_row(&all, &pp, &lastday);
	}
	for (; i < c->nrows; i++) {
		all.rows = xrealloc(all.rows, (all.nrows + 1) *
		    sizeof *all.rows);
		all.rows[all.nrows++] = c->rows[i];
	}
	free(c->rows);
	*c = all;
}

void
calendar_build(const struct project *p, const struct plan *pl,
    const struct ledger *l, time_t now, bool every, struct calendar *out)
{
	const struct plan_post *pp;
	struct cal_row *r = NULL;
	long lastday = -1;
	int *order, i, j, t;

	memset(out, 0, sizeof *out);
	out->nfronts = p->nfronts;
	order = xcalloc(pl->nposts + 1, sizeof *order);
	for (i = 0; i < pl->nposts; i++)
		order[i] = i;
	for (i = 1; i < pl->nposts; i++)
		for (j = i; j > 0 && cal_post_cmp(pl, order[j - 1],
		    order[j]) > 0; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < pl->nposts; i++) {
		pp = &pl->posts[order[i]];
		if (pp->front < 0 || pp->front >= p->nfronts)
			continue;
		if (r == NULL || r->at != pp->at ||
		    r->cells[pp->front].post >= 0)
			r = cal_add_row(out, pp, &lastday);
		r->cells[pp->front].post = order[i];
		r->cells[pp->front].mark = calendar_mark(p, pl, l, order[i],
		    now);
	}
	free(order);
	if (every)
		cal_every_slot(p, out);
}

void
calendar_free(struct calendar *c)
{
	int i;

	for (i = 0; i < c->nrows; i++)
		free(c->rows[i].cells);
	free(c->rows);
	memset(c, 0, sizeof *c);
}

/* Code points of s. */
static int
cal_width(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s in at most w columns into buf: cut with "…" where it is longer. */
static void
cal_fit(const char *s, int w, char *buf, size_t len)
{
	size_t i = 0, o = 0;
	int n = 0;

	if (cal_width(s) <= w) {
		snprintf(buf, len, "%s", s);
		return;
	}
	while (s[i] != '\0' && o + 8 < len) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && ++n > w - 1)
			break;
		buf[o++] = s[i++];
	}
	if (w >= 1 && o + 4 < len) {
		memcpy(buf + o, "\u2026", 3);
		o += 3;
	}
	buf[o] = '\0';
}

void
calendar_cell_text(const struct project *p, const struct plan *pl,
    const struct cal_cell *c, int w, char *buf, size_t len)
{
	const struct plan_post *pp;
	char id[128], rw[32], tmp[256];
	int room;

	buf[0] = '\0';
	if (c->post < 0)
		return;
	pp = &pl->posts[c->post];
	snprintf(tmp, sizeof tmp, "%c%s %.1f", calendar_mark_char(c->mark),
	    p->drafts[pp->draft].id, pp->expected_reward);
	if (cal_width(tmp) > w) {
		snprintf(rw, sizeof rw, "%.0f", pp->expected_reward);
		room = w - 2 - (int)strlen(rw);
		cal_fit(p->drafts[pp->draft].id, room < 2 ? 2 : room, id,
		    sizeof id);
		snprintf(tmp, sizeof tmp, "%c%s %s",
		    calendar_mark_char(c->mark), id, rw);
	}
	cal_fit(tmp, w, buf, len);
}

/* Appends s padded with spaces to w columns. */
static void
cal_put(char **line, size_t *len, const char *s, int w)
{
	int pad = w - cal_width(s);
	size_t n = strlen(s);

	*line = xrealloc(*line, *len + n + (pad > 0 ? pad : 0) + 1);
	memcpy(*line + *len, s, n);
	*len += n;
	for (; pad > 0; pad--)
		(*line)[(*len)++] = ' ';
	(*line)[*len] = '\0';
}

static char *
cal_trim(char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	return line;
}

static void
cal_push(char ***out, int *n, char *line)
{
	*out = xrealloc(*out, (*n + 2) * sizeof **out);
	(*out)[(*n)++] = cal_trim(line);
	(*out)[*n] = NULL;
}

static char *
cal_day_line(time_t at, int width)
{
	struct tm tm;
	char day[64], *line;
	int n;

	localtime_r(&at, &tm);
	strftime(day, sizeof day, "-- %a %Y-%m-%d ", &tm);
	n = (int)strlen(day);
	line = xmalloc((width > n ? width : n) + 1);
	memcpy(line, day, n);
	for (; n < width; n++)
		line[n] = '-';
	line[n] = '\0';
	return line;
}

static char *
cal_row_line(const struct project *p, const struct plan *pl,
    const struct cal_row *r, int colw)
{
	char hm[16], cell[256], *line = NULL;
	size_t len = 0;
	struct tm tm;
	int f;

	localtime_r(&r->at, &tm);
	strftime(hm, sizeof hm, "%H:%M", &tm);
	cal_put(&line, &len, hm, CALENDAR_TIME_WIDTH);
	for (f = 0; f < p->nfronts; f++) {
		calendar_cell_text(p, pl, &r->cells[f], colw - 1, cell,
		    sizeof cell);
		cal_put(&line, &len, cell, colw);
	}
	return line;
}

int
calendar_column_width(const struct project *p, int width)
{
	int colw = p->nfronts > 0 ? (width - CALENDAR_TIME_WIDTH) /
	    p->nfronts : 0;

	if (colw < CAL_MIN_COLUMN)
		colw = CAL_MIN_COLUMN;
	return colw > CALENDAR_MAX_COLUMN ? CALENDAR_MAX_COLUMN : colw;
}

int
calendar_render(const struct project *p, const struct plan *pl,
    const struct calendar *c, int width, char ***out)
{
	char cell[256], *line = NULL;
	size_t len = 0;
	int colw, total, n = 0, i, f;

	*out = NULL;
	colw = calendar_column_width(p, width);
	total = CALENDAR_TIME_WIDTH + colw * p->nfronts;
	cal_put(&line, &len, "", CALENDAR_TIME_WIDTH);
	for (f = 0; f < p->nfronts; f++) {
		cal_fit(p->fronts[f].id, colw - 1, cell, sizeof cell);
		cal_put(&line, &len, cell, colw);
	}
	cal_push(out, &n, line);
	for (i = 0; i < c->nrows; i++) {
		if (c->rows[i].day_start)
			cal_push(out, &n, cal_day_line(c->rows[i].at,
			    total - 1));
		cal_push(out, &n, cal_row_line(p, pl, &c->rows[i], colw));
	}
	if (c->nrows == 0)
		cal_push(out, &n, xstrdup("(no posts)"));
	return n;
}

cJSON *
calendar_json(const struct project *p, const struct plan *pl,
    const struct calendar *c)
{
	cJSON *o = cJSON_CreateObject(), *fr, *rows, *r, *cells, *cell;
	const struct plan_post *pp;
	char at[40];
	int i, f;

	fr = cJSON_AddArrayToObject(o, "fronts");
	for (f = 0; f < p->nfronts; f++)
		cJSON_AddItemToArray(fr, cJSON_CreateString(p->fronts[f].id));
	rows = cJSON_AddArrayToObject(o, "rows");
	for (i = 0; i < c->nrows; i++) {
		r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "slot", c->rows[i].slot);
		time_format_local(c->rows[i].at, at, sizeof at);
		cJSON_AddStringToObject(r, "at", at);
		cells = cJSON_AddArrayToObject(r, "cells");
		for (f = 0; f < c->nfronts; f++) {
			if (c->rows[i].cells[f].post < 0) {
				cJSON_AddItemToArray(cells, cJSON_CreateNull());
				continue;
			}
			pp = &pl->posts[c->rows[i].cells[f].post];
			cell = cJSON_CreateObject();
			cJSON_AddStringToObject(cell, "draft",
			    p->drafts[pp->draft].id);
			cJSON_AddNumberToObject(cell, "expected_reward",
			    pp->expected_reward);
			cJSON_AddStringToObject(cell, "state",
			    calendar_mark_name(c->rows[i].cells[f].mark));
			cJSON_AddItemToArray(cells, cell);
		}
		cJSON_AddItemToArray(rows, r);
	}
	return o;
}
