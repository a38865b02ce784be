/*
 * validate — conformance checks and calibration of a world model (see
 * validate.h for the calibration mapping).
 *
 * Without a state_repr hook, "apply does not mutate" is checked by
 * behaviour: legal_actions(s) and a seeded apply(s, first action) must give
 * the same answers before and after every apply from s.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/legal.h"
#include "core/validate.h"

#define VALIDATE_MAX_STEPS	4096
#define VALIDATE_SEED_STEPS	40

struct vctx {
	const struct project	*p;
	const struct model_ops	*ops;
	void			*m;
	const struct validate_hooks *hooks;
	struct validate_params	 vp;
	struct validate_report	*r;
	struct legal		*lg;
	struct legal_path	*lp;
	struct action		*buf, *buf2;
	int			 cap;
	uint64_t		 rng;
};

static const char *required[] = {
	"initial_state", "legal_actions", "apply", "is_terminal"
};

static uint32_t
v_rand(struct vctx *v, uint32_t n)
{
	v->rng ^= v->rng << 13;
	v->rng ^= v->rng >> 7;
	v->rng ^= v->rng << 17;
	return (uint32_t)(v->rng % n);
}

static struct validate_check *
v_check(struct vctx *v, const char *name)
{
	struct validate_report *r = v->r;
	struct validate_check *c;

	r->checks = xrealloc(r->checks, (r->nchecks + 1) * sizeof *r->checks);
	c = &r->checks[r->nchecks++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name);
	c->status = VALIDATE_PASS;
	return c;
}

/* The line of `def name(` at the start of a line of the source; 0: none. */
static int
v_def_line(const struct validate_hooks *h, const char *name)
{
	const char *s, *end;
	size_t n = strlen(name);
	int line = 1;

	if (h == NULL || h->source == NULL)
		return 0;
	end = h->source + h->source_len;
	for (s = h->source; s < end; line++) {
		if ((size_t)(end - s) > n + 5 && strncmp(s, "def ", 4) == 0 &&
		    strncmp(s + 4, name, n) == 0 &&
		    (s[4 + n] == '(' || s[4 + n] == ' '))
			return line;
		if ((s = memchr(s, '\n', end - s)) == NULL)
			break;
		s++;
	}
	return 0;
}

static void
v_fail(struct vctx *v, struct validate_check *c, const char *fn, int line,
    const char *fmt, ...)
{
	va_list ap;

	if (line <= 0)
		line = v_def_line(v->hooks, fn);
	c->status = VALIDATE_FAIL;
	snprintf(c->function, sizeof c->function, "%s", fn);
	c->line = line;
	va_start(ap, fmt);
	vsnprintf(c->message, sizeof c->message, fmt, ap);
	va_end(ap);
	v->r->conformant = false;
}

/* A failed model call: the check fails with the model's own error. */
static void
v_fail_rc(struct vctx *v, struct validate_check *c, const char *fn, int rc)
{
	const struct model_error *e = v->ops->last_error(v->m);
	const char *what = rc == MODEL_TIMEOUT ? "timed out" :
	    rc == MODEL_BADTYPE ? "returned the wrong type" : "raised";

	if (e != NULL && e->type[0] != '\0')
		v_fail(v, c, e->function[0] ? e->function : fn, e->line,
		    "%s %s: %s: %s", e->function[0] ? e->function : fn, what,
		    e->type, e->message);
	else
		v_fail(v, c, fn, 0, "%s %s", fn, what);
}

static int
v_legal(struct vctx *v, model_state *s, struct action *out, int *n)
{
	int illegal = 0;

	v->r->model_calls++;
	return v->ops->legal_actions(v->m, s, out, v->cap, n, &illegal);
}

static int
v_apply(struct vctx *v, model_state *s, const struct action *a,
    model_state **next, double *r)
{
	v->r->model_calls++;
	return v->ops->apply(v->m, s, a, next, r);
}

static int
v_hidden(struct vctx *v, uint64_t seed, model_state **s)
{
	v->ops->seed(v->m, seed);
	v->r->model_calls++;
	return v->ops->sample_hidden(v->m, s);
}

