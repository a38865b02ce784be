/*
 * layout — where each pane goes for a terminal size: a two-by-two grid on
 * large terminals, stacked panes (the focused one tallest) on small ones,
 * one pane when zoomed. A pure function of size, focus and zoom, so the
 * screen reflows by recomputing it.
 */
#ifndef FRONTS_UI_LAYOUT_H
#define FRONTS_UI_LAYOUT_H

#include <stdbool.h>

enum pane_id { PANE_RULES, PANE_MODEL, PANE_SEARCH, PANE_CANDIDATES,
	PANE_COUNT };

/* Below these the grid would squeeze panes; panes stack instead. */
#define LAYOUT_GRID_MIN_COLS	100
#define LAYOUT_GRID_MIN_ROWS	30

struct rect {
	int	y, x, h, w;
};

struct layout {
	struct rect	pane[PANE_COUNT];
	bool		visible[PANE_COUNT];
	struct rect	status;		/* the bottom line */
	bool		stacked;
};

void	layout_compute(int rows, int cols, int focus, bool zoom,
	    struct layout *out);
/* The visible pane at (y, x), or -1. */
int	layout_hit(const struct layout *, int y, int x);

#endif
