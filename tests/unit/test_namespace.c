/*
 * Unit tests for pyhost and namespace: the interpreter is isolated, the
 * namespace holds values and never a module, nothing a module, frame, code
 * object or function-globals dict is reachable through attribute names the
 * gate allows, and model code runs in it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "sandbox/pyhost.h"
#include "sandbox/namespace.h"

/* Runs a Python snippet with `ns` (a fresh namespace) bound; the snippet
 * sets `result` to a string: "ok" or what went wrong. */
static char *
run_probe(const char *probe, PyObject *extra)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *ns, *env, *r, *res;
	char *out;

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	ns = namespace_new(&err);
	assert_non_null(ns);
	env = PyDict_New();
	PyDict_SetItemString(env, "__builtins__", PyEval_GetBuiltins());
	PyDict_SetItemString(env, "ns", ns);
	if (extra != NULL)
		PyDict_Update(env, extra);
	r = PyRun_String(probe, Py_file_input, env, env);
	if (r == NULL) {
		pyhost_error(&err, 1, "probe");
		out = xstrdup(err.msg);
	} else {
		res = PyDict_GetItemString(env, "result");
		out = xstrdup(res != NULL && PyUnicode_Check(res) ?
		    PyUnicode_AsUTF8(res) : "(no result)");
	}
	Py_XDECREF(r);
	Py_DECREF(env);
	Py_DECREF(ns);
	PyGILState_Release(g);
	return out;
}

static void
expect_probe_ok(const char *probe, PyObject *extra)
{
	char *r = run_probe(probe, extra);

	if (strcmp(r, "ok") != 0)
		fail_msg("%s", r);
	free(r);
}

static void
test_isolated_config(void **state)
{
	expect_probe_ok(
	    "import sys, os\n"
	    "bad = []\n"
	    "if not sys.flags.isolated: bad.append('not isolated')\n"
	    "if not sys.flags.no_site: bad.append('site imported')\n"
	    "if not sys.flags.ignore_environment: bad.append('env honoured')\n"
	    "if not sys.flags.safe_path: bad.append('no safe_path')\n"
	    "if 'site' in sys.modules: bad.append('site module')\n"
	    "for p in sys.path:\n"
	    "    if p in ('', '.', os.getcwd()) or 'pyenv' in p:\n"
	    "        bad.append('path ' + p)\n"
	    "if not os.__file__.startswith(sys.prefix): bad.append(os.__file__)\n"
	    "if 'pyenv' in sys.prefix: bad.append(sys.prefix)\n"
	    "if hash('x') != hash('x'[:]): bad.append('hash')\n"
	    "result = '; '.join(bad) or 'ok'\n", NULL);
}

static void
test_no_module_in_namespace(void **state)
{
	expect_probe_ok(
	    "import types\n"
	    "bad = [k for k, v in ns.items() if isinstance(v, types.ModuleType)]\n"
	    "b = ns['__builtins__']\n"
	    "if not isinstance(b, dict): bad.append('builtins not a dict')\n"
	    "else: bad += ['builtins.' + k for k, v in b.items()\n"
	    "              if isinstance(v, types.ModuleType)]\n"
	    "for k in ('open', 'exec', 'eval', 'compile', '__import__', 'getattr',\n"
	    "          'setattr', 'delattr', 'globals', 'locals', 'vars', 'type',\n"
	    "          'print', 'input', 'help', 'breakpoint', 'memoryview', 'dir'):\n"
	    "    if k in b or k in ns: bad.append('has ' + k)\n"
	    "for k in ('dataclass', 'field', 'replace', 'Random', 'sqrt', 'log',\n"
	    "          'exp', 'floor', 'ceil', 'inf', 'deque', 'defaultdict',\n"
	    "          'Counter', 'heappush', 'heappop', 'mean'):\n"
	    "    if k not in ns: bad.append('missing ' + k)\n"
	    "result = '; '.join(bad) or 'ok'\n", NULL);
}

static const char model_src[] =
    "@dataclass(frozen=True)\n"
    "class State:\n"
    "    slot: int\n"
    "    seen: tuple = ()\n"
    "\n"
    "def initial_state(ctx):\n"
    "    return State(0)\n"
    "\n"
    "def apply(state, action, rng):\n"
    "    r = sqrt(rng.random()) + mean([1, 2, 3]) + floor(log(exp(1.0)))\n"
    "    q = deque([1]); heappush([], 1); c = Counter('aab')\n"
    "    return replace(state, slot=state.slot + 1), r + c['a']\n";

static void
test_exec_model(void **state)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *ns, *r;

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	ns = namespace_exec_model(model_src, strlen(model_src), "model.py",
	    &err);
	if (ns == NULL)
		fail_msg("%s", err.msg);
	r = PyRun_String("apply(initial_state({}), ('wait',), Random(1))",
	    Py_eval_input, ns, ns);
	assert_non_null(r);
	assert_true(PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2);
	Py_DECREF(r);
	Py_DECREF(ns);
	PyGILState_Release(g);
}

static void
test_exec_errors(void **state)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	const char *imp = "import os\n", *bad = "x = 1\ny = (\n";
	const char *nul = "x = 1\0import os\n";

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	assert_null(namespace_exec_model(imp, strlen(imp), "model.py", &err));
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg, "ImportError"));
	assert_non_null(strstr(err.msg, "model.py:1"));
	assert_null(namespace_exec_model(bad, strlen(bad), "model.py", &err));
	assert_non_null(strstr(err.msg, "SyntaxError"));
	assert_null(namespace_exec_model(nul, 16, "model.py", &err));
	assert_non_null(strstr(err.msg, "NUL"));
	/* A coding cookie is ignored: the bytes are UTF-8, as the gate reads. */
	assert_null(namespace_exec_model("# coding: latin-1\nx = '\xff'\n", 27,
	    "model.py", &err));
	PyGILState_Release(g);
}

static void *
thread_takes_gil(void *arg)
{
	PyGILState_STATE g = PyGILState_Ensure();

	*(long *)arg = PyLong_AsLong(PyLong_FromLong(42));
	PyGILState_Release(g);
	return NULL;
}

/* pyhost_init returns with the GIL released: another thread can take it. */
static void
test_gil_released(void **state)
{
	struct error err = { 0 };
	pthread_t t;
	long v = 0;

	assert_int_equal(pyhost_init(&err), 0);
	assert_int_equal(pyhost_init(&err), 0);
	assert_true(pyhost_ready());
	assert_int_equal(pthread_create(&t, NULL, thread_takes_gil, &v), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(v, 42);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isolated_config),
		cmocka_unit_test(test_no_module_in_namespace),
		cmocka_unit_test(test_exec_model),
		cmocka_unit_test(test_exec_errors),
		cmocka_unit_test(test_gil_released),
	};
	int rc;

	/* A PYTHON* variable must change nothing. */
	setenv("PYTHONPATH", "/nonexistent-fronts-path", 1);
	setenv("PYTHONHOME", "/nonexistent-fronts-home", 1);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pyhost_fini();
	return rc;
}
