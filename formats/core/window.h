/* SPDX-License-Identifier: ISC */
/*
 * window.h: a bounded reorder window for records that are mostly in time
 * order.
 *
 * Logs are almost sorted: rows of one poll come in any GPU order, and a
 * later row may carry an earlier time.  The window keeps up to `cap` records
 * sorted by (timestamp, arrival); the caller pops the earliest once the
 * window is full or the input has ended.  A record earlier than one already
 * popped fell outside the window: window_push() refuses it so the caller can
 * say so.  Memory is bounded by cap, never by the input's length.
 *
 * Records are copied in, strings included; the rec returned by
 * window_peek() stays valid until the second window_pop() after it (so a
 * popped record may be used while the window is refilled).
 */
#ifndef GPUMEM_WINDOW_H
#define GPUMEM_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "rec.h"

struct wslot;

struct window {
	struct wslot **slots;	/* the pool, grown up to cap + 1 */
	size_t nslots;
	struct wslot **chunks;	/* where the slots live */
	size_t nchunks;
	uint32_t *ring;		/* slot numbers in order, from head */
	size_t cap, head, count;
	uint32_t *freel;	/* free slot numbers */
	size_t nfree;
	uint32_t held;		/* slot of the last popped record, or -1 */
	uint64_t seq;
	uint64_t last_out;	/* timestamp of the last popped record */
	int popped;
};

/* Set up an empty window of at most cap records (cap >= 1). */
void window_init(struct window *w, size_t cap);
void window_release(struct window *w);

static inline int
window_full(const struct window *w)
{
	return w->count >= w->cap;
}

/*
 * Insert a copy of *r.  A full window still takes it (a parser step may
 * emit a batch: a frame of records, a document); the caller stops feeding
 * while window_full().  A host or process name (or a GPU key) longer than
 * REC_MAXSTR is cut to that in the copy.  Return 0, 1 when a name was cut, or -1 when r
 * is earlier than a record already popped (nothing is stored).
 */
int window_push(struct window *w, const struct rec *r);

/* The earliest record, or NULL when empty. */
const struct rec *window_peek(const struct window *w);

/* Remove the earliest record (see the lifetime note above). */
void window_pop(struct window *w);

#endif
