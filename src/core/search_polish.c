/*
 * search_polish — improves the plan itself once the tree search is done.
 *
 * The plan fronts outputs is executed open loop, and where the model is
 * noisy the principal variation is only as good as the visits deep in the
 * tree, which thin out with depth; the tail of the plan is the best of a
 * few completing rollouts, each judged on one determinization. So the
 * last SEARCH_POLISH_SHARE of an iteration budget goes to the plan itself:
 * it and local variants of it (a post moved to another slot, to another
 * front, replaced by an unposted draft, dropped, or a post added) are
 * replayed open loop from the same determinizations (common random
 * numbers: the same seeds, then sample_hidden, then the plan's actions,
 * the legality engine and the model's legal actions checking each post),
 * and the best by mean return replaces the plan where it beats it on the
 * same determinizations; repeated while the budget lasts. Variants are
 * raced (successive halving): all on a few determinizations, the best
 * share of them on POLISH_ETA times as many, until one is left with
 * enough of them to be compared. Each replay under one determinization
 * is one iteration. The plan joins the tree (its missing nodes with the
 * replays' statistics) and becomes the plan through search_pref_set.
 *
 * Only for noisy models without value(): where no reward ever varied the
 * plan is already the best path evaluated (search_follow_best), and with
 * value() a rollout stops after a few actions where a replay of a whole
 * plan runs to the horizon, so a replay costs many iterations' model
 * calls and no round would end within the share. Only after an
 * iteration budget run to its end, not after a stop (search_fill) or a
 * budget in seconds.
 *
 * The share, the halving and why polishing is off with value() were
 * measured: bench/RESULTS.md "Polishing".
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"

#define POLISH_MIN	200	/* budgets that leave fewer: none */
#define POLISH_K0	1	/* replays every variant gets */
#define POLISH_ETA	4	/* one in ETA goes on, with ETA times as many */
#define POLISH_KFINAL	64	/* the winner's, before it is compared */
#define POLISH_SPARE	(1 << 30)	/* determinizations of the spare replays */

/* A plan being judged: its posts, its actions, its replays so far. */
struct pcand {
	struct search_post	*post;
	int		 npost;
	struct action	*act;
	int		 nact, nexec;	/* actions, the most replayed */
	double		*val;		/* return on determinization k */
	int		 nk, kcap;
	double		*rsum, *rsq;	/* by action */
	double		 m;		/* mean of the replays compared */
	int		 nerr;		/* replays a model error ended */
	bool		 bad;		/* a determinization refused it */
};

struct polish {
	struct search	*s;
	uint64_t	 left;
	struct pcand	 cur, orig;	/* the plan, the tree's plan */
	struct pcand	*c;
	int		 nc, ccap;
	double		*step;		/* one replay's rewards */
	int		 rc;		/* MODEL_TIMEOUT ends it */
	double		 last_progress;
};

uint64_t
search_polish_budget(const struct search *s)
{
	uint64_t n;

	if (s->params.iterations == 0 || !s->noisy || s->has_value)
		return 0;
	n = (uint64_t)(s->params.iterations * s->polish_share);
	return n >= POLISH_MIN ? n : 0;
}

static void
pcand_free(struct pcand *c)
{
	free(c->post);
	free(c->act);
	free(c->val);
	free(c->rsum);
	free(c->rsq);
	memset(c, 0, sizeof *c);
}

static bool
pcand_build(struct search *s, struct pcand *c, const struct search_post *post,
    int n)
{
	memset(c, 0, sizeof *c);
	c->post = xcalloc(n + 1, sizeof *c->post);
	memcpy(c->post, post, n * sizeof *post);
	c->npost = n;
	qsort(c->post, n, sizeof *c->post, search_post_cmp);
	c->act = xcalloc(n + s->p->horizon_slots + 1, sizeof *c->act);
	if (!search_post_actions(s, c->post, n, c->act, &c->nact, NULL))
		return false;
	c->rsum = xcalloc(c->nact, sizeof *c->rsum);
	c->rsq = xcalloc(c->nact, sizeof *c->rsq);
	return true;
}

