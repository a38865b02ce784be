/*
 * plan_state — the planner run from the TUI and the plan it shows: the
 * search started with the approved model, its snapshot polled on every
 * tick, and the finished plan handed to the Candidates pane (each new
 * plan a new generation, which dialogs about a post are bound to).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui_int.h"

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

bool
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
	ui->plan_unsaved = true;
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
