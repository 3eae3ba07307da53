/* SPDX-License-Identifier: ISC */
/* gmem.c: GMEM frames (docs/wire-protocol.md): decode, encode, find in TCP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "gmem.h"
#include "util.h"

#define KEEPBUF (64U * 1024)	/* a stream keeps a buffer this big */

int
gmem_has_magic(const unsigned char *p, size_t n)
{
	return n >= 4 && p[0] == 'G' && p[1] == 'M' && p[2] == 'E' &&
	    p[3] == 'M';
}

int
gmem_hdr_decode(const unsigned char *p, size_t n, struct gmem_hdr *h,
    char *why)
{
	struct bytes b = bytes_of(p, n);

	if (n < GMEM_HDRLEN) {
		snprintf(why, GMEM_WHYSZ, "frame of %zu bytes is shorter than "
		    "the %d-byte header", n, GMEM_HDRLEN);
		return -1;
	}
	if (!gmem_has_magic(p, n)) {
		snprintf(why, GMEM_WHYSZ, "no GMEM magic");
		return -1;
	}
	h->version = get_u8(&b, 4);
	h->flags = get_u8(&b, 5);
	h->gpu = get_be16(&b, 6);
	h->seq = get_be32(&b, 8);
	h->count = get_be16(&b, 12);
	h->reserved = get_be16(&b, 14);
	h->total = get_be32(&b, 16);
	if (h->version != GMEM_VERSION) {
		snprintf(why, GMEM_WHYSZ, "version %u (expected %d)",
		    h->version, GMEM_VERSION);
		return -1;
	}
	if ((h->flags & ~GMEM_FLAG_LAST) != 0) {
		snprintf(why, GMEM_WHYSZ, "flags 0x%02x: reserved bits set",
		    h->flags);
		return -1;
	}
	if (h->reserved != 0) {
		snprintf(why, GMEM_WHYSZ, "reserved field 0x%04x is not 0",
		    h->reserved);
		return -1;
	}
	return 0;
}

int
gmem_frame_check(const unsigned char *p, size_t n, struct gmem_hdr *h,
    char *why)
{
	if (gmem_hdr_decode(p, n, h, why) < 0)
		return -1;
	if (n != gmem_frame_len(h)) {
		snprintf(why, GMEM_WHYSZ, "length %zu does not match count %u "
		    "(%zu bytes)", n, h->count, gmem_frame_len(h));
		return -1;
	}
	return 0;
}

void
gmem_rec_decode(const unsigned char *frame, size_t i, struct gmem_rec *r)
{
	struct bytes b = bytes_of(frame + GMEM_HDRLEN + GMEM_RECLEN * i,
	    GMEM_RECLEN);

	r->ts = get_be64(&b, 0);
	r->used = get_be32(&b, 8);
	r->free = get_be32(&b, 12);
	r->pid = get_be32(&b, 16);
}

void
gmem_hdr_encode(unsigned char *p, const struct gmem_hdr *h)
{
	memcpy(p, "GMEM", 4);
	p[4] = h->version;
	p[5] = h->flags;
	put_be16(p + 6, h->gpu);
	put_be32(p + 8, h->seq);
	put_be16(p + 12, h->count);
	put_be16(p + 14, h->reserved);
	put_be32(p + 16, h->total);
}

void
gmem_rec_encode(unsigned char *p, const struct gmem_rec *r)
{
	put_be64(p, r->ts);
	put_be32(p + 8, r->used);
	put_be32(p + 12, r->free);
	put_be32(p + 16, r->pid);
}

/* --- frames in a TCP byte stream --- */

void
gmem_stream_init(struct gmem_stream *g, int synced,
    struct gmem_budget *budget)
{
	memset(g, 0, sizeof(*g));
	g->synced = synced;
	g->budget = budget;
}

