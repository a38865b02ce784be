/*
 * run — the plan carried out over time (see run.h): which post is due,
 * which windows closed, what each key does, and the --notify command.
 */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/termsafe.h"
#include "core/timeutil.h"
#include "runs/run_int.h"

#define RUN_SNOOZE_MIN	60	/* seconds before "not now" asks again */
#define RUN_IDLE_MAX	300	/* longest sleep between looks at the plan */

extern char **environ;

void
run_say(struct run *r, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (line != NULL && r->ui.say != NULL)
		r->ui.say(r->ui.arg, line);
	free(line);
}

time_t
run_window_end(const struct project *p, const struct plan_post *post,
    int late_minutes)
{
	long late = late_minutes < 0 ? p->slot_minutes : late_minutes;

	return post->at + (time_t)late * 60;
}

static time_t
run_end(const struct run *r, int i)
{
	return run_window_end(r->p, &r->plan.posts[i], r->o.late_minutes);
}

static const char *
run_draft(const struct run *r, int i)
{
	return r->p->drafts[r->plan.posts[i].draft].id;
}

static const char *
run_front(const struct run *r, int i)
{
	return r->p->fronts[r->plan.posts[i].front].id;
}

/* "14:00", with the day when it is not today's. */
static void
run_when(time_t t, time_t now, char *buf, size_t len)
{
	struct tm a, b;

	localtime_r(&t, &a);
	localtime_r(&now, &b);
	strftime(buf, len, a.tm_yday == b.tm_yday && a.tm_year == b.tm_year ?
	    "%H:%M" : "%a %H:%M", &a);
}

static void
run_entry(const struct run *r, int i, char id[LEDGER_ID_LEN])
{
	const struct plan_post *pp = &r->plan.posts[i];

	ledger_entry_id(r->pub.plan_id, pp->slot, run_front(r, i),
	    run_draft(r, i), pp->text, id);
}

bool
run_post_settled(struct run *r, int i)
{
	const struct ledger *l = &r->pub.ledger;
	const struct ledger_entry *e;
	char id[LEDGER_ID_LEN];
	int k;

	if (r->done[i])
		return true;
	/* A thread stopped between parts is offered again, to go on. */
	if (publish_resumable(&r->pub, i))
		return false;
	run_entry(r, i, id);
	if (ledger_find(l, id) != NULL)
		return true;
	for (k = 0; k < l->nentries; k++) {
		e = &l->entries[k];
		if (strcmp(e->front, run_front(r, i)) != 0 ||
		    strcmp(e->draft, run_draft(r, i)) != 0)
			continue;
		if (e->state == LEDGER_SENT || e->state == LEDGER_PENDING ||
		    e->state == LEDGER_UNKNOWN || (e->state == LEDGER_SKIPPED &&
		    e->reason != NULL && strcmp(e->reason, "operator") == 0))
			return true;
	}
	return false;
}

/* Records post i as never to be sent (reason "late" or "operator"): in
 * the ledger on a live run, in memory on a dry one. */
static int
run_skip(struct run *r, int i, const char *reason, time_t now,
    struct error *err)
{
	const struct plan_post *pp = &r->plan.posts[i];
	struct ledger_intent in;

	r->done[i] = 1;
	if (!r->o.live)
		return 0;
	memset(&in, 0, sizeof in);
	in.plan = r->pub.plan_id;
	in.slot = pp->slot;
	in.front = run_front(r, i);
	in.draft = run_draft(r, i);
	in.text = pp->text;
	in.at = pp->at;
	in.now = now;
	return ledger_skip(&r->pub.ledger, &in, reason, err);
}

/* A post answered "not now" keeps its wait through a re-plan that keeps
 * it (same draft, front and time). */
static void
run_keep_snoozes(struct run *r, const struct project *op,
    const struct plan *old, const time_t *snooze)
{
	const struct plan_post *a, *b;
	int i, k;

	for (i = 0; i < old->nposts; i++) {
		a = &old->posts[i];
		for (k = 0; snooze[i] > 0 && k < r->plan.nposts; k++) {
			b = &r->plan.posts[k];
			if (b->at == a->at && strcmp(r->p->drafts[b->draft].id,
			    op->drafts[a->draft].id) == 0 &&
			    strcmp(r->p->fronts[b->front].id,
			    op->fronts[a->front].id) == 0)
				r->snooze[k] = snooze[i];
		}
	}
}

