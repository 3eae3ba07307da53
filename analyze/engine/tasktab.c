/* SPDX-License-Identifier: ISC */
/* tasktab.c: writing and reading task tables; declared tasks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "field.h"
#include "gpumap.h"
#include "gtime.h"
#include "input.h"
#include "json.h"
#include "rec.h"
#include "tasktab.h"
#include "ytree.h"

static const char *const status_names[] = {"released", "leaked", "running"};

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

static void
out(struct tasktab_w *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
out(struct tasktab_w *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return;
	va_start(ap, fmt);
	if (vfprintf(w->f, fmt, ap) < 0)
		w->failed = 1;
	va_end(ap);
}

/* The units of decimals(): 1 s, 0.1 s, 0.01 s, 1 ms. */
static const uint64_t unit_ns[] = {NS_PER_SEC, 100 * NS_PER_MS,
    10 * NS_PER_MS, NS_PER_MS};

/* Decimals a delay deserves: what one sampling interval can tell. */
static int
decimals(uint64_t interval)
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
	int d = decimals(interval);
	uint64_t q = (delay + unit_ns[d] / 2) / unit_ns[d];
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
    "holder", "log-stopped"};
#define NNOTES (sizeof(note_names) / sizeof(note_names[0]))

char *
tasktab_notes(unsigned notes, char *buf)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NNOTES; i++)
		if (notes & (1U << i))
			n += (size_t)snprintf(buf + n, TASKTAB_NOTESZ - n, "%s%s",
			    n > 0 ? ";" : "", note_names[i]);
	return buf;
}

/* Parse what tasktab_notes() wrote; -1 on a name it never writes. */
static int
parse_notes(const char *s, size_t n, unsigned *notes)
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
csv_str(struct tasktab_w *w, const char *s)
{
	char *buf = emalloc(2 * strlen(s) + 3);
	size_t n = csv_field(buf, s);

	if (!w->failed && fwrite(buf, 1, n, w->f) != n)
		w->failed = 1;
	free(buf);
}

static void
csv_header(struct tasktab_w *w)
{
	out(w, "%s%s\n", TASK_HEADER, w->iso ? TASK_ISO_COLUMNS : "");
}

static void
put_csv(struct tasktab_w *w, const struct task *t)
{
	char d[32], lo[32], hi[32], nb[TASKTAB_NOTESZ];

	if (w->n == 0)
		csv_header(w);
	csv_str(w, t->host);
	out(w, ",%u,%u,", t->gpu, t->pid);
	csv_str(w, t->name);
	out(w, ",%llu,%llu,%u,%u,", (unsigned long long)t->start,
	    (unsigned long long)t->end, t->peak, t->held);
	if (t->status == TASK_RELEASED)
		out(w, "%llu,%s,0,", (unsigned long long)t->release,
		    tasktab_delay(t->delay, t->interval, d));
	else if (t->status == TASK_LEAKED && t->has_leaked)
		out(w, ",,%u,", t->leaked);
	else
		out(w, ",,,");
	out(w, "%s,", status_names[t->status]);
	if (t->status == TASK_RELEASED)
		/* The bounds in ms (interval 0: the finest tasktab_delay). */
		out(w, "%s,%s,", tasktab_delay(t->delay_lo, 0, lo),
		    tasktab_delay(t->delay_hi, 0, hi));
	else
		out(w, ",,");
	out(w, "%s", tasktab_notes(t->notes, nb));
	if (w->iso) {
		char a[GTIME_BUFSZ], b[GTIME_BUFSZ], c[GTIME_BUFSZ];

		out(w, ",%s,%s,%s", gtime_fmt(t->start, 1, a),
		    gtime_fmt(t->end, 1, b), t->status == TASK_RELEASED ?
		    gtime_fmt(t->release, 1, c) : "");
	}
	out(w, "\n");
}

/* A JSON string (esc.h: valid UTF-8 whatever the name holds). */
static void
json_str(struct tasktab_w *w, const char *s)
{
	struct sbuf sb = SBUF_INIT;

	esc_json(&sb, s);
	out(w, "%s", sb.buf);
	sbuf_release(&sb);
}

static void
json_time_at(struct tasktab_w *w, const char *key, uint64_t t, int present)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_adds(&sb, ", ");
	json_time(&sb, key, t, present);
	out(w, "%s", sb.buf);
	sbuf_release(&sb);
}

