/*
 * live — the live error of published posts against the backtest's
 * promise (see live.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/live.h"
#include "core/objective.h"

/* The 10th and 90th percentiles of a normal, in sds. */
#define LIVE_Z80	1.2815515655446004

void
live_interval(double mean, double sd, double *median, double *lo, double *hi)
{
	double s2, mu;

	*median = mean;
	*lo = *hi = NAN;
	if (!isfinite(sd) || sd < 0)
		return;
	if (sd == 0 || mean <= 0) {
		*lo = fmax(0, mean - LIVE_Z80 * sd);
		*hi = fmax(0, mean + LIVE_Z80 * sd);
		return;
	}
	/* the log-normal with this mean and sd: rewards are counts, never
	 * negative, and their spread grows with their size */
	s2 = log1p(sd * sd / (mean * mean));
	mu = log(mean) - s2 / 2;
	*median = exp(mu);
	*lo = exp(mu - LIVE_Z80 * sqrt(s2));
	*hi = exp(mu + LIVE_Z80 * sqrt(s2));
}

double
live_binomial_cdf(int k, int n, double p)
{
	double term, sum = 0;
	int i;

	if (k < 0)
		return 0;
	if (k >= n)
		return 1;
	/* term i: C(n, i) p^i (1 - p)^(n - i), from i = 0 up */
	term = pow(1 - p, n);
	for (i = 0; i <= k; i++) {
		sum += term;
		term *= (double)(n - i) / (i + 1) * p / (1 - p);
	}
	return fmin(sum, 1);
}

/* The backtest's mean |log error| and its sample sd over scored posts. */
static void
live_promise(const struct backtest_report *r, struct live_report *o)
{
	const struct backtest_post *bp;
	double e, sum = 0, sq = 0;
	int i, n = 0;

	o->bt_mae_log = o->bt_sd = o->bt_coverage80 = NAN;
	for (i = 0; r->ran && i < r->nposts; i++) {
		bp = &r->posts[i];
		if (!bp->scored || !bp->predicted)
			continue;
		e = fabs(bp->mean_log - log1p(fmax(bp->observed, 0)));
		sum += e;
		sq += e * e;
		n++;
	}
	o->bt_n = n;
	if (n == 0)
		return;
	o->bt_mae_log = sum / n;
	o->bt_coverage80 = r->model.coverage80;
	o->bt_sd = n > 1 ? sqrt(fmax(0, (sq - sum * sum / n) / (n - 1))) : NAN;
}

static void
live_add(const struct project *p, int i, struct live_report *o)
{
	const struct history_post *h = &p->history[i];
	struct live_post *lp;
	double obs;

	if (h->unsettled || !objective_post_reward(p, h, &obs)) {
		o->pending++;
		return;
	}
	lp = &o->posts[o->n++];
	lp->history = i;
	lp->observed = obs;
	lp->predicted = h->predicted;
	live_interval(h->predicted, h->predicted_sd, &lp->median, &lp->lo,
	    &lp->hi);
	lp->log_error = fabs(log1p(fmax(lp->median, 0)) - log1p(fmax(obs, 0)));
}

static void
live_test(struct live_report *o)
{
	int k;

	o->mae_bound = NAN;
	o->min_inside = -1;
	if (o->n == 0) {
		o->verdict = LIVE_NOT_MEASURED;
		return;
	}
	if (isfinite(o->bt_mae_log) && isfinite(o->bt_sd)) {
		o->mae_bound = o->bt_mae_log + LIVE_Z * o->bt_sd / sqrt(o->n);
		o->mae_worse = o->mae_log > o->mae_bound;
	}
	if (o->nintervals >= LIVE_MIN_POSTS) {
		for (k = 0; k <= o->nintervals &&
		    live_binomial_cdf(k, o->nintervals, 0.8) < LIVE_ALPHA; k++)
			;
		o->min_inside = k;
		o->coverage_worse = o->inside < k;
	}
	if (o->n < LIVE_MIN_POSTS) {
		o->mae_worse = o->coverage_worse = false;
		o->verdict = LIVE_TOO_FEW;
	} else
		o->verdict = o->mae_worse || o->coverage_worse ? LIVE_WORSE :
		    LIVE_AS_PROMISED;
}

