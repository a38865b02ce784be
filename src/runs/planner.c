/*
 * planner — one plan from start to end on a background thread (see
 * planner.h). With --isolation thread the search runs on that thread over
 * the model loaded into this process; with process isolation the thread
 * drives N sandbox workers, each searching its share of the iterations
 * with seed offset i, and merges their trees by action path. Either way
 * the plan is built here and every post re-checked by this process's own
 * legality engine, built from history.jsonl and the ledger's sent posts.
 *
 * A stop is graceful: each worker is asked to stop (worker_cancel) and
 * sends its tree so far, which is merged as in a normal finish. A worker
 * that does not answer within the grace period is killed and its tree is
 * lost; the plan is built from the others, and planner_notes() says so.
 * The plan's time limit is such a stop, and planner_notes() names it.
 *
 * The parent's memory: a worker's result is merged as soon as every
 * worker before it has been (trees are merged in worker order) and freed
 * at once, and each result is bounded by its worker's memory share
 * (worker_parent.c): what the planner holds is the merged tree and the
 * results of workers that finished before an earlier one.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/legal.h"
#include "runs/planner.h"
#include "sandbox/wmodel.h"
#include "sandbox/lockdown.h"
#include "sandbox/worker.h"

#define PLANNER_ALTS		3
#define PLANNER_STALL_CALLS	10
#define PLANNER_STALL_MIN	5.0
#define PLANNER_GRACE_CALLS	3
#define PLANNER_GRACE_MIN	2.0

struct planner {
	const struct project	*p;
	char			*src;
	size_t			 len;
	char			 sha[65];
	struct search_params	 params;
	struct legal_past	*past;
	int			 npast;

	pthread_t		 thread;
	bool			 running;	/* thread not yet joined */
	pthread_mutex_t		 lock;
	atomic_bool		 stop;
	atomic_bool		 finished;
	struct search		*search;	/* the live or merged tree */
	struct worker		**workers;	/* process isolation */
	struct search_snapshot	*wsnap;		/* latest of each worker */
	bool			*wdone;
	double			*wlast;		/* when each last said something */
	char			**wres;		/* each one's exported tree */
	size_t			*wreslen;
	int			 nmerged;	/* workers 0..nmerged-1 merged */
	int			 nanswered;	/* results received */
	bool			 merged;	/* search holds every tree */
	double			 t0;		/* when the plan started */
	bool			 timed_out;	/* the time limit stopped it */
	bool			 stopping;	/* workers were asked to stop */
	int			 nworkers;

	int			 rc;
	struct error		 err;
	struct plan		 plan;
	char			**dropped;
	int			 ndropped;
	char			**notes;
	int			 nnotes;
	struct model_error	 errors[SEARCH_MAX_ERRORS];
	int			 nerrors;
};

static bool
planner_out_of_time(const struct planner *pl)
{
	return clock_seconds() - pl->t0 >= pl->params.time_limit;
}

/* ---- thread isolation ---------------------------------------------- */

/* The time limit, between iterations; a call that runs on is the call
 * timeout's. */
static void
planner_thread_tick(void *arg, struct search *s)
{
	struct planner *pl = arg;

	if (!pl->timed_out && planner_out_of_time(pl)) {
		pl->timed_out = true;
		search_cancel(s);
	}
}

static int
planner_run_thread(struct planner *pl)
{
	struct wmodel *wm;
	int rc;

	if (wmodel_load(pl->p, pl->src, pl->len, pl->params.call_timeout_ms,
	    &wm, &pl->err) != 0)
		return -1;
	search_set_progress(pl->search, planner_thread_tick, pl, 0.1);
	wmodel_enter(wm);
	rc = search_run(pl->search, &wmodel_ops, wm, &pl->err);
	wmodel_leave(wm);
	wmodel_free(wm);
	return rc;
}

static void
planner_note(struct planner *pl, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pl->notes = xrealloc(pl->notes, (pl->nnotes + 1) * sizeof *pl->notes);
	pl->notes[pl->nnotes++] = xstrdup(buf);
}

