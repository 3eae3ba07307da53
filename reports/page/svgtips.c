/* SPDX-License-Identifier: ISC */
/*
 * svgtips.c: the charts as the page holds them: gnuplot's SVG inlined
 * (ids prefixed, white space cut) and the tooltips of their bars.
 */
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "esc.h"
#include "gtime.h"
#include "page.h"
#include "tasktab.h"
#include "util.h"

/*
 * Text or an attribute value of the page: esc_xml, the one escaper of
 * markup (HTML takes XML's entities; invalid UTF-8 and control
 * characters become U+FFFD).  A name, not a copy: main's calls stay.
 */
void
page_html(struct sbuf *sb, const char *s)
{
	esc_xml(sb, s, 1);
}

/*
 * Inline an SVG document that gnuplot wrote: drop what comes before
 * <svg (the XML declaration and the DOCTYPE, which HTML does not take),
 * and give every id, and every reference to one, the prefix pfx: each
 * gnuplot picture names its parts alike (gnuplot_canvas, gpPt0...), and
 * in one page ids must differ.  Only markup is rewritten, never text.
 */
/* The next text of group g, or NULL when there is none. */
static const char *
tip_next(const struct tips *tp, int g, size_t *off)
{
	if (*off >= tp->text[g].len)
		return NULL;
	return tp->text[g].buf + *off;
}

int
page_svg_inline(struct sbuf *sb, const char *svg, size_t len, const char *pfx,
    const struct tips *tp)
{
	const char *p = NULL, *end = svg + len, *tip = NULL;
	size_t i, npoly = 0, off[3] = {0, 0, 0};
	int intag = 0, g = -1;

	for (i = 0; i + 4 <= len; i++)
		if (memcmp(svg + i, "<svg", 4) == 0) {
			p = svg + i;
			break;
		}
	if (p == NULL)
		return -1;
	while (p < end) {
		static const char *const refs[] = {"id='", "id=\"", "href='#",
		    "href=\"#", "url(#"};
		size_t k;

		if (*p == '<')
			intag = 1;
		else if (*p == '>')
			intag = 0;
		if (intag && (p == svg || p[-1] == ' ' || p[-1] == '\t' ||
		    p[-1] == ':' || p[-1] == '(' || p[-1] == '\n')) {
			for (k = 0; k < sizeof(refs) / sizeof(refs[0]); k++) {
				size_t rl = strlen(refs[k]);

				if ((size_t)(end - p) > rl &&
				    memcmp(p, refs[k], rl) == 0)
					break;
			}
			if (k < sizeof(refs) / sizeof(refs[0])) {
				size_t rl = strlen(refs[k]);

				sbuf_add(sb, p, rl);
				sbuf_adds(sb, pfx);
				p += rl;
				/* A plot element: are its polygons bars? */
				if (tp != NULL && k < 2 && (size_t)(end - p) >
				    13 && memcmp(p, "gnuplot_plot_", 13) == 0) {
					int n = atoi(p + 13), j;

					g = -1;
					npoly = 0;
					for (j = 0; j < 3; j++)
						if (n > 0 && tp->plot[j] == n)
							g = j;
				}
				continue;
			}
		}
		if (g >= 0 && *p == '<' && (size_t)(end - p) > 8 &&
		    memcmp(p, "<polygon", 8) == 0 && npoly++ >= tp->skip[g] &&
		    (tip = tip_next(tp, g, &off[g])) != NULL)
			off[g] += strlen(tip) + 1;
		if (tip != NULL && intag && *p == '/' && p + 1 < end &&
		    p[1] == '>') {
			sbuf_adds(sb, "><title>");
			page_html(sb, tip);
			sbuf_adds(sb, "</title></polygon>");
			tip = NULL;
			intag = 0;
			p += 2;
			continue;
		}

		/*
		 * Smaller, same picture: a run of white space in a tag is
		 * one space, and white space alone between tags goes (a
		 * <text> holds words, never only blanks).
		 */
		if (intag && (*p == ' ' || *p == '\t' || *p == '\n')) {
			const char *q = p;

			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n'))
				q++;
			if (p[-1] != '=' && q < end && *q != '=' && *q != '>' &&
			    *q != '/')
				sbuf_addc(sb, ' ');
			p = q;
			continue;
		} else if (!intag && p > svg && p[-1] == '>') {
			const char *q = p;

			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n'))
				q++;
			if (q < end && *q == '<' && q > p) {
				sbuf_addc(sb, '\n');
				p = q;
				continue;
			}
		}
		sbuf_addc(sb, *p++);
	}
	return 0;
}

