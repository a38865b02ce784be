/*
 * validate — one validation run: the context every check shares, the
 * model-call helpers, and the driver (conformance, the agreement of
 * predict with apply, then the backtest). The checks are in
 * validate_conform.c and validate_agree.c, the report's JSON and text in
 * validate_report.c, the backtest in backtest.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/validate_int.h"

uint32_t
v_rand(struct vctx *v, uint32_t n)
{
	v->rng ^= v->rng << 13;
	v->rng ^= v->rng >> 7;
	v->rng ^= v->rng << 17;
	return (uint32_t)(v->rng % n);
}

struct validate_check *
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
int
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

void
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
void
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
	c->timed_out = rc == MODEL_TIMEOUT;
}

int
v_legal(struct vctx *v, model_state *s, struct action *out, int *n)
{
	int illegal = 0;

	int rc;

	v->r->model_calls++;
	rc = v->ops->legal_actions(v->m, s, out, v->cap, n, &illegal);
	if (rc == MODEL_OK)
		v->proposals += (uint64_t)*n + (uint64_t)illegal;
	return rc;
}

int
v_apply(struct vctx *v, model_state *s, const struct action *a,
    model_state **next, double *r)
{
	v->r->model_calls++;
	return v->ops->apply(v->m, s, a, next, r);
}

int
v_hidden(struct vctx *v, uint64_t seed, model_state **s)
{
	v->ops->seed(v->m, seed);
	v->r->model_calls++;
	return v->ops->sample_hidden(v->m, s);
}

int
v_available(struct vctx *v, model_state *s, int *n)
{
	int rc, m;

	if ((rc = v_legal(v, s, v->buf2, &m)) != MODEL_OK)
		return rc;
	*n = v_filter(v, m);
	return MODEL_OK;
}

int
v_filter(struct vctx *v, int m)
{
	int k = 0, i;

	v->buf[k++] = (struct action){ ACTION_WAIT, 0, 0 };
	for (i = 0; i < m && i < v->cap; i++)
		if (v->buf2[i].kind == ACTION_POST &&
		    legal_check(v->lg, v->lp, &v->buf2[i]) == LEGAL_OK)
			v->buf[k++] = v->buf2[i];
	return k;
}

/* The builtin baseline, in at most half the backtest's time: a model
 * slow enough to need the whole budget leaves the builtin its own. */
static void
v_builtin(const struct project *p, const struct validate_params *vp,
    void *model, const struct backtest_params *bp, struct backtest_report *r)
{
	struct backtest_params half = *bp;

	if (vp->builtin == model) {
		backtest_baseline_self(r);
		return;
	}
	half.seconds = BACKTEST_SECONDS / 2;
	backtest_baseline_run(p, vp->builtin_ops, vp->builtin, vp->builtin_why,
	    &half, r, NULL);
}

int
validate_run(const struct project *p, const struct model_ops *ops,
    void *model, const struct validate_hooks *hooks,
    const struct validate_params *vp, struct validate_report *out,
    struct error *err)
{
	struct backtest_params bp = { 0 };
	struct vctx v;
	int rc;

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
	v_agreement(&v);
	bp.window = v.vp.window;
	bp.draws = v.vp.draws;
	bp.seed = v.vp.seed;
	bp.objective = NULL;	/* the project's, as the reader assumes */
	rc = backtest_run(p, ops, model, &bp, &out->backtest,
	    &out->model_calls);
	if (rc == 0 && out->backtest.ran && v.vp.builtin_ops != NULL)
		v_builtin(p, &v.vp, model, &bp, &out->backtest);
	free(v.buf);
	free(v.buf2);
	legal_path_free(v.lp);
	legal_free(v.lg);
	return rc;
}

