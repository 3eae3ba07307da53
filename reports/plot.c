/* SPDX-License-Identifier: ISC */
/*
 * plot.c: gpumem-plot, a record stream (or a usage curve) in, a time-series
 * chart out: per GPU, memory in use, attributed and unattributed, the
 * total as a ceiling, each task's end and the time its memory stayed held,
 * leaked memory shaded.  Drawn by gnuplot; large inputs are reduced to a
 * few points per pixel column before gnuplot sees them (series.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chartopt.h"
#include "cmd.h"
#include "collect.h"
#include "readopt.h"
#include "util.h"

#define MARKS 12		/* tasks marked per GPU by default */

enum {
	OPT_MARKS = OPT_CHART_LAST
};

static const struct cmd_opt opts[] = {
	CHARTOPT_OUTPUT,
	CHARTOPT_TERMINAL,
	{OPT_SIZE, "size", "WxH", "pixels (dumb: characters); default 1200 "
	    "wide, 300 a GPU"},
	CHARTOPT_SCRIPT,
	CHARTOPT_TITLE,
	{OPT_MARKS, "marks", "N", "tasks marked per GPU, the most leaked and "
	    "latest first (12)"},
	CHARTOPT_UTC,
	CFGOPT_OPTS,
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct chartopts co;
	struct cfgopts cfg;
	size_t marks;
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	if (val == OPT_MARKS) {
		o->marks = (size_t)num_opt_u64("--marks", arg, 0, 1000);
		return 1;
	}
	return 0;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [--script] [-T png|svg|pdf|dumb] [--size WxH] "
	    "[--title TEXT]\n[--marks N] [--utc] [--config FILE] "
	    "[--tasks FILE] [--tolerance MIB]\n[-o FILE] [read options] "
	    "[FILE ...]",
	.about = "Draw GPU memory over time from a record stream (or anything "
	    "gpumem read\nreads, or the CSV of gpumem usage): per GPU, memory "
	    "in use, the part live\nprocesses hold (attributed), the part no "
	    "live process owns (unattributed)\nand the total; each task's end, "
	    "the time its memory stayed held after it,\nand leaked memory "
	    "shaded.  gnuplot draws it.  With no FILE, or when FILE\nis -, "
	    "read standard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, gnuplot "
	    "missing\nor failed)",
	.flags = CMD_OUTPUT | CMD_READ,
	.option = option,
	.run = run,
};

#define DUMB_PANEL 18	/* lines of a panel in -T dumb by default */
#define DUMB_LOW 3	/* fewer rows inside a plot's frame show no curve */
/* Panels of a text chart by default: more go on further charts below. */
#define DUMB_PAGE ((CHART_DUMB_MAX - 4) / DUMB_PANEL)

/*
 * Whether a GPU has a panel: whole-device samples and a curve, as
 * chart_usage draws them.  A GPU known only from its processes has
 * none; the chart's arrays a panel each (ch->drawn, ch->lines) skip it.
 */
static int
is_panel(const struct gpuview *v)
{
	return v->nsamples > 0 && v->ser.b != NULL;
}

static size_t
panels(const struct collection *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->ng; i++)
		if (is_panel(c->g[i]))
			n++;
	return n;
}

/* Whether a panel of the chart has marks. */
static int
has_marks(const struct collection *col)
{
	size_t i;

	for (i = 0; i < col->ng; i++)
		if (col->g[i]->nmarks > 0)
			return 1;
	return 0;
}

/* One line of the list of marks, on standard error. */
static void
mark_line(void *ctx, size_t num, const char *when, const char *text)
{
	(void)ctx;
	msg("mark %zu at %s: %s", num, when, text);
}

/*
 * What the numbered markers say: the list of each panel's marks (its
 * GPU in each line), unless -q.
 */
static void
mark_lists(const struct collection *col, const struct chart *ch)
{
	size_t i, k = 0;
	/* The day with each time, when the data run over more than one. */
	int date = chart_multiday(col->first, col->last, ch->utc);

	if (verbosity < 1 || ch->notasks)
		return;
	for (i = 0; i < col->ng; i++) {
		const struct gpuview *v = col->g[i];
		size_t noroom;

		if (!is_panel(v))
			continue;
		noroom = chart_mark_list(v, col->nhosts, ch->tolerance, ch->utc,
		    date, ch->drawn[k++], mark_line, NULL);
		if (noroom > 0)
			msg("%s%sGPU %u: %zu of %zu marks had no room on the "
			    "chart", col->nhosts > 1 ? (*v->host ? v->host :
			    "-") : "", col->nhosts > 1 ? " " : "", v->gpu, noroom,
			    v->nmarks);
	}
}

/*
 * dumb with --size: say when panels came out too low to show a curve
 * (fewer than DUMB_LOW rows inside a plot area's frame, as gnuplot drew
 * them: lines[] from border to border, a panel's each, in the order
 * chart_usage draws them), and the size that gives each the default
 * height.  gnuplot squeezes the title, axes and key into what is left;
 * the chart is drawn as asked all the same.
 */
static void
too_low(const struct chart *ch, const struct collection *col,
    const int *lines)
{
	size_t i, n = 0, low = 0;

	for (i = 0; i < col->ng; i++)
		if (is_panel(col->g[i]) && lines[n++] - 1 < DUMB_LOW)
			low++;
	if (low > 0)
		warnmsg("--size %ux%u: %zu of %zu plots have under %d rows "
		    "inside their frame, too few to show the curves (%ux%zu "
		    "gives each panel %d lines, as without --size)", ch->width,
		    ch->height, low, n, DUMB_LOW, ch->width,
		    DUMB_PANEL * n + 4, DUMB_PANEL);
}

