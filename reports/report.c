/* SPDX-License-Identifier: ISC */
/*
 * report.c: gpumem-report, logs or record streams in, one self-contained
 * HTML page out: the headline numbers (tasks, leaks, the worst delays,
 * p50/p95/max delay with the sampling interval they are known to), per
 * GPU the usage chart and the Gantt chart as inline SVG (drawn by
 * gnuplot), and the task table, sortable.  No network, no external file:
 * a CI artifact or a mail attachment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chartopt.h"
#include "cmd.h"
#include "collect.h"
#include "config.h"
#include "esc.h"
#include "gnuplot.h"
#include "gtime.h"
#include "page.h"
#include "util.h"

#define MAXROWS 50		/* Gantt rows per GPU by default, at most */
#define PAGE_ROWS 120		/* Gantt rows of a page by default, about */
#define MINROWS 10		/* Gantt rows per GPU by default, at least */
#define PAGE_BUCKETS 1200	/* usage chart columns of a page, about */
#define MINBUCKETS 100		/* usage chart columns per GPU, at least */
#define PAGE_TIPS 300		/* usage tooltip columns of a page, about */
#define MINTIPS 30		/* usage tooltip columns per GPU, at least */
#define PAGE_GPUS 32		/* GPUs charted on the page itself by default */
#define MARKS 12		/* tasks marked per GPU on the usage chart */
#define CHART_W 1100		/* chart width in SVG pixels */
#define NOCHARTS "gnuplot is not installed"

enum {
	OPT_MAXROWS = OPT_CHART_LAST,
	OPT_PAGEGPUS
};

static const struct cmd_opt opts[] = {
	{OPT_TITLE, "title", "TEXT", "the report's title"},
	{OPT_MAXROWS, "max-rows", "N", "Gantt rows per GPU, the most leaked "
	    "and latest first (50,\nfewer for many GPUs)"},
	{OPT_PAGEGPUS, "page-gpus", "N", "GPUs charted on the page itself "
	    "(32; 0: all); with more\nand -o FILE, their charts go to a "
	    "page a host beside FILE"},
	CHARTOPT_UTC,
	CFGOPT_OPTS,
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct cfgopts cfg;
	const char *title;
	size_t maxrows;
	size_t page_gpus;	/* GPUs charted on the first page, at most */
	int utc;
	int nocharts;		/* gnuplot is missing: the page without charts */
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case OPT_MAXROWS:
		o->maxrows = (size_t)num_opt_u64("--max-rows", arg, 1, 100000);
		return 1;
	case OPT_PAGEGPUS:
		o->page_gpus = (size_t)num_opt_u64("--page-gpus", arg, 0,
		    COLLECT_MAXPAGES);
		return 1;
	case OPT_TITLE:
		o->title = arg;
		return 1;
	case OPT_UTC:
		o->utc = 1;
		return 1;
	}
	return 0;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [-o FILE] [--title TEXT] [--max-rows N] [--utc]\n"
	    "[--config FILE] [--tasks FILE] [--tolerance MIB] [read options] "
	    "[FILE ...]",
	.about = "Write a one-page HTML report of record streams (or of "
	    "anything gpumem read\nreads): the headline numbers (tasks, "
	    "leaks, the worst release delays,\np50/p95/max delay), per GPU "
	    "the usage chart and the Gantt chart, and the\ntask table, "
	    "sortable.  One self-contained file: charts are inline SVG "
	    "drawn\nby gnuplot, nothing is fetched.  With no FILE, or when "
	    "FILE is -, read\nstandard input.",
	.opts = opts,
	.exits = "0 success (without gnuplot: no charts), 2 trouble (usage, "
	    "unreadable\ninput, gnuplot failed)",
	.flags = CMD_OUTPUT | CMD_READ,
	.option = option,
	.run = run,
};

/* A line of the list of marks under a usage chart (chart_mark_list). */
static void
mark_item(void *page, size_t num, const char *when, const char *text)
{
	sbuf_printf(page, "<li value=\"%zu\">%s ", num, when);
	page_html(page, text);
	sbuf_adds(page, "</li>\n");
}