/* The object's start up to the tasks' "[", then rest. */
static void
json_open(struct tasktab_w *w, const char *rest)
{
	struct sbuf sb = SBUF_INIT;

	json_version(&sb);
	out(w, "{\n  %s,\n  \"tasks\": [%s", sb.buf, rest);
	sbuf_release(&sb);
}

static void
put_json(struct tasktab_w *w, const struct task *t)
{
	char d[32], lo[32], hi[32], nb[TASKTAB_NOTESZ];

	if (w->n == 0)
		json_open(w, "\n");
	else
		out(w, ",\n");
	out(w, "    {\"host\": ");
	json_str(w, t->host);
	out(w, ", \"gpu\": %u, \"process_id\": %u, \"name\": ", t->gpu, t->pid);
	json_str(w, t->name);
	json_time_at(w, "start", t->start, 1);
	json_time_at(w, "end", t->end, 1);
	out(w, ", \"peak_mib\": %u, \"held_mib\": %u", t->peak, t->held);
	json_time_at(w, "release", t->release, t->status == TASK_RELEASED);
	if (t->status == TASK_RELEASED)
		out(w, ", \"release_delay_s\": %s, \"delay_min_s\": %s, "
		    "\"delay_max_s\": %s", tasktab_delay(t->delay, t->interval,
		    d), tasktab_delay(t->delay_lo, 0, lo),
		    tasktab_delay(t->delay_hi, 0, hi));
	else
		out(w, ", \"release_delay_s\": null, \"delay_min_s\": null, "
		    "\"delay_max_s\": null");
	if (t->interval != 0)
		out(w, ", \"interval_s\": %s", gtime_fmt_secs(t->interval, d));
	else
		out(w, ", \"interval_s\": null");
	if (t->status == TASK_RELEASED)
		out(w, ", \"leaked_mib\": 0");
	else if (t->status == TASK_LEAKED && t->has_leaked)
		out(w, ", \"leaked_mib\": %u", t->leaked);
	else
		out(w, ", \"leaked_mib\": null");
	out(w, ", \"status\": \"%s\", \"declared\": %s, \"note\": \"%s\"}",
	    status_names[t->status], t->declared ? "true" : "false",
	    tasktab_notes(t->notes, nb));
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
		put_csv(w, t);
		break;
	case TT_JSON:
		put_json(w, t);
		break;
	default:
		keep(w, t);
		break;
	}
	w->n++;
	return w->failed ? -1 : 0;
}

/* MiB for people: "812 MiB", "4.0 GiB". */
static char *
mib(uint32_t v, char *buf)
{
	if (v < 1024)
		snprintf(buf, 32, "%u MiB", v);
	else
		snprintf(buf, 32, "%.1f GiB", v / 1024.0);
	return buf;
}

static char *
when(struct tasktab_w *w, uint64_t t, char *buf)
{
	char iso[GTIME_BUFSZ];

	gtime_fmt(t, w->utc, iso);
	snprintf(buf, 32, "%.10s %.8s", iso, iso + 11);
	return buf;
}

/*
 * A bound of a delay at the resolution it is shown with: the lower one
 * rounded down, the upper one up, so that the range holds what the data
 * allows.
 */
static char *
bound(uint64_t ns, uint64_t interval, int up, char *buf)
{
	uint64_t u = unit_ns[decimals(interval)];

	return tasktab_delay((up ? ns + u - 1 : ns) / u * u, interval, buf);
}

/*
 * "25 s +-1 s" when the data brackets the delay evenly, "0 s (0-0.3 s)"
 * when it does not: the range is what the samples around the end and the
 * release allow, never less.
 */
char *
tasktab_delay_range(const struct task *t, char *cell)
{
	char d[32], lo[32], hi[32];

	tasktab_delay(t->delay, t->interval, d);
	bound(t->delay_lo, t->interval, 0, lo);
	bound(t->delay_hi, t->interval, 1, hi);
	if (strcmp(lo, hi) == 0 && strcmp(lo, d) == 0)
		snprintf(cell, 96, "%s s", d);
	else if (t->delay - t->delay_lo == t->delay_hi - t->delay)
		snprintf(cell, 96, "%s s \xc2\xb1%s s", d,
		    bound(t->delay_hi - t->delay, t->interval, 1, hi));
	else
		snprintf(cell, 96, "%.24s s (%.24s\xe2\x80\x93%.24s s)", d, lo,
		    hi);
	return cell;
}

