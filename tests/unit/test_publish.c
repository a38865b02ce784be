/* Unit tests for the publish flow (runs/publish.c) against the fake
 * Composio server on 127.0.0.1 (tests/servers/fake_social.py) and a
 * project from tests/cli/publish_fixture.py: what the dry-run request
 * shows (never the key), the ledger's intent before its outcome, a sent
 * post never sent again, and what publish_send refuses before any intent:
 * a post planned for later unless asked for, and anything while an
 * earlier attempt is unresolved. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "testutil.h"
#include "fixture_fake.h"
#include "core/plan.h"
#include "core/project.h"
#include "runs/publish.h"

#define SENTINEL	"ck-SENTINEL-5e1f-composio"

struct fx {
	char		 dir[64];
	char		 proj[128];
	pid_t		 pid;
	int		 port;
	struct project	*p;
	struct plan	 plan;
	struct publish	 pub;
};

static char *
fx_path(const struct fx *x, const char *name)
{
	char *p;

	xasprintf(&p, "%s/%s", x->dir, name);
	return p;
}

static void
fx_server(struct fx *x)
{
	char *srv, *log = fx_path(x, "social.log"), *pf = fx_path(x, "port");

	xasprintf(&srv, "%s/tests/servers/fake_social.py", top());
	setenv("FAKE_COMPOSIO_KEY", SENTINEL, 1);
	if ((x->pid = fork()) == 0) {
		execl("/usr/bin/python3", "python3", srv, "--port-file", pf,
		    "--log", log, "--mode", "ok", (char *)NULL);
		_exit(127);
	}
	x->port = fake_port(pf);
	assert_true(x->port > 0);
	free(srv);
	free(log);
	free(pf);
}

static void
fx_plan(struct fx *x)
{
	struct error err = { 0 };
	char *path, *text;
	cJSON *json;

	path = path_join(x->proj, "plan.json");
	assert_int_equal(file_read(path, &text, NULL, &err), 0);
	json = cJSON_Parse(text);
	assert_non_null(json);
	assert_int_equal(plan_from_json(x->p, json, &x->plan, &err), 0);
	cJSON_Delete(json);
	free(text);
	free(path);
}

/* Posts: 0 x/d1 at slot 1 and 1 linkedin/d2 at slot 2 (both due: the
 * project began three hours ago), 2 x/d3 at slot 30 (later). */
