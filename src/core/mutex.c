/*
 * mutex — a pthread mutex that knows its holder (see mutex.h). The holder
 * is written by the thread that holds the lock, after taking it and
 * before giving it up; sequentially consistent atomics let any thread ask
 * without a race: a thread that does not hold it never sees itself named.
 */
#include "core/invariant.h"
#include "core/mutex.h"

void
mutex_init(struct mutex *mu)
{
	pthread_mutex_init(&mu->m, NULL);
	atomic_store(&mu->held, false);
}

void
mutex_destroy(struct mutex *mu)
{
	pthread_mutex_destroy(&mu->m);
}

static void
mutex_own(struct mutex *mu)
{
	atomic_store(&mu->owner, pthread_self());
	atomic_store(&mu->held, true);
}

void
mutex_lock(struct mutex *mu)
{
	pthread_mutex_lock(&mu->m);
	mutex_own(mu);
}

void
mutex_unlock(struct mutex *mu)
{
	INVARIANT(mutex_held(mu));
	atomic_store(&mu->held, false);
	pthread_mutex_unlock(&mu->m);
}

bool
mutex_held(struct mutex *mu)
{
	return atomic_load(&mu->held) &&
	    pthread_equal(atomic_load(&mu->owner), pthread_self());
}

void
mutex_wait(pthread_cond_t *cond, struct mutex *mu)
{
	INVARIANT(mutex_held(mu));
	atomic_store(&mu->held, false);
	pthread_cond_wait(cond, &mu->m);
	mutex_own(mu);
}

int
mutex_timedwait(pthread_cond_t *cond, struct mutex *mu,
    const struct timespec *until)
{
	int rc;

	INVARIANT(mutex_held(mu));
	atomic_store(&mu->held, false);
	rc = pthread_cond_timedwait(cond, &mu->m, until);
	mutex_own(mu);
	return rc;
}
