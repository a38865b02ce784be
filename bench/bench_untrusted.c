/*
 * bench_untrusted — the paths over what a worker or a model's source can
 * make arbitrarily large, each timed at its limit (issue 20: every such
 * path linear or n log n; `make bench`):
 *
 *   chain     a tree export that is one chain of steps, all on its plan:
 *             merged, its plan read (search_result) and exported again;
 *             at the deepest a project allows (100,000 slots: 200,008
 *             steps), and a forged million-node chain, which is refused
 *   gate      the AST gate and its verdict text over sources at the
 *             1 MiB limit drawing a verdict every four bytes: one line,
 *             and 262,144 lines; and the 80,000 lines of `a._`
 *
 * Before the fix, this file built against the commit before it (two
 * shared cores; the gate through the binary, `timeout 300 fronts gate F`):
 *   chain 200,008 steps   merge 0.03 s, plan 11.8 s, export 10.8 s
 *                         (each walk down the plan scanned the plan per
 *                         step); a million-node chain was merged, and
 *                         `timeout 120 build/tests/test_search` killed
 *                         test_merge_refuses_deep_chain in its first walk
 *   gate 80,000 lines     over 300 s (killed)
 *   gate 391 KB line      over 300 s (killed)
 * After: chain 200,008 steps merge 0.04 s, plan 0.04 s, export 0.04 s; the
 * million-node chain refused in 0.02 s; the gate 1.9 s (80,000 lines),
 * 2.7 s (391 KB line), 5.5-7.7 s (1 MiB) with its text under 1 ms.
 *
 * Times are CPU seconds of this process: steadier on a busy machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/unit/fixture_project.h"
#include "core/search.h"
#include "core/search_int.h"
#include "sandbox/gate.h"

static double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A chain of n waits below the root, every step on the plan. */
static char *
chain_export(uint32_t n, int horizon, size_t *len)
{
	struct export_head h;
	struct export_node e;
	char *buf;
	uint32_t i;

	memset(&h, 0, sizeof h);
	h.magic = EXPORT_MAGIC;
	h.nnodes = n + 1;
	h.iterations = 1;
	*len = sizeof h + (size_t)(n + 1) * sizeof e;
	buf = xcalloc(1, *len);
	memcpy(buf, &h, sizeof h);
	for (i = 0; i <= n; i++) {
		memset(&e, 0, sizeof e);
		e.parent = i == 0 ? UINT32_MAX : i - 1;
		e.slot = i == 0 ? -1 : (int)((i - 1) / 2 % (uint32_t)horizon);
		e.action.kind = ACTION_WAIT;
		e.visits = e.avail = 1;
		e.pv = i > 0;
		memcpy(buf + sizeof h + (size_t)i * sizeof e, &e, sizeof e);
	}
	return buf;
}

static void
bench_chain(uint32_t n)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T09:00:00+01:00", 60, 100000, 2, 3);
	struct search_params sp = { .iterations = 1, .workers = 1,
	    .isolation = ISOLATION_THREAD };
	struct search_result res = { 0 };
	struct error err = { 0 };
	struct search *s = search_new(p, &sp, 0);
	double t0, tm, tr, te;
	size_t len, xlen;
	char *buf, *xbuf = NULL;
	int rc;

	if (n == 0)
		n = (uint32_t)s->tracecap;
	buf = chain_export(n, p->horizon_slots, &len);
	t0 = cpu_seconds();
	rc = search_merge(s, buf, len, &err);
	tm = cpu_seconds();
	if (rc == 0) {
		search_result(s, 0, &res);
		tr = cpu_seconds();
		search_export(s, &xbuf, &xlen);
		te = cpu_seconds();
		printf("chain %7u steps  merge %.3f s  plan %.3f s (%d steps)  "
		    "export %.3f s\n", n, tm - t0, tr - tm, res.npv, te - tr);
	} else
		printf("chain %7u steps  refused in %.3f s: %s\n", n, tm - t0,
		    err.msg);
	search_result_free(&res);
	free(xbuf);
	free(buf);
	search_free(s);
	fx_free(p);
}

static void
bench_gate(const char *what, const char *unit, size_t times)
{
	size_t each = strlen(unit), i;
	char *src = xmalloc(each * times + 1), *text;
	struct gate_result r;
	struct error err = { 0 };
	double t0, t1, t2;

	for (i = 0; i < times; i++)
		memcpy(src + i * each, unit, each);
	src[each * times - 1] = '\n';
	t0 = cpu_seconds();
	if (gate_check_source(src, each * times, &r, &err) != 0) {
		printf("gate %s: %s\n", what, err.msg);
		free(src);
		return;
	}
	t1 = cpu_seconds();
	text = gate_result_text("m.py", &r);
	t2 = cpu_seconds();
	printf("gate %-22s %7zu bytes  gate %.2f s  text %.4f s  "
	    "(%d verdicts, %d kept)\n", what, each * times, t1 - t0, t2 - t1,
	    gate_result_total(&r), r.nverdicts);
	free(text);
	gate_result_free(&r);
	free(src);
}

int
main(void)
{
	bench_chain(0);
	bench_chain(1000000);
	bench_gate("80,000 lines of a._", "a._\n", 80000);
	bench_gate("one 391 KB line", "a._;", 100096);
	bench_gate("one 1 MiB line", "a._;", 262143);
	bench_gate("1 MiB of a._ lines", "a._\n", 262144);
	return 0;
}
