/* SPDX-License-Identifier: ISC */
/*
 * svgzoom.h: the zoom of a chart's time axis in a browser.
 *
 * gnuplot is asked, after each picture, where it put the plot area and
 * what range its time axis shows (svgzoom_ask); what it tells is read
 * back after the picture's </svg> (svgzoom_told) and given to the
 * picture as attributes (svgzoom_attrs: on the report's <figure>, on a
 * standalone SVG's root, svgzoom_write), which svgzoom_js reads.
 */
#ifndef GPUMEM_SVGZOOM_H
#define GPUMEM_SVGZOOM_H

#include <stddef.h>
#include <stdio.h>

#include "sbuf.h"

/* The zoom of every chart's time axis, in a <script>. */
extern const char svgzoom_js[];

/* What gnuplot told of a picture. */
struct svgbox {
	int has;		/* it told the plot area and range: */
	double box[4];		/* left, top, right, bottom in SVG pixels */
	double x0, x1;		/* the time axis's range, gnuplot's x values */
	char xfmt[32];		/* the time axis's format, as the script says */
};

/* b told nothing yet, its time format the one script sets. */
void svgzoom_init(struct svgbox *b, const struct sbuf *script);
/*
 * Append to script what makes gnuplot tell, after the picture it just
 * drew, its plot area and time range (nothing when its gnuplot cannot).
 */
void svgzoom_ask(struct sbuf *script);
/*
 * What gnuplot told at p (just after a picture's </svg>, blank lines
 * allowed) into b: return the bytes it takes, 0 when it told nothing.
 */
size_t svgzoom_told(const char *p, struct svgbox *b);
/* " data-box=... data-x=... data-xfmt=..." to out; nothing unless told. */
void svgzoom_attrs(struct sbuf *out, const struct svgbox *b);
/*
 * The SVG document svg[0, len) that gnuplot drew appended to out, with
 * what it told after it (read into b, initialised by svgzoom_init) in
 * the attributes of its root and the zoom's script before its </svg>
 * (as it was when it told nothing): 0, or -1 when it holds no SVG.
 */
int svgzoom_standalone(struct sbuf *out, const char *svg, size_t len,
    struct svgbox *b);

#endif