static void
v_functions(struct vctx *v)
{
	struct validate_check *c = v_check(v, "functions-exist");
	size_t i;
	int line;

	if (v->hooks == NULL || (v->hooks->function_line == NULL &&
	    v->hooks->source == NULL)) {
		c->status = VALIDATE_SKIP;
		snprintf(c->message, sizeof c->message, "checked when loading");
		return;
	}
	for (i = 0; i < sizeof required / sizeof required[0]; i++)
		if (v->hooks->function_line != NULL ?
		    v->hooks->function_line(v->m, required[i], &line) != 0 :
		    v_def_line(v->hooks, required[i]) == 0) {
			v_fail(v, c, required[i], 0, "the model defines no "
			    "function %s", required[i]);
			return;
		}
}

/* initial_state and sample_hidden each give a state. */
static void
v_states(struct vctx *v)
{
	struct validate_check *c = v_check(v, "initial-state");
	model_state *s = NULL;
	int rc;

	v->r->model_calls++;
	if ((rc = v->ops->initial_state(v->m, &s)) != MODEL_OK)
		v_fail_rc(v, c, "initial_state", rc);
	else
		v->ops->state_free(v->m, s);
	c = v_check(v, "sample-hidden");
	if ((rc = v_hidden(v, v->vp.seed, &s)) != MODEL_OK)
		v_fail_rc(v, c, "sample_hidden", rc);
	else
		v->ops->state_free(v->m, s);
}

/* The available set now (model ∩ engine, plus the wait) into v->buf. */
static int
v_available(struct vctx *v, model_state *s, int *n)
{
	int k = 0, i, rc, m;

	if ((rc = v_legal(v, s, v->buf2, &m)) != MODEL_OK)
		return rc;
	v->buf[k++] = (struct action){ ACTION_WAIT, 0, 0 };
	for (i = 0; i < m && i < v->cap; i++)
		if (v->buf2[i].kind == ACTION_POST &&
		    legal_check(v->lg, v->lp, &v->buf2[i]) == LEGAL_OK)
			v->buf[k++] = v->buf2[i];
	*n = k;
	return MODEL_OK;
}

/* legal_actions(s) twice gives the same list. */
static bool
v_same_legal(struct vctx *v, model_state *s, int *rc)
{
	int n1, n2;

	if ((*rc = v_legal(v, s, v->buf2, &n1)) != MODEL_OK)
		return false;
	memcpy(v->buf, v->buf2, n1 * sizeof *v->buf);
	if ((*rc = v_legal(v, s, v->buf2, &n2)) != MODEL_OK)
		return false;
	return n1 == n2 && memcmp(v->buf, v->buf2, n1 * sizeof *v->buf) == 0;
}

/* One random rollout from a sampled hidden state. Checks each step as it
 * goes; returns false once a check failed. */
static bool
v_rollout(struct vctx *v, uint64_t seed, struct validate_check *c,
    struct validate_check *det, struct validate_check *mut)
{
	model_state *s, *next;
	struct action a;
	char *before = NULL, *after = NULL;
	double r;
	bool term, ok = true;
	int n, rc, steps = 0;

	if ((rc = v_hidden(v, seed, &s)) != MODEL_OK) {
		v_fail_rc(v, c, "sample_hidden", rc);
		return false;
	}
	legal_path_reset(v->lg, v->lp);
	while (ok && !legal_path_done(v->lg, v->lp) &&
	    steps++ < VALIDATE_MAX_STEPS) {
		v->r->model_calls++;
		if ((rc = v->ops->is_terminal(v->m, s, &term)) != MODEL_OK) {
			v_fail_rc(v, c, "is_terminal", rc);
			ok = false;
			break;
		}
		if (term)
			break;
		if (det->status == VALIDATE_PASS && !v_same_legal(v, s, &rc)) {
			if (rc != MODEL_OK)
				v_fail_rc(v, c, "legal_actions", rc);
			else
				v_fail(v, det, "legal_actions", 0, "two calls "
				    "on the same state returned different "
				    "lists");
			ok = rc == MODEL_OK;
			if (!ok)
				break;
		}
		if ((rc = v_available(v, s, &n)) != MODEL_OK) {
			v_fail_rc(v, c, "legal_actions", rc);
			ok = false;
			break;
		}
		a = v->buf[v_rand(v, (uint32_t)n)];
		if (mut->status == VALIDATE_PASS && v->hooks != NULL &&
		    v->hooks->state_repr != NULL)
			v->hooks->state_repr(v->m, s, &before);
		if ((rc = v_apply(v, s, &a, &next, &r)) != MODEL_OK) {
			v_fail_rc(v, c, "apply", rc);
			free(before);
			ok = false;
			break;
		}
		if (before != NULL) {
			v->hooks->state_repr(v->m, s, &after);
			if (after == NULL || strcmp(before, after) != 0)
				v_fail(v, mut, "apply", 0, "apply changed the "
				    "state it was given (%s at slot %d)",
				    a.kind == ACTION_WAIT ? "wait" : "post",
				    legal_path_slot(v->lp));
			free(after);
			free(before);
			before = after = NULL;
		}
		if (!isfinite(r)) {
			v_fail(v, c, "apply", 0, "apply returned a reward that "
			    "is not a finite number");
			ok = false;
		}
		v->ops->state_free(v->m, s);
		s = next;
		legal_apply(v->lg, v->lp, &a);
	}
	v->ops->state_free(v->m, s);
	return ok;
}

