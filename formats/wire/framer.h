/* SPDX-License-Identifier: ISC */
/*
 * framer.h: a record stream in time order becomes GMEM frames
 * (docs/wire-protocol.md).  gpumem pcap writes them into a capture,
 * gpumem send sends them over the network; both frame through this.
 *
 * The records of one GPU of one sender at one timestamp make one frame,
 * in their order of appearance, split only past `maxrec' records (what a
 * frame, 65535, or a UDP datagram, 3274, can hold: each piece is a frame
 * of its own with its own sequence number).  Sequence numbers count per
 * (sender, GPU), one per frame, from 0.  The framer holds the records of
 * the current timestamp and hands the frames, encoded, to the caller's
 * emit callback when a record with another timestamp comes, when too many
 * are held (FRAMER_BATCH_CAP), or when the caller flushes.
 *
 * GMEM cannot carry everything a record stream holds.  What it cannot is
 * framed as well as it can be and counted, for one warning at the end:
 * process names are dropped, a missing memory_used or memory_free goes as
 * 0, a frame has one memory_total (its first record's), and records of
 * GPUs above 65535 are dropped.
 */
#ifndef GPUMEM_FRAMER_H
#define GPUMEM_FRAMER_H

#include <stddef.h>
#include <stdint.h>

#include "gmem.h"
#include "hmap.h"
#include "rec.h"
#include "util.h"

#define FRAMER_KEYMAX 32		/* bytes of a sender key */
#define FRAMER_BATCH_CAP (1U << 20)	/* records held for one timestamp */
/* Records in a frame that fits a UDP datagram over IPv4 (65507 bytes). */
#define FRAMER_UDP_MAXREC ((65535 - 20 - 8 - GMEM_HDRLEN) / GMEM_RECLEN)

/* One GPU of one sender: its sequence numbers and held records. */
struct framer_gpu {
	unsigned char sender[FRAMER_KEYMAX];	/* the caller's key */
	size_t senderlen;
	uint16_t gpu;
	uint32_t seq;		/* the next frame's sequence number */
	uint64_t frames;	/* frames emitted */
	void *udata;		/* the caller's own state, NULL at first */
	struct framer_gpu *all;	/* the next, in order of first appearance */

	/* The framer's: the records of the current timestamp. */
	int inbatch;
	int ended;		/* its last frame is flagged */
	uint32_t total;
	struct gmem_rec *recs;
	size_t n, cap;
	struct framer_gpu *next;	/* in the batch */
};

/*
 * Called for each frame, in order: frame[0..len) is the encoded frame
 * (valid during the call only), nrec its records, ts their timestamp (for
 * the empty frames that end a stream, the latest timestamp framed).
 * g->seq has moved past the frame's number already.
 */
typedef void framer_emit_fn(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *frame, size_t len, size_t nrec);

struct framer {
	size_t maxrec;
	framer_emit_fn *emit;
	void *arg;

	struct hmap gpus;	/* sender key + gpu -> struct framer_gpu */
	struct framer_gpu *all, *alltail;
	size_t ngpus;
	struct framer_gpu *batch, *btail;
	size_t nbatch;
	uint64_t ts;		/* the held records' */
	uint64_t lastts;	/* the latest framed */
	unsigned char *frame;
	size_t framecap;

	uint64_t recs;		/* records framed */
	uint64_t frames;	/* frames emitted */
	/* What GMEM could not carry exactly. */
	uint64_t names, noused, nofree, totals, bigpu;
};

/*
 * Set up an empty framer: at most maxrec (1 to 65535) records a frame,
 * frames to emit(arg, ...).
 */
void framer_init(struct framer *f, size_t maxrec, framer_emit_fn *emit,
    void *arg);

/*
 * Frame r, from the sender named by key[0..klen) (klen <= FRAMER_KEYMAX;
 * any bytes the caller likes, the same for the same sender; NULL and 0
 * for a single sender).  Records must
 * come in time order.  Held records of an earlier timestamp are emitted
 * first.  Return 0, or -1 when r's GPU is above 65535 (dropped, counted;
 * key is not looked at then).
 */
int framer_add(struct framer *f, const struct rec *r, const void *key,
    size_t klen);

/* Emit the frames of the records held. */
void framer_flush(struct framer *f);

/*
 * The end of the stream: emit what is held.  With last, every GPU's last
 * frame carries the end-of-stream flag (GMEM_FLAG_LAST): the final frame
 * of a GPU whose records were held, else an empty frame after its last.
 */
void framer_end(struct framer *f, int last);

/*
 * Append to sb what could not be framed exactly, as one sentence: "records
 * GMEM cannot carry exactly, VERB as well as it can: 3 process names
 * dropped, ...".  Return 0 when there is nothing to say.
 */
int framer_inexact(const struct framer *f, const char *verb, struct sbuf *sb);

/*
 * Free the framer's memory; free_udata (unless NULL) is called on every
 * GPU's udata that is not NULL.
 */
void framer_release(struct framer *f, void (*free_udata)(void *));

#endif
