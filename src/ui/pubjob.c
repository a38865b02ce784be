/*
 * pubjob — publishing the selected post from the TUI: the exact request
 * prepared on a background thread (a Bluesky post resolves its mentions
 * over the network first), then the dialog with it (only y sends), then
 * the request from a background thread, so the screen never waits on the
 * network; the outcome (sent, failed, unknown) comes back to the
 * Candidates pane and is in the ledger through the publish module.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/timeutil.h"
#include "runs/publish.h"
#include "ui/ui_int.h"

/* The thread publishes from its own copy of the plan, so edits or a new
 * plan on the UI thread cannot pull it from under the request. */
struct pubjob {
	struct ui		*ui;
	struct plan		 plan;
	struct publish		 pub;
	bool			 opened;	/* pub needs publish_close */
	int			 post;
	unsigned		 gen;		/* the plan's, at P */
	bool			 live;
	time_t			 now;
	/* What the preparation found (pubjob_prepare). */
	struct publish_item	 item;
	char			*body;
	struct error		 err;
};

static void
pubjob_free(struct pubjob *w)
{
	if (w->opened)
		publish_close(&w->pub);
	plan_free(&w->plan);
	free(w->body);
	free(w);
}

static void *
pubjob_thread(void *arg)
{
	struct pubjob *w = arg;
	struct channel_result res;
	struct error err = { 0 };
	struct ui_post *out = &w->ui->pub_result;
	struct ui_job *job;
	int rc;

	memset(&res, 0, sizeof res);
	memset(out, 0, sizeof *out);
	rc = publish_send(&w->pub, w->post, clock_now(), true, &res, &err);
	if (rc == PUBLISH_UNRECORDED) {
		out->state = UI_POST_UNKNOWN;
		snprintf(out->note, sizeof out->note, "sent, outcome not "
		    "recorded: check the platform, then `fronts ledger resolve` "
		    "(the ledger keeps it unknown): %s", err.msg);
	} else if (rc != 0) {
		out->state = UI_POST_FAILED;
		snprintf(out->note, sizeof out->note, "refused, nothing sent: "
		    "%s", err.msg);
	} else if (res.state == LEDGER_SENT) {
		out->state = UI_POST_SENT;
		snprintf(out->note, sizeof out->note, "sent: %s",
		    res.url != NULL ? res.url : res.post_id != NULL ?
		    res.post_id : "(no id returned)");
	} else if (res.state == LEDGER_FAILED) {
		out->state = UI_POST_FAILED;
		snprintf(out->note, sizeof out->note, "failed: %s",
		    res.message != NULL ? res.message : "no reason given");
	} else {
		out->state = UI_POST_UNKNOWN;
		snprintf(out->note, sizeof out->note, "unknown — it may have "
		    "been posted; check, then `fronts ledger resolve`: %s",
		    res.message != NULL ? res.message : "");
	}
	channel_result_free(&res);
	job = &w->ui->pub_job;
	pubjob_free(w);
	ui_job_finish(job, rc, &err);
	return NULL;
}

static const char *
pubjob_status_text(enum publish_status s)
{
	switch (s) {
	case PUBLISH_READY:	return "due now";
	case PUBLISH_FUTURE:	return "planned for later; y sends it now";
	case PUBLISH_SENT:	return "already sent";
	case PUBLISH_UNRESOLVED: return "an earlier attempt is unresolved";
	case PUBLISH_REFUSED:	return "refused";
	}
	return "?";
}

/* What the publish dialog holds while it is open: the post it shows and,
 * live, the job ready to send it (the thread takes it on y). */
struct pubjob_ask {
	int		 post;
	struct pubjob	*job;
};

static void
pubjob_ask_free(void *ctx)
{
	struct pubjob_ask *a = ctx;

	if (a->job != NULL)
		pubjob_free(a->job);
	free(a);
}

