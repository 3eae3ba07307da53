/* SPDX-License-Identifier: ISC */
/*
 * ganttchart.c: the gnuplot script of the Gantt chart (chart.h): its
 * rows, the fixed colour scale of release delays, where a row's text goes.
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
	return collect_task_interest(*(const struct task *const *)a,
	    *(const struct task *const *)b);
}

static int
by_row(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a;
	const struct task *y = *(const struct task *const *)b;
	int c = gpumap_hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

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
 * start (white), when it ends inside the plot; else nowhere (-1: no room,
 * the text is left out rather than cut at the plot's right edge).  w: the
 * text's width, gap: the room beside a bar (x units); k: the share of them
 * the text takes on the bars (below 1 where the plot is known to be wider
 * than w and gap were reckoned on).  *x: where the text starts (before:
 * where it ends).
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
    double w, double gap, double k, double *x)
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
	return a + (gap + w) * k <= x1 ? NOTE_ON : -1;
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
	double x0, x1, span, minw, xpp, plotw, charw, onbar = 1;
	size_t i, nleak = 0, nheld = 0, nrun = 0, nnote[NNOTES] = {0};
	int lmargin = 0, k;

	chart_preamble(sb, ch, "Tasks and their releases (Gantt chart)");
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
	chart_time_axis(sb, ch, first, last, (double)ch->width - lmargin - 5);
	chart_time_label(sb, ch, first);
	x0 = chart_xval(first, ch->utc);
	x1 = chart_xval(last, ch->utc);
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
	/*
	 * plotw errs on the safe side; in text (dumb) the plot's width is
	 * known: gnuplot puts its border 2 characters after the widest row
	 * name and 3 before the right end (rmargin 2).  A text on the bars
	 * (the last place note_place tries) is held to it.
	 */
	if (ch->term == TERM_DUMB && (double)ch->width - lmargin - 5 > plotw)
		onbar = plotw / ((double)ch->width - lmargin - 5);
	charw = ch->term == TERM_DUMB ? 1 : CHAR_PX;
	/* A bar shorter than two pixels would not show. */
	minw = 2 * xpp;
	if (ch->title != NULL)
		sbuf_adds(&title, ch->title);
	else {
		sbuf_printf(&title, "%zu task%s, ", n + hidden,
		    n + hidden == 1 ? "" : "s");
		chart_range_text(&title, ch, first, last);
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
		sbuf_printf(sb, "set label 2 '%s' at graph 0.5, graph 0.5 "
		    "center\nunset key\nunset colorbox\nplot NaN notitle\n",
		    hidden > 0 ? "no room for the tasks" : "no tasks");
		return;
	}
	/* Lives, one box per task: running ones lighter. */
	sbuf_adds(sb, "$life << EOD\n# row start end colour label\n");
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		double a = chart_xval(t->start, ch->utc);
		double b = chart_xval(t->end, ch->utc);

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
		a = chart_xval(t->end, ch->utc);
		b = chart_xval(t->release, ch->utc);
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
		a = chart_xval(t->end, ch->utc);
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
		double a = chart_xval(t->start, ch->utc);
		double e = chart_xval(t->end, ch->utc);
		double b = e;

		if (t->status == TASK_RELEASED) {
			tasktab_delay_range(t, notes[i].text);
			b = chart_xval(t->release, ch->utc);
			if (b - e < minw)
				b = e + minw;
		} else if (t->status == TASK_LEAKED) {
			char back[32];

			if (chart_back_late(t, ch->tolerance) > 0)
				snprintf(notes[i].text, sizeof(notes[i].text),
				    "leaked %s, %s back late",
				    num_fmt_mib(t->leaked, mb),
				    num_fmt_mib(chart_back_late(t,
				    ch->tolerance), back));
			else if (t->has_leaked)
				snprintf(notes[i].text, sizeof(notes[i].text),
				    "leaked %s", num_fmt_mib(t->leaked, mb));
			else
				snprintf(notes[i].text, sizeof(notes[i].text),
				    "leaked");
		} else {
			notes[i].at = -1;
			continue;
		}
		notes[i].at = note_place(t->status == TASK_LEAKED, a, e, b, x0,
		    x1, (chart_width(notes[i].text) + 1) * charw * xpp, 3 *
		    xpp, onbar, &notes[i].x);
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
	if (ch->probe)
		chart_probe_lines(sb, 0);
}