/* GPU gi's section, its charts added to dr. */
static void
gpu_section(struct sbuf *page, struct drawing *dr,
    const struct collection *c, size_t gi, int utc, int date,
    size_t maxrows, int nocharts, uint32_t tolerance)
{
	const struct gpuview *v = c->g[gi];
	struct gpuview *one[1];
	struct chart ch;
	struct sbuf script = SBUF_INIT;
	const struct task **rows;
	struct chart_ids ids;
	struct tips tips;
	size_t n, hidden;
	char pfx[32], mb[32];

	memset(&ch, 0, sizeof(ch));
	ch.term = TERM_SVG;
	ch.utc = utc;
	ch.prog = progname;
	ch.align = 1;
	ch.tolerance = tolerance;
	ch.nocolorbox = 1;
	sbuf_printf(page, "<section class=\"gpu\" id=\"gpu-%zu\">\n<h2>", gi);
	if (c->nhosts > 1) {
		page_html(page, *v->host ? v->host : "-");
		sbuf_adds(page, " ");
	}
	sbuf_printf(page, "GPU %u", v->gpu);
	if (v->total > 0)
		sbuf_printf(page, " <small>(%s)</small>", num_fmt_mib(v->total,
		    mb));
	sbuf_adds(page, "</h2>\n");
	if (nocharts) {
		sbuf_printf(page, "<p class=\"note nocharts\">No charts: %s."
		    "</p>\n</section>\n", NOCHARTS);
		return;
	}
	if (v->nsamples > 0) {
		one[0] = (struct gpuview *)v;
		ch.width = CHART_W;
		ch.height = 380;
		ch.title = "";
		memset(&ids, 0, sizeof(ids));
		ids.ncols = PAGE_TIPS / c->ng;
		if (ids.ncols < MINTIPS)
			ids.ncols = MINTIPS;
		ch.ids = &ids;
		ids.drawn = ecalloc(v->nmarks + 1, 1);
		ch.drawn = &ids.drawn;
		chart_usage(&script, &ch, one, 1, c->first, c->last, c->nhosts);
		ch.ids = NULL;
		ch.drawn = NULL;
		page_usage_tips(&tips, &ids, v, c->nhosts, utc, date,
		    tolerance);
		snprintf(pfx, sizeof(pfx), "u%zu_", gi);
		drawing_add(dr, page, &script, pfx, "usage", &tips);
		/* What the chart's numbered markers say. */
		if (v->nmarks > 0) {
			struct sbuf list = SBUF_INIT;
			size_t noroom;

			noroom = chart_mark_list(v, c->nhosts, tolerance, utc,
			    date, ids.drawn, mark_item, &list);
			if (noroom > 0)
				sbuf_printf(page, "<p class=\"note noroom\">"
				    "%zu of %zu marks had no room on the "
				    "chart.</p>\n", noroom, v->nmarks);
			sbuf_adds(page, "<ol class=\"marks\">\n");
			sbuf_add(page, list.buf, list.len);
			sbuf_adds(page, "</ol>\n");
			sbuf_release(&list);
		}
		free(ids.drawn);
		ids.drawn = NULL;
	} else
		sbuf_adds(page, "<p class=\"note\">No whole-device samples of "
		    "this GPU.</p>\n");
	n = chart_gantt_rows(&c->tasks, 1, v->host, v->gpu, maxrows, &rows,
	    &hidden);
	if (n > 0) {
		sbuf_reset(&script);
		chart_default_size(&ch, 1, n);
		ch.width = CHART_W;
		ch.title = NULL;
		ch.ids = &ids;
		chart_gantt(&script, &ch, rows, n, hidden, c->first, c->last,
		    c->nhosts);
		page_gantt_tips(&tips, &ids, rows, n, c->nhosts, utc, date,
		    tolerance);
		snprintf(pfx, sizeof(pfx), "g%zu_", gi);
		drawing_add(dr, page, &script, pfx, "gantt", &tips);
	} else if (n == 0)
		sbuf_adds(page, "<p class=\"note\">No tasks on this GPU.</p>\n");
	free(rows);
	sbuf_release(&script);
	sbuf_adds(page, "</section>\n");
}

