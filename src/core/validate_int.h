/*
 * validate_int — what validate.c, validate_conform.c and
 * validate_agree.c share: one run's context and the model-call helpers
 * that count calls and turn a model's failure into a failed check.
 */
#ifndef FRONTS_VALIDATE_INT_H
#define FRONTS_VALIDATE_INT_H

#include "core/legal.h"
#include "core/validate.h"

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
	uint64_t		 proposals;	/* legal_actions' actions read */
};

uint32_t v_rand(struct vctx *, uint32_t n);
struct validate_check *v_check(struct vctx *, const char *name);
int	v_def_line(const struct validate_hooks *, const char *name);
void	v_fail(struct vctx *, struct validate_check *, const char *fn,
	    int line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void	v_fail_rc(struct vctx *, struct validate_check *, const char *fn,
	    int rc);
int	v_legal(struct vctx *, model_state *, struct action *out, int *n);
int	v_apply(struct vctx *, model_state *, const struct action *,
	    model_state **next, double *r);
int	v_hidden(struct vctx *, uint64_t seed, model_state **);
/* The available set now (model ∩ engine, plus the wait) into v->buf. */
int	v_available(struct vctx *, model_state *, int *n);
/* The same from the model's list of m in v->buf2, already asked for. */
int	v_filter(struct vctx *, int m);

/* The contract's checks (validate_conform.c). */
void	v_conformance(struct vctx *);
/* predict agrees with apply (validate_agree.c). */
void	v_agreement(struct vctx *);

#endif
