/*
 * backtest — the window, the baselines, the model's draws and the
 * figures (see backtest.h); backtest_report.c writes and reads reports.
 *
 * Everything but the model's draws is computed from the project alone,
 * so a report read back from the worker recomputes the window, the
 * observed rewards, the baselines and the figures here, and takes only
 * the draws' summaries from the worker.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backtest_int.h"
#include "core/timeutil.h"

const char *const backtest_baseline_names[BASE_COUNT] = {
	"front_median", "hour_weekday", "builtin"
};

const char *const backtest_figure_names[FIG_COUNT] = {
	"spearman", "mae_log", "coverage80"
};

struct bt {
	const struct project	*p;
	const struct objective	*obj;
	int			*order;		/* history by time */
	int			 start;		/* first window post in order */
	double			*reward;	/* per history index */
	bool			*complete;
};

static int
bt_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const struct project *bt_sort_p;

static int
bt_cmp_time(const void *a, const void *b)
{
	const struct history_post *x = &bt_sort_p->history[*(const int *)a];
	const struct history_post *y = &bt_sort_p->history[*(const int *)b];

	if (x->posted_at != y->posted_at)
		return x->posted_at < y->posted_at ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* History's indices by time (malloc'd). */
static int *
bt_order(const struct project *p)
{
	int *order = xcalloc(p->nhistory + 1, sizeof *order), i;

	for (i = 0; i < p->nhistory; i++)
		order[i] = i;
	bt_sort_p = p;
	qsort(order, p->nhistory, sizeof *order, bt_cmp_time);
	return order;
}

static double
bt_quantile(const double *sorted, int n, double q)
{
	double x = q * (n - 1);
	int i = (int)floor(x);

	if (n <= 0)
		return 0;
	if (i >= n - 1)
		return sorted[n - 1];
	return sorted[i] + (x - i) * (sorted[i + 1] - sorted[i]);
}

static double
bt_log1p(double x)
{
	return log1p(x > 0 ? x : 0);
}

/* Rewards of the known posts before the window, on front f (-1: any). */
static int
bt_known(const struct bt *b, int f, double *out)
{
	int i, h, n = 0;

	for (i = 0; i < b->start; i++) {
		h = b->order[i];
		if (b->complete[h] && (f < 0 || b->p->history[h].front == f))
			out[n++] = b->reward[h];
	}
	qsort(out, n, sizeof *out, bt_cmp_double);
	return n;
}

static int
backtest_cell(time_t t)
{
	return time_local_weekday(t) * (24 / BACKTEST_HOUR_BLOCK) +
	    time_local_hour(t) / BACKTEST_HOUR_BLOCK;
}

void
backtest_history_grid(const struct project *p, double *out)
{
	int n = p->nfronts * BACKTEST_CELLS, *count, i, c;
	double r;

	count = xcalloc(n + 1, sizeof *count);
	for (i = 0; i < n; i++)
		out[i] = 0;
	for (i = 0; i < p->nhistory; i++) {
		if (!objective_post_reward(p, &p->history[i], &r))
			continue;
		c = p->history[i].front * BACKTEST_CELLS +
		    backtest_cell(p->history[i].posted_at);
		out[c] += r;
		count[c]++;
	}
	for (i = 0; i < n; i++)
		out[i] = count[i] > 0 ? out[i] / count[i] : NAN;
	free(count);
}

static void
bt_baselines(const struct bt *b, struct backtest_post *bp, double *tmp)
{
	const struct history_post *post = &b->p->history[bp->history];
	double med, sum = 0;
	int n, i, h, cell = backtest_cell(post->posted_at), k = 0;

	if ((n = bt_known(b, post->front, tmp)) == 0)
		n = bt_known(b, -1, tmp);
	med = bt_quantile(tmp, n, 0.5);
	bp->base[BASE_FRONT_MEDIAN] = med;
	for (i = 0; i < b->start; i++) {
		h = b->order[i];
		if (!b->complete[h] || b->p->history[h].front != post->front ||
		    backtest_cell(b->p->history[h].posted_at) != cell)
			continue;
		sum += bt_log1p(b->reward[h]);
		k++;
	}
	bp->base[BASE_HOUR_WEEKDAY] = expm1((sum + BACKTEST_SHRINK *
	    bt_log1p(med)) / (k + BACKTEST_SHRINK));
}

/* The window, observed rewards and baselines: no model involved. */
void
bt_prepare(const struct project *p, const struct backtest_params *bp,
    struct backtest_report *r, int **order_out)
{
	struct bt b = { p, NULL, NULL, 0, NULL, NULL };
	double *tmp;
	int i, n = p->nhistory, nw;

