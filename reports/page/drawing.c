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

/* What the script prints after each picture (drawing_add). */
#define BOX_MARK "<!--gpumem-box "

/* Add a chart whose script is in script, its figure at page->len. */
void
drawing_add(struct drawing *dr, const struct sbuf *page,
    const struct sbuf *script, const char *pfx, const char *cls,
    const struct tips *tp)
{
	struct pchart *pc;
	const char *fmt;
	size_t len;

	dr->v = egrow(dr->v, dr->n, sizeof(*dr->v));
	pc = &dr->v[dr->n++];
	pc->at = page->len;
	snprintf(pc->pfx, sizeof(pc->pfx), "%s", pfx);
	pc->cls = cls;
	pc->tips = *tp;
	pc->hasbox = 0;
	pc->xfmt[0] = '\0';
	if (script->buf != NULL &&
	    (fmt = strstr(script->buf, "set format x '")) != NULL) {
		fmt += 14;
		if ((len = strcspn(fmt, "'\n")) < sizeof(pc->xfmt))
			snprintf(pc->xfmt, sizeof(pc->xfmt), "%.*s", (int)len,
			    fmt);
	}
	sbuf_adds(&dr->script, "reset session\n");
	sbuf_add(&dr->script, script->buf, script->len);
	/*
	 * Where gnuplot put the plot area (in SVG pixels, y down) and the
	 * time axis's range, on standard output after the picture.
	 */
	sbuf_adds(&dr->script, "set print '-'\n"
	    "if (exists('GPVAL_TERM_XMIN') && exists('GPVAL_TERM_SCALE') &&"
	    " exists('GPVAL_X_MIN')) "
	    "print sprintf('" BOX_MARK "%.2f %.2f %.2f %.2f %.3f %.3f-->', "
	    "GPVAL_TERM_XMIN, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE - "
	    "GPVAL_TERM_YMAX, GPVAL_TERM_XMAX, GPVAL_TERM_YSIZE / "
	    "GPVAL_TERM_SCALE - GPVAL_TERM_YMIN, GPVAL_X_MIN, GPVAL_X_MAX)\n"
	    "set print\n");
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
	const char *p, *mark;

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
		p = dr->svg.buf + from;
		while (*p == '\n')
			p++;
		if (strncmp(p, BOX_MARK, strlen(BOX_MARK)) == 0 &&
		    (mark = strstr(p, "-->")) != NULL) {
			pc->hasbox = sscanf(p + strlen(BOX_MARK),
			    "%lf %lf %lf %lf %lf %lf", &pc->box[0], &pc->box[1],
			    &pc->box[2], &pc->box[3], &pc->x0, &pc->x1) == 6 &&
			    pc->box[2] > pc->box[0] && pc->box[3] > pc->box[1] &&
			    pc->x1 > pc->x0;
			from = (size_t)(mark + 3 - dr->svg.buf);
		}
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
		if (pc->hasbox) {
			sbuf_printf(out, " data-box=\"%.2f %.2f %.2f %.2f\" "
			    "data-x=\"%.3f %.3f\" data-xfmt=\"", pc->box[0],
			    pc->box[1], pc->box[2], pc->box[3], pc->x0, pc->x1);
			html(out, pc->xfmt);
			sbuf_addc(out, '"');
		}
		sbuf_adds(out, ">\n");
		if (svg_inline(out, dr->svg.buf + pc->from, pc->len, pc->pfx,
		    &pc->tips) < 0) {
			msg("gnuplot drew no SVG");
			return -1;
		}
		sbuf_adds(out, "</figure>\n");
	}
	sbuf_add(out, text->buf + from, to - from);
	return 0;
}
