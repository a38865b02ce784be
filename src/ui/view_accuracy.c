/*
 * view_accuracy — the `:accuracy` view and the Model pane's backtest
 * line. The figures of the model on screen come, without running
 * unapproved code, from the newest synthesis report that validated its
 * exact bytes (runs/accuracy.h); an approved model without one is
 * measured in a sandbox worker on a background thread, polled by the
 * UI's tick. The view's text is accuracy_lines.c's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/accuracy.h"
#include "runs/worker_validate.h"
#include "ui/accuracy_lines.h"
#include "ui/ui_int.h"

enum acc_state { ACC_NONE, ACC_RUNNING, ACC_DONE, ACC_FAILED };

struct ui_accuracy {
	pthread_mutex_t		 lock;
	pthread_t		 thread;
	enum acc_state		 state;
	bool			 seen;		/* the UI has drawn the outcome */
	bool			 wanted;	/* measure at the next tick */
	char			 sha[65];	/* of the bytes measured */
	char			 source[160];	/* where the figures are from */
	struct validate_report	 rep;
	char			 error[512];
	/* The project the report was computed against, which draws it: the
	 * UI's, or the job's own copy, so that a job the exit leaves running
	 * never reads what the UI has freed. */
	const struct project	*proj;
	struct project		*own;
	char			*src;		/* the job's copy of the bytes */
	size_t			 len;
};

static struct ui_accuracy *
acc_get(struct ui *ui)
{
	if (ui->accuracy == NULL) {
		ui->accuracy = xcalloc(1, sizeof *ui->accuracy);
		pthread_mutex_init(&ui->accuracy->lock, NULL);
	}
	return ui->accuracy;
}

