/* Unit tests for approval: check, add (idempotent, atomic), messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "sandbox/approval.h"

#define SHA_A "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define SHA_B "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void
test_approval_roundtrip(void **state)
{
	char dir[] = "/tmp/fronts-approval-XXXXXX", *path, *data;
	struct error err = { 0 };
	size_t len;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(approval_check(dir, SHA_A, &err), -1);
	assert_int_equal(err.code, EXIT_REFUSED);
	assert_non_null(strstr(err.msg, "fronts approve -C"));
	assert_non_null(strstr(err.msg, "`a`"));
	assert_false(approval_is_approved(dir, SHA_A));

	assert_int_equal(approval_add(dir, SHA_A, &err), 0);
	assert_int_equal(approval_add(dir, SHA_A, &err), 0);
	assert_int_equal(approval_add(dir, SHA_B, &err), 0);
	assert_int_equal(approval_check(dir, SHA_A, &err), 0);
	assert_int_equal(approval_check(dir, SHA_B, &err), 0);

	path = path_join(dir, ".fronts/approved");
	assert_int_equal(file_read(path, &data, &len, &err), 0);
	assert_string_equal(data, SHA_A "\n" SHA_B "\n");
	free(data);
	/* A prefix of an approved sha is not an approval. */
	assert_int_equal(approval_check(dir, "ba7816bf", &err), -1);
	assert_int_equal(err.code, EXIT_ERROR);
	unlink(path);
	free(path);
	path = path_join(dir, ".fronts");
	rmdir(path);
	free(path);
	rmdir(dir);
}

static void
test_approval_unreadable(void **state)
{
	char dir[] = "/tmp/fronts-approval-XXXXXX", *path;
	struct error err = { 0 };

	assert_non_null(mkdtemp(dir));
	path = path_join(dir, ".fronts");
	assert_int_equal(dir_ensure(path, &err), 0);
	free(path);
	/* The approvals "file" is a directory: an I/O error, not a refusal. */
	path = path_join(dir, ".fronts/approved");
	assert_int_equal(dir_ensure(path, &err), 0);
	assert_int_equal(approval_check(dir, SHA_A, &err), -1);
	assert_int_equal(err.code, EXIT_ERROR);
	rmdir(path);
	free(path);
	path = path_join(dir, ".fronts");
	rmdir(path);
	free(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_approval_roundtrip),
		cmocka_unit_test(test_approval_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
