/*
 * wmodel — a gated world model behind struct model_ops (see wmodel.h).
 *
 * The hot path allocates nothing of its own: a model_state is the model's
 * PyObject itself (one owned reference), every action the model can be
 * handed is a tuple built once at load, and the model's proposals are
 * converted by two exact-str dict lookups, once per tuple object: a tuple
 * seen again is recognised by its address (wmodel_ids.c). Results are converted only
 * through exact built-in types, so no model code runs outside a guarded
 * call. The GIL is taken per call unless the calling thread entered the
 * model (wmodel_enter), which is how a search loop should run it.
 *
 * This file holds the guarded calls and the ops tables; building and
 * freeing a model is wmodel_load.c, predict() wmodel_predict.c.
 */
#include "sandbox/wmodel_int.h"
#include <frameobject.h>

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/timeutil.h"
#include "sandbox/gate.h"
#include "sandbox/guard.h"
#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"
#include "sandbox/wmodel.h"

const char *const wm_fn_names[FN_COUNT] = {
	"initial_state", "sample_hidden", "legal_actions", "apply",
	"is_terminal", "value", "predict"
};

/* ---- GIL ------------------------------------------------------------ */

void
wmodel_enter(struct wmodel *m)
{
	if (m->depth++ > 0)
		return;
	m->gil = PyGILState_Ensure();
	m->owner = pthread_self();
	guard_slot_bind(m->slot);
}

void
wmodel_leave(struct wmodel *m)
{
	if (m->depth <= 0 || --m->depth > 0)
		return;
	PyGILState_Release(m->gil);
}

/* ---- errors --------------------------------------------------------- */

void
wm_copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src != NULL ? src : "");
}

/* The line of the innermost traceback frame that is the model's own. */
static int
wm_model_line(PyObject *tb)
{
	PyObject *code, *fname, *lineno;
	PyTracebackObject *t;
	int line = 0;

	for (t = (PyTracebackObject *)tb; t != NULL && PyTraceBack_Check(t);
	    t = t->tb_next) {
		code = (PyObject *)PyFrame_GetCode(t->tb_frame);
		fname = ((PyCodeObject *)code)->co_filename;
		if (PyUnicode_Check(fname) &&
		    PyUnicode_CompareWithASCIIString(fname, WM_FILENAME) == 0) {
			lineno = PyObject_GetAttrString((PyObject *)t, "tb_lineno");
			if (lineno != NULL && PyLong_CheckExact(lineno))
				line = (int)PyLong_AsLong(lineno);
			Py_XDECREF(lineno);
		}
		Py_DECREF(code);
	}
	PyErr_Clear();
	return line;
}

/* The message without running model code: only the exception's
 * arguments that are an exact str or number are shown, joined by ", "
 * (str() of anything else, and of the model's own exception classes,
 * could run the model's code). */
static void
wm_exc_message(struct wmodel *m, PyObject *value)
{
	PyObject *args, *a, *s;
	const char *u;
	Py_ssize_t i;
	size_t off = 0;

	m->error.message[0] = '\0';
	if (value == NULL || !PyExceptionInstance_Check(value) ||
	    (args = ((PyBaseExceptionObject *)value)->args) == NULL)
		return;
	Py_INCREF(args);
	for (i = 0; PyTuple_CheckExact(args) && i < PyTuple_GET_SIZE(args) &&
	    off < sizeof m->error.message; i++) {
		a = PyTuple_GET_ITEM(args, i);
		if (!PyUnicode_CheckExact(a) && !PyLong_CheckExact(a) &&
		    !PyFloat_CheckExact(a))
			continue;
		s = PyObject_Str(a);
		if (s != NULL && (u = PyUnicode_AsUTF8(s)) != NULL)
			off += (size_t)snprintf(m->error.message + off,
			    sizeof m->error.message - off, "%s%s",
			    off > 0 ? ", " : "", u);
		Py_XDECREF(s);
	}
	Py_DECREF(args);
	PyErr_Clear();
}

/* Releasing a model object can run the model's code (a generator's
 * finalizer, a dict of them), so it happens under the deadline too. A
 * release that overran poisons the model: the next call reports it. */
static void
wm_poison(struct wmodel *m, const char *what)
{
	PyErr_Clear();
	if (m->poisoned)
		return;
	m->poisoned = true;
	wm_copy(m->error.function, sizeof m->error.function, what);
	wm_copy(m->error.type, sizeof m->error.type, "TimeoutError");
	snprintf(m->error.message, sizeof m->error.message,
	    "%s ran longer than %d ms", what, m->timeout_ms);
	m->error.line = 0;
}

