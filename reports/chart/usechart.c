/* SPDX-License-Identifier: ISC */
/*
 * usechart.c: the gnuplot script of the usage chart (chart.h): the
 * curves of each GPU's panel, its tooltip bars; the marks are usemarks.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "chart.h"
#include "esc.h"
#include "gnuplot.h"
#include "gpumap.h"
#include "gtime.h"
#include "series.h"
#include "util.h"

#include "chartint.h"

/* What a probe script prints after each panel (chart_dumb_lines). */
#define LINES_MARK "<!--gpumem-lines "

/*
 * The step of the attributed area's top (attributed memory a) at leak
 * t's end: *under grows by what t leaked.  Return the points written
 * (none unless draw: a leak before the curve's first point).
 */
static size_t
leak_step(struct sbuf *sb, const struct chart *ch, const struct task *t,
    int64_t a, int64_t *under, int draw)
{
	if (draw)
		sbuf_printf(sb, "%.3f %lld\n", chart_xval(t->end, ch->utc),
		    (long long)(a + *under));
	*under += t->leaked;
	if (draw)
		sbuf_printf(sb, "%.3f %lld\n", chart_xval(t->end, ch->utc),
		    (long long)(a + *under));
	return draw ? 2 : 0;
}

/*
 * The filled area of attributed memory, stacked on the leaked blocks
 * (chart_panel_marks draws them from the axis up, the earliest lowest): one
 * polygon, its top the attributed curve raised by the leaked memory
 * under it, its bottom the top of the blocks, both as steps (each value
 * also at the time of the next: gnuplot draws filledcurves as one
 * polygon, fillsteps as one a step, which made the SVG of a long input
 * large).  pts[0..n) is the curve.  Return the points written.
 */
