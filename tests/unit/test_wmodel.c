/*
 * test_wmodel — the world model behind model_ops, in this process: the
 * demo model end to end, ctx immutability, conversion of proposals and
 * results, errors with their model line, the guard on every call, and the
 * hostile models the in-process guard must survive.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/project.h"
#include "sandbox/wmodel.h"
#include "sandbox/wmodel_int.h"

#ifndef TOP
#define TOP "."
#endif

#if defined(__SANITIZE_ADDRESS__)
/* Out of memory is a NULL from malloc (a MemoryError), as without ASan. */
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

static struct project *demo;
static const struct model_ops *ops = &wmodel_ops;

static int
setup(void **state)
{
	struct error err = { 0 };

	if (project_load(TOP "/fixtures/demo", &demo, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	project_free(demo);
	return 0;
}

static struct wmodel *
load_src(const char *src, int timeout_ms, struct error *err)
{
	struct wmodel *m = NULL;

	memset(err, 0, sizeof *err);
	if (wmodel_load(demo, src, strlen(src), timeout_ms, &m, err) != 0)
		return NULL;
	return m;
}

static struct wmodel *
load_file(const char *path, int timeout_ms, struct error *err)
{
	struct wmodel *m;
	char *src;
	size_t len;

	if (file_read(path, &src, &len, err) != 0)
		return NULL;
	m = load_src(src, timeout_ms, err);
	free(src);
	return m;
}

#define BASE \
	"def initial_state(ctx):\n" \
	"    return 0\n" \
	"def is_terminal(state):\n" \
	"    return state >= 3\n"

static void
test_demo_model(void **state)
{
	struct action acts[512], a;
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r1, r2, v;
	int n, illegal, i;
	bool term;

	m = load_file(TOP "/fixtures/demo/model.py", 1000, &err);
	assert_non_null(m);
	assert_true(ops->has_value(m));
	ops->seed(m, 7);
	assert_int_equal(ops->sample_hidden(m, &s), MODEL_OK);
	assert_int_equal(ops->legal_actions(m, s, acts, 512, &n, &illegal),
	    MODEL_OK);
	assert_int_equal(illegal, 0);
	assert_true(n > 1);
	assert_int_equal(acts[0].kind, ACTION_WAIT);
	for (i = 1; i < n; i++) {
		assert_int_equal(acts[i].kind, ACTION_POST);
		assert_true((int)acts[i].draft < demo->ndrafts);
		assert_true(acts[i].front < demo->nfronts);
		assert_true(demo->drafts[acts[i].draft].front_mask &
		    (1ULL << acts[i].front));
	}
	a = acts[1];
	assert_int_equal(ops->apply(m, s, &a, &next, &r1), MODEL_OK);
	assert_true(r1 > 0 && isfinite(r1));
	ops->state_free(m, next);
	/* Same seed, same draw. */
	ops->seed(m, 7);
	ops->state_free(m, s);
	assert_int_equal(ops->sample_hidden(m, &s), MODEL_OK);
	assert_int_equal(ops->apply(m, s, &a, &next, &r2), MODEL_OK);
	assert_true(r1 == r2);
	assert_int_equal(ops->is_terminal(m, next, &term), MODEL_OK);
	assert_false(term);
	assert_int_equal(ops->value(m, next, &v), MODEL_OK);
	assert_true(v > 0 && isfinite(v));
	ops->state_free(m, next);
	ops->state_free(m, s);
	wmodel_free(m);
}

static void
test_ctx_read_only(void **state)
{
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	model_state *s;

	m = load_src(
	    "def initial_state(ctx):\n"
	    "    assert isinstance(ctx['fronts'], tuple)\n"
	    "    assert ctx['fronts'][0]['id'] == 'x'\n"
	    "    assert ctx['slot_minutes'] == 60\n"
	    "    ctx['fronts'][0]['limits']['max_posts_per_day'] = 99\n"
	    "    return 0\n"
	    "def legal_actions(state):\n"
	    "    return []\n"
	    "def apply(state, action, rng):\n"
	    "    return state, 0.0\n"
	    "def is_terminal(state):\n"
	    "    return True\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_RAISED);
	e = ops->last_error(m);
	assert_string_equal(e->type, "TypeError");
	assert_string_equal(e->function, "initial_state");
	assert_int_equal(e->line, 5);
	wmodel_free(m);
}

static void
test_proposals_converted(void **state)
{
	struct action acts[16];
	struct error err;
	struct wmodel *m;
	model_state *s;
	int n, illegal;

	m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return [('wait',), ('post', 'nope', 'x'), ('like', 'd1'),\n"
	    "            ('post', 'd3', 'linkedin'), 5, ('post', 1, 2),\n"
	    "            ('post', 'd1', 'x', 'extra'), ('wait', 1)]\n"
	    "def apply(state, action, rng):\n"
	    "    return state + 1, 1\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(ops->legal_actions(m, s, acts, 16, &n, &illegal),
	    MODEL_OK);
	assert_int_equal(n, 2);
	assert_int_equal(illegal, 6);
	assert_int_equal(acts[0].kind, ACTION_WAIT);
	assert_int_equal(acts[1].kind, ACTION_POST);
	assert_int_equal(acts[1].draft, project_draft_index(demo, "d3"));
	assert_int_equal(acts[1].front, project_front_index(demo, "linkedin"));
	ops->state_free(m, s);
	wmodel_free(m);
}

/*
 * legal_ids hands over what legal_actions does, as action ids: the same
 * proposals in the same order, the same ill-formed ones counted, cut at
 * max alike (the illegal ones past max still counted).
 */
static void
test_proposals_as_ids(void **state)
{
	struct action acts[512];
	uint32_t ids[512];
	struct error err;
	struct wmodel *m;
	model_state *s;
	int n, ni, illegal, illegal_i, i, max;

	m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return [('wait',), ('post', 'nope', 'x'), ('post', 'd3',\n"
	    "            'linkedin'), 5, ('post', 'd1', 'x'), ('like', 'd1'),\n"
	    "            ('post', 'd2', 'mastodon'), ('wait', 1)]\n"
	    "def apply(state, action, rng):\n"
	    "    return state + 1, 1\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	for (max = 0; max <= 8; max++) {
		assert_int_equal(ops->legal_actions(m, s, acts, max, &n,
		    &illegal), MODEL_OK);
		assert_int_equal(ops->legal_ids(m, s, ids, max, &ni,
		    &illegal_i), MODEL_OK);
		assert_int_equal(ni, n);
		assert_int_equal(illegal_i, illegal);
		assert_int_equal(illegal, 4);
		assert_int_equal(n, max < 4 ? max : 4);
		for (i = 0; i < n; i++)
			assert_int_equal(ids[i],
			    action_id(&acts[i], (uint32_t)demo->nfronts));
	}
	ops->state_free(m, s);
	wmodel_free(m);

	m = load_file(TOP "/fixtures/demo/model.py", 1000, &err);
	assert_non_null(m);
	ops->seed(m, 7);
	assert_int_equal(ops->sample_hidden(m, &s), MODEL_OK);
	assert_int_equal(ops->legal_actions(m, s, acts, 512, &n, &illegal),
	    MODEL_OK);
	assert_int_equal(ops->legal_ids(m, s, ids, 512, &ni, &illegal_i),
	    MODEL_OK);
	assert_true(n > 1);
	assert_int_equal(ni, n);
	assert_int_equal(illegal_i, illegal);
	for (i = 0; i < n; i++)
		assert_int_equal(ids[i], action_id(&acts[i],
		    (uint32_t)demo->nfronts));
	ops->state_free(m, s);
	wmodel_free(m);
}

/*
 * Proposals recognised by identity (wmodel_ids.c) convert as before: the
 * model's own tuples every call, fresh tuples of other contents that may
 * take a freed tuple's address (the cache holds its tuples, so none is
 * freed), and a tuple subclass, which is never cached.
 */
static void
test_proposals_by_identity(void **state)
{
	struct action acts[8];
	struct error err;
	struct wmodel *m;
	model_state *s;
	int n, illegal, k, d2, d3, ma, li;

	m = load_src(BASE
	    "ACTS = (('wait',), ('post', 'd2', 'mastodon'))\n"
	    "class T(tuple):\n"
	    "    pass\n"
	    "K = [0]\n"
	    "def legal_actions(state):\n"
	    "    K[0] += 1\n"
	    "    d = 'd%d' % (2 + K[0] % 2)\n"
	    "    f = ('mastodon', 'linkedin')[K[0] % 2]\n"
	    "    return [ACTS[0], ACTS[1], ('post', d, f),\n"
	    "            T(('post', d, f)), ('post', 'zz', f)]\n"
	    "def apply(state, action, rng):\n"
	    "    return state + 1, 1\n", 1000, &err);
	assert_non_null(m);
	d2 = project_draft_index(demo, "d2");
	d3 = project_draft_index(demo, "d3");
	ma = project_front_index(demo, "mastodon");
	li = project_front_index(demo, "linkedin");
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	for (k = 1; k <= 50; k++) {
		assert_int_equal(ops->legal_actions(m, s, acts, 8, &n,
		    &illegal), MODEL_OK);
		assert_int_equal(n, 4);
		assert_int_equal(illegal, 1);
		assert_int_equal(acts[0].kind, ACTION_WAIT);
		assert_int_equal(acts[1].draft, d2);
		assert_int_equal(acts[1].front, ma);
		assert_int_equal(acts[2].draft, k % 2 ? d3 : d2);
		assert_int_equal(acts[2].front, k % 2 ? li : ma);
		assert_true(action_equal(&acts[2], &acts[3]));
	}
	ops->state_free(m, s);
	wmodel_free(m);
}

/* A model that builds fresh tuples on every call fills the cache up to its
 * bound and no further, and its proposals still convert. */
static void
test_proposals_cache_bounded(void **state)
{
	struct action acts[64];
	struct error err;
	struct wmodel *m;
	model_state *s;
	int n, illegal, k;

	m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return [('post', 'd%d' % (1 + i % 5), 'mastodon')\n"
	    "            for i in range(60)]\n"
	    "def apply(state, action, rng):\n"
	    "    return state + 1, 1\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	for (k = 0; k < 200; k++) {
		assert_int_equal(ops->legal_actions(m, s, acts, 64, &n,
		    &illegal), MODEL_OK);
		assert_int_equal(n, 60);
		assert_int_equal(acts[59].draft, project_draft_index(demo,
		    "d5"));
	}
	assert_int_equal(m->ids.n, m->ids.max);
	ops->state_free(m, s);
	wmodel_free(m);
}

/* apply receives exactly the action tuple of the contract. */
static void
test_apply_sees_action(void **state)
{
	struct action a = { .kind = ACTION_POST };
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r;

	m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return []\n"
	    "def apply(state, action, rng):\n"
	    "    if action == ('post', 'd2', 'mastodon'):\n"
	    "        return state + 1, 2.5\n"
	    "    return state + 1, -1.0\n", 1000, &err);
	assert_non_null(m);
	a.draft = (uint32_t)project_draft_index(demo, "d2");
	a.front = (uint16_t)project_front_index(demo, "mastodon");
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(ops->apply(m, s, &a, &next, &r), MODEL_OK);
	assert_true(r == 2.5);
	ops->state_free(m, next);
	ops->state_free(m, s);
	wmodel_free(m);
}

static void
test_bad_types(void **state)
{
	struct action wait = { .kind = ACTION_WAIT }, acts[4];
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r;
	int n, illegal;
	bool t;

	m = load_src(
	    "def initial_state(ctx):\n"
	    "    return 0\n"
	    "def legal_actions(state):\n"
	    "    return ('wait',)\n"
	    "def apply(state, action, rng):\n"
	    "    if state == 0:\n"
	    "        return state\n"
	    "    return state, float('nan')\n"
	    "def is_terminal(state):\n"
	    "    return 'no'\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(ops->apply(m, s, &wait, &next, &r), MODEL_BADTYPE);
	e = ops->last_error(m);
	assert_string_equal(e->function, "apply");
	assert_non_null(strstr(e->message, "(next_state, reward)"));
	assert_int_equal(e->line, 5);	/* apply's def */
	assert_int_equal(ops->is_terminal(m, s, &t), MODEL_BADTYPE);
	assert_non_null(strstr(ops->last_error(m)->message, "bool"));
	/* A tuple of strings is not a list of actions: every item is dropped. */
	assert_int_equal(ops->legal_actions(m, s, acts, 4, &n, &illegal),
	    MODEL_OK);
	assert_int_equal(n, 0);
	assert_int_equal(illegal, 1);
	ops->state_free(m, s);
	wmodel_free(m);
}

/* Rewards and values beyond ±1e12, or not finite, are model errors with
 * the function's line (docs/DESIGN.md); the bounds themselves pass. */
static void
test_numbers_checked(void **state)
{
	static const struct { int rc; double r; const char *msg; } want[] = {
		{ MODEL_BADTYPE, 0, "apply returned reward 1e+308, beyond ±1e12" },
		{ MODEL_BADTYPE, 0, "apply returned reward -1e+13, beyond ±1e12" },
		{ MODEL_BADTYPE, 0, "apply returned reward inf, not a finite "
		    "number" },
		{ MODEL_BADTYPE, 0, "apply returned reward 10**308 or more, "
		    "beyond ±1e12" },
		{ MODEL_BADTYPE, 0, "apply returned reward -10**308 or more, "
		    "beyond ±1e12" },
		{ MODEL_OK, 1e12, NULL },
		{ MODEL_OK, -1e12, NULL },
		{ MODEL_OK, 3, NULL },
		{ MODEL_OK, 1, NULL },
	};
	struct action wait = { .kind = ACTION_WAIT };
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r, v;
	size_t i;

	m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return []\n"
	    "def apply(state, action, rng):\n"
	    "    K.append(1)\n"
	    "    return state, R[len(K) - 1]\n"
	    "def value(state):\n"
	    "    K.append(1)\n"
	    "    return V[len(K) - 10]\n"
	    "K = []\n"
	    "R = [1e308, -1e13, float('inf'), 10 ** 400, -10 ** 400, 1e12,\n"
	    "     -1e12, 3, True]\n"
	    "V = [-1e308, float('nan'), 2.5]\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		r = 0;
		assert_int_equal(ops->apply(m, s, &wait, &next, &r), want[i].rc);
		if (want[i].rc == MODEL_OK) {
			assert_true(r == want[i].r);
			ops->state_free(m, next);
			continue;
		}
		e = ops->last_error(m);
		assert_string_equal(e->type, "ValueError");
		assert_string_equal(e->function, "apply");
		assert_string_equal(e->message, want[i].msg);
		assert_int_equal(e->line, 7);
	}
	assert_int_equal(ops->value(m, s, &v), MODEL_BADTYPE);
	e = ops->last_error(m);
	assert_string_equal(e->message,
	    "value returned value -1e+308, beyond ±1e12");
	assert_string_equal(e->function, "value");
	assert_int_equal(e->line, 10);
	assert_int_equal(ops->value(m, s, &v), MODEL_BADTYPE);
	assert_string_equal(ops->last_error(m)->message,
	    "value returned value nan, not a finite number");
	assert_int_equal(ops->value(m, s, &v), MODEL_OK);
	assert_true(v == 2.5);
	ops->state_free(m, s);
	wmodel_free(m);
}

/* A timeout names the line the interrupt found the model on. */
static void
test_timeout_line(void **state)
{
	struct action wait = { .kind = ACTION_WAIT };
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r;

	m = load_file(TOP "/tests/hostile/spin.py", 100, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(ops->apply(m, s, &wait, &next, &r), MODEL_TIMEOUT);
	e = ops->last_error(m);
	assert_string_equal(e->function, "apply");
	assert_true(e->line == 12 || e->line == 13);	/* while True: pass */
	ops->state_free(m, s);
	wmodel_free(m);
}

static void
test_load_errors(void **state)
{
	struct error err;

	assert_null(load_src("import os\n" BASE, 1000, &err));
	assert_int_equal(err.code, EXIT_REFUSED);
	assert_non_null(strstr(err.msg, "line 1"));
	assert_null(load_src(BASE "def legal_actions(state):\n    return []\n",
	    1000, &err));
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg, "apply"));
	assert_null(load_src(BASE "apply = 3\ndef legal_actions(s):\n"
	    "    return []\n", 1000, &err));
	assert_int_equal(err.code, EXIT_MODEL);
	assert_null(load_src("x = 1 / 0\n", 1000, &err));
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg, "ZeroDivisionError"));
	/* The module's own top-level code is guarded too, with ten calls'
	 * worth of time (at least three seconds). */
	assert_null(load_src("while True:\n    pass\n", 100, &err));
	assert_int_equal(err.code, EXIT_MODEL);
	assert_non_null(strstr(err.msg, "3000 ms"));
}

