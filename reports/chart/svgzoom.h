/* SPDX-License-Identifier: ISC */
/*
 * svgzoom.h: the zoom of a chart's time axis in a browser.
 */
#ifndef GPUMEM_SVGZOOM_H
#define GPUMEM_SVGZOOM_H

/* The zoom of every chart's time axis, in a <script>. */
extern const char zoom_js[];

#endif