void
wm_decref(struct wmodel *m, PyObject *o)
{
	guard_slot_what(m->slot, "release of a model object");
	guard_arm(m->slot);
	Py_XDECREF(o);
	if (guard_disarm(m->slot))
		wm_poison(m, "releasing a model object");
}

static int
wm_raised(struct wmodel *m, enum wm_fn fn)
{
	PyObject *type, *value, *tb;
	const char *name, *dot;
	int rc = MODEL_RAISED;

	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	wm_copy(m->error.function, sizeof m->error.function, wm_fn_names[fn]);
	name = type != NULL && PyType_Check(type) ?
	    ((PyTypeObject *)type)->tp_name : "exception";
	if ((dot = strrchr(name, '.')) != NULL)
		name = dot + 1;
	if (guard_is_timeout(type)) {
		rc = MODEL_TIMEOUT;
		name = "TimeoutError";
	}
	wm_copy(m->error.type, sizeof m->error.type, name);
	m->error.line = wm_model_line(tb);
	if (rc == MODEL_TIMEOUT)
		snprintf(m->error.message, sizeof m->error.message,
		    "%s() ran longer than %d ms", wm_fn_names[fn], m->timeout_ms);
	else
		wm_exc_message(m, value);
	wm_decref(m, type);
	wm_decref(m, value);
	wm_decref(m, tb);
	return rc;
}

/* Where no traceback says more: the line of the function's def. */
static int
wm_fn_line(const struct wmodel *m, enum wm_fn fn)
{
	PyCodeObject *co;

	if (m->fn[fn] == NULL || !PyFunction_Check(m->fn[fn]))
		return 0;
	co = (PyCodeObject *)PyFunction_GET_CODE(m->fn[fn]);
	if (!PyUnicode_Check(co->co_filename) ||
	    PyUnicode_CompareWithASCIIString(co->co_filename, WM_FILENAME) != 0)
		return 0;
	return co->co_firstlineno;
}

/* The line is where the interrupt found the model, when it was still
 * running model code; else the function's. */
static int
wm_timeout(struct wmodel *m, enum wm_fn fn)
{
	PyObject *type, *value, *tb;

	PyErr_Fetch(&type, &value, &tb);
	m->error.line = wm_model_line(tb);
	if (m->error.line == 0)
		m->error.line = wm_fn_line(m, fn);
	PyErr_Clear();
	wm_decref(m, type);
	wm_decref(m, value);
	wm_decref(m, tb);
	wm_copy(m->error.function, sizeof m->error.function, wm_fn_names[fn]);
	wm_copy(m->error.type, sizeof m->error.type, "TimeoutError");
	snprintf(m->error.message, sizeof m->error.message,
	    "%s() ran longer than %d ms", wm_fn_names[fn], m->timeout_ms);
	return MODEL_TIMEOUT;
}

int
wm_badtype(struct wmodel *m, enum wm_fn fn, const char *want, PyObject *got)
{
	wm_copy(m->error.function, sizeof m->error.function, wm_fn_names[fn]);
	wm_copy(m->error.type, sizeof m->error.type, "TypeError");
	snprintf(m->error.message, sizeof m->error.message,
	    "%s() must return %s, not %s", wm_fn_names[fn], want,
	    got != NULL ? Py_TYPE(got)->tp_name : "nothing");
	m->error.line = wm_fn_line(m, fn);
	return MODEL_BADTYPE;
}

/* ---- calls ---------------------------------------------------------- */

int
wm_call(struct wmodel *m, enum wm_fn fn, PyObject *const *args, size_t nargs,
    PyObject **res)
{
	PyObject *r;

	if (m->poisoned)
		return MODEL_TIMEOUT;
	guard_slot_what(m->slot, wm_fn_names[fn]);
	guard_arm(m->slot);
	r = PyObject_Vectorcall(m->fn[fn], args, nargs, NULL);
	if (guard_disarm(m->slot)) {
		wm_decref(m, r);
		return wm_timeout(m, fn);
	}
	if (r == NULL)
		return wm_raised(m, fn);
	*res = r;
	return MODEL_OK;
}

