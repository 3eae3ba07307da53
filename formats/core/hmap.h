/* SPDX-License-Identifier: ISC */
/*
 * hmap.h: a hash map from byte-string keys to pointers, with linear probing
 * and backward-shift deletion (no tombstones, so a map that sees many
 * inserts and deletes stays as small as what it holds).
 *
 * The map owns copies of its keys; values are the caller's.  Pointers
 * returned by hmap_get()/hmap_put() are valid until the next hmap_put() or
 * hmap_del().
 */
#ifndef GPUMEM_HMAP_H
#define GPUMEM_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct hent {
	uint64_t hash;
	char *key;		/* NULL: empty slot */
	size_t klen;
	void *val;
};

struct hmap {
	struct hent *e;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

#define HMAP_INIT { NULL, 0, 0 }

/* The value slot for key, or NULL when absent. */
void **hmap_get(const struct hmap *m, const void *key, size_t klen);
/* The value slot for key, added (with value NULL) when absent; *isnew says which. */
void **hmap_put(struct hmap *m, const void *key, size_t klen, int *isnew);
/* Remove key; return its value, or NULL when absent. */
void *hmap_del(struct hmap *m, const void *key, size_t klen);
/* Free the table and keys; call freeval on each value unless NULL. */
void hmap_release(struct hmap *m, void (*freeval)(void *));

/* Iterate: for (i = 0; (e = hmap_next(m, &i)) != NULL; ) ... */
struct hent *hmap_next(const struct hmap *m, size_t *i);

uint64_t hmap_hash(const void *key, size_t klen);

#endif