/* One replay of c under determinization k (one iteration). */
static int
polish_replay(struct polish *po, struct pcand *c, int k)
{
	struct search *s = po->s;
	model_state *st = NULL;
	double g = 0;
	bool over, yes = true;
	int i = 0, rc;

	s->ops->seed(s->m, search_mix(search_mix(s->seed) ^
	    (SEARCH_POLISH_SALT + (uint64_t)k)));
	legal_path_reset(s->lg, s->lp);
	rc = search_m_hidden(s, &st);
	for (; rc == MODEL_OK && i < c->nact; i++) {
		if (legal_path_done(s->lg, s->lp))
			break;
		if ((rc = search_m_terminal(s, st, &over)) != MODEL_OK || over)
			break;
		if (c->act[i].kind == ACTION_POST && ((rc = search_proposed(s,
		    st, &c->act[i], legal_path_slot(s->lp), &yes)) != MODEL_OK || !yes))
			break;
		if ((rc = search_m_apply(s, &st, &c->act[i], &po->step[i])) !=
		    MODEL_OK)
			break;
		legal_apply(s->lg, s->lp, &c->act[i]);
		g += po->step[i];
	}
	if (st != NULL)
		s->ops->state_free(s->m, st);
	search_count(s, rc, clock_seconds());
	po->left--;
	if (rc == MODEL_TIMEOUT)
		po->rc = rc;
	if (rc != MODEL_OK || !yes) {
		/* An error may be the model's bad luck: once more. */
		c->bad = !yes || ++c->nerr > 1;
		return rc;
	}
	if (c->nk == c->kcap) {
		c->kcap = c->kcap ? c->kcap * 2 : 16;
		c->val = xrealloc(c->val, c->kcap * sizeof *c->val);
	}
	c->val[c->nk++] = g;
	c->nexec = i > c->nexec ? i : c->nexec;
	for (i--; i >= 0; i--) {
		c->rsum[i] += po->step[i];
		c->rsq[i] += po->step[i] * po->step[i];
	}
	if (s->progress != NULL && clock_seconds() - po->last_progress >=
	    s->interval) {
		po->last_progress = clock_seconds();
		s->progress(s->progress_arg, s);
	}
	return MODEL_OK;
}

/* Replays c up to k determinizations; false where it cannot be judged
 * (refused, a model error, or the budget or the run is over). */
static bool
polish_upto(struct polish *po, struct pcand *c, int k)
{
	while (c->nk < k && !c->bad) {
		if (po->left == 0 || po->rc != MODEL_OK ||
		    atomic_load(&po->s->cancel))
			return false;
		polish_replay(po, c, c->nk);
	}
	return !c->bad;
}

static double
pcand_mean(const struct pcand *c, int k)
{
	double t = 0;
	int i;

	for (i = 0; i < k; i++)
		t += c->val[i];
	return k > 0 ? t / k : 0;
}

/* Adds the plan of posts to the candidates where the engine allows it. */
static void
polish_offer(struct polish *po, const struct search_post *post, int n)
{
	if (po->nc == po->ccap) {
		po->ccap = po->ccap ? po->ccap * 2 : 64;
		po->c = xrealloc(po->c, po->ccap * sizeof *po->c);
	}
	if (pcand_build(po->s, &po->c[po->nc], post, n))
		po->nc++;
	else
		pcand_free(&po->c[po->nc]);
}

static bool
polish_has(const struct pcand *c, uint32_t draft, int front)
{
	int i;

	for (i = 0; i < c->npost; i++)
		if (c->post[i].a.draft == draft && c->post[i].a.front == front)
			return true;
	return false;
}

/* Each post moved to each other slot, to another front, replaced by
 * another draft on its front, or dropped. */
