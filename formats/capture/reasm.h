/* SPDX-License-Identifier: ISC */
/*
 * reasm.h: IPv4/IPv6 fragment reassembly and TCP stream reassembly for
 * the capture reader, with memory bounded on hostile input.
 *
 * Fragments (RFC 791, RFC 8200 section 4.5) are kept per datagram, keyed
 * by (source, destination, protocol, id) for IPv4 and (source,
 * destination, id) for IPv6, and handed back whole once every byte is in.
 * Overlapping bytes keep the first copy seen (a retransmitted fragment is
 * harmless).  A datagram that is not complete after `timeout' of capture
 * time, or that the caps push out, is dropped and counted.
 *
 * TCP (RFC 9293) is reassembled per direction of a connection by sequence
 * number: in-order bytes are handed to the caller as they come;
 * retransmitted bytes are passed over; out-of-order segments wait (first
 * copy wins on overlap) until the hole before them fills.  A hole is
 * given up as lost (the caller is told how many bytes) when the other
 * side acknowledged past it (the receiver had the bytes, the capture
 * missed them), when it has waited `hole_timeout' of capture time or
 * `hole_packets' packets, when the caps on held bytes say so, or when the
 * connection ends.  Connections are tracked from their first packet; a
 * direction whose SYN was seen is read from its first byte.  Beyond
 * `max_conns' the least recently active connection is ended early.
 *
 * Times are nanoseconds of capture time, only compared with each other.
 *
 * One module, two files by job: ipreasm.c the fragments (ipreasm_*),
 * tcpreasm.c the TCP streams (tcpreasm_*); they share no state.
 */
#ifndef GPUMEM_REASM_H
#define GPUMEM_REASM_H

#include <stddef.h>
#include <stdint.h>

/* --- IP fragments --- */

struct ipfrag {
	int family;		/* 4 or 6 */
	const unsigned char *src, *dst;	/* 4 or 16 bytes */
	uint8_t proto;		/* IPv4: part of the key; IPv6: the next header */
	uint32_t id;
	uint32_t offset;	/* of data, in bytes */
	int more;		/* more fragments follow */
	const unsigned char *data;
	size_t len;		/* captured bytes of this fragment's data */
	size_t wirelen;		/* its length on the wire */
};

struct ipreasm_stats {
	uint64_t datagrams;	/* reassembled */
	uint64_t incomplete;	/* given up: timed out, at the end, at the cap */
	uint64_t capped;	/* of those, pushed out by the caps */
	uint64_t lostfrags;	/* fragments of the datagrams given up */
	uint64_t bad;		/* fragments no datagram can have */
	uint64_t dupfrags;	/* repeated fragments of datagrams completed */
};

struct ipreasm;

/* At most max_dgrams datagrams and max_bytes of data held at once. */
struct ipreasm *ipreasm_new(size_t max_dgrams, size_t max_bytes,
    uint64_t timeout);

/*
 * Add a fragment seen at time now.  Return 1 when it completes its
 * datagram: *out (valid until the next call) holds the payload of
 * *outlen bytes and *nfrags says how many fragments made it (*proto its
 * protocol, for IPv6 the next header of the first fragment); 0 when more
 * are needed, or when f repeats byte for byte a fragment of one of the
 * last 16 datagrams completed within the timeout (a duplicate, counted
 * in dupfrags); -1 when the fragment cannot belong to a datagram (beyond
 * 65535 bytes, contradicting the end, cut by the snapshot length; the
 * datagram is dropped).
 */
int ipreasm_add(struct ipreasm *r, const struct ipfrag *f, uint64_t now,
    const unsigned char **out, size_t *outlen, uint8_t *proto,
    unsigned *nfrags);

/* Give up every datagram still incomplete (the end of the capture). */
void ipreasm_flush(struct ipreasm *r);

/* The counts, kept current in place until ipreasm_free(). */
const struct ipreasm_stats *ipreasm_stats(const struct ipreasm *r);
void ipreasm_free(struct ipreasm *r);

/* --- TCP --- */

/* One direction of a connection, as the callbacks see it. */
struct tcpflow {
	int family;
	unsigned char src[16], dst[16];
	uint16_t sport, dport;
	int from_start;		/* the SYN was seen: read from the first byte */
	int ignore;		/* set by the caller: its bytes do not matter */
	uint64_t datapkts;	/* segments with payload seen so far */
	uint32_t seq;		/* of the first byte handed to data() or
				   lost in gap(), during the call */
	void *user;		/* the caller's state, NULL at first */
};

struct tcp_ops {
	/* The next n bytes of f's stream, in order. */
	void (*data)(void *arg, struct tcpflow *f, const unsigned char *p,
	    size_t n);
	/* The next `lost' bytes of f's stream will never come. */
	void (*gap)(void *arg, struct tcpflow *f, uint64_t lost);
	/* f is over (FIN, RST, pushed out, end of capture): free f->user. */
	void (*end)(void *arg, struct tcpflow *f);
	/*
	 * n bytes at sequence number seq that came after a hole and wait
	 * for it (the capture may never fill it): the caller may look at
	 * them now; data() hands them over again once the hole is filled
	 * or given up.  NULL: not wanted.
	 */
	void (*ahead)(void *arg, struct tcpflow *f, uint32_t seq,
	    const unsigned char *p, size_t n);
};

struct tcp_limits {
	size_t max_conns;	/* connections tracked at once */
	size_t max_held;	/* out-of-order bytes held, all connections */
	size_t max_held_flow;	/* out-of-order bytes held per direction */
				/* (each held segment counts its
				   bookkeeping too: ~32 bytes) */
	uint64_t hole_timeout;	/* capture time a hole may wait */
	uint64_t hole_packets;	/* packets a hole may wait */
};

struct tcpreasm_stats {
	uint64_t conns;		/* connections seen */
	uint64_t evicted;	/* ended early at max_conns */
	uint64_t lost;		/* bytes given up in holes */
	uint64_t holes;		/* holes given up */
	uint64_t capped;	/* of those, forced by max_held/max_held_flow */
	uint64_t dropped;	/* segment bytes dropped: no room at all */
	uint64_t retrans;	/* bytes seen again (retransmissions) */
};

struct tcpseg {
	int family;
	const unsigned char *src, *dst;	/* 4 or 16 bytes */
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;		/* TCP_SYN etc. (netlayers.h) */
	const unsigned char *data;
	size_t len;		/* captured payload bytes */
	size_t wirelen;		/* payload length on the wire */
};

struct tcpreasm;

struct tcpreasm *tcpreasm_new(const struct tcp_limits *lim,
    const struct tcp_ops *ops, void *arg);

/*
 * One segment, seen at capture time now; the callbacks run before it
 * returns.  Return 1 when it carried payload for a direction the caller
 * had already set to ignore, else 0.
 */
int tcpreasm_segment(struct tcpreasm *t, const struct tcpseg *s,
    uint64_t now);

/*
 * End every connection (the end of the capture): holes are lost, held
 * bytes delivered, the end callbacks called.
 */
void tcpreasm_flush(struct tcpreasm *t);

/* The counts, kept current in place until tcpreasm_free(). */
const struct tcpreasm_stats *tcpreasm_stats(const struct tcpreasm *t);
void tcpreasm_free(struct tcpreasm *t);

#endif
