/* SPDX-License-Identifier: ISC */
/*
 * chart.c: what the gnuplot scripts of every chart share (chart.h): the
 * terminals and sizes, the time axis, task labels and leak texts.  The
 * usage chart is usechart.c (its marks usemarks.c), the Gantt chart
 * ganttchart.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "chart.h"
#include "esc.h"
#include "gpumap.h"
#include "gtime.h"
#include "series.h"
#include "util.h"

#include "chartint.h"

int
chart_term_name(const char *s)
{
	if (strcmp(s, "png") == 0)
		return TERM_PNG;
	if (strcmp(s, "svg") == 0)
		return TERM_SVG;
	if (strcmp(s, "pdf") == 0)
		return TERM_PDF;
	if (strcmp(s, "dumb") == 0 || strcmp(s, "text") == 0)
		return TERM_DUMB;
	return -1;
}

int
chart_term_of_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return -1;
	if (strcasecmp(dot, ".png") == 0)
		return TERM_PNG;
	if (strcasecmp(dot, ".svg") == 0)
		return TERM_SVG;
	if (strcasecmp(dot, ".pdf") == 0)
		return TERM_PDF;
	if (strcasecmp(dot, ".txt") == 0)
		return TERM_DUMB;
	return -1;
}

int
chart_parse_size(const char *s, unsigned *w, unsigned *h)
{
	const char *x = strchr(s, 'x');
	uint32_t a, b;

	if (x == NULL || num_parse_u32(s, (size_t)(x - s), &a) < 0 ||
	    num_parse_u32(x + 1, strlen(x + 1), &b) < 0)
		return -1;
	if (a < 20 || b < 10 || a > 20000 || b > 20000)
		return -1;
	*w = a;
	*h = b;
	return 0;
}

void
chart_default_size(struct chart *ch, int gantt, size_t n)
{
	if (ch->term == TERM_DUMB) {
		unsigned cols, rows;

		msg_tty_size(STDOUT_FILENO, &cols, &rows);
		ch->width = cols;
		if (gantt)
			ch->height = (unsigned)(n < 1 ? 1 : n) + 8;
		else
			ch->height = rows > 2 ? rows - 1 : rows;
		if (ch->height < 12)
			ch->height = 12;
		if (ch->width > CHART_DUMB_MAX)
			ch->width = CHART_DUMB_MAX;
		if (ch->height > CHART_DUMB_MAX)
			ch->height = CHART_DUMB_MAX;
		return;
	}
	ch->width = 1200;
	if (gantt)
		ch->height = 130 + 22 * (unsigned)n;
	else
		ch->height = 60 + 300 * (unsigned)(n < 1 ? 1 : n);
	if (ch->height < 260)
		ch->height = 260;
	if (ch->height > 12000)
		ch->height = 12000;
}

uint32_t
chart_back_late(const struct task *t, uint32_t tolerance)
{
	if (t->status != TASK_LEAKED || !t->has_leaked || t->leaked >= t->held)
		return 0;
	return t->held - t->leaked > tolerance ? t->held - t->leaked : 0;
}

char *
chart_leak_text(const struct task *t, uint32_t tolerance, const char *sep,
    char *buf, size_t cap)
{
	char a[32], b[32];
	uint32_t back = chart_back_late(t, tolerance);

	if (!t->has_leaked)
		snprintf(buf, cap, "how much is unknown (no device samples)");
	else if (back > 0)
		snprintf(buf, cap, "%s never came back%s%s came back late",
		    num_fmt_mib(t->leaked, a), sep, num_fmt_mib(back, b));
	else
		snprintf(buf, cap, "%s never came back", num_fmt_mib(t->leaked,
		    a));
	return buf;
}

size_t
chart_width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if ((*s & 0xc0) != 0x80)
			n++;
	return n;
}

char *
chart_task_label(const struct task *t, int nhosts, size_t maxchars,
    char *buf, size_t cap)
{
	struct sbuf sb = SBUF_INIT;

	if (nhosts > 1)
		sbuf_printf(&sb, "%s:%u", *t->host != '\0' ? t->host : "-",
		    t->gpu);
	else
		sbuf_printf(&sb, "gpu%u", t->gpu);
	if (t->pid != 0)
		sbuf_printf(&sb, " %u", t->pid);
	if (*t->name != '\0')
		sbuf_printf(&sb, " %s", t->name);
	text_clean(sb.buf, maxchars, buf, cap);
	sbuf_release(&sb);
	return buf;
}

static void
broken_down(uint64_t t, int utc, struct tm *tm)
{
	time_t secs = (time_t)(t / NS_PER_SEC);

	if (utc)
		gmtime_r(&secs, tm);
	else
		localtime_r(&secs, tm);
}

char *
chart_clock(uint64_t t, int utc, int date, char *buf)
{
	struct tm tm;

	broken_down(t, utc, &tm);
	if (date)
		snprintf(buf, GTIME_BUFSZ, "%04d-%02d-%02d %02d:%02d:%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
	else
		snprintf(buf, GTIME_BUFSZ, "%02d:%02d:%02d", tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
	return buf;
}

int
chart_multiday(uint64_t first, uint64_t last, int utc)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ];

	chart_clock(first, utc, 1, a);
	chart_clock(last, utc, 1, b);
	return memcmp(a, b, 10) != 0;
}

char *
chart_zone(uint64_t t, int utc, char *buf)
{
	struct tm tm;

	if (utc) {
		snprintf(buf, 64, "UTC");
		return buf;
	}
	broken_down(t, 0, &tm);
	if (tm.tm_zone != NULL && *tm.tm_zone != '\0')
		snprintf(buf, 64, "%s", tm.tm_zone);
	else
		snprintf(buf, 64, "UTC%+03ld:%02ld", tm.tm_gmtoff / 3600,
		    labs(tm.tm_gmtoff) % 3600 / 60);
	return buf;
}

/*
 * The x value of time t: seconds since the epoch, shifted by the zone's
 * offset at t so that gnuplot, which formats times as UTC, shows the
 * local clock.
 */