void
live_measure(const struct project *p, const struct backtest_report *r,
    struct live_report *o)
{
	double err = 0;
	int i;

	memset(o, 0, sizeof *o);
	o->posts = xcalloc((size_t)p->nhistory + 1, sizeof *o->posts);
	for (i = 0; i < p->nhistory; i++) {
		if (!p->history[i].has_predicted)
			continue;
		o->published++;
		live_add(p, i, o);
	}
	for (i = 0; i < o->n; i++) {
		err += o->posts[i].log_error;
		if (isnan(o->posts[i].lo))
			continue;
		o->nintervals++;
		o->inside += o->posts[i].lo <= o->posts[i].observed &&
		    o->posts[i].observed <= o->posts[i].hi;
	}
	o->mae_log = o->n > 0 ? err / o->n : NAN;
	o->coverage80 = o->nintervals > 0 ? (double)o->inside /
	    o->nintervals : NAN;
	live_promise(r, o);
	live_test(o);
}

void
live_report_free(struct live_report *o)
{
	free(o->posts);
	memset(o, 0, sizeof *o);
}

static const char *
live_verdict_name(enum live_verdict v)
{
	switch (v) {
	case LIVE_TOO_FEW:	return "too few to judge";
	case LIVE_AS_PROMISED:	return "as promised";
	case LIVE_WORSE:	return "worse than promised";
	default:		return NULL;
	}
}

/* Why nothing is measured. */
static void
live_why(const struct live_report *o, char *buf, size_t len)
{
	if (o->published == 0)
		snprintf(buf, len, "no post fronts published has an outcome "
		    "yet (`fronts history pull` brings them)");
	else
		snprintf(buf, len, "none of the %d posts fronts published has "
		    "an outcome yet: their counts are still settling or lack "
		    "a weighted metric", o->published);
}

static void
live_number(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

cJSON *
live_json(const struct live_report *o)
{
	cJSON *j = cJSON_CreateObject(), *b, *nm;
	const char *v = live_verdict_name(o->verdict);
	char why[256];

	cJSON_AddNumberToObject(j, "posts", o->n);
	cJSON_AddNumberToObject(j, "published", o->published);
	cJSON_AddNumberToObject(j, "pending", o->pending);
	cJSON_AddNumberToObject(j, "min_posts", LIVE_MIN_POSTS);
	live_number(j, "mae_log", o->mae_log);
	live_number(j, "coverage80", o->coverage80);
	cJSON_AddNumberToObject(j, "intervals", o->nintervals);
	cJSON_AddNumberToObject(j, "inside", o->inside);
	b = cJSON_AddObjectToObject(j, "backtest");
	cJSON_AddNumberToObject(b, "posts", o->bt_n);
	live_number(b, "mae_log", o->bt_mae_log);
	live_number(b, "mae_log_sd", o->bt_sd);
	live_number(b, "coverage80", o->bt_coverage80);
	live_number(j, "mae_log_bound", o->mae_bound);
	if (o->min_inside >= 0)
		cJSON_AddNumberToObject(j, "min_inside", o->min_inside);
	else
		cJSON_AddNullToObject(j, "min_inside");
	if (v != NULL)
		cJSON_AddStringToObject(j, "verdict", v);
	else
		cJSON_AddNullToObject(j, "verdict");
	if (o->n == 0 || o->nintervals == 0) {
		nm = cJSON_AddObjectToObject(j, "not_measured");
		live_why(o, why, sizeof why);
		if (o->n == 0)
			cJSON_AddStringToObject(nm, "mae_log", why);
		else
			snprintf(why, sizeof why, "no prediction saved at "
			    "publish has a spread to make an interval of");
		cJSON_AddStringToObject(nm, "coverage80", why);
		if (o->n == 0)
			cJSON_AddStringToObject(nm, "verdict", why);
	}
	if (o->verdict == LIVE_WORSE)
		cJSON_AddStringToObject(j, "advice", "run `fronts synth` "
		    "again: the history now holds these outcomes");
	return j;
}

static void
live_figure(double v, bool percent, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "not measured");
	else if (percent)
		snprintf(buf, len, "%.0f%%", v * 100);
	else
		snprintf(buf, len, "%.3f", v);
}