/* The cells of one row of the people's table. */
static void
cells(struct tasktab_w *w, size_t i, char c[11][96])
{
	const struct task *t = &w->rows[i];
	char d[32], nb[TASKTAB_NOTESZ];

	/* Names from the input: no escape sequence, no line break. */
	clean_text(w->strs.buf + w->offs[2 * i], 60, c[0], 96);
	snprintf(c[1], 96, "%u", t->gpu);
	if (t->declared)
		snprintf(c[2], 96, "-");
	else
		snprintf(c[2], 96, "%u", t->pid);
	clean_text(w->strs.buf + w->offs[2 * i + 1], 60, c[3], 96);
	when(w, t->start, c[4]);
	when(w, t->end, c[5]);
	mib(t->peak, c[6]);
	mib(t->held, c[7]);
	if (t->status == TASK_RELEASED)
		tasktab_delay_range(t, c[8]);
	else
		snprintf(c[8], 96, "-");
	if (t->status == TASK_LEAKED)
		snprintf(c[9], 96, "%s", t->has_leaked ? mib(t->leaked, d) :
		    "unknown");
	else
		snprintf(c[9], 96, "-");
	tasktab_notes(t->notes, nb);
	snprintf(c[10], 96, nb[0] != '\0' ? "%s (%s)" : "%s%s",
	    status_names[t->status], nb);
}

#define NCOLS 11
static const char *const head[NCOLS] = {"host", "gpu", "pid", "name",
    "start", "end", "peak", "held", "released after", "leaked", "status"};
static const int right[NCOLS] = {0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0};

/*
 * The line under the text table, its words wrapped at w->cols when the
 * table is fitted; date: the date of every time, when the table left it
 * out.
 */
static void
put_footer(struct tasktab_w *w, const char *date)
{
	struct sbuf sb = SBUF_INIT;
	const char *p, *sp;
	size_t col = 0, n;

	sbuf_printf(&sb, "(%zu tasks; times %s%s%s; a delay is shown with the "
	    "range the samples around the end and the release allow)",
	    w->nrows, w->utc ? "in UTC" : "local", date != NULL ? ", on " : "",
	    date != NULL ? date : "");
	for (p = sb.buf; *p != '\0'; p = *sp != '\0' ? sp + 1 : sp) {
		sp = strchr(p, ' ');
		if (sp == NULL)
			sp = p + strlen(p);
		n = (size_t)(sp - p);
		if (col > 0 && w->cols > 0 && col + 1 + n > w->cols) {
			out(w, "\n");
			col = 0;
		}
		out(w, "%s%.*s", col > 0 ? " " : "", (int)n, p);
		col += (col > 0 ? 1 : 0) + n;
	}
	out(w, "\n");
	sbuf_release(&sb);
}

