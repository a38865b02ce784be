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
#include "sandbox/rollout.h"

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
		cmocka_unit_test(test_validate_result_ranges),
		cmocka_unit_test(test_rollout_result_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
