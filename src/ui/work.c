/*
 * work — the TUI's background jobs besides the planner, polled from the
 * UI thread: publishing (pubjob.c) and synthesis, which runs `fronts synth`
 * as a child process (the same provider choice, recordings, gate and
 * sandboxed validation as the CLI) and shows its progress lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ui/ui_int.h"

extern char **environ;

/* ---- synthesis ------------------------------------------------------- */

/* Reads the child's output line by line into the job's progress; keeps
 * the last line, which says what was written or why it failed. */
static void
work_synth_read(struct ui_job *j, int fd)
{
	char buf[4096], line[256];
	size_t ln = 0;
	ssize_t n, i;

	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (ln < sizeof line - 1)
					line[ln++] = buf[i];
				continue;
			}
			line[ln] = '\0';
			if (ln > 0)
				ui_job_progress(j, "%s", line);
			ln = 0;
		}
	}
}

static void *
work_synth_thread(void *arg)
{
	struct ui *ui = arg;
	struct ui_job *j = &ui->synth_job;
	posix_spawn_file_actions_t fa;
	struct error err = { 0 };
	char *argv[] = { "fronts", "-C", ui->dir, "synth", NULL, NULL, NULL };
	const char *self = self_exe_path();
	int fds[2], st = 0, rc;
	pid_t pid;

	if (ui->synth_builtin) {
		argv[4] = "--provider";
		argv[5] = "builtin";
	}
	if (self == NULL || pipe2(fds, O_CLOEXEC) != 0) {
		error_set(&err, EXIT_ERROR, "synth: cannot start: %s",
		    strerror(errno));
		ui_job_finish(j, -1, &err);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	rc = posix_spawn(&pid, self, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		error_set(&err, EXIT_ERROR, "synth: cannot run %s: %s", self,
		    strerror(rc));
		ui_job_finish(j, -1, &err);
		return NULL;
	}
	pthread_mutex_lock(&j->lock);
	ui->synth_pid = pid;
	pthread_mutex_unlock(&j->lock);
	work_synth_read(j, fds[0]);
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	pthread_mutex_lock(&j->lock);
	ui->synth_pid = 0;
	pthread_mutex_unlock(&j->lock);
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_ERROR;
	if (rc != 0)
		error_set(&err, rc, "%s", WIFSIGNALED(st) ? "synth was killed" :
		    j->progress);
	ui_job_finish(j, rc, &err);
	return NULL;
}

void
ui_synth_start(struct ui *ui, bool builtin)
{
	if (ui->synth_job.running) {
		ui_message(ui, THEME_WARN, "synthesis is already running");
		return;
	}
	ui->synth_seen[0] = '\0';
	ui->synth_builtin = builtin;
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

	if (!j->running)
		return;
	pthread_mutex_lock(&j->lock);
	if (ui->synth_pid > 0)
		kill(ui->synth_pid, SIGTERM);
	pthread_mutex_unlock(&j->lock);
	while (!ui_job_reap(j))
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
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
