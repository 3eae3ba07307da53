/* SPDX-License-Identifier: ISC */
/* num.c: numbers and id lists. */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

int
num_parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int
num_parse_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v;

	if (num_parse_u64(s, n, &v) < 0 || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

uint64_t
num_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (num_parse_u64(arg, strlen(arg), &v) < 0 || v < min || v > max)
		die("%s: '%s': expected an integer (allowed %llu-%llu)", opt,
		    arg, (unsigned long long)min, (unsigned long long)max);
	return v;
}

static int
idrange_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

int
num_idset_parse(struct idset *set, const char *s)
{
	const char *p = s;

	for (;;) {
		const char *q = p;
		uint32_t lo, hi;

		while (*q >= '0' && *q <= '9')
			q++;
		if (num_parse_u32(p, (size_t)(q - p), &lo) < 0)
			return -1;
		hi = lo;
		if (*q == '-') {
			p = ++q;
			while (*q >= '0' && *q <= '9')
				q++;
			if (num_parse_u32(p, (size_t)(q - p), &hi) < 0 ||
			    hi < lo)
				return -1;
		}
		set->r = ereallocarray(set->r, set->n + 1, sizeof(*set->r));
		set->r[set->n].lo = lo;
		set->r[set->n].hi = hi;
		set->n++;
		if (*q == '\0')
			break;
		if (*q != ',')
			return -1;
		p = q + 1;
	}
	qsort(set->r, set->n, sizeof(*set->r), idrange_cmp);
	return 0;
}

int
num_idset_has(const struct idset *set, uint32_t v)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (v >= set->r[i].lo && v <= set->r[i].hi)
			return 1;
	return 0;
}

void
num_idset_release(struct idset *set)
{
	free(set->r);
	set->r = NULL;
	set->n = 0;
}

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Exactly 8 digits of n (< 10^8): four independent pairs. */
static void
put8(char *p, uint32_t n)
{
	uint32_t a = n / 10000, b = n % 10000;

	memcpy(p, digits2 + 2 * (a / 100), 2);
	memcpy(p + 2, digits2 + 2 * (a % 100), 2);
	memcpy(p + 4, digits2 + 2 * (b / 100), 2);
	memcpy(p + 6, digits2 + 2 * (b % 100), 2);
}

/* Exactly 4 digits of n (< 10^4). */
static inline void
put4(char *p, uint32_t n)
{
	memcpy(p, digits2 + 2 * (n / 100), 2);
	memcpy(p + 2, digits2 + 2 * (n % 100), 2);
}

/* Up to 4 digits of n (< 10^4), no leading zeros; return how many. */
static inline size_t
put_upto4(char *p, uint32_t n)
{
	if (n < 10) {
		p[0] = (char)('0' + n);
		return 1;
	}
	if (n < 100) {
		memcpy(p, digits2 + 2 * n, 2);
		return 2;
	}
	if (n < 1000) {
		p[0] = (char)('0' + n / 100);
		memcpy(p + 1, digits2 + 2 * (n % 100), 2);
		return 3;
	}
	put4(p, n);
	return 4;
}

/*
 * The digits of n (< 10^8), no leading zeros: at most two divisions deep,
 * for the small numbers of every record (GPU, pid, MiB).
 */
static size_t
put_small(char *dst, uint32_t n)
{
	size_t k;

	if (n < 10000)
		return put_upto4(dst, n);
	k = put_upto4(dst, n / 10000);
	put4(dst + k, n % 10000);
	return k + 4;
}

/*
 * The record stream is mostly 19-digit timestamps, and this is the
 * writer's hot loop: split into 8-digit parts with two divisions, then
 * format the parts with independent two-digit lookups (a digit-by-digit
 * loop is a chain of dependent divisions).
 */
size_t
num_fmt_u64(char *dst, uint64_t v)
{
	size_t n;

	if (v < 100000000ULL)
		n = put_small(dst, (uint32_t)v);
	else if (v < 10000000000000000ULL) {
		n = put_small(dst, (uint32_t)(v / 100000000ULL));
		put8(dst + n, (uint32_t)(v % 100000000ULL));
		n += 8;
	} else {
		uint64_t rest = v % 10000000000000000ULL;

		n = put_small(dst, (uint32_t)(v / 10000000000000000ULL));
		put8(dst + n, (uint32_t)(rest / 100000000ULL));
		put8(dst + n + 8, (uint32_t)(rest % 100000000ULL));
		n += 16;
	}
	dst[n] = '\0';
	return n;
}

/* Units of memory, in bytes. */
static const struct {
	const char *name;
	double bytes;
} mem_units[] = {
	{"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0},
	{"GiB", 1073741824.0}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
};

double
num_mem_unit_bytes(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(mem_units) / sizeof(mem_units[0]); i++)
		if (strlen(mem_units[i].name) == n &&
		    strncasecmp(mem_units[i].name, s, n) == 0)
			return mem_units[i].bytes;
	return 0;
}

const char *
num_mem_unit_name(double bytes)
{
	size_t i;

	for (i = 0; i < sizeof(mem_units) / sizeof(mem_units[0]); i++)
		if (mem_units[i].bytes == bytes)
			return mem_units[i].name;
	return "bytes";
}

int
num_parse_mib(const char *s, uint32_t *mib, const char **unit, size_t *ulen)
{
	const char *u;
	char *end;
	double d, bytes;
	size_t n;

	if (num_parse_u32(s, strlen(s), mib) == 0)
		return 0;
	/* strtod would take hex, exponents, infinities: digits and a dot. */
	n = strspn(s, "0123456789.");
	if (n == 0 || !isdigit((unsigned char)s[n - 1]) ||
	    memchr(s, '.', n) != memrchr(s, '.', n))
		return -1;
	d = strtod(s, &end);
	if (end != s + n)
		return -1;
	for (u = end; *u == ' '; u++)
		;
	n = strlen(u);
	if (n == 0)
		return -1;	/* without a unit: an integer of MiB only */
	if ((bytes = num_mem_unit_bytes(u, n)) == 0) {
		*unit = u;
		*ulen = n;
		return -2;
	}
	d = d * bytes / 1048576.0 + 0.5;
	if (!(d < 4294967296.0))
		return -3;
	*mib = (uint32_t)d;
	return 0;
}

char *
num_fmt_mib(int64_t mib, char *buf)
{
	if (mib >= 1024 || mib <= -1024)
		snprintf(buf, FMT_MIBSZ, "%.1f GiB", (double)mib / 1024.0);
	else
		snprintf(buf, FMT_MIBSZ, "%lld MiB", (long long)mib);
	return buf;
}
