/*
 * Unit tests for the gate: each rule refuses what it should with the right
 * rule id and position, a plain world model passes, syntax and encoding
 * errors are verdicts, and the JSON object is docs/DESIGN.md's.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "sandbox/gate.h"
#include "sandbox/gatepy.h"
#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"

/* Escape models live beside the unit tests (tests are run from the top). */
#define ESCAPES_DIR	"tests/escapes"
#define MARKER_PREFIX	"/tmp/fronts-escape-"

struct gate_case {
	const char	*src;
	const char	*rule;		/* NULL: accepted */
	int		 line, col;	/* of the first verdict */
};

static const struct gate_case cases[] = {
	/* imports, every form */
	{ "import os\n", "import", 1, 0 },
	{ "import os.path as p\n", "import", 1, 0 },
	{ "from os import system\n", "import", 1, 0 },
	{ "from . import x\n", "import", 1, 0 },
	{ "def f():\n    import sys\n", "import", 2, 4 },
	/* forbidden names, loaded, stored, as arguments */
	{ "open('/etc/passwd')\n", "forbidden-name", 1, 0 },
	{ "x = eval\n", "forbidden-name", 1, 4 },
	{ "exec('1')\n", "forbidden-name", 1, 0 },
	{ "compile('1', 'f', 'exec')\n", "forbidden-name", 1, 0 },
	{ "__import__('os')\n", "forbidden-name", 1, 0 },
	{ "globals()\n", "forbidden-name", 1, 0 },
	{ "locals()\n", "forbidden-name", 1, 0 },
	{ "vars(1)\n", "forbidden-name", 1, 0 },
	{ "getattr(1, 'real')\n", "forbidden-name", 1, 0 },
	{ "setattr(1, 'a', 2)\n", "forbidden-name", 1, 0 },
	{ "delattr(1, 'a')\n", "forbidden-name", 1, 0 },
	{ "breakpoint()\n", "forbidden-name", 1, 0 },
	{ "input()\n", "forbidden-name", 1, 0 },
	{ "help()\n", "forbidden-name", 1, 0 },
	{ "memoryview(b'')\n", "forbidden-name", 1, 0 },
	{ "type('X', (), {})\n", "forbidden-name", 1, 0 },
	{ "print(1)\n", "forbidden-name", 1, 0 },
	{ "def f(open): pass\n", "forbidden-name", 1, 6 },
	{ "ｅｖａｌ('1')\n", "forbidden-name", 1, 0 },
	{ "_︳import︳_('os')\n", "forbidden-name", 1, 0 },
	{ "__builtins__\n", "dunder-name", 1, 0 },
	{ "__build_class__\n", "dunder-name", 1, 0 },
	/* attributes starting with _ */
	{ "x = ().__class__\n", "private-attribute", 1, 7 },
	{ "x = f.__globals__\n", "private-attribute", 1, 6 },
	{ "x = r._os\n", "private-attribute", 1, 6 },
	{ "x = ((1).\n    __class__)\n", "private-attribute", 2, 4 },
	{ "x = y._︳class︳_\n", "private-attribute", 1, 6 },
	{ "del x._a\n", "private-attribute", 1, 6 },
	{ "match v:\n    case object(__class__=c): pass\n",
	  "private-attribute", 2, 9 },
	/* introspection */
	{ "x = g.gi_frame\n", "introspection-attribute", 1, 6 },
	{ "x = g.gi_code\n", "introspection-attribute", 1, 6 },
	{ "x = g.gi_yieldfrom\n", "introspection-attribute", 1, 6 },
	{ "x = c.cr_frame\n", "introspection-attribute", 1, 6 },
	{ "x = c.cr_await\n", "introspection-attribute", 1, 6 },
	{ "x = a.ag_frame\n", "introspection-attribute", 1, 6 },
	{ "x = f.f_back\n", "introspection-attribute", 1, 6 },
	{ "x = f.f_globals\n", "introspection-attribute", 1, 6 },
	{ "x = f.f_builtins\n", "introspection-attribute", 1, 6 },
	{ "x = f.f_locals\n", "introspection-attribute", 1, 6 },
	{ "x = t.tb_frame\n", "introspection-attribute", 1, 6 },
	{ "x = t.tb_next\n", "introspection-attribute", 1, 6 },
	{ "x = k.co_code\n", "introspection-attribute", 1, 6 },
	{ "x = f.func_globals\n", "introspection-attribute", 1, 6 },
	{ "x = C.mro()\n", "introspection-attribute", 1, 6 },
	{ "x = c.cell_contents\n", "introspection-attribute", 1, 6 },
	{ "x = e.with_traceback\n", "introspection-attribute", 1, 6 },
	{ "x = m.modules\n", "introspection-attribute", 1, 6 },
	{ "match v:\n    case object(gi_frame=c): pass\n",
	  "introspection-attribute", 2, 9 },
	/* format strings */
	{ "s = '{0.__class__}'.format(1)\n", "format-string", 1, 20 },
	{ "s = '{x}'.format_map({})\n", "format-string", 1, 10 },
	{ "f = str.format\n", "format-string", 1, 8 },
	/* classes */
	{ "class A(metaclass=M): pass\n", "metaclass", 1, 8 },
	{ "class A(B, flag=1): pass\n", "class-keyword", 1, 11 },
	{ "class A:\n    def __del__(self): pass\n", "dunder-definition", 2, 4 },
	{ "class A:\n    def __getattr__(self, n): pass\n",
	  "dunder-definition", 2, 4 },
	{ "class A:\n    def __repr__(self): return ''\n",
	  "dunder-definition", 2, 4 },
	{ "def __init__(): pass\n", "dunder-definition", 1, 0 },
	/* statements */
	{ "global x\n", "global", 1, 0 },
	{ "async def f(): pass\n", "async", 1, 0 },
	{ "s = '__class__'\n", "dunder-string", 1, 4 },
	{ "s = ' __globals__ '\n", "dunder-string", 1, 4 },
	{ "f(__x=1)\n", "dunder-name", 1, 2 },
	/* handlers that could swallow the call timeout */
	{ "while True:\n    try:\n        f()\n    except:\n        pass\n",
	  "broad-except", 4, 4 },
	{ "try:\n    f()\nexcept BaseException:\n    pass\n",
	  "broad-except", 3, 7 },
	{ "try:\n    f()\nexcept (ValueError, BaseException):\n    pass\n",
	  "broad-except", 3, 20 },
	{ "B = BaseException\n", "broad-except", 1, 4 },
	{ "def f(BaseException): pass\n", "broad-except", 1, 6 },
	{ "try:\n    f()\nexcept* ValueError:\n    pass\n",
	  "except-star", 1, 0 },
	{ "try:\n    f()\nexcept B:\n    pass\n", "except-type", 3, 7 },
	{ "try:\n    f()\nexcept object:\n    pass\n",
	  "except-type", 3, 7 },
	{ "try:\n    f()\nexcept m.Error:\n    pass\n",
	  "except-type", 3, 9 },
	{ "try:\n    f()\nexcept errors():\n    pass\n",
	  "except-type", 3, 7 },
	{ "try:\n    f()\nexcept (KeyError, E):\n    pass\n",
	  "except-type", 3, 18 },
	{ "try:\n    f()\nexcept ((KeyError, IndexError), ValueError):\n"
	  "    pass\n", "except-type", 3, 8 },
	{ "ValueError = int\n", "exception-name", 1, 0 },
	{ "def f():\n    del KeyError\n", "exception-name", 2, 8 },
	{ "class Exception: pass\n", "exception-name", 1, 0 },
	{ "def f(TypeError): pass\n", "exception-name", 1, 6 },
	{ "[1 for IndexError in x]\n", "exception-name", 1, 7 },
	{ "try:\n    f()\nexcept ValueError as KeyError:\n    pass\n",
	  "exception-name", 3, 0 },
	{ "try:\n    f()\nfinally:\n    x = 1\n", "finally", 4, 4 },
	{ "for i in x:\n    try:\n        f()\n    except ValueError:\n"
	  "        pass\n    finally:\n        continue\n", "finally", 7, 8 },
	/* control and bidi characters (columns in UTF-8 bytes) */
	{ "x = 1  # \x1b[2K\x1b[1Gx = 2\n", "control-char", 1, 9 },
	{ "s = 'a\xe2\x80\xae" "b'\n", "control-char", 1, 6 },
	{ "s = '\xc3\xa9\xe2\x81\xa6'\n", "control-char", 1, 7 },
	{ "x = 1\r\ny = 2\n", "control-char", 1, 5 },
	{ "x = 1\ny = 2 # \xc2\x9b" "2J\n", "control-char", 2, 8 },
	{ "x = 1 # \x7f\n", "control-char", 1, 8 },
	{ "x = 1 # \x0c\n", "control-char", 1, 8 },
	{ "\x1b = 1\n", "control-char", 1, 0 },	/* and a syntax error */
	/* errors are verdicts */
	{ "def f(:\n", "syntax", 1, 6 },
	{ "x = 1\ny = )\n", "syntax", 2, 4 },
	{ "x = 'caf\xe9'\n", "encoding", 1, 0 },
	/* accepted */
	{ "", NULL, 0, 0 },
	{ "x = f'{a.b!r:>{w}}'\n", NULL, 0, 0 },
	{ "class A:\n    def __init__(self): self.x = 1\n"
	  "    def __lt__(self, o): return self.x < o.x\n", NULL, 0, 0 },
	{ "def f(n):\n    yield n\n", NULL, 0, 0 },
	{ "def f(x):\n    def g():\n        nonlocal x\n        x = 1\n"
	  "    return g\n", NULL, 0, 0 },
	{ "s = 'open the __ gate'\nd = {'type': 1}\nf(type=2)\n", NULL, 0, 0 },
	{ "for _ in range(3): pass\n_x = 1\n", NULL, 0, 0 },
	{ "try:\n    pass\nexcept ValueError as e:\n    x = e.args\n", NULL,
	  0, 0 },
	{ "try:\n    f()\nexcept (KeyError, IndexError):\n    pass\n"
	  "except Exception as e:\n    raise ValueError('x') from e\n"
	  "else:\n    pass\n", NULL, 0, 0 },
	{ "class Full(Exception): pass\nraise Full('no slot')\n", NULL, 0, 0 },
	{ "x = isinstance(e, (ValueError, TypeError))\n", NULL, 0, 0 },
	{ "s = '\\x1b[2K \\u202e'\t# escapes, not the characters\n"
	  "t = 'caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x91\x8b'\n", NULL, 0, 0 },
};

