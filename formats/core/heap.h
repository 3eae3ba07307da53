/* SPDX-License-Identifier: ISC */
/*
 * heap.h: a binary heap of a merge's inputs (or lanes), each with the
 * key of its first record: earliest time first, ties to the lower tie
 * (the merges give their input's index).  The merges of the stream
 * (stream.c) and of the runs (runs.c) take the first, read on from it,
 * and put it back with its next record's key, or take it out.
 *
 * The stream's merge does this for every record, so the keys are kept
 * in the heap and compared in place, and the functions are inline: a
 * comparison called through a pointer, looking up both inputs' records,
 * cost it three times as many instructions (bench/README.md).
 */
#ifndef GPUMEM_HEAP_H
#define GPUMEM_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap_ent {
	uint64_t ts;		/* the key: the first record's time, */
	uint64_t tie;		/* then this */
	size_t i;		/* the input or lane */
};

struct heap {
	struct heap_ent *v;	/* v[0] is the first; room is the caller's */
	size_t n;
};

static inline int
heap_before(const struct heap_ent *a, const struct heap_ent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->tie < b->tie);
}

/* Add input i, its first record at ts (v has room for it). */
static inline void
heap_push(struct heap *h, size_t i, uint64_t ts, uint64_t tie)
{
	struct heap_ent e = {ts, tie, i};
	size_t k = h->n++, p;

	while (k > 0) {
		p = (k - 1) / 2;
		if (!heap_before(&e, &h->v[p]))
			break;
		h->v[k] = h->v[p];
		k = p;
	}
	h->v[k] = e;
}

/* Put e in at the first place, and down to where it belongs. */
static inline void
heap_sift(struct heap *h, struct heap_ent e)
{
	size_t k = 0, l, n = h->n;

	for (;;) {
		l = 2 * k + 1;
		if (l >= n)
			break;
		if (l + 1 < n && heap_before(&h->v[l + 1], &h->v[l]))
			l++;
		if (!heap_before(&h->v[l], &e))
			break;
		h->v[k] = h->v[l];
		k = l;
	}
	h->v[k] = e;
}

/* The first one has moved on to a record at ts: put it in its place. */
static inline void
heap_next(struct heap *h, uint64_t ts, uint64_t tie)
{
	struct heap_ent e = {ts, tie, h->v[0].i};

	heap_sift(h, e);
}

/* The first one has ended: take it out. */
static inline void
heap_end(struct heap *h)
{
	if (--h->n > 0)
		heap_sift(h, h->v[h->n]);
}

#endif
