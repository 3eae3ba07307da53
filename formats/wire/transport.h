/* SPDX-License-Identifier: ISC */
/*
 * transport.h: GMEM frames to a collector over UDP or TCP
 * (docs/wire-protocol.md), what gpumem send sends through.
 *
 * Frames are queued (transport_frame, a framer.h callback) and go out
 * when the caller says (transport_send).  UDP: a connected socket, one
 * frame per datagram (sendmmsg(2) sends a batch), nothing to lose but
 * datagrams; a collector that is not there (ICMP port unreachable) is
 * counted, not an error.  TCP: one connection, frames back to back.
 * When it breaks (the collector closed it, a write failed), it is made
 * again after 0 s, 0.1 s, then twice as long each time up to 5 s; with
 * `live' the frames queued meanwhile are dropped and counted (said when
 * the connection is back: the collector sees the gap in the sequence
 * numbers), without it sending waits.  After `retry_for' without a
 * connection the transport gives up (`gave_up'): what is queued then is
 * dropped.
 *
 * TCP: a frame written is not a frame the collector got.  What its host
 * acknowledged is known (SIOCOUTQ, the bytes written and not yet
 * acknowledged): read when a connection breaks, and at the end after a
 * wait of at most 5 s for the rest to be acknowledged (then the
 * connection is shut for writing).  Frames not acknowledged whole are lost (not sent again:
 * the collector may have part of them), counted in lost_*, not in the
 * sent counts.  Bytes the collector's host acknowledged and the
 * collector then did not read (it crashed) cannot be seen.
 *
 * Waits (connecting, backing off) end early when the caller's *stop
 * becomes non-zero (its signal handler sets it).  Messages name the
 * destination as given; what is said at the end, transport_report says.
 */
#ifndef GPUMEM_TRANSPORT_H
#define GPUMEM_TRANSPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "framer.h"

/* Frames queued and not yet sent: back to back, and where each ends. */
struct tqueue {
	unsigned char *buf;
	size_t len, cap;
	struct tframe {
		size_t end;		/* offset just past it in buf */
		size_t nrec;
	} *f;
	size_t n, fcap;
	size_t done;		/* frames sent (or dropped) */
	size_t off;		/* TCP: bytes of buf written */
};

/*
 * The caller sets live, retry_for and send_timeout after transport_init;
 * the rest is the transport's, to be read.
 */
struct transport {
	int live;		/* drop what cannot go now, else wait */
	uint64_t retry_for;	/* ns without a connection before giving up */
	uint64_t send_timeout;	/* TCP: ns a write may wait, then the
				   connection counts as broken (0: ever) */
	/* ---- */
	const char *dest;	/* as given, for messages */
	int tcp;
	char *host, *port;	/* for getaddrinfo */
	int fd;			/* -1: no connection */
	volatile sig_atomic_t *stop;

	/* TCP, while there is no connection. */
	int was_up;		/* connected before: "reconnected" */
	uint64_t down_since;	/* monotonic ns */
	uint64_t next_try;
	uint64_t backoff;
	char why[160];		/* the last failure */
	uint64_t down_frames, down_recs;	/* dropped this time */
	int gave_up;

	struct tqueue q;

	uint64_t frames, recs, bytes;		/* sent */
	uint64_t drop_frames, drop_recs;	/* dropped, in all */
	/* TCP: the whole frames written on this connection, oldest first. */
	struct tsent {
		uint64_t start, end;	/* offsets in the connection */
		size_t nrec;
	} *w;
	size_t nw, wcap;
	uint64_t w_end;		/* just past the last whole frame written */
	uint64_t conn_bytes;	/* bytes written on this connection */
	uint64_t lost_frames, lost_recs, lost_bytes;	/* not acknowledged */
	uint64_t lost_conns;	/* connections that lost frames */

	uint64_t refused;	/* UDP: ICMP port unreachable seen */
	int udp_errno;		/* UDP: the last error said */
};

/*
 * Set t up for DEST, udp://HOST[:PORT] or tcp://HOST[:PORT] (port
 * GMEM_PORT; HOST a name, an IPv4 address or an IPv6 one in brackets),
 * not connected yet; die() naming dest when it is none of these.  dest
 * and *stop must outlive t.
 */
void transport_init(struct transport *t, const char *dest,
    volatile sig_atomic_t *stop);

/*
 * Connect: UDP at once (die() when it cannot), TCP waiting and retrying
 * for retry_for (die() when it gives up).  Return 0, or -1 when *stop
 * became set while it waited.
 */
int transport_open(struct transport *t);

/*
 * The framer's emit callback (framer.h), arg a struct transport: queue a
 * copy of the frame.
 */
void transport_frame(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *frame, size_t len, size_t nrec);

/*
 * Send every queued frame, or drop it (above); final: the end of the
 * input, when a TCP sender waits for the connection even when live.
 * The queue is empty after.
 */
void transport_send(struct transport *t, int final);

/*
 * The end of sending (after the final transport_send): TCP, wait for the
 * collector to acknowledge what was written (at most 5 s), count what it
 * did not, and shut the connection for writing.
 */
void transport_finish(struct transport *t);

/*
 * Say what the end leaves to say: UDP refusals, frames dropped while a
 * connection was down, frames not acknowledged, giving up; with -v what was sent and dropped in
 * all.
 */
void transport_report(const struct transport *t);

/* Close the socket and free t's memory. */
void transport_release(struct transport *t);

#endif
