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
#include "sandbox/gatepy.h"

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

/* The builtins are exactly the documented allowlist plus __build_class__,
 * and nothing in the namespace is a module. */
static void
test_no_module_in_namespace(void **state)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *extra, *names;
	const char *const *n;

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	extra = PyDict_New();
	names = PyList_New(0);
	for (n = namespace_builtin_names; *n != NULL; n++)
		PyList_Append(names, PyUnicode_FromString(*n));
	PyDict_SetItemString(extra, "allow", names);
	Py_DECREF(names);
	PyGILState_Release(g);
	expect_probe_ok(
	    "import types\n"
	    "bad = [k for k, v in ns.items() if isinstance(v, types.ModuleType)]\n"
	    "b = ns['__builtins__']\n"
	    "if not isinstance(b, dict): bad.append('builtins not a dict')\n"
	    "else: bad += ['builtins.' + k for k, v in b.items()\n"
	    "              if isinstance(v, types.ModuleType)]\n"
	    "if set(b) != set(allow) | {'__build_class__'}:\n"
	    "    bad.append('builtins differ: %s' % (set(b) ^ set(allow)))\n"
	    "if any(k.startswith('_') for k in allow): bad.append('dunder listed')\n"
	    "for k in ('open', 'exec', 'eval', 'compile', '__import__', 'getattr',\n"
	    "          'setattr', 'delattr', 'globals', 'locals', 'vars', 'type',\n"
	    "          'print', 'input', 'help', 'breakpoint', 'memoryview', 'dir'):\n"
	    "    if k in b or k in ns: bad.append('has ' + k)\n"
	    "for k in ('dataclass', 'field', 'replace', 'Random', 'sqrt', 'log',\n"
	    "          'exp', 'floor', 'ceil', 'inf', 'deque', 'defaultdict',\n"
	    "          'Counter', 'heappush', 'heappop', 'mean'):\n"
	    "    if k not in ns: bad.append('missing ' + k)\n"
	    "result = '; '.join(bad) or 'ok'\n", extra);
	g = PyGILState_Ensure();
	Py_DECREF(extra);
	PyGILState_Release(g);
}

/* The breadth-first walk: from each seed, through every attribute name the
 * gate allows (dir() names it accepts) and through container items (the
 * gate allows subscripts), to depth 8. A module, frame, code object,
 * traceback, a module's globals dict, or `type` itself (the 3-argument
 * class factory the gate refuses by name) at the end of any chain is a
 * hole. */
static const char walk_py[] =
    "import sys, types, builtins\n"
    "MAXDEPTH = 8\n"
    "BAD = (types.ModuleType, types.FrameType, types.CodeType,\n"
    "       types.TracebackType)\n"
    "def module_dicts():\n"
    "    ids = {id(builtins.__dict__)}\n"
    "    for m in list(sys.modules.values()):\n"
    "        d = getattr(m, '__dict__', None)\n"
    "        if isinstance(d, dict): ids.add(id(d))\n"
    "    return ids\n"
    "def children(v):\n"
    "    try: names = dir(v)\n"
    "    except Exception: names = []\n"
    "    for n in names:\n"
    "        if not isinstance(n, str) or not allowed(n): continue\n"
    "        try: yield '.' + n, getattr(v, n)\n"
    "        except BaseException: pass\n"
    "    items = ()\n"
    "    if isinstance(v, (dict, types.MappingProxyType)):\n"
    "        items = [(repr(k)[:30], x) for k, x in list(v.items())[:300]]\n"
    "    elif isinstance(v, (list, tuple, set, frozenset)):\n"
    "        items = list(enumerate(list(v)[:300]))\n"
    "    for k, x in items: yield '[%s]' % (k,), x\n"
    "def walk(seeds):\n"
    "    mods = module_dicts()\n"
    "    seen, keep, holes = set(), [], []\n"
    "    queue = [(p, v, 0) for p, v in seeds]\n"
    "    visited = 0\n"
    "    while queue:\n"
    "        nxt = []\n"
    "        for path, v, depth in queue:\n"
    "            if id(v) in seen: continue\n"
    "            seen.add(id(v)); keep.append(v); visited += 1\n"
    "            if v is type or isinstance(v, BAD) or (isinstance(v, dict) and id(v) in mods):\n"
    "                holes.append('%s -> %s' % (path, type(v).__name__))\n"
    "                continue\n"
    "            if depth >= MAXDEPTH: continue\n"
    "            for step, w in children(v): nxt.append((path + step, w, depth + 1))\n"
    "        queue = nxt\n"
    "    return holes, visited\n";

/* What a model can hold: the namespace's values, its builtins, instances
 * of the pre-bound classes, and objects a model's own code creates. */
