/* SPDX-License-Identifier: ISC */
/*
 * colmapread.c: a CSV log read through a column map (colmap.h,
 * colmapstate.h): the header found among the first lines and its columns
 * matched to the map's, rows whose quoted cells span lines joined, and
 * each row to a record: its time in the map's form (epoch units, ISO
 * 8601, nvidia-smi's, a time of day on --start's date, a strptime(3)
 * format, seconds since the log began), its GPU, memory in the map's unit
 * (or the cell's), host and process; rows without a time take --start and
 * --interval, a poll at a repeated header or a GPU number going back.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "colmap.h"
#include "colmapstate.h"
#include "field.h"
#include "format.h"
#include "gtime.h"

#define MAXCOLS 1024

/*
 * An epoch time below this (1973-03-03) is no logger's clock: a number of
 * seconds since the log began.
 */
#define ELAPSED_MAX (100000000ULL * NS_PER_SEC)

#define BEFORE_HEADER 64	/* lines looked at for the header */
#define CONT_LINES 64		/* lines of a row whose quoted cell spans */

struct cmread {
	struct source *s;
	struct colmap *m;
	int col[NKEY];		/* field index of each key, or -1 */
	size_t ncols;
	char *header;		/* the header line, to tell it again */
	int have_header;
	size_t nbefore;		/* lines before the header */
	char *before;		/* the one of most fields */
	size_t before_nf;
	uint64_t headers;	/* repeated */

	/* Rows without a timestamp: the poll they belong to. */
	uint64_t npoll;
	int inpoll;
	int64_t lastgpu;
	/* A clock time's day (the date from --start), and the last time. */
	int y, mo, d;
	int have_day;
	uint64_t days;		/* midnights passed */
	uint64_t lastclock;
	uint64_t rows;
	int start_said;		/* what --start does was said */
	struct sbuf cont;	/* a row whose quoted cell spans lines */
	size_t ncont;		/* its lines so far */
	struct sbuf host, name, key;
	char *f[MAXCOLS + 1];
	size_t len[MAXCOLS + 1];
};

/*
 * Split line at delim into fields, trimmed; a field in double quotes may
 * hold the delimiter (its quotes stay: values do not have any).  Return
 * the count (MAXCOLS + 1: more).
 */
static size_t
split(char *line, char delim, char **f, size_t *len)
{
	size_t nf = 0;
	char *p = line;

	for (;;) {
		char *start = p;
		int q = 0;
		size_t n;

		while (*p != '\0' && (q || *p != delim)) {
			if (*p == '"')
				q = !q;
			p++;
		}
		if (nf == MAXCOLS)
			return MAXCOLS + 1;
		n = (size_t)(p - start);
		start = field_trim(start, &n);
		if (n >= 2 && start[0] == '"' && start[n - 1] == '"') {
			start++;
			n -= 2;
		}
		f[nf] = start;
		len[nf++] = n;
		if (*p == '\0')
			return nf;
		p++;
	}
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct cmread *p;
	struct colmap *m;
	char err[512];
	int k;

	(void)hint;
	if (source_opts(s)->map == NULL) {
		source_fail(s, "--format map needs --map");
		return NULL;
	}
	if ((m = colmap_load(source_opts(s)->map, err, sizeof(err))) == NULL) {
		source_fail(s, "--map: %s", err);
		return NULL;
	}
	p = ecalloc(1, sizeof(*p));
	p->s = s;
	p->m = m;
	p->lastgpu = -1;
	for (k = 0; k < NKEY; k++)
		p->col[k] = -1;
	source_set_what(s, colmap_what(p->m));
	/* Before the header: the stream orders device-only inputs first. */
	source_set_device_only(s, m->c[K_PID].column == NULL);
	return p;
}

/*
 * Find every mapped column in a header line: return 0, or -1 when one the
 * map needs is not there (refused unless quiet: a line before the header).
 */
