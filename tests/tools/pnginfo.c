/* SPDX-License-Identifier: ISC */
/*
 * pnginfo.c: check that a file is a valid PNG and say what it shows, for
 * the chart tests (a picture must be a real picture, not a file whose name
 * ends in .png).
 *
 *	pnginfo FILE
 *
 * Checks the signature, that IHDR comes first, every chunk's CRC, that
 * IEND ends the file, and decodes the image (8-bit grey, grey+alpha, RGB
 * or RGBA, not interlaced: what cairo and Chromium write), undoing the
 * row filters.  Prints "WIDTH HEIGHT COLOURS", COLOURS being the number of
 * distinct pixel values (counted up to 1000): 1 means a blank picture.
 * Exit 0, or 1 with a reason on stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAXCOLOURS 1000
#define NSLOTS 4096		/* more than MAXCOLOURS: the set never fills */

static int
fail(const char *why)
{
	fprintf(stderr, "pnginfo: %s\n", why);
	return 1;
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static int
paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	if (pa <= pb && pa <= pc)
		return a;
	return pb <= pc ? b : c;
}

int
main(int argc, char *argv[])
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n',
	    0x1a, '\n'};
	unsigned char *buf = NULL, *z = NULL, *raw, *prev, *row;
	static uint32_t colours[NSLOTS];
	uint32_t w = 0, h = 0;
	size_t len = 0, cap = 0, zlen = 0, off, bpp, stride, ncol = 0, x, y;
	int depth = 0, ctype = 0, ilace = 0, seen_ihdr = 0, seen_iend = 0;
	FILE *f;
	uLongf rawlen;

	if (argc != 2) {
		fprintf(stderr, "usage: pnginfo FILE\n");
		return 2;
	}
	if ((f = fopen(argv[1], "rb")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (buf == NULL)
				return fail("out of memory");
		}
		n = fread(buf + len, 1, cap - len, f);
		if (n == 0)
			break;
		len += n;
	}
	fclose(f);
	if (len < 8 || memcmp(buf, sig, 8) != 0)
		return fail("no PNG signature");
	for (off = 8; off < len && !seen_iend;) {
		uint32_t clen, crc;
		const unsigned char *type, *data;

		if (len - off < 12)
			return fail("truncated chunk");
		clen = be32(buf + off);
		if (clen > len - off - 12)
			return fail("chunk longer than the file");
		type = buf + off + 4;
		data = type + 4;
		crc = (uint32_t)crc32(0, type, clen + 4);
		if (crc != be32(data + clen))
			return fail("bad chunk CRC");
		if (!seen_ihdr && memcmp(type, "IHDR", 4) != 0)
			return fail("IHDR is not the first chunk");
		if (memcmp(type, "IHDR", 4) == 0) {
			if (clen != 13 || seen_ihdr)
				return fail("bad IHDR");
			w = be32(data);
			h = be32(data + 4);
			depth = data[8];
			ctype = data[9];
			ilace = data[12];
			seen_ihdr = 1;
		} else if (memcmp(type, "IDAT", 4) == 0) {
			z = realloc(z, zlen + clen + 1);
			if (z == NULL)
				return fail("out of memory");
			memcpy(z + zlen, data, clen);
			zlen += clen;
		} else if (memcmp(type, "IEND", 4) == 0)
			seen_iend = 1;
		off += 12 + clen;
	}
	if (!seen_iend || off != len)
		return fail("IEND missing or not at the end");
	if (w == 0 || h == 0 || w > 30000 || h > 30000)
		return fail("bad size");
	if (depth != 8 || ilace != 0)
		return fail("only 8-bit, non-interlaced images are decoded");
	switch (ctype) {
	case 0:
		bpp = 1;
		break;
	case 2:
		bpp = 3;
		break;
	case 4:
		bpp = 2;
		break;
	case 6:
		bpp = 4;
		break;
	default:
		return fail("colour type not decoded (palette?)");
	}
	stride = (size_t)w * bpp;
	rawlen = (uLongf)((stride + 1) * h);
	raw = malloc(rawlen + 1);
	prev = calloc(stride, 1);
	if (raw == NULL || prev == NULL)
		return fail("out of memory");
	if (uncompress(raw, &rawlen, z, (uLong)zlen) != Z_OK ||
	    rawlen != (stride + 1) * h)
		return fail("image data do not decompress to the image size");
	for (y = 0; y < h; y++) {
		int ft = raw[y * (stride + 1)];

		row = raw + y * (stride + 1) + 1;
		for (x = 0; x < stride; x++) {
			int a = x >= bpp ? row[x - bpp] : 0, b = prev[x];
			int c = x >= bpp ? prev[x - bpp] : 0, v;

			switch (ft) {
			case 0:
				v = row[x];
				break;
			case 1:
				v = row[x] + a;
				break;
			case 2:
				v = row[x] + b;
				break;
			case 3:
				v = row[x] + (a + b) / 2;
				break;
			case 4:
				v = row[x] + paeth(a, b, c);
				break;
			default:
				return fail("bad row filter");
			}
			row[x] = (unsigned char)v;
		}
		for (x = 0; x < w && ncol < MAXCOLOURS; x++) {
			uint32_t px = 0;
			size_t k;

			for (k = 0; k < bpp; k++)
				px = px << 8 | row[x * bpp + k];
			/* An open-addressing set: slot 0 means empty. */
			px++;
			for (k = (px * 2654435761U) % NSLOTS; colours[k] != 0 &&
			    colours[k] != px; k = (k + 1) % NSLOTS)
				;
			if (colours[k] == 0) {
				colours[k] = px;
				ncol++;
			}
		}
		memcpy(prev, row, stride);
	}
	printf("%u %u %zu\n", w, h, ncol);
	free(raw);
	free(prev);
	free(z);
	free(buf);
	return 0;
}