int
run_skip_late(const struct project *p, const struct plan *pl, int i,
    time_t now, struct error *err)
{
	const struct plan_post *pp = &pl->posts[i];
	struct publish pub;
	struct ledger_intent in;
	char id[LEDGER_ID_LEN];
	int rc;

	if (publish_open(&pub, p, pl, 0, err) != 0)
		return -1;
	memset(&in, 0, sizeof in);
	in.plan = pub.plan_id;
	in.slot = pp->slot;
	in.front = p->fronts[pp->front].id;
	in.draft = p->drafts[pp->draft].id;
	in.text = pp->text;
	in.at = pp->at;
	in.now = now;
	ledger_entry_id(in.plan, in.slot, in.front, in.draft, in.text, id);
	rc = ledger_find(&pub.ledger, id) != NULL ? 1 :
	    ledger_skip(&pub.ledger, &in, "late", err);
	publish_close(&pub);
	return rc;
}

int
run_adopt(struct run *r, struct project *p, struct plan *plan,
    const char *reason, struct error *err)
{
	struct project *op = r->p;
	struct plan old = r->plan;
	time_t *snooze = r->snooze;

	if (r->pub_open)
		publish_close(&r->pub);
	r->pub_open = false;
	r->p = p;
	r->plan = *plan;
	memset(plan, 0, sizeof *plan);
	free(r->done);
	r->snooze = xcalloc((size_t)r->plan.nposts + 1, sizeof *r->snooze);
	r->done = xcalloc((size_t)r->plan.nposts + 1, 1);
	if (op != NULL)
		run_keep_snoozes(r, op, &old, snooze);
	free(snooze);
	plan_free(&old);
	if (op != NULL && op != p)
		project_free(op);
	if (publish_open(&r->pub, r->p, &r->plan, r->o.timeout_ms, err) != 0)
		return -1;
	r->pub_open = true;
	if (reason == NULL || !r->o.live)
		return 0;
	r->t.generations++;
	return run_gen_save(r, reason, err);
}

/* PLAN.json, parsed against the project as fronts.json has it. */
static int
run_load_file(const char *dir, const char *path, struct project **p,
    struct plan *plan, struct error *err)
{
	if (project_load(dir, p, err) != 0)
		return -1;
	return plan_read_file(*p, path, plan, err);
}

/* The plan the run starts from: PLAN (or the newest generation, when it
 * continues PLAN), else the newest generation. */
static int
run_load(struct run *r, struct error *err)
{
	struct project *p = NULL, *gp = NULL;
	struct plan plan, gplan;
	char src[40] = "";
	time_t end = 0;
	int n = run_gen_latest(r->o.dir), rc;

	memset(&plan, 0, sizeof plan);
	memset(&gplan, 0, sizeof gplan);
	if (n > 0 && run_gen_load(r->o.dir, n, &gp, &gplan, src, &end,
	    err) != 0)
		return -1;
	r->generation = n;
	if (r->o.plan_path == NULL && n == 0)
		return error_set(err, EXIT_USAGE, "no plan to run: give "
		    "PLAN.json (from `fronts plan -o`); later runs continue "
		    "from .fronts/plans/");
	if (r->o.plan_path != NULL) {
		if (run_load_file(r->o.dir, r->o.plan_path, &p, &plan,
		    err) != 0) {
			plan_free(&plan);
			project_free(p);
			plan_free(&gplan);
			project_free(gp);
			return -1;
		}
		if (n == 0 || strcmp(src, plan.id) != 0) {
			plan_free(&gplan);
			project_free(gp);
			snprintf(r->source, sizeof r->source, "%s", plan.id);
			r->horizon_end = project_slot_time(p, p->horizon_slots);
			rc = run_adopt(r, p, &plan, "started from the plan "
			    "given", err);
			plan_free(&plan);
			return rc;
		}
		/* The same plan again: go on where the last run was. */
		plan_free(&plan);
		project_free(p);
		run_say(r, "continuing from generation %d of this plan "
		    "(.fronts/plans/)", n);
	}
	snprintf(r->source, sizeof r->source, "%s", src);
	r->horizon_end = end;
	rc = run_adopt(r, gp, &gplan, NULL, err);
	plan_free(&gplan);
	return rc;
}