	b.obj = bp != NULL ? bp->objective : NULL;
	memset(r, 0, sizeof *r);
	r->window = bp != NULL && bp->window > 0 ? bp->window : BACKTEST_WINDOW;
	r->history = n;
	b.order = bt_order(p);
	b.reward = xcalloc(n + 1, sizeof *b.reward);
	b.complete = xcalloc(n + 1, sizeof *b.complete);
	tmp = xcalloc(n + 1, sizeof *tmp);
	for (i = 0; i < n; i++)
		b.complete[i] = b.obj != NULL ? objective_reward(b.obj,
		    &p->history[i], &b.reward[i]) : objective_post_reward(p,
		    &p->history[i], &b.reward[i]);
	nw = backtest_window_posts(p, r->window);
	b.start = n - nw;
	r->nposts = nw;
	r->posts = xcalloc(nw + 1, sizeof *r->posts);
	for (i = 0; i < nw; i++) {
		r->posts[i].history = b.order[b.start + i];
		r->posts[i].observed = b.reward[r->posts[i].history];
		r->posts[i].scored = b.complete[r->posts[i].history];
		bt_baselines(&b, &r->posts[i], tmp);
	}
	free(tmp);
	free(b.reward);
	free(b.complete);
	if (order_out != NULL)
		*order_out = b.order;
	else
		free(b.order);
}

int
backtest_window_posts(const struct project *p, double window)
{
	int n = p->nhistory, nw;

	nw = (int)ceil((window > 0 ? window : BACKTEST_WINDOW) * n - 1e-9);
	if (nw > n - 1)
		nw = n - 1;	/* at least one post of context */
	return nw > 0 ? nw : 0;
}

/* Average ranks (ties share the mean of their ranks). */
static void
bt_ranks(const double *x, int n, double *rank)
{
	int *ix = xcalloc(n + 1, sizeof *ix), i, j, k;
	const double *key = x;

	for (i = 0; i < n; i++)
		ix[i] = i;
	/* insertion sort: windows hold hundreds of posts, not millions */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && key[ix[j - 1]] > key[ix[j]]; j--) {
			k = ix[j];
			ix[j] = ix[j - 1];
			ix[j - 1] = k;
		}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && key[ix[j]] == key[ix[i]]; j++)
			;
		for (k = i; k < j; k++)
			rank[ix[k]] = (i + j - 1) / 2.0;
	}
	free(ix);
}

