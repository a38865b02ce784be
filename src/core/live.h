/*
 * live — the live error: how the posts fronts published did against the
 * prediction saved when they were published, beside what the backtest
 * promised (`fronts validate`, the TUI's `:accuracy`; docs/DESIGN.md
 * "The live error").
 *
 * A live post is a history post with a `predicted` object (history pull
 * puts the prediction saved at publish beside the outcome) whose counts
 * are settled and give every weighted metric. The prediction is the
 * plan's mean reward for the post and the spread of the rewards its
 * search drew (`sd`); a log-normal with that mean and sd gives the
 * median (the centre the log error is measured from, as the backtest
 * measures from the mean of log draws) and the 10-90% interval. A
 * prediction without a spread (saved before publish kept one) counts
 * towards mae_log only.
 *
 * The test: with at least LIVE_MIN_POSTS live posts, the live error is
 * worse than promised when mae_log exceeds the backtest's by more than
 * LIVE_Z standard errors (the sample sd of the backtest's per-post
 * |log errors| over sqrt(n live posts)), or when so few observations
 * fall inside their 80% intervals that a calibrated interval would give
 * that few with probability below LIVE_ALPHA (binomial, p = 0.8).
 */
#ifndef FRONTS_LIVE_H
#define FRONTS_LIVE_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "core/backtest.h"
#include "core/project.h"

#define LIVE_MIN_POSTS	5
#define LIVE_Z		2.0
#define LIVE_ALPHA	0.025

enum live_verdict {
	LIVE_NOT_MEASURED,	/* no live post */
	LIVE_TOO_FEW,		/* fewer than LIVE_MIN_POSTS */
	LIVE_AS_PROMISED,
	LIVE_WORSE
};

struct live_post {
	int	history;	/* index into project.history */
	double	observed;	/* objective units */
	double	predicted;	/* the plan's mean, saved at publish */
	double	median;		/* the centre of the log error */
	double	lo, hi;		/* 10-90%; NAN: no spread was saved */
	double	log_error;	/* |log(1 + median) - log(1 + observed)| */
};

struct live_report {
	struct live_post *posts;	/* scored live posts, history order */
	int		  n;
	int		  published;	/* history posts with a prediction */
	int		  pending;	/* of those: counts unsettled or partial */
	double		  mae_log;	/* NAN: not measured */
	double		  coverage80;	/* NAN: no post has an interval */
	int		  nintervals;	/* posts with an interval */
	int		  inside;	/* observed inside it */
	/* The backtest's promise, NAN where it measured nothing. */
	int		  bt_n;
	double		  bt_mae_log, bt_sd, bt_coverage80;
	double		  mae_bound;	/* bt_mae_log + LIVE_Z bt_sd / sqrt(n) */
	int		  min_inside;	/* fewer inside is worse than promised;
					 * -1: not tested */
	bool		  mae_worse, coverage_worse;
	enum live_verdict verdict;
};

/* The live report of p's history against backtest r (which may not have
 * run). */
void	live_measure(const struct project *p, const struct backtest_report *r,
	    struct live_report *out);
void	live_report_free(struct live_report *);
/* The 10-90% interval and median of a log-normal with this mean and sd;
 * sd NAN (unknown) leaves lo and hi NAN and the median the mean. */
void	live_interval(double mean, double sd, double *median, double *lo,
	    double *hi);
/* P(X <= k) for X ~ Binomial(n, p). */
double	live_binomial_cdf(int k, int n, double p);

/* The `live` object of `validate --json`. */
cJSON	*live_json(const struct live_report *);
/* The text block of `fronts validate` (malloc'd). */
char	*live_text(const struct live_report *);
/* One line: the figures and the verdict, or why they are not measured. */
void	live_summary(const struct live_report *, char *buf, size_t len);

#endif