void
wm_seed(void *mv, uint64_t seed)
{
	struct wmodel *m = mv;
	PyGILState_STATE st;
	PyObject *arg, *r;
	bool took;

	took = wm_acquire(m, &st);
	/* Seeding replaces values the model may have stored on its rng. */
	guard_slot_what(m->slot, "rng seeding");
	guard_arm(m->slot);
	arg = PyLong_FromUnsignedLongLong(seed);
	r = arg != NULL ? PyObject_CallFunctionObjArgs(m->rng_seed, m->rng,
	    arg, NULL) : NULL;
	Py_XDECREF(arg);
	Py_XDECREF(r);
	if (guard_disarm(m->slot))
		wm_poison(m, "seeding the rng");
	PyErr_Clear();
	wm_release(took, st);
}

static int
wm_state_call(struct wmodel *m, enum wm_fn fn, model_state **out)
{
	PyObject *args[2] = { m->ctx, m->rng }, *r;
	PyGILState_STATE st;
	bool took;
	int rc;

	if (m->fn[fn] == NULL)
		fn = FN_INITIAL;
	took = wm_acquire(m, &st);
	rc = wm_call(m, fn, args, fn == FN_INITIAL ? 1 : 2, &r);
	if (rc == MODEL_OK)
		*out = (model_state *)r;
	wm_release(took, st);
	return rc;
}

static int
wm_initial_state(void *m, model_state **out)
{
	return wm_state_call(m, FN_INITIAL, out);
}

static int
wm_sample_hidden(void *m, model_state **out)
{
	return wm_state_call(m, FN_SAMPLE, out);
}

static inline bool
wm_str_is(PyObject *o, PyObject *interned)
{
	return o == interned || (PyUnicode_CheckExact(o) &&
	    PyUnicode_Compare(o, interned) == 0);
}

/* One proposal to an action index; -1 for anything not well formed. */
static int
wm_action_index(struct wmodel *m, PyObject *t)
{
	PyObject *kind, *d, *f, *di, *fi;
	Py_ssize_t n;

	if (!PyTuple_Check(t) || (n = PyTuple_GET_SIZE(t)) == 0)
		return -1;
	kind = PyTuple_GET_ITEM(t, 0);
	if (n == 1)
		return wm_str_is(kind, m->s_wait) ? 0 : -1;
	if (n != 3 || !wm_str_is(kind, m->s_post))
		return -1;
	d = PyTuple_GET_ITEM(t, 1);
	f = PyTuple_GET_ITEM(t, 2);
	if (!PyUnicode_CheckExact(d) || !PyUnicode_CheckExact(f))
		return -1;
	di = PyDict_GetItemWithError(m->draft_ix, d);
	fi = di != NULL ? PyDict_GetItemWithError(m->front_ix, f) : NULL;
	if (fi == NULL) {
		PyErr_Clear();
		return -1;
	}
	return 1 + (int)PyLong_AsLong(di) * m->p->nfronts +
	    (int)PyLong_AsLong(fi);
}

/* A proposal's index: by identity where the tuple was seen before
 * (wmodel_ids.c), else converted and remembered. */
static inline int
wm_proposal(struct wmodel *m, PyObject *t)
{
	int ix = wm_ids_get(&m->ids, t);

	if (ix < 0 && (ix = wm_action_index(m, t)) >= 0)
		wm_ids_put(&m->ids, t, ix);
	return ix;
}

/*
 * legal_actions(state), each well-formed proposal as its action id (ids)
 * or as its action (acts): one of the two is NULL, and the two callers
 * below are this function with the branch gone (inlined into each, so the
 * loop over thousands of proposals does not test which one every time).
 */
static inline __attribute__((always_inline)) int
wm_legal_list(struct wmodel *m, model_state *s, uint32_t *ids,
    struct action *acts, int max, int *n, int *illegal)
{
	PyObject *args[1] = { (PyObject *)s }, *r, **items;
	const struct action *actv = m->actv;
	PyGILState_STATE st;
	Py_ssize_t i, len;
	bool took;
	int rc, ix, got = 0, ill = 0;

