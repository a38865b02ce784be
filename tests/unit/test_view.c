/* Unit tests for what the TUI shows: the Search pane's rows from a
 * snapshot, cell widths of wide and combining text, word wrap, and the
 * Python colouring spans. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "testutil.h"
#include "core/timeutil.h"
#include "ui/pyhl.h"
#include "ui/textw.h"
#include "ui/view.h"

static struct front fronts[2] = {
	{ .id = "x", .platform = PLATFORM_X, .account = "@acme" },
	{ .id = "bsky", .platform = PLATFORM_BLUESKY, .account = "acme" },
};
static struct draft drafts[3] = {
	{ .id = "d1", .text = "one" }, { .id = "d2", .text = "two" },
	{ .id = "d3", .text = "three" },
};
static struct project proj = {
	.name = "t", .timezone = "UTC", .start = 1796112000, /* 2026-12-01 08:00Z */
	.slot_minutes = 60, .horizon_slots = 24, .fronts = fronts,
	.nfronts = 2, .drafts = drafts, .ndrafts = 3,
};

static struct search_edge
edge(int kind, int d, int f, int slot, uint64_t visits, double mean)
{
	struct search_edge e;

	memset(&e, 0, sizeof e);
	e.action.kind = (uint16_t)kind;
	e.action.draft = (uint32_t)d;
	e.action.front = (uint16_t)f;
	e.slot = slot;
	e.visits = visits;
	e.mean = mean;
	e.reward_mean = mean / 2;
	e.ci_lo = mean / 2 - 1;
	e.ci_hi = mean / 2 + 1;
	return e;
}

static void
test_search_rows(void **state)
{
	static struct search_snapshot s;
	struct view_row rows[64];
	int n;

	memset(&s, 0, sizeof s);
	s.state = SEARCH_RUNNING;
	s.nroot = 3;
	s.root[0] = edge(ACTION_POST, 2, 0, 0, 800, 40);
	s.root[1] = edge(ACTION_WAIT, 0, 0, 0, 400, 30);
	s.root[2] = edge(ACTION_POST, 0, 1, 0, 200, 20);
	s.npv = 3;
	s.pv[0] = s.root[0];
	s.pv[1] = edge(ACTION_WAIT, 0, 0, 0, 500, 35);
	s.pv[2] = edge(ACTION_POST, 1, 1, 1, 250, 12);

	n = view_search_rows(&proj, &s, false, rows, 64);
	assert_int_equal(n, 3);
	assert_string_equal(rows[0].label, "Tue 01 08:00 post d3 → x");
	assert_true(rows[0].expandable);
	assert_false(rows[0].expanded);
	assert_string_equal(rows[1].label, "Tue 01 08:00 wait");
	assert_false(rows[1].expandable);
	assert_string_equal(rows[2].label, "Tue 01 08:00 post d1 → bsky");
	assert_true(rows[0].frac == 1.0);
	assert_true(rows[1].frac == 0.5);
	assert_true(rows[2].frac == 0.25);
	assert_int_equal(rows[2].visits, 200);
	assert_true(rows[0].reward == 20 && rows[0].ci_lo == 19 &&
	    rows[0].ci_hi == 21);

	/* Expanded: the PV hangs under the first child, before the others. */
	n = view_search_rows(&proj, &s, true, rows, 64);
	assert_int_equal(n, 5);
	assert_true(rows[0].expanded);
	assert_int_equal(rows[1].depth, 1);
	assert_string_equal(rows[1].label, "Tue 01 08:00 wait");
	assert_int_equal(rows[2].depth, 2);
	assert_string_equal(rows[2].label, "Tue 01 09:00 post d2 → bsky");
	assert_true(rows[2].frac == 0.5);
	assert_int_equal(rows[3].depth, 0);

	/* Bounded by max, never past it. */
	assert_int_equal(view_search_rows(&proj, &s, true, rows, 2), 2);
	/* An empty snapshot has no rows. */
	memset(&s, 0, sizeof s);
	assert_int_equal(view_search_rows(&proj, &s, true, rows, 64), 0);
}

static void
test_search_header(void **state)
{
	static struct search_snapshot s;
	char buf[256];

	memset(&s, 0, sizeof s);
	s.state = SEARCH_DONE;
	s.iterations = 20000;
	s.rate = 4123.4;
	s.model_calls = 412345;
	s.workers = 2;
	s.elapsed = 3.04;
	s.nodes = 999;
	view_search_header(&s, buf, sizeof buf);
	assert_string_equal(buf, "done · 20.0k it · 4123 it/s · 412.3k model "
	    "calls · 2 workers · 3.0 s · 999 nodes");
	view_count(1234567, buf, sizeof buf);
	assert_string_equal(buf, "1.23M");
}

