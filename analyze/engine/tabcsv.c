/* SPDX-License-Identifier: ISC */
/*
 * tabcsv.c: the task table as CSV (tasktab.h), written and read back:
 * its rows written, a table told by its header, and read back into a
 * task list (plain or compressed, any version of the header, tables
 * joined with cat).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "gtime.h"
#include "input.h"
#include "tabstate.h"

static void
csv_str(struct tasktab_w *w, const char *s)
{
	char *buf = emalloc(2 * strlen(s) + 3);
	size_t n = csv_field(buf, s);

	if (!w->failed && fwrite(buf, 1, n, w->f) != n)
		w->failed = 1;
	free(buf);
}

void
tab_csv_header(struct tasktab_w *w)
{
	tab_out(w, "%s%s\n", TASK_HEADER, w->iso ? TASK_ISO_COLUMNS : "");
}

void
tab_put_csv(struct tasktab_w *w, const struct task *t)
{
	char d[32], lo[32], hi[32], nb[TASKTAB_NOTESZ];

	if (w->n == 0)
		tab_csv_header(w);
	csv_str(w, t->host);
	tab_out(w, ",%u,%u,", t->gpu, t->pid);
	csv_str(w, t->name);
	tab_out(w, ",%llu,%llu,%u,%u,", (unsigned long long)t->start,
	    (unsigned long long)t->end, t->peak, t->held);
	if (t->status == TASK_RELEASED)
		tab_out(w, "%llu,%s,0,", (unsigned long long)t->release,
		    tasktab_delay(t->delay, t->interval, d));
	else if (t->status == TASK_LEAKED && t->has_leaked)
		tab_out(w, ",,%u,", t->leaked);
	else
		tab_out(w, ",,,");
	tab_out(w, "%s,", tab_status_names[t->status]);
	if (t->status == TASK_RELEASED)
		/* The bounds in ms (interval 0: the finest tasktab_delay). */
		tab_out(w, "%s,%s,", tasktab_delay(t->delay_lo, 0, lo),
		    tasktab_delay(t->delay_hi, 0, hi));
	else
		tab_out(w, ",,");
	tab_out(w, "%s", tasktab_notes(t->notes, nb));
	if (w->iso) {
		char a[GTIME_BUFSZ], b[GTIME_BUFSZ], c[GTIME_BUFSZ];

		tab_out(w, ",%s,%s,%s", gtime_fmt(t->start, 1, a),
		    gtime_fmt(t->end, 1, b), t->status == TASK_RELEASED ?
		    gtime_fmt(t->release, 1, c) : "");
	}
	tab_out(w, "\n");
}

int
tasktab_sniff(const unsigned char *p, size_t n)
{
	size_t hl = sizeof(TASK_HEADER_V1) - 1;

	/* The older header is the start of the newer one. */
	return n >= hl && memcmp(p, TASK_HEADER_V1, hl) == 0 &&
	    (n == hl || p[hl] == '\n' || p[hl] == '\r' || p[hl] == ',');
}

int
tasktab_is_table(const char *path)
{
	return input_looks(path, sizeof(TASK_HEADER) + 1, tasktab_sniff);
}

static const char *
keep_str(struct tasklist *l, const char *s, size_t n)
{
	l->strs = egrow(l->strs, l->nstrs, sizeof(*l->strs));
	l->strs[l->nstrs] = estrndup(s, n);
	return l->strs[l->nstrs++];
}

/* An optional integer column; 1 present, 0 empty, -1 bad. */
static int
col_u64(const char *s, size_t n, uint64_t *v)
{
	if (n == 0)
		return 0;
	return num_parse_u64(s, n, v) == 0 ? 1 : -1;
}

/* Parse "2.5" seconds into ns. */
static int
secs(const char *s, size_t n, uint64_t *ns)
{
	char buf[32];

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return gtime_duration(buf, ns);
}

/*
 * The sampling interval a delay written as s[0..n) was rounded to: whole
 * seconds at 1 s sampling or more, tenths at 100 ms, and so on (see
 * tab_decimals()).  The table has no interval column; this is the finest
 * interval its writer could have had.
 */
static uint64_t
resolution(const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n);
	size_t d = dot != NULL ? n - (size_t)(dot - s) - 1 : 0;

	return d == 0 ? NS_PER_SEC : d == 1 ? 100 * NS_PER_MS :
	    d == 2 ? 10 * NS_PER_MS : NS_PER_MS;
}

/*
 * One CSV row of a task table into *t.  Quoted host and name are handled
 * as the record stream does them (one line; gpumem tasks never writes a
 * line break inside a name... it quotes them, so join lines first).  A
 * bad row: -1, *why says what is wrong (a message built into whyb).
 */
static int
parse_row(struct tasklist *l, char *line, struct task *t, const char **why,
    struct sbuf *whyb)
{
	char *f[18];
	size_t n[18];
	uint64_t v = 0;
	int i, rc, nf;

