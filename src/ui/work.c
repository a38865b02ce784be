/*
 * work — the TUI's background jobs besides the planner, polled from the
 * UI thread: publishing (pubjob.c) and synthesis, which runs
 * runs/synth_job.h on a thread of its own (the same provider choice,
 * recordings, gate and sandboxed validation as `fronts synth`) and shows
 * its progress lines.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runs/synth_job.h"
#include "ui/ui_int.h"

/* ---- synthesis ------------------------------------------------------- */

/* On the synthesis thread: each line becomes the job's progress, which
 * the status line shows through termsafe (textw.c). */
static void
work_synth_progress(void *arg, const char *line)
{
	ui_job_progress(arg, "%s", line);
}

static void *
work_synth_thread(void *arg)
{
	struct ui *ui = arg;
	struct ui_job *j = &ui->synth_job;
	struct synth_job_opts o = { .dir = ui->dir,
	    .provider = ui->synth_builtin ? "builtin" : NULL,
	    .progress = work_synth_progress, .progress_arg = j,
	    .cancel = &ui->synth_cancel };
	struct synth_job_result r;
	struct error err = { 0 };
	int rc;

	rc = synth_job_run(ui->synth_proj, &o, &r, &err);
	synth_job_result_free(&r);
	ui_job_finish(j, rc == 0 ? 0 : err.code != 0 ? err.code : EXIT_ERROR,
	    &err);
	return NULL;
}

void
ui_synth_start(struct ui *ui, bool builtin)
{
	struct error err = { 0 };

	if (ui->synth_job.running) {
		ui_message(ui, THEME_WARN, "synthesis is already running");
		return;
	}
	ui->synth_seen[0] = '\0';
	ui->synth_builtin = builtin;
	/* Loaded here, as the accuracy view's is: the thread reads its own
	 * copy while the UI's may be reloaded under it. */
	project_free(ui->synth_proj);
	if (project_load(ui->dir, &ui->synth_proj, &err) != 0) {
		ui->synth_proj = NULL;
		ui_message(ui, THEME_ERROR, "synth failed: %s", err.msg);
		return;
	}
	atomic_store(&ui->synth_cancel, false);
	if (ui_job_start(&ui->synth_job, work_synth_thread, ui) != 0) {
		ui_message(ui, THEME_ERROR, "synth: cannot start a thread");
		return;
	}
	ui_message(ui, THEME_NORMAL, "synthesising a new model in the "
	    "background…");
}

static bool
work_synth_poll(struct ui *ui)
{
	struct ui_job *j = &ui->synth_job;
	char *path, progress[256];
	bool changed;

	if (!j->running)
		return false;
	if (!ui_job_reap(j)) {
		/* The status line shows the progress; redraw when it moves. */
		pthread_mutex_lock(&j->lock);
		changed = strcmp(ui->synth_seen, j->progress) != 0;
		snprintf(progress, sizeof progress, "%s", j->progress);
		pthread_mutex_unlock(&j->lock);
		if (changed)
			snprintf(ui->synth_seen, sizeof ui->synth_seen, "%s",
			    progress);
		return changed;
	}
	project_free(ui->synth_proj);
	ui->synth_proj = NULL;
	/* Whatever was written (even a candidate that still fails some
	 * checks) is shown for review, unapproved. */
	path = path_join(ui->dir, "model.py");
	ui_load_model(ui, path);
	free(path);
	if (j->rc != 0)
		ui_message(ui, THEME_ERROR, "synth failed: %s", j->err.msg);
	else
		ui_message(ui, ui->approved ? THEME_OK : THEME_WARN, "synth: "
		    "new model %.12s… loaded — %s", ui->model_sha,
		    ui->approved ? "approved (same bytes as before)" :
		    "NOT approved: read it, then press a");
	ui->focus = PANE_MODEL;
	ui_relayout(ui);
	return true;
}

static void
work_synth_shutdown(struct ui *ui)
{
	struct ui_job *j = &ui->synth_job;

	if (j->running) {
		/* The request or validation under way stops within a tenth
		 * of a second, and nothing is written. */
		atomic_store(&ui->synth_cancel, true);
		while (!ui_job_reap(j))
			nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	}
	project_free(ui->synth_proj);
	ui->synth_proj = NULL;
}

/* ---- polling --------------------------------------------------------- */

bool
ui_jobs_poll(struct ui *ui)
{
	bool moved = false;

	moved |= pubjob_poll(ui);
	moved |= work_synth_poll(ui);
	moved |= ui_accuracy_poll(ui);
	moved |= runmode_poll(ui);
	return moved;
}

void
ui_jobs_shutdown(struct ui *ui)
{
	pubjob_shutdown(ui);
	runmode_stop(ui);
	work_synth_shutdown(ui);
	ui_accuracy_free(ui);
}
