/* SPDX-License-Identifier: ISC */
/* csv.c: CSV fields written and read, RFC 4180 (csv.h). */
#include <stddef.h>
#include <string.h>

#include "csv.h"

/* The bytes that make a CSV field need quotes. */
static const unsigned char csv_special[256] = {
	['\n'] = 1, ['\r'] = 1, ['"'] = 1, [','] = 1,
};

/* --spreadsheet (csv_set_spreadsheet). */
static int spreadsheet;

void
csv_set_spreadsheet(int on)
{
	spreadsheet = on;
}

size_t
csv_field(char *dst, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, pre;
	/* A reader drops a byte-order mark at a line's start (input.h). */
	int bom = p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf;

	/* What a spreadsheet would start a formula with: made text. */
	pre = spreadsheet && *s != '\0' && strchr("=+-@\t\r", *s) != NULL;
	if (pre)
		dst[n++] = '\'';
	/* The usual case: copied as it is scanned, nothing to quote. */
	for (; *p != '\0' && !bom; p++) {
		if (csv_special[*p])
			break;
		dst[n++] = (char)*p;
	}
	if (*p == '\0')
		return n;
	n = 0;
	dst[n++] = '"';
	if (pre)
		dst[n++] = '\'';
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"')
			dst[n++] = '"';
		dst[n++] = (char)*p;
	}
	dst[n++] = '"';
	return n;
}

char *
csv_next_field(char **pp, size_t *n)
{
	char *p = *pp, *start, *w;

	if (*p != '"') {
		start = p;
		while (*p != ',' && *p != '\0')
			p++;
		*n = (size_t)(p - start);
		*pp = *p == ',' ? p + 1 : NULL;
		return start;
	}
	start = w = ++p;
	for (;;) {
		if (*p == '\0')
			return NULL;	/* unterminated */
		if (*p == '"') {
			if (p[1] == '"') {
				*w++ = '"';
				p += 2;
				continue;
			}
			p++;
			break;
		}
		*w++ = *p++;
	}
	if (*p != ',' && *p != '\0')
		return NULL;	/* text after the closing quote */
	*n = (size_t)(w - start);
	*pp = *p == ',' ? p + 1 : NULL;
	return start;
}

int
csv_line_open(const char *line, size_t len)
{
	int open = 0;
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] == '"')
			open = !open;
	return open;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t';
}

int
csv_split(char *line, char **f, size_t *len, size_t max, int trim)
{
	char *p = line;
	size_t n = 0;

	while (p != NULL) {
		char *v;
		size_t k;
		int quoted;

		if (trim)
			while (blank(*p))
				p++;
		quoted = *p == '"';
		if ((v = csv_next_field(&p, &k)) == NULL)
			return -1;
		if (n == max)
			return (int)max + 1;
		if (trim && !quoted)
			while (k > 0 && blank(v[k - 1]))
				k--;
		v[k] = '\0';
		f[n] = v;
		len[n++] = k;
	}
	return (int)n;
}
