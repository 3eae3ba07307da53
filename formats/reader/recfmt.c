/* SPDX-License-Identifier: ISC */
/*
 * recfmt.c: the record stream (rec.h) as an input format of gpumem read:
 * its text form, and its binary form between gpumem tools.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recfmt.h"

struct recfmt {
	struct source *s;
	struct sbuf open;	/* a record whose quoted field spans lines */
	uint64_t openline;	/* the line it started on */
	uint64_t headers;
	int begun;		/* a line was parsed: the header is behind */
};

/*
 * Records without their header, as `grep ',,1,'` leaves a stream: every
 * line a record whose time is in nanoseconds (16 digits or more).
 */
static int
headerless(char *const *lines, size_t n)
{
	struct rec r;
	const char *why;
	size_t i, d;
	int rc;

	for (i = 0; i < n; i++) {
		char *copy;

		d = strspn(lines[i], "0123456789");
		if (d < 16 || lines[i][d] != ',')
			return 0;
		copy = estrdup(lines[i]);	/* rec_parse writes into it */
		rc = rec_parse(copy, strlen(copy), &r, &why);
		free(copy);
		if (rc != 1)
			return 0;
	}
	return n > 0;
}

static int
sniff(char *const *lines, size_t n)
{
	if (n > 0 && strcmp(lines[0], REC_HEADER) == 0)
		return 100;
	return headerless(lines, n) ? 60 : 0;
}

static void *
open_fn(struct source *s, const char *hint)
{
	struct recfmt *p = ecalloc(1, sizeof(*p));

	(void)hint;
	p->s = s;
	return p;
}

static void
parse(struct recfmt *p, char *line, size_t len, int quotes)
{
	struct rec r;
	const char *why;
	int rc;

	rc = quotes ? rec_parse(line, len, &r, &why) :
	    rec_parse_unquoted(line, len, &r, &why);
	if (!p->begun && rc == 1)
		source_warn(p->s, "no header line: read as gpumem's record "
		    "stream (%s); grep -e '^timestamp,' -e PATTERN keeps the "
		    "header, --gpu and --pid select without grep", REC_HEADER);
	p->begun = 1;
	switch (rc) {
	case 1:
		source_emit(p->s, &r);
		break;
	case 0:
		p->headers++;
		break;
	default:
		source_bad(p->s, "%s", why);
		break;
	}
}

/*
 * The most a record of the stream can span: its host and name of
 * REC_MAXSTR bytes each, every byte a quote written twice, and numbers.
 */
#define OPEN_MAX (4 * REC_MAXSTR + 256)

static void line_fn(void *st, char *line, size_t len);

/*
 * A quoted field that never closed (a damaged or cut stream): its first
 * line is unreadable, and the lines it swallowed are read again as lines
 * of their own, so that none is lost uncounted.
 */
static void
reread_open(struct recfmt *p)
{
	char *copy = estrndup(p->open.buf, p->open.len), *l, *nl;

	source_bad(p->s, "quoted field opened on line %llu never closes",
	    (unsigned long long)p->openline);
	sbuf_reset(&p->open);
	for (l = strchr(copy, '\n'); l != NULL; l = nl) {
		l++;
		nl = strchr(l, '\n');
		if (nl != NULL)
			*nl = '\0';
		line_fn(p, l, strlen(l));
	}
	free(copy);
}

static void
line_fn(void *st, char *line, size_t len)
{
	struct recfmt *p = st;
	int quotes;

	if (p->open.len > 0) {
		sbuf_addc(&p->open, '\n');
		sbuf_add(&p->open, line, len);
		if (csv_line_open(p->open.buf, p->open.len)) {
			if (p->open.len > OPEN_MAX)
				reread_open(p);
			return;
		}
		parse(p, p->open.buf, p->open.len, 1);
		sbuf_reset(&p->open);
		return;
	}
	if (len == 0)
		return;
	quotes = memchr(line, '"', len) != NULL;
	if (quotes && csv_line_open(line, len)) {
		sbuf_add(&p->open, line, len);
		p->openline = source_lineno(p->s);
		return;
	}
	parse(p, line, len, quotes);
}

static void
end_fn(void *st)
{
	struct recfmt *p = st;

	/* Each pass reads at least the line that opened the field. */
	while (p->open.len > 0)
		reread_open(p);
}

/*
 * chunks.h: after its first line the stream's state is known, but for a
 * quoted field open across lines (the fork stops there: it asks for the
 * line's number first).
 */
