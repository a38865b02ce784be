/*
 * fixture_history — a test project whose history comes from a known
 * process, and world models written in C against it:
 *
 *   log reward = FRONT[f] + BLOCK[local hour / 3] + TOPIC[t] + SIGMA * z
 *
 * with z standard normal, every post's reward in `likes` (the other
 * weighted metrics known and 0). The "true" model predicts and applies
 * exactly that process; the "uninformed" one one log-normal for every
 * post; the "disagreeing" one predicts the process but applies three
 * times it.
 */
#ifndef FRONTS_FIXTURE_HISTORY_H
#define FRONTS_FIXTURE_HISTORY_H

#include <math.h>

#include "core/model.h"
#include "core/timeutil.h"
#include "fixture_ids.h"
#include "fixture_project.h"

#define FH_SIGMA	0.35
#define FH_TOPICS	3

enum fh_kind { FH_TRUE, FH_UNINFORMED, FH_DISAGREE };

static const double fh_front[] = { 2.0, 3.2 };
static const double fh_block[8] = { -0.8, -0.9, -0.5, 0.3, 0.2, 0.0, 0.6,
    0.4 };
static const double fh_topic[FH_TOPICS] = { -0.6, 0.1, 0.7 };
static const char *const fh_topic_names[FH_TOPICS] = { "a", "b", "c" };

struct fh_model {
	const struct project	*p;
	enum fh_kind		 kind;
	uint64_t		 rng;
	struct model_error	 err;
};

static inline uint64_t
fh_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline double
fh_normal(uint64_t *s)
{
	double u = ((fh_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((fh_next(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static inline int
fh_topic_index(char **topics, int n)
{
	int i;

	for (i = 0; n > 0 && i < FH_TOPICS; i++)
		if (strcmp(topics[0], fh_topic_names[i]) == 0)
			return i;
	return 0;
}

static inline double
fh_log_mean(int front, time_t at, int topic)
{
	return fh_front[front] + fh_block[time_local_hour(at) / 3] +
	    fh_topic[topic];
}

/* 300 posts over ten weeks on two fronts, the newest last in the file
 * order too (the backtest must not rely on it: they are shuffled). */
static inline struct project *
fh_project(uint64_t seed)
{
	struct project *p = fx_project("Europe/Berlin",
	    "2026-12-01T08:00:00Z", 60, 24, 2, 3);
	struct history_post *h;
	uint64_t s = seed;
	char at[64];
	time_t t0 = p->start - 70 * 86400, t;
	int i, topic;

	for (i = 0; i < 3; i++) {
		p->drafts[i].topics = xcalloc(1, sizeof (char *));
		p->drafts[i].topics[0] = xstrdup(fh_topic_names[i]);
		p->drafts[i].ntopics = 1;
	}
	for (i = 0; i < 300; i++) {
		t = t0 + (time_t)(fh_next(&s) % (70 * 86400ULL));
		time_format_local(t, at, sizeof at);
		fx_history(p, (int)(fh_next(&s) % 2), at);
		h = &p->history[p->nhistory - 1];
		topic = (int)(fh_next(&s) % FH_TOPICS);
		h->topics = xcalloc(1, sizeof (char *));
		h->topics[0] = xstrdup(fh_topic_names[topic]);
		h->ntopics = 1;
		h->likes = exp(fh_log_mean(h->front, h->posted_at, topic) +
		    FH_SIGMA * fh_normal(&s));
		h->metrics_set = 0x1e;	/* likes, reposts, replies, clicks */
	}
	return p;
}

static inline double
fh_draw(struct fh_model *m, int front, time_t at, int topic)
{
	double mu = m->kind == FH_UNINFORMED ? 2.6 :
	    fh_log_mean(front, at, topic);

	return exp(mu + (m->kind == FH_UNINFORMED ? 0.8 : FH_SIGMA) *
	    fh_normal(&m->rng));
}

static inline void
fh_seed(void *v, uint64_t seed)
{
	((struct fh_model *)v)->rng = seed * 0x2545f4914f6cdd1dULL;
}

static inline int
fh_state(void *v, model_state **out)
{
	*out = (model_state *)xcalloc(1, sizeof (int));
	return MODEL_OK;
}

static inline int
fh_legal(void *v, model_state *s, struct action *out, int max, int *n,
    int *illegal)
{
	struct fh_model *m = v;
	int d, f, k = 0;

	out[k++] = (struct action){ ACTION_WAIT, 0, 0 };
	for (d = 0; d < m->p->ndrafts; d++)
		for (f = 0; f < m->p->nfronts && k < max; f++)
			out[k++] = (struct action){ ACTION_POST, (uint16_t)f,
			    (uint32_t)d };
	*n = k;
	*illegal = 0;
	return MODEL_OK;
}

static inline int
fh_apply(void *v, model_state *s, const struct action *a, model_state **next,
    double *reward)
{
	struct fh_model *m = v;
	int slot = *(int *)s;
	const struct draft *d = &m->p->drafts[a->draft];

	*next = (model_state *)xcalloc(1, sizeof (int));
	*(int *)*next = slot + (a->kind == ACTION_WAIT);
	*reward = 0;
	if (a->kind == ACTION_POST)
		*reward = fh_draw(m, a->front, project_slot_time(m->p, slot),
		    fh_topic_index(d->topics, d->ntopics)) *
		    (m->kind == FH_DISAGREE ? 3 : 1);
	return MODEL_OK;
}

static inline int
fh_terminal(void *v, model_state *s, bool *out)
{
	*out = *(int *)s >= ((struct fh_model *)v)->p->horizon_slots;
	return MODEL_OK;
}

static inline void
fh_free(void *v, model_state *s)
{
	free(s);
}

static inline const struct model_error *
fh_error(void *v)
{
	return &((struct fh_model *)v)->err;
}

static inline bool
fh_no(void *v)
{
	return false;
}

static inline bool
fh_yes(void *v)
{
	return true;
}

static inline int
fh_predict(void *v, const struct predict_query *q, double *draws)
{
	struct fh_model *m = v;
	const struct project *p = m->p;
	int k, front, topic;

	if (q->post >= 0) {
		front = p->history[q->post].front;
		topic = fh_topic_index(p->history[q->post].topics,
		    p->history[q->post].ntopics);
	} else {
		front = q->front;
		topic = fh_topic_index(p->drafts[q->draft].topics,
		    p->drafts[q->draft].ntopics);
	}
	for (k = 0; k < q->ndraws; k++) {
		fh_seed(m, q->seed + (uint64_t)k);
		draws[k] = fh_draw(m, front, q->at, topic);
	}
	return MODEL_OK;
}

static inline int
fh_legal_ids(void *v, model_state *s, uint32_t *out, int max, int *n,
    int *illegal)
{
	return fixture_legal_ids(fh_legal,
	    (uint32_t)((struct fh_model *)v)->p->nfronts, v, s, out, max, n,
	    illegal);
}

static const struct model_ops fh_ops = {
	.seed = fh_seed, .initial_state = fh_state, .sample_hidden = fh_state,
	.legal_actions = fh_legal, .legal_ids = fh_legal_ids,
	.apply = fh_apply, .is_terminal = fh_terminal, .state_free = fh_free,
	.last_error = fh_error, .has_value = fh_no, .predict = fh_predict,
	.has_predict = fh_yes
};

#endif
