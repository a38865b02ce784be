/*
 * wmodel — a world model loaded into this process's embedded interpreter,
 * behind the planner's struct model_ops. Loading runs the gate first and
 * executes the source in the restricted namespace; every call is guarded
 * by the watchdog's deadline.
 *
 * Threads: every operation takes the GIL for its own duration unless the
 * calling thread has entered the model. A search loop should bracket its
 * whole run with wmodel_enter()/wmodel_leave() on the thread that calls the
 * operations: the GIL is then taken once, not per call (other Python
 * threads still get it whenever the model's bytecode runs).
 */
#ifndef FRONTS_WMODEL_H
#define FRONTS_WMODEL_H

#include <stddef.h>

#include "core/model.h"
#include "core/project.h"
#include "core/validate.h"
#include "core/util.h"

struct wmodel;

extern const struct model_ops wmodel_ops;
/* What validation needs beyond model_ops: a function's first line, and a
 * state's repr() (guarded) to detect mutation. */
extern const struct validate_hooks wmodel_validate_hooks;

/* Gates and loads src for project p. A gate refusal is EXIT_REFUSED. */
int	wmodel_load(const struct project *p, const char *src, size_t len,
	    int call_timeout_ms, struct wmodel **out, struct error *err);
/* wmodel_load in two steps, for a worker that locks itself down in
 * between: prepare gates and compiles src and builds everything the model
 * will be handed, running none of its lines; run_body then executes the
 * module's top-level code (under the load deadline) and finds its
 * functions. Only a model whose body ran may be called. */
int	wmodel_prepare(const struct project *p, const char *src, size_t len,
	    int call_timeout_ms, struct wmodel **out, struct error *err);
int	wmodel_run_body(struct wmodel *, struct error *err);
void	wmodel_free(struct wmodel *);

/* Holds the GIL on this thread until the matching wmodel_leave(). Nests. */
void	wmodel_enter(struct wmodel *);
void	wmodel_leave(struct wmodel *);


#endif
