/*
 * worker_parent — the parent side of the worker boundary (see worker.h).
 *
 * fork + exec of this binary as `fronts __worker` with the job pipe on
 * fd 3, the frame pipe on fd 4 and stdout/stderr on a third pipe whose
 * tail is kept for error messages. worker_poll() never blocks past its
 * timeout or the job's deadline; at the deadline the child gets SIGKILL.
 * Every way a child can end without a result becomes one clear EXIT_MODEL
 * error. worker_cancel() sends WORKER_STOP_SIGNAL (worker_child.c says
 * what the child does with it). Children run in their own process group:
 * a Ctrl-C at the terminal reaches only the parent, which decides.
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
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/backtest.h"
#include "core/termsafe.h"
#include "sandbox/frame.h"
#include "sandbox/frame_parse.h"
#include "sandbox/lockdown.h"
#include "sandbox/seccomp.h"
#include "sandbox/worker_int.h"

#define WORKER_TAIL		2048

struct worker {
	pid_t			pid;
	int			out_fd;		/* frames from the child */
	int			err_fd;		/* its stdout and stderr */
	struct frame_reader	rd;
	size_t			result_max;	/* the result frame's bound */
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

void
worker_set_binary(const char *path)
{
	worker_binary_path = path;
}

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

/*
 * What a result can need: a PLAN worker's tree is held in its memory
 * budget, so its export is at most what that budget's nodes export; a
 * VALIDATE report is sized from the project (worker_report_max); a ROLLOUT
 * result is seven numbers.
 */
/*
 * The longest report validate_report_json() can make for p: the checks
 * (at most WORKER_CHECKS, each a name, a function and a message of struct
 * validate_check, every byte escaped at worst as six), the backtest's
 * fixed figures, one entry per history post (its id twice: entries and
 * the worst list), and the grid. A number prints in at most 26 bytes.
 */
#define WORKER_CHECKS		64
#define WORKER_CHECK_MAX	(6 * (48 + 32 + 512) + 256)
#define WORKER_ENTRY_MAX	512
#define WORKER_REPORT_FIXED	65536

size_t
worker_report_max(const struct project *p)
{
	size_t n = WORKER_REPORT_FIXED + WORKER_CHECKS * WORKER_CHECK_MAX;
	int i;

	for (i = 0; p != NULL && i < p->nhistory; i++)
		n += WORKER_ENTRY_MAX + 2 * 6 * strlen(p->history[i].id);
	if (p != NULL)
		n += (size_t)p->nfronts * BACKTEST_CELLS * 32;
	return n;
}

static size_t
worker_result_max(const struct worker_job *job, long memory_mb)
{
	size_t max;

	switch (job->kind) {
	case WORKER_JOB_PLAN:
		max = search_export_max((size_t)memory_mb << 20);
		break;
	case WORKER_JOB_VALIDATE:
		max = job->result_max > 0 ? job->result_max :
		    worker_report_max(NULL);
		break;
	default:
		max = FRAME_ROLLOUT_MAX;
		break;
	}
	return max < FRAME_MAX ? max : FRAME_MAX;
}

static size_t
worker_frame_limit(void *arg, int type)
{
	const struct worker *w = arg;

	switch (type) {
	case FRAME_READY:
		return FRAME_READY_MAX;
	case FRAME_SNAPSHOT:
		return FRAME_SNAPSHOT_MAX;
	case FRAME_RESULT:
		return w->result_max;
	case FRAME_ERROR:
		return FRAME_ERROR_MAX;
	case FRAME_SYSCALL:
		return FRAME_SYSCALL_LEN;
	default:
		return 0;
	}
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
	w->result_max = worker_result_max(job, w->memory_mb);
	w->rd.limit = worker_frame_limit;
	w->rd.arg = w;
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

/*
 * Text the worker wrote (its stderr, an error frame's message) is the
 * model's: the model may have taken the worker over. It is shown on one
 * line after MODEL_TEXT_PREFIX, which no line of fronts' own starts with,
 * its newlines and controls visible.
 */
static void
worker_model_text(const char *text, char *buf, size_t size)
{
	size_t n = strlen(MODEL_TEXT_PREFIX);

	snprintf(buf, size, "%s", MODEL_TEXT_PREFIX);
	if (n < size)
		termsafe_copy_line(buf + n, size - n, text);
}

/* Turns how the child ended into the operator's words. */
static int
worker_death(struct worker *w, struct error *err)
{
	char line[512], quoted[512];
	const char *tail;
	int sig;

	if (w->timed_out || w->unanswered)
		worker_reap(w, true);
	else
		worker_reap_soon(w);
	worker_drain_stderr(w);
	w->finished = true;
	tail = worker_tail_line(w, line, sizeof line);
	if (*tail != '\0') {
		worker_model_text(tail, quoted, sizeof quoted);
		tail = quoted;
	}
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
	if (frame_reader_pending(&w->rd) > 0)
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

static const char *
worker_frame_name(int type)
{
	switch (type) {
	case FRAME_READY:
		return "a ready frame";
	case FRAME_SNAPSHOT:
		return "a snapshot frame";
	case FRAME_RESULT:
		return "a result frame";
	case FRAME_ERROR:
		return "an error frame";
	case FRAME_SYSCALL:
		return "a syscall frame";
	default:
		return "a frame of an unknown type";
	}
}

/* A header announcing more than its type can need: refused before its
 * payload is read. */
static int
worker_oversized(struct worker *w, struct error *err)
{
	int type = w->rd.over_type;

	kill(w->pid, SIGKILL);
	worker_reap(w, true);
	w->finished = true;
	frame_reader_free(&w->rd);
	return error_set(err, EXIT_MODEL, "the model's worker sent malformed "
	    "output (%s of %lu bytes, more than the %zu bytes it can need) "
	    "and was killed", worker_frame_name(type),
	    (unsigned long)w->rd.over_len, worker_frame_limit(w, type));
}

/*
 * The worker's own account of its failure. Whatever code it names, a
 * worker can only make fronts exit EXIT_MODEL: refusals and network
 * failures are the parent's to decide. Its message is model text.
 */
static int
worker_error_frame(struct worker *w, const char *text, struct error *err)
{
	char msg[sizeof err->msg], quoted[sizeof err->msg];
	int code, rc;

	if (frame_error_parse(text, &code, msg, sizeof msg) != 0)
		return worker_malformed(w, "a bad error frame", err);
	worker_model_text(msg, quoted, sizeof quoted);
	rc = error_set(err, EXIT_MODEL, "%s", quoted);
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
		frame_reader_free(&w->rd);
		worker_reap_soon(w);
		return WORKER_EVENT_RESULT;
	case FRAME_ERROR: {
		int rc = worker_error_frame(w, buf, err);

		free(buf);
		frame_reader_free(&w->rd);
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
			return worker_oversized(w, err);
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
