/* Unit tests for core/json: the typed lookups and the wording of the
 * checked readers' errors (file, line, field path, what was got). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"

static cJSON *
parse(const char *text)
{
	cJSON *j = cJSON_Parse(text);

	assert_non_null(j);
	return j;
}

static void
test_lookups(void **state)
{
	cJSON *j = parse("{\"s\":\"a\",\"e\":\"\",\"n\":2.5,\"b\":true}");
	const char *s = NULL;
	double d = 0;
	long n;

	assert_string_equal(json_str(j, "s"), "a");
	assert_string_equal(json_str(j, "e"), "");
	assert_null(json_str(j, "n"));
	assert_null(json_str_nonempty(j, "e"));
	assert_null(json_str(NULL, "s"));
	assert_true(json_num_or(j, "n", 7) == 2.5);
	assert_true(json_num_or(j, "b", 7) == 7);
	assert_int_equal(json_number(j, "n", &d), JSON_OK);
	assert_true(d == 2.5);
	assert_int_equal(json_number(j, "x", &d), JSON_ABSENT);
	assert_int_equal(json_number(j, "s", &d), JSON_WRONG_TYPE);
	assert_int_equal(json_string(j, "s", &s), JSON_OK);
	assert_string_equal(s, "a");
	assert_int_equal(json_string(j, "b", &s), JSON_WRONG_TYPE);
	assert_false(json_int_in(cJSON_GetObjectItem(j, "n"), 0, 9, &n));
	cJSON_Delete(j);
	j = parse("[3, -1, 1e300]");
	assert_true(json_int_in(cJSON_GetArrayItem(j, 0), 0, 9, &n));
	assert_int_equal(n, 3);
	assert_false(json_int_in(cJSON_GetArrayItem(j, 1), 0, 9, &n));
	assert_false(json_int_in(cJSON_GetArrayItem(j, 2), 0, 9, &n));
	cJSON_Delete(j);
}

static void
test_fail_wording(void **state)
{
	struct error err = { 0 };
	struct json_loc l = { "f.jsonl", 3, &err, NULL, NULL };
	cJSON *j = parse("{\"long\":\"0123456789012345678901234567890123456789xyz\","
	    "\"n\":\"x\",\"t\":[\"a\",\"\"]}");
	int v = 5;
	char **t;
	int nt;
	char *s;

	assert_int_equal(json_fail(&l, "a.b", cJSON_GetObjectItem(j, "n"),
	    "expected %s", "it"), -1);
	assert_string_equal(err.msg, "f.jsonl:3: field \"a.b\": expected it, "
	    "got \"x\"");
	json_fail(&l, "long", cJSON_GetObjectItem(j, "long"), "too long");
	assert_string_equal(err.msg, "f.jsonl:3: field \"long\": too long, "
	    "got \"012345678901234567890123456789012345...");
	l.line = 0;
	json_fail(&l, NULL, NULL, "whole");
	assert_string_equal(err.msg, "f.jsonl: whole");
	assert_int_equal(json_get_int(&l, j, "top", "n", false, 1, 9, &v), -1);
	assert_string_equal(err.msg, "f.jsonl: field \"top.n\": expected an "
	    "integer in 1..9, got \"x\"");
	assert_int_equal(json_get_int(&l, j, "", "absent", false, 1, 9, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(json_get_string(&l, j, "", "absent", JSON_FILLED, &s),
	    -1);
	assert_null(s);
	assert_string_equal(err.msg, "f.jsonl: field \"absent\": missing; "
	    "expected a non-empty string");
	assert_int_equal(json_get_strings(&l, j, "t", &t, &nt), -1);
	assert_string_equal(err.msg, "f.jsonl: field \"t[1]\": expected a "
	    "non-empty string, got \"\"");
	assert_int_equal(nt, 1);
	json_strings_free(t, nt);
	cJSON_Delete(j);
}

static int
count_line(const struct json_loc *l, const cJSON *obj, void *arg)
{
	int *lines = arg;

	*lines = *lines * 10 + l->line;
	return json_str(obj, "stop") != NULL ?
	    json_fail(l, "stop", NULL, "stopped") : 0;
}

static void
test_lines_and_warnings(void **state)
{
	static const char *const known[] = { "a", NULL };
	const char *text = "{\"a\":1}\n\n  \r\n{\"b\":2}\r\n{\"stop\":\"\"}\n{}\n";
	struct error err = { 0 };
	char **w = NULL;
	int nw = 0, lines = 0;
	struct json_loc l = { "x.jsonl", 0, &err, &w, &nw };
	cJSON *j;

	assert_int_equal(json_each_line(&l, text, strlen(text), count_line,
	    &lines), -1);
	assert_int_equal(lines, 145);
	assert_string_equal(err.msg, "x.jsonl:5: field \"stop\": stopped");
	l.line = 2;
	assert_null(json_parse_object(&l, "{\"a\":", 5));
	assert_string_equal(err.msg, "x.jsonl:2: invalid JSON at column 5; "
	    "expected one JSON object per line");
	l.line = 0;
	assert_null(json_parse_object(&l, "{}\n[", 4));
	assert_string_equal(err.msg, "x.jsonl: invalid JSON at line 2, "
	    "column 1");
	assert_null(json_parse_object(&l, "[]", 2));
	assert_string_equal(err.msg, "x.jsonl: expected a JSON object");
	j = parse("{\"a\":1,\"zz\":2}");
	json_warn_unknown(&l, j, "p", known);
	assert_int_equal(nw, 1);
	assert_string_equal(w[0], "x.jsonl: field \"p.zz\": unknown field, "
	    "ignored");
	json_strings_free(w, nw);
	cJSON_Delete(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_fail_wording),
		cmocka_unit_test(test_lines_and_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