static int
find_columns(struct cmread *p, char *line, int quiet)
{
	size_t nf, i;
	int k;

	nf = split(line, p->m->delim, p->f, p->len);
	if (nf > MAXCOLS) {
		if (!quiet)
			source_refuse(p->s, "header: more than %d columns",
			    MAXCOLS);
		return -1;
	}
	p->ncols = nf;
	for (k = 0; k < NKEY; k++) {
		const struct mapcol *c = &p->m->c[k];

		if (c->column == NULL)
			continue;
		for (i = 0; i < nf; i++)
			if (strlen(c->column) == p->len[i] &&
			    strncasecmp(c->column, p->f[i], p->len[i]) == 0)
				break;
		if (i < nf)
			p->col[k] = (int)i;
		else if (!c->optional && quiet)
			return -1;
		else if (!c->optional) {
			struct sbuf sb = SBUF_INIT;

			for (i = 0; i < nf && i < 12; i++)
				sbuf_printf(&sb, "%s'%.*s'", i ? ", " : "",
				    (int)p->len[i], p->f[i]);
			if (nf > 12)
				sbuf_adds(&sb, ", ...");
			source_refuse(p->s, "%s: the %s column '%s' is not in "
			    "the header (it has %s)", p->m->what,
			    colmap_keynames[k], c->column, sb.buf);
			sbuf_release(&sb);
			return -1;
		}
	}
	if (p->col[K_USED] < 0 && p->col[K_FREE] < 0) {
		if (!quiet)
			source_refuse(p->s, "none of the map's memory columns "
			    "is in the header");
		return -1;
	}
	return 0;
}

/* Take the header: find every mapped column or refuse the input. */
static void
take_header(struct cmread *p, char *line)
{
	p->header = estrdup(line);
	if (find_columns(p, line, 0) < 0)
		return;
	if (p->col[K_TS] < 0 && source_opts(p->s)->interval == 0) {
		source_refuse(p->s, "the rows carry no time (the map's "
		    "timestamp column is not in the header): give --interval "
		    "(and --start)");
		return;
	}
	p->have_header = 1;
	source_set_device_only(p->s, p->col[K_PID] < 0);
}

/* The day of clock times: --start's, in local time. */
static int
clock_day(struct cmread *p)
{
	const struct format_opts *o = source_opts(p->s);
	struct tm tm;
	time_t t;

	if (p->have_day)
		return 0;
	if (!o->have_start) {
		source_refuse(p->s, "the timestamps are times of day: give "
		    "the day of the first with --start");
		return -1;
	}
	t = (time_t)(o->start / NS_PER_SEC);
	if (localtime_r(&t, &tm) == NULL)
		return -1;
	p->y = tm.tm_year + 1900;
	p->mo = tm.tm_mon + 1;
	p->d = tm.tm_mday;
	p->have_day = 1;
	return 0;
}

/* Digits of a fraction of a second at s[0..n): ns, and how many used. */
static size_t
fraction(const char *s, size_t n, uint64_t *ns)
{
	uint64_t scale = NS_PER_SEC / 10;
	size_t i = 0;

	*ns = 0;
	if (n == 0 || s[0] != '.')
		return 0;
	for (i = 1; i < n && isdigit((unsigned char)s[i]); i++) {
		*ns += (uint64_t)(s[i] - '0') * scale;
		scale /= 10;
	}
	return i;
}

/*
 * A time of day with --start's date; a clock that goes back by more than
 * twelve hours has passed midnight: the day after.
 */
static int
clock_time(struct cmread *p, const struct tm *tm, uint64_t frac,
    uint64_t *ts)
{
	int64_t secs;
	uint64_t t, day = 24 * 3600 * NS_PER_SEC;

	if (clock_day(p) < 0)
		return -1;
	if (gtime_local(p->y, p->mo, p->d, tm->tm_hour, tm->tm_min,
	    tm->tm_sec, &secs) < 0)
		return -1;
	t = (uint64_t)secs * NS_PER_SEC + frac + p->days * day;
	if (p->lastclock > 0 && t + day / 2 < p->lastclock) {
		p->days++;
		t += day;
	}
	p->lastclock = t;
	*ts = t;
	return 0;
}

/* strptime, or HH:MM:SS for clock; then a fraction; nothing after. */
static int
parse_strp(struct cmread *p, const char *fmt, const char *s, size_t n,
    int day, uint64_t *ts)
{
	char buf[128];
	struct tm tm;
	const char *end;
	uint64_t frac;
	int64_t secs;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	memset(&tm, 0, sizeof(tm));
	if ((end = strptime(buf, fmt, &tm)) == NULL)
		return -1;
	end += fraction(end, strlen(end), &frac);
	if (*end != '\0')
		return -1;
	if (!day)
		return clock_time(p, &tm, frac, ts);
	if (gtime_local(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	    tm.tm_hour, tm.tm_min, tm.tm_sec, &secs) < 0)
		return -1;
	*ts = (uint64_t)secs * NS_PER_SEC + frac;
	return 0;
}

/*
 * Seconds, ms, us or ns since the epoch, with a fraction; auto: the
 * number of digits tells (10 s, 13 ms, 16 us, 19 ns, as loggers print
 * them).  Exact: decimal digits, no floating point.
 */
