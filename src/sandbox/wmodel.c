/*
 * wmodel — a gated world model behind struct model_ops (see wmodel.h).
 *
 * The hot path allocates nothing of its own: a model_state is the model's
 * PyObject itself (one owned reference), every action the model can be
 * handed is a tuple built once at load, and the model's proposals are
 * converted by two exact-str dict lookups. Results are converted only
 * through exact built-in types, so no model code runs outside a guarded
 * call. The GIL is taken per call unless the calling thread entered the
 * model (wmodel_enter), which is how a search loop should run it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

#define WM_FILENAME	"model.py"
/* The module's top-level code may precompute tables: it gets ten calls'
 * worth of time, and at least WM_LOAD_MIN_MS. */
#define WM_LOAD_FACTOR	10
#define WM_LOAD_MIN_MS	3000

enum wm_fn {
	FN_INITIAL, FN_SAMPLE, FN_LEGAL, FN_APPLY, FN_TERMINAL, FN_VALUE,
	FN_PREDICT, FN_COUNT
};

static const char *wm_fn_names[FN_COUNT] = {
	"initial_state", "sample_hidden", "legal_actions", "apply",
	"is_terminal", "value", "predict"
};

struct wmodel {
	const struct project	*p;
	PyObject		*globals;
	PyObject		*code;		/* the module body, until it ran */
	PyObject		*fn[FN_COUNT];	/* NULL where undefined */
	PyObject		*ctx;
	PyObject		*rng;
	PyObject		*rng_seed;	/* bound Random.seed */
	PyObject		**acts;		/* [0] wait, [1 + d*nfronts + f] */
	int			 nacts;
	PyObject		*draft_ix;	/* str -> int */
	PyObject		*front_ix;
	PyObject		*s_wait, *s_post;
	/* predict's arguments, built on its first call: per history post,
	 * the post without metrics and its ctx entry with empty metrics. */
	PyObject		*hist_post, *hist_bare;
	struct guard_slot	*slot;
	int			 timeout_ms;
	struct model_error	 error;
	bool			 poisoned;	/* a release overran: stop */
	/* wmodel_enter */
	int			 depth;
	pthread_t		 owner;
	PyGILState_STATE	 gil;
};

/* ---- GIL ------------------------------------------------------------ */

static inline bool
wm_acquire(struct wmodel *m, PyGILState_STATE *st)
{
	if (m->depth > 0 && pthread_equal(m->owner, pthread_self()))
		return false;
	*st = PyGILState_Ensure();
	guard_slot_bind(m->slot);
	return true;
}

static inline void
wm_release(bool took, PyGILState_STATE st)
{
	if (took)
		PyGILState_Release(st);
}

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

static void
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

static void
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

static int
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

static int
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

static void
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

static void
wm_action_of(const struct wmodel *m, int ix, struct action *a)
{
	memset(a, 0, sizeof *a);
	if (ix == 0) {
		a->kind = ACTION_WAIT;
		return;
	}
	a->kind = ACTION_POST;
	a->draft = (uint32_t)((ix - 1) / m->p->nfronts);
	a->front = (uint16_t)((ix - 1) % m->p->nfronts);
}

static int
wm_legal_actions(void *mv, model_state *s, struct action *out, int max,
    int *n, int *illegal)
{
	struct wmodel *m = mv;
	PyObject *args[1] = { (PyObject *)s }, *r, **items;
	PyGILState_STATE st;
	Py_ssize_t i, len;
	bool took;
	int rc, ix;

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
	for (i = 0; i < len; i++) {
		if ((ix = wm_action_index(m, items[i])) < 0)
			(*illegal)++;
		else if (*n < max)
			wm_action_of(m, ix, &out[(*n)++]);
	}
	wm_decref(m, r);
out:
	wm_release(took, st);
	return rc;
}

/*
 * A reward or value: an exact built-in number, finite and within
 * ±MODEL_NUMBER_MAX (DESIGN.md). Returns 0; -1 for anything that is not a
 * number; 1 for a number out of range, left in *out (an int too large for
 * a double as an infinity of its sign).
 */
static inline int
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
static int
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

	ix = a->kind == ACTION_WAIT ? 0 :
	    1 + (int)a->draft * m->p->nfronts + a->front;
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

/* ---- predict ------------------------------------------------------- */

