/* SPDX-License-Identifier: ISC */
/*
 * gmem.h: the GMEM frame codec (docs/wire-protocol.md), shared by the
 * capture reader, the capture writer and anything that sends frames.
 *
 * A frame is a 20-byte header and `count' 20-byte records, all integers
 * big-endian.  Decoding never trusts the input: every read goes through
 * bytes.h, and a header that fails the spec's checks comes back with a
 * reason for the message ("version 2 (expected 1)").
 *
 * struct gmem_stream finds frames in a TCP byte stream, where they come
 * back to back, split across segments or several to a segment, and where a
 * gap in the capture may cut one: the parser then passes over the rest of
 * the frame when it knows its length, else searches for the next header.
 */
#ifndef GPUMEM_GMEM_H
#define GPUMEM_GMEM_H

#include <stddef.h>
#include <stdint.h>

#define GMEM_VERSION 1
#define GMEM_HDRLEN 20
#define GMEM_RECLEN 20
#define GMEM_MAXCOUNT 65535U
#define GMEM_MAXFRAME (GMEM_HDRLEN + GMEM_RECLEN * GMEM_MAXCOUNT)
#define GMEM_PORT 9717
#define GMEM_FLAG_LAST 0x01	/* last frame of the sender's stream */

#define GMEM_WHYSZ 96		/* room for a reason */

struct gmem_hdr {
	uint8_t version;
	uint8_t flags;
	uint16_t gpu;
	uint32_t seq;
	uint16_t count;
	uint16_t reserved;
	uint32_t total;		/* memory_total, MiB; 0 = unknown */
};

struct gmem_rec {
	uint64_t ts;		/* ns since the epoch */
	uint32_t used;		/* MiB */
	uint32_t free;		/* MiB */
	uint32_t pid;		/* 0 = the whole device */
};

/* Whether p[0..n) starts with the magic "GMEM" (n < 4: no). */
int gmem_has_magic(const unsigned char *p, size_t n);

/* The length of the frame h describes: 20 + 20 * count. */
static inline size_t
gmem_frame_len(const struct gmem_hdr *h)
{
	return GMEM_HDRLEN + (size_t)GMEM_RECLEN * h->count;
}

/*
 * Decode the header at the start of p[0..n).  Return 0, or -1 with a
 * reason in why (GMEM_WHYSZ bytes) when n is under 20 or the header fails
 * the spec's checks: magic, version 1, no flag but bit 0, reserved 0.  The
 * length is not checked (see gmem_frame_check).
 */
int gmem_hdr_decode(const unsigned char *p, size_t n, struct gmem_hdr *h,
    char *why);

/*
 * Check that p[0..n) is exactly one valid frame (a UDP payload).  Return
 * 0 with *h filled, or -1 with a reason in why.
 */
int gmem_frame_check(const unsigned char *p, size_t n, struct gmem_hdr *h,
    char *why);

/* Record i of a frame that passed the checks. */
void gmem_rec_decode(const unsigned char *frame, size_t i,
    struct gmem_rec *r);

/* Encode into p (20 bytes each). */
void gmem_hdr_encode(unsigned char *p, const struct gmem_hdr *h);
void gmem_rec_encode(unsigned char *p, const struct gmem_rec *r);

/*
 * Memory shared by all streams of one reader: partial frames are held in
 * buffers of up to GMEM_MAXFRAME bytes, so many connections could hold a
 * lot.  A frame that would take the total over cap is dropped (counted in
 * `dropped'); the stream passes over its bytes and stays in step.
 */
struct gmem_budget {
	size_t used, cap;
	uint64_t dropped;
};

/* Called for each whole frame found; p is valid during the call only. */
typedef void gmem_frame_fn(void *arg, const unsigned char *p, size_t n,
    const struct gmem_hdr *h);
/*
 * Called for a header that fails the checks (the parser then searches
 * for the next one); hdr holds its 20 bytes.
 */
typedef void gmem_bad_fn(void *arg, const unsigned char *hdr,
    const char *why);

struct gmem_stream {
	unsigned char *buf;	/* a partial frame, or bytes being searched */
	size_t len, cap;
	size_t need;		/* length of the frame in buf, 0 = unknown */
	uint64_t skip;		/* bytes to pass over: a frame a gap cut */
	int synced;		/* the next byte starts or continues buf's frame */
	int found;		/* a valid header was ever seen */
	struct gmem_budget *budget;

	uint64_t frames;	/* whole frames delivered */
	uint64_t bad;		/* headers that failed the checks */
	uint64_t cut;		/* frames a gap (or the end) cut */
	uint64_t searched;	/* bytes passed over looking for a header */
	uint64_t first;		/* of those, before the first valid header */
};

/*
 * Start a stream.  synced: the stream is read from its first byte (the
 * connection's SYN was seen), so a frame starts there; else frames are
 * searched for.  budget may be NULL (no limit).
 */
void gmem_stream_init(struct gmem_stream *g, int synced,
    struct gmem_budget *budget);

/* Feed the next n bytes of the stream, in order. */
void gmem_stream_feed(struct gmem_stream *g, const unsigned char *p,
    size_t n, gmem_frame_fn *frame, gmem_bad_fn *bad, void *arg);

/*
 * The next `lost' bytes of the stream will never come: the frame they cut
 * is dropped (counted in `cut').  When its length was known the parser
 * passes over the rest of it and stays in step; else it searches for the
 * next header.
 */
void gmem_stream_gap(struct gmem_stream *g, uint64_t lost);

/*
 * Continue g from where `ahead' is: ahead parsed the bytes that follow
 * from some point on (after a hole, before it was filled or given up) and
 * delivered its frames; g stops where ahead started.  A partial frame of
 * g is dropped (counted in `cut'); ahead's state (its partial frame, its
 * search) becomes g's and ahead's counters are added to g's.  ahead is
 * left empty, to be initialised again before use.
 */
void gmem_stream_adopt(struct gmem_stream *g, struct gmem_stream *ahead);

/* The stream ended: a partial frame is dropped and counted in `cut'. */
void gmem_stream_end(struct gmem_stream *g);

/* Free the buffer (the counters stay). */
void gmem_stream_release(struct gmem_stream *g);

#endif
