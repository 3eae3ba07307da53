/* SPDX-License-Identifier: ISC */
/* textgantt.c: the Unicode Gantt chart (textgantt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "gtime.h"
#include "tasktab.h"
#include "textgantt.h"
#include "util.h"

#define LABEL_MAX 40		/* characters of a row's label */
#define NOTE_MAX 28		/* characters of a row's note */

enum cell { EMPTY, LEAK, HELD, ALIVE };

static const char *const glyph[] = {
	" ",
	"\xe2\x96\x91",		/* U+2591 light shade: leaked */
	"\xe2\x96\x92",		/* U+2592 medium shade: held after the end */
	"\xe2\x96\x88"		/* U+2588 full block: alive */
};
#define BAR "\xe2\x94\x82"	/* U+2502 */

/* Pad sb with spaces to n more characters of s. */
static void
padded(struct sbuf *sb, const char *s, size_t width)
{
	size_t w = chart_width(s);

	sbuf_adds(sb, s);
	while (w++ < width)
		sbuf_addc(sb, ' ');
}

/* The column of time t among cols columns spanning [first, last]. */
static size_t
col(uint64_t t, uint64_t first, uint64_t last, size_t cols)
{
	uint64_t span = last - first + 1;
	size_t c;

	if (t <= first)
		return 0;
	if (t >= last)
		return cols - 1;
	c = (size_t)((double)(t - first) / (double)span * (double)cols);
	return c < cols ? c : cols - 1;
}

static void
paint(unsigned char *cells, size_t cols, uint64_t a, uint64_t b,
    uint64_t first, uint64_t last, enum cell what)
{
	size_t i, ca = col(a, first, last, cols), cb = col(b, first, last, cols);

	for (i = ca; i <= cb; i++)
		if (cells[i] < what)
			cells[i] = (unsigned char)what;
}

static void
note_of(const struct task *t, uint32_t tolerance, char *buf, size_t cap)
{
	char r[96], mb[32], b[32];

	switch (t->status) {
	case TASK_RELEASED:
		snprintf(buf, cap, "%s", tasktab_delay_range(t, r));
		break;
	case TASK_LEAKED:
		if (chart_back_late(t, tolerance) > 0)
			snprintf(buf, cap, "LEAKED %s, %s late",
			    num_fmt_mib(t->leaked, mb),
			    num_fmt_mib(chart_back_late(t, tolerance), b));
		else if (t->has_leaked)
			snprintf(buf, cap, "LEAKED %s", num_fmt_mib(t->leaked,
			    mb));
		else
			snprintf(buf, cap, "LEAKED");
		break;
	case TASK_RUNNING:
		snprintf(buf, cap, "running");
		break;
	}
}

/* A time on the axis: with the date when the chart spans days. */
static char *
tick(uint64_t t, int utc, int days, char *buf)
{
	chart_clock(t, utc, days, buf);
	/* "2026-01-01 00:00:05" -> "01-01 00:00" */
	if (days) {
		memmove(buf, buf + 5, strlen(buf + 5) + 1);
		buf[11] = '\0';
	}
	return buf;
}

int
textgantt_write(FILE *f, const struct task *const *rows, size_t n,
    size_t hidden, uint64_t first, uint64_t last, unsigned width, int utc,
    int nhosts, uint32_t tolerance)
{
	struct sbuf sb = SBUF_INIT;
	char label[160], note[96], a[GTIME_BUFSZ], b[GTIME_BUFSZ], z[64];
	size_t i, lw = 0, nw = 0, cols, c;
	unsigned char *cells;
	int days, rc = 0;

	if (n == 0) {
		sbuf_adds(&sb, hidden > 0 ? "no tasks shown\n" : "no tasks\n");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];

		if (t->start < first)
			first = t->start;
		if (t->end > last)
			last = t->end;
		if (t->status == TASK_RELEASED && t->release > last)
			last = t->release;
		chart_task_label(t, nhosts, LABEL_MAX, label, sizeof(label));
		if (chart_width(label) > lw)
			lw = chart_width(label);
		note_of(t, tolerance, note, sizeof(note));
		if (chart_width(note) > nw)
			nw = chart_width(note);
	}
	if (width < 40)
		width = 40;
	/* The bars get two thirds of the line at least. */
	if (lw > width / 3)
		lw = width / 3;
	if (nw > NOTE_MAX)
		nw = NOTE_MAX;
	/* label, space, bar, bar, space, note */
	if (lw + nw + 4 + 10 > width)
		lw = width > nw + 14 + 8 ? width - nw - 14 : 8;
	cols = width - lw - nw - 4;
	if (last <= first)
		last = first + 1;
	days = last - first > 20 * 3600 * NS_PER_SEC;
	sbuf_printf(&sb, "%zu task%s, %s to %s %s", n + hidden,
	    n + hidden == 1 ? "" : "s", chart_clock(first, utc, 1, a),
	    chart_clock(last, utc, days, b), chart_zone(first, utc, z));
	/* Three figures are plenty to say what a column is. */
	{
		uint64_t w = (last - first) / cols;
		uint64_t unit = w >= 10 * NS_PER_SEC ? NS_PER_SEC :
		    w >= NS_PER_SEC ? NS_PER_SEC / 10 : NS_PER_MS;

		gtime_fmt_secs((w + unit / 2) / unit * unit, a);
	}
	sbuf_printf(&sb, "; one column = %s s\n", a);
	/* The axis: the first time above the bar's start, the last at its end. */
	tick(first, utc, days, a);
	tick(last, utc, days, b);
	for (c = 0; c < lw + 1; c++)
		sbuf_addc(&sb, ' ');
	if (strlen(a) + strlen(b) + 2 <= cols + 2) {
		sbuf_adds(&sb, a);
		for (c = strlen(a) + strlen(b); c < cols + 2; c++)
			sbuf_addc(&sb, ' ');
		sbuf_adds(&sb, b);
	} else
		sbuf_adds(&sb, a);
	sbuf_addc(&sb, '\n');
	cells = emalloc(cols);
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];

		memset(cells, EMPTY, cols);
		if (t->status == TASK_LEAKED)
			paint(cells, cols, t->end, last, first, last, LEAK);
		if (t->status == TASK_RELEASED)
			paint(cells, cols, t->end, t->release, first, last,
			    HELD);
		paint(cells, cols, t->start, t->end, first, last, ALIVE);
		padded(&sb, chart_task_label(t, nhosts, lw, label,
		    sizeof(label)), lw);
		sbuf_adds(&sb, " " BAR);
		for (c = 0; c < cols; c++)
			sbuf_adds(&sb, glyph[cells[c]]);
		note_of(t, tolerance, note, sizeof(note));
		sbuf_printf(&sb, BAR " %s\n", text_clean(note, nw, label,
		    sizeof(label)));
	}
	free(cells);
	if (hidden > 0)
		sbuf_printf(&sb, "(%zu more task%s not shown: see --max-rows)\n",
		    hidden, hidden == 1 ? "" : "s");
	sbuf_printf(&sb, "%s alive  %s memory held after the end  %s leaked: "
	    "never came back\n", glyph[ALIVE], glyph[HELD], glyph[LEAK]);
out:
	if (outfile_ewrite_file(f, sb.buf, sb.len) < 0)
		rc = -1;
	sbuf_release(&sb);
	return rc;
}
