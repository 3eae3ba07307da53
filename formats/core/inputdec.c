/* SPDX-License-Identifier: ISC */
/*
 * inputdec.c: the input's decoding layer (input.h), between its bytes
 * and its lines: UTF-16 (LE or BE, by its byte order mark or its NUL
 * bytes) decoded to UTF-8 as it streams, a UTF-8 byte order mark dropped,
 * NUL bytes at the start passed over and counted.  input.c reads the bytes
 * and the lines; inputint.h is what the two share.
 *
 * The UTF-16 decoder is a small one of our own rather than iconv(3): it
 * has to keep an odd byte or half a surrogate pair across reads, replace
 * what is not UTF-16 by U+FFFD instead of stopping, and work in a static
 * build without glibc's gconv modules; that is thirty lines here and more
 * than that around iconv's EINVAL/EILSEQ cases.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "inputint.h"
#include "util.h"

/* Append code point c to buf as UTF-8. */
static void
put_utf8(struct input *in, uint32_t c)
{
	unsigned char *o = in->buf + in->end;

	if (c < 0x80) {
		o[0] = (unsigned char)c;
		in->end += 1;
	} else if (c < 0x800) {
		o[0] = (unsigned char)(0xc0 | c >> 6);
		o[1] = (unsigned char)(0x80 | (c & 0x3f));
		in->end += 2;
	} else if (c < 0x10000) {
		o[0] = (unsigned char)(0xe0 | c >> 12);
		o[1] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (c & 0x3f));
		in->end += 3;
	} else {
		o[0] = (unsigned char)(0xf0 | c >> 18);
		o[1] = (unsigned char)(0x80 | (c >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (c & 0x3f));
		in->end += 4;
	}
}

/* The UTF-16 unit at p in the input's byte order. */
static uint32_t
unit16(const struct input *in, const unsigned char *p)
{
	return in->enc == ENC_UTF16LE ? (uint32_t)(p[0] | p[1] << 8) :
	    (uint32_t)(p[0] << 8 | p[1]);
}

/*
 * Decode UTF-16 into buf[end, BUFSZ), READSZ bytes at most (a character
 * may reach 3 bytes past BUFSZ: buf has room for it).  Return the bytes
 * produced; 0 = the end.
 * Half a pair waits for the next read; an unpaired surrogate or an odd
 * byte at the end is U+FFFD.
 */
size_t
input_u16_fill(struct input *in)
{
	size_t start = in->end, k;
	size_t stop = start + input_room(in);
	uint32_t c, lo;

	while (in->end < stop) {
		k = in->eend - in->epos;
		c = k >= 2 ? unit16(in, in->ebuf + in->epos) : 0;
		if (k >= 4 || (k >= 2 && (c < 0xd800 || c >= 0xdc00)) ||
		    (k >= 2 && in->eeof)) {
			in->epos += 2;
			if (c >= 0xd800 && c < 0xdc00 && k >= 4 &&
			    (lo = unit16(in, in->ebuf + in->epos)) >= 0xdc00 &&
			    lo < 0xe000) {
				in->epos += 2;
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
			} else if (c >= 0xd800 && c < 0xe000)
				c = 0xfffd;
			put_utf8(in, c);
			continue;
		}
		if (in->eeof) {
			if (k == 1)
				put_utf8(in, 0xfffd);
			in->epos = in->eend;
			break;
		}
		if (in->end > start)
			break;	/* give what came: a read might wait */
		memmove(in->ebuf, in->ebuf + in->epos, k);
		in->epos = 0;
		in->eend = k;
		k = input_low_fill(in, in->ebuf + k, in->ebufsz - k);
		if (k == 0)
			in->eeof = 1;
		in->eend += k;
	}
	return in->end - start;
}

/*
 * UTF-16 without a byte order mark, told by its NUL bytes: of the first
 * n bytes, taken in pairs, nine in ten of those not both NUL are an ASCII
 * character beside a NUL, on the same side, from the first pair on.
 */
static int
sniff_utf16(const unsigned char *p, size_t n)
{
	size_t i, le = 0, be = 0, other = 0;

	for (i = 0; i + 1 < n; i += 2)
		if (p[i] != 0 && p[i] < 0x80 && p[i + 1] == 0)
			le++;
		else if (p[i] == 0 && p[i + 1] != 0 && p[i + 1] < 0x80)
			be++;
		else if (p[i] != 0 || p[i + 1] != 0)
			other++;
	if (n >= 2 && p[1] == 0 && le >= 8 && le >= 9 * (le + be + other) / 10)
		return ENC_UTF16LE;
	if (n >= 2 && p[0] == 0 && be >= 8 && be >= 9 * (le + be + other) / 10)
		return ENC_UTF16BE;
	return ENC_BYTES;
}

/*
 * The decoding layer, set up on the first bytes: UTF-16 by its byte order
 * mark or its NUL bytes, then decoded; a UTF-8 byte order mark dropped;
 * NUL bytes at the start passed over (counted for the first line).  No
 * binary format gpumem reads starts with any of these.
 */
void
input_decode_setup(struct input *in)
{
	const unsigned char *p;
	size_t n, bom = 0;

	while (in->end - in->pos < 2 && input_fill(in) > 0)
		;
	p = in->buf + in->pos;
	n = in->end - in->pos;
	if (n >= 2 && p[0] == 0xff && p[1] == 0xfe) {
		in->enc = ENC_UTF16LE;
		bom = 2;
	} else if (n >= 2 && p[0] == 0xfe && p[1] == 0xff) {
		in->enc = ENC_UTF16BE;
		bom = 2;
	} else
		in->enc = sniff_utf16(p, n < SNIFF16 ? n : SNIFF16);
	if (in->enc != ENC_BYTES) {
		in->ebufsz = n > EBUFSZ ? n : EBUFSZ;
		in->ebuf = emalloc(in->ebufsz);
		memcpy(in->ebuf, p + bom, n - bom);
		in->epos = 0;
		in->eend = n - bom;
		in->eeof = in->eof;
		in->eof = 0;
		in->pos = in->end = 0;
	}
	while (in->end - in->pos < 3 && input_fill(in) > 0)
		;
	p = in->buf + in->pos;
	if (in->end - in->pos >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		in->pos += 3;
	in->pendnul = input_skip_nuls(in);
}
