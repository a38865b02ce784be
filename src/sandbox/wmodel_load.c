/*
 * wmodel_load — building a world model: the ctx as read-only plain data,
 * the host's rng, the action tuples, the gate run again, the module body
 * compiled and run under the load budget; and freeing it all.
 */
#include "sandbox/wmodel_int.h"

#include <stdio.h>
#include <string.h>

#include "sandbox/gate.h"
#include "sandbox/namespace.h"
#include "sandbox/pyhost.h"

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
	/* a project with no drafts has none to index (and no array) */
	m->draft_ix = wm_index_dict(p->ndrafts > 0 ? &p->drafts[0].id : NULL,
	    sizeof p->drafts[0], p->ndrafts);
	m->front_ix = wm_index_dict(&p->fronts[0].id, sizeof p->fronts[0],
	    p->nfronts);
	m->nacts = 1 + p->ndrafts * p->nfronts;
	m->acts = xcalloc(m->nacts, sizeof *m->acts);
	m->actv = xcalloc(m->nacts, sizeof *m->actv);
	m->actv[0].kind = ACTION_WAIT;
	wm_ids_init(&m->ids, m->nacts);
	if (m->s_wait == NULL || m->s_post == NULL || m->draft_ix == NULL ||
	    m->front_ix == NULL || (m->acts[0] = PyTuple_Pack(1, m->s_wait)) == NULL)
		goto fail;
	for (d = 0; d < p->ndrafts; d++) {
		for (f = 0; f < p->nfronts; f++) {
			i = 1 + d * p->nfronts + f;
			m->actv[i].kind = ACTION_POST;
			m->actv[i].draft = (uint32_t)d;
			m->actv[i].front = (uint16_t)f;
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
	if (gate_result_total(&gr) > 3 && off < sizeof buf)
		snprintf(buf + off, sizeof buf - off, "; and %d more",
		    gate_result_total(&gr) - 3);
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
	free(m->actv);
	wm_ids_free(&m->ids);
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
