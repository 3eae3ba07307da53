/* SPDX-License-Identifier: ISC */
/*
 * chartint.h: what the files of the charts share inside the module
 * (chart.c, usechart.c, usemarks.c, ganttchart.c): the colours, the
 * sizes of text, and the helpers of the scripts' common parts.  Not for
 * the commands: their contract is chart.h.
 */
#ifndef GPUMEM_CHARTINT_H
#define GPUMEM_CHARTINT_H

#include <stdint.h>

#include "chart.h"
#include "collect.h"
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
#define MARK_SLIDE 16		/* half markers a marker may move aside */
#define MARK_NEAR 2		/* the same, before it goes a row lower */
/* Aligned charts: the plot area, in fractions of the width. */
#define ALIGN_LEFT 0.2
#define ALIGN_RIGHT 0.84

/*
 * The x value of time t: seconds since the epoch, shifted by the zone's
 * offset at t so that gnuplot, which formats times as UTC, shows the
 * local clock.
 */
double chart_xval(uint64_t t, int utc);

/* The terminal, the fonts and what every chart shares. */
void chart_preamble(struct sbuf *sb, const struct chart *ch, const char *what);

/*
 * The time axis: its range, the data's first to last time, and format;
 * in text (dumb), cols the plot's width in characters: tics far enough
 * apart that their labels never run together.
 */
void chart_time_axis(struct sbuf *sb, const struct chart *ch, uint64_t first,
    uint64_t last, double cols);

/* The label of the time axis: its zone and the first day. */
void chart_time_label(struct sbuf *sb, const struct chart *ch, uint64_t first);

/* A range of times for a title: "2026-01-01 00:00:00 to 00:02:47 UTC". */
void chart_range_text(struct sbuf *sb, const struct chart *ch, uint64_t first,
    uint64_t last);

/*
 * dumb, a probe (ch->probe): after the plot of panel i, the script prints
 * the height of its plot area in lines, which chart_dumb_lines reads.
 */
void chart_probe_lines(struct sbuf *sb, size_t i);

/* qsort of tasks by end time, then pid; chart_by_end_p of task pointers. */
int chart_by_end(const void *a, const void *b);
int chart_by_end_p(const void *a, const void *b);

/*
 * The marks of panel idx of the usage chart and their numbered markers
 * (usemarks.c): the data block $g<idx>_marks, *nmarkers its lines,
 * their tooltips appended to ch->tips (times with their day when date).
 * xmin..xmax is the time axis, xpp the time of a pixel (a character in
 * text); gap the graph height between the rows and a ceiling under them.
 * Return the top of the y axis (MiB).
 */
double chart_panel_marks(struct sbuf *sb, const struct chart *ch,
    const struct gpuview *v, size_t idx, int nhosts, int date, double xpp,
    double xmin, double xmax, double gap, size_t *nmarkers);

#endif
