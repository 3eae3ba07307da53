/* SPDX-License-Identifier: ISC */
/* Unit tests: CSV written and read, RFC 4180 (formats/core/csv.c). */
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "test.h"

static char *f[8];
static size_t len[8];

/* Split a copy of s; the fields stay valid until the next call. */
static int
split(const char *s, size_t max, int trim)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", s);
	return csv_split(buf, f, len, max, trim);
}

/* csv_field's output for s, terminated. */
static const char *
field(const char *s)
{
	static char out[64];

	out[csv_field(out, s)] = '\0';
	return out;
}

int
main(void)
{
	char *p, line[64];
	size_t n;

	/* Written: quoted only when it must be, quotes doubled. */
	CHECK_STR(field("train v2"), "train v2");
	CHECK_STR(field("train, v2"), "\"train, v2\"");
	CHECK_STR(field("say \"hi\"\n"), "\"say \"\"hi\"\"\n\"");
	CHECK_STR(field("a\rb"), "\"a\rb\"");
	/* A leading byte-order mark: a reader drops it at a line's start. */
	CHECK_STR(field("\xef\xbb\xbfnode1"), "\"\xef\xbb\xbfnode1\"");
	CHECK_STR(field("node\xef\xbb\xbf"), "node\xef\xbb\xbf");

	/* Read: plain, quoted with a comma, doubled quotes, empty. */
	CHECK(split("a,\"train, v2\",\"say \"\"hi\"\"\",,z", 8, 0) == 5);
	CHECK_STR(f[0], "a");
	CHECK_STR(f[1], "train, v2");
	CHECK_U64(len[1], 9);
	CHECK_STR(f[2], "say \"hi\"");
	CHECK_STR(f[3], "");
	CHECK_STR(f[4], "z");
	/* A quoted field without a comma loses its quotes too. */
	CHECK(split("\"train v2\",0", 8, 0) == 2);
	CHECK_STR(f[0], "train v2");
	/* A line break inside quotes is the field's. */
	CHECK(split("\"a\nb\",c", 8, 0) == 2);
	CHECK_STR(f[0], "a\nb");

	/* trim: spaces around a plain field go, a quoted one keeps its own. */
	CHECK(split(" a , \" b \",c ", 8, 1) == 3);
	CHECK_STR(f[0], "a");
	CHECK_STR(f[1], " b ");
	CHECK_STR(f[2], "c");
	CHECK(split(" a ,b", 8, 0) == 2);
	CHECK_STR(f[0], " a ");

	/* Too many fields, bad quoting. */
	CHECK(split("a,b,c", 2, 0) == 3);
	CHECK(split("a,b", 2, 0) == 2);
	CHECK(split("\"open,b", 8, 0) == -1);
	CHECK(split("\"a\"b,c", 8, 0) == -1);

	/* The next field alone, as the record stream's reader cuts it. */
	snprintf(line, sizeof(line), "\"x,\"\"y\",7");
	p = line;
	CHECK(csv_next_field(&p, &n) == line + 1);
	CHECK_U64(n, 4);
	CHECK(memcmp(line + 1, "x,\"y", 4) == 0);
	CHECK_STR(p, "7");
	CHECK(csv_next_field(&p, &n) != NULL && n == 1 && p == NULL);

	/* A quote left open at the end of a line. */
	CHECK(csv_line_open("1,\"a", 4) == 1);
	CHECK(csv_line_open("1,\"a\"\"b\"", 8) == 0);

	TEST_END("csv");
}