static int
parse_epoch(const char *s, size_t n, enum tkind k, uint64_t *ts)
{
	uint64_t v = 0, scale;
	size_t i = 0, nd;

	while (i < n && isdigit((unsigned char)s[i])) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i++] - '0');
	}
	if ((nd = i) == 0)
		return -1;
	if (k == T_AUTO)
		k = nd <= 11 ? T_S : nd <= 14 ? T_MS : nd <= 17 ? T_US : T_NS;
	scale = k == T_S ? NS_PER_SEC : k == T_MS ? NS_PER_MS : k == T_US ?
	    1000 : 1;
	if (v > UINT64_MAX / scale)
		return -1;
	v *= scale;
	if (i < n && s[i] == '.')
		for (i++; i < n && isdigit((unsigned char)s[i]); i++) {
			scale /= 10;
			v += (uint64_t)(s[i] - '0') * scale;
		}
	if (i != n)
		return -1;
	*ts = v;
	return 0;
}

/*
 * A time of a column of seconds since the log began (a home-made
 * logger's time.time() - t0): *ts, read as epoch seconds, is that many
 * after --start, said once; refused without --start.  Return 0 or -1.
 */
static int
elapsed(struct cmread *p, uint64_t *ts)
{
	const struct format_opts *o = source_opts(p->s);
	const struct mapcol *c = &p->m->c[K_TS];

	if (!o->have_start) {
		source_refuse(p->s, "column '%s' (timestamp) holds seconds "
		    "since the log began, not dates: give the time it began "
		    "with --start", c->column);
		return -1;
	}
	if (!p->start_said) {
		p->start_said = 1;
		if (c->tkind != T_ELAPSED)
			source_warn(p->s, "column '%s' (timestamp) holds "
			    "seconds since the log began (%.3f s on its first "
			    "row): read as seconds since --start", c->column,
			    (double)*ts / NS_PER_SEC);
	}
	*ts += o->start;
	return 0;
}

static int
row_time(struct cmread *p, uint64_t *ts)
{
	const struct mapcol *c = &p->m->c[K_TS];
	int i = p->col[K_TS], rc = -1;
	const char *s;
	size_t n;
	char q[48];

	if (i < 0) {
		const struct format_opts *o = source_opts(p->s);

		*ts = (o->have_start ? o->start : 0) + p->npoll * o->interval;
		return 0;
	}
	s = p->f[i];
	n = p->len[i];
	switch (c->tkind) {
	case T_AUTO:
		rc = gtime_nvsmi(s, n, ts) == 0 || gtime_iso(s, n, ts) == 0 ||
		    gtime_ctime(s, n, ts) == 0 ||
		    parse_epoch(s, n, T_AUTO, ts) == 0 ? 0 : -1;
		break;
	case T_S:
	case T_MS:
	case T_US:
	case T_NS:
		rc = parse_epoch(s, n, c->tkind, ts);
		break;
	case T_ELAPSED:
		rc = parse_epoch(s, n, T_S, ts);
		break;
	case T_ISO:
		rc = gtime_iso(s, n, ts);
		break;
	case T_NVSMI:
		rc = gtime_nvsmi(s, n, ts);
		break;
	case T_CLOCK:
		/* Some versions of a tool print the whole date. */
		if (memchr(s, '-', n) != NULL && gtime_iso(s, n, ts) == 0) {
			rc = 0;
			break;
		}
		rc = parse_strp(p, c->tfmt != NULL ? c->tfmt : "%H:%M:%S", s,
		    n, 0, ts);
		break;
	case T_STRP:
		rc = parse_strp(p, c->tfmt, s, n, 1, ts);
		break;
	}
	if (rc == 0 && (c->tkind == T_ELAPSED || (c->tkind == T_AUTO &&
	    *ts < ELAPSED_MAX)))
		return elapsed(p, ts);
	if (rc == 0 && c->tkind != T_CLOCK && source_opts(p->s)->have_start &&
	    !p->start_said) {
		p->start_said = 1;
		source_warn(p->s, "--start is not used: the rows carry their "
		    "own dates (for seconds since --start, map the column "
		    "as %s:elapsed)", c->column);
	}
	if (rc < 0 && !source_refused(p->s))
		source_bad(p->s, "column '%s' (timestamp, %s): expected a "
		    "time, got %s", c->column, c->tfmt != NULL ? c->tfmt :
		    colmap_tkinds[c->tkind].name, field_quote(q, sizeof(q), s,
		    n));
	return rc;
}

