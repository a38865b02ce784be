/* Unit tests for images and replies at the channel level, against the
 * fake Mastodon and Bluesky on 127.0.0.1 (tests/servers/fake_social.py):
 * the dry run shows every upload before the post, an image's bytes only
 * as their size and sha256; a live send uploads the cleaned bytes (no
 * camera make on the wire), waits out Mastodon's 202, names the media
 * and the part replied to; Bluesky's embed carries the blob, alt text and
 * aspect ratio, and a reply the strong refs of root and parent. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture_fake.h"
#include "fixture_media.h"
#include "core/media.h"
#include "net/channel_int.h"

#define TOKEN	"mt-SENTINEL-77"
#define PASS	"bp-SENTINEL-78"

struct fx {
	char		 dir[64];
	char		 log[96];
	pid_t		 pid;
	int		 port;
	unsigned char	*img;	/* a cleaned JPEG with GPS in its source */
	size_t		 len;
	struct media_info mi;
};

static void
fx_start(struct fx *x, const char *extra)
{
	char pf[96], *srv;

	snprintf(pf, sizeof pf, "%s/port", x->dir);
	unlink(pf);
	unlink(x->log);
	xasprintf(&srv, "%s/tests/servers/fake_social.py", top());
	if ((x->pid = fork()) == 0) {
		execl("/usr/bin/python3", "python3", srv, "--port-file", pf,
		    "--log", x->log, "--mode", "ok", extra, (char *)NULL);
		_exit(127);
	}
	x->port = fake_port(pf);
	assert_true(x->port > 0);
	free(srv);
}

static void
fx_stop(struct fx *x)
{
	if (x->pid > 0) {
		kill(x->pid, SIGTERM);
		waitpid(x->pid, NULL, 0);
		x->pid = 0;
	}
}

