/*
 * keys — what a key does: an open dialog takes every key; otherwise the
 * focused pane's (or the open view's) own keys come first, their result
 * flags saying what to redraw or report, then the global bindings,
 * scrolling, focus, zoom and the mouse. q asks before it stops a planner,
 * a publish or unsent live posts.
 */
#include "ui/ui_int.h"

static unsigned
ui_scroll_key(struct pane *p, int ch)
{
	int *v = p->selectable ? &p->sel : &p->top;
	int page = p->page > 1 ? p->page - 1 : 1;

	switch (ch) {
	case KEY_UP: case 'k':		(*v)--; break;
	case KEY_DOWN: case 'j':	(*v)++; break;
	case KEY_PPAGE:			*v -= page; break;
	case KEY_NPAGE: case ' ':	*v += page; break;
	case KEY_HOME: case 'g':	*v = 0; break;
	case KEY_END: case 'G':		*v = p->nrows; break;
	default:			return PANE_IGNORED;
	}
	if (!p->selectable && *v > p->nrows - p->page)
		*v = p->nrows - p->page;
	if (*v < 0)
		*v = 0;
	if (p->selectable && *v >= p->nrows)
		*v = p->nrows - 1;
	ui_pane_clamp(p);
	return PANE_HANDLED | PANE_REDRAW;
}

static void
ui_focus(struct ui *ui, int f)
{
	ui->focus = (f + PANE_COUNT) % PANE_COUNT;
	ui_relayout(ui);	/* stacked layouts size by focus */
}

static void
ui_mouse(struct ui *ui)
{
	MEVENT ev;
	int hit;

	if (getmouse(&ev) != OK)
		return;
	if (ui->view_open) {	/* the wheel scrolls it; clicks do nothing */
		if (ev.bstate & BUTTON4_PRESSED)
			ui_scroll_key(&ui->view, KEY_UP);
#ifdef BUTTON5_PRESSED
		else if (ev.bstate & BUTTON5_PRESSED)
			ui_scroll_key(&ui->view, KEY_DOWN);
#endif
		ui->dirty = true;
		return;
	}
	hit = layout_hit(&ui->layout, ev.y, ev.x);
	if (hit < 0)
		return;
	if (hit != ui->focus)
		ui_focus(ui, hit);
	if (ev.bstate & BUTTON4_PRESSED)
		ui_scroll_key(&ui->panes[hit], KEY_UP);
#ifdef BUTTON5_PRESSED
	else if (ev.bstate & BUTTON5_PRESSED)
		ui_scroll_key(&ui->panes[hit], KEY_DOWN);
#endif
	ui->dirty = true;
}

static bool
ui_busy_unsent(struct ui *ui)
{
	int i;

	if (!ui->live || !ui->have_plan)
		return false;
	for (i = 0; i < ui->plan.nposts; i++)
		if (ui->posts[i].state != UI_POST_SENT &&
		    ui->posts[i].state != UI_POST_SKIPPED)
			return true;
	return false;
}

static void
ui_quit_yes(struct ui *ui, void *ctx)
{
	ui->quit = true;
}

static void
ui_quit_no(struct ui *ui, void *ctx)
{
	ui_message(ui, THEME_NORMAL, "not quitting");
}

static const struct modal_ops ui_quit_ops = {
	.kind = MODAL_QUIT,
	.subject = DIALOG_NONE,
	.footer = DIALOG_YES_NO,
	.yes = ui_quit_yes,
	.no = ui_quit_no,
};

static void
ui_quit(struct ui *ui)
{
	const char *why = NULL;

	if (ui->planner != NULL)
		why = "The planner is running; quitting stops it.";
	else if (ui->pub_job.running && ui->pub_prep != NULL)
		why = "A post's request is being prepared (nothing is sent).";
	else if (ui->pub_job.running)
		why = "A post is being published right now.";
	else if (ui_busy_unsent(ui))
		why = "Live mode: some planned posts have not been sent.";
	else if (ui->have_plan && ui->plan_unsaved)
		why = "The plan has not been written (:write PLAN.json keeps "
		    "it); quitting loses it.";
	if (why == NULL)
		ui->quit = true;
	else
		dialog_open(ui, &ui_quit_ops, -1, "Quit?", xstrdup(why), NULL);
}

/* A pane's own key: its result flags say what the loop must do. */
static unsigned
ui_pane_key(struct ui *ui, struct pane *p, int ch)
{
	struct pane_out out = { THEME_NORMAL, "" };
	unsigned r;

	if (p->key == NULL)
		return PANE_IGNORED;
	r = p->key(ui, p, ch, &out);
	if (r & PANE_MESSAGE)
		ui_message(ui, out.role, "%s", out.msg);
	if (r & PANE_REDRAW)
		ui->dirty = true;
	if ((r & PANE_ACT) && p->act != NULL)
		p->act(ui, p);
	return r;
}

/* A key while a view is open: its own keys, then closing it, then the
 * keys that make sense over any screen. */
static void
ui_view_key(struct ui *ui, int ch, bool fn)
{
	struct pane *v = &ui->view;

	if (ui_pane_key(ui, v, ch) & PANE_HANDLED)
		return;
	if (fn) {
		ui_scroll_key(v, ch);
		return;
	}
	switch (ch) {
	case 27: case 'q': ui_view_close(ui); break;
	case 3:		ui_quit(ui); break;
	case ':':	cmdline_command(ui); break;
	case '?':	dialog_help(ui); break;
	case 12:	clearok(curscr, TRUE); break;	/* ^L */
	default:	ui_scroll_key(v, ch); break;
	}
}

void
ui_key(struct ui *ui, int ch, bool fn)
{
	struct pane *p = &ui->panes[ui->focus];

	if (fn && ch == KEY_RESIZE) {
		ui_relayout(ui);
		return;
	}
	if (dialog_kind(ui) != MODAL_NONE) {
		dialog_key(ui, ch, fn);
		return;
	}
	if (fn && ch == KEY_MOUSE) {
		ui_mouse(ui);
		return;
	}
	ui->dirty = true;
	if (!fn && ch >= 256)
		return;		/* no key is bound to a non-ASCII character */
	if (ui->view_open) {
		ui_view_key(ui, ch, fn);
		return;
	}
	if (ui_pane_key(ui, p, ch) & PANE_HANDLED)
		return;
	if (fn && ch == KEY_BTAB) {
		ui_focus(ui, ui->focus - 1);
		return;
	}
	if (fn) {
		ui_scroll_key(p, ch);
		return;
	}
	switch (ch) {
	case '\t':	ui_focus(ui, ui->focus + 1); break;
	case 'q': case 3: ui_quit(ui); break;
	case 'z':	ui->zoom = !ui->zoom; ui_relayout(ui); break;
	case 'a':	ui_approve(ui); break;
	case 'p':
		if (ui->planner != NULL)
			ui_plan_stop(ui);
		else
			ui_plan_start(ui);
		break;
	case 27:	ui_plan_stop(ui); break;
	case 's':	ui_synth_start(ui, false); break;
	case 'e':	pane_candidates_edit(ui); break;
	case 'i':	ui->show_alt = !ui->show_alt; ui->dirty = true; break;
	case 'P':	pane_candidates_publish(ui); break;
	case 'R':	runmode_start(ui); break;
	case ':':	cmdline_command(ui); break;
	case '?':	dialog_help(ui); break;
	case 12:	clearok(curscr, TRUE); break;	/* ^L */
	case '1': case '2': case '3': case '4':
		ui_focus(ui, ch - '1');
		break;
	default:
		ui_scroll_key(p, ch);
		break;
	}
}
