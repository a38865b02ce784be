/*
 * term — the terminal under the TUI: curses set-up and restore (also on
 * fatal signals and on a model call the guard's backstop ends), and the
 * theme turned into colour pairs and attributes for what it can show.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/guard.h"
#include "ui/ui_int.h"

#define UI_TICK_MS	100

static volatile sig_atomic_t ui_curses_on;

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
		if (ui->view_win != NULL)
			wbkgdset(ui->view_win, ' ' | ui->attr[THEME_NORMAL]);
		clearok(curscr, TRUE);
		ui->dirty = true;
	}
	return 0;
}

bool
ui_term_on(void)
{
	return ui_curses_on != 0;
}

void
ui_term_start(struct ui *ui)
{
	ui_signals();
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

void
ui_term_end(struct ui *ui)
{
	int i;

	for (i = 0; i < PANE_COUNT; i++)
		if (ui->win[i] != NULL)
			delwin(ui->win[i]);
	if (ui->status != NULL)
		delwin(ui->status);
	if (ui->view_win != NULL)
		delwin(ui->view_win);
	endwin();
	ui_curses_on = 0;
}
