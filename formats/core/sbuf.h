/* SPDX-License-Identifier: ISC */
/* sbuf.h: a growable byte buffer. */
#ifndef GPUMEM_SBUF_H
#define GPUMEM_SBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/*
 * A growable byte buffer.  buf is always NUL-terminated (when cap > 0);
 * len does not count the NUL.
 */
struct sbuf {
	char *buf;
	size_t len, cap;
};
#define SBUF_INIT { NULL, 0, 0 }
void sbuf_grow_slow(struct sbuf *sb, size_t extra);

/* Room for extra more bytes (and the NUL). */
static inline void
sbuf_grow(struct sbuf *sb, size_t extra)
{
	if (extra >= sb->cap - sb->len || sb->cap == 0)
		sbuf_grow_slow(sb, extra);
}

static inline void
sbuf_add(struct sbuf *sb, const void *p, size_t n)
{
	sbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/*
 * to becomes a buffer of its own holding from's bytes (what to held is
 * not freed: a struct copied whole, whose buffers are another's).
 */
static inline void
sbuf_copy(struct sbuf *to, const struct sbuf *from)
{
	to->buf = NULL;
	to->len = to->cap = 0;
	if (from->len > 0)
		sbuf_add(to, from->buf, from->len);
}

static inline void
sbuf_addc(struct sbuf *sb, int c)
{
	sbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

static inline void
sbuf_adds(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}
/*
 * Append the formatted text.  sbuf_vprintf leaves ap as it found it (it
 * works on copies), so a caller may use ap again.
 */
void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void sbuf_reset(struct sbuf *sb);

/* Make sb hold exactly p[0..n) (a copy, NUL-terminated). */
static inline void
sbuf_set(struct sbuf *sb, const void *p, size_t n)
{
	if (n + 1 > sb->cap) {
		sb->len = 0;
		sbuf_grow(sb, n);
	}
	if (n > 0)
		memcpy(sb->buf, p, n);
	sb->buf[n] = '\0';
	sb->len = n;
}
void sbuf_release(struct sbuf *sb);

#endif
