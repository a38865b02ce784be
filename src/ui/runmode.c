/*
 * runmode — the TUI's run mode (R, or `:run`; `:run off` ends it): the
 * plan on screen carried out over time. When a post's slot comes (inside
 * its window, the slot plus one slot) and no dialog or publish is under
 * way, the terminal bell rings, the --notify command runs, and the publish
 * dialog opens for that post, prepared as P prepares it: only y sends.
 * Any other key is "not now": the post is offered again a quarter of its
 * window later, until the window closes; a window that closes unsent is
 * recorded in the ledger as skipped (late) on a live run. The status line
 * shows the next due post and a countdown. Live, run mode holds the
 * project lock.
 */
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
	pid_t			*children;	/* --notify commands not reaped */
	int			 nchildren;
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
	run_notify_reap(ui->run->children, &ui->run->nchildren);
	free(ui->run->children);
	free(ui->run->offered);
	free(ui->run);
	ui->run = NULL;
	ui_message(ui, THEME_NORMAL, "run mode off");
}

/* The operator's command (run_notify_start: no credential in its
 * environment). */
static void
runmode_notify(struct ui *ui, const struct plan_post *pp)
{
	struct runmode *r = ui->run;
	pid_t pid;

	if (ui->notify == NULL)
		return;
	if (run_notify_start(ui->notify, ui->proj->fronts[pp->front].id,
	    ui->proj->drafts[pp->draft].id, pp->at, &pid) != 0) {
		ui_message(ui, THEME_ERROR, "--notify: cannot start the command");
		return;
	}
	r->children = xrealloc(r->children,
	    (size_t)(r->nchildren + 1) * sizeof *r->children);
	r->children[r->nchildren++] = pid;
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

/* Posts whose window closed unsent: skipped (late), in the ledger when
 * live. */
static bool
runmode_close_windows(struct ui *ui, time_t now)
{
	struct ui_post *st;
	struct error err = { 0 };
	bool moved = false;
	int i;

	for (i = 0; i < ui->plan.nposts; i++) {
		st = &ui->posts[i];
		if (st->state != UI_POST_NEW || now < runmode_end(ui, i) ||
		    (ui->pub_job.running && ui->pub_post == i))
			continue;
		moved = true;
		st->state = UI_POST_SKIPPED;
		if (!ui->live)
			snprintf(st->note, sizeof st->note, "its window closed "
			    "(dry run: not recorded)");
		else if (run_skip_late(ui->proj, &ui->plan, i, now, &err) < 0)
			snprintf(st->note, sizeof st->note, "its window closed; "
			    "not recorded: %s", err.msg);
		else
			snprintf(st->note, sizeof st->note, "skipped (late): its "
			    "window closed unsent; recorded in the ledger");
		ui_message(ui, THEME_WARN, "post %d: %s", i + 1, st->note);
	}
	return moved;
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
	run_notify_reap(r->children, &r->nchildren);
	runmode_sync(ui);
	runmode_status(ui, now, status, sizeof status);
	if (strcmp(status, r->shown) != 0) {
		snprintf(r->shown, sizeof r->shown, "%s", status);
		ui->dirty = true;
	}
	if (!ui->have_plan)
		return false;
	/* A dialog left open past its post's window never sends it late. */
	if (dialog_kind(ui) == MODAL_PUBLISH && ui->modal.bind.have_post &&
	    ui->modal.bind.plan_gen == ui->plan_gen &&
	    now >= runmode_end(ui, ui->modal.bind.post))
		dialog_close(ui);
	if (ui->modal.ops == NULL && runmode_close_windows(ui, now))
		return true;
	if (ui->modal.ops != NULL || ui->pub_job.running)
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