static void
polish_moves(struct polish *po, struct search_post *w)
{
	const struct pcand *cur = &po->cur;
	int n = cur->npost, i, v;
	uint32_t d;

	for (i = 0; i < n; i++) {
		memcpy(w, cur->post, n * sizeof *w);
		for (v = 0; v < po->s->p->horizon_slots; v++)
			if (v != cur->post[i].slot) {
				w[i].slot = v;
				polish_offer(po, w, n);
			}
		w[i] = cur->post[i];
		for (v = 0; v < po->s->nfronts; v++)
			if (!polish_has(cur, w[i].a.draft, v)) {
				w[i].a.front = v;
				polish_offer(po, w, n);
			}
		w[i] = cur->post[i];
		for (d = 0; d < (uint32_t)po->s->p->ndrafts; d++)
			if (!polish_has(cur, d, w[i].a.front)) {
				w[i].a.draft = d;
				polish_offer(po, w, n);
			}
		w[i] = cur->post[n - 1];
		polish_offer(po, w, n - 1);
	}
}

/* Two posts that trade slots, or drafts; a front's posts all moved up
 * to 3 slots: where caps and gaps bind, no single move leads there. */
static void
polish_swaps(struct polish *po, struct search_post *w)
{
	const struct pcand *cur = &po->cur;
	int n = cur->npost, i, j, f;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			memcpy(w, cur->post, n * sizeof *w);
			w[i].slot = cur->post[j].slot;
			w[j].slot = cur->post[i].slot;
			if (w[i].slot != w[j].slot)
				polish_offer(po, w, n);
			w[i] = cur->post[i];
			w[j] = cur->post[j];
			w[i].a.draft = cur->post[j].a.draft;
			w[j].a.draft = cur->post[i].a.draft;
			if (w[i].a.draft != w[j].a.draft &&
			    !polish_has(cur, w[i].a.draft, w[i].a.front) &&
			    !polish_has(cur, w[j].a.draft, w[j].a.front))
				polish_offer(po, w, n);
		}
	for (f = 0; f < po->s->nfronts; f++)
		for (j = -3; j <= 3; j++) {
			memcpy(w, cur->post, n * sizeof *w);
			for (i = 0; i < n && j != 0; i++)
				if (w[i].a.front == f)
					w[i].slot += j;
			if (j != 0)
				polish_offer(po, w, n);
		}
}

/* Each unposted pair added at each slot. */
static void
polish_adds(struct polish *po, struct search_post *w)
{
	const struct pcand *cur = &po->cur;
	struct search *s = po->s;
	struct action a = { ACTION_POST, 0, 0 };
	int n = cur->npost, v;

	memcpy(w, cur->post, n * sizeof *w);
	for (a.draft = 0; a.draft < (uint32_t)s->p->ndrafts; a.draft++)
		for (a.front = 0; a.front < s->nfronts; a.front++) {
			if (polish_has(cur, a.draft, a.front) ||
			    s->verdict[search_action_id(s, &a)] != LEGAL_OK)
				continue;
			w[n].a = a;
			for (v = 0; v < s->p->horizon_slots; v++) {
				w[n].slot = v;
				polish_offer(po, w, n + 1);
			}
		}
}

/* The variants of the current plan the engine allows. */
static void
polish_variants(struct polish *po)
{
	struct search_post *w = xcalloc(po->cur.npost + 1, sizeof *w);

	po->nc = 0;
	polish_moves(po, w);
	polish_swaps(po, w);
	polish_adds(po, w);
	free(w);
}

static void
polish_clear(struct polish *po)
{
	int i;

	for (i = 0; i < po->nc; i++)
		pcand_free(&po->c[i]);
	po->nc = 0;
}

/* Candidates by the mean of the replays compared (m), best first; the
 * refused last. */
static int
pcand_cmp(const void *x, const void *y)
{
	const struct pcand *a = x, *b = y;

	if (a->bad != b->bad)
		return a->bad ? 1 : -1;
	if (a->bad)
		return 0;
	return a->m > b->m ? -1 : a->m < b->m;
}

/*
 * One round: races the variants (successive halving) and replaces the
 * current plan by the winner where it beats it on the same
 * determinizations. Returns whether it did.
 */
