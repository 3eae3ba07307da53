/* SPDX-License-Identifier: ISC */
/* source.c: opening an input, detecting its format, driving its parser. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gtime.h"
#include "recfmt.h"
#include "source.h"

#define SNIFF_BYTES (64U * 1024)
#define SNIFF_LINES 200
#define SNIFF_SURE 80		/* a score that settles a live input's format */
#define SNIFF_LIVE_LINES 16	/* lines enough to judge a live input on */

void
readopts_init(struct readopts *o)
{
	memset(o, 0, sizeof(*o));
	o->window = 4096;
	o->port = -1;
	o->until = UINT64_MAX;
}

const struct format *
format_find(const char *name)
{
	size_t i;

	for (i = 0; formats[i] != NULL; i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

const struct format *
format_sniff_text(char *const *lines, size_t n, int *score)
{
	const struct format *best = NULL;
	int bs = 0, sc;
	size_t i;

	for (i = 0; formats[i] != NULL; i++) {
		if (formats[i]->sniff_text == NULL)
			continue;
		sc = formats[i]->sniff_text(lines, n);
		if (sc > bs) {
			bs = sc;
			best = formats[i];
		}
	}
	if (score != NULL)
		*score = bs;
	return best;
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
static int
starts_binary(struct source *s)
{
	const unsigned char *p;
	size_t n = input_peek(s->in, &p, REC_BIN_MAGICLEN);

	return rec_bin_sniff(p, n);
}

static const struct format *
detect(struct source *s)
{
	const unsigned char *p;
	const struct format *best = NULL;
	char *lines[SNIFF_LINES], *copy = NULL, ex[64];
	size_t n, nl, i;
	int bs = 0, sc, at_end;

	if (s->live)
		n = live_peek(s, &p, &at_end);
	else {
		n = input_peek(s->in, &p, SNIFF_BYTES);
		at_end = n < SNIFF_BYTES;
	}
	if (n == 0) {
		if (strcmp(input_error(s->in), "no error") != 0) {
			source_fail(s, "%s", input_error(s->in));
			return NULL;
		}
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
	if (looks_binary(p, n)) {
		source_fail(s, "binary data that is not a capture or log "
		    "gpumem reads");
		return NULL;
	}
	nl = split_lines(p, n, at_end, &copy, lines, SNIFF_LINES);
	best = format_sniff_text(lines, nl, &bs);
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
	s->live = opt->live == LIVE_ON ||
	    (opt->live == LIVE_AUTO && !input_is_file(s->in));
	window_init(&s->win, opt->window);
	if (opt->format != NULL) {
		s->fmt = format_find(opt->format);
		if (s->fmt == NULL)
			BUG("unknown format '%s' passed the option check",
			    opt->format);
		/*
		 * A gpumem tool upstream may have chosen the binary form
		 * (rec.h): "stream" is the record stream in either form.
		 */
		if (s->fmt == &fmt_stream && starts_binary(s))
			s->fmt = &fmt_stream_bin;
	} else
		s->fmt = detect(s);
	if (s->fmt == NULL) {
		s->eof = 1;
		return s;
	}
	s->device_only = s->fmt->device_only;
	s->what = s->fmt->what;
	s->st = s->fmt->open(s, NULL);
	if (s->st == NULL)
		s->eof = 1;
	return s;
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
		if (memchr(line, '\0', len) != NULL)
			source_bad(s, "binary data in a text line");
		else
			s->fmt->line(s->st, line, len);
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
}

/*
 * A live input's earliest record is final: a record stamped more than
 * the lag later has been read.
 */
static int
ripe(const struct source *s)
{
	const struct rec *r = window_peek(&s->win);

	return r != NULL && s->newest - r->ts > s->opt->lag;
}

void
source_fill(struct source *s)
{
	while (!s->eof && !window_full(&s->win) && !(s->live && ripe(s))) {
		int rc;

		if (s->fmt->line != NULL)
			rc = text_step(s);
		else
			rc = s->fmt->step(s->st);
		if (rc <= 0 || s->refused)
			finish(s);
	}
}

void
source_emit(struct source *s, struct rec *r)
{
	int rc;

	r->src = s->idx;
	if ((rc = window_push(&s->win, r)) >= 0) {
		if (rc == 1 && s->ncut++ == 0)
			source_warn(s, "host or process names longer than %u "
			    "bytes are cut to that (counted in the summary)",
			    REC_MAXSTR);
		if (!rec_is_mark(r))
			s->nrec++;
		if (r->ts > s->newest)
			s->newest = r->ts;
		return;
	}
	/* Earlier than what this input has already written. */
	s->nlate++;
	if (s->nshown < SOURCE_MAXSHOWN) {
		char t[GTIME_BUFSZ];
		struct sbuf where = SBUF_INIT;

		s->nshown++;
		if (s->fmt->where != NULL && s->st != NULL) {
			sbuf_adds(&where, ": ");
			s->fmt->where(s->st, &where);
		} else
			sbuf_printf(&where, ":%llu",
			    (unsigned long long)input_lineno(s->in));
		if (s->live) {
			char lag[GTIME_BUFSZ];

			msg("%s%s: record at %s is earlier than records "
			    "already written (live: more than --lag %ss "
			    "behind one read before it); skipped, try a larger "
			    "--lag", s->name, where.buf, gtime_fmt(r->ts, 1, t),
			    gtime_fmt_secs(s->opt->lag, lag));
		} else
			msg("%s%s: record at %s is earlier than records "
			    "already written (beyond the reorder window of %zu "
			    "records); skipped, try a larger --window", s->name,
			    where.buf, gtime_fmt(r->ts, 1, t), s->opt->window);
		sbuf_release(&where);
	}
	if (s->opt->strict)
		exit(EXIT_TROUBLE);
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
		{
			va_list aq;
			int n;

			va_copy(aq, ap);
			n = vsnprintf(NULL, 0, fmt, aq);
			va_end(aq);
			sbuf_grow(&sb, (size_t)n);
			vsnprintf(sb.buf + sb.len, (size_t)n + 1, fmt, ap);
			sb.len += (size_t)n;
		}
		msg("%s", sb.buf);
		sbuf_release(&sb);
	}
	if (s->opt->strict)
		exit(EXIT_TROUBLE);
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
	int n;

	s->failed = 1;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sbuf_grow(&sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

void
source_refuse(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sbuf_grow(&sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
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

void
source_warn(struct source *s, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	int n;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sbuf_grow(&sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	msg("%s: %s", s->name, sb.buf);
	sbuf_release(&sb);
}

const char *
source_host(const struct source *s, const char *logged)
{
	if (s->opt->host != NULL)
		return s->opt->host;
	return logged != NULL ? logged : "";
}

uint64_t
source_lineno(const struct source *s)
{
	return input_lineno(s->in);
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
	    (s->failed && s->st == NULL))
		return;		/* the failure was said already */
	sbuf_printf(&sb, "%s: %llu records", s->name,
	    (unsigned long long)s->nrec);
	if (s->empty)
		sbuf_adds(&sb, " (empty input)");
	else {
		sbuf_printf(&sb, " (%s", s->what);
		if (s->st != NULL && s->fmt->summary != NULL)
			s->fmt->summary(s->st, &sb);
		if (s->ncut > 0)
			sbuf_printf(&sb, ", %llu record%s with names cut to "
			    "%u bytes", (unsigned long long)s->ncut,
			    s->ncut == 1 ? "" : "s", REC_MAXSTR);
		if (s->device_only && !procs)
			sbuf_adds(&sb, "; device only: no per-process data, "
			    "tasks need --tasks");
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

void
source_free(struct source *s)
{
	if (s == NULL)
		return;
	if (s->st != NULL && s->fmt->free != NULL)
		s->fmt->free(s->st);
	window_release(&s->win);
	input_close(s->in);
	free(s->refusal);
	free(s);
}
