/* SPDX-License-Identifier: ISC */
/* Unit tests: strict numbers, id sets and fast digits (formats/core/num.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "num.h"
#include "test.h"

/* num_parse_u64 of a C string: the value, or UINT64_MAX - 1 when refused. */
static uint64_t
u64(const char *s)
{
	uint64_t v = 0;

	if (num_parse_u64(s, strlen(s), &v) < 0)
		return UINT64_MAX - 1;
	return v;
}

static uint64_t
u32(const char *s)
{
	uint32_t v = 0;

	if (num_parse_u32(s, strlen(s), &v) < 0)
		return UINT64_MAX - 1;
	return v;
}

/* "0,2,5-7"-style set: which of 0..19 it holds, as a string of 0s and 1s. */
static const char *
members(const char *spec)
{
	static char buf[32];
	struct idset set = { 0 };
	uint32_t v;

	if (num_idset_parse(&set, spec) < 0) {
		num_idset_release(&set);
		return "refused";
	}
	for (v = 0; v < 20; v++)
		buf[v] = num_idset_has(&set, v) ? '1' : '0';
	buf[20] = '\0';
	num_idset_release(&set);
	return buf;
}

/* num_fmt_u64 against printf, and its count against the string's length. */
/* num_parse_mib's value, or its negative return. */
static int64_t
mib(const char *s)
{
	uint32_t v;
	const char *u;
	size_t ul;
	int rc = num_parse_mib(s, &v, &u, &ul);

	return rc < 0 ? rc : (int64_t)v;
}

static int
fmt_ok(uint64_t v)
{
	char got[32], want[32];
	size_t n;

	memset(got, 'x', sizeof(got));
	n = num_fmt_u64(got, v);
	snprintf(want, sizeof(want), "%" PRIu64, v);
	return strcmp(got, want) == 0 && n == strlen(want);
}

int
main(void)
{
	struct idset set = { 0 };
	uint64_t p, v;
	int bad;

	/* Digits only, no sign, no spaces, nothing empty, in range. */
	CHECK_U64(u64("0"), 0);
	CHECK_U64(u64("007"), 7);
	CHECK_U64(u64("18446744073709551615"), UINT64_MAX);
	CHECK_U64(u64("18446744073709551616"), UINT64_MAX - 1);
	CHECK_U64(u64("99999999999999999999"), UINT64_MAX - 1);
	CHECK_U64(u64("000000000000000000001"), UINT64_MAX - 1);
	CHECK_U64(u64(""), UINT64_MAX - 1);
	CHECK_U64(u64("+1"), UINT64_MAX - 1);
	CHECK_U64(u64("-1"), UINT64_MAX - 1);
	CHECK_U64(u64(" 1"), UINT64_MAX - 1);
	CHECK_U64(u64("1 "), UINT64_MAX - 1);
	CHECK_U64(u64("12a"), UINT64_MAX - 1);
	CHECK_U64(u64("1.5"), UINT64_MAX - 1);
	CHECK_U64(u64("/"), UINT64_MAX - 1);
	CHECK_U64(u64(":"), UINT64_MAX - 1);
	/* Only n bytes are read. */
	CHECK(num_parse_u64("123x", 3, &v) == 0 && v == 123);
	CHECK_U64(u32("4294967295"), UINT32_MAX);
	CHECK_U64(u32("4294967296"), UINT64_MAX - 1);
	CHECK_U64(u32("18446744073709551615"), UINT64_MAX - 1);
	CHECK_U64(u32("x"), UINT64_MAX - 1);

	/* Id sets: single ids and ranges, any order, bounds included. */
	CHECK_STR(members("0,2,5-7"), "10100111000000000000");
	CHECK_STR(members("19"), "00000000000000000001");
	CHECK_STR(members("12-14,1"), "01000000000011100000");
	CHECK_STR(members("3-3"), "00010000000000000000");
	CHECK_STR(members("4,4"), "00001000000000000000");
	CHECK_STR(members("7-5"), "refused");
	CHECK_STR(members(""), "refused");
	CHECK_STR(members("1,"), "refused");
	CHECK_STR(members(",1"), "refused");
	CHECK_STR(members("1,,2"), "refused");
	CHECK_STR(members("3-"), "refused");
	CHECK_STR(members("-3"), "refused");
	CHECK_STR(members("1;2"), "refused");
	CHECK_STR(members("1 2"), "refused");
	CHECK_STR(members("a"), "refused");
	CHECK_STR(members("4294967296"), "refused");
	/* Ranges come out sorted, whatever order they were given in. */
	CHECK(num_idset_parse(&set, "9-10,4294967295,0") == 0);
	CHECK_U64(set.n, 3);
	if (set.n == 3) {
		CHECK_U64(set.r[0].lo, 0);
		CHECK_U64(set.r[1].lo, 9);
		CHECK_U64(set.r[1].hi, 10);
		CHECK_U64(set.r[2].hi, UINT32_MAX);
	}
	CHECK(num_idset_has(&set, UINT32_MAX));
	CHECK(!num_idset_has(&set, UINT32_MAX - 1));
	num_idset_release(&set);
	CHECK(set.r == NULL && set.n == 0);
	CHECK(!num_idset_has(&set, 0));

	/* num_fmt_u64: every length, at and around each power of ten. */
	bad = 0;
	for (p = 1;; p *= 10) {
		if (!fmt_ok(p) || !fmt_ok(p - 1) || !fmt_ok(p + 1) ||
		    !fmt_ok(p * 5 + 3))
			bad++;
		if (p > UINT64_MAX / 10)
			break;
	}
	CHECK(bad == 0);
	CHECK(fmt_ok(0));
	CHECK(fmt_ok(UINT64_MAX));
	CHECK(fmt_ok(1767225600123456789ULL));
	CHECK(fmt_ok(10000000000000000ULL));
	CHECK(fmt_ok(9999999999999999ULL));
	CHECK(fmt_ok(100000000ULL));
	CHECK(fmt_ok(99999999ULL));
	/* A spread of values of every size. */
	bad = 0;
	for (v = 1; v < UINT64_MAX / 3; v = v * 3 + 1)
		if (!fmt_ok(v) || !fmt_ok(v * 2))
			bad++;
	CHECK(bad == 0);

	/* Sizes: MiB, or a number and a unit, rounded to the nearest MiB. */
	CHECK(mib("512") == 512);
	CHECK(mib("1GiB") == 1024);
	CHECK(mib("512 MiB") == 512);
	CHECK(mib("1.5GB") == 1431);	/* 1430.51 */
	CHECK(mib("1536 KiB") == 2);	/* 1.5 rounds up */
	CHECK(mib("1048575 B") == 1);
	CHECK(mib("4095.99 GiB") == 4194294);
	CHECK(mib("4294967295 MiB") == 4294967295LL);
	CHECK(mib("4294967296 MiB") == -3);
	CHECK(mib("1e3 MiB") == -1);	/* no exponents */
	CHECK(mib("1. GiB") == -1);
	CHECK(mib("1.2.3 GiB") == -1);
	CHECK(mib("1.5") == -1);
	CHECK(mib("-1 GiB") == -1);
	CHECK(mib("GiB") == -1);
	CHECK(mib("0x10 MiB") == -1);	/* no hex */
	CHECK(mib("2 GiBs") == -2);
	CHECK(mib("inf GiB") == -1);

	TEST_END("num");
}
