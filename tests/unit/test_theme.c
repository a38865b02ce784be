/* Unit tests for theme files: the format, errors naming file and line,
 * the colour fallback, and that every bundled theme parses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ui/theme.h"

static void
test_parse_roles(void **state)
{
	struct theme t;
	struct error err = { 0 };

	theme_default(&t);
	assert_int_equal(theme_parse(&t, "# c\n\nnormal = 252 on 234\n"
	    "live=bright-white on red bold reverse  # badge\n"
	    "bar = default underline\n", "x.theme", &err), 0);
	assert_int_equal(t.style[THEME_NORMAL].fg, 252);
	assert_int_equal(t.style[THEME_NORMAL].bg, 234);
	assert_int_equal(t.style[THEME_LIVE].fg, 15);
	assert_int_equal(t.style[THEME_LIVE].bg, 1);
	assert_int_equal(t.style[THEME_LIVE].attrs,
	    THEME_A_BOLD | THEME_A_REVERSE);
	assert_int_equal(t.style[THEME_BAR].fg, THEME_DEFAULT_COLOR);
	assert_int_equal(t.style[THEME_BAR].attrs, THEME_A_UNDERLINE);
	assert_string_equal(theme_role_name(THEME_VERDICT_MSG),
	    "verdict.message");
}

static void
test_parse_errors(void **state)
{
	struct theme t, before;
	struct error err = { 0 };

	theme_default(&t);
	before = t;
	assert_int_equal(theme_parse(&t, "normal = red\nbogus = red\n",
	    "a.theme", &err), -1);
	assert_string_equal(err.msg, "a.theme:2: unknown role 'bogus'");
	/* Nothing half-applied. */
	assert_memory_equal(&t, &before, sizeof t);
	assert_int_equal(theme_parse(&t, "bar = purple\n", "b.theme", &err),
	    -1);
	assert_non_null(strstr(err.msg, "b.theme:1: unknown colour"));
	assert_int_equal(theme_parse(&t, "bar = 256\n", "c.theme", &err), -1);
	assert_int_equal(theme_parse(&t, "bar red\n", "d.theme", &err), -1);
	assert_non_null(strstr(err.msg, "d.theme:1:"));
	assert_int_equal(theme_parse(&t, "bar = red on\n", "e.theme", &err),
	    -1);
	assert_int_equal(theme_parse(&t, "bar =\n", "f.theme", &err), -1);
}

static void
test_color_fit(void **state)
{
	assert_int_equal(theme_color_fit(THEME_DEFAULT_COLOR, 8),
	    THEME_DEFAULT_COLOR);
	assert_int_equal(theme_color_fit(208, 256), 208);
	assert_int_equal(theme_color_fit(3, 8), 3);
	assert_int_equal(theme_color_fit(9, 8), 1);	/* bright red */
	assert_int_equal(theme_color_fit(196, 8), 1);	/* cube red */
	assert_int_equal(theme_color_fit(46, 8), 2);	/* cube green */
	assert_int_equal(theme_color_fit(21, 8), 4);	/* cube blue */
	assert_int_equal(theme_color_fit(231, 8), 7);	/* cube white */
	assert_int_equal(theme_color_fit(16, 8), 0);	/* cube black */
	assert_int_equal(theme_color_fit(234, 16), 0);	/* dark grey */
	assert_int_equal(theme_color_fit(252, 8), 7);	/* light grey */
	assert_int_equal(theme_color_fit(12, 16), 12);
}

static void
test_bundled_themes(void **state)
{
	const char *names[] = { "default", "dark", "light", "high-contrast",
	    "monochrome" };
	struct theme t;
	struct error err = { 0 };
	char **list;
	size_t i, k;
	int found;

	setenv("FRONTS_THEMES", "themes", 1);	/* tests run from the top */
	list = theme_list();
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (theme_load(&t, names[i], &err) != 0)
			fail_msg("%s: %s", names[i], err.msg);
		assert_string_equal(t.name, names[i]);
		for (found = 0, k = 0; list[k] != NULL; k++)
			found |= strcmp(list[k], names[i]) == 0;
		assert_true(found);
	}
	for (k = 0; list[k] != NULL; k++)
		free(list[k]);
	free(list);
	theme_load(&t, "monochrome", &err);
	for (i = 0; i < THEME_COUNT; i++)
		assert_int_equal(t.style[i].bg, THEME_DEFAULT_COLOR);
	assert_int_equal(theme_load(&t, "no-such-theme", &err), -1);
	assert_non_null(strstr(err.msg, "no-such-theme"));
	assert_int_equal(theme_load(&t, "../etc", &err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_roles),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_color_fit),
		cmocka_unit_test(test_bundled_themes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