	*n = 0;
	*illegal = 0;
	took = wm_acquire(m, &st);
	if ((rc = wm_call(m, FN_LEGAL, args, 1, &r)) != MODEL_OK)
		goto out;
	if (!PyList_Check(r) && !PyTuple_Check(r)) {
		rc = wm_badtype(m, FN_LEGAL, "a list of actions", r);
		wm_decref(m, r);
		goto out;
	}
	len = PySequence_Fast_GET_SIZE(r);
	items = PySequence_Fast_ITEMS(r);
	/* Counts in locals: a store into out could be one into *n. */
	for (i = 0; i < len; i++) {
		if ((ix = wm_proposal(m, items[i])) < 0)
			ill++;
		else if (got >= max)
			continue;
		else if (ids != NULL)
			ids[got++] = (uint32_t)ix;
		else
			acts[got++] = actv[ix];
	}
	*n = got;
	*illegal = ill;
	wm_decref(m, r);
out:
	wm_release(took, st);
	return rc;
}

static int
wm_legal_actions(void *m, model_state *s, struct action *out, int max,
    int *n, int *illegal)
{
	return wm_legal_list(m, s, NULL, out, max, n, illegal);
}

static int
wm_legal_ids(void *m, model_state *s, uint32_t *out, int max, int *n,
    int *illegal)
{
	return wm_legal_list(m, s, out, NULL, max, n, illegal);
}

/*
 * A reward or value: an exact built-in number, finite and within
 * ±MODEL_NUMBER_MAX (docs/DESIGN.md). Returns 0; -1 for anything that is not a
 * number; 1 for a number out of range, left in *out (an int too large for
 * a double as an infinity of its sign).
 */
int
wm_number(PyObject *o, double *out)
{
	if (PyFloat_Check(o))
		*out = PyFloat_AS_DOUBLE(o);
	else if (PyLong_CheckExact(o) || PyBool_Check(o)) {
		*out = PyLong_AsDouble(o);
		if (*out == -1.0 && PyErr_Occurred()) {
			PyErr_Clear();
			*out = _PyLong_Sign(o) < 0 ? -INFINITY : INFINITY;
			return 1;
		}
	} else
		return -1;
	return fabs(*out) <= MODEL_NUMBER_MAX ? 0 : 1;	/* NaN: 1 */
}

/* A number wm_number() found out of range: a model error like a wrong
 * type, with the function's line. */
int
wm_badnumber(struct wmodel *m, enum wm_fn fn, const char *what, PyObject *o,
    double x)
{
	wm_copy(m->error.function, sizeof m->error.function, wm_fn_names[fn]);
	wm_copy(m->error.type, sizeof m->error.type, "ValueError");
	m->error.line = wm_fn_line(m, fn);
	if (isinf(x) && !PyFloat_Check(o))
		snprintf(m->error.message, sizeof m->error.message,
		    "%s returned %s %s10**308 or more, beyond ±1e12",
		    wm_fn_names[fn], what, x < 0 ? "-" : "");
	else
		snprintf(m->error.message, sizeof m->error.message,
		    "%s returned %s %g, %s", wm_fn_names[fn], what, x,
		    isfinite(x) ? "beyond ±1e12" : "not a finite number");
	return MODEL_BADTYPE;
}

static int
wm_apply(void *mv, model_state *s, const struct action *a, model_state **next,
    double *reward)
{
	struct wmodel *m = mv;
	PyObject *args[3], *r;
	PyGILState_STATE st;
	bool took;
	int rc, ix, nrc;

	ix = (int)action_id(a, (uint32_t)m->p->nfronts);
	if (ix < 0 || ix >= m->nacts || (a->kind != ACTION_WAIT &&
	    (a->front >= m->p->nfronts || (int)a->draft >= m->p->ndrafts))) {
		wm_copy(m->error.function, sizeof m->error.function, "apply");
		wm_copy(m->error.type, sizeof m->error.type, "ValueError");
		wm_copy(m->error.message, sizeof m->error.message,
		    "action out of range");
		m->error.line = 0;
		return MODEL_BADTYPE;
	}
	args[0] = (PyObject *)s;
	args[1] = m->acts[ix];
	args[2] = m->rng;
	took = wm_acquire(m, &st);
	if ((rc = wm_call(m, FN_APPLY, args, 3, &r)) != MODEL_OK)
		goto out;
	if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2 ||
	    (nrc = wm_number(PyTuple_GET_ITEM(r, 1), reward)) < 0) {
		rc = wm_badtype(m, FN_APPLY,
		    "(next_state, reward) with a finite number as reward", r);
		wm_decref(m, r);
		goto out;
	}
	if (nrc > 0) {
		rc = wm_badnumber(m, FN_APPLY, "reward", PyTuple_GET_ITEM(r, 1),
		    *reward);
		wm_decref(m, r);
		goto out;
	}
	*next = (model_state *)PyTuple_GET_ITEM(r, 0);
	Py_INCREF((PyObject *)*next);
	wm_decref(m, r);
