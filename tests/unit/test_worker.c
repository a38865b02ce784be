/*
 * test_worker — the process boundary: a random-rollout job in the worker,
 * every hostile model ending in the right error within its deadline, the
 * seccomp filter killing open/socket/fork/execve (installed in a forked
 * child through the same seccomp_install() the worker uses), malformed
 * worker output, and no zombie or leaked descriptor afterwards. Stopping:
 * a worker asked to stop sends its tree so far; one that cannot answer is
 * killed after the grace period (the planner's side: test_planner.c).
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/frame.h"
#include "core/rollout.h"
#include "sandbox/seccomp.h"
#include "sandbox/worker.h"
#include "core/validate.h"

#ifndef TOP
#define TOP "."
#endif

static char scratch[64];

static int
count_fds(void)
{
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int
setup(void **state)
{
	const char *bin = getenv("FRONTS_BIN");

	worker_set_binary(bin != NULL ? bin : TOP "/build/fronts");
	snprintf(scratch, sizeof scratch, "/tmp/fronts-test-worker.XXXXXX");
	return mkdtemp(scratch) != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", scratch);
	return system(cmd) == 0 ? 0 : -1;
}

struct outcome {
	int	rc;		/* last worker_poll return */
	struct error err;
	char	*result;
	size_t	rlen;
	int	snapshots;
	double	seconds;
};

static void
run_job(const char *model_path, enum worker_job_kind kind, uint64_t iterations,
    int call_timeout_ms, double deadline, long memory_mb, struct outcome *o)
{
	struct worker_job job = { 0 };
	struct search_snapshot *snap;
	struct worker *w;
	char *src;
	size_t len;
	double t0;

	memset(o, 0, sizeof *o);
	assert_int_equal(file_read(model_path, &src, &len, &o->err), 0);
	job.kind = kind;
	job.project_dir = TOP "/fixtures/demo";
	job.model_src = src;
	job.model_len = len;
	job.params.iterations = iterations;
	job.params.seed = 1;
	job.params.call_timeout_ms = call_timeout_ms;
	job.deadline = deadline;
	job.memory_mb = memory_mb;
	snap = calloc(1, sizeof *snap);
	t0 = clock_seconds();
	assert_int_equal(worker_spawn(&job, &w, &o->err), 0);
	do {
		o->rc = worker_poll(w, 100, snap, &o->result, &o->rlen, &o->err);
		if (o->rc == WORKER_EVENT_SNAPSHOT)
			o->snapshots++;
	} while (o->rc == WORKER_EVENT_NONE || o->rc == WORKER_EVENT_SNAPSHOT);
	o->seconds = clock_seconds() - t0;
	worker_free(w);
	free(snap);
	free(src);
}

static void
expect_death(const char *model, int call_timeout_ms, double deadline,
    long memory_mb, int code, const char *needle)
{
	struct outcome o;

	run_job(model, WORKER_JOB_ROLLOUT, 3, call_timeout_ms, deadline,
	    memory_mb, &o);
	if (o.rc != -1 || o.err.code != code || strstr(o.err.msg, needle) == NULL)
		fail_msg("%s: rc %d code %d: %s (wanted %d, \"%s\")", model, o.rc,
		    o.err.code, o.err.msg, code, needle);
	/* Within the deadline, with room to reap on a loaded machine. */
	if (deadline > 0)
		assert_true(o.seconds < deadline + 5.0);
	free(o.result);
}

static void
test_rollout_job(void **state)
{
	struct rollout_stats st;
	struct outcome o;
	struct error err;
	cJSON *j;

	run_job(TOP "/fixtures/demo/model.py", WORKER_JOB_ROLLOUT, 20, 2000,
	    60, 0, &o);
	if (o.rc != WORKER_EVENT_RESULT)
		fail_msg("worker: %s", o.err.msg);
	j = cJSON_Parse(o.result);
	assert_non_null(j);
	assert_int_equal(rollout_stats_from_json(j, &st, &err), 0);
	assert_int_equal(st.rollouts, 20);
	assert_true(st.model_calls > 20 * 72);
	assert_true(st.posts > 0);
	assert_int_equal(st.illegal_proposals, 0);
	assert_true(st.mean_return > 0);
	cJSON_Delete(j);
	free(o.result);
}

