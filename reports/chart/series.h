/* SPDX-License-Identifier: ISC */
/*
 * series.h: one GPU's memory curves, reduced as they stream to what a chart
 * of a given width can show.
 *
 * A chart W pixel columns wide draws at most W columns of a curve, and
 * what decides each column is the first and last value in it and its
 * extremes: keeping first, min, max and last per column (the "M4"
 * reduction) draws the same picture as the whole curve.  The time range is
 * not known in advance (standard input cannot be read twice), so the
 * columns adapt as data comes: bucket i holds [t0 + i*w, t0 + (i+1)*w),
 * and when a sample falls beyond the last of the cap buckets, w doubles
 * and neighbouring buckets merge pairwise, which keeps first, min, max
 * and last exact.  At the end the data fills more than cap/2 buckets (or
 * one bucket per sample when there are fewer), so a bucket is at most two
 * pixel columns wide, and every point keeps its own time.
 *
 * Memory is O(cap) per series, whatever the length of the input; a curve
 * gives at most 4 points per bucket, fewer once steps that do not change
 * the value are dropped.
 */
#ifndef GPUMEM_SERIES_H
#define GPUMEM_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* The curves of a GPU. */
enum ser_curve {
	SER_USAGE,		/* total - free */
	SER_ATTR,		/* held by live processes */
	SER_UNATTR,		/* usage - attributed */
	SER_TOTAL,		/* memory_total, the ceiling */
	SER_NCURVES
};

/* One curve in one bucket: first, min, max, last, with times and order. */
struct m4 {
	int has;
	uint64_t t[4];		/* first, min, max, last */
	uint64_t seq[4];	/* sample ordinals: order among equal times */
	int64_t v[4];
};

struct series {
	size_t cap;		/* buckets at most */
	size_t n;		/* buckets in use: [0, n) */
	uint64_t t0, w;		/* bucket i: [t0 + i*w, t0 + (i+1)*w) */
	uint64_t nsamples;
	struct m4 (*b)[SER_NCURVES];
};

/* A point of a reduced curve. */
struct spoint {
	uint64_t t;		/* ns since the epoch */
	int64_t v;		/* MiB */
};

/* Start an empty series of at most cap buckets (cap >= 2). */
void series_init(struct series *s, size_t cap);
void series_release(struct series *s);

/*
 * One sample at time t: v[c] for each curve c whose bit (1 << c) is set
 * in has.  Samples come in time order; one earlier than the first goes
 * into the first bucket (its time is kept).
 */
void series_put(struct series *s, uint64_t t, const int64_t *v,
    unsigned has);

/*
 * Merge buckets pairwise until at most cap are in use (cap >= 1): the
 * curves of a smaller chart, first, min, max and last still exact.
 */
void series_shrink(struct series *s, size_t cap);

/*
 * The reduced points of curve c in time order, for a chart drawn with
 * steps (a value holds until the next point): points that repeat the
 * previous value are dropped, the last one is kept.  out must have room
 * for 4 * s->cap points.  Return the number written.
 */
size_t series_points(const struct series *s, enum ser_curve c,
    struct spoint *out);

#endif
