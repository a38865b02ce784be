/*
 * publish — the publish flow (see publish.h): assessing each planned post
 * against the ledger and the legality engine, and sending one post with
 * its intent and outcome synced to the ledger around the request.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/clock.h"
#include "core/hook.h"
#include "core/hist_predict.h"
#include "core/legal.h"
#include "core/statedir.h"
#include "core/timeutil.h"
#include "runs/publish.h"
#include "runs/publish_int.h"

int
publish_open(struct publish *pub, const struct project *p,
    const struct plan *plan, long timeout_ms, struct error *err)
{
	memset(pub, 0, sizeof *pub);
	pub->project = p;
	pub->plan = plan;
	pub->timeout_ms = timeout_ms;
	snprintf(pub->plan_id, sizeof pub->plan_id, "%s", plan->id);
	if (pub->plan_id[0] == '\0') {
		/* A plan without an id is named by its posts (one pass). */
		char *s = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&s, &n);
		int i;

		if (f == NULL)
			abort();
		for (i = 0; i < plan->nposts; i++)
			fprintf(f, "%d\n%d\n%d\n%s\n", plan->posts[i].slot,
			    plan->posts[i].front, plan->posts[i].draft,
			    plan->posts[i].text);
		fclose(f);
		sha256_hex(s != NULL ? s : "", n, pub->plan_id);
		pub->plan_id[16] = '\0';
		free(s);
	}
	return ledger_open(p->dir, &pub->ledger, err);
}

void
publish_close(struct publish *pub)
{
	ledger_free(&pub->ledger);
}

/* Re-reads the ledger from disk. */
static int
publish_reload(struct publish *pub, struct error *err)
{
	ledger_free(&pub->ledger);
	return ledger_open(pub->project->dir, &pub->ledger, err);
}

/* The slot a post is checked at: its own when it is not offered yet,
 * otherwise the slot that holds the moment it would go out. */
static int
publish_check_slot(const struct publish *pub, const struct plan_post *post,
    time_t now, bool offered)
{
	const struct project *p = pub->project;
	long s;

	if (!offered || now < p->start)
		return offered ? 0 : post->slot;
	s = (long)(now - p->start) / (p->slot_minutes * 60L);
	return s > p->horizon_slots ? p->horizon_slots : (int)s;
}

static const char *
publish_verdict_text(enum legal_verdict v)
{
	switch (v) {
	case LEGAL_CAP:
		return "the front's daily cap is reached";
	case LEGAL_GAP:
		return "too soon after another post on the front (min_gap_minutes)";
	case LEGAL_QUIET:
		return "inside the front's quiet hours";
	case LEGAL_POSTED:
		return "this draft was already posted on the front";
	case LEGAL_HORIZON:
		return "the plan's horizon is over";
	case LEGAL_TOO_LONG:
		return "the draft is over the length limit";
	case LEGAL_TOO_MANY_LINKS:
		return "too many links";
	case LEGAL_TOO_MANY_HASHTAGS:
		return "too many hashtags";
	case LEGAL_NOT_ALLOWED:
		return "the draft may not go to this front";
	default:
		break;
	}
	return legal_verdict_name(v);
}

/* The legality engine's verdict on the post at slot, with the reason in
 * why; the edited text's own length, links and hashtags are checked too. */
static bool
publish_legal(const struct publish *pub, const struct plan_post *post,
    enum legal_verdict tv, const struct text_measure *m, int slot, char *why,
    size_t len)
{
	const struct project *p = pub->project;
	struct action a = { ACTION_POST, (uint16_t)post->front,
	    (uint32_t)post->draft };
	struct action wait = { ACTION_WAIT, 0, 0 };
	struct legal_past *past;
	struct legal_path *path;
	struct legal *lg;
	struct error err = { 0 };
	enum legal_verdict v = LEGAL_OK;
	char at[40];
	int n, k;

	if (tv == LEGAL_TOO_LONG) {
		snprintf(why, len, "length %d/%d %s%s: over the limit",
		    m->length, m->limit, text_unit_name(m->unit),
		    m->byte_limit > 0 && m->bytes > m->byte_limit ?
		    " (or over the byte limit)" : "");
		return false;
	}
	if (tv != LEGAL_OK) {
		snprintf(why, len, "%d links, %d hashtags: over the front's "
		    "limits", m->links, m->hashtags);
		return false;
	}
	if (legal_past_load(p, &past, &n, &err) != 0) {
		snprintf(why, len, "%s", err.msg);
		return false;
	}
	lg = legal_new(p, past, n, &err);
	free(past);
	if (lg == NULL) {
		snprintf(why, len, "%s", err.msg);
		return false;
	}
	path = legal_path_new(lg);
	legal_path_reset(lg, path);
	for (k = 0; k < slot && !legal_path_done(lg, path); k++)
		legal_apply(lg, path, &wait);
	if (slot >= legal_horizon(lg))
		v = LEGAL_HORIZON;
	else
		v = legal_check(lg, path, &a);
	if (v != LEGAL_OK) {
		time_format_local(slot < legal_horizon(lg) ?
		    legal_slot_time(lg, slot) : p->start, at, sizeof at);
		snprintf(why, len, "the legality engine refuses it at %s: %s "
		    "(%s)", at, publish_verdict_text(v), legal_verdict_name(v));
	}
	legal_path_free(path);
	legal_free(lg);
	return v == LEGAL_OK;
}

