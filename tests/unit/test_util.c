/* Unit tests for util: atomic writes, appends, sha256, errors. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testutil.h"
#include "core/util.h"

static void
test_sha256_known(void **state)
{
	char hex[65];

	sha256_hex("abc", 3, hex);
	assert_string_equal(hex,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* RFC 1321's test suite: the empty string and "abc". */
static void
test_md5_known(void **state)
{
	char hex[33];

	md5_hex("", 0, hex);
	assert_string_equal(hex, "d41d8cd98f00b204e9800998ecf8427e");
	md5_hex("abc", 3, hex);
	assert_string_equal(hex, "900150983cd24fb0d6963f7d28e17f72");
}

static void
test_atomic_write_roundtrip(void **state)
{
	char dir[] = "/tmp/fronts-test-XXXXXX", *path, *data;
	struct error err = { 0 };
	size_t len;

	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "f.txt");
	assert_int_equal(file_write_atomic(path, "hello", 5, &err), 0);
	assert_int_equal(file_read(path, &data, &len, &err), 0);
	assert_int_equal(len, 5);
	assert_string_equal(data, "hello");
	free(data);
	assert_int_equal(file_append_sync(path, "x", &err), 0);
	assert_int_equal(file_read(path, &data, &len, &err), 0);
	assert_string_equal(data, "hellox\n");
	free(data);
	unlink(path);
	rmdir(dir);
	free(path);
}

static void
test_write_into_missing_dir_fails(void **state)
{
	struct error err = { 0 };

	assert_int_equal(file_write_atomic("/nonexistent/dir/f", "x", 1, &err), -1);
	assert_int_equal(err.code, EXIT_ERROR);
	assert_non_null(strstr(err.msg, "/nonexistent/dir/f"));
}

/*
 * This binary's fsync() stands in for libc's (the executable's symbol wins
 * over the shared library's): with fail_dir_fsync set, syncing a directory
 * fails as it does on a dying disk.
 */
static int fail_dir_fsync;

int
fsync(int fd)
{
	struct stat sb;

	if (fail_dir_fsync && fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

/* util.h promises the directory is synced: when that fails, so does the
 * write, with or without an err to fill. */
static void
test_dir_sync_failure_is_an_error(void **state)
{
	char dir[] = "/tmp/fronts-test-XXXXXX", *path, *sub;
	struct error err = { 0 };

	assert_non_null(mkdtemp(dir));
	path = path_join(dir, "f.txt");
	sub = path_join(dir, "a/b");
	fail_dir_fsync = 1;
	assert_int_equal(file_write_atomic(path, "hello", 5, &err), -1);
	assert_non_null(strstr(err.msg, "cannot sync the directory"));
	assert_non_null(strstr(err.msg, "f.txt"));
	assert_int_equal(file_write_atomic(path, "hello", 5, NULL), -1);
	unlink(path);
	memset(&err, 0, sizeof err);
	assert_int_equal(file_append_sync(path, "x", &err), -1);
	assert_non_null(strstr(err.msg, "cannot sync the directory"));
	/* An existing file gains no directory entry: nothing to sync. */
	assert_int_equal(file_append_sync(path, "y", &err), 0);
	assert_int_equal(dir_ensure(sub, &err), -1);
	assert_int_equal(dir_ensure(sub, NULL), -1);
	fail_dir_fsync = 0;
	assert_int_equal(dir_ensure(sub, &err), 0);
	assert_int_equal(file_write_atomic(path, "hello", 5, NULL), 0);
	unlink(path);
	rmdir(sub);
	free(sub);
	sub = path_join(dir, "a");
	rmdir(sub);
	rmdir(dir);
	free(sub);
	free(path);
}

static void
test_error_wrap(void **state)
{
	struct error err = { 0 };

	error_set(&err, EXIT_REFUSED, "inner %d", 7);
	error_wrap(&err, "outer");
	assert_string_equal(err.msg, "outer: inner 7");
	assert_int_equal(err.code, EXIT_REFUSED);
}

static void *
self_path_of(void *arg)
{
	return (void *)self_exe_path();
}

/* Two threads asking for the binary's path at once (the planner's and the
 * accuracy view's both start workers) get the same reading; under TSan
 * (make tsan) a racy first reading is reported. */
static void
test_self_exe_path_threads(void **state)
{
	pthread_t a, b;
	void *pa, *pb;

	(void)state;
	assert_int_equal(pthread_create(&a, NULL, self_path_of, NULL), 0);
	assert_int_equal(pthread_create(&b, NULL, self_path_of, NULL), 0);
	assert_int_equal(pthread_join(a, &pa), 0);
	assert_int_equal(pthread_join(b, &pb), 0);
	assert_non_null(pa);
	assert_ptr_equal(pa, pb);
	assert_non_null(strstr(pa, "test_util"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_known),
		cmocka_unit_test(test_md5_known),
		cmocka_unit_test(test_atomic_write_roundtrip),
		cmocka_unit_test(test_write_into_missing_dir_fails),
		cmocka_unit_test(test_error_wrap),
		cmocka_unit_test(test_dir_sync_failure_is_an_error),
		cmocka_unit_test(test_self_exe_path_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
