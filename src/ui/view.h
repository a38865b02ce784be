/*
 * view — the Search pane's content as plain rows, computed from a
 * struct search_snapshot alone (the UI never sees the planner's tree):
 * root children by visits, each with a bar, and the principal variation
 * hanging under the child it starts with when that child is expanded.
 */
#ifndef FRONTS_UI_VIEW_H
#define FRONTS_UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/project.h"
#include "core/search.h"

struct view_row {
	int		depth;		/* 0: root child; 1+: PV step */
	bool		expandable;	/* a root child the PV continues under */
	bool		expanded;
	char		label[160];
	uint64_t	visits;
	double		mean;		/* mean return from this edge on */
	double		reward;		/* mean reward of the step */
	double		ci_lo, ci_hi;
	double		frac;		/* bar length, 0..1 of the top child */
};

/* "post d3 → x" or "wait", with the slot's local day and time. */
void	view_action_label(const struct project *, const struct action *,
	    int slot, char *buf, size_t len);
/* Rows for the snapshot; returns how many (at most max). */
int	view_search_rows(const struct project *, const struct search_snapshot *,
	    bool pv_expanded, struct view_row *rows, int max);
/* "running · 12,345 it · 4.1k it/s · 412k calls · 2 workers · 3.0 s" */
void	view_search_header(const struct search_snapshot *, char *buf,
	    size_t len);
const char *view_search_state(int state);
/* 12345 -> "12.3k"; 1234567 -> "1.23M". */
void	view_count(uint64_t n, char *buf, size_t len);

#endif