/* ---- process isolation --------------------------------------------- */

static void
planner_kill_workers(struct planner *pl)
{
	int i;

	for (i = 0; i < pl->nworkers; i++)
		if (pl->workers[i] != NULL && !pl->wdone[i])
			worker_kill(pl->workers[i]);
}

/* Long enough for the search to leave a model call its watchdog ends. */
static double
planner_grace(const struct planner *pl)
{
	double g = pl->params.call_timeout_ms / 1000.0 * PLANNER_GRACE_CALLS;

	return g > PLANNER_GRACE_MIN ? g : PLANNER_GRACE_MIN;
}

/* A worker is killed (and its CPU time runs out) only past the time
 * limit, the grace of the stop that limit asks for, and a margin. */
#define PLANNER_KILL_MARGIN	30.0

static int
planner_spawn(struct planner *pl)
{
	struct worker_job job;
	uint64_t share, rest;
	int i, n = pl->nworkers;

	share = pl->params.iterations / n;
	rest = pl->params.iterations % n;
	for (i = 0; i < n; i++) {
		memset(&job, 0, sizeof job);
		job.kind = WORKER_JOB_PLAN;
		job.project_dir = pl->p->dir;
		job.start = pl->p->start;
		job.horizon_slots = pl->p->horizon_slots;
		job.model_src = pl->src;
		job.model_len = pl->len;
		job.params = pl->params;
		job.params.iterations = share + ((uint64_t)i < rest ? 1 : 0);
		job.params.workers = n;
		job.index = i;
		job.deadline = pl->params.time_limit + planner_grace(pl) +
		    PLANNER_KILL_MARGIN;
		job.memory_mb = pl->params.memory_mb / n;
		if (pl->params.iterations > 0 && job.params.iterations == 0) {
			pl->wdone[i] = true;
			continue;
		}
		if (worker_spawn(&job, &pl->workers[i], &pl->err) != 0) {
			planner_kill_workers(pl);
			return -1;
		}
		pl->wlast[i] = clock_seconds();
	}
	return 0;
}

/*
 * A worker streams snapshots between iterations, about ten a second. One
 * that says nothing for PLANNER_STALL_CALLS call timeouts (at least
 * PLANNER_STALL_MIN seconds) is inside a call the in-process watchdog could
 * not interrupt (a long C-level operation): only the process boundary can
 * stop it.
 */
static int
planner_stalled(struct planner *pl, int i)
{
	double limit = pl->params.call_timeout_ms / 1000.0 * PLANNER_STALL_CALLS;

	if (limit < PLANNER_STALL_MIN)
		limit = PLANNER_STALL_MIN;
	if (clock_seconds() - pl->wlast[i] < limit)
		return 0;
	return error_set(&pl->err, EXIT_MODEL, "worker %d: the model made no "
	    "progress for %.0f s (a call the watchdog could not interrupt); "
	    "the worker was killed", i, limit);
}

/* One worker's next frame; returns 1 when it finished, -1 on failure. */
static int
planner_poll_one(struct planner *pl, int i, int timeout_ms)
{
	struct search_snapshot snap;
	char *buf = NULL;
	size_t len = 0;
	int ev;

	ev = worker_poll(pl->workers[i], timeout_ms, &snap, &buf, &len,
	    &pl->err);
	if (ev < 0)
		return error_wrap(&pl->err, "worker %d", i);
	if (ev == WORKER_EVENT_NONE)
		return pl->stopping ? 0 : planner_stalled(pl, i);
	pl->wlast[i] = clock_seconds();
	if (ev == WORKER_EVENT_SNAPSHOT) {
		pthread_mutex_lock(&pl->lock);
		pl->wsnap[i] = snap;
		pthread_mutex_unlock(&pl->lock);
		return 0;
	}
	if (ev != WORKER_EVENT_RESULT)
		return 0;
	pl->wres[i] = buf;
	pl->wreslen[i] = len;
	pl->nanswered++;
	pthread_mutex_lock(&pl->lock);
	pl->wdone[i] = true;
	pthread_mutex_unlock(&pl->lock);
	return 1;
}