	nf = csv_split(line, f, n, 18, 0);
	if (nf < 0) {
		*why = "bad quoting";
		return -1;
	}
	/* 18: --iso-times, whose last three columns repeat the times. */
	if (nf != 12 && nf != 15 && nf != 18) {
		*why = nf > 15 ? "too many fields (expected 15, or 18 with "
		    "--iso-times)" :
		    "too few fields (expected 15, or 12 in older tables)";
		return -1;
	}
	memset(t, 0, sizeof(*t));
	if (num_parse_u32(f[1], n[1], &t->gpu) < 0 ||
	    num_parse_u32(f[2], n[2], &t->pid) < 0 ||
	    num_parse_u64(f[4], n[4], &t->start) < 0 ||
	    num_parse_u64(f[5], n[5], &t->end) < 0 ||
	    num_parse_u32(f[6], n[6], &t->peak) < 0 ||
	    num_parse_u32(f[7], n[7], &t->held) < 0 ||
	    col_u64(f[8], n[8], &t->release) < 0) {
		*why = "expected integers in gpu, process_id, start, end, "
		    "peak_mib, held_mib and release";
		return -1;
	}
	for (i = 0; i < 3; i++)
		if (n[11] == strlen(tab_status_names[i]) &&
		    memcmp(f[11], tab_status_names[i], n[11]) == 0)
			break;
	if (i == 3) {
		*why = "status: expected released, leaked or running";
		return -1;
	}
	t->status = (enum task_status)i;
	if (n[9] > 0 && secs(f[9], n[9], &t->delay) < 0) {
		*why = "release_delay_s: expected seconds";
		return -1;
	}
	if (n[9] > 0)
		t->interval = resolution(f[9], n[9]);
	rc = col_u64(f[10], n[10], &v);
	if (rc < 0 || v > UINT32_MAX) {
		*why = "leaked_mib: expected an integer";
		return -1;
	}
	t->has_leaked = rc > 0;
	t->leaked = (uint32_t)v;
	/* An older table: what one sampling interval can tell. */
	t->delay_lo = t->delay > t->interval ? t->delay - t->interval : 0;
	t->delay_hi = t->delay + t->interval;
	if (nf >= 15 && ((n[12] > 0 && secs(f[12], n[12], &t->delay_lo) < 0) ||
	    (n[13] > 0 && secs(f[13], n[13], &t->delay_hi) < 0))) {
		*why = "delay_min_s, delay_max_s: expected seconds";
		return -1;
	}
	if (nf >= 15 && tab_parse_notes(f[14], n[14], &t->notes) < 0) {
		sbuf_reset(whyb);
		sbuf_adds(whyb, "note: expected ");
		tab_note_list(whyb);
		sbuf_adds(whyb, ", joined by ';'");
		*why = whyb->buf;
		return -1;
	}
	if (t->status == TASK_RELEASED && t->release == 0) {
		*why = "a released task needs a release time";
		return -1;
	}
	t->declared = t->pid == 0;
	t->host = keep_str(l, f[0], n[0]);
	t->name = keep_str(l, f[3], n[3]);
	return 0;
}

/* Whether a line is a task table's header, of any version. */
static int
is_header(const char *s)
{
	return strcmp(s, TASK_HEADER) == 0 ||
	    strcmp(s, TASK_HEADER TASK_ISO_COLUMNS) == 0 ||
	    strcmp(s, TASK_HEADER_V1) == 0;
}

int
tasktab_read(const char *path, struct tasklist *l, int strict)
{
	struct input *in = input_open(path);
	struct sbuf row = SBUF_INIT, whyb = SBUF_INIT;
	uint64_t lineno = 0, startline = 0, bad = 0;
	const char *why;
	char *line;
	size_t len;
	int rc, ok = 0;

	memset(l, 0, sizeof(*l));
	if (in == NULL) {
		msg("%s: cannot open:", path);
		return -1;
	}
	while ((rc = input_getline(in, &line, &len)) == 1 || rc == 2) {
		struct task t;

		lineno++;
		if (rc == 2) {
			msg("%s:%llu: line too long", input_name(in),
			    (unsigned long long)lineno);
			bad++;
			continue;
		}
		if (row.len == 0)
			startline = lineno;
		else
			sbuf_addc(&row, '\n');
		sbuf_add(&row, line, len);
		if (csv_line_open(row.buf, row.len))
			continue;
		if (startline == 1) {
			if (!is_header(row.buf)) {
				msg("%s: not a task table (the first line is "
				    "not the header of gpumem tasks)",
				    input_name(in));
				sbuf_release(&row);
				sbuf_release(&whyb);
				input_close(in);
				return -1;
			}
			ok = 1;
		} else if (is_header(row.buf)) {
			;	/* tables joined with cat */
		} else if (parse_row(l, row.buf, &t, &why, &whyb) < 0) {
			if (bad++ < 10)
				msg("%s:%llu: %s", input_name(in),
				    (unsigned long long)startline, why);
			if (strict) {
				sbuf_release(&row);
				sbuf_release(&whyb);
				input_close(in);
				tasktab_list_release(l);
				return -1;
			}
		} else {
			l->t = egrow(l->t, l->n, sizeof(*l->t));
			l->t[l->n++] = t;
		}
		sbuf_reset(&row);
	}
	if (rc >= 0 && row.len > 0) {
		/* A quote never closed took every line after it: not a row. */
		if (bad++ < 10)
			msg("%s:%llu: bad quoting (a quote is never closed)",
			    input_name(in), (unsigned long long)startline);
		if (strict)
			ok = 0;
	}
	if (rc < 0) {
		msg("%s: %s", input_name(in), input_error(in));
		ok = 0;
	} else if (!ok && lineno == 0) {
		msg("%s: empty: not a task table", input_name(in));
	}
	if (bad > 10)
		msg("%s: %llu more bad rows not shown", input_name(in),
		    (unsigned long long)(bad - 10));
	sbuf_release(&row);
	sbuf_release(&whyb);
	input_close(in);
	if (!ok)
		tasktab_list_release(l);
	return ok ? 0 : -1;
}

void
tasktab_list_release(struct tasklist *l)
{
	size_t i;

	for (i = 0; i < l->nstrs; i++)
		free(l->strs[i]);
	free(l->strs);
	free(l->t);
	memset(l, 0, sizeof(*l));
}
