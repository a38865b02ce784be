/*
 * search_int — what the search's files share (search.c: the iterations;
 * search_tree.c: the nodes in their arena; search_call.c: calls into the
 * model; search_result.c: the plan and snapshots read from a tree;
 * search_export.c: a tree as bytes and the merge of several;
 * search_polish.c and search_climb.c: the plan improved by replays once
 * the tree search is done, without and with value(); search_posts.c: a
 * plan as posts for both), and the bytes search_export() writes and
 * search_merge() reads, which the search's own tests also use to build
 * malformed trees. Both ends of an export are the same binary: the layout
 * is the compiler's, not a stable format.
 */
#ifndef FRONTS_SEARCH_INT_H
#define FRONTS_SEARCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/invariant.h"
#include "core/model.h"
#include "core/mutex.h"
#include "core/search.h"

#define NIL		UINT32_MAX
#define CALL_SAMPLE	64	/* a power of two */

/*
 * A tree node: the edge into it (its action) and that edge's statistics.
 * A node's children sit side by side in one block of the arena (1, 2, 4,
 * ... nodes), so that selection reads them in one sweep rather than
 * chasing a sibling list across the arena; a full block is copied into
 * one twice its size and the old one goes on a free list of its size
 * (search_node_new). So a node's index is stable only until its parent
 * gains a child: hold indices of a path's nodes (their parents only gain
 * children below them), never of siblings, across an addition.
 */
struct node {
	struct action	action;
	uint32_t	child;		/* first child, NIL none */
	uint32_t	nchild;		/* children in that block */
	uint32_t	visits;
	uint32_t	avail;
	int32_t		slot;
	uint32_t	bchild;		/* the child holding bq */
	double		sum;		/* returns from this edge on */
	double		rsum;		/* this step's reward */
	double		rsq;
	double		q;		/* value for selection: see search_q */
	double		bq;		/* best q among children, -inf none */
	double		best;		/* best return from this edge on */
};

/* Each child of n, newest first (the order ties are broken in). */
#define NODE_FOREACH_CHILD(ci, n) \
	for ((ci) = (n)->child + (n)->nchild; (ci)-- > (n)->child;)

#define NODE_BLOCK_CLASSES	32	/* blocks of 1 << k nodes */
#define SEARCH_LOG_TABLE	1024	/* availability counts with log() kept */

struct step {
	uint32_t	node;
	double		reward;
};

/* A node of the merged plan and its place on it (search_preferred). */
struct pref_at {
	uint32_t	node;
	uint32_t	at;
};

/* One action of an iteration's whole path, tree and rollout alike. */
struct trace {
	struct action	action;
	int32_t		slot;
	double		reward;
};

struct search {
	const struct project	*p;
	struct search_params	 params;
	uint64_t		 seed;
	struct legal		*lg;
	struct legal_path	*lp;
	int			 nfronts;

	struct mutex		 lock;
	struct node		*nodes;		/* the arena */
	uint32_t		 nnodes, cap;	/* arena used, allocated */
	uint32_t		 nlive;		/* nodes in the tree */
	uint32_t		 freeb[NODE_BLOCK_CLASSES];	/* free blocks */
	enum search_state	 state;
	atomic_bool		 cancel;
	uint64_t		 iterations, failed;
	_Atomic uint64_t	 model_calls, illegal;	/* see search_add */
	_Atomic double		 model_seconds;
	double			 started, elapsed;
	double			 gmin, gmax;	/* range of total returns */
	struct model_error	 errors[SEARCH_MAX_ERRORS];
	int			 nerrors;
	char			 error[512];

	search_progress_fn	*progress;
	void			*progress_arg;
	double			 interval;

	const struct model_ops	*ops;
	void			*m;
	bool			 has_value;
	int			 rollout_actions;
	bool			 noisy;		/* a step's reward ever varied */
	bool			 completing;	/* this rollout joins the tree */
	uint64_t		 rng;
	int			 last_key;	/* last post id in this slot */

	uint32_t		*mids;		/* the model's proposals */
	int			 mcap;
	struct action		*acts;		/* every action, by id */
	uint32_t		 nids;
	struct action		*set;		/* available actions */
	int			 nset;
	uint32_t		*stamp, gen;	/* membership of set, by id */
	uint32_t		*expd, egen;	/* expanded and available */
	uint32_t		*shut;		/* fronts closed now, by gen */
	enum legal_verdict	*fnow;		/* legal_front_now, per front */
	uint32_t		*rep;		/* a draft to ask the engine
						 * about each front with */
	uint8_t			*verdict;	/* legal_static, by id */
	struct step		*stack;
	int			 stackcap, nstack;
	struct trace		*trace, *btrace;	/* this path, the best */
	int			 ntrace, nbtrace, tracecap;
	double			 btotal;	/* btrace's return */
	double			*msum;		/* returns by (action, slot) */
	uint32_t		*mn;
	double			 tail;		/* the rollout's value() */
	double			*seen;		/* completion: last reward, by id */
	bool			 screened;	/* every available one tried */
	int			*ctop;		/* completion: actions to try */
	double			 logtab[SEARCH_LOG_TABLE];	/* log(n), n small */
	struct action		*prefix;	/* focus: forced actions */
	int			 nprefix;
	uint64_t		 focus_min;
	double			 fill_by;	/* see search_fill; 0: none */
	/* legal_actions timed apart, one call in LEGAL_SAMPLE (this thread
	 * only): what a completion's steps cost (search_reserve). */
	uint64_t		 legal_calls, legal_timed;
	double			 legal_seconds;
	double			 polish_share;	/* see search_polish.c */
	double			 climb_share;	/* see search_climb.c */

