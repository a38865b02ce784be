/*
 * invariant — the end of a build with FRONTS_CHECKS whose invariant broke
 * (see invariant.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/invariant.h"

_Noreturn void
invariant_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "fronts: invariant broken: %s (%s:%d, %s)\n", cond,
	    file, line, func);
	abort();
}
