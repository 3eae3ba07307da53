/* SPDX-License-Identifier: ISC */
/* series.c: adaptive min/max-per-column reduction of memory curves. */
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "util.h"

enum { FIRST, MIN, MAX, LAST };

void
series_init(struct series *s, size_t cap)
{
	if (cap < 2)
		BUG("series_init: cap %zu", cap);
	memset(s, 0, sizeof(*s));
	s->cap = cap;
	s->w = 1;
	s->b = ecalloc(cap, sizeof(*s->b));
}

void
series_release(struct series *s)
{
	free(s->b);
	memset(s, 0, sizeof(*s));
}

/* Fold b (later in time) into a. */
static void
m4_merge(struct m4 *a, const struct m4 *b)
{
	if (!b->has)
		return;
	if (!a->has) {
		*a = *b;
		return;
	}
	if (b->v[MIN] < a->v[MIN]) {
		a->v[MIN] = b->v[MIN];
		a->t[MIN] = b->t[MIN];
		a->seq[MIN] = b->seq[MIN];
	}
	if (b->v[MAX] > a->v[MAX]) {
		a->v[MAX] = b->v[MAX];
		a->t[MAX] = b->t[MAX];
		a->seq[MAX] = b->seq[MAX];
	}
	a->v[LAST] = b->v[LAST];
	a->t[LAST] = b->t[LAST];
	a->seq[LAST] = b->seq[LAST];
}

/* Double the bucket width: bucket i becomes the union of 2i and 2i+1. */
static void
widen(struct series *s)
{
	size_t i, n = (s->n + 1) / 2;
	int c;

	for (i = 0; i < n; i++)
		for (c = 0; c < SER_NCURVES; c++) {
			struct m4 m = s->b[2 * i][c];

			if (2 * i + 1 < s->n)
				m4_merge(&m, &s->b[2 * i + 1][c]);
			s->b[i][c] = m;
		}
	memset(s->b + n, 0, (s->n - n) * sizeof(*s->b));
	s->n = n;
	s->w *= 2;
}

void
series_shrink(struct series *s, size_t cap)
{
	while (s->n > cap && s->n > 1)
		widen(s);
}

void
series_put(struct series *s, uint64_t t, const int64_t *v, unsigned has)
{
	uint64_t seq = s->nsamples++;
	size_t i;
	int c;

	if (seq == 0)
		s->t0 = t;
	i = 0;
	if (t > s->t0) {
		/* Widen until the sample's bucket exists. */
		while ((t - s->t0) / s->w >= s->cap)
			widen(s);
		i = (size_t)((t - s->t0) / s->w);
	}
	if (i >= s->n)
		s->n = i + 1;
	for (c = 0; c < SER_NCURVES; c++) {
		struct m4 *m = &s->b[i][c];
		int k;

		if (!(has & (1U << c)))
			continue;
		if (!m->has) {
			m->has = 1;
			for (k = 0; k < 4; k++) {
				m->t[k] = t;
				m->seq[k] = seq;
				m->v[k] = v[c];
			}
			continue;
		}
		if (v[c] < m->v[MIN]) {
			m->v[MIN] = v[c];
			m->t[MIN] = t;
			m->seq[MIN] = seq;
		}
		if (v[c] > m->v[MAX]) {
			m->v[MAX] = v[c];
			m->t[MAX] = t;
			m->seq[MAX] = seq;
		}
		m->v[LAST] = v[c];
		m->t[LAST] = t;
		m->seq[LAST] = seq;
	}
}

size_t
series_points(const struct series *s, enum ser_curve c, struct spoint *out)
{
	size_t i, n = 0;
	int have_prev = 0;
	int64_t prev = 0;
	struct spoint lastp = {0, 0};

	for (i = 0; i < s->n; i++) {
		const struct m4 *m = &s->b[i][c];
		int ord[4] = {FIRST, MIN, MAX, LAST};
		int j, k;

		if (!m->has)
			continue;
		/* The four in the order they happened (a sorting network). */
		for (j = 1; j < 4; j++)
			for (k = j; k > 0 && m->seq[ord[k]] < m->seq[ord[k - 1]];
			    k--) {
				int x = ord[k];

				ord[k] = ord[k - 1];
				ord[k - 1] = x;
			}
		for (j = 0; j < 4; j++) {
			int p = ord[j];

			if (j > 0 && m->seq[p] == m->seq[ord[j - 1]])
				continue;	/* the same sample */
			lastp.t = m->t[p];
			lastp.v = m->v[p];
			if (have_prev && m->v[p] == prev)
				continue;	/* a step that changes nothing */
			out[n++] = lastp;
			prev = m->v[p];
			have_prev = 1;
		}
	}
	/* Keep the end of the last step, so the curve reaches it. */
	if (have_prev && (n == 0 || out[n - 1].t != lastp.t))
		out[n++] = lastp;
	return n;
}
