/* SPDX-License-Identifier: ISC */
/*
 * tasktab.c: the task table written (tasktab.h): a writer opened in a
 * format, its rows sent to the format's file (CSV and JSON as they come,
 * the others kept to the end), closed; the notes and delays as every
 * format writes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtime.h"
#include "tabstate.h"

const char *const tab_status_names[] = {"released", "leaked", "running"};

int
tasktab_fmt(const char *name)
{
	static const char *const names[] = {"csv", "text", "md", "json",
	    "openmetrics"};
	int i;

	for (i = 0; i < 5; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

struct tasktab_w *
tasktab_open(FILE *f, enum tasktab_fmt fmt, unsigned flags)
{
	struct tasktab_w *w = ecalloc(1, sizeof(*w));

	w->f = f;
	w->fmt = fmt;
	w->utc = (flags & TT_UTC) != 0;
	w->iso = (flags & TT_ISO) != 0;
	w->color = (flags & TT_COLOR) != 0 && fmt == TT_TEXT;
	return w;
}

void
tasktab_width(struct tasktab_w *w, unsigned cols)
{
	w->cols = cols;
}

void
tab_out(struct tasktab_w *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return;
	va_start(ap, fmt);
	if (vfprintf(w->f, fmt, ap) < 0)
		w->failed = 1;
	va_end(ap);
}

/* The units of tab_decimals(): 1 s, 0.1 s, 0.01 s, 1 ms. */
const uint64_t tab_unit_ns[] = {NS_PER_SEC, 100 * NS_PER_MS,
    10 * NS_PER_MS, NS_PER_MS};

/* Decimals a delay deserves: what one sampling interval can tell. */
int
tab_decimals(uint64_t interval)
{
	if (interval == 0)
		return 3;
	if (interval >= NS_PER_SEC)
		return 0;
	if (interval >= 100 * NS_PER_MS)
		return 1;
	if (interval >= 10 * NS_PER_MS)
		return 2;
	return 3;
}

char *
tasktab_delay(uint64_t delay, uint64_t interval, char *buf)
{
	int d = tab_decimals(interval);
	uint64_t q = (delay + tab_unit_ns[d] / 2) / tab_unit_ns[d];
	uint64_t scale = d == 0 ? 1 : d == 1 ? 10 : d == 2 ? 100 : 1000;

	if (d == 0)
		snprintf(buf, 32, "%llu", (unsigned long long)q);
	else
		snprintf(buf, 32, "%llu.%0*llu", (unsigned long long)(q / scale),
		    d, (unsigned long long)(q % scale));
	return buf;
}

static const char *const note_names[] = {"gap", "ambiguous", "pid-reused",
    "resumed", "last-sample", "estimated", "device-only", "exact-exit",
    "holder", "log-stopped", "not-found"};
#define NNOTES (sizeof(note_names) / sizeof(note_names[0]))

char *
tasktab_notes(unsigned notes, char *buf)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NNOTES; i++)
		if (notes & (1U << i)) {
			n += (size_t)snprintf(buf + n, TASKTAB_NOTESZ - n, "%s%s",
			    n > 0 ? ";" : "", note_names[i]);
			if (n >= TASKTAB_NOTESZ)
				BUG("task notes longer than TASKTAB_NOTESZ");
		}
	return buf;
}

void
tab_note_list(struct sbuf *sb)
{
	size_t i;

	for (i = 0; i < NNOTES; i++)
		sbuf_printf(sb, "%s%s", i == 0 ? "" : i + 1 < NNOTES ? ", " :
		    " or ", note_names[i]);
}

/* Parse what tasktab_notes() wrote; -1 on a name it never writes. */
int
tab_parse_notes(const char *s, size_t n, unsigned *notes)
{
	size_t i, k;

	*notes = 0;
	while (n > 0) {
		const char *semi = memchr(s, ';', n);
		size_t len = semi != NULL ? (size_t)(semi - s) : n;

		for (k = 0; k < NNOTES; k++)
			if (strlen(note_names[k]) == len &&
			    memcmp(s, note_names[k], len) == 0)
				break;
		if (k == NNOTES)
			return -1;
		*notes |= 1U << k;
		i = semi != NULL ? len + 1 : len;
		s += i;
		n -= i;
	}
	return 0;
}

static void
keep(struct tasktab_w *w, const struct task *t)
{
	/* Two offsets a row: one element of egrow's is the pair. */
	w->rows = egrow(w->rows, w->nrows, sizeof(*w->rows));
	w->offs = egrow(w->offs, w->nrows, 2 * sizeof(*w->offs));
	w->rows[w->nrows] = *t;
	w->offs[2 * w->nrows] = w->strs.len;
	sbuf_add(&w->strs, t->host, strlen(t->host) + 1);
	w->offs[2 * w->nrows + 1] = w->strs.len;
	sbuf_add(&w->strs, t->name, strlen(t->name) + 1);
	w->nrows++;
}

int
tasktab_put(struct tasktab_w *w, const struct task *t)
{
	switch (w->fmt) {
	case TT_CSV:
		tab_put_csv(w, t);
		break;
	case TT_JSON:
		tab_put_json(w, t);
		break;
	default:
		keep(w, t);
		break;
	}
	w->n++;
	return w->failed ? -1 : 0;
}

int
tasktab_close(struct tasktab_w *w)
{
	int rc;

	switch (w->fmt) {
	case TT_CSV:
		if (w->n == 0)
			tab_csv_header(w);
		break;
	case TT_JSON:
		if (w->n == 0)
			tab_json_open(w, "]\n}\n");
		else
			tab_out(w, "\n  ]\n}\n");
		break;
	case TT_OPENMETRICS:
		tab_put_metrics(w);
		break;
	default:
		tab_put_table(w);
		break;
	}
	if (fflush(w->f) != 0)
		w->failed = 1;
	rc = w->failed ? -1 : 0;
	free(w->rows);
	free(w->offs);
	sbuf_release(&w->strs);
	free(w);
	return rc;
}
