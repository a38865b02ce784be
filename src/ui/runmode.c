/*
 * runmode — the TUI's run mode (R, or `:run`; `:run off` ends it): the
 * plan on screen carried out over time. When a post's slot comes (inside
 * its window, the slot plus one slot) and no dialog or publish is under
 * way, the terminal bell rings, the --notify command runs, and the publish
 * dialog opens for that post, prepared as P prepares it: only y sends.
 * Any other key is "not now": the post is offered again a quarter of its
 * window later, until the window closes. The status line shows the next
 * due post and a countdown. Live, run mode holds the project lock.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/lock.h"
#include "core/timeutil.h"
#include "runs/run.h"
#include "ui/ui_int.h"

#define RUNMODE_SNOOZE_MIN	60

struct runmode {
	time_t			*offered;	/* per post: last offer, 0 none */
	int			 n;
	unsigned		 gen;		/* plan the array belongs to */
	struct project_lock	*lock;
	char			 shown[128];	/* status text last drawn */
};

static time_t
runmode_end(const struct ui *ui, int i)
{
	return run_window_end(ui->proj, &ui->plan.posts[i], -1);
}

/* The offers follow the plan on screen: a new plan starts afresh. */
static void
runmode_sync(struct ui *ui)
{
	struct runmode *r = ui->run;

	if (r->gen == ui->plan_gen && r->n == ui->plan.nposts)
		return;
	free(r->offered);
	r->n = ui->have_plan ? ui->plan.nposts : 0;
	r->offered = xcalloc((size_t)r->n + 1, sizeof *r->offered);
	r->gen = ui->plan_gen;
}

int
runmode_start(struct ui *ui)
{
	struct error err = { 0 };
	struct project_lock *lk = NULL;

	if (ui->run != NULL) {
		ui_message(ui, THEME_NORMAL, "run mode is on already (:run off "
		    "ends it)");
		return 0;
	}
	if (ui->live && project_lock_hold(ui->dir, "fronts TUI run mode", &lk,
	    &err) != 0) {
		ui_message(ui, THEME_ERROR, "run mode: %s", err.msg);
		return -1;
	}
	ui->run = xcalloc(1, sizeof *ui->run);
	ui->run->lock = lk;
	ui->run->gen = ui->plan_gen - 1;
	runmode_sync(ui);
	ui_message(ui, THEME_OK, "run mode: each post is offered when its slot "
	    "comes (%s)", ui->live ? "LIVE" : "dry run");
	return 0;
}

void
runmode_stop(struct ui *ui)
{
	if (ui->run == NULL)
		return;
	project_lock_release(ui->run->lock);
	free(ui->run->offered);
	free(ui->run);
	ui->run = NULL;
	ui_message(ui, THEME_NORMAL, "run mode off");
}

/* The operator's command, with the post's front, draft and time and the
 * basics of a shell in its environment, never a credential. */
static void
runmode_notify(struct ui *ui, const struct plan_post *pp)
{
	posix_spawn_file_actions_t fa;
	const char *path = getenv("PATH");
	char at[40], *env[5], *argv[] = { "sh", "-c", NULL, NULL };
	pid_t pid;
	int k;

	if (ui->notify == NULL)
		return;
	argv[2] = (char *)ui->notify;
	time_format_local(pp->at, at, sizeof at);
	xasprintf(&env[0], "PATH=%s", path != NULL ? path : "/usr/bin:/bin");
	xasprintf(&env[1], "FRONTS_FRONT=%s", ui->proj->fronts[pp->front].id);
	xasprintf(&env[2], "FRONTS_DRAFT=%s", ui->proj->drafts[pp->draft].id);
	xasprintf(&env[3], "FRONTS_AT=%s", at);
	env[4] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
	    O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
	    O_WRONLY, 0);
	if (posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, env) != 0)
		ui_message(ui, THEME_ERROR, "--notify: cannot start the command");
	posix_spawn_file_actions_destroy(&fa);
	for (k = 0; k < 4; k++)
		free(env[k]);
}

/* May post i be offered now? */
static bool
runmode_due(const struct ui *ui, int i, time_t now)
{
	const struct plan_post *pp = &ui->plan.posts[i];
	time_t end = runmode_end(ui, i), wait;

	if (ui->posts[i].state != UI_POST_NEW || pp->at > now || now >= end)
		return false;
	wait = (end - pp->at) / 4;
	if (wait < RUNMODE_SNOOZE_MIN)
		wait = RUNMODE_SNOOZE_MIN;
	return ui->run->offered[i] == 0 || now >= ui->run->offered[i] + wait;
}

/* "RUN next d4 on x 14:00 in 1 h 05 min" */
static void
runmode_status(struct ui *ui, time_t now, char *buf, size_t len)
{
	const struct plan_post *pp = NULL;
	char at[16];
	struct tm tm;
	long dt;
	int i;

	for (i = 0; i < ui->plan.nposts; i++) {
		pp = &ui->plan.posts[i];
		if (ui->posts[i].state == UI_POST_NEW &&
		    now < runmode_end(ui, i))
			break;
	}
	if (!ui->have_plan || pp == NULL || i == ui->plan.nposts) {
		snprintf(buf, len, "RUN: nothing left to offer");
		return;
	}
	localtime_r(&pp->at, &tm);
	strftime(at, sizeof at, "%a %H:%M", &tm);
	dt = pp->at > now ? (long)(pp->at - now) : 0;
	if (dt == 0)
		snprintf(buf, len, "RUN: %s on %s (%s) due now",
		    ui->proj->drafts[pp->draft].id,
		    ui->proj->fronts[pp->front].id, at);
	else
		snprintf(buf, len, "RUN: next %s on %s %s in %ld h %02ld min",
		    ui->proj->drafts[pp->draft].id,
		    ui->proj->fronts[pp->front].id, at, dt / 3600,
		    (dt % 3600 + 59) / 60 % 60);
}

bool
runmode_poll(struct ui *ui)
{
	struct runmode *r = ui->run;
	time_t now = clock_now();
	char status[128];
	int i;

	if (r == NULL)
		return false;
	runmode_sync(ui);
	runmode_status(ui, now, status, sizeof status);
	if (strcmp(status, r->shown) != 0) {
		snprintf(r->shown, sizeof r->shown, "%s", status);
		ui->dirty = true;
	}
	if (!ui->have_plan || ui->modal.ops != NULL || ui->pub_job.running)
		return false;
	for (i = 0; i < ui->plan.nposts; i++) {
		if (!runmode_due(ui, i, now))
			continue;
		r->offered[i] = now;
		ui->panes[PANE_CANDIDATES].sel = i;
		if (ui_term_on())
			beep();
		runmode_notify(ui, &ui->plan.posts[i]);
		pane_candidates_publish(ui);
		return true;
	}
	return false;
}

const char *
runmode_line(const struct ui *ui)
{
	return ui->run != NULL ? ui->run->shown : NULL;
}
