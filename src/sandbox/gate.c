/*
 * gate — runs the embedded gate.py rules over a model's source and turns
 * its verdicts into C. The helper is compiled once per process into its
 * own dict (never registered in sys.modules, so no model can find it) and
 * kept for the life of the interpreter.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/gate.h"
#include "sandbox/gatepy.h"
#include "sandbox/pyhost.h"

extern const char pysrc_gate[];	/* src/sandbox/pysrc.S */

static PyObject *gate_helper;	/* gate.py's globals; guarded by the GIL */

/* Needs the GIL. */
static PyObject *
gate_helper_get(struct error *err)
{
	PyObject *globals, *code, *r;

	if (gate_helper != NULL)
		return gate_helper;
	if ((globals = PyDict_New()) == NULL ||
	    PyDict_SetItemString(globals, "__builtins__",
	    PyEval_GetBuiltins()) != 0 ||
	    PyDict_SetItemString(globals, "__name__",
	    PyUnicode_FromString("fronts_gate")) != 0) {
		Py_XDECREF(globals);
		pyhost_error(err, EXIT_ERROR, "gate");
		return NULL;
	}
	code = Py_CompileString(pysrc_gate, "<fronts gate.py>", Py_file_input);
	r = code != NULL ? PyEval_EvalCode(code, globals, globals) : NULL;
	Py_XDECREF(code);
	if (r == NULL) {
		Py_DECREF(globals);
		pyhost_error(err, EXIT_ERROR, "gate: cannot load its rules");
		return NULL;
	}
	Py_DECREF(r);
	gate_helper = globals;
	return gate_helper;
}

PyObject *
gate_rules(struct error *err)
{
	return gate_helper_get(err);
}

static int
gate_int(PyObject *o)
{
	long v = PyLong_Check(o) ? PyLong_AsLong(o) : 0;

	return v > 0 && v < 1000000000 ? (int)v : 0;
}

/* Converts gate.py's [(line, col, rule, message)] into out. */
static int
gate_convert(PyObject *list, struct gate_result *out, struct error *err)
{
	struct gate_verdict *v;
	PyObject *t;
	const char *rule, *msg;
	Py_ssize_t i, n;

	if (!PyList_Check(list))
		return error_set(err, EXIT_ERROR, "gate: unexpected result");
	n = PyList_GET_SIZE(list);
	if (n > GATE_VERDICTS_MAX) {
		out->nmore = n - GATE_VERDICTS_MAX < INT_MAX ?
		    (int)(n - GATE_VERDICTS_MAX) : INT_MAX;
		n = GATE_VERDICTS_MAX;
	}
	out->verdicts = xcalloc(n > 0 ? (size_t)n : 1, sizeof *out->verdicts);
	for (i = 0; i < n; i++) {
		t = PyList_GET_ITEM(list, i);
		if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4 ||
		    (rule = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 2))) == NULL ||
		    (msg = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 3))) == NULL) {
			PyErr_Clear();
			return error_set(err, EXIT_ERROR,
			    "gate: malformed verdict");
		}
		v = &out->verdicts[out->nverdicts++];
		v->line = gate_int(PyTuple_GET_ITEM(t, 0));
		v->col = gate_int(PyTuple_GET_ITEM(t, 1));
		v->rule = xstrdup(rule);
		v->message = xstrdup(msg);
	}
	out->accepted = n == 0;
	return 0;
}

int
gate_check_source(const char *src, size_t len, struct gate_result *out,
    struct error *err)
{
	PyGILState_STATE g;
	PyObject *helper, *check, *bytes, *list;
	int rc = -1;

	memset(out, 0, sizeof *out);
	sha256_hex(src, len, out->sha256);
	if (pyhost_init(err) != 0)
		return -1;
	g = PyGILState_Ensure();
	if ((helper = gate_helper_get(err)) == NULL)
		goto out;
	check = PyDict_GetItemString(helper, "check");	/* borrowed */
	bytes = PyBytes_FromStringAndSize(src, (Py_ssize_t)len);
	list = check != NULL && bytes != NULL ?
	    PyObject_CallOneArg(check, bytes) : NULL;
	Py_XDECREF(bytes);
	if (list == NULL) {
		pyhost_error(err, EXIT_ERROR, "gate");
		goto out;
	}
	rc = gate_convert(list, out, err);
	Py_DECREF(list);
out:
	PyGILState_Release(g);
	if (rc != 0)
		gate_result_free(out);
	return rc;
}