/* Without a repr hook: the same seeded apply(s, a), repeated, must give
 * the same reward, and the available set of s must not change. */
static void
v_mutation_behaviour(struct vctx *v, struct validate_check *mut)
{
	model_state *s, *next;
	struct action a;
	double r1, r2;
	int n, before, i;

	if (v_hidden(v, v->vp.seed, &s) != MODEL_OK)
		return;
	legal_path_reset(v->lg, v->lp);
	if (v_available(v, s, &n) != MODEL_OK) {
		v->ops->state_free(v->m, s);
		return;
	}
	before = n;
	for (i = 0; i < before && i < 8; i++) {
		if (v_available(v, s, &n) != MODEL_OK)
			break;
		a = v->buf[i];
		v->ops->seed(v->m, 99);
		if (v_apply(v, s, &a, &next, &r1) != MODEL_OK)
			break;
		v->ops->state_free(v->m, next);
		v->ops->seed(v->m, 99);
		if (v_apply(v, s, &a, &next, &r2) != MODEL_OK)
			break;
		v->ops->state_free(v->m, next);
		if (r1 != r2 || v_available(v, s, &n) != MODEL_OK ||
		    n != before) {
			v_fail(v, mut, "apply", 0, "the same seeded apply(state, "
			    "%s) gave %g, then %g: apply changed its input",
			    a.kind == ACTION_WAIT ? "wait" : "post", r1, r2);
			break;
		}
	}
	v->ops->state_free(v->m, s);
}

/* The rewards of a seeded run of VALIDATE_SEED_STEPS steps. */
static int
v_seeded_run(struct vctx *v, double *rewards, int *nr)
{
	model_state *s, *next;
	int n, rc, k;

	v->rng = 0x9e3779b97f4a7c15ULL;
	if ((rc = v_hidden(v, v->vp.seed + 7, &s)) != MODEL_OK)
		return rc;
	legal_path_reset(v->lg, v->lp);
	for (k = 0; k < VALIDATE_SEED_STEPS && !legal_path_done(v->lg, v->lp);
	    k++) {
		if ((rc = v_available(v, s, &n)) != MODEL_OK)
			break;
		struct action a = v->buf[v_rand(v, (uint32_t)n)];
		if ((rc = v_apply(v, s, &a, &next, &rewards[k])) != MODEL_OK)
			break;
		v->ops->state_free(v->m, s);
		s = next;
		legal_apply(v->lg, v->lp, &a);
	}
	v->ops->state_free(v->m, s);
	*nr = k;
	return rc;
}

static void
v_seeded(struct vctx *v)
{
	struct validate_check *c = v_check(v, "seeded-runs-repeat");
	double a[VALIDATE_SEED_STEPS], b[VALIDATE_SEED_STEPS];
	int na = 0, nb = 0, i;

	if (v_seeded_run(v, a, &na) != MODEL_OK ||
	    v_seeded_run(v, b, &nb) != MODEL_OK) {
		c->status = VALIDATE_SKIP;
		snprintf(c->message, sizeof c->message, "the model failed "
		    "before two runs could be compared (see random-rollouts)");
		return;
	}
	for (i = 0; i < na && i < nb; i++)
		if (a[i] != b[i] && !(isnan(a[i]) && isnan(b[i])))
			break;
	if (na != nb || i < na)
		v_fail(v, c, "apply", 0, "two runs with the same seed differ at "
		    "step %d (reward %g, then %g): draw randomness only from "
		    "rng", i, i < na ? a[i] : 0, i < nb ? b[i] : 0);
}

