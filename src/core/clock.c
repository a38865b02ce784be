/*
 * clock — see clock.h.
 *
 * In a test build, FRONTS_TEST_NOW="T[xSPEED]" starts this process's clock
 * at T (ISO-8601 with offset, or @EPOCH) and runs it SPEED times as fast
 * as real time (default 1), so a test can hold the hour fixed or run a
 * day in seconds. A malformed value is fatal: a test that meant to pin the
 * clock must not silently run on the real one.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/hook.h"
#include "core/timeutil.h"
#include "core/util.h"

struct clock_state {
	int	 set;		/* 0 unread, 1 system clock, 2 set clock */
	time_t	 start;		/* the set clock's time at origin */
	double	 origin;	/* clock_seconds() when it was set */
	double	 speed;
};

/* The process-wide clock, read from the hook once, set at most once more
 * (by a worker, from its job) before any thread but the first runs. */
static struct clock_state clock_test;
static pthread_once_t clock_once = PTHREAD_ONCE_INIT;

static int
clock_parse(const char *v, time_t *start, double *speed)
{
	char buf[64], *x, *end;
	long long e;

	if (strlen(v) >= sizeof buf)
		return -1;
	strcpy(buf, v);
	*speed = 1;
	if ((x = strchr(buf, 'x')) != NULL) {
		*x++ = '\0';
		errno = 0;
		*speed = strtod(x, &end);
		if (errno != 0 || *end != '\0' || !(*speed > 0))
			return -1;
	}
	if (buf[0] == '@') {
		errno = 0;
		e = strtoll(buf + 1, &end, 10);
		if (errno != 0 || *end != '\0' || end == buf + 1)
			return -1;
		*start = (time_t)e;
		return 0;
	}
	return time_parse_iso(buf, start);
}

static void
clock_read_hook(void)
{
	const char *v = hook_env(HOOK_NOW);

	clock_test.set = 1;
	if (v == NULL || v[0] == '\0')
		return;
	if (clock_parse(v, &clock_test.start, &clock_test.speed) != 0) {
		fprintf(stderr, "fronts: %s=%s: not a time (ISO-8601 with "
		    "offset or @EPOCH, optionally xSPEED)\n",
		    hook_name(HOOK_NOW), v);
		exit(EXIT_ERROR);
	}
	clock_test.origin = clock_seconds();
	clock_test.set = 2;
}

time_t
clock_now(void)
{
	pthread_once(&clock_once, clock_read_hook);
	if (clock_test.set != 2)
		return time(NULL);
	return clock_test.start + (time_t)((clock_seconds() -
	    clock_test.origin) * clock_test.speed);
}

void
clock_set(time_t now)
{
	pthread_once(&clock_once, clock_read_hook);
	if (clock_test.set != 2)
		clock_test.speed = 1;
	clock_test.start = now;
	clock_test.origin = clock_seconds();
	clock_test.set = 2;
}

void
clock_sleep_ms(long ms)
{
	struct timespec ts;
	double s;

	pthread_once(&clock_once, clock_read_hook);
	if (ms <= 0)
		return;
	s = ms / 1000.0;
	if (clock_test.set == 2)
		s /= clock_test.speed;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