/* The planner's whole search in the worker; its tree merges back here. */
static void
test_plan_job(void **state)
{
	struct search_params sp = { .iterations = 300, .seed = 1, .workers = 1 };
	struct search_result res;
	struct project *p;
	struct search *s;
	struct outcome o;
	struct error err;

	run_job(TOP "/fixtures/demo/model.py", WORKER_JOB_PLAN, 300, 2000,
	    120, 0, &o);
	if (o.rc != WORKER_EVENT_RESULT)
		fail_msg("worker: %s", o.err.msg);
	assert_true(o.snapshots >= 1);
	assert_int_equal(project_load(TOP "/fixtures/demo", &p, &err), 0);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_merge(s, o.result, o.rlen, &err), 0);
	assert_int_equal(search_result(s, 1, &res), 0);
	assert_true(res.npv > 0);
	assert_true(res.expected_total > 0);
	search_result_free(&res);
	search_free(s);
	project_free(p);
	free(o.result);
}

/* Validation in the worker: the demo model conforms. */
static void
test_validate_job(void **state)
{
	struct validate_report r;
	struct project *p;
	struct outcome o;
	struct error err;
	cJSON *j;

	run_job(TOP "/fixtures/demo/model.py", WORKER_JOB_VALIDATE, 5, 5000,
	    120, 0, &o);
	if (o.rc != WORKER_EVENT_RESULT)
		fail_msg("worker: %s", o.err.msg);
	assert_int_equal(project_load(TOP "/fixtures/demo", &p, &err), 0);
	j = cJSON_Parse(o.result);
	assert_non_null(j);
	memset(&r, 0, sizeof r);
	if (validate_report_from_json(p, j, &r, &err) != 0)
		fail_msg("report: %s", err.msg);
	assert_true(r.conformant);
	assert_true(r.nchecks > 0);
	assert_true(r.backtest.nposts > 0);
	validate_report_free(&r);
	cJSON_Delete(j);
	project_free(p);
	free(o.result);
}

static void
test_hostile_spin_guard(void **state)
{
	/* The worker's own watchdog stops the call... */
	expect_death(TOP "/tests/hostile/spin.py", 200, 20, 0, EXIT_MODEL,
	    "apply() ran longer than 200 ms");
}

static void
test_hostile_spin_deadline(void **state)
{
	/* ...and without a per-call deadline the parent's SIGKILL does. */
	expect_death(TOP "/tests/hostile/spin.py", 0, 1.5, 0, EXIT_MODEL,
	    "deadline of 1.5 s");
}

static void
test_hostile_bigpow(void **state)
{
	/* One C-level operation: the watchdog cannot raise in it, the
	 * backstop (no GIL needed) ends the worker at the call's deadline
	 * plus the grace, before the job's deadline. */
	expect_death(TOP "/tests/hostile/bigpow.py", 200, 30, 0, EXIT_MODEL,
	    "apply ran past its deadline of 200 ms and did not stop within "
	    "1000 ms more");
}

static void
test_hostile_bigpow_no_call_deadline(void **state)
{
	/* Without a per-call deadline only the job's deadline ends it. */
	expect_death(TOP "/tests/hostile/bigpow.py", 0, 1.5, 0, EXIT_MODEL,
	    "deadline of 1.5 s");
}

static void
test_hostile_membomb(void **state)
{
	expect_death(TOP "/tests/hostile/membomb.py", 20000, 30, 200,
	    EXIT_MODEL, "out of memory (limit 200 MiB)");
}