/* A thread begun whose window closed (its slot's, or sooner its draft's
 * not_after): the parts left will not be sent; said, and recorded on a
 * live run. 1 when it closed, 0 when it is still open, -1 on error. */
static int
run_thread_closed(struct run *r, int i, time_t now, struct error *err)
{
	time_t closed = publish_thread_closes(&r->pub, i, run_end(r, i));
	char msg[512];

	if (now < closed)
		return 0;
	if (publish_thread_close(&r->pub, i, closed, r->o.live, now, msg,
	    sizeof msg, err) != 0)
		return -1;
	r->done[i] = 1;
	run_say(r, "%s%s", msg, r->o.live ? ", recorded in the ledger" : "");
	r->t.late++;
	return 1;
}

/* Windows that closed with their post neither sent nor skipped: skipped
 * (late), and said. Returns how many. */
static int
run_close_windows(struct run *r, time_t now, struct error *err)
{
	char at[16];
	int i, n = 0, rc;

	for (i = 0; i < r->plan.nposts; i++) {
		if (!r->done[i] && publish_resumable(&r->pub, i)) {
			if ((rc = run_thread_closed(r, i, now, err)) < 0)
				return -1;
			n += rc;
			continue;
		}
		if (now < run_end(r, i) || run_post_settled(r, i))
			continue;
		if (run_skip(r, i, "late", now, err) != 0)
			return -1;
		run_when(r->plan.posts[i].at, now, at, sizeof at);
		run_say(r, "%s on %s at %s: its window closed before it was "
		    "sent: skipped (late)%s", run_draft(r, i), run_front(r, i),
		    at, r->o.live ? ", recorded in the ledger" : "");
		r->t.late++;
		n++;
	}
	return n;
}

int
run_open(const struct run_opts *o, const struct run_ui *ui,
    struct run **out, struct error *err)
{
	struct run *r = xcalloc(1, sizeof *r);
	time_t now = clock_now();
	int n;

	r->o = *o;
	r->ui = *ui;
	*out = r;
	if (run_load(r, err) != 0)
		return -1;
	if (r->pub.ledger.nproblems > 0)
		return error_set(err, EXIT_ERROR, "%s; the ledger must be "
		    "repaired before anything is published",
		    r->pub.ledger.problems[0]);
	if (o->live && ledger_unresolved(&r->pub.ledger) > 0)
		return error_set(err, EXIT_REFUSED, "the ledger holds a post "
		    "whose outcome is unknown; check the platform and settle "
		    "it (`fronts ledger`) before running");
	r->last_replan = now;
	if ((n = run_close_windows(r, now, err)) < 0)
		return -1;
	if (n > 0)
		return run_replan(r, "posts whose window closed while fronts "
		    "was not running were skipped (late)", err);
	return 0;
}

void
run_notify_reap(pid_t *pids, int *n)
{
	int i, st;

	for (i = 0; i < *n; )
		if (waitpid(pids[i], &st, WNOHANG) != 0)
			pids[i] = pids[--*n];
		else
			i++;
}

void
run_close(struct run *r)
{
	int i, st;

	if (r == NULL)
		return;
	for (i = 0; i < r->nchildren; i++)
		waitpid(r->children[i], &st, 0);
	free(r->children);
	if (r->pub_open)
		publish_close(&r->pub);
	plan_free(&r->plan);
	project_free(r->p);
	free(r->snooze);
	free(r->done);
	free(r->tree);
	free(r);
}

