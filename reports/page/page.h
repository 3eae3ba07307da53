/* SPDX-License-Identifier: ISC */
/*
 * page.h: the report's page, the module's own header (reports/page/,
 * used by reports/report.c only): its template (template.c), the charts
 * inlined and their tooltips (svgtips.c), drawn by one gnuplot run
 * (drawing.c), the overview of every GPU (overview.c), the headline
 * and the task table (numbers.c).  Each function appends to its sbuf
 * and dies only when memory runs out.
 */
#ifndef PAGE_H
#define PAGE_H

#include <stddef.h>
#include <stdint.h>

#include "chart.h"
#include "collect.h"
#include "sbuf.h"
#include "svgzoom.h"

/* The style sheet, in the page's <style>. */
extern const char page_style[];
/* The task table's script (the table of page_task_table), in a <script>. */
extern const char page_table_js[];

/*
 * Text or an attribute value of the page, escaped (esc_xml: invalid
 * UTF-8 and control characters become U+FFFD).
 */
void page_html(struct sbuf *sb, const char *s);

/*
 * Tooltips for a chart's bars: for each of its bar elements
 * (chart_ids), the text of each bar in order, after skip polygons (the
 * key's sample).  page_svg_inline gives each such polygon a <title> child,
 * which browsers show on hover: no script, nothing fetched.
 */
struct tips {
	int plot[3];
	size_t skip[3];
	struct sbuf text[3];	/* the texts, each ending with '\0' */
};


/*
 * Inline the SVG document svg[0, len) that gnuplot wrote into sb, its
 * ids prefixed with pfx, the bars of tp (or none when NULL) given their
 * tooltips: 0, or -1 when it holds no <svg.
 */
int page_svg_inline(struct sbuf *sb, const char *svg, size_t len,
    const char *pfx, const struct tips *tp);
/* The tooltips of a Gantt chart's rows[0, n), in *tp (to be released). */
void page_gantt_tips(struct tips *tp, const struct chart_ids *ids,
    const struct task *const *rows, size_t n, int nhosts, int utc,
    int date, uint32_t tolerance);
/* The tooltips of GPU v's usage chart, in *tp (to be released). */
void page_usage_tips(struct tips *tp, const struct chart_ids *ids,
    const struct gpuview *v, int nhosts, int utc, int date,
    uint32_t tolerance);

/*
 * The charts of one page, drawn by one gnuplot run (a run costs more to
 * start than a chart to draw): their scripts one after the other, each
 * after "reset session" (nothing of one chart is left to the next; each
 * sets its terminal), and of each its place in the page text, the prefix
 * of its ids, its class and its tooltips.  gnuplot writes an SVG document
 * a plot, in order; drawing_page puts the page together after.
 */
struct pchart {
	size_t at;		/* offset in the page text of its figure */
	char pfx[32];
	const char *cls;
	struct tips tips;	/* owned */
	size_t from, len;	/* its SVG document in svg, once drawn */
	struct svgbox zoom;	/* its plot area, as gnuplot told it */
};

struct drawing {
	struct sbuf script;
	struct pchart *v;
	size_t n;
	struct sbuf svg;	/* what gnuplot drew */
};


/* Add a chart (script, its tooltips tp, owned from now), at page->len. */
void drawing_add(struct drawing *dr, const struct sbuf *page,
    const struct sbuf *script, const char *pfx, const char *cls,
    const struct tips *tp);
void drawing_release(struct drawing *dr);
/*
 * Draw every chart of dr: 0, or -1 after a message.  Each chart's plot
 * area and time range, as gnuplot placed them, are read back with its
 * picture (struct pchart): drawing_fill gives them to the zoom.
 */
int drawing_run(struct drawing *dr);
/*
 * text[from, to) to out, the charts of dr placed in it in their
 * <figure>s (with data-box, data-x and data-xfmt: the plot area, the
 * time range and format svgzoom_js works on): 0, or -1 after a message.
 */
int drawing_fill(struct sbuf *out, const struct sbuf *text, size_t from,
    size_t to, const struct drawing *dr);

/*
 * The overview: a cell a GPU of c, linking to its section, on the page
 * href[section] when href is not NULL.
 */
void page_overview(struct sbuf *page, const struct collection *c, int nhosts,
    char *const *href);
/* The headline: cards, the worst delays, the leaks. */
void page_headline(struct sbuf *sb, const struct collection *c, int utc,
    int date, int nhosts, uint32_t tolerance);
/* The task table, its filters and its data (for page_table_js). */
void page_task_table(struct sbuf *sb, const struct collection *c, int utc,
    int date, uint32_t tolerance);

#endif
