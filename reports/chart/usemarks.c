/* SPDX-License-Identifier: ISC */
/*
 * usemarks.c: the marks of a usage chart's panel and where their labels
 * go (chartint.h): no label over another or over a curve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "chart.h"
#include "esc.h"
#include "gpumap.h"
#include "gtime.h"
#include "series.h"
#include "util.h"

#include "chartint.h"

/* --- The usage chart --- */

/*
 * Where the labels of a panel lie: bands of text (a band is a row of
 * labels, or a line of text; band 0 lowest) by columns of the plot (a
 * pixel, in text a character), a byte a cell, set where a label is.  A
 * label takes its cells when all are free: what a placement costs is
 * its own cells, never the other labels, so a panel's labels cost
 * linear time in their number.
 */
struct grid {
	size_t nband, ncol;
	unsigned char *cell;	/* nband * ncol */
	double xmin, xpp;	/* x of column 0, x units a column */
};

static void
grid_init(struct grid *g, size_t nband, double xmin, double xmax, double xpp)
{
	g->nband = nband;
	g->ncol = (size_t)((xmax - xmin) / xpp) + 2;
	g->xmin = xmin;
	g->xpp = xpp;
	g->cell = ecalloc(nband * g->ncol + 1, 1);
}

/* The columns [*c0, *c1) of [x0, x1], within the plot. */
static void
grid_cols(const struct grid *g, double x0, double x1, size_t *c0, size_t *c1)
{
	double a = (x0 - g->xmin) / g->xpp + 0.5, b = (x1 - g->xmin) / g->xpp +
	    0.5;

	*c0 = a <= 0 ? 0 : a >= (double)g->ncol ? g->ncol : (size_t)a;
	*c1 = b <= 0 ? 0 : b >= (double)g->ncol ? g->ncol : (size_t)b;
}

/*
 * Bands band..band+k over [x0, x1]: free (all taken when take), 1, or
 * 0 when one cell is taken.
 */
static int
grid_try(struct grid *g, size_t band, size_t k, double x0, double x1,
    int take)
{
	size_t b, c, c0, c1;

	if (band + k > g->nband)
		return 0;
	grid_cols(g, x0, x1, &c0, &c1);
	for (b = band; b < band + k; b++)
		for (c = c0; c < c1; c++)
			if (g->cell[b * g->ncol + c])
				return 0;
	if (take)
		for (b = band; b < band + k; b++)
			memset(g->cell + b * g->ncol + c0, 1, c1 - c0);
	return 1;
}

/*
 * The first row of labels at the top (0 highest) where a label over
 * [x, x + w] overlaps no other, taken; -1 when there is none (the label
 * is left out: its band still shows).
 */
static int
pick_row(struct grid *g, double x, double w)
{
	size_t k;

	for (k = 0; k < g->nband; k++)
		if (grid_try(g, k, 1, x, x + w, 1))
			return (int)k;
	return -1;
}

static int
by_interest_t(const void *a, const void *b)
{
	return task_interest(a, b);
}

