/* SPDX-License-Identifier: ISC */
/*
 * promline.h: a sample line of the Prometheus text exposition format,
 * "name{label="value",...} value [timestamp]", split into its parts.
 * The tokenizer only: what the metrics mean is prom.c's.
 */
#ifndef GPUMEM_PROMLINE_H
#define GPUMEM_PROMLINE_H

#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define PROM_MAXLABELS 64

/* One sample line of the exposition, parsed by prom_parse(). */
struct prom_line {
	const char *name;	/* the metric name, in the line */
	size_t nl;
	size_t nlab;
	struct {
		const char *name;	/* in the line, nl bytes */
		size_t nl;
		size_t voff;		/* its value, in vals */
	} lab[PROM_MAXLABELS];
	struct sbuf vals;	/* unescaped values, NUL-separated */
	const char *value;	/* the value as written, vl bytes */
	size_t vl;
	int has_ts;
	uint64_t ts_ms;		/* the sample's timestamp, milliseconds */
};

/*
 * Parse a sample line, "name{a="x", b="y"} value [timestamp]": labels in
 * any order, spaces after commas, a trailing comma, the escapes \\, \"
 * and \n in values.  The line is not modified; pl->vals is reused (free
 * it with sbuf_release).  Return 0, or -1 with *why saying what was
 * expected.
 */
int prom_parse(const char *line, struct prom_line *pl, const char **why);

/* The value of label name, or NULL. */
const char *prom_label(const struct prom_line *pl, const char *name);

#endif
