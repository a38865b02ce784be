/*
 * synth_score — a candidate's backtest as refinement sees it: tests won
 * and lost against the baselines (the Thompson sampler's pass rate), the
 * figures for the report, and the feedback for the next round: the
 * figures against the baselines and the worst-predicted posts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/validate.h"
#include "runs/synth_int.h"

static void
synth_tally(const struct backtest_report *r, struct synth_candidate *c)
{
	const struct backtest_post *bp;
	double err;
	int i, b;

	for (i = 0; i < r->nposts; i++) {
		bp = &r->posts[i];
		if (!bp->scored)
			continue;
		err = fabs(bp->mean_log - log1p(bp->observed));
		/* the baselines from history: the builtin one is reported,
		 * not a test refinement has to win */
		for (b = 0; b < BASE_BUILTIN; b++) {
			if (bp->predicted && err < fabs(log1p(fmax(bp->base[b],
			    0)) - log1p(bp->observed)))
				c->wins++;
			else
				c->losses++;
		}
	}
}

static char *
synth_worst_text(const struct project *p, const struct backtest_report *r)
{
	const struct history_post *h;
	const struct backtest_post *bp;
	int ix[BACKTEST_WORST], n, i, t;
	char *s, *next, topics[256];
	size_t off;

	n = backtest_worst(r, ix, BACKTEST_WORST);
	if (n == 0)
		return xstrdup("");
	s = xstrdup("The worst-predicted posts (ctx[\"history\"] holds them "
	    "by id; rewards in the objective's units):\n");
	for (i = 0; i < n; i++) {
		bp = &r->posts[ix[i]];
		h = &p->history[bp->history];
		topics[0] = '\0';
		for (t = 0, off = 0; t < h->ntopics && off < sizeof topics; t++)
			off += (size_t)snprintf(topics + off, sizeof topics - off,
			    "%s%s", t > 0 ? "," : "", h->topics[t]);
		xasprintf(&next, "%s  %s on %s at %s, topics [%s]: predicted "
		    "%.1f (10-90%%: %.1f to %.1f), observed %.1f\n", s, h->id,
		    p->fronts[h->front].id, h->posted_at_text, topics, bp->mean,
		    bp->lo, bp->hi, bp->observed);
		free(s);
		s = next;
	}
	return s;
}

void
synth_score_backtest(const struct project *p, struct synth_candidate *c)
{
	struct validate_report rep;
	struct error err = { 0 };
	char *table, *worst;

	if (c->validation == NULL ||
	    validate_report_from_json(p, c->validation, &rep, &err) != 0) {
		c->losses = 2 * backtest_window_posts(p, 0);
		c->fails += c->losses;
		return;
	}
	c->measured = c->all_pass && rep.backtest.ran &&
	    rep.backtest.scored > 0 &&
	    rep.backtest.error[0] == '\0';
	if (c->measured) {
		synth_tally(&rep.backtest, c);
		c->beats = rep.backtest.beats_baselines;
		c->spearman = rep.backtest.model.spearman;
		c->mae_log = rep.backtest.model.mae_log;
		c->coverage80 = rep.backtest.model.coverage80;
		c->base_mae[0] = rep.backtest.base[BASE_FRONT_MEDIAN].mae_log;
		c->base_mae[1] = rep.backtest.base[BASE_HOUR_WEEKDAY].mae_log;
		c->builtin_mae = rep.backtest.base[BASE_BUILTIN].mae_log;
		c->beats_builtin = rep.backtest.beats_builtin;
		c->is_builtin = rep.backtest.builtin_self;
	} else
		c->losses = 2 * rep.backtest.nposts;
	c->passes += c->wins;
	c->fails += c->losses;
	table = backtest_text(p, &rep.backtest);
	worst = synth_worst_text(p, &rep.backtest);
	xasprintf(&c->backtest_text, "%s%s", table, worst);
	free(table);
	free(worst);
	validate_report_free(&rep);
}
