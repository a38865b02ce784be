/*
 * pubjob — publishing the selected post from the TUI: the dialog with the
 * exact request (only y sends), then the request from a background thread
 * so the screen never waits on the network; the outcome (sent, failed,
 * unknown) comes back to the Candidates pane and is in the ledger through
 * the publish module.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/timeutil.h"
#include "net/publish.h"
#include "ui/ui.h"

/* The thread publishes from its own copy of the plan, so edits or a new
 * plan on the UI thread cannot pull it from under the request. */
struct pubjob {
	struct ui	*ui;
	struct plan	 plan;
	struct publish	 pub;
	int		 post;
};

static void
pubjob_plan_copy(struct plan *dst, const struct plan *src)
{
	int i;

	*dst = *src;
	dst->posts = xcalloc((size_t)src->nposts + 1, sizeof *dst->posts);
	for (i = 0; i < src->nposts; i++) {
		dst->posts[i] = src->posts[i];
		dst->posts[i].text = xstrdup(src->posts[i].text);
	}
	dst->alts = xcalloc((size_t)src->nalts + 1, sizeof *dst->alts);
	if (src->nalts > 0)
		memcpy(dst->alts, src->alts, (size_t)src->nalts *
		    sizeof *dst->alts);
}

static void
pubjob_free(struct pubjob *w)
{
	publish_close(&w->pub);
	plan_free(&w->plan);
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
	rc = publish_send(&w->pub, w->post, time(NULL), true, &res, &err);
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

void
pane_candidates_publish(struct ui *ui)
{
	struct pane *p = &ui->panes[PANE_CANDIDATES];
	struct publish_item item;
	struct error err = { 0 };
	struct pubjob *w;
	char *req, *body, when[40];
	time_t now = time(NULL);
	int i = p->sel, k;

	if (!ui->have_plan || ui->plan.nposts == 0) {
		ui_message(ui, THEME_ERROR, "no post to publish (p plans)");
		return;
	}
	if (ui->pub_job.running) {
		ui_message(ui, THEME_WARN, "a post is being published; wait "
		    "for its outcome");
		return;
	}
	w = xcalloc(1, sizeof *w);
	w->ui = ui;
	w->post = i;
	pubjob_plan_copy(&w->plan, &ui->plan);
	if (publish_open(&w->pub, ui->proj, &w->plan, 0, &err) != 0) {
		plan_free(&w->plan);
		free(w);
		ui_message(ui, THEME_ERROR, "publish: %s", err.msg);
		return;
	}
	publish_assess(&w->pub, i, now, true, &item);
	if (item.status == PUBLISH_SENT || item.status == PUBLISH_UNRESOLVED ||
	    item.status == PUBLISH_REFUSED) {
		ui->posts[i].state = item.status == PUBLISH_SENT ?
		    UI_POST_SENT : item.status == PUBLISH_UNRESOLVED ?
		    UI_POST_UNKNOWN : UI_POST_FAILED;
		snprintf(ui->posts[i].note, sizeof ui->posts[i].note, "%s: %s",
		    pubjob_status_text(item.status), item.why);
		ui_message(ui, THEME_ERROR, "not sending: %s",
		    ui->posts[i].note);
		pubjob_free(w);
		return;
	}
	if ((req = publish_describe(&w->pub, i, now, &err)) == NULL) {
		ui_message(ui, THEME_ERROR, "publish: %s", err.msg);
		pubjob_free(w);
		return;
	}
	time_format_local(w->plan.posts[i].at, when, sizeof when);
	xasprintf(&body, "%s — nothing is sent unless you press y.\n\n"
	    "front    %s (%s)\naccount  %s\ntime     %s (%s)\nlength   %d/%d "
	    "%s\n\ntext:\n%s\n\nrequest:\n%s", ui->live ? "LIVE" : "DRY RUN",
	    item.front->id, platform_name(item.front->platform),
	    item.front->account, when, pubjob_status_text(item.status),
	    item.measure.length, item.measure.limit,
	    text_unit_name(item.measure.unit), w->plan.posts[i].text, req);
	free(req);
	k = dialog_ask_about(ui, DIALOG_POST, i, ui->live ? "Publish (LIVE)" :
	    "Publish (dry run)", body);
	free(body);
	if (k == DIALOG_STALE) {	/* a new plan: the status says so */
		pubjob_free(w);
		return;
	}
	if (k != 'y' && k != 'Y') {
		pubjob_free(w);
		ui_message(ui, THEME_NORMAL, "cancelled: nothing was sent");
		return;
	}
	if (!ui->live) {
		pubjob_free(w);
		ui->posts[i].state = UI_POST_DRYRUN;
		snprintf(ui->posts[i].note, sizeof ui->posts[i].note,
		    "dry run: the request above was not sent (start with "
		    "--live to send)");
		ui_message(ui, THEME_OK, "dry run: nothing sent");
		return;
	}
	ui->pub_post = i;
	ui->pub_gen = ui->plan_gen;
	ui->posts[i].state = UI_POST_SENDING;
	ui->posts[i].note[0] = '\0';
	if (ui_job_start(&ui->pub_job, pubjob_thread, w) != 0) {
		pubjob_free(w);
		ui->posts[i].state = UI_POST_FAILED;
		ui_message(ui, THEME_ERROR, "publish: cannot start a thread");
		return;
	}
	ui_message(ui, THEME_WARN, "sending post %d…", i + 1);
}

bool
pubjob_poll(struct ui *ui)
{
	struct ui_post *dst;

	if (!ui_job_reap(&ui->pub_job))
		return false;
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
}
