/* SPDX-License-Identifier: ISC */
/*
 * nvsmiclock.c: the clock of an nvidia-smi --query-gpu or
 * --query-compute-apps CSV log (nvsmistate.h): the lines that wrappers
 * add around nvidia-smi's output (date(1) lines, Windows "date /T" and
 * "time /T", a time of day alone, a script's stamped lines, prompts,
 * error messages, separators), the polls of a log without a timestamp
 * column (a date line, a repeated header or a GPU seen again starts the
 * next), and the time of each row: its timestamp column in any of the
 * forms nvidia-smi and loggers print, or its block's, from date lines or
 * --start and --interval.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "field.h"
#include "gtime.h"
#include "nvsmistate.h"

static const char *const weekdays[] = {
	"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", NULL
};

/* Windows "date /T": "Tue 08/18/2020" (US locale, month first). */
static int
windows_date(const char *s, int *y, int *mo, int *d)
{
	size_t n = strlen(s), i;

	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n != 14 || s[3] != ' ' || s[6] != '/' || s[9] != '/')
		return 0;
	for (i = 0; weekdays[i] != NULL; i++)
		if (strncmp(s, weekdays[i], 3) == 0)
			break;
	if (weekdays[i] == NULL)
		return 0;
	for (i = 4; i < 14; i++)
		if (i != 6 && i != 9 && !isdigit((unsigned char)s[i]))
			return 0;
	*mo = (s[4] - '0') * 10 + (s[5] - '0');
	*d = (s[7] - '0') * 10 + (s[8] - '0');
	*y = atoi(s + 10);
	return 1;
}

/* Windows "time /T": "03:44 PM". */
static int
windows_time(const char *s, int *h, int *mi)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n != 8 || s[2] != ':' || s[5] != ' ' || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[3]) ||
	    !isdigit((unsigned char)s[4]) || s[7] != 'M' ||
	    (s[6] != 'A' && s[6] != 'P'))
		return 0;
	*h = (s[0] - '0') * 10 + (s[1] - '0');
	*mi = (s[3] - '0') * 10 + (s[4] - '0');
	if (*h < 1 || *h > 12 || *mi > 59)
		return 0;
	*h %= 12;
	if (s[6] == 'P')
		*h += 12;
	return 1;
}

/*
 * A time of day alone, "13:02:11" (date +%T between blocks): on the day
 * of the clock so far (the last date line or block, else --start), the
 * next day when it is earlier than that clock's time of day.  Without a
 * day it is counted and passed over.  Return whether the line was one.
 */
static int
time_only_line(struct nvsmi *p, const char *line, size_t len)
{
	const struct format_opts *o = source_opts(p->s);
	uint64_t last, frac = 0;
	int64_t secs;
	time_t t;
	struct tm tm;
	size_t i, scale = 100000000;
	int h, mi, sec;

	if (len < 8 || line[2] != ':' || line[5] != ':' ||
	    !isdigit((unsigned char)line[0]) || !isdigit((unsigned char)line[1]) ||
	    !isdigit((unsigned char)line[3]) || !isdigit((unsigned char)line[4]) ||
	    !isdigit((unsigned char)line[6]) || !isdigit((unsigned char)line[7]))
		return 0;
	if (len > 8 && (line[8] != '.' || strspn(line + 9, "0123456789") !=
	    len - 9))
		return 0;
	h = (line[0] - '0') * 10 + (line[1] - '0');
	mi = (line[3] - '0') * 10 + (line[4] - '0');
	sec = (line[6] - '0') * 10 + (line[7] - '0');
	for (i = 9; i < len && scale > 0; i++, scale /= 10)
		frac += (uint64_t)(line[i] - '0') * scale;
	if (p->have_pending)
		last = p->pending;
	else if (p->nblocks > 0)
		last = p->block_ts;
	else if (o->have_start)
		last = o->start;
	else {
		source_skip(p->s, "time lines without a date (give --start)");
		return 1;
	}
	t = (time_t)(last / NS_PER_SEC);
	if (h > 23 || mi > 59 || sec > 60 || localtime_r(&t, &tm) == NULL ||
	    gtime_local(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, h, mi,
	    sec, &secs) < 0)
		return 0;
	if ((uint64_t)secs * NS_PER_SEC + frac < last &&
	    last - ((uint64_t)secs * NS_PER_SEC + frac) > 3600 * NS_PER_SEC)
		secs += 86400;	/* past midnight */
	p->pending = (uint64_t)secs * NS_PER_SEC + frac;
	p->have_pending = 1;
	p->clocklines = 1;
	return 1;
}

