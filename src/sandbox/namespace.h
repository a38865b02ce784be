/*
 * namespace — the restricted globals a world model executes in: an
 * explicit allowlist of builtins and pre-bound values (dataclass, Random,
 * sqrt, deque, …), never a module object. See SECURITY.md.
 */
#ifndef FRONTS_NAMESPACE_H
#define FRONTS_NAMESPACE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core/util.h"

/* A fresh globals dict (new reference) with the restricted __builtins__
 * and the pre-bound values. Needs the interpreter (pyhost_init) and the GIL. */
PyObject	*namespace_new(struct error *err);
/* Executes an already gated source in a fresh namespace; returns the
 * globals dict (new reference) holding the model's functions. filename is
 * what tracebacks show ("model.py"). */
PyObject	*namespace_exec_model(const char *src, size_t len,
		    const char *filename, struct error *err);

#endif
