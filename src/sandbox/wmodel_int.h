/*
 * wmodel_int — what the files of the world-model module share: struct
 * wmodel itself and the guarded-call helpers. wmodel.c holds the calls
 * and the ops tables, wmodel_predict.c predict(), wmodel_load.c building
 * and freeing a model. Other modules use wmodel.h.
 */
#ifndef FRONTS_WMODEL_INT_H
#define FRONTS_WMODEL_INT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdbool.h>

#include "sandbox/guard.h"
#include "sandbox/wmodel.h"

#define WM_FILENAME	MODEL_FILENAME
/* The module's top-level code may precompute tables: it gets ten calls'
 * worth of time, and at least WM_LOAD_MIN_MS. */
#define WM_LOAD_FACTOR	10
#define WM_LOAD_MIN_MS	3000

enum wm_fn {
	FN_INITIAL, FN_SAMPLE, FN_LEGAL, FN_APPLY, FN_TERMINAL, FN_VALUE,
	FN_PREDICT, FN_COUNT
};

extern const char *const wm_fn_names[FN_COUNT];

/* The action tuples already converted, by address (wmodel_ids.c). */
struct wm_ids {
	PyObject	**key;		/* NULL: empty; each a strong reference */
	int		 *ix;		/* its action index */
	uint32_t	  mask;		/* table size - 1 */
	uint32_t	  n, max;
};

struct wmodel {
	const struct project	*p;
	PyObject		*globals;
	PyObject		*code;		/* the module body, until it ran */
	PyObject		*fn[FN_COUNT];	/* NULL where undefined */
	PyObject		*ctx;
	PyObject		*rng;
	PyObject		*rng_seed;	/* bound Random.seed */
	PyObject		**acts;		/* [0] wait, [1 + d*nfronts + f] */
	int			 nacts;
	PyObject		*draft_ix;	/* str -> int */
	PyObject		*front_ix;
	PyObject		*s_wait, *s_post;
	struct action		*actv;		/* acts as struct action */
	struct wm_ids		 ids;
	/* predict's arguments, built on its first call: per history post,
	 * the post without metrics and its ctx entry with empty metrics. */
	PyObject		*hist_post, *hist_bare;
	struct guard_slot	*slot;
	int			 timeout_ms;
	struct model_error	 error;
	bool			 poisoned;	/* a release overran: stop */
	/* wmodel_enter */
	int			 depth;
	pthread_t		 owner;
	PyGILState_STATE	 gil;
};

/* The GIL, unless the calling thread entered the model (wmodel_enter). */
static inline bool
wm_acquire(struct wmodel *m, PyGILState_STATE *st)
{
	if (m->depth > 0 && pthread_equal(m->owner, pthread_self()))
		return false;
	*st = PyGILState_Ensure();
	guard_slot_bind(m->slot);
	return true;
}

static inline void
wm_release(bool took, PyGILState_STATE st)
{
	if (took)
		PyGILState_Release(st);
}

/* wmodel.c: the guarded call and what a call's result is checked by. */
void	wm_copy(char *dst, size_t size, const char *src);
void	wm_seed(void *m, uint64_t seed);
int	wm_call(struct wmodel *, enum wm_fn, PyObject *const *args,
	    size_t nargs, PyObject **res);
int	wm_number(PyObject *o, double *out);
int	wm_badtype(struct wmodel *, enum wm_fn, const char *want,
	    PyObject *got);
int	wm_badnumber(struct wmodel *, enum wm_fn, const char *what,
	    PyObject *o, double x);
void	wm_decref(struct wmodel *, PyObject *o);
/* wmodel_ids.c; the lookup is inline: it runs for every proposal of
 * every legal_actions call. */
void	wm_ids_init(struct wm_ids *, int nacts);

static inline uint32_t
wm_ids_hash(const struct wm_ids *c, const PyObject *o)
{
	uint64_t h = (uint64_t)(uintptr_t)o >> 4;

	return (uint32_t)((h * 0x9e3779b97f4a7c15ULL) >> 32) & c->mask;
}

/* The action index of a tuple converted before, or -1. */
static inline int
wm_ids_get(const struct wm_ids *c, const PyObject *o)
{
	uint32_t i;

	for (i = wm_ids_hash(c, o); c->key[i] != NULL; i = (i + 1) & c->mask)
		if (c->key[i] == o)
			return c->ix[i];
	return -1;
}

void	wm_ids_put(struct wm_ids *, PyObject *o, int ix);
void	wm_ids_free(struct wm_ids *);
/* wmodel_predict.c */
int	wm_predict(void *, const struct predict_query *, double *);
bool	wm_has_predict(void *);

#endif
