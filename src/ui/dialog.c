/*
 * dialog — the modal box over the screen, as part of the UI state: a
 * question that takes one key (approval, publishing, quitting) or the help
 * screen. It is drawn by ui_redraw and answered by ui_key in the one event
 * loop, so the panes underneath keep updating while it is open; that is
 * why a question is bound to what it showed (the model's sha, the plan's
 * generation and the post) and its action runs only if that still holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/textw.h"
#include "ui/ui_int.h"

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

/* Keeps the first line shown inside the body as last drawn. */
static void
dialog_clamp(struct modal *m)
{
	if (m->top > m->nlines - m->inner)
		m->top = m->nlines - m->inner;
	if (m->top < 0)
		m->top = 0;
}

void
dialog_draw(struct ui *ui)
{
	struct modal *m = &ui->modal;
	struct dialog_line *l;
	WINDOW *w;
	int bw, bh, i, y, x;

	if (m->ops == NULL)
		return;
	bw = COLS - 4 < 78 ? COLS - 4 : 78;
	if (bw < 20)
		bw = COLS;
	m->nlines = dialog_wrap(m->body, bw - 4, &l);
	bh = m->nlines + 4;
	if (bh > LINES - 1)
		bh = LINES - 1;
	m->inner = bh - 3 > 0 ? bh - 3 : 0;	/* border, footer, border */
	dialog_clamp(m);
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
	ui_putf(ui, w, 0, 2, bw - 4, THEME_TITLE_FOCUS, " %s ", m->title);
	for (i = 0; i < m->inner && m->top + i < m->nlines; i++)
		ui_put(ui, w, 1 + i, 2, bw - 4, m->body + l[m->top + i].off,
		    l[m->top + i].len, THEME_DIALOG);
	if (m->nlines > m->inner)
		ui_putf(ui, w, bh - 1, bw - 16, 14, THEME_DIM, "↑↓ %d/%d",
		    m->top + 1, m->nlines);
	if (bh >= 3)
		ui_put(ui, w, bh - 2, 2, bw - 4, m->ops->footer,
		    strlen(m->ops->footer), THEME_WARN);
	wnoutrefresh(w);
	delwin(w);
	free(l);
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
	if (shown->subject == DIALOG_NONE)
		return NULL;
	if (shown->subject == DIALOG_MODEL)
		return strcmp(shown->sha, now->sha) != 0 ? "model changed" :
		    NULL;
	if (shown->plan_gen != now->plan_gen)
		return "plan changed";
	if (!shown->have_post || !now->have_post || shown->post != now->post)
		return "post no longer in the plan";
	return NULL;
}

void
dialog_open(struct ui *ui, const struct modal_ops *ops, int post,
    const char *title, char *body, void *ctx)
{
	struct modal *m = &ui->modal;

	dialog_close(ui);
	m->ops = ops;
	m->title = title;
	m->body = body;
	m->ctx = ctx;
	dialog_bind(ui, ops->subject, post, &m->bind);
	ui->dirty = true;
}

void
dialog_close(struct ui *ui)
{
	struct modal *m = &ui->modal;

	if (m->ops != NULL && m->ops->free != NULL)
		m->ops->free(m->ctx);
	free(m->body);
	memset(m, 0, sizeof *m);
	ui->dirty = true;
}

enum modal_kind
dialog_kind(const struct ui *ui)
{
	return ui->modal.ops != NULL ? ui->modal.ops->kind : MODAL_NONE;
}

/* ↑ and PgUp scroll the body; ↓ and PgDn too while there is more below,
 * and past the end they answer like any other key. */
static bool
dialog_scroll(struct modal *m, int ch)
{
	int prev = m->top;

	switch (ch) {
	case KEY_UP:	m->top--; break;
	case KEY_DOWN:	m->top++; break;
	case KEY_PPAGE:	m->top -= 10; break;
	case KEY_NPAGE:	m->top += 10; break;
	default:	return false;
	}
	dialog_clamp(m);
	return m->top != prev || ch == KEY_UP || ch == KEY_PPAGE;
}

/* The answer: y runs the action if what the dialog showed still holds;
 * any other key is no. Either way the dialog closes first, so an action
 * may open the next one. */
void
dialog_key(struct ui *ui, int ch, bool fn)
{
	struct modal m = ui->modal;
	struct dialog_bind now;
	const char *why;

	ui->dirty = true;
	if (fn && ch == KEY_MOUSE)
		return;
	if (fn && dialog_scroll(&ui->modal, ch))
		return;
	memset(&ui->modal, 0, sizeof ui->modal);
	if (!fn && (ch == 'y' || ch == 'Y')) {
		dialog_bind(ui, m.bind.subject, m.bind.post, &now);
		if ((why = dialog_bind_changed(&m.bind, &now)) != NULL)
			ui_message(ui, THEME_ERROR, "%s while the dialog was "
			    "open: nothing %s", why, m.ops->refused);
		else if (m.ops->yes != NULL)
			m.ops->yes(ui, m.ctx);
	} else if (m.ops->no != NULL)
		m.ops->no(ui, m.ctx);
	if (m.ops->free != NULL)
		m.ops->free(m.ctx);
	free(m.body);
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
    "Posts   e: edit the selected post's text (readline; the prompt\n"
    "           counts its length for the post's front as you type;\n"
    "           a thread part by part: Enter / PgDn next, PgUp back)\n"
    "        i: show or hide the images' alt text\n"
    "        P: publish the selected post (shows the exact request;\n"
    "           only y sends; dry run unless started with --live)\n"
    "        R: run mode: each post's dialog opens (with the bell) when\n"
    "           its slot comes; the status line counts down to the next\n"
    "Other   : command line   ? this help   ^L repaint   q quit\n"
    "\n"
    "Commands  :plan N  :seconds S  :workers N  :seed N\n"
    "          :isolation process|thread\n"
    "          :theme NAME  :synth [builtin]  :open FILE  :write PLAN.json\n"
    "          :accuracy (the model against the baselines on history)\n"
    "          :history (posts and their counts per front; Esc closes)\n"
    "          :calendar (the plan by day and front: p pin, m move,\n"
    "           s swap, g put a draft, d drop, c clear pins; Enter places)\n"
    "          :run  :run off (run mode, as R)\n"
    "          :help  :quit   (Tab completes; ↑ recalls history)";

static const struct modal_ops dialog_help_ops = {
	.kind = MODAL_HELP,
	.subject = DIALOG_NONE,
	.footer = "any key closes",
};

void
dialog_help(struct ui *ui)
{
	dialog_open(ui, &dialog_help_ops, -1, "Keys",
	    xstrdup(dialog_help_text), NULL);
}
