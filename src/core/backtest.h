/*
 * backtest — how well a world model reproduces held-out history
 * (`fronts validate --backtest`, docs/DESIGN.md "Synthesis").
 *
 * The newest fraction `window` of history, by posted_at, is the test
 * window. Each post in it is predicted by the model's predict(ctx, post,
 * rng) from a ctx whose history holds every earlier post: those before
 * the window with their metrics, those inside it without (the planner's
 * situation: what was posted is known, not yet how it did). `draws`
 * seeded draws per post give the mean and the 10-90% interval.
 *
 * Observed reward is in the objective's units. A window post with an
 * unknown weighted metric is predicted but not scored (`unscored`), and
 * an earlier post with one does not feed the baselines: a partial reward
 * is not a reward.
 *
 * Two baselines, under the same context rule (so from the posts before
 * the window only):
 *   front_median  the median reward of earlier posts on that front;
 *   hour_weekday  the mean log(1 + reward) of earlier posts on that front
 *                 in the same local weekday and BACKTEST_HOUR_BLOCK-hour
 *                 block, shrunk towards log(1 + front median) with the
 *                 weight of BACKTEST_SHRINK posts.
 * A front with no earlier post falls back to the median over all fronts.
 * A third, where the caller gives it (backtest_baseline_run):
 *   builtin       the builtin world model (`fronts synth --provider
 *                 builtin`), measured exactly as the model is (its
 *                 draws' mean log), so a synthesised model that does not
 *                 beat it is not worth what it cost.
 *
 * Figures (over scored posts): spearman (rank correlation of predicted
 * mean and observed, ties averaged), mae_log (mean |predicted log(1 +
 * reward) - log(1 + observed)|, where the model's predicted log is the
 * mean of log(1 + draw) over its draws, the estimate the error is
 * measured in) and coverage80 (share observed within the 10-90%
 * interval). beats_baselines: the model's mae_log is below both
 * baselines computed from history; beats_builtin: below the builtin
 * model's too (false when that was not measured).
 *
 * A figure nothing supports is not measured (NAN, with why[] saying
 * why), never 0: no post scored, or for spearman fewer than
 * BACKTEST_RANK_MIN posts or ranks that are all ties. A figure resting on
 * fewer than BACKTEST_MIN_POSTS posts is measured but marked as resting
 * on too few (backtest_few).
 */
#ifndef FRONTS_BACKTEST_H
#define FRONTS_BACKTEST_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/model.h"
#include "core/objective.h"
#include "core/project.h"

#define BACKTEST_WINDOW		0.2
#define BACKTEST_DRAWS		200
#define BACKTEST_HOUR_BLOCK	3
#define BACKTEST_SHRINK		3.0
#define BACKTEST_WORST		5
/* Below this many scored posts a figure is shown as resting on too few. */
#define BACKTEST_MIN_POSTS	10
/* A rank correlation of fewer posts says nothing. */
#define BACKTEST_RANK_MIN	3
/* Weekday x hour-block cells of the heatmaps, Monday 00-03 first. */
#define BACKTEST_CELLS		(7 * (24 / BACKTEST_HOUR_BLOCK))
#define BACKTEST_GRID_DRAWS	20
/* Seconds the draws may take in all: a slow predict() ends the backtest
 * with an error, well inside the validation worker's deadline, instead
 * of the worker dying with the conformance report. */
#define BACKTEST_SECONDS	60.0

/* BASE_BUILTIN is last: the ones before it come from history alone. */
enum { BASE_FRONT_MEDIAN, BASE_HOUR_WEEKDAY, BASE_BUILTIN, BASE_COUNT };

extern const char *const backtest_baseline_names[BASE_COUNT];

struct backtest_params {
	double			 window;	/* 0: BACKTEST_WINDOW */
	int			 draws;		/* 0: BACKTEST_DRAWS */
	uint64_t		 seed;
	const struct objective	*objective;	/* NULL: the project's */
	double			 seconds;	/* 0: BACKTEST_SECONDS */
};

struct backtest_post {
	int	history;	/* index into project.history */
	double	observed;	/* objective units; partial when !scored */
	bool	scored;		/* every weighted metric known and predicted */
	bool	predicted;	/* the model gave its draws */
	double	mean, lo, hi;	/* of the draws; lo/hi the 10th, 90th pct */
	double	mean_log;	/* mean of log(1 + max(draw, 0)) */
	double	base[BASE_COUNT];	/* each baseline's prediction */
	bool	builtin;	/* the builtin model gave its draws */
	double	builtin_log;	/* their mean log(1 + max(draw, 0)) */
};

