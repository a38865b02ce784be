/*
 * cmd_publish — `fronts publish PLAN.json [-C DIR] [--live] [--now]`.
 *
 * Without --live it prints, for every post, exactly the request that would
 * be sent, and sends nothing. With --live it needs a terminal: each post
 * is shown in full and sent only when the operator presses `y` (one key,
 * read raw from the terminal, with anything typed earlier discarded); any
 * other key skips it and `q` stops. Nothing can answer for the operator.
 * Each send holds the project lock (core/lock.h) from its ledger check to
 * its recorded outcome; a second publisher is refused, naming the holder,
 * or with --wait waits for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/clock.h"
#include "cli/cli.h"
#include "core/plan.h"
#include "core/project.h"
#include "core/termsafe.h"
#include "core/timeutil.h"
#include "runs/publish.h"

#define PUBLISH_TIMEOUT_MS	30000

struct publish_opts {
	const char	*plan_path;
	bool		 live;
	bool		 now;
	bool		 wait;
	long		 timeout_ms;
};

struct publish_tally {
	int	sent, failed, unknown, skipped, refused;
	int	unrecorded;	/* sent, but the outcome is not in the ledger */
	int	error;		/* the exit code of the error that stopped it */
	bool	stopped;
};

/* Asks, then reads one key from the terminal on stdin, raw; 0 at end of
 * input. Input typed before the question is discarded, so no key can be
 * pressed ahead of seeing the post. */
static int
publish_key(const char *question)
{
	struct termios old;
	unsigned char ch = 0;
	ssize_t n;

	if (cli_key_begin(question, &old) != 0)
		return 0;
	do
		n = read(STDIN_FILENO, &ch, 1);
	while (n < 0 && errno == EINTR);
	cli_key_end(&old);
	return n == 1 ? ch : 0;
}

static void
publish_show(struct publish *pub, int i, const struct publish_item *it)
{
	const struct plan_post *post = it->post;
	const struct text_measure *m = &it->measure;
	char at[40];

	time_format_local(post->at, at, sizeof at);
	termsafe_fprintf(stdout,
	    "\n== post %d/%d: front %s (%s, %s) at %s, slot %d, draft %s\n",
	    i + 1, pub->plan->nposts, it->front->id,
	    platform_name(it->front->platform),
	    it->front->account != NULL ? it->front->account : "-", at,
	    post->slot, pub->project->drafts[post->draft].id);
	termsafe_fprintf(stdout, "%s\n", post->text);
	printf("-- length %d/%d %s%s, ledger entry %s\n", m->length, m->limit,
	    text_unit_name(m->unit), m->ok ? "" : " (OVER THE LIMIT)",
	    it->entry);
	cli_print_post_notes(pub->project, it);
}

void
cli_print_post_notes(const struct project *p, const struct publish_item *it)
{
	if (plan_post_edited(p, it->post))
		termsafe_fprintf(stdout, "-- edited from draft %s: this text is "
		    "not the draft's, and is what is sent\n",
		    p->drafts[it->post->draft].id);
	if (it->nparts > 1)
		printf("-- a thread of %d parts, each a reply to the one before "
		    "(one ledger entry per part)\n", it->nparts);
	if (it->status == PUBLISH_READY && it->next_part > 0)
		termsafe_fprintf(stdout, "-- %s\n", it->why);
}

static void
publish_show_request(struct publish *pub, int i, time_t now)
{
	struct error err = { 0 };
	char *req = publish_describe(pub, i, now, &err);

	if (req == NULL) {
		termsafe_fprintf(stdout, "request: cannot be built: %s\n",
		    err.msg);
		return;
	}
	printf("request:\n");
	termsafe_json_fputs(req, stdout);	/* the body is JSON */
	free(req);
}

static void
publish_dry_one(struct publish *pub, int i, time_t now, bool future)
{
	struct publish_item it;

	publish_assess(pub, i, now, future, &it);
	publish_show(pub, i, &it);
	switch (it.status) {
	case PUBLISH_SENT:
	case PUBLISH_UNRESOLVED:
	case PUBLISH_REFUSED:
		termsafe_fprintf(stdout, "status: %s\n", it.why);
		break;
	case PUBLISH_FUTURE:
		printf("status: planned for later (a live run offers it then, "
		    "or now with --now)\n");
		break;
	case PUBLISH_READY:
		printf("status: due; a live run would offer it\n");
		break;
	}
	publish_show_request(pub, i, now);
}

