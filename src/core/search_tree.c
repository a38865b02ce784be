/*
 * search_tree — the tree's nodes in their arena (struct node in
 * search_int.h): a node's children side by side in one block, grown by
 * copying into a block twice the size, freed blocks kept on a free list
 * of their size for the next node that grows into it (against sibling
 * lists: bench/RESULTS.md "The tree's memory").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"
#include "core/search_int.h"

size_t
search_node_bytes(void)
{
	return sizeof(struct node);
}

size_t
search_export_max(size_t bytes)
{
	return sizeof(struct export_head) +
	    bytes / sizeof(struct node) * sizeof(struct export_node);
}

/* n nodes at the top of the arena, which grows by half (a doubling
 * would leave up to half of a large arena unused). */
static uint32_t
search_arena_take(struct search *s, uint32_t n)
{
	uint32_t i;

	while (s->cap - s->nnodes < n) {
		if (s->cap >= UINT32_MAX / 2) {
			/* As out of memory: indices are 32 bits. */
			fputs("fronts: search tree too large\n", stderr);
			abort();
		}
		s->cap = s->cap < 1024 ? 1024 : s->cap + s->cap / 2;
		s->nodes = xrealloc(s->nodes, (size_t)s->cap * sizeof *s->nodes);
	}
	i = s->nnodes;
	s->nnodes += n;
	return i;
}

/* A block of 1 << k nodes, from its free list or the arena. */
static uint32_t
search_block_take(struct search *s, int k)
{
	uint32_t b = s->freeb[k];

	if (b == NIL)
		return search_arena_take(s, 1u << k);
	s->freeb[k] = s->nodes[b].child;
	return b;
}

/*
 * Makes room for one more child of node pi: its first block (one node),
 * or, when its block is full (a power of two), a block twice the size
 * with the children copied over and the old block freed.
 */
static void
search_children_room(struct search *s, uint32_t pi)
{
	uint32_t n = s->nodes[pi].nchild, old = s->nodes[pi].child, nb;
	struct node *p;
	int k;

	if (n == 0) {
		nb = search_block_take(s, 0);
		s->nodes[pi].child = nb;
		return;
	}
	if ((n & (n - 1)) != 0)
		return;
	k = __builtin_ctz(n);
	nb = search_block_take(s, k + 1);
	p = &s->nodes[pi];
	memcpy(&s->nodes[nb], &s->nodes[old], n * sizeof *s->nodes);
	if (p->bchild != NIL)
		p->bchild = nb + (p->bchild - old);
	p->child = nb;
	s->nodes[old].child = s->freeb[k];
	s->freeb[k] = old;
}

/* Adds a node under parent (NIL: the root); the caller holds the lock.
 * Moves parent's other children (see struct node). */
uint32_t
search_node_new(struct search *s, uint32_t parent, const struct action *a,
    int slot)
{
	struct node *n;
	uint32_t i;

	INVARIANT(mutex_held(&s->lock));
	if (parent == NIL)
		i = search_arena_take(s, 1);
	else {
		search_children_room(s, parent);
		i = s->nodes[parent].child + s->nodes[parent].nchild++;
	}
	s->nlive++;
	n = &s->nodes[i];
	memset(n, 0, sizeof *n);
	n->action = *a;
	n->child = NIL;
	n->bchild = NIL;
	n->bq = -INFINITY;
	n->best = -INFINITY;
	n->slot = slot;
	return i;
}

double
search_mean(const struct node *n)
{
	return n->visits > 0 ? n->sum / n->visits : 0;
}

uint32_t
search_find_child(const struct search *s, uint32_t ni, const struct action *a)
{
	uint32_t ci;

	NODE_FOREACH_CHILD(ci, &s->nodes[ni])
		if (action_equal(&s->nodes[ci].action, a))
			return ci;
	return NIL;
}
