/*
 * backtest_report — a backtest as JSON (the `--backtest --json` object,
 * and with every post the worker's report), read back from the worker
 * without trusting what it cannot know, and as the short table.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backtest_int.h"
#include "core/json.h"

/* Which weighted metrics the unscored window posts lack, "likes,
 * clicks", into buf. */
static void
bt_missing(const struct project *p, const struct backtest_report *r,
    char *buf, size_t len)
{
	const struct history_post *h;
	const struct objective *o;
	unsigned miss = 0;
	size_t off = 0;
	int i, m;

	for (i = 0; i < r->nposts; i++) {
		h = &p->history[r->posts[i].history];
		o = objective_front(p, h->front);
		for (m = 0; m < METRIC_COUNT; m++)
			if (o->weight[m] != 0 && !(h->metrics_set & (1u << m)))
				miss |= 1u << m;
	}
	buf[0] = '\0';
	for (m = 0; m < METRIC_COUNT && off < len; m++)
		if (miss & (1u << m))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
			    off > 0 ? ", " : "", objective_metric_names[m]);
}

static const char *
bt_why_none(const struct project *p, const struct backtest_report *r,
    char *buf, size_t len)
{
	char miss[96];

	if (!r->ran)
		snprintf(buf, len, "the model defines no predict()");
	else if (r->nposts == 0)
		snprintf(buf, len, "the window holds no post (history has %d; "
		    "one is kept as context)", r->history);
	else if (r->unscored == r->nposts) {
		bt_missing(p, r, miss, sizeof miss);
		snprintf(buf, len, "none of the %d posts in the window can be "
		    "scored: %s unknown (never taken as 0)", r->nposts, miss);
	} else if (r->error[0] != '\0')
		snprintf(buf, len, "the backtest stopped before a scored post "
		    "was predicted");
	else
		snprintf(buf, len, "no post was both predicted and scored");
	return buf;
}

const char *
backtest_why(const struct project *p, const struct backtest_report *r,
    const struct backtest_score *s, int fig, char *buf, size_t len)
{
	switch (s->why[fig]) {
	case WHY_MEASURED:
		return NULL;
	case WHY_NO_POSTS:
		return bt_why_none(p, r, buf, len);
	case WHY_FEW_RANKS:
		snprintf(buf, len, "a rank correlation needs %d scored posts, "
		    "there %s %d", BACKTEST_RANK_MIN, s->n == 1 ? "is" : "are",
		    s->n);
		return buf;
	case WHY_TIES:
		snprintf(buf, len, "every prediction or every observed reward "
		    "is the same: ranks say nothing");
		return buf;
	case WHY_NOT_APPLICABLE:
		snprintf(buf, len, "a point prediction has no interval");
		return buf;
	case WHY_NO_BUILTIN:
		snprintf(buf, len, "the builtin model was not run: %s",
		    r->builtin_error[0] != '\0' ? r->builtin_error :
		    "this backtest did not ask for it");
		return buf;
	}
	return NULL;
}

bool
backtest_few(const struct backtest_score *s)
{
	return s->n > 0 && s->n < BACKTEST_MIN_POSTS;
}

const char *
backtest_figure_text(double v, bool percent, bool few, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "not measured");
	else if (percent)
		snprintf(buf, len, "%.0f%%%s", v * 100, few ? "*" : "");
	else
		snprintf(buf, len, "%.3f%s", v, few ? "*" : "");
	return buf;
}

/* The figures of s into o: a number, or null with its reason under
 * "not_measured". */
static void
bt_figures_into(const struct project *p, const struct backtest_report *r,
    const struct backtest_score *s, cJSON *o, bool coverage)
{
	const double v[FIG_COUNT] = { s->spearman, s->mae_log, s->coverage80 };
	cJSON *why = NULL;
	char buf[256];
	int f;

	for (f = 0; f < FIG_COUNT; f++) {
		if (f == FIG_COVERAGE80 && !coverage)
			continue;
		if (!isnan(v[f])) {
			cJSON_AddNumberToObject(o, backtest_figure_names[f],
			    v[f]);
			continue;
		}
		cJSON_AddNullToObject(o, backtest_figure_names[f]);
		if (why == NULL)
			why = cJSON_CreateObject();
		cJSON_AddStringToObject(why, backtest_figure_names[f],
		    backtest_why(p, r, s, f, buf, sizeof buf));
	}
	if (why != NULL)
		cJSON_AddItemToObject(o, "not_measured", why);
}

