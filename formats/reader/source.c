/* SPDX-License-Identifier: ISC */
/* source.c: opening an input, detecting its format, driving its parser. */
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "colmap.h"
#include "gtime.h"
#include "hmap.h"
#include "nvsmi.h"
#include "recfmt.h"
#include "source.h"
#include "unzip.h"

#define SNIFF_BYTES (64U * 1024)
#define SNIFF_LINES 200
#define SNIFF_SURE 80		/* a score that settles a live input's format */
#define SNIFF_LIVE_LINES 16	/* lines enough to judge a live input on */

/*
 * The end of the quoted CSV field that starts at l[i] ('"'): the index
 * after its closing quote, or 0 when it does not close on this line.  Set
 * *plain when its content needs no quotes (no comma, quote or CR).
 */
static size_t
quoted_end(const char *l, size_t n, size_t i, int *plain)
{
	*plain = 1;
	for (i++; i < n; i++) {
		if (l[i] == '"') {
			if (i + 1 < n && l[i + 1] == '"') {
				*plain = 0;	/* "" stands for a quote */
				i++;
				continue;
			}
			return i + 1;
		}
		if (l[i] == ',' || l[i] == '\r')
			*plain = 0;
	}
	return 0;
}

/*
 * A CSV line whose every field is quoted (Excel, pandas' QUOTE_ALL) reads
 * as the line nvidia-smi or gpumem wrote: the quotes of each field that
 * needs none are taken off, in place, so that the formats read it as
 * their own; a field that needs them (a name with a comma or a quote)
 * keeps them.  Any other line is left as it is.  Return its new length.
 */
size_t
source_unquote(char *l, size_t n)
{
	size_t i = 0, e, w = 0, nf = 0;
	int plain;

	if (n < 2 || l[0] != '"')
		return n;
	/* All fields quoted, apart by commas, or nothing is done. */
	while (i < n) {
		if (l[i] != '"' || (e = quoted_end(l, n, i, &plain)) == 0 ||
		    (e < n && l[e] != ','))
			return n;
		i = e + 1;
		nf++;
	}
	/*
	 * An empty last field, unquoted; or one field alone: a quoted word
	 * in a text (a help text's "timestamp"), no CSV line of ours.
	 */
	if (l[n - 1] == ',' || nf < 2)
		return n;
	for (i = 0; i < n; i = e + 1) {
		e = quoted_end(l, n, i, &plain);
		if (plain) {
			memmove(l + w, l + i + 1, e - i - 2);
			w += e - i - 2;
		} else {
			memmove(l + w, l + i, e - i);
			w += e - i;
		}
		if (e < n)
			l[w++] = ',';
	}
	l[w] = '\0';
	return w;
}

/*
 * Split the first bytes of a text into lines for sniffing: a copy, lines
 * NUL-terminated without their ends, blank lines left out.  The last line
 * counts only when the data ended (at_end) or it is complete.
 */
static size_t
split_lines(const unsigned char *p, size_t n, int at_end, char **buf,
    char **lines, size_t max)
{
	size_t i = 0, count = 0;
	char *b;

	b = *buf = emalloc(n + 1);
	memcpy(b, p, n);
	b[n] = '\0';
	while (i < n && count < max) {
		char *nl = memchr(b + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - b) : n;
		size_t len = end - i;

		if (nl == NULL && !at_end)
			break;
		b[end] = '\0';
		if (len > 0 && b[end - 1] == '\r')
			b[end - 1] = '\0';
		source_unquote(b + i, strlen(b + i));
		if (b[i] != '\0' && strspn(b + i, " \t") != strlen(b + i))
			lines[count++] = b + i;
		i = end + 1;
	}
	return count;
}

/*
 * Whether the first bytes are binary: all NUL, or more than one in twenty
 * of the others control characters.  NUL bytes alone do not make a text
 * binary: a log cut by a crash often holds a block of them, and its lines
 * are still to be read (the damaged ones are named and counted).
 */
static int
looks_binary(const unsigned char *p, size_t n)
{
	size_t i, odd = 0, nul = 0;

	for (i = 0; i < n; i++)
		if (p[i] == 0)
			nul++;
		else if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' &&
		    p[i] != '\t' && p[i] != 0x1b)
			odd++;
	return n > 0 && (nul == n || odd * 20 > n - nul);
}

/*
 * The compressions gpumem does not read, by their magic: named in the
 * message of an input that holds one, with what to run instead.  Those it
 * reads are unzip.h's (unzip_sniff), and come here only inside another.
 */
static const struct {
	const char *magic;
	size_t len;
	const char *name, *cmd;
} compressions[] = {
	{"\x04\x22\x4d\x18", 4, "lz4", "lz4 -dc"},
	{"\x5d\x00\x00", 3, "lzma", "xz -dc"},
	{"PK\x03\x04", 4, "zip", "unzip -p"},
};

static int
compressed_as(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(compressions) / sizeof(compressions[0]); i++)
		if (n >= compressions[i].len && memcmp(p,
		    compressions[i].magic, compressions[i].len) == 0)
			return (int)i;
	return -1;
}

