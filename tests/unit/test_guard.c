/*
 * test_guard — the in-process watchdog: an overrunning call is interrupted
 * with fronts.ModelTimeout, a call that returns in time is untouched, a
 * model that swallows the interrupt is hit again, and the process keeps
 * exactly one watchdog thread however many calls and timeouts it sees.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sandbox/guard.h"
#include "sandbox/pyhost.h"

static PyObject *test_globals;

static int
thread_count(void)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	d = opendir("/proc/self/task");
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int
setup(void **state)
{
	struct error err = { 0 };
	PyGILState_STATE g;
	PyObject *r;

	if (pyhost_init(&err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	g = PyGILState_Ensure();
	test_globals = PyDict_New();
	PyDict_SetItemString(test_globals, "__builtins__", PyEval_GetBuiltins());
	r = PyRun_String(
	    "def quick(x):\n"
	    "    return x + 1\n"
	    "def busy(n):\n"
	    "    i = 0\n"
	    "    while i < n:\n"
	    "        i += 1\n"
	    "    return i\n"
	    "def spin(x):\n"
	    "    while True:\n"
	    "        pass\n"
	    "def stubborn(x):\n"
	    "    n = 0\n"
	    "    while n < 3:\n"
	    "        try:\n"
	    "            while True:\n"
	    "                pass\n"
	    "        except BaseException:\n"
	    "            n += 1\n"
	    "    return n\n",
	    Py_file_input, test_globals, test_globals);
	Py_XDECREF(r);
	PyGILState_Release(g);
	return r == NULL ? -1 : 0;
}

/* Calls globals[name](1) under slot s; returns the result (new ref) or
 * NULL with the exception left set. *fired: the watchdog fired. */
static PyObject *
guarded(struct guard_slot *s, const char *name, bool *fired)
{
	PyObject *f, *arg, *r;

	f = PyDict_GetItemString(test_globals, name);
	arg = PyLong_FromLong(1);
	guard_arm(s);
	r = PyObject_CallOneArg(f, arg);
	*fired = guard_disarm(s);
	Py_DECREF(arg);
	return r;
}

static void
test_quick_call_untouched(void **state)
{
	struct error err = { 0 };
	struct guard_slot *s;
	PyGILState_STATE g;
	PyObject *r;
	bool fired;

	g = PyGILState_Ensure();
	s = guard_slot_new(1000, &err);
	assert_non_null(s);
	r = guarded(s, "quick", &fired);
	assert_false(fired);
	assert_non_null(r);
	assert_int_equal(PyLong_AsLong(r), 2);
	Py_DECREF(r);
	guard_slot_free(s);
	PyGILState_Release(g);
}

static void
test_spin_interrupted(void **state)
{
	PyObject *type, *value, *tb, *r;
	struct error err = { 0 };
	struct guard_slot *s;
	PyGILState_STATE g;
	bool fired;

	g = PyGILState_Ensure();
	s = guard_slot_new(50, &err);
	assert_non_null(s);
	r = guarded(s, "spin", &fired);
	assert_null(r);
	assert_true(fired);
	PyErr_Fetch(&type, &value, &tb);
	assert_true(guard_is_timeout(type));
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	/* The next call on the same thread runs clean. */
	r = guarded(s, "quick", &fired);
	assert_false(fired);
	assert_non_null(r);
	Py_DECREF(r);
	guard_slot_free(s);
	PyGILState_Release(g);
}

static void
test_swallowed_interrupt_refires(void **state)
{
	struct error err = { 0 };
	struct guard_slot *s;
	PyGILState_STATE g;
	PyObject *r;
	bool fired;

	g = PyGILState_Ensure();
	s = guard_slot_new(30, &err);
	assert_non_null(s);
	r = guarded(s, "stubborn", &fired);
	/* It caught three interrupts and returned: still a timeout. */
	assert_true(fired);
	assert_non_null(r);
	assert_int_equal(PyLong_AsLong(r), 3);
	Py_DECREF(r);
	PyErr_Clear();
	guard_slot_free(s);
	PyGILState_Release(g);
}