static cJSON *
bt_figures_json(const struct project *p, const struct backtest_report *r,
    const struct backtest_score *s)
{
	cJSON *o = cJSON_CreateObject();

	bt_figures_into(p, r, s, o, false);
	return o;
}

static cJSON *
bt_entry_json(const struct project *p, const struct backtest_post *bp)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "id", p->history[bp->history].id);
	cJSON_AddBoolToObject(e, "predicted", bp->predicted);
	if (bp->predicted) {
		cJSON_AddNumberToObject(e, "mean", bp->mean);
		cJSON_AddNumberToObject(e, "lo", bp->lo);
		cJSON_AddNumberToObject(e, "hi", bp->hi);
		cJSON_AddNumberToObject(e, "mean_log", bp->mean_log);
	}
	cJSON_AddNumberToObject(e, "observed", bp->observed);
	cJSON_AddBoolToObject(e, "scored", bp->scored);
	if (bp->builtin) {
		cJSON_AddNumberToObject(e, "builtin_mean",
		    bp->base[BASE_BUILTIN]);
		cJSON_AddNumberToObject(e, "builtin_mean_log", bp->builtin_log);
	}
	return e;
}

cJSON *
backtest_json(const struct project *p, const struct backtest_report *r,
    bool entries)
{
	cJSON *o = cJSON_CreateObject(), *base, *arr, *e;
	int ix[BACKTEST_WORST], n, i, b;

	cJSON_AddNumberToObject(o, "window", r->window);
	cJSON_AddNumberToObject(o, "posts", r->model.n);
	cJSON_AddNumberToObject(o, "min_posts", BACKTEST_MIN_POSTS);
	cJSON_AddBoolToObject(o, "few", backtest_few(&r->model));
	bt_figures_into(p, r, &r->model, o, true);
	base = cJSON_AddObjectToObject(o, "baselines");
	for (b = 0; b < BASE_COUNT; b++)
		cJSON_AddItemToObject(base, backtest_baseline_names[b],
		    bt_figures_json(p, r, &r->base[b]));
	if (isnan(r->model.mae_log))
		cJSON_AddNullToObject(o, "beats_baselines");
	else
		cJSON_AddBoolToObject(o, "beats_baselines", r->beats_baselines);
	if (r->builtin_self)
		cJSON_AddTrueToObject(o, "is_builtin");
	if (isnan(r->model.mae_log) || isnan(r->base[BASE_BUILTIN].mae_log) ||
	    r->builtin_self)
		cJSON_AddNullToObject(o, "beats_builtin");
	else
		cJSON_AddBoolToObject(o, "beats_builtin", r->beats_builtin);
	arr = cJSON_AddArrayToObject(o, "worst");
	n = backtest_worst(r, ix, BACKTEST_WORST);
	for (i = 0; i < n; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "id",
		    p->history[r->posts[ix[i]].history].id);
		cJSON_AddNumberToObject(e, "predicted", r->posts[ix[i]].mean);
		cJSON_AddNumberToObject(e, "observed", r->posts[ix[i]].observed);
		cJSON_AddItemToArray(arr, e);
	}
	if (!entries)
		return o;
	cJSON_AddBoolToObject(o, "ran", r->ran);
	if (r->error[0] != '\0')
		cJSON_AddStringToObject(o, "error", r->error);
	cJSON_AddBoolToObject(o, "builtin_asked", r->builtin_asked);
	cJSON_AddBoolToObject(o, "builtin_self", r->builtin_self);
	if (r->builtin_error[0] != '\0')
		cJSON_AddStringToObject(o, "builtin_error", r->builtin_error);
	arr = cJSON_AddArrayToObject(o, "entries");
	for (i = 0; i < r->nposts; i++)
		cJSON_AddItemToArray(arr, bt_entry_json(p, &r->posts[i]));
	if (r->grid != NULL) {
		arr = cJSON_AddArrayToObject(o, "grid");
		for (i = 0; i < p->nfronts * BACKTEST_CELLS; i++)
			cJSON_AddItemToArray(arr, isnan(r->grid[i]) ?
			    cJSON_CreateNull() : cJSON_CreateNumber(r->grid[i]));
	}
	return o;
}

