/* Unit tests for the parent's readers of worker output: the incremental
 * frame reader over a pipe, and the snapshot, error and syscall payloads,
 * which must refuse every number outside its field's range rather than
 * convert it (a hostile worker writes these bytes). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture_project.h"
#include "core/validate.h"
#include "sandbox/frame.h"
#include "sandbox/frame_parse.h"
#include "sandbox/lockdown.h"
#include "core/rollout.h"

static struct search_snapshot snap;

static void
test_snapshot_roundtrip(void **state)
{
	struct search_snapshot in;
	cJSON *j;
	char *s;

	memset(&in, 0, sizeof in);
	in.state = SEARCH_RUNNING;
	in.iterations = 1234;
	in.model_calls = UINT64_C(1) << 60;
	in.elapsed = 1.5;
	in.workers = 2;
	in.nroot = 2;
	in.root[1].action.kind = ACTION_POST;
	in.root[1].action.front = 3;
	in.root[1].action.draft = 70000;
	in.root[1].slot = 9;
	in.root[1].visits = 77;
	in.root[1].mean = -2.25;
	in.npv = 1;
	snprintf(in.error, sizeof in.error, "none");
	j = frame_snapshot_json(&in);
	s = cJSON_PrintUnformatted(j);
	assert_int_equal(frame_snapshot_parse(s, &snap), 0);
	assert_int_equal(snap.state, SEARCH_RUNNING);
	assert_int_equal(snap.iterations, 1234);
	assert_int_equal(snap.model_calls, UINT64_C(1) << 60);
	assert_int_equal(snap.nroot, 2);
	assert_int_equal(snap.root[1].action.draft, 70000);
	assert_int_equal(snap.root[1].slot, 9);
	assert_true(snap.root[1].mean == -2.25);
	assert_int_equal(snap.npv, 1);
	assert_string_equal(snap.error, "none");
	free(s);
	cJSON_Delete(j);
}

#define EDGE(f)	"{\"root\":[{" f "}],\"pv\":[],\"error\":\"\"}"

static void
test_snapshot_out_of_range(void **state)
{
	static const char *bad[] = {
		EDGE("\"kind\":7"),
		EDGE("\"kind\":-1"),
		EDGE("\"front\":65536"),
		EDGE("\"front\":1e300"),
		EDGE("\"draft\":4294967296"),
		EDGE("\"slot\":-5"),
		EDGE("\"slot\":2.5"),
		EDGE("\"visits\":1.8446744073709552e19"),
		EDGE("\"visits\":-1"),
		EDGE("\"mean\":1e999"),
		EDGE("\"mean\":\"x\""),
		"{\"state\":9,\"root\":[],\"pv\":[],\"error\":\"\"}",
		"{\"workers\":1e12,\"root\":[],\"pv\":[],\"error\":\"\"}",
		"{\"iterations\":-3,\"root\":[],\"pv\":[],\"error\":\"\"}",
		"{\"elapsed\":-1e999,\"root\":[],\"pv\":[],\"error\":\"\"}",
		"{\"root\":[],\"pv\":[],\"error\":5}",
		"{\"root\":[],\"error\":\"\"}",
		"{\"root\":[1],\"pv\":[],\"error\":\"\"}",
		"[]",
		"",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (frame_snapshot_parse(bad[i], &snap) == 0)
			fail_msg("accepted %s", bad[i]);
	/* Absent numbers read as 0. */
	assert_int_equal(frame_snapshot_parse(EDGE("\"kind\":1"), &snap), 0);
	assert_int_equal(snap.root[0].action.kind, ACTION_POST);
	assert_int_equal(snap.root[0].visits, 0);
	assert_int_equal(snap.iterations, 0);
}

static void
test_snapshot_too_many_edges(void **state)
{
	char *s = strdup("{\"pv\":[],\"error\":\"\",\"root\":["), *next;
	int i;

	for (i = 0; i <= SNAPSHOT_MAX_CHILDREN; i++) {
		xasprintf(&next, "%s%s{}", s, i ? "," : "");
		free(s);
		s = next;
	}
	xasprintf(&next, "%s]}", s);
	free(s);
	assert_int_equal(frame_snapshot_parse(next, &snap), -1);
	free(next);
}

static void
test_error_frame(void **state)
{
	char msg[64];
	int code = 0;

	assert_int_equal(frame_error_parse("{\"code\":4,\"message\":\"boom\"}",
	    &code, msg, sizeof msg), 0);
	assert_int_equal(code, EXIT_MODEL);
	assert_string_equal(msg, "boom");
	assert_int_equal(frame_error_parse("{\"code\":0,\"message\":\"x\"}",
	    &code, msg, sizeof msg), -1);
	assert_int_equal(frame_error_parse("{\"code\":4.5,\"message\":\"x\"}",
	    &code, msg, sizeof msg), -1);
	assert_int_equal(frame_error_parse("{\"code\":1e300,\"message\":\"x\"}",
	    &code, msg, sizeof msg), -1);
	assert_int_equal(frame_error_parse("{\"code\":1}", &code, msg,
	    sizeof msg), -1);
	assert_int_equal(frame_error_parse("nope", &code, msg, sizeof msg), -1);
}

