/* SPDX-License-Identifier: ISC */
/*
 * detect.c: which format an input is, from its first bytes: a format's
 * magic, compressed data gpumem does not read, binary data, or the best
 * sniff of its first lines (source_detect, source.h).
 */
#include <stdlib.h>
#include <string.h>

#include "nvsmi.h"
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

	for (i = 0; format_list[i] != NULL; i++)
		if (format_list[i]->sniff_bytes != NULL &&
		    format_list[i]->sniff_bytes(p, n) >= SNIFF_SURE)
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
	for (i = 0; format_list[i] != NULL; i++)
		if (format_list[i]->sniff_bytes != NULL &&
		    (sc = format_list[i]->sniff_bytes(p, n)) > bs) {
			bs = sc;
			best = format_list[i];
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
		best = &nvsmi_query_gpu_format;
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