static void *
fork_fn(const void *st, struct source *s)
{
	const struct recfmt *p = st;
	struct recfmt *f;

	if (!p->begun || p->open.len > 0)
		return NULL;
	f = ecalloc(1, sizeof(*f));
	f->s = s;
	f->begun = 1;
	return f;
}

static void
join_fn(void *st, const void *f)
{
	struct recfmt *p = st;
	const struct recfmt *q = f;

	p->headers += q->headers;
}

static void
summary(void *st, struct sbuf *sb)
{
	struct recfmt *p = st;

	if (p->headers > 1)
		sbuf_printf(sb, ", %llu joined streams",
		    (unsigned long long)p->headers);
}

static void
free_fn(void *st)
{
	struct recfmt *p = st;

	sbuf_release(&p->open);
	free(p);
}

const struct format recfmt_format = {
	.name = "stream",
	.what = "gpumem record stream",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
	.fork = fork_fn,
	.join = join_fn,
};

/* --- the binary form --- */

#define BIN_BUFSZ (256U * 1024)

struct recbin {
	struct source *s;
	unsigned char *buf;
	size_t cap, have, off;
	uint64_t base;		/* the input offset of buf[0] */
	uint64_t at;		/* that of the record being read */
	uint64_t magics;
	int eof;
};

static int
bin_sniff(const unsigned char *p, size_t n)
{
	return rec_bin_sniff(p, n) ? 100 : 0;
}

static void *
bin_open(struct source *s, const char *hint)
{
	struct recbin *b = ecalloc(1, sizeof(*b));

	(void)hint;
	b->s = s;
	b->cap = BIN_BUFSZ;
	b->buf = emalloc(b->cap);
	return b;
}

/* Read on until the buffer holds at least need bytes from off, or the end. */
static int
bin_refill(struct recbin *b, size_t need)
{
	ssize_t n;

	if (b->off > 0) {
		memmove(b->buf, b->buf + b->off, b->have - b->off);
		b->base += b->off;
		b->have -= b->off;
		b->off = 0;
	}
	if (need > b->cap) {
		b->cap = need;
		b->buf = erealloc(b->buf, b->cap);
	}
	while (b->have < need) {
		n = input_read(b->s->in, b->buf + b->have, b->cap - b->have);
		if (n < 0) {
			source_fail(b->s, "%s", input_error(b->s->in));
			return -1;
		}
		if (n == 0) {
			b->eof = 1;
			return 0;
		}
		b->have += (size_t)n;
	}
	return 0;
}

static int
bin_step(void *st)
{
	struct recbin *b = st;
	struct rec r;
	const char *why = NULL;
	char at[40];
	size_t used;
	int rc;

	for (;;) {
		b->at = b->base + b->off;
		rc = rec_bin_decode(b->buf + b->off, b->have - b->off, &r,
		    &used, &why);
		if (rc < 0 || (rc == 0 && b->eof))
			snprintf(at, sizeof(at), "offset 0x%llx",
			    (unsigned long long)b->at);
		switch (rc) {
		case 1:
			b->off += used;
			source_emit(b->s, &r);
			return 1;
		case 2:
			b->off += used;
			b->magics++;
			continue;
		case -2:
			source_bad_at(b->s, at, "%s; the record is skipped",
			    why);
			b->off += used;
			return 1;
		case -1:
			/* What follows is lost: trouble, as in a gzip. */
			source_bad_at(b->s, at, "%s; the rest of the input "
			    "cannot be read", why);
			b->s->failed = 1;
			return 0;
		}
		if (b->eof) {
			/* Cut short: trouble, as a truncated gzip is. */
			if (b->have > b->off) {
				source_bad_at(b->s, at, "the input ends "
				    "inside a record (%zu of its %zu bytes): "
				    "truncated?", b->have - b->off, used);
				b->s->failed = 1;
			}
			return 0;
		}
		if (bin_refill(b, used) < 0)
			return -1;
	}
}

static void
bin_where(void *st, struct sbuf *sb)
{
	struct recbin *b = st;

	sbuf_printf(sb, "offset 0x%llx", (unsigned long long)b->at);
}

static void
bin_summary(void *st, struct sbuf *sb)
{
	struct recbin *b = st;

	if (b->magics > 1)
		sbuf_printf(sb, ", %llu joined streams",
		    (unsigned long long)b->magics);
}

static void
bin_free(void *st)
{
	struct recbin *b = st;

	free(b->buf);
	free(b);
}

const struct format recfmt_bin_format = {
	.name = "stream-binary",
	.what = "gpumem record stream, binary",
	.sniff_bytes = bin_sniff,
	.open = bin_open,
	.step = bin_step,
	.summary = bin_summary,
	.free = bin_free,
	.where = bin_where,
};