/* y, and the dialog's plan and post are still the ones on screen. */
static void
pubjob_yes(struct ui *ui, void *ctx)
{
	struct pubjob_ask *a = ctx;
	struct ui_post *st = &ui->posts[a->post];

	if (a->job == NULL) {
		st->state = UI_POST_DRYRUN;
		snprintf(st->note, sizeof st->note, "dry run: the request "
		    "above was not sent (start with --live to send)");
		ui_message(ui, THEME_OK, "dry run: nothing sent");
		return;
	}
	ui->pub_post = a->post;
	ui->pub_gen = ui->plan_gen;
	st->state = UI_POST_SENDING;
	st->note[0] = '\0';
	if (ui_job_start(&ui->pub_job, pubjob_thread, a->job) != 0) {
		st->state = UI_POST_FAILED;
		ui_message(ui, THEME_ERROR, "publish: cannot start a thread");
		return;
	}
	a->job = NULL;		/* the thread's now */
	ui_message(ui, THEME_WARN, "sending post %d…", a->post + 1);
}

static void
pubjob_no(struct ui *ui, void *ctx)
{
	ui_message(ui, THEME_NORMAL, "cancelled: nothing was sent");
}

static const struct modal_ops pubjob_ops = {
	.kind = MODAL_PUBLISH,
	.subject = DIALOG_POST,
	.footer = DIALOG_YES_NO,
	.refused = "sent",
	.yes = pubjob_yes,
	.no = pubjob_no,
	.free = pubjob_ask_free,
};

void
pubjob_ask(struct ui *ui, int post, struct pubjob *job, char *body)
{
	struct pubjob_ask *a = xcalloc(1, sizeof *a);

	a->post = post;
	a->job = job;
	dialog_open(ui, &pubjob_ops, post, ui->live ? "Publish (LIVE)" :
	    "Publish (dry run)", body, a);
}

/* Has item a reason not to be offered (see pubjob_refuse)? */
static bool
pubjob_refusable(const struct publish_item *item)
{
	return item->status == PUBLISH_SENT ||
	    item->status == PUBLISH_UNRESOLVED ||
	    item->status == PUBLISH_REFUSED;
}

/* Where post i stands, when that is a reason not to offer it; false when
 * it may be offered. */
static bool
pubjob_refuse(struct ui *ui, int i, const struct publish_item *item)
{
	struct ui_post *st = &ui->posts[i];

	if (!pubjob_refusable(item))
		return false;
	st->state = item->status == PUBLISH_SENT ? UI_POST_SENT :
	    item->status == PUBLISH_UNRESOLVED ? UI_POST_UNKNOWN :
	    UI_POST_FAILED;
	snprintf(st->note, sizeof st->note, "%s: %s",
	    pubjob_status_text(item->status), item->why);
	ui_message(ui, THEME_ERROR, "not sending: %s", st->note);
	return true;
}

/* The dialog's text: where, when, how long, and the exact request. */
static char *
pubjob_body(struct pubjob *w, const struct publish_item *item, time_t now,
    struct error *err)
{
	const struct plan_post *post = &w->plan.posts[w->post];
	char *req, *body, when[40], edited[128] = "";

	if ((req = publish_describe(&w->pub, w->post, now, err)) == NULL)
		return NULL;
	time_format_local(post->at, when, sizeof when);
	if (plan_post_edited(w->ui->proj, post))
		snprintf(edited, sizeof edited, "draft    %s — edited from draft "
		    "%s: the text below is not the draft's\n",
		    w->ui->proj->drafts[post->draft].id,
		    w->ui->proj->drafts[post->draft].id);
	xasprintf(&body, "%s — nothing is sent unless you press y.\n\n"
	    "front    %s (%s)\naccount  %s\ntime     %s (%s)\n%slength   %d/%d "
	    "%s\n\ntext:\n%s\n\nrequest:\n%s", w->live ? "LIVE" : "DRY RUN",
	    item->front->id, platform_name(item->front->platform),
	    item->front->account, when, pubjob_status_text(item->status),
	    edited, item->measure.length, item->measure.limit,
	    text_unit_name(item->measure.unit), post->text, req);
	free(req);
	return body;
}

/* The background half of P: the ledger, the post's standing and the exact
 * request, which may ask the network (Bluesky mentions). */
