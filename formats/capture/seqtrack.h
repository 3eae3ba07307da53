/* SPDX-License-Identifier: ISC */
/*
 * seqtrack.h: the sequence numbers of each (sender, gpu): gaps count
 * frames lost (a late frame fills its gap again, however far behind:
 * the frames of a TCP segment that fills a hole after the segments
 * behind it were read), a number seen again with the same content is a
 * duplicate (dropped), with other content a restart.  At most MAX_SEQS
 * pairs are followed; the frames of others go unchecked and are
 * counted.
 */
#ifndef GPUMEM_SEQTRACK_H
#define GPUMEM_SEQTRACK_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

struct capture;
struct rclock;

#define SEQ_WINDOW 64		/* recent sequence numbers remembered */
#define SEQ_GAPS 16		/* gaps remembered, the latest (seqst.gap) */

/* Sequence numbers lo to lo + n - 1 (modulo 2^32), counted lost. */
struct seqgap {
	uint32_t lo, n;
};

/* Sequence numbers of one (sender, gpu). */
struct seqst {
	char host[INET6_ADDRSTRLEN];
	uint16_t gpu;
	size_t order;		/* of first appearance */
	int have;
	uint32_t last;		/* highest sequence number seen */
	uint64_t seen;		/* bit i: last - i was seen */
	/*
	 * A digest of the frame seen with each recent number: a repeated
	 * number with the same content is a duplicate (a datagram captured
	 * twice); with other content, the sender counts anew (it
	 * restarted).
	 */
	uint64_t digest[SEQ_WINDOW];
	/*
	 * The gaps counted as lost, in the order they were made (a gap a
	 * late frame splits goes on as two, its upper part last): a frame
	 * that comes later with a number in one (further back than
	 * SEQ_WINDOW too) is late, not lost, and not a restart.  Past
	 * SEQ_GAPS the first is forgotten (its frames, should they come
	 * later than the window, stay counted lost and are a restart).
	 */
	struct seqgap gap[SEQ_GAPS];
	unsigned ngap;
	/* The clocks of its last frame's stream (source_stream()), its port. */
	struct rclock *clk;
	uint16_t clkport;
	uint64_t lost, dups, restarts;
};

#define SEQKEY 19		/* family, address, gpu */
#define NSEQCACHE 32

/* A sender/GPU pair looked up lately. */
struct seqcache {
	unsigned char key[SEQKEY];
	struct seqst *q;
};

/* The state of (family, addr, gpu), made at first sight; NULL past the cap. */
struct seqst *seq_of(struct capture *, int, const unsigned char *, uint16_t);
/* 1 when the frame numbered seq (digest of its bytes) is new, 0 a duplicate. */
int seq_check(struct capture *, struct seqst *, uint32_t, uint64_t);
/* hmap_release's callback for the pairs. */
void seq_free(void *);

#endif
