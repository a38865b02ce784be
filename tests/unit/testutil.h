/*
 * testutil — what every cmocka test file includes: the cmocka headers in
 * the order cmocka needs, and TOP (the repository root) for test data.
 *
 * FRONTS_TEST_FILTER, a cmocka glob (`*` and `?`), runs only the tests
 * whose names match it, so one test runs alone without editing its file
 * (this cmocka, 1.1.5, reads no filter from the environment itself).
 */
#ifndef FRONTS_TESTUTIL_H
#define FRONTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

__attribute__((constructor)) static void
testutil_filter(void)
{
	const char *p = getenv("FRONTS_TEST_FILTER");

	if (p != NULL && *p != '\0')
		cmocka_set_test_filter(p);
}

#endif
