/*
 * objective — the operator's reward unit: weights over a post's metrics
 * (fronts.json `objective`). The plan, the backtest and the synthesis
 * prompt all speak in it. A metric a post does not give is unknown: it is
 * left out of the post's observed reward, which is then flagged partial,
 * never counted as 0.
 */
#ifndef FRONTS_OBJECTIVE_H
#define FRONTS_OBJECTIVE_H

#include <stdbool.h>
#include <stddef.h>

struct history_post;
struct project;

/* The metrics of history.jsonl, in the order of history_post.metrics_set. */
enum metric {
	METRIC_IMPRESSIONS, METRIC_LIKES, METRIC_REPOSTS, METRIC_REPLIES,
	METRIC_CLICKS, METRIC_COUNT
};

struct objective {
	double	weight[METRIC_COUNT];
	bool	given;		/* from fronts.json; else the default */
};

extern const char *const objective_metric_names[METRIC_COUNT];

/* The project's objective: fronts.json's, or the default. */
const struct objective *objective_of(const struct project *);
/* The post's reward in objective units over the metrics it gives.
 * Returns true when every weighted metric was given; false (partial)
 * when one is unknown. */
bool	objective_reward(const struct objective *, const struct history_post *,
	    double *reward);
/* "likes + 2 x reposts + 3 x replies + clicks" into buf. */
void	objective_format(const struct objective *, char *buf, size_t size);

#endif
