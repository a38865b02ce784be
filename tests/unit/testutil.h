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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

__attribute__((constructor)) static void
testutil_filter(void)
{
	const char *p = getenv("FRONTS_TEST_FILTER");

	if (p != NULL && *p != '\0')
		cmocka_set_test_filter(p);
}

/* A fresh directory /tmp/fronts-NAME-XXXXXX (malloc'd), and its removal
 * with everything in it (the path freed). */
static inline char *
test_tmpdir(const char *name)
{
	size_t len = strlen(name) + 32;
	char *dir = malloc(len);

	assert_non_null(dir);
	snprintf(dir, len, "/tmp/fronts-%s-XXXXXX", name);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static inline void
test_rmdir(char *dir)
{
	size_t len = strlen(dir) + 16;
	char *cmd = malloc(len);

	assert_non_null(cmd);
	snprintf(cmd, len, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

#endif
