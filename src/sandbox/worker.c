/*
 * worker — both sides of the process boundary (see worker.h).
 *
 * Parent: fork + exec of this binary as `fronts __worker` with the job
 * pipe on fd 3, the frame pipe on fd 4 and stdout/stderr on a third pipe
 * whose tail is kept for error messages. worker_poll() never blocks past
 * its timeout or the job's deadline; at the deadline the child gets
 * SIGKILL. Every way a child can end without a result becomes one clear
 * EXIT_MODEL error.
 *
 * Child: reads the job and the model's bytes, loads the project, gates and
 * loads the model, then drops privileges (worker_limits, seccomp_install)
 * before the first model call and runs the whole job in-process, streaming
 * snapshots at about 10 Hz. It ends with _exit(): nothing at exit needs a
 * syscall the filter refuses.
 *
 * Stopping: worker_cancel() sends WORKER_STOP_SIGNAL. The child's handler
 * only sets a flag (async-signal-safe; signal delivery needs no system
 * call the filter refuses, and rt_sigreturn is allowed); the search loop
 * polls it at every progress tick and cancels its own search, which then
 * returns and the tree so far goes back as the normal result. The signal
 * is blocked from the fork until the handler is in place, so an early
 * stop waits instead of killing the child. Children run in their own process
 * group: a Ctrl-C at the terminal reaches only the parent, which decides.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/legal.h"
#include "core/project.h"
#include "core/validate.h"
#include "sandbox/frame.h"
#include "sandbox/frame_parse.h"
#include "sandbox/guard.h"
#include "sandbox/pyhost.h"
#include "sandbox/lockdown.h"
#include "sandbox/namespace.h"
#include "sandbox/rollout.h"
#include "sandbox/seccomp.h"
#include "sandbox/wmodel.h"
#include "sandbox/worker.h"

#define WORKER_FD_IN		3
#define WORKER_FD_OUT		4
#define WORKER_DEFAULT_MB	2048
#define WORKER_TAIL		2048
#define WORKER_SNAPSHOT_HZ	10.0
#define WORKER_STOP_SIGNAL	SIGUSR1

struct worker {
	pid_t			pid;
	int			out_fd;		/* frames from the child */
	int			err_fd;		/* its stdout and stderr */
	struct frame_reader	rd;
	char			tail[WORKER_TAIL];
	size_t			ntail;
	double			deadline;	/* clock_seconds(); 0: none */
	double			limit_s;
	long			memory_mb;
	int			syscall_nr;	/* -1: none reported */
	bool			timed_out;
	double			stop_by;	/* after worker_cancel(); 0: none */
	double			grace_s;
	bool			unanswered;	/* killed: it ignored the stop */
	bool			lingered;	/* killed after its pipe closed */
	bool			finished;	/* result or error seen */
	bool			reaped;
	int			status;
	struct lockdown		ld;		/* from its ready frame */
	bool			ready;
};

static const char *worker_binary_path;

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

void
worker_set_binary(const char *path)
{
	worker_binary_path = path;
}

/* ---- job encoding ------------------------------------------------------ */

static cJSON *
worker_job_json(const struct worker_job *job)
{
	cJSON *j = cJSON_CreateObject(), *p = cJSON_CreateObject();
	char seed[24];

	cJSON_AddNumberToObject(j, "kind", job->kind);
	cJSON_AddStringToObject(j, "project_dir", job->project_dir);
	cJSON_AddNumberToObject(j, "index", job->index);
	cJSON_AddNumberToObject(j, "deadline", job->deadline);
	cJSON_AddNumberToObject(j, "memory_mb", (double)job->memory_mb);
	cJSON_AddNumberToObject(p, "iterations", (double)job->params.iterations);
	cJSON_AddNumberToObject(p, "seconds", job->params.seconds);
	/* Seeds travel as text: a double cannot hold every uint64_t. */
	snprintf(seed, sizeof seed, "%llu",
	    (unsigned long long)job->params.seed);
	cJSON_AddStringToObject(p, "seed", seed);
	cJSON_AddNumberToObject(p, "workers", job->params.workers);
	cJSON_AddNumberToObject(p, "isolation", job->params.isolation);
	cJSON_AddNumberToObject(p, "call_timeout_ms",
	    job->params.call_timeout_ms);
	cJSON_AddNumberToObject(p, "uct_c", job->params.uct_c);
	cJSON_AddItemToObject(j, "params", p);
	return j;
}