/* Source that shows one thing and runs another: each line ends in a
 * comment that erases the line and prints an innocent one over it. */
static void
test_control_each_line(void **state)
{
	static const char src[] =
	    "def apply(state, action, rng):\n"
	    "    return state, 1e9  # \x1b[2K\x1b[1G    return state, 0\n"
	    "x = 1\n"
	    "y = 2  # \x1b[2K\x1b[1Gy = 3\n";
	struct gate_result r;
	struct error err = { 0 };

	assert_int_equal(gate_check_source(src, sizeof src - 1, &r, &err), 0);
	assert_false(r.accepted);
	assert_int_equal(r.nverdicts, 2);
	assert_string_equal(r.verdicts[0].rule, "control-char");
	assert_int_equal(r.verdicts[0].line, 2);
	assert_int_equal(r.verdicts[0].col, 25);
	assert_non_null(strstr(r.verdicts[0].message, "U+001B ESCAPE (and 1 "
	    "more on this line)"));
	assert_non_null(strstr(r.verdicts[0].message, "CVE-2021-42574"));
	assert_string_equal(r.verdicts[1].rule, "control-char");
	assert_int_equal(r.verdicts[1].line, 4);
	assert_int_equal(r.verdicts[1].col, 9);
	gate_result_free(&r);
}

