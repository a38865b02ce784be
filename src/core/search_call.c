/*
 * search_call — the search's calls into the world model: each counted, one
 * in CALL_SAMPLE timed, its error kept, and every reward or value checked
 * against the model's contract before it can reach the tree.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"


/* Keeps the first few distinct errors. */
static void
search_keep_error(struct search *s, const struct model_error *e)
{
	int i;

	if (e == NULL || s->nerrors >= SEARCH_MAX_ERRORS)
		return;
	for (i = 0; i < s->nerrors; i++)
		if (strcmp(s->errors[i].type, e->type) == 0 &&
		    strcmp(s->errors[i].message, e->message) == 0 &&
		    s->errors[i].line == e->line)
			return;
	mutex_lock(&s->lock);
	s->errors[s->nerrors++] = *e;
	mutex_unlock(&s->lock);
}

/*
 * A reward or value out of the model's contract (docs/DESIGN.md: finite and
 * within ±MODEL_NUMBER_MAX) is a model error like an exception: it ends
 * the iteration before anything reaches the tree. Bounded inputs are what
 * keep every sum below finite and so every score a number. The sandbox's
 * model reports these itself, with the model's line; this is the same
 * check for every other implementation of model_ops.
 */
static inline bool
search_number_ok(double x)
{
	return fabs(x) <= MODEL_NUMBER_MAX;	/* false for NaN */
}

/* An error the search finds itself (no model line): kept as the model's
 * are, and the iteration fails as it would on MODEL_BADTYPE. */
int __attribute__((format(printf, 4, 5)))
search_own_error(struct search *s, const char *type, const char *fn,
    const char *fmt, ...)
{
	struct model_error e;
	va_list ap;

	memset(&e, 0, sizeof e);
	snprintf(e.type, sizeof e.type, "%s", type);
	snprintf(e.function, sizeof e.function, "%s", fn);
	va_start(ap, fmt);
	vsnprintf(e.message, sizeof e.message, fmt, ap);
	va_end(ap);
	search_keep_error(s, &e);
	return MODEL_BADTYPE;
}

static int
search_bad_number(struct search *s, const char *fn, const char *what,
    double x)
{
	return search_own_error(s, "ValueError", fn, "%s returned %s %g, %s",
	    fn, what, x, isfinite(x) ? "beyond ±1e12" : "not a finite number");
}

/*
 * Model calls: each is counted; one in CALL_SAMPLE is timed and stands for
 * all of them in model_seconds (reading the clock twice per call would
 * cost a tenth of a cheap model's call).
 */
double
search_call_begin(struct search *s)
{
	return (search_get(&s->model_calls) & (CALL_SAMPLE - 1)) == 0 ?
	    clock_seconds() : 0;
}

int
search_call_done(struct search *s, double t0, int rc)
{
	uint64_t n = search_get(&s->model_calls);

	search_add(&s->model_calls, 1);
	if ((n & (CALL_SAMPLE - 1)) == 0)
		search_addf(&s->model_seconds,
		    (clock_seconds() - t0) * CALL_SAMPLE);
	if (rc != MODEL_OK && s->ops->last_error(s->m) != NULL)
		search_keep_error(s, s->ops->last_error(s->m));
	return rc;
}

/* apply, the state given kept; a reward out of range is an error. */
int
search_m_step(struct search *s, model_state *st, const struct action *a,
    model_state **next, double *reward)
{
	double t0 = search_call_begin(s);
	int rc;

	*next = NULL;
	rc = s->ops->apply(s->m, st, a, next, reward);
	if (search_call_done(s, t0, rc) != MODEL_OK)
		return rc;
	if (!search_number_ok(*reward)) {
		s->ops->state_free(s->m, *next);
		*next = NULL;
		return search_bad_number(s, "apply", "reward", *reward);
	}
	return MODEL_OK;
}

int
search_m_apply(struct search *s, model_state **st, const struct action *a,
    double *reward)
{
	model_state *next;
	int rc;

	if ((rc = search_m_step(s, *st, a, &next, reward)) != MODEL_OK)
		return rc;
	s->ops->state_free(s->m, *st);
	*st = next;
	return MODEL_OK;
}

int
search_m_terminal(struct search *s, model_state *st, bool *term)
{
	double t0 = search_call_begin(s);

	return search_call_done(s, t0, s->ops->is_terminal(s->m, st, term));
}

int
search_m_value(struct search *s, model_state *st, double *v)
{
	double t0 = search_call_begin(s);
	int rc;

	rc = search_call_done(s, t0, s->ops->value(s->m, st, v));
	if (rc == MODEL_OK && !search_number_ok(*v))
		return search_bad_number(s, "value", "value", *v);
	return rc;
}

int
search_m_hidden(struct search *s, model_state **st)
{
	double t0 = search_call_begin(s);

	return search_call_done(s, t0, s->ops->sample_hidden(s->m, st));
}


int
search_errors(struct search *s, struct model_error *out, int max)
{
	int n;

	mutex_lock(&s->lock);
	n = s->nerrors < max ? s->nerrors : max;
	memcpy(out, s->errors, n * sizeof *out);
	mutex_unlock(&s->lock);
	return n;
}
