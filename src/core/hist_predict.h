/*
 * hist_predict — what the plan predicted for each post fronts published,
 * kept in .fronts/predictions.jsonl (one line per publish attempt, keyed
 * by the ledger entry) so that `fronts history pull` can put the
 * prediction beside the outcome in history.jsonl.
 */
#ifndef FRONTS_HIST_PREDICT_H
#define FRONTS_HIST_PREDICT_H

#include <stdbool.h>

#include "core/plan.h"
#include "core/util.h"

struct hist_prediction {
	double	reward;		/* NAN: the plan predicted nothing */
	double	lo, hi;		/* the plan's ci95 (of the mean) */
	double	sd;		/* the spread of one post's reward (the sd of
				 * the rewards the search drew); NAN: unknown */
};

/* The prediction plan post pp makes: its mean reward, ci95 and the sd
 * of its draws (recovered from the ci95 and the visits it rests on). */
void	hist_prediction_of(const struct plan_post *pp,
	    struct hist_prediction *out);
/* Appends (synced) the prediction of ledger entry `entry`. */
int	hist_prediction_save(const char *project_dir, const char *entry,
	    const struct hist_prediction *pr, struct error *err);
/* The latest prediction saved for entry; false when none (or the file is
 * unreadable: a prediction is a comparison aid, never required). */
bool	hist_prediction_find(const char *project_dir, const char *entry,
	    struct hist_prediction *out);

#endif
