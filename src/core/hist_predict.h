/*
 * hist_predict — what the plan predicted for each post fronts published,
 * kept in .fronts/predictions.jsonl (one line per publish attempt, keyed
 * by the ledger entry) so that `fronts history pull` can put the
 * prediction beside the outcome in history.jsonl.
 */
#ifndef FRONTS_HIST_PREDICT_H
#define FRONTS_HIST_PREDICT_H

#include <stdbool.h>

#include "core/util.h"

struct hist_prediction {
	double	reward;
	double	lo, hi;		/* the plan's ci95 */
};

/* Appends (synced) the prediction of ledger entry `entry`. */
int	hist_prediction_save(const char *project_dir, const char *entry,
	    double reward, double lo, double hi, struct error *err);
/* The latest prediction saved for entry; false when none (or the file is
 * unreadable: a prediction is a comparison aid, never required). */
bool	hist_prediction_find(const char *project_dir, const char *entry,
	    struct hist_prediction *out);

#endif
