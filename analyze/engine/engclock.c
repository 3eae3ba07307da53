/* SPDX-License-Identifier: ISC */
/*
 * engclock.c: the clocks of a GPU's logs (engstate.h): the usual gap
 * between device samples and between process polls (a cadence, its
 * median), how long a device sample waits for the polls around it (the
 * lag), what counts as the same poll, and the levels of the judged
 * samples remembered.
 */
#include "engstate.h"

/*
 * The median of the n (at most NGAPS) gaps: the middle one of a sorted
 * copy, sorted by insertion (qsort's calls through a pointer cost three
 * times as much on 31 numbers, and this runs on the merge's thread).
 */
static uint64_t
median(const uint64_t *gaps, size_t n)
{
	uint64_t v[NGAPS];
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && v[j - 1] > gaps[i]; j--)
			v[j] = v[j - 1];
		v[j] = gaps[i];
	}
	return v[n / 2];
}

/*
 * A gap of the series: update the median, often enough to follow a
 * change, seldom enough to cost nothing.  Alone (eng_cadence_add does the
 * rest), a gap between two listings of one process: its loop's interval.
 */
void
eng_cadence_gap(struct cadence *c, uint64_t gap)
{
	c->gaps[c->gnext] = gap;
	c->gnext = (c->gnext + 1) % NGAPS;
	if (c->ngaps < NGAPS)
		c->ngaps++;
	if (c->ngaps < NGAPS || (c->n++ & 63) == 0)
		c->median = median(c->gaps, c->ngaps);
}

/* A new time of the series (the same time again is no gap). */
void
eng_cadence_add(struct cadence *c, uint64_t ts)
{
	if (c->have && ts > c->last) {
		eng_cadence_gap(c, ts - c->last);
		c->prev = c->last;
	}
	if (!c->have || ts > c->last)
		c->last = ts;
	c->have = 1;
}

/* a + b, or the largest time when that is past it (hostile times). */
uint64_t
eng_plus(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * The process loop's interval, 0 while unknown.  A poll that finds no
 * process prints nothing (compute-apps), so the gaps between polls that
 * printed may each span many: a log of short jobs, each listed once.  The
 * gaps between two listings of one process are the loop's (a process alive
 * at a poll is listed there); until one is seen the device loop's interval
 * is taken when shorter (gpumem record's two loops share one, as a user's
 * two loops with one -l do).
 */
uint64_t
eng_proc_iv(const struct gpu *g)
{
	if (g->proc.median == 0)
		return 0;
	if (g->cont.median != 0)
		return g->cont.median;
	return g->dev.median != 0 && g->dev.median < g->proc.median ?
	    g->dev.median : g->proc.median;
}

/*
 * How long a device sample waits before it is judged: until the process
 * poll after it is in (one and a half poll intervals), so that a process
 * that was gone by then, or had started, is known at the sample.
 */
uint64_t
eng_lag(const struct gpu *g)
{
	uint64_t iv = eng_proc_iv(g);

	if (iv == 0)
		iv = g->dev.median;
	if (iv > LAG_MAX)
		iv = LAG_MAX;
	return iv + iv / 2;
}

/*
 * How soon after a device sample a listing is of the same poll (one
 * program printed both: gpustat, -q -x, a GMEM frame, a wrapper's date
 * line): SAME_POLL, or a quarter of the sampling interval when that is
 * less.  Two loops are never that close for long.
 */
uint64_t
eng_same_poll(const struct gpu *g)
{
	uint64_t q = g->dev.median / 4;

	return q != 0 && q < SAME_POLL ? q : SAME_POLL;
}

/*
 * A start or end of a task on g, happened at t: samples after t may hold
 * it.  Records come in time order, but a sample is judged only once the
 * polls around it are in (eng_lag()): starts and ends read meanwhile may
 * have happened after it, so a sample counts those before its own time.
 */
void
eng_ev_add(struct gpu *g, uint64_t t)
{
	g->evt[g->nev % NEVT] = t;
	g->nev++;
}

/* The starts and ends on g that happened before ts, as far as read. */
static uint64_t
nev_at(const struct gpu *g, uint64_t ts)
{
	uint64_t n = g->nev, i;

	for (i = 0; i < NEVT && i < g->nev; i++)
		if (g->evt[(g->nev - 1 - i) % NEVT] >= ts)
			n--;
	return n;
}

/* The latest judged sample before t, or NULL. */
const struct hist *
eng_hist_before(const struct gpu *g, uint64_t t)
{
	size_t i;

	for (i = 0; i < g->nhist; i++) {
		const struct hist *h =
		    &g->hist[(g->hnext + NHIST - 1 - i) % NHIST];

		if (h->ts < t)
			return h;
	}
	return NULL;
}

/* The latest judged sample before t: its unattributed level. */
int
eng_level_before(const struct gpu *g, uint64_t t, int64_t *u, uint64_t *nev)
{
	const struct hist *h = eng_hist_before(g, t);

	if (h == NULL)
		return 0;
	*u = h->unattr;
	if (nev != NULL)
		*nev = h->nev;
	return 1;
}

void
eng_hist_add(struct gpu *g, uint64_t ts, int64_t unattr)
{
	struct hist *h = &g->hist[g->hnext];

	h->ts = ts;
	h->unattr = unattr;
	h->nev = nev_at(g, ts);
	g->hnext = (g->hnext + 1) % NHIST;
	if (g->nhist < NHIST)
		g->nhist++;
}
