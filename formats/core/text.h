/* SPDX-License-Identifier: ISC */
/* text.h: UTF-8, and text from the input made safe for a terminal. */
#ifndef GPUMEM_TEXT_H
#define GPUMEM_TEXT_H

#include <stddef.h>

/*
 * The length of the valid UTF-8 sequence at p[0..n) (1 to 4), or 0 when
 * it is invalid (overlong, a surrogate, beyond U+10FFFF, cut short).
 */
size_t text_utf8_seq(const unsigned char *p, size_t n);

/*
 * The one sanitiser of text from the input (host and process names, file
 * names) on its way to a terminal, a message or a chart: copy s into buf
 * (cap bytes, at least 8) as valid UTF-8 without control characters, at
 * most maxchars characters (cut with "...").  C0 and C1 control
 * characters and DEL (ESC, CSI, OSC, BEL, line breaks) become spaces,
 * bytes that are not UTF-8 '?'.  msg() and its kin pass every message
 * through it.  Return buf.
 */
char *text_clean(const char *s, size_t maxchars, char *buf, size_t cap);

#endif
