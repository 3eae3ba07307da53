/* SPDX-License-Identifier: ISC */
/* sbuf.c: growable byte buffers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
sbuf_grow_slow(struct sbuf *sb, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - sb->len - 1)
		die("out of memory");
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return;
	if (sb->cap < 64)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap = sb->cap > SIZE_MAX / 2 ? need : sb->cap * 2;
	sb->buf = erealloc(sb->buf, sb->cap);
}

/* Measure, grow, print: the one place text is formatted into an sbuf. */
void
sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		BUG("vsnprintf failed");
	sbuf_grow(sb, (size_t)n);
	va_copy(aq, ap);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, aq);
	va_end(aq);
	sb->len += (size_t)n;
}

void
sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

void
sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf != NULL)
		sb->buf[0] = '\0';
}

void
sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
