/*
 * search_int — the bytes search_export() writes and search_merge() reads,
 * shared with nobody but the search's own tests (which build malformed
 * trees from them). Both ends are the same binary: the layout is the
 * compiler's, not a stable format.
 */
#ifndef FRONTS_SEARCH_INT_H
#define FRONTS_SEARCH_INT_H

#include <stdint.h>

#include "core/model.h"
#include "core/search.h"

#define EXPORT_MAGIC	0x31545246u	/* "FRT1" */

/*
 * Export: a header with the counters and errors, then the nodes with at
 * least two visits in preorder, each naming its parent's export index.
 * (Nodes with one visit are the bulk of a tree and carry nothing a merged
 * plan needs; their statistics are already in their ancestors.)
 */
struct export_head {
	uint32_t		magic;
	uint32_t		nnodes;
	uint64_t		iterations, failed, model_calls, illegal;
	double			model_seconds, elapsed;
	int32_t			nerrors;
	struct model_error	errors[SEARCH_MAX_ERRORS];
};

struct export_node {
	uint32_t	parent;
	int32_t		slot;
	struct action	action;
	uint32_t	visits, avail;
	double		sum, rsum, rsq;
};

#endif
