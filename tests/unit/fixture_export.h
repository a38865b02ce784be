/*
 * fixture_export — forged tree exports (search_int.h's bytes, as a worker
 * would send them) for the search's unit tests and bench_untrusted.
 */
#ifndef FRONTS_FIXTURE_EXPORT_H
#define FRONTS_FIXTURE_EXPORT_H

#include <stdint.h>
#include <string.h>

#include "core/search_int.h"
#include "core/util.h"

/* A chain of n waits below the root, every step on the exporting tree's
 * plan, one visit each, slots within the horizon. */
static inline char *
fx_chain_export(uint32_t n, int horizon, size_t *len)
{
	struct export_head h;
	struct export_node e;
	char *buf;
	uint32_t i;

	memset(&h, 0, sizeof h);
	h.magic = EXPORT_MAGIC;
	h.nnodes = n + 1;
	h.iterations = 1;
	*len = sizeof h + (size_t)(n + 1) * sizeof e;
	buf = xcalloc(1, *len);
	memcpy(buf, &h, sizeof h);
	for (i = 0; i <= n; i++) {
		memset(&e, 0, sizeof e);
		e.parent = i == 0 ? UINT32_MAX : i - 1;
		e.slot = i == 0 ? -1 : (int)((i - 1) / 2 % (uint32_t)horizon);
		e.action.kind = ACTION_WAIT;
		e.visits = e.avail = 1;
		e.pv = i > 0;
		memcpy(buf + sizeof h + (size_t)i * sizeof e, &e, sizeof e);
	}
	return buf;
}

#endif