static void
test_hostile_toplevel_memory(void **state)
{
	expect_death(TOP "/tests/hostile/toplevel_memory.py", 20000, 30, 200,
	    EXIT_MODEL, "out of memory (limit 200 MiB)");
}

static void
test_hostile_recursion(void **state)
{
	expect_death(TOP "/tests/hostile/recursion.py", 5000, 30, 0,
	    EXIT_MODEL, "RecursionError");
}

/* The worker's gate refuses them too; what a worker reports can only be
 * EXIT_MODEL (refusals are the parent's to decide). */
static void
test_hostile_gated(void **state)
{
	expect_death(TOP "/tests/hostile/openfile.py", 1000, 30, 0,
	    EXIT_MODEL, "model| the gate refused");
	expect_death(TOP "/tests/hostile/socket.py", 1000, 30, 0,
	    EXIT_MODEL, "model| the gate refused");
	expect_death(TOP "/tests/hostile/fork.py", 1000, 30, 0,
	    EXIT_MODEL, "model| the gate refused");
}

/* ---- the filter itself, below the gate ---------------------------------- */

enum attempt { TRY_OPEN, TRY_SOCKET, TRY_FORK, TRY_EXEC, TRY_ALLOWED };

static void
attempt(enum attempt what, int fd)
{
	char *const argv[] = { "true", NULL };
	char *p;

	switch (what) {
	case TRY_OPEN:
		open("/etc/hostname", O_RDONLY);
		break;
	case TRY_SOCKET:
		socket(AF_INET, SOCK_STREAM, 0);
		break;
	case TRY_FORK:
		fork();
		break;
	case TRY_EXEC:
		execv("/bin/true", argv);
		break;
	case TRY_ALLOWED:
		/* Memory and the pipe keep working. */
		p = malloc(64 << 20);
		memset(p, 1, 64 << 20);
		free(p);
		frame_write(fd, FRAME_READY, "", 0, NULL);
		_exit(0);
	}
	_exit(99);	/* the syscall ran: the filter failed */
}

/* Runs what in a child under the filter; returns the syscall it reported
 * (or "" if none) and checks how it ended. */
static void
filtered(enum attempt what, const char *want)
{
	struct error err = { 0 };
	char *buf, name[64] = "";
	int p[2], status, type;
	size_t len;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		if (seccomp_install(p[1], &err) != 0)
			_exit(98);
		attempt(what, p[1]);
	}
	close(p[1]);
	if (frame_read(p[0], &type, &buf, &len, &err) == 0) {
		if (type == FRAME_SYSCALL && len == 4)
			snprintf(name, sizeof name, "%s", seccomp_syscall_name(
			    *(uint32_t *)buf));
		free(buf);
	}
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (want == NULL) {
		assert_int_equal(WEXITSTATUS(status), 0);
		return;
	}
	assert_int_equal(WEXITSTATUS(status), SECCOMP_EXIT);
	assert_string_equal(name, want);
}

static void
test_seccomp_open(void **state)
{
	filtered(TRY_OPEN, "openat");
}

static void
test_seccomp_socket(void **state)
{
	filtered(TRY_SOCKET, "socket");
}

static void
test_seccomp_fork(void **state)
{
	filtered(TRY_FORK, "clone");
}

static void
test_seccomp_exec(void **state)
{
	filtered(TRY_EXEC, "execve");
}

static void
test_seccomp_allows_computing(void **state)
{
	filtered(TRY_ALLOWED, NULL);
}

/* ---- misbehaving workers --------------------------------------------------- */

static void
fake_worker(const char *script, const char *needle)
{
	char path[128];
	struct outcome o;
	FILE *f;

	snprintf(path, sizeof path, "%s/fake.sh", scratch);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", script);
	fclose(f);
	chmod(path, 0755);
	worker_set_binary(path);
	run_job(TOP "/fixtures/demo/model.py", WORKER_JOB_ROLLOUT, 1, 1000, 10,
	    0, &o);
	setup(NULL);
	if (o.rc != -1 || o.err.code != EXIT_MODEL ||
	    strstr(o.err.msg, needle) == NULL)
		fail_msg("rc %d: %s (wanted \"%s\")", o.rc, o.err.msg, needle);
	free(o.result);
}

