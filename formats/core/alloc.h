/* SPDX-License-Identifier: ISC */
/*
 * alloc.h: checked allocation.  Functions named e*() never return on
 * failure: they print a message and exit with EXIT_TROUBLE; they are for
 * binaries, not for parsers, which return errors so the caller can name
 * the file and position.
 */
#ifndef GPUMEM_ALLOC_H
#define GPUMEM_ALLOC_H

#include <stddef.h>

/* Checked allocation: never return NULL. */
void *emalloc(size_t n);
void *ecalloc(size_t n, size_t size);
void *erealloc(void *p, size_t n);
void *ereallocarray(void *p, size_t n, size_t size);
/*
 * Room for element n of an array grown one element at a time (it holds n
 * now): the room doubles whenever n is 0 or a power of two, so adding n
 * elements copies O(n) bytes whatever the allocator (ASan's realloc always
 * copies).  Only for arrays grown by egrow() alone.
 */
void *egrow(void *p, size_t n, size_t size);

/*
 * A ring: cap elements, count of them in use from position head on,
 * wrapping at cap.  ring_at() is the index of the i-th in use (i < cap);
 * ering_grow() copies them, in order, to the start of a new array of ncap
 * elements (count <= ncap), frees the old one and returns the new: the
 * caller sets head to 0 and cap to ncap.
 */
static inline size_t
ring_at(size_t head, size_t i, size_t cap)
{
	size_t k = head + i;

	return k >= cap ? k - cap : k;
}
void *ering_grow(void *ring, size_t head, size_t count, size_t cap,
    size_t ncap, size_t size);

char *estrdup(const char *s);
char *estrndup(const char *s, size_t n);

#endif
