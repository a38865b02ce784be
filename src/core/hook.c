/*
 * hook — see hook.h. The release build compiles this file as it is; the
 * Makefile compiles it a second time with -DFRONTS_TEST_HOOKS for the test
 * builds, and links that object ahead of libfronts.a.
 */
#include <stdlib.h>

#include "core/hook.h"

#ifdef FRONTS_TEST_HOOKS
const char *
hook_env(const char *name)
{
	return getenv(name);
}

bool
hook_enabled(void)
{
	return true;
}
#else
const char *
hook_env(const char *name)
{
	(void)name;
	return NULL;
}

bool
hook_enabled(void)
{
	return false;
}
#endif