static void
test_error_line(void **state)
{
	struct action wait = { .kind = ACTION_WAIT };
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	char buf[512];
	double r;

	m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return []\n"
	    "def helper(x):\n"
	    "    return x / 0\n"
	    "def apply(state, action, rng):\n"
	    "    return state, helper(1)\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(ops->apply(m, s, &wait, &next, &r), MODEL_RAISED);
	e = ops->last_error(m);
	assert_string_equal(e->type, "ZeroDivisionError");
	assert_string_equal(e->message, "division by zero");
	assert_int_equal(e->line, 8);
	model_error_format(e, buf, sizeof buf);
	assert_string_equal(buf, "ZeroDivisionError: division by zero "
	    "(model.py line 8, in apply)");
	ops->state_free(m, s);
	wmodel_free(m);
}

/* The model's own exception classes are named, never asked to print. */
static void
test_error_never_runs_model_code(void **state)
{
	struct action wait = { .kind = ACTION_WAIT };
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r;

	m = load_src(BASE
	    "class Sly(Exception):\n"
	    "    def describe(self):\n"
	    "        while True:\n"
	    "            pass\n"
	    "def legal_actions(state):\n"
	    "    return []\n"
	    "def apply(state, action, rng):\n"
	    "    raise Sly('caught')\n", 1000, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(ops->apply(m, s, &wait, &next, &r), MODEL_RAISED);
	assert_string_equal(ops->last_error(m)->type, "Sly");
	assert_string_equal(ops->last_error(m)->message, "caught");
	ops->state_free(m, s);
	wmodel_free(m);
}

static int
run_hostile(const char *file, int timeout_ms, const char *type)
{
	struct action wait = { .kind = ACTION_WAIT };
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	model_state *s, *next;
	double r, t0;
	int rc;

	m = load_file(file, timeout_ms, &err);
	assert_non_null(m);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	t0 = clock_seconds();
	rc = ops->apply(m, s, &wait, &next, &r);
	e = ops->last_error(m);
	assert_string_equal(e->type, type);
	assert_string_equal(e->function, "apply");
	/* The host carries on with the same model. */
	assert_int_equal(ops->initial_state(m, &next), MODEL_OK);
	ops->state_free(m, next);
	ops->state_free(m, s);
	wmodel_free(m);
	(void)t0;
	return rc;
}

static void
test_hostile_spin(void **state)
{
	assert_int_equal(run_hostile(TOP "/tests/hostile/spin.py", 100,
	    "TimeoutError"), MODEL_TIMEOUT);
}

static void
test_hostile_recursion(void **state)
{
	assert_int_equal(run_hostile(TOP "/tests/hostile/recursion.py", 5000,
	    "RecursionError"), MODEL_RAISED);
}

static rlim_t
address_space(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

/* No memory limit exists in process; under one (set here, in a child) the
 * bomb is a clean MemoryError and the host goes on. */
static void
test_hostile_membomb(void **state)
{
	struct rlimit rl;
	pid_t pid;
	int status;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		getrlimit(RLIMIT_AS, &rl);
		rl.rlim_cur = address_space() + (256ULL << 20);
		setrlimit(RLIMIT_AS, &rl);
		_exit(run_hostile(TOP "/tests/hostile/membomb.py", 10000,
		    "MemoryError") == MODEL_RAISED ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
test_hostile_gated(void **state)
{
	static const char *files[] = { "openfile.py", "socket.py", "fork.py" };
	struct error err;
	char path[256];
	size_t i;

	for (i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, TOP "/tests/hostile/%s", files[i]);
		assert_null(load_file(path, 1000, &err));
		assert_int_equal(err.code, EXIT_REFUSED);
	}
}

struct thread_arg {
	struct wmodel	*m;
	int		 rc;
};

static void *
other_thread(void *p)
{
	struct thread_arg *a = p;
	model_state *s;

	a->rc = ops->initial_state(a->m, &s);
	if (a->rc == MODEL_OK)
		ops->state_free(a->m, s);
	return NULL;
}

/* Entered on one thread; another thread still gets the GIL per call. */
static void
test_enter_leave(void **state)
{
	struct thread_arg a = { 0 };
	struct action wait = { .kind = ACTION_WAIT };
	struct error err;
	pthread_t t;
	model_state *s, *next;
	double r;
	int i;

	a.m = load_src(BASE
	    "def legal_actions(state):\n"
	    "    return []\n"
	    "def apply(state, action, rng):\n"
	    "    return state + 1, rng.random()\n", 1000, &err);
	assert_non_null(a.m);
	wmodel_enter(a.m);
	wmodel_enter(a.m);
	assert_int_equal(ops->initial_state(a.m, &s), MODEL_OK);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(ops->apply(a.m, s, &wait, &next, &r), MODEL_OK);
		ops->state_free(a.m, s);
		s = next;
	}
	ops->state_free(a.m, s);
	wmodel_leave(a.m);
	wmodel_leave(a.m);
	pthread_create(&t, NULL, other_thread, &a);
	pthread_join(t, NULL);
	assert_int_equal(a.rc, MODEL_OK);
	wmodel_free(a.m);
}

/* The 1-based line of the first line starting with prefix. */
static int
source_line(const char *path, const char *prefix)
{
	char buf[1024];
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(buf, sizeof buf, f) != NULL) {
		n++;
		if (strncmp(buf, prefix, strlen(prefix)) == 0)
			break;
	}
	fclose(f);
	return n;
}

static void
test_validate_hooks(void **state)
{
	const struct validate_hooks *h = &wmodel_validate_hooks;
	struct error err;
	struct wmodel *m;
	model_state *s;
	char *text;
	int line;

	m = load_file(TOP "/fixtures/demo/model.py", 1000, &err);
	assert_non_null(m);
	assert_int_equal(h->function_line(m, "apply", &line), 0);
	assert_int_equal(line, source_line(TOP "/fixtures/demo/model.py",
	    "def apply("));
	assert_int_equal(h->function_line(m, "no_such_function", &line), -1);
	assert_int_equal(h->function_line(m, "HOUR", &line), -1);
	assert_int_equal(ops->initial_state(m, &s), MODEL_OK);
	assert_int_equal(h->state_repr(m, s, &text), 0);
	assert_non_null(strstr(text, "State(slot=0"));
	free(text);
	ops->state_free(m, s);
	wmodel_free(m);
}

/* predict sees the question's ctx: the given history, metrics only on
 * the known part, "now" at the post, and the post without metrics; each
 * draw has its own seed, so the same question gives the same draws. */
static void
test_predict_ctx(void **state)
{
	static const char src[] =
	    "def initial_state(ctx):\n    return 0\n"
	    "def legal_actions(s):\n    return [('wait',)]\n"
	    "def apply(s, a, rng):\n    return s, 0.0\n"
	    "def is_terminal(s):\n    return True\n"
	    "def predict(ctx, post, rng):\n"
	    "    known = len([h for h in ctx['history'] if h['metrics']])\n"
	    "    bare = 'metrics' in post\n"
	    "    return (len(ctx['history']) * 1000 + known * 10 + bare +\n"
	    "            (0.5 if ctx['now'] == post['posted_at'] else 0) +\n"
	    "            rng.random() * 0.001)\n";
	int hist[3] = { 0, 1, 2 };
	struct predict_query q = { .post = 3, .draft = -1, .front = -1,
	    .history = hist, .nhistory = 3, .known = 2, .seed = 9,
	    .ndraws = 4 };
	double d[4], e[4];
	struct error err;
	struct wmodel *m = load_src(src, 1000, &err);
	int k;

	if (m == NULL)
		fail_msg("%s", err.msg);
	assert_true(ops->has_predict(m));
	q.at = demo->history[3].posted_at;
	assert_int_equal(ops->predict(m, &q, d), MODEL_OK);
	for (k = 0; k < 4; k++)
		assert_true(floor(d[k]) == 3020);
	assert_true(d[0] != d[1]);
	assert_int_equal(ops->predict(m, &q, e), MODEL_OK);
	assert_memory_equal(d, e, sizeof d);
	/* a draft as a post at slot 0, in the project's own ctx */
	q.post = -1;
	q.draft = 0;
	q.front = 0;
	q.history = NULL;
	q.at = demo->start;
	assert_int_equal(ops->predict(m, &q, d), MODEL_OK);
	assert_true(d[0] >= demo->nhistory * 1010.0 + 0.5);
	q.draft = demo->ndrafts;	/* out of range: refused, not run */
	assert_int_equal(ops->predict(m, &q, d), MODEL_BADTYPE);
	wmodel_free(m);
}

/* A predict that returns no number, or raises, is the model's error
 * with its line; the backtest stops on it and says why. */
static void
test_predict_errors(void **state)
{
	static const char base[] =
	    "def initial_state(ctx):\n    return 0\n"
	    "def legal_actions(s):\n    return [('wait',)]\n"
	    "def apply(s, a, rng):\n    return s, 0.0\n"
	    "def is_terminal(s):\n    return True\n";
	struct predict_query q = { .post = 0, .draft = -1, .front = -1,
	    .history = NULL, .ndraws = 2 };
	const struct model_error *e;
	struct error err;
	struct wmodel *m;
	double d[2];
	char src[1024];

	snprintf(src, sizeof src, "%sdef predict(ctx, post, rng):\n"
	    "    return 'many'\n", base);
	assert_non_null(m = load_src(src, 1000, &err));
	assert_int_equal(ops->predict(m, &q, d), MODEL_BADTYPE);
	e = ops->last_error(m);
	assert_string_equal(e->function, "predict");
	assert_int_equal(e->line, 9);
	wmodel_free(m);
	snprintf(src, sizeof src, "%sdef predict(ctx, post, rng):\n"
	    "    return post['metrics']\n", base);
	assert_non_null(m = load_src(src, 1000, &err));
	assert_int_equal(ops->predict(m, &q, d), MODEL_RAISED);
	e = ops->last_error(m);
	assert_string_equal(e->type, "KeyError");
	assert_int_equal(e->line, 10);
	wmodel_free(m);
	snprintf(src, sizeof src, "%s", base);
	assert_non_null(m = load_src(src, 1000, &err));
	assert_false(ops->has_predict(m));
	wmodel_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_model),
		cmocka_unit_test(test_ctx_read_only),
		cmocka_unit_test(test_proposals_converted),
		cmocka_unit_test(test_proposals_as_ids),
		cmocka_unit_test(test_proposals_by_identity),
		cmocka_unit_test(test_proposals_cache_bounded),
		cmocka_unit_test(test_apply_sees_action),
		cmocka_unit_test(test_bad_types),
		cmocka_unit_test(test_numbers_checked),
		cmocka_unit_test(test_timeout_line),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_error_line),
		cmocka_unit_test(test_error_never_runs_model_code),
		cmocka_unit_test(test_hostile_spin),
		cmocka_unit_test(test_hostile_recursion),
		cmocka_unit_test(test_hostile_membomb),
		cmocka_unit_test(test_hostile_gated),
		cmocka_unit_test(test_enter_leave),
		cmocka_unit_test(test_validate_hooks),
		cmocka_unit_test(test_predict_ctx),
		cmocka_unit_test(test_predict_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
