/* SPDX-License-Identifier: ISC */
/* chart.c: gnuplot scripts of the usage and Gantt charts (chart.h). */
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

/* Colours, one meaning each everywhere (plot, Gantt, report). */
#define C_USAGE "#252525"
#define C_ATTR "#9ecae1"
#define C_UNATTR "#e6550d"
#define C_TOTAL "#7f0000"
#define C_END "#636363"
#define C_HELD "#fd8d3c"
#define C_HELD_TEXT "#a63603"
#define C_LEAK "#cb181d"
#define C_LEAK_TEXT "#67000d"
#define C_LIFE "#4575b4"
#define C_RUNNING "#abd9e9"
#define C_GRID "#d9d9d9"

#define LABEL_ROWS 6		/* rows of task labels at the top of a panel */
#define LABEL_CHARS 48		/* characters of a task's label on the curves */
#define CHAR_PX 6.6		/* width of a character of 'sans,9', pixels */
#define ROW_STEP 0.075		/* graph height of a row of labels */
/* Aligned charts: the plot area, in fractions of the width. */
#define ALIGN_LEFT 0.2
#define ALIGN_RIGHT 0.84

int
chart_term_name(const char *s)
{
	if (strcmp(s, "png") == 0)
		return TERM_PNG;
	if (strcmp(s, "svg") == 0)
		return TERM_SVG;
	if (strcmp(s, "pdf") == 0)
		return TERM_PDF;
	if (strcmp(s, "dumb") == 0 || strcmp(s, "text") == 0)
		return TERM_DUMB;
	return -1;
}

int
chart_term_of_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return -1;
	if (strcasecmp(dot, ".png") == 0)
		return TERM_PNG;
	if (strcasecmp(dot, ".svg") == 0)
		return TERM_SVG;
	if (strcasecmp(dot, ".pdf") == 0)
		return TERM_PDF;
	if (strcasecmp(dot, ".txt") == 0)
		return TERM_DUMB;
	return -1;
}

int
chart_parse_size(const char *s, unsigned *w, unsigned *h)
{
	const char *x = strchr(s, 'x');
	uint32_t a, b;

	if (x == NULL || parse_u32(s, (size_t)(x - s), &a) < 0 ||
	    parse_u32(x + 1, strlen(x + 1), &b) < 0)
		return -1;
	if (a < 20 || b < 10 || a > 20000 || b > 20000)
		return -1;
	*w = a;
	*h = b;
	return 0;
}

void
chart_default_size(struct chart *ch, int gantt, size_t n)
{
	if (ch->term == TERM_DUMB) {
		unsigned cols, rows;

		tty_size(STDOUT_FILENO, &cols, &rows);
		ch->width = cols;
		if (gantt)
			ch->height = (unsigned)(n < 1 ? 1 : n) + 8;
		else
			ch->height = rows > 2 ? rows - 1 : rows;
		if (ch->height < 12)
			ch->height = 12;
		return;
	}
	ch->width = 1200;
	if (gantt)
		ch->height = 130 + 22 * (unsigned)n;
	else
		ch->height = 60 + 300 * (unsigned)(n < 1 ? 1 : n);
	if (ch->height < 260)
		ch->height = 260;
	if (ch->height > 12000)
		ch->height = 12000;
}

uint32_t
chart_back_late(const struct task *t, uint32_t tolerance)
{
	if (t->status != TASK_LEAKED || !t->has_leaked || t->leaked >= t->held)
		return 0;
	return t->held - t->leaked > tolerance ? t->held - t->leaked : 0;
}

char *
chart_leak_text(const struct task *t, uint32_t tolerance, const char *sep,
    char *buf, size_t cap)
{
	char a[32], b[32];
	uint32_t back = chart_back_late(t, tolerance);

	if (!t->has_leaked)
		snprintf(buf, cap, "how much is unknown (no device samples)");
	else if (back > 0)
		snprintf(buf, cap, "%s never came back%s%s came back late",
		    fmt_mib(t->leaked, a), sep, fmt_mib(back, b));
	else
		snprintf(buf, cap, "%s never came back", fmt_mib(t->leaked,
		    a));
	return buf;
}

size_t
chart_width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if ((*s & 0xc0) != 0x80)
			n++;
	return n;
}

char *
chart_task_label(const struct task *t, int nhosts, size_t maxchars,
    char *buf, size_t cap)
{
	struct sbuf sb = SBUF_INIT;

	if (nhosts > 1)
		sbuf_printf(&sb, "%s:%u", *t->host != '\0' ? t->host : "-",
		    t->gpu);
	else
		sbuf_printf(&sb, "gpu%u", t->gpu);
	if (t->pid != 0)
		sbuf_printf(&sb, " %u", t->pid);
	if (*t->name != '\0')
		sbuf_printf(&sb, " %s", t->name);
	clean_text(sb.buf, maxchars, buf, cap);
	sbuf_release(&sb);
	return buf;
}

