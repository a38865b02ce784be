/*
 * clock — the wall clock every "now" in fronts comes from. A test build
 * can set it (FRONTS_TEST_NOW, see clock.c) so that no test depends on
 * the hour it runs; the release binary reads the system clock only.
 */
#ifndef FRONTS_CLOCK_H
#define FRONTS_CLOCK_H

#include <time.h>

/* Seconds since the epoch, now. */
time_t	clock_now(void);
/* Sets this process's clock to now, running on from here (a worker takes
 * its parent's clock from the job, so both agree on the plan's start).
 * Call before any other thread starts. */
void	clock_set(time_t now);
/* Sleeps ms milliseconds of this clock's time (a test clock running
 * faster than real time sleeps proportionally less). */
void	clock_sleep_ms(long ms);

#endif
