/*
 * hook — the test hooks' one door. Test builds (fronts-test, fronts-breach,
 * the unit tests) are linked with hook.c compiled with FRONTS_TEST_HOOKS,
 * where hook_env() reads the environment variable a hook names; in the
 * release binary hook_env() answers NULL for every hook and the variables'
 * names are not even in it (`strings build/fronts` shows none), so no
 * FRONTS_TEST_* variable can change what it does.
 */
#ifndef FRONTS_HOOK_H
#define FRONTS_HOOK_H

#include <stdbool.h>

enum hook_var {
	HOOK_NOW,		/* FRONTS_TEST_NOW: the clock (clock.c) */
	HOOK_PAUSE_AT,		/* FRONTS_TEST_PAUSE_AT: publish's pause point
				   (before-intent, after-intent,
				   after-response, between-parts) */
	HOOK_RESUME_FILE,	/* FRONTS_TEST_RESUME_FILE: ... until it exists */
	HOOK_RETRY_SCALE,	/* FRONTS_RETRY_SCALE: provider backoff factor */
	HOOK_WAIT_SCALE,	/* FRONTS_TEST_WAIT_SCALE: pull's waits and
				   the Mastodon upload polls, factor */
	HOOK_NVARS
};

/* The hook's value, or NULL (always NULL in a release build). */
const char	*hook_env(enum hook_var);
/* The hook's variable name ("" in a release build), for messages. */
const char	*hook_name(enum hook_var);
/* Whether this binary was built with test hooks. */
bool		 hook_enabled(void);

#endif
