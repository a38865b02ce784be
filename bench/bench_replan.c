/*
 * bench_replan — what reusing the search tree buys `fronts run` (a ratio
 * measured in this one run; `make bench`): on the demo, a plan is
 * searched, its first post is "sent", and the rest of the horizon is
 * re-planned twice with the same model and seed: from scratch on the full
 * budget, and from the subtree below the sent post (search_export_subtree)
 * on a fraction of it. Each re-plan's value is the true value of the sent
 * post followed by its plan (replayed open loop over fixed
 * determinizations, bench_quality.h), its time the CPU seconds of the
 * search. Environment: FRONTS_TOP (repository root), BENCH_QUICK=1
 * (smaller budgets), BENCH_REPLAN_ITERATIONS (the full budget).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/legal.h"
#include "core/search.h"
#include "sandbox/wmodel.h"
#pragma GCC diagnostic ignored "-Wunused-function"
#include "bench_quality.h"
#include "bench_replay.h"

#define REUSE_SHARE	0.25	/* of the full budget, for the reused re-plan */
#define REPLAN_SEEDS	3	/* each re-plan's figures: the mean over seeds */
#define VALUE_SAMPLES	64

struct outcome {
	double	value, cpu;
};

static struct search_params
replan_params(uint64_t iterations, uint64_t seed)
{
	struct search_params sp;

	search_params_default(&sp);
	sp.iterations = iterations;
	sp.seed = seed;
	sp.workers = 1;
	sp.isolation = ISOLATION_THREAD;
	sp.call_timeout_ms = 5000;
	return sp;
}

/* A search over p's window from past, optionally started from prior;
 * its plan in *pl, its CPU time in *cpu; the tree exported when buf. */
static int
replan_search(struct bproj *b, const struct project *p, uint64_t iterations,
    uint64_t seed, const struct legal_past *past, int npast,
    const char *prior, size_t plen, struct bplan *pl, double *cpu,
    char **buf, size_t *len)
{
	struct search_params sp = replan_params(iterations, seed);
	struct search *s = search_new_past(p, &sp, 0, past, npast);
	struct error err = { 0 };
	double c0;
	int rc;

	if (prior != NULL && search_merge(s, prior, plen, &err) != 0) {
		fprintf(stderr, "bench_replan: %s\n", err.msg);
		search_free(s);
		return -1;
	}
	c0 = cpu_now();
	rc = search_run(s, &wmodel_ops, b->wm, &err);
	*cpu = cpu_now() - c0;
	if (rc != 0)
		fprintf(stderr, "bench_replan: %s\n", err.msg);
	bplan_of_search(s, pl);
	if (buf != NULL)
		search_export(s, buf, len);
	search_free(s);
	return rc;
}

/* The value of the steps that happened followed by a re-plan's plan. */
static double
replan_value(struct bproj *b, const struct action *done, int ndone,
    const struct bplan *rest)
{
	struct bplan all;
	double v;

	all.n = ndone + rest->n;
	all.a = xcalloc(all.n + 1, sizeof *all.a);
	memcpy(all.a, done, ndone * sizeof *done);
	memcpy(all.a + ndone, rest->a, rest->n * sizeof *rest->a);
	v = bplan_value(b, &all, VALUE_SAMPLES);
	bplan_free(&all);
	return v;
}

/* What happened: the plan's steps up to its first post (sent), and the
 * re-plan's window and past. */
struct happened {
	struct bplan		 first;
	int			 ndone, shift;
	struct legal_past	*past;
	int			 npast;
	time_t			 start;
	int			 horizon;
};

/* One re-plan (prior: the reused subtree, or NULL) with seed, its value
 * and time added to *o. */
static int
replan_variant(struct bproj *b, const struct happened *h, uint64_t n,
    uint64_t seed, const char *prior, size_t plen, struct outcome *o)
{
	struct project *p = b->p;
	struct bplan pl;
	double cpu;
	int rc;

	p->start = project_slot_time(p, h->shift);
	p->horizon_slots = h->horizon - h->shift;
	rc = replan_search(b, p, n, seed, h->past, h->npast, prior, plen, &pl,
	    &cpu, NULL, NULL);
	p->start = h->start;
	p->horizon_slots = h->horizon;
	o->value += replan_value(b, h->first.a, h->ndone, &pl) / REPLAN_SEEDS;
	o->cpu += cpu / REPLAN_SEEDS;
	bplan_free(&pl);
	return rc;
}

