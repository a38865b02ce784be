/*
 * accuracy_lines — the accuracy view's lines (see accuracy_lines.h).
 *
 * Shades: a cell's value is placed on a log(1 + x) scale between the
 * smallest and largest of what is drawn beside it (the scatter: points
 * per cell; a front's two heatmaps: one scale for both, so they compare),
 * then drawn as one of " ░▒▓█"; a cell without data is "·".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/live.h"
#include "ui/accuracy_lines.h"

/* A live post in the scatter: distinct from every shade and the dot. */
#define ACC_LIVE_GLYPH	"◆"

static const char *const shades[] = { " ", "░", "▒", "▓", "█" };
static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊",
    "▉" };
static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri",
    "Sat", "Sun" };

static void
acc_add(struct acc_lines *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
acc_add(struct acc_lines *o, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	o->line = xrealloc(o->line, (size_t)(o->n + 1) * sizeof *o->line);
	o->line[o->n++] = s;
}

/* A bar of frac (0..1) of width cells, in eighths. */
static void
acc_bar(char *buf, size_t len, double frac, int width)
{
	int e = (int)lround(fmax(0, fmin(1, frac)) * width * 8), i;
	size_t off = 0;

	buf[0] = '\0';
	for (i = 0; i < e / 8 && off + 4 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "█");
	if (off + 4 < len)
		snprintf(buf + off, len - off, "%s", eighths[e % 8]);
}

static void
acc_row(struct acc_lines *o, const char *name, const struct backtest_score *sc,
    bool coverage, double worst)
{
	char f[3][32], bar[128];
	bool few = backtest_few(sc);

	acc_bar(bar, sizeof bar, worst > 0 && !isnan(sc->mae_log) ?
	    sc->mae_log / worst : 0, 24);
	acc_add(o, "  %-13s %5d %13s %13s %13s   %s", name, sc->n,
	    backtest_figure_text(sc->spearman, false, few, f[0], sizeof f[0]),
	    backtest_figure_text(sc->mae_log, false, few, f[1], sizeof f[1]),
	    coverage ? backtest_figure_text(sc->coverage80, true, few, f[2],
	    sizeof f[2]) : "-", bar);
}

static void
acc_figures(const struct project *p, const struct backtest_report *r,
    struct acc_lines *o)
{
	double worst = isnan(r->model.mae_log) ? 0 : r->model.mae_log;
	char why[256];
	int b, f;

	for (b = 0; b < BASE_COUNT; b++)
		if (!isnan(r->base[b].mae_log))
			worst = fmax(worst, r->base[b].mae_log);
	acc_add(o, "                posts      spearman       mae_log    "
	    "coverage80   mae_log (shorter is better)");
	acc_row(o, "model", &r->model, true, worst);
	for (b = 0; b < BASE_COUNT; b++)
		if (b != BASE_BUILTIN || r->builtin_asked)
			acc_row(o, backtest_baseline_names[b], &r->base[b],
			    false, worst);
	if (backtest_few(&r->model))
		acc_add(o, "  * rests on %d posts, fewer than %d: indicative "
		    "only", r->model.n, BACKTEST_MIN_POSTS);
	for (f = 0; f < FIG_COUNT; f++)
		if (backtest_why(p, r, &r->model, f, why, sizeof why) != NULL &&
		    (f == 0 || r->model.why[f] != r->model.why[f - 1]))
			acc_add(o, "  not measured: %s", why);
	if (isnan(r->model.mae_log))
		acc_add(o, "  whether the model beats the baselines: not "
		    "measured");
	else
		acc_add(o, "  %s", r->beats_baselines ?
		    "the model beats both baselines" :
		    "the model does NOT beat both baselines");
	if (!isnan(r->model.mae_log) &&
	    backtest_builtin_text(p, r, why, sizeof why) != NULL)
		acc_add(o, "  %s", why);
}

static const char *
acc_shade(double v, double lo, double hi)
{
	int k;

	if (isnan(v))
		return "·";
	lo = fmax(lo, 0);
	hi = fmax(hi, 0);
	if (hi <= lo)
		return shades[4];
	k = 1 + (int)floor((log1p(fmax(v, 0)) - log1p(lo)) /
	    (log1p(hi) - log1p(lo)) * 3.999);
	return shades[k < 1 ? 1 : k > 4 ? 4 : k];
}

/* The y axis: its value at the top, middle and bottom rows. */
static size_t
acc_ylabel(char *buf, size_t cap, int row, int h, double top)
{
	if (row == h - 1)
		return (size_t)snprintf(buf, cap, "  %7.0f▕", expm1(top));
	if (row == h / 2)
		return (size_t)snprintf(buf, cap, "  %7.0f▕",
		    expm1(top * row / h));
	if (row == 0)
		return (size_t)snprintf(buf, cap, "  %7d▕", 0);
	return (size_t)snprintf(buf, cap, "         ▕");
}

/* The cell of a point (predicted, observed) on log axes up to top. */
static int
acc_cell(double pred, double obs, double top, int w, int h)
{
	int col = (int)fmin(w - 1, floor(log1p(fmax(pred, 0)) / top * w));
	int row = (int)fmin(h - 1, floor(log1p(fmax(obs, 0)) / top * h));

	return row * w + col;
}

/* The glyph of one cell: a live post wins over the backtest's shade. */
static const char *
acc_cell_glyph(int c, bool live, int maxc, bool diagonal)
{
	if (live)
		return ACC_LIVE_GLYPH;
	if (c > 0)
		return acc_shade(c, 0, maxc);
	return diagonal ? "·" : " ";
}

/* The scatter: x predicted mean, y observed, both log(1 + reward); the
 * live posts (predicted at publish) marked over the backtest's. */
static void
acc_scatter(const struct backtest_report *r, const struct live_report *lv,
    int w, int h, struct acc_lines *o)
{
	const struct backtest_post *bp;
	double top = 0;
	int *grid = xcalloc((size_t)w * h, sizeof *grid), i, row, col, maxc = 1;
	bool *live = xcalloc((size_t)w * h, sizeof *live);
	char *line;
	size_t cap = (size_t)w * 4 + 64, off;

	for (i = 0; i < r->nposts; i++)
		if (r->posts[i].scored && r->posts[i].predicted)
			top = fmax(top, fmax(log1p(fmax(r->posts[i].mean, 0)),
			    log1p(fmax(r->posts[i].observed, 0))));
	for (i = 0; i < lv->n; i++)
		top = fmax(top, fmax(log1p(fmax(lv->posts[i].median, 0)),
		    log1p(fmax(lv->posts[i].observed, 0))));
	if (top <= 0)
		top = 1;
	for (i = 0; i < r->nposts; i++) {
		bp = &r->posts[i];
		if (!bp->scored || !bp->predicted)
			continue;
		col = acc_cell(bp->mean, bp->observed, top, w, h);
		if (++grid[col] > maxc)
			maxc = grid[col];
	}
	for (i = 0; i < lv->n; i++)
		live[acc_cell(lv->posts[i].median, lv->posts[i].observed, top, w,
		    h)] = true;
	acc_add(o, "  y: observed reward, x: predicted mean reward (both in the "
	    "objective's units, log scale)");
	acc_add(o, "  shade: backtest posts in a cell, ░ 1 to █ %d; · on the "
	    "diagonal: predicted = observed", maxc);
	if (lv->n > 0)
		acc_add(o, "  %s live: a post fronts published, at its "
		    "prediction saved at publish (%d)", ACC_LIVE_GLYPH, lv->n);
	line = xcalloc(cap, 1);
	for (row = h - 1; row >= 0; row--) {
		off = acc_ylabel(line, cap, row, h, top);
		for (col = 0; col < w && off + 4 < cap; col++)
			off += (size_t)snprintf(line + off, cap - off, "%s",
			    acc_cell_glyph(grid[row * w + col],
			    live[row * w + col], maxc, col * h / w == row));
		acc_add(o, "%s", line);
	}
	for (off = (size_t)snprintf(line, cap, "          "), col = 0;
	    col < w && off + 4 < cap; col++)
		off += (size_t)snprintf(line + off, cap - off, "▔");
	acc_add(o, "%s", line);
	acc_add(o, "          0%*.0f  predicted (objective units)", w - 1,
	    expm1(top));
	free(line);
	free(grid);
	free(live);
}

static void
acc_heatmap_row(char *buf, size_t cap, const double *cells, double lo,
    double hi)
{
	size_t off = strlen(buf);
	int c;

	for (c = 0; c < 24 / BACKTEST_HOUR_BLOCK && off + 8 < cap; c++) {
		const char *s = acc_shade(cells[c], lo, hi);

		off += (size_t)snprintf(buf + off, cap - off, "%s%s", s, s);
	}
}

static void
acc_heatmaps(const struct project *p, const struct backtest_report *r,
    struct acc_lines *o)
{
	double *hist = xcalloc((size_t)p->nfronts * BACKTEST_CELLS + 1,
	    sizeof *hist), lo, hi, v;
	const double *model;
	int f, d, i, per = 24 / BACKTEST_HOUR_BLOCK;
	char buf[256], hours[64], obj[160];

	backtest_history_grid(p, hist);
	/* every other block labelled: two columns per block */
	hours[0] = '\0';
	for (i = 0; i < per; i += 2)
		snprintf(hours + strlen(hours), sizeof hours - strlen(hours),
		    "%-4d", i * BACKTEST_HOUR_BLOCK);
	for (f = 0; f < p->nfronts; f++) {
		model = r->grid != NULL ? r->grid + f * BACKTEST_CELLS : NULL;
		lo = INFINITY;
		hi = 0;
		for (i = 0; i < BACKTEST_CELLS; i++) {
			v = hist[f * BACKTEST_CELLS + i];
			if (!isnan(v)) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
			if (model != NULL && !isnan(model[i])) {
				lo = fmin(lo, model[i]);
				hi = fmax(hi, model[i]);
			}
		}
		if (!isfinite(lo))
			lo = 0;
		objective_format(objective_front(p, f), obj, sizeof obj);
		acc_add(o, "%s", "");
		acc_add(o, "  %-12.12s history (mean reward)   model%s",
		    p->fronts[f].id, model != NULL ? " (its first draft)" :
		    ": none");
		acc_add(o, "  reward = %s per post; shade ░ %.0f to █ %.0f "
		    "(log scale), · no data", obj, lo, hi);
		acc_add(o, "  x: local hour (%d-hour blocks), y: weekday",
		    BACKTEST_HOUR_BLOCK);
		acc_add(o, "  %-6s%-18s  %s", "", hours, model != NULL ? hours :
		    "");
		for (d = 0; d < 7; d++) {
			snprintf(buf, sizeof buf, "  %s   ", days[d]);
			acc_heatmap_row(buf, sizeof buf,
			    hist + f * BACKTEST_CELLS + d * per, lo, hi);
			if (model != NULL) {
				strncat(buf, "  ", sizeof buf - strlen(buf) - 1);
				acc_heatmap_row(buf, sizeof buf, model + d * per,
				    lo, hi);
			}
			acc_add(o, "%s", buf);
		}
	}
	free(hist);
}

void
accuracy_lines(const struct project *p, const struct backtest_report *r,
    int w, int h, struct acc_lines *o)
{
	struct live_report lv;
	char obj[512];

	memset(o, 0, sizeof *o);
	objective_describe(p, obj, sizeof obj);
	acc_add(o, "Accuracy: the newest %.0f%% of history predicted from "
	    "the posts before it", r->window * 100);
	acc_add(o, "  reward = %s", obj);
	if (!r->ran) {
		acc_add(o, "  the model defines no predict(): it cannot be "
		    "measured");
		acc_heatmaps(p, r, o);
		return;
	}
	acc_add(o, "  %d of %d posts scored%s%s", r->scored, r->nposts,
	    r->unscored > 0 ? "; left out (a weighted metric unknown): " : "",
	    r->unscored > 0 ? "see the table" : "");
	if (r->error[0] != '\0')
		acc_add(o, "  stopped: %s", r->error);
	acc_add(o, "%s", "");
	acc_figures(p, r, o);
	live_measure(p, r, &lv);
	live_summary(&lv, obj, sizeof obj);
	acc_add(o, "  %s", obj);
	acc_add(o, "%s", "");
	if (r->model.n > 0)
		acc_scatter(r, &lv, w > 0 ? w : 48, h > 0 ? h : 14, o);
	else
		acc_add(o, "  scatter: not measured (no post scored)");
	live_report_free(&lv);
	acc_heatmaps(p, r, o);
}

void
accuracy_lines_free(struct acc_lines *o)
{
	int i;

	for (i = 0; i < o->n; i++)
		free(o->line[i]);
	free(o->line);
	memset(o, 0, sizeof *o);
}

void
accuracy_summary(const struct backtest_report *r, char *buf, size_t len)
{
	char sp[32], bi[32];

	if (!r->ran)
		snprintf(buf, len, "backtest: none (the model defines no "
		    "predict())");
	else if (r->error[0] != '\0')
		snprintf(buf, len, "backtest: stopped (%s)", r->error);
	else if (isnan(r->model.mae_log))
		snprintf(buf, len, "backtest: not measured (%d of %d posts "
		    "scored: a weighted metric unknown)", r->scored, r->nposts);
	else
		snprintf(buf, len, "backtest: mae_log %.3f (front_median %.3f, "
		    "hour_weekday %.3f, builtin %s) · spearman %s · coverage80 "
		    "%.0f%% · %d posts%s · %s%s", r->model.mae_log,
		    r->base[BASE_FRONT_MEDIAN].mae_log,
		    r->base[BASE_HOUR_WEEKDAY].mae_log,
		    backtest_figure_text(r->base[BASE_BUILTIN].mae_log, false,
		    false, bi, sizeof bi),
		    backtest_figure_text(r->model.spearman, false, false, sp,
		    sizeof sp), r->model.coverage80 * 100, r->model.n,
		    backtest_few(&r->model) ? " (too few: indicative)" : "",
		    r->beats_baselines ? "beats both baselines" :
		    "does NOT beat both baselines", r->builtin_self ?
		    " (it is the builtin)" : r->beats_builtin ?
		    " and the builtin" : "");
}
