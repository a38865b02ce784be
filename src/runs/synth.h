/*
 * synth — asking a language model to write the world model (docs/DESIGN.md
 * "Synthesis"): the prompt from the project, the code in the answer, the
 * gate and validation of every candidate, and refinement rounds that send
 * the failures, or the backtest's figures and worst-predicted posts, back.
 * Nothing here prints: progress goes through a callback and the outcome
 * comes back as a struct synth_result.
 */
#ifndef FRONTS_SYNTH_H
#define FRONTS_SYNTH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/project.h"
#include "core/util.h"
#include "net/provider.h"

/* The output limit of one answer. Current models think before they answer
 * (Claude Opus 5.5 always does) and the limit bounds thinking and text
 * together, so it leaves room for a 16k-token module after the thinking;
 * every current model allows at least 64k output tokens. */
#define SYNTH_MAX_TOKENS	32768

/* Runs one candidate's validation somewhere safe (the sandbox worker) and
 * returns the report as JSON (validate_report_json's shape) plus its text
 * for the model. -1 with err when the candidate could not be validated at
 * all (the worker died: timeout, memory, seccomp); err then describes it. */
typedef int (*synth_validate_fn)(void *arg, const struct project *,
    const char *src, size_t len, cJSON **report, char **text,
    struct error *err);

struct synth_options {
	int			 rounds;	/* 0: 3 */
	uint64_t		 seed;		/* Thompson sampling; 0: 1 */
	synth_validate_fn	 validate;	/* NULL: gate only */
	bool			 from_builtin;	/* the task shows the builtin */
	void			*validate_arg;
	/* Called with one line of progress ("round 1: asking …"). */
	void			(*progress)(void *arg, const char *line);
	void			*progress_arg;
	/* Set by another thread: no new round starts (the provider's and
	 * the validation's own flags stop the one under way). */
	const atomic_bool	*cancel;
};

struct synth_candidate {
	int		 round;		/* 1-based */
	int		 parent;	/* candidate refined; -1 for round 1 */
	char		*answer;	/* the model's whole answer */
	char		*code;		/* extracted module, or NULL */
	char		*extract_error;	/* why there is no code */
	char		 sha256[65];	/* of code */
	bool		 gated;		/* the gate ran */
	bool		 gate_accepted;
	cJSON		*gate;		/* gate_result_json */
	char		*gate_text;	/* verdicts, one per line */
	cJSON		*validation;	/* report JSON, or NULL */
	char		*validation_text;
	char		*validation_error;	/* the worker failed */
	int		 passes, fails;	/* over its checks and backtest */
	bool		 all_pass;	/* gate and every check passed */
	/* The backtest of a candidate that passed the gate: each scored
	 * window post against each baseline is one test, won when the
	 * model's |log error| is the smaller. */
	bool		 measured;	/* its backtest scored posts */
	bool		 beats;		/* beats_baselines */
	double		 spearman, mae_log, coverage80;
	double		 base_mae[2];	/* front_median, hour_weekday */
	double		 builtin_mae;	/* the builtin model's; NAN: not
					 * measured */
	bool		 beats_builtin;
	bool		 is_builtin;	/* the candidate is the builtin */
	int		 wins, losses;
	char		*backtest_text;	/* figures and worst posts */
	long		 input_tokens, output_tokens;
	char		*request_id;
	char		*recording;
};

struct synth_result {
	struct synth_candidate	*cands;
	int			 ncands;
	int			 best;		/* index, or -1 */
	long			 input_tokens, output_tokens;
	double			 seconds;
};

/* The first message of the conversation and the system prompt (both
 * malloc'd); deterministic for a given project, so replay can match. */
int	synth_prompt(const struct project *, char **system, char **task,
	    struct error *err);
/* The task with the builtin model appended as the starting point to
 * refine (`synth --from-builtin`; malloc'd). The task without it is
 * unchanged, so recordings of it still answer. */
char	*synth_prompt_builtin(const char *task);
/* A prompt's bytes stay within what every provider's smallest default
 * context window takes beside the answer's SYNTH_MAX_TOKENS, counting a
 * token as little as 2 bytes (code and JSON run 3 to 4). */
#define SYNTH_CONTEXT_TOKENS	200000
#define SYNTH_PROMPT_BUDGET	((SYNTH_CONTEXT_TOKENS - SYNTH_MAX_TOKENS) * 2)
/* What a refinement prompt sends back of a candidate: the first
 * SYNTH_PROMPT_VERDICTS gate verdicts, and of the whole problems text the
 * first SYNTH_PROBLEMS_MAX bytes (a model's source can draw a quarter of
 * a million verdicts; a prompt needs the first few to fix). */
#define SYNTH_PROMPT_VERDICTS	20
#define SYNTH_PROBLEMS_MAX	16384
/* The follow-up message that sends a candidate's problems (or, for one
 * that works, its backtest against the baselines) back, cut to
 * SYNTH_PROBLEMS_MAX bytes with a note of how much was left out. */
char	*synth_refine_prompt(int candidate, const char *problems);
/* The code of an answer: the one ```python block (several identical ones
 * count as one). NULL with *why set when there is none or several differ. */
char	*synth_extract(const char *answer, char **why);
/* Runs the rounds. Returns 0 with a result (even when no candidate passes:
 * see best and all_pass), or -1 when the provider failed (err; result
 * still holds the candidates so far). */
int	synth_run(const struct project *, struct provider *,
	    const struct synth_options *, struct synth_result *,
	    struct error *err);
/* `synth --provider builtin`: one candidate, the builtin model
 * (sandbox/builtin.h), gated and validated as any candidate is; no
 * provider, no network. Returns as synth_run does. */
int	synth_builtin(const struct project *, const struct synth_options *,
	    struct synth_result *, struct error *err);
/* How a measured candidate compares with the builtin model, to follow
 * "beats both baselines": " and the builtin model", "; does NOT beat
 * the builtin model", " (it is the builtin model)" or "" (not measured). */
const char	*synth_builtin_word(const struct synth_candidate *);
void	synth_result_free(struct synth_result *);
/* One line of progress, formatted, to progress (NULL: nobody listens):
 * what synth_run and synth_job_run say as they go. */
void	synth_progress_say(void (*progress)(void *, const char *), void *arg,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The synthesis report (rounds, candidates, provider, tokens). */
cJSON	*synth_report_json(const struct synth_result *, const char *provider,
	    const char *api, const char *model, const char *written);

#endif
