/*
 * bench_sandbox — what the sandbox costs. (1) One model call with the
 * guard armed against the same call unguarded (call_timeout 0), on a
 * trivial model (the guard's overhead at its largest share) and on the
 * demo model's apply(), in thread CPU time. (2) The same random-rollout
 * job in this process and in the sandbox worker: wall time end to end
 * (spawn and load included) and the rollout loop alone. (3) Worker
 * start-up (spawn to the result of one rollout) with every layer, against
 * the layer set of earlier releases (rlimits and seccomp only: the
 * assume-breach build with namespaces, Landlock and the empty root taken
 * away). Repeats interleave and the best of each is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/project.h"
#include "core/rollout.h"
#include "sandbox/wmodel.h"
#include "sandbox/worker.h"

#define REPEATS	7

/* This thread's CPU time: steadier than wall time on a busy machine. */
static double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char trivial[] =
    "def initial_state(ctx):\n"
    "    return 0\n"
    "def legal_actions(state):\n"
    "    return [('wait',)]\n"
    "def apply(state, action, rng):\n"
    "    return state + 1, 1.0\n"
    "def is_terminal(state):\n"
    "    return False\n";

static void
die(const char *what, const struct error *err)
{
	fprintf(stderr, "bench_sandbox: %s: %s\n", what, err->msg);
	exit(1);
}

/* Seconds per apply() call over n calls. */
static double
time_apply(struct project *p, const char *src, size_t len, int timeout_ms,
    long n)
{
	const struct model_ops *ops = &wmodel_ops;
	struct action a = { .kind = ACTION_WAIT };
	struct wmodel *m;
	struct error err = { 0 };
	model_state *s, *next;
	double r, t0, t;
	long i;

	if (wmodel_load(p, src, len, timeout_ms, &m, &err) != 0)
		die("load", &err);
	wmodel_enter(m);
	ops->seed(m, 1);
	if (ops->sample_hidden(m, &s) != MODEL_OK)
		die("sample_hidden", &err);
	t0 = cpu_seconds();
	for (i = 0; i < n; i++) {
		if (ops->apply(m, s, &a, &next, &r) != MODEL_OK) {
			fprintf(stderr, "bench_sandbox: apply failed\n");
			exit(1);
		}
		ops->state_free(m, next);
	}
	t = (cpu_seconds() - t0) / (double)n;
	ops->state_free(m, s);
	wmodel_leave(m);
	wmodel_free(m);
	return t;
}

static void
bench_guard(struct project *p, const char *name, const char *src, size_t len,
    long n)
{
	double g = 1e9, u = 1e9, t;
	int i;

	for (i = 0; i < REPEATS; i++) {
		t = time_apply(p, src, len, 0, n);
		u = t < u ? t : u;
		t = time_apply(p, src, len, 1000, n);
		g = t < g ? t : g;
	}
	printf("guard %-8s unguarded %8.1f ns/call  guarded %8.1f ns/call  "
	    "ratio %.3f\n", name, u * 1e9, g * 1e9, g / u);
}

static double
rollout_inprocess(struct project *p, const char *src, size_t len,
    uint64_t rollouts, double *loop)
{
	struct rollout_params rp = { .rollouts = rollouts, .seed = 1 };
	struct rollout_stats st;
	struct error err = { 0 };
	struct wmodel *m;
	double t0 = clock_seconds();

	if (wmodel_load(p, src, len, 2000, &m, &err) != 0)
		die("load", &err);
	wmodel_enter(m);
	if (rollout_run(p, &wmodel_ops, m, &rp, NULL, NULL, 1, &st, &err) != 0)
		die("rollout", &err);
	wmodel_leave(m);
	wmodel_free(m);
	*loop = st.seconds;
	return clock_seconds() - t0;
}

