/* SPDX-License-Identifier: ISC */
/*
 * tabstate.h: a task table being written (struct tasktab_w), shared by
 * the files of the task table module (tasktab.h is its contract), one
 * per format, each reading and writing its own: tasktab.c opens, puts
 * and closes (rows to the format's writer), and writes notes and delays;
 * tabcsv.c the CSV (written, sniffed and read back), tabjson.c the JSON
 * object, tabtext.c the tables for people (text, md), tabmetrics.c the
 * OpenMetrics gauges, tabdecl.c the declared tasks of --tasks (CSV or
 * YAML, read).  Private to analyze/engine/.
 */
#ifndef GPUMEM_TABSTATE_H
#define GPUMEM_TABSTATE_H

#include <stdint.h>
#include <stdio.h>

#include "tasktab.h"
#include "util.h"

struct tasktab_w {
	FILE *f;
	enum tasktab_fmt fmt;
	int utc, iso, color;
	unsigned cols;		/* text: fit in this many, 0 any */
	size_t n;
	int failed;
	struct task *rows;	/* text, md, openmetrics: kept to the end */
	size_t nrows;
	struct sbuf strs;	/* their strings, NUL-separated offsets */
	size_t *offs;		/* host and name offsets per row */
};

/* A task's status as every format writes it (enum task_status). */
extern const char *const tab_status_names[];
/* The units of tab_decimals(), in ns. */
extern const uint64_t tab_unit_ns[];

/* tasktab.c: the writer, the notes and delays as the table writes them. */
void tab_out(struct tasktab_w *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int tab_decimals(uint64_t interval);
int tab_parse_notes(const char *s, size_t n, unsigned *notes);
/*
 * Append every name tab_parse_notes() takes, from its one table, as a
 * message lists them: "gap, ambiguous, ... or not-found".
 */
void tab_note_list(struct sbuf *sb);

/* tabcsv.c: the CSV table. */
void tab_csv_header(struct tasktab_w *w);
void tab_put_csv(struct tasktab_w *w, const struct task *t);

/* tabjson.c: the JSON object. */
void tab_json_open(struct tasktab_w *w, const char *rest);
void tab_put_json(struct tasktab_w *w, const struct task *t);

/* tabtext.c: the tables for people (text, md). */
void tab_put_table(struct tasktab_w *w);

/* tabmetrics.c: OpenMetrics gauges. */
void tab_put_metrics(struct tasktab_w *w);

#endif