/* A date line came: the time of the next block of rows. */
void
nvsmi_clock_line(struct nvsmi *p, uint64_t t)
{
	p->pending = t;
	p->have_pending = 1;
	p->clocklines = 1;
}

/*
 * A line that starts with a date and time and goes on with text: a
 * script's "[2026-01-01 12:00:00] GPU Status:", Python logging's
 * "2026-01-01 12:00:00,123 INFO ..." (a comma before the milliseconds),
 * local time.  A row whose first column is such a time goes on with ", "
 * instead.  Store the time in *t; return whether the line was one.
 */
int
nvsmi_stamp_line(const char *line, size_t len, uint64_t *t)
{
	size_t b = line[0] == '[', e = b + 19;
	char iso[40];

	if (len < e || line[b + 4] != '-' || (line[b + 10] != ' ' &&
	    line[b + 10] != 'T'))
		return 0;
	if (e < len && (line[e] == '.' || line[e] == ','))
		e += 1 + strspn(line + e + 1, "0123456789");
	if (e - b >= sizeof(iso))
		return 0;
	/* Text after the time, not "12:00:00, 0, ..." (a row). */
	if (b ? e >= len || line[e] != ']' : e < len && (line[e] != ' ' ||
	    !(isalpha((unsigned char)line[e + 1]) || line[e + 1] == '-')))
		return 0;
	memcpy(iso, line + b, e - b);
	if (e > b + 19)
		iso[19] = '.';
	return gtime_iso(iso, e - b, t) == 0;
}

/*
 * Lines that wrappers add around nvidia-smi output.  Return 1 when the line
 * was one (used as a clock, or counted and passed over).
 */
int
nvsmi_wrapper_line(struct nvsmi *p, const char *line, size_t len)
{
	uint64_t t;
	int h, mi;

	if (gtime_ctime(line, len, &t) == 0 ||
	    (len >= 10 && line[4] == '-' && gtime_iso(line, len, &t) == 0)) {
		nvsmi_clock_line(p, t);
		return 1;
	}
	if (windows_date(line, &p->wy, &p->wmo, &p->wd)) {
		p->have_wdate = 1;
		return 1;
	}
	if (windows_time(line, &h, &mi)) {
		int64_t secs;

		if (p->have_wdate && gtime_local(p->wy, p->wmo, p->wd, h, mi, 0,
		    &secs) == 0) {
			p->pending = (uint64_t)secs * NS_PER_SEC;
			p->have_pending = 1;
			p->clocklines = 1;
			p->have_wdate = 0;
		} else
			source_skip(p->s, "time lines without a date");
		return 1;
	}
	if (strstr(line, "NVIDIA-SMI has failed") != NULL ||
	    strstr(line, "No devices were found") != NULL ||
	    strstr(line, "Failed to initialize NVML") != NULL ||
	    strstr(line, "Unable to determine the device handle") != NULL) {
		source_skip(p->s, "nvidia-smi error messages");
		return 1;
	}
	if (line[0] == '#') {
		source_skip(p->s, "comment lines");
		return 1;
	}
	if (time_only_line(p, line, len))
		return 1;
	if (line[0] == '|' || (line[0] == '+' && line[1] == '-')) {
		source_skip(p->s, "nvidia-smi table lines (--format table "
		    "reads them)");
		return 1;
	}
	if (len >= 3 && strspn(line, "-=*_~ \t") == len) {
		source_skip(p->s, "separator lines");
		return 1;
	}
	return 0;
}

/*
 * A shell prompt echoed into the log: "C:\Users\x>nvidia-smi ...",
 * "user@host:~$ nvidia-smi ...", "$ nvidia-smi ...".
 */