/*
 * The tooltips of a Gantt chart's bars: the task (GPU, pid, name), its
 * life, what it held and its release delay, or what it leaked.
 */
void
page_gantt_tips(struct tips *tp, const struct chart_ids *ids,
    const struct task *const *rows, size_t n, int nhosts, int utc, int date,
    uint32_t tolerance)
{
	size_t i;
	char label[160], mb[32], a[GTIME_BUFSZ], b[GTIME_BUFSZ], d[96];

	memset(tp, 0, sizeof(*tp));
	tp->plot[0] = ids->life;
	tp->plot[1] = ids->held;
	tp->plot[2] = ids->leak;
	tp->skip[0] = 1;	/* the key's sample */
	tp->skip[2] = 1;
	for (i = 0; i < n; i++) {
		const struct task *t = rows[i];
		struct sbuf one = SBUF_INIT;
		int k;

		sbuf_printf(&one, "%s\n%s to %s, held %s",
		    chart_task_label(t, nhosts, 80, label, sizeof(label)),
		    chart_clock(t->start, utc, date, a), chart_clock(t->end,
		    utc, 0, b), num_fmt_mib(t->held, mb));
		if (t->status == TASK_RELEASED)
			sbuf_printf(&one, "\nreleased after %s",
			    tasktab_delay_range(t, d));
		else if (t->status == TASK_LEAKED)
			sbuf_printf(&one, "\nleaked: %s", chart_leak_text(t,
			    tolerance, ", ", d, sizeof(d)));
		else
			sbuf_adds(&one, "\nrunning at the end");
		/* The life's bar, and the bar after it says the same. */
		for (k = 0; k < 3; k++)
			if (k == 0 || (k == 1 && t->status == TASK_RELEASED) ||
			    (k == 2 && t->status == TASK_LEAKED))
				sbuf_add(&tp->text[k], one.buf, one.len + 1);
		sbuf_release(&one);
	}
}

/*
 * The tooltips of a GPU's usage chart: on each column its time and
 * curves, on each leak block the task, what it leaked and since when.
 */
void
page_usage_tips(struct tips *tp, const struct chart_ids *ids,
    const struct gpuview *v, int nhosts, int utc, int date,
    uint32_t tolerance)
{
	struct tipcol *c;
	const struct task **lk;
	size_t i, n;
	char label[320], a[GTIME_BUFSZ];

	memset(tp, 0, sizeof(*tp));
	tp->plot[0] = ids->cols;
	tp->plot[1] = ids->blocks;
	tp->plot[2] = ids->marks;
	c = ereallocarray(NULL, ids->ncols + 1, sizeof(*c));
	n = chart_tip_cols(v, ids->ncols, c);
	for (i = 0; i < n; i++) {
		sbuf_printf(&tp->text[0], "%s\nusage %lld MiB, attributed "
		    "%lld MiB, unattributed %lld MiB", chart_clock(c[i].t, utc,
		    date, a), (long long)c[i].usage, (long long)c[i].attr,
		    (long long)c[i].unattr);
		sbuf_addc(&tp->text[0], '\0');
	}
	free(c);
	lk = ereallocarray(NULL, v->nmarks + 1, sizeof(*lk));
	n = chart_leak_blocks(v, lk);
	for (i = 0; i < n; i++) {
		sbuf_printf(&tp->text[1], "%s\nleaked %lu MiB since %s",
		    chart_task_label(lk[i], nhosts, 80, label, sizeof(label)),
		    (unsigned long)lk[i]->leaked, chart_clock(lk[i]->end, utc,
		    date, a));
		sbuf_addc(&tp->text[1], '\0');
	}
	n = chart_marks(v, lk);
	for (i = 0; i < n; i++)
		if (ids->drawn[i]) {
			sbuf_printf(&tp->text[2], "%zu. %s\n", i + 1,
			    chart_clock(lk[i]->end, utc, date, a));
			chart_mark_text(lk[i], nhosts, tolerance, label,
			    sizeof(label));
			sbuf_add(&tp->text[2], label, strlen(label) + 1);
		}
	free(lk);
}
