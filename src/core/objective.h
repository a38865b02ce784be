/*
 * objective — the operator's reward unit: weights over a post's metrics
 * (fronts.json `objective`). The plan, the backtest and the synthesis
 * prompt all speak in it. A metric a post does not give is unknown: it is
 * left out of the post's observed reward, which is then flagged partial,
 * never counted as 0.
 *
 * Without `objective` in fronts.json each front has its own default: the
 * interactions (likes, reposts, replies, clicks) that every post of that
 * front with any interaction count gives. An X archive gives likes and
 * reposts, so its front is scored on those; a later pull that adds
 * replies to new posts does not make the archive's posts unscorable. A
 * front none of whose posts has a count weighs every interaction (none
 * of its posts can be scored until counts come).
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
	bool	derived;	/* a front's default, from its history */
};

extern const char *const objective_metric_names[METRIC_COUNT];

/* The project's objective: fronts.json's, or without it the union of
 * the fronts' defaults (every interaction some front's history gives). */
const struct objective *objective_of(const struct project *);
/* Front f's objective: fronts.json's, or the front's default. */
const struct objective *objective_front(const struct project *, int f);
/* Fills p's per-front defaults from its history (project_load does). */
void	objective_derive(struct project *);
/* A history post's reward under its front's objective (as below). */
bool	objective_post_reward(const struct project *,
	    const struct history_post *, double *reward);
/* How many of the history posts named by ids (n of them) can be scored
 * under the project's objective: every weighted metric known. */
int	objective_scorable_count(const struct project *, char *const *ids,
	    int n);
/* "x: likes + reposts; mastodon: no counts yet" (the default) or the
 * given objective's formula, into buf. */
void	objective_describe(const struct project *, char *buf, size_t size);
/* The post's reward in objective units over the metrics it gives.
 * Returns true when every weighted metric was given; false (partial)
 * when one is unknown. */
bool	objective_reward(const struct objective *, const struct history_post *,
	    double *reward);
/* "likes + 2 x reposts + 3 x replies + clicks" into buf. */
void	objective_format(const struct objective *, char *buf, size_t size);

#endif
