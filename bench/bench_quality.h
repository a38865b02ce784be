/*
 * bench_quality — what bench_search needs to judge plans, not only time
 * them: the benchmark projects (bench/gen_projects.py), a plan's true
 * value (its actions replayed open loop through the model over fixed
 * determinizations), the optimum of a deterministic project by
 * enumerating every plan, the Python peer's plan, and the table of
 * figures against their goals that `make bench` ends with.
 *
 * Included by bench_search.c only (each bench source is one binary).
 */
#ifndef FRONTS_BENCH_QUALITY_H
#define FRONTS_BENCH_QUALITY_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/legal.h"
#include "core/plan.h"
#include "core/project.h"
#include "core/search.h"
#include "sandbox/wmodel.h"

/* ---- the table of figures ------------------------------------------ */

#define FIG_MAX	64

struct figure {
	char	name[72];
	char	measured[96];
	char	goal[24];
	int	met;		/* 1 met, 0 not, -1 for information */
};

static struct figure	figs[FIG_MAX];
static int		nfigs;

static void __attribute__((format(printf, 4, 5)))
fig(const char *name, const char *goal, int met, const char *fmt, ...)
{
	struct figure *f;
	va_list ap;

	if (nfigs == FIG_MAX)
		return;
	f = &figs[nfigs++];
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->goal, sizeof f->goal, "%s", goal);
	f->met = met;
	va_start(ap, fmt);
	vsnprintf(f->measured, sizeof f->measured, fmt, ap);
	va_end(ap);
}

static void
fig_print(void)
{
	int i;

	printf("\n%-46s | %-48s | %-10s | met\n", "figure", "measured", "goal");
	for (i = 0; i < nfigs; i++)
		printf("%-46s | %-48s | %-10s | %s\n", figs[i].name,
		    figs[i].measured, figs[i].goal, figs[i].met < 0 ? "-" :
		    figs[i].met ? "yes" : "NO");
}

/* ---- benchmark projects -------------------------------------------- */

struct bproj {
	struct project	*p;
	struct wmodel	*wm;
	char		*src;
	size_t		 len;
	char		*dir, *model;
};

static char	*bench_projects_dir;

