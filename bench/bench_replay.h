/*
 * bench_replay — the search's own model calls, replayed with nothing
 * around them: the baseline for the time per model call inside the
 * search (bench_search "call"). A recorder in front of the model logs
 * every call the search makes (seeds included, and the action of every
 * apply, and whether its state was freed before any use: a try, as a
 * completion's step makes of each action it compares); the replay then
 * makes exactly those calls, on the same states, in the same order, with
 * no engine, tree or bookkeeping. The recorded
 * search only gives the calls: the search is timed again unrecorded
 * (bench_call_fig).
 * One recording at a time (the bench is single-threaded).
 */
#ifndef FRONTS_BENCH_REPLAY_H
#define FRONTS_BENCH_REPLAY_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "core/model.h"

enum brec_fn { BR_SEED, BR_HIDDEN, BR_LEGAL, BR_APPLY, BR_TERMINAL, BR_VALUE };

struct brec {
	uint8_t		fn;
	uint8_t		tried;		/* BR_APPLY: its state freed unused */
	struct action	a;
	uint64_t	seed;
};

static struct {
	const struct model_ops	*ops;
	struct brec		*v;
	size_t			 n, cap;
	model_state		*last;		/* the last apply's state */
} brec_log;

static struct brec *
brec_push(enum brec_fn fn)
{
	if (brec_log.n == brec_log.cap) {
		brec_log.cap = brec_log.cap ? brec_log.cap * 2 : 1 << 16;
		brec_log.v = xrealloc(brec_log.v,
		    brec_log.cap * sizeof *brec_log.v);
	}
	brec_log.v[brec_log.n].fn = (uint8_t)fn;
	brec_log.v[brec_log.n].tried = 0;
	return &brec_log.v[brec_log.n++];
}

static void
brec_seed(void *m, uint64_t seed)
{
	brec_push(BR_SEED)->seed = seed;
	brec_log.ops->seed(m, seed);
}

static int
brec_initial(void *m, model_state **out)
{
	return brec_log.ops->initial_state(m, out);
}

static int
brec_hidden(void *m, model_state **out)
{
	brec_push(BR_HIDDEN);
	return brec_log.ops->sample_hidden(m, out);
}

static int
brec_legal(void *m, model_state *s, uint32_t *out, int max, int *n,
    int *illegal)
{
	brec_push(BR_LEGAL)->seed = (uint64_t)max;
	return brec_log.ops->legal_ids(m, s, out, max, n, illegal);
}

static int
brec_apply(void *m, model_state *s, const struct action *a,
    model_state **next, double *reward)
{
	int rc;

	brec_push(BR_APPLY)->a = *a;
	rc = brec_log.ops->apply(m, s, a, next, reward);
	brec_log.last = rc == MODEL_OK ? *next : NULL;
	return rc;
}

static int
brec_terminal(void *m, model_state *s, bool *out)
{
	brec_push(BR_TERMINAL);
	return brec_log.ops->is_terminal(m, s, out);
}

static int
brec_value(void *m, model_state *s, double *out)
{
	brec_push(BR_VALUE);
	return brec_log.ops->value(m, s, out);
}

static void
brec_free(void *m, model_state *s)
{
	size_t i = brec_log.n;

	if (s != NULL && s == brec_log.last) {
		while (i > 0 && brec_log.v[i - 1].fn != BR_APPLY)
			i--;
		if (i > 0)
			brec_log.v[i - 1].tried = 1;
		brec_log.last = NULL;
	}
	brec_log.ops->state_free(m, s);
}

static const struct model_error *
brec_last_error(void *m)
{
	return brec_log.ops->last_error(m);
}

static bool
brec_has_value(void *m)
{
	return brec_log.ops->has_value(m);
}

