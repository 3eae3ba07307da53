/* SPDX-License-Identifier: ISC */
/* field.c: placeholders, MiB values and field splitting for text logs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "field.h"
#include "util.h"

int
field_placeholder(const char *s, size_t n)
{
	uint64_t v;

	if (n == 0)
		return 1;
	if (s[0] == '[' && s[n - 1] == ']')
		return 1;
	if ((n == 3 && memcmp(s, "N/A", 3) == 0) ||
	    (n == 1 && s[0] == '-'))
		return 1;
	/*
	 * DCGM's blank values: DCGM_INT32_BLANK 0x7ffffff0 (10 digits) and
	 * DCGM_INT64_BLANK 0x7ffffffffffffff0 (19 digits), each +0..+3
	 * (blank, not found, not supported, not permissioned).  Looked at
	 * only when the length and first digit can be theirs: this runs on
	 * every field of every row.
	 */
	if (((n == 10 && s[0] == '2') || (n == 19 && s[0] == '9')) &&
	    num_parse_u64(s, n, &v) == 0 &&
	    ((v >= 0x7ffffff0ULL && v <= 0x7ffffff3ULL) ||
	    (v >= 0x7ffffffffffffff0ULL && v <= 0x7ffffffffffffff3ULL)))
		return 1;
	return 0;
}

/* DCGM's blank values (see field_placeholder) within 32 bits. */
static int
dcgm_blank32(uint64_t v)
{
	return v >= 0x7ffffff0ULL && v <= 0x7ffffff3ULL;
}

int
field_mib(const char *s, size_t n, uint32_t *v)
{
	uint64_t x = 0;
	size_t d = 0, u;

	/* Numbers first: they are what almost every field holds. */
	while (d < n && d < 11 && (unsigned)(s[d] - '0') <= 9) {
		x = x * 10 + (uint64_t)(s[d] - '0');
		d++;
	}
	if (d == 0)
		return field_placeholder(s, n) ? 0 : -1;
	if (d == 11 || x > UINT32_MAX) {
		/* Too big for MiB: a DCGM 64-bit blank, or garbage. */
		return field_placeholder(s, n) ? 0 : -1;
	}
	u = d;
	if (u < n && s[u] == ' ')
		u++;
	if (u == n && u == d) {
		if (dcgm_blank32(x))
			return 0;
		*v = (uint32_t)x;
		return 1;
	}
	if ((n - u == 3 && memcmp(s + u, "MiB", 3) == 0) ||
	    (n - u == 2 && memcmp(s + u, "MB", 2) == 0)) {
		*v = (uint32_t)x;
		return 1;
	}
	return -1;
}

int
field_uint(const char *s, size_t n, uint32_t *v)
{
	uint64_t x = 0;
	size_t d;

	/* Numbers first: they are what almost every field holds. */
	for (d = 0; d < n && d < 11 && (unsigned)(s[d] - '0') <= 9; d++)
		x = x * 10 + (uint64_t)(s[d] - '0');
	if (d == 0 || d < n || x > UINT32_MAX)
		return field_placeholder(s, n) ? 0 : -1;
	if (dcgm_blank32(x))
		return 0;
	*v = (uint32_t)x;
	return 1;
}

char *
field_trim(char *s, size_t *n)
{
	while (*n > 0 && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		(*n)--;
	}
	while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
		(*n)--;
	return s;
}

size_t
field_split(char *line, int sep, char **f, size_t *len, size_t max)
{
	size_t nf = 0;
	char *p = line;

	for (;;) {
		char *q = strchr(p, sep);
		size_t n = q != NULL ? (size_t)(q - p) : strlen(p);

		if (nf == max)
			return max + 1;
		f[nf] = field_trim(p, &n);
		len[nf] = n;
		nf++;
		if (q == NULL)
			break;
		p = q + 1;
	}
	return nf;
}

size_t
field_words(char *line, char **w, size_t *len, size_t max)
{
	size_t nw = 0;
	char *p = line;

	for (;;) {
		size_t n;

		p += strspn(p, " \t");
		if (*p == '\0')
			return nw;
		n = strcspn(p, " \t");
		if (nw == max)
			return max + 1;
		w[nw] = p;
		len[nw] = n;
		nw++;
		p += n;
	}
}

int
field_double(const char *s, size_t n, double *v)
{
	char buf[64], *end;
	size_t i;

	if (field_placeholder(s, n) || (n == 3 && (memcmp(s, "NaN", 3) == 0 ||
	    memcmp(s, "nan", 3) == 0)))
		return 0;
	if (n >= sizeof(buf))
		return -1;
	/* strtod() would take hex, "inf" and leading spaces: refuse those. */
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		    s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-'))
			return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, &end);
	if (n == 0 || *end != '\0' || !isfinite(*v) || *v < 0)
		return -1;
	/*
	 * DCGM's FP64 blank, 140737488355328.0 (2^47), +1..+3: a blank
	 * value an old exporter let through.
	 */
	if (*v >= 140737488355328.0 && *v <= 140737488355331.0)
		return 0;
	return 1;
}

const char *
field_quote(char *dst, size_t cap, const char *s, size_t n)
{
	size_t i, j = 0;

	if (cap < 8)
		BUG("field_quote buffer too small");
	dst[j++] = '\'';
	for (i = 0; i < n && j + 5 < cap; i++)
		dst[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (i < n) {
		dst[j++] = '.';
		dst[j++] = '.';
		dst[j++] = '.';
	}
	dst[j++] = '\'';
	dst[j] = '\0';
	return dst;
}
