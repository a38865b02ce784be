/* Unit tests for the TUI layout: grid, stacked, zoom, hit testing, and
 * that panes never overlap or leave the screen. */
#include <string.h>

#include "testutil.h"
#include "ui/layout.h"

static void
check_inside(const struct layout *l, int rows, int cols)
{
	int i, j;
	const struct rect *a, *b;

	for (i = 0; i < PANE_COUNT; i++) {
		if (!l->visible[i])
			continue;
		a = &l->pane[i];
		assert_true(a->y >= 0 && a->x >= 0);
		assert_true(a->y + a->h <= rows - 1);	/* status line free */
		assert_true(a->x + a->w <= cols);
		for (j = i + 1; j < PANE_COUNT; j++) {
			if (!l->visible[j])
				continue;
			b = &l->pane[j];
			assert_false(a->y < b->y + b->h && b->y < a->y + a->h &&
			    a->x < b->x + b->w && b->x < a->x + a->w);
		}
	}
	assert_int_equal(l->status.y, rows - 1);
	assert_int_equal(l->status.w, cols);
}

static int
covered(const struct layout *l)
{
	int i, s = 0;

	for (i = 0; i < PANE_COUNT; i++)
		if (l->visible[i])
			s += l->pane[i].h * l->pane[i].w;
	return s;
}

static void
test_grid_large(void **state)
{
	struct layout l;

	layout_compute(40, 120, PANE_RULES, false, &l);
	assert_false(l.stacked);
	check_inside(&l, 40, 120);
	assert_int_equal(covered(&l), 39 * 120);
	/* Rules and Model share the left column, Search and Candidates the
	 * right one. */
	assert_int_equal(l.pane[PANE_RULES].x, l.pane[PANE_MODEL].x);
	assert_int_equal(l.pane[PANE_SEARCH].x, l.pane[PANE_CANDIDATES].x);
	assert_true(l.pane[PANE_SEARCH].x > 0);
	assert_int_equal(layout_hit(&l, 0, 0), PANE_RULES);
	assert_int_equal(layout_hit(&l, 38, 119), PANE_CANDIDATES);
	assert_int_equal(layout_hit(&l, 39, 5), -1);	/* status line */
}

static void
test_stacked_small(void **state)
{
	struct layout l;
	int f;

	for (f = 0; f < PANE_COUNT; f++) {
		layout_compute(24, 80, f, false, &l);
		assert_true(l.stacked);
		check_inside(&l, 24, 80);
		assert_int_equal(covered(&l), 23 * 80);
		/* The focused pane gets the room; the others stay visible. */
		assert_true(l.pane[f].h >= 10);
		assert_int_equal(l.visible[0] + l.visible[1] + l.visible[2] +
		    l.visible[3], 4);
		assert_int_equal(layout_hit(&l, l.pane[f].y + 1, 3), f);
	}
}

static void
test_zoom(void **state)
{
	struct layout l;

	layout_compute(40, 120, PANE_SEARCH, true, &l);
	check_inside(&l, 40, 120);
	assert_true(l.visible[PANE_SEARCH]);
	assert_false(l.visible[PANE_RULES]);
	assert_int_equal(l.pane[PANE_SEARCH].h, 39);
	assert_int_equal(l.pane[PANE_SEARCH].w, 120);
}

static void
test_tiny_and_degenerate(void **state)
{
	struct layout l;
	int rows, cols;

	for (rows = 1; rows < 30; rows++)
		for (cols = 1; cols < 130; cols += 7) {
			layout_compute(rows, cols, PANE_MODEL, false, &l);
			check_inside(&l, rows, cols);
		}
	layout_compute(8, 40, PANE_MODEL, false, &l);
	assert_true(l.visible[PANE_MODEL]);
	assert_true(l.pane[PANE_MODEL].h >= 3);
	layout_compute(0, 0, 0, false, &l);
	assert_int_equal(layout_hit(&l, 0, 0), -1);
	layout_compute(40, 120, 99, false, &l);	/* bad focus: first pane */
	check_inside(&l, 40, 120);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_large),
		cmocka_unit_test(test_stacked_small),
		cmocka_unit_test(test_zoom),
		cmocka_unit_test(test_tiny_and_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
