/*
 * wmodel_ids — the model's action tuples recognised by identity.
 *
 * A model that builds its action tuples once (a table at module level)
 * hands the same objects back on every legal_actions call; converting each
 * by two dict lookups costs, on lists of thousands, as much as the call.
 * Here an exact tuple converted once is found again by its address. The
 * cache holds a strong reference to every tuple in it, so no other object
 * can take the address while it is there, and an exact tuple of exact
 * strs can never change, so its index cannot either. The table is bounded
 * (WM_IDS_PER_ACTION entries per action of the project): a model that
 * builds fresh tuples fills it once and then converts as before.
 *
 * Every function runs with the GIL held. Releasing a tuple of strs runs
 * no model code, so the cache is freed without the guard.
 */
#include "sandbox/wmodel_int.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/util.h"

#define WM_IDS_PER_ACTION	2
#define WM_IDS_MIN		1024

void
wm_ids_init(struct wm_ids *c, int nacts)
{
	uint32_t cap = 1;

	c->max = (uint32_t)nacts * WM_IDS_PER_ACTION + WM_IDS_MIN;
	while (cap < 2 * c->max)
		cap *= 2;
	c->key = xcalloc(cap, sizeof *c->key);
	c->ix = xcalloc(cap, sizeof *c->ix);
	c->mask = cap - 1;
	c->n = 0;
}

/* Keeps o (an exact tuple whose conversion gave ix) while there is room. */
void
wm_ids_put(struct wm_ids *c, PyObject *o, int ix)
{
	uint32_t i;

	if (c->n >= c->max || !PyTuple_CheckExact(o))
		return;
	for (i = wm_ids_hash(c, o); c->key[i] != NULL; i = (i + 1) & c->mask)
		if (c->key[i] == o)
			return;
	Py_INCREF(o);
	c->key[i] = o;
	c->ix[i] = ix;
	c->n++;
}

void
wm_ids_free(struct wm_ids *c)
{
	uint32_t i;

	for (i = 0; c->key != NULL && i <= c->mask; i++)
		Py_XDECREF(c->key[i]);
	free(c->key);
	free(c->ix);
	c->key = NULL;
	c->ix = NULL;
	c->n = 0;
}
