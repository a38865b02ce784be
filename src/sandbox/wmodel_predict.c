/*
 * wmodel_predict — predict(ctx, post, rng) of the world-model contract:
 * each history post is shown to the model without its metrics, in a ctx
 * whose history holds every earlier post (see wmodel.h's predict_query).
 * Only host objects are built here; the model's code runs in guarded calls.
 */
#include "sandbox/wmodel_int.h"

#include <stdarg.h>
#include <string.h>

#include "core/timeutil.h"

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

int
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

bool
wm_has_predict(void *m)
{
	return ((struct wmodel *)m)->fn[FN_PREDICT] != NULL;
}

