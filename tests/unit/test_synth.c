/* Unit tests for synthesis: code extraction from answers, the refine
 * message, and the prompt's untrusted-rules markers. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "runs/synth.h"

static void
test_extract_one_block(void **state)
{
	char *why, *code;

	code = synth_extract("Here:\n\n```python\ndef f():\n    return 1\n```\n"
	    "Done.\n", &why);
	assert_non_null(code);
	assert_null(why);
	assert_string_equal(code, "def f():\n    return 1\n");
	free(code);
}

static void
test_extract_none(void **state)
{
	char *why;

	assert_null(synth_extract("No code today.", &why));
	assert_non_null(strstr(why, "no ```python code block"));
	free(why);
}

static void
test_extract_conflicting(void **state)
{
	char *why;

	assert_null(synth_extract("```python\nx = 1\n```\nor\n```python\n"
	    "x = 2\n```\n", &why));
	assert_non_null(strstr(why, "2 different code blocks"));
	free(why);
}

static void
test_extract_identical_blocks_count_once(void **state)
{
	char *why, *code;

	code = synth_extract("```python\nx = 1\n```\nagain:\n```python\nx = 1\n"
	    "```\n", &why);
	assert_non_null(code);
	assert_string_equal(code, "x = 1\n");
	free(code);
}

static void
test_extract_python_wins_over_other(void **state)
{
	char *why, *code;

	code = synth_extract("```json\n{}\n```\n```\nplain\n```\n```py\ny = 2\n"
	    "```\n", &why);
	assert_non_null(code);
	assert_string_equal(code, "y = 2\n");
	free(code);
}

static void
test_extract_unclosed(void **state)
{
	char *why;

	assert_null(synth_extract("text\n```python\ndef f(:\n", &why));
	assert_non_null(strstr(why, "opened at line 2 is never closed"));
	free(why);
}

static void
test_refine_prompt(void **state)
{
	char *s = synth_refine_prompt(3, "line 1, col 0 [import]: no");

	assert_non_null(strstr(s, "candidate 3"));
	assert_non_null(strstr(s, "line 1, col 0 [import]: no"));
	assert_null(strstr(s, "{{"));
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extract_one_block),
		cmocka_unit_test(test_extract_none),
		cmocka_unit_test(test_extract_conflicting),
		cmocka_unit_test(test_extract_identical_blocks_count_once),
		cmocka_unit_test(test_extract_python_wins_over_other),
		cmocka_unit_test(test_extract_unclosed),
		cmocka_unit_test(test_refine_prompt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