static void
test_syscall_frame(void **state)
{
	int nr = -1;

	assert_int_equal(frame_syscall_parse("\x29\0\0\0", 4, &nr), 0);
	assert_int_equal(nr, 41);
	assert_int_equal(frame_syscall_parse("\x29\0\0", 3, &nr), -1);
	assert_int_equal(frame_syscall_parse("\0\0\0\x80", 4, &nr), -1);
}

/* A VALIDATE result whose integers an int or uint64_t cannot take, or
 * whose backtest numbers are not finite rewards, is malformed, not
 * converted (found by fuzz_worker_output). */
#define BT	"{\"window\":0.5,\"entries\":[]}"
static void
test_validate_result_ranges(void **state)
{
	static const char *bad[] = {
		"{\"checks\":[{\"line\":1e300}],\"backtest\":" BT "}",
		"{\"checks\":[{\"line\":-1}],\"backtest\":" BT "}",
		"{\"checks\":[],\"backtest\":{\"window\":0.5,\"entries\":"
		    "[{\"id\":\"h1\",\"predicted\":true,\"mean\":1e300,"
		    "\"lo\":0,\"hi\":1,\"mean_log\":0}]}}",
		"{\"checks\":[],\"backtest\":{\"window\":7,\"entries\":[]}}",
		"{\"checks\":[],\"backtest\":" BT ",\"model_calls\":-5}",
	};
	struct project *p = fx_project("UTC", "2026-12-01T08:00:00Z", 60, 4,
	    2, 2);
	struct validate_report r;
	struct error err = { 0 };
	cJSON *j;
	size_t i;

	fx_history(p, 0, "2026-11-20T10:00:00Z");
	fx_history(p, 1, "2026-11-21T10:00:00Z");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_non_null(j = cJSON_Parse(bad[i]));
		if (validate_report_from_json(p, j, &r, &err) == 0)
			fail_msg("accepted %s", bad[i]);
		assert_int_equal(err.code, EXIT_MODEL);
		cJSON_Delete(j);
	}
	assert_non_null(j = cJSON_Parse("{\"conformant\":true,\"checks\":"
	    "[{\"name\":\"a\",\"status\":\"pass\",\"line\":3}],"
	    "\"backtest\":{\"window\":0.5,\"ran\":true,\"entries\":"
	    "[{\"id\":\"h1\",\"predicted\":true,\"mean\":2,\"lo\":1,"
	    "\"hi\":3,\"mean_log\":1}]},\"model_calls\":10}"));
	assert_int_equal(validate_report_from_json(p, j, &r, &err), 0);
	assert_int_equal(r.checks[0].line, 3);
	assert_int_equal(r.backtest.nposts, 1);
	assert_true(r.backtest.posts[0].predicted);
	assert_true(r.backtest.posts[0].mean == 2);
	assert_int_equal(r.model_calls, 10);
	validate_report_free(&r);
	cJSON_Delete(j);
	fx_free(p);
}

static void
test_rollout_result_ranges(void **state)
{
	static const char *bad[] = {
		"{\"rollouts\":1e300,\"steps\":1,\"posts\":1,\"model_calls\":1,"
		"\"illegal_proposals\":1,\"mean_return\":1,\"seconds\":1}",
		"{\"rollouts\":-1,\"steps\":1,\"posts\":1,\"model_calls\":1,"
		"\"illegal_proposals\":1,\"mean_return\":1,\"seconds\":1}",
		"{\"rollouts\":1,\"steps\":1.5,\"posts\":1,\"model_calls\":1,"
		"\"illegal_proposals\":1,\"mean_return\":1,\"seconds\":1}",
		"{\"rollouts\":1,\"steps\":1,\"posts\":1,\"model_calls\":1,"
		"\"illegal_proposals\":1,\"mean_return\":1e999,\"seconds\":1}",
	};
	struct rollout_stats st;
	struct error err = { 0 };
	cJSON *j;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_non_null(j = cJSON_Parse(bad[i]));
		if (rollout_stats_from_json(j, &st, &err) == 0)
			fail_msg("accepted %s", bad[i]);
		cJSON_Delete(j);
	}
	assert_non_null(j = cJSON_Parse("{\"rollouts\":4,\"steps\":40,"
	    "\"posts\":9,\"model_calls\":80,\"illegal_proposals\":0,"
	    "\"mean_return\":-1.5,\"seconds\":0.25}"));
	assert_int_equal(rollout_stats_from_json(j, &st, &err), 0);
	assert_int_equal(st.steps, 40);
	assert_true(st.mean_return == -1.5);
	cJSON_Delete(j);
}

