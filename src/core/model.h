/*
 * model — the world model as the planner sees it: an opaque object behind
 * a table of operations. The sandbox implements it with the operator's
 * Python (src/sandbox/wmodel.c); tests implement it in C.
 *
 * Actions are plain C values: indices into project.drafts and
 * project.fronts, or one number, the action's id (action_id()). The
 * implementation converts the model's tuples and drops (and counts) every
 * proposal that is not a well-formed action on known ids; the planner's
 * legality engine does the rest.
 */
#ifndef FRONTS_MODEL_H
#define FRONTS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum action_kind { ACTION_WAIT = 0, ACTION_POST = 1 };

struct action {
	uint16_t	kind;	/* enum action_kind */
	uint16_t	front;	/* ACTION_POST only */
	uint32_t	draft;	/* ACTION_POST only */
};

static inline bool
action_equal(const struct action *a, const struct action *b)
{
	return a->kind == b->kind && (a->kind == ACTION_WAIT ||
	    (a->front == b->front && a->draft == b->draft));
}

/* An action's id: 0 the wait, 1 + draft * nfronts + front a post. */
static inline uint32_t
action_id(const struct action *a, uint32_t nfronts)
{
	return a->kind == ACTION_WAIT ? 0 : 1 + a->draft * nfronts + a->front;
}

typedef struct model_state model_state;	/* owned by the implementation */

/* Return codes of every operation. */
enum model_rc {
	MODEL_OK = 0,
	MODEL_RAISED = -1,	/* the model raised; see last_error */
	MODEL_TIMEOUT = -2,	/* the guard interrupted an overrunning call */
	MODEL_BADTYPE = -3	/* returned something of the wrong type */
};

/* Rewards and values must be finite and within this bound (docs/DESIGN.md):
 * a model that returns more is in error, like one that raises. */
#define MODEL_NUMBER_MAX	1e12

struct model_error {
	char	type[64];	/* "ZeroDivisionError" */
	char	message[256];
	int	line;		/* line in model.py, 0 if unknown */
	char	function[32];	/* "apply" */
};

/* The name a model's errors give its source. */
#define MODEL_FILENAME	"model.py"

/* "ZeroDivisionError: division by zero (model.py line 12, in apply)". */
void	model_error_format(const struct model_error *, char *buf,
	    size_t size);

/*
 * One question to predict(ctx, post, rng): the post is project.history[post]
 * without its metrics, or (post < 0) draft on front at `at`. The ctx is the
 * project's own when history is NULL; otherwise its history holds exactly
 * the posts history[0..nhistory) (indices into project.history, oldest
 * first), the first `known` of them with their metrics and the rest with
 * none, and its "now" is `at`. Draw k is made with the rng seeded seed + k.
 */
struct predict_query {
	int		 post;
	int		 draft, front;
	time_t		 at;
	const int	*history;
	int		 nhistory, known;
	uint64_t	 seed;
	int		 ndraws;
};

struct model_ops {
	/* Seeds the rng handed to sample_hidden and apply. */
	void	(*seed)(void *m, uint64_t seed);
	/* initial_state(ctx); the present as observed. */
	int	(*initial_state)(void *m, model_state **out);
	/* sample_hidden(ctx, rng), or initial_state where the model has none. */
	int	(*sample_hidden)(void *m, model_state **out);
	/* legal_actions(state): fills up to max actions. *illegal counts
	 * proposals dropped for unknown kind, wrong types or unknown ids. */
	int	(*legal_actions)(void *m, model_state *s, struct action *out,
		    int max, int *n, int *illegal);
	/* The same list as action ids (action_id()), what the search
	 * reads: it looks each proposal up in tables by id, so handing over
	 * ids spares a pass over the list that would only rebuild them. */
	int	(*legal_ids)(void *m, model_state *s, uint32_t *out, int max,
		    int *n, int *illegal);
	/* apply(state, action, rng) -> (next, reward); never mutates s. */
	int	(*apply)(void *m, model_state *s, const struct action *a,
		    model_state **next, double *reward);
	int	(*is_terminal)(void *m, model_state *s, bool *out);
	/* value(state); NULL pointer where the model defines none. */
	int	(*value)(void *m, model_state *s, double *out);
	void	(*state_free)(void *m, model_state *s);
	/* The error behind the last MODEL_RAISED / MODEL_TIMEOUT / MODEL_BADTYPE. */
	const struct model_error *(*last_error)(void *m);
	/* Does the model define value()? */
	bool	(*has_value)(void *m);
	/* predict(): q->ndraws draws into draws; NULL, or has_predict false,
	 * where the model defines none. */
	int	(*predict)(void *m, const struct predict_query *q, double *draws);
	bool	(*has_predict)(void *m);
};

#endif