/*
 * A memory cell in MiB: 1 value, 0 missing, -1 bad (reported).  A unit
 * printed after the number wins over the map's.
 */
static int
mem(struct cmread *p, int k, uint32_t *v)
{
	const struct mapcol *c = &p->m->c[k];
	int i = p->col[k];
	const char *s;
	size_t n, u;
	double x, bytes = c->unit;
	char q[48];

	if (i < 0)
		return 0;
	s = p->f[i];
	n = p->len[i];
	if (field_placeholder(s, n))
		return 0;
	for (u = n; u > 0 && isalpha((unsigned char)s[u - 1]); u--)
		;
	if (u < n && u > 0) {
		bytes = num_mem_unit_bytes(s + u, n - u);
		n = u;
		while (n > 0 && s[n - 1] == ' ')
			n--;
	}
	if (bytes == 0 || field_double(s, n, &x) != 1 ||
	    x * bytes / 1048576.0 > UINT32_MAX) {
		source_bad(p->s, "column '%s' (%s): expected a number of %s, "
		    "got %s", c->column, colmap_keynames[k],
		    num_mem_unit_name(c->unit),
		    field_quote(q, sizeof(q), p->f[i], p->len[i]));
		return -1;
	}
	*v = (uint32_t)llround(x * bytes / 1048576.0);
	return 1;
}

/*
 * A GPU number: the last digits of the cell ("0", "card1", "GPU[2]"):
 * 1, 0 missing, -1 bad (reported).
 */
static int
gpu_number(struct cmread *p, uint32_t *g)
{
	int i = p->col[K_GPU];
	size_t e, b;
	char q[48];

	if (i < 0 || field_placeholder(p->f[i], p->len[i]))
		return 0;
	for (e = p->len[i]; e > 0 && !isdigit((unsigned char)p->f[i][e - 1]);
	    e--)
		;
	for (b = e; b > 0 && isdigit((unsigned char)p->f[i][b - 1]); b--)
		;
	if (e == b || e - b > 9 || (e < p->len[i] && p->f[i][e] != ']')) {
		source_bad(p->s, "column '%s' (gpu): expected a GPU number, "
		    "got %s", p->m->c[K_GPU].column, field_quote(q, sizeof(q),
		    p->f[i], p->len[i]));
		return -1;
	}
	*g = (uint32_t)strtoul(p->f[i] + b, NULL, 10);
	return 1;
}

static const char *
text_of(struct cmread *p, struct sbuf *sb, int k)
{
	int i = p->col[k];

	if (i >= 0 && !field_placeholder(p->f[i], p->len[i]))
		sbuf_set(sb, p->f[i], p->len[i]);
	else
		sbuf_set(sb, "", 0);
	return sb->buf;
}

static void
row(struct cmread *p, char *line)
{
	struct rec r;
	size_t nf;
	uint32_t v, g = 0;
	int rc, hg;
	const char *key;

	nf = split(line, p->m->delim, p->f, p->len);
	if (nf != p->ncols) {
		source_bad(p->s, "expected %zu fields, got %s%zu", p->ncols,
		    nf > MAXCOLS ? "more than " : "", nf > MAXCOLS ?
		    (size_t)MAXCOLS : nf);
		return;
	}
	rec_init(&r);
	if ((hg = gpu_number(p, &g)) < 0)
		return;
	/* Without a time of their own, rows are polls: a GPU going back. */
	if (p->col[K_TS] < 0 && p->inpoll && (int64_t)g <= p->lastgpu) {
		p->npoll++;
		p->inpoll = 0;
	}
	if (row_time(p, &r.ts) < 0)
		return;
	r.gpu = g;
	r.host = source_host(p->s, text_of(p, &p->host, K_HOST));
	if (hg == 0) {
		key = text_of(p, &p->key, K_UUID);
		if (*key == '\0')
			key = text_of(p, &p->key, K_BUS);
		if (*key != '\0')
			r.gpukey = key;
	} else if (p->col[K_UUID] >= 0 || p->col[K_BUS] >= 0) {
		struct sbuf b = SBUF_INIT;

		source_learn(p->s, r.host, text_of(p, &p->key, K_UUID),
		    text_of(p, &b, K_BUS), g);
		sbuf_release(&b);
	}
	if (p->col[K_PID] >= 0 && field_uint(p->f[p->col[K_PID]],
	    p->len[p->col[K_PID]], &r.pid) < 0) {
		char q[48];

		source_bad(p->s, "column '%s' (pid): expected a process id, "
		    "got %s", p->m->c[K_PID].column, field_quote(q, sizeof(q),
		    p->f[p->col[K_PID]], p->len[p->col[K_PID]]));
		return;
	}
	if ((rc = mem(p, K_USED, &v)) < 0)
		return;
	if (rc) {
		r.used = v;
		r.has |= REC_USED;
	}
	if (r.pid == 0) {
		if ((rc = mem(p, K_FREE, &v)) < 0)
			return;
		if (rc) {
			r.free = v;
			r.has |= REC_FREE;
		}
		if ((rc = mem(p, K_TOTAL, &v)) < 0)
			return;
		if (rc) {
			r.total = v;
			r.has |= REC_TOTAL;
		}
	} else {
		r.name = text_of(p, &p->name, K_PNAME);
		r.origin = REC_SNAP_APPS;
	}
	p->inpoll = 1;
	p->lastgpu = g;
	if (p->col[K_GPU] < 0 && p->col[K_TS] < 0)
		p->npoll++, p->inpoll = 0;
	p->rows++;
	source_emit(p->s, &r);
}

