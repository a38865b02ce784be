/*
 * view_calendar — `:calendar`: the plan day by front (core/calendar.h,
 * the layout `fronts plan --calendar` prints), every slot of the horizon
 * a row so the cursor can reach a free one. Its edits are pins: p pins
 * the post under the cursor where it is, m and then Enter moves it (to
 * another slot or front), s and then Enter swaps two posts, g, a draft id
 * and Enter puts that draft in the cell, d drops the draft from every
 * plan, c clears its pins. Each edit is checked as `fronts pin` checks
 * it, written to pins.jsonl (the same code), and the planner plans again
 * around what is fixed; the header then shows the new expected total
 * beside the one before the edit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/calendar.h"
#include "core/clock.h"
#include "core/legal.h"
#include "core/timeutil.h"
#include "ui/ui_int.h"

enum cview_mode { CV_BROWSE, CV_MOVE, CV_SWAP, CV_PUT };

struct cview {
	struct calendar	 cal;
	unsigned	 gen;		/* ui->plan_gen the rows are from */
	int		 row, col;	/* the cursor: a row, a front */
	enum cview_mode	 mode;
	int		 src;		/* the post a move or swap started at */
	char		 input[64];	/* the draft id g is reading */
	double		 before;	/* expected total before the edit; NAN */
	int		 edits;		/* made in this view */
};

static void
cview_build(const struct ui *ui, struct cview *cv)
{
	struct ledger l;
	struct error err = { 0 };
	bool have = ledger_open(ui->proj->dir, &l, &err) == 0;

	calendar_free(&cv->cal);
	calendar_build(ui->proj, &ui->plan, have ? &l : NULL, clock_now(),
	    true, &cv->cal);
	if (have)
		ledger_free(&l);
	cv->gen = ui->plan_gen;
	if (cv->row >= cv->cal.nrows)
		cv->row = cv->cal.nrows > 0 ? cv->cal.nrows - 1 : 0;
}

static const struct cal_cell *
cview_cell(const struct cview *cv, int row, int col)
{
	if (row < 0 || row >= cv->cal.nrows || col < 0 ||
	    col >= cv->cal.nfronts)
		return NULL;
	return &cv->cal.rows[row].cells[col];
}

/* The display line of calendar row i (day lines come between). */
static int
cview_line_of(const struct cview *cv, int row)
{
	int i, n = 0;

	for (i = 0; i <= row && i < cv->cal.nrows; i++)
		n += 1 + cv->cal.rows[i].day_start;
	return n - 1;
}

static void
cview_header(struct ui *ui, struct cview *cv, WINDOW *w, int width)
{
	const struct plan *pl = &ui->plan;
	const char *hint = "";
	char buf[256];

	if (cv->mode == CV_MOVE)
		hint = "  · move: Enter on the new place, Esc cancels";
	else if (cv->mode == CV_SWAP)
		hint = "  · swap: Enter on the other post, Esc cancels";
	if (cv->mode == CV_PUT)
		snprintf(buf, sizeof buf, "put draft: %s_  (Enter places it "
		    "here, Esc cancels)", cv->input);
	else if (!isnan(cv->before))
		snprintf(buf, sizeof buf, "edit %d · expected total %.1f "
		    "(before the edit %.1f)%s%s", cv->edits,
		    pl->expected_total, cv->before,
		    ui->planner != NULL ? " · planning…" : "", hint);
	else
		snprintf(buf, sizeof buf, "expected total %.1f%s%s",
		    pl->expected_total, ui->planner != NULL ? " · planning…" :
		    "", hint);
	ui_put(ui, w, 1, 1, width - 2, buf, strlen(buf), THEME_HEADING);
}

static void
cview_fronts(struct ui *ui, WINDOW *w, int colw, int width)
{
	const struct project *p = ui->proj;
	int f, x = 1 + CALENDAR_TIME_WIDTH;

	for (f = 0; f < p->nfronts && x < width - 1; f++, x += colw)
		ui_put(ui, w, 2, x, colw - 1, p->fronts[f].id,
		    strlen(p->fronts[f].id), THEME_TITLE);
}

