/* SPDX-License-Identifier: ISC */
/*
 * chart.h: the gnuplot scripts of gpumem's charts, shared by plot, gantt
 * and report, and the small helpers their text needs.
 *
 * A script is self-contained: the data come inline as named data blocks
 * ($g0_usage << EOD ... EOD), so "--script" output can be restyled and run
 * with "gnuplot FILE > chart.png" on another machine.  Every string from
 * the input or the command line (titles, hosts, names, labels) goes
 * through esc_gnuplot() (esc.h), and nowhere else, not even a comment:
 * nothing in it can end its line or be run, and the terminals run
 * noenhanced, so no process name is ever interpreted ("train_v2" stays
 * "train_v2").
 *
 * Times are drawn in local time (TZ, or --tz) unless utc is set: gnuplot
 * knows no zones, so each time is written shifted by its zone's offset
 * and formatted as if it were UTC.
 *
 * Stable marks for tests and for people who restyle: in the usage chart
 * each GPU's curves are the plot elements titled "usage", "attributed",
 * "unattributed" and "total"; in the Gantt chart every task is one box of
 * the element titled "alive", and every leak one box of "leaked: never
 * came back".  The SVG terminal writes each plot element as a <g
 * id="gnuplot_plot_..."> holding its key entry's <text> and its boxes
 * (polygons, the key's sample among them).
 */
#ifndef GPUMEM_CHART_H
#define GPUMEM_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "collect.h"
#include "util.h"

enum chart_term { TERM_PNG, TERM_SVG, TERM_PDF, TERM_DUMB };

/*
 * gnuplot's dumb terminal draws at most this many characters a side;
 * asked for more, it draws 79x24 and says nothing.
 */
#define CHART_DUMB_MAX 1024

struct chart {
	enum chart_term term;
	unsigned width, height;	/* pixels (pdf: at 96 per inch); dumb: chars */
	int utc;		/* times in UTC, else local */
	const char *title;	/* NULL: a title of our own */
	const char *prog;	/* who wrote the script (its first comment) */
	int align;		/* usage and Gantt charts of one page share
				   their plot area and time axis */
	int notasks;		/* the input says nothing of tasks (a usage
				   curve): no task counts, no task keys */
	uint32_t tolerance;	/* MiB: what came back of a leak, less is
				   noise (chart_back_late) */
	int nocolorbox;		/* Gantt: no colour bar (the page has one
				   legend of chart_delay_stop's) */
	struct chart_ids *ids;	/* when not NULL, told where the bars
				   are (a usage chart: of one GPU) */
	struct sbuf *tips;	/* when not NULL, the usage chart appends
				   the tooltip of each marker it draws,
				   each ending with '\0' (chart_svg_tips) */
	unsigned char **drawn;	/* usage, when not NULL: drawn[i][k] says
				   whether panel i's marker k+1 had room
				   (drawn[i] NULL, or room for its nmarks) */
	int probe;		/* usage and Gantt, dumb: the script prints
				   the lines of each panel's plot area
				   (chart_dumb_lines; the Gantt chart: one
				   panel) */
	const int *lines;	/* usage, dumb, when not NULL: lines[i],
				   the height of panel i's plot area in
				   lines as gnuplot draws it (-1: unknown);
				   no marker row on its top border */
};

/*
 * The fill of the box of each numbered marker of a usage chart (a light
 * grey, #ebebea): what chart_svg_tips finds in gnuplot's SVG.
 */
#define CHART_TIP_FILL "rgb(235, 235, 234)"

/*
 * Which plot elements of a chart hold its bars (gnuplot's SVG: <g
 * id="gnuplot_plot_N">), 0 when none.  For tooltips added to the SVG.
 * Gantt: the lives (after their key's sample, one polygon a row in
 * order), the held times (no key sample, one a released row in order),
 * the leaks (after their key's sample, one a leaked row in order).
 * Usage chart of one GPU, which then draws them: cols, an invisible bar
 * for each column of chart_tip_cols(v, ncols) in order, blocks, one
 * for each leak block of chart_leak_blocks in order (no key samples), and
 * marks, one for each marker drawn, in order of their numbers (the
 * markers of chart_marks; a marker with no room on the chart is not
 * drawn: drawn[k] says whether marker k+1 is).
 */