int
nvsmi_prompt_line(const char *line, size_t len)
{
	return (len > 3 && isalpha((unsigned char)line[0]) && line[1] == ':' &&
	    line[2] == '\\' && strchr(line, '>') != NULL) ||
	    (len > 2 && line[0] == '$' && line[1] == ' ') ||
	    strstr(line, "$ nvidia-smi") != NULL;
}

/* A GPU's key for poll boundaries: FNV-1a of its identity text. */
static uint32_t
gpu_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261U;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619U;
	return h;
}

/* The row's first GPU column with a value (gpu, index, UUID, bus), or -1. */
static int
gpu_field(const struct nvsmi *p)
{
	static const enum col idcols[] = { C_WGPU, C_INDEX, C_UUID, C_BUS };
	size_t i;
	int c;

	for (i = 0; i < sizeof(idcols) / sizeof(idcols[0]); i++)
		if ((c = p->col[idcols[i]]) >= 0 &&
		    !field_placeholder(p->f[c], p->len[c]))
			return c;
	return -1;
}

/*
 * Where a poll of a log without a timestamp column ends and the next one
 * starts, when no date line or header says so: at a row whose GPU (its
 * index, gpu, UUID or bus id column) the block has already had, as
 * nvidia-smi -l prints every GPU once per poll.  Without a GPU column
 * every row is a poll of a one-GPU log (under its one header, or none);
 * rows between date lines or repeated headers stay GPUs in row order, as
 * those mark the polls (one-shot calls appended to a log).
 */
static void
poll_boundary(struct nvsmi *p)
{
	uint32_t key = 0;
	size_t i;
	int c;

	if (p->col[C_TS] >= 0 || p->block_rows == 0 || p->newblock ||
	    p->have_pending)
		return;
	if ((c = gpu_field(p)) < 0) {
		/*
		 * Date lines or headers repeated every few rows mark the
		 * blocks: row order.  One header alone (nvidia-smi -l prints
		 * it once) marks none (headers_mark_polls).
		 */
		if (p->clocklines || p->header_polls)
			return;
		if (!p->onepoll_said) {
			p->onepoll_said = 1;
			source_warn(p->s, "no GPU column and no date lines: "
			    "every row is taken as a poll of one GPU; give "
			    "the index column in --fields for several GPUs");
		}
		p->newblock = 1;
		return;
	}
	key = gpu_hash(p->f[c], p->len[c]);
	for (i = 0; i < p->block_rows && i < POLL_KEYS; i++)
		if (p->pollkey[i] == key) {
			p->newblock = 1;
			return;
		}
}

/* Remember the GPU of the block's row n (see poll_boundary). */
void
nvsmi_poll_note(struct nvsmi *p, size_t n)
{
	int c = gpu_field(p);

	if (n < POLL_KEYS)
		p->pollkey[n] = c < 0 ? 0 : gpu_hash(p->f[c], p->len[c]);
}

/*
 * The time of a row of a log without a timestamp column: the block's date
 * line, else --start plus one --interval per block.  Return 0 or -1.
 */
static int
block_time(struct nvsmi *p, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);

	/*
	 * A block whose rows could not be read (block_rows still 0) is
	 * still the current one: an unreadable row takes no poll's time.
	 */
	if (p->nblocks == 0 || p->newblock || p->have_pending) {
		if (p->have_pending) {
			p->block_ts = p->pending;
			p->have_pending = 0;
		} else if (p->clocklines && p->nblocks > 0 && o->interval > 0) {
			p->block_ts += o->interval;
		} else if (!p->clocklines && (o->interval > 0 ||
		    (o->have_start && p->nblocks == 0))) {
			p->block_ts = (o->have_start ? o->start : 0) +
			    p->nblocks * o->interval;
		} else if (p->clocklines && p->nblocks > 0) {
			source_bad(p->s, "a block of rows without a date line "
			    "before it (give --interval to continue the clock)");
			return -1;
		} else {
			if (!p->noclock_said) {
				p->noclock_said = 1;
				source_fail(p->s, "rows carry no time: no "
				    "timestamp column and no date lines; give "
				    "--interval (and --start)");
			}
			source_skip(p->s, "rows without a time");
			return -1;
		}
		p->nblocks++;
		p->block_rows = 0;
		p->newblock = 0;
	}
	*ts = p->block_ts;
	return 0;
}