static void
cview_row(struct ui *ui, struct cview *cv, WINDOW *w, int y, int i, int colw,
    int width)
{
	const struct cal_row *r = &cv->cal.rows[i];
	char hm[16], cell[256];
	struct tm tm;
	int f, x, role;

	localtime_r(&r->at, &tm);
	strftime(hm, sizeof hm, "%H:%M", &tm);
	ui_put(ui, w, y, 1, CALENDAR_TIME_WIDTH, hm, strlen(hm), THEME_DIM);
	for (f = 0, x = 1 + CALENDAR_TIME_WIDTH; f < cv->cal.nfronts &&
	    x < width - 1; f++, x += colw) {
		calendar_cell_text(ui->proj, &ui->plan, &r->cells[f], colw - 1,
		    cell, sizeof cell);
		if (cell[0] == '\0')
			snprintf(cell, sizeof cell, "%s", "·");
		role = r->cells[f].post < 0 ? THEME_DIM : THEME_NORMAL;
		if (cv->mode != CV_BROWSE && r->cells[f].post == cv->src &&
		    cv->src >= 0)
			role = THEME_WARN;
		if (i == cv->row && f == cv->col)
			role = THEME_SELECTED;
		ui_put(ui, w, y, x, colw - 1, cell, strlen(cell), role);
	}
}

static void
cview_day(struct ui *ui, WINDOW *w, int y, time_t at, int width)
{
	char day[64];
	struct tm tm;

	localtime_r(&at, &tm);
	strftime(day, sizeof day, "── %a %Y-%m-%d ──", &tm);
	ui_put(ui, w, y, 1, width - 2, day, strlen(day), THEME_HEADING);
}

static void
cview_draw(struct ui *ui, struct pane *v, WINDOW *w, int h, int width)
{
	struct cview *cv = v->data;
	int colw = calendar_column_width(ui->proj, width - 2);
	int body = h - 5, line, y, i, n;

	if (cv->gen != ui->plan_gen)
		cview_build(ui, cv);
	cview_header(ui, cv, w, width);
	cview_fronts(ui, w, colw, width);
	line = cview_line_of(cv, cv->row);
	if (line < v->top)
		v->top = line;
	if (body > 0 && line >= v->top + body)
		v->top = line - body + 1;
	for (i = 0, n = 0, y = 3; i < cv->cal.nrows && y < h - 1; i++) {
		if (cv->cal.rows[i].day_start && n++ >= v->top)
			cview_day(ui, w, y++, cv->cal.rows[i].at, width);
		if (y < h - 1 && n++ >= v->top)
			cview_row(ui, cv, w, y++, i, colw, width);
	}
	v->nrows = n;
	v->page = body;
}

/* Undoes an edit the rules refuse or the disk would not take. */
static unsigned
cview_refused(const struct ui *ui, struct cview *cv, struct error *err,
    struct pane_out *out)
{
	struct error rerr = { 0 };

	project_reload_pins(ui->proj, &rerr);
	cv->mode = CV_BROWSE;
	out->role = THEME_ERROR;
	snprintf(out->msg, sizeof out->msg, "%s", err->msg);
	return PANE_HANDLED | PANE_REDRAW | PANE_MESSAGE;
}

/* pins.jsonl as edited, checked first: then plan again. */
static unsigned
cview_commit(const struct ui *ui, struct cview *cv, const char *what,
    struct pane_out *out)
{
	struct error err = { 0 };

	project_start_at(ui->proj, clock_now());
	if (legal_pins_verify(ui->proj, &err) != 0 ||
	    project_pins_save(ui->proj, &err) != 0)
		return cview_refused(ui, cv, &err, out);
	cv->before = ui->plan.expected_total;
	cv->edits++;
	cv->mode = CV_BROWSE;
	snprintf(out->msg, sizeof out->msg, "%s (pins.jsonl); planning again",
	    what);
	return PANE_HANDLED | PANE_REDRAW | PANE_MESSAGE | PANE_ACT;
}

static void
cview_at(const struct cview *cv, int row, char *buf, size_t len,
    time_t *at)
{
	*at = cv->cal.rows[row].at;
	time_format_local(*at, buf, len);
}

