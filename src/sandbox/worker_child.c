/*
 * worker_child — the child side of the worker boundary: `fronts __worker`.
 *
 * Reads the job and the model's bytes, loads the project, gates and loads
 * the model, then drops privileges (worker_limits, seccomp_install) before
 * the first model call and runs the whole job in-process, streaming
 * snapshots at about 10 Hz. It ends with _exit(): nothing at exit needs a
 * syscall the filter refuses.
 *
 * Stopping: the parent sends WORKER_STOP_SIGNAL. The handler only sets a
 * flag (async-signal-safe; signal delivery needs no system call the filter
 * refuses, and rt_sigreturn is allowed); the search loop polls it at every
 * progress tick and cancels its own search, which then returns and the
 * tree so far goes back as the normal result. The signal is blocked from
 * the fork until the handler is in place, so an early stop waits instead
 * of killing the child.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/clock.h"
#include "core/legal.h"
#include "core/project.h"
#include "core/validate.h"
#include "sandbox/builtin.h"
#include "sandbox/frame.h"
#include "sandbox/frame_parse.h"
#include "sandbox/guard.h"
#include "sandbox/lockdown.h"
#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"
#include "core/rollout.h"
#include "sandbox/wmodel.h"
#include "sandbox/worker_int.h"

#define WORKER_SNAPSHOT_HZ	10.0

/* The child's one piece of signal state: set by the stop handler. */
static volatile sig_atomic_t worker_stop_asked;

#if defined(__SANITIZE_ADDRESS__)
/* Under AddressSanitizer too, running out of the worker's address space is
 * a NULL from malloc (Python's MemoryError), not an abort whose report
 * needs system calls the filter refuses. */
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

struct worker_child {
	struct worker_job	 job;
	char			*dir;
	char			*src;
	size_t			 len;
	struct project		*p;
	struct wmodel		*m;
	struct wmodel		*builtin;	/* VALIDATE: the baseline */
	char			 builtin_why[256];
	struct legal_past	*past;		/* PLAN: history and sent posts */
	int			 npast;
	struct lockdown		 ld;
	pid_t			 parent;	/* fronts, which started it */
};

/* A frame fronts can no longer read means fronts is gone (or closed its
 * end): nobody waits for the rest, so the worker ends here. */
static void
worker_send(int type, const void *buf, size_t len)
{
	if (frame_write(WORKER_FD_OUT, type, buf, len, NULL) != 0 &&
	    errno == EPIPE)
		_exit(EXIT_MODEL);
}

static void
worker_send_json(int type, cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);

	if (s != NULL)
		worker_send(type, s, strlen(s));
	free(s);
	cJSON_Delete(j);
}

static int
worker_send_error(const struct error *err)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "code", err->code != 0 ? err->code :
	    EXIT_ERROR);
	cJSON_AddStringToObject(j, "message", err->msg);
	worker_send_json(FRAME_ERROR, j);
	return err->code != 0 ? err->code : EXIT_ERROR;
}

static int
worker_receive(struct worker_child *c, struct error *err)
{
	char *text;
	size_t n;
	int type, rc;

	if (frame_read(WORKER_FD_IN, &type, &text, &n, err) != 0)
		return -1;
	if (type != FRAME_JOB) {
		free(text);
		return error_set(err, EXIT_ERROR, "expected a job frame");
	}
	rc = worker_job_parse(text, &c->job, &c->dir, err);
	free(text);
	if (rc != 0)
		return -1;
	if (c->job.now > 0)
		clock_set(c->job.now);
	if (frame_read(WORKER_FD_IN, &type, &c->src, &c->len, err) != 0)
		return -1;
	if (type != FRAME_MODEL)
		return error_set(err, EXIT_ERROR, "expected a model frame");
	close(WORKER_FD_IN);
	return 0;
}

static void
worker_rollout_progress(void *arg, const struct rollout_stats *st)
{
	struct search_snapshot *snap;

	snap = xcalloc(1, sizeof *snap);
	snap->state = SEARCH_RUNNING;
	snap->iterations = st->rollouts;
	snap->model_calls = st->model_calls;
	snap->illegal_proposals = st->illegal_proposals;
	snap->elapsed = st->seconds;
	snap->rate = st->seconds > 0 ? (double)st->rollouts / st->seconds : 0;
	snap->workers = 1;
	worker_send_json(FRAME_SNAPSHOT, frame_snapshot_json(snap));
	free(snap);
}

static int
worker_run_rollout(struct worker_child *c, struct error *err)
{
	struct rollout_params rp = {
		.rollouts = c->job.params.iterations,
		.seconds = c->job.params.seconds,
		.seed = c->job.params.seed + (uint64_t)c->job.index
	};
	struct rollout_stats st;
	int rc;

	wmodel_enter(c->m);
	rc = rollout_run(c->p, &wmodel_ops, c->m, &rp,
	    worker_rollout_progress, c, 1.0 / WORKER_SNAPSHOT_HZ, &st, err);
	wmodel_leave(c->m);
	if (rc != 0)
		return -1;
	worker_send_json(FRAME_RESULT, rollout_stats_json(&st));
	return 0;
}

