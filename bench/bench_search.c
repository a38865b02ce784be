/*
 * bench_search — the planner's benchmarks, each a ratio measured in this
 * one run (DESIGN.md "Planner"; `make bench`):
 *
 *   peer      plan time against bench/peer_ismcts.py (the same ISMCTS in
 *             plain Python, same model, same iterations), on the demo
 *   call      time per model call inside the search against a raw loop
 *             making the same kinds of calls with no tree (bench_raw)
 *   isolation process against thread isolation, and 2 workers against 1
 *             (iterations per second), through the planner
 *   scaling   time per iteration from 10^3 to 10^6 iterations (a C model:
 *             10^6 iterations of the Python demo would take hours)
 *   memory    bytes per tree node
 *   drafts    time per iteration at 30, 300 and 1000 drafts (a C model)
 *
 * Times are CPU seconds of this process (or of the peer / the workers)
 * where one thread does the work, so that other load on the machine does
 * not skew a ratio; parallel speed-up is in wall time. Environment:
 * FRONTS_TOP (repository root, default "."), FRONTS_BIN (the fronts binary,
 * for worker processes), BENCH_PY_ITERATIONS (default 300), BENCH_QUICK=1
 * (smaller runs), BENCH_ONLY=scaling,drafts,peer,isolation (sections).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tests/unit/fixture_project.h"
#include "../tests/unit/fixture_model.h"
#include "core/legal.h"
#include "runs/planner.h"
#include "core/search.h"
#include "sandbox/wmodel.h"
#include "sandbox/worker.h"

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
bench_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = 0;

	if (f != NULL) {
		if (fscanf(f, "%lf", &l) != 1)
			l = 0;
		fclose(f);
	}
	return l;
}

static double
children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static struct search_params
bench_params(uint64_t iterations)
{
	struct search_params sp;

	memset(&sp, 0, sizeof sp);
	sp.iterations = iterations;
	sp.seed = 1;
	sp.workers = 1;
	sp.isolation = ISOLATION_THREAD;
	sp.call_timeout_ms = 5000;
	return sp;
}

struct run {
	double		cpu, wall;
	uint64_t	calls, nodes, iterations;
};

static int
bench_search(const struct project *p, const struct model_ops *ops, void *m,
    uint64_t iterations, struct run *r)
{
	struct search_params sp = bench_params(iterations);
	struct search_snapshot *snap = malloc(sizeof *snap);
	struct error err = { 0 };
	struct search *s = search_new(p, &sp, 0);
	double c0 = cpu_now(), w0 = clock_seconds();
	int rc;

	rc = search_run(s, ops, m, &err);
	r->cpu = cpu_now() - c0;
	r->wall = clock_seconds() - w0;
	search_snapshot(s, snap);
	r->calls = snap->model_calls;
	r->nodes = snap->nodes;
	r->iterations = snap->iterations;
	if (rc != 0)
		fprintf(stderr, "bench: search: %s\n", err.msg);
	free(snap);
	search_free(s);
	return rc;
}

/* The peer's input: ctx, the engine's tables, the id lists. */
static char *
bench_peer_input(const struct project *p)
{
	cJSON *o = cJSON_CreateObject(), *d, *f;
	struct legal_past *past;
	struct legal *lg;
	char *path = xstrdup("/tmp/fronts-bench-peer-XXXXXX"), *s;
	int n, i, fd;

	n = legal_past_from_history(p, &past);
	lg = legal_new(p, past, n, NULL);
	cJSON_AddItemToObject(o, "ctx", project_ctx_json(p));
	cJSON_AddItemToObject(o, "tables", legal_tables_json(lg));
	d = cJSON_AddArrayToObject(o, "drafts");
	for (i = 0; i < p->ndrafts; i++)
		cJSON_AddItemToArray(d, cJSON_CreateString(p->drafts[i].id));
	f = cJSON_AddArrayToObject(o, "fronts");
	for (i = 0; i < p->nfronts; i++)
		cJSON_AddItemToArray(f, cJSON_CreateString(p->fronts[i].id));
	s = cJSON_PrintUnformatted(o);
	fd = mkstemp(path);
	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		abort();
	close(fd);
	free(s);
	cJSON_Delete(o);
	legal_free(lg);
	free(past);
	return path;
}

