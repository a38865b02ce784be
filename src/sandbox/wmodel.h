/*
 * wmodel — a world model loaded into this process's embedded interpreter,
 * behind the planner's struct model_ops. Loading runs the gate first and
 * executes the source in the restricted namespace; every call is guarded
 * by the watchdog's deadline.
 */
#ifndef FRONTS_WMODEL_H
#define FRONTS_WMODEL_H

#include <stddef.h>

#include "core/model.h"
#include "core/project.h"
#include "core/util.h"

struct wmodel;

extern const struct model_ops wmodel_ops;

/* Gates and loads src for project p. A gate refusal is EXIT_REFUSED. */
int	wmodel_load(const struct project *p, const char *src, size_t len,
	    int call_timeout_ms, struct wmodel **out, struct error *err);
void	wmodel_free(struct wmodel *);

#endif
