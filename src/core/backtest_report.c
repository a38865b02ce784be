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

static cJSON *
bt_figures_json(const struct backtest_score *s, bool coverage)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "spearman", s->spearman);
	cJSON_AddNumberToObject(o, "mae_log", s->mae_log);
	if (coverage)
		cJSON_AddNumberToObject(o, "coverage80", s->coverage80);
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
	return e;
}

cJSON *
backtest_json(const struct project *p, const struct backtest_report *r,
    bool entries)
{
	cJSON *o = cJSON_CreateObject(), *base, *arr, *e;
	int ix[BACKTEST_WORST], n, i, b;

	cJSON_AddNumberToObject(o, "window", r->window);
	cJSON_AddNumberToObject(o, "posts", r->scored);
	cJSON_AddNumberToObject(o, "spearman", r->model.spearman);
	cJSON_AddNumberToObject(o, "mae_log", r->model.mae_log);
	cJSON_AddNumberToObject(o, "coverage80", r->model.coverage80);
	base = cJSON_AddObjectToObject(o, "baselines");
	for (b = 0; b < BASE_COUNT; b++)
		cJSON_AddItemToObject(base, backtest_baseline_names[b],
		    bt_figures_json(&r->base[b], false));
	cJSON_AddBoolToObject(o, "beats_baselines", r->beats_baselines);
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

char *
backtest_text(const struct project *p, const struct backtest_report *r)
{
	char *s;
	int b;

	(void)p;
	if (!r->ran)
		return xstrdup("backtest: the model defines no predict(), so "
		    "it cannot be measured on history\n");
	xasprintf(&s, "backtest on the newest %.0f%% of history: %d of %d "
	    "posts scored\n", r->window * 100, r->scored, r->nposts);
	if (r->unscored > 0)
		s = bt_append(s, "  %d left out: a weighted metric is unknown "
		    "(never taken as 0)\n", r->unscored);
	if (r->error[0] != '\0')
		s = bt_append(s, "  stopped: %s\n", r->error);
	s = bt_append(s, "  %-14s %9s %8s %11s\n", "", "spearman", "mae_log",
	    "coverage80");
	s = bt_append(s, "  %-14s %9.3f %8.3f %10.0f%%\n", "model",
	    r->model.spearman, r->model.mae_log, r->model.coverage80 * 100);
	for (b = 0; b < BASE_COUNT; b++)
		s = bt_append(s, "  %-14s %9.3f %8.3f %11s\n",
		    backtest_baseline_names[b], r->base[b].spearman,
		    r->base[b].mae_log, "-");
	return bt_append(s, "  %s\n", r->beats_baselines ?
	    "the model beats both baselines (lower mae_log)" :
	    "the model does NOT beat both baselines on mae_log");
}
