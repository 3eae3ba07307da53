/* SPDX-License-Identifier: ISC */
/*
 * flows.c: the GMEM stream of each TCP direction (see flows.h).
 */
#include <arpa/inet.h>
#include <stdlib.h>

#include "capstate.h"
#include "demux.h"
#include "flows.h"

/* A stream joined in its middle is searched this far for a frame. */
#define SEARCH_LIMIT (GMEM_MAXFRAME + GMEM_HDRLEN)

/* b - a for TCP sequence numbers, modulo 2^32. */
#define SEQ_DIFF(b, a) ((int32_t)((uint32_t)(b) - (uint32_t)(a)))

/* One direction of a TCP connection that carried bytes. */
struct flowst {
	struct gmem_stream gs;
	uint64_t lost;		/* bytes lost to holes */
	int notgmem;		/* its first header had no magic */
	/*
	 * After a hole, the bytes that wait behind it are parsed at once
	 * (the capture may never fill it, and their records must not come
	 * later than the reorder window allows): `ahead' reads them from
	 * a_start (searching for a header) to a_end.  When the stream
	 * reaches the first header ahead found, ahead's state becomes the
	 * stream's and the bytes it read are passed over (skip_to).
	 */
	struct gmem_stream ahead;
	int ahead_on, skipping;
	uint32_t a_start, a_end, skip_to;
};

/* --- TCP --- */

static struct flowst *
flow_state(struct capture *c, struct tcpflow *f)
{
	struct flowst *st = f->user;

	if (st == NULL) {
		st = ecalloc(1, sizeof(*st));
		gmem_stream_init(&st->gs, f->from_start, &c->budget);
		f->user = st;
	}
	return st;
}

static void
tcp_frame(void *arg, const unsigned char *p, size_t n,
    const struct gmem_hdr *h)
{
	struct capture *c = arg;

	(void)n;
	cap_frame(c, c->flow->family, c->flow->src, c->flow->sport, p, h);
}

static void
tcp_bad(void *arg, const unsigned char *hdr, const char *why)
{
	struct capture *c = arg;
	struct tcpflow *f = c->flow;
	struct flowst *st = f->user;
	char a[INET6_ADDRSTRLEN];

	if (!st->gs.found && !gmem_has_magic(hdr, GMEM_HDRLEN)) {
		st->notgmem = 1;	/* another protocol from the start */
		return;
	}
	inet_ntop(f->family == 4 ? AF_INET : AF_INET6, f->src, a, sizeof(a));
	cap_bad(c, "malformed GMEM frame in the TCP stream from %s port %u: %s",
	    a, f->sport, why);
}

static void
ahead_off(struct flowst *st)
{
	if (st->ahead_on)
		gmem_stream_release(&st->ahead);
	st->ahead_on = 0;
}

/* Not GMEM: stop looking at this direction. */
static void
flow_drop(struct capture *c, struct tcpflow *f)
{
	struct flowst *st = f->user;

	cap_nongmem(c, f->datapkts);
	ahead_off(st);
	gmem_stream_release(&st->gs);
	free(st);
	f->user = NULL;
	f->ignore = 1;
}

/* Feed n bytes of f's stream to its parser. */
static void
flow_feed(struct capture *c, struct tcpflow *f, struct flowst *st,
    const unsigned char *p, size_t n)
{
	c->flow = f;
	/*
	 * Bytes in front of those ahead has read frames from fill a hole:
	 * their frames come after frames that follow them (not a clock
	 * that steps back).
	 */
	c->late = st->ahead_on && st->ahead.frames > 0;
	gmem_stream_feed(&st->gs, p, n, tcp_frame, tcp_bad, c);
	c->late = 0;
	if (!st->gs.found && (st->notgmem || st->gs.searched > SEARCH_LIMIT))
		flow_drop(c, f);
}

/* Bytes after a hole: parse them now, as far as they run on. */
static void
tcp_ahead(void *arg, struct tcpflow *f, uint32_t seq, const unsigned char *p,
    size_t n)
{
	struct capture *c = arg;
	struct flowst *st = flow_state(c, f);
	uint32_t off;

	if (!st->ahead_on) {
		gmem_stream_init(&st->ahead, 0, &c->budget);
		st->ahead_on = 1;
		st->a_start = st->a_end = seq;
	}
	/* Only what continues the bytes it has (a second hole waits). */
	if (SEQ_DIFF(seq, st->a_start) < 0 || SEQ_DIFF(seq, st->a_end) > 0 ||
	    SEQ_DIFF(seq + (uint32_t)n, st->a_end) <= 0)
		return;
	off = st->a_end - seq;
	st->a_end = seq + (uint32_t)n;
	c->flow = f;
	gmem_stream_feed(&st->ahead, p + off, n - off, tcp_frame, tcp_bad, c);
}

static void
tcp_data(void *arg, struct tcpflow *f, const unsigned char *p, size_t n)
{
	struct capture *c = arg;
	struct flowst *st = flow_state(c, f);
	uint32_t s = f->seq, r;
	size_t k;

	if (st->skipping) {
		/* What ahead has read already. */
		k = SEQ_DIFF(st->skip_to, s) > 0 ? st->skip_to - s : 0;
		if (k >= n) {
			st->skipping = k > n;
			return;
		}
		st->skipping = 0;
		p += k;
		n -= k;
		s += (uint32_t)k;
	}
	if (st->ahead_on && st->ahead.found) {
		/* The stream reaches the first frame ahead found: ahead on. */
		r = st->a_start + (uint32_t)st->ahead.first;
		k = SEQ_DIFF(r, s) > 0 ? r - s : 0;
		if (k <= n) {
			flow_feed(c, f, st, p, k);
			if (f->user == NULL)
				return;		/* not GMEM after all */
			gmem_stream_adopt(&st->gs, &st->ahead);
			st->ahead_on = 0;
			st->skipping = 1;
			st->skip_to = st->a_end;
			f->seq = s + (uint32_t)k;
			tcp_data(arg, f, p + k, n - k);
			return;
		}
	} else if (st->ahead_on && SEQ_DIFF(st->a_end, s + (uint32_t)n) <= 0)
		ahead_off(st);	/* no header in what it read */
	flow_feed(c, f, st, p, n);
}

static void
tcp_gap(void *arg, struct tcpflow *f, uint64_t lost)
{
	struct capture *c = arg;
	struct flowst *st = flow_state(c, f);

	st->lost += lost;
	gmem_stream_gap(&st->gs, lost);
}

static void
tcp_end(void *arg, struct tcpflow *f)
{
	struct capture *c = arg;
	struct flowst *st = f->user;

	if (st == NULL)
		return;
	ahead_off(st);
	gmem_stream_end(&st->gs);
	if (st->gs.found) {
		c->tcp_lost += st->lost;
		c->tcp_cut += st->gs.cut;
	} else
		cap_nongmem(c, f->datapkts);
	gmem_stream_release(&st->gs);
	free(st);
	f->user = NULL;
}

const struct tcp_ops flows_ops = {
	tcp_data, tcp_gap, tcp_end, tcp_ahead
};
