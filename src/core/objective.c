/*
 * objective — observed reward of a past post in the operator's units
 * (see objective.h).
 */
#include <stdio.h>

#include "core/objective.h"
#include "core/project.h"

const char *const objective_metric_names[METRIC_COUNT] = {
	"impressions", "likes", "reposts", "replies", "clicks"
};

static void
objective_default(struct objective *o)
{
	int i;

	for (i = 0; i < METRIC_COUNT; i++)
		o->weight[i] = i == METRIC_IMPRESSIONS ? 0 : 1;
	o->given = false;
}

const struct objective *
objective_of(const struct project *p)
{
	static struct objective def;

	if (p != NULL && p->objective.given)
		return &p->objective;
	objective_default(&def);
	return &def;
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
