/*
 * rollout — uniform random rollouts through model_ops (see rollout.h).
 *
 * Within one slot at most one post per front is drawn before ("wait",) is
 * forced, so a model that always offers posts still reaches the horizon.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rollout.h"

struct rollout {
	const struct project	*p;
	const struct model_ops	*ops;
	void			*m;
	struct action		*acts;
	int			 max;
	uint64_t		 rng;	/* xorshift64* state */
	struct rollout_stats	*st;
};

static uint64_t
rollout_rand(struct rollout *r)
{
	r->rng ^= r->rng >> 12;
	r->rng ^= r->rng << 25;
	r->rng ^= r->rng >> 27;
	return r->rng * 2685821657736338717ULL;
}

static int
rollout_fail(struct rollout *r, int rc, struct error *err)
{
	char buf[512];

	model_error_format(r->ops->last_error(r->m), buf, sizeof buf);
	return error_set(err, EXIT_MODEL, "the model %s: %s",
	    rc == MODEL_TIMEOUT ? "timed out" : rc == MODEL_BADTYPE ?
	    "returned the wrong type" : "raised", buf);
}

/* Draws the next action; ("wait",) once the slot had a post per front. */
static int
rollout_choose(struct rollout *r, model_state *s, int posts, struct action *a,
    struct error *err)
{
	int n, illegal, rc, i;
	bool wait = false;

	r->st->model_calls++;
	if ((rc = r->ops->legal_actions(r->m, s, r->acts, r->max - 1, &n,
	    &illegal)) != MODEL_OK)
		return rollout_fail(r, rc, err);
	r->st->illegal_proposals += (uint64_t)illegal;
	for (i = 0; i < n; i++)
		wait = wait || r->acts[i].kind == ACTION_WAIT;
	if (!wait)
		r->acts[n++] = (struct action){ .kind = ACTION_WAIT };
	if (posts >= r->p->nfronts)
		*a = (struct action){ .kind = ACTION_WAIT };
	else
		*a = r->acts[rollout_rand(r) % (uint64_t)n];
	return 0;
}

static int
rollout_one(struct rollout *r, uint64_t seed, double *ret, struct error *err)
{
	model_state *s, *next;
	struct action a;
	int slot = 0, posts = 0, rc;
	double reward;
	bool term;

	r->rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	r->ops->seed(r->m, seed);
	r->st->model_calls++;
	if ((rc = r->ops->sample_hidden(r->m, &s)) != MODEL_OK)
		return rollout_fail(r, rc, err);
	*ret = 0;
	while (slot < r->p->horizon_slots) {
		r->st->model_calls++;
		if ((rc = r->ops->is_terminal(r->m, s, &term)) != MODEL_OK)
			goto fail;
		if (term)
			break;
		if (rollout_choose(r, s, posts, &a, err) != 0)
			goto failed;
		r->st->model_calls++;
		if ((rc = r->ops->apply(r->m, s, &a, &next, &reward)) != MODEL_OK)
			goto fail;
		r->ops->state_free(r->m, s);
		s = next;
		*ret += reward;
		r->st->steps++;
		if (a.kind == ACTION_WAIT) {
			slot++;
			posts = 0;
		} else {
			posts++;
			r->st->posts++;
		}
	}
	r->ops->state_free(r->m, s);
	return 0;
fail:
	rollout_fail(r, rc, err);
failed:
	r->ops->state_free(r->m, s);
	return -1;
}

int
rollout_run(const struct project *p, const struct model_ops *ops, void *model,
    const struct rollout_params *rp, rollout_progress_fn *progress, void *arg,
    double interval, struct rollout_stats *out, struct error *err)
{
	struct rollout r = { .p = p, .ops = ops, .m = model, .st = out };
	double t0, now, last, ret = 0, total = 0;
	int rc = 0;

	memset(out, 0, sizeof *out);
	r.max = 2 + p->ndrafts * p->nfronts * 2;
	r.acts = xcalloc((size_t)r.max, sizeof *r.acts);
	t0 = last = clock_seconds();
	for (;;) {
		if (rollout_one(&r, rp->seed + out->rollouts, &ret, err) != 0) {
			rc = -1;
			break;
		}
		out->rollouts++;
		total += ret;
		now = clock_seconds();
		out->seconds = now - t0;
		out->mean_return = total / (double)out->rollouts;
		if (progress != NULL && now - last >= interval) {
			progress(arg, out);
			last = now;
		}
		if (rp->rollouts > 0 ? out->rollouts >= rp->rollouts :
		    out->seconds >= rp->seconds)
			break;
	}
	out->seconds = clock_seconds() - t0;
	free(r.acts);
	return rc;
}

cJSON *
rollout_stats_json(const struct rollout_stats *st)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "rollouts", (double)st->rollouts);
	cJSON_AddNumberToObject(j, "steps", (double)st->steps);
	cJSON_AddNumberToObject(j, "posts", (double)st->posts);
	cJSON_AddNumberToObject(j, "model_calls", (double)st->model_calls);
	cJSON_AddNumberToObject(j, "illegal_proposals",
	    (double)st->illegal_proposals);
	cJSON_AddNumberToObject(j, "mean_return", st->mean_return);
	cJSON_AddNumberToObject(j, "seconds", st->seconds);
	return j;
}

/* A finite number; with count, a whole one that a uint64_t holds (the
 * worker's bytes are not trusted to be either). */
static int
rollout_field(const cJSON *j, const char *name, bool count, double *out,
    struct error *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);

	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || (count &&
	    (v->valuedouble < 0 || v->valuedouble >= 18446744073709551616.0 ||
	    v->valuedouble != floor(v->valuedouble))))
		return error_set(err, EXIT_MODEL,
		    "the worker's rollout result has no %s \"%s\"",
		    count ? "count" : "number", name);
	*out = v->valuedouble;
	return 0;
}

int
rollout_stats_from_json(const cJSON *j, struct rollout_stats *st,
    struct error *err)
{
	double v[5] = { 0 };

	if (rollout_field(j, "rollouts", true, &v[0], err) != 0 ||
	    rollout_field(j, "steps", true, &v[1], err) != 0 ||
	    rollout_field(j, "posts", true, &v[2], err) != 0 ||
	    rollout_field(j, "model_calls", true, &v[3], err) != 0 ||
	    rollout_field(j, "illegal_proposals", true, &v[4], err) != 0 ||
	    rollout_field(j, "mean_return", false, &st->mean_return, err) != 0 ||
	    rollout_field(j, "seconds", false, &st->seconds, err) != 0)
		return -1;
	st->rollouts = (uint64_t)v[0];
	st->steps = (uint64_t)v[1];
	st->posts = (uint64_t)v[2];
	st->model_calls = (uint64_t)v[3];
	st->illegal_proposals = (uint64_t)v[4];
	return 0;
}