static void
v_conformance(struct vctx *v)
{
	struct validate_check *roll, *det, *mut;
	int i, n = v->vp.rollouts > 0 ? v->vp.rollouts : 20;
	size_t ri, di, mi;

	v_functions(v);
	v_states(v);
	ri = v->r->nchecks;
	v_check(v, "random-rollouts");
	di = v->r->nchecks;
	v_check(v, "legal-actions-deterministic");
	mi = v->r->nchecks;
	v_check(v, "apply-does-not-mutate");
	for (i = 0; i < n; i++) {
		roll = &v->r->checks[ri];
		det = &v->r->checks[di];
		mut = &v->r->checks[mi];
		if (!v_rollout(v, v->vp.seed + 100 + i, roll, det, mut))
			break;
	}
	mut = &v->r->checks[mi];
	if (mut->status == VALIDATE_PASS && (v->hooks == NULL ||
	    v->hooks->state_repr == NULL))
		v_mutation_behaviour(v, mut);
	v_seeded(v);
	if (v->ops->has_value != NULL && v->ops->has_value(v->m) &&
	    v->ops->value != NULL) {
		struct validate_check *c = v_check(v, "value");
		model_state *s;
		double x;
		int rc;

		if (v_hidden(v, v->vp.seed, &s) == MODEL_OK) {
			v->r->model_calls++;
			if ((rc = v->ops->value(v->m, s, &x)) != MODEL_OK)
				v_fail_rc(v, c, "value", rc);
			else if (!isfinite(x))
				v_fail(v, c, "value", 0, "value returned %g", x);
			v->ops->state_free(v->m, s);
		}
	}
}

/* ---- calibration ----------------------------------------------------- */

static double
v_observed(const struct history_post *h)
{
	return h->likes + h->reposts + h->replies + h->clicks;
}

static int
v_slot_for(const struct project *p, time_t at)
{
	struct tm h, s;
	time_t t;
	int k, same_hour = -1;

	localtime_r(&at, &h);
	for (k = 0; k < p->horizon_slots; k++) {
		t = project_slot_time(p, k);
		localtime_r(&t, &s);
		if (s.tm_hour != h.tm_hour)
			continue;
		if (s.tm_wday == h.tm_wday)
			return k;
		if (same_hour < 0)
			same_hour = k;
	}
	return same_hour >= 0 ? same_hour : 0;
}

static int
v_draft_for(const struct project *p, const struct history_post *h)
{
	int d, i, j, best = -1, score, bscore = -1;

	for (d = 0; d < p->ndrafts; d++) {
		if (!(p->drafts[d].front_mask & (1ULL << h->front)))
			continue;
		score = 0;
		for (i = 0; i < h->ntopics; i++)
			for (j = 0; j < p->drafts[d].ntopics; j++)
				score += strcmp(h->topics[i],
				    p->drafts[d].topics[j]) == 0;
		if (score > bscore) {
			bscore = score;
			best = d;
		}
	}
	return best;
}