/* The test as applied: which side of each bound the live posts are. */
static void
live_tests_text(FILE *f, const struct live_report *o)
{
	if (isfinite(o->mae_bound))
		fprintf(f, "  mae_log %.3f %s %.3f (the backtest's %.3f + %.0f x "
		    "its sd %.3f / sqrt(%d))\n", o->mae_log, o->mae_worse ?
		    "exceeds" : "is within", o->mae_bound, o->bt_mae_log,
		    LIVE_Z, o->bt_sd, o->n);
	else
		fprintf(f, "  mae_log: not tested (the backtest measured too "
		    "little to compare with)\n");
	if (o->min_inside >= 0)
		fprintf(f, "  %d of %d inside their 80%% intervals; a calibrated "
		    "model puts at least %d there (fewer: binomial chance "
		    "below %.1f%%)\n", o->inside, o->nintervals, o->min_inside,
		    LIVE_ALPHA * 100);
	else
		fprintf(f, "  coverage80: not tested (%d posts with an "
		    "interval, the test needs %d)\n", o->nintervals,
		    LIVE_MIN_POSTS);
}

char *
live_text(const struct live_report *o)
{
	char *s, why[256], f[4][32];
	size_t len;
	FILE *m = xmemstream(&s, &len);

	if (o->n == 0) {
		live_why(o, why, sizeof why);
		fprintf(m, "live: not measured: %s\n", why);
		fclose(m);
		return s;
	}
	fprintf(m, "live: %d of the %d posts fronts published scored against "
	    "the prediction saved at publish", o->n, o->published);
	if (o->pending > 0)
		fprintf(m, " (%d still settling or partial)", o->pending);
	live_figure(o->mae_log, false, f[0], sizeof f[0]);
	live_figure(o->coverage80, true, f[1], sizeof f[1]);
	live_figure(o->bt_mae_log, false, f[2], sizeof f[2]);
	live_figure(o->bt_coverage80, true, f[3], sizeof f[3]);
	fprintf(m, "\n  %-14s %5s %13s %13s\n", "", "posts", "mae_log",
	    "coverage80");
	fprintf(m, "  %-14s %5d %13s %13s\n", "live", o->n, f[0], f[1]);
	fprintf(m, "  %-14s %5d %13s %13s\n", "backtest", o->bt_n, f[2], f[3]);
	if (o->verdict == LIVE_TOO_FEW) {
		fprintf(m, "  too few to judge: %d live posts, the test needs "
		    "%d\n", o->n, LIVE_MIN_POSTS);
		fclose(m);
		return s;
	}
	live_tests_text(m, o);
	if (o->verdict == LIVE_WORSE)
		fprintf(m, "  the live error is WORSE than the backtest "
		    "promised: run `fronts synth` again, the history now "
		    "holds these outcomes\n");
	else
		fprintf(m, "  the live error is as the backtest promised\n");
	fclose(m);
	return s;
}

void
live_summary(const struct live_report *o, char *buf, size_t len)
{
	char why[256], f[2][32];

	if (o->n == 0) {
		live_why(o, why, sizeof why);
		snprintf(buf, len, "live: not measured: %s", why);
		return;
	}
	live_figure(o->mae_log, false, f[0], sizeof f[0]);
	live_figure(o->coverage80, true, f[1], sizeof f[1]);
	snprintf(buf, len, "live: %d posts · mae_log %s · coverage80 %s · %s%s",
	    o->n, f[0], f[1], live_verdict_name(o->verdict),
	    o->verdict == LIVE_WORSE ? ": run `fronts synth` again" : "");
}
