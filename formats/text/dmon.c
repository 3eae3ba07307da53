/* SPDX-License-Identifier: ISC */
/*
 * dmon.c: nvidia-smi dmon and pmon logs (docs/log-formats.md section 3).
 *
 *	#Date       Time        gpu     fb   bar1   ccpm     sm    mem ...
 *	#YYYYMMDD   HH:MM:SS    Idx     MB     MB     MB      %      % ...
 *	 20240104   13:54:35      0    239      3      0      6      1 ...
 *
 *	# gpu         pid   type     sm    mem ...     fb   ccpm    command
 *	# Idx           #    C/G      %      % ...     MB     MB    name
 *	    0     439323     C      0      0 ...     10      0    demo
 *
 * Columns are whitespace-separated and found by the names of the "# gpu"
 * header line, which may come again anywhere (the column groups are in the
 * order -s gave them); the "# Idx" units line is passed over.  The memory
 * column is fb (MB, which is MiB); bar1 and ccpm are other memories and
 * "mem" is the memory controller's load in %.  A log without fb holds no
 * memory data and is refused at its end (a header pair without fb may be
 * followed by one with it).  '-' is a missing value; a pmon row whose pid
 * is '-' is an idle GPU's row: the sample listed no process there.
 *
 * Time: -o DT rows carry a local date and time of day; -o T rows a time
 * of day, whose date comes from the last date(1) line of a wrapper, else
 * from --start (a time of day earlier than the previous row's, or than
 * the date line's, is the next day); -o D rows only a date, which starts the
 * --interval clock at its midnight when --start is absent.  Rows without time take the
 * time of a date(1) line before them (a wrapper's loop), else --start
 * plus one --interval per sample.  Without times, a sample is the run of
 * rows up to a header line or to a row whose GPU index is not above the
 * previous row's (dmon prints one row per GPU, in index order); in pmon,
 * where a GPU has one row per process, up to a GPU index below the
 * previous one or a (GPU, pid) the sample already listed.  A process that
 * ends while another starts between two untimed pmon samples cannot be
 * told apart from both running: use -o DT.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dmon.h"
#include "field.h"
#include "format.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "sclock.h"

#define MAXCOLS 64

enum col { C_DATE, C_TIME, C_GPU, C_FB, C_PID, C_CMD, NCOL };

struct pair {
	uint32_t gpu, pid;
};

struct mon {
	struct source *s;
	int pmon;		/* pmon, else dmon */

	/* The columns of the current header. */
	size_t ncols;
	int col[NCOL];
	int have_cols;		/* a header of ours named the columns */
	int any_fb;		/* some header had fb */
	int util_only;		/* a header without fb had only utilization */
	int other;		/* the header is the other monitor's */
	int any_ours, any_other;	/* headers of each kind seen */

	/* The clock. */
	struct sclock clock;
	int have_pending;	/* a date line came before this sample */
	uint64_t pending;
	int clock_said;
	int have_day;		/* -o T: the date of the times of day */
	int64_t day;		/* days since the epoch, local calendar */
	int prev_tod;
	int have_anchor;	/* a date line: -o T rows are on its day */
	uint64_t anchor;

	/* The sample being read. */
	int insample;
	uint64_t sample_ts;
	int64_t last_gpu;
	int newheader;
	struct pair *pairs;
	size_t npairs, cappairs;

	/* For the summary. */
	uint64_t samples, idle, nofb;
	uint64_t nrec;		/* records written (a bundle's section: its own) */
	struct gpuset gpuset;	/* the GPUs named, for the summary */

	struct sbuf name;
	char *w[MAXCOLS + 1];
	size_t wl[MAXCOLS + 1];
};

static const char *const util_cols[] = {
	"Date", "Time", "gpu", "pid", "type", "sm", "mem", "enc", "dec",
	"jpg", "ofa", "command", NULL
};

static int
word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

/*
 * The names header: '#', then words among which "gpu".  Return 1 for a
 * dmon header, 2 for a pmon one (it names pid), 0 for neither.
 */
static int
names_kind(char *line)
{
	char *w[MAXCOLS + 1];
	size_t wl[MAXCOLS + 1], n, i;
	int gpu = 0, pid = 0;

	if (line[0] != '#')
		return 0;
	n = field_words(line + 1, w, wl, MAXCOLS);
	if (n > MAXCOLS)
		return 0;
	for (i = 0; i < n; i++) {
		if (word_is(w[i], wl[i], "gpu"))
			gpu = 1;
		else if (word_is(w[i], wl[i], "pid"))
			pid = 1;
	}
	return !gpu ? 0 : pid ? 2 : 1;
}

