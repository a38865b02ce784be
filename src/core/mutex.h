/*
 * mutex — a pthread mutex that knows which thread holds it, so that a
 * function "called with the lock held" can state it as an invariant
 * (INVARIANT(mutex_held(&lock)), core/invariant.h) instead of a comment.
 */
#ifndef FRONTS_MUTEX_H
#define FRONTS_MUTEX_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

struct mutex {
	pthread_mutex_t		 m;
	_Atomic(pthread_t)	 owner;		/* meaningful while held */
	atomic_bool		 held;
};

#define MUTEX_INITIALIZER	{ PTHREAD_MUTEX_INITIALIZER, 0, false }

void	mutex_init(struct mutex *);
void	mutex_destroy(struct mutex *);
void	mutex_lock(struct mutex *);
void	mutex_unlock(struct mutex *);
/* Whether the calling thread holds mu. */
bool	mutex_held(struct mutex *);
/* pthread_cond_wait / pthread_cond_timedwait on mu, which the caller
 * holds before and after (and does not while it waits). */
void	mutex_wait(pthread_cond_t *, struct mutex *);
int	mutex_timedwait(pthread_cond_t *, struct mutex *,
	    const struct timespec *);

#endif