/* "now (T) is outside draft d's window (not_before …, not_after …)". */
static void
publish_window_why(const struct draft *d, time_t now, char *why, size_t len)
{
	char t[40], w[100];

	time_format_local(now, t, sizeof t);
	legal_window_text(d, w, sizeof w);
	snprintf(why, len, "now (%s) is outside draft %s's window (%s)", t,
	    d->id, w);
}

/* A draft the ledger already sent on this front, from any plan. */
static const struct ledger_entry *
publish_sent_before(const struct publish *pub, const struct front *f,
    const struct draft *d)
{
	const struct ledger *l = &pub->ledger;
	int i;

	for (i = 0; i < l->nentries; i++)
		if (l->entries[i].state == LEDGER_SENT &&
		    strcmp(l->entries[i].front, f->id) == 0 &&
		    strcmp(l->entries[i].draft, d->id) == 0)
			return &l->entries[i];
	return NULL;
}

/* Part 1 went out: the whole post is sent, or a thread continues at its
 * first part not sent (unless one has no known outcome). */
static void
publish_assess_sent(struct publish *pub, int i, const struct ledger_entry *e,
    time_t now, struct publish_item *out)
{
	const struct draft *d = &pub->project->drafts[pub->plan->posts[i].draft];
	const struct ledger_entry *skip;
	int sent, stuck;
	char id[LEDGER_ID_LEN], why[sizeof out->why];

	sent = publish_parts_sent(pub, i, &stuck);
	if (stuck < 0 && (skip = publish_rest_skipped(pub, i, sent)) != NULL) {
		out->status = PUBLISH_REFUSED;
		snprintf(out->why, sizeof out->why, "skipped (ledger entry %s): "
		    "%s", skip->id, skip->reason != NULL ? skip->reason : "-");
	} else if (sent >= out->nparts) {
		out->status = PUBLISH_SENT;
		snprintf(out->why, sizeof out->why, "already sent (ledger entry "
		    "%s%s%s%s)", e->id, out->nparts > 1 ? ", every part" : "",
		    e->url != NULL ? ", " : "", e->url != NULL ? e->url : "");
	} else if (stuck >= 0) {
		publish_part_entry(pub, i, stuck, id);
		out->status = PUBLISH_UNRESOLVED;
		snprintf(out->why, sizeof out->why, "part %d of %d (ledger "
		    "entry %s) has no known outcome: it may be online; check, "
		    "then `fronts ledger resolve %s --sent URL` or `--failed`",
		    stuck + 1, out->nparts, id, id);
	} else if (!legal_in_window(d, now)) {
		/* The rest of a thread keeps to the draft's window too. */
		out->status = PUBLISH_REFUSED;
		publish_window_why(d, now, why, sizeof why);
		snprintf(out->why, sizeof out->why, "parts %d-%d of %d will not "
		    "be sent: %s", sent + 1, out->nparts, out->nparts, why);
	} else {
		out->status = PUBLISH_READY;
		out->next_part = sent;
		snprintf(out->why, sizeof out->why, "parts 1-%d of %d were "
		    "sent; it goes on at part %d, a reply to part %d", sent,
		    out->nparts, sent + 1, sent);
	}
}

/* The verdict on the texts of post i: the first part's, else that of the
 * first later part that is not legal (an edited part can be over its
 * limit), *part its index. */
static enum legal_verdict
publish_texts(const struct publish *pub, int i, const struct front *f,
    struct text_measure *m, int *part)
{
	const struct plan_post *post = &pub->plan->posts[i];
	struct text_measure lm;
	enum legal_verdict v = legal_text(f, post->text, m), lv;
	int k, n = plan_post_nparts(pub->project, post);

