/* Unit tests for the platform tables (net/platform.h): every platform
 * fronts publishes to has one, complete, under its own name, reading the
 * credential variables README names; and the Bluesky login that
 * publishing and `fronts check` share, against the fake PDS
 * (tests/servers/fake_social.py). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture_fake.h"
#include "net/platform.h"

#define PASS	"bp-SENTINEL-91"

static struct front
front_of(const char *id, enum platform pl, const char *json)
{
	struct front f;

	memset(&f, 0, sizeof f);
	f.id = (char *)id;
	f.platform = pl;
	f.raw = cJSON_Parse(json);
	assert_non_null(f.raw);
	return f;
}

/* Threads has no channel: the one platform without a table. */
static void
test_every_platform_has_a_table(void **state)
{
	const struct platform_handler *pl;
	int p;

	for (p = 0; p < PLATFORM_COUNT; p++) {
		pl = platform_of((enum platform)p);
		if (p == PLATFORM_THREADS) {
			assert_null(pl);
			continue;
		}
		assert_non_null(pl);
		assert_int_equal(pl->platform, p);
		assert_string_equal(pl->name, platform_name((enum platform)p));
		assert_non_null(pl->channel);
		assert_non_null(pl->secret_field);
		assert_non_null(pl->secret_default);
		assert_non_null(pl->key);
		assert_non_null(pl->build);
		assert_non_null(pl->send);
		assert_non_null(pl->check);
		assert_true(pl->max_images >= 0 &&
		    pl->max_images <= CHANNEL_MAX_IMAGES);
		/* A field the channel needs is named with its service. */
		assert_true((pl->need_field == NULL) ==
		    (pl->need_block == NULL));
		assert_true(pl->need_field == NULL || pl->service != NULL);
		/* Composio's platforms say what their tools differ in. */
		assert_true((pl->kind == CHANNEL_COMPOSIO) ==
		    (pl->composio != NULL));
		assert_true(pl->composio == NULL ||
		    pl->composio->text_arg != NULL);
		assert_true(pl->composio == NULL ||
		    (pl->composio->read_tool == NULL) ==
		    (pl->composio->read_args == NULL));
	}
	assert_null(platform_of(PLATFORM_COUNT));
	assert_null(platform_of((enum platform)-1));
}

/* What `fronts history pull` reads: Mastodon, Bluesky and X; LinkedIn
 * and Reddit have no read API fronts uses (their exports instead). */
static void
test_pull_is_documented_null(void **state)
{
	assert_non_null(platform_of(PLATFORM_X)->pull);
	assert_non_null(platform_of(PLATFORM_MASTODON)->pull);
	assert_non_null(platform_of(PLATFORM_BLUESKY)->pull);
	assert_null(platform_of(PLATFORM_LINKEDIN)->pull);
	assert_null(platform_of(PLATFORM_REDDIT)->pull);
}

static void
test_names_are_unique(void **state)
{
	const struct platform_handler *a, *b;
	int i, j;

	for (i = 0; i < PLATFORM_COUNT; i++)
		for (j = i + 1; j < PLATFORM_COUNT; j++) {
			a = platform_of((enum platform)i);
			b = platform_of((enum platform)j);
			if (a == NULL || b == NULL)
				continue;
			assert_ptr_not_equal(a, b);
			assert_string_not_equal(a->name, b->name);
			/* Tables sharing a channel share its kind. */
			assert_true((strcmp(a->channel, b->channel) == 0) ==
			    (a->kind == b->kind));
		}
}

/* README's Credentials and fronts.json sections name every variable a
 * table reads and the field a front overrides it with. */
static void
test_secrets_match_readme(void **state)
{
	const struct platform_handler *pl;
	char *readme, path[4096], want[128];
	int p;

	snprintf(path, sizeof path, "%s/README.md", top());
	assert_int_equal(file_read(path, &readme, NULL, NULL), 0);
	for (p = 0; p < PLATFORM_COUNT; p++) {
		if ((pl = platform_of((enum platform)p)) == NULL)
			continue;
		snprintf(want, sizeof want, "`%s`", pl->secret_default);
		assert_non_null(strstr(readme, want));
		snprintf(want, sizeof want, "`%s`", pl->secret_field);
		if (strstr(readme, want) == NULL) {
			snprintf(want, sizeof want, "`\"%s\"`",
			    pl->secret_field);
			assert_non_null(strstr(readme, want));
		}
	}
	free(readme);
}

/* The variable a front names wins over the table's default. */
static void
test_secret_var_and_front_checks(void **state)
{
	struct front m = front_of("m", PLATFORM_MASTODON,
	    "{\"token_env\":\"MY_TOKEN\"}");
	struct front b = front_of("b", PLATFORM_BLUESKY, "{}");
	struct front x = front_of("x", PLATFORM_X, "{}");
	struct front t = front_of("t", PLATFORM_THREADS, "{}");
	struct error err = { 0 };
	char *name;

	assert_string_equal(channel_secret_var(&m), "MY_TOKEN");
	assert_string_equal(channel_secret_var(&b), "BLUESKY_APP_PASSWORD");
	assert_string_equal(channel_secret_var(&x), "COMPOSIO_API_KEY");
	assert_null(channel_secret_var(&t));
	assert_null(platform_front(&x, &err));
	assert_string_equal(err.msg, "fronts.json: front \"x\": composio.tool "
	    "is missing; publishing to x goes through Composio");
	assert_null(platform_front(&t, &err));
	assert_string_equal(err.msg, "front \"t\": fronts cannot publish to "
	    "threads");
	name = platform_call_name(platform_front(&m, &err), &m);
	assert_string_equal(name, "mastodon");
	free(name);
	cJSON_Delete(m.raw);
	cJSON_Delete(b.raw);
	cJSON_Delete(x.raw);
	cJSON_Delete(t.raw);
}

