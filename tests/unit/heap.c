/* SPDX-License-Identifier: ISC */
/* Unit tests: the merges' heap (formats/core/heap.h). */
#include <stdint.h>
#include <stdlib.h>

#include "heap.h"
#include "test.h"

int
main(void)
{
	uint64_t key[64];
	struct heap_ent v[64];
	struct heap h = {v, 0};
	size_t i, n, last_i = 0;
	uint64_t last = 0;
	unsigned seed = 7;
	int sorted = 1;

	/* A merge of 64 inputs, each moving on by a random step. */
	for (i = 0; i < 64; i++) {
		seed = seed * 1103515245 + 12345;
		key[i] = (seed >> 16) % 100;
		heap_push(&h, i, key[i], i);
	}
	CHECK_U64(h.n, 64);
	for (n = 0; h.n > 0; n++) {
		i = h.v[0].i;
		CHECK_U64(h.v[0].ts, key[i]);
		/* Ties: the lower index first. */
		if (key[i] < last || (key[i] == last && i < last_i))
			sorted = 0;
		last = key[i];
		last_i = i;
		seed = seed * 1103515245 + 12345;
		key[i] += (seed >> 16) % 7;
		if (n % 5 != 4)
			heap_next(&h, key[i], i);
		else
			heap_end(&h);	/* every fifth ends */
	}
	CHECK(sorted);
	/* Ties: the lower tie first, whatever the order they came in. */
	for (i = 8; i-- > 0; )
		heap_push(&h, i, 5, i);
	for (i = 0; i < 8; i++) {
		CHECK_U64(h.v[0].i, i);
		heap_end(&h);
	}
	CHECK_U64(h.n, 0);
	/* The tie is the caller's, not the index (a lane of several inputs). */
	heap_push(&h, 0, 9, 3);
	heap_push(&h, 1, 9, 2);
	heap_push(&h, 2, 8, 7);
	CHECK_U64(h.v[0].i, 2);
	heap_next(&h, 9, 1);
	CHECK_U64(h.v[0].i, 2);
	heap_next(&h, 10, 1);
	CHECK_U64(h.v[0].i, 1);
	heap_end(&h);
	CHECK_U64(h.v[0].i, 0);
	heap_end(&h);
	CHECK_U64(h.v[0].i, 2);
	CHECK_U64(h.v[0].ts, 10);
	TEST_END("heap");
}
