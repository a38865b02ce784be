/*
 * validate_conform — the contract's checks: the functions exist,
 * initial_state and sample_hidden give states, random rollouts to the
 * horizon raise nothing, legal_actions is deterministic, apply does not
 * mutate its input, seeded runs repeat, value() is a finite number.
 *
 * Without a state_repr hook, "apply does not mutate" is checked by
 * behaviour: legal_actions(s) and a seeded apply(s, first action) must give
 * the same answers before and after every apply from s.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/validate_int.h"

#define VALIDATE_MAX_STEPS	4096
#define VALIDATE_SEED_STEPS	40
/*
 * The rollouts after the first VALIDATE_MIN_ROLLOUTS stop once the model's
 * lists have handed over this many actions: on a project whose lists run
 * to ten thousand (1,000 drafts x 12 fronts) a rollout to a two-week
 * horizon reads some twenty million, and twenty of them took minutes
 * (bench/RESULTS.md "Checking a model"); projects whose lists run to
 * hundreds or a few thousand still get every rollout.
 */
#define VALIDATE_MIN_ROLLOUTS	2
#define VALIDATE_PROPOSALS	64000000ULL

static const char *required[] = {
	"initial_state", "legal_actions", "apply", "is_terminal"
};

static void
v_functions(struct vctx *v)
{
	struct validate_check *c = v_check(v, "functions-exist");
	size_t i;
	int line;

	if (v->hooks == NULL || (v->hooks->function_line == NULL &&
	    v->hooks->source == NULL)) {
		c->status = VALIDATE_SKIP;
		snprintf(c->message, sizeof c->message, "checked when loading");
		return;
	}
	for (i = 0; i < sizeof required / sizeof required[0]; i++)
		if (v->hooks->function_line != NULL ?
		    v->hooks->function_line(v->m, required[i], &line) != 0 :
		    v_def_line(v->hooks, required[i]) == 0) {
			v_fail(v, c, required[i], 0, "the model defines no "
			    "function %s", required[i]);
			return;
		}
}

/* initial_state and sample_hidden each give a state. */
static void
v_states(struct vctx *v)
{
	struct validate_check *c = v_check(v, "initial-state");
	model_state *s = NULL;
	int rc;

	v->r->model_calls++;
	if ((rc = v->ops->initial_state(v->m, &s)) != MODEL_OK)
		v_fail_rc(v, c, "initial_state", rc);
	else
		v->ops->state_free(v->m, s);
	c = v_check(v, "sample-hidden");
	if ((rc = v_hidden(v, v->vp.seed, &s)) != MODEL_OK)
		v_fail_rc(v, c, "sample_hidden", rc);
	else
		v->ops->state_free(v->m, s);
}

/* legal_actions(s) twice gives the same list; the second stays in
 * v->buf2 (n2 long) for the step to choose from. */
static bool
v_same_legal(struct vctx *v, model_state *s, int *n2, int *rc)
{
	int n1;

	if ((*rc = v_legal(v, s, v->buf2, &n1)) != MODEL_OK)
		return false;
	memcpy(v->buf, v->buf2, n1 * sizeof *v->buf);
	if ((*rc = v_legal(v, s, v->buf2, n2)) != MODEL_OK)
		return false;
	return n1 == *n2 && memcmp(v->buf, v->buf2, n1 * sizeof *v->buf) == 0;
}

/* One random rollout from a sampled hidden state. Checks each step as it
 * goes; returns false once a check failed. */
static bool
v_rollout(struct vctx *v, uint64_t seed, struct validate_check *c,
    struct validate_check *det, struct validate_check *mut)
{
	model_state *s, *next;
	struct action a;
	char *before = NULL, *after = NULL;
	double r;
	bool term, asked, ok = true;
	int n, rc, steps = 0;

