/* Unit tests for lock and statedir: one holder per project, the holder
 * named, and a .fronts that could send a write elsewhere refused. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "core/lock.h"
#include "core/statedir.h"

static void
test_lock_second_taker_named_refusal(void **state)
{
	char *dir = test_tmpdir("lock"), pid[32];
	struct project_lock *a = NULL, *b = NULL;
	struct error err = { 0 };

	assert_int_equal(project_lock_take(dir, "fronts publish --live", false,
	    &a, &err), 0);
	assert_non_null(a);
	/* A second open file description in this process is a second
	 * taker, as another process would be. */
	assert_int_equal(project_lock_take(dir, "fronts ledger resolve", false,
	    &b, &err), -1);
	assert_null(b);
	assert_int_equal(err.code, EXIT_ERROR);
	snprintf(pid, sizeof pid, "held by pid %ld (", (long)getpid());
	assert_non_null(strstr(err.msg, pid));
	assert_non_null(strstr(err.msg, "(fronts publish --live) since "));
	project_lock_release(a);
	assert_int_equal(project_lock_take(dir, "fronts ledger resolve", false,
	    &b, &err), 0);
	project_lock_release(b);
	project_lock_release(NULL);
	test_rmdir(dir);
}

/* A session hold (fronts run) lets this process's own takes nest inside
 * it; once it is released a take is a taker of its own again. */
static void
test_lock_hold_nests(void **state)
{
	char *dir = test_tmpdir("lock");
	struct project_lock *h = NULL, *a = NULL, *b = NULL, *c = NULL;
	struct error err = { 0 };

	assert_int_equal(project_lock_hold(dir, "fronts run --live", &h,
	    &err), 0);
	assert_int_equal(project_lock_take(dir, "fronts publish", false, &a,
	    &err), 0);
	assert_int_equal(project_lock_take(dir, "fronts history pull", false,
	    &b, &err), 0);
	project_lock_release(b);
	project_lock_release(a);
	assert_int_equal(project_lock_take(dir, "fronts publish", false, &a,
	    &err), 0);
	project_lock_release(a);
	project_lock_release(h);
	assert_int_equal(project_lock_take(dir, "fronts publish", false, &a,
	    &err), 0);
	assert_int_equal(project_lock_take(dir, "fronts publish", false, &c,
	    &err), -1);
	project_lock_release(a);
	free(dir);
}

static void
test_lock_symlink_refused(void **state)
{
	char *dir = test_tmpdir("lock"), *fdir, *lock;
	struct project_lock *a = NULL;
	struct error err = { 0 };

	fdir = path_join(dir, ".fronts");
	lock = path_join(fdir, "lock");
	assert_int_equal(mkdir(fdir, 0700), 0);
	assert_int_equal(symlink("/tmp/fronts-lock-elsewhere", lock), 0);
	assert_int_equal(project_lock_take(dir, "x", false, &a, &err), -1);
	assert_non_null(strstr(err.msg, "lock is a symlink"));
	assert_int_equal(access("/tmp/fronts-lock-elsewhere", F_OK), -1);
	unlink(lock);
	free(lock);
	free(fdir);
	test_rmdir(dir);
}

static void
test_statedir_group_writable_refused(void **state)
{
	char *dir = test_tmpdir("lock"), *fdir;
	struct error err = { 0 };
	int dfd;

	fdir = path_join(dir, ".fronts");
	assert_int_equal(mkdir(fdir, 0700), 0);
	assert_int_equal(chmod(fdir, 0777), 0);
	assert_int_equal(statedir_open(dir, false, &dfd, &err), -1);
	assert_non_null(strstr(err.msg, "can be written by others"));
	assert_non_null(strstr(err.msg, "chmod go-w"));
	assert_int_equal(chmod(fdir, 0750), 0);
	assert_int_equal(statedir_open(dir, false, &dfd, &err), 0);
	close(dfd);
	free(fdir);
	test_rmdir(dir);
}

static void
test_statedir_append_through_symlinked_dir_refused(void **state)
{
	char *dir = test_tmpdir("lock"), *fdir, *sub, *data;
	struct error err = { 0 };
	size_t len;

	fdir = path_join(dir, ".fronts");
	sub = path_join(fdir, "trajectories");
	assert_int_equal(mkdir(fdir, 0700), 0);
	assert_int_equal(symlink("/tmp", sub), 0);
	assert_int_equal(statedir_append(dir, "trajectories/publish.jsonl",
	    "x", &err), -1);
	assert_non_null(strstr(err.msg, "is a symlink"));
	assert_int_equal(statedir_append(dir, "a/b.jsonl", "x", &err), 0);
	assert_int_equal(statedir_read(dir, "a/b.jsonl", &data, &len, &err), 0);
	assert_string_equal(data, "x\n");
	free(data);
	assert_int_equal(statedir_read(dir, "missing", &data, &len, &err), 1);
	assert_int_equal(statedir_write(dir, "a/b.jsonl", "yz", 2, &err), 0);
	assert_int_equal(statedir_read(dir, "a/b.jsonl", &data, &len, &err), 0);
	assert_string_equal(data, "yz");
	free(data);
	unlink(sub);
	free(sub);
	free(fdir);
	test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_second_taker_named_refusal),
		cmocka_unit_test(test_lock_hold_nests),
		cmocka_unit_test(test_lock_symlink_refused),
		cmocka_unit_test(test_statedir_group_writable_refused),
		cmocka_unit_test(test_statedir_append_through_symlinked_dir_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