	*part = 0;
	for (k = 1; k < n && v == LEGAL_OK; k++) {
		if (!plan_post_part_edited(pub->project, post, k))
			continue;
		lv = legal_text(f, plan_post_part(pub->project, post, k), &lm);
		if (lv != LEGAL_OK) {
			*m = lm;
			*part = k;
			return lv;
		}
	}
	return v;
}

void
publish_assess(struct publish *pub, int i, time_t now, bool future,
    struct publish_item *out)
{
	const struct project *p = pub->project;
	const struct plan_post *post = &pub->plan->posts[i];
	const struct draft *d = &p->drafts[post->draft];
	const struct ledger_entry *e;
	enum legal_verdict tv;
	char why[sizeof out->why];
	bool offered;
	int part;

	memset(out, 0, sizeof *out);
	out->post = post;
	out->front = &p->fronts[post->front];
	out->nparts = publish_body(pub, i)->nparts;
	ledger_entry_id(pub->plan_id, post->slot, out->front->id, d->id,
	    post->text, out->entry);
	offered = post->at <= now || future;
	tv = publish_texts(pub, i, out->front, &out->measure, &part);
	if (tv == LEGAL_BAD_TEXT) {
		out->status = PUBLISH_REFUSED;
		snprintf(out->why, sizeof out->why, "the text is not valid UTF-8");
	} else if (part > 0) {
		out->status = PUBLISH_REFUSED;
		publish_legal(pub, post, tv, &out->measure, 0, why, sizeof why);
		snprintf(out->why, sizeof out->why, "part %d of %d: %s",
		    part + 1, out->nparts, why);
	} else if ((e = ledger_find(&pub->ledger, out->entry)) != NULL &&
	    e->state == LEDGER_SENT)
		publish_assess_sent(pub, i, e, now, out);
	else if (e != NULL && e->state == LEDGER_SKIPPED) {
		out->status = PUBLISH_REFUSED;
		snprintf(out->why, sizeof out->why, "skipped (%s): never sent "
		    "(ledger entry %s)", e->reason != NULL ? e->reason : "-",
		    e->id);
	} else if (e != NULL && e->state != LEDGER_FAILED) {
		out->status = PUBLISH_UNRESOLVED;
		snprintf(out->why, sizeof out->why, "ledger entry %s has no known "
		    "outcome: the post may be online; check, then `fronts ledger "
		    "resolve %s --sent URL` or `--failed`", e->id, e->id);
	} else if ((e = publish_sent_before(pub, out->front, d)) != NULL) {
		out->status = PUBLISH_REFUSED;
		snprintf(out->why, sizeof out->why, "draft %s was already sent "
		    "on front %s (ledger entry %s)", d->id, out->front->id,
		    e->id);
	} else if (offered && !legal_in_window(d, now)) {
		/* Late (or early, when asked) past the draft's window: the
		 * slot was inside it, the moment of sending is not. */
		out->status = PUBLISH_REFUSED;
		publish_window_why(d, now, out->why, sizeof out->why);
	} else if (!publish_legal(pub, post, tv, &out->measure,
	    publish_check_slot(pub, post, now, offered), out->why,
	    sizeof out->why))
		out->status = PUBLISH_REFUSED;
	else
		out->status = offered ? PUBLISH_READY : PUBLISH_FUTURE;
}

bool
publish_resumable(const struct publish *pub, int i)
{
	int stuck, sent = publish_parts_sent(pub, i, &stuck);

	return sent > 0 && stuck < 0 && sent < publish_body(pub, i)->nparts &&
	    publish_rest_skipped(pub, i, sent) == NULL;
}

char *
publish_describe(struct publish *pub, int i, time_t now, struct error *err)
{
	int stuck, sent = publish_parts_sent(pub, i, &stuck);

	/* A thread begun shows what is left of it; anything else, all. */
	if (sent >= publish_body(pub, i)->nparts)
		sent = 0;
	return publish_parts_describe(pub, i, sent, now, err);
}

/* The test-only pause points, FRONTS_TEST_PAUSE_AT=before-intent (the
 * ledger checked, the lock held), after-intent or after-response: the process stops there (for a test to kill it), or,
 * with FRONTS_TEST_RESUME_FILE set, waits until that file exists, removes
 * it and goes on. A pause only waits; it never skips a keypress or a
 * check. */