static void *
acc_thread(void *arg)
{
	struct ui_accuracy *a = arg;
	struct worker_validate_job vj = { .project_dir = a->proj->dir,
	    .src = a->src, .len = a->len };
	struct validate_report rep;
	struct error err = { 0 };
	int rc;

	rc = worker_validate_report(&vj, a->proj, &rep, &err);
	pthread_mutex_lock(&a->lock);
	if (rc == 0) {
		a->rep = rep;
		a->state = ACC_DONE;
	} else {
		snprintf(a->error, sizeof a->error, "%s", err.msg);
		a->state = ACC_FAILED;
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static enum acc_state
acc_state(struct ui_accuracy *a)
{
	enum acc_state st;

	pthread_mutex_lock(&a->lock);
	st = a->state;
	pthread_mutex_unlock(&a->lock);
	return st;
}

/* Joins a finished job; false while one runs. */
static bool
acc_idle(struct ui_accuracy *a)
{
	if (acc_state(a) == ACC_RUNNING)
		return false;
	if (a->src != NULL) {
		pthread_join(a->thread, NULL);
		free(a->src);
		a->src = NULL;
	}
	return true;
}

void
ui_accuracy_model(struct ui *ui)
{
	struct ui_accuracy *a;

	if (ui->proj == NULL)
		return;		/* no project, nothing to measure against */
	a = acc_get(ui);
	if (!acc_idle(a))
		return;	/* ui_accuracy_poll starts over for the new bytes */
	if (a->state == ACC_DONE)
		validate_report_free(&a->rep);
	project_free(a->own);
	a->own = NULL;
	a->proj = ui->proj;
	a->state = ACC_NONE;
	a->seen = a->wanted = false;
	a->error[0] = a->source[0] = '\0';
	snprintf(a->sha, sizeof a->sha, "%s", ui->model_sha);
	if (ui->model_sha[0] == '\0' || !ui->gate_ran ||
	    !ui->gate.accepted)
		return;
	if (accuracy_from_synth(ui->proj, ui->model_sha, &a->rep, a->source,
	    sizeof a->source) == 0)
		a->state = ACC_DONE;
	else
		a->wanted = ui->approved;
}

/* The worker run of an approved model without a synthesis report,
 * started from the UI's tick, never from a key handler. */
static void
acc_start(struct ui *ui, struct ui_accuracy *a)
{
	struct error err = { 0 };

	a->wanted = false;
	snprintf(a->source, sizeof a->source, "a run in the sandbox worker");
	if (project_load(ui->proj->dir, &a->own, &err) != 0) {
		a->state = ACC_FAILED;
		snprintf(a->error, sizeof a->error, "%s", err.msg);
		return;
	}
	a->proj = a->own;
	a->src = xmalloc(ui->model_len + 1);
	memcpy(a->src, ui->model_src, ui->model_len);
	a->len = ui->model_len;
	a->state = ACC_RUNNING;
	if (pthread_create(&a->thread, NULL, acc_thread, a) != 0) {
		free(a->src);
		a->src = NULL;
		a->state = ACC_FAILED;
		snprintf(a->error, sizeof a->error, "cannot start a thread");
	}
}

/* A finished measurement of the model on screen holds its checks: keep
 * them by sha256 (as `fronts validate` does) and start a plan that
 * waited for them. */
static void
acc_conformance(struct ui *ui, struct ui_accuracy *a)
{
	struct error err = { 0 };
	cJSON *j;

	if (strcmp(a->sha, ui->model_sha) != 0)
		return;
	if (a->state == ACC_DONE && a->rep.nchecks > 0 &&
	    ui->conform.state == CONFORM_UNKNOWN) {
		j = validate_report_json(a->proj, &a->rep);
		if (conform_keep(ui->dir, a->sha, j, &ui->conform, &err) != 0)
			ui_message(ui, THEME_WARN, "conformance not kept: %s",
			    err.msg);
		cJSON_Delete(j);
	}
	if (!ui->plan_pending)
		return;
	if (ui->conform.state != CONFORM_UNKNOWN)
		ui_plan_start(ui);
	else if (a->state == ACC_FAILED) {
		ui->plan_pending = false;
		ui_message(ui, THEME_ERROR, "plan refused: the conformance "
		    "checks could not run: %s", a->error);
	}
}

void
ui_accuracy_want(struct ui *ui)
{
	struct ui_accuracy *a = ui->accuracy;

	if (a == NULL || !acc_idle(a))
		return;
	if (a->state == ACC_DONE && a->rep.nchecks > 0)
		acc_conformance(ui, a);
	else
		a->wanted = true;
}

bool
ui_accuracy_poll(struct ui *ui)
{
	struct ui_accuracy *a = ui->accuracy;
	bool moved = false;

	if (a == NULL || !acc_idle(a))
		return false;
	if (strcmp(a->sha, ui->model_sha) != 0) {
		ui_accuracy_model(ui);	/* the model changed while measuring */
		return true;
	}
	if (a->wanted && ui->approved && ui->model_src != NULL) {
		acc_start(ui, a);
		return true;
	}
	pthread_mutex_lock(&a->lock);
	if (!a->seen && a->state != ACC_NONE) {
		a->seen = true;
		moved = true;
	}
	pthread_mutex_unlock(&a->lock);
	if (moved)
		acc_conformance(ui, a);
	return moved;
}

void
ui_accuracy_free(struct ui *ui)
{
	struct ui_accuracy *a = ui->accuracy;

	if (a == NULL)
		return;
	/* A job still running is left to the process's exit, which takes
	 * its worker with it (PR_SET_PDEATHSIG): waiting could take the
	 * worker's whole deadline. */
	if (!acc_idle(a)) {
		pthread_detach(a->thread);
		ui->accuracy = NULL;
		return;
	}
	if (a->state == ACC_DONE)
		validate_report_free(&a->rep);
	project_free(a->own);
	pthread_mutex_destroy(&a->lock);
	free(a);
	ui->accuracy = NULL;
}

const char *
ui_accuracy_line(struct ui *ui, char *buf, size_t len, int *role)
{
	struct ui_accuracy *a = ui->accuracy;

	*role = THEME_DIM;
	if (a == NULL || acc_state(a) == ACC_NONE) {
		snprintf(buf, len, "backtest: %s", !ui->gate_ran ||
		    !ui->gate.accepted ? "none (the gate refused it)" :
		    ui->approved ? "about to measure it in the sandbox…" :
		    "not measured yet (unapproved: `fronts synth` measures "
		    "its candidates; approve to measure it here)");
		return buf;
	}
	pthread_mutex_lock(&a->lock);
	if (a->state == ACC_RUNNING)
		snprintf(buf, len, "backtest: measuring in the sandbox…");
	else if (a->state == ACC_FAILED)
		snprintf(buf, len, "backtest: could not run: %s", a->error);
	else {
		accuracy_summary(&a->rep.backtest, buf, len);
		*role = a->rep.backtest.beats_baselines ? THEME_OK : THEME_WARN;
	}
	pthread_mutex_unlock(&a->lock);
	return buf;
}

/* ---- the view ------------------------------------------------------ */

static void
acc_row(struct ui *ui, struct pane *v, WINDOW *w, int h, int width, int *y,
    const char *s, int role)
{
	if (*y - v->top >= 0 && *y - v->top < h - 2)
		ui_put(ui, w, 1 + *y - v->top, 1, width - 2, s, strlen(s), role);
	(*y)++;
}

/* The title, where the figures come from (or why there are none), then
 * the figures, the scatter and the heatmaps. */
static void
acc_draw(struct ui *ui, struct pane *v, WINDOW *w, int h, int width)
{
	struct ui_accuracy *a = ui->accuracy;
	struct acc_lines l = { 0 };
	char line[512];
	int role, i, y = 0, sw = width - 16, sh = h / 3;

	/* DONE is final: the job has ended and writes nothing more */
	ui_accuracy_line(ui, line, sizeof line, &role);
	if (a != NULL && acc_state(a) == ACC_DONE) {
		accuracy_lines(a->proj, &a->rep.backtest, sw < 20 ? 20 :
		    sw > 72 ? 72 : sw, sh < 6 ? 6 : sh > 20 ? 20 : sh, &l);
		snprintf(line, sizeof line, "  figures from %s (model %.12s…)",
		    a->source, a->sha);
		role = THEME_DIM;
	}
	acc_row(ui, v, w, h, width, &y, l.n > 0 ? l.line[0] : "Accuracy",
	    THEME_HEADING);
	acc_row(ui, v, w, h, width, &y, line, role);
	for (i = 1; i < l.n; i++)
		acc_row(ui, v, w, h, width, &y, l.line[i], THEME_NORMAL);
	v->nrows = y;
	v->page = h - 2;
	accuracy_lines_free(&l);
}

int
view_accuracy_open(struct ui *ui, struct pane *v)
{
	v->title = "Accuracy";
	v->hint = "↑↓ PgUp PgDn scroll  Esc/q close";
	v->draw = acc_draw;
	if (ui->accuracy == NULL)
		ui_accuracy_model(ui);
	return 0;
}
