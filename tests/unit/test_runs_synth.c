/* Unit tests for runs/synth_job.c, the whole synthesis the CLI and the
 * TUI's thread both run, on the bundled demo project: a cancel flag set
 * (as the TUI sets it when it quits) stops the provider's rounds and the
 * builtin's sandboxed validation, and nothing is written, neither the
 * model nor a report; the progress callback hears each step, the
 * fallback to recordings included. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/demo.h"
#include "core/project.h"
#include "runs/synth_job.h"
#include "sandbox/worker.h"

#ifndef TOP
#define TOP "."
#endif

struct fx {
	char		*dir;
	char		*model;		/* model.py as scaffolded */
	struct project	*p;
	char		 lines[8][512];	/* progress heard */
	int		 nlines;
};

static void
fx_progress(void *arg, const char *line)
{
	struct fx *x = arg;

	if (x->nlines < 8)
		snprintf(x->lines[x->nlines++], sizeof x->lines[0], "%s", line);
}

static int
setup(void **state)
{
	struct fx *x = xcalloc(1, sizeof *x);
	const char *bin = getenv("FRONTS_BIN");
	struct error err = { 0 };
	char *path;

	worker_set_binary(bin != NULL ? bin : TOP "/build/fronts");
	unsetenv("ANTHROPIC_API_KEY");
	x->dir = test_tmpdir("runs-synth");
	assert_int_equal(demo_scaffold(x->dir, false, &err), 0);
	path = path_join(x->dir, "model.py");
	assert_int_equal(file_read(path, &x->model, NULL, &err), 0);
	free(path);
	assert_int_equal(project_load(x->dir, &x->p, &err), 0);
	*state = x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *x = *state;

	project_free(x->p);
	free(x->model);
	test_rmdir(x->dir);
	free(x);
	return 0;
}

/* Nothing of a stopped synthesis is on disk: model.py as it was, no
 * synth-*.json report. */
static void
fx_nothing_written(struct fx *x)
{
	struct error err = { 0 };
	struct dirent *de;
	char *path = path_join(x->dir, "model.py"), *now, *fdir;
	DIR *d;

	assert_int_equal(file_read(path, &now, NULL, &err), 0);
	assert_string_equal(now, x->model);
	free(now);
	free(path);
	fdir = path_join(x->dir, ".fronts");
	if ((d = opendir(fdir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			assert_true(strncmp(de->d_name, "synth-", 6) != 0);
		closedir(d);
	}
	free(fdir);
}

/* No key: the recordings answer, and the callback says so; stopped
 * before the first round, nothing is asked and nothing written. */
static void
test_stopped_before_a_round(void **state)
{
	struct fx *x = *state;
	atomic_bool cancel;
	struct synth_job_opts o = { .dir = x->dir, .progress = fx_progress,
	    .progress_arg = x, .cancel = &cancel };
	struct synth_job_result r;
	struct error err = { 0 };

	atomic_init(&cancel, true);
	assert_int_equal(synth_job_run(x->p, &o, &r, &err), -1);
	assert_non_null(strstr(err.msg, "synthesis was stopped"));
	assert_true(x->nlines >= 1);
	assert_non_null(strstr(x->lines[0], "ANTHROPIC_API_KEY is not set; "
	    "answering from recordings"));
	assert_null(r.written);
	assert_null(r.report);
	assert_int_equal(r.r.ncands, 0);
	synth_job_result_free(&r);
	fx_nothing_written(x);
}

/* The builtin candidate's validation in the sandbox worker is stopped,
 * and the candidate, though it exists, is not written. */
static void
test_builtin_validation_stopped(void **state)
{
	struct fx *x = *state;
	atomic_bool cancel;
	struct synth_job_opts o = { .dir = x->dir, .provider = "builtin",
	    .progress = fx_progress, .progress_arg = x, .cancel = &cancel };
	struct synth_job_result r;
	struct error err = { 0 };

	atomic_init(&cancel, true);
	assert_int_equal(synth_job_run(x->p, &o, &r, &err), -1);
	assert_non_null(strstr(err.msg, "stopped"));
	assert_non_null(strstr(x->lines[0], "round 1: the builtin model"));
	assert_int_equal(r.r.ncands, 1);
	assert_true(r.r.cands[0].gate_accepted);
	assert_non_null(r.r.cands[0].validation_error);
	assert_non_null(strstr(r.r.cands[0].validation_error,
	    "the validation was stopped"));
	assert_false(r.r.cands[0].all_pass);
	assert_null(r.written);
	assert_null(r.report);
	synth_job_result_free(&r);
	fx_nothing_written(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stopped_before_a_round,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_builtin_validation_stopped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
