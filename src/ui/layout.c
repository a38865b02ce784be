/*
 * layout — pane geometry for a terminal size (see layout.h).
 */
#include <string.h>

#include "ui/layout.h"

/* Unfocused stacked panes keep a frame with one line of content. */
#define LAYOUT_COLLAPSED	3

static void
layout_set(struct layout *l, int id, int y, int x, int h, int w)
{
	l->pane[id] = (struct rect){ y, x, h, w };
	l->visible[id] = h > 0 && w > 0;
}

static void
layout_grid(struct layout *l, int avail, int cols)
{
	int lw = cols * 9 / 20, rw = cols - lw;
	int rules_h = avail * 2 / 5, search_h = avail / 2;

	layout_set(l, PANE_RULES, 0, 0, rules_h, lw);
	layout_set(l, PANE_MODEL, rules_h, 0, avail - rules_h, lw);
	layout_set(l, PANE_SEARCH, 0, lw, search_h, rw);
	layout_set(l, PANE_CANDIDATES, search_h, lw, avail - search_h, rw);
}

static void
layout_stack(struct layout *l, int avail, int cols, int focus)
{
	int small = LAYOUT_COLLAPSED, big, y = 0, i, h;

	/* The focused pane needs room for a frame and a few lines; shrink
	 * the others to their title line, then hide them. */
	if (avail - (PANE_COUNT - 1) * small < 6)
		small = 1;
	if (avail - (PANE_COUNT - 1) * small < 3)
		small = 0;
	big = avail - (PANE_COUNT - 1) * small;
	for (i = 0; i < PANE_COUNT; i++) {
		h = i == focus ? big : small;
		layout_set(l, i, h > 0 ? y : 0, 0, h, cols);
		y += h;
	}
}

void
layout_compute(int rows, int cols, int focus, bool zoom, struct layout *out)
{
	int avail, i;

	memset(out, 0, sizeof *out);
	if (rows < 1 || cols < 1)
		return;
	if (focus < 0 || focus >= PANE_COUNT)
		focus = 0;
	avail = rows - 1;
	out->status = (struct rect){ rows - 1, 0, 1, cols };
	if (avail < 1)
		return;
	if (zoom) {
		for (i = 0; i < PANE_COUNT; i++)
			layout_set(out, i, 0, 0, 0, 0);
		layout_set(out, focus, 0, 0, avail, cols);
		out->stacked = false;
		return;
	}
	out->stacked = cols < LAYOUT_GRID_MIN_COLS ||
	    rows < LAYOUT_GRID_MIN_ROWS;
	if (out->stacked)
		layout_stack(out, avail, cols, focus);
	else
		layout_grid(out, avail, cols);
}

int
layout_hit(const struct layout *l, int y, int x)
{
	const struct rect *r;
	int i;

	for (i = 0; i < PANE_COUNT; i++) {
		r = &l->pane[i];
		if (l->visible[i] && y >= r->y && y < r->y + r->h &&
		    x >= r->x && x < r->x + r->w)
			return i;
	}
	return -1;
}