struct chart_ids {
	int life, held, leak;
	size_t ncols;		/* usage: tip columns asked for, at most */
	int cols, blocks, marks;
	unsigned char *drawn;	/* usage, when not NULL: room for nmarks */
};

/*
 * A column of a usage chart's tooltips: its time range on the axis
 * (x0..x1), the time of its last sample, and the curves there (MiB).
 */
struct tipcol {
	uint64_t x0, x1, t;
	int64_t usage, attr, unattr;
};

/*
 * The tooltip columns of v's curves: its buckets in at most max groups
 * of neighbours (those without a usage sample left out), into out (room
 * for max).  Return the number written.
 */
size_t chart_tip_cols(const struct gpuview *v, size_t max,
    struct tipcol *out);

/*
 * The marked tasks of v drawn as leak blocks on its usage chart
 * (leaked, how much known), bottom to top, into out (room for
 * v->nmarks).  Return the number written.
 */
size_t chart_leak_blocks(const struct gpuview *v, const struct task **out);

/*
 * The marked tasks of v as its usage chart numbers their markers: in
 * order of their end (marker 1 first), into out (room for v->nmarks).
 * Return the number written.  The list under a chart (report) and the
 * one plot writes name each by its number and chart_mark_text.
 */
size_t chart_marks(const struct gpuview *v, const struct task **out);

/*
 * A mark's text, for its tooltip and the list: the task's label and what
 * it did: "gpu0 4242 python3: memory back 20 s after its end",
 * "gpu0 17 train: 2.0 GiB never came back", "...: leaked, how much is
 * unknown", "...: still running at the end".  buf holds cap bytes.
 */
char *chart_mark_text(const struct task *t, int nhosts, uint32_t tolerance,
    char *buf, size_t cap);

/*
 * The list of v's marks, as under its chart: line(ctx, number, the time
 * of its end (chart_clock of utc and date), chart_mark_text) for each
 * marker in order of their numbers, the text of a marker with no room on
 * the chart (drawn[k] 0 for marker k+1; drawn NULL: all drawn) ending
 * in CHART_NOROOM.  Return the number of those.
 */
#define CHART_NOROOM " (not drawn: no room)"
size_t chart_mark_list(const struct gpuview *v, int nhosts,
    uint32_t tolerance, int utc, int date, const unsigned char *drawn,
    void (*line)(void *ctx, size_t num, const char *when, const char *text),
    void *ctx);

/*
 * The k-th stop of the fixed colour scale of release delays (chart_gantt):
 * its label ("10 s") and colour ("#fee08b"); NULL past the last.
 */
const char *chart_delay_stop(size_t k, const char **colour);

/* The colour of the last stop at or below a delay of ns. */
const char *chart_delay_colour(uint64_t ns);

/* "png", "svg", "pdf", "dumb" (also "text" for dumb); -1 when unknown. */
int chart_term_name(const char *s);

/* The terminal an output file's extension asks for; -1 when unknown. */
int chart_term_of_path(const char *path);

/* "1200x800"; return 0, or -1 when it is not WIDTHxHEIGHT in range. */
int chart_parse_size(const char *s, unsigned *w, unsigned *h);

/*
 * Append the script of the usage chart: one panel per GPU of g[0..n) that
 * has whole-device samples (the others have no curve to draw), the
 * curves of each, its ceiling, and its marked tasks (the end of each, the
 * time its memory stayed held as a band, leaked memory as a shaded block
 * under the unattributed curve to the end of the log).  first..last is
 * the time axis.  Return the number of data points written.
 */
size_t chart_usage(struct sbuf *sb, const struct chart *ch,
    struct gpuview *const *g, size_t n, uint64_t first, uint64_t last,
    int nhosts);
