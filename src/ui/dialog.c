/*
 * dialog — modal boxes over the screen: questions that take one key (the
 * publish request, approval, quitting) and the help screen. While a dialog
 * waits, the panes underneath keep updating from the planner, so a
 * question about the model or a post is bound to the one it showed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/textw.h"
#include "ui/ui.h"

struct dialog_line {
	size_t	off, len;
};

/* Wraps body into lines of width cells; returns the count (caller frees). */
static int
dialog_wrap(const char *body, int width, struct dialog_line **out)
{
	struct dialog_line *l = NULL;
	size_t n = strlen(body), pos = 0, len, next;
	int nl = 0, cap = 0;

	while (pos < n || nl == 0) {
		len = textw_wrap(body + pos, n - pos, width, &next);
		if (nl == cap) {
			cap = cap ? cap * 2 : 32;
			l = xrealloc(l, (size_t)cap * sizeof *l);
		}
		l[nl++] = (struct dialog_line){ pos, len };
		if (next == 0)
			break;
		pos += next;
	}
	*out = l;
	return nl;
}

static void
dialog_draw(struct ui *ui, const char *title, const char *body,
    const char *footer, int *top)
{
	struct dialog_line *l;
	WINDOW *w;
	int bw, bh, nl, inner, i, y, x;

	bw = COLS - 4 < 78 ? COLS - 4 : 78;
	if (bw < 20)
		bw = COLS;
	nl = dialog_wrap(body, bw - 4, &l);
	bh = nl + 4;
	if (bh > LINES - 1)
		bh = LINES - 1;
	inner = bh - 3 > 0 ? bh - 3 : 0;	/* border, footer, border */
	if (*top > nl - inner)
		*top = nl - inner;
	if (*top < 0)
		*top = 0;
	y = (LINES - 1 - bh) / 2;
	x = (COLS - bw) / 2;
	if ((w = newwin(bh, bw, y < 0 ? 0 : y, x < 0 ? 0 : x)) == NULL) {
		free(l);
		return;
	}
	wbkgdset(w, ' ' | ui->attr[THEME_DIALOG]);
	werase(w);
	wattrset(w, ui->attr[THEME_BORDER_FOCUS]);
	box(w, 0, 0);
	ui_putf(ui, w, 0, 2, bw - 4, THEME_TITLE_FOCUS, " %s ", title);
	for (i = 0; i < inner && *top + i < nl; i++)
		ui_put(ui, w, 1 + i, 2, bw - 4, body + l[*top + i].off,
		    l[*top + i].len, THEME_DIALOG);
	if (nl > inner)
		ui_putf(ui, w, bh - 1, bw - 16, 14, THEME_DIM, "↑↓ %d/%d", *top + 1,
		    nl);
	if (bh >= 3)
		ui_put(ui, w, bh - 2, 2, bw - 4, footer, strlen(footer),
		    THEME_WARN);
	wnoutrefresh(w);
	doupdate();
	delwin(w);
	free(l);
}

static int
dialog_run(struct ui *ui, const char *title, const char *body,
    const char *footer)
{
	wint_t wch;
	int rc, top = 0, prev;

	ui->dirty = true;
	for (;;) {
		if (ui->dirty) {
			ui_redraw(ui);
			dialog_draw(ui, title, body, footer, &top);
		}
		rc = wget_wch(stdscr, &wch);
		if (rc == ERR) {
			ui_tick(ui);
			continue;
		}
		if (rc == KEY_CODE_YES && wch == KEY_RESIZE) {
			ui_relayout(ui);
			continue;
		}
		if (rc == KEY_CODE_YES && wch == KEY_MOUSE)
			continue;
		prev = top;
		if (rc == KEY_CODE_YES && (wch == KEY_UP || wch == KEY_DOWN ||
		    wch == KEY_NPAGE || wch == KEY_PPAGE)) {
			top += wch == KEY_UP ? -1 : wch == KEY_DOWN ? 1 :
			    wch == KEY_NPAGE ? 10 : -10;
			dialog_draw(ui, title, body, footer, &top);
			if (top != prev || wch == KEY_UP || wch == KEY_PPAGE)
				continue;
		}
		ui->dirty = true;
		return rc == KEY_CODE_YES ? -1 : (int)wch;
	}
}

int
dialog_ask(struct ui *ui, const char *title, const char *body)
{
	return dialog_run(ui, title, body,
	    "y: yes   any other key: no");
}

void
dialog_bind(const struct ui *ui, enum dialog_subject subject, int post,
    struct dialog_bind *b)
{
	memset(b, 0, sizeof *b);
	b->subject = subject;
	snprintf(b->sha, sizeof b->sha, "%s", ui->model_sha);
	b->plan_gen = ui->plan_gen;
	b->post = post;
	b->have_post = ui->have_plan && post >= 0 && post < ui->plan.nposts;
}

const char *
dialog_bind_changed(const struct dialog_bind *shown,
    const struct dialog_bind *now)
{
	if (shown->subject == DIALOG_MODEL)
		return strcmp(shown->sha, now->sha) != 0 ? "model changed" :
		    NULL;
	if (shown->plan_gen != now->plan_gen)
		return "plan changed";
	if (!shown->have_post || !now->have_post || shown->post != now->post)
		return "post no longer in the plan";
	return NULL;
}

int
dialog_ask_about(struct ui *ui, enum dialog_subject subject, int post,
    const char *title, const char *body)
{
	struct dialog_bind shown, now;
	const char *why;
	int k;

	dialog_bind(ui, subject, post, &shown);
	k = dialog_ask(ui, title, body);
	if (k != 'y' && k != 'Y')
		return k;
	dialog_bind(ui, subject, post, &now);
	if ((why = dialog_bind_changed(&shown, &now)) == NULL)
		return k;
	ui_message(ui, THEME_ERROR, "%s while the dialog was open: nothing %s",
	    why, subject == DIALOG_MODEL ? "approved" : "sent");
	return DIALOG_STALE;
}

static const char dialog_help_text[] =
    "Panes   Tab / Shift-Tab or a click: next / previous pane;\n"
    "        1 2 3 4: Rules, Model, Search, Candidates; z: zoom\n"
    "Move    ↑↓ j k, PgUp PgDn, Home End (g G), mouse wheel\n"
    "Model   a: approve (asks y; never a model the gate refused)\n"
    "        n / N: next / previous gate verdict\n"
    "        s: synthesise a new model (runs in the background)\n"
    "Plan    p: start the planner; p again or Esc: stop it\n"
    "Search  Enter / → / ←: expand or fold the principal variation\n"
    "Posts   e: edit the selected post's text (readline)\n"
    "        P: publish the selected post (shows the exact request;\n"
    "           only y sends; dry run unless started with --live)\n"
    "Other   : command line   ? this help   ^L repaint   q quit\n"
    "\n"
    "Commands  :plan N  :seconds S  :workers N  :seed N\n"
    "          :isolation process|thread\n"
    "          :theme NAME  :synth  :open FILE  :write PLAN.json\n"
    "          :help  :quit   (Tab completes; ↑ recalls history)";

void
dialog_help(struct ui *ui)
{
	dialog_run(ui, "Keys", dialog_help_text, "any key closes");
}