/* Runs the Python peer; fills its CPU seconds and calls. */
static int
bench_peer(const char *top, const struct project *p, const char *model,
    uint64_t iterations, struct run *r)
{
	char *in = bench_peer_input(p), *cmd, line[4096];
	double c0 = children_cpu(), w0 = clock_seconds();
	unsigned long long calls = 0;
	FILE *f;
	int rc;

	xasprintf(&cmd, "/usr/bin/python3 %s/bench/peer_ismcts.py %s %s %llu 1",
	    top, in, model, (unsigned long long)iterations);
	f = popen(cmd, "r");
	line[0] = '\0';
	if (f == NULL || fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	rc = f != NULL ? pclose(f) : -1;
	r->cpu = children_cpu() - c0;
	r->wall = clock_seconds() - w0;
	if (strstr(line, "\"model_calls\": ") != NULL)
		sscanf(strstr(line, "\"model_calls\": ") + 15, "%llu", &calls);
	r->calls = calls;
	unlink(in);
	free(in);
	free(cmd);
	return rc == 0 && calls > 0 ? 0 : -1;
}

/*
 * The raw loop: the model calls a search iteration makes, with no tree and
 * no legality engine. Per iteration: seed, sample_hidden, then from the
 * model's own legal_actions a uniformly drawn action, is_terminal and
 * apply per step, and value() after 24 slots where the model has it (the
 * search's rollout truncation), until want_calls calls were made.
 */
static int
bench_raw(const struct project *p, const struct model_ops *ops, void *m,
    uint64_t want_calls, struct run *r)
{
	int cap = p->ndrafts * p->nfronts * 2 + 16, n, ill, slot, rc = 0;
	struct action *buf = xcalloc(cap, sizeof *buf), wait = { 0, 0, 0 };
	model_state *st, *next;
	uint64_t calls = 0, it = 0, rng = 88172645463325252ULL;
	double c0 = cpu_now(), rw, v;
	bool term, hv = ops->has_value != NULL && ops->has_value(m);

	while (calls < want_calls && rc == 0) {
		ops->seed(m, it++);
		if ((rc = ops->sample_hidden(m, &st)) != MODEL_OK)
			break;
		calls++;
		for (slot = 0; slot < p->horizon_slots && rc == 0;) {
			calls += 2;
			if ((rc = ops->is_terminal(m, st, &term)) != 0 || term)
				break;
			if (hv && slot >= 24) {
				calls--;
				rc = ops->value(m, st, &v);
				break;
			}
			if ((rc = ops->legal_actions(m, st, buf, cap, &n,
			    &ill)) != 0)
				break;
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			calls++;
			if (n == 0)
				buf[n++] = wait;
			if ((rc = ops->apply(m, st, &buf[rng % n], &next,
			    &rw)) != 0)
				break;
			slot += buf[rng % n].kind == ACTION_WAIT;
			ops->state_free(m, st);
			st = next;
		}
		ops->state_free(m, st);
	}
	r->cpu = cpu_now() - c0;
	r->calls = calls;
	free(buf);
	return rc == 0 ? 0 : -1;
}

static void
bench_demo(const char *top)
{
	struct project *p;
	struct wmodel *wm;
	struct error err = { 0 };
	struct run c, py, raw;
	char *dir, *model, *src;
	size_t len;
	const char *e = getenv("BENCH_PY_ITERATIONS");
	uint64_t n = e != NULL ? strtoull(e, NULL, 10) : 300;

	dir = path_join(top, "fixtures/demo");
	model = path_join(dir, "model.py");
	if (project_load(dir, &p, &err) != 0 ||
	    file_read(model, &src, &len, &err) != 0 ||
	    wmodel_load(p, src, len, 5000, &wm, &err) != 0) {
		printf("peer: skipped: %s\n", err.msg);
		return;
	}
	wmodel_enter(wm);
	if (bench_search(p, &wmodel_ops, wm, n, &c) == 0 &&
	    bench_peer(top, p, model, n, &py) == 0)
		printf("peer: %llu iterations of the demo model: C %.2f s, "
		    "Python peer %.2f s (CPU): ratio %.3f (target <= 0.5); "
		    "model calls %llu vs %llu\n", (unsigned long long)n, c.cpu,
		    py.cpu, c.cpu / py.cpu, (unsigned long long)c.calls,
		    (unsigned long long)py.calls);
	else
		printf("peer: failed\n");
	if (bench_raw(p, &wmodel_ops, wm, c.calls, &raw) == 0)
		printf("call: %.1f us per model call in the search, %.1f us in "
		    "a raw rollout loop: ratio %.3f (target <= 1.10)\n",
		    c.cpu / c.calls * 1e6, raw.cpu / raw.calls * 1e6,
		    (c.cpu / c.calls) / (raw.cpu / raw.calls));
	wmodel_leave(wm);
	wmodel_free(wm);
	project_free(p);
	free(src);
	free(model);
	free(dir);
}

/* A plan through the planner; iterations per wall second. */
/* A plan through the planner: iterations per wall second end to end
 * (*rate, worker start-up included) and inside the search alone (*srate). */
static int
bench_planner(const struct project *p, const char *src, size_t len,
    enum isolation iso, int workers, uint64_t n, double *rate, double *cpu,
    double *srate)
{
	struct search_params sp = bench_params(n);
	struct search_snapshot *snap = malloc(sizeof *snap);
	struct error err = { 0 };
	struct planner *pr;
	struct plan pl;
	double w0 = clock_seconds(), c0 = cpu_now() + children_cpu();

	sp.isolation = iso;
	sp.workers = workers;
	if (planner_start(p, src, len, &sp, &pr, &err) != 0 ||
	    planner_wait(pr, &pl, &err) != 0) {
		printf("isolation: %s isolation, %d worker(s): %s\n",
		    iso == ISOLATION_THREAD ? "thread" : "process", workers,
		    err.msg);
		return -1;
	}
	*rate = pl.stats.iterations / (clock_seconds() - w0);
	*cpu = cpu_now() + children_cpu() - c0;
	planner_snapshot(pr, snap);
	*srate = snap->elapsed > 0 ? snap->iterations / snap->elapsed : 0;
	free(snap);
	plan_free(&pl);
	planner_free(pr);
	return 0;
}

static void
bench_isolation(const char *top)
{
	struct project *p;
	struct error err = { 0 };
	char *dir, *model, *src;
	const char *bin = getenv("FRONTS_BIN");
	double thr, proc, one, two, ct, cp, c1, c2, st, spr, s1, s2;
	size_t len;
	uint64_t n = getenv("BENCH_QUICK") ? 100 : 1500;

	if (bin != NULL)
		worker_set_binary(bin);
	dir = path_join(top, "fixtures/demo");
	model = path_join(dir, "model.py");
	if (project_load(dir, &p, &err) != 0 ||
	    file_read(model, &src, &len, &err) != 0) {
		printf("isolation: skipped: %s\n", err.msg);
		return;
	}
	if (bench_planner(p, src, len, ISOLATION_THREAD, 1, n, &thr, &ct,
	    &st) == 0 && bench_planner(p, src, len, ISOLATION_PROCESS, 1, n,
	    &proc, &cp, &spr) == 0)
		printf("isolation: %llu iterations, process against thread: "
		    "CPU %.2f s vs %.2f s, ratio %.3f; wall end to end %.1f vs "
		    "%.1f it/s, time ratio %.3f; inside the search %.1f vs %.1f "
		    "it/s, time ratio %.3f (target <= 1.10)\n",
		    (unsigned long long)n, cp, ct, cp / ct, proc, thr,
		    thr / proc, spr, st, st / spr);
	if (bench_planner(p, src, len, ISOLATION_PROCESS, 1, n, &one, &c1,
	    &s1) == 0 && bench_planner(p, src, len, ISOLATION_PROCESS, 2,
	    2 * n, &two, &c2, &s2) == 0)
		printf("workers: 1 worker %.1f it/s, 2 workers %.1f it/s (wall "
		    "end to end, %ld cores, load %.1f): ratio %.2f (target >= "
		    "1.8); CPU per iteration %.2f ms vs %.2f ms\n", one, two,
		    sysconf(_SC_NPROCESSORS_ONLN), bench_load(), two / one,
		    c1 / n * 1e3, c2 / (2 * n) * 1e3);
	project_free(p);
	free(src);
	free(model);
	free(dir);
}

static struct project *
bench_c_project(int ndrafts, int horizon)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T08:00:00Z", 60, horizon, 4, ndrafts);
	int f;

	for (f = 0; f < 4; f++) {
		p->fronts[f].limits.max_posts_per_day = 3 + f % 2;
		p->fronts[f].limits.min_gap_minutes = 60 * (1 + f % 3);
		p->fronts[f].limits.quiet_start = 23;
		p->fronts[f].limits.quiet_end = 7;
	}
	return p;
}

