/* SPDX-License-Identifier: ISC */
/* heap.c: a binary heap of indexes for the merges. */
#include "heap.h"

static void
swap(size_t *v, size_t i, size_t j)
{
	size_t t = v[i];

	v[i] = v[j];
	v[j] = t;
}

void
heap_push(struct heap *h, size_t x)
{
	size_t i = h->n++, p;

	h->v[i] = x;
	while (i > 0) {
		p = (i - 1) / 2;
		if (!h->before(h->ctx, h->v[i], h->v[p]))
			return;
		swap(h->v, i, p);
		i = p;
	}
}

void
heap_next(struct heap *h, int more)
{
	size_t i = 0, l, m;

	if (!more)
		h->v[0] = h->v[--h->n];
	if (h->n < 2)
		return;		/* one: nothing to compare */
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < h->n && h->before(h->ctx, h->v[l], h->v[m]))
			m = l;
		if (l + 1 < h->n && h->before(h->ctx, h->v[l + 1], h->v[m]))
			m = l + 1;
		if (m == i)
			return;
		swap(h->v, i, m);
		i = m;
	}
}