/* Characters, not bytes: "±" is one column wide. */
static size_t
utf8len(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/*
 * One row; md: each cell escaped (esc_md) but the header's, which holds
 * no markup.
 */
static void
table_row(struct tasktab_w *w, char c[11][96], const size_t *width,
    int hosts, int header, const char *const *color)
{
	struct sbuf md = SBUF_INIT;
	size_t k;
	int first = 1;

	for (k = hosts ? 0 : 1; k < NCOLS; k++) {
		if (w->fmt == TT_MD) {
			sbuf_reset(&md);
			if (header)
				sbuf_adds(&md, c[k]);
			else
				esc_md(&md, c[k]);
			out(w, "%s %s |", first ? "|" : "", md.buf);
		} else if (k == NCOLS - 1 && color != NULL && color[k] != NULL)
			out(w, "  %s%s%s", color[k], c[k], COLOR_OFF);
		else if (k == NCOLS - 1)
			out(w, "  %s", c[k]);	/* the last column: no padding */
		else {
			int pad = (int)(width[k] - utf8len(c[k]));

			out(w, "%s", first ? "" : "  ");
			if (right[k])
				out(w, "%*s", pad, "");
			if (color != NULL && color[k] != NULL)
				out(w, "%s%s%s", color[k], c[k], COLOR_OFF);
			else
				out(w, "%s", c[k]);
			if (!right[k])
				out(w, "%*s", pad, "");
		}
		first = 0;
	}
	out(w, "\n");
	sbuf_release(&md);
}

/* Columns the table takes with these widths (the last one's own). */
static size_t
table_cols(const size_t *width, int hosts)
{
	size_t k, n = 0;

	for (k = hosts ? 0 : 1; k < NCOLS; k++)
		n += width[k] + (k > (hosts ? 0u : 1u) ? 2 : 0);
	return n;
}

/*
 * Fit the widths in w->cols (tasktab_width): *nodate when every time has
 * the date of date[], and the widths of name and host cut.
 */
static void
fit(struct tasktab_w *w, size_t *width, int hosts, int samedate,
    int *nodate)
{
	size_t over, min[2] = {12, 8}, col[2] = {3, 0}, j;	/* name, host */

	*nodate = 0;
	if (w->cols == 0 || table_cols(width, hosts) <= w->cols)
		return;
	if (samedate) {
		*nodate = 1;
		width[4] = width[4] > 11 ? width[4] - 11 : width[4];
		width[5] = width[5] > 11 ? width[5] - 11 : width[5];
		if (width[4] < strlen(head[4]))
			width[4] = strlen(head[4]);
		if (width[5] < strlen(head[5]))
			width[5] = strlen(head[5]);
	}
	/* A column at a time off the one with the most to spare. */
	for (over = table_cols(width, hosts); over > w->cols; over--) {
		size_t spare[2];

		for (j = 0; j < 2; j++)
			spare[j] = (j == 1 && !hosts) || width[col[j]] <=
			    min[j] ? 0 : width[col[j]] - min[j];
		if (spare[0] == 0 && spare[1] == 0)
			break;
		width[col[spare[1] > spare[0]]]--;
	}
}

/* The cells of row i as the fitted table shows them. */
static void
fitted_cells(struct tasktab_w *w, size_t i, char c[11][96],
    const size_t *width, int nodate)
{
	cells(w, i, c);
	if (w->cols == 0)
		return;
	if (nodate) {
		memmove(c[4], c[4] + 11, strlen(c[4] + 11) + 1);
		memmove(c[5], c[5] + 11, strlen(c[5] + 11) + 1);
	}
	/* Cut to the fitted width, "..." for what is cut. */
	clean_text(w->strs.buf + w->offs[2 * i], width[0], c[0], 96);
	clean_text(w->strs.buf + w->offs[2 * i + 1], width[3], c[3], 96);
}

static void
put_table(struct tasktab_w *w)
{
	size_t width[NCOLS], i, k;
	int hosts = 0, samedate = 1, nodate;
	char c[NCOLS][96], date[16] = "";

	for (k = 0; k < NCOLS; k++)
		width[k] = strlen(head[k]);
	for (i = 0; i < w->nrows; i++) {
		cells(w, i, c);
		if (c[0][0] != '\0')
			hosts = 1;
		for (k = 0; k < NCOLS; k++)
			if (utf8len(c[k]) > width[k])
				width[k] = utf8len(c[k]);
		if (i == 0)
			snprintf(date, sizeof(date), "%.10s", c[4]);
		if (strncmp(c[4], date, 10) != 0 ||
		    strncmp(c[5], date, 10) != 0)
			samedate = 0;
	}
	if (w->fmt == TT_TEXT)
		fit(w, width, hosts, samedate && w->nrows > 0, &nodate);
	else
		nodate = 0;
	for (k = 0; k < NCOLS; k++)
		snprintf(c[k], 96, "%s", head[k]);
	table_row(w, c, width, hosts, 1, NULL);
	if (w->fmt == TT_MD) {
		out(w, "|");
		for (k = hosts ? 0 : 1; k < NCOLS; k++)
			out(w, "%s|", right[k] ? "---:" : "---");
		out(w, "\n");
	}
	for (i = 0; i < w->nrows; i++) {
		const char *color[NCOLS] = {NULL};
		const struct task *t = &w->rows[i];

		if (w->color && t->status == TASK_LEAKED)
			color[9] = color[10] = COLOR_RED;
		if (w->color && t->status == TASK_RELEASED &&
		    t->delay >= TASKTAB_SLOW)
			color[8] = COLOR_YELLOW;
		fitted_cells(w, i, c, width, nodate);
		table_row(w, c, width, hosts, 0, color);
	}
	if (w->fmt == TT_TEXT)
		put_footer(w, nodate ? date : NULL);
}

/*
 * The labels of t's metric, braces included: its GPU's, and with task
 * its pid, start, name and status too; status, when not NULL, is the
 * status label of a GPU's count.
 */
static void
om_labels(struct sbuf *sb, const struct task *t, int task,
    const char *status)
{
	sbuf_reset(sb);
	sbuf_adds(sb, "{host=");
	esc_prom(sb, t->host);
	sbuf_printf(sb, ",gpu=\"%u\"", t->gpu);
	if (task) {
		/* start_ns: a pid's two lives are two series. */
		sbuf_printf(sb, ",pid=\"%u\",start_ns=\"%llu\",name=", t->pid,
		    (unsigned long long)t->start);
		esc_prom(sb, t->name);
		status = status_names[t->status];
	}
	if (status != NULL)
		sbuf_printf(sb, ",status=\"%s\"", status);
	sbuf_addc(sb, '}');
}

static void
om_family(struct tasktab_w *w, const char *name, const char *help)
{
	out(w, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static int
same_gpu(const struct task *x, const struct task *y)
{
	return hostgpu_cmp(x->host, x->gpu, y->host, y->gpu) == 0;
}

/* Rows in the order of their GPUs, else as they came. */
static int
om_by_gpu(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a;
	const struct task *y = *(const struct task *const *)b;
	int c = hostgpu_cmp(x->host, x->gpu, y->host, y->gpu);

	return c != 0 ? c : (x > y) - (x < y);
}

static void
put_metrics(struct tasktab_w *w)
{
	static const uint64_t mib = 1048576;
	struct sbuf sb = SBUF_INIT;
	const struct task *t, **by;
	size_t i, j, k;
	char d[32];

	/* The kept rows' strings are in strs: point each row at its own. */
	for (i = 0; i < w->nrows; i++) {
		w->rows[i].host = w->strs.buf + w->offs[2 * i];
		w->rows[i].name = w->strs.buf + w->offs[2 * i + 1];
	}
	om_family(w, "gpumem_task_held_bytes",
	    "GPU memory a task held when it ended (or at the last sample).");
	for (t = w->rows; t < w->rows + w->nrows; t++) {
		om_labels(&sb, t, 1, NULL);
		out(w, "gpumem_task_held_bytes%s %llu\n", sb.buf,
		    (unsigned long long)(t->held * mib));
	}
	om_family(w, "gpumem_task_leaked_bytes",
	    "GPU memory of an ended task that never came back.");
	for (t = w->rows; t < w->rows + w->nrows; t++) {
		if (t->status == TASK_RUNNING ||
		    (t->status == TASK_LEAKED && !t->has_leaked))
			continue;
		om_labels(&sb, t, 1, NULL);
		out(w, "gpumem_task_leaked_bytes%s %llu\n", sb.buf,
		    (unsigned long long)(t->status == TASK_LEAKED ?
		    t->leaked * mib : 0));
	}
	om_family(w, "gpumem_task_release_delay_seconds",
	    "How long after a task ended its memory came back.");
	for (t = w->rows; t < w->rows + w->nrows; t++) {
		if (t->status != TASK_RELEASED)
			continue;
		om_labels(&sb, t, 1, NULL);
		out(w, "gpumem_task_release_delay_seconds%s %s\n", sb.buf,
		    gtime_fmt_secs(t->delay, d));
	}
	/* Per GPU: the rows in GPU order, taken a GPU at a time. */
	by = ecalloc(w->nrows + 1, sizeof(*by));
	for (i = 0; i < w->nrows; i++)
		by[i] = &w->rows[i];
	qsort(by, w->nrows, sizeof(*by), om_by_gpu);
	om_family(w, "gpumem_tasks", "Tasks on a GPU, by status.");
	for (i = 0; i < w->nrows; i = j) {
		size_t n[3] = {0, 0, 0};

		for (j = i; j < w->nrows && same_gpu(by[i], by[j]); j++)
			n[by[j]->status]++;
		for (k = 0; k < 3; k++) {
			om_labels(&sb, by[i], 0, status_names[k]);
			out(w, "gpumem_tasks%s %zu\n", sb.buf, n[k]);
		}
	}
	om_family(w, "gpumem_leaked_bytes",
	    "GPU memory of ended tasks that never came back, per GPU.");
	for (i = 0; i < w->nrows; i = j) {
		uint64_t sum = 0;

		for (j = i; j < w->nrows && same_gpu(by[i], by[j]); j++)
			if (by[j]->status == TASK_LEAKED && by[j]->has_leaked)
				sum += by[j]->leaked * mib;
		om_labels(&sb, by[i], 0, NULL);
		out(w, "gpumem_leaked_bytes%s %llu\n", sb.buf,
		    (unsigned long long)sum);
	}
	out(w, "# EOF\n");
	free(by);
	sbuf_release(&sb);
}

int
tasktab_close(struct tasktab_w *w)
{
	int rc;

	switch (w->fmt) {
	case TT_CSV:
		if (w->n == 0)
			csv_header(w);
		break;
	case TT_JSON:
		if (w->n == 0)
			json_open(w, "]\n}\n");
		else
			out(w, "\n  ]\n}\n");
		break;
	case TT_OPENMETRICS:
		put_metrics(w);
		break;
	default:
		put_table(w);
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
	return parse_u64(s, n, v) == 0 ? 1 : -1;
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
 * decimals()).  The table has no interval column; this is the finest
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
 * line break inside a name... it quotes them, so join lines first).
 */
static int
parse_row(struct tasklist *l, char *line, struct task *t, const char **why)
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
	if (parse_u32(f[1], n[1], &t->gpu) < 0 ||
	    parse_u32(f[2], n[2], &t->pid) < 0 ||
	    parse_u64(f[4], n[4], &t->start) < 0 ||
	    parse_u64(f[5], n[5], &t->end) < 0 ||
	    parse_u32(f[6], n[6], &t->peak) < 0 ||
	    parse_u32(f[7], n[7], &t->held) < 0 ||
	    col_u64(f[8], n[8], &t->release) < 0) {
		*why = "expected integers in gpu, process_id, start, end, "
		    "peak_mib, held_mib and release";
		return -1;
	}
	for (i = 0; i < 3; i++)
		if (n[11] == strlen(status_names[i]) &&
		    memcmp(f[11], status_names[i], n[11]) == 0)
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
	if (nf >= 15 && parse_notes(f[14], n[14], &t->notes) < 0) {
		*why = "note: expected gap, ambiguous, pid-reused, resumed or "
		    "last-sample, joined by ';'";
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
	struct sbuf row = SBUF_INIT;
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
				input_close(in);
				return -1;
			}
			ok = 1;
		} else if (is_header(row.buf)) {
			;	/* tables joined with cat */
		} else if (parse_row(l, row.buf, &t, &why) < 0) {
			if (bad++ < 10)
				msg("%s:%llu: %s", input_name(in),
				    (unsigned long long)startline, why);
			if (strict) {
				sbuf_release(&row);
				input_close(in);
				tasklist_release(l);
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
	input_close(in);
	if (!ok)
		tasklist_release(l);
	return ok ? 0 : -1;
}

void
tasklist_release(struct tasklist *l)
{
	size_t i;

	for (i = 0; i < l->nstrs; i++)
		free(l->strs[i]);
	free(l->strs);
	free(l->t);
	memset(l, 0, sizeof(*l));
}

/* One declared task from its fields; 0, or -1 with a message. */
static int
declare(struct engine *e, const char *where, const char *name,
    const char *gpu, const char *start, const char *end, const char *host)
{
	uint32_t g;
	uint64_t t0, t1;

	if (name == NULL || gpu == NULL || start == NULL || end == NULL) {
		msg("%s: a task needs name, gpu, start and end", where);
		return -1;
	}
	if (parse_u32(gpu, strlen(gpu), &g) < 0) {
		msg("%s: gpu: expected a GPU index, got '%s'", where, gpu);
		return -1;
	}
	if (gtime_parse(start, &t0) < 0) {
		msg("%s: start: expected a time, got '%s'", where, start);
		return -1;
	}
	if (gtime_parse(end, &t1) < 0) {
		msg("%s: end: expected a time, got '%s'", where, end);
		return -1;
	}
	if (t1 < t0) {
		msg("%s: end is before start", where);
		return -1;
	}
	engine_declare(e, host != NULL ? host : "", g, name, t0, t1);
	return 0;
}

static int
declare_yaml(const char *path, struct engine *e)
{
	static const char *const keys[] = {"name", "gpu", "start", "end",
	    "host"};
	struct ynode *root;
	char err[512], where[600];
	size_t i, k;
	int n = 0;

	root = ytree_load(path, err, sizeof(err));
	if (root == NULL) {
		msg("%s", err);
		return -1;
	}
	if (root->type != Y_SEQ) {
		msg("%s:%u: expected a list of tasks", path, root->line);
		ytree_free(root);
		return -1;
	}
	for (i = 0; i < root->n; i++) {
		const struct ynode *m = root->kids[i];
		const char *v[5] = {NULL, NULL, NULL, NULL, NULL};

		snprintf(where, sizeof(where), "%s:%u", path, m->line);
		if (m->type != Y_MAP) {
			msg("%s: expected a mapping (name, gpu, start, end)",
			    where);
			ytree_free(root);
			return -1;
		}
		for (k = 0; k < m->n; k++) {
			size_t j;

			for (j = 0; j < 5; j++)
				if (strcmp(m->keys[k]->text, keys[j]) == 0)
					break;
			if (j == 5 || m->kids[k]->type != Y_SCALAR) {
				msg("%s:%u: %s: %s", path, m->keys[k]->line,
				    m->keys[k]->text, j == 5 ? "unknown key "
				    "(known: name, gpu, start, end, host)" :
				    "expected a value");
				ytree_free(root);
				return -1;
			}
			v[j] = m->kids[k]->text;
		}
		if (declare(e, where, v[0], v[1], v[2], v[3], v[4]) < 0) {
			ytree_free(root);
			return -1;
		}
		n++;
	}
	ytree_free(root);
	return n;
}

int
tasktab_declare(const char *path, struct engine *e)
{
	struct input *in;
	char *line, where[600];
	char *f[8];
	size_t len, lens[8];
	int col[5] = {-1, -1, -1, -1, -1}, n = 0, rc, nf, i;
	static const char *const keys[] = {"name", "gpu", "start", "end",
	    "host"};

	in = input_open(path);
	if (in == NULL) {
		msg("%s: cannot open:", path);
		return -1;
	}
	rc = input_getline(in, &line, &len);
	if (rc != 1) {
		msg("%s: empty: expected a CSV header name,gpu,start,end or "
		    "a YAML list", path);
		input_close(in);
		return -1;
	}
	nf = csv_split(line, f, lens, 8, 1);
	for (i = 0; i < nf && i < 8; i++) {
		size_t k;

		for (k = 0; k < 5; k++)
			if (lens[i] == strlen(keys[k]) &&
			    memcmp(f[i], keys[k], lens[i]) == 0)
				col[k] = i;
	}
	if (col[0] < 0 || col[1] < 0 || col[2] < 0 || col[3] < 0) {
		input_close(in);
		return declare_yaml(path, e);
	}
	while ((rc = input_getline(in, &line, &len)) == 1) {
		char *v[5];
		size_t k;

		if (len == 0)
			continue;
		snprintf(where, sizeof(where), "%s:%llu", path,
		    (unsigned long long)input_lineno(in));
		nf = csv_split(line, f, lens, 8, 1);
		if (nf < 0 || nf > 8) {
			msg("%s: %s", where, nf < 0 ? "bad quoting" :
			    "too many fields");
			input_close(in);
			return -1;
		}
		for (k = 0; k < 5; k++)
			v[k] = col[k] >= 0 && col[k] < nf ?
			    estrndup(f[col[k]], lens[col[k]]) : NULL;
		rc = declare(e, where, v[0], v[1], v[2], v[3], v[4]);
		for (k = 0; k < 5; k++)
			free(v[k]);
		if (rc < 0) {
			input_close(in);
			return -1;
		}
		n++;
	}
	if (rc < 0) {
		msg("%s: %s", path, input_error(in));
		input_close(in);
		return -1;
	}
	input_close(in);
	return n;
}
