/*
 * namespace — builds the globals a world model runs in. Everything in it
 * is a value (a function, a class, a number) picked out of a module by the
 * host; no module object is ever bound, so the model has nothing to walk
 * from to sys, os or builtins by plain attribute names. The routes that
 * remain go through attribute names starting with `_` (`__globals__`,
 * `__self__`, `__subclasses__`), which the gate refuses; tests/unit/
 * test_namespace.c walks every allowed attribute name to keep it so.
 */
#include <string.h>

#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"

/* Builtins a model may use; everything else (open, print, type, getattr,
 * __import__, …) is simply absent. Keep SECURITY.md in step. */
const char *const namespace_builtin_names[] = {
	/* types and constructors */
	"bool", "int", "float", "complex", "str", "bytes", "tuple", "list",
	"dict", "set", "frozenset", "range", "slice", "object",
	"property", "staticmethod", "classmethod", "super",
	/* functions */
	"abs", "all", "any", "ascii", "bin", "callable", "chr", "divmod",
	"enumerate", "filter", "hash", "hex", "id", "isinstance",
	"issubclass", "iter", "len", "map", "max", "min", "next", "oct",
	"ord", "pow", "repr", "reversed", "round", "sorted", "sum", "zip",
	/* constants; not NotImplemented: a comparison that returns it after
	 * mutating its operand reaches use-after-free bugs of this libpython
	 * (SECURITY.md, "The interpreter's own bugs") */
	"Ellipsis",
	/* exceptions a model raises or catches; never BaseException, which
	 * would catch the call timeout (the gate's CATCHABLE lists these) */
	"ArithmeticError", "AssertionError", "AttributeError",
	"Exception", "IndexError", "KeyError",
	"LookupError", "NotImplementedError", "OverflowError",
	"RecursionError", "RuntimeError", "StopIteration", "TypeError",
	"ValueError", "ZeroDivisionError",
	NULL
};

/* Pre-bound values: each is looked up in its module by the host. Left
 * out for memory-safety bugs of this libpython that a model can reach
 * (SECURITY.md): OrderedDict, itertools.groupby, islice, pairwise and
 * zip_longest. */
const struct namespace_value namespace_values[] = {
	{ "dataclass", "dataclasses", "dataclass" },
	{ "field", "dataclasses", "field" },
	{ "fields", "dataclasses", "fields" },
	{ "replace", "dataclasses", "replace" },
	{ "asdict", "dataclasses", "asdict" },
	{ "Random", "random", "Random" },
	{ "sqrt", "math", "sqrt" },
	{ "log", "math", "log" },
	{ "log1p", "math", "log1p" },
	{ "log2", "math", "log2" },
	{ "log10", "math", "log10" },
	{ "exp", "math", "exp" },
	{ "expm1", "math", "expm1" },
	{ "floor", "math", "floor" },
	{ "ceil", "math", "ceil" },
	{ "trunc", "math", "trunc" },
	{ "fabs", "math", "fabs" },
	{ "fsum", "math", "fsum" },
	{ "prod", "math", "prod" },
	{ "isfinite", "math", "isfinite" },
	{ "isinf", "math", "isinf" },
	{ "isnan", "math", "isnan" },
	{ "isclose", "math", "isclose" },
	{ "tanh", "math", "tanh" },
	{ "sin", "math", "sin" },
	{ "cos", "math", "cos" },
	{ "atan", "math", "atan" },
	{ "atan2", "math", "atan2" },
	{ "hypot", "math", "hypot" },
	{ "erf", "math", "erf" },
	{ "erfc", "math", "erfc" },
	{ "gamma", "math", "gamma" },
	{ "lgamma", "math", "lgamma" },
	{ "comb", "math", "comb" },
	{ "factorial", "math", "factorial" },
	{ "copysign", "math", "copysign" },
	{ "inf", "math", "inf" },
	{ "nan", "math", "nan" },
	{ "pi", "math", "pi" },
	{ "deque", "collections", "deque" },
	{ "defaultdict", "collections", "defaultdict" },
	{ "Counter", "collections", "Counter" },
	{ "namedtuple", "collections", "namedtuple" },
	{ "heappush", "heapq", "heappush" },
	{ "heappop", "heapq", "heappop" },
	{ "heapify", "heapq", "heapify" },
	{ "heapreplace", "heapq", "heapreplace" },
	{ "nlargest", "heapq", "nlargest" },
	{ "nsmallest", "heapq", "nsmallest" },
	{ "bisect", "bisect", "bisect" },
	{ "bisect_left", "bisect", "bisect_left" },
	{ "bisect_right", "bisect", "bisect_right" },
	{ "insort", "bisect", "insort" },
	{ "mean", "statistics", "mean" },
	{ "fmean", "statistics", "fmean" },
	{ "median", "statistics", "median" },
	{ "stdev", "statistics", "stdev" },
	{ "pstdev", "statistics", "pstdev" },
	{ "variance", "statistics", "variance" },
	{ "pvariance", "statistics", "pvariance" },
	{ "NormalDist", "statistics", "NormalDist" },
	{ "reduce", "functools", "reduce" },
	{ "partial", "functools", "partial" },
	{ "accumulate", "itertools", "accumulate" },
	{ "chain", "itertools", "chain" },
	{ "combinations", "itertools", "combinations" },
	{ "permutations", "itertools", "permutations" },
	{ "product", "itertools", "product" },
	{ NULL, NULL, NULL }
};