/* A Python list of str as a malloc'd array of strings. */
static int
gate_strings(PyObject *list, char ***out, int *n)
{
	const char *s;
	Py_ssize_t i;

	*out = NULL;
	*n = 0;
	if (!PyList_Check(list))
		return -1;
	*out = xcalloc((size_t)PyList_GET_SIZE(list) + 1, sizeof **out);
	for (i = 0; i < PyList_GET_SIZE(list); i++) {
		if ((s = PyUnicode_AsUTF8(PyList_GET_ITEM(list, i))) == NULL)
			return -1;
		(*out)[(*n)++] = xstrdup(s);
	}
	return 0;
}

int
gate_summarize(const char *src, size_t len, struct gate_summary *out,
    struct error *err)
{
	PyGILState_STATE g;
	PyObject *helper, *fn, *bytes, *t = NULL;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (pyhost_init(err) != 0)
		return -1;
	g = PyGILState_Ensure();
	if ((helper = gate_helper_get(err)) == NULL)
		goto out;
	fn = PyDict_GetItemString(helper, "summary");
	bytes = PyBytes_FromStringAndSize(src, (Py_ssize_t)len);
	t = fn != NULL && bytes != NULL ? PyObject_CallOneArg(fn, bytes) : NULL;
	Py_XDECREF(bytes);
	if (t == NULL || !PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
		pyhost_error(err, EXIT_ERROR, "gate: summary");
		goto out;
	}
	out->lines = gate_int(PyTuple_GET_ITEM(t, 0));
	if (gate_strings(PyTuple_GET_ITEM(t, 1), &out->functions,
	    &out->nfunctions) != 0 || gate_strings(PyTuple_GET_ITEM(t, 2),
	    &out->classes, &out->nclasses) != 0) {
		pyhost_error(err, EXIT_ERROR, "gate: summary");
		goto out;
	}
	rc = 0;
out:
	Py_XDECREF(t);
	PyGILState_Release(g);
	if (rc != 0)
		gate_summary_free(out);
	return rc;
}

void
gate_summary_free(struct gate_summary *s)
{
	int i;

	for (i = 0; i < s->nfunctions; i++)
		free(s->functions[i]);
	for (i = 0; i < s->nclasses; i++)
		free(s->classes[i]);
	free(s->functions);
	free(s->classes);
	memset(s, 0, sizeof *s);
}

int
gate_check_file(const char *path, struct gate_result *out, char **src,
    size_t *len, struct error *err)
{
	char *data;
	size_t n;

	memset(out, 0, sizeof *out);
	if (file_read(path, &data, &n, err) != 0)
		return -1;
	if (gate_check_source(data, n, out, err) != 0) {
		free(data);
		return -1;
	}
	if (src != NULL) {
		*src = data;
		if (len != NULL)
			*len = n;
	} else
		free(data);
	return 0;
}

void
gate_result_free(struct gate_result *r)
{
	int i;

	for (i = 0; i < r->nverdicts; i++) {
		free(r->verdicts[i].rule);
		free(r->verdicts[i].message);
	}
	free(r->verdicts);
	r->verdicts = NULL;
	r->nverdicts = 0;
	r->nmore = 0;
}

int
gate_result_total(const struct gate_result *r)
{
	return r->nverdicts + r->nmore;
}

cJSON *
gate_result_json(const struct gate_result *r)
{
	cJSON *o, *list, *v;
	int i;

	o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "accepted", r->accepted);
	cJSON_AddStringToObject(o, "sha256", r->sha256);
	list = cJSON_AddArrayToObject(o, "verdicts");
	for (i = 0; i < r->nverdicts; i++) {
		v = cJSON_CreateObject();
		cJSON_AddNumberToObject(v, "line", r->verdicts[i].line);
		cJSON_AddNumberToObject(v, "col", r->verdicts[i].col);
		cJSON_AddStringToObject(v, "rule", r->verdicts[i].rule);
		cJSON_AddStringToObject(v, "message", r->verdicts[i].message);
		cJSON_AddItemToArray(list, v);
	}
	if (r->nmore > 0)
		cJSON_AddNumberToObject(o, "more", r->nmore);
	return o;
}

/* Written into one growing buffer: appending each verdict to a copy of
 * the text so far made this quadratic in the verdicts. */
char *
gate_result_text(const char *file, const struct gate_result *r)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	f = xmemstream(&out, &len);
	for (i = 0; i < r->nverdicts; i++)
		fprintf(f, "%s:%d:%d: %s: %s\n", file, r->verdicts[i].line,
		    r->verdicts[i].col, r->verdicts[i].rule,
		    r->verdicts[i].message);
	if (r->nmore > 0)
		fprintf(f, "%s: and %d more verdict%s\n", file, r->nmore,
		    r->nmore == 1 ? "" : "s");
	fclose(f);
	return out;
}