int
run_tick(struct run *r, time_t now, struct error *err)
{
	int i, n;

	run_notify_reap(r->children, &r->nchildren);
	if ((n = run_close_windows(r, now, err)) < 0)
		return -1;
	if (n > 0 && run_replan(r, "a post's window closed unsent", err) != 0)
		return -1;
	if (r->o.replan_minutes > 0 && r->o.live && r->o.model_src != NULL &&
	    now - r->last_replan >= (time_t)r->o.replan_minutes * 60 &&
	    now < r->horizon_end &&
	    run_replan(r, "the regular re-plan", err) != 0)
		return -1;
	for (i = 0; i < r->plan.nposts; i++)
		if (!run_post_settled(r, i))
			return 0;
	return 1;
}

int
run_notify_start(const char *cmd, const char *front, const char *draft,
    time_t at, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	const char *path = getenv("PATH"), *home = getenv("HOME");
	char when[40], *env[6], *argv[4];
	int k, rc;

	time_format_local(at, when, sizeof when);
	xasprintf(&env[0], "PATH=%s", path != NULL ? path : "/usr/bin:/bin");
	xasprintf(&env[1], "HOME=%s", home != NULL ? home : "/");
	xasprintf(&env[2], "FRONTS_FRONT=%s", front);
	xasprintf(&env[3], "FRONTS_DRAFT=%s", draft);
	xasprintf(&env[4], "FRONTS_AT=%s", when);
	env[5] = NULL;
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)cmd;
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
	    O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
	    O_WRONLY, 0);
	rc = posix_spawn(pid, "/bin/sh", &fa, NULL, argv, env) == 0 ? 0 : -1;
	posix_spawn_file_actions_destroy(&fa);
	for (k = 0; k < 5; k++)
		free(env[k]);
	return rc;
}

static void
run_notify(struct run *r, const struct run_offer *of)
{
	pid_t pid;

	if (r->o.notify == NULL)
		return;
	if (run_notify_start(r->o.notify, r->p->fronts[of->post->front].id,
	    r->p->drafts[of->post->draft].id, of->post->at, &pid) != 0) {
		run_say(r, "--notify: the command could not be started");
		return;
	}
	r->children = xrealloc(r->children,
	    (size_t)(r->nchildren + 1) * sizeof *r->children);
	r->children[r->nchildren++] = pid;
}

/* Post i is due now: its offer, or false when the legality engine or the
 * ledger says no (said, and settled for this process). */
static bool
run_offer_make(struct run *r, int i, time_t now, struct run_offer *of)
{
	struct error err = { 0 };

	memset(of, 0, sizeof *of);
	publish_assess(&r->pub, i, now, false, &of->item);
	if (of->item.status != PUBLISH_READY) {
		r->done[i] = 1;
		run_say(r, "%s on %s: not offered: %s", run_draft(r, i),
		    run_front(r, i), of->item.why);
		return false;
	}
	of->index = i;
	of->project = r->p;
	of->post = &r->plan.posts[i];
	of->window_end = run_end(r, i);
	of->live = r->o.live;
	of->request = publish_describe(&r->pub, i, now, &err);
	if (of->request == NULL)
		snprintf(of->request_error, sizeof of->request_error, "%s",
		    err.msg);
	return true;
}

bool
run_due(struct run *r, time_t now, struct run_offer *out)
{
	const struct plan_post *pp;
	int i;

	for (i = 0; i < r->plan.nposts; i++) {
		pp = &r->plan.posts[i];
		if (pp->at > now || now >= run_end(r, i) ||
		    r->snooze[i] > now || run_post_settled(r, i))
			continue;
		if (!run_offer_make(r, i, now, out))
			continue;
		r->t.offered++;
		run_notify(r, out);
		return true;
	}
	return false;
}

void
run_offer_free(struct run_offer *of)
{
	free(of->request);
	of->request = NULL;
}

