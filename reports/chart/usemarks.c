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
 * Try a marker over [at, at + w] in row (within [xmin, xmax]): taken,
 * 1, or 0 when it would cover another or leave the plot.
 */
static int
try_place(struct grid *g, size_t row, double at, double w, double xmin,
    double xmax)
{
	return at >= xmin && at + w <= xmax && grid_try(g, row, 1, at,
	    at + w, 1);
}

/*
 * Where a marker over [*x, *x + w] goes: the first row (0 highest) free
 * there or up to MARK_NEAR half markers aside (a few rows of markers
 * close to their lines rather than a column of them, which would squeeze
 * the curves); else the nearest place free in any row, a half marker
 * aside at a time, at most MARK_SLIDE steps, within [xmin, xmax].  Taken, *x moved
 * there; -1 when there is none.  Each try costs the marker's cells: the
 * steps and rows are bounded, so a marker costs its width.
 */
static int
pick_place(struct grid *g, double *x, double w, double xmin, double xmax)
{
	size_t row;
	int j;
	double at;

	/* Try j: 0, then half a marker right, left, a marker right... */
	for (row = 0; row < g->nband; row++)
		for (j = 0; j <= 2 * MARK_NEAR; j++)
			if (try_place(g, row, at = *x + (j % 2 ? 1 : -1) *
			    ((j + 1) / 2) * w / 2, w, xmin, xmax)) {
				*x = at;
				return (int)row;
			}
	for (j = 2 * MARK_NEAR + 1; j <= 2 * MARK_SLIDE; j++)
		for (row = 0; row < g->nband; row++)
			if (try_place(g, row, at = *x + (j % 2 ? 1 : -1) *
			    ((j + 1) / 2) * w / 2, w, xmin, xmax)) {
				*x = at;
				return (int)row;
			}
	return -1;
}

