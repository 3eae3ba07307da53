/* SPDX-License-Identifier: ISC */
/*
 * bytes.h: bounds-checked reads of packet bytes.
 *
 * Captures are cut at random points (snapshot lengths, truncated files,
 * hostile input), so no parser reads packet bytes through a bare pointer.
 * A struct bytes is a read-only view of n bytes; every get_*() checks that
 * the field lies inside the view.  A read past the end returns 0 and sets
 * the view's `short_read' flag, so a parser can read a whole header and
 * check once, as tcpdump's GET_ macros let it (without the longjmp).
 *
 * The views never own their memory.
 */
#ifndef GPUMEM_BYTES_H
#define GPUMEM_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes {
	const unsigned char *p;
	size_t n;
	int short_read;		/* a get went past n */
};

static inline struct bytes
bytes_of(const void *p, size_t n)
{
	struct bytes b;

	b.p = p;
	b.n = n;
	b.short_read = 0;
	return b;
}

/* Whether len bytes at off lie inside b (no overflow for huge values). */
static inline int
bytes_has(const struct bytes *b, size_t off, size_t len)
{
	return off <= b->n && len <= b->n - off;
}

static inline int
bytes_check(struct bytes *b, size_t off, size_t len)
{
	if (bytes_has(b, off, len))
		return 1;
	b->short_read = 1;
	return 0;
}

/*
 * The sub-view of len bytes at off; an empty view (with short_read set on
 * b) when it does not fit.  len = SIZE_MAX means "to the end".
 */
static inline struct bytes
bytes_sub(struct bytes *b, size_t off, size_t len)
{
	if (len == SIZE_MAX && off <= b->n)
		len = b->n - off;
	if (!bytes_check(b, off, len))
		return bytes_of(b->p, 0);
	return bytes_of(b->p + off, len);
}

/* A pointer to len bytes at off, or NULL (short_read set). */
static inline const unsigned char *
get_ptr(struct bytes *b, size_t off, size_t len)
{
	return bytes_check(b, off, len) ? b->p + off : NULL;
}

static inline uint8_t
get_u8(struct bytes *b, size_t off)
{
	return bytes_check(b, off, 1) ? b->p[off] : 0;
}

/*
 * 16 and 32 bits in either byte order (big-endian when be), 0 past the
 * end.  Inlined with a constant be, the test folds away.
 */
static inline uint16_t
get_16(struct bytes *b, size_t off, int be)
{
	const unsigned char *p;

	if (!bytes_check(b, off, 2))
		return 0;
	p = b->p + off;
	return be ? (uint16_t)(p[0] << 8 | p[1]) :
	    (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t
get_32(struct bytes *b, size_t off, int be)
{
	const unsigned char *p;

	if (!bytes_check(b, off, 4))
		return 0;
	p = b->p + off;
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | p[0];
}

static inline uint16_t
get_be16(struct bytes *b, size_t off)
{
	return get_16(b, off, 1);
}

static inline uint32_t
get_be32(struct bytes *b, size_t off)
{
	return get_32(b, off, 1);
}

static inline uint64_t
get_be64(struct bytes *b, size_t off)
{
	uint64_t hi = get_be32(b, off), lo = get_be32(b, off + 4);

	return hi << 32 | lo;
}

static inline uint16_t
get_le16(struct bytes *b, size_t off)
{
	return get_16(b, off, 0);
}

static inline uint32_t
get_le32(struct bytes *b, size_t off)
{
	return get_32(b, off, 0);
}

/* Writers for our own buffers (the caller sized them). */
static inline void
put_be16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static inline void
put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static inline void
put_be64(unsigned char *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static inline void
put_le16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

#endif