/* Pins draft d on front f at the time of row. */
static void
cview_pin_to(const struct ui *ui, const struct cview *cv, int d, int f,
    int row)
{
	char at[40];
	time_t t;

	cview_at(cv, row, at, sizeof at, &t);
	project_pin_set(ui->proj, d, f, at, t);
}

static const struct plan_post *
cview_post(const struct ui *ui, const struct cview *cv, int row, int col)
{
	const struct cal_cell *c = cview_cell(cv, row, col);

	return c != NULL && c->post >= 0 ? &ui->plan.posts[c->post] : NULL;
}

/* Enter at the cursor: where a move or a swap lands, or a put. */
static unsigned
cview_place(const struct ui *ui, struct cview *cv, struct pane_out *out)
{
	const struct plan_post *a = &ui->plan.posts[cv->src];
	const struct plan_post *b = cview_post(ui, cv, cv->row, cv->col);
	int arow, acol = a->front, i;
	char what[160];

	for (arow = 0, i = 0; i < cv->cal.nrows; i++)
		if (cv->cal.rows[i].cells[acol].post == cv->src)
			arow = i;
	if (cv->mode == CV_SWAP && (b == NULL || b == a)) {
		snprintf(out->msg, sizeof out->msg, "swap: put the cursor on "
		    "another post");
		return PANE_HANDLED | PANE_MESSAGE;
	}
	project_pin_clear(ui->proj, a->draft);
	if (cv->mode == CV_SWAP) {
		project_pin_clear(ui->proj, b->draft);
		cview_pin_to(ui, cv, b->draft, acol, arow);
		snprintf(what, sizeof what, "%s and %s swapped",
		    ui->proj->drafts[a->draft].id,
		    ui->proj->drafts[b->draft].id);
	} else
		snprintf(what, sizeof what, "%s moved to %s",
		    ui->proj->drafts[a->draft].id,
		    ui->proj->fronts[cv->col].id);
	cview_pin_to(ui, cv, a->draft, cv->col, cv->row);
	return cview_commit(ui, cv, what, out);
}

static unsigned
cview_put(const struct ui *ui, struct cview *cv, struct pane_out *out)
{
	int d = project_draft_index(ui->proj, cv->input);
	char what[160];

	if (d < 0) {
		out->role = THEME_ERROR;
		snprintf(out->msg, sizeof out->msg, "no draft \"%s\" in "
		    "drafts.jsonl", cv->input);
		return PANE_HANDLED | PANE_MESSAGE | PANE_REDRAW;
	}
	cview_pin_to(ui, cv, d, cv->col, cv->row);
	snprintf(what, sizeof what, "%s put on %s", cv->input,
	    ui->proj->fronts[cv->col].id);
	return cview_commit(ui, cv, what, out);
}

