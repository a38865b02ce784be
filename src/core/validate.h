/*
 * validate — runs a world model against the project: conformance (the
 * contract's functions behave as the contract says) and calibration (what
 * the model predicts for each past post against what was observed).
 *
 * It works through struct model_ops, so it runs wherever a model is
 * loaded: in this process (`fronts validate --isolation thread`) or inside
 * the sandbox worker (WORKER_JOB_VALIDATE, used by `fronts validate` and by
 * synthesis for unapproved candidates). What model_ops cannot express
 * (which functions exist and on which line, a structural picture of a
 * state to detect mutation) comes through struct validate_hooks, which the
 * Python side fills; a NULL hook makes its check "skip".
 *
 * Calibration mapping (one history post h on front f):
 *   - the slot: the first slot of the horizon with the same local weekday
 *     and hour as h.posted_at (the same hour of any day when the horizon is
 *     shorter than a week; slot 0 when no slot matches);
 *   - the draft: of the drafts allowed on f, the one sharing most topics
 *     with h (ties: the first in drafts.jsonl);
 *   - for each of `samples` seeds: sample_hidden, apply ("wait",) up to
 *     that slot, apply ("post", draft, f); the step's reward is one draw of
 *     the predicted engagement;
 *   - observed engagement = likes + reposts + replies + clicks of h.
 * Reported: the share of posts whose observed value lies in the predicted
 * 10th–90th percentile interval, and the median over posts of
 * |ln((1 + predicted median) / (1 + observed))|.
 */
#ifndef FRONTS_VALIDATE_H
#define FRONTS_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/model.h"
#include "core/project.h"
#include "core/util.h"

struct validate_params {
	int		rollouts;	/* random rollouts; 0: 20 */
	int		samples;	/* draws per history post; 0: 30 */
	uint64_t	seed;
};

struct validate_hooks {
	/* 0 with *line set when the model defines a function called name;
	 * -1 when it does not. */
	int	(*function_line)(void *m, const char *name, int *line);
	/* A deterministic structural text of s (malloc'd into *out). */
	int	(*state_repr)(void *m, model_state *s, char **out);
	/* The model's source: where function_line is NULL, functions are
	 * found (and failures placed) at their top-level `def` lines. */
	const char	*source;
	size_t		 source_len;
};

enum validate_status { VALIDATE_PASS, VALIDATE_FAIL, VALIDATE_SKIP };

struct validate_check {
	char			name[48];	/* "apply-does-not-mutate" */
	enum validate_status	status;
	char			function[32];	/* the model function at fault */
	int			line;		/* model.py line; 0 unknown */
	char			message[512];
};

struct validate_calib {
	char	history_id[64];
	int	front;		/* index into project.fronts */
	int	draft;		/* index into project.drafts; -1 none */
	int	slot;
	double	observed;
	double	lo, median, hi;	/* predicted 10th, 50th, 90th percentile */
	bool	covered;	/* lo <= observed <= hi */
	bool	ok;		/* predicted at all (no error, a draft found) */
};

struct validate_report {
	bool			 conformant;	/* no check failed */
	struct validate_check	*checks;
	int			 nchecks;
	struct validate_calib	*calib;
	int			 ncalib;
	int			 ncalibrated;	/* calib entries with ok */
	double			 coverage;	/* share covered, of ncalibrated */
	double			 median_abs_log_error;
	uint64_t		 model_calls;
};

/* Runs every check and the calibration. Returns -1 only when validation
 * itself could not run (err); a non-conformant model is a 0 return with
 * report->conformant false. hooks may be NULL. */
int	validate_run(const struct project *p, const struct model_ops *ops,
	    void *model, const struct validate_hooks *hooks,
	    const struct validate_params *vp, struct validate_report *out,
	    struct error *err);
void	validate_report_free(struct validate_report *);

/* `fronts validate --json`; also the worker's VALIDATE result. */
cJSON	*validate_report_json(const struct project *p,
	    const struct validate_report *);
int	validate_report_from_json(const struct project *p, const cJSON *json,
	    struct validate_report *out, struct error *err);
/* The human report (malloc'd): what `fronts validate` prints and what
 * synthesis sends back to the language model. */
char	*validate_report_text(const struct project *p,
	    const struct validate_report *);

#endif