static const char seeds_py[] =
    "model = '''\n"
    "@dataclass(frozen=True)\n"
    "class State:\n"
    "    slot: int = 0\n"
    "    seen: tuple = field(default_factory=tuple)\n"
    "    @property\n"
    "    def later(self): return self.slot + 1\n"
    "def gen(n):\n"
    "    yield n\n"
    "def fail():\n"
    "    try: 1 / 0\n"
    "    except ZeroDivisionError as e: return e\n"
    "P = namedtuple('P', 'a b')\n"
    "rng = Random(1)\n"
    "objs = [State(), gen(1), fail(), P(1, 2), rng, rng.random, deque([1]),\n"
    "        defaultdict(list), Counter('ab'), field(),\n"
    "        partial(max, 1), NormalDist(0, 1), chain([1]),\n"
    "        accumulate([1]), product([1]), combinations([1], 1),\n"
    "        iter([1]), iter({1: 2}.items()), range(3), slice(1), 1, 1.5, 1j,\n"
    "        'x', b'x', (), [], {}, frozenset(), True, None, Ellipsis,\n"
    "        object(), fields(State()), lambda: 0,\n"
    "        (x for x in [1]), super, property(lambda s: 0), map(abs, [1]),\n"
    "        zip([1]), enumerate([1]), reversed([1]), filter(None, [1])]\n"
    "'''\n"
    "exec(compile(model, 'model.py', 'exec'), ns)\n"
    "seeds = [('ns.' + k, v) for k, v in ns.items() if k != '__builtins__']\n"
    "seeds += [('builtins.' + k, v) for k, v in ns['__builtins__'].items()]\n"
    "ro = types.MappingProxyType\n"
    "seeds.append(('ctx', ro({'fronts': (ro({'id': 'x', 'limits': ro({})}),),\n"
    "                         'now': '2026-12-01T09:00:00+01:00'})))\n";

static PyObject *
walk_env(void)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *extra;

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	extra = PyDict_New();
	PyDict_SetItemString(extra, "allowed",
	    PyDict_GetItemString(gate_rules(&err), "attribute_allowed"));
	PyGILState_Release(g);
	return extra;
}

static void
walk_env_free(PyObject *extra)
{
	PyGILState_STATE g = PyGILState_Ensure();

	Py_DECREF(extra);
	PyGILState_Release(g);
}

static void
test_walk_reaches_nothing(void **state)
{
	PyObject *extra = walk_env();
	char *probe;

	xasprintf(&probe, "%s%s"
	    "holes, visited = walk(seeds)\n"
    "if visited < 500: holes.append('only %%d objects visited' %% visited)\n"
	    "result = '; '.join(holes[:20]) or 'ok'\n", walk_py, seeds_py);
	expect_probe_ok(probe, extra);
	free(probe);
	walk_env_free(extra);
}

/* The walk finds what it is looking for: planted holes two or three steps
 * away are reported, and the gate's deny list is what hides gi_frame. */
static void
test_walk_finds_planted(void **state)
{
	PyObject *extra = walk_env();
	char *probe;

	xasprintf(&probe, "%s"
	    "class Box: pass\n"
	    "a = Box(); a.inner = Box(); a.inner.mod = sys\n"
	    "b = Box(); b.items = [{'k': sys._getframe()}]\n"
	    "c = Box(); c.g = types.SimpleNamespace(d=vars(types))\n"
	    "gen = (x for x in [1])\n"
	    "holes, _ = walk([('a', a), ('b', b), ('c', c), ('gen', gen)])\n"
	    "want = ['a.inner.mod -> module', \"b.items[0]['k'] -> frame\",\n"
	    "        'c.g.d -> dict']\n"
	    "miss = [w for w in want if w not in holes]\n"
	    "extra = [h for h in holes if h not in want]\n"
	    "result = 'ok' if not miss and not extra else 'missed %%s, extra %%s' %% (miss, extra)\n",
	    walk_py);
	expect_probe_ok(probe, extra);
	free(probe);
	walk_env_free(extra);
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

/* Errors name the exception, its text and the model's line, and never
 * run code the model defined to get them. */
static void
test_error_messages(void **state)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	const char *key = "d = {}\n\ndef f():\n    return d['slot']\n\nf()\n";
	const char *own = "class E(Exception):\n    pass\n\n"
	    "raise E(Random)\n";

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	assert_null(namespace_exec_model(key, strlen(key), "model.py", &err));
	assert_string_equal(err.msg, "model.py: KeyError: 'slot' (model.py:4)");
	assert_null(namespace_exec_model(own, strlen(own), "model.py", &err));
	assert_string_equal(err.msg, "model.py: E (model.py:4)");
	PyGILState_Release(g);
}

/* Values with memory-safety bugs a model can reach in this libpython
 * (SECURITY.md) are not bound: using one is a NameError. */
static void
test_unsafe_values_absent(void **state)
{
	static const char *const gone[] = { "NotImplemented", "OrderedDict",
	    "groupby", "islice", "pairwise", "zip_longest", NULL };
	struct error err = { 0 };
	const char *const *g;
	char src[128];
	PyGILState_STATE st;
	PyObject *ns;

	assert_int_equal(pyhost_init(&err), 0);
	for (g = gone; *g != NULL; g++) {
		snprintf(src, sizeof src, "x = %s\n", *g);
		memset(&err, 0, sizeof err);
		st = PyGILState_Ensure();
		ns = namespace_exec_model(src, strlen(src), "model.py", &err);
		PyGILState_Release(st);
		assert_null(ns);
		if (strstr(err.msg, "NameError") == NULL)
			fail_msg("%s: %s", *g, err.msg);
	}
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
		cmocka_unit_test(test_walk_reaches_nothing),
		cmocka_unit_test(test_walk_finds_planted),
		cmocka_unit_test(test_exec_model),
		cmocka_unit_test(test_exec_errors),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_gil_released),
		cmocka_unit_test(test_unsafe_values_absent),
	};
	int rc;

	/* A PYTHON* variable must change nothing. */
	setenv("PYTHONPATH", "/nonexistent-fronts-path", 1);
	setenv("PYTHONHOME", "/nonexistent-fronts-home", 1);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pyhost_fini();
	return rc;
}