static int
namespace_add_builtins(PyObject *globals, struct error *err)
{
	PyObject *real, *restricted, *v;
	const char *const *n;

	if ((real = PyEval_GetBuiltins()) == NULL)
		return error_set(err, EXIT_ERROR, "no builtins");
	if ((restricted = PyDict_New()) == NULL)
		return pyhost_error(err, EXIT_ERROR, "namespace");
	for (n = namespace_builtin_names; *n != NULL; n++) {
		v = PyDict_GetItemString(real, *n);	/* borrowed */
		if (v == NULL || PyDict_SetItemString(restricted, *n, v) != 0) {
			Py_DECREF(restricted);
			return pyhost_error(err, EXIT_ERROR,
			    "namespace: builtin %s", *n);
		}
	}
	/* The `class` statement needs it; the gate refuses naming it. */
	v = PyDict_GetItemString(real, "__build_class__");
	if (v == NULL ||
	    PyDict_SetItemString(restricted, "__build_class__", v) != 0 ||
	    PyDict_SetItemString(globals, "__builtins__", restricted) != 0) {
		Py_DECREF(restricted);
		return pyhost_error(err, EXIT_ERROR, "namespace");
	}
	Py_DECREF(restricted);
	return 0;
}

static int
namespace_add_values(PyObject *globals, struct error *err)
{
	const struct namespace_value *nv;
	PyObject *mod, *v;
	int rc;

	for (nv = namespace_values; nv->name != NULL; nv++) {
		if ((mod = PyImport_ImportModule(nv->module)) == NULL)
			return pyhost_error(err, EXIT_ERROR,
			    "namespace: module %s", nv->module);
		v = PyObject_GetAttrString(mod, nv->attr);
		Py_DECREF(mod);
		if (v == NULL)
			return pyhost_error(err, EXIT_ERROR,
			    "namespace: %s.%s", nv->module, nv->attr);
		if (PyModule_Check(v)) {
			Py_DECREF(v);
			return error_set(err, EXIT_ERROR,
			    "namespace: %s.%s is a module", nv->module,
			    nv->attr);
		}
		rc = PyDict_SetItemString(globals, nv->name, v);
		Py_DECREF(v);
		if (rc != 0)
			return pyhost_error(err, EXIT_ERROR, "namespace");
	}
	return 0;
}

#ifdef FRONTS_TEST_BREACH
/*
 * Test builds only (build/fronts-breach, made for `make test`; never by
 * `make all` or `make install`): the model is handed what an escape from
 * the namespace would give it — the real builtins (open, __import__,
 * getattr), os, socket and ctypes, imported now, before the lockdown, as
 * an attacker with arbitrary memory access would find them. The
 * assume-breach tests then show what the worker's layers still stop.
 */
