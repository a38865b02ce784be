/*
 * fixture_model — world models written in C behind struct model_ops, for
 * the planner's unit tests and benchmarks. One small family, shaped by
 * flags: deterministic or noisy rewards, illegal proposals with huge
 * rewards, a model that raises on a share of iterations, value().
 *
 * The reward of posting draft d on front f at slot k is
 * base(d, f) * hour(k) / (1 + fatigue(f)); a post raises its front's
 * fatigue by one, a wait halves every front's fatigue.
 */
#ifndef FRONTS_FIXTURE_MODEL_H
#define FRONTS_FIXTURE_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/project.h"
#include "fixture_ids.h"

#define CM_NOISE	0x01	/* rewards times a draw from [0.5, 1.5) */
#define CM_ILLEGAL	0x02	/* proposes never-legal posts worth 1e6 */
#define CM_RAISE	0x04	/* sample_hidden raises with cm.raise_rate */
#define CM_VALUE	0x08	/* defines value() */
#define CM_MUTATE	0x10	/* apply also changes the state it is given */
#define CM_UNSEEDED	0x20	/* rewards from a counter the seed never resets */
#define CM_SHUFFLE	0x40	/* every other legal_actions call: the list
				   without its wait (not deterministic) */
#define CM_MAXF		8

struct cm_state {
	int		slot;
	double		fatigue[CM_MAXF];
	uint8_t		*posted;	/* ndrafts × nfronts */
};

struct cm {
	const struct project	*p;
	int			 flags;
	double			 raise_rate;
	uint64_t		 rng;
	uint64_t		 calls;
	uint64_t		 value_calls;
	uint64_t		 counter;	/* CM_UNSEEDED */
	int			 illegal_draft;	/* CM_ILLEGAL: the forbidden draft */
	struct model_error	 err;
};

static inline double
cm_uniform(struct cm *m)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return (m->rng >> 11) * (1.0 / 9007199254740992.0);
}

static inline void
cm_seed(void *v, uint64_t seed)
{
	struct cm *m = v;

	m->rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	if (m->rng == 0)
		m->rng = 1;
}

static inline double
cm_base(int d, int f)
{
	return 1.0 + (double)((d * 7 + f * 3 + 5) % 11);
}

static inline double
cm_hour(int k)
{
	static const double h[] = { 1.0, 0.5, 2.0, 1.5, 0.8, 1.2, 0.3, 1.7 };

	return h[k % 8];
}

static inline struct cm_state *
cm_new_state(struct cm *m)
{
	struct cm_state *s = calloc(1, sizeof *s);

	s->posted = calloc((size_t)m->p->ndrafts * m->p->nfronts + 1, 1);
	return s;
}

static inline int
cm_initial(void *v, model_state **out)
{
	struct cm *m = v;

	m->calls++;
	*out = (model_state *)cm_new_state(m);
	return MODEL_OK;
}

static inline int
cm_hidden(void *v, model_state **out)
{
	struct cm *m = v;

	if ((m->flags & CM_RAISE) && cm_uniform(m) < m->raise_rate) {
		m->calls++;
		snprintf(m->err.type, sizeof m->err.type, "ValueError");
		snprintf(m->err.message, sizeof m->err.message, "boom");
		snprintf(m->err.function, sizeof m->err.function,
		    "sample_hidden");
		m->err.line = 7;
		return MODEL_RAISED;
	}
	return cm_initial(v, out);
}

static inline int
cm_legal(void *v, model_state *st, struct action *out, int max, int *n,
    int *illegal)
{
	struct cm *m = v;
	struct cm_state *s = (struct cm_state *)st;
	int d, f, k = 0;

	m->calls++;
	if (!(m->flags & CM_SHUFFLE) || m->calls % 2 == 0)
		out[k++] = (struct action){ ACTION_WAIT, 0, 0 };
	for (d = 0; d < m->p->ndrafts; d++)
		for (f = 0; f < m->p->nfronts && k < max; f++)
			if (!s->posted[d * m->p->nfronts + f] ||
			    (m->flags & CM_ILLEGAL))
				out[k++] = (struct action){ ACTION_POST,
				    (uint16_t)f, (uint32_t)d };
	*n = k;
	*illegal = (m->flags & CM_ILLEGAL) ? 1 : 0;	/* e.g. a ("like",) */
	return MODEL_OK;
}

static inline int
cm_apply(void *v, model_state *st, const struct action *a,
    model_state **next, double *reward)
{
	struct cm *m = v;
	struct cm_state *s = (struct cm_state *)st, *n;
	size_t nb = (size_t)m->p->ndrafts * m->p->nfronts;
	int f;

	m->calls++;
	n = cm_new_state(m);
	n->slot = s->slot;
	memcpy(n->fatigue, s->fatigue, sizeof n->fatigue);
	memcpy(n->posted, s->posted, nb);
	*reward = 0;
	if (a->kind == ACTION_WAIT) {
		n->slot++;
		for (f = 0; f < CM_MAXF; f++)
			n->fatigue[f] /= 2;
	} else {
		*reward = cm_base(a->draft, a->front) * cm_hour(s->slot) /
		    (1 + s->fatigue[a->front]);
		if ((m->flags & CM_ILLEGAL) &&
		    ((int)a->draft == m->illegal_draft ||
		    s->posted[a->draft * m->p->nfronts + a->front]))
			*reward = 1e6;
		if (m->flags & CM_NOISE)
			*reward *= 0.5 + cm_uniform(m);
		if (m->flags & CM_UNSEEDED)
			*reward += (double)(m->counter++ % 7);
		if (m->flags & CM_MUTATE)
			s->fatigue[a->front] += 1;
		n->fatigue[a->front] += 1;
		n->posted[a->draft * m->p->nfronts + a->front] = 1;
	}
	*next = (model_state *)n;
	return MODEL_OK;
}

static inline int
cm_terminal(void *v, model_state *st, bool *out)
{
	struct cm *m = v;

	m->calls++;
	*out = false;
	return MODEL_OK;
}

static inline int
cm_value(void *v, model_state *st, double *out)
{
	struct cm *m = v;

	m->calls++;
	m->value_calls++;
	*out = 1.0;
	return MODEL_OK;
}

static inline void
cm_free(void *v, model_state *st)
{
	struct cm_state *s = (struct cm_state *)st;

	if (s != NULL)
		free(s->posted);
	free(s);
}

static inline const struct model_error *
cm_last_error(void *v)
{
	return &((struct cm *)v)->err;
}

static inline bool
cm_has_value(void *v)
{
	return (((struct cm *)v)->flags & CM_VALUE) != 0;
}

static inline int
cm_legal_ids(void *v, model_state *st, uint32_t *out, int max, int *n,
    int *illegal)
{
	return fixture_legal_ids(cm_legal, (uint32_t)((struct cm *)v)->p->nfronts,
	    v, st, out, max, n, illegal);
}

static const struct model_ops cm_ops = {
	.seed = cm_seed, .initial_state = cm_initial,
	.sample_hidden = cm_hidden, .legal_actions = cm_legal,
	.legal_ids = cm_legal_ids, .apply = cm_apply,
	.is_terminal = cm_terminal, .value = cm_value, .state_free = cm_free,
	.last_error = cm_last_error, .has_value = cm_has_value
};

static inline void
cm_init(struct cm *m, const struct project *p, int flags)
{
	memset(m, 0, sizeof *m);
	m->p = p;
	m->flags = flags;
	m->raise_rate = 0.8;
	m->illegal_draft = -1;
	m->rng = 1;
}

#endif
