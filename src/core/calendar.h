/*
 * calendar — a plan as a day-by-front timeline: one column per front, one
 * row per slot that holds a post, each cell a post and where it stands
 * (planned, due, past, sent, skipped, failed, unknown) by the clock and
 * the publish ledger. The layout is pure data (no terminal): `fronts plan
 * --calendar`, `fronts show` and the TUI's calendar view draw from it.
 */
#ifndef FRONTS_CALENDAR_H
#define FRONTS_CALENDAR_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/ledger.h"
#include "core/plan.h"
#include "core/project.h"

enum cal_mark {
	CAL_PLANNED,	/* its slot is still ahead */
	CAL_DUE,	/* its slot is now */
	CAL_PAST,	/* its slot passed and the ledger has nothing */
	CAL_SENT,
	CAL_SKIPPED,
	CAL_FAILED,
	CAL_UNKNOWN	/* attempted, outcome not known */
};

struct cal_cell {
	int		post;	/* index into plan.posts; -1: empty */
	enum cal_mark	mark;
};

struct cal_row {
	int		 slot;
	time_t		 at;
	bool		 day_start;	/* first row of its local day */
	struct cal_cell	*cells;		/* one per front */
};

struct calendar {
	int		 nfronts;
	struct cal_row	*rows;
	int		 nrows;
};

/* Where post i of pl stands at now; l may be NULL (no ledger). A ledger
 * entry counts for a post with the same front, draft and planned time,
 * whichever plan it came from. */
enum cal_mark	 calendar_mark(const struct project *, const struct plan *,
		     const struct ledger *, int i, time_t now);
const char	*calendar_mark_name(enum cal_mark);	/* "sent", … */
/* One character per mark in the text form (' ' for planned). */
char		 calendar_mark_char(enum cal_mark);

/* The rows of pl (two posts of one slot on one front take two rows);
 * every: a row for every slot of the horizon too, empty where no post is
 * (for a cursor that places a post in a free slot). */
void	calendar_build(const struct project *, const struct plan *,
	    const struct ledger *, time_t now, bool every,
	    struct calendar *out);
void	calendar_free(struct calendar *);

/* The calendar as lines of text at most width columns wide where it can
 * be (80 or more: abbreviated to fit; wider: the columns grow, up to
 * CALENDAR_MAX_COLUMN each). *out is the caller's (free each line, then
 * the array). */
#define CALENDAR_MAX_COLUMN 40
#define CALENDAR_TIME_WIDTH 6	/* "11:00 " */
/* The width of each front's column in a calendar width columns wide. */
int	calendar_column_width(const struct project *, int width);
int	calendar_render(const struct project *, const struct plan *,
	    const struct calendar *, int width, char ***out);
/* One cell's text (mark, draft id, expected reward) in at most w
 * columns. */
void	calendar_cell_text(const struct project *, const struct plan *,
	    const struct cal_cell *, int w, char *buf, size_t len);
/* The calendar as JSON: fronts, and rows of cells (null where empty). */
cJSON	*calendar_json(const struct project *, const struct plan *,
	    const struct calendar *);

#endif
