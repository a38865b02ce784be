/*
 * ui — the process-wide UI singleton and its one event loop: set-up from
 * the project, the theme and the model, then keys and the ~10 Hz tick that
 * polls the planner's snapshot and the background jobs while waiting for
 * a key, and the shutdown that lets running work end.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/ui.h"
#include "ui/ui_int.h"

static struct ui ui_g;			/* the singleton */

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

/* One pass of background polling (planner, jobs); true if anything moved. */
static bool
ui_tick(struct ui *ui)
{
	bool moved = false;

	moved |= ui_plan_poll(ui);
	moved |= ui_jobs_poll(ui);
	if (moved)
		ui->dirty = true;
	return moved;
}

static void
ui_defaults(struct ui *ui)
{
	search_params_default(&ui->params);
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
	ui_view_close(ui);
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
ui_run(const struct ui_args *a, struct error *err)
{
	struct ui *ui = &ui_g;
	const char *theme = a->theme;
	char *path, *conf = NULL;

	memset(ui, 0, sizeof *ui);
	ui->live = a->live;
	ui->notify = a->notify;
	ui->dir = xstrdup(a->dir);
	ui_defaults(ui);
	if (project_load(ui->dir, &ui->proj, err) != 0) {
		ui_shutdown(ui);
		return -1;
	}
	theme_default(&ui->theme);
	if (theme == NULL)
		theme = conf = ui_config_theme();
	if (theme != NULL && ui_set_theme(ui, theme, err) != 0) {
		free(conf);
		ui_shutdown(ui);
		return -1;
	}
	free(conf);
	path = path_join(ui->dir, "model.py");
	ui_load_model(ui, path);
	free(path);
	cmdline_init();
	/* The terminal's character set for curses; numbers and dates stay
	 * as the CLI writes and reads them (a decimal comma would change
	 * what strtod reads from a server's answer). */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	setlocale(LC_TIME, "C");
	ui_term_start(ui);
	ui_message(ui, THEME_NORMAL, "%s — p plans, a approves, ? shows "
	    "every key, q quits", ui->proj->name);
	ui_loop(ui);
	ui_term_end(ui);
	cmdline_end();
	ui_shutdown(ui);
	return 0;
}
