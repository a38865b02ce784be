/*
 * gatepy — the gate's rules as Python objects, for code that runs Python
 * against them (tests walking the namespace with the gate's own attribute
 * rule). Kept apart from gate.h so gate.h's users need no Python.h.
 */
#ifndef FRONTS_GATEPY_H
#define FRONTS_GATEPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core/util.h"

/* gate.py's globals (borrowed; alive as long as the interpreter): check(),
 * attribute_allowed(name), FORBIDDEN_NAMES, …. Needs the GIL. */
PyObject	*gate_rules(struct error *err);

#endif
