/*
 * test_planner — the planner driving its workers: stopped mid-search it
 * merges every worker's tree into a plan; when no worker answers the stop,
 * each is killed after the grace period and the error and notes say so.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runs/planner.h"
#include "sandbox/worker.h"

#ifndef TOP
#define TOP "."
#endif

static int
setup(void **state)
{
	const char *bin = getenv("FRONTS_BIN");

	worker_set_binary(bin != NULL ? bin : TOP "/build/fronts");
	return 0;
}

static void
assert_no_children(void)
{
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static struct planner *
stop_planner(struct project **p, const char *model_path, int workers,
    char **src)
{
	struct search_params sp = { .iterations = 1000000000, .seed = 1,
	    .workers = workers, .isolation = ISOLATION_PROCESS,
	    .call_timeout_ms = 100 };
	struct planner *pr;
	struct error err;
	size_t len;

	assert_int_equal(project_load(TOP "/fixtures/demo", p, &err), 0);
	assert_int_equal(file_read(model_path, src, &len, &err), 0);
	if (planner_start(*p, *src, len, &sp, &pr, &err) != 0)
		fail_msg("%s", err.msg);
	return pr;
}

/* The planner stopped mid-search: every worker's tree merged, a plan. */
static void
test_planner_stop(void **state)
{
	struct search_snapshot *snap = calloc(1, sizeof *snap);
	struct planner *pr;
	struct project *p;
	struct error err;
	struct plan pl;
	char *const *notes;
	char *src;

	pr = stop_planner(&p, TOP "/fixtures/demo/model.py", 2, &src);
	do {
		planner_snapshot(pr, snap);
		assert_true(planner_running(pr));
		usleep(20000);
	} while (snap->iterations == 0);
	planner_stop(pr);
	if (planner_wait(pr, &pl, &err) != 0)
		fail_msg("%s", err.msg);
	assert_true(pl.stats.stopped);
	assert_true(pl.stats.iterations > 0);
	assert_true(pl.stats.iterations < 1000000000);
	assert_int_equal(pl.stats.workers, 2);
	assert_true(pl.nposts > 0);
	assert_int_equal(planner_notes(pr, &notes), 0);
	planner_snapshot(pr, snap);
	assert_int_equal(snap->state, SEARCH_STOPPED);
	assert_int_equal(snap->iterations, pl.stats.iterations);
	assert_no_children();
	plan_free(&pl);
	planner_free(pr);
	project_free(p);
	free(snap);
	free(src);
}

/* No worker answered: each was killed after the grace, the error says so. */
static void
test_planner_stop_unanswered(void **state)
{
	struct planner *pr;
	struct project *p;
	struct error err;
	struct plan pl;
	char *const *notes;
	char *src;
	int i;

	pr = stop_planner(&p, TOP "/tests/hostile/loadhang.py", 2, &src);
	planner_stop(pr);
	assert_int_equal(planner_wait(pr, &pl, &err), -1);
	assert_int_equal(err.code, EXIT_MODEL);
	if (strstr(err.msg, "no worker answered the stop") == NULL)
		fail_msg("%s", err.msg);
	assert_int_equal(planner_notes(pr, &notes), 2);
	for (i = 0; i < 2; i++)
		if (strstr(notes[i], "did not answer the stop within 2.0 s") ==
		    NULL || strstr(notes[i], "tree was lost") == NULL)
			fail_msg("%s", notes[i]);
	assert_no_children();
	planner_free(pr);
	project_free(p);
	free(src);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planner_stop),
		cmocka_unit_test(test_planner_stop_unanswered),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