/* A read-only copy of the mapping e, without `drop`, with extra items
 * (NULL-terminated key, value pairs). Only host objects are touched. */
static PyObject *
wm_entry_copy(PyObject *e, const char *drop, ...)
{
	PyObject *d, *o, *v;
	const char *k;
	va_list ap;

	if ((d = PyDict_New()) == NULL || PyDict_Merge(d, e, 1) != 0)
		goto fail;
	if (drop != NULL && PyDict_GetItemString(d, drop) != NULL &&
	    PyDict_DelItemString(d, drop) != 0)
		goto fail;
	va_start(ap, drop);
	while ((k = va_arg(ap, const char *)) != NULL) {
		v = va_arg(ap, PyObject *);
		if (v == NULL || PyDict_SetItemString(d, k, v) != 0) {
			va_end(ap);
			goto fail;
		}
	}
	va_end(ap);
	o = PyDictProxy_New(d);
	Py_DECREF(d);
	return o;
fail:
	Py_XDECREF(d);
	return NULL;
}

static int
wm_predict_objects(struct wmodel *m)
{
	PyObject *hist, *e, *empty = NULL, *none, *a, *b;
	Py_ssize_t i, n;

	if (m->hist_post != NULL)
		return 0;
	hist = PyMapping_GetItemString(m->ctx, "history");
	if (hist == NULL || !PyTuple_Check(hist))
		goto fail;
	n = PyTuple_GET_SIZE(hist);
	none = PyDict_New();
	empty = none != NULL ? PyDictProxy_New(none) : NULL;
	Py_XDECREF(none);
	a = PyTuple_New(n);
	b = PyTuple_New(n);
	if (empty == NULL || a == NULL || b == NULL)
		goto fail2;
	for (i = 0; i < n; i++) {
		e = PyTuple_GET_ITEM(hist, i);
		PyTuple_SET_ITEM(a, i, wm_entry_copy(e, "metrics", NULL));
		PyTuple_SET_ITEM(b, i, wm_entry_copy(e, NULL, "metrics", empty,
		    NULL));
		if (PyTuple_GET_ITEM(a, i) == NULL ||
		    PyTuple_GET_ITEM(b, i) == NULL)
			goto fail2;
	}
	m->hist_post = a;
	m->hist_bare = b;
	Py_DECREF(empty);
	Py_DECREF(hist);
	return 0;
fail2:
	Py_XDECREF(a);
	Py_XDECREF(b);
	Py_XDECREF(empty);
fail:
	Py_XDECREF(hist);
	PyErr_Clear();
	return -1;
}

static PyObject *
wm_time_str(time_t at)
{
	char buf[64];

	time_format_local(at, buf, sizeof buf);
	return PyUnicode_FromString(buf);
}

/* The ctx of a backtest question: its own history and now. */
static PyObject *
wm_predict_ctx(struct wmodel *m, const struct predict_query *q)
{
	PyObject *hist, *full, *now, *ctx = NULL;
	int i, ix;

	if (q->history == NULL) {
		Py_INCREF(m->ctx);
		return m->ctx;
	}
	if ((full = PyMapping_GetItemString(m->ctx, "history")) == NULL)
		return NULL;
	if ((hist = PyTuple_New(q->nhistory)) == NULL) {
		Py_DECREF(full);
		return NULL;
	}
	for (i = 0; i < q->nhistory; i++) {
		ix = q->history[i];
		PyObject *e = PyTuple_GET_ITEM(i < q->known ? full :
		    m->hist_bare, ix);
		Py_INCREF(e);
		PyTuple_SET_ITEM(hist, i, e);
	}
	if ((now = wm_time_str(q->at)) != NULL)
		ctx = wm_entry_copy(m->ctx, NULL, "history", hist, "now", now,
		    NULL);
	Py_XDECREF(now);
	Py_DECREF(hist);
	Py_DECREF(full);
	return ctx;
}

/* The post of a question: a history line without metrics, or a draft
 * as the post it would be on that front at that time. */
