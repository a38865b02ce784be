/*
 * objective — observed reward of a past post in the operator's units
 * (see objective.h), and the default objective each front's own history
 * gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objective.h"
#include "core/project.h"

const char *const objective_metric_names[METRIC_COUNT] = {
	"impressions", "likes", "reposts", "replies", "clicks"
};

#define OBJ_INTERACTIONS	((1u << METRIC_LIKES) | \
	(1u << METRIC_REPOSTS) | (1u << METRIC_REPLIES) | (1u << METRIC_CLICKS))

static void
objective_set(struct objective *o, unsigned mask, bool derived)
{
	int i;

	memset(o, 0, sizeof *o);
	for (i = 0; i < METRIC_COUNT; i++)
		o->weight[i] = (mask & (1u << i)) ? 1 : 0;
	o->derived = derived;
}

const struct objective *
objective_of(const struct project *p)
{
	static struct objective def;

	if (p != NULL && p->objective.given)
		return &p->objective;
	if (p != NULL && p->front_objective != NULL)
		return &p->front_objective[p->nfronts];
	objective_set(&def, OBJ_INTERACTIONS, false);
	return &def;
}

const struct objective *
objective_front(const struct project *p, int f)
{
	if (p->objective.given || p->front_objective == NULL || f < 0 ||
	    f >= p->nfronts)
		return objective_of(p);
	return &p->front_objective[f];
}

/* Per front, the interactions every post with any interaction count
 * gives (see objective.h); the union of those over the fronts that have
 * counts is the project's. */
void
objective_derive(struct project *p)
{
	unsigned *mask, have, any = 0;
	bool *counted;
	int i, f;

	free(p->front_objective);
	p->front_objective = xcalloc((size_t)p->nfronts + 1,
	    sizeof *p->front_objective);
	mask = xcalloc((size_t)p->nfronts + 1, sizeof *mask);
	counted = xcalloc((size_t)p->nfronts + 1, sizeof *counted);
	for (f = 0; f < p->nfronts; f++)
		mask[f] = OBJ_INTERACTIONS;
	for (i = 0; i < p->nhistory; i++) {
		f = p->history[i].front;
		have = p->history[i].metrics_set & OBJ_INTERACTIONS;
		if (f < 0 || f >= p->nfronts || have == 0)
			continue;
		mask[f] &= have;
		counted[f] = true;
	}
	for (f = 0; f < p->nfronts; f++) {
		objective_set(&p->front_objective[f], mask[f], counted[f]);
		if (counted[f])
			any |= mask[f];
	}
	objective_set(&p->front_objective[p->nfronts], any != 0 ? any :
	    OBJ_INTERACTIONS, any != 0);
	free(mask);
	free(counted);
}

bool
objective_reward(const struct objective *o, const struct history_post *h,
    double *reward)
{
	const double v[METRIC_COUNT] = { h->impressions, h->likes, h->reposts,
	    h->replies, h->clicks };
	bool complete = true;
	int i;

	*reward = 0;
	for (i = 0; i < METRIC_COUNT; i++) {
		if (o->weight[i] == 0)
			continue;
		if (h->metrics_set & (1u << i))
			*reward += o->weight[i] * v[i];
		else
			complete = false;
	}
	return complete;
}

bool
objective_post_reward(const struct project *p, const struct history_post *h,
    double *reward)
{
	return objective_reward(objective_front(p, h->front), h, reward);
}

int
objective_scorable_count(const struct project *p, char *const *ids, int n)
{
	double r;
	int i, k, count = 0;

	for (k = 0; k < n; k++)
		for (i = 0; i < p->nhistory; i++)
			if (strcmp(p->history[i].id, ids[k]) == 0) {
				count += objective_post_reward(p,
				    &p->history[i], &r);
				break;
			}
	return count;
}

void
objective_format(const struct objective *o, char *buf, size_t size)
{
	size_t off = 0;
	int i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < METRIC_COUNT && off < size; i++) {
		if (o->weight[i] == 0)
			continue;
		if (o->weight[i] == 1)
			off += (size_t)snprintf(buf + off, size - off, "%s%s",
			    n > 0 ? " + " : "", objective_metric_names[i]);
		else
			off += (size_t)snprintf(buf + off, size - off, "%s%g x %s",
			    n > 0 ? " + " : "", o->weight[i],
			    objective_metric_names[i]);
		n++;
	}
	if (n == 0)
		snprintf(buf, size, "nothing (every weight is 0)");
}

void
objective_describe(const struct project *p, char *buf, size_t size)
{
	const struct objective *o;
	char one[160];
	size_t off;
	int f;

	if (p->objective.given || p->front_objective == NULL) {
		objective_format(objective_of(p), buf, size);
		return;
	}
	off = (size_t)snprintf(buf, size, "default, what history gives: ");
	for (f = 1; f < p->nfronts; f++)
		if (memcmp(objective_front(p, f), objective_front(p, 0),
		    sizeof *o) != 0)
			break;
	if (p->nfronts > 1 && f == p->nfronts &&
	    objective_front(p, 0)->derived) {
		objective_format(objective_front(p, 0), one, sizeof one);
		snprintf(buf + off, size - off, "%s on every front", one);
		return;
	}
	for (f = 0; f < p->nfronts && off < size; f++) {
		o = objective_front(p, f);
		if (o->derived)
			objective_format(o, one, sizeof one);
		else
			snprintf(one, sizeof one, "no counts yet");
		off += (size_t)snprintf(buf + off, size - off, "%s%s: %s",
		    f > 0 ? "; " : "", p->fronts[f].id, one);
	}
}
