/*
 * statusline — the bottom line: project, model state, planner state, the
 * last message, and the DRY-RUN / LIVE badge, which is always drawn so it
 * cannot be scrolled or squeezed away.
 */
#include <stdio.h>
#include <string.h>

#include "ui/textw.h"
#include "ui/view.h"
#include "ui/ui_int.h"

static const char *
statusline_model(struct ui *ui, int *role)
{
	*role = THEME_ERROR;
	if (ui->model_src == NULL)
		return "no model";
	if (!ui->gate_ran)
		return "gate error";
	if (!ui->gate.accepted)
		return "REFUSED";
	if (!ui->approved) {
		*role = THEME_WARN;
		return "unapproved";
	}
	*role = THEME_OK;
	return "approved";
}

static void
statusline_planner(struct ui *ui, char *buf, size_t len, int *role)
{
	char it[16];

	*role = THEME_STATUS;
	if (ui->synth_job.running) {
		snprintf(buf, len, "synth: %s", ui->synth_seen);
		return;
	}
	if (!ui->have_snap) {
		snprintf(buf, len, "planner idle");
		return;
	}
	view_count(ui->snap->iterations, it, sizeof it);
	if (ui->snap->state == SEARCH_FAILED)
		*role = THEME_ERROR;
	snprintf(buf, len, "planner %s %s it",
	    view_search_state(ui->snap->state), it);
}

void
statusline_draw(struct ui *ui, WINDOW *w, int width)
{
	const char *badge = ui->live ? " LIVE " : " DRY-RUN ";
	const char *model;
	char plan[128];
	int x = 0, bw, role, prole, avail;

	bw = (int)strlen(badge);
	ui_fill(ui, w, 0, 0, width, THEME_STATUS);
	avail = width - bw - 1;
	x += ui_putf(ui, w, 0, x, avail - x, THEME_STATUS, " %s │ model ",
	    ui->proj->name);
	model = statusline_model(ui, &role);
	x += ui_put(ui, w, 0, x, avail - x, model, strlen(model), role);
	statusline_planner(ui, plan, sizeof plan, &prole);
	x += ui_put(ui, w, 0, x, avail - x, " │ ", 5, THEME_STATUS);
	x += ui_put(ui, w, 0, x, avail - x, plan, strlen(plan), prole);
	if (runmode_line(ui) != NULL) {
		x += ui_put(ui, w, 0, x, avail - x, " │ ", 5, THEME_STATUS);
		x += ui_put(ui, w, 0, x, avail - x, runmode_line(ui),
		    strlen(runmode_line(ui)), THEME_WARN);
	}
	if (ui->msg[0] != '\0') {
		x += ui_put(ui, w, 0, x, avail - x, " │ ", 5, THEME_STATUS);
		x += ui_put(ui, w, 0, x, avail - x, ui->msg, strlen(ui->msg),
		    ui->msg_role == THEME_NORMAL ? THEME_STATUS : ui->msg_role);
	}
	ui_put(ui, w, 0, width - bw, bw, badge, (size_t)bw,
	    ui->live ? THEME_LIVE : THEME_DRYRUN);
}