/* Also where a stop asked by signal reaches the search, outside the
 * handler. */
static void
worker_plan_progress(void *arg, struct search *s)
{
	struct search_snapshot *snap;

	if (worker_stop_asked)
		search_cancel(s);
	snap = xcalloc(1, sizeof *snap);
	search_snapshot(s, snap);
	worker_send_json(FRAME_SNAPSHOT, frame_snapshot_json(snap));
	free(snap);
}

/* The whole search runs here, behind the filter: no per-call IPC. */
static int
worker_run_plan(struct worker_child *c, struct error *err)
{
	struct search *s;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	s = search_new_past(c->p, &c->job.params, (uint64_t)c->job.index,
	    c->past, c->npast);
	search_set_progress(s, worker_plan_progress, c,
	    1.0 / WORKER_SNAPSHOT_HZ);
	if (worker_stop_asked)
		search_cancel(s);
	wmodel_enter(c->m);
	rc = search_run(s, &wmodel_ops, c->m, err);
	wmodel_leave(c->m);
	if (rc == 0) {
		worker_plan_progress(c, s);
		rc = search_export(s, &buf, &len);
		if (rc != 0)
			error_set(err, EXIT_ERROR, "cannot export the search tree");
		else
			worker_send(FRAME_RESULT, buf, len);
	}
	free(buf);
	/* The tree is not freed: releasing its states would run model code
	 * (finalizers) for nothing, and the worker exits next. */
	return rc;
}

/* Conformance and the backtest in the worker: synthesis validates
 * unapproved candidates only here. params.iterations is the number of
 * random rollouts (0: validate's default), params.seed the seed,
 * params.seconds the backtest window (0: its default). */
static int
worker_run_validate(struct worker_child *c, struct error *err)
{
	struct validate_params vp = {
		.rollouts = (int)c->job.params.iterations,
		.seed = c->job.params.seed,
		.window = c->job.params.seconds
	};
	struct validate_hooks hooks = wmodel_validate_hooks;
	struct validate_report r;
	cJSON *j;
	int rc;

	hooks.source = c->src;
	hooks.source_len = c->len;
	builtin_params(&vp, builtin_is(c->src, c->len) ? c->m : c->builtin,
	    c->builtin_why);
	memset(&r, 0, sizeof r);
	wmodel_enter(c->m);
	rc = validate_run(c->p, &wmodel_ops, c->m, &hooks, &vp, &r, err);
	wmodel_leave(c->m);
	if (rc == 0) {
		j = validate_report_json(c->p, &r);
		worker_send_json(FRAME_RESULT, j);
	}
	validate_report_free(&r);
	return rc;
}

/* A VALIDATE job measures the model against the builtin model too: it
 * is gated and compiled with the model, before the lockdown, and its body
 * runs after it, as the model's does. A builtin that fails is a baseline
 * not measured, never a failed validation. */
static void
worker_builtin_prepare(struct worker_child *c)
{
	struct error err = { 0 };
	size_t n;
	const char *src = builtin_source(&n);

	if (c->job.kind != WORKER_JOB_VALIDATE || builtin_is(c->src, c->len))
		return;
	if (wmodel_prepare(c->p, src, n, c->job.params.call_timeout_ms,
	    &c->builtin, &err) != 0)
		snprintf(c->builtin_why, sizeof c->builtin_why, "it did not "
		    "load: %s", err.msg);
}

static void
worker_builtin_body(struct worker_child *c)
{
	struct error err = { 0 };

	if (c->builtin == NULL || wmodel_run_body(c->builtin, &err) == 0)
		return;
	snprintf(c->builtin_why, sizeof c->builtin_why, "it did not load: %s",
	    err.msg);
	c->builtin = NULL;	/* not released: see worker_main */
}

/* What a job needs from the file system, read before the filter. */
static int
worker_prepare(struct worker_child *c, struct error *err)
{
	if (c->job.kind == WORKER_JOB_PLAN)
		return legal_past_load(c->p, &c->past, &c->npast, err);
	return 0;
}

static int
worker_run(struct worker_child *c, struct error *err)
{
	switch (c->job.kind) {
	case WORKER_JOB_ROLLOUT:
		return worker_run_rollout(c, err);
	case WORKER_JOB_PLAN:
		return worker_run_plan(c, err);
	case WORKER_JOB_VALIDATE:
		return worker_run_validate(c, err);
	default:
		return error_set(err, EXIT_ERROR,
		    "this build's worker runs no job of kind %d", c->job.kind);
	}
}

