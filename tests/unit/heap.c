/* SPDX-License-Identifier: ISC */
/* Unit tests: the merges' heap (formats/core/heap.c). */
#include <stdint.h>
#include <stdlib.h>

#include "heap.h"
#include "test.h"

/* Keys by index; ties go to the lower index, as the merges break them. */
static int
before(void *ctx, size_t a, size_t b)
{
	const unsigned *key = ctx;

	return key[a] < key[b] || (key[a] == key[b] && a < b);
}

int
main(void)
{
	unsigned key[64];
	size_t v[64], i, n;
	struct heap h = {v, 0, before, key};
	unsigned last = 0, seed = 7;
	int sorted = 1;

	/* A merge of 64 inputs, each moving on by a random step. */
	for (i = 0; i < 64; i++) {
		seed = seed * 1103515245 + 12345;
		key[i] = (seed >> 16) % 100;
		heap_push(&h, i);
	}
	CHECK_U64(h.n, 64);
	for (n = 0; h.n > 0; n++) {
		i = h.v[0];
		if (key[i] < last)
			sorted = 0;
		last = key[i];
		seed = seed * 1103515245 + 12345;
		key[i] += (seed >> 16) % 7;
		heap_next(&h, n % 5 != 4);	/* every fifth ends */
	}
	CHECK(sorted);
	/* Ties: the lower index first. */
	for (i = 0; i < 8; i++)
		key[i] = 5;
	for (i = 8; i-- > 0; )
		heap_push(&h, i);
	for (i = 0; i < 8; i++) {
		CHECK_U64(h.v[0], i);
		heap_next(&h, 0);
	}
	CHECK_U64(h.n, 0);
	TEST_END("heap");
}
