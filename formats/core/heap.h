/* SPDX-License-Identifier: ISC */
/*
 * heap.h: a binary heap of indexes (a merge's inputs or lanes), in the
 * order the caller's before(ctx, a, b) says (a strict order: ties are the
 * caller's to break).  The merges of the stream (stream.c) and of the
 * runs (runs.c) take the first, read on from it, and put it back.
 */
#ifndef GPUMEM_HEAP_H
#define GPUMEM_HEAP_H

#include <stddef.h>

struct heap {
	size_t *v;		/* v[0] is the first; room is the caller's */
	size_t n;
	int (*before)(void *ctx, size_t a, size_t b);
	void *ctx;
};

/* Add x (v has room for it). */
void heap_push(struct heap *h, size_t x);

/*
 * The first one has moved on: put it back in its place (more), or take
 * it out (it has ended).
 */
void heap_next(struct heap *h, int more);

#endif
