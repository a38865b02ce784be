/*
 * namespace — the restricted globals a world model executes in: an
 * explicit allowlist of builtins and pre-bound values (dataclass, Random,
 * sqrt, deque, …), never a module object. See SECURITY.md.
 */
#ifndef FRONTS_NAMESPACE_H
#define FRONTS_NAMESPACE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "core/util.h"

/* What `__name__` is in a model's globals: a name that is not in
 * sys.modules, so nothing (dataclasses included) can look the model's
 * "module" up there. */
#define NAMESPACE_MODEL_NAME	"fronts_model"

/* A fresh globals dict (new reference) with the restricted __builtins__
 * and the pre-bound values. Needs the interpreter (pyhost_init) and the GIL. */
PyObject	*namespace_new(struct error *err);
/* Executes an already gated source in a fresh namespace; returns the
 * globals dict (new reference) holding the model's functions. filename is
 * what tracebacks show ("model.py"). The source is decoded as strict UTF-8
 * and any coding cookie is ignored, exactly as the gate reads it. A Python
 * exception becomes err (EXIT_MODEL) with its type, message and line.
 * Needs the GIL. */
PyObject	*namespace_exec_model(const char *src, size_t len,
		    const char *filename, struct error *err);
/* The two halves of namespace_exec_model, for a worker that compiles
 * before its lockdown and runs the module body only after it: the code
 * object (new reference; a syntax error is EXIT_MODEL), then its execution
 * in globals. Both need the GIL. */
PyObject	*namespace_compile_model(const char *src, size_t len,
		    const char *filename, struct error *err);
int		 namespace_run_model(PyObject *code, PyObject *globals,
		    const char *filename, struct error *err);

/* True only in the assume-breach test build (fronts-breach). */
bool		 namespace_breach_build(void);

/* The allowlists, NULL-terminated, for SECURITY.md's tables, the synthesis
 * prompt and tests: the builtins a model may name (the restricted
 * __builtins__ also holds __build_class__, which `class` needs and the
 * gate refuses naming), and the pre-bound values. */
extern const char *const namespace_builtin_names[];
struct namespace_value {
	const char	*name;		/* name in the model's globals */
	const char	*module;	/* where the host takes it from */
	const char	*attr;		/* attribute of that module */
};
extern const struct namespace_value namespace_values[];

#endif
