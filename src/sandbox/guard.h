/*
 * guard — the deadline on every in-process model call. One watchdog thread
 * (a process-wide singleton) watches a small table of slots; a caller arms
 * its slot before calling into the model and disarms it after. A slot is a
 * call counter, odd while a call runs: arming and disarming are one store
 * each (plus one load to see whether the watchdog fired), with no clock
 * read, so a guarded call costs what an unguarded one does.
 *
 * The watchdog samples every slot GUARD_SAMPLES times per timeout period.
 * A call it sees running under the same count for a whole timeout since it
 * first saw it has overrun: the watchdog takes the GIL and raises
 * fronts.ModelTimeout (a BaseException) inside the calling thread's running
 * Python code, and again every GUARD_REFIRE_MS while the same call keeps
 * running (a model that swallows it is hit again). So a call is never
 * interrupted before its timeout, and at most one sampling period after.
 *
 * What it cannot stop: a call that never returns to the bytecode loop —
 * one long C-level operation such as sum(range(10**11)) or 10**10**8 holds
 * the GIL for its whole duration, so the watchdog waits with it. Only the
 * worker process boundary (SIGKILL, RLIMIT_CPU) ends those.
 */
#ifndef FRONTS_GUARD_H
#define FRONTS_GUARD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/util.h"

#define GUARD_MAX_SLOTS	64
#define GUARD_REFIRE_MS	20
#define GUARD_SAMPLES	8	/* samples per timeout period */
#define GUARD_GRACE_MIN_MS	1000
#define GUARD_BACKSTOP_MS	50	/* the backstop's sampling period */

struct guard_slot {
	_Atomic uint64_t seq;		/* odd: inside a call */
	int64_t		timeout_ns;	/* 0: calls have no deadline */
	unsigned long	thread_id;	/* the calling thread (GIL held) */
	atomic_int	fired;		/* the watchdog raised in this call */
	_Atomic(const char *) what;	/* what the call is, for the backstop */
	/* watchdog-private */
	uint64_t	seen_seq;
	int64_t		seen_at;
	int64_t		refire_at;
	bool		in_use;
	/* backstop-private */
	uint64_t	bs_seq;
	int64_t		bs_at;
};

/* What happens to a call that runs on GUARD_GRACE past its deadline
 * although the watchdog kept raising in it (a finalizer or a C callback
 * that swallows the timeout, or one long C-level operation): msg says
 * which call. The handler must end the process; the default writes msg to
 * stderr and exits with EXIT_MODEL. */
typedef void (*guard_overrun_fn)(const char *msg);

static inline int64_t
guard_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A slot whose calls have timeout_ms each (0: none). GIL held. */
struct guard_slot	*guard_slot_new(int timeout_ms, struct error *err);
/* Releases a slot; GIL held, not inside a call. */
void			 guard_slot_free(struct guard_slot *);
/* Changes the slot's deadline for its later calls; not inside a call. */
void			 guard_slot_set_timeout(struct guard_slot *, int timeout_ms);
/* Binds the slot to the calling thread; GIL held. */
void			 guard_slot_bind(struct guard_slot *);

/* Only the owning thread writes seq, so a relaxed load suffices. */
static inline void
guard_arm(struct guard_slot *s)
{
	atomic_store_explicit(&s->seq, atomic_load_explicit(&s->seq,
	    memory_order_relaxed) + 1, memory_order_release);
}

/* Ends a call (GIL held). Returns true when the watchdog fired during it;
 * the caller then treats the call as timed out, whatever it returned. */
bool			 guard_disarm_slow(struct guard_slot *);

static inline bool
guard_disarm(struct guard_slot *s)
{
	atomic_store_explicit(&s->seq, atomic_load_explicit(&s->seq,
	    memory_order_relaxed) + 1, memory_order_release);
	if (atomic_load_explicit(&s->fired, memory_order_acquire) == 0)
		return false;
	return guard_disarm_slow(s);
}

/* Names the slot's current call ("apply") for the backstop's message;
 * what must be a string that lives for the whole process. */
static inline void
guard_slot_what(struct guard_slot *s, const char *what)
{
	atomic_store_explicit(&s->what, what, memory_order_relaxed);
}

/* The process-wide overrun handler (NULL: the default). */
void			 guard_set_overrun(guard_overrun_fn);

/* Is exc (an exception type) fronts.ModelTimeout? */
bool			 guard_is_timeout(void *exc_type);
/* Number of watchdog threads ever started (0 or 1; the backstop thread
 * that comes with it is not counted), for tests. */
int			 guard_threads_started(void);

#endif