static void
test_malformed_output(void **state)
{
	fake_worker("printf 'garbage garbage' >&4", "malformed output");
	fake_worker("printf '\\010\\000\\000\\000S{' >&4", "truncated frame");
	fake_worker("printf '\\001\\000\\000\\000Sx' >&4; sleep 5",
	    "malformed output (a bad snapshot)");
	fake_worker("printf '\\000\\000\\000\\000?' >&4; sleep 5",
	    "malformed output (an unknown frame type)");
	fake_worker("echo something broke >&2; exit 3",
	    "status 3 without a result: model| something broke");
	fake_worker("kill -SEGV $$", "signal 11");
	/* Closes its pipe and lingers: killed after a grace period. */
	fake_worker("exec 4>&-; exec sleep 30", "closed its pipe without a "
	    "result and was killed");
}

/* A forged error frame: whatever code it names, the parent makes it
 * EXIT_MODEL; its text comes on one line after the model prefix. */
static void
test_forged_error_frame(void **state)
{
	/* {"code":5,"message":"a\nsandbox: none"}: 39 bytes */
	fake_worker("printf '\\047\\000\\000\\000E{\"code\":5,\"message\":"
	    "\"a\\\\nsandbox: none\"}' >&4; sleep 5",
	    "model| a\\nsandbox: none");
	fake_worker("printf '\\047\\000\\000\\000E{\"code\":3,\"message\":"
	    "\"a\\\\rsandbox: none\"}' >&4; sleep 5",
	    "model| a\\rsandbox: none");
}

/* A header over its type's bound ends the worker before any of its
 * payload is read. */
static void
test_oversized_frames(void **state)
{
	fake_worker("printf '\\000\\000\\000\\020S' >&4; sleep 5",
	    "a snapshot frame of 268435456 bytes, more than the");
	fake_worker("printf '\\005\\000\\000\\000Y' >&4; sleep 5",
	    "a syscall frame of 5 bytes, more than the 4");
	/* At the bound: its payload is waited for. */
	fake_worker("printf '\\000\\040\\000\\000E' >&4",
	    "truncated frame");
	fake_worker("printf '\\001\\040\\000\\000E' >&4; sleep 5",
	    "an error frame of 8193 bytes, more than the 8192");
}

/* ---- stopping ------------------------------------------------------------ */

