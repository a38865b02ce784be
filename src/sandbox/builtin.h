/*
 * builtin — the builtin world model (src/sandbox/py/builtin_model.py,
 * compiled into the binary): a generic model that fits itself to the
 * project's history when it starts. `fronts synth --provider builtin`
 * writes it out as model.py; validation measures every model against it
 * as the backtest's third baseline. Its source goes through the same gate
 * and runs in the same sandbox as any model.
 */
#ifndef FRONTS_BUILTIN_H
#define FRONTS_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/project.h"
#include "core/util.h"
#include "core/validate.h"

struct wmodel;

/* The source (NUL-terminated) and its length. */
const char	*builtin_source(size_t *len);
/* Is src exactly the builtin model? */
bool	builtin_is(const char *src, size_t len);
/* Loads it for p in this process (wmodel_load); NULL with why filled
 * when it cannot be (the backtest then says so). */
struct wmodel	*builtin_load(const struct project *, char *why, size_t len);
/* What validate_run needs to measure the builtin baseline: with m the
 * loaded builtin (or NULL and why), or model itself when the model under
 * test is the builtin. */
void	builtin_params(struct validate_params *, struct wmodel *m,
	    const char *why);

#endif
