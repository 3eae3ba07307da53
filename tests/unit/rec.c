/* SPDX-License-Identifier: ISC */
/* Unit tests: the record stream's text and binary forms (formats/core/rec.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "test.h"

static int
parse(const char *text, struct rec *r, const char **why, char *buf)
{
	strcpy(buf, text);
	return rec_parse(buf, strlen(buf), r, why);
}

/* The binary form: the writer's bytes, and the decoder on them. */
static void
binary(void)
{
	static const unsigned char want[] = {
	    0x89, 'G', 'M', 'R', 'E', 'C', 0x01, '\n',
	    'R', 0x05, 0, 0,			/* has: used, total */
	    3, 0, 0, 0,				/* gpu 3 */
	    0x00, 0x00, 0xfa, 0xed, 0x51, 0x72, 0x86, 0x18, /* ts */
	    0xff, 0xff, 0xff, 0xff,		/* pid 2^32-1 */
	    0x00, 0x04, 0, 0,			/* used 1024 */
	    0, 0, 0, 0,				/* free: none */
	    0x00, 0x50, 0, 0,			/* total 20480 */
	    2, 0, 0, 0,				/* host "h1" */
	    3, 0, 0, 0,				/* name "a,b" */
	    'h', '1', 0, 'a', ',', 'b', 0,
	};
	unsigned char got[256], bad[256];
	const char *why = NULL;
	struct recw w;
	struct rec r;
	size_t n, used, i;
	FILE *f;

	CHECK(setenv("GPUMEM_STREAM", "binary", 1) == 0);
	f = tmpfile();
	recw_init(&w, f);
	rec_init(&r);
	r.ts = 1767225600000000000ULL;
	r.gpu = 3;
	r.pid = 4294967295U;
	r.used = 1024;
	r.free = 77;		/* not had: written as 0 */
	r.total = 20480;
	r.has = REC_USED | REC_TOTAL;
	r.host = "h1";
	r.name = "a,b";
	CHECK(recw_put(&w, &r) == 0);
	CHECK(recw_flush(&w) == 0);
	recw_release(&w);
	rewind(f);
	n = fread(got, 1, sizeof(got), f);
	fclose(f);
	CHECK_U64(n, sizeof(want));
	CHECK(memcmp(got, want, sizeof(want)) == 0);
	CHECK(rec_bin_sniff(got, n));
	CHECK(!rec_bin_sniff(got, 7));

	/* Decoded: the magic, then the record. */
	CHECK(rec_bin_decode(got, n, &r, &used, &why) == 2);
	CHECK_U64(used, 8);
	CHECK(rec_bin_decode(got + 8, n - 8, &r, &used, &why) == 1);
	CHECK_U64(used, n - 8);
	CHECK_U64(r.ts, 1767225600000000000ULL);
	CHECK_U64(r.gpu, 3);
	CHECK_U64(r.pid, 4294967295U);
	CHECK_U64(r.has, REC_USED | REC_TOTAL);
	CHECK_U64(r.used, 1024);
	CHECK_U64(r.free, 0);
	CHECK_U64(r.total, 20480);
	CHECK_STR(r.host, "h1");
	CHECK_STR(r.name, "a,b");

	/* Every cut short asks for more, and says how much is whole. */
	for (i = 0; i < 8; i++)
		CHECK(rec_bin_decode(got, i, &r, &used, &why) == 0);
	for (i = 0; i < 40; i++) {
		CHECK(rec_bin_decode(got + 8, i, &r, &used, &why) == 0);
		CHECK_U64(used, i == 0 ? 1 : 40);
	}
	for (i = 40; i < n - 8; i++) {
		CHECK(rec_bin_decode(got + 8, i, &r, &used, &why) == 0);
		CHECK_U64(used, n - 8);
	}

	/* What is not the binary form. */
	memcpy(bad, got, n);
	bad[6] = 2;		/* version 2 */
	CHECK(rec_bin_decode(bad, n, &r, &used, &why) == -1);
	CHECK_STR(why, "a magic that is not gpumem's binary stream, "
	    "version 1");
	memcpy(bad, got + 8, n - 8);
	bad[0] = 'X';
	CHECK(rec_bin_decode(bad, n - 8, &r, &used, &why) == -1);
	CHECK_STR(why, "not a record of the binary stream");
	memcpy(bad, got + 8, n - 8);
	bad[1] = 8;		/* an unknown has bit */
	CHECK(rec_bin_decode(bad, n - 8, &r, &used, &why) == -1);
	CHECK_STR(why, "a record header of the binary stream out of range");
	memcpy(bad, got + 8, n - 8);
	bad[35] = 0x01;		/* host of 16 MiB */
	CHECK(rec_bin_decode(bad, n - 8, &r, &used, &why) == -1);
	/* A whole record with a NUL inside a name: skipped, and no more. */
	memcpy(bad, got + 8, n - 8);
	bad[44] = '\0';
	CHECK(rec_bin_decode(bad, n - 8, &r, &used, &why) == -2);
	CHECK_U64(used, n - 8);
	CHECK_STR(why, "a host or process name of the wrong length");
	CHECK(unsetenv("GPUMEM_STREAM") == 0);
}