static void *
pubjob_prepare(void *arg)
{
	struct pubjob *w = arg;
	int rc = -1;

	if (publish_open(&w->pub, w->ui->proj, &w->plan, 0, &w->err) == 0) {
		w->opened = true;
		/* Another publisher on the project refuses this one at once,
		 * naming itself; the screen never blocks on it. */
		w->pub.lock_command = "fronts TUI publish";
		publish_assess(&w->pub, w->post, w->now, true, &w->item);
		rc = 0;
		if (!pubjob_refusable(&w->item) && (w->body = pubjob_body(w,
		    &w->item, w->now, &w->err)) == NULL)
			rc = -1;
	}
	ui_job_finish(&w->ui->pub_job, rc, NULL);
	return NULL;
}

void
pane_candidates_publish(struct ui *ui)
{
	struct pubjob *w;
	int i = ui->panes[PANE_CANDIDATES].sel;

	if (!ui->have_plan || ui->plan.nposts == 0) {
		ui_message(ui, THEME_ERROR, "no post to publish (p plans)");
		return;
	}
	if (ui->pub_job.running) {
		ui_message(ui, THEME_WARN, ui->pub_prep != NULL ?
		    "a post's request is being prepared; wait for it" :
		    "a post is being published; wait for its outcome");
		return;
	}
	w = xcalloc(1, sizeof *w);
	w->ui = ui;
	w->post = i;
	w->gen = ui->plan_gen;
	w->live = ui->live;
	w->now = clock_now();
	plan_copy(&w->plan, &ui->plan);
	if (ui_job_start(&ui->pub_job, pubjob_prepare, w) != 0) {
		pubjob_free(w);
		ui_message(ui, THEME_ERROR, "publish: cannot start a thread");
		return;
	}
	ui->pub_prep = w;
	ui_message(ui, THEME_NORMAL, "preparing the request for post %d…",
	    i + 1);
}

/* The preparation is done: the dialog, unless the post cannot be offered
 * or the plan it was prepared from is no longer the one on screen. */
static void
pubjob_prepared(struct ui *ui, struct pubjob *w)
{
	char *body;

	if (w->gen != ui->plan_gen || w->post >= ui->plan.nposts) {
		ui_message(ui, THEME_WARN, "the plan changed while post %d's "
		    "request was prepared: nothing to send (P again)",
		    w->post + 1);
		pubjob_free(w);
		return;
	}
	if (ui->pub_job.rc != 0) {
		ui_message(ui, THEME_ERROR, "publish: %s", w->err.msg);
		pubjob_free(w);
		return;
	}
	if (pubjob_refuse(ui, w->post, &w->item)) {
		pubjob_free(w);
		return;
	}
	body = w->body;
	w->body = NULL;
	if (!w->live) {		/* a dry run holds nothing to send */
		pubjob_ask(ui, w->post, NULL, body);
		pubjob_free(w);
		return;
	}
	pubjob_ask(ui, w->post, w, body);
}

bool
pubjob_poll(struct ui *ui)
{
	struct ui_post *dst;
	struct pubjob *w;

	if (!ui_job_reap(&ui->pub_job))
		return false;
	if ((w = ui->pub_prep) != NULL) {
		ui->pub_prep = NULL;
		pubjob_prepared(ui, w);
		return true;
	}
	if (ui->pub_gen != ui->plan_gen) {	/* a newer plan replaced it */
		ui_message(ui, ui->pub_result.state == UI_POST_SENT ?
		    THEME_OK : THEME_ERROR, "earlier plan's post %d: %s",
		    ui->pub_post + 1, ui->pub_result.note);
		return true;
	}
	dst = &ui->posts[ui->pub_post];
	*dst = ui->pub_result;
	ui_message(ui, dst->state == UI_POST_SENT ? THEME_OK : THEME_ERROR,
	    "post %d: %s", ui->pub_post + 1, dst->note);
	return true;
}

void
pubjob_shutdown(struct ui *ui)
{
	/* A request in flight is let finish: its outcome must reach the
	 * ledger. */
	while (ui->pub_job.running && !ui_job_reap(&ui->pub_job))
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	if (ui->pub_prep != NULL) {
		pubjob_free(ui->pub_prep);
		ui->pub_prep = NULL;
	}
}