/* The page's head: title, style, the header line of what was read. */
static void
page_head(struct sbuf *page, const struct collection *c, const char *title,
    int utc, int date)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ], z[64];
	uint64_t samples = 0;
	size_t i;

	sbuf_adds(page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<meta name=\"generator\" content=\"gpumem-report "
	    GPUMEM_VERSION "\">\n<title>");
	page_html(page, title != NULL ? title : "GPU memory report");
	sbuf_printf(page, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<header>\n<h1>", page_style);
	page_html(page, title != NULL ? title : "GPU memory report");
	sbuf_adds(page, "</h1>\n<p class=\"meta\">");
	for (i = 0; i < c->ng; i++)
		samples += c->g[i]->nsamples;
	if (c->have_range) {
		struct sbuf m = SBUF_INIT;

		sbuf_printf(&m, "%s to %s %s", chart_clock(c->first, utc, 1, a),
		    chart_clock(c->last, utc, date, b), chart_zone(c->first,
		    utc, z));
		page_html(page, m.buf);
		sbuf_release(&m);
		sbuf_adds(page, " &middot; ");
	}
	/* Every GPU read, also those past the charts' cap. */
	sbuf_printf(page, "%s%zu GPU%s", c->uncounted ? "more than " : "",
	    c->ng + c->ng_uncharted, c->ng + c->ng_uncharted == 1 ? "" : "s");
	if (c->ng_uncharted > 0)
		sbuf_printf(page, " (%zu charted)", c->ng);
	sbuf_printf(page, " &middot; %llu samples", (unsigned long long)
	    (samples + c->uncharted));
	if (c->interval != 0)
		sbuf_printf(page, " every %s s", gtime_fmt_secs(c->interval, a));
	sbuf_adds(page, " &middot; from ");
	if (cmd.argc == 0)
		sbuf_adds(page, "standard input");
	for (i = 0; i < (size_t)cmd.argc; i++) {
		if (i > 0)
			sbuf_adds(page, ", ");
		page_html(page, strcmp(cmd.argv[i], "-") == 0 ?
		    "standard input" : cmd.argv[i]);
	}
	sbuf_adds(page, "</p>\n</header>\n");
}

/* The colour scale of release delays, one legend for every Gantt chart. */
static void
delay_legend(struct sbuf *page)
{
	const char *label, *colour;
	size_t k;

	sbuf_adds(page, "<p class=\"legend\">Gantt charts: memory held after "
	    "a task's end, coloured by how long (the same scale in every "
	    "chart):");
	for (k = 0; (label = chart_delay_stop(k, &colour)) != NULL; k++)
		sbuf_printf(page, " <span class=\"swatch\" style=\"background:"
		    "%s\"></span>%s", colour, label);
	sbuf_adds(page, "</p>\n");
}

/*
 * A page of many GPUs gets smaller charts, so that it stays small: the
 * usage curves fewer columns (their extremes kept), the Gantt charts
 * fewer rows (the most interesting kept) unless --max-rows says.
 */
static void
page_budget(struct collection *c, struct opts *o)
{
	size_t i, cols;

	if (c->ng == 0)
		return;
	cols = PAGE_BUCKETS / c->ng;
	if (cols < MINBUCKETS)
		cols = MINBUCKETS;
	for (i = 0; i < c->ng; i++)
		if (c->g[i]->ser.b != NULL)
			series_shrink(&c->g[i]->ser, cols);
	if (o->maxrows == 0) {
		o->maxrows = PAGE_ROWS / c->ng;
		if (o->maxrows < MINROWS)
			o->maxrows = MINROWS;
		if (o->maxrows > MAXROWS)
			o->maxrows = MAXROWS;
	}
}

/*
 * The pages of a fleet: when the GPUs charted are more than --page-gpus
 * and the page goes to a named file, their charts go to pages beside it,
 * one a host, STEM-HOST.html (STEM: the file's name less .html; HOST: its
 * letters, digits, '.', '_' and '-', any other byte '_').  A host of more
 * GPUs than that has several, STEM-HOST+2.html and on; a host whose name
 * reads as an earlier one's is STEM-HOST+hK.html, K its place among the
 * hosts ('+' is in no HOST: no name is taken twice).  The first page
 * keeps the overview, whose cells link to them, the numbers and the task
 * table.
 */
struct subpage {
	size_t first, n;	/* its sections: c->g[first .. first + n) */
	char *base;		/* its host's first page's path less .html */
	char *path;		/* beside the first page */
	const char *name;	/* path's last part: the links */
};