int
main(void)
{
	struct rec r;
	const char *why = NULL;
	char buf[512], out[4096];
	struct recw w;
	FILE *f;
	size_t n;

	CHECK(parse(REC_HEADER, &r, &why, buf) == 0);
	CHECK(parse("1687460216252000000,,0,0,841,7140,8192,", &r, &why,
	    buf) == 1);
	CHECK_U64(r.ts, 1687460216252000000ULL);
	CHECK_U64(r.gpu, 0);
	CHECK_U64(r.pid, 0);
	CHECK_U64(r.used, 841);
	CHECK_U64(r.free, 7140);
	CHECK_U64(r.total, 8192);
	CHECK_U64(r.has, REC_USED | REC_FREE | REC_TOTAL);
	CHECK_STR(r.host, "");
	CHECK_STR(r.name, "");

	CHECK(parse("5,10.0.0.7,3,4242,100,,,\"python3, the \"\"big\"\" one\"",
	    &r, &why, buf) == 1);
	CHECK_STR(r.host, "10.0.0.7");
	CHECK_U64(r.gpu, 3);
	CHECK_U64(r.pid, 4242);
	CHECK_U64(r.has, REC_USED);
	CHECK_STR(r.name, "python3, the \"big\" one");

	/* Extremes. */
	CHECK(parse("18446744073709551615,h,4294967295,4294967295,4294967295,"
	    "4294967295,4294967295,x", &r, &why, buf) == 1);
	CHECK_U64(r.ts, UINT64_MAX);
	CHECK_U64(r.pid, UINT32_MAX);
	CHECK(parse("18446744073709551616,,0,0,,,,", &r, &why, buf) < 0);
	CHECK_STR(why, "timestamp: expected nanoseconds since the epoch");
	CHECK(parse("1,,0,0,4294967296,,,", &r, &why, buf) < 0);
	CHECK_STR(why, "memory_used: expected an integer (0-4294967295)");
	CHECK(parse("1,,x,0,,,,", &r, &why, buf) < 0);
	CHECK_STR(why, "gpu: expected an integer (0-4294967295)");
	CHECK(parse("1,,0,0,,,", &r, &why, buf) < 0);
	CHECK_STR(why, "too few fields (expected 8)");
	CHECK(parse("1,,0,0,,,,,", &r, &why, buf) < 0);
	CHECK_STR(why, "too many fields (expected 8)");
	CHECK(parse("1,\"a\"b,0,0,,,,", &r, &why, buf) < 0);
	CHECK_STR(why, "bad quoting");
	CHECK(parse("timestamp,gpu", &r, &why, buf) < 0);
	CHECK_STR(why, "not the record stream header");
	CHECK(parse("-1,,0,0,,,,", &r, &why, buf) < 0);
	CHECK(parse(" 1,,0,0,,,,", &r, &why, buf) < 0);

	/* Number formatting at every length boundary. */
	{
		static const uint64_t vals[] = {0, 9, 10, 99, 100, 999, 1000,
		    9999999, 10000000, 99999999, 100000000, 123456789012ULL,
		    9999999999999999ULL, 10000000000000000ULL,
		    1767225600000000000ULL, UINT64_MAX};
		size_t k;

		for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			char want[32];

			snprintf(want, sizeof(want), "%" PRIu64, vals[k]);
			CHECK_U64(num_fmt_u64(out, vals[k]), strlen(want));
			CHECK_STR(out, want);
		}
	}

	/* The fast path and the general parser agree. */
	CHECK(parse("1767225600000000000,,0,0,1,2,3,x", &r, &why, buf) == 1);
	CHECK_U64(r.ts, 1767225600000000000ULL);
	CHECK(parse("17672256000000000000,,0,0,1,2,3,x", &r, &why, buf) == 1);
	CHECK_U64(r.ts, 17672256000000000000ULL);
	CHECK(parse("1767225600x00000000,,0,0,1,2,3,x", &r, &why, buf) < 0);
	CHECK(parse("1,,0,0,1,2,3,a,b", &r, &why, buf) < 0);
	CHECK_STR(why, "too many fields (expected 8)");
	CHECK(parse("1,,0,123456789,1234567890,2,3,x", &r, &why, buf) == 1);
	CHECK_U64(r.used, 1234567890);
	CHECK_U64(r.pid, 123456789);

	/* The writer: header once, empty values, round trip. */
	f = tmpfile();
	recw_init(&w, f);
	rec_init(&r);
	r.ts = 7;
	r.gpu = 1;
	r.pid = 9;
	r.used = 0;
	r.has = REC_USED;
	r.name = "a,b";
	CHECK(recw_put(&w, &r) == 0);
	CHECK(recw_flush(&w) == 0);
	recw_release(&w);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	CHECK_STR(out, REC_HEADER "\n7,,1,9,0,,,\"a,b\"\n");
	fclose(f);

	/* An empty stream is a header alone. */
	f = tmpfile();
	recw_init(&w, f);
	CHECK(recw_flush(&w) == 0);
	recw_release(&w);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	CHECK_STR(out, REC_HEADER "\n");
	fclose(f);
	binary();
	TEST_END("rec");
}
