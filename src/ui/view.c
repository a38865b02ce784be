/*
 * view — snapshot-to-rows for the Search pane (see view.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ui/view.h"

void
view_count(uint64_t n, char *buf, size_t len)
{
	if (n < 10000)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else if (n < 1000000)
		snprintf(buf, len, "%.1fk", n / 1e3);
	else if (n < 1000000000)
		snprintf(buf, len, "%.2fM", n / 1e6);
	else
		snprintf(buf, len, "%.2fG", n / 1e9);
}

void
view_action_label(const struct project *p, const struct action *a, int slot,
    char *buf, size_t len)
{
	char when[32] = "";
	time_t t;
	struct tm tm;

	t = p->start + (time_t)slot * p->slot_minutes * 60;
	if (localtime_r(&t, &tm) != NULL)
		strftime(when, sizeof when, "%a %d %H:%M", &tm);
	if (a->kind == ACTION_POST && a->draft < (uint32_t)p->ndrafts &&
	    a->front < p->nfronts)
		snprintf(buf, len, "%s post %s → %s", when,
		    p->drafts[a->draft].id, p->fronts[a->front].id);
	else if (a->kind == ACTION_POST)
		snprintf(buf, len, "%s post #%u → #%u", when,
		    (unsigned)a->draft, (unsigned)a->front);
	else
		snprintf(buf, len, "%s wait", when);
}

static void
view_fill(struct view_row *r, const struct project *p,
    const struct search_edge *e, int depth, double top)
{
	memset(r, 0, sizeof *r);
	r->depth = depth;
	view_action_label(p, &e->action, e->slot, r->label, sizeof r->label);
	r->visits = e->visits;
	r->mean = e->mean;
	r->reward = e->reward_mean;
	r->ci_lo = e->ci_lo;
	r->ci_hi = e->ci_hi;
	r->frac = top > 0 ? (double)e->visits / top : 0;
	if (r->frac > 1)
		r->frac = 1;
}

int
view_search_rows(const struct project *p, const struct search_snapshot *s,
    bool pv_expanded, struct view_row *rows, int max)
{
	double top = 0;
	int i, k, n = 0, nroot = s->nroot, npv = s->npv;

	if (nroot > SNAPSHOT_MAX_CHILDREN)
		nroot = SNAPSHOT_MAX_CHILDREN;
	if (npv > SNAPSHOT_MAX_PV)
		npv = SNAPSHOT_MAX_PV;
	for (i = 0; i < nroot; i++)
		if (s->root[i].visits > top)
			top = (double)s->root[i].visits;
	for (i = 0; i < nroot && n < max; i++) {
		view_fill(&rows[n], p, &s->root[i], 0, top);
		if (npv > 1 && action_equal(&s->root[i].action,
		    &s->pv[0].action) && s->root[i].slot == s->pv[0].slot) {
			rows[n].expandable = true;
			rows[n].expanded = pv_expanded;
		}
		if (!rows[n++].expanded)
			continue;
		for (k = 1; k < npv && n < max; k++)
			view_fill(&rows[n++], p, &s->pv[k], k,
			    (double)s->pv[k - 1].visits);
	}
	return n;
}

const char *
view_search_state(int state)
{
	switch (state) {
	case SEARCH_IDLE:	return "idle";
	case SEARCH_RUNNING:	return "running";
	case SEARCH_DONE:	return "done";
	case SEARCH_STOPPED:	return "stopped";
	case SEARCH_FAILED:	return "failed";
	}
	return "?";
}

void
view_search_header(const struct search_snapshot *s, char *buf, size_t len)
{
	char it[16], rate[16], calls[16], nodes[16];

	view_count(s->iterations, it, sizeof it);
	view_count((uint64_t)(s->rate + 0.5), rate, sizeof rate);
	view_count(s->model_calls, calls, sizeof calls);
	view_count(s->nodes, nodes, sizeof nodes);
	snprintf(buf, len, "%s · %s it · %s it/s · %s model calls · %d "
	    "worker%s · %.1f s · %s nodes", view_search_state(s->state), it,
	    rate, calls, s->workers, s->workers == 1 ? "" : "s", s->elapsed,
	    nodes);
}