int
nvsmi_time_text(const struct nvsmi *p, const char *t, size_t n, uint64_t *ts)
{
	const char *tfmt = source_opts(p->s)->time_format;
	int rc = -1;

	/* The rows of a poll share their time: the last one read is kept. */
	if (p->lastlen > 0 && n == p->lastlen &&
	    memcmp(t, p->lastts, n) == 0) {
		*ts = p->lastval;
		return 0;
	}
	if (tfmt != NULL)
		rc = gtime_strptime(tfmt, t, n, ts);
	if (rc == -1 && (rc = gtime_nvsmi(t, n, ts)) == -1 &&
	    (rc = gtime_iso(t, n, ts)) == -1 &&
	    (rc = gtime_ctime(t, n, ts)) == -1)
		rc = gtime_epoch(t, n, ts);
	return rc;
}

/*
 * A timestamp column of seconds since the logger began ("0.5", a
 * home-made logger's time.time() - t0, below 10^8 s): that many after
 * --start, said once.  Return 0, -1 when the field is no such number,
 * -2 when it is one and --start is not given (said once, counted).
 */
static int
elapsed_time(struct nvsmi *p, const char *f, size_t n, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);
	char buf[24], q[48];
	uint64_t v;

	if (n == 0 || n >= sizeof(buf) - 1 || !isdigit((unsigned char)f[0]) ||
	    strspn(f, "0123456789.") < n)
		return -1;
	buf[0] = '@';
	memcpy(buf + 1, f, n);
	buf[n + 1] = '\0';
	if (gtime_parse(buf, &v) != 0 || v >= 100000000ULL * NS_PER_SEC)
		return -1;
	if (!o->have_start) {
		if (!p->elapsed_said) {
			p->elapsed_said = 1;
			source_fail(p->s, "field 'timestamp' holds seconds "
			    "since the log began (%s on its first row), not "
			    "dates: give the time it began with --start",
			    field_quote(q, sizeof(q), f, n));
		}
		source_skip(p->s, "rows timed from the log's start (give "
		    "--start)");
		return -2;
	}
	if (!p->elapsed_said) {
		p->elapsed_said = 1;
		source_warn(p->s, "field 'timestamp' holds seconds since the "
		    "log began (%s on its first row): read as seconds since "
		    "--start", field_quote(q, sizeof(q), f, n));
	}
	*ts = o->start + v;
	return 0;
}

int
nvsmi_row_time(struct nvsmi *p, uint64_t *ts)
{
	const char *tfmt = source_opts(p->s)->time_format;
	int i = p->col[C_TS], rc;
	char q[48];

	if (i < 0 && p->glued) {
		*ts = p->glued_ts;
		return 0;
	}
	if (i < 0) {
		poll_boundary(p);
		return block_time(p, ts);
	}
	rc = nvsmi_time_text(p, p->f[i], p->len[i], ts);
	if (rc == 0) {
		if (p->len[i] < sizeof(p->lastts)) {
			memcpy(p->lastts, p->f[i], p->len[i]);
			p->lastlen = p->len[i];
			p->lastval = *ts;
		}
		return 0;
	}
	if (rc == -1 && p->forked) {
		/* Seconds since --start, said once: the parser's. */
		source_fork_stop(p->s);
		return -1;
	}
	if (rc == -1 && (rc = elapsed_time(p, p->f[i], p->len[i], ts)) != -1)
		return rc;
	/* The form is right and the date is not: say so. */
	if (rc == GTIME_RANGE)
		source_bad(p->s, "field 'timestamp': date out of range "
		    "(no such date, or outside 1970..2500): %s",
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	else if (tfmt != NULL)
		source_bad(p->s, "field 'timestamp': expected the "
		    "--time-format '%s', got %s", tfmt,
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	else
		source_bad(p->s, "field 'timestamp': expected YYYY/MM/DD "
		    "HH:MM:SS.mmm (else give --time-format), got %s",
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
	return -1;
}