static void
assert_no_children(void)
{
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void
stop_job(const char *model_path, struct worker_job *job, char **src)
{
	struct error err;
	size_t len;

	memset(job, 0, sizeof *job);
	assert_int_equal(file_read(model_path, src, &len, &err), 0);
	job->kind = WORKER_JOB_PLAN;
	job->project_dir = TOP "/fixtures/demo";
	job->model_src = *src;
	job->model_len = len;
	job->params.iterations = 1000000000;	/* far more than it will do */
	job->params.seed = 1;
	job->params.workers = 1;
	job->params.call_timeout_ms = 2000;
	job->deadline = 300;
}

/* Asked to stop mid-search, the worker sends the tree it has. */
static void
test_stop_returns_tree(void **state)
{
	struct search_params sp = { .iterations = 1, .seed = 1, .workers = 1 };
	struct search_snapshot *snap = calloc(1, sizeof *snap);
	struct worker_job job;
	struct project *p;
	struct search *s;
	struct worker *w;
	struct error err;
	char *src, *res = NULL;
	size_t rlen = 0;
	int rc;

	stop_job(TOP "/fixtures/demo/model.py", &job, &src);
	assert_int_equal(worker_spawn(&job, &w, &err), 0);
	do
		rc = worker_poll(w, 100, snap, &res, &rlen, &err);
	while (rc == WORKER_EVENT_NONE ||
	    (rc == WORKER_EVENT_SNAPSHOT && snap->iterations == 0));
	if (rc != WORKER_EVENT_SNAPSHOT)
		fail_msg("before the stop: %d %s", rc, err.msg);
	worker_cancel(w, 30);
	do
		rc = worker_poll(w, 100, snap, &res, &rlen, &err);
	while (rc == WORKER_EVENT_NONE || rc == WORKER_EVENT_SNAPSHOT);
	if (rc != WORKER_EVENT_RESULT)
		fail_msg("after the stop: %d %s", rc, err.msg);
	assert_int_equal(snap->state, SEARCH_STOPPED);
	worker_free(w);
	assert_int_equal(project_load(TOP "/fixtures/demo", &p, &err), 0);
	s = search_new(p, &sp, 0);
	assert_int_equal(search_merge(s, res, rlen, &err), 0);
	search_snapshot(s, snap);
	assert_true(snap->iterations > 0);
	assert_true(snap->iterations < job.params.iterations);
	assert_true(snap->nroot > 0);
	assert_no_children();
	search_free(s);
	project_free(p);
	free(res);
	free(snap);
	free(src);
}

/* A worker stuck in one C-level operation cannot answer: it is killed
 * when the grace period ends, and the error says why. */
static void
test_stop_unanswered(void **state)
{
	struct search_snapshot *snap = calloc(1, sizeof *snap);
	struct worker_job job;
	struct worker *w;
	struct error err;
	char *src, *res = NULL;
	size_t rlen = 0;
	int rc;

	stop_job(TOP "/tests/hostile/loadhang.py", &job, &src);
	assert_int_equal(worker_spawn(&job, &w, &err), 0);
	worker_cancel(w, 0.5);
	do
		rc = worker_poll(w, 100, snap, &res, &rlen, &err);
	while (rc == WORKER_EVENT_NONE || rc == WORKER_EVENT_SNAPSHOT);
	assert_int_equal(rc, -1);
	assert_int_equal(err.code, EXIT_MODEL);
	if (strstr(err.msg, "did not answer the stop within 0.5 s") == NULL)
		fail_msg("%s", err.msg);
	worker_free(w);
	assert_no_children();
	free(snap);
	free(src);
}

static void
test_no_leaks(void **state)
{
	struct outcome o;
	int before = count_fds(), i;

	for (i = 0; i < 3; i++) {
		run_job(TOP "/tests/hostile/spin.py", WORKER_JOB_ROLLOUT, 1, 0,
		    0.3, 0, &o);
		assert_int_equal(o.rc, -1);
	}
	assert_int_equal(count_fds(), before);
	/* Every child was reaped. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollout_job),
		cmocka_unit_test(test_plan_job),
		cmocka_unit_test(test_validate_job),
		cmocka_unit_test(test_hostile_spin_guard),
		cmocka_unit_test(test_hostile_spin_deadline),
		cmocka_unit_test(test_hostile_bigpow),
		cmocka_unit_test(test_hostile_bigpow_no_call_deadline),
		cmocka_unit_test(test_hostile_membomb),
		cmocka_unit_test(test_hostile_toplevel_memory),
		cmocka_unit_test(test_hostile_recursion),
		cmocka_unit_test(test_hostile_gated),
		cmocka_unit_test(test_seccomp_open),
		cmocka_unit_test(test_seccomp_socket),
		cmocka_unit_test(test_seccomp_fork),
		cmocka_unit_test(test_seccomp_exec),
		cmocka_unit_test(test_seccomp_allows_computing),
		cmocka_unit_test(test_malformed_output),
		cmocka_unit_test(test_forged_error_frame),
		cmocka_unit_test(test_oversized_frames),
		cmocka_unit_test(test_stop_returns_tree),
		cmocka_unit_test(test_stop_unanswered),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
