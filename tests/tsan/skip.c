/*
 * skip — linked only into the ThreadSanitizer build of the unit tests
 * (`make tsan`): FRONTS_TSAN_SKIP, a cmocka glob, names the tests that
 * cannot run under TSan's runtime at all (those that fork into a seccomp
 * filter: the forked copy of an instrumented, threaded process needs the
 * very syscalls the filter denies). They test the filter, not threads,
 * and run in `make test`.
 */
#include <stdlib.h>

#include "../unit/testutil.h"

__attribute__((constructor)) static void
tsan_skip(void)
{
	const char *p = getenv("FRONTS_TSAN_SKIP");

	if (p != NULL && *p != '\0')
		cmocka_set_skip_filter(p);
}