double
chart_xval(uint64_t t, int utc)
{
	double x = (double)(t / NS_PER_MS) / 1000.0;

	if (!utc) {
		struct tm tm;

		broken_down(t, 0, &tm);
		x += (double)tm.tm_gmtoff;
	}
	return x;
}

/* The terminal, the fonts and what every chart shares. */
void
chart_preamble(struct sbuf *sb, const struct chart *ch, const char *what)
{
	char prog[256];

	sbuf_printf(sb, "# %s, written by %s (gpumem) %s.\n"
	    "# Restyle freely; the data are inline below.  Run: gnuplot "
	    "THIS_FILE > %s\n", what, text_clean(ch->prog, 64, prog,
	    sizeof(prog)), GPUMEM_VERSION,
	    ch->term == TERM_PNG ? "chart.png" : ch->term == TERM_SVG ?
	    "chart.svg" : ch->term == TERM_PDF ? "chart.pdf" : "chart.txt");
	switch (ch->term) {
	case TERM_PNG:
		sbuf_printf(sb, "set terminal pngcairo size %u,%u noenhanced "
		    "font 'sans,9' background '#ffffff'\n", ch->width,
		    ch->height);
		break;
	case TERM_SVG:
		sbuf_printf(sb, "set terminal svg size %u,%u noenhanced "
		    "font 'sans,9' background '#ffffff'\n", ch->width,
		    ch->height);
		break;
	case TERM_PDF:
		sbuf_printf(sb, "set terminal pdfcairo size %.2fin,%.2fin "
		    "noenhanced font 'sans,7'\n", ch->width / 96.0,
		    ch->height / 96.0);
		break;
	case TERM_DUMB:
		sbuf_printf(sb, "set terminal dumb size %u,%u noenhanced\n",
		    ch->width, ch->height);
		break;
	}
	/*
	 * The cairo and SVG terminals take UTF-8 as it is; text must be told,
	 * to count characters, not bytes, when it places labels.
	 */
	if (ch->term == TERM_DUMB)
		sbuf_adds(sb, "set encoding utf8\n");
}

/* The time axis: its range, the data's first to last time, and format. */
void
chart_time_axis(struct sbuf *sb, const struct chart *ch, uint64_t first,
    uint64_t last, double cols)
{
	/* Steps a reader counts in, in seconds. */
	static const double steps[] = {
		0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900,
		1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800
	};
	uint64_t span = last > first ? last - first : 0;
	double x0 = chart_xval(first, ch->utc), x1 = chart_xval(last, ch->utc);
	const char *fmt;
	size_t len, i;

	if (x1 <= x0)
		x1 = x0 + 1;
	if (span <= 10 * NS_PER_SEC) {
		fmt = "%H:%M:%.1S";
		len = 10;
	} else if (span <= 10 * 60 * NS_PER_SEC) {
		fmt = "%H:%M:%S";
		len = 8;
	} else if (span <= 36 * 3600 * NS_PER_SEC) {
		fmt = "%H:%M";
		len = 5;
	} else {
		fmt = "%m-%d %H:%M";
		len = 11;
	}
	sbuf_printf(sb, "set xdata time\nset timefmt '%%s'\n"
	    "set format x '%s'\nset xrange [%.3f:%.3f]\n", fmt, x0, x1);
	if (ch->term != TERM_DUMB || cols <= 0)
		return;
	/*
	 * gnuplot's own tics are placed for pixels, not characters: in text
	 * their labels ran together ("00:00:00:01:00:01:30").  Two tics as
	 * far apart as a label and two blanks, at least.
	 */
	for (i = 0; i + 1 < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * cols / (x1 - x0) >= (double)len + 2)
			break;
	sbuf_printf(sb, "set xtics %g\n", steps[i]);
}

/* The label of the time axis: its zone and the first day. */
void
chart_time_label(struct sbuf *sb, const struct chart *ch, uint64_t first)
{
	struct sbuf l = SBUF_INIT;
	char zone[64], day[GTIME_BUFSZ];

	chart_clock(first, ch->utc, 1, day);
	day[10] = '\0';
	sbuf_printf(&l, "time (%s)", chart_zone(first, ch->utc, zone));
	if (first != 0)
		sbuf_printf(&l, ", from %s", day);
	sbuf_adds(sb, "set xlabel ");
	esc_gnuplot(sb, l.buf, 0);
	sbuf_addc(sb, '\n');
	sbuf_release(&l);
}

/* A range of times for a title: "2026-01-01 00:00:00 to 00:02:47 UTC". */
void
chart_range_text(struct sbuf *sb, const struct chart *ch, uint64_t first,
    uint64_t last)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ], z[64];
	struct tm ta, tb;

	broken_down(first, ch->utc, &ta);
	broken_down(last, ch->utc, &tb);
	sbuf_printf(sb, "%s to %s %s", chart_clock(first, ch->utc, 1, a),
	    chart_clock(last, ch->utc, ta.tm_yday != tb.tm_yday ||
	    ta.tm_year != tb.tm_year, b), chart_zone(first, ch->utc, z));
}
