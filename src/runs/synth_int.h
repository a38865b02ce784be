/*
 * synth_int — what synth.c shares with synth_score.c.
 */
#ifndef FRONTS_SYNTH_INT_H
#define FRONTS_SYNTH_INT_H

#include "runs/synth.h"

/* Reads the backtest out of c->validation (recomputed from the project),
 * adds its wins and losses to c->passes and c->fails, and writes the
 * feedback text. A candidate that was not measured (no code, refused,
 * not conforming, no predict) loses every window post against both
 * baselines, so every candidate is judged over the same tests. */
void	synth_score_backtest(const struct project *, struct synth_candidate *);

#endif