static void
publish_test_pause(const char *point)
{
	const char *want = hook_env(HOOK_PAUSE_AT);
	const char *resume = hook_env(HOOK_RESUME_FILE);

	if (want == NULL || strcmp(want, point) != 0)
		return;
	fprintf(stderr, "fronts: %s=%s: paused (pid %ld)\n",
	    hook_name(HOOK_PAUSE_AT), point, (long)getpid());
	if (resume == NULL || resume[0] == '\0') {
		for (;;)
			pause();
	}
	/* The test changes the world (the ledger, say) while we wait, then
	 * creates the file; polled, because the pause may be in any thread. */
	while (access(resume, F_OK) != 0)
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	unlink(resume);
}

/* One line per attempt step in .fronts/trajectories/publish.jsonl. */
static int
publish_trajectory(const struct publish *pub, const char *event,
    const struct ledger_entry *e, const struct channel_result *r,
    time_t now, struct error *err)
{
	char *line, t[32];
	cJSON *o = cJSON_CreateObject();
	int rc;

	time_format_utc(now, t, sizeof t);
	cJSON_AddStringToObject(o, "event", event);
	cJSON_AddStringToObject(o, "time", t);
	cJSON_AddStringToObject(o, "entry", e->id);
	cJSON_AddStringToObject(o, "plan", e->plan);
	cJSON_AddNumberToObject(o, "slot", e->slot);
	cJSON_AddStringToObject(o, "front", e->front);
	cJSON_AddStringToObject(o, "draft", e->draft);
	cJSON_AddStringToObject(o, "channel", e->channel);
	cJSON_AddNumberToObject(o, "attempt", e->attempts);
	if (r != NULL) {
		cJSON_AddStringToObject(o, "state", ledger_state_name(r->state));
		if (r->post_id != NULL)
			cJSON_AddStringToObject(o, "post_id", r->post_id);
		if (r->url != NULL)
			cJSON_AddStringToObject(o, "url", r->url);
		if (r->message != NULL)
			cJSON_AddStringToObject(o, "message", r->message);
	}
	line = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	rc = statedir_append(pub->project->dir, "trajectories/publish.jsonl",
	    line, err);
	free(line);
	return rc;
}

/* The request went out but the ledger write after it failed: say what the
 * platform answered, and that the entry stays unknown until settled. */
static void
publish_unrecorded(const char *entry, const struct channel_result *r,
    struct error *err)
{
	char why[sizeof err->msg], answer[512];
	const char *detail = r->url != NULL ? r->url : r->post_id != NULL ?
	    r->post_id : r->message != NULL ? r->message : "";

	snprintf(why, sizeof why, "%s", err->msg);
	snprintf(answer, sizeof answer, "%s%s%s", r->state == LEDGER_SENT ?
	    "posted" : r->state == LEDGER_FAILED ? "not posted" :
	    "no clear answer", detail[0] != '\0' ? ", " : "", detail);
	error_set(err, EXIT_ERROR, "the request was sent (the platform "
	    "answered: %s) but its outcome could not be written to the "
	    "ledger: %s; the ledger keeps entry %s as unknown: check the "
	    "platform, then `fronts ledger resolve %s --sent URL` or "
	    "`--failed`", answer, why, entry, entry);
}

/* Everything that must hold before an intent is written. */
static int
publish_precheck(struct publish *pub, int i, time_t now, bool future,
    struct publish_item *item, struct error *err)
{
	int k;

	if (publish_reload(pub, err) != 0)
		return -1;
	if (pub->ledger.nproblems > 0)
		return error_set(err, EXIT_ERROR, "%s; repair the ledger before "
		    "publishing", pub->ledger.problems[0]);
	for (k = 0; k < pub->ledger.nentries; k++) {
		const struct ledger_entry *e = &pub->ledger.entries[k];

		if (e->state == LEDGER_PENDING || e->state == LEDGER_UNKNOWN)
			return error_set(err, EXIT_REFUSED, "ledger entry %s "
			    "(front %s, draft %s) has no known outcome; check "
			    "the platform, then `fronts ledger resolve %s "
			    "--sent URL` or `--failed`", e->id, e->front,
			    e->draft, e->id);
	}
	publish_assess(pub, i, now, future, item);
	if (item->status == PUBLISH_FUTURE)
		return error_set(err, EXIT_REFUSED, "the post is planned for "
		    "later");
	if (item->status != PUBLISH_READY)
		return error_set(err, EXIT_REFUSED, "%s", item->why);
	return 0;
}

