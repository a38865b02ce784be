/*
 * validate_agree — predict agrees with apply (docs/DESIGN.md: "It must agree
 * with apply on the same post at the same time").
 *
 * For drafts on their fronts (at most AGREE_PAIRS pairs, spread over the
 * list) at AGREE_SLOTS slots of the horizon where the post is legal from
 * an empty plan: the mean of AGREE_DRAWS predict draws, with the
 * project's own ctx and the draft as a post at that slot's time, against
 * the mean reward of applying the post after sample_hidden and waits up
 * to that slot, over as many seeds. They agree when they differ by less
 * than AGREE_REL of the larger plus three standard errors: a model whose
 * predict is its apply with the same noise passes; one whose predict is
 * another model fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/validate_int.h"

#define AGREE_PAIRS	24
#define AGREE_SLOTS	3
#define AGREE_DRAWS	24
#define AGREE_REL	0.2

struct agree_cell {
	int	draft, front, slot;
	double	sum, sq;	/* apply's rewards */
	int	n;
};

/* The (draft, front, slot) cells to compare, legal from an empty plan. */
static int
agree_cells(struct vctx *v, struct agree_cell *cells, int *maxslot)
{
	const struct project *p = v->p;
	int pairs[AGREE_PAIRS][2], np = 0, total = 0, d, f, i, j, k, step, n = 0;
	int slots[AGREE_SLOTS];
	struct action a, wait = { ACTION_WAIT, 0, 0 };

	for (d = 0; d < p->ndrafts; d++)
		for (f = 0; f < p->nfronts; f++)
			total += project_draft_allows(p, d, f);
	step = total > AGREE_PAIRS ? (total + AGREE_PAIRS - 1) / AGREE_PAIRS : 1;
	for (d = 0, i = 0; d < p->ndrafts; d++)
		for (f = 0; f < p->nfronts; f++)
			if (project_draft_allows(p, d, f) && i++ % step == 0 &&
			    np < AGREE_PAIRS) {
				pairs[np][0] = d;
				pairs[np++][1] = f;
			}
	for (j = 0; j < AGREE_SLOTS; j++)
		slots[j] = p->horizon_slots * j / AGREE_SLOTS;
	*maxslot = 0;
	legal_path_reset(v->lg, v->lp);
	for (k = 0, j = 0; j < AGREE_SLOTS && k < p->horizon_slots; k++) {
		if (k == slots[j]) {
			for (i = 0; i < np; i++) {
				a = (struct action){ ACTION_POST,
				    (uint16_t)pairs[i][1], (uint32_t)pairs[i][0] };
				if (legal_check(v->lg, v->lp, &a) != LEGAL_OK)
					continue;
				cells[n++] = (struct agree_cell){ pairs[i][0],
				    pairs[i][1], k, 0, 0, 0 };
				*maxslot = k;
			}
			j++;
		}
		legal_apply(v->lg, v->lp, &wait);
	}
	return n;
}

/* apply's side: one seed's walk through the cells' slots. */
static int
agree_apply(struct vctx *v, struct agree_cell *cells, int n, int maxslot,
    uint64_t seed, struct validate_check *c)
{
	struct action wait = { ACTION_WAIT, 0, 0 }, a;
	model_state *st, *next, *post;
	double r;
	int i, k, rc;

	if ((rc = v_hidden(v, seed, &st)) != MODEL_OK) {
		v_fail_rc(v, c, "sample_hidden", rc);
		return -1;
	}
	for (k = 0; k <= maxslot; k++) {
		for (i = 0; i < n; i++) {
			if (cells[i].slot != k)
				continue;
			a = (struct action){ ACTION_POST, (uint16_t)cells[i].front,
			    (uint32_t)cells[i].draft };
			if ((rc = v_apply(v, st, &a, &post, &r)) != MODEL_OK)
				goto fail;
			v->ops->state_free(v->m, post);
			cells[i].sum += r;
			cells[i].sq += r * r;
			cells[i].n++;
		}
		if (k < maxslot) {
			if ((rc = v_apply(v, st, &wait, &next, &r)) != MODEL_OK)
				goto fail;
			v->ops->state_free(v->m, st);
			st = next;
		}
	}
	v->ops->state_free(v->m, st);
	return 0;
fail:
	v->ops->state_free(v->m, st);
	v_fail_rc(v, c, "apply", rc);
	return -1;
}

static double
agree_var(double sum, double sq, int n)
{
	double m = sum / n, var = sq / n - m * m;

	return var > 0 ? var : 0;
}

/* predict's side for one cell; false (c failed) when they disagree. */
static bool
agree_cell(struct vctx *v, const struct agree_cell *cell, double *draws,
    struct validate_check *c)
{
	struct predict_query q = { -1, cell->draft, cell->front,
	    project_slot_time(v->p, cell->slot), NULL, 0, 0,
	    v->vp.seed + 7919, AGREE_DRAWS };
	double sum = 0, sq = 0, mp, ma, se, tol;
	int i, rc;

	v->r->model_calls += AGREE_DRAWS;
	if ((rc = v->ops->predict(v->m, &q, draws)) != MODEL_OK) {
		v_fail_rc(v, c, "predict", rc);
		return false;
	}
	for (i = 0; i < AGREE_DRAWS; i++) {
		sum += draws[i];
		sq += draws[i] * draws[i];
	}
	mp = sum / AGREE_DRAWS;
	ma = cell->sum / cell->n;
	se = sqrt(agree_var(sum, sq, AGREE_DRAWS) / AGREE_DRAWS +
	    agree_var(cell->sum, cell->sq, cell->n) / cell->n);
	tol = AGREE_REL * fmax(fabs(mp), fabs(ma)) + 3 * se + 1e-9;
	if (fabs(mp - ma) <= tol)
		return true;
	v_fail(v, c, "predict", 0, "predict and apply disagree on draft %s "
	    "on %s at slot %d: predict's mean %.4g, apply's %.4g (over %d "
	    "draws each; tolerance %.3g). predict must draw the reward apply "
	    "would give that post at that time", v->p->drafts[cell->draft].id,
	    v->p->fronts[cell->front].id, cell->slot, mp, ma, AGREE_DRAWS, tol);
	return false;
}

void
v_agreement(struct vctx *v)
{
	struct validate_check *c = v_check(v, "predict-agrees-with-apply");
	struct agree_cell *cells;
	double draws[AGREE_DRAWS];
	int n, i, s, maxslot;

	if (v->ops->predict == NULL || v->ops->has_predict == NULL ||
	    !v->ops->has_predict(v->m)) {
		c->status = VALIDATE_SKIP;
		snprintf(c->message, sizeof c->message, "the model defines no "
		    "predict(), so the backtest cannot measure it");
		return;
	}
	cells = xcalloc((size_t)AGREE_PAIRS * AGREE_SLOTS, sizeof *cells);
	if ((n = agree_cells(v, cells, &maxslot)) == 0) {
		c->status = VALIDATE_SKIP;
		snprintf(c->message, sizeof c->message, "no draft may be "
		    "posted at the slots compared");
	}
	for (s = 0; n > 0 && s < AGREE_DRAWS; s++)
		if (agree_apply(v, cells, n, maxslot, v->vp.seed + 3000 + s,
		    c) != 0)
			n = 0;
	for (i = 0; i < n; i++)
		if (!agree_cell(v, &cells[i], draws, c))
			break;
	free(cells);
}