/* The session request as a dry run shows it: the password never. */
static void
test_bluesky_session_request(void **state)
{
	struct channel_req r;
	char *d;

	memset(&r, 0, sizeof r);
	channel_bluesky_session_req(&r, "https://pds.example", "a.example",
	    PASS, 5000);
	assert_string_equal(r.http.method, "POST");
	assert_string_equal(r.http.url,
	    "https://pds.example/xrpc/com.atproto.server.createSession");
	assert_non_null(strstr(r.body, PASS));
	assert_string_equal(r.shown_body,
	    "{\"identifier\":\"a.example\",\"password\":\"***\"}");
	assert_int_equal(r.http.timeout_ms, 5000);
	r.http.body = r.shown_body;
	r.http.body_len = strlen(r.shown_body);
	d = http_request_describe(&r.http);
	assert_null(strstr(d, PASS));
	free(d);
	r.http.body = r.body;
	channel_req_free(&r);
}

struct fake {
	char	dir[64];
	char	log[96];
	pid_t	pid;
	int	port;
};

static void
fake_start(struct fake *x)
{
	char pf[96], *srv;

	snprintf(x->dir, sizeof x->dir, "/tmp/fronts-test-platform-XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	snprintf(x->log, sizeof x->log, "%s/social.log", x->dir);
	snprintf(pf, sizeof pf, "%s/port", x->dir);
	xasprintf(&srv, "%s/tests/servers/fake_social.py", top());
	setenv("FAKE_BLUESKY_PASSWORD", PASS, 1);
	if ((x->pid = fork()) == 0) {
		execl("/usr/bin/python3", "python3", srv, "--port-file", pf,
		    "--log", x->log, "--mode", "ok", (char *)NULL);
		_exit(127);
	}
	x->port = fake_port(pf);
	assert_true(x->port > 0);
	free(srv);
}

static void
fake_stop(struct fake *x)
{
	char cmd[128];

	if (x->pid > 0) {
		kill(x->pid, SIGTERM);
		waitpid(x->pid, NULL, 0);
		x->pid = 0;
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", x->dir);
	if (system(cmd) != 0)
		fail();
}

/* One login for every caller: the token, DID and handle the PDS answers;
 * a wrong password is REFUSED with the 401; no server is FAILED. */
static void
test_bluesky_login(void **state)
{
	struct fake x = { 0 };
	struct channel_req r;
	struct channel_session s;
	struct http_response resp;
	struct error err = { 0 };
	char service[64];

	fake_start(&x);
	snprintf(service, sizeof service, "http://127.0.0.1:%d", x.port);

	memset(&r, 0, sizeof r);
	channel_bluesky_session_req(&r, service, "tidewater.dev", PASS, 5000);
	assert_int_equal(channel_bluesky_login(&r, &s, &resp, &err),
	    CHANNEL_LOGIN_OK);
	assert_non_null(s.token);
	assert_string_equal(s.did, "did:plc:fakefakefake");
	assert_string_equal(s.handle, "tidewater.dev");
	channel_session_free(&s);
	assert_null(s.token);
	http_response_free(&resp);
	channel_req_free(&r);
	assert_int_equal(count(x.log, "createSession"), 1);
	assert_int_equal(count(x.log, PASS), 0);

	channel_bluesky_session_req(&r, service, "tidewater.dev", "wrong",
	    5000);
	assert_int_equal(channel_bluesky_login(&r, &s, &resp, &err),
	    CHANNEL_LOGIN_REFUSED);
	assert_int_equal(resp.status, 401);
	assert_null(s.token);
	channel_session_free(&s);
	http_response_free(&resp);
	channel_req_free(&r);
	fake_stop(&x);

	/* Nothing listens on the discard port. */
	channel_bluesky_session_req(&r, "http://127.0.0.1:9", "tidewater.dev",
	    PASS, 5000);
	assert_int_equal(channel_bluesky_login(&r, &s, &resp, &err),
	    CHANNEL_LOGIN_FAILED);
	assert_true(err.msg[0] != '\0');
	channel_session_free(&s);
	http_response_free(&resp);
	channel_req_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_platform_has_a_table),
		cmocka_unit_test(test_pull_is_documented_null),
		cmocka_unit_test(test_names_are_unique),
		cmocka_unit_test(test_secrets_match_readme),
		cmocka_unit_test(test_secret_var_and_front_checks),
		cmocka_unit_test(test_bluesky_session_request),
		cmocka_unit_test(test_bluesky_login),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