static PyObject *
wm_predict_post(struct wmodel *m, const struct predict_query *q)
{
	PyObject *drafts, *front, *at, *post = NULL;

	if (q->post >= 0) {
		PyObject *e = PyTuple_GET_ITEM(m->hist_post, q->post);

		Py_INCREF(e);
		return e;
	}
	if ((drafts = PyMapping_GetItemString(m->ctx, "drafts")) == NULL)
		return NULL;
	front = PyUnicode_FromString(m->p->fronts[q->front].id);
	at = wm_time_str(q->at);
	if (front != NULL && at != NULL)
		post = wm_entry_copy(PyTuple_GET_ITEM(drafts, q->draft),
		    "fronts", "front", front, "posted_at", at, NULL);
	Py_XDECREF(front);
	Py_XDECREF(at);
	Py_DECREF(drafts);
	return post;
}

static int
wm_host_failure(struct wmodel *m)
{
	PyErr_Clear();
	wm_copy(m->error.function, sizeof m->error.function, "predict");
	wm_copy(m->error.type, sizeof m->error.type, "HostError");
	wm_copy(m->error.message, sizeof m->error.message,
	    "cannot build predict's arguments");
	m->error.line = 0;
	return MODEL_RAISED;
}

static bool
wm_query_ok(const struct wmodel *m, const struct predict_query *q)
{
	int i;

	if (q->post >= m->p->nhistory || q->ndraws < 0 ||
	    (q->post < 0 && (q->draft < 0 || q->draft >= m->p->ndrafts ||
	    q->front < 0 || q->front >= m->p->nfronts)))
		return false;
	for (i = 0; q->history != NULL && i < q->nhistory; i++)
		if (q->history[i] < 0 || q->history[i] >= m->p->nhistory)
			return false;
	return true;
}

static int
wm_predict_draws(struct wmodel *m, PyObject *ctx, PyObject *post,
    const struct predict_query *q, double *draws)
{
	PyObject *args[3] = { ctx, post, m->rng }, *r;
	int k, rc, nrc;

	for (k = 0; k < q->ndraws; k++) {
		wm_seed(m, q->seed + (uint64_t)k);
		if ((rc = wm_call(m, FN_PREDICT, args, 3, &r)) != MODEL_OK)
			return rc;
		nrc = wm_number(r, &draws[k]);
		if (nrc < 0)
			rc = wm_badtype(m, FN_PREDICT, "a finite number", r);
		else if (nrc > 0)
			rc = wm_badnumber(m, FN_PREDICT, "reward", r, draws[k]);
		wm_decref(m, r);
		if (rc != MODEL_OK)
			return rc;
	}
	return MODEL_OK;
}

static int
wm_predict(void *mv, const struct predict_query *q, double *draws)
{
	struct wmodel *m = mv;
	PyObject *ctx = NULL, *post = NULL;
	PyGILState_STATE st = PyGILState_UNLOCKED;
	bool took;
	int rc;

	if (m->fn[FN_PREDICT] == NULL || !wm_query_ok(m, q)) {
		wm_copy(m->error.function, sizeof m->error.function, "predict");
		wm_copy(m->error.type, sizeof m->error.type, "ValueError");
		wm_copy(m->error.message, sizeof m->error.message,
		    m->fn[FN_PREDICT] == NULL ? "the model defines no predict()" :
		    "a post or history index out of range");
		m->error.line = 0;
		return MODEL_BADTYPE;
	}
	took = wm_acquire(m, &st);
	if (wm_predict_objects(m) != 0 ||
	    (ctx = wm_predict_ctx(m, q)) == NULL ||
	    (post = wm_predict_post(m, q)) == NULL)
		rc = wm_host_failure(m);
	else
		rc = wm_predict_draws(m, ctx, post, q, draws);
	/* ctx and post are host objects the model may have kept: releasing
	 * them can run its finalizers, so under the deadline */
	wm_decref(m, post);
	wm_decref(m, ctx);
	wm_release(took, st);
	return rc;
}

static bool
wm_has_predict(void *m)
{
	return ((struct wmodel *)m)->fn[FN_PREDICT] != NULL;
}

const struct model_ops wmodel_ops = {
	.seed = wm_seed,
	.initial_state = wm_initial_state,
	.sample_hidden = wm_sample_hidden,
	.legal_actions = wm_legal_actions,
	.apply = wm_apply,
	.is_terminal = wm_is_terminal,
	.value = wm_value,
	.state_free = wm_state_free,
	.last_error = wm_last_error,
	.has_value = wm_has_value,
	.predict = wm_predict,
	.has_predict = wm_has_predict
};

/* ---- loading -------------------------------------------------------- */

/* ctx as immutable plain data: objects become read-only mappings over a
 * dict nobody else holds, arrays become tuples. */
