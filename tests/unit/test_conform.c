/* Unit tests for conform: a verdict is kept by sha256, except one whose
 * every failure is a call over its time limit (the machine's load, not
 * the model's bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "runs/conform.h"

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static cJSON *
report(const char *checks)
{
	char *text;
	cJSON *j;

	xasprintf(&text, "{\"conformant\": false, \"checks\": %s}", checks);
	j = cJSON_Parse(text);
	free(text);
	assert_non_null(j);
	return j;
}

static void
test_conform_timeouts_only_not_kept(void **state)
{
	char *dir = test_tmpdir("conform");
	struct error err = { 0 };
	struct conform c, back;
	cJSON *r = report("[{\"name\": \"a\", \"status\": \"pass\"},"
	    "{\"name\": \"b\", \"status\": \"fail\", \"timed_out\": true,"
	    "\"message\": \"initial_state timed out\"}]");

	(void)state;
	assert_int_equal(conform_keep(dir, SHA, r, &c, &err), 0);
	assert_int_equal(c.state, CONFORM_FAIL);
	assert_true(c.timed_out);
	assert_string_equal(c.failed, "b");
	assert_non_null(strstr(c.not_kept, "time limit"));
	conform_read(dir, SHA, &back);
	assert_int_equal(back.state, CONFORM_UNKNOWN);
	cJSON_Delete(r);
	test_rmdir(dir);
}

static void
test_conform_real_failure_kept(void **state)
{
	char *dir = test_tmpdir("conform");
	struct error err = { 0 };
	struct conform c, back;
	cJSON *r = report("[{\"name\": \"b\", \"status\": \"fail\","
	    "\"timed_out\": true}, {\"name\": \"c\", \"status\": \"fail\","
	    "\"message\": \"apply mutated its state\"}]");

	(void)state;
	assert_int_equal(conform_keep(dir, SHA, r, &c, &err), 0);
	assert_false(c.timed_out);
	assert_string_equal(c.not_kept, "");
	conform_read(dir, SHA, &back);
	assert_int_equal(back.state, CONFORM_FAIL);
	assert_string_equal(back.failed, "b, c");
	assert_string_equal(back.message, "apply mutated its state");
	cJSON_Delete(r);
	test_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conform_timeouts_only_not_kept),
		cmocka_unit_test(test_conform_real_failure_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
