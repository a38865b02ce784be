/*
 * pyhost — the process's one embedded CPython interpreter (a process-wide
 * singleton), configured in isolated mode: no site, no user site, no
 * PYTHON* environment, no current directory on the path, no signal
 * handlers, no bytecode written, a fixed hash seed (so a model iterating a
 * set of strings repeats under the same --seed). The standard library is
 * the one libpython was built for (FRONTS_PYTHON_HOME, from pkg-config at
 * build time), never whatever python3 is first on PATH.
 *
 * The GIL convention: pyhost_init() returns with the GIL *released*
 * (PyEval_SaveThread). Every thread that touches Python — the caller of
 * pyhost_init included, the planner thread, the watchdog — brackets its
 * work with
 *
 *	PyGILState_STATE g = PyGILState_Ensure();
 *	... Python calls ...
 *	PyGILState_Release(g);
 *
 * and never holds the GIL while it blocks on anything but Python. The
 * functions below that say "needs the GIL" expect the caller to hold it;
 * the others take and release it themselves.
 */
#ifndef FRONTS_PYHOST_H
#define FRONTS_PYHOST_H

#include "core/util.h"

/* Initialises the interpreter once (thread-safe); later calls return 0 at
 * once. Returns with the GIL released. */
int	pyhost_init(struct error *err);
/* The embedded libpython's version line ("3.11.2 (main, …) [GCC …]"),
 * known without starting the interpreter. */
const char *pyhost_version(void);
/* Finalises the interpreter at process exit. The interpreter cannot be
 * initialised again afterwards; call it at most once, from the thread that
 * may take the GIL, with no other thread inside Python. */
void	pyhost_fini(void);
/* True once pyhost_init() succeeded (and pyhost_fini() was not called). */
int	pyhost_ready(void);

/* Needs the GIL. Turns the pending Python exception (if any) into err:
 * "PREFIX: ExcType: message (FILE:LINE)", FILE:LINE being the innermost
 * frame of the traceback (or the SyntaxError's position). Clears the
 * exception. Returns -1. Never runs model-defined code: the message comes
 * from builtin exception types only; for other classes only the type's
 * name and the exception's first string argument are shown. */
int	pyhost_error(struct error *err, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

#endif