static int
namespace_add_breach(PyObject *globals, struct error *err)
{
	static const char *const mods[][2] = {
		{ "breach_os", "os" }, { "breach_socket", "socket" },
		{ "breach_ctypes", "ctypes" }
	};
	PyObject *real = PyEval_GetBuiltins(), *m;
	size_t i;

	if (PyDict_SetItemString(globals, "breach_builtins", real) != 0 ||
	    PyDict_SetItemString(globals, "breach_open",
	    PyDict_GetItemString(real, "open")) != 0 ||
	    PyDict_SetItemString(globals, "breach_import",
	    PyDict_GetItemString(real, "__import__")) != 0)
		return pyhost_error(err, EXIT_ERROR, "namespace: breach");
	for (i = 0; i < sizeof mods / sizeof *mods; i++) {
		if ((m = PyImport_ImportModule(mods[i][1])) == NULL) {
			PyErr_Clear();
			continue;
		}
		PyDict_SetItemString(globals, mods[i][0], m);
		Py_DECREF(m);
	}
	return 0;
}
#endif

bool
namespace_breach_build(void)
{
#ifdef FRONTS_TEST_BREACH
	return true;
#else
	return false;
#endif
}

PyObject *
namespace_new(struct error *err)
{
	PyObject *globals, *name;

	if ((globals = PyDict_New()) == NULL) {
		pyhost_error(err, EXIT_ERROR, "namespace");
		return NULL;
	}
	if ((name = PyUnicode_FromString(NAMESPACE_MODEL_NAME)) == NULL ||
	    PyDict_SetItemString(globals, "__name__", name) != 0) {
		Py_XDECREF(name);
		Py_DECREF(globals);
		pyhost_error(err, EXIT_ERROR, "namespace");
		return NULL;
	}
	Py_DECREF(name);
	if (namespace_add_builtins(globals, err) != 0 ||
	    namespace_add_values(globals, err) != 0) {
		Py_DECREF(globals);
		return NULL;
	}
#ifdef FRONTS_TEST_BREACH
	if (namespace_add_breach(globals, err) != 0) {
		Py_DECREF(globals);
		return NULL;
	}
#endif
	return globals;
}

PyObject *
namespace_compile_model(const char *src, size_t len, const char *filename,
    struct error *err)
{
	PyCompilerFlags flags = _PyCompilerFlags_INIT;
	PyObject *text, *fname, *code;

	if (memchr(src, '\0', len) != NULL) {
		error_set(err, EXIT_MODEL, "%s: source contains a NUL byte",
		    filename);
		return NULL;
	}
	/* Strict UTF-8, coding cookie ignored: what the gate parsed. */
	text = PyUnicode_DecodeUTF8(src, (Py_ssize_t)len, "strict");
	fname = PyUnicode_DecodeFSDefault(filename);
	if (text == NULL || fname == NULL) {
		Py_XDECREF(text);
		Py_XDECREF(fname);
		pyhost_error(err, EXIT_MODEL, "%s", filename);
		return NULL;
	}
	flags.cf_flags |= PyCF_IGNORE_COOKIE;
	code = Py_CompileStringObject(PyUnicode_AsUTF8(text), fname,
	    Py_file_input, &flags, -1);
	Py_DECREF(text);
	Py_DECREF(fname);
	if (code == NULL)
		pyhost_error(err, EXIT_MODEL, "%s", filename);
	return code;
}

int
namespace_run_model(PyObject *code, PyObject *globals, const char *filename,
    struct error *err)
{
	PyObject *r;

	if ((r = PyEval_EvalCode(code, globals, globals)) == NULL)
		return pyhost_error(err, EXIT_MODEL, "%s", filename);
	Py_DECREF(r);
	return 0;
}

PyObject *
namespace_exec_model(const char *src, size_t len, const char *filename,
    struct error *err)
{
	PyObject *code, *globals;

	if ((code = namespace_compile_model(src, len, filename, err)) == NULL)
		return NULL;
	if ((globals = namespace_new(err)) != NULL &&
	    namespace_run_model(code, globals, filename, err) != 0)
		Py_CLEAR(globals);
	Py_DECREF(code);
	return globals;
}