/* Frames cut anywhere arrive whole, and a bad length is malformed. */
static void
test_reader_pieces(void **state)
{
	struct frame_reader rd = { 0 };
	unsigned char h[FRAME_HEADER];
	char *buf;
	size_t len;
	int fds[2], type, i;

	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	frame_header(h, FRAME_SNAPSHOT, 3);
	for (i = 0; i < FRAME_HEADER; i++) {
		assert_int_equal(write(fds[1], &h[i], 1), 1);
		assert_int_equal(frame_reader_fill(&rd, fds[0]), 1);
		assert_int_equal(frame_reader_next(&rd, &type, &buf, &len), 0);
	}
	assert_int_equal(write(fds[1], "abc", 3), 3);
	assert_int_equal(frame_reader_fill(&rd, fds[0]), 1);
	assert_int_equal(frame_reader_next(&rd, &type, &buf, &len), 1);
	assert_int_equal(type, FRAME_SNAPSHOT);
	assert_int_equal(len, 3);
	assert_string_equal(buf, "abc");
	free(buf);
	frame_header(h, FRAME_RESULT, FRAME_MAX + 1);
	assert_int_equal(write(fds[1], h, sizeof h), (ssize_t)sizeof h);
	assert_int_equal(frame_reader_fill(&rd, fds[0]), 1);
	assert_int_equal(frame_reader_next(&rd, &type, &buf, &len), -1);
	close(fds[1]);
	close(fds[0]);
	frame_reader_free(&rd);
}

static size_t
test_limit(void *arg, int type)
{
	(void)arg;
	return type == FRAME_SNAPSHOT ? 10 : FRAME_MAX;
}

/* A header over its type's limit is refused as soon as it is in: nothing
 * of the payload is read or buffered. */
static void
test_reader_limit(void **state)
{
	struct frame_reader rd = { .limit = test_limit };
	unsigned char h[FRAME_HEADER];
	char *buf;
	size_t len;
	int fds[2], type;

	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	frame_header(h, FRAME_SNAPSHOT, 10);
	assert_int_equal(write(fds[1], h, sizeof h), (ssize_t)sizeof h);
	assert_int_equal(write(fds[1], "0123456789", 10), 10);
	frame_header(h, FRAME_SNAPSHOT, 11);
	assert_int_equal(write(fds[1], h, sizeof h), (ssize_t)sizeof h);
	assert_int_equal(frame_reader_fill(&rd, fds[0]), 1);
	assert_int_equal(frame_reader_next(&rd, &type, &buf, &len), 1);
	assert_int_equal(len, 10);
	free(buf);
	assert_int_equal(frame_reader_next(&rd, &type, &buf, &len), -1);
	assert_int_equal(rd.over_type, FRAME_SNAPSHOT);
	assert_int_equal(rd.over_len, 11);
	assert_true(rd.cap <= 65536);
	close(fds[1]);
	close(fds[0]);
	frame_reader_free(&rd);
}

/* A large frame is read into a buffer of its own size, handed over
 * whole: afterwards the reader holds nothing. */
static void
test_reader_hand_over(void **state)
{
	struct frame_reader rd = { 0 };
	unsigned char h[FRAME_HEADER];
	size_t n = 3 << 20, len, i;
	char *big = malloc(n), *buf = NULL;
	int fds[2], type, rc = 0;

	memset(big, 'x', n);
	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	frame_header(h, FRAME_RESULT, (uint32_t)n);
	assert_int_equal(write(fds[1], h, sizeof h), (ssize_t)sizeof h);
	for (i = 0; i < n; i += 4096) {
		assert_int_equal(write(fds[1], big + i, 4096), 4096);
		while (frame_reader_fill(&rd, fds[0]) > 0)
			;
		rc = frame_reader_next(&rd, &type, &buf, &len);
		assert_true(rc >= 0);
		if (rc == 0)
			assert_true(rd.cap <= n + FRAME_HEADER + 1);
	}
	assert_int_equal(rc, 1);
	assert_int_equal(len, n);
	assert_int_equal(buf[0], 'x');
	assert_int_equal(buf[n - 1], 'x');
	assert_int_equal(buf[n], '\0');
	assert_null(rd.buf);
	assert_int_equal(rd.cap, 0);
	free(buf);
	free(big);
	close(fds[1]);
	close(fds[0]);
	frame_reader_free(&rd);
}

/* A million empty frames, each taken from an offset: no byte is moved
 * more than once (the old reader moved the rest of its buffer, up to a
 * read's 128 KiB, for every frame). */
