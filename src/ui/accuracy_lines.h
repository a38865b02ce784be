/*
 * accuracy_lines — the `:accuracy` view's content as lines of text,
 * computed from a backtest report alone: the three figures against the
 * two baselines, the live error (core/live.h), the predicted-versus-
 * observed scatter of the window on log axes with the live posts marked,
 * and per front a weekday x hour-block heatmap of the
 * history's mean reward next to the model's. Drawn with Unicode block
 * characters only (░ ▒ ▓ █ and the eighth blocks for bars).
 */
#ifndef FRONTS_UI_ACCURACY_LINES_H
#define FRONTS_UI_ACCURACY_LINES_H

#include <stddef.h>

#include "core/backtest.h"
#include "core/project.h"

struct acc_lines {
	char	**line;		/* UTF-8, malloc'd */
	int	  n;
};

/* The whole view; scatter_w x scatter_h cells of scatter (0: 48 x 14). */
void	accuracy_lines(const struct project *,
	    const struct backtest_report *, int scatter_w, int scatter_h,
	    struct acc_lines *out);
void	accuracy_lines_free(struct acc_lines *);
/* One line for the Model pane: "backtest: mae_log 0.499 (front_median
 * 0.671, hour_weekday 0.652) · spearman 0.68 · coverage80 48% · beats
 * both baselines", or why there is none. */
void	accuracy_summary(const struct backtest_report *, char *buf,
	    size_t len);

#endif