/* Whether line holds an odd number of '"': a quoted cell left open. */
static int
quote_open(const char *line, int open)
{
	for (; *line != '\0'; line++)
		if (*line == '"')
			open = !open;
	return open;
}

/*
 * A row whose quoted cell spans lines (RFC 4180: a process's command line
 * with a line end in it): its lines joined by a space into p->cont until
 * the quote closes, for up to CONT_LINES lines.  Return the row to read,
 * or NULL while it goes on.
 */
static char *
continued(struct cmread *p, char *line)
{
	if (p->ncont > 0)
		sbuf_addc(&p->cont, ' ');
	sbuf_adds(&p->cont, line);
	p->ncont++;
	if (quote_open(p->cont.buf, 0) && p->ncont < CONT_LINES)
		return NULL;
	p->ncont = 0;
	return p->cont.buf;
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct cmread *p = st;

	if (len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
		len -= 3;
	}
	if (p->ncont > 0 || (p->have_header && quote_open(line, 0))) {
		if (p->ncont == 0)
			sbuf_reset(&p->cont);
		if ((line = continued(p, line)) == NULL)
			return;
		len = strlen(line);
	}
	if (len == 0 || strspn(line, " \t") == len)
		return;
	if (line[0] == '#') {
		source_skip(p->s, "comment lines");
		return;
	}
	if (!p->have_header && find_columns(p, line, 1) < 0 &&
	    p->nbefore < BEFORE_HEADER) {
		/*
		 * A shell prompt ("root@host:~# xpu-smi dump ..."), a banner:
		 * skipped until the header; the line of most fields is the
		 * header refused when none comes.
		 */
		size_t nf = split(line, p->m->delim, p->f, p->len);

		if (p->nbefore++ == 0 || nf > p->before_nf) {
			free(p->before);
			p->before = estrdup(line);
			p->before_nf = nf;
		}
		source_skip(p->s, "lines before the header");
		return;
	}
	if (!p->have_header) {
		take_header(p, p->nbefore < BEFORE_HEADER ? line : p->before);
		return;
	}
	if (strcmp(line, p->header) == 0) {
		/* A loop that prints its header every poll: a new poll. */
		p->headers++;
		if (p->inpoll)
			p->npoll++;
		p->inpoll = 0;
		return;
	}
	row(p, line);
}

static void
summary(void *st, struct sbuf *sb)
{
	struct cmread *p = st;

	if (p->headers > 0)
		sbuf_printf(sb, ", %llu repeated headers",
		    (unsigned long long)p->headers);
}

/*
 * No header came: refuse the line before of most fields as one.  A quoted
 * cell still open is said.
 */
static void
end_fn(void *st)
{
	struct cmread *p = st;

	if (!p->have_header && p->before != NULL && !source_refused(p->s))
		take_header(p, p->before);
	if (p->ncont > 0 && !source_refused(p->s))
		source_bad(p->s, "a quoted cell not closed by the end of the "
		    "file (%zu lines from its row on)", p->ncont);
}

static void
free_fn(void *st)
{
	struct cmread *p = st;

	free(p->header);
	free(p->before);
	sbuf_release(&p->cont);
	colmap_free(p->m);
	sbuf_release(&p->host);
	sbuf_release(&p->name);
	sbuf_release(&p->key);
	free(p);
}

const struct format colmap_format = {
	.name = "map",
	.what = "CSV read through --map",
	.device_only = 1,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