static void
test_widths(void **state)
{
	const char *cjk = "漢字", *emoji = "a😀b", *comb = "e\xcc\x81x";
	wchar_t w[32];
	size_t used;
	int cols, n;

	assert_int_equal(textw_width(cjk, strlen(cjk)), 4);
	assert_int_equal(textw_width(emoji, strlen(emoji)), 4);
	assert_int_equal(textw_width(comb, strlen(comb)), 2);	/* é x */
	assert_int_equal(textw_width("a\tb", 3), 2 + TEXTW_TAB);
	assert_int_equal(textw_width("\xff", 1), 4);	/* invalid: \xff */
	assert_int_equal(textw_width("\xe2\x80\xae", 3), 8);	/* <U+202E> */

	/* A wide character never straddles the clip. */
	n = textw_decode(cjk, strlen(cjk), 3, w, 32, &cols, &used);
	assert_int_equal(n, 1);
	assert_int_equal(cols, 2);
	assert_int_equal(used, 3);
	/* A combining mark stays with its base. */
	n = textw_decode(comb, strlen(comb), 1, w, 32, &cols, &used);
	assert_int_equal(n, 2);
	assert_int_equal(cols, 1);
	assert_true(w[0] == L'e' && w[1] == 0x301);
	/* Control and bidi characters are drawn visibly, never sent raw,
	 * and a visible form is never cut by the clip. */
	n = textw_decode("a\033[2Jb", 6, 10, w, 32, &cols, &used);
	assert_true(wcscmp(w, L"a\\x1b[2Jb") == 0);
	assert_int_equal(cols, 9);
	n = textw_decode("x\xe2\x80\xaey\xc2\x9b\n", 8, 40, w, 32, &cols,
	    &used);
	assert_true(wcscmp(w, L"x<U+202E>y<U+009B>\\n") == 0);
	n = textw_decode("ab\033c", 4, 4, w, 32, &cols, &used);
	assert_true(wcscmp(w, L"ab") == 0);
	assert_int_equal(used, 2);
	/* The output buffer bounds the count. */
	n = textw_decode("abcdef", 6, 10, w, 4, &cols, &used);
	assert_int_equal(n, 3);
	assert_int_equal(used, 3);
}

static void
test_wrap(void **state)
{
	const char *s = "hello wide 世界 world", *p = s;
	size_t n = strlen(s), len, next;
	char line[64];
	int k = 0;
	const char *want[] = { "hello", "wide 世界", "world" };

	while (n > 0) {
		len = textw_wrap(p, n, 9, &next);
		assert_true(k < 3);
		memcpy(line, p, len);
		line[len] = '\0';
		assert_string_equal(line, want[k++]);
		assert_true(textw_width(p, len) <= 9);
		p += next;
		n -= next;
	}
	assert_int_equal(k, 3);
	/* A word longer than the line is cut by cells. */
	len = textw_wrap("abcdefghij", 10, 4, &next);
	assert_int_equal(len, 4);
	assert_int_equal(next, 4);
	/* Newlines end lines. */
	len = textw_wrap("ab\ncd", 5, 40, &next);
	assert_int_equal(len, 2);
	assert_int_equal(next, 3);
}

/* A 16 MiB paragraph with no newline wraps into 80-cell rows, each row
 * read once (the old wrap searched the whole rest for a newline on every
 * row: some 1.7 * 10^12 bytes here, 22 s at 8 MiB). */
static void
test_wrap_long(void **state)
{
	size_t n = 16u << 20, off = 0, len, next, rows = 0;
	char *s = malloc(n);

	assert_non_null(s);
	memset(s, 'w', n);
	while (off < n) {
		len = textw_wrap(s + off, n - off, 80, &next);
		assert_int_equal(len, n - off < 80 ? n - off : 80);
		off += next;
		rows++;
	}
	assert_int_equal(rows, (n + 79) / 80);
	free(s);
}

static void
test_pyhl(void **state)
{
	const char *l1 = "def f(x):  # note", *l2 = "    s = \"\"\"doc",
	    *l3 = "end\"\"\" + 'q' + 12.5";
	struct pyhl_span sp[32];
	int st = 0, n;

	n = pyhl_line(l1, strlen(l1), &st, sp, 32);
	assert_true(n >= 3);
	assert_int_equal(sp[0].kind, PYHL_KEYWORD);
	assert_int_equal(sp[0].end, 3);
	assert_int_equal(sp[n - 1].kind, PYHL_COMMENT);
	assert_int_equal(sp[n - 1].start, 11);
	assert_int_equal(st, 0);
	n = pyhl_line(l2, strlen(l2), &st, sp, 32);
	assert_int_equal(sp[n - 1].kind, PYHL_STRING);
	assert_int_equal(sp[n - 1].start, 8);
	assert_int_equal(st, '"');
	n = pyhl_line(l3, strlen(l3), &st, sp, 32);
	assert_int_equal(sp[0].kind, PYHL_STRING);
	assert_int_equal(sp[0].end, 6);
	assert_int_equal(st, 0);
	assert_int_equal(sp[n - 1].kind, PYHL_NUMBER);
	/* Spans tile the line. */
	assert_int_equal(sp[n - 1].end, strlen(l3));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_rows),
		cmocka_unit_test(test_search_header),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wrap_long),
		cmocka_unit_test(test_pyhl),
	};

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		return 1;
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
