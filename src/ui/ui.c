/*
 * ui — the process-wide UI singleton and its event loop: terminal set-up
 * and restore (also on fatal signals), theme to colour pairs, layout to
 * windows, drawing, and the ~10 Hz tick that polls the planner's snapshot
 * and the background jobs while waiting for a key.
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sandbox/approval.h"
#include "sandbox/guard.h"
#include "ui/textw.h"
#include "ui/ui.h"

#define UI_TICK_MS	100

static struct ui ui_g;			/* the singleton */
static volatile sig_atomic_t ui_curses_on;

/* ---- terminal restore ------------------------------------------------ */

static void
ui_fatal_signal(int sig)
{
	if (ui_curses_on)
		endwin();
	ui_curses_on = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A model call under --isolation thread that the guard's backstop had to
 * end: the terminal is given back before the process exits with 4. */
static void
ui_overrun(const char *msg)
{
	if (ui_curses_on)
		endwin();
	ui_curses_on = 0;
	fprintf(stderr, "fronts: %s\n", msg);
	_exit(EXIT_MODEL);
}

static void
ui_signals(void)
{
	const int sigs[] = { SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS,
	    SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ui_fatal_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* ---- jobs ------------------------------------------------------------ */

void
ui_job_init(struct ui_job *j)
{
	memset(j, 0, sizeof *j);
	pthread_mutex_init(&j->lock, NULL);
}

int
ui_job_start(struct ui_job *j, void *(*fn)(void *), void *arg)
{
	pthread_mutex_lock(&j->lock);
	j->done = false;
	j->rc = 0;
	memset(&j->err, 0, sizeof j->err);
	j->progress[0] = '\0';
	pthread_mutex_unlock(&j->lock);
	if (pthread_create(&j->thread, NULL, fn, arg) != 0)
		return -1;
	j->running = true;
	return 0;
}

bool
ui_job_reap(struct ui_job *j)
{
	bool done;

	if (!j->running)
		return false;
	pthread_mutex_lock(&j->lock);
	done = j->done;
	pthread_mutex_unlock(&j->lock);
	if (!done)
		return false;
	pthread_join(j->thread, NULL);
	j->running = false;
	return true;
}

void
ui_job_progress(struct ui_job *j, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&j->lock);
	va_start(ap, fmt);
	vsnprintf(j->progress, sizeof j->progress, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&j->lock);
}

void
ui_job_finish(struct ui_job *j, int rc, const struct error *err)
{
	pthread_mutex_lock(&j->lock);
	j->rc = rc;
	if (err != NULL)
		j->err = *err;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
}

/* ---- messages and drawing helpers ------------------------------------ */

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

/* ---- theme ----------------------------------------------------------- */

static void
ui_theme_apply(struct ui *ui)
{
	const struct theme_style *st;
	attr_t a;
	int i, force;

	ui->ncolors = 0;
	if (has_colors() && getenv("NO_COLOR") == NULL) {
		start_color();
		use_default_colors();
		ui->ncolors = COLORS;
	}
	for (i = 0; i < THEME_COUNT; i++) {
		st = &ui->theme.style[i];
		a = 0;
		a |= st->attrs & THEME_A_BOLD ? A_BOLD : 0;
		a |= st->attrs & THEME_A_DIM ? A_DIM : 0;
		a |= st->attrs & THEME_A_UNDERLINE ? A_UNDERLINE : 0;
		a |= st->attrs & THEME_A_REVERSE ? A_REVERSE : 0;
		a |= st->attrs & THEME_A_STANDOUT ? A_STANDOUT : 0;
		if (ui->ncolors > 0 && i + 1 < COLOR_PAIRS) {
			init_pair((short)(i + 1),
			    theme_color_fit(st->fg, ui->ncolors),
			    theme_color_fit(st->bg, ui->ncolors));
			a |= COLOR_PAIR(i + 1);
		} else {
			/* Without colour these must still stand out. */
			force = i == THEME_DRYRUN || i == THEME_LIVE ||
			    i == THEME_SELECTED || i == THEME_TITLE_FOCUS ||
			    i == THEME_STATUS || i == THEME_VERDICT;
			if (force)
				a |= A_REVERSE;
			if (i == THEME_LIVE || i == THEME_DRYRUN)
				a |= A_BOLD;
		}
		ui->attr[i] = a;
	}
}

int
ui_set_theme(struct ui *ui, const char *name, struct error *err)
{
	struct theme t;
	int i;

	if (theme_load(&t, name, err) != 0)
		return -1;
	ui->theme = t;
	if (ui_curses_on) {
		ui_theme_apply(ui);
		for (i = 0; i < PANE_COUNT; i++)
			if (ui->win[i] != NULL)
				wbkgdset(ui->win[i], ' ' | ui->attr[THEME_NORMAL]);
		if (ui->status != NULL)
			wbkgdset(ui->status, ' ' | ui->attr[THEME_STATUS]);
		clearok(curscr, TRUE);
		ui->dirty = true;
	}
	return 0;
}

/* The theme named in $XDG_CONFIG_HOME/fronts/config ("theme = NAME"). */
static char *
ui_config_theme(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char path[4096], line[256], *k, *v, *e, *out = NULL;
	FILE *f;

	if (xdg != NULL && *xdg != '\0')
		snprintf(path, sizeof path, "%s/fronts/config", xdg);
	else if (home != NULL)
		snprintf(path, sizeof path, "%s/.config/fronts/config", home);
	else
		return NULL;
	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	while (out == NULL && fgets(line, sizeof line, f) != NULL) {
		if ((v = strchr(line, '=')) == NULL || line[0] == '#')
			continue;
		*v++ = '\0';
		for (k = line; *k == ' ' || *k == '\t'; k++)
			;
		for (e = k + strlen(k); e > k && (e[-1] == ' ' ||
		    e[-1] == '\t'); )
			*--e = '\0';
		v += strspn(v, " \t");
		v[strcspn(v, " \t\r\n")] = '\0';
		if (strcmp(k, "theme") == 0 && *v != '\0')
			out = xstrdup(v);
	}
	fclose(f);
	return out;
}

/* ---- layout and drawing ---------------------------------------------- */

void
ui_relayout(struct ui *ui)
{
	const struct rect *r;
	int i;

	layout_compute(LINES, COLS, ui->focus, ui->zoom, &ui->layout);
	for (i = 0; i < PANE_COUNT; i++) {
		if (ui->win[i] != NULL)
			delwin(ui->win[i]);
		ui->win[i] = NULL;
		r = &ui->layout.pane[i];
		if (!ui->layout.visible[i])
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
ui_frame(struct ui *ui, struct pane *p, WINDOW *w, int h, int width)
{
	bool focus = ui->focus == (int)p->id;
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

void
ui_redraw(struct ui *ui)
{
	struct pane *p;
	WINDOW *w;
	int i, h, width, top;

	for (i = 0; i < PANE_COUNT; i++) {
		if ((w = ui->win[i]) == NULL)
			continue;
		p = &ui->panes[i];
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
		ui_frame(ui, p, w, h, width);
		wnoutrefresh(w);
	}
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

/* ---- model ----------------------------------------------------------- */

static void
ui_model_clear(struct ui *ui)
{
	free(ui->model_src);
	ui->model_src = NULL;
	ui->model_len = 0;
	if (ui->gate_ran)
		gate_result_free(&ui->gate);
	memset(&ui->gate, 0, sizeof ui->gate);
	ui->gate_ran = false;
	ui->gate_error[0] = '\0';
	ui->model_sha[0] = '\0';
	ui->approved = false;
}

void
ui_load_model(struct ui *ui, const char *path)
{
	struct error err = { 0 };
	char *copy = xstrdup(path);

	ui_model_clear(ui);
	free(ui->model_path);
	ui->model_path = copy;
	ui->panes[PANE_MODEL].top = 0;
	ui->dirty = true;
	if (file_read(path, &ui->model_src, &ui->model_len, &err) != 0) {
		snprintf(ui->gate_error, sizeof ui->gate_error, "%s", err.msg);
		return;
	}
	sha256_hex(ui->model_src, ui->model_len, ui->model_sha);
	if (gate_check_source(ui->model_src, ui->model_len, &ui->gate,
	    &err) != 0)
		snprintf(ui->gate_error, sizeof ui->gate_error, "gate: %s",
		    err.msg);
	else
		ui->gate_ran = true;
	ui->approved = approval_is_approved(ui->dir, ui->model_sha);
}

/* ---- planner --------------------------------------------------------- */

static void *
ui_plan_waiter(void *arg)
{
	struct ui *ui = arg;
	struct error err = { 0 };
	int rc;

	rc = planner_wait(ui->planner, &ui->job_plan, &err);
	ui_job_finish(&ui->plan_job, rc, &err);
	return NULL;
}

void
ui_plan_start(struct ui *ui)
{
	struct error err = { 0 };

	if (ui->planner != NULL) {
		ui_message(ui, THEME_WARN, "the planner is already running "
		    "(p or Esc stops it)");
		return;
	}
	if (ui->model_src == NULL) {
		ui_message(ui, THEME_ERROR, "no model to plan with: %s",
		    ui->gate_error[0] ? ui->gate_error : "press s to synthesise");
		return;
	}
	if (!ui->gate_ran || !ui->gate.accepted) {
		ui_message(ui, THEME_ERROR, "the gate refused this model; it "
		    "cannot run");
		return;
	}
	if (!ui->approved) {
		ui_message(ui, THEME_ERROR, "the model is not approved: read "
		    "it, then press a");
		return;
	}
	memset(&ui->job_plan, 0, sizeof ui->job_plan);
	if (planner_start(ui->proj, ui->model_src, ui->model_len, &ui->params,
	    &ui->planner, &err) != 0) {
		ui->planner = NULL;
		ui_message(ui, THEME_ERROR, "planner: %s", err.msg);
		return;
	}
	if (ui_job_start(&ui->plan_job, ui_plan_waiter, ui) != 0) {
		planner_stop(ui->planner);
		ui_message(ui, THEME_ERROR, "planner: cannot start a thread");
		return;
	}
	memset(ui->snap, 0, sizeof *ui->snap);
	ui->snap->state = SEARCH_RUNNING;
	ui->have_snap = true;
	ui->focus = PANE_SEARCH;
	ui->panes[PANE_SEARCH].sel = 0;
	ui_relayout(ui);
	if (ui->params.iterations > 0)
		ui_message(ui, THEME_OK, "planning: %llu iterations, %d "
		    "worker%s, seed %llu", (unsigned long long)
		    ui->params.iterations, ui->params.workers,
		    ui->params.workers == 1 ? "" : "s",
		    (unsigned long long)ui->params.seed);
	else
		ui_message(ui, THEME_OK, "planning: %.0f s, %d worker%s, seed "
		    "%llu", ui->params.seconds, ui->params.workers,
		    ui->params.workers == 1 ? "" : "s",
		    (unsigned long long)ui->params.seed);
}

void
ui_plan_stop(struct ui *ui)
{
	if (ui->planner == NULL)
		return;
	planner_stop(ui->planner);
	ui_message(ui, THEME_WARN, "stopping the planner…");
}

void
ui_set_plan(struct ui *ui, struct plan *pl)
{
	if (ui->have_plan)
		plan_free(&ui->plan);
	free(ui->posts);
	ui->plan = *pl;
	memset(pl, 0, sizeof *pl);
	ui->have_plan = true;
	ui->plan_gen++;
	ui->posts = xcalloc((size_t)ui->plan.nposts + 1, sizeof *ui->posts);
	ui->panes[PANE_CANDIDATES].sel = 0;
	ui->panes[PANE_CANDIDATES].top = 0;
	ui->dirty = true;
}

/*
 * What the operator must read with a finished plan: posts the legality
 * re-check refused and workers whose trees a stop lost. The CLI prints the
 * same sentences on stderr; here the first of them goes on the status line.
 */
static void
ui_plan_caveat(struct planner *pr, char *buf, size_t len)
{
	char *const *lines;
	int nd, nn;

	buf[0] = '\0';
	nd = planner_dropped(pr, &lines);
	if (nd > 0) {
		snprintf(buf, len, "%d post%s refused by the legality re-check"
		    " (%s)", nd, nd == 1 ? "" : "s", lines[0]);
		return;
	}
	nn = planner_notes(pr, &lines);
	if (nn > 0)
		snprintf(buf, len, "%s", lines[0]);
}

static bool
ui_plan_poll(struct ui *ui)
{
	struct plan_job_err { int rc; struct error err; } r;
	char caveat[512];

	if (ui->planner == NULL)
		return false;
	planner_snapshot(ui->planner, ui->snap);
	if (!ui_job_reap(&ui->plan_job))
		return true;
	r.rc = ui->plan_job.rc;
	r.err = ui->plan_job.err;
	planner_snapshot(ui->planner, ui->snap);
	ui_plan_caveat(ui->planner, caveat, sizeof caveat);
	planner_free(ui->planner);
	ui->planner = NULL;
	if (r.rc != 0) {
		/* A dead worker, a model error, a refused post: shown, kept. */
		ui->snap->state = SEARCH_FAILED;
		snprintf(ui->snap->error, sizeof ui->snap->error, "%s",
		    r.err.msg);
		plan_free(&ui->job_plan);
		ui_message(ui, THEME_ERROR, "planner failed: %s", r.err.msg);
		return true;
	}
	if (ui->snap->state == SEARCH_RUNNING)
		ui->snap->state = SEARCH_DONE;
	if (ui->job_plan.nposts == 0 && ui->have_plan) {
		/* Stopped before it found anything: keep what was there. */
		plan_free(&ui->job_plan);
		ui_message(ui, THEME_WARN, "the planner ended without a post; "
		    "the previous plan stays");
		return true;
	}
	ui_set_plan(ui, &ui->job_plan);
	if (caveat[0] != '\0') {
		ui_message(ui, THEME_WARN, "plan ready: %d post%s, expected total"
		    " %.1f — %s", ui->plan.nposts,
		    ui->plan.nposts == 1 ? "" : "s", ui->plan.expected_total,
		    caveat);
		return true;
	}
	ui_message(ui, THEME_OK, "plan ready: %d post%s, expected total %.1f"
	    " — select one, P publishes", ui->plan.nposts,
	    ui->plan.nposts == 1 ? "" : "s", ui->plan.expected_total);
	return true;
}

/* ---- tick and keys --------------------------------------------------- */

bool
ui_tick(struct ui *ui)
{
	bool moved = false;

	moved |= ui_plan_poll(ui);
	moved |= ui_jobs_poll(ui);
	if (moved)
		ui->dirty = true;
	return moved;
}

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
		if (ui->posts[i].state != UI_POST_SENT)
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
	.footer = "y: yes   any other key: no",
	.yes = ui_quit_yes,
	.no = ui_quit_no,
};

static void
ui_quit(struct ui *ui)
{
	const char *why = NULL;

	if (ui->planner != NULL)
		why = "The planner is running; quitting stops it.";
	else if (ui->pub_job.running)
		why = "A post is being published right now.";
	else if (ui_busy_unsent(ui))
		why = "Live mode: some planned posts have not been sent.";
	if (why == NULL)
		ui->quit = true;
	else
		dialog_open(ui, &ui_quit_ops, -1, "Quit?", xstrdup(why), NULL);
}

/* The model's sha is the one the dialog showed: the binding checked it. */
static void
ui_approve_yes(struct ui *ui, void *ctx)
{
	struct error err = { 0 };

	if (approval_add(ui->dir, ui->model_sha, &err) != 0) {
		ui_message(ui, THEME_ERROR, "approve: %s", err.msg);
		return;
	}
	ui->approved = true;
	ui_message(ui, THEME_OK, "approved %.12s…", ui->model_sha);
}

static void
ui_approve_no(struct ui *ui, void *ctx)
{
	ui_message(ui, THEME_NORMAL, "not approved");
}

static const struct modal_ops ui_approve_ops = {
	.kind = MODAL_APPROVE,
	.subject = DIALOG_MODEL,
	.footer = "y: yes   any other key: no",
	.refused = "approved",
	.yes = ui_approve_yes,
	.no = ui_approve_no,
};

void
ui_approve(struct ui *ui)
{
	char *body;

	if (ui->model_src == NULL) {
		ui_message(ui, THEME_ERROR, "no model to approve");
		return;
	}
	if (!ui->gate_ran || !ui->gate.accepted) {
		ui_message(ui, THEME_ERROR, "refused: the gate rejected it; it "
		    "cannot be approved");
		return;
	}
	if (ui->approved) {
		ui_message(ui, THEME_OK, "this model is already approved");
		return;
	}
	xasprintf(&body, "Approve %s to run?\n\nsha256 %s\n"
	    "(%zu bytes, %s)\n\nApprove only code you have read. "
	    "y approves; any other key cancels.", ui->model_path,
	    ui->model_sha, ui->model_len, "gate: accepted");
	dialog_open(ui, &ui_approve_ops, -1, "Approve model", body, NULL);
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
	return r;
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
	case 's':	ui_synth_start(ui); break;
	case 'e':	pane_candidates_edit(ui); break;
	case 'P':	pane_candidates_publish(ui); break;
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

/* ---- set-up and loop ------------------------------------------------- */

static void
ui_curses_start(struct ui *ui)
{
	use_tioctl(TRUE);	/* the terminal's size over a stale $LINES */
	initscr();
	ui_curses_on = 1;
	guard_set_overrun(ui_overrun);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(UI_TICK_MS);
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
	mouseinterval(0);
	ui_theme_apply(ui);
	ui_relayout(ui);
}

static void
ui_curses_end(struct ui *ui)
{
	int i;

	for (i = 0; i < PANE_COUNT; i++)
		if (ui->win[i] != NULL)
			delwin(ui->win[i]);
	if (ui->status != NULL)
		delwin(ui->status);
	endwin();
	ui_curses_on = 0;
}

static void
ui_defaults(struct ui *ui)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	ui->params.iterations = 20000;
	ui->params.seconds = 0;
	ui->params.seed = 1;
	ui->params.workers = n > 0 ? (int)n : 1;
	ui->params.isolation = ISOLATION_PROCESS;
	ui->params.call_timeout_ms = 1000;
	ui->params.uct_c = 0;
	pane_rules_init(&ui->panes[PANE_RULES]);
	pane_model_init(&ui->panes[PANE_MODEL]);
	pane_search_init(&ui->panes[PANE_SEARCH]);
	pane_candidates_init(&ui->panes[PANE_CANDIDATES]);
	ui_job_init(&ui->plan_job);
	ui_job_init(&ui->synth_job);
	ui_job_init(&ui->pub_job);
	ui->snap = xcalloc(1, sizeof *ui->snap);
	ui->focus = PANE_MODEL;
}

static void
ui_shutdown(struct ui *ui)
{
	if (ui->planner != NULL) {
		planner_stop(ui->planner);
		while (!ui_job_reap(&ui->plan_job))
			usleep(10000);
		plan_free(&ui->job_plan);
		planner_free(ui->planner);
		ui->planner = NULL;
	}
	dialog_close(ui);
	ui_jobs_shutdown(ui);
	if (ui->have_plan)
		plan_free(&ui->plan);
	free(ui->posts);
	ui_model_clear(ui);
	free(ui->model_path);
	free(ui->snap);
	free(ui->dir);
	project_free(ui->proj);
}

static void
ui_loop(struct ui *ui)
{
	wint_t wch;
	int rc;

	while (!ui->quit) {
		if (ui->dirty)
			ui_redraw(ui);
		rc = wget_wch(stdscr, &wch);
		if (rc == ERR) {
			ui_tick(ui);
			continue;
		}
		ui_key(ui, (int)wch, rc == KEY_CODE_YES);
		ui_tick(ui);
	}
}

int
ui_run(struct cli *cli, const char *theme, bool live)
{
	struct ui *ui = &ui_g;
	struct error err = { 0 };
	char *path, *conf = NULL;

	memset(ui, 0, sizeof *ui);
	ui->cli = cli;
	ui->live = live;
	ui->dir = xstrdup(cli->dir);
	ui_defaults(ui);
	if (project_load(ui->dir, &ui->proj, &err) != 0) {
		ui_shutdown(ui);
		return cli_report("tui", &err);
	}
	theme_default(&ui->theme);
	if (theme == NULL)
		theme = conf = ui_config_theme();
	if (theme != NULL && ui_set_theme(ui, theme, &err) != 0) {
		free(conf);
		ui_shutdown(ui);
		return cli_report("tui", &err);
	}
	free(conf);
	path = path_join(ui->dir, "model.py");
	ui_load_model(ui, path);
	free(path);
	cmdline_init();
	setlocale(LC_ALL, "");
	ui_signals();
	ui_curses_start(ui);
	ui_message(ui, THEME_NORMAL, "%s — p plans, a approves, ? shows "
	    "every key, q quits", ui->proj->name);
	ui_loop(ui);
	ui_curses_end(ui);
	cmdline_end();
	ui_shutdown(ui);
	return EXIT_OK;
}