static void
check_case(const struct gate_case *c)
{
	struct gate_result r;
	struct error err = { 0 };

	if (gate_check_source(c->src, strlen(c->src), &r, &err) != 0)
		fail_msg("gate failed on %s: %s", c->src, err.msg);
	if (c->rule == NULL) {
		if (!r.accepted)
			fail_msg("refused %s: %d:%d %s: %s", c->src,
			    r.verdicts[0].line, r.verdicts[0].col,
			    r.verdicts[0].rule, r.verdicts[0].message);
	} else {
		if (r.accepted)
			fail_msg("accepted %s (wanted %s)", c->src, c->rule);
		if (strcmp(r.verdicts[0].rule, c->rule) != 0 ||
		    r.verdicts[0].line != c->line ||
		    r.verdicts[0].col != c->col)
			fail_msg("%s: got %d:%d %s (%s), wanted %d:%d %s", c->src,
			    r.verdicts[0].line, r.verdicts[0].col,
			    r.verdicts[0].rule, r.verdicts[0].message, c->line,
			    c->col, c->rule);
		assert_true(strlen(r.verdicts[0].message) > 10);
	}
	gate_result_free(&r);
}

static void
test_rules(void **state)
{
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(&cases[i]);
}

static const char world_model[] =
    "# A small but complete world model.\n"
    "@dataclass(frozen=True)\n"
    "class State:\n"
    "    slot: int\n"
    "    posted: frozenset = frozenset()\n"
    "    interest: float = 1.0\n"
    "\n"
    "def initial_state(ctx):\n"
    "    return State(0)\n"
    "\n"
    "def sample_hidden(ctx, rng):\n"
    "    return replace(initial_state(ctx), interest=rng.gauss(1.0, 0.1))\n"
    "\n"
    "def legal_actions(state):\n"
    "    acts = [('wait',)]\n"
    "    for d in ('d1', 'd2'):\n"
    "        if d not in state.posted:\n"
    "            acts.append(('post', d, 'x'))\n"
    "    return acts\n"
    "\n"
    "def apply(state, action, rng):\n"
    "    if action[0] == 'wait':\n"
    "        return replace(state, slot=state.slot + 1), 0.0\n"
    "    gain = state.interest * exp(-0.1 * len(state.posted))\n"
    "    return replace(state, posted=state.posted | {action[1]},\n"
    "                   interest=state.interest * 0.9), gain\n"
    "\n"
    "def is_terminal(state):\n"
    "    return state.slot >= 24\n"
    "\n"
    "def value(state):\n"
    "    return mean([state.interest, 0.0]) * sqrt(2)\n";

