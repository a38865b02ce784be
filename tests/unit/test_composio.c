/* Unit tests for what fronts sends Composio and how it reads its
 * answers: the version an execute names (the pinned one, or "latest"),
 * and Composio's versions in order whatever order they are listed in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "net/channel_int.h"
#include "net/check.h"
#include "net/pull.h"

static struct front
composio_front(const char *json)
{
	struct front f;

	memset(&f, 0, sizeof f);
	f.id = (char *)"x";
	f.platform = PLATFORM_X;
	f.account = (char *)"@acme";
	f.raw = cJSON_Parse(json);
	assert_non_null(f.raw);
	return f;
}

/* Unpinned, the execute says "latest": Composio's own pages disagree on
 * what an execute without a version runs. */
static void
test_execute_sends_version(void **state)
{
	struct front f = composio_front("{\"composio\":{\"tool\":"
	    "\"TWITTER_CREATION_OF_A_POST\",\"user_id\":\"acme\"}}");
	struct front g = composio_front("{\"composio\":{\"tool\":"
	    "\"TWITTER_CREATION_OF_A_POST\",\"version\":\"20251201_00\"}}");
	struct channel_call c;
	struct error err = { 0 };

	setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9/", 1);
	assert_int_equal(channel_open(&f, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "\"version\":\"latest\""));
	channel_close(&c);
	assert_int_equal(channel_open(&g, "hello", "e0123456789abcdef", 0, 0,
	    0, &c, &err), 0);
	assert_non_null(strstr(c.post.body, "\"version\":\"20251201_00\""));
	assert_null(strstr(c.post.body, "latest"));
	channel_close(&c);
	unsetenv("COMPOSIO_BASE_URL");
	cJSON_Delete(f.raw);
	cJSON_Delete(g.raw);
}

/* The read tool's arguments are Composio's names for X's parameters. */
static void
test_lookup_arguments(void **state)
{
	struct front f = composio_front("{\"composio\":{\"tool\":\"T\"}}");
	struct front g = composio_front("{\"composio\":{\"tool\":\"T\","
	    "\"read_tool\":\"MY_LOOKUP\"}}");

	assert_string_equal(pull_x_lookup_args[0], "id");
	assert_string_equal(pull_x_lookup_args[1], "tweet__fields");
	assert_null(pull_x_lookup_args[2]);
	assert_string_equal(pull_x_read_tool(&f),
	    "TWITTER_POST_LOOKUP_BY_POST_ID");
	assert_string_equal(pull_x_read_tool(&g), "MY_LOOKUP");
	cJSON_Delete(f.raw);
	cJSON_Delete(g.raw);
}

static void
test_version_order(void **state)
{
	assert_true(check_composio_version_cmp("20251201_00",
	    "20250909_03") > 0);
	assert_true(check_composio_version_cmp("20251201_02",
	    "20251201_10") < 0);
	assert_true(check_composio_version_cmp("20251201_10",
	    "20251201_2") > 0);	/* numbers, not text */
	assert_true(check_composio_version_cmp("00000000_00",
	    "20250101_00") < 0);
	assert_int_equal(check_composio_version_cmp("20251201_00",
	    "20251201_00"), 0);
	/* what is not a version sorts below every version */
	assert_true(check_composio_version_cmp("latest", "00000000_00") < 0);
	assert_true(check_composio_version_cmp("20251201", "00000000_00") < 0);
	assert_true(check_composio_version_cmp("2025_12_01", "00000000_00") < 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_execute_sends_version),
		cmocka_unit_test(test_lookup_arguments),
		cmocka_unit_test(test_version_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