/*
 * The panels of col->g[i0..i1) as one chart, appended to script; k0 is
 * the number of the first (ch->drawn and lines hold a panel's each).
 * Text: gnuplot draws it once first to tell the lines of each panel's
 * plot area (into lines[k0...]), so that no marker row lies on its top
 * border.  The data points written, or -1 when gnuplot failed (said).
 */
static long long
draw_page(struct opts *o, const struct collection *col, size_t i0,
    size_t i1, size_t k0, struct sbuf *script, int *lines)
{
	struct chart *ch = &o->co.ch;
	unsigned char **drawn = ch->drawn;
	struct sbuf *tips = ch->tips;
	long long n = -1;

	ch->drawn = drawn + k0;
	if (ch->term == TERM_DUMB && !o->co.script_only &&
	    (has_marks(col) || o->co.sized)) {
		struct sbuf probe = SBUF_INIT;
		int rc;

		ch->probe = 1;
		ch->tips = NULL;
		chart_usage(&probe, ch, col->g + i0, i1 - i0, col->first,
		    col->last, col->nhosts);
		ch->probe = 0;
		ch->tips = tips;
		rc = chart_dumb_lines(&probe, i1 - i0, lines + k0);
		sbuf_release(&probe);
		if (rc < 0)
			goto out;
		ch->lines = lines + k0;
	}
	n = (long long)chart_usage(script, ch, col->g + i0, i1 - i0,
	    col->first, col->last, col->nhosts);
out:
	ch->drawn = drawn;
	ch->lines = NULL;
	return n;
}

/* The chart of the inputs (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct config cfg;
	struct collect_opts co;
	struct collection col;
	struct chart *ch = &o->co.ch;
	struct sbuf script = SBUF_INIT, tips = SBUF_INIT;
	int status = EXIT_TROUBLE;
	size_t npoints, i, k;
	unsigned base;
	int *lines = NULL, paged;
	FILE *f;

	c->how = CMD_DISCARD;
	chartopt_term(&o->co, c->output, 0);
	if (!o->co.sized)
		chart_default_size(ch, 0, 1);
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_USAGE;
	co.needs = "a record stream, a log or a usage curve";
	/* A bucket per pixel column (character in dumb) of the plot area. */
	co.width = ch->width;
	co.marks = o->marks;
	status = chartopt_collect(&col, &co, c, &o->cfg, &cfg);
	if (col.kind == 0)
		goto out;
	ch->tolerance = cfg.tolerance;
	if (!o->co.sized)
		chart_default_size(ch, 0, panels(&col));
	ch->notasks = col.kind == COLLECT_USAGE;
	ch->tips = &tips;
	/* A panel's each, as chart_usage numbers them (chart.h). */
	ch->drawn = ecalloc(col.ng + 1, sizeof(*ch->drawn));
	for (i = 0, k = 0; i < col.ng; i++)
		if (is_panel(col.g[i]))
			ch->drawn[k++] = ecalloc(col.g[i]->nmarks + 1, 1);
	lines = ecalloc(col.ng + 1, sizeof(*lines));
	/*
	 * dumb: the terminal's height is for one panel; each needs about 18
	 * lines to be read (axes, title, a few rows of curve), and a text
	 * chart has CHART_DUMB_MAX lines at most: without --size, DUMB_PAGE
	 * panels a chart, the charts one below another (gnuplot draws them
	 * in turn, each from a reset).
	 */
	paged = ch->term == TERM_DUMB && !o->co.sized;
	base = ch->height;
	for (i = 0, k = 0, npoints = 0;;) {
		size_t end = i, m = 0;
		long long pts;

		/* A GPU without a panel goes with the panels before it. */
		while (end < col.ng && (!paged || m < DUMB_PAGE ||
		    !is_panel(col.g[end])))
			m += (size_t)is_panel(col.g[end++]);
		if (paged)
			ch->height = base > DUMB_PANEL * m + 4 ? base :
			    (unsigned)(DUMB_PANEL * m + 4);
		if (i > 0)
			sbuf_adds(&script, "reset\n");
		if ((pts = draw_page(o, &col, i, end, k, &script, lines)) < 0) {
			status = EXIT_TROUBLE;
			goto out;
		}
		npoints += (size_t)pts;
		k += m;
		if ((i = end) >= col.ng)
			break;
	}
	if (o->co.sized && ch->term == TERM_DUMB && !o->co.script_only)
		too_low(ch, &col, lines);
	note("%zu GPU%s, %zu points reach gnuplot", col.ng,
	    col.ng == 1 ? "" : "s", npoints);
	if ((f = cmd_output(c)) == NULL ||
	    chartopt_write(&o->co, &script, f, cmd_outname(c)) < 0)
		status = EXIT_TROUBLE;
	else {
		c->how = CMD_COMMIT;
		mark_lists(&col, ch);
	}
out:
	if (ch->drawn != NULL)
		for (i = 0; i < col.ng; i++)
			free(ch->drawn[i]);
	free(ch->drawn);
	ch->drawn = NULL;
	ch->tips = NULL;
	ch->lines = NULL;
	free(lines);
	sbuf_release(&tips);
	sbuf_release(&script);
	collection_release(&col);
	config_release(&cfg);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;

	chartopt_init(&o.co);
	o.cfg = (struct cfgopts)CFGOPTS_INIT;
	o.marks = MARKS;
	cmd.ctx = &o;
	cmd.sets[0] = CHARTOPT_SET(&o.co);
	cmd.sets[1] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