	if ((rc = v_hidden(v, seed, &s)) != MODEL_OK) {
		v_fail_rc(v, c, "sample_hidden", rc);
		return false;
	}
	legal_path_reset(v->lg, v->lp);
	while (ok && !legal_path_done(v->lg, v->lp) &&
	    steps++ < VALIDATE_MAX_STEPS) {
		v->r->model_calls++;
		if ((rc = v->ops->is_terminal(v->m, s, &term)) != MODEL_OK) {
			v_fail_rc(v, c, "is_terminal", rc);
			ok = false;
			break;
		}
		if (term)
			break;
		asked = false;
		if (det->status == VALIDATE_PASS) {
			asked = v_same_legal(v, s, &n, &rc);
			if (rc != MODEL_OK) {
				v_fail_rc(v, c, "legal_actions", rc);
				ok = false;
				break;
			}
			if (!asked)
				v_fail(v, det, "legal_actions", 0, "two calls "
				    "on the same state returned different "
				    "lists");
		}
		if (asked)
			n = v_filter(v, n);
		else if ((rc = v_available(v, s, &n)) != MODEL_OK) {
			v_fail_rc(v, c, "legal_actions", rc);
			ok = false;
			break;
		}
		a = v->buf[v_rand(v, (uint32_t)n)];
		if (mut->status == VALIDATE_PASS && v->hooks != NULL &&
		    v->hooks->state_repr != NULL)
			v->hooks->state_repr(v->m, s, &before);
		if ((rc = v_apply(v, s, &a, &next, &r)) != MODEL_OK) {
			v_fail_rc(v, c, "apply", rc);
			free(before);
			ok = false;
			break;
		}
		if (before != NULL) {
			v->hooks->state_repr(v->m, s, &after);
			if (after == NULL || strcmp(before, after) != 0)
				v_fail(v, mut, "apply", 0, "apply changed the "
				    "state it was given (%s at slot %d)",
				    a.kind == ACTION_WAIT ? "wait" : "post",
				    legal_path_slot(v->lp));
			free(after);
			free(before);
			before = after = NULL;
		}
		if (!isfinite(r)) {
			v_fail(v, c, "apply", 0, "apply returned a reward that "
			    "is not a finite number");
			ok = false;
		}
		v->ops->state_free(v->m, s);
		s = next;
		legal_apply(v->lg, v->lp, &a);
	}
	v->ops->state_free(v->m, s);
	return ok;
}

/* Without a repr hook: the same seeded apply(s, a), repeated, must give
 * the same reward, and the available set of s must not change. */
static void
v_mutation_behaviour(struct vctx *v, struct validate_check *mut)
{
	model_state *s, *next;
	struct action a;
	double r1, r2;
	int n, before, i;

	if (v_hidden(v, v->vp.seed, &s) != MODEL_OK)
		return;
	legal_path_reset(v->lg, v->lp);
	if (v_available(v, s, &n) != MODEL_OK) {
		v->ops->state_free(v->m, s);
		return;
	}
	before = n;
	for (i = 0; i < before && i < 8; i++) {
		if (v_available(v, s, &n) != MODEL_OK)
			break;
		a = v->buf[i];
		v->ops->seed(v->m, 99);
		if (v_apply(v, s, &a, &next, &r1) != MODEL_OK)
			break;
		v->ops->state_free(v->m, next);
		v->ops->seed(v->m, 99);
		if (v_apply(v, s, &a, &next, &r2) != MODEL_OK)
			break;
		v->ops->state_free(v->m, next);
		if (r1 != r2 || v_available(v, s, &n) != MODEL_OK ||
		    n != before) {
			v_fail(v, mut, "apply", 0, "the same seeded apply(state, "
			    "%s) gave %g, then %g: apply changed its input",
			    a.kind == ACTION_WAIT ? "wait" : "post", r1, r2);
			break;
		}
	}
	v->ops->state_free(v->m, s);
}

