/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: the streaming min/max-per-column reduction (series.h).
 *
 * The reduced curve must draw what the whole curve draws: in every final
 * bucket (a pixel column or half of one), the steps of the reduced points
 * reach exactly the lowest and highest values the steps of all the
 * samples reach, and it must stay within 4 points a bucket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "test.h"

#define N 200000

static uint64_t ts[N];
static int64_t vs[N];

/*
 * The range [lo, hi] a step curve (points t[i], v[i], in time order, each
 * value holding until the next point) takes in [a, b).  Return 0 when the
 * curve has not started by b.
 */
static int
range(const uint64_t *t, const int64_t *v, size_t n, uint64_t a, uint64_t b,
    int64_t *lo, int64_t *hi)
{
	size_t i;
	int have = 0;

	for (i = 0; i < n; i++) {
		const uint64_t ti = t[i];
		const int64_t vi = v[i];
		int in = ti >= a && ti < b;
		/* The point before the window holds into it. */
		int carried = ti < a && (i + 1 == n || t[i + 1] > a);

		if (ti >= b)
			break;
		if (!in && !carried)
			continue;
		if (!have || vi < *lo)
			*lo = vi;
		if (!have || vi > *hi)
			*hi = vi;
		have = 1;
	}
	return have;
}

/* Check curve c of s against the samples ts/vs[0..n). */
static void
check_curve(const struct series *s, size_t n)
{
	struct spoint *p = malloc(4 * s->cap * sizeof(*p));
	size_t np = series_points(s, SER_USAGE, p), i, bad = 0;
	uint64_t *pt = malloc((np + 1) * sizeof(*pt));
	int64_t *pv = malloc((np + 1) * sizeof(*pv));

	for (i = 0; i < np; i++) {
		pt[i] = p[i].t;
		pv[i] = p[i].v;
	}

	CHECK(np <= 4 * s->cap);
	CHECK(np > 0);
	for (i = 1; i < np; i++)
		if (p[i].t < p[i - 1].t)
			bad++;
	CHECK_U64(bad, 0);
	CHECK_U64(p[0].t, ts[0]);
	CHECK(p[0].v == vs[0]);
	CHECK_U64(p[np - 1].t, ts[n - 1]);
	CHECK(p[np - 1].v == vs[n - 1]);
	/* Every bucket: the same extremes. */
	bad = 0;
	for (i = 0; i < s->n; i++) {
		uint64_t a = s->t0 + i * s->w, b = a + s->w;
		int64_t lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
		int h1 = range(ts, vs, n, a, b, &lo1, &hi1);
		int h2 = range(pt, pv, np, a, b, &lo2, &hi2);

		if (h1 != h2 || lo1 != lo2 || hi1 != hi2)
			bad++;
	}
	CHECK_U64(bad, 0);
	free(pt);
	free(pv);
	free(p);
}

int
main(void)
{
	struct series s;
	struct spoint p[64];
	int64_t v[SER_NCURVES] = {0, 0, 0, 0};
	uint64_t x = 88172645463325252ULL;
	size_t i, np;

	/* Empty, and one sample. */
	series_init(&s, 16);
	CHECK_U64(series_points(&s, SER_USAGE, p), 0);
	v[SER_USAGE] = 42;
	series_put(&s, 1000, v, 1U << SER_USAGE);
	np = series_points(&s, SER_USAGE, p);
	CHECK_U64(np, 1);
	CHECK_U64(p[0].t, 1000);
	CHECK(p[0].v == 42);
	/* A curve that was never given has no points. */
	CHECK_U64(series_points(&s, SER_TOTAL, p), 0);
	series_release(&s);

	/* A constant curve of a million samples: its two ends. */
	series_init(&s, 16);
	v[SER_TOTAL] = 16384;
	for (i = 0; i < 1000000; i++)
		series_put(&s, 5000000000ULL + i * 100000000ULL, v,
		    1U << SER_TOTAL);
	np = series_points(&s, SER_TOTAL, p);
	CHECK_U64(np, 2);
	CHECK_U64(p[0].t, 5000000000ULL);
	CHECK_U64(p[1].t, 5000000000ULL + 999999ULL * 100000000ULL);
	CHECK(s.n <= 16 && s.n > 8);
	CHECK_U64(s.nsamples, 1000000);
	series_release(&s);

	/* A random walk with jumps and jittered times: exact per bucket. */
	for (i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ts[i] = 1767225600000000000ULL + i * 100000000ULL + x % 50000000;
		vs[i] = (i > 0 ? vs[i - 1] : 1000) + (int64_t)(x % 201) - 100;
		if (x % 997 == 0)
			vs[i] += 8000;		/* a spike */
	}
	series_init(&s, 300);
	for (i = 0; i < N; i++) {
		v[SER_USAGE] = vs[i];
		series_put(&s, ts[i], v, 1U << SER_USAGE);
	}
	CHECK(s.n <= 300 && s.n > 150);
	check_curve(&s, N);
	series_release(&s);

	/* Few samples over a long time: one bucket each, all kept. */
	series_init(&s, 1000);
	for (i = 0; i < 50; i++) {
		v[SER_USAGE] = vs[i];
		series_put(&s, ts[i] + i * 3600000000000ULL, v, 1U << SER_USAGE);
		ts[i] += i * 3600000000000ULL;
	}
	check_curve(&s, 50);
	np = series_points(&s, SER_USAGE, p);
	CHECK(np >= 45);
	series_release(&s);

	/* Equal times keep their order of arrival (usage --every buckets). */
	series_init(&s, 8);
	v[SER_USAGE] = 1;
	series_put(&s, 100, v, 1U << SER_USAGE);
	v[SER_USAGE] = 9;
	series_put(&s, 100, v, 1U << SER_USAGE);
	v[SER_USAGE] = 5;
	series_put(&s, 100, v, 1U << SER_USAGE);
	np = series_points(&s, SER_USAGE, p);
	CHECK_U64(np, 3);
	CHECK(p[0].v == 1 && p[1].v == 9 && p[2].v == 5);
	series_release(&s);
	TEST_END("series");
}
