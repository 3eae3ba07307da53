/* SPDX-License-Identifier: ISC */
/* hmap.c: open-addressing hash map with backward-shift deletion. */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "util.h"

/*
 * Eight bytes at a time, each mixed in with a multiply and a shift: keys
 * here are UUIDs, host names and packed integers, hashed once per record
 * on hot paths, so a byte-at-a-time hash costs more than it should.
 */
uint64_t
hmap_hash(const void *key, size_t klen)
{
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (klen * 0xff51afd7ed558ccdULL);
	uint64_t v;

	while (klen >= 8) {
		memcpy(&v, p, 8);
		h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
		p += 8;
		klen -= 8;
	}
	if (klen > 0) {
		v = 0;
		memcpy(&v, p, klen);
		h = (h ^ v) * 0x94d049bb133111ebULL;
		h ^= h >> 29;
	}
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return h;
}

static struct hent *
find(const struct hmap *m, const void *key, size_t klen, uint64_t h)
{
	size_t mask = m->cap - 1, i;

	if (m->cap == 0)
		return NULL;
	for (i = h & mask;; i = (i + 1) & mask) {
		struct hent *e = &m->e[i];

		if (e->key == NULL)
			return e;
		if (e->hash == h && e->klen == klen &&
		    memcmp(e->key, key, klen) == 0)
			return e;
	}
}

void **
hmap_get(const struct hmap *m, const void *key, size_t klen)
{
	struct hent *e = find(m, key, klen, hmap_hash(key, klen));

	return e != NULL && e->key != NULL ? &e->val : NULL;
}

static void
grow(struct hmap *m)
{
	struct hent *old = m->e;
	size_t oldcap = m->cap, i;

	m->cap = oldcap == 0 ? 16 : oldcap * 2;
	m->e = ecalloc(m->cap, sizeof(*m->e));
	for (i = 0; i < oldcap; i++)
		if (old[i].key != NULL)
			*find(m, old[i].key, old[i].klen, old[i].hash) = old[i];
	free(old);
}

void **
hmap_put(struct hmap *m, const void *key, size_t klen, int *isnew)
{
	uint64_t h = hmap_hash(key, klen);
	struct hent *e;

	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	e = find(m, key, klen, h);
	if (e->key != NULL) {
		if (isnew != NULL)
			*isnew = 0;
		return &e->val;
	}
	e->hash = h;
	e->key = emalloc(klen + 1);
	memcpy(e->key, key, klen);
	e->key[klen] = '\0';
	e->klen = klen;
	e->val = NULL;
	m->n++;
	if (isnew != NULL)
		*isnew = 1;
	return &e->val;
}

void *
hmap_del(struct hmap *m, const void *key, size_t klen)
{
	struct hent *e = find(m, key, klen, hmap_hash(key, klen));
	size_t mask, i, j;
	void *val;

	if (e == NULL || e->key == NULL)
		return NULL;
	val = e->val;
	free(e->key);
	e->key = NULL;
	m->n--;
	/* Move later entries of the probe run back into the hole. */
	mask = m->cap - 1;
	i = (size_t)(e - m->e);
	for (j = (i + 1) & mask; m->e[j].key != NULL; j = (j + 1) & mask) {
		size_t home = m->e[j].hash & mask;

		/* Entry j may move to i if its home is not in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->e[i] = m->e[j];
			m->e[j].key = NULL;
			i = j;
		}
	}
	return val;
}

void
hmap_release(struct hmap *m, void (*freeval)(void *))
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->e[i].key != NULL) {
			free(m->e[i].key);
			if (freeval != NULL)
				freeval(m->e[i].val);
		}
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}

struct hent *
hmap_next(const struct hmap *m, size_t *i)
{
	while (*i < m->cap) {
		struct hent *e = &m->e[(*i)++];

		if (e->key != NULL)
			return e;
	}
	return NULL;
}
