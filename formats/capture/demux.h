/* SPDX-License-Identifier: ISC */
/*
 * demux.h: a captured packet taken apart layer by layer (netlayers.h):
 * IP fragments put back together, UDP datagrams and TCP segments (to
 * flows.h through reasm.h) to GMEM frames, and each checked frame into
 * records (seqtrack.h drops duplicates).  What is not GMEM is counted.
 */
#ifndef GPUMEM_DEMUX_H
#define GPUMEM_DEMUX_H

#include <stddef.h>
#include <stdint.h>

#include "gmem.h"
#include "sbuf.h"

struct capture;

/* One packet of the given LINKTYPE_, caplen bytes captured. */
void cap_packet(struct capture *, int, const unsigned char *, size_t);
/*
 * A frame that passed the checks, from the sender at addr and port
 * (family, address, source port; the records' host is the address); its
 * records go to source_emit_late() while c->late says it fills a TCP
 * hole.  Their clock is the stream of (address, port, GPU): a step back
 * is judged among its frames only (source_stream()), and a sender that
 * starts afresh (its last frame flagged, or its sequence numbered anew)
 * starts a new stream.
 */
#define STREAMKEY 22		/* 0, family, address, port, gpu */
void cap_frame(struct capture *, int, const unsigned char *, uint16_t,
    const unsigned char *, const struct gmem_hdr *);
/* Count n packets that carried no GMEM frame. */
void cap_nongmem(struct capture *, uint64_t);
/* A problem with the current packet, said with its position. */
void cap_bad(struct capture *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
/* The position of the current packet: "packet N (offset 0x...)". */
void cap_where(void *, struct sbuf *);

#endif
