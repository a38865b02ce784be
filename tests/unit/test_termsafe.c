/* Unit tests for termsafe: what reaches the terminal of untrusted text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/termsafe.h"

static void
check_dup(const char *in, const char *want)
{
	char *s = termsafe_dup(in);

	assert_string_equal(s, want);
	free(s);
}

static void
test_plain_text_kept(void **state)
{
	check_dup("", "");
	check_dup("def apply(state):\n\treturn 1\n",
	    "def apply(state):\n\treturn 1\n");
	assert_true(termsafe_clean("a\tb\nc", 5));
}

static void
test_multibyte_kept(void **state)
{
	/* é, CJK, an emoji with ZWJ, a combining mark, U+FFFD itself,
	 * U+2028 (not a control), the highest code point. */
	const char *s = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
	    "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb e\xcc\x81 "
	    "\xef\xbf\xbd \xe2\x80\xa8 \xf4\x8f\xbf\xbf";

	check_dup(s, s);
	assert_true(termsafe_clean(s, strlen(s)));
}

static void
test_c0_and_del_shown(void **state)
{
	check_dup("a\x1b[2Kb", "a\\x1b[2Kb");
	check_dup("\x1b]52;c;aGk=\x07", "\\x1b]52;c;aGk=\\x07");
	check_dup("x\ry", "x\\ry");
	check_dup("\x01\x08\x0b\x0c\x1f\x7f", "\\x01\\x08\\x0b\\x0c\\x1f\\x7f");
	assert_false(termsafe_clean("a\rb", 3));
}

static void
test_c1_utf8_form_shown(void **state)
{
	/* U+0080, U+009B (CSI), U+009D (OSC), U+009F; U+00A0 is not C1. */
	check_dup("\xc2\x80|\xc2\x9b" "31m|\xc2\x9d|\xc2\x9f|\xc2\xa0",
	    "<U+0080>|<U+009B>31m|<U+009D>|<U+009F>|\xc2\xa0");
}

static void
test_bidi_shown(void **state)
{
	char buf[64];
	int cp;

	/* Every embedding, override and isolate; U+2029 and U+206A are
	 * their neighbours and kept. */
	for (cp = 0x202a; cp <= 0x202e; cp++) {
		snprintf(buf, sizeof buf, "%c%c%c", 0xe2, 0x80, 0x80 + cp - 0x2000);
		assert_false(termsafe_clean(buf, strlen(buf)));
	}
	for (cp = 0x2066; cp <= 0x2069; cp++) {
		snprintf(buf, sizeof buf, "%c%c%c", 0xe2, 0x81, 0x80 + cp - 0x2040);
		assert_false(termsafe_clean(buf, strlen(buf)));
	}
	check_dup("if x\xe2\x80\xae y\xe2\x81\xa6z\xe2\x81\xa9",
	    "if x<U+202E> y<U+2066>z<U+2069>");
	assert_true(termsafe_clean("\xe2\x80\xa9\xe2\x81\xaa", 6));
}

static void
test_invalid_utf8_shown(void **state)
{
	/* A lone continuation byte, a raw C1 byte, 0xff, a truncated
	 * sequence, an overlong '/', a surrogate, past U+10FFFF. */
	check_dup("a\x80z", "a\\x80z");
	check_dup("\x9b" "2J", "\\x9b2J");
	check_dup("\xff", "\\xff");
	check_dup("\xe6\x97", "\\xe6\\x97");
	check_dup("\xc0\xaf", "\\xc0\\xaf");
	check_dup("\xed\xa0\x80", "\\xed\\xa0\\x80");
	check_dup("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
}

static void
test_newline_flag(void **state)
{
	char *s = termsafe_ndup("a\nb\tc", 5, TERMSAFE_NEWLINE);

	assert_string_equal(s, "a\\nb\tc");
	free(s);
	s = termsafe_ndup("a\0b", 3, 0);	/* a NUL inside counted bytes */
	assert_string_equal(s, "a\\x00b");
	free(s);
}

static void
test_copy_never_cuts_a_form(void **state)
{
	char buf[8];

	assert_int_equal(termsafe_copy(buf, sizeof buf, "ab\x1b[2K"), 9);
	assert_string_equal(buf, "ab\\x1b[");
	assert_int_equal(termsafe_copy(buf, 5, "ab\x1b"), 6);
	assert_string_equal(buf, "ab");	/* not "ab\x" */
	assert_int_equal(termsafe_copy(buf, sizeof buf, "\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5"), 9);
	assert_string_equal(buf, "\xe6\x97\xa5\xe6\x97\xa5");	/* whole characters */
	assert_int_equal(termsafe_copy(buf, 0, "xyz"), 3);
}

static void
test_fputs_and_fprintf(void **state)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	assert_non_null(f);
	termsafe_fputs("t\x1b]0;pwned\x07", f);
	termsafe_fprintf(f, " %s:%d\n", "\xe2\x80\xae" "x", 3);
	termsafe_fwrite("\x9b", 1, f);
	fclose(f);
	assert_string_equal(mem, "t\\x1b]0;pwned\\x07 <U+202E>x:3\n\\x9b");
	assert_null(memchr(mem, 0x1b, len));
	free(mem);
}

