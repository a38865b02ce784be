/*
 * draw — the screen as a function of struct ui: the layout turned into
 * windows, each pane drawn in its frame, the status line and the open
 * dialog on top; and the helpers every pane draws with (clipped UTF-8
 * text in a theme role, filled rows) and the status message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/textw.h"
#include "ui/ui_int.h"

void
ui_message(struct ui *ui, int role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
	va_end(ap);
	ui->msg_role = role;
	ui->dirty = true;
}

int
ui_put(struct ui *ui, WINDOW *w, int y, int x, int maxw, const char *s,
    size_t n, int role)
{
	wchar_t buf[1024];
	int cols = 0, nw;

	if (maxw <= 0 || s == NULL)
		return 0;
	nw = textw_decode(s, n, maxw, buf, 1024, &cols, NULL);
	wattrset(w, ui->attr[role]);
	if (nw > 0)
		mvwaddnwstr(w, y, x, buf, nw);
	return cols;
}

int
ui_putf(struct ui *ui, WINDOW *w, int y, int x, int maxw, int role,
    const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ui_put(ui, w, y, x, maxw, buf, strlen(buf), role);
}

void
ui_fill(struct ui *ui, WINDOW *w, int y, int x, int width, int role)
{
	if (width <= 0)
		return;
	wattrset(w, ui->attr[role]);
	mvwhline(w, y, x, ' ', width);
}

void
ui_relayout(struct ui *ui)
{
	const struct rect *r;
	int i;

	if (!ui_term_on())
		return;
	layout_compute(LINES, COLS, ui->focus, ui->zoom, &ui->layout);
	if (ui->view_win != NULL)
		delwin(ui->view_win);
	r = &ui->layout.status;
	ui->view_win = ui->view_open && r->y > 0 ? newwin(r->y, COLS, 0, 0) :
	    NULL;
	if (ui->view_win != NULL)
		wbkgdset(ui->view_win, ' ' | ui->attr[THEME_NORMAL]);
	for (i = 0; i < PANE_COUNT; i++) {
		if (ui->win[i] != NULL)
			delwin(ui->win[i]);
		ui->win[i] = NULL;
		r = &ui->layout.pane[i];
		if (!ui->layout.visible[i] || ui->view_open)
			continue;
		ui->win[i] = newwin(r->h, r->w, r->y, r->x);
		if (ui->win[i] != NULL)
			wbkgdset(ui->win[i], ' ' | ui->attr[THEME_NORMAL]);
	}
	if (ui->status != NULL)
		delwin(ui->status);
	r = &ui->layout.status;
	ui->status = r->h > 0 ? newwin(r->h, r->w, r->y, r->x) : NULL;
	if (ui->status != NULL)
		wbkgdset(ui->status, ' ' | ui->attr[THEME_STATUS]);
	werase(stdscr);
	wnoutrefresh(stdscr);
	ui->dirty = true;
}

static void
ui_frame(struct ui *ui, struct pane *p, WINDOW *w, int h, int width,
    bool focus)
{
	int x;

	wattrset(w, ui->attr[focus ? THEME_BORDER_FOCUS : THEME_BORDER]);
	if (h >= 2)
		box(w, 0, 0);
	else
		mvwhline(w, 0, 0, ACS_HLINE, width);
	x = 2 + ui_putf(ui, w, 0, 2, width - 4,
	    focus ? THEME_TITLE_FOCUS : THEME_TITLE, " %s ", p->title);
	if (focus && p->hint != NULL && x + 4 < width - 2)
		ui_putf(ui, w, 0, x + 1, width - x - 3, THEME_DIM, " %s ",
		    p->hint);
	if (p->nrows > p->page && p->page > 0 && h >= 3)
		ui_putf(ui, w, h - 1, width - 14 > 2 ? width - 14 : 2, 12,
		    THEME_DIM, " %d/%d ", p->top + 1, p->nrows);
}

static void
ui_pane_draw(struct ui *ui, struct pane *p, WINDOW *w, bool focus)
{
	int h, width, top;

	getmaxyx(w, h, width);
	werase(w);
	if (h >= 3 && width >= 4) {
		top = p->top;
		p->draw(ui, p, w, h, width);
		ui_pane_clamp(p);
		if (p->top != top) {	/* rows shrank (a resize) */
			werase(w);
			p->draw(ui, p, w, h, width);
		}
	}
	ui_frame(ui, p, w, h, width, focus);
	wnoutrefresh(w);
}

void
ui_redraw(struct ui *ui)
{
	int i;

	if (ui->view_open && ui->view_win != NULL)
		ui_pane_draw(ui, &ui->view, ui->view_win, true);
	for (i = 0; i < PANE_COUNT; i++)
		if (ui->win[i] != NULL)
			ui_pane_draw(ui, &ui->panes[i], ui->win[i],
			    ui->focus == i);
	if (ui->status != NULL) {
		werase(ui->status);
		statusline_draw(ui, ui->status, getmaxx(ui->status));
		wnoutrefresh(ui->status);
	}
	dialog_draw(ui);
	doupdate();
	ui->dirty = false;
}

void
ui_pane_clamp(struct pane *p)
{
	if (p->sel >= p->nrows)
		p->sel = p->nrows - 1;
	if (p->sel < 0)
		p->sel = 0;
	if (p->selectable && p->page > 0) {
		if (p->sel < p->top)
			p->top = p->sel;
		if (p->sel >= p->top + p->page)
			p->top = p->sel - p->page + 1;
	}
	if (p->top > p->nrows - p->page)
		p->top = p->nrows - p->page;
	if (p->top < 0)
		p->top = 0;
}