/* The rewards of a seeded run of VALIDATE_SEED_STEPS steps. */
static int
v_seeded_run(struct vctx *v, double *rewards, int *nr)
{
	model_state *s, *next;
	int n, rc, k;

	v->rng = 0x9e3779b97f4a7c15ULL;
	if ((rc = v_hidden(v, v->vp.seed + 7, &s)) != MODEL_OK)
		return rc;
	legal_path_reset(v->lg, v->lp);
	for (k = 0; k < VALIDATE_SEED_STEPS && !legal_path_done(v->lg, v->lp);
	    k++) {
		if ((rc = v_available(v, s, &n)) != MODEL_OK)
			break;
		struct action a = v->buf[v_rand(v, (uint32_t)n)];
		if ((rc = v_apply(v, s, &a, &next, &rewards[k])) != MODEL_OK)
			break;
		v->ops->state_free(v->m, s);
		s = next;
		legal_apply(v->lg, v->lp, &a);
	}
	v->ops->state_free(v->m, s);
	*nr = k;
	return rc;
}

static void
v_seeded(struct vctx *v)
{
	struct validate_check *c = v_check(v, "seeded-runs-repeat");
	double a[VALIDATE_SEED_STEPS], b[VALIDATE_SEED_STEPS];
	int na = 0, nb = 0, i;

	if (v_seeded_run(v, a, &na) != MODEL_OK ||
	    v_seeded_run(v, b, &nb) != MODEL_OK) {
		c->status = VALIDATE_SKIP;
		snprintf(c->message, sizeof c->message, "the model failed "
		    "before two runs could be compared (see random-rollouts)");
		return;
	}
	for (i = 0; i < na && i < nb; i++)
		if (a[i] != b[i] && !(isnan(a[i]) && isnan(b[i])))
			break;
	if (na != nb || i < na)
		v_fail(v, c, "apply", 0, "two runs with the same seed differ at "
		    "step %d (reward %g, then %g): draw randomness only from "
		    "rng", i, i < na ? a[i] : 0, i < nb ? b[i] : 0);
}

void
v_conformance(struct vctx *v)
{
	struct validate_check *roll, *det, *mut;
	int i, n = v->vp.rollouts > 0 ? v->vp.rollouts : 20;
	uint64_t budget = v->vp.proposals > 0 ? v->vp.proposals :
	    VALIDATE_PROPOSALS;
	size_t ri, di, mi;

	v_functions(v);
	v_states(v);
	ri = v->r->nchecks;
	v_check(v, "random-rollouts");
	di = v->r->nchecks;
	v_check(v, "legal-actions-deterministic");
	mi = v->r->nchecks;
	v_check(v, "apply-does-not-mutate");
	for (i = 0; i < n; i++) {
		roll = &v->r->checks[ri];
		det = &v->r->checks[di];
		mut = &v->r->checks[mi];
		if (i >= VALIDATE_MIN_ROLLOUTS && v->proposals >= budget) {
			snprintf(roll->message, sizeof roll->message, "%d of "
			    "%d rollouts: the model's lists had handed over "
			    "%llu actions, past the check's budget of %llu",
			    i, n, (unsigned long long)v->proposals,
			    (unsigned long long)budget);
			break;
		}
		if (!v_rollout(v, v->vp.seed + 100 + i, roll, det, mut))
			break;
	}
	mut = &v->r->checks[mi];
	if (mut->status == VALIDATE_PASS && (v->hooks == NULL ||
	    v->hooks->state_repr == NULL))
		v_mutation_behaviour(v, mut);
	v_seeded(v);
	if (v->ops->has_value != NULL && v->ops->has_value(v->m) &&
	    v->ops->value != NULL) {
		struct validate_check *c = v_check(v, "value");
		model_state *s;
		double x;
		int rc;

		if (v_hidden(v, v->vp.seed, &s) == MODEL_OK) {
			v->r->model_calls++;
			if ((rc = v->ops->value(v->m, s, &x)) != MODEL_OK)
				v_fail_rc(v, c, "value", rc);
			else if (!isfinite(x))
				v_fail(v, c, "value", 0, "value returned %g", x);
			v->ops->state_free(v->m, s);
		}
	}
}

