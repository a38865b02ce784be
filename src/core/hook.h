/*
 * hook — the test hooks' one door. Test builds (fronts-test, fronts-breach,
 * the unit tests) are linked with hook.c compiled with FRONTS_TEST_HOOKS,
 * where hook_env() reads the environment; the release binary's hook_env()
 * answers NULL for every name, so no FRONTS_TEST_* variable can change
 * what it does.
 */
#ifndef FRONTS_HOOK_H
#define FRONTS_HOOK_H

#include <stdbool.h>

/* The test hook's value, or NULL (always NULL in a release build). */
const char	*hook_env(const char *name);
/* Whether this binary was built with test hooks. */
bool		 hook_enabled(void);

#endif