int
by_end(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* A marked task's label: "4242 python3 launch.py" (the panel says the GPU). */
static char *
mark_label(const struct task *t, int nhosts, char *buf, size_t cap)
{
	char *sp;

	chart_task_label(t, nhosts, LABEL_CHARS, buf, cap);
	if ((sp = strchr(buf, ' ')) != NULL)
		memmove(buf, sp + 1, strlen(sp + 1) + 1);
	return buf;
}

/*
 * The top of a panel's y axis (MiB): room above the curves for nrows
 * rows of labels; they may cross the ceiling's dashed line, not the
 * curves.
 */
static double
panel_top(const struct gpuview *v, int nrows)
{
	double top = (double)v->umax / (1 - ROW_STEP * nrows - 0.03);

	if (top < (double)v->ymax * 1.04)
		top = (double)v->ymax * 1.04;
	return top;
}

/*
 * The x of each bucket's start of v's curves, and of the end of the
 * last (v->ser.n + 1 values, to be freed): where a label's x range
 * finds the buckets under it.
 */
static double *
bucket_xs(const struct chart *ch, const struct gpuview *v)
{
	const struct series *s = &v->ser;
	double *bx = ereallocarray(NULL, s->n + 1, sizeof(*bx));
	size_t i;

	for (i = 0; i <= s->n; i++)
		bx[i] = xval(s->t0 + i * s->w, ch->utc);
	return bx;
}

/* The last bucket starting at or before x (0 when none does). */
static size_t
bucket_at(const double *bx, size_t n, double x)
{
	size_t lo = 0, hi = n;	/* the answer is in [lo, hi) */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (bx[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Where v's curves run under [x0, x1] of the axis: the lowest and
 * highest height of each (graph fractions of top MiB), from the value it
 * holds at x0 (a step's) to x1; lo > hi for a curve not there.
 */
struct span {
	double lo[SER_NCURVES], hi[SER_NCURVES];
};

static void
curve_span(const struct gpuview *v, const double *bx, double x0, double x1,
    double top, struct span *sp)
{
	const struct series *s = &v->ser;
	size_t i, i0, i1;
	int c;

	for (c = 0; c < SER_NCURVES; c++) {
		sp->lo[c] = 2;
		sp->hi[c] = -1;
	}
	if (s->b == NULL || s->n == 0 || top <= 0)
		return;
	i0 = bucket_at(bx, s->n, x0);
	i1 = bucket_at(bx, s->n, x1);
	for (c = 0; c < SER_NCURVES; c++) {
		/* The value held at x0: the last before it. */
		for (i = i0; i-- > 0;)
			if (s->b[i][c].has) {
				sp->lo[c] = sp->hi[c] = (double)s->b[i][c].v[3] /
				    top;
				break;
			}
		for (i = i0; i <= i1; i++) {
			const struct m4 *m = &s->b[i][c];

			if (!m->has)
				continue;
			if ((double)m->v[1] / top < sp->lo[c])
				sp->lo[c] = (double)m->v[1] / top;
			if ((double)m->v[2] / top > sp->hi[c])
				sp->hi[c] = (double)m->v[2] / top;
		}
	}
}

/* Heights [y0, y1] keep clear of the curves of sp: none runs through. */
static int
span_clear(const struct span *sp, double y0, double y1)
{
	int c;

	for (c = 0; c < SER_NCURVES; c++)
		if (sp->lo[c] <= sp->hi[c] && sp->lo[c] < y1 && sp->hi[c] > y0)
			return 0;
	return 1;
}

/*
 * The band (of g: lines of text from the axis up) where a leak label of
 * k lines over [x0, x1] goes: the nearest to its wish (the middle of
 * its block, height y) above it, else below, where it overlaps no other
 * label and no curve; taken.  -1 when there is none: the label is left
 * out (its block still shows, and its tooltip).  A try costs the
 * label's cells, and the bands are few: linear in the labels.
 */
static int
place_leak(struct grid *g, const struct span *sp, size_t k, double x0,
    double x1, double y, double line)
{
	double w = y / line - (double)k / 2 + 0.5;
	size_t want = w <= 0 ? 0 : (size_t)w, i, b;

	if (g->nband < k)
		return -1;
	if (want > g->nband - k)
		want = g->nband - k;
	for (i = 0; i < g->nband; i++) {
		b = want + i < g->nband ? want + i : g->nband - 1 - i;
		if (span_clear(sp, (double)b * line, (double)(b + k) * line) &&
		    grid_try(g, b, k, x0, x1, 1))
			return (int)b;
	}
	return -1;
}

/*
 * The marks of one panel: a line at each marked task's end, the time its
 * memory stayed held as a band, leaked memory as blocks under the
 * unattributed curve.  Labels: the others in rows at the top, given out
 * in order of interest, so that when they are too many for the rows the
 * leaks and the longest delays keep theirs; then a leak's on its block,
 * or in the nearest line of text above it (else below) where it
 * overlaps no other label and no curve runs through it (close leaks
 * have thin blocks close together), or nowhere when there is no such
 * line: a label never hides data or another.  xmin..xmax is the time
 * axis, xpp the time of a pixel (a character in text).  Return the top
 * of the y axis (MiB), which leaves room for the rows used.
 */
double
panel_marks(struct sbuf *sb, const struct chart *ch, const struct gpuview *v,
    int nhosts, double xpp, double xmin, double xmax)
{
	struct task *m;
	struct grid rows, leaks;
	char label[160], text[256], d[32];
	int64_t leaked = 0, lo;
	double charw = ch->term == TERM_DUMB ? 1 : CHAR_PX, top, *bx = NULL;
	/* A line of text in graph height: a row of labels, in text one. */
	double line = ch->term == TERM_DUMB ? 1.0 / (ch->height > 8 ?
	    ch->height - 6 : 2) : ROW_STEP * 0.7;
	size_t i;
	int id, nrows = 0, k;

	if (v->nmarks == 0)
		return panel_top(v, 0);
	m = emalloc(v->nmarks * sizeof(*m));
	memcpy(m, v->marks, v->nmarks * sizeof(*m));
	/* The other labels, most interesting first (after the leaks' ids). */
	qsort(m, v->nmarks, sizeof(*m), by_interest_t);
	id = 2 * (int)v->nmarks + 1;
	grid_init(&rows, LABEL_ROWS, xmin, xmax, xpp);
	for (i = 0; i < v->nmarks; i++, id++) {
		const struct task *t = &m[i];
		double xe = xval(t->end, ch->utc), w;
		int row, right;

		if (t->status == TASK_LEAKED && t->has_leaked)
			continue;
		mark_label(t, nhosts, label, sizeof(label));
		if (t->status == TASK_LEAKED)
			snprintf(text, sizeof(text), "%s: leaked", label);
		else
			snprintf(text, sizeof(text), "%s: %s s", label,
			    t->interval != 0 ? tasktab_delay(t->delay,
			    t->interval, d) : gtime_fmt_secs(t->delay, d));
		w = (chart_width(text) + 1) * charw * xpp;
		/* Near the right edge the text ends at the mark. */
		right = xe + w > xmax && xe - w >= xmin;
		if ((row = pick_row(&rows, right ? xe - w : xe, w)) < 0)
			continue;
		if (row + 1 > nrows)
			nrows = row + 1;
		sbuf_printf(sb, "set label %d ", id);
		esc_gnuplot(sb, text, 0);
		sbuf_printf(sb, " at %.3f, graph %.3f %s tc rgb '%s' front\n",
		    xe, 0.96 - ROW_STEP * (row + 0.5), right ?
		    "right offset -1,0" : "left offset 1,0", C_HELD_TEXT);
	}
	free(rows.cell);
	top = panel_top(v, nrows);
	/* Leak labels: in lines of text up to the rows at the top. */
	grid_init(&leaks, (size_t)((nrows > 0 ? 0.96 - ROW_STEP * nrows :
	    0.97) / line), xmin, xmax, xpp);
	qsort(m, v->nmarks, sizeof(*m), by_end);
	/*
	 * Leaked memory is stacked under the unattributed curve at the end
	 * of the log, the earliest leak lowest: the curve then runs along
	 * the top of the blocks.
	 */
	for (i = 0; i < v->nmarks; i++)
		if (m[i].status == TASK_LEAKED && m[i].has_leaked)
			leaked += m[i].leaked;
	lo = v->unattr_last - leaked;
	if (lo < 0)
		lo = 0;
	for (i = 0, id = 1; i < v->nmarks; i++, id++) {
		const struct task *t = &m[i];
		double xe = xval(t->end, ch->utc);

		sbuf_printf(sb, "set arrow %d from %.3f, graph 0 to %.3f, "
		    "graph %s nohead dashtype 3 lc rgb '%s' back\n", id,
		    xe, xe, ch->term == TERM_DUMB ? "0.97" : "1", C_END);
		if (t->status == TASK_RELEASED && t->delay > 0)
			sbuf_printf(sb, "set object %d rect from %.3f, graph 0 "
			    "to %.3f, graph 1 fc rgb '%s' fs transparent solid "
			    "0.25 noborder behind\n", id, xe, xval(t->release,
			    ch->utc), C_HELD);
		if (t->status == TASK_LEAKED && t->has_leaked) {
			int right, split, band;
			double x0, y;
			struct span sp;

			sbuf_printf(sb, "set object %d rect from %.3f, "
			    "(%lld/unit) to %.3f, (%lld/unit) fc rgb '%s' "
			    "fs transparent solid 0.35 border lc rgb '%s' "
			    "behind\n", id, xe, (long long)lo,
			    xval(v->last, ch->utc), (long long)(lo + t->leaked),
			    C_LEAK, C_LEAK);
			mark_label(t, nhosts, label, sizeof(label));
			chart_leak_text(t, ch->tolerance, ", ", text,
			    sizeof(text));
			/*
			 * On the block: one line when it fits, else the task
			 * above what it leaked, ending at the end of the axis
			 * when even that is too long.
			 */
			k = chart_width(label) + chart_width(text) + 3;
			split = xe + k * charw * xpp > xmax;
			if (split)
				k = (int)(chart_width(label) >
				    chart_width(text) ? chart_width(label) :
				    chart_width(text)) + 2;
			right = xe + k * charw * xpp > xmax;
			x0 = right ? xmax - k * charw * xpp : xe;
			/* On its block, but above the axis. */
			y = top > 0 ? ((double)lo + t->leaked / 2.0) / top :
			    0.5;
			if (y < line * (split ? 1 : 0.5))
				y = line * (split ? 1 : 0.5);
			if (bx == NULL)
				bx = bucket_xs(ch, v);
			/* The text: a character in from each end of the box. */
			curve_span(v, bx, x0 + charw * xpp, x0 + (k - 1) * charw *
			    xpp, top, &sp);
			lo += t->leaked;
			band = place_leak(&leaks, &sp, split ? 2 : 1, x0,
			    x0 + k * charw * xpp, y, line);
			if (band < 0)
				continue;
			y = (band + (split ? 1 : 0.5)) * line;
			sbuf_printf(sb, "set label %d ", id);
			if (split)
				esc_gnuplot(sb, label, 0);
			else {
				struct sbuf one = SBUF_INIT;

				sbuf_printf(&one, "%s: %s", label, text);
				esc_gnuplot(sb, one.buf, 0);
				sbuf_release(&one);
			}
			sbuf_printf(sb, " at %.3f, graph %.3f %s offset %d,%s "
			    "tc rgb '%s' front\n", right ? xmax : xe, y, right ?
			    "right" : "left", right ? -1 : 1, !split ? "0" :
			    ch->term == TERM_DUMB ? "1" : "0.6", C_LEAK_TEXT);
			if (split) {
				sbuf_printf(sb, "set label %zu ", v->nmarks + id);
				esc_gnuplot(sb, text, 0);
				sbuf_printf(sb, " at %.3f, graph %.3f %s offset "
				    "%d,%s tc rgb '%s' front\n", right ? xmax :
				    xe, y, right ? "right" : "left", right ? -1 :
				    1, ch->term == TERM_DUMB ? "-1" : "-0.6",
				    C_LEAK_TEXT);
			}
		}
	}
	free(leaks.cell);
	free(bx);
	free(m);
	return top;
}
