/*
 * guard — the watchdog behind every in-process model call (see guard.h).
 *
 * The watchdog wakes every sampling period (a timeout / GUARD_SAMPLES,
 * between 1 and 250 ms) while any slot has a deadline, and sleeps on its
 * condition variable while none does. It never takes the GIL while holding
 * its own lock: slot bookkeeping happens with the GIL held, so the
 * opposite order would deadlock.
 *
 * The backstop is a second thread that never takes the GIL (the watchdog
 * may be waiting for it behind a long C-level operation). It samples the
 * same call counters on its own clock, and a call it sees running for its
 * timeout plus the grace ends the process through the overrun handler.
 */
#include <stdio.h>
#include <unistd.h>
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "core/invariant.h"
#include "core/mutex.h"
#include "sandbox/guard.h"

/* The process-wide watchdog. */
static struct {
	struct mutex		lock;
	pthread_cond_t		cond;
	bool			running;
	int			started;
	PyObject		*exc;	/* fronts.ModelTimeout */
	guard_overrun_fn	 overrun;
	struct guard_slot	slots[GUARD_MAX_SLOTS];
} guard = {
	.lock = MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER
};

struct guard_due {
	struct guard_slot	*slot;
	uint64_t		 seq;
};

static void
guard_fire(struct guard_slot *s, uint64_t seq)
{
	PyGILState_STATE st;

	st = PyGILState_Ensure();
	/* Under the GIL the caller is paused inside the same call or has
	 * moved on; only the former gets the exception. */
	if (s->in_use && atomic_load(&s->seq) == seq) {
		atomic_store(&s->fired, 1);
		PyThreadState_SetAsyncExc(s->thread_id, guard.exc);
	}
	PyGILState_Release(st);
}

static int64_t
guard_period(const struct guard_slot *s)
{
	int64_t p = s->timeout_ns / GUARD_SAMPLES;

	if (p < 1000000)
		return 1000000;
	return p < 250000000 ? p : 250000000;
}

/* How long the call seen as seq q has been running by this sampler's
 * clock, or -1 when the slot is idle or the call is new to it (a call not
 * seen before started after the previous sample: its clock starts now). */
static int64_t
guard_running_for(uint64_t q, uint64_t *seen_seq, int64_t *seen_at,
    int64_t now)
{
	if ((q & 1) == 0 || q != *seen_seq) {
		*seen_seq = q;
		*seen_at = now;
		return -1;
	}
	return now - *seen_at;
}

/* One pass over the slots: collects the overrunning calls into due and
 * returns when to look again. Called with guard.lock held. */
static int64_t
guard_scan(int64_t now, struct guard_due *due, int *ndue)
{
	int64_t next = INT64_MAX, cand, ran;
	struct guard_slot *s;
	uint64_t q;
	int i;

	INVARIANT(mutex_held(&guard.lock));
	*ndue = 0;
	for (i = 0; i < GUARD_MAX_SLOTS; i++) {
		s = &guard.slots[i];
		if (!s->in_use || s->timeout_ns == 0)
			continue;
		q = atomic_load_explicit(&s->seq, memory_order_acquire);
		cand = now + guard_period(s);
		ran = guard_running_for(q, &s->seen_seq, &s->seen_at, now);
		if (ran < 0)
			s->refire_at = 0;
		else if (ran >= s->timeout_ns && now >= s->refire_at) {
			s->refire_at = now + (int64_t)GUARD_REFIRE_MS * 1000000;
			due[(*ndue)++] = (struct guard_due){ s, q };
			if (s->refire_at < cand)
				cand = s->refire_at;
		} else if (s->refire_at != 0 && s->refire_at < cand)
			cand = s->refire_at;
		else if (s->refire_at == 0 && s->seen_at + s->timeout_ns < cand)
			cand = s->seen_at + s->timeout_ns;
		if (cand < next)
			next = cand;
	}
	return next;
}

static void *
guard_main(void *arg)
{
	struct guard_due due[GUARD_MAX_SLOTS];
	struct timespec ts;
	int64_t next;
	int i, ndue;

	mutex_lock(&guard.lock);
	for (;;) {
		next = guard_scan(guard_now_ns(), due, &ndue);
		if (ndue > 0) {
			mutex_unlock(&guard.lock);
			for (i = 0; i < ndue; i++)
				guard_fire(due[i].slot, due[i].seq);
			mutex_lock(&guard.lock);
			continue;
		}
		if (next == INT64_MAX) {
			mutex_wait(&guard.cond, &guard.lock);
			continue;
		}
		ts.tv_sec = next / 1000000000;
		ts.tv_nsec = next % 1000000000;
		mutex_timedwait(&guard.cond, &guard.lock, &ts);
	}
	return NULL;
}

/* The grace past a call's deadline: max(GUARD_GRACE_MIN_MS, its timeout). */
static int64_t
guard_grace_ns(int64_t timeout_ns)
{
	int64_t min = (int64_t)GUARD_GRACE_MIN_MS * 1000000;

	return timeout_ns > min ? timeout_ns : min;
}

void
guard_set_overrun(guard_overrun_fn fn)
{
	mutex_lock(&guard.lock);
	guard.overrun = fn;
	mutex_unlock(&guard.lock);
}

static void
guard_overrun_default(const char *msg)
{
	char line[512];
	int n;

	n = snprintf(line, sizeof line, "fronts: %s\n", msg);
	if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n :
	    sizeof line - 1) < 0) {
		/* the exit status still says it */
	}
	_exit(EXIT_MODEL);
}

/* One pass of the backstop, guard.lock held; the first overrunning slot
 * found is described in msg. */