/* The trajectory line of each upload a part made: an upload whose post
 * never came to be is recorded here, and is harmless (the platform drops
 * media no post names). */
static void
publish_uploads_noted(const struct publish *pub, const struct channel_call *c,
    const struct ledger_entry *e, time_t now)
{
	struct channel_result r = { 0 };
	struct error terr = { 0 };
	int k;

	for (k = 0; k < c->nuploads; k++) {
		if (c->upload_ids[k] == NULL)
			continue;
		r.state = LEDGER_SENT;
		r.post_id = c->upload_ids[k];
		r.message = (char *)"an upload (an image, not a post)";
		publish_trajectory(pub, "publish-upload", e, &r, now, &terr);
	}
}

/* The reply part k (> 0) makes: to part 1 (root) and part k (parent),
 * as the ledger recorded them. */
static void
publish_reply_of(const struct publish *pub, int i, int k,
    struct channel_reply *r)
{
	const struct ledger_entry *root, *parent;
	char id[LEDGER_ID_LEN];

	memset(r, 0, sizeof *r);
	publish_part_entry(pub, i, 0, id);
	root = ledger_find(&pub->ledger, id);
	publish_part_entry(pub, i, k - 1, id);
	parent = ledger_find(&pub->ledger, id);
	r->root_id = xstrdup(root->post_id != NULL ? root->post_id : "");
	r->root_cid = root->cid != NULL ? xstrdup(root->cid) : NULL;
	r->parent_id = xstrdup(parent->post_id != NULL ? parent->post_id : "");
	r->parent_cid = parent->cid != NULL ? xstrdup(parent->cid) : NULL;
}

static void
publish_reply_free(struct channel_reply *r)
{
	free((char *)r->root_id);
	free((char *)r->root_cid);
	free((char *)r->parent_id);
	free((char *)r->parent_cid);
}

/* Every file the attempt appends to is the project's own, and the
 * credential is there, or nothing is sent. */
static int
publish_part_ready(const struct publish *pub, const struct channel_call *c,
    struct error *err)
{
	const char *dir = pub->project->dir;

	if (channel_ready(c, err) != 0 ||
	    statedir_probe(dir, "ledger.jsonl", err) != 0 ||
	    statedir_probe(dir, "predictions.jsonl", err) != 0 ||
	    statedir_probe(dir, "trajectories/publish.jsonl", err) != 0)
		return -1;
	return 0;
}

static void
publish_part_intent(const struct publish *pub, int i, int k, int n,
    const struct channel_call *c, time_t now, struct ledger_intent *in)
{
	const struct plan_post *post = &pub->plan->posts[i];

	memset(in, 0, sizeof *in);
	in->plan = pub->plan_id;
	in->slot = post->slot;
	in->front = pub->project->fronts[post->front].id;
	in->draft = pub->project->drafts[post->draft].id;
	in->text = publish_part_text(pub, i, k);
	in->edited = plan_post_part_edited(pub->project, post, k);
	in->channel = c->name;
	in->key = c->key;
	in->at = post->at;
	in->now = now;
	in->part = n > 1 ? k + 1 : 0;
	in->nparts = n > 1 ? n : 0;
}

/* The outcome of a part, in the ledger and the trajectory. */
static int
publish_part_outcome(struct publish *pub, struct ledger_entry *e,
    const char *entry, struct channel_result *out, struct error *err)
{
	struct error terr = { 0 };
	char *note;

	if (ledger_outcome_cid(&pub->ledger, e, out->state, out->post_id,
	    out->cid, out->url, out->message, clock_now(), err) != 0) {
		/* The trajectory keeps what the platform said, for the
		 * operator who settles the entry. */
		publish_trajectory(pub, "publish-outcome-unrecorded", e, out,
		    clock_now(), &terr);
		publish_unrecorded(entry, out, err);
		return PUBLISH_UNRECORDED;
	}
	if (publish_trajectory(pub, "publish-outcome", e, out, clock_now(),
	    &terr) != 0 || terr.code != 0) {
		xasprintf(&note, "%s%s(trajectory not written: %s)",
		    out->message != NULL ? out->message : "",
		    out->message != NULL ? " " : "", terr.msg);
		free(out->message);
		out->message = note;
	}
	return 0;
}