/* The subpages of c (per GPUs a page at most) in *out; their number. */
static size_t
subpages(const struct collection *c, size_t per, const char *output,
    struct subpage **out)
{
	struct subpage *v = NULL;
	struct sbuf base = SBUF_INIT;
	size_t i, j, n = 0, len = strlen(output), part = 0, hosts = 0;
	const char *slash, *q;

	if (len > 5 && strcmp(output + len - 5, ".html") == 0)
		len -= 5;
	else if (len > 4 && strcmp(output + len - 4, ".htm") == 0)
		len -= 4;
	for (i = 0; i < c->ng; i++) {
		const char *h = c->g[i]->host;
		int same = n > 0 && strcmp(h, c->g[v[n - 1].first]->host) == 0;

		if (same && v[n - 1].n < per) {
			v[n - 1].n++;
			continue;
		}
		v = egrow(v, n, sizeof(*v));
		v[n].first = i;
		v[n].n = 1;
		if (same) {
			v[n].base = estrdup(v[n - 1].base);
			part++;
		} else {
			sbuf_reset(&base);
			sbuf_add(&base, output, len);
			sbuf_addc(&base, '-');
			for (q = *h ? h : "gpus"; *q; q++)
				sbuf_addc(&base, (*q >= 'a' && *q <= 'z') ||
				    (*q >= 'A' && *q <= 'Z') || (*q >= '0' &&
				    *q <= '9') || *q == '.' || *q == '_' ||
				    *q == '-' ? *q : '_');
			hosts++;
			for (j = 0; j < n; j++)
				if (strcmp(v[j].base, base.buf) == 0)
					break;
			if (j < n)
				sbuf_printf(&base, "+h%zu", hosts);
			v[n].base = estrdup(base.buf);
			part = 1;
		}
		sbuf_reset(&base);
		sbuf_adds(&base, v[n].base);
		if (part > 1)
			sbuf_printf(&base, "+%zu", part);
		sbuf_adds(&base, ".html");
		v[n].path = estrdup(base.buf);
		slash = strrchr(v[n].path, '/');
		v[n].name = slash != NULL ? slash + 1 : v[n].path;
		n++;
	}
	sbuf_release(&base);
	*out = v;
	return n;
}

/*
 * Sections [first, first + n) with the legend before them appended to
 * text, their charts to dr.
 */
static void
sections(struct sbuf *text, struct drawing *dr, const struct collection *c,
    size_t first, size_t n, const struct opts *o, int date,
    uint32_t tolerance)
{
	size_t i;

	if (!o->nocharts && n > 0)
		delay_legend(text);
	for (i = first; i < first + n; i++)
		gpu_section(text, dr, c, i, o->utc, date, o->maxrows,
		    o->nocharts, tolerance);
}

/* The head and the sections of subpage sp, appended to text. */
static void
subpage_text(struct sbuf *text, struct drawing *dr,
    const struct subpage *sp, const struct collection *c,
    const struct opts *o, int date, uint32_t tolerance, const char *index)
{
	struct sbuf t = SBUF_INIT;
	const char *host = c->g[sp->first]->host;

	sbuf_printf(&t, "%s: %s", o->title != NULL ? o->title :
	    "GPU memory report", *host ? host : "GPUs");
	page_head(text, c, t.buf, o->utc, date);
	sbuf_release(&t);
	sbuf_adds(text, "<p class=\"meta\"><a href=\"");
	esc_url(text, index);
	sbuf_printf(text, "#index\">&larr; every GPU, the numbers and the "
	    "task table</a> &middot; this page: %zu GPU%s of ", sp->n,
	    sp->n == 1 ? "" : "s");
	page_html(text, *host ? host : "the input");
	sbuf_adds(text, "</p>\n");
	sections(text, dr, c, sp->first, sp->n, o, date, tolerance);
	sbuf_printf(text, "<script>\n%s</script>\n</body>\n</html>\n",
	    svgzoom_js);
}

