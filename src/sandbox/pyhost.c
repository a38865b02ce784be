/*
 * pyhost — starts and stops the process's one embedded interpreter and
 * turns Python exceptions into struct error. See pyhost.h for the
 * isolation settings and the GIL convention everyone relies on.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/pyhost.h"

#ifndef FRONTS_PYTHON_HOME
#define FRONTS_PYTHON_HOME "/usr"
#endif

static pthread_mutex_t	 pyhost_lock = PTHREAD_MUTEX_INITIALIZER;
static PyThreadState	*pyhost_saved;	/* main thread state while released */
static int		 pyhost_up;

static int
pyhost_status(PyStatus st, PyConfig *config, struct error *err,
    const char *what)
{
	if (!PyStatus_Exception(st))
		return 0;
	PyConfig_Clear(config);
	return error_set(err, EXIT_ERROR, "embedded Python: %s: %s", what,
	    st.err_msg != NULL ? st.err_msg : "failed");
}

/* The isolated configuration; see pyhost.h for why each setting. */
static int
pyhost_configure(PyConfig *config, struct error *err)
{
	char self[PATH_MAX];
	ssize_t n;

	PyConfig_InitIsolatedConfig(config);
	config->site_import = 0;
	config->user_site_directory = 0;
	config->use_environment = 0;
	config->safe_path = 1;
	config->write_bytecode = 0;
	config->install_signal_handlers = 0;
	config->parse_argv = 0;
	config->configure_c_stdio = 0;
	config->pathconfig_warnings = 0;
	config->faulthandler = 0;
	config->use_hash_seed = 1;
	config->hash_seed = 0;
	/* Nothing of Python may write to the terminal (the TUI owns it):
	 * warnings are ignored, see also pyhost_quiet(). */
	if (pyhost_status(PyWideStringList_Append(&config->warnoptions,
	    L"ignore"), config, err, "warnings") != 0)
		return -1;
	if (pyhost_status(PyConfig_SetBytesString(config, &config->home,
	    FRONTS_PYTHON_HOME), config, err, "home") != 0)
		return -1;
	/* Our own path as the program, so nothing is looked up on PATH. */
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		if (pyhost_status(PyConfig_SetBytesString(config,
		    &config->program_name, self), config, err,
		    "program name") != 0)
			return -1;
	}
	return 0;
}

/* Unraisable exceptions (raised where nobody can catch them, e.g. while a
 * generator is collected) are dropped instead of printed on stderr. When
 * the hook itself cannot run (the recursion limit reached inside a
 * finalizer), CPython falls back to printing a traceback with its source
 * lines, read from disk: with no sys.stderr (nor stdout) it prints, and
 * reads, nothing. The worker's lockdown would refuse that read. */
static int
pyhost_quiet(struct error *err)
{
	PyObject *d, *r;

	if ((d = PyDict_New()) == NULL)
		return pyhost_error(err, EXIT_ERROR, "embedded Python");
	PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins());
	r = PyRun_String("import sys\nsys.unraisablehook = lambda u: None\n"
	    "sys.stderr = None\nsys.stdout = None\n",
	    Py_file_input, d, d);
	Py_DECREF(d);
	if (r == NULL)
		return pyhost_error(err, EXIT_ERROR, "embedded Python");
	Py_DECREF(r);
	return 0;
}

int
pyhost_init(struct error *err)
{
	PyConfig config;
	PyStatus st;
	int rc = 0;

	pthread_mutex_lock(&pyhost_lock);
	if (pyhost_up)
		goto out;
	if (pyhost_configure(&config, err) != 0) {
		rc = -1;
		goto out;
	}
	st = Py_InitializeFromConfig(&config);
	if (pyhost_status(st, &config, err, "cannot start") != 0) {
		rc = -1;
		goto out;
	}
	PyConfig_Clear(&config);
	rc = pyhost_quiet(err);
	pyhost_saved = PyEval_SaveThread();
	pyhost_up = rc == 0;
out:
	pthread_mutex_unlock(&pyhost_lock);
	return rc;
}

const char *
pyhost_version(void)
{
	return Py_GetVersion();
}

void
pyhost_fini(void)
{
	pthread_mutex_lock(&pyhost_lock);
	if (pyhost_up) {
		PyEval_RestoreThread(pyhost_saved);
		Py_FinalizeEx();
		pyhost_saved = NULL;
		pyhost_up = 0;
	}
	pthread_mutex_unlock(&pyhost_lock);
}

