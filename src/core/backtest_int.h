/*
 * backtest_int — what backtest.c and backtest_report.c share.
 */
#ifndef FRONTS_BACKTEST_INT_H
#define FRONTS_BACKTEST_INT_H

#include "core/backtest.h"

/* A report's window, observed rewards and baselines from the project
 * alone (no model); *order (malloc'd, may be NULL) gets history's
 * indices by time. */
void	bt_prepare(const struct project *, const struct backtest_params *,
	    struct backtest_report *, int **order);

#endif