static double
worker_num(const cJSON *j, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static int
worker_job_parse(const char *text, struct worker_job *job, char **dir,
    struct error *err)
{
	const cJSON *p, *d, *seed;
	cJSON *j;

	memset(job, 0, sizeof *job);
	if ((j = cJSON_Parse(text)) == NULL)
		return error_set(err, EXIT_ERROR, "malformed job");
	d = cJSON_GetObjectItemCaseSensitive(j, "project_dir");
	p = cJSON_GetObjectItemCaseSensitive(j, "params");
	seed = cJSON_GetObjectItemCaseSensitive(p, "seed");
	if (!cJSON_IsString(d) || !cJSON_IsObject(p) || !cJSON_IsString(seed)) {
		cJSON_Delete(j);
		return error_set(err, EXIT_ERROR, "malformed job");
	}
	job->kind = (enum worker_job_kind)worker_num(j, "kind");
	*dir = xstrdup(d->valuestring);
	job->project_dir = *dir;
	job->index = (int)worker_num(j, "index");
	job->deadline = worker_num(j, "deadline");
	job->memory_mb = (long)worker_num(j, "memory_mb");
	job->params.iterations = (uint64_t)worker_num(p, "iterations");
	job->params.seconds = worker_num(p, "seconds");
	job->params.seed = strtoull(seed->valuestring, NULL, 10);
	job->params.workers = (int)worker_num(p, "workers");
	job->params.isolation = (enum isolation)worker_num(p, "isolation");
	job->params.call_timeout_ms = (int)worker_num(p, "call_timeout_ms");
	job->params.uct_c = worker_num(p, "uct_c");
	cJSON_Delete(j);
	return 0;
}

/* ---- the child ------------------------------------------------------------ */

struct worker_child {
	struct worker_job	 job;
	char			*dir;
	char			*src;
	size_t			 len;
	struct project		*p;
	struct wmodel		*m;
	struct legal_past	*past;		/* PLAN: history and sent posts */
	int			 npast;
	struct lockdown		 ld;
};

static void
worker_send_json(int type, cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);

	if (s != NULL)
		frame_write(WORKER_FD_OUT, type, s, strlen(s), NULL);
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
			rc = frame_write(WORKER_FD_OUT, FRAME_RESULT, buf, len,
			    err);
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

/* In order: the job; the project and what the job reads from disk; the
 * interpreter; namespaces (still one thread); the gate, the code object
 * and every module the namespace binds (the watchdog starts here); the
 * lockdown; and only then the model's first line. */
int
worker_main(int argc, char **argv)
{
	struct worker_child c = { 0 };
	struct error err = { 0 };

	if (worker_signals(&err) != 0 ||
	    worker_receive(&c, &err) != 0 ||
	    project_load(c.job.project_dir, &c.p, &err) != 0 ||
	    worker_prepare(&c, &err) != 0 ||
	    pyhost_init(&err) != 0)
		_exit(worker_send_error(&err));
	guard_set_overrun(worker_overrun);
	if (lockdown_namespaces(&c.ld, worker_skip(), &err) != 0 ||
	    wmodel_prepare(c.p, c.src, c.len, c.job.params.call_timeout_ms,
	    &c.m, &err) != 0 ||
	    worker_lock(&c, &err) != 0)
		_exit(worker_send_error(&err));
	worker_send_ready(&c);
	if (wmodel_run_body(c.m, &err) != 0 || worker_run(&c, &err) != 0) {
		worker_name_memory(&c, &err);
		_exit(worker_send_error(&err));
	}
	/* Nothing is released: a state's release could run model code, and
	 * the process ends here anyway. */
	_exit(EXIT_OK);
}

/* ---- the parent ----------------------------------------------------------- */

/*
 * The worker's whole environment: nothing of the parent's but the names
 * below, none of which is a secret. No API key or token, no PYTHON*
 * variable (the interpreter ignores them anyway), no PATH or HOME.
 */
static const char *const worker_env_names[] = {
	"TZDIR", "LANG", "LC_ALL", "LC_CTYPE",
	/* sanitizer builds: where reports go and what they suppress */
	"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS",
	/* read by the assume-breach test build only (namespace.c) */
	"FRONTS_BREACH_SKIP",
	NULL
};

#define WORKER_ENV_MAX	16

/* Built before the fork: the child may only make async-signal-safe calls. */
static void
worker_env(char **env, char *store, size_t size)
{
	const char *const *n;
	const char *v;
	size_t off = 0, k = 0;
	int len;

	for (n = worker_env_names; *n != NULL && k < WORKER_ENV_MAX - 2; n++) {
		if ((v = getenv(*n)) == NULL)
			continue;
		len = snprintf(store + off, size - off, "%s=%s", *n, v);
		if (len < 0 || (size_t)len >= size - off)
			continue;
		env[k++] = store + off;
		off += (size_t)len + 1;
	}
	env[k] = NULL;
}

/* In the forked child, before exec: only async-signal-safe calls. */
static void
worker_exec(const char *bin, char *const *env, int in, int out, int errw,
    pid_t parent)
{
	char *const argv[] = { "fronts", "__worker", NULL };
	int nul;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	/* Out of the way of 0..4 first, then into place. */
	in = fcntl(in, F_DUPFD, 10);
	out = fcntl(out, F_DUPFD, 10);
	errw = fcntl(errw, F_DUPFD, 10);
	nul = open("/dev/null", O_RDONLY);
	if (in < 0 || out < 0 || errw < 0 || nul < 0 ||
	    dup2(nul, 0) < 0 || dup2(errw, 1) < 0 || dup2(errw, 2) < 0 ||
	    dup2(in, WORKER_FD_IN) < 0 || dup2(out, WORKER_FD_OUT) < 0)
		_exit(127);
	close_range(WORKER_FD_OUT + 1, ~0U, 0);
	signal(SIGPIPE, SIG_DFL);
	execve(bin, argv, env);
	_exit(127);
}

/* Writes the job without letting a child that died early raise SIGPIPE
 * in this process. */
static int
worker_send_job(int fd, const struct worker_job *job, struct error *err)
{
	sigset_t pipe_set, old;
	struct timespec zero = { 0, 0 };
	cJSON *j = worker_job_json(job);
	char *text = cJSON_PrintUnformatted(j);
	int rc;

	cJSON_Delete(j);
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	rc = frame_write(fd, FRAME_JOB, text, strlen(text), err);
	if (rc == 0)
		rc = frame_write(fd, FRAME_MODEL, job->model_src,
		    job->model_len, err);
	while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
		;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(text);
	return rc;
}

int
worker_spawn(const struct worker_job *job, struct worker **out,
    struct error *err)
{
	int in[2], res[2], errp[2];
	char *env[WORKER_ENV_MAX], envstore[4096];
	sigset_t stop, old;
	const char *bin;
	struct worker *w;
	pid_t pid, self = getpid();

	*out = NULL;
	bin = worker_binary_path != NULL ? worker_binary_path : self_exe_path();
	if (bin == NULL)
		return error_set(err, EXIT_ERROR,
		    "cannot find this program's path to start the worker");
	if (pipe2(in, O_CLOEXEC) != 0)
		return error_set(err, EXIT_ERROR, "pipe: %s", strerror(errno));
	if (pipe2(res, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return error_set(err, EXIT_ERROR, "pipe: %s", strerror(errno));
	}
	if (pipe2(errp, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		close(res[0]);
		close(res[1]);
		return error_set(err, EXIT_ERROR, "pipe: %s", strerror(errno));
	}
	/* The stop signal is blocked from the fork on (inherited across exec)
	 * until the child's handler is in place; unblocked here right after. */
	worker_env(env, envstore, sizeof envstore);
	sigemptyset(&stop);
	sigaddset(&stop, WORKER_STOP_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	if ((pid = fork()) == 0)
		worker_exec(bin, env, in[0], res[1], errp[1], self);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(in[0]);
	close(res[1]);
	close(errp[1]);
	if (pid < 0) {
		close(in[1]);
		close(res[0]);
		close(errp[0]);
		return error_set(err, EXIT_ERROR, "fork: %s", strerror(errno));
	}
	w = xcalloc(1, sizeof *w);
	w->pid = pid;
	w->out_fd = res[0];
	w->err_fd = errp[0];
	w->syscall_nr = -1;
	w->memory_mb = job->memory_mb > 0 ? job->memory_mb : WORKER_DEFAULT_MB;
	w->limit_s = job->deadline;
	w->deadline = job->deadline > 0 ? clock_seconds() + job->deadline : 0;
	fcntl(w->out_fd, F_SETFL, O_NONBLOCK);
	fcntl(w->err_fd, F_SETFL, O_NONBLOCK);
	/* A failed write means the child is gone; worker_poll says why. */
	worker_send_job(in[1], job, NULL);
	close(in[1]);
	*out = w;
	return 0;
}

static void
worker_reap(struct worker *w, bool block)
{
	pid_t r;

	if (w->reaped || w->pid <= 0)
		return;
	do
		r = waitpid(w->pid, &w->status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == w->pid || (r < 0 && errno == ECHILD))
		w->reaped = true;
}

/* After its last frame or end of file the child is expected to exit at
 * once; one that lingers (it closed its pipe and kept running) is killed
 * after WORKER_GRACE_MS. */
#define WORKER_GRACE_MS	1000

static void
worker_reap_soon(struct worker *w)
{
	struct timespec tick = { 0, 10 * 1000000 };
	int i;

	for (i = 0; i < WORKER_GRACE_MS / 10 && !w->reaped; i++) {
		worker_reap(w, false);
		if (!w->reaped)
			nanosleep(&tick, NULL);
	}
	if (!w->reaped) {
		w->lingered = true;
		kill(w->pid, SIGKILL);
		worker_reap(w, true);
	}
}

void
worker_cancel(struct worker *w, double grace_s)
{
	if (w == NULL || w->reaped || w->finished || w->pid <= 0 ||
	    w->stop_by > 0)
		return;
	w->grace_s = grace_s;
	w->stop_by = clock_seconds() + grace_s;
	kill(w->pid, WORKER_STOP_SIGNAL);
}

void
worker_kill(struct worker *w)
{
	if (w == NULL || w->reaped || w->pid <= 0)
		return;
	kill(w->pid, SIGKILL);
	worker_reap(w, true);
}

/* Keeps the last WORKER_TAIL bytes the child wrote to stdout/stderr. */
static void
worker_drain_stderr(struct worker *w)
{
	char buf[4096];
	ssize_t n;
	size_t keep;

	while (w->err_fd >= 0 && (n = read(w->err_fd, buf, sizeof buf)) > 0) {
		if ((size_t)n >= WORKER_TAIL) {
			memcpy(w->tail, buf + n - (WORKER_TAIL - 1), WORKER_TAIL - 1);
			w->ntail = WORKER_TAIL - 1;
		} else {
			keep = w->ntail + (size_t)n > WORKER_TAIL - 1 ?
			    WORKER_TAIL - 1 - (size_t)n : w->ntail;
			memmove(w->tail, w->tail + w->ntail - keep, keep);
			memcpy(w->tail + keep, buf, (size_t)n);
			w->ntail = keep + (size_t)n;
		}
	}
	w->tail[w->ntail] = '\0';
}

/* The last line of the child's own output, for the operator. */
static const char *
worker_tail_line(struct worker *w, char *buf, size_t size)
{
	char *end, *start;

	snprintf(buf, size, "%s", w->tail);
	end = buf + strlen(buf);
	while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(buf, '\n');
	return start != NULL ? start + 1 : buf;
}

/* Turns how the child ended into the operator's words. */
static int
worker_death(struct worker *w, struct error *err)
{
	char line[512];
	const char *tail;
	int sig;

	if (w->timed_out || w->unanswered)
		worker_reap(w, true);
	else
		worker_reap_soon(w);
	worker_drain_stderr(w);
	w->finished = true;
	tail = worker_tail_line(w, line, sizeof line);
	if (w->timed_out)
		return error_set(err, EXIT_MODEL,
		    "the model ran past the deadline of %.1f s and its worker "
		    "was killed", w->limit_s);
	if (w->unanswered)
		return error_set(err, EXIT_MODEL,
		    "the model's worker did not answer the stop within %.1f s "
		    "and was killed", w->grace_s);
	if (w->lingered)
		return error_set(err, EXIT_MODEL,
		    "the model's worker closed its pipe without a result and "
		    "was killed");
	if (w->syscall_nr >= 0 || (WIFEXITED(w->status) &&
	    WEXITSTATUS(w->status) == SECCOMP_EXIT) ||
	    (WIFSIGNALED(w->status) && WTERMSIG(w->status) == SIGSYS))
		return error_set(err, EXIT_MODEL,
		    "the model's worker was killed by the seccomp filter: it "
		    "called %s, which the sandbox does not allow",
		    w->syscall_nr >= 0 ? seccomp_syscall_name(w->syscall_nr) :
		    "a forbidden system call");
	if (WIFSIGNALED(w->status)) {
		sig = WTERMSIG(w->status);
		if (sig == SIGXCPU)
			return error_set(err, EXIT_MODEL,
			    "the model's worker used up its CPU time limit");
		if (strstr(w->tail, "emory") != NULL || sig == SIGKILL)
			return error_set(err, EXIT_MODEL,
			    "the model's worker ran out of memory (limit %ld MiB) "
			    "and died with signal %d (%s)%s%s", w->memory_mb, sig,
			    strsignal(sig), *tail ? ": " : "", tail);
		return error_set(err, EXIT_MODEL,
		    "the model's worker crashed with signal %d (%s)%s%s", sig,
		    strsignal(sig), *tail ? ": " : "", tail);
	}
	if (w->rd.len > 0)
		return error_set(err, EXIT_MODEL, "the model's worker sent "
		    "malformed output (a truncated frame)");
	return error_set(err, EXIT_MODEL,
	    "the model's worker exited with status %d without a result%s%s",
	    WIFEXITED(w->status) ? WEXITSTATUS(w->status) : -1,
	    *tail ? ": " : "", tail);
}

static int
worker_malformed(struct worker *w, const char *what, struct error *err)
{
	kill(w->pid, SIGKILL);
	worker_reap(w, true);
	w->finished = true;
	return error_set(err, EXIT_MODEL,
	    "the model's worker sent malformed output (%s) and was killed", what);
}

static int
worker_error_frame(struct worker *w, const char *text, struct error *err)
{
	char msg[sizeof err->msg];
	int code, rc;

	if (frame_error_parse(text, &code, msg, sizeof msg) != 0)
		return worker_malformed(w, "a bad error frame", err);
	rc = error_set(err, code, "%s", msg);
	worker_reap_soon(w);
	w->finished = true;
	return rc;
}

#define WORKER_MORE	100	/* worker_frame: keep reading */

/* One complete frame: an enum worker_event, WORKER_MORE, or -1. */
static int
worker_frame(struct worker *w, int type, char *buf, size_t len,
    struct search_snapshot *snap, char **result, size_t *rlen,
    struct error *err)
{
	switch (type) {
	case FRAME_READY: {
		cJSON *j = cJSON_ParseWithLength(buf, len);
		int rc = lockdown_from_json(j, &w->ld);

		cJSON_Delete(j);
		free(buf);
		if (rc != 0 || w->ready)
			return worker_malformed(w, "a bad ready frame", err);
		w->ready = true;
		return WORKER_MORE;
	}
	case FRAME_SNAPSHOT:
		if (frame_snapshot_parse(buf, snap) != 0) {
			free(buf);
			return worker_malformed(w, "a bad snapshot", err);
		}
		free(buf);
		return WORKER_EVENT_SNAPSHOT;
	case FRAME_RESULT:
		*result = buf;
		*rlen = len;
		w->finished = true;
		worker_reap_soon(w);
		return WORKER_EVENT_RESULT;
	case FRAME_ERROR: {
		int rc = worker_error_frame(w, buf, err);

		free(buf);
		return rc;
	}
	case FRAME_SYSCALL:
		if (frame_syscall_parse(buf, len, &w->syscall_nr) != 0)
			w->syscall_nr = -1;
		free(buf);
		return WORKER_MORE;
	default:
		free(buf);
		return worker_malformed(w, "an unknown frame type", err);
	}
}

static int
worker_wait_ms(const struct worker *w, double until)
{
	double now = clock_seconds(), end = until;

	if (w->deadline > 0 && (end <= 0 || w->deadline < end))
		end = w->deadline;
	if (w->stop_by > 0 && (end <= 0 || w->stop_by < end))
		end = w->stop_by;
	if (end <= 0)
		return -1;
	return end <= now ? 0 : (int)ceil((end - now) * 1000);
}

int
worker_poll(struct worker *w, int timeout_ms, struct search_snapshot *snap,
    char **result, size_t *rlen, struct error *err)
{
	struct pollfd pfd[2];
	double until;
	char *buf;
	size_t len;
	int type, rc, n;

	if (w->finished)
		return error_set(err, EXIT_ERROR, "the worker has finished");
	until = timeout_ms >= 0 ? clock_seconds() + timeout_ms / 1000.0 : 0;
	for (;;) {
		rc = frame_reader_next(&w->rd, &type, &buf, &len);
		if (rc < 0)
			return worker_malformed(w, "a bad frame length", err);
		if (rc > 0) {
			rc = worker_frame(w, type, buf, len, snap, result, rlen,
			    err);
			if (rc != WORKER_MORE)
				return rc;
			continue;
		}
		if (w->deadline > 0 && clock_seconds() >= w->deadline) {
			w->timed_out = true;
			kill(w->pid, SIGKILL);
			return worker_death(w, err);
		}
		if (w->stop_by > 0 && clock_seconds() >= w->stop_by) {
			w->unanswered = true;
			kill(w->pid, SIGKILL);
			return worker_death(w, err);
		}
		pfd[0] = (struct pollfd){ .fd = w->out_fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = w->err_fd, .events = POLLIN };
		n = poll(pfd, w->err_fd >= 0 ? 2 : 1, worker_wait_ms(w, until));
		if (n < 0 && errno != EINTR)
			return error_set(err, EXIT_ERROR, "poll: %s",
			    strerror(errno));
		if (n > 0 && pfd[1].revents != 0) {
			worker_drain_stderr(w);
			if (pfd[1].revents & (POLLHUP | POLLERR)) {
				close(w->err_fd);
				w->err_fd = -1;
			}
		}
		if (n > 0 && pfd[0].revents != 0) {
			rc = frame_reader_fill(&w->rd, w->out_fd);
			if (rc == 0)
				return worker_death(w, err);
			if (rc < 0 && errno != EAGAIN)
				return worker_death(w, err);
			continue;
		}
		if (until > 0 && clock_seconds() >= until)
			return WORKER_EVENT_NONE;
	}
}

const struct lockdown *
worker_lockdown(const struct worker *w)
{
	return w->ready ? &w->ld : NULL;
}

void
worker_free(struct worker *w)
{
	if (w == NULL)
		return;
	worker_kill(w);
	if (w->out_fd >= 0)
		close(w->out_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	frame_reader_free(&w->rd);
	free(w);
}