int
chart_by_end(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * The top of a panel's y axis (MiB): room above the curves for nrows
 * rows of markers (their boxes reach down to graph height low), a gap
 * between; the ceiling's dashed line at the top, or, when the rows would
 * lie across it, under them, gap (graph height) lower.
 */
static double
panel_top(const struct gpuview *v, int nrows, double gap)
{
	double low = 0.96 - ROW_STEP * (nrows - 0.1);
	double top = (double)v->umax / (nrows > 0 ? low - 0.02 : 0.97);

	if (top < (double)v->ymax * 1.04)
		top = (double)v->ymax * 1.04;
	if (nrows > 0 && (double)v->ymax > (low - gap) * top)
		top = (double)v->ymax / (low - gap);
	return top;
}


size_t
chart_marks(const struct gpuview *v, const struct task **out)
{
	size_t i;

	for (i = 0; i < v->nmarks; i++)
		out[i] = &v->marks[i];
	qsort(out, v->nmarks, sizeof(*out), chart_by_end_p);
	return v->nmarks;
}

char *
chart_mark_text(const struct task *t, int nhosts, uint32_t tolerance,
    char *buf, size_t cap)
{
	char label[160], what[256], d[32];

	chart_task_label(t, nhosts, LABEL_CHARS, label, sizeof(label));
	if (t->status == TASK_LEAKED && t->has_leaked)
		chart_leak_text(t, tolerance, ", ", what, sizeof(what));
	else if (t->status == TASK_LEAKED)
		snprintf(what, sizeof(what), "leaked, how much is unknown");
	else if (t->status == TASK_RUNNING)
		snprintf(what, sizeof(what), "still running at the end");
	else
		snprintf(what, sizeof(what), "memory back %s s after its end",
		    t->interval != 0 ? tasktab_delay(t->delay, t->interval, d) :
		    gtime_fmt_secs(t->delay, d));
	snprintf(buf, cap, "%s: %s", label, what);
	return buf;
}

size_t
chart_mark_list(const struct gpuview *v, int nhosts, uint32_t tolerance,
    int utc, int date, const unsigned char *drawn, void (*line)(void *ctx,
    size_t num, const char *when, const char *text), void *ctx)
{
	const struct task **m;
	char text[320 + sizeof(CHART_NOROOM)], when[GTIME_BUFSZ];
	size_t i, n, noroom = 0;

	if (v->nmarks == 0)
		return 0;
	m = emalloc(v->nmarks * sizeof(*m));
	n = chart_marks(v, m);
	for (i = 0; i < n; i++) {
		chart_mark_text(m[i], nhosts, tolerance, text, sizeof(text) -
		    sizeof(CHART_NOROOM) + 1);
		if (drawn != NULL && !drawn[i]) {
			strcat(text, CHART_NOROOM);
			noroom++;
		}
		line(ctx, i + 1, chart_clock(m[i]->end, utc, date, when), text);
	}
	free(m);
	return noroom;
}

/*
 * Text: the line of row (0 highest) in a plot area of lines lines, 0 its
 * bottom border, lines its top, rounded as gnuplot rounds it.
 */
static int
row_line(size_t row, int lines)
{
	return (int)((0.96 - ROW_STEP * ((double)row + 0.5)) * lines + 0.5);
}

/* A marker of the chart: its task and its row (-1: not drawn). */
struct placed {
	const struct task *t;
	int row;
	double x;	/* the middle of its box */
};

/* Pointers to markers, the most interesting task first. */
static int
placed_interest(const void *a, const void *b)
{
	return collect_task_interest((*(struct placed *const *)a)->t,
	    (*(struct placed *const *)b)->t);
}

/* A marker's width: its number and a margin, pixels (text: characters). */
static double
marker_px(const struct chart *ch, size_t num)
{
	int digits = num >= 100 ? 3 : num >= 10 ? 2 : 1;

	while (num >= 1000) {
		digits++;
		num /= 10;
	}
	return ch->term == TERM_DUMB ? digits + 1 : digits * CHAR_PX + 6;
}

/*
 * The marks of one panel: a line at each marked task's end, the time its
 * memory stayed held as a band, leaked memory as blocks under the
 * unattributed curve, and on each end a numbered marker (the numbers of
 * chart_marks) whose text is in the list under the chart and, in an SVG,
 * its tooltip.  The markers lie in rows at the top of the panel, above
 * the curves (the y axis leaves room for the rows used), each on its
 * task's end line: the first row where it overlaps no other, given out
 * in order of interest so that when the rows are full the leaks and the
 * longest delays keep theirs (a marker left out is said in the list).  A
 * placement costs the marker's cells of the grid: linear in the marks.
 * The data block $g<idx>_marks holds one line a marker drawn: x, y
 * (MiB), its box (x0 x1 y0 y1), its number and its colour; *nmarkers
 * counts them; ch->tips gets their tooltips (dates with date); in text,
 * with ch->lines, no row on the plot's top border, one row a line, the
 * curves' top on a line under the rows, the end lines under the top
 * border.  gap:
 * the graph height between the rows and a ceiling under them.
 * xmin..xmax is the time axis, xpp the time of a pixel (a
 * character in text).  Return the top of the y axis (MiB).
 */
double
chart_panel_marks(struct sbuf *sb, const struct chart *ch,
    const struct gpuview *v, size_t idx, int nhosts, int date, double xpp,
    double xmin, double xmax, double gap, size_t *nmarkers)
{
	const struct task **m;
	struct grid rows;
	struct placed *pl, **order;
	int64_t lo;
	double top, half;
	size_t i;
	int nrows = 0;
	/* Text: the lines of the plot area, when gnuplot told them. */
	int lines = ch->term == TERM_DUMB && ch->lines != NULL ?
	    ch->lines[idx] : -1;
	char endtop[16];

	*nmarkers = 0;
	if (v->nmarks == 0)
		return panel_top(v, 0, 0);
	m = emalloc(v->nmarks * sizeof(*m));
	pl = emalloc(v->nmarks * sizeof(*pl));
	order = emalloc(v->nmarks * sizeof(*order));
	chart_marks(v, m);
	/* The rows: most interesting first, numbers in order of end. */
	for (i = 0; i < v->nmarks; i++) {
		pl[i].t = m[i];
		order[i] = &pl[i];
	}
	qsort(order, v->nmarks, sizeof(*order), placed_interest);
	grid_init(&rows, LABEL_ROWS, xmin, xmax, xpp);
	/*
	 * Text: a row whose line (row_line) is the top border, or the line
	 * of the row above it, or one with no line over the bottom border
	 * under it (for the curves' top) is taken before any marker: no
	 * marker goes on the border, nor runs into one of another row, nor
	 * onto the curves.
	 */
	if (lines >= 0) {
		int prev = -1, line;

		for (i = 0; i < LABEL_ROWS; i++) {
			line = row_line(i, lines);
			if (line >= lines || line == prev || line < 2)
				memset(rows.cell + i * rows.ncol, 1, rows.ncol);
			prev = line;
		}
	}
	for (i = 0; i < v->nmarks; i++) {
		size_t k = (size_t)(order[i] - pl);
		double w = (marker_px(ch, k + 1) + 2) * xpp;
		double x = chart_xval(pl[k].t->end, ch->utc) - w / 2;

		/* Inside the plot, never past an end of the axis. */
		if (x + w > xmax)
			x = xmax - w;
		if (x < xmin)
			x = xmin;
		pl[k].row = pick_place(&rows, &x, w, xmin, xmax);
		pl[k].x = x + w / 2;
		if (pl[k].row + 1 > nrows)
			nrows = pl[k].row + 1;
	}
	free(rows.cell);
	free(order);
	top = panel_top(v, nrows, gap);
	/*
	 * Text: the curves' top (ymax, on its line as gnuplot rounds it)
	 * under the lowest line of the markers' rows; the y axis grows until
	 * it is, to the line under them (there is one: no row lies on a line
	 * under 2).
	 */
	if (lines > 0 && nrows > 0) {
		int low = lines;

		for (i = 0; i < v->nmarks; i++)
			if (pl[i].row >= 0 && row_line((size_t)pl[i].row,
			    lines) < low)
				low = row_line((size_t)pl[i].row, lines);
		if ((int)((double)v->ymax / top * lines + 0.5) >= low)
			top = (double)v->ymax * lines / (low - 1);
	}
	/*
	 * The end lines reach the top of the plot area; in text 0.97 of it,
	 * on the line under its top border (when 0.97 rounds to the border,
	 * the line under it).
	 */
	snprintf(endtop, sizeof(endtop), "%s", ch->term == TERM_DUMB ? "0.97" :
	    "1");
	if (lines > 1 && (int)(0.97 * lines + 0.5) >= lines)
		snprintf(endtop, sizeof(endtop), "%.4f", (double)(lines - 1) /
		    lines);
	/*
	 * Leaked memory is stacked from the axis up, the earliest leak
	 * lowest, the attributed area on top of it (attr_area): the
	 * unattributed curve, which holds the leaks, then runs along the
	 * top of the blocks or above.
	 */
	lo = 0;
	for (i = 0; i < v->nmarks; i++) {
		const struct task *t = m[i];
		double xe = chart_xval(t->end, ch->utc);
		int id = (int)i + 1;

		sbuf_printf(sb, "set arrow %d from %.3f, graph 0 to %.3f, "
		    "graph %s nohead dashtype 3 lc rgb '%s' back\n", id,
		    xe, xe, endtop, C_END);
		if (t->status == TASK_RELEASED && t->delay > 0)
			sbuf_printf(sb, "set object %d rect from %.3f, graph 0 "
			    "to %.3f, graph 1 fc rgb '%s' fs transparent solid "
			    "0.25 noborder behind\n", id, xe,
			    chart_xval(t->release, ch->utc), C_HELD);
		if (t->status == TASK_LEAKED && t->has_leaked) {
			sbuf_printf(sb, "set object %d rect from %.3f, "
			    "(%lld/unit) to %.3f, (%lld/unit) fc rgb '%s' "
			    "fs transparent solid 0.35 border lc rgb '%s' "
			    "behind\n", id, xe, (long long)lo,
			    chart_xval(v->last, ch->utc),
			    (long long)(lo + t->leaked),
			    C_LEAK, C_LEAK);
			lo += t->leaked;
		}
	}
	/* The markers: a box (in text, its number only) on its row. */
	half = ROW_STEP * 0.4 * top;
	sbuf_printf(sb, "$g%zu_marks << EOD\n", idx);
	for (i = 0; i < v->nmarks; i++) {
		double w = marker_px(ch, i + 1) * xpp;
		double x = pl[i].x, y;

		if (ch->drawn != NULL && ch->drawn[idx] != NULL)
			ch->drawn[idx][i] = pl[i].row >= 0;
		if (pl[i].row < 0)
			continue;
		y = (0.96 - ROW_STEP * (pl[i].row + 0.5)) * top;
		if (ch->tips != NULL) {
			char text[320], when[GTIME_BUFSZ];

			sbuf_printf(ch->tips, "%zu. %s\n%s", i + 1,
			    chart_clock(pl[i].t->end, ch->utc, date, when),
			    chart_mark_text(pl[i].t, nhosts, ch->tolerance,
			    text, sizeof(text)));
			sbuf_addc(ch->tips, '\0');
		}
		sbuf_printf(sb, "%.3f %.1f %.3f %.3f %.1f %.1f %zu %ld\n", x, y,
		    x - w / 2, x + w / 2, y - half, y + half, i + 1,
		    strtol((pl[i].t->status == TASK_LEAKED ? C_LEAK :
		    C_HELD_TEXT) + 1, NULL, 16));
		(*nmarkers)++;
	}
	sbuf_adds(sb, "EOD\n");
	free(pl);
	free(m);
	return top;
}

int
chart_svg_tips(const char *svg, size_t len, const struct sbuf *tips,
    FILE *f)
{
	static const char box[] = "<polygon fill = '" CHART_TIP_FILL "'";
	struct sbuf out = SBUF_INIT;
	const char *p = svg, *end = svg + len, *q;
	size_t off = 0;
	int rc;

	while (p < end && (q = memmem(p, (size_t)(end - p), box,
	    sizeof(box) - 1)) != NULL) {
		const char *close = memmem(q, (size_t)(end - q), "/>", 2);

		if (close == NULL || off >= tips->len)
			break;
		sbuf_add(&out, p, (size_t)(close - p));
		sbuf_adds(&out, "><title>");
		esc_xml(&out, tips->buf + off, 0);
		sbuf_adds(&out, "</title></polygon>");
		off += strlen(tips->buf + off) + 1;
		p = close + 2;
	}
	sbuf_add(&out, p, (size_t)(end - p));
	rc = outfile_ewrite_file(f, out.buf, out.len);
	sbuf_release(&out);
	return rc;
}