static void
test_reader_linear(void **state)
{
	struct frame_reader rd = { 0 };
	enum { N = 1000000, PER = 10000 };
	unsigned char *chunk = malloc(PER * FRAME_HEADER);
	char *buf;
	size_t len;
	int fds[2], type, i, got = 0, rc;

	for (i = 0; i < PER; i++)
		frame_header(chunk + i * FRAME_HEADER, FRAME_SNAPSHOT, 0);
	assert_int_equal(pipe2(fds, O_NONBLOCK), 0);
	assert_true(fcntl(fds[1], F_SETPIPE_SZ, 1 << 20) > 0);
	for (i = 0; i < N / PER; i++) {
		assert_int_equal(write(fds[1], chunk, PER * FRAME_HEADER),
		    PER * FRAME_HEADER);
		while (frame_reader_fill(&rd, fds[0]) > 0)
			while ((rc = frame_reader_next(&rd, &type, &buf,
			    &len)) > 0) {
				got++;
				free(buf);
			}
	}
	assert_int_equal(got, (N / PER) * PER);
	assert_int_equal(frame_reader_pending(&rd), 0);
	free(chunk);
	close(fds[1]);
	close(fds[0]);
	frame_reader_free(&rd);
}

/* Every frame's bound holds the longest payload a worker can legally
 * send: every edge and number at its longest, every string byte a
 * control escaped as six. */
static void
test_bounds_hold_legal_frames(void **state)
{
	struct search_snapshot *s = calloc(1, sizeof *s);
	struct rollout_stats st;
	struct lockdown ld;
	cJSON *j;
	char *text;
	int i;

	s->nroot = SNAPSHOT_MAX_CHILDREN;
	s->npv = SNAPSHOT_MAX_PV;
	s->iterations = s->model_calls = s->illegal_proposals = UINT64_MAX;
	s->model_errors = s->nodes = UINT64_MAX;
	s->elapsed = s->model_seconds = s->rate = -1.2345678901234567e-300;
	s->workers = 65536;
	s->state = SEARCH_FAILED;
	for (i = 0; i < SNAPSHOT_MAX_CHILDREN + SNAPSHOT_MAX_PV; i++) {
		struct search_edge *e = i < SNAPSHOT_MAX_CHILDREN ?
		    &s->root[i] : &s->pv[i - SNAPSHOT_MAX_CHILDREN];

		e->action.kind = ACTION_POST;
		e->action.front = UINT16_MAX;
		e->action.draft = UINT32_MAX;
		e->slot = INT32_MAX;
		e->visits = e->avail = UINT64_MAX;
		e->mean = e->reward_mean = e->ci_lo = e->ci_hi =
		    -1.2345678901234567e-300;
	}
	memset(s->error, 1, sizeof s->error - 1);
	text = cJSON_PrintUnformatted(j = frame_snapshot_json(s));
	assert_true(strlen(text) <= FRAME_SNAPSHOT_MAX);
	free(text);
	cJSON_Delete(j);
	free(s);

	j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "code", EXIT_NETWORK);
	text = malloc(sizeof ((struct error *)0)->msg);
	memset(text, 1, sizeof ((struct error *)0)->msg - 1);
	text[sizeof ((struct error *)0)->msg - 1] = '\0';
	cJSON_AddStringToObject(j, "message", text);
	free(text);
	text = cJSON_PrintUnformatted(j);
	assert_true(strlen(text) <= FRAME_ERROR_MAX);
	free(text);
	cJSON_Delete(j);

	memset(&ld, 1, sizeof ld);
	ld.landlock_abi = 99;
	memset(ld.why, 1, sizeof ld.why - 1);
	ld.why[sizeof ld.why - 1] = '\0';
	text = cJSON_PrintUnformatted(j = lockdown_json(&ld));
	assert_true(strlen(text) <= FRAME_READY_MAX);
	free(text);
	cJSON_Delete(j);

	memset(&st, 0, sizeof st);
	st.rollouts = st.steps = st.posts = UINT64_MAX;
	st.model_calls = st.illegal_proposals = UINT64_MAX;
	st.mean_return = st.seconds = -1.2345678901234567e-300;
	text = cJSON_PrintUnformatted(j = rollout_stats_json(&st));
	assert_true(strlen(text) <= FRAME_ROLLOUT_MAX);
	free(text);
	cJSON_Delete(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_roundtrip),
		cmocka_unit_test(test_snapshot_out_of_range),
		cmocka_unit_test(test_snapshot_too_many_edges),
		cmocka_unit_test(test_error_frame),
		cmocka_unit_test(test_syscall_frame),
		cmocka_unit_test(test_reader_pieces),
		cmocka_unit_test(test_reader_limit),
		cmocka_unit_test(test_reader_hand_over),
		cmocka_unit_test(test_reader_linear),
		cmocka_unit_test(test_bounds_hold_legal_frames),
		cmocka_unit_test(test_validate_result_ranges),
		cmocka_unit_test(test_rollout_result_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