static void
planner_cancel_workers(struct planner *pl)
{
	int i;

	pl->stopping = true;
	for (i = 0; i < pl->nworkers; i++)
		if (pl->workers[i] != NULL && !pl->wdone[i])
			worker_cancel(pl->workers[i], planner_grace(pl));
}

/* After a stop, a worker that fails (most often: it did not answer in
 * time) costs only its own tree. */
static void
planner_lose(struct planner *pl, int i)
{
	worker_kill(pl->workers[i]);
	planner_note(pl, "%s; its tree was lost", pl->err.msg);
	pthread_mutex_lock(&pl->lock);
	pl->wdone[i] = true;
	pthread_mutex_unlock(&pl->lock);
	memset(&pl->err, 0, sizeof pl->err);
}

/* Trees are merged in worker order, so that the same seed and number of
 * workers give the same merged tree (sums in the same order): each as
 * soon as the workers before it are merged, and freed at once. */
static int
planner_merge_ready(struct planner *pl)
{
	int i;

	for (; pl->nmerged < pl->nworkers && pl->wdone[pl->nmerged];
	    pl->nmerged++) {
		i = pl->nmerged;
		if (pl->wres[i] == NULL)
			continue;
		if (search_merge(pl->search, pl->wres[i], pl->wreslen[i],
		    &pl->err) != 0)
			return error_wrap(&pl->err, "worker %d", i);
		free(pl->wres[i]);
		pl->wres[i] = NULL;
	}
	return 0;
}

static int
planner_run_process(struct planner *pl)
{
	int i, left, timeout;

	if (planner_spawn(pl) != 0)
		return -1;
	for (;;) {
		if (planner_merge_ready(pl) != 0) {
			planner_kill_workers(pl);
			return -1;
		}
		left = 0;
		for (i = 0; i < pl->nworkers; i++)
			left += !pl->wdone[i];
		if (left == 0)
			break;
		if (!pl->stopping && planner_out_of_time(pl))
			pl->timed_out = true;
		if ((atomic_load(&pl->stop) || pl->timed_out) && !pl->stopping)
			planner_cancel_workers(pl);
		timeout = 100 / left > 0 ? 100 / left : 1;
		for (i = 0; i < pl->nworkers; i++) {
			if (pl->wdone[i])
				continue;
			if (planner_poll_one(pl, i, timeout) >= 0)
				continue;
			if (!pl->stopping) {
				planner_kill_workers(pl);
				return -1;
			}
			planner_lose(pl, i);
		}
	}
	if (pl->stopping && pl->nanswered == 0)
		return error_set(&pl->err, EXIT_MODEL, "the planner was stopped "
		    "and no worker answered the stop: every tree was lost");
	pthread_mutex_lock(&pl->lock);
	pl->merged = true;
	pthread_mutex_unlock(&pl->lock);
	return 0;
}

/* ---- the plan -------------------------------------------------------- */

/* The layers the first worker that came up put up; every worker runs the
 * same code on the same kernel, so they agree. */
static void
planner_sandbox(const struct planner *pl, char *buf, size_t size)
{
	const struct lockdown *ld;
	int i;

	snprintf(buf, size, "none: the model ran in this process");
	for (i = 0; i < pl->nworkers && pl->workers != NULL; i++) {
		if (pl->workers[i] == NULL ||
		    (ld = worker_lockdown(pl->workers[i])) == NULL)
			continue;
		lockdown_describe(ld, buf, size);
		return;
	}
}