/* y: the post goes out (or, in a dry run, is shown as it would). */
static int
run_send(struct run *r, int i, time_t now, struct error *err)
{
	struct channel_result res;
	char why[64];
	bool thread;
	int rc;

	if (!r->o.live) {
		r->done[i] = 1;
		r->t.sent++;
		run_say(r, "DRY RUN: not sent (--live sends)");
		return 0;
	}
	rc = publish_send(&r->pub, i, now, false, &res, err);
	if (rc < 0) {
		r->done[i] = 1;
		run_say(r, "not sent: %s", err->msg);
		memset(err, 0, sizeof *err);
		return 0;
	}
	if (rc == PUBLISH_UNRECORDED) {
		channel_result_free(&res);
		return error_wrap(err, "SENT, OUTCOME NOT RECORDED; the post "
		    "may be online");
	}
	thread = res.message != NULL &&
	    plan_post_nparts(r->p, &r->plan.posts[i]) > 1;
	switch (res.state) {
	case LEDGER_SENT:
		r->t.sent++;
		/* A thread's outcome says its parts went out. */
		run_say(r, "SENT: %s%s%s%s", res.url != NULL ? res.url :
		    res.post_id != NULL ? res.post_id : "(no id returned)",
		    thread ? " (" : "", thread ? res.message : "",
		    thread ? ")" : "");
		break;
	case LEDGER_FAILED:
		r->t.failed++;
		run_say(r, "FAILED (not posted): %s", res.message != NULL ?
		    res.message : "");
		break;
	default:
		error_set(err, EXIT_NETWORK, "UNKNOWN: %s. The post may be "
		    "online. Nothing is retried: check the platform, then "
		    "settle it with `fronts ledger resolve`", res.message !=
		    NULL ? res.message : "");
		channel_result_free(&res);
		return -1;
	}
	snprintf(why, sizeof why, "%s on %s %s", run_draft(r, i),
	    run_front(r, i), res.state == LEDGER_SENT ? "sent" : "failed");
	channel_result_free(&res);
	return run_replan(r, why, err);
}

int
run_key(struct run *r, const struct run_offer *of, int key,
    struct error *err)
{
	time_t now = clock_now(), wait;
	char at[16], why[64];
	int i = of->index;

	if (now >= of->window_end && (key == RUN_KEY_SEND ||
	    key == RUN_KEY_LATER)) {
		run_say(r, "its window closed while it was on screen: not "
		    "sent");
		return run_tick(r, now, err) < 0 ? -1 : 0;
	}
	switch (key) {
	case RUN_KEY_SEND:
		return run_send(r, i, now, err);
	case RUN_KEY_LATER:
		wait = (of->window_end - of->post->at) / 4;
		if (wait < RUN_SNOOZE_MIN)
			wait = RUN_SNOOZE_MIN;
		r->snooze[i] = now + wait;
		r->t.later++;
		run_when(of->window_end, now, at, sizeof at);
		run_say(r, "not now: offered again until its window closes at "
		    "%s", at);
		return 0;
	case RUN_KEY_SKIP:
		if (run_skip(r, i, "operator", now, err) != 0)
			return -1;
		r->t.skipped++;
		run_say(r, "skipped for good%s", r->o.live ?
		    ", recorded in the ledger" : "");
		snprintf(why, sizeof why, "%s on %s skipped", run_draft(r, i),
		    run_front(r, i));
		return run_replan(r, why, err);
	}
	return 0;
}

time_t
run_next_event(struct run *r, time_t now)
{
	time_t next = now + RUN_IDLE_MAX, t;
	int i;

	for (i = 0; i < r->plan.nposts; i++) {
		if (run_post_settled(r, i))
			continue;
		t = r->plan.posts[i].at > now ? r->plan.posts[i].at :
		    r->snooze[i] > now ? r->snooze[i] : run_end(r, i);
		if (t > now && t < next)
			next = t;
	}
	if (r->o.replan_minutes > 0 && r->o.live && r->o.model_src != NULL) {
		t = r->last_replan + (time_t)r->o.replan_minutes * 60;
		if (t > now && t < next)
			next = t;
	}
	return next;
}

bool
run_next_post(struct run *r, time_t now, const struct plan_post **out,
    const struct project **p)
{
	int i;

	for (i = 0; i < r->plan.nposts; i++)
		if (!run_post_settled(r, i) && now < run_end(r, i)) {
			*out = &r->plan.posts[i];
			*p = r->p;
			return true;
		}
	return false;
}

void
run_tally(const struct run *r, struct run_tally *out)
{
	*out = r->t;
}
