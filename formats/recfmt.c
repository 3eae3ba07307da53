/* SPDX-License-Identifier: ISC */
/* recfmt.c: the record stream (rec.h) as an input format of gpumem read. */
#include <stdlib.h>
#include <string.h>

#include "recfmt.h"

struct recfmt {
	struct source *s;
	struct sbuf open;	/* a record whose quoted field spans lines */
	uint64_t openline;	/* the line it started on */
	uint64_t headers;
};

static int
sniff(char *const *lines, size_t n)
{
	return n > 0 && strcmp(lines[0], REC_HEADER) == 0 ? 100 : 0;
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

static void
line_fn(void *st, char *line, size_t len)
{
	struct recfmt *p = st;
	int quotes;

	if (p->open.len > 0) {
		sbuf_addc(&p->open, '\n');
		sbuf_add(&p->open, line, len);
		if (rec_line_open(p->open.buf, p->open.len)) {
			if (p->open.len > INPUT_MAXLINE) {
				source_bad(p->s, "quoted field opened on line "
				    "%llu never closes", (unsigned long long)
				    p->openline);
				sbuf_reset(&p->open);
			}
			return;
		}
		parse(p, p->open.buf, p->open.len, 1);
		sbuf_reset(&p->open);
		return;
	}
	if (len == 0)
		return;
	quotes = memchr(line, '"', len) != NULL;
	if (quotes && rec_line_open(line, len)) {
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

	if (p->open.len > 0)
		source_bad(p->s, "quoted field opened on line %llu never "
		    "closes", (unsigned long long)p->openline);
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

const struct format fmt_stream = {
	.name = "stream",
	.what = "gpumem record stream",
	.sniff_text = sniff,
	.open = open_fn,
	.line = line_fn,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
};