/* Make room for want bytes in buf; 0, or -1 when the budget says no. */
static int
reserve(struct gmem_stream *g, size_t want)
{
	size_t ncap;

	if (want <= g->cap)
		return 0;
	ncap = g->cap < 256 ? 256 : g->cap;
	while (ncap < want)
		ncap *= 2;
	if (g->budget != NULL) {
		/* A header always fits: the stream must see lengths. */
		if (ncap > 256 &&
		    g->budget->used - g->cap + ncap > g->budget->cap)
			return -1;
		g->budget->used = g->budget->used - g->cap + ncap;
	}
	g->buf = erealloc(g->buf, ncap);
	g->cap = ncap;
	return 0;
}

/* Give a big buffer back once it is empty: connections may be many. */
static void
shrink(struct gmem_stream *g)
{
	if (g->len == 0 && g->cap > KEEPBUF) {
		if (g->budget != NULL)
			g->budget->used -= g->cap;
		free(g->buf);
		g->buf = NULL;
		g->cap = 0;
	}
}

static void
drop_front(struct gmem_stream *g, size_t k)
{
	if (k == 0)
		return;		/* buf may be NULL: no pointer arithmetic on it */
	memmove(g->buf, g->buf + k, g->len - k);
	g->len -= k;
}

/* A header candidate at q: the checks pass on its 20 bytes. */
static int
candidate(const unsigned char *q)
{
	return q[0] == 'G' && q[1] == 'M' && q[2] == 'E' && q[3] == 'M' &&
	    q[4] == GMEM_VERSION && (q[5] & ~GMEM_FLAG_LAST) == 0 &&
	    q[14] == 0 && q[15] == 0;
}

/*
 * Search buf for a frame header.  Return 1 with buf starting at it, or 0
 * with buf cut to the bytes that may still begin one.
 */
static int
search(struct gmem_stream *g)
{
	size_t i = 0;
	const unsigned char *q;

	while (g->len >= GMEM_HDRLEN && i <= g->len - GMEM_HDRLEN) {
		q = memchr(g->buf + i, 'G', g->len - GMEM_HDRLEN + 1 - i);
		if (q == NULL) {
			i = g->len - GMEM_HDRLEN + 1;
			break;
		}
		i = (size_t)(q - g->buf);
		if (candidate(q)) {
			g->searched += i;
			drop_front(g, i);
			return 1;
		}
		i++;
	}
	g->searched += i;
	drop_front(g, i);
	return 0;
}

static int
append(struct gmem_stream *g, const unsigned char *p, size_t n)
{
	if (reserve(g, g->len + n) < 0)
		return -1;
	memcpy(g->buf + g->len, p, n);
	g->len += n;
	return 0;
}