/* The units line under the names: "# Idx ...", "#YYYYMMDD ...". */
static int
is_units(char *line)
{
	char *w[2];
	size_t wl[2];

	if (line[0] != '#' || field_words(line + 1, w, wl, 1) < 1)
		return 0;
	return word_is(w[0], wl[0], "Idx") || word_is(w[0], wl[0],
	    "YYYYMMDD") || word_is(w[0], wl[0], "HH:MM:SS");
}

static int
sniff(char *const *lines, size_t n, int want)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++) {
		int k = names_kind(lines[i]);

		if (k != 0)
			return k == want ? 85 : 0;
	}
	return 0;
}

static int
sniff_dmon(char *const *lines, size_t n)
{
	return sniff(lines, n, 1);
}

static int
sniff_pmon(char *const *lines, size_t n)
{
	return sniff(lines, n, 2);
}

static void *
open_common(struct source *s, int pmon)
{
	struct mon *p = ecalloc(1, sizeof(*p));
	size_t i;

	p->s = s;
	p->pmon = pmon;
	for (i = 0; i < NCOL; i++)
		p->col[i] = -1;
	sclock_init(&p->clock);
	p->last_gpu = -1;
	return p;
}

static void *
open_dmon(struct source *s, const char *hint)
{
	(void)hint;
	return open_common(s, 0);
}

static void *
open_pmon(struct source *s, const char *hint)
{
	(void)hint;
	return open_common(s, 1);
}

/* Take a names header as the column map. */
static void
set_columns(struct mon *p, char *line, int kind)
{
	size_t n, i, k;
	int util = 1;

	n = field_words(line + 1, p->w, p->wl, MAXCOLS);
	p->newheader = 1;
	p->other = (kind == 2) != p->pmon;
	p->have_cols = !p->other;
	if (p->other) {
		p->any_other = 1;
		return;
	}
	p->any_ours = 1;
	for (i = 0; i < NCOL; i++)
		p->col[i] = -1;
	for (i = 0; i < n; i++) {
		static const struct {
			const char *name;
			enum col col;
		} names[] = {
			{"Date", C_DATE}, {"Time", C_TIME}, {"gpu", C_GPU},
			{"fb", C_FB}, {"pid", C_PID}, {"command", C_CMD}
		};

		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (word_is(p->w[i], p->wl[i], names[k].name))
				p->col[names[k].col] = (int)i;
		for (k = 0; util_cols[k] != NULL; k++)
			if (word_is(p->w[i], p->wl[i], util_cols[k]))
				break;
		if (util_cols[k] == NULL)
			util = 0;
	}
	p->ncols = n;
	/* pmon's command may hold spaces: it must be the last column. */
	if (p->col[C_CMD] >= 0 && (size_t)p->col[C_CMD] != n - 1)
		p->col[C_CMD] = -1;
	if (p->col[C_FB] >= 0)
		p->any_fb = 1;
	else
		p->util_only = util;
}

/* "20240104" */
static int
parse_date(const char *s, size_t n, int *y, int *mo, int *d)
{
	size_t i;

	if (n != 8)
		return -1;
	for (i = 0; i < 8; i++)
		if (!isdigit((unsigned char)s[i]))
			return -1;
	*y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	*mo = (s[4] - '0') * 10 + (s[5] - '0');
	*d = (s[6] - '0') * 10 + (s[7] - '0');
	return 0;
}

/* "13:54:35" */
static int
parse_tod(const char *s, size_t n, int *h, int *mi, int *sec)
{
	if (n != 8 || s[2] != ':' || s[5] != ':' ||
	    !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) ||
	    !isdigit((unsigned char)s[3]) || !isdigit((unsigned char)s[4]) ||
	    !isdigit((unsigned char)s[6]) || !isdigit((unsigned char)s[7]))
		return -1;
	*h = (s[0] - '0') * 10 + (s[1] - '0');
	*mi = (s[3] - '0') * 10 + (s[4] - '0');
	*sec = (s[6] - '0') * 10 + (s[7] - '0');
	return *h < 24 && *mi < 60 && *sec <= 60 ? 0 : -1;
}

static void
civil(int64_t day, int *y, int *mo, int *d)
{
	time_t t = (time_t)(day * 86400);
	struct tm tm;

	gmtime_r(&t, &tm);
	*y = tm.tm_year + 1900;
	*mo = tm.tm_mon + 1;
	*d = tm.tm_mday;
}