static int
v_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
v_quantile(const double *sorted, int n, double q)
{
	int i = (int)floor(q * (n - 1) + 0.5);

	return sorted[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* One sample: walk the horizon with waits and, at each post's slot, apply
 * that post to the state of that slot. draws[i * ns + s]. */
static void
v_calib_sample(struct vctx *v, int s, int ns, double *draws, bool *bad)
{
	struct validate_calib *c;
	model_state *st, *next, *post;
	struct action wait = { ACTION_WAIT, 0, 0 }, a;
	double r;
	int k, i, maxslot = 0;

	for (i = 0; i < v->r->ncalib; i++)
		if (v->r->calib[i].slot > maxslot)
			maxslot = v->r->calib[i].slot;
	if (v_hidden(v, v->vp.seed + 5000 + s, &st) != MODEL_OK) {
		for (i = 0; i < v->r->ncalib; i++)
			bad[i] = true;
		return;
	}
	for (k = 0; k <= maxslot; k++) {
		for (i = 0; i < v->r->ncalib; i++) {
			c = &v->r->calib[i];
			if (c->slot != k || c->draft < 0 || bad[i])
				continue;
			a = (struct action){ ACTION_POST, (uint16_t)c->front,
			    (uint32_t)c->draft };
			if (v_apply(v, st, &a, &post, &r) != MODEL_OK ||
			    !isfinite(r)) {
				bad[i] = true;
				continue;
			}
			v->ops->state_free(v->m, post);
			draws[(size_t)i * ns + s] = r;
		}
		if (k == maxslot)
			break;
		if (v_apply(v, st, &wait, &next, &r) != MODEL_OK) {
			for (i = 0; i < v->r->ncalib; i++)
				if (v->r->calib[i].slot > k)
					bad[i] = true;
			break;
		}
		v->ops->state_free(v->m, st);
		st = next;
	}
	v->ops->state_free(v->m, st);
}

static void
v_calibration(struct vctx *v)
{
	struct validate_report *r = v->r;
	const struct project *p = v->p;
	struct validate_calib *c;
	double *draws, *errs;
	bool *bad;
	int ns = v->vp.samples > 0 ? v->vp.samples : 30, i, s, ne = 0, cov = 0;

	r->ncalib = p->nhistory;
	r->calib = xcalloc(p->nhistory + 1, sizeof *r->calib);
	for (i = 0; i < p->nhistory; i++) {
		c = &r->calib[i];
		snprintf(c->history_id, sizeof c->history_id, "%s",
		    p->history[i].id);
		c->front = p->history[i].front;
		c->draft = v_draft_for(p, &p->history[i]);
		c->slot = v_slot_for(p, p->history[i].posted_at);
		c->observed = v_observed(&p->history[i]);
	}
	draws = xcalloc((size_t)p->nhistory * ns + 1, sizeof *draws);
	bad = xcalloc(p->nhistory + 1, sizeof *bad);
	errs = xcalloc(p->nhistory + 1, sizeof *errs);
	if (p->horizon_slots > 0)
		for (s = 0; s < ns; s++)
			v_calib_sample(v, s, ns, draws, bad);
	for (i = 0; i < r->ncalib; i++) {
		c = &r->calib[i];
		if (c->draft < 0 || bad[i] || p->horizon_slots <= 0)
			continue;
		qsort(draws + (size_t)i * ns, ns, sizeof *draws, v_cmp_double);
		c->lo = v_quantile(draws + (size_t)i * ns, ns, 0.1);
		c->median = v_quantile(draws + (size_t)i * ns, ns, 0.5);
		c->hi = v_quantile(draws + (size_t)i * ns, ns, 0.9);
		c->covered = c->lo <= c->observed && c->observed <= c->hi;
		c->ok = true;
		cov += c->covered;
		errs[ne++] = fabs(log((1 + fmax(c->median, 0)) /
		    (1 + c->observed)));
	}
	r->ncalibrated = ne;
	r->coverage = ne > 0 ? (double)cov / ne : 0;
	qsort(errs, ne, sizeof *errs, v_cmp_double);
	r->median_abs_log_error = ne > 0 ? v_quantile(errs, ne, 0.5) : 0;
	free(draws);
	free(bad);
	free(errs);
}

int
validate_run(const struct project *p, const struct model_ops *ops,
    void *model, const struct validate_hooks *hooks,
    const struct validate_params *vp, struct validate_report *out,
    struct error *err)
{
	struct vctx v;

	memset(out, 0, sizeof *out);
	memset(&v, 0, sizeof v);
	out->conformant = true;
	v.p = p;
	v.ops = ops;
	v.m = model;
	v.hooks = hooks;
	if (vp != NULL)
		v.vp = *vp;
	v.r = out;
	v.rng = 0x2545f4914f6cdd1dULL ^ v.vp.seed;
	if (v.rng == 0)
		v.rng = 1;
	if ((v.lg = legal_new(p, NULL, 0, err)) == NULL)
		return -1;
	v.lp = legal_path_new(v.lg);
	v.cap = legal_max_actions(v.lg) * 2 + 16;
	v.buf = xcalloc(v.cap, sizeof *v.buf);
	v.buf2 = xcalloc(v.cap, sizeof *v.buf2);
	v_conformance(&v);
	v_calibration(&v);
	free(v.buf);
	free(v.buf2);
	legal_path_free(v.lp);
	legal_free(v.lg);
	return 0;
}

void
validate_report_free(struct validate_report *r)
{
	free(r->checks);
	free(r->calib);
	memset(r, 0, sizeof *r);
}

/* ---- JSON and text ------------------------------------------------------ */

static const char *status_names[] = { "pass", "fail", "skip" };

cJSON *
validate_report_json(const struct project *p, const struct validate_report *r)
{
	cJSON *o = cJSON_CreateObject(), *arr, *e, *cal, *pr;
	const struct validate_calib *c;
	int i;

	cJSON_AddBoolToObject(o, "conformant", r->conformant);
	arr = cJSON_AddArrayToObject(o, "checks");
	for (i = 0; i < r->nchecks; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", r->checks[i].name);
		cJSON_AddStringToObject(e, "status",
		    status_names[r->checks[i].status]);
		if (r->checks[i].function[0] != '\0')
			cJSON_AddStringToObject(e, "function",
			    r->checks[i].function);
		if (r->checks[i].line > 0)
			cJSON_AddNumberToObject(e, "line", r->checks[i].line);
		if (r->checks[i].message[0] != '\0')
			cJSON_AddStringToObject(e, "message",
			    r->checks[i].message);
		cJSON_AddItemToArray(arr, e);
	}
	cal = cJSON_AddObjectToObject(o, "calibration");
	cJSON_AddStringToObject(cal, "observed",
	    "likes + reposts + replies + clicks");
	cJSON_AddNumberToObject(cal, "posts", r->ncalib);
	cJSON_AddNumberToObject(cal, "calibrated", r->ncalibrated);
	cJSON_AddNumberToObject(cal, "coverage_80", r->coverage);
	cJSON_AddNumberToObject(cal, "median_abs_log_error",
	    r->median_abs_log_error);
	arr = cJSON_AddArrayToObject(cal, "entries");
	for (i = 0; i < r->ncalib; i++) {
		c = &r->calib[i];
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "history", c->history_id);
		cJSON_AddStringToObject(e, "front", p->fronts[c->front].id);
		if (c->draft >= 0)
			cJSON_AddStringToObject(e, "draft",
			    p->drafts[c->draft].id);
		cJSON_AddNumberToObject(e, "slot", c->slot);
		cJSON_AddNumberToObject(e, "observed", c->observed);
		cJSON_AddBoolToObject(e, "ok", c->ok);
		if (c->ok) {
			pr = cJSON_AddArrayToObject(e, "predicted");
			cJSON_AddItemToArray(pr, cJSON_CreateNumber(c->lo));
			cJSON_AddItemToArray(pr, cJSON_CreateNumber(c->median));
			cJSON_AddItemToArray(pr, cJSON_CreateNumber(c->hi));
			cJSON_AddBoolToObject(e, "covered", c->covered);
		}
		cJSON_AddItemToArray(arr, e);
	}
	cJSON_AddNumberToObject(o, "model_calls", (double)r->model_calls);
	return o;
}

static double
v_num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A whole number in 0..max, absent: 0. -1 for anything else: a worker's
 * report is not trusted to hold numbers an int can take. */
static int
v_whole(const cJSON *o, const char *k, double max, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 &&
	    v->valuedouble <= max) || v->valuedouble != floor(v->valuedouble))
		return -1;
	*out = v->valuedouble;
	return 0;
}