static double
rollout_worker(const char *dir, const char *src, size_t len,
    uint64_t rollouts, double *loop)
{
	struct worker_job job = { 0 };
	struct search_snapshot *snap = calloc(1, sizeof *snap);
	struct rollout_stats st;
	struct error err = { 0 };
	struct worker *w;
	char *res = NULL;
	size_t rlen;
	double t0 = clock_seconds(), t;
	cJSON *j;
	int rc;

	job.kind = WORKER_JOB_ROLLOUT;
	job.project_dir = dir;
	job.model_src = src;
	job.model_len = len;
	job.params.iterations = rollouts;
	job.params.seed = 1;
	job.params.call_timeout_ms = 2000;
	job.deadline = 600;
	if (worker_spawn(&job, &w, &err) != 0)
		die("spawn", &err);
	while ((rc = worker_poll(w, 1000, snap, &res, &rlen, &err)) ==
	    WORKER_EVENT_NONE || rc == WORKER_EVENT_SNAPSHOT)
		;
	t = clock_seconds() - t0;
	if (rc != WORKER_EVENT_RESULT)
		die("worker", &err);
	j = cJSON_Parse(res);
	if (j == NULL || rollout_stats_from_json(j, &st, &err) != 0)
		die("result", &err);
	*loop = st.seconds;
	cJSON_Delete(j);
	worker_free(w);
	free(res);
	free(snap);
	return t;
}

static void
bench_rollout(struct project *p, const char *dir, const char *src, size_t len,
    uint64_t rollouts)
{
	double ip = 1e9, wk = 1e9, ipl = 1e9, wkl = 1e9, t, l;
	int i;

	for (i = 0; i < 3; i++) {
		t = rollout_inprocess(p, src, len, rollouts, &l);
		ip = t < ip ? t : ip;
		ipl = l < ipl ? l : ipl;
		t = rollout_worker(dir, src, len, rollouts, &l);
		wk = t < wk ? t : wk;
		wkl = l < wkl ? l : wkl;
	}
	printf("rollout %llu rollouts: in process %.3f s (loop %.3f s)  "
	    "worker %.3f s (loop %.3f s)  ratio %.3f (loop %.3f)\n",
	    (unsigned long long)rollouts, ip, ipl, wk, wkl, wk / ip, wkl / ipl);
}

/* Best and median of REPEATS start-ups with bin as the worker. */
static void
startup_times(const char *bin, const char *skip, const char *dir,
    const char *src, size_t len, double *best, double *median)
{
	double t[REPEATS], l, x;
	int i, j;

	worker_set_binary(bin);
	if (skip != NULL)
		setenv("FRONTS_BREACH_SKIP", skip, 1);
	for (i = 0; i < REPEATS; i++)
		t[i] = rollout_worker(dir, src, len, 1, &l);
	unsetenv("FRONTS_BREACH_SKIP");
	for (i = 1; i < REPEATS; i++)
		for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
			x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	*best = t[0];
	*median = t[REPEATS / 2];
}

static void
bench_startup(const char *bin, const char *dir, const char *src, size_t len)
{
	const char *breach = getenv("FRONTS_BREACH_BIN");
	double nb, nm, bb, bm, ob, om;

	if (bin == NULL || breach == NULL) {
		printf("startup: needs FRONTS_BIN and FRONTS_BREACH_BIN "
		    "(make bench sets both)\n");
		return;
	}
	/* The assume-breach build imports os, socket and ctypes as well, so
	 * its two runs are the fair pair. */
	startup_times(bin, NULL, dir, src, len, &nb, &nm);
	startup_times(breach, NULL, dir, src, len, &bb, &bm);
	startup_times(breach, "userns,landlock,root", dir, src, len, &ob, &om);
	printf("startup  fronts %.1f ms (median %.1f)  fronts-breach: every "
	    "layer %.1f ms (median %.1f), rlimits+seccomp only %.1f ms "
	    "(median %.1f)  ratio %.2f\n", nb * 1e3, nm * 1e3, bb * 1e3,
	    bm * 1e3, ob * 1e3, om * 1e3, bb / ob);
	worker_set_binary(bin);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "fixtures/demo";
	const char *bin = getenv("FRONTS_BIN");
	struct error err = { 0 };
	struct project *p;
	char *src, path[512];
	size_t len;

	if (bin != NULL)
		worker_set_binary(bin);
	if (project_load(dir, &p, &err) != 0)
		die(dir, &err);
	snprintf(path, sizeof path, "%s/model.py", dir);
	if (file_read(path, &src, &len, &err) != 0)
		die(path, &err);
	bench_guard(p, "trivial", trivial, strlen(trivial), 1000000);
	bench_guard(p, "demo", src, len, 50000);
	bench_rollout(p, dir, src, len, 1);
	bench_rollout(p, dir, src, len, 3000);
	bench_startup(bin, dir, src, len);
	free(src);
	project_free(p);
	return 0;
}
