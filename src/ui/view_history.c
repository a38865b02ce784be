/*
 * view_history — `:history`: per front, the posts of history.jsonl with
 * their counts (an unknown count shows as ?) and where each came from,
 * newest first; a post fronts published shows the plan's prediction
 * beside the outcome, and one whose counts may still grow says so.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/textw.h"
#include "ui/ui_int.h"

struct hview_line {
	char	*text;
	int	 role;
};

struct hview {
	struct hview_line	*v;
	int			 n;
};

static void
hview_add(struct hview *hv, int role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
hview_add(struct hview *hv, int role, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = xstrdup("?");
	va_end(ap);
	hv->v = xrealloc(hv->v, (size_t)(hv->n + 1) * sizeof *hv->v);
	hv->v[hv->n].text = s;
	hv->v[hv->n++].role = role;
}

/* "12" or "?" for metric i of h. */
static void
hview_metric(const struct history_post *h, int i, char *buf, size_t len)
{
	const double v[] = { h->impressions, h->likes, h->reposts, h->replies,
	    h->clicks };

	if (h->metrics_set & (1u << i))
		snprintf(buf, len, "%.0f", v[i]);
	else
		snprintf(buf, len, "?");
}

/* likes + reposts + replies + clicks over the known ones; -1: none known. */
static double
hview_engagement(const struct history_post *h)
{
	const double v[] = { h->likes, h->reposts, h->replies, h->clicks };
	double sum = 0;
	int i;

	if ((h->metrics_set & 0x1eu) == 0)
		return -1;
	for (i = 0; i < 4; i++)
		if (h->metrics_set & (1u << (i + 1)))
			sum += v[i];
	return sum;
}

static const char *
hview_origin(const struct history_post *h)
{
	if (h->has_predicted)
		return "published by fronts";
	return h->platform_id != NULL ? "from the platform" : "written by hand";
}

static void
hview_post(struct hview *hv, const struct history_post *h)
{
	char m[5][24], first[96], act[32];
	size_t n = strcspn(h->text, "\n");
	int i;

	for (i = 0; i < 5; i++)
		hview_metric(h, i, m[i], sizeof m[i]);
	if (n > 80) {
		n = 80;
		while (n > 0 && ((unsigned char)h->text[n] & 0xC0) == 0x80)
			n--;	/* not inside a character */
	}
	snprintf(first, sizeof first, "%.*s", (int)n, h->text);
	hview_add(hv, THEME_NORMAL, "  %s  impr %s  likes %s  reposts %s  "
	    "replies %s  clicks %s  %s", h->posted_at_text, m[0], m[1], m[2],
	    m[3], m[4], first);
	if (hview_engagement(h) < 0)
		snprintf(act, sizeof act, "unknown");
	else
		snprintf(act, sizeof act, "%.0f", hview_engagement(h));
	if (h->has_predicted)
		hview_add(hv, h->unsettled ? THEME_WARN : THEME_OK,
		    "      %s: predicted %.1f [%.1f, %.1f], actual %s%s",
		    hview_origin(h), h->predicted, h->predicted_lo,
		    h->predicted_hi, act, h->unsettled ? " (still settling)" : "");
	else
		hview_add(hv, THEME_DIM, "      %s%s%s%s", hview_origin(h),
		    h->url != NULL ? ": " : "", h->url != NULL ? h->url : "",
		    h->unsettled ? " (still settling)" : "");
}

static int
hview_cmp(const void *a, const void *b, void *arg)
{
	const struct project *p = arg;
	time_t x = p->history[*(const int *)a].posted_at;
	time_t y = p->history[*(const int *)b].posted_at;

	return (x < y) - (x > y);
}

static void
hview_build(struct hview *hv, const struct project *p)
{
	int *order = xcalloc((size_t)p->nhistory + 1, sizeof *order);
	int f, i, n, known;

	for (i = 0; i < p->nhistory; i++)
		order[i] = i;
	qsort_r(order, (size_t)p->nhistory, sizeof *order, hview_cmp,
	    (void *)p);
	for (f = 0; f < p->nfronts; f++) {
		n = known = 0;
		for (i = 0; i < p->nhistory; i++)
			if (p->history[i].front == f) {
				n++;
				known += p->history[i].metrics_set != 0;
			}
		hview_add(hv, THEME_HEADING, "%s (%s): %d posts, %d with counts",
		    p->fronts[f].id, platform_name(p->fronts[f].platform), n,
		    known);
		for (i = 0; i < p->nhistory; i++)
			if (p->history[order[i]].front == f)
				hview_post(hv, &p->history[order[i]]);
		hview_add(hv, THEME_NORMAL, "%s", "");
	}
	free(order);
}

static void
hview_draw(struct ui *ui, struct pane *v, WINDOW *w, int h, int width)
{
	struct hview *hv = v->data;
	int y, i;

	for (y = 0; y < h - 2; y++) {
		i = v->top + y;
		if (i >= hv->n)
			break;
		ui_put(ui, w, 1 + y, 1, width - 2, hv->v[i].text,
		    strlen(hv->v[i].text), hv->v[i].role);
	}
	v->nrows = hv->n;
	v->page = h - 2;
}

static void
hview_close(struct pane *v)
{
	struct hview *hv = v->data;
	int i;

	if (hv == NULL)
		return;
	for (i = 0; i < hv->n; i++)
		free(hv->v[i].text);
	free(hv->v);
	free(hv);
	v->data = NULL;
}

int
view_history_open(struct ui *ui, struct pane *v)
{
	struct hview *hv;

	if (ui->proj == NULL || ui->proj->nhistory == 0) {
		ui_message(ui, THEME_WARN, "history.jsonl is empty: `fronts "
		    "history import FILE --front ID` fills it");
		return -1;
	}
	hv = xcalloc(1, sizeof *hv);
	hview_build(hv, ui->proj);
	v->title = "History";
	v->hint = "↑↓ PgUp PgDn scroll  Esc close";
	v->draw = hview_draw;
	v->data = hv;
	v->close = hview_close;
	return 0;
}