static bool
bt_number(const cJSON *o, const char *k, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    fabs(v->valuedouble) > MODEL_NUMBER_MAX)
		return false;
	*out = v->valuedouble;
	return true;
}

/* The worker's draws for one post; a post it did not send, or sent out
 * of order, stays unpredicted. */
static int
bt_entry_from_json(const struct project *p, const cJSON *e,
    struct backtest_post *bp)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");

	if (!cJSON_IsString(id) ||
	    strcmp(id->valuestring, p->history[bp->history].id) != 0)
		return -1;
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "predicted")))
		return 0;
	if (!bt_number(e, "mean", &bp->mean) || !bt_number(e, "lo", &bp->lo) ||
	    !bt_number(e, "hi", &bp->hi) ||
	    !bt_number(e, "mean_log", &bp->mean_log))
		return -1;
	bp->predicted = true;
	if (cJSON_GetObjectItemCaseSensitive(e, "builtin_mean") == NULL)
		return 0;
	if (!bt_number(e, "builtin_mean", &bp->base[BASE_BUILTIN]) ||
	    !bt_number(e, "builtin_mean_log", &bp->builtin_log))
		return -1;
	bp->builtin = true;
	return 0;
}

/* The worker's heatmap: exactly one number (or null) per cell. */
static int
bt_grid_from_json(const struct project *p, const cJSON *g,
    struct backtest_report *r)
{
	const cJSON *v;
	int i = 0, n = p->nfronts * BACKTEST_CELLS;

	if (g == NULL)
		return 0;
	if (!cJSON_IsArray(g) || cJSON_GetArraySize(g) != n)
		return -1;
	r->grid = xcalloc((size_t)n, sizeof *r->grid);
	cJSON_ArrayForEach(v, g) {
		if (cJSON_IsNull(v))
			r->grid[i++] = NAN;
		else if (json_finite(v) && fabs(v->valuedouble) <=
		    MODEL_NUMBER_MAX)
			r->grid[i++] = v->valuedouble;
		else
			return -1;
	}
	return 0;
}

int
backtest_from_json(const struct project *p, const cJSON *j,
    struct backtest_report *r, struct error *err)
{
	const cJSON *entries, *e, *msg;
	struct backtest_params bp = { 0 };
	int i = 0;

	if (!cJSON_IsObject(j) || !bt_number(j, "window", &bp.window) ||
	    !(bp.window > 0 && bp.window < 1))
		return error_set(err, EXIT_MODEL, "backtest report: malformed");
	bt_prepare(p, &bp, r, NULL);
	r->ran = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ran"));
	msg = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (cJSON_IsString(msg))
		snprintf(r->error, sizeof r->error, "%s", msg->valuestring);
	r->builtin_asked = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j,
	    "builtin_asked"));
	r->builtin_self = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j,
	    "builtin_self"));
	msg = cJSON_GetObjectItemCaseSensitive(j, "builtin_error");
	if (cJSON_IsString(msg))
		snprintf(r->builtin_error, sizeof r->builtin_error, "%s",
		    msg->valuestring);
	entries = cJSON_GetObjectItemCaseSensitive(j, "entries");
	if (!cJSON_IsArray(entries) || cJSON_GetArraySize(entries) > r->nposts)
		goto bad;
	cJSON_ArrayForEach(e, entries)
		if (bt_entry_from_json(p, e, &r->posts[i++]) != 0)
			goto bad;
	if (bt_grid_from_json(p, cJSON_GetObjectItemCaseSensitive(j, "grid"),
	    r) != 0)
		goto bad;
	backtest_score(r);
	return 0;
bad:
	backtest_report_free(r);
	return error_set(err, EXIT_MODEL, "backtest report: an entry that is "
	    "not the window's post or not a finite number");
}

static char *
bt_append(char *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *
bt_append(char *s, const char *fmt, ...)
{
	char *add, *next;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&add, fmt, ap) < 0)
		abort();
	va_end(ap);
	xasprintf(&next, "%s%s", s, add);
	free(s);
	free(add);
	return next;
}

