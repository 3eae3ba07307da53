/* SPDX-License-Identifier: ISC */
/* alloc.c: checked allocation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void *
emalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
ecalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *
erealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		die("out of memory (%zu bytes)", n);
	return q;
}

void *
ereallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		die("out of memory (%zu x %zu bytes)", n, size);
	return erealloc(p, n * size);
}

void *
egrow(void *p, size_t n, size_t size)
{
	if (n != 0 && (n & (n - 1)) != 0)
		return p;	/* the room is the next power of two: some left */
	return ereallocarray(p, n != 0 ? 2 * n : 1, size);
}

void *
ering_grow(void *ring, size_t head, size_t count, size_t cap, size_t ncap,
    size_t size)
{
	char *n = ereallocarray(NULL, ncap, size);
	size_t first;

	if (count > ncap || count > cap || (count > 0 && head >= cap))
		BUG("ring of %zu from %zu in %zu into %zu", count, head, cap,
		    ncap);
	/* The part from head to the end of the array, then the wrapped. */
	first = count < cap - head ? count : cap - head;
	if (first > 0)
		memcpy(n, (char *)ring + head * size, first * size);
	if (count > first)
		memcpy(n + first * size, ring, (count - first) * size);
	free(ring);
	return n;
}

char *
estrdup(const char *s)
{
	return estrndup(s, strlen(s));
}

char *
estrndup(const char *s, size_t n)
{
	char *p = emalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
