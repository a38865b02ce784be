/* Unit tests for mutex and invariant: a mutex knows its holder (and no
 * other thread is told it holds it), and a broken invariant stops a
 * build with FRONTS_CHECKS, naming itself. */
#define FRONTS_CHECKS 1

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "core/invariant.h"
#include "core/mutex.h"

static void *
held_elsewhere(void *arg)
{
	return mutex_held(arg) ? arg : NULL;
}

static void
test_mutex_knows_its_holder(void **state)
{
	struct mutex mu = MUTEX_INITIALIZER;
	pthread_t t;
	void *got;

	(void)state;
	assert_false(mutex_held(&mu));
	mutex_lock(&mu);
	assert_true(mutex_held(&mu));
	assert_int_equal(pthread_create(&t, NULL, held_elsewhere, &mu), 0);
	assert_int_equal(pthread_join(t, &got), 0);
	assert_null(got);
	mutex_unlock(&mu);
	assert_false(mutex_held(&mu));
}

static void
test_mutex_wait_gives_up_and_takes_back(void **state)
{
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	struct mutex mu = MUTEX_INITIALIZER;
	struct timespec until = { 0, 0 };	/* long past: returns at once */

	(void)state;
	mutex_lock(&mu);
	assert_int_equal(mutex_timedwait(&cond, &mu, &until), ETIMEDOUT);
	assert_true(mutex_held(&mu));
	mutex_unlock(&mu);
}

/* The child breaks an invariant; its stderr goes to a pipe. */
static void
test_invariant_broken_aborts_named(void **state)
{
	struct mutex mu = MUTEX_INITIALIZER;
	char buf[512] = { 0 };
	int fd[2], st;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		INVARIANT(mutex_held(&mu));
		_exit(0);
	}
	close(fd[1]);
	assert_true(read(fd[0], buf, sizeof buf - 1) > 0);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGABRT);
	assert_non_null(strstr(buf, "invariant broken: mutex_held(&mu)"));
	assert_non_null(strstr(buf, "test_mutex.c"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutex_knows_its_holder),
		cmocka_unit_test(test_mutex_wait_gives_up_and_takes_back),
		cmocka_unit_test(test_invariant_broken_aborts_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