/* Writes the projects once per run (gen_projects.py is deterministic). */
static const char *
bench_projects(const char *top)
{
	char *cmd;

	if (bench_projects_dir != NULL)
		return bench_projects_dir;
	bench_projects_dir = xstrdup("/tmp/fronts-bench-projects-XXXXXX");
	if (mkdtemp(bench_projects_dir) == NULL)
		abort();
	xasprintf(&cmd, "/usr/bin/python3 %s/bench/gen_projects.py %s", top,
	    bench_projects_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench: %s failed\n", cmd);
	free(cmd);
	return bench_projects_dir;
}

static void
bench_projects_remove(void)
{
	char *cmd;

	if (bench_projects_dir == NULL || getenv("BENCH_KEEP_CALLS") != NULL)
		return;
	xasprintf(&cmd, "rm -rf %s", bench_projects_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench: %s failed\n", cmd);
	free(cmd);
}

static int
bproj_load(const char *top, const char *name, struct bproj *b)
{
	struct error err = { 0 };

	memset(b, 0, sizeof *b);
	if (strcmp(name, "demo") == 0)
		b->dir = path_join(top, "fixtures/demo");
	else
		b->dir = path_join(bench_projects(top), name);
	b->model = path_join(b->dir, "model.py");
	if (project_load(b->dir, &b->p, &err) != 0 ||
	    file_read(b->model, &b->src, &b->len, &err) != 0 ||
	    wmodel_load(b->p, b->src, b->len, 5000, &b->wm, &err) != 0) {
		printf("%s: skipped: %s\n", name, err.msg);
		return -1;
	}
	wmodel_enter(b->wm);
	return 0;
}

static void
bproj_free(struct bproj *b)
{
	if (b->wm != NULL) {
		wmodel_leave(b->wm);
		wmodel_free(b->wm);
	}
	project_free(b->p);
	free(b->src);
	free(b->dir);
	free(b->model);
}

/* ---- plans and their true value ------------------------------------ */

struct bplan {
	struct action	*a;
	int		 n;
};

static void
bplan_free(struct bplan *pl)
{
	free(pl->a);
	pl->a = NULL;
	pl->n = 0;
}

static void
bplan_of_search(struct search *s, struct bplan *pl)
{
	struct search_result r;
	int i;

	search_result(s, 0, &r);
	pl->n = r.npv;
	pl->a = xcalloc(r.npv + 1, sizeof *pl->a);
	for (i = 0; i < r.npv; i++)
		pl->a[i] = r.pv[i].action;
	search_result_free(&r);
}

/*
 * The plan's true value: its actions replayed in order from samples
 * determinizations (seeds from seedbase on, the same for every plan, so
 * two plans are compared on the same draws), a post the engine lg does not
 * allow at its turn skipped, the mean total reward. The deterministic
 * projects need one sample.
 */
static double
bplan_value_lg(const struct bproj *b, struct legal *lg,
    const struct bplan *pl, int samples, uint64_t seedbase)
{
	struct legal_path *lp = legal_path_new(lg);
	model_state *st, *next;
	double total = 0, r;
	int i, k, ok = 0;

	for (k = 0; k < samples; k++) {
		wmodel_ops.seed(b->wm, seedbase + (uint64_t)k);
		if (wmodel_ops.sample_hidden(b->wm, &st) != MODEL_OK)
			continue;
		legal_path_reset(lg, lp);
		for (i = 0; i < pl->n && !legal_path_done(lg, lp); i++) {
			if (legal_check(lg, lp, &pl->a[i]) != LEGAL_OK)
				continue;
			if (wmodel_ops.apply(b->wm, st, &pl->a[i], &next, &r) !=
			    MODEL_OK)
				break;
			wmodel_ops.state_free(b->wm, st);
			st = next;
			legal_apply(lg, lp, &pl->a[i]);
			total += r;
		}
		wmodel_ops.state_free(b->wm, st);
		ok++;
	}
	legal_path_free(lp);
	return ok > 0 ? total / ok : 0;
}

#define BPLAN_SEEDS	0x5eed0000ULL	/* the judge's determinizations */

static struct legal *
bproj_legal(const struct bproj *b)
{
	struct legal_past *past;
	struct legal *lg;
	int n;

	n = legal_past_from_history(b->p, &past);
	lg = legal_new(b->p, past, n, NULL);
	free(past);
	return lg;
}

static double
bplan_value(const struct bproj *b, const struct bplan *pl, int samples)
{
	struct legal *lg = bproj_legal(b);
	double v = bplan_value_lg(b, lg, pl, samples, BPLAN_SEEDS);

	legal_free(lg);
	return v;
}

/* A planner's plan (posts with slots) as actions: waits up to each post. */
static void
bplan_of_plan(const struct plan *pl, struct bplan *out)
{
	int i, slot = 0, n = 0, cap = pl->nposts + 1;

	for (i = 0; i < pl->nposts; i++)
		cap += pl->posts[i].slot;
	out->a = xcalloc(cap, sizeof *out->a);
	for (i = 0; i < pl->nposts; i++) {
		for (; slot < pl->posts[i].slot; slot++)
			out->a[n++].kind = ACTION_WAIT;
		out->a[n].kind = ACTION_POST;
		out->a[n].draft = pl->posts[i].draft;
		out->a[n++].front = pl->posts[i].front;
	}
	out->n = n;
}

/* ---- the optimum by enumeration ------------------------------------ */

struct benum {
	const struct bproj	*b;
	struct legal		*lg;
	uint64_t		 plans;
};

static uint32_t
benum_key(const struct project *p, const struct action *a)
{
	return a->kind == ACTION_WAIT ? 0 : 1 + a->draft * p->nfronts +
	    a->front;
}

/*
 * The best total over every plan in the search's own action space: at
 * each point the engine's legal actions, same-slot posts in increasing
 * (draft, front) order as the search takes them. The model is
 * deterministic, so one path per plan.
 */
static double
benum_walk(struct benum *e, const struct legal_path *lp, model_state *st,
    uint32_t last)
{
	struct action *acts = xcalloc(legal_max_actions(e->lg), sizeof *acts);
	struct legal_path *child = legal_path_new(e->lg);
	model_state *next;
	double best = 0, r, v;
	uint32_t key;
	int n, i;

	if (legal_path_done(e->lg, lp)) {
		e->plans++;
		n = 0;
	} else
		n = legal_enumerate(e->lg, lp, acts);
	for (i = 0; i < n; i++) {
		key = benum_key(e->b->p, &acts[i]);
		if (key != 0 && key <= last)
			continue;
		if (wmodel_ops.apply(e->b->wm, st, &acts[i], &next, &r) !=
		    MODEL_OK)
			continue;
		legal_path_copy(e->lg, child, lp);
		legal_apply(e->lg, child, &acts[i]);
		v = r + benum_walk(e, child, next, key);
		wmodel_ops.state_free(e->b->wm, next);
		if (v > best)
			best = v;
	}
	legal_path_free(child);
	free(acts);
	return best;
}

static double
bench_optimum(const struct bproj *b, uint64_t *plans)
{
	struct benum e = { b, NULL, 0 };
	struct legal_past *past;
	struct legal_path *lp;
	model_state *st;
	double best = 0;
	int n;

	n = legal_past_from_history(b->p, &past);
	e.lg = legal_new(b->p, past, n, NULL);
	lp = legal_path_new(e.lg);
	wmodel_ops.seed(b->wm, 0);
	if (wmodel_ops.sample_hidden(b->wm, &st) == MODEL_OK) {
		best = benum_walk(&e, lp, st, 0);
		wmodel_ops.state_free(b->wm, st);
	}
	*plans = e.plans;
	legal_path_free(lp);
	legal_free(e.lg);
	free(past);
	return best;
}

/* ---- the peer's plan ----------------------------------------------- */

/* Reads the "plan" of the peer's JSON line. */
static int
bplan_of_peer(const char *line, struct bplan *pl)
{
	cJSON *o = cJSON_Parse(line), *a, *x;
	int i = 0;

	memset(pl, 0, sizeof *pl);
	a = o != NULL ? cJSON_GetObjectItem(o, "plan") : NULL;
	if (!cJSON_IsArray(a)) {
		cJSON_Delete(o);
		return -1;
	}
	pl->a = xcalloc(cJSON_GetArraySize(a) + 1, sizeof *pl->a);
	cJSON_ArrayForEach(x, a) {
		if (cJSON_IsArray(x) && cJSON_GetArraySize(x) == 2) {
			pl->a[i].kind = ACTION_POST;
			pl->a[i].draft = (uint32_t)cJSON_GetArrayItem(x,
			    0)->valuedouble;
			pl->a[i].front = (uint16_t)cJSON_GetArrayItem(x,
			    1)->valuedouble;
		}
		i++;
	}
	pl->n = i;
	cJSON_Delete(o);
	return 0;
}

#endif
