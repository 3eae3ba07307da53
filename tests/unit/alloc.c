/* SPDX-License-Identifier: ISC */
/* Unit tests: arrays and rings grown (formats/core/alloc.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "test.h"

/* A ring of cap ints, count of them from head, holding 100, 101... */
static int *
ring_of(size_t cap, size_t head, size_t count)
{
	int *r = ecalloc(cap, sizeof(*r));
	size_t i;

	for (i = 0; i < count; i++)
		r[ring_at(head, i, cap)] = 100 + (int)i;
	return r;
}

/* Whether r[0..count) holds 100, 101... in order. */
static int
in_order(const int *r, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (r[i] != 100 + (int)i)
			return 0;
	return 1;
}

int
main(void)
{
	int *r, *p = NULL;
	size_t i;

	/* ring_at wraps at cap, once. */
	CHECK_U64(ring_at(0, 0, 4), 0);
	CHECK_U64(ring_at(2, 1, 4), 3);
	CHECK_U64(ring_at(3, 1, 4), 0);
	CHECK_U64(ring_at(3, 3, 4), 2);

	/* Grown while wrapped: the oldest first, then the wrapped part. */
	r = ring_of(4, 3, 4);
	CHECK(r[3] == 100 && r[0] == 101);
	r = ering_grow(r, 3, 4, 4, 8, sizeof(*r));
	CHECK(in_order(r, 4));
	free(r);

	/* Not wrapped, head inside: copied from head. */
	r = ring_of(8, 2, 5);
	r = ering_grow(r, 2, 5, 8, 16, sizeof(*r));
	CHECK(in_order(r, 5));
	free(r);

	/* Full from 0, and empty (the first growth of a NULL ring). */
	r = ring_of(5, 0, 5);
	r = ering_grow(r, 0, 5, 5, 10, sizeof(*r));
	CHECK(in_order(r, 5));
	free(r);
	r = ering_grow(NULL, 0, 0, 0, 64, sizeof(*r));
	CHECK(r != NULL);
	free(r);

	/* egrow: room for element n whenever it is asked. */
	for (i = 0; i < 1000; i++) {
		p = egrow(p, i, sizeof(*p));
		p[i] = 100 + (int)i;
	}
	CHECK(in_order(p, 1000));
	free(p);

	TEST_END("alloc");
}