/*
 * The time of a row of -o T: its time of day on the day the rows have
 * reached.  Return 0, or -1 (refused or reported).
 */
static int
tod_time(struct mon *p, int h, int mi, int sec, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);
	int tod = h * 3600 + mi * 60 + sec, y, mo, d;
	int64_t secs;

	if (!p->have_day) {
		time_t st;
		struct tm tm;

		if (!o->have_start && !p->have_anchor) {
			if (p->nrec == 0) {
				source_refuse(p->s, "rows carry a time of day "
				    "but no date (-o T): give --start with the "
				    "date of the first row");
				return -1;
			}
			source_bad(p->s, "a time of day without a date (-o T):"
			    " skipped (give --start)");
			return -1;
		}
		/* The latest date line, else --start, gives the day. */
		st = (time_t)((p->have_anchor ? p->anchor : o->start) /
		    NS_PER_SEC);
		localtime_r(&st, &tm);
		p->day = gtime_utc(tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, 0, 0, 0) / 86400;
		if (tod < tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec)
			p->day++;
		p->have_day = 1;
	} else if (tod < p->prev_tod)
		p->day++;		/* past midnight */
	p->prev_tod = tod;
	civil(p->day, &y, &mo, &d);
	if (gtime_local(y, mo, d, h, mi, sec, &secs) < 0) {
		source_bad(p->s, "a time outside 1970..2500");
		return -1;
	}
	*ts = (uint64_t)secs * NS_PER_SEC;
	return 0;
}

/* The time a row carries itself (-o T, -o DT).  0, or -1 (said). */
static int
own_time(struct mon *p, uint64_t *ts)
{
	int y, mo, d, h, mi, sec, i = p->col[C_TIME], j = p->col[C_DATE];
	int64_t secs;
	char q[48];

	if (parse_tod(p->w[i], p->wl[i], &h, &mi, &sec) < 0) {
		source_bad(p->s, "column 'Time': expected HH:MM:SS, got %s",
		    field_quote(q, sizeof(q), p->w[i], p->wl[i]));
		return -1;
	}
	if (j < 0)
		return tod_time(p, h, mi, sec, ts);
	if (parse_date(p->w[j], p->wl[j], &y, &mo, &d) < 0 ||
	    gtime_local(y, mo, d, h, mi, sec, &secs) < 0) {
		source_bad(p->s, "column 'Date': expected YYYYMMDD, got %s",
		    field_quote(q, sizeof(q), p->w[j], p->wl[j]));
		return -1;
	}
	*ts = (uint64_t)secs * NS_PER_SEC;
	return 0;
}

/* Whether an untimed row begins a new sample (see the rule above). */
static int
new_sample(struct mon *p, uint32_t gpu, uint32_t pid)
{
	size_t i;

	if (!p->insample || p->newheader || (int64_t)gpu < p->last_gpu)
		return 1;
	if (!p->pmon)
		return (int64_t)gpu == p->last_gpu;
	for (i = 0; i < p->npairs; i++)
		if (p->pairs[i].gpu == gpu && p->pairs[i].pid == pid)
			return 1;
	return 0;
}

/* The time of the sample an untimed row begins.  0, or -1 (said). */
static int
clock_time(struct mon *p, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);
	int j = p->col[C_DATE];

	if (p->have_pending) {
		p->have_pending = 0;
		*ts = p->pending;
		return 0;
	}
	/* A date alone starts the clock only when --interval runs it. */
	if (j >= 0 && !p->clock.have_base && o->interval > 0) {
		int y, mo, d;
		int64_t secs;
		char q[48];

		if (parse_date(p->w[j], p->wl[j], &y, &mo, &d) < 0 ||
		    gtime_local(y, mo, d, 0, 0, 0, &secs) < 0) {
			source_bad(p->s, "column 'Date': expected YYYYMMDD, "
			    "got %s", field_quote(q, sizeof(q), p->w[j],
			    p->wl[j]));
			return -1;
		}
		sclock_default_start(&p->clock, (uint64_t)secs * NS_PER_SEC);
	}
	if (sclock_next(&p->clock, o, ts) == 0)
		return 0;
	if (p->clock.n == 0 && p->samples == 0) {
		if (j >= 0)
			source_refuse(p->s, "rows carry a date but no time of "
			    "day (-o D): give --interval (its -d, 1s by "
			    "default), and --start for the first row's time");
		else
			source_refuse(p->s, "rows carry no time (%s without "
			    "-o DT): give --interval (its -d, 1s by default) "
			    "and --start", p->pmon ? "pmon" : "dmon");
		return -1;
	}
	if (!p->clock_said) {
		p->clock_said = 1;
		source_bad(p->s, "a second sample, and no --interval to place "
		    "it in time: the rest is skipped (give --interval)");
	}
	source_skip(p->s, "rows without a time");
	return -1;
}