/* NAN with *why set when ranks cannot say anything. */
static double
bt_spearman(const double *x, const double *y, int n, enum backtest_why *why)
{
	double *rx, *ry, mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	int i;

	if (n < BACKTEST_RANK_MIN) {
		*why = n == 0 ? WHY_NO_POSTS : WHY_FEW_RANKS;
		return NAN;
	}
	rx = xcalloc(n, sizeof *rx);
	ry = xcalloc(n, sizeof *ry);
	bt_ranks(x, n, rx);
	bt_ranks(y, n, ry);
	for (i = 0; i < n; i++) {
		mx += rx[i] / n;
		my += ry[i] / n;
	}
	for (i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	free(rx);
	free(ry);
	if (!(sxx > 0 && syy > 0)) {
		*why = WHY_TIES;
		return NAN;
	}
	return sxy / sqrt(sxx * syy);
}

/* One predictor's figures: pred (point), plog (its log(1 + ·)). */
static void
bt_figures(const struct backtest_report *r, int which,
    struct backtest_score *s)
{
	double *pred, *obs, err = 0, lp;
	const struct backtest_post *bp;
	int i, n = 0, cov = 0;

	pred = xcalloc(r->nposts + 1, sizeof *pred);
	obs = xcalloc(r->nposts + 1, sizeof *obs);
	for (i = 0; i < r->nposts; i++) {
		bp = &r->posts[i];
		if (!bp->scored || !bp->predicted ||
		    (which == BASE_BUILTIN && !bp->builtin))
			continue;
		pred[n] = which < 0 ? bp->mean : bp->base[which];
		lp = which < 0 ? bp->mean_log : which == BASE_BUILTIN ?
		    bp->builtin_log : bt_log1p(bp->base[which]);
		obs[n] = bp->observed;
		err += fabs(lp - bt_log1p(bp->observed));
		cov += bp->lo <= bp->observed && bp->observed <= bp->hi;
		n++;
	}
	memset(s, 0, sizeof *s);
	s->n = n;
	s->spearman = bt_spearman(pred, obs, n, &s->why[FIG_SPEARMAN]);
	s->mae_log = n > 0 ? err / n : NAN;
	s->coverage80 = which < 0 && n > 0 ? (double)cov / n : NAN;
	if (n == 0)
		s->why[FIG_MAE_LOG] = s->why[FIG_COVERAGE80] = WHY_NO_POSTS;
	if (which == BASE_BUILTIN && n == 0 && r->model.n > 0)
		s->why[FIG_SPEARMAN] = s->why[FIG_MAE_LOG] = WHY_NO_BUILTIN;
	if (which >= 0)
		s->why[FIG_COVERAGE80] = WHY_NOT_APPLICABLE;
	free(pred);
	free(obs);
}

void
backtest_score(struct backtest_report *r)
{
	int i, b;

	r->scored = r->unscored = 0;
	for (i = 0; i < r->nposts; i++) {
		if (!r->posts[i].scored)
			r->unscored++;
		else if (r->posts[i].predicted)
			r->scored++;
	}
	bt_figures(r, -1, &r->model);
	for (b = 0; b < BASE_COUNT; b++)
		bt_figures(r, b, &r->base[b]);
	/* a backtest that stopped measured only part of the window */
	r->beats_baselines = r->ran && r->model.n > 0 && r->error[0] == '\0' &&
	    r->model.mae_log < r->base[BASE_FRONT_MEDIAN].mae_log &&
	    r->model.mae_log < r->base[BASE_HOUR_WEEKDAY].mae_log;
	r->beats_builtin = r->beats_baselines &&
	    r->base[BASE_BUILTIN].n == r->model.n &&
	    r->model.mae_log < r->base[BASE_BUILTIN].mae_log;
}

/* The draws of one window post, summarised into bp: the model's, or
 * (builtin) the builtin baseline's. */
static void
bt_summarise(struct backtest_post *bp, double *draws, int k, bool builtin)
{
	double sum = 0, slog = 0;
	int i;

	for (i = 0; i < k; i++) {
		sum += draws[i];
		slog += bt_log1p(draws[i]);
	}
	if (builtin) {
		bp->base[BASE_BUILTIN] = sum / k;
		bp->builtin_log = slog / k;
		bp->builtin = true;
		return;
	}
	qsort(draws, k, sizeof *draws, bt_cmp_double);
	bp->mean = sum / k;
	bp->mean_log = slog / k;
	bp->lo = bt_quantile(draws, k, 0.1);
	bp->hi = bt_quantile(draws, k, 0.9);
	bp->predicted = true;
}

static void
bt_error(const struct model_ops *ops, void *m, char *buf, size_t len,
    const char *id, int rc)
{
	const struct model_error *e = ops->last_error(m);

	if (e != NULL && e->type[0] != '\0')
		snprintf(buf, len, "predict for %s: %s: %s (model.py line %d)",
		    id, e->type, e->message, e->line);
	else
		snprintf(buf, len, "predict for %s failed (%d)", id, rc);
}

static int
bt_first_draft(const struct project *p, int f)
{
	int d;

	for (d = 0; d < p->ndrafts; d++)
		if (project_draft_allows(p, d, f))
			return d;
	return -1;
}

/* The model's heatmap (see backtest.h); a cell the model fails on stays
 * NAN: the figures do not depend on it. */
static void
bt_grid(const struct project *p, const struct model_ops *ops, void *m,
    struct backtest_report *r, uint64_t seed, uint64_t *calls)
{
	double draws[BACKTEST_GRID_DRAWS], sum;
	struct predict_query q;
	int f, k, c, i;
	time_t t;

	r->grid = xcalloc((size_t)p->nfronts * BACKTEST_CELLS, sizeof *r->grid);
	for (i = 0; i < p->nfronts * BACKTEST_CELLS; i++)
		r->grid[i] = NAN;
	for (f = 0; f < p->nfronts; f++) {
		memset(&q, 0, sizeof q);
		q.post = -1;
		q.front = f;
		if ((q.draft = bt_first_draft(p, f)) < 0)
			continue;
		for (k = 0; k < 7 * 24; k++) {
			t = p->start + (time_t)k * 3600;
			c = backtest_cell(t);
			if (!isnan(r->grid[f * BACKTEST_CELLS + c]))
				continue;
			q.at = t;
			q.seed = seed + 7777 + (uint64_t)k;
			q.ndraws = BACKTEST_GRID_DRAWS;
			if (calls != NULL)
				*calls += BACKTEST_GRID_DRAWS;
			if (ops->predict(m, &q, draws) != MODEL_OK)
				return;
			for (sum = 0, i = 0; i < BACKTEST_GRID_DRAWS; i++)
				sum += draws[i];
			r->grid[f * BACKTEST_CELLS + c] = sum / BACKTEST_GRID_DRAWS;
		}
	}
}

/* Every window post's draws from ops/m (the model, or the builtin
 * baseline), each from the history before it; stops at the first
 * failure or when the time budget is spent, saying so in buf. */
static void
bt_window_draws(const struct project *p, const struct model_ops *ops,
    void *m, const struct backtest_params *bp, struct backtest_report *r,
    const int *order, bool builtin, char *buf, size_t len, uint64_t *calls)
{
	double *draws, t0, budget;
	struct predict_query q;
	int i, rc, k, start;

	k = bp != NULL && bp->draws > 0 ? bp->draws : BACKTEST_DRAWS;
	budget = bp != NULL && bp->seconds > 0 ? bp->seconds : BACKTEST_SECONDS;
	draws = xcalloc(k, sizeof *draws);
	start = p->nhistory - r->nposts;
	t0 = clock_seconds();
	for (i = 0; i < r->nposts; i++) {
		if (clock_seconds() - t0 > budget) {
			snprintf(buf, len, "predict() is too slow: %d of %d "
			    "posts in %.0f s (%d draws each)", i, r->nposts,
			    budget, k);
			break;
		}
		memset(&q, 0, sizeof q);
		q.post = r->posts[i].history;
		q.draft = q.front = -1;
		q.at = p->history[q.post].posted_at;
		q.history = order;
		q.nhistory = start + i;
		q.known = start;
		q.seed = (bp != NULL ? bp->seed : 0) + 1000003ULL * (i + 1);
		q.ndraws = k;
		if (calls != NULL)
			*calls += (uint64_t)k;
		if ((rc = ops->predict(m, &q, draws)) != MODEL_OK) {
			bt_error(ops, m, buf, len, p->history[q.post].id, rc);
			break;
		}
		bt_summarise(&r->posts[i], draws, k, builtin);
	}
	free(draws);
}

int
backtest_run(const struct project *p, const struct model_ops *ops,
    void *m, const struct backtest_params *bp, struct backtest_report *r,
    uint64_t *calls)
{
	int *order;

	bt_prepare(p, bp, r, &order);
	r->ran = ops->predict != NULL && ops->has_predict != NULL &&
	    ops->has_predict(m);
	if (r->ran)
		bt_window_draws(p, ops, m, bp, r, order, false, r->error,
		    sizeof r->error, calls);
	if (r->ran && r->error[0] == '\0')
		bt_grid(p, ops, m, r, bp != NULL ? bp->seed : 0, calls);
	free(order);
	backtest_score(r);
	return 0;
}

void
backtest_baseline_run(const struct project *p, const struct model_ops *ops,
    void *m, const char *why, const struct backtest_params *bp,
    struct backtest_report *r, uint64_t *calls)
{
	int *order;

	r->builtin_asked = true;
	if (m == NULL) {
		snprintf(r->builtin_error, sizeof r->builtin_error, "%s",
		    why != NULL ? why : "it is not available");
		backtest_score(r);
		return;
	}
	order = bt_order(p);
	bt_window_draws(p, ops, m, bp, r, order, true, r->builtin_error,
	    sizeof r->builtin_error, calls);
	free(order);
	backtest_score(r);
}

void
backtest_baseline_self(struct backtest_report *r)
{
	int i;

	r->builtin_asked = r->builtin_self = true;
	for (i = 0; i < r->nposts; i++)
		if (r->posts[i].predicted) {
			r->posts[i].base[BASE_BUILTIN] = r->posts[i].mean;
			r->posts[i].builtin_log = r->posts[i].mean_log;
			r->posts[i].builtin = true;
		}
	backtest_score(r);
}

void
backtest_report_free(struct backtest_report *r)
{
	free(r->posts);
	free(r->grid);
	memset(r, 0, sizeof *r);
}

static double
bt_abs_log_error(const struct backtest_post *bp)
{
	return fabs(bp->mean_log - bt_log1p(bp->observed));
}

int
backtest_worst(const struct backtest_report *r, int *ix, int n)
{
	bool *taken = xcalloc(r->nposts + 1, sizeof *taken);
	double e, worst;
	int i, k, pick;

	for (k = 0; k < n; k++) {
		pick = -1;
		worst = -1;
		for (i = 0; i < r->nposts; i++) {
			if (taken[i] || !r->posts[i].scored ||
			    !r->posts[i].predicted)
				continue;
			if ((e = bt_abs_log_error(&r->posts[i])) > worst) {
				worst = e;
				pick = i;
			}
		}
		if (pick < 0)
			break;
		taken[pick] = true;
		ix[k] = pick;
	}
	free(taken);
	return k;
}
