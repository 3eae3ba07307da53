/* SPDX-License-Identifier: ISC */
/* Unit tests: placeholders, MiB values and splitting (formats/core/field.c). */
#include <string.h>

#include "field.h"
#include "test.h"

static int
mib(const char *s, uint32_t *v)
{
	return field_mib(s, strlen(s), v);
}

int
main(void)
{
	uint32_t v = 0;
	char line[] = "2024/06/01 11:27:15.361, NVIDIA A100,  4 MiB ,x";
	char *f[8];
	size_t len[8], n;
	static const char *const holders[] = {
		"[N/A]", "N/A", "[Not Supported]", "[Insufficient Permissions]",
		"[Unknown Error]", "", "-", "[Requested functionality has been "
		"deprecated]", "9223372036854775794", "2147483634", NULL
	};
	int i;

	for (i = 0; holders[i] != NULL; i++)
		CHECK(field_placeholder(holders[i], strlen(holders[i])));
	CHECK(!field_placeholder("0", 1));
	CHECK(!field_placeholder("NA", 2));

	CHECK(mib("841 MiB", &v) == 1);
	CHECK_U64(v, 841);
	CHECK(mib("841", &v) == 1);
	CHECK(mib("841MiB", &v) == 1);
	CHECK(mib("10 MB", &v) == 1);
	CHECK_U64(v, 10);
	CHECK(mib("[N/A]", &v) == 0);
	CHECK(mib("4a", &v) == -1);
	CHECK(mib("4 GiB", &v) == -1);
	CHECK(mib("28.16", &v) == -1);
	CHECK(mib("4294967296", &v) == -1);
	CHECK(mib(" 4", &v) == -1);
	CHECK(field_uint("17", 2, &v) == 1);
	CHECK_U64(v, 17);
	CHECK(field_uint("-", 1, &v) == 0);
	CHECK(field_uint("1e3", 3, &v) == -1);

	n = field_split(line, ',', f, len, 8);
	CHECK_U64(n, 4);
	CHECK(len[0] == 23 && memcmp(f[0], "2024/06/01 11:27:15.361", 23) == 0);
	CHECK(len[1] == 11 && memcmp(f[1], "NVIDIA A100", 11) == 0);
	CHECK(len[2] == 5 && memcmp(f[2], "4 MiB", 5) == 0);
	CHECK(len[3] == 1 && f[3][0] == 'x');
	CHECK_U64(field_split(line, ',', f, len, 3), 4);

	{
		char row[] = "  0     439323     C      0 \t 10    demo    ";
		char blank[] = "   \t ";
		char *w[8];
		size_t wl[8];
		double d = 0;

		n = field_words(row, w, wl, 8);
		CHECK_U64(n, 6);
		CHECK(wl[0] == 1 && w[0][0] == '0');
		CHECK(wl[1] == 6 && memcmp(w[1], "439323", 6) == 0);
		CHECK(wl[5] == 4 && memcmp(w[5], "demo", 4) == 0);
		CHECK_U64(field_words(row, w, wl, 5), 6);
		CHECK_U64(field_words(blank, w, wl, 8), 0);

		CHECK(field_double("15109", 5, &d) == 1 && d == 15109.0);
		CHECK(field_double("2.690646016e+09", 15, &d) == 1 &&
		    d == 2690646016.0);
		CHECK(field_double("8.969000", 8, &d) == 1);
		CHECK(field_double("NaN", 3, &d) == 0);
		CHECK(field_double("N/A", 3, &d) == 0);
		CHECK(field_double("9223372036854775794", 19, &d) == 0);
		CHECK(field_double("140737488355328.0", 17, &d) == 0);
		CHECK(field_double("-1", 2, &d) == -1);
		CHECK(field_double("+Inf", 4, &d) == -1);
		CHECK(field_double("0x10", 4, &d) == -1);
		CHECK(field_double("1e", 2, &d) == -1);
		CHECK(field_double("", 0, &d) == 0);
	}
	TEST_END("field");
}
