/*
 * invariant — what a function relies on and its comment used to only say
 * ("called with the lock held"), checked where it matters: in builds with
 * FRONTS_CHECKS (`make debug`, `make asan`, `make tsan`, `make fuzz`). The
 * release build compiles the condition (so it stays valid C) and never
 * runs it.
 */
#ifndef FRONTS_INVARIANT_H
#define FRONTS_INVARIANT_H

#ifdef FRONTS_CHECKS
#define INVARIANT(cond)	((cond) ? (void)0 : \
	invariant_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define INVARIANT(cond)	((void)sizeof(!(cond)))
#endif

/* Names the broken invariant on stderr and aborts: a bug, never input. */
_Noreturn void	invariant_fail(const char *cond, const char *file, int line,
		    const char *func);

#endif