static const char *
v_str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static int
v_check_from_json(const cJSON *e, struct validate_check *c)
{
	const char *st = v_str(e, "status");
	double line;

	memset(c, 0, sizeof *c);
	if (v_whole(e, "line", INT_MAX, &line) != 0)
		return -1;
	snprintf(c->name, sizeof c->name, "%s", v_str(e, "name"));
	c->status = strcmp(st, "pass") == 0 ? VALIDATE_PASS :
	    strcmp(st, "skip") == 0 ? VALIDATE_SKIP : VALIDATE_FAIL;
	snprintf(c->function, sizeof c->function, "%s", v_str(e, "function"));
	c->line = (int)line;
	snprintf(c->message, sizeof c->message, "%s", v_str(e, "message"));
	return 0;
}

static int
v_calib_from_json(const struct project *p, const cJSON *e,
    struct validate_calib *c)
{
	const cJSON *pr = cJSON_GetObjectItemCaseSensitive(e, "predicted");
	double slot;

	memset(c, 0, sizeof *c);
	if (v_whole(e, "slot", INT_MAX, &slot) != 0)
		return -1;
	snprintf(c->history_id, sizeof c->history_id, "%s",
	    v_str(e, "history"));
	c->front = project_front_index(p, v_str(e, "front"));
	c->draft = project_draft_index(p, v_str(e, "draft"));
	c->slot = (int)slot;
	c->observed = v_num(e, "observed");
	c->ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "ok")) &&
	    cJSON_GetArraySize(pr) == 3 && c->front >= 0;
	if (c->ok) {
		c->lo = cJSON_GetArrayItem(pr, 0)->valuedouble;
		c->median = cJSON_GetArrayItem(pr, 1)->valuedouble;
		c->hi = cJSON_GetArrayItem(pr, 2)->valuedouble;
		c->covered = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e,
		    "covered"));
	}
	if (c->front < 0)
		c->front = 0;
	return 0;
}