/* Write text[from, to), dr's charts in it, to path; 0 or -1 (said why). */
static int
subpage_write(const char *path, const struct sbuf *text, size_t from,
    size_t to, const struct drawing *dr)
{
	struct sbuf page = SBUF_INIT;
	struct outfile of;
	int rc = drawing_fill(&page, text, from, to, dr);

	if (rc == 0) {
		if (outfile_open(&of, path) < 0)
			rc = -1;
		else if (outfile_ewrite_file(of.f, page.buf, page.len) < 0) {
			msg("%s: write error: %s", path, strerror(errno));
			outfile_abort(&of);
			rc = -1;
		} else if (outfile_commit(&of) < 0)
			rc = -1;
	}
	sbuf_release(&page);
	return rc;
}

/*
 * The whole page in page, its charts' pages beside output when it splits
 * (see struct subpage); return 0, or -1 when a chart or a page failed
 * (said why).  All charts are drawn by one gnuplot run (see struct
 * drawing), the pages put together after.
 */
static int
page_write(struct sbuf *page, const struct collection *c,
    const struct opts *o, uint32_t tolerance, const char *output)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ];
	struct sbuf text = SBUF_INIT;
	struct drawing dr;
	struct subpage *sp = NULL;
	char **href = NULL;
	const char *slash;
	int date = 0, rc;
	size_t i, j, nsp = 0, *at, start;

	/*
	 * Times carry their date when the input runs over more than one
	 * day as the page shows them (UTC with --utc, else local): a clock
	 * alone would be ambiguous.
	 */
	if (c->have_range)
		date = strncmp(chart_clock(c->first, o->utc, 1, a),
		    chart_clock(c->last, o->utc, 1, b), 10) != 0;
	if (output != NULL && !o->nocharts && o->page_gpus > 0 &&
	    c->ng > o->page_gpus)
		nsp = subpages(c, o->page_gpus, output, &sp);
	for (i = 0; i < nsp; i++)
		cmd_not_input(&cmd, "a page of charts", sp[i].path);
	memset(&dr, 0, sizeof(dr));
	at = ecalloc(nsp + 1, sizeof(*at));
	if (nsp > 0) {
		href = ecalloc(c->ng, sizeof(*href));
		for (i = 0; i < nsp; i++)
			for (j = 0; j < sp[i].n; j++)
				href[sp[i].first + j] = (char *)sp[i].name;
	}
	slash = output != NULL ? strrchr(output, '/') : NULL;
	for (i = 0; i < nsp; i++) {
		at[i] = text.len;
		subpage_text(&text, &dr, &sp[i], c, o, date, tolerance,
		    slash != NULL ? slash + 1 : output);
	}
	start = text.len;
	page_head(&text, c, o->title, o->utc, date);
	/* A cut of the page is said on it, whatever -q says to stderr. */
	if (c->ng_uncharted > 0)
		sbuf_printf(&text, "<p class=\"warn\" id=\"cut\">This page "
		    "charts the first %zu GPUs seen of %s%zu: the %llu "
		    "samples of the others are left out of the charts; their "
		    "tasks are counted in the numbers and listed in the task "
		    "table.</p>\n", c->ng, c->uncounted ? "more than " : "",
		    c->ng + c->ng_uncharted, (unsigned long long)c->uncharted);
	if (o->nocharts)
		sbuf_printf(&text, "<p class=\"warn\">%s: the charts need it, "
		    "this page has none.</p>\n", GNUPLOT_MISSING);
	page_overview(&text, c, c->nhosts, href);
	page_headline(&text, c, o->utc, date, c->nhosts, tolerance);
	if (nsp > 0) {
		sbuf_printf(&text, "<p class=\"note\" id=\"pages\">The charts "
		    "of these %zu GPUs are on %zu pages beside this one (a "
		    "cell above opens its GPU):", c->ng, nsp);
		for (i = 0; i < nsp; i++) {
			sbuf_adds(&text, i > 0 ? ", <a href=\"" : " <a href=\"");
			esc_url(&text, sp[i].name);
			sbuf_adds(&text, "\">");
			page_html(&text, *c->g[sp[i].first]->host ?
			    c->g[sp[i].first]->host : "GPUs");
			if (i > 0 && strcmp(sp[i].base, sp[i - 1].base) == 0)
				sbuf_printf(&text, " (from GPU %u)",
				    c->g[sp[i].first]->gpu);
			sbuf_adds(&text, "</a>");
		}
		sbuf_adds(&text, ".</p>\n");
	}
	sections(&text, &dr, c, 0, nsp > 0 ? 0 : c->ng, o, date, tolerance);
	at[nsp] = text.len;
	rc = drawing_run(&dr);
	for (i = 0; rc == 0 && i < nsp; i++)
		rc = subpage_write(sp[i].path, &text, at[i], i + 1 < nsp ?
		    at[i + 1] : start, &dr);
	if (rc == 0)
		rc = drawing_fill(page, &text, start, text.len, &dr);
	if (c->ng == 0)
		sbuf_adds(page, "<p class=\"note\">The input holds no "
		    "whole-device samples: there is no usage to chart.</p>\n");
	sbuf_adds(page, "<h2 id=\"tasklist\">Tasks</h2>\n<p class=\"note\">"
	    "Click a column to sort by it.</p>\n");
	page_task_table(page, c, o->utc, date, tolerance);
	sbuf_printf(page, "<footer>Written by gpumem-report %s.  "
	    "<b>usage</b> = total &minus; free; <b>attributed</b>: held by "
	    "live processes; <b>unattributed</b>: no live process owns it.  "
	    "A task is one life of a process on a GPU; its memory is "
	    "<b>released</b> when unattributed memory is back within the "
	    "tolerance (%u MiB) of its level before the end, and "
	    "<b>leaked</b> when it never is.</footer>\n"
	    "<script>\n%s%s</script>\n</body>\n</html>\n", GPUMEM_VERSION,
	    tolerance, page_table_js, svgzoom_js);
	drawing_release(&dr);
	for (i = 0; i < nsp; i++) {
		free(sp[i].path);
		free(sp[i].base);
	}
	free(sp);
	free(href);
	free(at);
	sbuf_release(&text);
	return rc;
}

