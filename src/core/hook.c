/*
 * hook — see hook.h. The release build compiles this file as it is; the
 * Makefile compiles it a second time with -DFRONTS_TEST_HOOKS for the test
 * builds, and links that object ahead of libfronts.a.
 */
#include <stdlib.h>

#include "core/hook.h"

#ifdef FRONTS_TEST_HOOKS
static const char *const hook_names[HOOK_NVARS] = {
	[HOOK_NOW] = "FRONTS_TEST_NOW",
	[HOOK_PAUSE_AT] = "FRONTS_TEST_PAUSE_AT",
	[HOOK_RESUME_FILE] = "FRONTS_TEST_RESUME_FILE",
	[HOOK_RETRY_SCALE] = "FRONTS_RETRY_SCALE",
	[HOOK_WAIT_SCALE] = "FRONTS_TEST_WAIT_SCALE",
};

const char *
hook_env(enum hook_var v)
{
	return (unsigned)v < HOOK_NVARS ? getenv(hook_names[v]) : NULL;
}

const char *
hook_name(enum hook_var v)
{
	return (unsigned)v < HOOK_NVARS ? hook_names[v] : "";
}

bool
hook_enabled(void)
{
	return true;
}
#else
const char *
hook_env(enum hook_var v)
{
	(void)v;
	return NULL;
}

const char *
hook_name(enum hook_var v)
{
	(void)v;
	return "";
}

bool
hook_enabled(void)
{
	return false;
}
#endif
