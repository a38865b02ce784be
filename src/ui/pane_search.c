/*
 * pane_search — the live search, drawn only from the planner's snapshot:
 * counters on top, then the root's children by visits with a bar each,
 * and the principal variation under the child it starts with (Enter, → and
 * ← unfold and fold it).
 */
#include <stdio.h>
#include <string.h>

#include "ui/textw.h"
#include "ui/view.h"
#include "ui/ui_int.h"

#define SEARCH_HEAD	3	/* counters, column titles, (error) */
#define SEARCH_MAXROWS	(SNAPSHOT_MAX_CHILDREN + SNAPSHOT_MAX_PV)

/* A bar of frac * width cells in eighths. */
static void
search_bar(struct ui *ui, WINDOW *w, int y, int x, int width, double frac)
{
	static const char *eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	int units = (int)(frac * width * 8 + 0.5), i;

	for (i = 0; i < units / 8 && i < width; i++)
		ui_put(ui, w, y, x + i, 1, "█", 3, THEME_BAR);
	if (i < width && units % 8 != 0)
		ui_put(ui, w, y, x + i, 1, eighths[units % 8], 3, THEME_BAR);
}

/* Column widths: visits, mean return, step reward ± half the 95% interval,
 * then the bar; the label takes what is left. */
#define SEARCH_NUMS	28
#define SEARCH_BAR	10

static int
search_label_width(int cw)
{
	int lw = cw - SEARCH_NUMS - SEARCH_BAR;

	return lw < 16 ? 16 : lw;
}

static void
search_row(struct ui *ui, WINDOW *w, int y, int cw, const struct view_row *r,
    bool sel)
{
	char num[64], visits[16];
	int role = sel ? THEME_SELECTED : THEME_NORMAL, lw, x, ind;
	const char *mark = r->expandable ? (r->expanded ? "▾ " : "▸ ") : "  ";

	if (sel)
		ui_fill(ui, w, y, 1, cw, THEME_SELECTED);
	view_count(r->visits, visits, sizeof visits);
	snprintf(num, sizeof num, "%6s %7.2f %6.2f±%-5.2f", visits, r->mean,
	    r->reward, (r->ci_hi - r->ci_lo) / 2);
	lw = search_label_width(cw);
	ind = r->depth > 0 ? 2 : 0;	/* the PV is a chain: one step in */
	x = 1 + ind;
	x += ui_put(ui, w, y, x, 2, mark, strlen(mark), role);
	ui_put(ui, w, y, x, lw - (x - 1), r->label, strlen(r->label), role);
	x = 1 + lw;
	x += ui_put(ui, w, y, x, cw - x + 1, num, strlen(num), role);
	if (cw - x >= 3)
		search_bar(ui, w, y, x + 1, cw - x, r->frac);
}

/* The planner's error, word-wrapped under the counters (at most a third of
 * the pane); returns the rows used. */
static int
search_error(struct ui *ui, WINDOW *w, int h, int cw, const char *msg)
{
	size_t n = strlen(msg), len, next;
	int rows = 0, max = (h - 2) / 3 > 1 ? (h - 2) / 3 : 1;

	while (n > 0 && rows < max) {
		len = textw_wrap(msg, n, cw, &next);
		ui_put(ui, w, 2 + rows++, 1, cw, msg, len, THEME_ERROR);
		if (next == 0)
			break;
		msg += next;
		n -= next;
	}
	return rows > 0 ? rows : 1;
}

static void
search_draw(struct ui *ui, struct pane *p, WINDOW *w, int h, int width)
{
	struct view_row rows[SEARCH_MAXROWS];
	const struct search_snapshot *s = ui->snap;
	char head[256];
	int cw = width - 2, n, i, y, lw, head_rows;


	p->page = h - 2 - SEARCH_HEAD;
	if (!ui->have_snap) {
		ui_putf(ui, w, 1, 1, cw, THEME_DIM, "No search yet. p plans "
		    "with the approved model (:plan N, :seconds S, :workers N, "
		    ":seed N).");
		p->nrows = 0;
		return;
	}
	view_search_header(s, head, sizeof head);
	ui_put(ui, w, 1, 1, cw, head, strlen(head),
	    s->state == SEARCH_FAILED ? THEME_ERROR : THEME_HEADING);
	head_rows = SEARCH_HEAD;
	if (s->state == SEARCH_FAILED && s->error[0] != '\0')
		head_rows += search_error(ui, w, h, cw, s->error) - 1;
	else if (s->illegal_proposals > 0 || s->model_errors > 0)
		ui_putf(ui, w, 2, 1, cw, THEME_WARN, "illegal proposals %llu · "
		    "model errors %llu", (unsigned long long)
		    s->illegal_proposals, (unsigned long long)s->model_errors);
	p->page = h - 2 - head_rows;
	lw = search_label_width(cw);
	ui_putf(ui, w, head_rows, 1, cw, THEME_DIM, "%-*.*s%6s %7s %-12s  share",
	    lw, lw, "  action (local time)", "visits", "mean",
	    " reward±95%");
	n = view_search_rows(ui->proj, s, p->expanded, rows, SEARCH_MAXROWS);
	p->nrows = n;
	ui_pane_clamp(p);
	for (i = p->top, y = 1 + head_rows; i < n && y < h - 1; i++, y++)
		search_row(ui, w, y, cw, &rows[i], i == p->sel &&
		    ui->focus == PANE_SEARCH);
}

static unsigned
search_key(const struct ui *ui, struct pane *p, int ch, struct pane_out *out)
{
	switch (ch) {
	case '\r': case '\n': case KEY_ENTER: case 'o':
		p->expanded = !p->expanded;
		break;
	case KEY_RIGHT: case 'l':
		p->expanded = true;
		break;
	case KEY_LEFT: case 'h':
		p->expanded = false;
		break;
	default:
		return PANE_IGNORED;
	}
	return PANE_HANDLED | PANE_REDRAW;
}

void
pane_search_init(struct pane *p)
{
	memset(p, 0, sizeof *p);
	p->id = PANE_SEARCH;
	p->title = "Search";
	p->hint = "p plan/stop · Enter unfold";
	p->selectable = true;
	p->expanded = true;
	p->draw = search_draw;
	p->key = search_key;
}