static void
planner_build(struct planner *pl)
{
	struct search_snapshot *snap = xmalloc(sizeof *snap);
	struct search_result res;
	struct legal *lg;

	lg = legal_new(pl->p, pl->past, pl->npast, NULL);
	search_result(pl->search, PLANNER_ALTS, &res);
	plan_build(pl->p, lg, &res, &pl->plan, &pl->dropped, &pl->ndropped);
	search_result_free(&res);
	legal_free(lg);
	search_snapshot(pl->search, snap);
	pl->plan.stats.iterations = snap->iterations;
	pl->plan.stats.model_calls = snap->model_calls;
	pl->plan.stats.illegal_proposals = snap->illegal_proposals;
	pl->plan.stats.model_errors = snap->model_errors;
	pl->plan.stats.model_seconds = snap->model_seconds;
	pl->plan.stats.workers = pl->nworkers;
	pl->plan.stats.isolation = pl->params.isolation;
	pl->plan.stats.seed = pl->params.seed;
	pl->plan.stats.stopped = snap->state == SEARCH_STOPPED ||
	    pl->stopping || pl->timed_out;
	if (pl->timed_out)
		planner_note(pl, "the time limit of %g s ended the search after "
		    "%llu iterations: the model took %.3g ms per call (%llu "
		    "calls); this is the best plan found so far, completed to "
		    "the horizon", pl->params.time_limit,
		    (unsigned long long)snap->iterations,
		    snap->model_calls > 0 ? 1000 * snap->model_seconds /
		    (double)snap->model_calls : 0.0,
		    (unsigned long long)snap->model_calls);
	planner_sandbox(pl, pl->plan.stats.sandbox,
	    sizeof pl->plan.stats.sandbox);
	memcpy(pl->plan.model_sha256, pl->sha, sizeof pl->sha);
	free(snap);
}

/* What the searched tree(s) can give: nothing before a first iteration,
 * nor from a model that failed most of them. */
static int
planner_check(struct planner *pl, const struct search_snapshot *snap)
{
	if (snap->iterations == 0 && (pl->stopping ||
	    snap->state == SEARCH_STOPPED))
		return error_set(&pl->err, EXIT_ERROR, "the planner was "
		    "stopped before its first iteration: there is no plan");
	if (pl->params.isolation == ISOLATION_PROCESS &&
	    snap->iterations > 0 && snap->model_errors * 2 > snap->iterations)
		return error_set(&pl->err, EXIT_MODEL, "the model failed %llu "
		    "of %llu iterations", (unsigned long long)snap->model_errors,
		    (unsigned long long)snap->iterations);
	return 0;
}

static void *
planner_main(void *arg)
{
	struct planner *pl = arg;
	struct search_snapshot *snap;

	if (pl->params.isolation == ISOLATION_THREAD)
		pl->rc = planner_run_thread(pl);
	else
		pl->rc = planner_run_process(pl);
	pl->nerrors = search_errors(pl->search, pl->errors, SEARCH_MAX_ERRORS);
	if (pl->rc == 0) {
		snap = xmalloc(sizeof *snap);
		search_snapshot(pl->search, snap);
		pl->rc = planner_check(pl, snap);
		free(snap);
	}
	if (pl->rc == 0) {
		planner_build(pl);
		pl->plan.stats.seconds = clock_seconds() - pl->t0;
	}
	atomic_store(&pl->finished, true);
	return NULL;
}

/* The time limit and the memory budget, defaults filled in. */
static int
planner_limits(struct search_params *sp, struct error *err)
{
	if (sp->time_limit <= 0)
		sp->time_limit = sp->seconds + 60 > SEARCH_TIME_LIMIT ?
		    sp->seconds + 60 : SEARCH_TIME_LIMIT;
	if (sp->memory_mb <= 0)
		sp->memory_mb = SEARCH_MEMORY_MB;
	if (sp->isolation == ISOLATION_PROCESS &&
	    sp->memory_mb / sp->workers < SEARCH_MEMORY_MIN)
		return error_set(err, EXIT_USAGE, "a memory budget of %ld MiB "
		    "gives each of %d workers less than %d MiB", sp->memory_mb,
		    sp->workers, SEARCH_MEMORY_MIN);
	return 0;
}