/* The search asks nothing else (predict stays NULL). */
static const struct model_ops brec_ops = {
	.seed = brec_seed, .initial_state = brec_initial,
	.sample_hidden = brec_hidden, .legal_ids = brec_legal,
	.apply = brec_apply, .is_terminal = brec_terminal,
	.value = brec_value, .state_free = brec_free,
	.last_error = brec_last_error, .has_value = brec_has_value,
};

/* Starts a recording in front of ops; returns the ops to search with. */
static const struct model_ops *
brec_start(const struct model_ops *ops)
{
	brec_log.ops = ops;
	brec_log.n = 0;
	brec_log.last = NULL;
	return &brec_ops;
}

/* CPU seconds of this process (every bench_search time). */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Makes the recorded calls again on the model behind the recording; the
 * search applies every action to its one current state (a try's state
 * freed at once), so one state is enough. Returns CPU seconds (and the
 * calls made, seeds not counted, as the search does not count them), or -1
 * on a model error.
 */
static double
brec_replay(void *m, uint64_t *calls)
{
	const struct model_ops *ops = brec_log.ops;
	uint32_t *buf = NULL;
	model_state *st = NULL, *next;
	double c0, r, v;
	int n, ill, max = 0, rc = 0;
	bool term;
	size_t i;

	for (i = 0; i < brec_log.n; i++)
		if (brec_log.v[i].fn == BR_LEGAL &&
		    (int)brec_log.v[i].seed > max)
			max = (int)brec_log.v[i].seed;
	buf = xcalloc(max + 1, sizeof *buf);
	c0 = cpu_now();
	*calls = 0;
	for (i = 0; i < brec_log.n && rc == 0; i++) {
		*calls += brec_log.v[i].fn != BR_SEED;
		switch (brec_log.v[i].fn) {
		case BR_SEED:
			ops->seed(m, brec_log.v[i].seed);
			break;
		case BR_HIDDEN:
			if (st != NULL)
				ops->state_free(m, st);
			st = NULL;
			rc = ops->sample_hidden(m, &st);
			break;
		case BR_LEGAL:
			rc = ops->legal_ids(m, st, buf,
			    (int)brec_log.v[i].seed, &n, &ill);
			break;
		case BR_APPLY:
			rc = ops->apply(m, st, &brec_log.v[i].a, &next, &r);
			if (rc == 0 && brec_log.v[i].tried)
				ops->state_free(m, next);
			else if (rc == 0) {
				ops->state_free(m, st);
				st = next;
			}
			break;
		case BR_TERMINAL:
			rc = ops->is_terminal(m, st, &term);
			break;
		case BR_VALUE:
			rc = ops->value(m, st, &v);
			break;
		}
	}
	if (st != NULL)
		ops->state_free(m, st);
	free(buf);
	return rc == 0 ? cpu_now() - c0 : -1;
}

/*
 * The recorded calls as text for bench/replay_py.py, which makes them again
 * in a bare Python loop (its docstring gives the format). Returns 0, or -1
 * where the file cannot be written.
 */
static int
brec_write(const char *path, int nfronts)
{
	const struct brec *r;
	FILE *f = fopen(path, "w");
	size_t i;

	if (f == NULL)
		return -1;
	for (i = 0; i < brec_log.n; i++) {
		r = &brec_log.v[i];
		switch (r->fn) {
		case BR_SEED:
			fprintf(f, "s %llu\n", (unsigned long long)r->seed);
			break;
		case BR_HIDDEN:
			fputs("h\n", f);
			break;
		case BR_LEGAL:
			fputs("l\n", f);
			break;
		case BR_APPLY:
			fprintf(f, "%c %lu\n", r->tried ? 'x' : 'a',
			    r->a.kind == ACTION_WAIT ? 0 :
			    1 + (unsigned long)r->a.draft * nfronts +
			    r->a.front);
			break;
		case BR_TERMINAL:
			fputs("t\n", f);
			break;
		case BR_VALUE:
			fputs("v\n", f);
			break;
		}
	}
	return fclose(f) == 0 ? 0 : -1;
}

#endif
