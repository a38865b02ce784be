/*
 * test_live — the live error's arithmetic: the log-normal interval made
 * from a prediction's mean and sd, and the binomial tail the coverage
 * test uses (tests/cli/test_live.sh drives the whole of it).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/live.h"

/* The median and 10-90% of a log-normal with mean 100 and sd 50: the
 * log sd is sqrt(log(1.25)), the median 100 / sqrt(1.25). */
static void
test_interval(void **state)
{
	double med, lo, hi, s = sqrt(log(1.25));

	live_interval(100, 50, &med, &lo, &hi);
	assert_true(fabs(med - 100 / sqrt(1.25)) < 1e-9);
	assert_true(fabs(lo - med * exp(-1.2815515655446004 * s)) < 1e-9);
	assert_true(fabs(hi - med * exp(1.2815515655446004 * s)) < 1e-9);
	/* no spread saved: the mean is the centre, and no interval */
	live_interval(100, NAN, &med, &lo, &hi);
	assert_true(med == 100 && isnan(lo) && isnan(hi));
	/* a spread of 0: the interval is the point */
	live_interval(7, 0, &med, &lo, &hi);
	assert_true(med == 7 && lo == 7 && hi == 7);
}

static void
test_binomial(void **state)
{
	/* P(X <= 4 | 9, 0.8) = 0.01958144, P(X <= 5 | 9, 0.8) = 0.08564173 */
	assert_true(fabs(live_binomial_cdf(4, 9, 0.8) - 0.01958144) < 1e-7);
	assert_true(fabs(live_binomial_cdf(5, 9, 0.8) - 0.08564173) < 1e-7);
	assert_true(live_binomial_cdf(-1, 9, 0.8) == 0);
	assert_true(live_binomial_cdf(9, 9, 0.8) == 1);
	/* n = 5: fewer than 2 inside is the bound at 2.5% */
	assert_true(live_binomial_cdf(1, 5, 0.8) < LIVE_ALPHA);
	assert_true(live_binomial_cdf(2, 5, 0.8) >= LIVE_ALPHA);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_binomial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