/* The page of the inputs (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct config cfg;
	struct collect_opts co;
	struct collection col;
	struct sbuf page = SBUF_INIT, note = SBUF_INIT;
	int status = EXIT_TROUBLE;
	FILE *f;

	c->how = CMD_DISCARD;
	/* A page of HTML is no use on a terminal (as plot's PNG). */
	if (c->output == NULL && isatty(STDOUT_FILENO))
		die("standard output is a terminal: not writing an HTML page "
		    "there (use -o FILE)");
	/*
	 * Without gnuplot the numbers, lists and table are still worth a
	 * page: said once here and at the top of the page.
	 */
	if (!gnuplot_available()) {
		o->nocharts = 1;
		warnmsg("%s: the report has no charts", GNUPLOT_MISSING);
	}
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_TASKTAB | COLLECT_USAGE;
	co.needs = "a record stream or a log, or task tables and usage "
	    "curves";
	co.width = CHART_W;
	co.marks = MARKS;
	co.keep_tasks = 1;
	/* Every GPU of a fleet is charted when its charts can go beside. */
	if (c->output != NULL && strcmp(c->output, "-") != 0 &&
	    !o->nocharts)
		co.maxgpus = COLLECT_MAXPAGES;
	status = chartopt_collect(&col, &co, c, &o->cfg, &cfg);
	if (col.kind == 0)
		goto out;
	page_budget(&col, o);
	if (page_write(&page, &col, o, cfg.tolerance, c->output != NULL &&
	    strcmp(c->output, "-") != 0 ? c->output : NULL) < 0) {
		status = EXIT_TROUBLE;
		goto out;
	}
	if ((f = cmd_output(c)) == NULL) {
		status = EXIT_TROUBLE;
		goto out;
	}
	c->how = outfile_ewrite_file(f, page.buf, page.len) < 0 ?
	    CMD_WRITE_ERROR : CMD_COMMIT;
	/* Said by the skeleton once the file is in place (cmd.h). */
	if (c->output != NULL) {
		sbuf_printf(&note, "%s: %zu GPU%s, %llu tasks, %llu leaked",
		    c->output, col.ng, col.ng == 1 ? "" : "s",
		    (unsigned long long)col.ntasks,
		    (unsigned long long)col.nleaked);
		c->committed_note = note.buf;	/* the skeleton frees it */
	}
out:
	sbuf_release(&page);
	collection_release(&col);
	config_release(&cfg);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o = {CFGOPTS_INIT, NULL, 0, PAGE_GPUS, 0, 0};

	cmd.ctx = &o;
	cmd.sets[0] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
