/*
 * search_new — a search's life: its default parameters (the one place
 * they are set; see search.h), creating it (with the static legality
 * verdict of every action, worked out once), progress and cancelling,
 * and freeing it. The search itself is search.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/search.h"
#include "core/search_int.h"

/* Every action and its verdict regardless of the path, by action id:
 * the hot loop of search_available reads the model's proposals as ids
 * and looks each up here instead of asking the engine. */
static void
search_id_tables(struct search *s)
{
	struct action a = { ACTION_POST, 0, 0 };
	uint32_t id;

	s->acts = xcalloc(s->nids, sizeof *s->acts);
	s->verdict = xcalloc(s->nids, 1);
	s->acts[0].kind = ACTION_WAIT;
	for (a.draft = 0; a.draft < (uint32_t)s->p->ndrafts; a.draft++)
		for (a.front = 0; a.front < (uint16_t)s->nfronts; a.front++) {
			id = search_action_id(s, &a);
			s->acts[id] = a;
			s->verdict[id] = (uint8_t)legal_static(s->lg, &a);
		}
}

void
search_params_default(struct search_params *sp)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(sp, 0, sizeof *sp);
	sp->iterations = SEARCH_ITERATIONS;
	sp->seed = 1;
	sp->workers = n > 0 ? (int)n : 1;
	if (sp->workers > SEARCH_MEMORY_MB / SEARCH_MEMORY_MIN)
		sp->workers = SEARCH_MEMORY_MB / SEARCH_MEMORY_MIN;
	sp->memory_mb = SEARCH_MEMORY_MB;
	sp->isolation = ISOLATION_PROCESS;
	sp->call_timeout_ms = 1000;
}

struct search *
search_new_past(const struct project *p, const struct search_params *params,
    uint64_t seed_offset, const struct legal_past *past, int npast)
{
	struct search *s;
	struct action wait = { ACTION_WAIT, 0, 0 };
	size_t nids;
	int k;

	s = xcalloc(1, sizeof *s);
	s->p = p;
	s->params = *params;
	if (s->params.uct_c <= 0)
		s->params.uct_c = SEARCH_UCT_C;
	s->rollout_actions = s->params.rollout_actions > 0 ?
	    s->params.rollout_actions : ROLLOUT_ACTIONS;
	s->seed = params->seed + seed_offset;
	s->polish_share = SEARCH_POLISH_SHARE;
	s->climb_share = SEARCH_CLIMB_SHARE;
	s->lg = legal_new(p, past, npast, NULL);
	if (s->lg == NULL)
		s->lg = legal_new(p, NULL, 0, NULL);
	s->lp = legal_path_new(s->lg);
	s->nfronts = p->nfronts;
	mutex_init(&s->lock);
	atomic_init(&s->cancel, false);
	s->state = SEARCH_IDLE;
	s->gmin = INFINITY;
	s->gmax = -INFINITY;
	for (k = 0; k < NODE_BLOCK_CLASSES; k++)
		s->freeb[k] = NIL;
	nids = (size_t)p->ndrafts * p->nfronts + 1;
	s->nids = (uint32_t)nids;
	s->mcap = (int)nids * 2 + 16;
	s->mids = xcalloc(s->mcap, sizeof *s->mids);
	s->set = xcalloc(nids, sizeof *s->set);
	s->stamp = xcalloc(nids, sizeof *s->stamp);
	s->expd = xcalloc(nids, sizeof *s->expd);
	s->shut = xcalloc(p->nfronts + 1, sizeof *s->shut);
	s->fnow = xcalloc(p->nfronts + 1, sizeof *s->fnow);
	s->rep = xcalloc(p->nfronts + 1, sizeof *s->rep);
	search_id_tables(s);
	s->stackcap = 64;
	s->stack = xcalloc(s->stackcap, sizeof *s->stack);
	s->prefix = xcalloc(p->horizon_slots * 2 + nids + 1, sizeof *s->prefix);
	s->tracecap = p->horizon_slots * 2 + (int)nids + 1;
	s->trace = xcalloc(s->tracecap, sizeof *s->trace);
	s->btrace = xcalloc(s->tracecap, sizeof *s->btrace);
	s->btotal = -INFINITY;
	s->msum = xcalloc(nids * p->horizon_slots, sizeof *s->msum);
	s->mn = xcalloc(nids * p->horizon_slots, sizeof *s->mn);
	s->seen = xcalloc(nids, sizeof *s->seen);
	for (k = 0; k < (int)nids; k++)
		s->seen[k] = NAN;
	s->ctop = xcalloc((size_t)s->nfronts * (COMPLETE_TOP + 1) +
	    COMPLETE_SAMPLE, sizeof *s->ctop);
	for (k = 1; k < SEARCH_LOG_TABLE; k++)
		s->logtab[k] = log((double)k);
	/* not shared yet, but every node is added under the lock */
	mutex_lock(&s->lock);
	search_node_new(s, NIL, &wait, -1);
	mutex_unlock(&s->lock);
	return s;
}

struct search *
search_new(const struct project *p, const struct search_params *params,
    uint64_t seed_offset)
{
	struct legal_past *past;
	struct search *s;
	int n;

	n = legal_past_from_history(p, &past);
	s = search_new_past(p, params, seed_offset, past, n);
	free(past);
	return s;
}

void
search_free(struct search *s)
{
	if (s == NULL)
		return;
	legal_path_free(s->lp);
	legal_free(s->lg);
	mutex_destroy(&s->lock);
	free(s->nodes);
	free(s->mids);
	free(s->acts);
	free(s->set);
	free(s->stamp);
	free(s->expd);
	free(s->shut);
	free(s->fnow);
	free(s->rep);
	free(s->verdict);
	free(s->stack);
	free(s->prefix);
	free(s->trace);
	free(s->btrace);
	free(s->msum);
	free(s->mn);
	free(s->seen);
	free(s->ctop);
	free(s->pact);
	free(s->pref);
	free(s->pat);
	free(s);
}

void
search_set_progress(struct search *s, search_progress_fn *fn, void *arg,
    double interval)
{
	s->progress = fn;
	s->progress_arg = arg;
	s->interval = interval;
}

void
search_cancel(struct search *s)
{
	atomic_store(&s->cancel, true);
}
