/*
 * builtin — the builtin world model's source and loading (builtin.h).
 */
#include <stdio.h>
#include <string.h>

#include "sandbox/builtin.h"
#include "sandbox/wmodel.h"

extern const char pysrc_builtin_model[];	/* src/sandbox/pysrc.S */

/* The builtin fits the history when it starts: the same per-call budget
 * as a model validation gets. */
#define BUILTIN_CALL_MS	1000

const char *
builtin_source(size_t *len)
{
	if (len != NULL)
		*len = strlen(pysrc_builtin_model);
	return pysrc_builtin_model;
}

bool
builtin_is(const char *src, size_t len)
{
	size_t n;
	const char *b = builtin_source(&n);

	return len == n && memcmp(src, b, n) == 0;
}

struct wmodel *
builtin_load(const struct project *p, char *why, size_t len)
{
	struct error err = { 0 };
	struct wmodel *m;
	size_t n;
	const char *src = builtin_source(&n);

	if (wmodel_load(p, src, n, BUILTIN_CALL_MS, &m, &err) != 0) {
		snprintf(why, len, "it did not load: %s", err.msg);
		return NULL;
	}
	return m;
}

void
builtin_params(struct validate_params *vp, struct wmodel *m, const char *why)
{
	vp->builtin_ops = &wmodel_ops;
	vp->builtin = m;
	vp->builtin_why = why;
}