enum { FIG_SPEARMAN, FIG_MAE_LOG, FIG_COVERAGE80, FIG_COUNT };

/* Why a figure is not measured. */
enum backtest_why { WHY_MEASURED, WHY_NO_POSTS, WHY_FEW_RANKS, WHY_TIES,
	WHY_NOT_APPLICABLE, WHY_NO_BUILTIN };

struct backtest_score {
	double			spearman, mae_log, coverage80;	/* NAN: not
								 * measured */
	int			n;		/* posts the figures rest on */
	enum backtest_why	why[FIG_COUNT];
};

extern const char *const backtest_figure_names[FIG_COUNT];

struct backtest_report {
	bool			 ran;		/* the model has predict() */
	double			 window;
	int			 history;	/* posts in history */
	struct backtest_post	*posts;		/* the window, oldest first */
	int			 nposts;
	int			 scored;	/* posts scored */
	int			 unscored;	/* unknown metric */
	struct backtest_score	 model, base[BASE_COUNT];
	bool			 beats_baselines;
	bool			 beats_builtin;
	char			 error[512];	/* predict failed: why */
	/* Why the builtin baseline is not measured ("" when it is, or when
	 * it was never asked for: then builtin_asked is false). */
	bool			 builtin_asked;
	bool			 builtin_self;	/* the model is the builtin */
	char			 builtin_error[256];
	/* The model's heatmap, [front * BACKTEST_CELLS + cell]: the mean of
	 * BACKTEST_GRID_DRAWS predict draws for the front's first draft at
	 * that cell's first hour in the week from the plan's start, with
	 * the project's ctx; NAN where there is none. NULL: not run. */
	double			*grid;
};

/* Runs the backtest. 0 with out filled (out->ran false when the model
 * has no predict; out->error set when it failed); -1 only on err. */
int	backtest_run(const struct project *, const struct model_ops *,
	    void *model, const struct backtest_params *,
	    struct backtest_report *out, uint64_t *model_calls);
/* The builtin baseline into a report backtest_run filled: the builtin
 * model's draws for each window post, with the same seeds and context
 * (m NULL: not available, why says so). Then the figures again. */
void	backtest_baseline_run(const struct project *, const struct model_ops *,
	    void *builtin, const char *why, const struct backtest_params *,
	    struct backtest_report *, uint64_t *model_calls);
/* The same when the model is the builtin: its own draws. */
void	backtest_baseline_self(struct backtest_report *);
void	backtest_report_free(struct backtest_report *);
/* The history's heatmap: per front and cell, the mean observed reward of
 * the posts whose reward is known (NAN: none), into out[nfronts *
 * BACKTEST_CELLS]. */
void	backtest_history_grid(const struct project *, double *out);
/* How many posts the window holds (window 0: the default). */
int	backtest_window_posts(const struct project *, double window);

/* The figures from posts[] (observed, predictions, scored); also what
 * reading a report back recomputes. */
void	backtest_score(struct backtest_report *);

/* The `--backtest --json` object (inner part: window, posts, spearman,
 * …, worst); with entries, also every post (the worker's report). */
cJSON	*backtest_json(const struct project *, const struct backtest_report *,
	    bool entries);
int	backtest_from_json(const struct project *, const cJSON *,
	    struct backtest_report *out, struct error *err);
/* The short table: model against the baselines (malloc'd). */
char	*backtest_text(const struct project *, const struct backtest_report *);
/* Why figure fig of s is not measured, in words (into buf); NULL when it
 * is measured. */
const char *backtest_why(const struct project *, const struct backtest_report *,
	    const struct backtest_score *, int fig, char *buf, size_t len);
/* The sentence on the builtin baseline ("it also beats the builtin
 * model …", "builtin: not measured (…)"), into buf; NULL when the
 * backtest did not ask for it. */
const char *backtest_builtin_text(const struct project *,
	    const struct backtest_report *, char *buf, size_t len);
/* Does s rest on fewer posts than BACKTEST_MIN_POSTS (but some)? */
bool	backtest_few(const struct backtest_score *);
/* A figure as text: "0.681", "48%" (percent), "0.681*" when it rests on
 * too few posts, "not measured" when NAN. */
const char *backtest_figure_text(double v, bool percent, bool few, char *buf,
	    size_t len);
/* The worst-predicted posts by |log error|, n at most, into ix (indices
 * into r->posts); returns how many. */
int	backtest_worst(const struct backtest_report *, int *ix, int n);

#endif