/* Every name the gate lets an except clause name is a builtin the
 * namespace provides, every exception the namespace provides may be
 * named, and BaseException is neither. */
static void
test_catchable_in_step(void **state)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *rules, *catchable, *name;
	const char *const *n;
	Py_ssize_t exceptions = 0;

	assert_int_equal(pyhost_init(&err), 0);
	g = PyGILState_Ensure();
	assert_non_null(rules = gate_rules(&err));
	assert_non_null(catchable = PyDict_GetItemString(rules, "CATCHABLE"));
	for (n = namespace_builtin_names; *n != NULL; n++) {
		assert_string_not_equal(*n, "BaseException");
		if (strstr(*n, "Error") == NULL && strstr(*n, "Exception") ==
		    NULL && strcmp(*n, "StopIteration") != 0)
			continue;
		exceptions++;
		name = PyUnicode_FromString(*n);
		if (PySet_Contains(catchable, name) != 1)
			fail_msg("%s is in the namespace, not in CATCHABLE", *n);
		Py_DECREF(name);
	}
	assert_int_equal(PySet_Size(catchable), exceptions);
	PyGILState_Release(g);
}

static void
test_world_model_accepted(void **state)
{
	struct gate_result r;
	struct error err = { 0 };
	char sha[65];

	assert_int_equal(gate_check_source(world_model, strlen(world_model),
	    &r, &err), 0);
	assert_true(r.accepted);
	assert_int_equal(r.nverdicts, 0);
	sha256_hex(world_model, strlen(world_model), sha);
	assert_string_equal(r.sha256, sha);
	gate_result_free(&r);
}