/*
 * dumb: the height in lines of each of the n panels' plot areas, as
 * gnuplot draws them (its top border to its bottom border): probe, a
 * chart_usage or chart_gantt (n = 1) script written with ch->probe set,
 * is run and what it prints read into lines[0..n) (-1 where it told
 * nothing).  0, or -1 when gnuplot failed (said).
 */
int chart_dumb_lines(const struct sbuf *probe, size_t n, int *lines);

/*
 * Choose the Gantt rows among the tasks of l (of host/gpu only when
 * onegpu): all when there are at most max, else the max most interesting
 * (collect_task_interest), then in order of host, GPU and start.  *rows (to be
 * freed) points into l.  Return the number of rows; *hidden counts the
 * tasks left out.
 */
size_t chart_gantt_rows(const struct tasklist *l, int onegpu,
    const char *host, uint32_t gpu, size_t max, const struct task ***rows,
    size_t *hidden);

/*
 * Append the script of the Gantt chart of rows[0..n) (top to bottom): a
 * bar for each task's life, a bar from its end to its release coloured by
 * the delay, and for a leak a bar to the end of the log (last) with the
 * leaked memory written on it.  The delay's colour scale is fixed, the
 * same in every chart: stops at 0, 1 s, 10 s, 1 min and 10 min+ (green to
 * red), one step of the colour bar each; the $held block gives each bar
 * its place on the bar (its last column).
 */
void chart_gantt(struct sbuf *sb, const struct chart *ch,
    const struct task *const *rows, size_t n, size_t hidden, uint64_t first,
    uint64_t last, int nhosts);

/*
 * A default pixel (or character) size for a chart of n panels or rows;
 * dumb: the terminal's, CHART_DUMB_MAX a side at most.
 */
void chart_default_size(struct chart *ch, int gantt, size_t n);

/*
 * Of a leaked task, the MiB that came back after its end (a partial
 * leak): held - leaked when that is more than tolerance (less is the
 * noise the engine forgives too), else 0 (all leaked, or how much is
 * unknown).
 */
uint32_t chart_back_late(const struct task *t, uint32_t tolerance);

/*
 * A leak in words: "2.0 GiB never came back" (pre "" and sep unused), or
 * for a partial leak "2.0 GiB never came back" sep "6.0 GiB came back
 * late"; "how much is unknown" without device samples.  buf holds cap
 * bytes.
 */
char *chart_leak_text(const struct task *t, uint32_t tolerance,
    const char *sep, char *buf, size_t cap);


/*
 * A task's label: "gpu0 4242 python3 eval.py" ("node1:0 ..." when there
 * are several hosts), valid UTF-8 without control characters, at most
 * maxchars characters (cut with "..." ).  buf holds cap bytes.
 */
char *chart_task_label(const struct task *t, int nhosts, size_t maxchars,
    char *buf, size_t cap);

/* Characters (code points) of a valid UTF-8 string. */
size_t chart_width(const char *s);

/*
 * A wall-clock time for people: "00:01:40", or "2026-01-01 00:01:40" with
 * date; local unless utc.  buf holds GTIME_BUFSZ bytes.
 */
char *chart_clock(uint64_t t, int utc, int date, char *buf);

/* Whether first and last fall on different days (times then say theirs). */
int chart_multiday(uint64_t first, uint64_t last, int utc);

/*
 * Write the SVG document svg[0..len) that gnuplot drew from a usage
 * chart's script to f, each marker's invisible box given the next text of
 * tips (ch->tips) as its <title>, which browsers show on hover: no
 * script.  Return 0, or -1 on a write error (errno set).
 */
int chart_svg_tips(const char *svg, size_t len, const struct sbuf *tips,
    FILE *f);

/* The zone times are shown in: "UTC", "CET"...; buf holds 64 bytes. */
char *chart_zone(uint64_t t, int utc, char *buf);

#endif
