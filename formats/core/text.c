/* SPDX-License-Identifier: ISC */
/* text.c: UTF-8 and terminal-safe text. */
#include <stdint.h>
#include <string.h>

#include "util.h"

size_t
text_utf8_seq(const unsigned char *p, size_t n)
{
	uint32_t c;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond the last code point. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

/*
 * Whether the character at p (k bytes of valid UTF-8) is a control
 * character: C0, DEL, or C1 (U+0080 to U+009F, which some terminals
 * take as ESC sequences: U+009B is CSI).
 */
static int
is_control(const unsigned char *p, size_t k)
{
	if (k == 1)
		return p[0] < 0x20 || p[0] == 0x7f;
	return k == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

char *
text_clean(const char *s, size_t maxchars, char *buf, size_t cap)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0, chars = 0, k;

	if (cap < 8)
		BUG("text_clean: cap %zu", cap);
	while (n > 0) {
		k = text_utf8_seq(p, n);
		if (chars + 1 > maxchars || o + (k ? k : 1) + 4 > cap) {
			/* Cut: the last characters make room for "...". */
			while (chars + 3 > maxchars && o > 0) {
				do
					o--;
				while (o > 0 && (buf[o] & 0xc0) == 0x80);
				chars--;
			}
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (k == 0) {
			buf[o++] = '?';
			k = 1;
		} else if (is_control(p, k))
			buf[o++] = ' ';
		else {
			memcpy(buf + o, p, k);
			o += k;
		}
		p += k;
		n -= k;
		chars++;
	}
	buf[o] = '\0';
	return buf;
}
