/* SPDX-License-Identifier: ISC */
/*
 * tabtext.c: the task table for people (tasktab.h): text, its columns
 * sized to the rows and fitted to the terminal, and Markdown; a delay
 * with the range the data allows.
 */
#include <stdio.h>
#include <string.h>

#include "esc.h"
#include "gtime.h"
#include "tabstate.h"

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
	uint64_t u = tab_unit_ns[tab_decimals(interval)];

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
	text_clean(w->strs.buf + w->offs[2 * i], 60, c[0], 96);
	snprintf(c[1], 96, "%u", t->gpu);
	if (t->declared)
		snprintf(c[2], 96, "-");
	else
		snprintf(c[2], 96, "%u", t->pid);
	text_clean(w->strs.buf + w->offs[2 * i + 1], 60, c[3], 96);
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
	    tab_status_names[t->status], nb);
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
			tab_out(w, "\n");
			col = 0;
		}
		tab_out(w, "%s%.*s", col > 0 ? " " : "", (int)n, p);
		col += (col > 0 ? 1 : 0) + n;
	}
	tab_out(w, "\n");
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
			tab_out(w, "%s %s |", first ? "|" : "", md.buf);
		} else if (k == NCOLS - 1 && color != NULL && color[k] != NULL)
			tab_out(w, "  %s%s%s", color[k], c[k], COLOR_OFF);
		else if (k == NCOLS - 1)
			tab_out(w, "  %s", c[k]);	/* last: no padding */
		else {
			int pad = (int)(width[k] - utf8len(c[k]));

			tab_out(w, "%s", first ? "" : "  ");
			if (right[k])
				tab_out(w, "%*s", pad, "");
			if (color != NULL && color[k] != NULL)
				tab_out(w, "%s%s%s", color[k], c[k], COLOR_OFF);
			else
				tab_out(w, "%s", c[k]);
			if (!right[k])
				tab_out(w, "%*s", pad, "");
		}
		first = 0;
	}
	tab_out(w, "\n");
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
	text_clean(w->strs.buf + w->offs[2 * i], width[0], c[0], 96);
	text_clean(w->strs.buf + w->offs[2 * i + 1], width[3], c[3], 96);
}

void
tab_put_table(struct tasktab_w *w)
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
		tab_out(w, "|");
		for (k = hosts ? 0 : 1; k < NCOLS; k++)
			tab_out(w, "%s|", right[k] ? "---:" : "---");
		tab_out(w, "\n");
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