static void
test_json_and_text(void **state)
{
	const char *src = "import os\nx = ().__class__\n";
	struct gate_result r;
	struct error err = { 0 };
	cJSON *o, *v;
	char *s;

	assert_int_equal(gate_check_source(src, strlen(src), &r, &err), 0);
	assert_false(r.accepted);
	assert_int_equal(r.nverdicts, 2);
	o = gate_result_json(&r);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(o, "accepted")));
	assert_string_equal(cJSON_GetObjectItem(o, "sha256")->valuestring,
	    r.sha256);
	v = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "verdicts"), 1);
	assert_int_equal(cJSON_GetObjectItem(v, "line")->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(v, "col")->valueint, 7);
	assert_string_equal(cJSON_GetObjectItem(v, "rule")->valuestring,
	    "private-attribute");
	assert_non_null(cJSON_GetObjectItem(v, "message"));
	assert_int_equal(cJSON_GetArraySize(o), 3);
	assert_int_equal(cJSON_GetArraySize(v), 4);
	cJSON_Delete(o);
	s = gate_result_text("m.py", &r);
	assert_non_null(strstr(s, "m.py:1:0: import: "));
	assert_non_null(strstr(s, "\nm.py:2:7: private-attribute: "));
	free(s);
	gate_result_free(&r);
}

/*
 * A line at the 1 MiB limit holding an attribute verdict every 7 bytes,
 * names of two-byte characters: the columns are still the UTF-8 byte
 * offsets of each name, found without re-encoding the line per verdict
 * (the old gate spent minutes here), and the first GATE_VERDICTS_MAX are
 * kept, the rest counted.
 */
static void
test_long_line(void **state)
{
	const char unit[] = "\xc3\xa9._\xc3\xb1;";	/* "é._ñ;" */
	size_t each = sizeof unit - 1, n = ((1u << 20) - 1) / each, i;
	char *src = xmalloc(n * each + 1), *text, want[64];
	struct gate_result r;
	struct error err = { 0 };

	for (i = 0; i < n; i++)
		memcpy(src + i * each, unit, each);
	src[n * each - 1] = '\n';
	assert_int_equal(gate_check_source(src, n * each, &r, &err), 0);
	assert_false(r.accepted);
	assert_int_equal(r.nverdicts, GATE_VERDICTS_MAX);
	assert_int_equal(gate_result_total(&r), (int)n);
	for (i = 0; i < GATE_VERDICTS_MAX; i++) {
		assert_int_equal(r.verdicts[i].line, 1);
		assert_int_equal(r.verdicts[i].col, (int)(i * each + 3));
		assert_string_equal(r.verdicts[i].rule, "private-attribute");
	}
	text = gate_result_text("m.py", &r);
	snprintf(want, sizeof want, "\nm.py: and %d more verdicts\n",
	    r.nmore);
	assert_non_null(strstr(text, want));
	assert_string_equal(strstr(text, want) + strlen(want), "");
	free(text);
	gate_result_free(&r);
	free(src);
}

static void
test_hostile_input(void **state)
{
	struct gate_result r;
	struct error err = { 0 };
	size_t n = 2 << 20, i;
	char *big = xmalloc(n);

	/* Too large to inspect. */
	memset(big, '#', n);
	assert_int_equal(gate_check_source(big, n, &r, &err), 0);
	assert_false(r.accepted);
	assert_string_equal(r.verdicts[0].rule, "too-large");
	gate_result_free(&r);
	/* Nested too deep for the parser: a verdict, not a crash. */
	for (i = 0; i < 100000; i++)
		big[i] = i % 2 ? '+' : '1';
	assert_int_equal(gate_check_source(big, 99999, &r, &err), 0);
	assert_false(r.accepted);
	gate_result_free(&r);
	memset(big, '(', 5000);
	assert_int_equal(gate_check_source(big, 5000, &r, &err), 0);
	assert_string_equal(r.verdicts[0].rule, "syntax");
	gate_result_free(&r);
	/* NUL bytes. */
	assert_int_equal(gate_check_source("x = 1\n\0import os\n", 17, &r,
	    &err), 0);
	assert_false(r.accepted);
	assert_int_equal(r.verdicts[0].line, 2);
	gate_result_free(&r);
	free(big);
}