int
planner_start(const struct project *p, const char *model_src,
    size_t model_len, const struct search_params *params,
    struct planner **out, struct error *err)
{
	return planner_start_from(p, model_src, model_len, params, NULL, 0,
	    out, err);
}

int
planner_start_from(const struct project *p, const char *model_src,
    size_t model_len, const struct search_params *params, const char *prior,
    size_t prior_len, struct planner **out, struct error *err)
{
	struct planner *pl = xcalloc(1, sizeof *pl);
	struct search_params one;

	pl->p = p;
	pl->src = xmalloc(model_len + 1);
	memcpy(pl->src, model_src, model_len);
	pl->src[model_len] = '\0';
	pl->len = model_len;
	sha256_hex(model_src, model_len, pl->sha);
	pl->params = *params;
	if (pl->params.iterations == 0 && pl->params.seconds <= 0)
		pl->params.iterations = SEARCH_ITERATIONS;
	pl->nworkers = params->isolation == ISOLATION_THREAD ? 1 :
	    (params->workers > 0 ? params->workers : 1);
	pl->params.workers = pl->nworkers;
	if (planner_limits(&pl->params, err) != 0 ||
	    legal_past_load(p, &pl->past, &pl->npast, err) != 0 ||
	    legal_pins_check(p, pl->past, pl->npast, err) != 0) {
		free(pl->past);
		free(pl->src);
		free(pl);
		return -1;
	}
	one = pl->params;
	pl->search = search_new_past(p, &one, 0, pl->past, pl->npast);
	/* A tree from before: the search in this process goes on from it,
	 * and the workers' trees are merged into it as into any other. */
	if (prior != NULL && search_merge(pl->search, prior, prior_len,
	    err) != 0) {
		search_free(pl->search);
		free(pl->past);
		free(pl->src);
		free(pl);
		return -1;
	}
	pl->workers = xcalloc(pl->nworkers, sizeof *pl->workers);
	pl->wsnap = xcalloc(pl->nworkers, sizeof *pl->wsnap);
	pl->wdone = xcalloc(pl->nworkers, sizeof *pl->wdone);
	pl->wlast = xcalloc(pl->nworkers, sizeof *pl->wlast);
	pl->wres = xcalloc(pl->nworkers, sizeof *pl->wres);
	pl->wreslen = xcalloc(pl->nworkers, sizeof *pl->wreslen);
	pthread_mutex_init(&pl->lock, NULL);
	atomic_init(&pl->stop, false);
	atomic_init(&pl->finished, false);
	pl->t0 = clock_seconds();
	if (pthread_create(&pl->thread, NULL, planner_main, pl) != 0) {
		planner_free(pl);
		return error_set(err, EXIT_ERROR, "cannot start the planner "
		    "thread");
	}
	pl->running = true;
	*out = pl;
	return 0;
}

int
planner_export(struct planner *pl, char **buf, size_t *len)
{
	return search_export(pl->search, buf, len);
}

/* Root children of several workers, merged by action. */
static void
planner_merge_root(struct search_snapshot *into,
    const struct search_snapshot *w)
{
	struct search_edge *e;
	const struct search_edge *we;
	int i, j;

	for (i = 0; i < w->nroot; i++) {
		we = &w->root[i];
		for (j = 0; j < into->nroot; j++)
			if (action_equal(&into->root[j].action, &we->action))
				break;
		if (j == into->nroot) {
			if (into->nroot == SNAPSHOT_MAX_CHILDREN)
				continue;
			into->root[into->nroot++] = *we;
			continue;
		}
		e = &into->root[j];
		if (e->visits + we->visits > 0) {
			e->mean = (e->mean * e->visits + we->mean * we->visits) /
			    (e->visits + we->visits);
			e->reward_mean = (e->reward_mean * e->visits +
			    we->reward_mean * we->visits) /
			    (e->visits + we->visits);
		}
		e->visits += we->visits;
		e->avail += we->avail;
	}
}