out:
	wm_release(took, st);
	return rc;
}

static int
wm_is_terminal(void *mv, model_state *s, bool *out)
{
	struct wmodel *m = mv;
	PyObject *args[1] = { (PyObject *)s }, *r;
	PyGILState_STATE st;
	bool took;
	int rc;

	took = wm_acquire(m, &st);
	if ((rc = wm_call(m, FN_TERMINAL, args, 1, &r)) == MODEL_OK) {
		if (PyBool_Check(r) || PyLong_CheckExact(r))
			*out = PyObject_IsTrue(r) == 1;
		else
			rc = wm_badtype(m, FN_TERMINAL, "a bool", r);
		wm_decref(m, r);
	}
	wm_release(took, st);
	return rc;
}

static int
wm_value(void *mv, model_state *s, double *out)
{
	struct wmodel *m = mv;
	PyObject *args[1] = { (PyObject *)s }, *r;
	PyGILState_STATE st;
	bool took;
	int rc, nrc;

	if (m->fn[FN_VALUE] == NULL) {
		*out = 0;
		return MODEL_OK;
	}
	took = wm_acquire(m, &st);
	if ((rc = wm_call(m, FN_VALUE, args, 1, &r)) == MODEL_OK) {
		if ((nrc = wm_number(r, out)) < 0)
			rc = wm_badtype(m, FN_VALUE, "a finite number", r);
		else if (nrc > 0)
			rc = wm_badnumber(m, FN_VALUE, "value", r, *out);
		wm_decref(m, r);
	}
	wm_release(took, st);
	return rc;
}

static void
wm_state_free(void *mv, model_state *s)
{
	PyGILState_STATE st;
	bool took;

	if (s == NULL)
		return;
	took = wm_acquire(mv, &st);
	wm_decref(mv, (PyObject *)s);
	wm_release(took, st);
}

static const struct model_error *
wm_last_error(void *m)
{
	return &((struct wmodel *)m)->error;
}

static bool
wm_has_value(void *m)
{
	return ((struct wmodel *)m)->fn[FN_VALUE] != NULL;
}

const struct model_ops wmodel_ops = {
	.seed = wm_seed,
	.initial_state = wm_initial_state,
	.sample_hidden = wm_sample_hidden,
	.legal_actions = wm_legal_actions,
	.legal_ids = wm_legal_ids,
	.apply = wm_apply,
	.is_terminal = wm_is_terminal,
	.value = wm_value,
	.state_free = wm_state_free,
	.last_error = wm_last_error,
	.has_value = wm_has_value,
	.predict = wm_predict,
	.has_predict = wm_has_predict
};

/* ---- validation hooks ------------------------------------------------- */

static int
wm_function_line(void *mv, const char *name, int *line)
{
	struct wmodel *m = mv;
	PyGILState_STATE st;
	PyObject *f;
	bool took;
	int rc = -1;

	took = wm_acquire(m, &st);
	f = PyDict_GetItemString(m->globals, name);
	if (f != NULL && PyFunction_Check(f)) {
		*line = ((PyCodeObject *)PyFunction_GET_CODE(f))->co_firstlineno;
		rc = 0;
	}
	wm_release(took, st);
	return rc;
}

/* repr() of a state may run the model's code, so it is guarded like a
 * call; the fixed hash seed keeps set orders, and so the text, stable. */
static int
wm_state_repr(void *mv, model_state *s, char **out)
{
	struct wmodel *m = mv;
	PyGILState_STATE st;
	const char *u;
	PyObject *r;
	bool took, fired;
	int rc = -1;

	took = wm_acquire(m, &st);
	guard_slot_what(m->slot, "repr of a state");
	guard_arm(m->slot);
	r = PyObject_Repr((PyObject *)s);
	fired = guard_disarm(m->slot);
	if (r != NULL && !fired && (u = PyUnicode_AsUTF8(r)) != NULL) {
		*out = xstrdup(u);
		rc = 0;
	}
	wm_decref(m, r);
	PyErr_Clear();
	wm_release(took, st);
	return rc;
}

const struct validate_hooks wmodel_validate_hooks = {
	.function_line = wm_function_line,
	.state_repr = wm_state_repr
};