static void
test_json_escapes(void **state)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	assert_non_null(f);
	termsafe_json_puts("{\n\t\"m\": \"a\xc2\x9b\x7f\xe2\x80\xae\xff \xc3\xa9\\u001b\"\n}", f);
	fclose(f);
	assert_string_equal(mem, "{\n\t\"m\": \"a\\u009b\\u007f\\u202e\\ufffd "
	    "\xc3\xa9\\u001b\"\n}\n");
	free(mem);
}

/* Whether s is valid UTF-8 without a control (but \n, \t) or bidi
 * character: what may reach a terminal. */
static int
shown_ok(const unsigned char *s)
{
	unsigned cp;
	int len, k;

	while (*s != '\0') {
		if (*s < 0x80) {
			if ((*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f)
				return 0;
			s++;
			continue;
		}
		len = *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc2 ? 2 : 0;
		if (len == 0)
			return 0;
		cp = *s & (0x7f >> len);
		for (k = 1; k < len; k++) {
			if ((s[k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[k] & 0x3f);
		}
		if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xd800 &&
		    cp <= 0xdfff) || cp > 0x10ffff)
			return 0;
		s += len;
	}
	return 1;
}

/* Random bytes, weighted towards the interesting ones: whatever comes in,
 * what goes out is safe, and safe input is kept byte for byte. */
static void
test_random_input(void **state)
{
	static const unsigned char pick[] = { 0x1b, 0x07, 0x0d, 0x7f, 0xc2,
	    0x9b, 0x80, 0xe2, 0x80, 0xae, 0x81, 0xa6, 0xed, 0xa0, 0xf4, 0x90,
	    0xff, 'a', '\n', '\t', 0xc3, 0xa9 };
	unsigned char in[64];
	unsigned long seed = 12345;
	char *out, copy[24];
	int round, i, n;

	for (round = 0; round < 20000; round++) {
		n = (int)(seed % 40);
		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			in[i] = (seed >> 33) % 3 == 0 ? (unsigned char)(seed >> 40) :
			    pick[(seed >> 40) % sizeof pick];
			if (in[i] == 0)
				in[i] = 'z';
		}
		in[n] = '\0';
		out = termsafe_dup((const char *)in);
		assert_true(shown_ok((const unsigned char *)out));
		if (termsafe_clean((const char *)in, (size_t)n))
			assert_string_equal(out, (const char *)in);
		assert_int_equal(termsafe_copy(copy, sizeof copy,
		    (const char *)in), strlen(out));
		assert_true(shown_ok((const unsigned char *)copy));
		assert_int_equal(strncmp(copy, out, strlen(copy)), 0);
		free(out);
		seed += (unsigned long)round;
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_kept),
		cmocka_unit_test(test_multibyte_kept),
		cmocka_unit_test(test_c0_and_del_shown),
		cmocka_unit_test(test_c1_utf8_form_shown),
		cmocka_unit_test(test_bidi_shown),
		cmocka_unit_test(test_invalid_utf8_shown),
		cmocka_unit_test(test_newline_flag),
		cmocka_unit_test(test_copy_never_cuts_a_form),
		cmocka_unit_test(test_fputs_and_fprintf),
		cmocka_unit_test(test_json_escapes),
		cmocka_unit_test(test_random_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