static int
replan_happen(struct bproj *b, uint64_t n, struct happened *h, char **tree,
    size_t *tlen)
{
	struct project *p = b->p;
	double cpu;
	int k;

	memset(h, 0, sizeof *h);
	h->start = p->start;
	h->horizon = p->horizon_slots;
	if (replan_search(b, p, n, 1, NULL, 0, NULL, 0, &h->first, &cpu, tree,
	    tlen) != 0)
		return -1;
	for (k = 0; k < h->first.n && h->first.a[k].kind == ACTION_WAIT; k++)
		h->shift++;
	if (k == h->first.n) {
		printf("replan: the plan posts nothing\n");
		return -1;
	}
	h->ndone = k + 1;
	h->npast = legal_past_from_history(p, &h->past);
	h->past = xrealloc(h->past, (h->npast + 1) * sizeof *h->past);
	memset(&h->past[h->npast], 0, sizeof *h->past);
	h->past[h->npast].front = h->first.a[k].front;
	h->past[h->npast].draft = (int)h->first.a[k].draft + 1;
	h->past[h->npast].at = project_slot_time(p, h->shift);
	h->npast++;
	return 0;
}

static int
replan_bench(struct bproj *b, uint64_t n)
{
	struct outcome scratch = { 0 }, reuse = { 0 }, small = { 0 };
	struct happened h;
	char *tree = NULL, *sub = NULL;
	size_t tlen = 0, slen = 0;
	uint64_t seed, part = (uint64_t)(n * REUSE_SHARE);
	int rc = 0;

	if (replan_happen(b, n, &h, &tree, &tlen) != 0 ||
	    search_export_subtree(tree, tlen, h.first.a, h.ndone, h.shift,
	    &sub, &slen) != 0) {
		printf("replan: no subtree below the sent post\n");
		rc = -1;
		goto out;
	}
	for (seed = 2; seed < 2 + REPLAN_SEEDS; seed++) {
		rc |= replan_variant(b, &h, n, seed, NULL, 0, &scratch);
		rc |= replan_variant(b, &h, part, seed, sub, slen, &reuse);
		rc |= replan_variant(b, &h, part, seed, NULL, 0, &small);
	}
	printf("replan on the demo, %llu iterations, first post sent "
	    "(means over %d seeds):\n"
	    "  from scratch, full budget:       value %.1f, %.2f s CPU\n"
	    "  reused tree, %2.0f%% of the budget:  value %.1f, %.2f s CPU\n"
	    "  from scratch, %2.0f%% of the budget: value %.1f, %.2f s CPU\n",
	    (unsigned long long)n, REPLAN_SEEDS, scratch.value, scratch.cpu,
	    REUSE_SHARE * 100, reuse.value, reuse.cpu, REUSE_SHARE * 100,
	    small.value, small.cpu);
	fig("replan: reused tree / scratch, plan value", ">= 0.98",
	    reuse.value >= 0.98 * scratch.value, "%.3f",
	    scratch.value != 0 ? reuse.value / scratch.value : 0);
	fig("replan: reused tree / scratch, time", "<= 0.30",
	    reuse.cpu <= 0.30 * scratch.cpu, "%.3f",
	    scratch.cpu > 0 ? reuse.cpu / scratch.cpu : 0);
	fig("replan: scratch at the same share / full, value", "info", -1,
	    "%.3f", scratch.value != 0 ? small.value / scratch.value : 0);
out:
	free(h.past);
	free(tree);
	free(sub);
	bplan_free(&h.first);
	return rc;
}

int
main(void)
{
	const char *top = getenv("FRONTS_TOP") != NULL ? getenv("FRONTS_TOP") :
	    ".";
	const char *it = getenv("BENCH_REPLAN_ITERATIONS");
	uint64_t n = it != NULL ? strtoull(it, NULL, 10) :
	    getenv("BENCH_QUICK") != NULL ? 2000 : 10000;
	struct bproj b;
	int rc;

	if (bproj_load(top, "demo", &b) != 0)
		return 1;
	rc = replan_bench(&b, n);
	bproj_free(&b);
	fig_print();
	return rc == 0 ? 0 : 1;
}