static PyObject *
wm_from_json(const cJSON *j)
{
	PyObject *o, *v, *d;
	const cJSON *c;
	Py_ssize_t i;
	double x;

	if (cJSON_IsString(j))
		return PyUnicode_FromString(j->valuestring);
	if (cJSON_IsBool(j))
		return PyBool_FromLong(cJSON_IsTrue(j));
	if (cJSON_IsNull(j))
		Py_RETURN_NONE;
	if (cJSON_IsNumber(j)) {
		x = j->valuedouble;
		if (x == floor(x) && fabs(x) < 9007199254740992.0)
			return PyLong_FromDouble(x);
		return PyFloat_FromDouble(x);
	}
	if (cJSON_IsArray(j)) {
		if ((o = PyTuple_New(cJSON_GetArraySize(j))) == NULL)
			return NULL;
		i = 0;
		cJSON_ArrayForEach(c, j) {
			if ((v = wm_from_json(c)) == NULL) {
				Py_DECREF(o);
				return NULL;
			}
			PyTuple_SET_ITEM(o, i++, v);
		}
		return o;
	}
	if (!cJSON_IsObject(j)) {
		PyErr_SetString(PyExc_ValueError, "unexpected JSON value");
		return NULL;
	}
	if ((d = PyDict_New()) == NULL)
		return NULL;
	cJSON_ArrayForEach(c, j) {
		if ((v = wm_from_json(c)) == NULL ||
		    PyDict_SetItemString(d, c->string, v) != 0) {
			Py_XDECREF(v);
			Py_DECREF(d);
			return NULL;
		}
		Py_DECREF(v);
	}
	o = PyDictProxy_New(d);
	Py_DECREF(d);
	return o;
}

static int
wm_build_ctx(struct wmodel *m, struct error *err)
{
	cJSON *j;

	if ((j = project_ctx_json(m->p)) == NULL)
		return error_set(err, EXIT_ERROR, "cannot build the model's ctx");
	m->ctx = wm_from_json(j);
	cJSON_Delete(j);
	if (m->ctx == NULL) {
		PyErr_Clear();
		return error_set(err, EXIT_ERROR,
		    "cannot convert the model's ctx to Python");
	}
	return 0;
}

/*
 * The rng handed to the model is an instance of a Random class of the
 * host's own: random.py executed once more into a module object that is
 * in no sys.modules and bound nowhere the model can look. So a model that
 * patches the pre-bound Random (Random.seed = ..., at top level or in a
 * call) changes nothing the host runs when it seeds, and the seed method
 * is taken from that private class before any model code exists.
 */
static const char wm_rng_code[] =
	"import importlib.util as u\n"
	"s = u.find_spec('random')\n"
	"m = u.module_from_spec(s)\n"
	"s.loader.exec_module(m)\n"
	"cls = m.Random\n";

static PyObject *
wm_private_random_class(void)
{
	static PyObject *cls;
	PyObject *d, *r;

	if (cls != NULL)
		return cls;
	if ((d = PyDict_New()) == NULL)
		return NULL;
	PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins());
	r = PyRun_String(wm_rng_code, Py_file_input, d, d);
	if (r != NULL && (cls = PyDict_GetItemString(d, "cls")) != NULL)
		Py_INCREF(cls);	/* process-wide, like the interpreter */
	Py_XDECREF(r);
	Py_DECREF(d);
	return cls;
}

static int
wm_build_rng(struct wmodel *m, struct error *err)
{
	PyObject *cls;

	cls = wm_private_random_class();
	m->rng = cls != NULL ? PyObject_CallNoArgs(cls) : NULL;
	m->rng_seed = m->rng != NULL ?
	    PyObject_GetAttrString(cls, "seed") : NULL;
	if (m->rng_seed == NULL) {
		PyErr_Clear();
		return error_set(err, EXIT_ERROR, "cannot create the model's rng");
	}
	return 0;
}

static PyObject *
wm_index_dict(char *const *ids, size_t stride, int n)
{
	PyObject *d, *v;
	int i;

	if ((d = PyDict_New()) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		v = PyLong_FromLong(i);
		if (v == NULL || PyDict_SetItemString(d,
		    *(char *const *)((const char *)ids + i * stride), v) != 0) {
			Py_XDECREF(v);
			Py_DECREF(d);
			return NULL;
		}
		Py_DECREF(v);
	}
	return d;
}

