/* SPDX-License-Identifier: ISC */
/*
 * transport.h: GMEM frames over UDP or TCP, for gpumem send.
 */
#ifndef GPUMEM_TRANSPORT_H
#define GPUMEM_TRANSPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "framer.h"

/* Frames made and not yet sent: back to back, and where each ends. */
struct queue {
	unsigned char *buf;
	size_t len, cap;
	struct qframe {
		size_t end;		/* offset just past it in buf */
		size_t nrec;
	} *f;
	size_t n, fcap;
	size_t done;		/* frames sent (or dropped) */
	size_t off;		/* TCP: bytes of buf written */
};

struct sender {
	const char *dest;	/* as given, for messages */
	int tcp;
	char *host, *port;	/* for getaddrinfo */
	int fd;			/* -1: no connection */
	int live;		/* frames go out per timestamp; drop when down */
	uint64_t retry_for;	/* ns */

	/* TCP, while there is no connection. */
	int was_up;		/* connected before: "reconnected" */
	uint64_t down_since;	/* monotonic ns */
	uint64_t next_try;
	uint64_t backoff;
	char why[160];		/* the last failure */
	uint64_t down_frames, down_recs;	/* dropped this time */
	int gave_up;

	struct queue q;
	struct framer fr;

	uint64_t frames, recs, bytes;		/* sent */
	uint64_t drop_frames, drop_recs;	/* dropped, in all */
	uint64_t refused;	/* UDP: ICMP port unreachable seen */
	int udp_errno;		/* UDP: the last error said */

	char *firsthost;	/* the first record's host */
	uint64_t otherhosts;	/* records of other hosts */
	char *otherhost;	/* the first of them */
};

extern volatile sig_atomic_t stop;

void parse_dest(struct sender *s, const char *dest);
void udp_open(struct sender *s);
int tcp_up(struct sender *s, int wait);
void queue_frame(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *frame, size_t len, size_t nrec);
void transmit(struct sender *s, int final);

#endif