static void
start_sample(struct mon *p, uint64_t ts)
{
	p->insample = 1;
	p->sample_ts = ts;
	p->npairs = 0;
	p->newheader = 0;
	p->last_gpu = -1;
	p->samples++;
	if (p->pmon) {
		struct rec m;

		rec_init(&m);
		m.ts = ts;
		m.host = source_host(p->s, NULL);
		m.origin = REC_SNAP_PMON;
		source_emit(p->s, &m);		/* the poll mark */
	}
}

static void
add_pair(struct mon *p, uint32_t gpu, uint32_t pid)
{
	if (p->npairs == p->cappairs) {
		p->cappairs = p->cappairs ? 2 * p->cappairs : 16;
		p->pairs = ereallocarray(p->pairs, p->cappairs,
		    sizeof(*p->pairs));
	}
	p->pairs[p->npairs].gpu = gpu;
	p->pairs[p->npairs].pid = pid;
	p->npairs++;
}

static void
row(struct mon *p, char *line)
{
	size_t nw;
	uint32_t gpu, pid = 0, fb = 0;
	int hfb, rc, timed;
	uint64_t ts;
	struct rec r;
	char q[48];

	if (!p->have_cols) {
		if (p->other)
			source_skip(p->s, p->pmon ? "rows of dmon (not pmon)" :
			    "rows of pmon (not dmon)");
		else
			source_bad(p->s, "a row before any header line "
			    "('# gpu ...')");
		return;
	}
	nw = field_words(line, p->w, p->wl, MAXCOLS);
	if (nw > MAXCOLS || (p->col[C_CMD] >= 0 ? nw < p->ncols :
	    nw != p->ncols)) {
		source_bad(p->s, "expected %zu columns, got %s%zu", p->ncols,
		    nw > MAXCOLS ? "more than " : "", nw > MAXCOLS ?
		    (size_t)MAXCOLS : nw);
		return;
	}
	if (p->col[C_FB] < 0) {
		source_skip(p->s, "rows without a memory column (fb)");
		return;
	}
	if (p->col[C_GPU] < 0 || field_uint(p->w[p->col[C_GPU]],
	    p->wl[p->col[C_GPU]], &gpu) != 1) {
		source_bad(p->s, "column 'gpu': expected a GPU index, got %s",
		    p->col[C_GPU] < 0 ? "nothing" : field_quote(q, sizeof(q),
		    p->w[p->col[C_GPU]], p->wl[p->col[C_GPU]]));
		return;
	}
	if (p->pmon) {
		int i = p->col[C_PID];

		if (i < 0 || (rc = field_uint(p->w[i], p->wl[i], &pid)) < 0 ||
		    (rc == 1 && pid == 0)) {
			source_bad(p->s, "column 'pid': expected a process id "
			    "or '-', got %s", i < 0 ? "nothing" :
			    field_quote(q, sizeof(q), p->w[i], p->wl[i]));
			return;
		}
	}
	hfb = field_mib(p->w[p->col[C_FB]], p->wl[p->col[C_FB]], &fb);
	if (hfb < 0) {
		source_bad(p->s, "column 'fb': expected MB, got %s",
		    field_quote(q, sizeof(q), p->w[p->col[C_FB]],
		    p->wl[p->col[C_FB]]));
		return;
	}

	timed = p->col[C_TIME] >= 0;
	if (timed) {
		if (own_time(p, &ts) < 0)
			return;
		if (!p->insample || ts != p->sample_ts)
			start_sample(p, ts);
	} else if (new_sample(p, gpu, pid)) {
		if (clock_time(p, &ts) < 0)
			return;
		start_sample(p, ts);
	}
	p->last_gpu = gpu;
	if (p->pmon)
		add_pair(p, gpu, pid);
	gpumap_set_add(&p->gpuset, gpu);

	rec_init(&r);
	r.ts = p->sample_ts;
	r.gpu = gpu;
	r.host = source_host(p->s, NULL);
	if (hfb) {
		r.used = fb;
		r.has = REC_USED;
	}
	if (!p->pmon) {
		if (!hfb) {
			p->nofb++;
			return;
		}
		source_emit(p->s, &r);
		p->nrec++;
		return;
	}
	if (pid == 0) {
		p->idle++;	/* an idle GPU's row: the mark says it all */
		return;
	}
	r.pid = pid;
	r.origin = REC_SNAP_PMON;
	if (p->col[C_CMD] >= 0) {
		/* The command is the rest of the line: it may hold spaces. */
		const char *c = p->w[p->col[C_CMD]];
		size_t n = strlen(c);

		while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\t'))
			n--;
		sbuf_reset(&p->name);
		sbuf_add(&p->name, "", 0);
		if (!(n == 1 && c[0] == '-'))
			sbuf_add(&p->name, c, n);
		r.name = p->name.buf;
	}
	source_emit(p->s, &r);
	p->nrec++;
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct mon *p = st;
	uint64_t t;
	int k;

	if (source_refused(p->s))
		return;
	if (len == 0 || strspn(line, " \t") == len)
		return;
	if (line[0] == '#') {
		if ((k = names_kind(line)) != 0)
			set_columns(p, line, k);
		else if (!is_units(line))
			source_skip(p->s, "comment lines");
		return;
	}
	if (gtime_ctime(line, len, &t) == 0 || (len >= 10 && line[4] == '-' &&
	    gtime_iso(line, len, &t) == 0)) {
		/*
		 * A wrapper's date(1) line: the time of the next sample, or
		 * the day of the -o T rows after it.
		 */
		p->pending = t;
		p->have_pending = 1;
		p->newheader = 1;
		p->anchor = t;
		p->have_anchor = 1;
		p->have_day = 0;
		source_skip(p->s, "date lines");
		return;
	}
	if (strstr(line, "Failed to initialize NVML") != NULL ||
	    strstr(line, "NVIDIA-SMI has failed") != NULL ||
	    strstr(line, "No devices were found") != NULL) {
		source_skip(p->s, "nvidia-smi error messages");
		return;
	}
	row(p, line);
}