static void
publish_report(const struct channel_result *r, struct publish_tally *t)
{
	switch (r->state) {
	case LEDGER_SENT:
		t->sent++;
		termsafe_fprintf(stdout, "SENT: %s%s%s\n", r->url != NULL ?
		    r->url : r->post_id != NULL ? r->post_id :
		    "(no id returned)",
		    r->message != NULL ? " — " : "",
		    r->message != NULL ? r->message : "");
		break;
	case LEDGER_FAILED:
		t->failed++;
		termsafe_fprintf(stdout, "FAILED (not posted): %s\n",
		    r->message);
		break;
	default:
		t->unknown++;
		t->stopped = true;
		termsafe_fprintf(stdout, "UNKNOWN: %s\nThe post may be "
		    "online. Nothing is retried: "
		    "check the platform, then settle it with `fronts ledger "
		    "resolve ID --sent URL` or `--failed`. Stopping.\n",
		    r->message);
		break;
	}
}

/* The confirmation, which says when the text is not the draft's. */
static void
publish_question(const struct publish *pub, const struct plan_post *post,
    char *q, size_t len)
{
	char edited[128] = "";

	if (plan_post_edited(pub->project, post))
		snprintf(edited, sizeof edited, " (edited from draft %s)",
		    pub->project->drafts[post->draft].id);
	snprintf(q, len, "Send this post now%s? [y = send, any other key = "
	    "skip, q = stop] ", edited);
}

/* Another publisher holds the project: say who, then wait (--wait). */
static void
publish_lock_waiting(const char *holder, void *arg)
{
	termsafe_fprintf(stdout, "the project is locked by %s: waiting for "
	    "it to finish…\n", holder);
	fflush(stdout);
}

static void
publish_live_one(struct publish *pub, int i, bool future,
    struct publish_tally *t)
{
	struct publish_item it;
	struct channel_result r;
	struct error err = { 0 };
	time_t now = clock_now();
	char question[256];
	int key;

	publish_assess(pub, i, now, future, &it);
	publish_show(pub, i, &it);
	if (it.status == PUBLISH_FUTURE) {
		printf("planned for later: not offered now (--now offers it)\n");
		t->skipped++;
		return;
	}
	if (it.status != PUBLISH_READY) {
		termsafe_fprintf(stdout, "not offered: %s\n", it.why);
		if (it.status == PUBLISH_REFUSED)
			t->refused++;
		return;
	}
	publish_show_request(pub, i, now);
	publish_question(pub, it.post, question, sizeof question);
	key = publish_key(question);
	printf("%c\n", key >= 0x20 && key < 0x7f ? key : ' ');
	if (key == 'q' || key == 0) {
		printf("stopped\n");
		t->stopped = true;
		return;
	}
	if (key != 'y') {
		printf("skipped\n");
		t->skipped++;
		return;
	}
	printf("sending…\n");
	fflush(stdout);
	switch (publish_send(pub, i, clock_now(), future, &r, &err)) {
	case 0:
		publish_report(&r, t);
		break;
	case PUBLISH_UNRECORDED:
		termsafe_fprintf(stdout, "SENT, OUTCOME NOT RECORDED: %s\nThe "
		    "post may be online. Stopping.\n", err.msg);
		t->unrecorded++;
		t->stopped = true;
		break;
	default:
		termsafe_fprintf(stdout, "not sent: %s\n", err.msg);
		t->refused++;
		if (err.code != EXIT_REFUSED) {
			/* An error, not a refusal (the project locked by
			 * another publisher, say): the run exits with it. */
			t->stopped = true;
			if (t->error == 0)
				t->error = err.code;
		}
		return;
	}
	channel_result_free(&r);
}