static size_t
attr_area(struct sbuf *sb, const struct chart *ch, const struct gpuview *v,
    const struct spoint *pts, size_t n)
{
	const struct task **lk = ereallocarray(NULL, v->nmarks + 1,
	    sizeof(*lk));
	size_t i, k = 0, nk = chart_leak_blocks(v, lk), w = 0;
	int64_t under = 0, a = pts[0].v;

	/*
	 * The top, left to right: a step at each point and at each leak
	 * (after the point of its time: its task's memory is no longer
	 * attributed when it starts to count as leaked).
	 */
	for (i = 0; i < n; i++) {
		for (; k < nk && lk[k]->end < pts[i].t; k++)
			w += leak_step(sb, ch, lk[k], a, &under, i > 0);
		if (i > 0) {
			sbuf_printf(sb, "%.3f %lld\n", chart_xval(pts[i].t,
			    ch->utc), (long long)(a + under));
			w++;
		}
		a = pts[i].v;
		sbuf_printf(sb, "%.3f %lld\n", chart_xval(pts[i].t, ch->utc),
		    (long long)(a + under));
		w++;
		for (; k < nk && lk[k]->end == pts[i].t; k++)
			w += leak_step(sb, ch, lk[k], a, &under, 1);
	}
	/* The bottom, right to left: the top of the blocks under it. */
	sbuf_printf(sb, "%.3f %lld\n", chart_xval(pts[n - 1].t, ch->utc),
	    (long long)under);
	w++;
	while (k-- > 0) {
		if (lk[k]->end <= pts[0].t)
			break;
		sbuf_printf(sb, "%.3f %lld\n", chart_xval(lk[k]->end, ch->utc),
		    (long long)under);
		under -= lk[k]->leaked;
		sbuf_printf(sb, "%.3f %lld\n", chart_xval(lk[k]->end, ch->utc),
		    (long long)under);
		w += 2;
	}
	sbuf_printf(sb, "%.3f %lld\n", chart_xval(pts[0].t, ch->utc),
	    (long long)under);
	free(lk);
	return w + 1;
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
	/* Text cannot fill an area: the attributed curve is a line there. */
	if (c == SER_ATTR && ch->term != TERM_DUMB)
		n = attr_area(sb, ch, v, pts, n);
	else
		for (i = 0; i < n; i++)
			sbuf_printf(sb, "%.3f %lld\n", chart_xval(pts[i].t,
			    ch->utc), (long long)pts[i].v);
	sbuf_adds(sb, "EOD\n");
	return n;
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

int
chart_by_end_p(const void *a, const void *b)
{
	return chart_by_end(*(const struct task *const *)a,
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
	qsort(out, n, sizeof(*out), chart_by_end_p);
	return n;
}

/*
 * The data of a one-GPU panel's tooltip bars (chart_ids), invisible:
 * a column of the panel's height (top MiB) each, and one on each leak
 * block, stacked as chart_panel_marks stacks them.  e plot elements come
 * before them.
 */
static void
tip_bars(struct sbuf *sb, const struct chart *ch, const struct gpuview *v,
    size_t idx, double top, int e)
{
	struct tipcol *c;
	const struct task **lk;
	size_t i, n;
	int64_t lo = 0;

	c = ereallocarray(NULL, ch->ids->ncols + 1, sizeof(*c));
	n = chart_tip_cols(v, ch->ids->ncols, c);
	sbuf_printf(sb, "$g%zu_tips << EOD\n", idx);
	for (i = 0; i < n; i++)
		sbuf_printf(sb, "%.3f %.3f 0 %.0f\n",
		    chart_xval(c[i].x0, ch->utc), chart_xval(c[i].x1, ch->utc),
		    top);
	sbuf_adds(sb, "EOD\n");
	ch->ids->cols = n > 0 ? ++e : 0;
	free(c);
	lk = ereallocarray(NULL, v->nmarks + 1, sizeof(*lk));
	n = chart_leak_blocks(v, lk);
	sbuf_printf(sb, "$g%zu_blocks << EOD\n", idx);
	for (i = 0; i < n; i++) {
		sbuf_printf(sb, "%.3f %.3f %lld %lld\n", chart_xval(lk[i]->end,
		    ch->utc), chart_xval(v->last, ch->utc), (long long)lo,
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
	double unit, xpp, plotw, x1, gap;

	/* A GPU known only from its processes has no curve to draw. */
	g = ereallocarray(NULL, nall + 1, sizeof(*g));
	for (i = 0; i < nall; i++)
		if (all[i]->nsamples > 0 && all[i]->ser.b != NULL)
			g[n++] = all[i];
	chart_preamble(sb, ch, "GPU memory over time");
	for (i = 0; i < n; i++)
		if (g[i]->ymax > ymax)
			ymax = g[i]->ymax;
	/* One unit for all panels, so that they compare at a glance. */
	unit = ymax >= 2048 ? 1024.0 : 1.0;
	sbuf_printf(sb, "unit = %.1f\t# MiB per unit of the y axis (%s)\n",
	    unit, unit > 1 ? "GiB" : "MiB");
	chart_time_axis(sb, ch, first, last, (double)ch->width - 11);
	sbuf_printf(sb, "set ylabel '%s'\nset yrange [0:*]\n"
	    "set style fill transparent solid 0.5 noborder\n",
	    unit > 1 ? "GiB" : "MiB");
	/*
	 * Text has no colours: no grid, and the key below the plot where it
	 * cannot run into the curves, two blanks between its entries.  No
	 * time tics on the top border: they would lie on the markers' row
	 * and run into their numbers.
	 */
	if (ch->term == TERM_DUMB)
		sbuf_adds(sb, "set key outside bottom center horizontal "
		    "samplen 2 width 2\nset xtics nomirror\n");
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
	x1 = chart_xval(last, ch->utc);
	if (x1 <= chart_xval(first, ch->utc))
		x1 = chart_xval(first, ch->utc) + 1;
	xpp = (x1 - chart_xval(first, ch->utc)) / plotw;
	/*
	 * Between the markers' rows and a ceiling under them: in text a
	 * line and a half of a panel (a character rounds to its line).
	 */
	gap = ch->term != TERM_DUMB ? 0.01 : 1.5 / (ch->height / (n > 0 ? n :
	    1) > 8 ? (double)(ch->height / (n > 0 ? n : 1)) - 6 : 2);
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
		chart_range_text(&title, ch, first, last);
	}
	if (n == 0) {
		chart_time_label(sb, ch, first);
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
		size_t nmarkers;
		int k;

		if (nhosts > 1)
			sbuf_printf(&pt, "%s GPU %u", *v->host ? v->host : "-",
			    v->gpu);
		else
			sbuf_printf(&pt, "GPU %u", v->gpu);
		if (v->total > 0)
			sbuf_printf(&pt, ": %s total",
			    num_fmt_mib(v->total, mb));
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
		top = chart_panel_marks(sb, ch, v, i, nhosts,
		    chart_multiday(first, last, ch->utc), xpp,
		    chart_xval(first, ch->utc), x1, gap, &nmarkers);
		total += nmarkers;
		if (top > 0)
			sbuf_printf(sb, "set yrange [0:%.3f]\n", top / unit);
		if (i + 1 == n)
			chart_time_label(sb, ch, first);
		if (ch->ids != NULL && n == 1) {
			/* The elements before them: curves and key entries. */
			int e = ch->notasks ? 0 : 2;

			if (series_points(&v->ser, SER_ATTR, pts) > 0)
				e += 3;
			if (series_points(&v->ser, SER_TOTAL, pts) > 0)
				e++;
			tip_bars(sb, ch, v, i, top, e);
			if (ch->ids->blocks > 0)
				e = ch->ids->blocks;
			else if (ch->ids->cols > 0)
				e = ch->ids->cols;
			/* The markers' boxes, then their numbers. */
			ch->ids->marks = nmarkers > 0 && ch->term != TERM_DUMB ?
			    e + 1 : 0;
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
		/*
		 * The markers, over the rest: a grey box, which a tooltip
		 * hangs on (ids->marks; its fill, CHART_TIP_FILL, tells it
		 * in plot's SVG), then its number (a leak's red), narrower
		 * than the box; text has the numbers only, each ending at
		 * its line.
		 */
		if (nmarkers > 0 && ch->term != TERM_DUMB)
			sbuf_printf(sb, "%s$g%zu_marks using 1:($2/unit):3:4:"
			    "($5/unit):($6/unit) with boxxyerror fs solid 1.0 "
			    "noborder fc rgb '#ebebea' notitle", sep, i);
		if (nmarkers > 0) {
			sbuf_printf(sb, "%s$g%zu_marks using 1:($2/unit):"
			    "(sprintf('%%d', $7)):8 with labels %s "
			    "notitle", nmarkers > 0 && ch->term != TERM_DUMB ?
			    ", \\\n     " : sep, i, ch->term == TERM_DUMB ?
			    "right" : "center tc rgb variable");
			sep = ", \\\n     ";
		}
		sbuf_addc(sb, '\n');
		if (ch->probe)
			chart_probe_lines(sb, i);
		sbuf_adds(sb, "unset object\nunset arrow\nunset label\n");
	}
	sbuf_adds(sb, "unset multiplot\n");
out:
	sbuf_release(&title);
	free(pts);
	free(g);
	return total;
}

void
chart_probe_lines(struct sbuf *sb, size_t i)
{
	sbuf_printf(sb, "set print '-'\nif (exists('GPVAL_TERM_YMAX')) print "
	    "sprintf('" LINES_MARK "%zu %%d-->', int(GPVAL_TERM_YMAX - "
	    "GPVAL_TERM_YMIN + 0.5))\nset print\n", i);
}

int
chart_dumb_lines(const struct sbuf *probe, size_t n, int *lines)
{
	struct sbuf out = SBUF_INIT;
	const char *p;
	size_t i;
	int h;

	for (i = 0; i < n; i++)
		lines[i] = -1;
	if (gnuplot_run(probe->buf, probe->len, NULL, "gnuplot", &out) < 0) {
		sbuf_release(&out);
		return -1;
	}
	for (p = out.buf; p != NULL && (p = strstr(p, LINES_MARK)) != NULL;
	    p++)
		if (sscanf(p + strlen(LINES_MARK), "%zu %d", &i, &h) == 2 &&
		    i < n && h >= 0)
			lines[i] = h;
	sbuf_release(&out);
	return 0;
}