static void
bench_scaling(void)
{
	struct project *p = bench_c_project(30, 24);
	struct run r;
	struct cm m;
	uint64_t n, max = getenv("BENCH_QUICK") ? 100000 : 1000000;
	double lo = 0, hi = 0, per;

	cm_init(&m, p, CM_NOISE | CM_VALUE);
	for (n = 1000; n <= max; n *= 10) {
		if (bench_search(p, &cm_ops, &m, n, &r) != 0)
			break;
		per = r.cpu / n * 1e6;
		lo = lo == 0 || per < lo ? per : lo;
		hi = per > hi ? per : hi;
		printf("scaling: %8llu iterations: %.2f us per iteration, "
		    "%llu nodes, %.1f bytes per node in the arena\n",
		    (unsigned long long)n, per, (unsigned long long)r.nodes,
		    (double)search_node_bytes());
	}
	printf("scaling: largest time per iteration / smallest = %.2f "
	    "(target <= 1.3)\n", lo > 0 ? hi / lo : 0);
	printf("memory: %zu bytes per node (target <= 200)\n",
	    search_node_bytes());
	fx_free(p);
}

static void
bench_drafts(void)
{
	static const int sizes[] = { 30, 300, 1000 };
	struct project *p;
	struct run r;
	struct cm m;
	uint64_t n = getenv("BENCH_QUICK") ? 1000 : 4000;
	size_t i;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		p = bench_c_project(sizes[i], 24);
		cm_init(&m, p, CM_NOISE | CM_VALUE);
		if (bench_search(p, &cm_ops, &m, n, &r) == 0)
			printf("drafts: %4d drafts x 4 fronts: %.1f us per "
			    "iteration (%llu model calls per iteration)\n",
			    sizes[i], r.cpu / n * 1e6,
			    (unsigned long long)(r.calls / n));
		fx_free(p);
	}
}

/* BENCH_ONLY=name,name… runs only those sections. */
static bool
bench_wanted(const char *name)
{
	const char *only = getenv("BENCH_ONLY");

	return only == NULL || strstr(only, name) != NULL;
}

int
main(int argc, char **argv)
{
	const char *top = getenv("FRONTS_TOP") ? getenv("FRONTS_TOP") : ".";

	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("bench_search (%ld cores, load %.1f)\n",
	    sysconf(_SC_NPROCESSORS_ONLN), bench_load());
	if (bench_wanted("scaling"))
		bench_scaling();
	if (bench_wanted("drafts"))
		bench_drafts();
	if (bench_wanted("peer"))
		bench_demo(top);
	if (bench_wanted("isolation"))
		bench_isolation(top);
	return 0;
}