static int
publish_unresolved_notice(struct publish *pub, bool live)
{
	const struct ledger *l = &pub->ledger;
	int k;

	for (k = 0; k < l->nproblems; k++)
		termsafe_fprintf(stderr, "fronts publish: %s\n",
		    l->problems[k]);
	if (l->nproblems > 0) {
		fprintf(stderr, "fronts publish: the ledger is damaged; nothing "
		    "is published until it is repaired (check the platform for "
		    "the posts it concerns)\n");
		return EXIT_ERROR;
	}
	for (k = 0; k < l->nentries; k++)
		if (l->entries[k].state == LEDGER_PENDING ||
		    l->entries[k].state == LEDGER_UNKNOWN)
			termsafe_fprintf(stderr, "fronts publish: ledger entry "
			    "%s (front "
			    "%s, draft %s) has no known outcome; check the "
			    "platform, then `fronts ledger resolve %s --sent URL` "
			    "or `--failed`\n", l->entries[k].id,
			    l->entries[k].front, l->entries[k].draft,
			    l->entries[k].id);
	if (live && ledger_unresolved(l) > 0) {
		fprintf(stderr, "fronts publish: nothing is sent while an "
		    "outcome is unknown\n");
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

/* A Mastodon front whose instance's own limits were never read is
 * counted against Mastodon's defaults; say so once per front. */
static void
publish_limits_notice(const struct project *p)
{
	const struct front *f;
	int i;

	for (i = 0; i < p->nfronts; i++) {
		f = &p->fronts[i];
		if (f->platform == PLATFORM_MASTODON &&
		    f->limits.instance_length <= 0 &&
		    f->limits.max_length == LIMIT_UNSET)
			termsafe_fprintf(stderr, "fronts publish: front %s: the "
			    "instance's own limits have not been read; Mastodon's "
			    "defaults (500 characters, URLs 23) are assumed until "
			    "`fronts check` reads and caches them\n", f->id);
	}
}

static int
publish_run(struct publish *pub, const struct publish_opts *o)
{
	struct publish_tally t = { 0 };
	time_t now = clock_now();
	int i, rc;

	if ((rc = publish_unresolved_notice(pub, o->live)) != EXIT_OK)
		return rc;
	publish_limits_notice(pub->project);
	termsafe_fprintf(stdout, "%s: plan %s, %d post%s%s\n",
	    o->live ? "LIVE" : "DRY RUN "
	    "(nothing is sent; --live publishes)", pub->plan_id,
	    pub->plan->nposts, pub->plan->nposts == 1 ? "" : "s",
	    o->now ? ", offering future posts now" : "");
	for (i = 0; i < pub->plan->nposts && !t.stopped; i++) {
		if (o->live)
			publish_live_one(pub, i, o->now, &t);
		else
			publish_dry_one(pub, i, now, o->now);
		fflush(stdout);
	}
	if (!o->live)
		return EXIT_OK;
	printf("\n%d sent, %d failed, %d unknown, %d skipped, %d refused",
	    t.sent, t.failed, t.unknown, t.skipped, t.refused);
	if (t.unrecorded > 0)
		printf(", %d sent with the outcome not recorded", t.unrecorded);
	printf("\n");
	if (t.unrecorded > 0)
		return EXIT_ERROR;
	if (t.error != 0)
		return t.error;
	if (t.failed + t.unknown > 0)
		return EXIT_NETWORK;
	return t.refused > 0 ? EXIT_REFUSED : EXIT_OK;
}

static int
publish_parse(struct args *a, struct publish_opts *o)
{
	memset(o, 0, sizeof *o);
	o->live = args_has(a, "live");
	o->now = args_has(a, "now");
	o->wait = args_has(a, "wait");
	o->timeout_ms = args_ms(a, "timeout-ms", PUBLISH_TIMEOUT_MS);
	if (args_count(a) != 1)
		return cli_usage_error("publish", "expected one PLAN.json");
	o->plan_path = args_arg(a, 0);
	return EXIT_OK;
}

static int
cmd_publish_exec(struct cli *cli, struct args *a)
{
	struct publish_opts o;
	struct project *p = NULL;
	struct plan plan;
	struct publish pub;
	struct error err = { 0 };
	char warn[512];
	int rc;

	if ((rc = publish_parse(a, &o)) != EXIT_OK)
		return rc;
	if (o.live && !isatty(STDIN_FILENO))
		return cli_usage_error("publish", "--live needs a terminal on "
		    "stdin: every post is sent only after the operator presses "
		    "y there");
	if (project_load(cli->dir, &p, &err) != 0)
		return cli_report("publish", &err);
	memset(&plan, 0, sizeof plan);
	if (plan_read_file(p, o.plan_path, &plan, &err) != 0) {
		project_free(p);
		return cli_report("publish", &err);
	}
	if (plan_identity_check(p, &plan, warn, sizeof warn, &err) != 0) {
		error_wrap(&err, "%s", o.plan_path);
		plan_free(&plan);
		project_free(p);
		return cli_report("publish", &err);
	}
	if (warn[0] != '\0')
		termsafe_fprintf(stderr, "fronts publish: warning: %s: %s\n",
		    o.plan_path, warn);
	if (plan_align_start(p, &plan, clock_now(), warn, sizeof warn))
		fprintf(stderr, "fronts publish: warning: %s\n", warn);
	if (publish_open(&pub, p, &plan, o.timeout_ms, &err) != 0)
		rc = cli_report("publish", &err);
	else {
		pub.lock_command = "fronts publish --live";
		pub.lock_wait = o.wait;
		pub.lock_waiting = publish_lock_waiting;
		rc = publish_run(&pub, &o);
		publish_close(&pub);
	}
	plan_free(&plan);
	project_free(p);
	return rc;
}

const struct cmd_entry cmd_publish_entry = {
	.name = "publish",
	.summary = "publish a plan's posts, one keypress each (dry run unless --live)",
	.usage = "PLAN.json [-C DIR] [--live] [--now] [--wait] [--timeout-ms MS]",
	.options = (const struct args_option[]){
		{ .name = "live", .kind = ARGS_FLAG,
		  .help = "send for real (default: print each request)" },
		{ .name = "now", .kind = ARGS_FLAG,
		  .help = "offer posts planned for later now too" },
		CLI_OPTION_WAIT,
		CLI_OPTION_TIMEOUT_MS,
		{ .name = NULL }
	},
	.args_max = -1,
	.exec = cmd_publish_exec,
};