static int
wm_build_actions(struct wmodel *m, struct error *err)
{
	const struct project *p = m->p;
	int d, f, i;

	m->s_wait = PyUnicode_InternFromString("wait");
	m->s_post = PyUnicode_InternFromString("post");
	m->draft_ix = wm_index_dict(&p->drafts[0].id, sizeof p->drafts[0],
	    p->ndrafts);
	m->front_ix = wm_index_dict(&p->fronts[0].id, sizeof p->fronts[0],
	    p->nfronts);
	m->nacts = 1 + p->ndrafts * p->nfronts;
	m->acts = xcalloc(m->nacts, sizeof *m->acts);
	if (m->s_wait == NULL || m->s_post == NULL || m->draft_ix == NULL ||
	    m->front_ix == NULL || (m->acts[0] = PyTuple_Pack(1, m->s_wait)) == NULL)
		goto fail;
	for (d = 0; d < p->ndrafts; d++) {
		for (f = 0; f < p->nfronts; f++) {
			i = 1 + d * p->nfronts + f;
			m->acts[i] = Py_BuildValue("(Oss)", m->s_post,
			    p->drafts[d].id, p->fronts[f].id);
			if (m->acts[i] == NULL)
				goto fail;
		}
	}
	return 0;
fail:
	PyErr_Clear();
	return error_set(err, EXIT_ERROR, "cannot build the model's actions");
}

static int
wm_find_functions(struct wmodel *m, struct error *err)
{
	static const bool required[FN_COUNT] = { true, false, true, true, true,
	    false, false };
	PyObject *f;
	int i;

	for (i = 0; i < FN_COUNT; i++) {
		f = PyDict_GetItemString(m->globals, wm_fn_names[i]);
		if (f == NULL) {
			if (required[i])
				return error_set(err, EXIT_MODEL,
				    "%s defines no %s()", WM_FILENAME,
				    wm_fn_names[i]);
			continue;
		}
		if (!PyCallable_Check(f))
			return error_set(err, EXIT_MODEL,
			    "%s: %s is a %s, not a function", WM_FILENAME,
			    wm_fn_names[i], Py_TYPE(f)->tp_name);
		Py_INCREF(f);
		m->fn[i] = f;
	}
	return 0;
}

static int
wm_gate(const char *src, size_t len, struct error *err)
{
	struct gate_result gr;
	char buf[768];
	size_t off = 0;
	int i;

	if (gate_check_source(src, len, &gr, err) != 0)
		return -1;
	if (gr.accepted) {
		gate_result_free(&gr);
		return 0;
	}
	buf[0] = '\0';
	for (i = 0; i < gr.nverdicts && i < 3 && off < sizeof buf; i++)
		off += snprintf(buf + off, sizeof buf - off, "%sline %d col %d: %s (%s)",
		    i > 0 ? "; " : "", gr.verdicts[i].line, gr.verdicts[i].col,
		    gr.verdicts[i].message, gr.verdicts[i].rule);
	if (gr.nverdicts > 3 && off < sizeof buf)
		snprintf(buf + off, sizeof buf - off, "; and %d more",
		    gr.nverdicts - 3);
	error_set(err, EXIT_REFUSED, "the gate refused %s: %s", WM_FILENAME,
	    buf);
	gate_result_free(&gr);
	return -1;
}

static int
wm_load_timeout_ms(int call_timeout_ms)
{
	if (call_timeout_ms <= 0)
		return 0;
	if (call_timeout_ms > WM_LOAD_MIN_MS / WM_LOAD_FACTOR)
		return call_timeout_ms * WM_LOAD_FACTOR;
	return WM_LOAD_MIN_MS;
}

/* The module body runs under the guard too, with the load's deadline. */
static int
wm_exec(struct wmodel *m, struct error *err)
{
	int load_ms = wm_load_timeout_ms(m->timeout_ms);
	bool fired;
	int rc;

	guard_slot_set_timeout(m->slot, load_ms);
	guard_slot_bind(m->slot);
	guard_slot_what(m->slot, "top-level code");
	guard_arm(m->slot);
	rc = namespace_run_model(m->code, m->globals, WM_FILENAME, err);
	fired = guard_disarm(m->slot);
	guard_slot_set_timeout(m->slot, m->timeout_ms);
	Py_CLEAR(m->code);
	if (fired) {
		PyErr_Clear();
		return error_set(err, EXIT_MODEL,
		    "%s: the module's top-level code ran longer than %d ms",
		    WM_FILENAME, load_ms);
	}
	if (rc != 0) {
		PyErr_Clear();
		if (err != NULL && err->code == 0)
			err->code = EXIT_MODEL;
		return -1;
	}
	return 0;
}

