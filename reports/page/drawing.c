/* SPDX-License-Identifier: ISC */
/*
 * drawing.c: the charts of a page drawn by one gnuplot run, and put in
 * their places in the page's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "page.h"
#include "util.h"

/* Add a chart whose script is in script, its figure at page->len. */
void
drawing_add(struct drawing *dr, const struct sbuf *page,
    const struct sbuf *script, const char *pfx, const char *cls,
    const struct tips *tp)
{
	struct pchart *pc;

	dr->v = egrow(dr->v, dr->n, sizeof(*dr->v));
	pc = &dr->v[dr->n++];
	pc->at = page->len;
	snprintf(pc->pfx, sizeof(pc->pfx), "%s", pfx);
	pc->cls = cls;
	pc->tips = *tp;
	svgzoom_init(&pc->zoom, script);
	sbuf_adds(&dr->script, "reset session\n");
	sbuf_add(&dr->script, script->buf, script->len);
	svgzoom_ask(&dr->script);
}

void
drawing_release(struct drawing *dr)
{
	size_t i;
	int k;

	for (i = 0; i < dr->n; i++)
		for (k = 0; k < 3; k++)
			sbuf_release(&dr->v[i].tips.text[k]);
	free(dr->v);
	sbuf_release(&dr->script);
	sbuf_release(&dr->svg);
	memset(dr, 0, sizeof(*dr));
}

/*
 * Run gnuplot once on every chart of dr and find each one's SVG document:
 * return 0, or -1 after a message (gnuplot failed, or drew fewer SVG
 * documents than charts).
 */
int
drawing_run(struct drawing *dr)
{
	size_t i, from = 0;
	struct pchart *pc;

	if (dr->n == 0)
		return 0;
	if (gnuplot_run(dr->script.buf, dr->script.len, NULL, NULL,
	    &dr->svg) < 0)
		return -1;
	for (i = 0; i < dr->n; i++) {
		const char *end = dr->svg.buf != NULL ? strstr(dr->svg.buf +
		    from, "</svg>") : NULL;

		if (end == NULL) {
			msg("gnuplot drew %zu SVG pictures of %zu charts", i,
			    dr->n);
			return -1;
		}
		pc = &dr->v[i];
		pc->from = from;
		pc->len = (size_t)(end + 6 - (dr->svg.buf + from));
		if (end[6] == '\n')
			pc->len++;
		from += pc->len;
		/* Its plot area and time range, when gnuplot told them. */
		from += svgzoom_told(dr->svg.buf + from, &pc->zoom);
	}
	return 0;
}

/*
 * text[from, to) with the charts of dr drawn (drawing_run) whose place is
 * in it put there, appended to out: return 0, or -1 when gnuplot drew
 * something else than an SVG document (said).
 */
int
drawing_fill(struct sbuf *out, const struct sbuf *text, size_t from,
    size_t to, const struct drawing *dr)
{
	size_t i;

	for (i = 0; i < dr->n; i++) {
		const struct pchart *pc = &dr->v[i];

		if (pc->at < from || pc->at >= to)
			continue;
		sbuf_add(out, text->buf + from, pc->at - from);
		from = pc->at;
		sbuf_printf(out, "<figure class=\"chart %s\"", pc->cls);
		svgzoom_attrs(out, &pc->zoom);
		sbuf_adds(out, ">\n");
		if (page_svg_inline(out, dr->svg.buf + pc->from, pc->len,
		    pc->pfx, &pc->tips) < 0) {
			msg("gnuplot drew no SVG");
			return -1;
		}
		sbuf_adds(out, "</figure>\n");
	}
	sbuf_add(out, text->buf + from, to - from);
	return 0;
}
