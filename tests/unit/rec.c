/* SPDX-License-Identifier: ISC */
/* Unit tests: the record stream's text form (formats/rec.c). */
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

	CHECK(rec_line_open("1,,0,0,,,,\"a", 11) == 1);
	CHECK(rec_line_open("1,,0,0,,,,\"a\"\"b\"", 16) == 0);

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
			CHECK_U64(fmt_u64(out, vals[k]), strlen(want));
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

	/* Quoting only when needed. */
	n = csv_field(out, "plain name");
	out[n] = '\0';
	CHECK_STR(out, "plain name");
	n = csv_field(out, "a,b");
	out[n] = '\0';
	CHECK_STR(out, "\"a,b\"");
	n = csv_field(out, "say \"hi\"\n");
	out[n] = '\0';
	CHECK_STR(out, "\"say \"\"hi\"\"\n\"");

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
	TEST_END("rec");
}