static void
planner_snapshot_workers(struct planner *pl, struct search_snapshot *snap)
{
	const struct search_snapshot *w;
	uint64_t most = 0;
	int i;

	memset(snap, 0, sizeof *snap);
	snap->state = SEARCH_RUNNING;
	pthread_mutex_lock(&pl->lock);
	for (i = 0; i < pl->nworkers; i++) {
		w = &pl->wsnap[i];
		snap->iterations += w->iterations;
		snap->model_calls += w->model_calls;
		snap->illegal_proposals += w->illegal_proposals;
		snap->model_errors += w->model_errors;
		snap->nodes += w->nodes;
		snap->model_seconds += w->model_seconds;
		snap->rate += w->rate;
		if (w->elapsed > snap->elapsed)
			snap->elapsed = w->elapsed;
		planner_merge_root(snap, w);
		if (w->iterations >= most) {
			most = w->iterations;
			snap->npv = w->npv;
			memcpy(snap->pv, w->pv, w->npv * sizeof *w->pv);
		}
	}
	pthread_mutex_unlock(&pl->lock);
	snap->workers = pl->nworkers;
}

void
planner_snapshot(struct planner *pl, struct search_snapshot *snap)
{
	bool merged;

	if (pl->params.isolation == ISOLATION_THREAD) {
		search_snapshot(pl->search, snap);
		return;
	}
	pthread_mutex_lock(&pl->lock);
	merged = pl->merged;
	pthread_mutex_unlock(&pl->lock);
	if (merged) {
		search_snapshot(pl->search, snap);
		snap->state = atomic_load(&pl->stop) ? SEARCH_STOPPED :
		    SEARCH_DONE;
	} else
		planner_snapshot_workers(pl, snap);
	snap->workers = pl->nworkers;
}

bool
planner_running(struct planner *pl)
{
	return !atomic_load(&pl->finished);
}

void
planner_stop(struct planner *pl)
{
	atomic_store(&pl->stop, true);
	search_cancel(pl->search);
}

int
planner_wait(struct planner *pl, struct plan *out, struct error *err)
{
	if (pl->running) {
		pthread_join(pl->thread, NULL);
		pl->running = false;
	}
	memset(out, 0, sizeof *out);
	if (pl->rc != 0) {
		if (err != NULL)
			*err = pl->err;
		return -1;
	}
	*out = pl->plan;
	memset(&pl->plan, 0, sizeof pl->plan);
	return 0;
}

int
planner_dropped(struct planner *pl, char *const **out)
{
	*out = pl->dropped;
	return pl->ndropped;
}

int
planner_notes(struct planner *pl, char *const **out)
{
	*out = pl->notes;
	return pl->nnotes;
}

int
planner_errors(struct planner *pl, struct model_error *out, int max)
{
	int n = pl->nerrors < max ? pl->nerrors : max;

	memcpy(out, pl->errors, n * sizeof *out);
	return n;
}

const char *
planner_model_sha256(struct planner *pl)
{
	return pl->sha;
}

void
planner_free(struct planner *pl)
{
	int i;

	if (pl == NULL)
		return;
	if (pl->running) {
		planner_stop(pl);
		pthread_join(pl->thread, NULL);
	}
	for (i = 0; i < pl->nworkers; i++)
		if (pl->workers[i] != NULL)
			worker_free(pl->workers[i]);
	for (i = 0; i < pl->ndropped; i++)
		free(pl->dropped[i]);
	free(pl->dropped);
	for (i = 0; i < pl->nnotes; i++)
		free(pl->notes[i]);
	free(pl->notes);
	plan_free(&pl->plan);
	search_free(pl->search);
	pthread_mutex_destroy(&pl->lock);
	free(pl->workers);
	free(pl->wsnap);
	free(pl->wdone);
	free(pl->wlast);
	for (i = 0; i < pl->nworkers; i++)
		free(pl->wres[i]);
	free(pl->wres);
	free(pl->wreslen);
	free(pl->past);
	free(pl->src);
	free(pl);
}