/* Everything that needs the file system or builds host objects, and no
 * line of the model: the interpreter, the gate, the code object, the
 * namespace (every module it takes values from is imported here), ctx,
 * the rng and the action table. */
static int
wm_prepare(struct wmodel *m, const char *src, size_t len, struct error *err)
{
	if ((m->slot = guard_slot_new(m->timeout_ms, err)) == NULL)
		return -1;
	if ((m->code = namespace_compile_model(src, len, WM_FILENAME,
	    err)) == NULL) {
		PyErr_Clear();
		return -1;
	}
	if ((m->globals = namespace_new(err)) == NULL)
		return -1;
	if (wm_build_ctx(m, err) != 0 || wm_build_rng(m, err) != 0 ||
	    wm_build_actions(m, err) != 0)
		return -1;
	return 0;
}

int
wmodel_prepare(const struct project *p, const char *src, size_t len,
    int call_timeout_ms, struct wmodel **out, struct error *err)
{
	PyGILState_STATE st;
	struct wmodel *m;
	int rc;

	*out = NULL;
	if (pyhost_init(err) != 0 || wm_gate(src, len, err) != 0)
		return -1;
	if (p->nfronts <= 0 || p->nfronts > PROJECT_MAX_FRONTS)
		return error_set(err, EXIT_ERROR, "the project has no fronts");
	m = xcalloc(1, sizeof *m);
	m->p = p;
	m->timeout_ms = call_timeout_ms;
	st = PyGILState_Ensure();
	rc = wm_prepare(m, src, len, err);
	PyGILState_Release(st);
	if (rc != 0) {
		wmodel_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

int
wmodel_run_body(struct wmodel *m, struct error *err)
{
	PyGILState_STATE st;
	int rc = -1;

	if (m->code == NULL)
		return error_set(err, EXIT_ERROR,
		    "the model's top-level code has run already");
	st = PyGILState_Ensure();
	if (wm_exec(m, err) == 0 && wm_find_functions(m, err) == 0)
		rc = 0;
	PyGILState_Release(st);
	return rc;
}

int
wmodel_load(const struct project *p, const char *src, size_t len,
    int call_timeout_ms, struct wmodel **out, struct error *err)
{
	if (wmodel_prepare(p, src, len, call_timeout_ms, out, err) != 0)
		return -1;
	if (wmodel_run_body(*out, err) != 0) {
		wmodel_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

void
wmodel_free(struct wmodel *m)
{
	PyGILState_STATE st;
	int i;

	if (m == NULL)
		return;
	while (m->depth > 0)
		wmodel_leave(m);
	st = PyGILState_Ensure();
	for (i = 0; i < FN_COUNT; i++)
		Py_XDECREF(m->fn[i]);
	for (i = 0; m->acts != NULL && i < m->nacts; i++)
		Py_XDECREF(m->acts[i]);
	free(m->acts);
	Py_XDECREF(m->code);
	Py_XDECREF(m->globals);
	Py_XDECREF(m->ctx);
	Py_XDECREF(m->rng_seed);
	Py_XDECREF(m->rng);
	Py_XDECREF(m->draft_ix);
	Py_XDECREF(m->front_ix);
	Py_XDECREF(m->s_wait);
	Py_XDECREF(m->s_post);
	Py_XDECREF(m->hist_post);
	Py_XDECREF(m->hist_bare);
	guard_slot_free(m->slot);
	PyGILState_Release(st);
	free(m);
}

void
wmodel_error_format(const struct model_error *e, char *buf, size_t size)
{
	char where[96];

	if (e->line > 0)
		snprintf(where, sizeof where, "%s line %d, in %s", WM_FILENAME,
		    e->line, e->function);
	else
		snprintf(where, sizeof where, "in %s", e->function);
	snprintf(buf, size, "%s%s%s (%s)", e->type[0] ? e->type : "Error",
	    e->message[0] ? ": " : "", e->message, where);
}

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
