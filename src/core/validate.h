/*
 * validate — runs a world model against the project: conformance (the
 * contract's functions behave as the contract says, and predict agrees
 * with apply) and the backtest (backtest.h: predict on the newest part of
 * history against what was observed, in the objective's units, against
 * two baselines).
 *
 * It works through struct model_ops, so it runs wherever a model is
 * loaded: in this process (`fronts validate --isolation thread`) or inside
 * the sandbox worker (WORKER_JOB_VALIDATE, used by `fronts validate` and by
 * synthesis for unapproved candidates). What model_ops cannot express
 * (which functions exist and on which line, a structural picture of a
 * state to detect mutation) comes through struct validate_hooks, which the
 * Python side fills; a NULL hook makes its check "skip".
 */
#ifndef FRONTS_VALIDATE_H
#define FRONTS_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/backtest.h"
#include "core/model.h"
#include "core/project.h"
#include "core/util.h"

struct validate_params {
	int			 rollouts;	/* random rollouts; 0: 20 */
	/* After the first two rollouts, no further one once the model's
	 * lists have handed over this many actions; 0: 64 million. */
	uint64_t		 proposals;
	int			 draws;		/* per backtest post; 0: 200 */
	uint64_t		 seed;
	double			 window;	/* backtest window; 0: 0.2 */
	/* The builtin model, the backtest's third baseline: NULL ops, not
	 * measured; builtin NULL, not available (builtin_why says why);
	 * builtin == the model itself, its own draws. */
	const struct model_ops	*builtin_ops;
	void			*builtin;
	const char		*builtin_why;
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
	bool			timed_out;	/* failed by a call's time limit */
};

struct validate_report {
	bool			 conformant;	/* no check failed */
	struct validate_check	*checks;
	int			 nchecks;
	struct backtest_report	 backtest;
	uint64_t		 model_calls;
};

/* Runs every check and the backtest. Returns -1 only when validation
 * itself could not run (err); a non-conformant model is a 0 return with
 * report->conformant false. hooks may be NULL. */
int	validate_run(const struct project *p, const struct model_ops *ops,
	    void *model, const struct validate_hooks *hooks,
	    const struct validate_params *vp, struct validate_report *out,
	    struct error *err);
void	validate_report_free(struct validate_report *);

/* `fronts validate --json`; also the worker's VALIDATE result. Reading
 * it back recomputes the backtest's figures from the project. */
cJSON	*validate_report_json(const struct project *p,
	    const struct validate_report *);
int	validate_report_from_json(const struct project *p, const cJSON *json,
	    struct validate_report *out, struct error *err);
/* The human report (malloc'd): what `fronts validate` prints and what
 * synthesis sends back to the language model. */
char	*validate_report_text(const struct project *p,
	    const struct validate_report *);

#endif