static void
end_fn(void *st)
{
	struct mon *p = st;

	if (source_refused(p->s) || p->any_fb ||
	    p->nrec > 0 || (!p->any_ours && !p->any_other &&
	    source_nbad(p->s) == 0))
		return;		/* read, or empty */
	if (!p->any_ours && p->any_other)
		source_refuse(p->s, "an nvidia-smi %s log, not %s: read it "
		    "with --format %s", p->pmon ? "dmon" : "pmon",
		    p->pmon ? "pmon" : "dmon", p->pmon ? "dmon" : "pmon");
	else if (!p->any_ours)
		source_refuse(p->s, "no '# gpu ...' header line: not an "
		    "nvidia-smi %s log", p->pmon ? "pmon" : "dmon");
	else if (p->pmon)
		source_refuse(p->s, "no memory column (fb): a pmon without "
		    "-s m holds no per-process memory data (its 'mem' is the "
		    "memory controller's load in %%); record with -s um");
	else if (p->util_only)
		source_refuse(p->s, "no memory column (fb): a utilization-only "
		    "dmon (-s u) holds no memory data (its 'mem' is the memory "
		    "controller's load in %%); record with -s m or -s um");
	else
		source_refuse(p->s, "no memory column (fb): a dmon without the "
		    "memory group (-s m) holds no memory data; record with "
		    "-s m");
}

static void
summary(void *st, struct sbuf *sb)
{
	struct mon *p = st;

	gpumap_set_say_of(&p->gpuset, p->samples, "sample", sb);
	if (p->idle > 0)
		sbuf_printf(sb, ", %llu idle rows", (unsigned long long)p->idle);
	if (p->nofb > 0)
		sbuf_printf(sb, ", %llu rows with fb '-'",
		    (unsigned long long)p->nofb);
	sclock_say(&p->clock, sb);
}

static void
free_fn(void *st)
{
	struct mon *p = st;

	free(p->pairs);
	gpumap_set_release(&p->gpuset);
	sbuf_release(&p->name);
	free(p);
}

const struct format dmon_format = {
	.name = "dmon",
	.what = "nvidia-smi dmon",
	.device_only = 1,
	.sniff_text = sniff_dmon,
	.open = open_dmon,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};

const struct format dmon_pmon_format = {
	.name = "pmon",
	.what = "nvidia-smi pmon",
	.sniff_text = sniff_pmon,
	.open = open_pmon,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