/* One row of the table: posts, then each figure or "not measured". */
static char *
bt_row(char *s, const char *name, const struct backtest_score *sc,
    bool coverage)
{
	char f[3][32];
	bool few = backtest_few(sc);

	return bt_append(s, "  %-14s %5d %13s %13s %13s\n", name, sc->n,
	    backtest_figure_text(sc->spearman, false, few, f[0], sizeof f[0]),
	    backtest_figure_text(sc->mae_log, false, few, f[1], sizeof f[1]),
	    coverage ? backtest_figure_text(sc->coverage80, true, few, f[2],
	    sizeof f[2]) : "-");
}

/* The reasons behind the model's figures that are not measured, one
 * line per reason with the figures it holds back (the baselines rest on
 * the same posts). */
static char *
bt_reasons(char *s, const struct project *p, const struct backtest_report *r)
{
	char buf[256], names[64];
	bool done[FIG_COUNT] = { false };
	int f, g;

	for (f = 0; f < FIG_COUNT; f++) {
		if (done[f] || backtest_why(p, r, &r->model, f, buf,
		    sizeof buf) == NULL)
			continue;
		names[0] = '\0';
		for (g = f; g < FIG_COUNT; g++)
			if (r->model.why[g] == r->model.why[f]) {
				done[g] = true;
				snprintf(names + strlen(names), sizeof names -
				    strlen(names), "%s%s", g > f ? ", " : "",
				    backtest_figure_names[g]);
			}
		s = bt_append(s, "  not measured (%s): %s\n", names, buf);
	}
	return s;
}

const char *
backtest_builtin_text(const struct project *p, const struct backtest_report *r,
    char *buf, size_t len)
{
	char why[256];

	if (!r->builtin_asked)
		return NULL;
	if (r->builtin_self)
		snprintf(buf, len, "the model is the builtin model (its own "
		    "baseline)");
	else if (isnan(r->base[BASE_BUILTIN].mae_log))
		snprintf(buf, len, "builtin: not measured (%s)", backtest_why(p,
		    r, &r->base[BASE_BUILTIN], FIG_MAE_LOG, why, sizeof why));
	else
		snprintf(buf, len, "%s%s%s", r->beats_builtin ?
		    "it also beats the builtin model (lower mae_log)" :
		    "it does NOT beat the builtin model on mae_log (`fronts "
		    "synth --provider builtin` writes that one)",
		    r->builtin_error[0] != '\0' ? "; builtin stopped: " : "",
		    r->builtin_error);
	return buf;
}

char *
backtest_text(const struct project *p, const struct backtest_report *r)
{
	char *s, buf[512];
	int b;
	if (!r->ran)
		return xstrdup("backtest: the model defines no predict(), so "
		    "it cannot be measured on history: not measured\n");
	char obj[512];

	objective_describe(p, obj, sizeof obj);
	xasprintf(&s, "backtest on the newest %.0f%% of history: %d of %d "
	    "posts scored\n  reward = %s\n", r->window * 100, r->scored,
	    r->nposts, obj);
	if (r->unscored > 0)
		s = bt_append(s, "  %d left out: a weighted metric is unknown "
		    "(never taken as 0)\n", r->unscored);
	if (r->error[0] != '\0')
		s = bt_append(s, "  stopped: %s\n", r->error);
	s = bt_append(s, "  %-14s %5s %13s %13s %13s\n", "", "posts",
	    "spearman", "mae_log", "coverage80");
	s = bt_row(s, "model", &r->model, true);
	for (b = 0; b < BASE_COUNT; b++)
		if (b != BASE_BUILTIN || r->builtin_asked)
			s = bt_row(s, backtest_baseline_names[b], &r->base[b],
			    false);
	if (backtest_few(&r->model))
		s = bt_append(s, "  * rests on %d posts, fewer than %d: "
		    "indicative only\n", r->model.n, BACKTEST_MIN_POSTS);
	s = bt_reasons(s, p, r);
	if (isnan(r->model.mae_log))
		return bt_append(s, "  whether the model beats the baselines: "
		    "not measured\n");
	s = bt_append(s, "  %s%s\n", r->beats_baselines ?
	    "the model beats both baselines (lower mae_log)" :
	    "the model does NOT beat both baselines on mae_log",
	    backtest_few(&r->model) ? " (indicative only)" : "");
	if (backtest_builtin_text(p, r, buf, sizeof buf) != NULL)
		s = bt_append(s, "  %s\n", buf);
	return s;
}