static bool
guard_backstop_scan(int64_t now, char *msg, size_t size)
{
	struct guard_slot *s;
	const char *what;
	uint64_t q;
	int i;

	INVARIANT(mutex_held(&guard.lock));
	for (i = 0; i < GUARD_MAX_SLOTS; i++) {
		s = &guard.slots[i];
		if (!s->in_use || s->timeout_ns == 0)
			continue;
		q = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (guard_running_for(q, &s->bs_seq, &s->bs_at, now) <
		    s->timeout_ns + guard_grace_ns(s->timeout_ns))
			continue;
		what = atomic_load_explicit(&s->what, memory_order_relaxed);
		snprintf(msg, size, "the model's %s ran past its deadline of "
		    "%lld ms and did not stop within %lld ms more; stopped "
		    "here", what != NULL ? what : "call",
		    (long long)(s->timeout_ns / 1000000),
		    (long long)(guard_grace_ns(s->timeout_ns) / 1000000));
		return true;
	}
	return false;
}

static void *
guard_backstop_main(void *arg)
{
	struct timespec ts = { 0, (long)GUARD_BACKSTOP_MS * 1000000 };
	guard_overrun_fn fn;
	char msg[256];
	bool over;

	for (;;) {
		nanosleep(&ts, NULL);
		mutex_lock(&guard.lock);
		over = guard_backstop_scan(guard_now_ns(), msg, sizeof msg);
		fn = guard.overrun;
		mutex_unlock(&guard.lock);
		if (over)
			(fn != NULL ? fn : guard_overrun_default)(msg);
	}
	return NULL;
}

/* The watchdog's condition variable measures CLOCK_MONOTONIC, like the
 * deadlines; signals stay with the program's own threads. */
static int
guard_spawn(struct error *err)
{
	pthread_condattr_t ca;
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t t, b;
	int rc;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_destroy(&guard.cond);
	pthread_cond_init(&guard.cond, &ca);
	pthread_condattr_destroy(&ca);

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	/* The threads take no asynchronous signal, but SIGSYS stays open:
	 * blocked, a refused system call would kill the worker without the
	 * seccomp trap's frame, and nobody would learn which call it was. */
	sigfillset(&all);
	sigdelset(&all, SIGSYS);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t, &attr, guard_main, NULL);
	if (rc == 0)
		rc = pthread_create(&b, &attr, guard_backstop_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return error_set(err, EXIT_ERROR,
		    "cannot start the model watchdog: %s", strerror(rc));
	guard.started++;
	return 0;
}

/* Starts the watchdog once and creates fronts.ModelTimeout. Needs the
 * interpreter and the GIL. */
static int
guard_start(struct error *err)
{
	int rc = 0;

	mutex_lock(&guard.lock);
	if (!guard.running) {
		if (guard.exc == NULL)
			guard.exc = PyErr_NewExceptionWithDoc("fronts.ModelTimeout",
			    "The model call ran past its deadline.",
			    PyExc_BaseException, NULL);
		if (guard.exc == NULL) {
			PyErr_Clear();
			rc = error_set(err, EXIT_ERROR,
			    "cannot create the model timeout exception");
		} else if ((rc = guard_spawn(err)) == 0)
			guard.running = true;
	}
	mutex_unlock(&guard.lock);
	return rc;
}

struct guard_slot *
guard_slot_new(int timeout_ms, struct error *err)
{
	struct guard_slot *s = NULL;
	int i;

	INVARIANT(PyGILState_Check());
	if (guard_start(err) != 0)
		return NULL;
	mutex_lock(&guard.lock);
	for (i = 0; i < GUARD_MAX_SLOTS; i++) {
		if (!guard.slots[i].in_use) {
			s = &guard.slots[i];
			break;
		}
	}
	if (s != NULL) {
		atomic_store(&s->seq, 0);
		atomic_store(&s->fired, 0);
		s->timeout_ns = timeout_ms > 0 ? (int64_t)timeout_ms * 1000000 : 0;
		s->thread_id = PyThread_get_thread_ident();
		s->seen_seq = 0;
		s->seen_at = 0;
		s->refire_at = 0;
		s->bs_seq = 0;
		s->bs_at = 0;
		atomic_store(&s->what, NULL);
		s->in_use = true;
		pthread_cond_signal(&guard.cond);
	}
	mutex_unlock(&guard.lock);
	if (s == NULL)
		error_set(err, EXIT_ERROR, "more than %d models loaded at once",
		    GUARD_MAX_SLOTS);
	return s;
}

void
guard_slot_free(struct guard_slot *s)
{
	if (s == NULL)
		return;
	INVARIANT(PyGILState_Check());
	mutex_lock(&guard.lock);
	s->in_use = false;
	mutex_unlock(&guard.lock);
}

void
guard_slot_set_timeout(struct guard_slot *s, int timeout_ms)
{
	mutex_lock(&guard.lock);
	s->timeout_ns = timeout_ms > 0 ? (int64_t)timeout_ms * 1000000 : 0;
	pthread_cond_signal(&guard.cond);
	mutex_unlock(&guard.lock);
}

void
guard_slot_bind(struct guard_slot *s)
{
	INVARIANT(PyGILState_Check());
	s->thread_id = PyThread_get_thread_ident();
}

bool
guard_disarm_slow(struct guard_slot *s)
{
	/* An exception set just as the call returned would surface in the
	 * thread's next Python code; take it back. */
	PyThreadState_SetAsyncExc(s->thread_id, NULL);
	atomic_store(&s->fired, 0);
	return true;
}

bool
guard_is_timeout(void *exc_type)
{
	return guard.exc != NULL && exc_type != NULL &&
	    PyErr_GivenExceptionMatches((PyObject *)exc_type, guard.exc);
}

int
guard_threads_started(void)
{
	return guard.started;
}