/* A short, printable excerpt of a line for messages. */
static void
excerpt(char *dst, size_t cap, const char *s)
{
	size_t i, j = 0;

	for (i = 0; s[i] != '\0' && j + 4 < cap; i++)
		dst[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (s[i] != '\0') {
		dst[j++] = '.';
		dst[j++] = '.';
		dst[j++] = '.';
	}
	dst[j] = '\0';
}

/*
 * Whether the first n bytes of a live input are enough to detect its
 * format: a format is sure of them, or they hold SNIFF_LIVE_LINES complete
 * lines (enough for every sniffer), or binary data that no format takes.
 */
static int
live_sure(const unsigned char *p, size_t n)
{
	char *lines[SNIFF_LINES], *copy;
	size_t nl, i;
	int sc;

	for (i = 0; formats[i] != NULL; i++)
		if (formats[i]->sniff_bytes != NULL &&
		    formats[i]->sniff_bytes(p, n) >= SNIFF_SURE)
			return 1;
	if (looks_binary(p, n))
		return n >= 16;		/* a capture's magic would be in */
	nl = split_lines(p, n, 0, &copy, lines, SNIFF_LINES);
	format_sniff_text(lines, nl, &sc);
	free(copy);
	return sc >= SNIFF_SURE || nl >= SNIFF_LIVE_LINES;
}

/*
 * The first bytes of a live input, as they come: reading stops as soon as
 * they settle its format, so that a log that trickles in (one poll a
 * second) is not held up until SNIFF_BYTES came.  *at_end says whether
 * the data ended.
 */
static size_t
live_peek(struct source *s, const unsigned char **p, int *at_end)
{
	size_t n = 0, m;

	*at_end = 0;
	for (;;) {
		m = input_peek_more(s->in, p, n);
		if (m <= n) {
			*at_end = 1;
			return m;
		}
		n = m;
		if (n >= SNIFF_BYTES)
			return SNIFF_BYTES;
		if (live_sure(*p, n))
			return n;
	}
}

/* Whether the input starts with the binary record stream's magic. */
int
source_starts_binary(struct source *s)
{
	const unsigned char *p;
	size_t n = input_peek(s->in, &p, REC_BIN_MAGICLEN);

	return rec_bin_sniff(p, n);
}

static const char not_ours[] =
    "binary data that is not a capture or log gpumem reads";

const struct format *
source_detect(struct source *s)
{
	const unsigned char *p;
	const struct format *best = NULL;
	char *lines[SNIFF_LINES], *copy = NULL, ex[64];
	size_t n, nl, i;
	const char *ours;
	int bs = 0, sc, at_end, k = -1;

	if (s->live)
		n = live_peek(s, &p, &at_end);
	else {
		n = input_peek(s->in, &p, SNIFF_BYTES);
		at_end = n < SNIFF_BYTES;
	}
	if (n == 0) {
		if (input_failed(s->in)) {
			source_fail(s, "%s", input_error(s->in));
			return NULL;
		}
		if (input_line_nuls(s->in) > 0)	/* NUL bytes only */
			source_fail(s, "%s", not_ours);
		else
			s->empty = 1;
		return NULL;
	}
	for (i = 0; formats[i] != NULL; i++)
		if (formats[i]->sniff_bytes != NULL &&
		    (sc = formats[i]->sniff_bytes(p, n)) > bs) {
			bs = sc;
			best = formats[i];
		}
	if (best != NULL)
		return best;
	if ((ours = unzip_sniff(p, n)) != NULL ||
	    (k = compressed_as(p, n)) >= 0) {
		/*
		 * Compressed data, not binary garbage: say which, and what
		 * reads it (gpumem itself, once the outer layer is off).
		 */
		const char *outer = input_compression(s->in);

		if (ours != NULL && outer != NULL)
			source_fail(s, "%s data inside %s (compressed "
			    "twice): %s -dc %s | gpumem read -", ours, outer,
			    outer, s->name);
		else if (ours != NULL)	/* after a byte order mark, NULs */
			source_fail(s, "%s-compressed data, which gpumem does "
			    "not read: %s -dc %s | gpumem read -", ours, ours,
			    s->name);
		else if (outer != NULL)
			source_fail(s, "%s-compressed data inside %s, which "
			    "gpumem does not read: %s -dc %s | %s | gpumem "
			    "read -", compressions[k].name, outer, outer,
			    s->name, compressions[k].cmd);
		else
			source_fail(s, "%s-compressed data, which gpumem does "
			    "not read: %s %s | gpumem read -",
			    compressions[k].name, compressions[k].cmd, s->name);
		return NULL;
	}
	if (looks_binary(p, n)) {
		source_fail(s, "%s", not_ours);
		return NULL;
	}
	nl = split_lines(p, n, at_end, &copy, lines, SNIFF_LINES);
	best = format_sniff_text(lines, nl, &bs);
	/*
	 * --fields names a --query-gpu or --query-compute-apps list: a text
	 * no format is sure of is that log (rows whose values do not tell it,
	 * an epoch glued in front of nounits rows).
	 */
	if (s->opt->fields != NULL && bs < SNIFF_SURE && nl > 0)
		best = &fmt_query_gpu;
	if (best == NULL) {
		if (nl == 0) {
			s->empty = 1;
		} else {
			excerpt(ex, sizeof(ex), lines[0]);
			source_fail(s, "not a log or capture gpumem reads "
			    "(first line: '%s')", ex);
		}
	}
	free(copy);
	return best;
}

struct source *
source_open(const char *path, unsigned idx, const struct readopts *opt,
    struct gpumap *gpus)
{
	struct source *s;

	s = ecalloc(1, sizeof(*s));
	s->idx = idx;
	s->opt = opt;
	s->gpus = gpus;
	s->in = input_open(path);
	if (s->in == NULL) {
		msg("%s: cannot open:", strcmp(path, "-") == 0 ?
		    "<stdin>" : path);
		free(s);
		return NULL;
	}
	s->name = input_name(s->in);
	s->path = estrdup(path);
	if (opt->host_from_file && source_file_host(path, opt->host_pattern,
	    &s->filehost, NULL, 0) < 0)
		BUG("--host-from-file's pattern passed the option check");
	s->live = opt->live == LIVE_ON ||
	    (opt->live == LIVE_AUTO && !input_is_file(s->in));
	s->lag = opt->lag;
	window_init(&s->win, opt->window);
	source_clocks_init(s);
	if (opt->format != NULL) {
		s->fmt = format_find(opt->format);
		if (s->fmt == NULL)
			BUG("unknown format '%s' passed the option check",
			    opt->format);
		/*
		 * A gpumem tool upstream may have chosen the binary form
		 * (rec.h): "stream" is the record stream in either form.
		 */
		if (s->fmt == &fmt_stream && source_starts_binary(s))
			s->fmt = &fmt_stream_bin;
	} else if (opt->map != NULL)
		s->fmt = &fmt_colmap;
	else
		s->fmt = source_detect(s);
	if (s->fmt == NULL) {
		s->eof = 1;
		return s;
	}
	if (!opt->lag_set && s->fmt == &fmt_pcap)
		s->lag = SOURCE_CAPTURE_LAG;
	s->device_only = s->fmt->device_only;
	s->what = s->fmt->what;
	s->st = s->fmt->open(s, NULL);
	if (s->st == NULL)
		s->eof = 1;
	return s;
}

/*
 * A line with NUL bytes: a file cut (truncated) while a writer kept
 * appending at its offset holds a run of them, and the writer's text after
 * it.  Keep that text (the parser judges it as any line) and count the
 * repair; a line of NUL bytes only is passed over, counted; a NUL byte
 * alone (not a run) inside a line is damage, reported.  Return whether
 * the line (*line, *len, moved past the NUL bytes) is to be parsed.
 */
static int
nul_repair(struct source *s, char **line, size_t *len)
{
	char *p = memrchr(*line, '\0', *len), *q;

	if (p != NULL) {
		for (q = p; q > *line && q[-1] == '\0'; q--)
			;
		if (p == q && q > *line) {
			source_bad(s, "binary data in a text line");
			return 0;
		}
		*len -= (size_t)(p + 1 - *line);
		*line = p + 1;
	} else if (input_line_nuls(s->in) == 0)
		return 1;
	if (strspn(*line, " \t") == *len) {
		source_skip(s, "lines of NUL bytes only");
		return 0;
	}
	s->nnulfix++;
	return 1;
}

/* One step of a text format: one line. */
static int
text_step(struct source *s)
{
	char *line;
	size_t len;
	int rc;

	rc = input_getline(s->in, &line, &len);
	if (rc == 1) {
		if (nul_repair(s, &line, &len))
			s->fmt->line(s->st, line, source_unquote(line, len));
		return 1;
	}
	if (rc == 2) {
		source_bad(s, "line longer than %u bytes", INPUT_MAXLINE);
		return 1;
	}
	if (rc < 0) {
		source_fail(s, "%s", input_error(s->in));
		return -1;
	}
	return 0;
}

static void
finish(struct source *s)
{
	s->eof = 1;
	if (s->st != NULL && s->fmt->end != NULL)
		s->fmt->end(s->st);
	source_clock_flush(s);
}

/*
 * A live input's earliest record is final: a record stamped more than
 * the lag later has been read.
 */
static int
ripe(const struct source *s)
{
	const struct rec *r = window_peek(&s->win);

	return r != NULL && s->newest - r->ts > s->lag;
}

void
source_fill(struct source *s)
{
	while (!s->eof && !s->fatal && !window_full(&s->win) &&
	    !(s->live && ripe(s))) {
		int rc;

		if (s->fmt->line != NULL)
			rc = text_step(s);
		else
			rc = s->fmt->step(s->st);
		if (rc <= 0 || s->refused)
			finish(s);
	}
}

/* "2026-01-01 10:00:00.000", in UTC or local time; the date only if date. */
static char *
clock_time(uint64_t t, int local, int date, char *buf, size_t cap)
{
	time_t secs = (time_t)(t / NS_PER_SEC);
	struct tm tm;
	size_t n;

	if ((local ? localtime_r(&secs, &tm) : gmtime_r(&secs, &tm)) == NULL) {
		snprintf(buf, cap, "@%llu", (unsigned long long)secs);
		return buf;
	}
	n = strftime(buf, cap, date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
	n += (size_t)snprintf(buf + n, cap - n, ".%03u",
	    (unsigned)(t % NS_PER_SEC / NS_PER_MS));
	if (local && n < cap)
		strftime(buf + n, cap - n, " %Z", &tm);
	return buf;
}

/* Whether times a and b fall on the same day (UTC or local). */
static int
same_day(uint64_t a, uint64_t b, int local)
{
	char da[GTIME_BUFSZ], db[GTIME_BUFSZ];

	clock_time(a, local, 1, da, sizeof(da));
	clock_time(b, local, 1, db, sizeof(db));
	return strncmp(da, db, 10) == 0;
}

/* A span for people: "5 min", "1 h", "5 min 0.1 s", "0.001 s". */
static char *
clock_span(uint64_t ns, char *buf, size_t cap)
{
	uint64_t h = ns / (3600 * NS_PER_SEC);
	uint64_t m = ns / (60 * NS_PER_SEC) % 60;
	uint64_t rest = ns % (60 * NS_PER_SEC);
	char sec[GTIME_BUFSZ];
	size_t n = 0;

	buf[0] = '\0';
	if (h > 0)
		n += (size_t)snprintf(buf + n, cap - n, "%llu h",
		    (unsigned long long)h);
	if (m > 0 && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "%s%llu min",
		    n > 0 ? " " : "", (unsigned long long)m);
	if ((rest >= NS_PER_MS || n == 0) && n < cap)
		snprintf(buf + n, cap - n, "%s%s s", n > 0 ? " " : "",
		    gtime_fmt_secs(rest, sec));
	return buf;
}

/* "FILE:LINE" or "FILE: packet N (offset ...)": where the parser is. */
static void
source_where(struct source *s, struct sbuf *sb)
{
	if (s->fmt->where != NULL && s->st != NULL) {
		sbuf_adds(sb, ": ");
		s->fmt->where(s->st, sb);
	} else
		sbuf_printf(sb, ":%llu",
		    (unsigned long long)input_lineno(s->in));
}

/* Set up the SOURCE_NCLOCK clocks of a host. */
static void
clocks_init(struct rclock *clk, int loose)
{
	unsigned i;

	for (i = 0; i < SOURCE_NCLOCK; i++) {
		clk[i].kind = i;
		clk[i].loose = loose;
	}
}

/*
 * The clocks of one host, or of one capture stream, of an input
 * (source.hostclk's values): key is the host name, or the stream's key.
 */
struct hostclk {
	struct rclock clk[SOURCE_NCLOCK];
	char *key;
	size_t len;
};

static void
hostclk_free(void *v)
{
	struct hostclk *h = v;

	free(h->key);
	free(h);
}

/*
 * The clocks of key (a host, or a stream's key): NULL past
 * SOURCE_MAXHOSTS, or when absent and add is 0.
 */
static struct rclock *
key_clocks(struct source *s, const void *key, size_t len, int add)
{
	struct hostclk *h;
	void **v;
	int isnew;

	if (s->lastkey != NULL && s->lastlen == len &&
	    memcmp(s->lastkey, key, len) == 0)
		return s->lastclk;
	if ((v = hmap_get(&s->hostclk, key, len)) == NULL) {
		if (!add || s->hostclk.n >= SOURCE_MAXHOSTS)
			return NULL;
		v = hmap_put(&s->hostclk, key, len, &isnew);
		h = ecalloc(1, sizeof(*h));
		h->key = emalloc(len);
		memcpy(h->key, key, len);
		h->len = len;
		clocks_init(h->clk, 0);
		*v = h;
	}
	h = *v;
	s->lastkey = h->key;
	s->lastlen = h->len;
	s->lastclk = h->clk;
	return h->clk;
}

/* The clock a record is read on (see struct rclock). */
static inline struct rclock *
clock_of(struct source *s, const struct rec *r)
{
	struct rclock *clk = s->clk;
	unsigned k = r->origin;

	if (s->sclk != NULL)
		clk = s->sclk;	/* a capture's stream: never its host's */
	else if (r->host[0] != '\0' && (clk = key_clocks(s, r->host,
	    strlen(r->host), 1)) == NULL)
		clk = s->clk;
	if (k == REC_PLAIN)
		return &clk[r->pid != 0];
	if (k > SOURCE_NCLOCK - 2)
		k = SOURCE_NCLOCK - 2;	/* a channel added later */
	return &clk[k + 1];
}

/* Apply fn to every clock of the input. */
static void
clocks_each(struct source *s, void (*fn)(struct source *, struct rclock *))
{
	struct hent *e;
	size_t i = 0, j;

	for (j = 0; j < SOURCE_NCLOCK; j++) {
		fn(s, &s->clk[j]);
		fn(s, &s->loose[j]);
	}
	while ((e = hmap_next(&s->hostclk, &i)) != NULL)
		for (j = 0; j < SOURCE_NCLOCK; j++)
			fn(s, &((struct hostclk *)e->val)->clk[j]);
}

/* The clock's usual sampling interval: the median of the latest ones. */
static uint64_t
clock_interval(const struct rclock *c)
{
	uint64_t v[SOURCE_NIV], x;
	unsigned n = c->niv < SOURCE_NIV ? c->niv : SOURCE_NIV, i, j;

	for (i = 0; i < n; i++) {
		x = c->iv[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n > 0 ? v[n / 2] : 0;
}

/*
 * Note the sampling interval of r's GPU or process on clock c: the time
 * since its sample before (slots are hashed; a collision only forgets).
 */
static void
clock_sample(struct rclock *c, const struct rec *r)
{
	struct clockslot *sl;
	uint32_t h;

	if (c->slot == NULL)
		c->slot = ecalloc(SOURCE_NSLOT, sizeof(*c->slot));
	h = (r->gpu * 2654435761U) ^ (r->pid * 2246822519U);
	if (r->gpukey != NULL)
		h ^= (uint32_t)hmap_hash(r->gpukey, strlen(r->gpukey));
	sl = &c->slot[(h ^ h >> 16) % SOURCE_NSLOT];
	if (sl->key == h && r->ts > sl->ts && sl->ts != 0)
		c->iv[c->niv++ % SOURCE_NIV] = r->ts - sl->ts;
	sl->key = h;
	sl->ts = r->ts;
}

/*
 * --strict: a problem is fatal.  A worker thread's input (s->defer) stops
 * here and leaves the exit to the main thread, at the point a run on one
 * thread would have exited.
 */
void
source_trouble(struct source *s)
{
	if (s->defer == NULL)
		exit(EXIT_TROUBLE);
	s->fatal = 1;
	s->defer->fatal(s->defer->arg);
}

/* How a step back is read (clock_said). */
enum step_read {
	STEP_CONTINUING,	/* later times shifted to continue */
	STEP_DST,		/* the second pass of a repeated local hour */
	STEP_AS_READ		/* left as read: past CLOCK_END (source.h) */
};

/*
 * Count a step back and report it at where (":LINE" or ": packet N ..."):
 * the clock went from `from' to `to' (as in the log; STEP_DST: local
 * times, to as the second pass), `back' earlier, and later records are
 * read `plus' later (0 for STEP_AS_READ).  Trouble under --strict.
 */
static void
clock_said(struct source *s, const char *where, uint64_t from, uint64_t to,
    uint64_t back, uint64_t plus, enum step_read how)
{
	char tf[GTIME_BUFSZ], tt[GTIME_BUFSZ], tb[GTIME_BUFSZ];
	char tp[GTIME_BUFSZ];
	int dst = how == STEP_DST;

	if (how == STEP_AS_READ)
		s->nstep_as_read++;
	if (++s->nstep > SOURCE_MAXSHOWN && !s->opt->strict)
		return;
	clock_time(from, dst, 1, tf, sizeof(tf));
	clock_time(to, dst, !same_day(from, to, dst), tt, sizeof(tt));
	clock_span(back, tb, sizeof(tb));
	clock_span(plus, tp, sizeof(tp));
	if (dst)
		msg("%s%s: the clock steps back %s (from %s to %s): local "
		    "times repeat the hour the zone turns back at the end of "
		    "summer time; read as its second pass (+%s)", s->name,
		    where, tb, tf, tt, tp);
	else if (how == STEP_AS_READ)
		msg("%s%s: the clock steps back %s (from %s to %s): later "
		    "times read as they are (continuing would carry them "
		    "past %s, the end of the signed 64-bit range)", s->name,
		    where, tb, tf, tt, gtime_fmt(CLOCK_END, 1, tp));
	else
		msg("%s%s: the clock steps back %s (from %s to %s): later "
		    "times read as continuing (+%s)", s->name, where, tb, tf,
		    tt, tp);
	if (s->opt->strict)
		source_trouble(s);
}

/*
 * Where a record read at raw is read on clock c: the shifts applied,
 * never past CLOCK_END (a time read past it stays as read).
 */
static inline uint64_t
clock_read(const struct rclock *c, uint64_t raw)
{
	uint64_t t = raw + c->shift;

	if (c->shift != 0 && (t < raw || t > CLOCK_END))
		t = raw > CLOCK_END ? raw : CLOCK_END;
	if (raw < c->fold_end && t + c->fold_shift > t &&
	    t + c->fold_shift <= CLOCK_END)
		t += c->fold_shift;
	return t;
}

/* Whether a record read at t is more than the disorder allowed back. */
static int
clock_back(const struct rclock *c, uint64_t t)
{
	uint64_t iv = clock_interval(c);

	return t < c->latest && c->latest - t > NS_PER_SEC &&
	    c->latest - t > 2 * iv;
}

/*
 * The step back to raw (read at *t) is confirmed: repair *t and say so at
 * where.
 */
static void
clock_step(struct source *s, struct rclock *c, const char *where,
    uint64_t raw, uint64_t *t)
{
	uint64_t iv = clock_interval(c), end, delta, back = c->latest - *t;
	size_t i;

	if (c->latest + iv < c->latest)
		iv = 0;		/* hostile times at the end of the range */
	/*
	 * Into an hour the zone repeats, from its first pass: the second
	 * pass, exactly (gtime_local() read it as the first).
	 */
	if ((c->fold_end == 0 || raw >= c->fold_end) &&
	    gtime_fold(raw, &end, &delta) && c->latest_raw >= end - delta &&
	    c->latest_raw <= end && raw < c->latest_raw) {
		c->fold_end = end;
		c->fold_shift = delta;
		*t = clock_read(c, raw);
		clock_said(s, where, c->latest_raw, raw + delta, back, delta,
		    STEP_DST);
		return;
	}
	c->fold_end = 0;
	if (c->latest > CLOCK_END || CLOCK_END - c->latest < iv ||
	    CLOCK_END - c->latest - iv < back) {
		/*
		 * Continuing for as long again as it steps back would pass
		 * the end of the range: read on from here as read.
		 */
		clock_said(s, where, c->latest_raw, raw, back, 0,
		    STEP_AS_READ);
		c->latest = *t;
		c->latest_raw = raw;
		return;
	}
	c->shift += c->latest + iv - *t;
	*t = c->latest + iv;
	clock_said(s, where, c->latest_raw, raw, back, c->shift,
	    STEP_CONTINUING);
	if (c->kind == 0)	/* the device rows: the others of the host */
		for (i = 1; i < SOURCE_NCLOCK; i++) {
			c[i].armed = 1;
			c[i].arm_from = c->latest_raw;
			c[i].arm_shift = c->shift;
		}
}

/*
 * A record whose time a step back's shift would carry past CLOCK_END is
 * read at CLOCK_END: counted, and said the first time (at where, or the
 * parser's position when NULL).
 */
static void
clock_held_at_end(struct source *s, const char *where)
{
	char te[GTIME_BUFSZ];
	struct sbuf here = SBUF_INIT;

	if (s->nheld_at_end++ > 0)
		return;
	if (where != NULL)
		sbuf_adds(&here, where);
	else
		source_where(s, &here);
	msg("%s%s: continuing after the clock's step back would carry times "
	    "past %s, the end of the signed 64-bit range: held there "
	    "(counted in the summary)", s->name, here.buf,
	    gtime_fmt(CLOCK_END, 1, te));
	sbuf_release(&here);
}

/*
 * Live without --lag: a record came `late' behind the newest one read, too
 * late to be put in order.  Let the records that follow wait twice that
 * (within SOURCE_MAXLAG), so that inputs as out of order as this one lose
 * no more, and say so the first time.
 */
static void
grow_lag(struct source *s, uint64_t late)
{
	char a[GTIME_BUFSZ], b[GTIME_BUFSZ];
	uint64_t lag = late > SOURCE_MAXLAG / 2 ? SOURCE_MAXLAG : 2 * late;

	if (lag <= s->lag)
		return;
	if (!s->lag_grown++)
		source_warn(s, "records come out of order by %ss: from now on "
		    "each waits %ss for earlier ones (--lag sets how long)",
		    gtime_fmt_secs(late, a), gtime_fmt_secs(lag, b));
	s->lag = lag;
}

/*
 * Hand r, read at t on clock c, to the window.  where: the position of a
 * record held back (clockpend), else NULL for the parser's.
 */
static void
emit_at(struct source *s, struct rclock *c, struct rec *r, uint64_t t,
    const char *where)
{
	uint64_t raw = r->ts;
	int rc;

	if (t == CLOCK_END && raw != t && raw + c->shift != t)
		clock_held_at_end(s, where);
	if (t > c->latest) {
		c->latest = t;
		c->latest_raw = raw;
	}
	r->src = s->idx;
	r->ts = t;
	rc = window_push(&s->win, r);
	r->ts = raw;		/* the parser may reuse r as it was */
	if (rc >= 0) {
		if (rc == 1 && s->ncut++ == 0)
			source_warn(s, "host or process names longer than %u "
			    "bytes are cut to that (counted in the summary)",
			    REC_MAXSTR);
		if (!rec_is_mark(r))
			s->nrec++;
		if (t > s->newest)
			s->newest = t;
		return;
	}
	/* Earlier than what this input has already written. */
	s->nlate++;
	if (s->nshown < SOURCE_MAXSHOWN) {
		char tb[GTIME_BUFSZ];
		struct sbuf here = SBUF_INIT;

		s->nshown++;
		if (where != NULL)
			sbuf_adds(&here, where);
		else
			source_where(s, &here);
		if (s->live) {
			char lag[GTIME_BUFSZ];

			msg("%s%s: record at %s is earlier than records "
			    "already written (live: more than --lag %ss "
			    "behind one read before it); skipped, try a larger "
			    "--lag", s->name, here.buf, gtime_fmt(t, 1, tb),
			    gtime_fmt_secs(s->lag, lag));
		} else
			msg("%s%s: record at %s is earlier than records "
			    "already written (beyond the reorder window of %zu "
			    "record%s); skipped, try a larger --window", s->name,
			    here.buf, gtime_fmt(t, 1, tb), s->opt->window,
			    s->opt->window == 1 ? "" : "s");
		sbuf_release(&here);
	}
	if (s->opt->strict)
		source_trouble(s);
	if (s->live && !s->opt->lag_set)
		grow_lag(s, s->newest - t);
}

/* Hold r back until the next record of its clock says what it is. */
static void
clock_hold(struct source *s, struct rclock *c, const struct rec *r)
{
	struct clockpend *p = ecalloc(1, sizeof(*p));
	struct sbuf where = SBUF_INIT;

	p->r = *r;
	p->host = estrdup(r->host);
	p->name = estrdup(r->name);
	p->gpukey = r->gpukey != NULL ? estrdup(r->gpukey) : NULL;
	p->r.host = p->host;
	p->r.name = p->name;
	p->r.gpukey = p->gpukey;
	source_where(s, &where);
	p->where = where.buf;
	c->pend = p;
}

/*
 * Let the record held back on clock c go: a step back when confirmed (the
 * record after it is as far back), else a record out of place, read as
 * it is (the reorder window takes it or refuses it as late).
 */
static void
clock_release(struct source *s, struct rclock *c, int confirmed)
{
	struct clockpend *p = c->pend;
	uint64_t t = clock_read(c, p->r.ts);

	c->pend = NULL;
	if (confirmed)
		clock_step(s, c, p->where, p->r.ts, &t);
	emit_at(s, c, &p->r, t, p->where);
	free(p->host);
	free(p->name);
	free(p->gpukey);
	free(p->where);
	free(p);
}

/*
 * The slow path of source_emit(): r (read at raw, *t on its clock) is far
 * back, or the clock holds a record back, or is armed.  Return 1 when r is
 * held back, else 0 with *t where r goes.
 */
static int
clock_check(struct source *s, struct rclock *c, const struct rec *r,
    uint64_t raw, uint64_t *t)
{
	if (c->pend != NULL) {
		clock_release(s, c, clock_back(c, *t));
		*t = clock_read(c, raw);
	}
	if (c->armed) {
		c->armed = 0;
		if (raw <= c->arm_from && raw + c->arm_shift > raw) {
			/* Where the device rows went, the rest goes too. */
			struct sbuf where = SBUF_INIT;

			c->fold_end = 0;
			c->shift = c->arm_shift;
			*t = clock_read(c, raw);
			source_where(s, &where);
			clock_said(s, where.buf, c->arm_from, raw,
			    c->arm_from - raw, c->shift, STEP_CONTINUING);
			sbuf_release(&where);
			return 0;
		}
	}
	if (!clock_back(c, *t))
		return 0;
	clock_hold(s, c, r);
	return 1;
}

static void
clock_flush1(struct source *s, struct rclock *c)
{
	if (c->pend != NULL)
		clock_release(s, c, 0);
}

void
source_clock_flush(struct source *s)
{
	clocks_each(s, clock_flush1);
}

static void
clock_reset1(struct source *s, struct rclock *c)
{
	struct clockslot *sl = c->slot;
	unsigned kind = c->kind;
	int loose = c->loose;

	(void)s;
	if (sl != NULL)
		memset(sl, 0, SOURCE_NSLOT * sizeof(*sl));
	memset(c, 0, sizeof(*c));
	c->slot = sl;
	c->kind = kind;
	c->loose = loose;
}

void
source_clock_reset(struct source *s)
{
	source_clock_flush(s);
	clocks_each(s, clock_reset1);
}

/* Free what a clock holds. */
static void
clock_free1(struct source *s, struct rclock *c)
{
	struct clockpend *p = c->pend;

	(void)s;
	if (p != NULL) {
		free(p->host);
		free(p->name);
		free(p->gpukey);
		free(p->where);
		free(p);
	}
	free(c->slot);
}

void
source_clocks_init(struct source *s)
{
	clocks_init(s->clk, 0);
	clocks_init(s->loose, 1);
}

void
source_clocks_release(struct source *s)
{
	clocks_each(s, clock_free1);
	memset(s->clk, 0, sizeof(s->clk));
	memset(s->loose, 0, sizeof(s->loose));
	source_clocks_init(s);
	hmap_release(&s->hostclk, hostclk_free);
	s->lastkey = NULL;
	s->lastclk = NULL;
}

void
source_emit(struct source *s, struct rec *r)
{
	struct rclock *c = clock_of(s, r);
	uint64_t raw = r->ts, t;

	if (!rec_is_mark(r))
		clock_sample(c, r);
	t = clock_read(c, raw);
	/* The common case, in order: a compare and a branch. */
	if ((t + NS_PER_SEC < c->latest || c->pend != NULL || c->armed) &&
	    !c->loose && clock_check(s, c, r, raw, &t))
		return;
	emit_at(s, c, r, t, NULL);
}

struct rclock *
source_stream(struct source *s, const void *key, size_t len)
{
	s->sclk = NULL;
	if (key != NULL && (s->sclk = key_clocks(s, key, len, 1)) == NULL)
		s->sclk = s->loose;
	return s->sclk;
}

void
source_stream_clocks(struct source *s, struct rclock *clk)
{
	s->sclk = clk;
}

void
source_stream_restart(struct source *s, const void *key, size_t len)
{
	struct rclock *c = key_clocks(s, key, len, 0);
	unsigned i;

	if (c == NULL)
		return;
	for (i = 0; i < SOURCE_NCLOCK; i++) {
		clock_flush1(s, &c[i]);
		clock_reset1(s, &c[i]);
	}
}

/*
 * No clock_sample(): the next sample in order would count an interval
 * from this one, as long as the record is late.
 */
void
source_emit_late(struct source *s, struct rec *r)
{
	struct rclock *c = clock_of(s, r);

	emit_at(s, c, r, clock_read(c, r->ts), NULL);
}

static void vbad(struct source *s, const char *where, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));

static void
vbad(struct source *s, const char *where, const char *fmt, va_list ap)
{
	s->nbad++;
	if (s->nshown < SOURCE_MAXSHOWN || s->opt->strict) {
		struct sbuf sb = SBUF_INIT;

		s->nshown++;
		if (where != NULL)
			sbuf_printf(&sb, "%s: %s: ", s->name, where);
		else
			sbuf_printf(&sb, "%s:%llu: ", s->name,
			    (unsigned long long)input_lineno(s->in));
		sbuf_vprintf(&sb, fmt, ap);
		msg("%s", sb.buf);
		sbuf_release(&sb);
	}
	if (s->opt->strict)
		source_trouble(s);
}

void
source_bad(struct source *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbad(s, NULL, fmt, ap);
	va_end(ap);
}

void
source_bad_at(struct source *s, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbad(s, where, fmt, ap);
	va_end(ap);
}

void
source_skip(struct source *s, const char *why)
{
	if (s->defer != NULL)
		s->defer->skip(s->defer->arg, why);
	else
		source_count_skip(s, why);
}

void
source_count_skip(struct source *s, const char *why)
{
	size_t i;

	for (i = 0; i < s->nskip; i++)
		if (s->skip[i].why == why || strcmp(s->skip[i].why, why) == 0) {
			s->skip[i].n++;
			return;
		}
	if (s->nskip == SOURCE_MAXSKIP)
		i = SOURCE_MAXSKIP - 1;	/* lump the rarest together */
	else
		s->skip[s->nskip++].why = why;
	s->skip[i].n++;
}

void
source_fail(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	s->failed = 1;
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

void
source_refuse(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (s->section) {
		free(s->refusal);
		s->refusal = sb.buf;	/* the bundle takes it */
		return;
	}
	s->failed = 1;
	s->refused = 1;
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

int
source_refused(const struct source *s)
{
	return s->refused || s->refusal != NULL;
}

void
source_warn(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	sbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

void
source_learn(struct source *s, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	if (s->defer != NULL)
		s->defer->learn(s->defer->arg, host, uuid, bus, index);
	else
		source_learn_now(s, host, uuid, bus, index);
}

void
source_learn_now(struct source *s, const char *host, const char *uuid,
    const char *bus, int64_t index)
{
	struct sbuf why = SBUF_INIT;

	if (gpumap_learn(s->gpus, s->idx, s->name, host, uuid, bus,
	    index, &why))
		msg("%s: %s (a GPU of its own for each bus id and UUID; "
		    "--host-from-file names each file's host)", s->name,
		    why.buf);
	sbuf_release(&why);
}

const char *
source_host(const struct source *s, const char *logged)
{
	if (s->opt->host != NULL)
		return s->opt->host;
	if (s->filehost != NULL)
		return s->filehost;
	return logged != NULL ? logged : "";
}

int
source_file_host(const char *path, const char *pattern, char **host,
    char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');
	regex_t re;
	regmatch_t m[2];
	int rc;

	base = base != NULL ? base + 1 : path;
	if (pattern != NULL) {
		if ((rc = regcomp(&re, pattern, REG_EXTENDED)) != 0) {
			if (err != NULL)
				regerror(rc, &re, err, errlen);
			regfree(&re);
			return -1;
		}
		if (regexec(&re, base, 2, m, 0) == 0) {
			int g = re.re_nsub > 0 && m[1].rm_so >= 0;

			*host = estrndup(base + m[g].rm_so,
			    (size_t)(m[g].rm_eo - m[g].rm_so));
			regfree(&re);
			return 0;
		}
		regfree(&re);
	}
	/* "node3.gpu.csv.gz" is node3; a hidden file keeps its dot. */
	*host = estrndup(base, *base != '\0' ? 1 + strcspn(base + 1, ".") :
	    0);
	return 0;
}

uint64_t
source_lineno(const struct source *s)
{
	return input_lineno(s->in);
}

/* The clocks' part of the summary line. */
void
source_clock_summary(const struct source *s, struct sbuf *sb)
{
	uint64_t cont = s->nstep - s->nstep_as_read;

	if (cont > 0)
		sbuf_printf(sb, ", %llu clock step%s back read as continuing",
		    (unsigned long long)cont, cont == 1 ? "" : "s");
	if (s->nstep_as_read > 0)
		sbuf_printf(sb, ", %llu clock step%s back read as they are "
		    "(continuing would pass the signed 64-bit range)",
		    (unsigned long long)s->nstep_as_read,
		    s->nstep_as_read == 1 ? "" : "s");
	if (s->nheld_at_end > 0)
		sbuf_printf(sb, ", %llu record%s held at the end of the "
		    "signed 64-bit range after a step back",
		    (unsigned long long)s->nheld_at_end,
		    s->nheld_at_end == 1 ? "" : "s");
}

void
source_summary(struct source *s, int procs)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t skipped = s->nbad + s->nlate;
	size_t i;

	for (i = 0; i < s->nskip; i++)
		skipped += s->skip[i].n;
	if (s->nshown < s->nbad + s->nlate)
		msg("%s: %llu more problems not shown", s->name,
		    (unsigned long long)(s->nbad + s->nlate - s->nshown));
	if (!s->opt->summaries && s->nbad + s->nlate == 0 && !s->failed)
		return;
	if ((s->fmt == NULL && !s->empty) || s->refused ||
	    (s->failed && s->st == NULL && !s->parked_st))
		return;		/* the failure was said already */
	sbuf_printf(&sb, "%s: %llu records", s->name,
	    (unsigned long long)s->nrec);
	if (s->empty)
		sbuf_adds(&sb, " (empty input)");
	else {
		sbuf_printf(&sb, " (%s", s->what);
		if (s->st != NULL && s->fmt->summary != NULL)
			s->fmt->summary(s->st, &sb);
		else if (s->parked_sum != NULL)
			sbuf_adds(&sb, s->parked_sum);
		if (s->ncut > 0)
			sbuf_printf(&sb, ", %llu record%s with names cut to "
			    "%u bytes", (unsigned long long)s->ncut,
			    s->ncut == 1 ? "" : "s", REC_MAXSTR);
		source_clock_summary(s, &sb);
		if (s->in != NULL && input_encoding(s->in) != NULL)
			sbuf_printf(&sb, ", decoded from %s",
			    input_encoding(s->in));
		else if (s->parked_enc != NULL)
			sbuf_printf(&sb, ", decoded from %s", s->parked_enc);
		if (s->nnulfix > 0)
			sbuf_printf(&sb, ", %llu line%s read after NUL bytes "
			    "(a file cut while written)",
			    (unsigned long long)s->nnulfix,
			    s->nnulfix == 1 ? "" : "s");
		if (s->device_only && !procs)
			sbuf_adds(&sb, "; device only: no per-process data, "
			    "tasks are its usage's episodes, or --tasks");
		sbuf_addc(&sb, ')');
	}
	if (skipped > 0) {
		const char *sep = "";

		sbuf_printf(&sb, "; skipped %llu: ",
		    (unsigned long long)skipped);
		if (s->nbad > 0) {
			sbuf_printf(&sb, "%llu unreadable",
			    (unsigned long long)s->nbad);
			sep = ", ";
		}
		if (s->nlate > 0) {
			sbuf_printf(&sb, "%s%llu %s", sep,
			    (unsigned long long)s->nlate, s->live ?
			    "too late for the live lag" :
			    "outside the reorder window");
			sep = ", ";
		}
		for (i = 0; i < s->nskip; i++) {
			sbuf_printf(&sb, "%s%llu %s", sep,
			    (unsigned long long)s->skip[i].n, s->skip[i].why);
			sep = ", ";
		}
	}
	msg("%s", sb.buf);
	sbuf_release(&sb);
}

/* Free what reading the input takes (source_free, source_park). */
static void
source_close(struct source *s)
{
	if (s->st != NULL && s->fmt->free != NULL)
		s->fmt->free(s->st);
	s->st = NULL;
	source_clocks_release(s);
	window_release(&s->win);
	input_close(s->in);
	s->in = NULL;
}

void
source_park(struct source *s)
{
	struct sbuf sb = SBUF_INIT;

	if (s->parked)
		return;
	s->parked = 1;
	s->parked_name = estrdup(s->name);
	s->name = s->parked_name;
	if (s->what != NULL) {
		/* A parser may refine it in its state (capture.c). */
		s->parked_what = estrdup(s->what);
		s->what = s->parked_what;
	}
	if (s->st != NULL) {
		s->parked_st = 1;
		if (s->fmt->summary != NULL) {
			sbuf_adds(&sb, "");
			s->fmt->summary(s->st, &sb);
			s->parked_sum = sb.buf;
		}
	}
	if (input_encoding(s->in) != NULL)
		s->parked_enc = estrdup(input_encoding(s->in));
	source_close(s);
	s->eof = 1;
}

void
source_free(struct source *s)
{
	if (s == NULL)
		return;
	source_close(s);
	free(s->refusal);
	free(s->filehost);
	free(s->path);
	free(s->parked_name);
	free(s->parked_what);
	free(s->parked_sum);
	free(s->parked_enc);
	free(s);
}