/* Sends part k of post i: intent, uploads and post, outcome. */
static int
publish_send_part(struct publish *pub, int i, int k, int n, time_t now,
    struct channel_result *out, struct error *err)
{
	const struct plan_post *post = &pub->plan->posts[i];
	struct channel_reply reply;
	struct publish_images imgs;
	struct ledger_intent in;
	struct ledger_entry *e;
	struct channel_call c;
	struct hist_prediction pr;
	struct error terr = { 0 };
	char entry[LEDGER_ID_LEN];
	int rc;

	if (k > 0)
		publish_reply_of(pub, i, k, &reply);
	rc = publish_part_open(pub, i, k, k > 0 ? &reply : NULL, now, &imgs,
	    &c, err);
	if (k > 0)
		publish_reply_free(&reply);
	if (rc != 0)
		return -1;
	if (publish_part_ready(pub, &c, err) != 0) {
		channel_close(&c);
		publish_images_free(&imgs);
		return -1;
	}
	publish_part_intent(pub, i, k, n, &c, now, &in);
	publish_test_pause("before-intent");
	if (ledger_intent(&pub->ledger, &in, &e, err) != 0) {
		channel_close(&c);
		publish_images_free(&imgs);
		return -1;
	}
	memcpy(entry, e->id, sizeof entry);
	publish_trajectory(pub, "publish-intent", e, NULL, now, &terr);
	if (k == 0) {
		hist_prediction_of(post, &pr);
		hist_prediction_save(pub->project->dir, e->id, &pr, &terr);
	}
	publish_test_pause("after-intent");
	channel_send(&c, out);
	publish_uploads_noted(pub, &c, e, clock_now());
	channel_close(&c);
	publish_images_free(&imgs);
	publish_test_pause("after-response");
	return publish_part_outcome(pub, e, entry, out, err);
}

/* Says which part of a thread the outcome is about. */
static void
publish_thread_note(const struct publish_item *item, int k,
    struct channel_result *out)
{
	char *m;

	if (item->nparts < 2)
		return;
	if (out->state == LEDGER_SENT)
		xasprintf(&m, "all %d parts sent%s%s", item->nparts,
		    out->message != NULL ? "; " : "",
		    out->message != NULL ? out->message : "");
	else
		xasprintf(&m, "part %d of %d: %s", k + 1, item->nparts,
		    out->message != NULL ? out->message : "");
	free(out->message);
	out->message = m;
}

/* publish_send with the project lock held: every part not sent yet, in
 * order, each replying to the one before; it stops at the first part
 * that does not go out. */
static int
publish_send_locked(struct publish *pub, int i, time_t now, bool future,
    struct channel_result *out, struct error *err)
{
	struct publish_item item;
	char *all;
	int k, rc;

	memset(out, 0, sizeof *out);
	if (publish_precheck(pub, i, now, future, &item, err) != 0)
		return -1;
	/* Every part is built (its images read and cleaned) before the
	 * first intent: a bad image in part 3 stops the thread at part 1. */
	if ((all = publish_parts_describe(pub, i, item.next_part, now,
	    err)) == NULL)
		return -1;
	free(all);
	for (k = item.next_part; k < item.nparts; k++) {
		if (k > item.next_part) {
			channel_result_free(out);
			publish_test_pause("between-parts");
		}
		rc = publish_send_part(pub, i, k, item.nparts, now, out, err);
		if (rc == -1 && k > item.next_part) {
			/* The parts before went out: that is the outcome. */
			out->state = LEDGER_FAILED;
			xasprintf(&out->message, "part %d of %d was not sent "
			    "(parts %d-%d were; a later run goes on from here): "
			    "%s", k + 1, item.nparts, item.next_part + 1, k,
			    err->msg);
			memset(err, 0, sizeof *err);
			return 0;
		}
		if (rc != 0)
			return rc;
		if (out->state != LEDGER_SENT)
			break;
	}
	publish_thread_note(&item, k, out);
	return 0;
}

int
publish_send(struct publish *pub, int i, time_t now, bool future,
    struct channel_result *out, struct error *err)
{
	struct project_lock *lock;
	int rc;

	memset(out, 0, sizeof *out);
	if (project_lock_take_noting(pub->project->dir, pub->lock_command !=
	    NULL ? pub->lock_command : "fronts publish", pub->lock_wait,
	    pub->lock_waiting, pub->lock_arg, &lock, err) != 0)
		return -1;
	/* The lock may have been waited for: the clock moved on. */
	if (pub->lock_wait && clock_now() > now)
		now = clock_now();
	rc = publish_send_locked(pub, i, now, future, out, err);
	project_lock_release(lock);
	return rc;
}