/* src with every MARKER_PREFIX replaced by dir/fronts-escape-. */
static char *
escape_retarget(const char *src, const char *dir)
{
	char *out = xstrdup(""), *next;
	const char *p = src, *m;

	while ((m = strstr(p, MARKER_PREFIX)) != NULL) {
		xasprintf(&next, "%s%.*s%s/fronts-escape-", out, (int)(m - p), p,
		    dir);
		free(out);
		out = next;
		p = m + strlen(MARKER_PREFIX);
	}
	xasprintf(&next, "%s%s", out, p);
	free(out);
	return next;
}

/* Gates one escape model (it must be refused, with a verdict of the rule
 * its `# gate:` header names), then runs it gate-free in
 * the namespace: a "fails" model must fail without leaving its marker; an
 * "escapes" model must leave it, which proves the file is a working
 * exploit that only the gate stops. Returns 1 for "fails", 0 otherwise. */
static int
escape_run(const char *file, const char *tmp)
{
	struct gate_result r;
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *ns;
	char *path, *raw, *src, name[128], mode[16], rule[64], *marker;
	size_t len;
	int fails, i, hit = 0;

	xasprintf(&path, "%s/%s", ESCAPES_DIR, file);
	if (file_read(path, &raw, &len, &err) != 0)
		fail_msg("%s", err.msg);
	if (sscanf(raw, "# fronts.escape: %127s\n# gate-free: %15s\n"
	    "# gate: %63s", name, mode, rule) != 3 ||
	    (strcmp(mode, "fails") != 0 && strcmp(mode, "escapes") != 0))
		fail_msg("%s: no `# fronts.escape:` / `# gate-free:` / "
		    "`# gate:` header", path);
	src = escape_retarget(raw, tmp);
	if (gate_check_source(src, strlen(src), &r, &err) != 0)
		fail_msg("%s: %s", path, err.msg);
	if (r.accepted)
		fail_msg("%s: the gate ACCEPTED an escape", path);
	/* Refused for the technique itself, not only for incidentals. */
	for (i = 0; i < r.nverdicts; i++)
		hit |= strcmp(r.verdicts[i].rule, rule) == 0;
	if (!hit)
		fail_msg("%s: refused, but no `%s` verdict", path, rule);
	gate_result_free(&r);

	xasprintf(&marker, "%s/fronts-escape-%s", tmp, name);
	unlink(marker);
	fails = strcmp(mode, "fails") == 0;
	g = PyGILState_Ensure();
	ns = namespace_exec_model(src, strlen(src), "model.py", &err);
	Py_XDECREF(ns);
	PyGILState_Release(g);
	if (fails && (ns != NULL || access(marker, F_OK) == 0))
		fail_msg("%s: ESCAPED without the gate (marker %s)", path,
		    access(marker, F_OK) == 0 ? "created" : "absent");
	if (!fails && access(marker, F_OK) != 0)
		fail_msg("%s: marked `escapes` but did not reach its marker "
		    "gate-free (%s); the regression model is broken", path,
		    ns == NULL ? err.msg : "ran without error");
	unlink(marker);
	free(marker);
	free(src);
	free(raw);
	free(path);
	return fails;
}

static int
escape_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
escape_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && strcmp(d->d_name + n - 3, ".py") == 0;
}

static void
test_escapes(void **state)
{
	char tmp[] = "/tmp/fronts-escapes-XXXXXX";
	struct dirent **list;
	struct error err = { 0 };
	int i, n, fails = 0;

	assert_int_equal(pyhost_init(&err), 0);
	assert_non_null(mkdtemp(tmp));
	n = scandir(ESCAPES_DIR, &list, escape_filter, escape_cmp);
	if (n < 0)
		fail_msg("%s: cannot list (run from the repository root)",
		    ESCAPES_DIR);
	for (i = 0; i < n; i++) {
		fails += escape_run(list[i]->d_name, tmp);
		free(list[i]);
	}
	free(list);
	rmdir(tmp);
	assert_true(n >= 30);
	assert_true(fails >= 15);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_control_each_line),
		cmocka_unit_test(test_catchable_in_step),
		cmocka_unit_test(test_world_model_accepted),
		cmocka_unit_test(test_json_and_text),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_hostile_input),
		cmocka_unit_test(test_escapes),
	};
	int rc;

	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pyhost_fini();
	return rc;
}