void
gmem_stream_feed(struct gmem_stream *g, const unsigned char *p, size_t n,
    gmem_frame_fn *frame, gmem_bad_fn *bad, void *arg)
{
	struct gmem_hdr h;
	char why[GMEM_WHYSZ];
	size_t take, flen;

	for (;;) {
		if (g->skip > 0) {
			take = g->skip < n ? (size_t)g->skip : n;
			g->skip -= take;
			p += take;
			n -= take;
			if (g->skip > 0)
				return;
		}
		if (!g->synced) {
			/*
			 * Searching: only a few bytes stay in buf between
			 * calls, so the copy is bounded by what is fed.
			 */
			if (n > 0 && append(g, p, n) < 0) {
				/* Over the budget: search this chunk alone. */
				g->budget->dropped++;
				g->searched += g->len;
				g->len = 0;
				shrink(g);
				if (append(g, p, n) < 0) {
					g->searched += n;
					return;
				}
			}
			p += n;
			n = 0;
			if (!search(g)) {
				shrink(g);
				return;
			}
			g->synced = 1;
			g->need = 0;
		}
		if (g->len == 0) {
			/* The fast path: whole frames straight from p. */
			while (n >= GMEM_HDRLEN) {
				if (gmem_hdr_decode(p, n, &h, why) < 0) {
					g->bad++;
					bad(arg, p, why);
					g->synced = 0;
					g->searched++;
					p++;
					n--;
					break;
				}
				flen = gmem_frame_len(&h);
				if (n < flen)
					break;
				if (!g->found)
					g->first = g->searched;
				g->found = 1;
				g->frames++;
				frame(arg, p, flen, &h);
				p += flen;
				n -= flen;
			}
			if (!g->synced)
				continue;
			if (n == 0)
				return;
		}
		if (g->len < GMEM_HDRLEN) {
			take = GMEM_HDRLEN - g->len;
			if (take > n)
				take = n;
			if (append(g, p, take) < 0)
				BUG("a header does not fit the budget");
			p += take;
			n -= take;
			if (g->len < GMEM_HDRLEN)
				return;
		}
		if (g->need == 0) {
			if (gmem_hdr_decode(g->buf, g->len, &h, why) < 0) {
				g->bad++;
				bad(arg, g->buf, why);
				g->synced = 0;
				g->searched++;
				drop_front(g, 1);
				continue;
			}
			g->need = gmem_frame_len(&h);
			if (!g->found)
				g->first = g->searched;
			g->found = 1;
		}
		if (g->len < g->need) {
			take = g->need - g->len;
			if (take > n)
				take = n;
			if (append(g, p, take) < 0) {
				/* Too much held at once: drop this frame. */
				g->budget->dropped++;
				g->skip = g->need - g->len;
				g->len = 0;
				g->need = 0;
				shrink(g);
				continue;
			}
			p += take;
			n -= take;
			if (g->len < g->need)
				return;
		}
		flen = g->need;
		if (gmem_hdr_decode(g->buf, g->len, &h, why) < 0)
			BUG("a checked header fails: %s", why);
		g->frames++;
		frame(arg, g->buf, flen, &h);
		drop_front(g, flen);
		g->need = 0;
		shrink(g);
	}
}

void
gmem_stream_gap(struct gmem_stream *g, uint64_t lost)
{
	if (lost == 0)
		return;
	if (g->skip > 0) {
		if (lost < g->skip) {
			g->skip -= lost;
			return;
		}
		lost -= g->skip;
		g->skip = 0;
		if (lost == 0)
			return;		/* the gap ended where a frame starts */
		g->synced = 0;
		return;
	}
	if (!g->synced) {
		/* A header spanning the gap would be made up. */
		g->searched += g->len;
		g->len = 0;
		shrink(g);
		return;
	}
	if (g->len == 0) {
		/* The gap took the next header: where frames start is lost. */
		g->synced = 0;
		return;
	}
	g->cut++;
	if (g->need > 0 && g->len + lost <= g->need)
		g->skip = g->need - g->len - lost;
	else
		g->synced = 0;
	g->len = 0;
	g->need = 0;
	shrink(g);
}

void
gmem_stream_adopt(struct gmem_stream *g, struct gmem_stream *ahead)
{
	if (g->synced && (g->len > 0 || g->skip > 0))
		g->cut++;
	else if (!g->synced)
		g->searched += g->len;
	if (g->budget != NULL)
		g->budget->used -= g->cap;
	free(g->buf);
	g->buf = ahead->buf;
	g->len = ahead->len;
	g->cap = ahead->cap;
	g->need = ahead->need;
	g->skip = ahead->skip;
	g->synced = ahead->synced;
	g->found |= ahead->found;
	g->frames += ahead->frames;
	g->bad += ahead->bad;
	g->cut += ahead->cut;
	g->searched += ahead->searched;
	ahead->buf = NULL;
	ahead->len = ahead->cap = 0;
}

void
gmem_stream_end(struct gmem_stream *g)
{
	if (g->synced && g->len > 0)
		g->cut++;
	else if (g->skip == 0)
		g->searched += g->len;
	g->len = 0;
	g->need = 0;
	g->skip = 0;
}

void
gmem_stream_release(struct gmem_stream *g)
{
	if (g->budget != NULL)
		g->budget->used -= g->cap;
	free(g->buf);
	g->buf = NULL;
	g->cap = 0;
	g->len = 0;
}