static int
setup(void **state)
{
	struct fx *x = xcalloc(1, sizeof *x);
	struct error err = { 0 };
	char *cmd, url[64];

	snprintf(x->dir, sizeof x->dir, "/tmp/fronts-test-publish-XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	fx_server(x);
	snprintf(url, sizeof url, "http://127.0.0.1:%d", x->port);
	setenv("COMPOSIO_BASE_URL", url, 1);
	setenv("COMPOSIO_API_KEY", SENTINEL, 1);
	snprintf(x->proj, sizeof x->proj, "%s/proj", x->dir);
	xasprintf(&cmd, "/usr/bin/python3 %s/tests/cli/publish_fixture.py both "
	    "%s %d 5 x:d1:1 linkedin:d2:2 x:d3:30", top(), x->proj, x->port);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(project_load(x->proj, &x->p, &err), 0);
	fx_plan(x);
	assert_int_equal(publish_open(&x->pub, x->p, &x->plan, 5000, &err), 0);
	*state = x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *x = *state;
	char *cmd;

	publish_close(&x->pub);
	plan_free(&x->plan);
	project_free(x->p);
	kill(x->pid, SIGTERM);
	waitpid(x->pid, NULL, 0);
	xasprintf(&cmd, "rm -rf %s", x->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", x->dir);
	free(cmd);
	free(x);
	return 0;
}

static void
test_dry_run_shows_the_request(void **state)
{
	struct fx *x = *state;
	struct publish_item it;
	struct error err = { 0 };
	char *req, *log = fx_path(x, "social.log"), *ledger, want[128];

	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_READY);
	assert_string_equal(it.front->id, "x");
	assert_true(it.measure.ok);
	req = publish_describe(&x->pub, 0, clock_now(), &err);
	assert_non_null(req);
	snprintf(want, sizeof want, "http://127.0.0.1:%d/api/v3.1/tools/"
	    "execute/TWITTER_CREATION_OF_A_POST", x->port);
	assert_non_null(strstr(req, want));
	assert_non_null(strstr(req, "Tidewater 1.0 is out"));
	assert_non_null(strstr(req, "ca_test_x"));
	assert_non_null(strstr(req, "***"));		/* the key's place */
	assert_null(strstr(req, SENTINEL));
	free(req);
	/* Describing sends nothing and writes no intent. */
	assert_int_equal(count(log, "\"ev\": \"connect\""), 0);
	ledger = path_join(x->proj, ".fronts/ledger.jsonl");
	assert_int_equal(count(ledger, "\"record\""), 0);
	free(ledger);
	free(log);
}

static void
test_intent_then_outcome_and_never_again(void **state)
{
	struct fx *x = *state;
	struct channel_result r;
	struct publish_item it;
	struct error err = { 0 };
	char *log = fx_path(x, "social.log"), line[4096], entry[64];
	char *ledger = path_join(x->proj, ".fronts/ledger.jsonl");
	FILE *f;

	assert_int_equal(publish_send(&x->pub, 0, clock_now(), false, &r,
	    &err), 0);
	assert_int_equal(r.state, LEDGER_SENT);
	assert_non_null(r.post_id);
	channel_result_free(&r);
	assert_int_equal(count(log, "\"ev\": \"request\""), 1);
	/* The intent is on disk before the outcome, both for one entry. */
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	snprintf(entry, sizeof entry, "\"entry\":\"%s\"", it.entry);
	f = fopen(ledger, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	assert_non_null(strstr(line, "\"record\":\"intent\""));
	assert_non_null(strstr(line, entry));
	assert_non_null(fgets(line, sizeof line, f));
	assert_non_null(strstr(line, "\"record\":\"sent\""));
	assert_non_null(strstr(line, entry));
	assert_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_null(strstr(line, SENTINEL));
	/* Sent is final: assessed as sent, refused before any request. */
	assert_int_equal(it.status, PUBLISH_SENT);
	assert_int_equal(publish_send(&x->pub, 0, clock_now(), true, &r, &err),
	    -1);
	assert_int_equal(err.code, EXIT_REFUSED);
	assert_non_null(strstr(err.msg, "already sent"));
	assert_int_equal(count(log, "\"ev\": \"request\""), 1);
	assert_int_equal(count(ledger, "\"record\""), 2);
	free(ledger);
	free(log);
}

/* A post planned for later goes only when the caller asks for it. */
static void
test_future_only_when_asked(void **state)
{
	struct fx *x = *state;
	struct channel_result r;
	struct publish_item it;
	struct error err = { 0 };
	char *log = fx_path(x, "social.log");

	publish_assess(&x->pub, 2, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_FUTURE);
	assert_int_equal(publish_send(&x->pub, 2, clock_now(), false, &r, &err),
	    -1);
	assert_int_equal(err.code, EXIT_REFUSED);
	assert_non_null(strstr(err.msg, "planned for later"));
	assert_int_equal(count(log, "\"ev\": \"connect\""), 0);
	publish_assess(&x->pub, 2, clock_now(), true, &it);
	assert_int_equal(it.status, PUBLISH_READY);
	free(log);
}

/* A post whose slot was inside its draft's window is refused when the
 * moment of sending is past not_after (a late run), and nothing is sent. */
static void
test_window_at_send_time(void **state)
{
	struct fx *x = *state;
	struct publish_item it;
	struct draft *d = &x->p->drafts[x->plan.posts[0].draft];
	char *log = fx_path(x, "social.log");

	d->has_not_after = true;
	d->not_after = x->plan.posts[0].at + 60;
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_REFUSED);
	assert_non_null(strstr(it.why, "is outside draft d1's window "
	    "(not_after "));
	d->not_after = clock_now() + 3600;
	publish_assess(&x->pub, 0, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_READY);
	d->has_not_after = false;
	assert_int_equal(count(log, "\"ev\": \"connect\""), 0);
	free(log);
}

/* An intent without an outcome (a crash mid-send) reads as unknown: that
 * post is never offered again, and nothing else is sent until it is
 * settled. */
static void
test_unresolved_blocks_every_send(void **state)
{
	struct fx *x = *state;
	struct ledger_intent in;
	struct ledger_entry *e;
	struct channel_result r;
	struct publish_item it;
	struct error err = { 0 };
	const struct plan_post *pp = &x->plan.posts[1];
	char *log = fx_path(x, "social.log");

	publish_assess(&x->pub, 1, clock_now(), false, &it);
	memset(&in, 0, sizeof in);
	in.plan = x->pub.plan_id;
	in.slot = pp->slot;
	in.front = "linkedin";
	in.draft = "d2";
	in.text = pp->text;
	in.channel = "composio/LINKEDIN_CREATE_LINKED_IN_POST";
	in.at = pp->at;
	in.now = clock_now();
	assert_int_equal(ledger_intent(&x->pub.ledger, &in, &e, &err), 0);
	assert_string_equal(e->id, it.entry);
	publish_assess(&x->pub, 1, clock_now(), false, &it);
	assert_int_equal(it.status, PUBLISH_UNRESOLVED);
	assert_int_equal(publish_send(&x->pub, 1, clock_now(), false, &r, &err),
	    -1);
	assert_non_null(strstr(err.msg, "has no known outcome"));
	assert_int_equal(publish_send(&x->pub, 0, clock_now(), false, &r, &err),
	    -1);
	assert_int_equal(publish_send(&x->pub, 2, clock_now(), true, &r, &err),
	    -1);
	assert_non_null(strstr(err.msg, "has no known outcome"));
	assert_int_equal(count(log, "\"ev\": \"connect\""), 0);
	free(log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dry_run_shows_the_request,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_intent_then_outcome_and_never_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_future_only_when_asked,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_window_at_send_time,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_unresolved_blocks_every_send, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