int
validate_report_from_json(const struct project *p, const cJSON *json,
    struct validate_report *out, struct error *err)
{
	const cJSON *checks, *cal, *entries, *e;
	double n;
	int i = 0;

	memset(out, 0, sizeof *out);
	checks = cJSON_GetObjectItemCaseSensitive(json, "checks");
	cal = cJSON_GetObjectItemCaseSensitive(json, "calibration");
	if (!cJSON_IsObject(json) || !cJSON_IsArray(checks) ||
	    !cJSON_IsObject(cal))
		return error_set(err, EXIT_MODEL, "validation report: "
		    "malformed");
	out->conformant = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(json,
	    "conformant"));
	out->checks = xcalloc(cJSON_GetArraySize(checks) + 1,
	    sizeof *out->checks);
	cJSON_ArrayForEach(e, checks)
		if (v_check_from_json(e, &out->checks[out->nchecks++]) != 0)
			goto bad;
	entries = cJSON_GetObjectItemCaseSensitive(cal, "entries");
	out->calib = xcalloc(cJSON_GetArraySize(entries) + 1,
	    sizeof *out->calib);
	cJSON_ArrayForEach(e, entries) {
		out->ncalib = ++i;
		if (v_calib_from_json(p, e, &out->calib[i - 1]) != 0)
			goto bad;
	}
	if (v_whole(cal, "calibrated", INT_MAX, &n) != 0)
		goto bad;
	out->ncalibrated = (int)n;
	out->coverage = v_num(cal, "coverage_80");
	out->median_abs_log_error = v_num(cal, "median_abs_log_error");
	if (v_whole(json, "model_calls", 1e18, &n) != 0)
		goto bad;
	out->model_calls = (uint64_t)n;
	return 0;
bad:
	validate_report_free(out);
	return error_set(err, EXIT_MODEL, "validation report: a number out "
	    "of its range");
}

char *
validate_report_text(const struct project *p, const struct validate_report *r)
{
	const struct validate_check *c;
	char *s = xstrdup(""), *next, where[96];
	int i;

	for (i = 0; i < r->nchecks; i++) {
		c = &r->checks[i];
		where[0] = '\0';
		if (c->status == VALIDATE_FAIL && c->line > 0)
			snprintf(where, sizeof where, " [%s, model.py line %d]",
			    c->function, c->line);
		else if (c->status == VALIDATE_FAIL && c->function[0])
			snprintf(where, sizeof where, " [%s]", c->function);
		xasprintf(&next, "%s%-4s %-28s%s%s%s\n", s,
		    status_names[c->status], c->name, where,
		    c->message[0] ? "  " : "", c->message);
		free(s);
		s = next;
	}
	xasprintf(&next, "%s\nconformance: %s\ncalibration against %d past "
	    "posts (%d predicted): %.0f%% inside the predicted 10-90%% "
	    "interval (80%% expected), median |log error| %.2f\n", s,
	    r->conformant ? "ok" : "FAILED", r->ncalib, r->ncalibrated,
	    r->coverage * 100, r->median_abs_log_error);
	free(s);
	(void)p;
	return next;
}