	struct action		*pact;		/* merged: the plan's path */
	int			 npact;
	uint32_t		*pref;		/* its nodes (search_pref_set) */
	int			 npref;
	struct pref_at		*pat;		/* the same, by node index */
	double			 pref_total;	/* its worker's own estimate */
};

/*
 * Counters that only the search's own thread writes while
 * search_snapshot() reads them from another: relaxed atomic loads and
 * stores, which cost what plain ones do (no locked read-modify-write in
 * the hot loop). search_merge() writes them too, on a tree nobody runs.
 */
static inline uint64_t
search_get(_Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static inline void
search_add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_store_explicit(c, search_get(c) + n, memory_order_relaxed);
}

static inline double
search_getf(_Atomic double *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static inline void
search_addf(_Atomic double *c, double x)
{
	atomic_store_explicit(c, search_getf(c) + x, memory_order_relaxed);
}

/* The exploration constant and the rollout length with value() (see
 * bench/RESULTS.md for how both were measured). */
#define SEARCH_UCT_C	1.41
#define ROLLOUT_ACTIONS	8
/* A completion step tries the COMPLETE_TOP actions of each front with
 * the best last rewards and COMPLETE_SAMPLE drawn at random (search.c). */
#define COMPLETE_TOP	4
#define COMPLETE_SAMPLE	16
/* The share of an iteration budget that polishes the plan (search_polish.c;
 * a test sets a search's own to 0). */
#define SEARCH_POLISH_SHARE	0.3
/* Its k-th determinization is drawn after ops->seed with
 * search_mix(search_mix(seed) ^ (SEARCH_POLISH_SALT + k)), apart from
 * every iteration's seed. */
#define SEARCH_POLISH_SALT	0x706f6c6973680000ULL

/* The share of a budget in seconds, after the completion's, that climbs
 * from the plan where the model has value() (search_climb.c; a test sets
 * a search's own to 0), and the salt of its determinizations' seeds. */
#define SEARCH_CLIMB_SHARE	0.8
#define SEARCH_CLIMB_SALT	0x636c696d62000000ULL

/* splitmix64: seeds from (seed, index) pairs. */
static inline uint64_t
search_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The seed of the climb's k-th determinization (slot -1: the one its
 * hidden state is drawn after) and of its model's draws from each slot's
 * start on: reseeded there, a variant replayed from the slot of its first
 * change draws what the plan drew from that slot (common random numbers).
 */
static inline uint64_t
search_climb_seed(uint64_t seed, int k, int slot)
{
	uint64_t x = search_mix(search_mix(seed) ^ (SEARCH_CLIMB_SALT +
	    (uint64_t)k));

	return slot < 0 ? x : search_mix(x + (uint64_t)slot);
}

/* The dense id of an action: 0 for wait, then draft-major. */
static inline uint32_t
search_action_id(const struct search *s, const struct action *a)
{
	return action_id(a, (uint32_t)s->nfronts);
}

/* search.c */
void		 search_count(struct search *, int rc, double now);
int		 search_complete_set(struct search *);
int		 search_available(struct search *, model_state *);

/* search_tree.c */
uint32_t	 search_node_new(struct search *, uint32_t parent,
		    const struct action *, int slot);
uint32_t	 search_find_child(const struct search *, uint32_t,
		    const struct action *);
double		 search_mean(const struct node *);

/* search_call.c */
int		 search_own_error(struct search *, const char *type,
		    const char *fn, const char *fmt, ...)
		    __attribute__((format(printf, 4, 5)));
double		 search_call_begin(struct search *);
int		 search_call_done(struct search *, double t0, int rc);
int		 search_m_apply(struct search *, model_state **,
		    const struct action *, double *reward);
int		 search_m_step(struct search *, model_state *,
		    const struct action *, model_state **next,
		    double *reward);
int		 search_m_terminal(struct search *, model_state *, bool *);
int		 search_m_value(struct search *, model_state *, double *);
int		 search_m_hidden(struct search *, model_state **);

/* search_polish.c */
uint64_t	 search_polish_budget(const struct search *);
int		 search_polish(struct search *);

/* search_posts.c: a plan as posts with their slots. */
struct search_post {
	int32_t		slot;
	struct action	a;
};

int		 search_post_cmp(const void *, const void *);
bool		 search_post_actions(struct search *,
		    const struct search_post *, int, struct action *,
		    int *nact, int *at);
int		 search_proposed(struct search *, model_state *,
		    const struct action *, int slot, bool *yes);
int		 search_plan_path(struct search *, uint32_t min_visits,
		    struct action **, int32_t **slots);
int		 search_plan_posts(struct search *, struct search_post **);
void		 search_join(struct search *, const struct action *, int,
		    const double *rsum, const double *rsq, uint32_t nk,
		    double total);

/* search_climb.c */
bool		 search_climbs(const struct search *);
int		 search_climb(struct search *, double until, uint64_t variants);

/* search_result.c */
uint32_t	 search_best_child(const struct search *, uint32_t);
void		 search_pref_set(struct search *, const struct action *, int,
		    double total);

#define EXPORT_MAGIC	0x31545246u	/* "FRT1" */

/*
 * Export: a header with the counters and errors, then the nodes with at
 * least two visits and the nodes of the tree's own plan (principal
 * variation) in preorder, each naming its parent's export index. (Nodes
 * with one visit are the bulk of a tree and carry nothing a merged plan
 * needs; their statistics are already in their ancestors.)
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
	uint32_t	pv;		/* on the exporting tree's plan */
	uint32_t	pad;
	double		sum, rsum, rsq;
};

#endif