static void
broken_down(uint64_t t, int utc, struct tm *tm)
{
	time_t secs = (time_t)(t / NS_PER_SEC);

	if (utc)
		gmtime_r(&secs, tm);
	else
		localtime_r(&secs, tm);
}

char *
chart_clock(uint64_t t, int utc, int date, char *buf)
{
	struct tm tm;

	broken_down(t, utc, &tm);
	if (date)
		snprintf(buf, GTIME_BUFSZ, "%04d-%02d-%02d %02d:%02d:%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
	else
		snprintf(buf, GTIME_BUFSZ, "%02d:%02d:%02d", tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
	return buf;
}

char *
chart_zone(uint64_t t, int utc, char *buf)
{
	struct tm tm;

	if (utc) {
		snprintf(buf, 64, "UTC");
		return buf;
	}
	broken_down(t, 0, &tm);
	if (tm.tm_zone != NULL && *tm.tm_zone != '\0')
		snprintf(buf, 64, "%s", tm.tm_zone);
	else
		snprintf(buf, 64, "UTC%+03ld:%02ld", tm.tm_gmtoff / 3600,
		    labs(tm.tm_gmtoff) % 3600 / 60);
	return buf;
}

/*
 * The x value of time t: seconds since the epoch, shifted by the zone's
 * offset at t so that gnuplot, which formats times as UTC, shows the
 * local clock.
 */
static double
xval(uint64_t t, int utc)
{
	double x = (double)(t / NS_PER_MS) / 1000.0;

	if (!utc) {
		struct tm tm;

		broken_down(t, 0, &tm);
		x += (double)tm.tm_gmtoff;
	}
	return x;
}

/* The terminal, the fonts and what every chart shares. */
static void
preamble(struct sbuf *sb, const struct chart *ch, const char *what)
{
	char prog[256];

	sbuf_printf(sb, "# %s, written by %s (gpumem) %s.\n"
	    "# Restyle freely; the data are inline below.  Run: gnuplot "
	    "THIS_FILE > %s\n", what, clean_text(ch->prog, 64, prog,
	    sizeof(prog)), GPUMEM_VERSION,
	    ch->term == TERM_PNG ? "chart.png" : ch->term == TERM_SVG ?
	    "chart.svg" : ch->term == TERM_PDF ? "chart.pdf" : "chart.txt");
	switch (ch->term) {
	case TERM_PNG:
		sbuf_printf(sb, "set terminal pngcairo size %u,%u noenhanced "
		    "font 'sans,9' background '#ffffff'\n", ch->width,
		    ch->height);
		break;
	case TERM_SVG:
		sbuf_printf(sb, "set terminal svg size %u,%u noenhanced "
		    "font 'sans,9' background '#ffffff'\n", ch->width,
		    ch->height);
		break;
	case TERM_PDF:
		sbuf_printf(sb, "set terminal pdfcairo size %.2fin,%.2fin "
		    "noenhanced font 'sans,7'\n", ch->width / 96.0,
		    ch->height / 96.0);
		break;
	case TERM_DUMB:
		sbuf_printf(sb, "set terminal dumb size %u,%u noenhanced\n",
		    ch->width, ch->height);
		break;
	}
	/*
	 * The cairo and SVG terminals take UTF-8 as it is; text must be told,
	 * to count characters, not bytes, when it places labels.
	 */
	if (ch->term == TERM_DUMB)
		sbuf_adds(sb, "set encoding utf8\n");
}

/* The time axis: its range, the data's first to last time, and format. */
static void
time_axis(struct sbuf *sb, const struct chart *ch, uint64_t first,
    uint64_t last)
{
	uint64_t span = last > first ? last - first : 0;
	double x0 = xval(first, ch->utc), x1 = xval(last, ch->utc);
	const char *fmt;

	if (x1 <= x0)
		x1 = x0 + 1;
	if (span <= 10 * NS_PER_SEC)
		fmt = "%H:%M:%.1S";
	else if (span <= 10 * 60 * NS_PER_SEC)
		fmt = "%H:%M:%S";
	else if (span <= 36 * 3600 * NS_PER_SEC)
		fmt = "%H:%M";
	else
		fmt = "%m-%d %H:%M";
	sbuf_printf(sb, "set xdata time\nset timefmt '%%s'\n"
	    "set format x '%s'\nset xrange [%.3f:%.3f]\n", fmt, x0, x1);
}

/* The label of the time axis: its zone and the first day. */
static void
time_label(struct sbuf *sb, const struct chart *ch, uint64_t first)
{
	struct sbuf l = SBUF_INIT;
	char zone[64], day[GTIME_BUFSZ];

	chart_clock(first, ch->utc, 1, day);
	day[10] = '\0';
	sbuf_printf(&l, "time (%s)", chart_zone(first, ch->utc, zone));
	if (first != 0)
		sbuf_printf(&l, ", from %s", day);
	sbuf_adds(sb, "set xlabel ");
	esc_gnuplot(sb, l.buf, 0);
	sbuf_addc(sb, '\n');
	sbuf_release(&l);
}

/* A range of times for a title: "2026-01-01 00:00:00 to 00:02:47 UTC". */
static void
range_text(struct sbuf *sb, const struct chart *ch, uint64_t first,
    uint64_t last)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ], z[64];
	struct tm ta, tb;

	broken_down(first, ch->utc, &ta);
	broken_down(last, ch->utc, &tb);
	sbuf_printf(sb, "%s to %s %s", chart_clock(first, ch->utc, 1, a),
	    chart_clock(last, ch->utc, ta.tm_yday != tb.tm_yday ||
	    ta.tm_year != tb.tm_year, b), chart_zone(first, ch->utc, z));
}

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