static void
test_no_thread_leak(void **state)
{
	struct error err = { 0 };
	struct guard_slot *s, *t;
	PyGILState_STATE g;
	PyObject *r;
	bool fired;
	int before, i;

	g = PyGILState_Ensure();
	s = guard_slot_new(1000, &err);
	assert_non_null(s);
	before = thread_count();
	for (i = 0; i < 100000; i++) {
		r = guarded(s, "quick", &fired);
		assert_false(fired);
		Py_DECREF(r);
	}
	assert_int_equal(thread_count(), before);
	t = guard_slot_new(20, &err);
	r = guarded(t, "spin", &fired);
	assert_true(fired);
	assert_null(r);
	PyErr_Clear();
	assert_int_equal(thread_count(), before);
	assert_int_equal(guard_threads_started(), 1);
	guard_slot_free(t);
	guard_slot_free(s);
	PyGILState_Release(g);
}

/* Back-to-back calls, each well inside the deadline but together far
 * longer than it, are never interrupted: each call's time is its own. */
static void
test_consecutive_calls_not_interrupted(void **state)
{
	struct error err = { 0 };
	struct guard_slot *s;
	PyGILState_STATE g;
	PyObject *f, *arg, *r;
	double t0, t;
	long n = 100000;
	bool fired;
	int i;

	g = PyGILState_Ensure();
	f = PyDict_GetItemString(test_globals, "busy");
	/* Size one call to about a twentieth of the deadline. */
	for (;;) {
		arg = PyLong_FromLong(n);
		t0 = clock_seconds();
		r = PyObject_CallOneArg(f, arg);
		t = clock_seconds() - t0;
		Py_DECREF(arg);
		Py_DECREF(r);
		if (t >= 0.025)
			break;
		n *= 2;
	}
	/* A generous deadline, so a loaded machine that stretches one ~25 ms
	 * call cannot reach it; the series runs until it has outlasted the
	 * deadline, so the test means something however fast the machine. */
	s = guard_slot_new(2000, &err);
	assert_non_null(s);
	arg = PyLong_FromLong(n);
	t0 = clock_seconds();
	for (i = 0; i < 100000 && clock_seconds() - t0 <= 2.5; i++) {
		guard_arm(s);
		r = PyObject_CallOneArg(f, arg);
		fired = guard_disarm(s);
		assert_false(fired);
		assert_non_null(r);
		Py_DECREF(r);
	}
	assert_true(clock_seconds() - t0 > 2.5);
	Py_DECREF(arg);
	guard_slot_free(s);
	PyGILState_Release(g);
}

/* Slots are reused; a call with no deadline is never interrupted. */
static void
test_slots_reused(void **state)
{
	struct error err = { 0 };
	struct guard_slot *s;
	PyGILState_STATE g;
	PyObject *r;
	bool fired;
	int i;

	g = PyGILState_Ensure();
	for (i = 0; i < 3 * GUARD_MAX_SLOTS; i++) {
		s = guard_slot_new(0, &err);
		assert_non_null(s);
		r = guarded(s, "quick", &fired);
		assert_false(fired);
		Py_DECREF(r);
		guard_slot_free(s);
	}
	PyGILState_Release(g);
}

/* The watchdog threads block every asynchronous signal but not SIGSYS:
 * blocked, a refused system call in one of them would kill the worker
 * without the seccomp trap's frame naming the call. */
static void
test_threads_take_sigsys(void **state)
{
	struct error err = { 0 };
	struct guard_slot *s;
	PyGILState_STATE g;
	struct dirent *e;
	char path[64], line[256];
	unsigned long long blk;
	int guards = 0;
	FILE *f;
	DIR *d;

	g = PyGILState_Ensure();
	s = guard_slot_new(1000, &err);
	assert_non_null(s);
	assert_non_null(d = opendir("/proc/self/task"));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == getpid())
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/status",
		    e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		blk = 0;
		while (fgets(line, sizeof line, f) != NULL)
			if (sscanf(line, "SigBlk: %llx", &blk) == 1)
				break;
		fclose(f);
		/* A guard thread blocks SIGINT and leaves SIGSYS open; a
		 * sanitizer's own thread may block both, and is not counted. */
		if ((blk & (1ULL << (SIGINT - 1))) != 0 &&
		    (blk & (1ULL << (SIGSYS - 1))) == 0)
			guards++;
	}
	closedir(d);
	assert_true(guards >= 2);
	guard_slot_free(s);
	PyGILState_Release(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quick_call_untouched),
		cmocka_unit_test(test_spin_interrupted),
		cmocka_unit_test(test_swallowed_interrupt_refires),
		cmocka_unit_test(test_no_thread_leak),
		cmocka_unit_test(test_consecutive_calls_not_interrupted),
		cmocka_unit_test(test_slots_reused),
		cmocka_unit_test(test_threads_take_sigsys),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
