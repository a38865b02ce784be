/*
 * fixture_ids — legal_ids for the C test models: their legal_actions'
 * list as action ids, as the sandbox's model hands them to the search.
 */
#ifndef FIXTURE_IDS_H
#define FIXTURE_IDS_H

#include <stdint.h>
#include <stdlib.h>

#include "core/model.h"
#include "core/util.h"

typedef int fixture_legal_fn(void *, model_state *, struct action *, int,
    int *, int *);

static inline int
fixture_legal_ids(fixture_legal_fn *legal, uint32_t nfronts, void *v,
    model_state *st, uint32_t *out, int max, int *n, int *illegal)
{
	struct action *a = xcalloc(max > 0 ? (size_t)max : 1, sizeof *a);
	int rc, i, k;

	rc = legal(v, st, a, max, n, illegal);
	/* An id names one action only where the front is in range (a
	 * draft out of range gives an id past every action's). */
	for (i = k = 0; rc == MODEL_OK && i < *n; i++)
		if (a[i].kind == ACTION_POST && a[i].front >= nfronts)
			++*illegal;
		else
			out[k++] = action_id(&a[i], nfronts);
	if (rc == MODEL_OK)
		*n = k;
	free(a);
	return rc;
}

#endif