static int
setup(void **state)
{
	struct fx *x = xcalloc(1, sizeof *x);
	struct error err = { 0 };
	unsigned char *raw;
	size_t n;

	snprintf(x->dir, sizeof x->dir, "/tmp/fronts-test-chmedia-XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	snprintf(x->log, sizeof x->log, "%s/social.log", x->dir);
	raw = fix_jpeg(40, 30, 1, &n);
	assert_int_equal(media_probe_mem(raw, n, "gps.jpg", &x->mi, &err), 0);
	assert_int_equal(media_clean(raw, n, &x->mi, false, "gps.jpg", &x->img,
	    &x->len, &err), 0);
	free(raw);
	setenv("FAKE_MASTODON_TOKEN", TOKEN, 1);
	setenv("MASTODON_ACCESS_TOKEN", TOKEN, 1);
	setenv("FAKE_BLUESKY_PASSWORD", PASS, 1);
	setenv("BLUESKY_APP_PASSWORD", PASS, 1);
	setenv("FRONTS_TEST_WAIT_SCALE", "0.001", 1);
	*state = x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *x = *state;
	char *cmd;

	fx_stop(x);
	xasprintf(&cmd, "rm -rf '%s'", x->dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(x->img);
	free(x);
	return 0;
}

static struct front
fx_front(const struct fx *x, enum platform pl)
{
	struct front f;
	char *json;

	memset(&f, 0, sizeof f);
	f.platform = pl;
	if (pl == PLATFORM_MASTODON) {
		f.id = (char *)"m";
		xasprintf(&json, "{\"instance\": \"http://127.0.0.1:%d\"}",
		    x->port);
	} else {
		f.id = (char *)"b";
		xasprintf(&json, "{\"handle\": \"tidewater.dev\", \"service\": "
		    "\"http://127.0.0.1:%d\"}", x->port);
	}
	f.raw = cJSON_Parse(json);
	free(json);
	return f;
}

static struct channel_image
fx_image(const struct fx *x, const char *alt)
{
	struct channel_image im = { x->img, x->len, x->mi.mime, alt,
	    x->mi.width, x->mi.height };

	return im;
}

/* Sends one post; its id (and cid) into the caller's buffers. */
static void
fx_send(const struct front *f, const struct channel_post *p,
    const char *entry, char *id, char *cid)
{
	struct channel_call c;
	struct channel_result r;
	struct error err = { 0 };

	if (channel_open_post(f, p, entry, 1796112000, 1796112000, 5000, &c,
	    &err) != 0)
		fail_msg("%s", err.msg);
	channel_send(&c, &r);
	if (r.state != LEDGER_SENT)
		fail_msg("not sent: %s", r.message);
	snprintf(id, 128, "%s", r.post_id);
	if (cid != NULL) {
		assert_non_null(r.cid);
		snprintf(cid, 128, "%s", r.cid);
	}
	channel_result_free(&r);
	channel_close(&c);
}

/* Sends one post that must fail, the message holding want. */
static void
fx_send_fails(const struct front *f, const struct channel_post *p,
    const char *entry, const char *want)
{
	struct channel_call c;
	struct channel_result r;
	struct error err = { 0 };

	assert_int_equal(channel_open_post(f, p, entry, 1796112000,
	    1796112000, 5000, &c, &err), 0);
	channel_send(&c, &r);
	assert_int_equal(r.state, LEDGER_FAILED);
	if (strstr(r.message, want) == NULL)
		fail_msg("\"%s\" not in: %s", want, r.message);
	channel_result_free(&r);
	channel_close(&c);
}

/* The description of post p on front f; its upload request (to
 * upload_path) comes before its post request (to post_path). */
static char *
describe_ordered(const struct front *f, const struct channel_post *p,
    const char *upload_path, const char *post_path)
{
	struct channel_call c;
	struct error err = { 0 };
	char *d, *up, *post;

	assert_int_equal(channel_open_post(f, p, "e0123456789abcdef", 0, 0, 0,
	    &c, &err), 0);
	d = channel_describe(&c);
	channel_close(&c);
	up = strstr(d, upload_path);
	post = strstr(d, post_path);
	assert_non_null(up);
	assert_non_null(post);
	assert_true(up < post);
	assert_null(strstr(d, TOKEN));
	assert_null(memmem(d, strlen(d), "JFIF", 4));
	return d;
}

/* The dry run: upload first, its bytes described, the post naming it. */
static void
test_describe_uploads(void **state)
{
	struct fx *x = *state;
	struct front f;
	struct channel_image im = fx_image(x, "A tide chart");
	struct channel_post p = { "low tide at 6", &im, 1, NULL };
	char *d;

	x->port = 9;
	f = fx_front(x, PLATFORM_MASTODON);
	d = describe_ordered(&f, &p, "POST http://127.0.0.1:9/api/v2/media\n",
	    "POST http://127.0.0.1:9/api/v1/statuses\n");
	assert_non_null(strstr(d, "multipart/form-data; boundary=fronts-"));
	assert_non_null(strstr(d, "filename=\"image.jpg\""));
	assert_non_null(strstr(d, "bytes of image/jpeg, 40x30, sha256 "));
	assert_non_null(strstr(d, "name=\"description\"\r\n\r\nA tide chart"));
	assert_non_null(strstr(d, "(then, once the upload is processed"));
	assert_non_null(strstr(d, "\"media_ids\":[\"<id of upload 1>\"]"));
	free(d);
	cJSON_Delete(f.raw);

	f = fx_front(x, PLATFORM_BLUESKY);
	d = describe_ordered(&f, &p,
	    "POST http://127.0.0.1:9/xrpc/com.atproto.repo.uploadBlob\n",
	    "POST http://127.0.0.1:9/xrpc/com.atproto.repo.createRecord\n");
	assert_non_null(strstr(d, "Content-Type: image/jpeg\n"));
	assert_non_null(strstr(d, "\"embed\":{\"$type\":\"app.bsky.embed.images\","
	    "\"images\":[{\"alt\":\"A tide chart\",\"image\":\"<blob of upload 1>\","
	    "\"aspectRatio\":{\"width\":40,\"height\":30}}]}"));
	free(d);
	cJSON_Delete(f.raw);
}

static void
mastodon_thread(struct fx *x, const char *mode)
{
	struct front f;
	struct channel_image im = fx_image(x, "A tide chart");
	struct channel_post p1 = { "part one", &im, 1, NULL }, p2 = {
	    "part two", NULL, 0, NULL };
	struct channel_reply rep = { 0 };
	char id1[128], id2[128], want[192];

	fx_start(x, mode);
	f = fx_front(x, PLATFORM_MASTODON);
	fx_send(&f, &p1, "e00000000000000a1", id1, NULL);
	rep.root_id = rep.parent_id = id1;
	p2.reply = &rep;
	fx_send(&f, &p2, "e00000000000000a2", id2, NULL);
	assert_int_equal(count(x->log, "\"ev\": \"upload\""), 1);
	assert_int_equal(count(x->log, "\"has_camera\": true"), 0);
	assert_int_equal(count(x->log, "\"has_camera\": false"), 2);
	assert_int_equal(count(x->log, "\"description\": \"A tide chart\""), 1);
	/* The post event's keys, sorted: only it has both. */
	snprintf(want, sizeof want, "\"in_reply_to_id\": \"%s\", \"media\": []",
	    id1);
	assert_int_equal(count(x->log, want), 1);
	assert_int_equal(count(x->log, "\"ev\": \"post\""), 2);
	cJSON_Delete(f.raw);
	fx_stop(x);
}

static void
test_mastodon_thread(void **state)
{
	mastodon_thread(*state, "--mode=ok");
}

/* 202: polled until processed (206 once, then 200), then the status. */
static void
test_mastodon_async_upload(void **state)
{
	struct fx *x = *state;

	mastodon_thread(x, "--media-async");
	assert_int_equal(count(x->log, "\"status\": 202"), 1);
	assert_int_equal(count(x->log, "\"status\": 206"), 1);
}

/* A refused upload: no post was sent, and the outcome says failed. */
static void
test_mastodon_upload_refused(void **state)
{
	struct fx *x = *state;
	struct front f;
	struct channel_image im = fx_image(x, NULL);
	struct channel_post p = { "part one", &im, 1, NULL };

	fx_start(x, "--mode=ok");
	f = fx_front(x, PLATFORM_MASTODON);
	im.mime = "text/plain";
	fx_send_fails(&f, &p, "e00000000000000b1",
	    "no post was sent: image 1 of 1 did not upload: HTTP 422");
	assert_int_equal(count(x->log, "\"ev\": \"post\""), 0);
	cJSON_Delete(f.raw);
	fx_stop(x);
}

static void
test_bluesky_thread(void **state)
{
	struct fx *x = *state;
	struct front f;
	struct channel_image im = fx_image(x, "A tide chart");
	struct channel_post p1 = { "part one", &im, 1, NULL }, p2 = {
	    "part two", NULL, 0, NULL }, p3 = { "part three", NULL, 0, NULL };
	struct channel_reply r2 = { 0 }, r3 = { 0 };
	char id1[128], cid1[128], id2[128], cid2[128], id3[128];

	fx_start(x, "--mode=ok");
	f = fx_front(x, PLATFORM_BLUESKY);
	fx_send(&f, &p1, "e00000000000000c1", id1, cid1);
	r2 = (struct channel_reply){ id1, cid1, id1, cid1 };
	p2.reply = &r2;
	fx_send(&f, &p2, "e00000000000000c2", id2, cid2);
	r3 = (struct channel_reply){ id1, cid1, id2, cid2 };
	p3.reply = &r3;
	fx_send(&f, &p3, "e00000000000000c3", id3, NULL);
	assert_int_equal(count(x->log, "\"ev\": \"upload\""), 1);
	assert_int_equal(count(x->log, "\"has_camera\": false"), 1);
	assert_int_equal(count(x->log, "\"has_camera\": true"), 0);
	assert_int_equal(count(x->log, "\"images\": 1"), 1);
	assert_int_equal(count(x->log, "\"ev\": \"post\""), 3);
	/* A wrong cid is a broken strong ref: refused, nothing posted. */
	r3.parent_cid = "bafywrong";
	p3.text = "part four";
	fx_send_fails(&f, &p3, "e00000000000000c4", "reply/parent");
	assert_int_equal(count(x->log, "\"ev\": \"post\""), 3);
	cJSON_Delete(f.raw);
	fx_stop(x);
}

/* A failed test leaves its fake running: stop it here. */
static int
stop_fake(void **state)
{
	fx_stop(*state);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe_uploads),
		cmocka_unit_test_teardown(test_mastodon_thread, stop_fake),
		cmocka_unit_test_teardown(test_mastodon_async_upload, stop_fake),
		cmocka_unit_test_teardown(test_mastodon_upload_refused, stop_fake),
		cmocka_unit_test_teardown(test_bluesky_thread, stop_fake),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