static bool
polish_round(struct polish *po, int k0, int kfinal)
{
	struct pcand tmp;
	int alive, k = k0, i, keep;

	polish_variants(po);
	alive = po->nc;

	for (;;) {
		if (!polish_upto(po, &po->cur, k))
			return false;
		for (i = 0; i < alive; i++)
			if (!polish_upto(po, &po->c[i], k) && !po->c[i].bad)
				return false;
		for (i = 0; i < alive; i++)
			po->c[i].m = po->c[i].bad ? 0 : pcand_mean(&po->c[i], k);
		qsort(po->c, alive, sizeof *po->c, pcand_cmp);
		while (alive > 0 && po->c[alive - 1].bad)
			alive--;
		if (alive == 0)
			return false;
		if (alive == 1 && k >= kfinal)
			break;
		keep = (alive + POLISH_ETA - 1) / POLISH_ETA;
		alive = keep;
		k = k * POLISH_ETA < kfinal ? k * POLISH_ETA : kfinal;
	}
	if (pcand_mean(&po->c[0], k) <= pcand_mean(&po->cur, k))
		return false;
	tmp = po->cur;
	po->cur = po->c[0];
	if (po->orig.act == NULL) {
		po->orig = tmp;
		memset(&po->c[0], 0, sizeof po->c[0]);
	} else
		po->c[0] = tmp;
	return true;
}

/*
 * Is the plan better than the tree's on the determinizations both were
 * replayed on, and on the first POLISH_KFINAL of them (where the first
 * round compared them)? Each round's winner beat the plan before it, but
 * a round after a failed one compares on more determinizations, so the
 * chain alone does not say so.
 */
static bool
polish_better(const struct polish *po)
{
	int n = po->cur.nk < po->orig.nk ? po->cur.nk : po->orig.nk;

	if (n < POLISH_KFINAL)
		return false;
	return pcand_mean(&po->cur, n) > pcand_mean(&po->orig, n) &&
	    pcand_mean(&po->cur, POLISH_KFINAL) >
	    pcand_mean(&po->orig, POLISH_KFINAL);
}

/* The plan's path joins the tree with the replays' statistics and becomes
 * the plan. */
static void
polish_join(struct polish *po)
{
	struct search *s = po->s;
	struct pcand *c = &po->cur;
	double g = 0;
	int i;

	for (i = 0; i < c->nexec; i++)
		g += c->rsum[i];
	mutex_lock(&s->lock);
	search_join(s, c->act, c->nexec, c->rsum, c->rsq, (uint32_t)c->nk,
	    g / c->nk);
	mutex_unlock(&s->lock);
}

/* The principal variation's posts as the current plan. */
static bool
polish_start(struct polish *po)
{
	struct search_post *post;
	int n = search_plan_posts(po->s, &post);
	bool ok = pcand_build(po->s, &po->cur, post, n);

	free(post);
	return ok;
}

int
search_polish(struct search *s)
{
	struct polish po;
	int k0 = POLISH_K0, kfinal = POLISH_KFINAL, k;
	bool changed = false;

	if (s->params.iterations <= s->iterations || !s->noisy ||
	    s->has_value)
		return MODEL_OK;
	memset(&po, 0, sizeof po);
	po.s = s;
	po.left = s->params.iterations - s->iterations;
	po.last_progress = clock_seconds();
	po.step = xcalloc(s->p->horizon_slots * 2 + (size_t)s->p->ndrafts *
	    s->nfronts + 1, sizeof *po.step);
	if (polish_start(&po)) {
		while (po.left > 0 && po.rc == MODEL_OK && !po.cur.bad &&
		    !atomic_load(&s->cancel)) {
			if (polish_round(&po, k0, kfinal))
				changed = true;
			else {
				k0 *= 2;
				kfinal *= 2;
			}
			polish_clear(&po);
		}
		changed = changed && polish_better(&po);
		/* Where model errors ended the rounds, the budget left goes to
		 * more replays of the plan, so that --iterations is the total. */
		for (k = 0; po.left > 0 && po.rc == MODEL_OK &&
		    !atomic_load(&s->cancel); k++) {
			po.cur.bad = false;
			polish_replay(&po, &po.cur, POLISH_SPARE + k);
		}
		if (changed)
			polish_join(&po);
	}
	polish_clear(&po);
	free(po.c);
	pcand_free(&po.cur);
	pcand_free(&po.orig);
	free(po.step);
	return po.rc;
}