static int
by_end(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* One data block of a curve; return its lines (points and step corners). */
static size_t
curve_block(struct sbuf *sb, const struct chart *ch, const struct gpuview *v,
    size_t idx, enum ser_curve c, const char *name, struct spoint *pts)
{
	size_t i, n = series_points(&v->ser, c, pts);

	if (n == 0)
		return 0;
	sbuf_printf(sb, "$g%zu_%s << EOD\n", idx, name);
	for (i = 0; i < n; i++) {
		/*
		 * The filled curve comes as its steps (each value also at
		 * the time of the next): gnuplot draws filledcurves as one
		 * polygon, fillsteps as one a step, which made the SVG of a
		 * long input large.
		 */
		if (c == SER_ATTR && ch->term != TERM_DUMB && i > 0)
			sbuf_printf(sb, "%.3f %lld\n", xval(pts[i].t,
			    ch->utc), (long long)pts[i - 1].v);
		sbuf_printf(sb, "%.3f %lld\n", xval(pts[i].t, ch->utc),
		    (long long)pts[i].v);
	}
	/* Closed along the axis: one polygon. */
	if (c == SER_ATTR && ch->term != TERM_DUMB) {
		sbuf_printf(sb, "%.3f 0\n%.3f 0\n", xval(pts[n - 1].t,
		    ch->utc), xval(pts[0].t, ch->utc));
		n = 2 * n + 1;
	}
	sbuf_adds(sb, "EOD\n");
	return n;
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
static double
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

size_t
chart_tip_cols(const struct gpuview *v, size_t max, struct tipcol *out)
{
	const struct series *s = &v->ser;
	size_t i, j, k, n = 0;

	if (s->b == NULL || max == 0)
		return 0;
	for (j = 0; j < max && j < s->n; j++) {
		size_t lo = j * s->n / (max < s->n ? max : s->n);
		size_t hi = (j + 1) * s->n / (max < s->n ? max : s->n);
		struct tipcol *c = &out[n];
		const struct m4 *m;
		int has = 0;

		memset(c, 0, sizeof(*c));
		for (i = lo; i < hi; i++) {
			if (!(m = &s->b[i][SER_USAGE])->has)
				continue;
			/* The last sample of the column speaks for it. */
			c->t = m->t[3];
			c->usage = m->v[3];
			for (k = 0; k < 2; k++) {
				m = &s->b[i][k == 0 ? SER_ATTR : SER_UNATTR];
				if (m->has)
					*(k == 0 ? &c->attr : &c->unattr) =
					    m->v[3];
			}
			has = 1;
		}
		if (!has)
			continue;
		c->x0 = s->t0 + lo * s->w;
		c->x1 = s->t0 + hi * s->w;
		if (c->x0 < v->first)
			c->x0 = v->first;
		if (c->x1 > v->last)
			c->x1 = v->last;
		if (c->x1 < c->x0)
			c->x1 = c->x0;
		n++;
	}
	return n;
}

/* by_end of task pointers. */
static int
by_end_p(const void *a, const void *b)
{
	return by_end(*(const struct task *const *)a,
	    *(const struct task *const *)b);
}

size_t
chart_leak_blocks(const struct gpuview *v, const struct task **out)
{
	size_t i, n = 0;

	for (i = 0; i < v->nmarks; i++)
		if (v->marks[i].status == TASK_LEAKED &&
		    v->marks[i].has_leaked)
			out[n++] = &v->marks[i];
	qsort(out, n, sizeof(*out), by_end_p);
	return n;
}

/*
 * The data of a one-GPU panel's tooltip bars (chart_ids), invisible:
 * a column of the panel's height (top MiB) each, and one on each leak
 * block, stacked as panel_marks stacks them.  e plot elements come
 * before them.
 */
static void
tip_bars(struct sbuf *sb, const struct chart *ch, const struct gpuview *v,
    size_t idx, double top, int e)
{
	struct tipcol *c;
	const struct task **lk;
	size_t i, n;
	int64_t lo = v->unattr_last;

	c = ereallocarray(NULL, ch->ids->ncols + 1, sizeof(*c));
	n = chart_tip_cols(v, ch->ids->ncols, c);
	sbuf_printf(sb, "$g%zu_tips << EOD\n", idx);
	for (i = 0; i < n; i++)
		sbuf_printf(sb, "%.3f %.3f 0 %.0f\n", xval(c[i].x0, ch->utc),
		    xval(c[i].x1, ch->utc), top);
	sbuf_adds(sb, "EOD\n");
	ch->ids->cols = n > 0 ? ++e : 0;
	free(c);
	lk = ereallocarray(NULL, v->nmarks + 1, sizeof(*lk));
	n = chart_leak_blocks(v, lk);
	for (i = 0; i < n; i++)
		lo -= lk[i]->leaked;
	if (lo < 0)
		lo = 0;
	sbuf_printf(sb, "$g%zu_blocks << EOD\n", idx);
	for (i = 0; i < n; i++) {
		sbuf_printf(sb, "%.3f %.3f %lld %lld\n", xval(lk[i]->end,
		    ch->utc), xval(v->last, ch->utc), (long long)lo,
		    (long long)(lo + lk[i]->leaked));
		lo += lk[i]->leaked;
	}
	sbuf_adds(sb, "EOD\n");
	ch->ids->blocks = n > 0 ? ++e : 0;
	free(lk);
}

size_t
chart_usage(struct sbuf *sb, const struct chart *ch,
    struct gpuview *const *all, size_t nall, uint64_t first, uint64_t last,
    int nhosts)
{
	struct spoint *pts = NULL;
	struct sbuf title = SBUF_INIT;
	struct gpuview **g;
	size_t i, n = 0, total = 0, cap = 0;
	int64_t ymax = 0;
	double unit, xpp, plotw, x1;

	/* A GPU known only from its processes has no curve to draw. */
	g = ereallocarray(NULL, nall + 1, sizeof(*g));
	for (i = 0; i < nall; i++)
		if (all[i]->nsamples > 0 && all[i]->ser.b != NULL)
			g[n++] = all[i];
	preamble(sb, ch, "GPU memory over time");
	for (i = 0; i < n; i++)
		if (g[i]->ymax > ymax)
			ymax = g[i]->ymax;
	/* One unit for all panels, so that they compare at a glance. */
	unit = ymax >= 2048 ? 1024.0 : 1.0;
	sbuf_printf(sb, "unit = %.1f\t# MiB per unit of the y axis (%s)\n",
	    unit, unit > 1 ? "GiB" : "MiB");
	time_axis(sb, ch, first, last);
	sbuf_printf(sb, "set ylabel '%s'\nset yrange [0:*]\n"
	    "set style fill transparent solid 0.5 noborder\n",
	    unit > 1 ? "GiB" : "MiB");
	/*
	 * Text has no colours: no grid, and the key below the plot where it
	 * cannot run into the curves, two blanks between its entries.
	 */
	if (ch->term == TERM_DUMB)
		sbuf_adds(sb, "set key outside bottom center horizontal "
		    "samplen 2 width 2\n");
	else
		sbuf_printf(sb, "set grid xtics ytics lc rgb '%s'\n"
		    "set key outside right top vertical Left reverse "
		    "samplen 2\n", C_GRID);
	if (ch->align)
		sbuf_printf(sb, "set lmargin at screen %.2f\n"
		    "set rmargin at screen %.2f\n", ALIGN_LEFT, ALIGN_RIGHT);
	else
		sbuf_printf(sb, "set lmargin 9\nset rmargin %d\n",
		    ch->term == TERM_DUMB ? 2 : 26);
	/* Width of one pixel (one character in dumb) in x units. */
	if (ch->term == TERM_DUMB)
		plotw = (double)ch->width - 12;
	else if (ch->align)
		plotw = (double)ch->width * (ALIGN_RIGHT - ALIGN_LEFT);
	else
		plotw = (double)ch->width - 290;
	if (plotw < 10)
		plotw = 10;
	x1 = xval(last, ch->utc);
	if (x1 <= xval(first, ch->utc))
		x1 = xval(first, ch->utc) + 1;
	xpp = (x1 - xval(first, ch->utc)) / plotw;
	/* The data, each curve a block. */
	for (i = 0; i < n; i++) {
		if (g[i]->ser.cap > cap) {
			cap = g[i]->ser.cap;
			pts = ereallocarray(pts, 4 * cap, sizeof(*pts));
		}
		if (g[i]->ser.b == NULL)
			continue;
		total += curve_block(sb, ch, g[i], i, SER_ATTR, "attr", pts);
		total += curve_block(sb, ch, g[i], i, SER_UNATTR, "unattr",
		    pts);
		total += curve_block(sb, ch, g[i], i, SER_USAGE, "usage", pts);
		total += curve_block(sb, ch, g[i], i, SER_TOTAL, "total", pts);
	}
	if (ch->title != NULL)
		sbuf_adds(&title, ch->title);
	else if (last == 0)
		sbuf_adds(&title, "GPU memory");
	else {
		sbuf_adds(&title, "GPU memory, ");
		range_text(&title, ch, first, last);
	}
	if (n == 0) {
		time_label(sb, ch, first);
		sbuf_adds(sb, "set title ");
		esc_gnuplot(sb, title.buf, 0);
		sbuf_adds(sb, "\nset label 1 'no whole-device samples in the "
		    "input' at graph 0.5, graph 0.5 center\n"
		    "set yrange [0:1]\nunset key\n"
		    "plot NaN notitle\n");
		goto out;
	}
	sbuf_printf(sb, "set multiplot layout %zu,1 title ", n);
	esc_gnuplot(sb, title.buf, 0);
	sbuf_addc(sb, '\n');
	for (i = 0; i < n; i++) {
		const struct gpuview *v = g[i];
		struct sbuf pt = SBUF_INIT;
		char mb[32], iv[32];
		const char *sep = "plot ";
		double top;
		int k;

		if (nhosts > 1)
			sbuf_printf(&pt, "%s GPU %u", *v->host ? v->host : "-",
			    v->gpu);
		else
			sbuf_printf(&pt, "GPU %u", v->gpu);
		if (v->total > 0)
			sbuf_printf(&pt, ": %s total", fmt_mib(v->total, mb));
		if (!ch->notasks)
			sbuf_printf(&pt, ", %llu task%s",
			    (unsigned long long)v->ntasks,
			    v->ntasks == 1 ? "" : "s");
		if (v->nleaked > 0)
			sbuf_printf(&pt, ", %llu leaked",
			    (unsigned long long)v->nleaked);
		if (v->ntasks > v->nmarks + v->nrunning)
			sbuf_printf(&pt, " (%llu marked)",
			    (unsigned long long)v->nmarks);
		/* Said once here, not on every label. */
		if (v->interval != 0 && v->nreleased > 0)
			sbuf_printf(&pt, "; delays \xc2\xb1%s s",
			    gtime_fmt_secs(v->interval, iv));
		/* The comment holds no name: the title is the safe copy. */
		sbuf_printf(sb, "\n# panel %zu: GPU %u\nset title ", i + 1,
		    v->gpu);
		esc_gnuplot(sb, pt.buf, 0);
		sbuf_release(&pt);
		sbuf_addc(sb, '\n');
		top = panel_marks(sb, ch, v, nhosts, xpp, xval(first,
		    ch->utc), x1);
		if (top > 0)
			sbuf_printf(sb, "set yrange [0:%.3f]\n", top / unit);
		if (i + 1 == n)
			time_label(sb, ch, first);
		if (ch->ids != NULL && n == 1) {
			/* The elements before them: curves and key entries. */
			int e = ch->notasks ? 0 : 2;

			if (series_points(&v->ser, SER_ATTR, pts) > 0)
				e += 3;
			if (series_points(&v->ser, SER_TOTAL, pts) > 0)
				e++;
			tip_bars(sb, ch, v, i, top, e);
		}
		if (v->ser.b != NULL && series_points(&v->ser, SER_ATTR,
		    pts) > 0) {
			/* Text cannot fill an area: a line there. */
			sbuf_printf(sb, "%s$g%zu_attr using 1:($2/unit) with "
			    "%s lc rgb '%s' title 'attributed', \\\n",
			    sep, i, ch->term == TERM_DUMB ? "steps" :
			    "filledcurves closed", C_ATTR);
			sbuf_printf(sb, "     $g%zu_unattr using 1:($2/unit) "
			    "with steps lw 2 lc rgb '%s' title "
			    "'unattributed', \\\n", i, C_UNATTR);
			sbuf_printf(sb, "     $g%zu_usage using 1:($2/unit) "
			    "with steps lw 1.5 lc rgb '%s' title 'usage'", i,
			    C_USAGE);
			sep = ", \\\n     ";
		}
		if (v->ser.b != NULL && series_points(&v->ser, SER_TOTAL,
		    pts) > 0) {
			sbuf_printf(sb, "%s$g%zu_total using 1:($2/unit) with "
			    "steps dashtype 2 lw 1.5 lc rgb '%s' title 'total'",
			    sep, i, C_TOTAL);
			sep = ", \\\n     ";
		}
		/*
		 * Text draws a key's sample with its line type's character
		 * (* # $ % @ & =, then again): held '@' and leaked '&', not
		 * the same by the count of the entries before them.
		 */
		if (!ch->notasks) {
			sbuf_printf(sb, "%skeyentry with boxes%s fc rgb '%s' fs "
			    "transparent solid 0.25 title 'held after the end', "
			    "\\\n     keyentry with boxes%s fc rgb '%s' fs "
			    "transparent solid 0.35 title 'leaked'", sep,
			    ch->term == TERM_DUMB ? " lt 5" : "", C_HELD,
			    ch->term == TERM_DUMB ? " lt 6" : "", C_LEAK);
			sep = ", \\\n     ";
		}
		/* Invisible, over the rest: what the tooltips hang on. */
		if (ch->ids != NULL && n == 1)
			for (k = 0; k < 2; k++)
				if ((k == 0 ? ch->ids->cols :
				    ch->ids->blocks) > 0) {
					sbuf_printf(sb, "%s$g%zu_%s "
					    "using (($1+$2)/2):(($3+$4)/2/unit):"
					    "1:2:($3/unit):($4/unit) with "
					    "boxxyerror fs transparent solid 0 "
					    "noborder lc rgb '#000000' notitle",
					    sep, i, k == 0 ? "tips" : "blocks");
					sep = ", \\\n     ";
				}
		sbuf_addc(sb, '\n');
		sbuf_adds(sb, "unset object\nunset arrow\nunset label\n");
	}
	sbuf_adds(sb, "unset multiplot\n");
out:
	sbuf_release(&title);
	free(pts);
	free(g);
	return total;
}

/* --- The Gantt chart --- */

/*
 * The colour scale of release delays, the same in every chart (so that
 * two charts compare at a glance): its stops, in seconds, each one step
 * of the colour bar; a delay between two stops lies between their
 * colours, a delay past the last takes the last colour.
 */
static const struct {
	double secs;
	const char *label, *colour;
} delay_scale[] = {
	{0, "0", "#1a9850"},
	{1, "1 s", "#a6d96a"},
	{10, "10 s", "#fee08b"},
	{60, "1 min", C_HELD},
	{600, "10 min+", "#d7301f"},
};
#define NSTOPS (sizeof(delay_scale) / sizeof(delay_scale[0]))

const char *
chart_delay_stop(size_t k, const char **colour)
{
	if (k >= NSTOPS)
		return NULL;
	*colour = delay_scale[k].colour;
	return delay_scale[k].label;
}

const char *
chart_delay_colour(uint64_t ns)
{
	size_t k = 0;

	while (k + 1 < NSTOPS && (double)ns / NS_PER_SEC >=
	    delay_scale[k + 1].secs)
		k++;
	return delay_scale[k].colour;
}

/* A delay's place on the colour bar: 0 at the first stop, 1 a stop. */
static double
delay_pos(uint64_t ns)
{
	double x = (double)ns / NS_PER_SEC;
	size_t k;

	for (k = 1; k < NSTOPS; k++)
		if (x < delay_scale[k].secs)
			return (double)(k - 1) + (x - delay_scale[k - 1].secs) /
			    (delay_scale[k].secs - delay_scale[k - 1].secs);
	return (double)(NSTOPS - 1);
}

/* The palette and colour bar of delay_scale. */
static void
delay_palette(struct sbuf *sb)
{
	size_t k;

	sbuf_adds(sb, "set palette defined (");
	for (k = 0; k < NSTOPS; k++)
		sbuf_printf(sb, "%s%zu '%s'", k > 0 ? ", " : "", k,
		    delay_scale[k].colour);
	sbuf_printf(sb, ")\nset cbrange [0:%zu]\nset cbtics (", NSTOPS - 1);
	for (k = 0; k < NSTOPS; k++)
		sbuf_printf(sb, "%s'%s' %zu", k > 0 ? ", " : "",
		    delay_scale[k].label, k);
	sbuf_adds(sb, ")\nset cblabel 'held after the end'\n");
}

static int
by_interest(const void *a, const void *b)
{
	return task_interest(*(const struct task *const *)a,
	    *(const struct task *const *)b);
}

static int
by_row(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a;
	const struct task *y = *(const struct task *const *)b;
	int c = hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

	if (c != 0)
		return c;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

size_t
chart_gantt_rows(const struct tasklist *l, int onegpu, const char *host,
    uint32_t gpu, size_t max, const struct task ***rows, size_t *hidden)
{
	const struct task **v;
	size_t i, n = 0;

	v = ereallocarray(NULL, l->n > 0 ? l->n : 1, sizeof(*v));
	for (i = 0; i < l->n; i++)
		if (!onegpu || (l->t[i].gpu == gpu &&
		    strcmp(l->t[i].host, host) == 0))
			v[n++] = &l->t[i];
	*hidden = 0;
	if (n > max) {
		qsort(v, n, sizeof(*v), by_interest);
		*hidden = n - max;
		n = max;
	}
	qsort(v, n, sizeof(*v), by_row);
	*rows = v;
	return n;
}

/*
 * Where a Gantt row's text goes.  The time axis ends at the data, the
 * colour bar beside it: a text stays inside [x0, x1].  A delay's goes
 * after its bars (start a, end e, release b), a leak's on its bar (e to
 * x1); else before the start, ending there; else on the bars from the
 * start (white).  w: the text's width, gap: the room beside a bar (x
 * units).  *x: where the text starts (before: where it ends).
 */
enum note_at { NOTE_DELAY, NOTE_DELAY_BEFORE, NOTE_LEAK_BEFORE, NOTE_ON,
	NNOTES };

static const struct {
	const char *block, *colour;
	int right;
} note_kind[NNOTES] = {
	{"notes", C_HELD_TEXT, 0},
	{"notesbefore", C_HELD_TEXT, 1},
	{"leaknotesbefore", C_LEAK_TEXT, 1},
	{"notesonbar", "#ffffff", 0},
};

static int
note_place(int leak, double a, double e, double b, double x0, double x1,
    double w, double gap, double *x)
{
	if (leak && e + gap + w <= x1) {
		*x = e + gap;
		return NOTE_ON;
	}
	if (!leak && b + gap + w <= x1) {
		*x = b + gap;
		return NOTE_DELAY;
	}
	if (a - gap - w >= x0) {
		*x = a - gap;
		return leak ? NOTE_LEAK_BEFORE : NOTE_DELAY_BEFORE;
	}
	*x = a + gap;
	return NOTE_ON;
}

void
chart_gantt(struct sbuf *sb, const struct chart *ch,
    const struct task *const *rows, size_t n, size_t hidden, uint64_t first,
    uint64_t last, int nhosts)
{
	struct sbuf title = SBUF_INIT;
	struct note {
		char text[96];
		double x;
		int at;		/* enum note_at, -1: none */
	} *notes;
	char label[160], mb[32];
	double x0, x1, span, minw, xpp, plotw, charw;
	size_t i, nleak = 0, nheld = 0, nrun = 0, nnote[NNOTES] = {0};
	int lmargin = 0, k;

	preamble(sb, ch, "Tasks and their releases (Gantt chart)");
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];

		if (t->start < first)
			first = t->start;
		if (t->end > last)
			last = t->end;
		if (t->status == TASK_RELEASED && t->release > last)
			last = t->release;
		if (t->status == TASK_RELEASED)
			nheld++;
		chart_task_label(t, nhosts, 40, label, sizeof(label));
		if ((int)chart_width(label) > lmargin)
			lmargin = (int)chart_width(label);
	}
	time_axis(sb, ch, first, last);
	time_label(sb, ch, first);
	x0 = xval(first, ch->utc);
	x1 = xval(last, ch->utc);
	span = x1 > x0 ? x1 - x0 : 1;
	if (ch->term == TERM_DUMB)
		plotw = (double)ch->width - lmargin - 14;
	else if (ch->align)
		plotw = (double)ch->width * (ALIGN_RIGHT - ALIGN_LEFT);
	else
		plotw = (double)ch->width - lmargin * CHAR_PX - 120;
	if (plotw < 10)
		plotw = 10;
	xpp = span / plotw;
	charw = ch->term == TERM_DUMB ? 1 : CHAR_PX;
	/* A bar shorter than two pixels would not show. */
	minw = 2 * xpp;
	if (ch->title != NULL)
		sbuf_adds(&title, ch->title);
	else {
		sbuf_printf(&title, "%zu task%s, ", n + hidden,
		    n + hidden == 1 ? "" : "s");
		range_text(&title, ch, first, last);
	}
	if (hidden > 0)
		sbuf_printf(&title, " (%zu more tasks not shown)", hidden);
	sbuf_adds(sb, "set title ");
	esc_gnuplot(sb, title.buf, 0);
	sbuf_release(&title);
	sbuf_printf(sb, "\nset yrange [%.1f:-0.5]\n"
	    "set ytics nomirror scale 0\nunset y2tics\n"
	    "set grid xtics lc rgb '%s'\n"
	    "set key outside top center horizontal samplen 2\n"
	    "set style fill solid 1.0 noborder\n",
	    n > 0 ? (double)n - 0.5 : 0.5, C_GRID);
	delay_palette(sb);
	/* The colour scale of delays, when a delay is drawn. */
	if (nheld > 0 && ch->term != TERM_DUMB && !ch->nocolorbox)
		sbuf_adds(sb, "set colorbox vertical\n");
	else
		sbuf_adds(sb, "unset colorbox\n");
	if (ch->align)
		sbuf_printf(sb, "set lmargin at screen %.2f\n"
		    "set rmargin at screen %.2f\n", ALIGN_LEFT, ALIGN_RIGHT);
	else
		sbuf_printf(sb, "set rmargin %d\n", ch->term == TERM_DUMB ? 2 :
		    14);
	if (n == 0) {
		sbuf_adds(sb, "set label 2 'no tasks' at graph 0.5, graph 0.5 "
		    "center\nunset key\nunset colorbox\nplot NaN notitle\n");
		return;
	}
	/* Lives, one box per task: running ones lighter. */
	sbuf_adds(sb, "$life << EOD\n# row start end colour label\n");
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		double a = xval(t->start, ch->utc), b = xval(t->end, ch->utc);

		if (b - a < minw)
			b = a + minw;
		/* gnuplot takes a variable colour as the number 0xRRGGBB. */
		sbuf_printf(sb, "%zu %.3f %.3f %ld ", i, a, b,
		    strtol((t->status == TASK_RUNNING ? C_RUNNING : C_LIFE) + 1,
		    NULL, 16));
		esc_gnuplot(sb, chart_task_label(t, nhosts, 40, label,
		    sizeof(label)), 1);
		sbuf_addc(sb, '\n');
		if (t->status == TASK_RUNNING)
			nrun++;
	}
	sbuf_adds(sb, "EOD\n$held << EOD\n# row end release delay_s "
	    "colour\n");
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		double a, b;

		if (t->status != TASK_RELEASED)
			continue;
		a = xval(t->end, ch->utc);
		b = xval(t->release, ch->utc);
		if (b - a < minw)
			b = a + minw;
		sbuf_printf(sb, "%zu %.3f %.3f %.3f %.3f\n", i, a, b,
		    (double)t->delay / NS_PER_SEC, delay_pos(t->delay));
	}
	sbuf_adds(sb, "EOD\n$leak << EOD\n# row end end_of_log\n");
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		double a, b;

		if (t->status != TASK_LEAKED)
			continue;
		a = xval(t->end, ch->utc);
		b = x1;
		if (b - a < minw)
			b = a + minw;
		sbuf_printf(sb, "%zu %.3f %.3f\n", i, a, b);
		nleak++;
	}
	/* Texts: a row's delay or leak, where note_place puts it. */
	notes = ecalloc(n, sizeof(*notes));
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		double a = xval(t->start, ch->utc), e = xval(t->end, ch->utc);
		double b = e;

		if (t->status == TASK_RELEASED) {
			tasktab_delay_range(t, notes[i].text);
			b = xval(t->release, ch->utc);
			if (b - e < minw)
				b = e + minw;
		} else if (t->status == TASK_LEAKED) {
			char back[32];

			if (chart_back_late(t, ch->tolerance) > 0)
				snprintf(notes[i].text, sizeof(notes[i].text),
				    "leaked %s, %s back late", fmt_mib(t->leaked,
				    mb), fmt_mib(chart_back_late(t,
				    ch->tolerance), back));
			else if (t->has_leaked)
				snprintf(notes[i].text, sizeof(notes[i].text),
				    "leaked %s", fmt_mib(t->leaked, mb));
			else
				snprintf(notes[i].text, sizeof(notes[i].text),
				    "leaked");
		} else {
			notes[i].at = -1;
			continue;
		}
		notes[i].at = note_place(t->status == TASK_LEAKED, a, e, b, x0,
		    x1, (chart_width(notes[i].text) + 1) * charw * xpp, 3 *
		    xpp, &notes[i].x);
	}
	for (k = 0; k < NNOTES; k++) {
		sbuf_printf(sb, "EOD\n$%s << EOD\n# row x text\n",
		    note_kind[k].block);
		for (i = 0; i < n; i++) {
			if (notes[i].at != k)
				continue;
			nnote[k]++;
			sbuf_printf(sb, "%zu %.3f ", i, notes[i].x);
			esc_gnuplot(sb, notes[i].text, 1);
			sbuf_addc(sb, '\n');
		}
	}
	free(notes);
	sbuf_adds(sb, "EOD\n");
	/* Plot elements count from 1, key entries too (chart.h). */
	if (ch->ids != NULL) {
		int e = 1;

		ch->ids->life = e++;
		if (nrun > 0)
			e++;
		ch->ids->held = nheld > 0 ? e : 0;
		if (nheld > 0)
			e += ch->term == TERM_DUMB ? 2 : 1;
		ch->ids->leak = nleak > 0 ? e : 0;
	}
	sbuf_printf(sb, "plot $life using (($2+$3)/2):1:2:3:($1-0.32):"
	    "($1+0.32):4:ytic(5) with boxxyerror lc rgb variable "
	    "title 'alive'");
	if (nrun > 0)
		sbuf_printf(sb, ", \\\n     keyentry with boxes fc rgb '%s' "
		    "title 'running at the end'", C_RUNNING);
	/*
	 * The colours of memory held are the delay scale's: the colour box
	 * shows it (the report: its page's legend), no swatch of one colour
	 * in the key; text has no colour, its key says the character.
	 */
	if (nheld > 0) {
		sbuf_adds(sb, ", \\\n     $held using (($2+$3)/2):1:2:3:"
		    "($1-0.32):($1+0.32):5 with boxxyerror lc palette "
		    "notitle");
		if (ch->term == TERM_DUMB)
			sbuf_printf(sb, ", \\\n     keyentry with boxes fc "
			    "rgb '%s' title 'memory held after the end'",
			    C_HELD);
	}
	if (nleak > 0)
		sbuf_printf(sb, ", \\\n     $leak using (($2+$3)/2):1:2:3:"
		    "($1-0.32):($1+0.32) with boxxyerror lc rgb '%s' "
		    "title 'leaked: never came back'", C_LEAK);
	for (k = 0; k < NNOTES; k++)
		if (nnote[k] > 0)
			sbuf_printf(sb, ", \\\n     $%s using 2:1:3 with labels "
			    "%s tc rgb '%s' notitle", note_kind[k].block,
			    note_kind[k].right ? "right" : "left",
			    ch->term == TERM_DUMB && k == NOTE_ON ? C_LEAK_TEXT :
			    note_kind[k].colour);
	sbuf_addc(sb, '\n');
}
