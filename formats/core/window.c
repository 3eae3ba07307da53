/* SPDX-License-Identifier: ISC */
/*
 * window.c: the reorder window as a sorted ring.
 *
 * Inputs are mostly in order, so a new record usually goes at the tail in
 * O(1); one that is a little early is moved back a few places (insertion
 * sort).  A heap would pay O(log n) for every record to save work in a case
 * that real logs rarely show.
 */
#include <stdlib.h>
#include <string.h>

#include "window.h"

#define INLINE_STR 56	/* host and name usually fit in the slot itself */

struct wslot {
	struct rec r;
	uint64_t seq;
	char *str;		/* host, name and gpukey, NUL-separated */
	size_t strcap;		/* of a heap buffer; 0 while str is inl */
	char inl[INLINE_STR];
};

#define NOSLOT UINT32_MAX

void
window_init(struct window *w, size_t cap)
{
	memset(w, 0, sizeof(*w));
	if (cap < 1)
		cap = 1;
	if (cap > UINT32_MAX / 2)
		cap = UINT32_MAX / 2;
	w->cap = cap;
	w->held = NOSLOT;
}

void
window_release(struct window *w)
{
	size_t i;

	for (i = 0; i < w->nslots; i++)
		if (w->slots[i]->strcap > 0)
			free(w->slots[i]->str);
	for (i = 0; i < w->nchunks; i++)
		free(w->chunks[i]);
	free(w->chunks);
	free(w->slots);
	free(w->ring);
	free(w->freel);
	memset(w, 0, sizeof(*w));
	w->held = NOSLOT;
}

/* Ring position i (0 = head) to an index into w->ring. */
static inline size_t
at(const struct window *w, size_t i)
{
	return ring_at(w->head, i, w->nslots);
}

static uint32_t
slot_get(struct window *w)
{
	size_t n, i, old = w->nslots;

	if (w->nfree > 0)
		return w->freel[--w->nfree];
	/*
	 * Grow the pool geometrically.  It ends near cap + 1 (one record
	 * may be held), plus the largest batch one parser step emits.
	 */
	n = old < 16 ? 16 : old * 2;
	if (old < w->cap + 1 && n > w->cap + 1)
		n = w->cap + 1;	/* where an ordered input stays */
	/* The ring's size is the pool's: unwrap it into a larger one. */
	w->ring = ering_grow(w->ring, w->head, w->count, old, n,
	    sizeof(*w->ring));
	w->head = 0;
	/*
	 * Slots come in chunks that never move (a popped record stays where
	 * it is while the window refills), contiguous for the cache.
	 */
	w->slots = ereallocarray(w->slots, n, sizeof(*w->slots));
	w->chunks = ereallocarray(w->chunks, w->nchunks + 1,
	    sizeof(*w->chunks));
	w->chunks[w->nchunks] = ecalloc(n - old, sizeof(struct wslot));
	for (i = old; i < n; i++) {
		w->slots[i] = &w->chunks[w->nchunks][i - old];
		w->slots[i]->str = w->slots[i]->inl;
	}
	w->nchunks++;
	w->freel = ereallocarray(w->freel, n, sizeof(*w->freel));
	for (i = n - 1; i > old; i--)
		w->freel[w->nfree++] = (uint32_t)i;
	w->nslots = n;
	return (uint32_t)old;
}

/*
 * n bytes from src to dst, and a NUL.  Not inlined: gcc expands a memcpy
 * of a length it knows a bound of into string instructions, whose start
 * costs more than libc's copy of the few bytes of a host or a name (a
 * capture's records spent a tenth of their time there).
 */
static __attribute__((noipa)) void
put_str(char *dst, const char *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Copy r into s; return 1 when a name or GPU key was cut to REC_MAXSTR. */
static int
slot_fill(struct wslot *s, const struct rec *r)
{
	/* A device's record has no name, most have no host: no call. */
	size_t hl = r->host[0] != '\0' ? strlen(r->host) : 0;
	size_t nl = r->name[0] != '\0' ? strlen(r->name) : 0;
	size_t kl = r->gpukey != NULL ? strlen(r->gpukey) : 0;
	size_t need;
	int cut = 0;

	if (hl > REC_MAXSTR || nl > REC_MAXSTR || kl > REC_MAXSTR) {
		hl = hl > REC_MAXSTR ? REC_MAXSTR : hl;
		nl = nl > REC_MAXSTR ? REC_MAXSTR : nl;
		kl = kl > REC_MAXSTR ? REC_MAXSTR : kl;
		cut = 1;
	}
	need = hl + nl + kl + 3;

	if (need > INLINE_STR && need > s->strcap) {
		if (s->strcap > 0)
			free(s->str);
		s->strcap = need < 256 ? 256 : need;
		s->str = emalloc(s->strcap);
	}
	s->r = *r;
	put_str(s->str, r->host, hl);
	if (nl > 0)
		put_str(s->str + hl + 1, r->name, nl);
	else
		s->str[hl + 1] = '\0';
	s->r.host = s->str;
	s->r.name = s->str + hl + 1;
	if (r->gpukey != NULL) {
		put_str(s->str + hl + nl + 2, r->gpukey, kl);
		s->r.gpukey = s->str + hl + nl + 2;
	}
	return cut;
}

static inline int
before(const struct wslot *a, const struct wslot *b)
{
	return a->r.ts < b->r.ts || (a->r.ts == b->r.ts && a->seq < b->seq);
}

int
window_push(struct window *w, const struct rec *r)
{
	uint32_t s;
	size_t i;
	int cut;

	if (w->popped && r->ts < w->last_out)
		return -1;
	s = slot_get(w);
	cut = slot_fill(w->slots[s], r);
	w->slots[s]->seq = w->seq++;
	/* Insertion from the tail: usually zero steps. */
	i = w->count;
	while (i > 0) {
		uint32_t prev = w->ring[at(w, i - 1)];

		if (!before(w->slots[s], w->slots[prev]))
			break;
		w->ring[at(w, i)] = prev;
		i--;
	}
	w->ring[at(w, i)] = s;
	w->count++;
	return cut;
}

const struct rec *
window_peek(const struct window *w)
{
	if (w->count == 0)
		return NULL;
	return &w->slots[w->ring[w->head]]->r;
}

void
window_pop(struct window *w)
{
	uint32_t s;

	if (w->count == 0)
		BUG("pop from an empty reorder window");
	s = w->ring[w->head];
	w->last_out = w->slots[s]->r.ts;
	w->popped = 1;
	w->head = at(w, 1);
	w->count--;
	if (w->held != NOSLOT)
		w->freel[w->nfree++] = w->held;
	w->held = s;
	/*
	 * The record after the next was pushed a window's length ago and
	 * has left the cache: fetch its slot now, while the input is read
	 * on, rather than wait for it when the merge peeks at it, copies it
	 * and compares its host.  A hint only: nothing depends on it.
	 */
	if (w->count > 1) {
		const char *n = (const char *)w->slots[w->ring[at(w, 1)]];

		__builtin_prefetch(n);
		__builtin_prefetch(n + 64);
		__builtin_prefetch(n + 128);
	}
}