/* A MemoryError under RLIMIT_AS is the memory limit, said so. */
static void
worker_name_memory(const struct worker_child *c, struct error *err)
{
	char msg[sizeof err->msg];

	if (strstr(err->msg, "MemoryError") == NULL)
		return;
	snprintf(msg, sizeof msg, "the model ran out of memory (limit %ld MiB): %s",
	    c->job.memory_mb > 0 ? c->job.memory_mb : WORKER_DEFAULT_MB,
	    err->msg);
	snprintf(err->msg, sizeof err->msg, "%s", msg);
}

static void
worker_on_stop(int sig)
{
	(void)sig;
	worker_stop_asked = 1;
}

/* The stop handler, then the signal unblocked (worker_exec blocked it). */
static int
worker_signals(struct error *err)
{
	struct sigaction sa;
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = worker_on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(WORKER_STOP_SIGNAL, &sa, NULL) != 0)
		return error_set(err, EXIT_ERROR, "sigaction: %s",
		    strerror(errno));
	sigemptyset(&set);
	sigaddset(&set, WORKER_STOP_SIGNAL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 0;
}

/* The layers, then the model: lockdown_apply() comes after everything
 * that needs the file system and before the module body. */
/* Only the assume-breach test build lets a test take layers away. */
static unsigned
worker_skip(void)
{
	if (!namespace_breach_build())
		return 0;
	return lockdown_skip_parse(getenv("FRONTS_BREACH_SKIP"));
}

static int
worker_lock(struct worker_child *c, struct error *err)
{
	struct lockdown_limits lim = {
		.memory_mb = c->job.memory_mb,
		.cpu_s = c->job.deadline,
		.keep_fd = WORKER_FD_OUT,
		.parent = c->parent,
		.skip = worker_skip()
	};

	return lockdown_apply(&c->ld, &lim, err);
}

/*
 * The guard's backstop, on its own thread: a call that would not stop.
 * The main thread is inside that call, so this is the only writer; the
 * frame is built without allocating (the stuck thread may hold a lock of
 * the allocator) and the message is fronts' own text, with nothing to
 * escape.
 */
static void
worker_overrun(const char *msg)
{
	char f[FRAME_HEADER + 512];
	int n;

	n = snprintf(f + FRAME_HEADER, sizeof f - FRAME_HEADER,
	    "{\"code\":%d,\"message\":\"%s\"}", EXIT_MODEL, msg);
	if (n > 0 && (size_t)n < sizeof f - FRAME_HEADER) {
		frame_header((unsigned char *)f, FRAME_ERROR, (size_t)n);
		if (write(WORKER_FD_OUT, f, FRAME_HEADER + (size_t)n) < 0) {
			/* the exit status still says it */
		}
	}
	_exit(EXIT_MODEL);
}

static void
worker_send_ready(const struct worker_child *c)
{
	worker_send_json(FRAME_READY, lockdown_json(&c->ld));
}

/* The parent's plan window (a re-plan from now to the horizon's end),
 * before anything reads the project's start. */
static int
worker_window(struct worker_child *c)
{
	if (c->job.start > 0 && c->job.horizon_slots > 0) {
		c->p->start = c->job.start;
		c->p->start_now = false;
		c->p->horizon_slots = c->job.horizon_slots;
	}
	return 0;
}

/* In order: the job; the project and what the job reads from disk; the
 * interpreter; namespaces (still one thread); the gate, the code object
 * and every module the namespace binds (the watchdog starts here); the
 * lockdown; and only then the model's first line. */
int
worker_main(int argc, char **argv)
{
	struct worker_child c = { 0 };
	struct error err = { 0 };

	/* worker_exec() saw fronts as the parent and set the parent-death
	 * signal, which the exec kept: this is fronts or it was killed. */
	c.parent = getppid();
	if (worker_signals(&err) != 0 ||
	    worker_receive(&c, &err) != 0 ||
	    project_load(c.job.project_dir, &c.p, &err) != 0 ||
	    worker_window(&c) != 0 ||
	    worker_prepare(&c, &err) != 0 ||
	    pyhost_init(&err) != 0)
		_exit(worker_send_error(&err));
	guard_set_overrun(worker_overrun);
	if (lockdown_namespaces(&c.ld, worker_skip(), c.parent, &err) != 0 ||
	    wmodel_prepare(c.p, c.src, c.len, c.job.params.call_timeout_ms,
	    &c.m, &err) != 0)
		_exit(worker_send_error(&err));
	worker_builtin_prepare(&c);
	if (worker_lock(&c, &err) != 0)
		_exit(worker_send_error(&err));
	worker_send_ready(&c);
	worker_builtin_body(&c);
	if (wmodel_run_body(c.m, &err) != 0 || worker_run(&c, &err) != 0) {
		worker_name_memory(&c, &err);
		_exit(worker_send_error(&err));
	}
	/* Nothing is released: a state's release could run model code, and
	 * the process ends here anyway. */
	_exit(EXIT_OK);
}