/* Typing a draft id for g. */
static unsigned
cview_type(const struct ui *ui, struct cview *cv, int ch,
    struct pane_out *out)
{
	size_t n = strlen(cv->input);

	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return cview_put(ui, cv, out);
	if (ch == 27)
		cv->mode = CV_BROWSE;
	else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n > 0)
		cv->input[n - 1] = '\0';
	else if (ch > 0x20 && ch < 0x7f && n + 1 < sizeof cv->input) {
		cv->input[n] = (char)ch;
		cv->input[n + 1] = '\0';
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned
cview_move_cursor(struct pane *v, struct cview *cv, int ch)
{
	int page = v->page > 1 ? v->page - 1 : 1;

	switch (ch) {
	case KEY_UP: case 'k':		cv->row--; break;
	case KEY_DOWN: case 'j':	cv->row++; break;
	case KEY_LEFT: case 'h':	cv->col--; break;
	case KEY_RIGHT: case 'l':	cv->col++; break;
	case KEY_PPAGE:			cv->row -= page; break;
	case KEY_NPAGE:			cv->row += page; break;
	case KEY_HOME:			cv->row = 0; break;
	case KEY_END:			cv->row = cv->cal.nrows - 1; break;
	default:
		return PANE_IGNORED;
	}
	if (cv->row >= cv->cal.nrows)
		cv->row = cv->cal.nrows - 1;
	if (cv->row < 0)
		cv->row = 0;
	if (cv->col >= cv->cal.nfronts)
		cv->col = cv->cal.nfronts - 1;
	if (cv->col < 0)
		cv->col = 0;
	return PANE_HANDLED | PANE_REDRAW;
}

/* The edits of the post (or draft) under the cursor. */
static unsigned
cview_edit(const struct ui *ui, struct cview *cv, int ch,
    struct pane_out *out)
{
	const struct cal_cell *c = cview_cell(cv, cv->row, cv->col);
	const struct plan_post *pp = cview_post(ui, cv, cv->row, cv->col);
	char what[160];

	if (ch == 'g') {
		cv->mode = CV_PUT;
		memset(cv->input, 0, sizeof cv->input);
		return PANE_HANDLED | PANE_REDRAW;
	}
	if (pp == NULL) {
		snprintf(out->msg, sizeof out->msg, "no post here: g puts a "
		    "draft in this cell");
		return PANE_HANDLED | PANE_MESSAGE;
	}
	switch (ch) {
	case 'p':
		cview_pin_to(ui, cv, pp->draft, pp->front, cv->row);
		snprintf(what, sizeof what, "%s pinned on %s",
		    ui->proj->drafts[pp->draft].id,
		    ui->proj->fronts[pp->front].id);
		return cview_commit(ui, cv, what, out);
	case 'd':
		project_pin_drop(ui->proj, pp->draft);
		snprintf(what, sizeof what, "%s dropped from every plan",
		    ui->proj->drafts[pp->draft].id);
		return cview_commit(ui, cv, what, out);
	case 'c':
		project_pin_clear(ui->proj, pp->draft);
		snprintf(what, sizeof what, "%s has no pins",
		    ui->proj->drafts[pp->draft].id);
		return cview_commit(ui, cv, what, out);
	default:
		cv->mode = ch == 'm' ? CV_MOVE : CV_SWAP;
		cv->src = c->post;
		return PANE_HANDLED | PANE_REDRAW;
	}
}

static unsigned
cview_key(const struct ui *ui, struct pane *v, int ch, struct pane_out *out)
{
	struct cview *cv = v->data;
	unsigned r;

	if (cv->mode == CV_PUT)
		return cview_type(ui, cv, ch, out);
	if ((r = cview_move_cursor(v, cv, ch)) != PANE_IGNORED)
		return r;
	if (ui->planner != NULL && strchr("pdcmsg\r\n", ch) != NULL) {
		snprintf(out->msg, sizeof out->msg, "the planner is running: "
		    "edit when it is done");
		return PANE_HANDLED | PANE_MESSAGE;
	}
	if (cv->mode != CV_BROWSE) {
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			return cview_place(ui, cv, out);
		if (ch == 27) {
			cv->mode = CV_BROWSE;
			return PANE_HANDLED | PANE_REDRAW;
		}
		return PANE_IGNORED;
	}
	if (ch > 0 && ch < 0x80 && strchr("pdcmsg", ch) != NULL)
		return cview_edit(ui, cv, ch, out);
	return PANE_IGNORED;
}

static void
cview_act(struct ui *ui, struct pane *v)
{
	(void)v;
	ui_plan_start(ui);
}

static void
cview_close(struct pane *v)
{
	struct cview *cv = v->data;

	if (cv == NULL)
		return;
	calendar_free(&cv->cal);
	free(cv);
	v->data = NULL;
}

int
view_calendar_open(struct ui *ui, struct pane *v)
{
	struct cview *cv;

	if (!ui->have_plan) {
		ui_message(ui, THEME_WARN, "no plan yet: p plans, then "
		    ":calendar shows it");
		return -1;
	}
	cv = xcalloc(1, sizeof *cv);
	cv->before = NAN;
	cv->src = -1;
	cview_build(ui, cv);
	v->title = "Calendar";
	v->hint = "←↑↓→ move  p pin  m move  s swap  g put  d drop  "
	    "c clear  Esc close";
	v->draw = cview_draw;
	v->key = cview_key;
	v->act = cview_act;
	v->data = cv;
	v->close = cview_close;
	return 0;
}
