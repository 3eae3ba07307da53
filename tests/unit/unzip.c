/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: telling a compression by its magic number
 * (formats/core/unzip.c: unzip_sniff and unzip_unsure).  The bytes are
 * the formats' own specifications': gzip RFC 1952, zstd RFC 8878 (with
 * its skippable frames, magic 0x184D2A50 to 0x184D2A5F, little-endian),
 * the .xz file format 1.1.0, and bzip2's "BZh" and block size '1'-'9'.
 */
#include <stddef.h>

#include "test.h"
#include "unzip.h"

#define SNIFF(s) unzip_sniff((const unsigned char *)(s), sizeof(s) - 1)
#define UNSURE(s) unzip_unsure((const unsigned char *)(s), sizeof(s) - 1)

static int
is_none(const char *name)
{
	return name == NULL;
}

int
main(void)
{
	unsigned char skip[4] = { 0x50, 0x2a, 0x4d, 0x18 };
	int i;

	CHECK_STR(SNIFF("\x1f\x8b\x08\x00"), "gzip");
	CHECK_STR(SNIFF("\x28\xb5\x2f\xfd\x04"), "zstd");
	CHECK_STR(SNIFF("\xfd\x37\x7a\x58\x5a\x00\x00"), "xz");
	CHECK_STR(SNIFF("BZh91AY&SY"), "bzip2");
	CHECK_STR(SNIFF("BZh1"), "bzip2");
	/* Every skippable frame is zstd (pzstd starts its files with one). */
	for (i = 0; i < 16; i++) {
		skip[0] = (unsigned char)(0x50 + i);
		CHECK_STR(unzip_sniff(skip, 4), "zstd");
	}
	skip[0] = 0x60;
	CHECK(is_none(unzip_sniff(skip, 4)));
	skip[0] = 0x4f;
	CHECK(is_none(unzip_sniff(skip, 4)));
	/* "BZh" and no block size is text, as is "BZh0". */
	CHECK(is_none(SNIFF("BZhello")));
	CHECK(is_none(SNIFF("BZh0")));
	CHECK(is_none(SNIFF("BZh:")));
	CHECK(is_none(SNIFF("timestamp, index")));
	CHECK(is_none(SNIFF("\x1f\x8c")));
	CHECK(is_none(SNIFF("\xfd\x37\x7a\x58\x5a\x01")));
	/* Too short to tell: the magic number's start, and nothing. */
	CHECK(is_none(SNIFF("\x1f")));
	CHECK(is_none(SNIFF("BZh")));
	CHECK(UNSURE(""));
	CHECK(UNSURE("\x1f"));
	CHECK(UNSURE("\x28\xb5\x2f"));
	CHECK(UNSURE("\x5f\x2a"));
	CHECK(UNSURE("\xfd\x37\x7a\x58\x5a"));
	CHECK(UNSURE("B"));
	CHECK(UNSURE("BZh"));
	/* Enough to tell, or no magic number's start: read no further. */
	CHECK(!UNSURE("\x1f\x8b"));
	CHECK(!UNSURE("\x1f\x8c"));
	CHECK(!UNSURE("BZh9"));
	CHECK(!UNSURE("BZx"));
	CHECK(!UNSURE("t"));
	CHECK(!UNSURE("\x60\x2a"));
	CHECK(!UNSURE("\xfd\x37\x7a\x58\x5b"));
	TEST_END("unzip");
}
