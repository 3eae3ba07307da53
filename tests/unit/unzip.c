/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: telling a compression by its magic number
 * (formats/core/unzip.c: unzip_sniff and unzip_unsure).  The bytes are
 * the formats' own specifications': gzip RFC 1952, zstd RFC 8878 (with
 * its skippable frames, magic 0x184D2A50 to 0x184D2A5F, little-endian),
 * the .xz file format 1.1.0, and bzip2's "BZh" and block size '1'-'9'.
 * The budget of memory all decoders share (unzip_set_budget), with a zstd
 * frame made by hand after RFC 8878: an empty frame that asks for a
 * window of 2^27 bytes.
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

/*
 * Magic; frame header descriptor 0 (no content size, multiple segments);
 * window descriptor 0x88 (exponent 17: 2^(10+17) bytes); one block, the
 * last, raw, empty.
 */
static const unsigned char win27[] = {
	0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x88, 0x01, 0x00, 0x00
};

/* One step of z over the first n bytes of win27: unzip_step's result,
 * with the bytes it used in *used. */
static int
step27(struct unzip *z, size_t n, size_t *used)
{
	unsigned char out[16];
	size_t made = sizeof(out);

	*used = n;
	return unzip_step(z, win27, used, out, &made, 0);
}

static void
budget(void)
{
	struct unzip *a, *b, *c;
	size_t used;

	unzip_set_budget(200);
	a = unzip_new("zstd");
	b = unzip_new("zstd");
	/* A header cut short: nothing used, more asked for. */
	CHECK(step27(a, 5, &used) == 0);
	CHECK_U64(used, 0);
	CHECK(step27(a, sizeof(win27), &used) == 1);
	CHECK_U64(used, sizeof(win27));
	/* 129 MiB held by a: b's 129 do not fit in 200. */
	CHECK(step27(b, sizeof(win27), &used) == -1);
	CHECK_STR(unzip_error(b), "zstd data near byte 0 needs 129 MiB to "
	    "decompress, over the budget of 200 MiB (129 MiB held by other "
	    "inputs); --mem-budget raises it");
	/* a's frames are over; it holds the budget until it is freed. */
	CHECK(step27(b, sizeof(win27), &used) == -1);
	unzip_free(a);
	CHECK(step27(b, sizeof(win27), &used) == 1);
	/* Another frame of the same decoder: held already. */
	c = unzip_new("zstd");
	CHECK(step27(c, sizeof(win27), &used) == -1);
	CHECK(step27(b, sizeof(win27), &used) == 1);
	unzip_free(b);
	CHECK(step27(c, sizeof(win27), &used) == 1);
	unzip_free(c);
	/* Alone, over the budget: no other input named. */
	unzip_set_budget(100);
	a = unzip_new("zstd");
	CHECK(step27(a, sizeof(win27), &used) == -1);
	CHECK_STR(unzip_error(a), "zstd data near byte 0 needs 129 MiB to "
	    "decompress, over the budget of 100 MiB; --mem-budget raises it");
	unzip_free(a);
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
	budget();
	TEST_END("unzip");
}