int
pyhost_ready(void)
{
	int up;

	pthread_mutex_lock(&pyhost_lock);
	up = pyhost_up;
	pthread_mutex_unlock(&pyhost_lock);
	return up;
}

/* Text of an exception without running code the model defined: only exact
 * str arguments are shown. */
static void
pyhost_exc_text(PyObject *exc, char *buf, size_t size)
{
	PyObject *args, *a0;
	const char *s;

	buf[0] = '\0';
	args = PyObject_GetAttrString(exc, "args");
	if (args == NULL) {
		PyErr_Clear();
		return;
	}
	if (PyTuple_CheckExact(args) && PyTuple_GET_SIZE(args) > 0) {
		a0 = PyTuple_GET_ITEM(args, 0);
		if (PyUnicode_CheckExact(a0) &&
		    (s = PyUnicode_AsUTF8(a0)) != NULL)
			snprintf(buf, size, PyErr_GivenExceptionMatches(exc,
			    PyExc_KeyError) ? "'%s'" : "%s", s);
		else if (PyLong_CheckExact(a0))
			snprintf(buf, size, "%ld", PyLong_AsLong(a0));
	}
	PyErr_Clear();
	Py_DECREF(args);
}

/* "FILE:LINE" of the innermost traceback frame, or of a SyntaxError. */
static void
pyhost_exc_where(PyObject *exc, char *buf, size_t size)
{
	PyObject *tb, *next, *fn, *ln;
	PyFrameObject *f;
	PyCodeObject *code;
	const char *s;

	buf[0] = '\0';
	if (PyErr_GivenExceptionMatches(exc, PyExc_SyntaxError)) {
		fn = PyObject_GetAttrString(exc, "filename");
		ln = PyObject_GetAttrString(exc, "lineno");
		if (fn != NULL && ln != NULL && PyUnicode_CheckExact(fn) &&
		    PyLong_CheckExact(ln) && (s = PyUnicode_AsUTF8(fn)) != NULL)
			snprintf(buf, size, "%s:%ld", s, PyLong_AsLong(ln));
		Py_XDECREF(fn);
		Py_XDECREF(ln);
		PyErr_Clear();
		return;
	}
	tb = PyException_GetTraceback(exc);
	while (tb != NULL && PyTraceBack_Check(tb)) {
		next = (PyObject *)((PyTracebackObject *)tb)->tb_next;
		if (next == NULL)
			break;
		Py_INCREF(next);
		Py_DECREF(tb);
		tb = next;
	}
	if (tb != NULL && PyTraceBack_Check(tb)) {
		f = ((PyTracebackObject *)tb)->tb_frame;
		code = PyFrame_GetCode(f);
		s = PyUnicode_AsUTF8(code->co_filename);
		if (s != NULL)
			snprintf(buf, size, "%s:%d", s,
			    ((PyTracebackObject *)tb)->tb_lineno);
		Py_DECREF(code);
	}
	Py_XDECREF(tb);
	PyErr_Clear();
}

/* The pending exception, normalised, with its traceback attached. */
static PyObject *
pyhost_take_exception(void)
{
	PyObject *type, *value, *tb;

	PyErr_Fetch(&type, &value, &tb);
	if (type == NULL)
		return NULL;
	PyErr_NormalizeException(&type, &value, &tb);
	if (value == NULL) {
		Py_XDECREF(tb);
		return type;
	}
	if (tb != NULL)
		PyException_SetTraceback(value, tb);
	Py_DECREF(type);
	Py_XDECREF(tb);
	return value;
}

int
pyhost_error(struct error *err, int code, const char *fmt, ...)
{
	PyObject *exc;
	char prefix[512], text[512], where[256];
	const char *name;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	exc = pyhost_take_exception();
	if (exc == NULL)
		return error_set(err, code, "%s", prefix);
	name = Py_TYPE(exc)->tp_name;
	pyhost_exc_text(exc, text, sizeof text);
	pyhost_exc_where(exc, where, sizeof where);
	Py_DECREF(exc);
	return error_set(err, code, "%s: %s%s%s%s%s%s", prefix, name,
	    text[0] != '\0' ? ": " : "", text,
	    where[0] != '\0' ? " (" : "", where, where[0] != '\0' ? ")" : "");
}
