/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: IP fragment and TCP reassembly (formats/capture/ipreasm.c,
 * tcpreasm.c), and GMEM frames found in what TCP reassembly delivers:
 * out-of-order segments, overlaps, retransmissions, and gaps that never
 * fill (which lose only the frames they touch).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmem.h"
#include "netlayers.h"
#include "reasm.h"
#include "test.h"

static const unsigned char A4[4] = {10, 0, 0, 7}, B4[4] = {10, 0, 0, 1};
static const unsigned char A6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 7};
static const unsigned char B6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};

/* --- IP fragments --- */

static int
frag(struct ipreasm *r, int family, uint32_t id, const unsigned char *data,
    uint32_t off, size_t len, int more, uint64_t now, size_t *outlen,
    const unsigned char **out)
{
	struct ipfrag f;
	uint8_t proto;
	unsigned nfrags;

	memset(&f, 0, sizeof(f));
	f.family = family;
	f.src = family == 4 ? A4 : A6;
	f.dst = family == 4 ? B4 : B6;
	f.proto = 17;
	f.id = id;
	f.offset = off;
	f.more = more;
	f.data = data + off;
	f.len = f.wirelen = len;
	return ipreasm_add(r, &f, now, out, outlen, &proto, &nfrags);
}

static void
test_frags(void)
{
	unsigned char d[3000];
	const unsigned char *out;
	size_t i, outlen = 0;
	struct ipreasm *r = ipreasm_new(4, 1 << 20, 30000000000ULL);
	int fam;

	for (i = 0; i < sizeof(d); i++)
		d[i] = (unsigned char)(i * 7 + i / 256);

	for (fam = 4; fam <= 6; fam += 2) {
		/* In order. */
		CHECK(frag(r, fam, 1, d, 0, 1480, 1, 1, &outlen, &out) == 0);
		CHECK(frag(r, fam, 1, d, 1480, 1480, 1, 1, &outlen, &out) == 0);
		CHECK(frag(r, fam, 1, d, 2960, 40, 0, 1, &outlen, &out) == 1);
		CHECK_U64(outlen, 3000);
		CHECK(memcmp(out, d, 3000) == 0);

		/* Last first, then the middle, overlapping, then the head. */
		CHECK(frag(r, fam, 2, d, 2960, 40, 0, 1, &outlen, &out) == 0);
		CHECK(frag(r, fam, 2, d, 1000, 1968, 1, 1, &outlen, &out) == 0);
		/* A duplicate changes nothing. */
		CHECK(frag(r, fam, 2, d, 1000, 1968, 1, 1, &outlen, &out) == 0);
		CHECK(frag(r, fam, 2, d, 0, 1480, 1, 1, &outlen, &out) == 1);
		CHECK_U64(outlen, 3000);
		CHECK(memcmp(out, d, 3000) == 0);
	}

	/* Overlap keeps the first copy. */
	{
		unsigned char e[3000];

		memcpy(e, d, sizeof(e));
		memset(e + 1000, 0xee, 500);
		CHECK(frag(r, 4, 3, d, 800, 1000, 1, 1, &outlen, &out) == 0);
		CHECK(frag(r, 4, 3, e, 0, 1600, 1, 1, &outlen, &out) == 0);
		CHECK(frag(r, 4, 3, d, 1600, 1400, 0, 1, &outlen, &out) == 1);
		CHECK(memcmp(out, d, 3000) == 0);
	}

	/* Beyond 65535 bytes, or contradicting the end: dropped. */
	CHECK(frag(r, 4, 4, d, 65000, 1000, 0, 1, &outlen, &out) < 0);
	CHECK(frag(r, 4, 5, d, 0, 1000, 0, 1, &outlen, &out) == 1);
	CHECK(frag(r, 4, 6, d, 2000, 100, 0, 1, &outlen, &out) == 0);
	CHECK(frag(r, 4, 6, d, 2000, 800, 1, 1, &outlen, &out) < 0);
	CHECK_U64(ipreasm_stats(r)->bad, 1);

	/* A missing fragment: the datagram times out, counted. */
	CHECK(frag(r, 4, 7, d, 0, 1480, 1, 1, &outlen, &out) == 0);
	CHECK(frag(r, 4, 8, d, 0, 1480, 1, 40000000000ULL, &outlen,
	    &out) == 0);
	CHECK_U64(ipreasm_stats(r)->incomplete, 2);	/* 6 and 7 */
	/* At the cap of 4 datagrams the oldest goes. */
	CHECK(frag(r, 4, 9, d, 0, 8, 1, 40000000000ULL, &outlen, &out) == 0);
	CHECK(frag(r, 4, 10, d, 0, 8, 1, 40000000000ULL, &outlen, &out) == 0);
	CHECK(frag(r, 4, 11, d, 0, 8, 1, 40000000000ULL, &outlen, &out) == 0);
	CHECK(frag(r, 4, 12, d, 0, 8, 1, 40000000000ULL, &outlen, &out) == 0);
	CHECK_U64(ipreasm_stats(r)->capped, 1);
	ipreasm_flush(r);
	CHECK_U64(ipreasm_stats(r)->incomplete, 7);
	CHECK_U64(ipreasm_stats(r)->datagrams, 6);

	/* A fragment cut by the snapshot length can never complete. */
	{
		struct ipfrag f;
		uint8_t proto;
		unsigned nf;

		memset(&f, 0, sizeof(f));
		f.family = 4;
		f.src = A4;
		f.dst = B4;
		f.id = 99;
		f.data = d;
		f.len = 100;
		f.wirelen = 1480;
		f.more = 1;
		CHECK(ipreasm_add(r, &f, 50000000000ULL, &out, &outlen, &proto,
		    &nf) < 0);
	}
	ipreasm_free(r);
}

/* --- TCP --- */

struct sink {
	unsigned char buf[1 << 16];
	size_t n;
	uint64_t lost;
	int ended;
	struct gmem_stream gs;	/* frames found in the bytes */
	uint32_t seq[256];
	size_t nf;
	int use_gmem;
};

static void
on_frame(void *arg, const unsigned char *p, size_t n, const struct gmem_hdr *h)
{
	struct sink *k = arg;

	(void)p;
	(void)n;
	if (k->nf < 256)
		k->seq[k->nf++] = h->seq;
}

static void
on_bad(void *arg, const unsigned char *hdr, const char *why)
{
	(void)arg;
	(void)hdr;
	printf("# bad frame: %s\n", why);
}

static void
t_data(void *arg, struct tcpflow *f, const unsigned char *p, size_t n)
{
	struct sink *k = arg;

	f->user = k;
	if (k->n + n <= sizeof(k->buf)) {
		memcpy(k->buf + k->n, p, n);
		k->n += n;
	}
	if (k->use_gmem)
		gmem_stream_feed(&k->gs, p, n, on_frame, on_bad, k);
}

static void
t_gap(void *arg, struct tcpflow *f, uint64_t lost)
{
	struct sink *k = arg;

	(void)f;
	k->lost += lost;
	if (k->use_gmem)
		gmem_stream_gap(&k->gs, lost);
}

static void
t_end(void *arg, struct tcpflow *f)
{
	struct sink *k = arg;

	(void)f;
	k->ended++;
	if (k->use_gmem)
		gmem_stream_end(&k->gs);
}

static const struct tcp_ops ops = {t_data, t_gap, t_end, NULL};

/* A segment from A to B (dir 0) or back (dir 1). */
static int
seg(struct tcpreasm *t, int dir, uint32_t seq, uint32_t ack, uint8_t flags,
    const unsigned char *p, size_t n, uint64_t now)
{
	struct tcpseg s;

	memset(&s, 0, sizeof(s));
	s.family = 4;
	s.src = dir == 0 ? A4 : B4;
	s.dst = dir == 0 ? B4 : A4;
	s.sport = dir == 0 ? 40000 : 9717;
	s.dport = dir == 0 ? 9717 : 40000;
	s.seq = seq;
	s.ack = ack;
	s.flags = flags;
	s.data = p;
	s.len = s.wirelen = n;
	return tcpreasm_segment(t, &s, now);
}

static struct tcp_limits lim = {
	16, 1 << 20, 1 << 16, 1000000000ULL, 100000
};

static void
test_tcp_order(void)
{
	unsigned char d[10000];
	struct sink *k = calloc(1, sizeof(*k));
	struct tcpreasm *t = tcpreasm_new(&lim, &ops, k);
	uint32_t isn = 0xfffff000;	/* wraps inside the stream */
	size_t i;

	for (i = 0; i < sizeof(d); i++)
		d[i] = (unsigned char)(i ^ (i >> 8));
	seg(t, 0, isn, 0, TCP_SYN, NULL, 0, 1);
	seg(t, 1, 5000, isn + 1, TCP_SYN | TCP_ACK, NULL, 0, 1);
	seg(t, 0, isn + 1, 5001, TCP_ACK, NULL, 0, 1);
	/* 0-1000, then 3000-4000, 1000-3000 overlapping, a retransmission. */
	seg(t, 0, isn + 1, 5001, TCP_ACK, d, 1000, 2);
	seg(t, 0, isn + 1 + 3000, 5001, TCP_ACK, d + 3000, 1000, 3);
	CHECK_U64(k->n, 1000);
	seg(t, 0, isn + 1 + 2500, 5001, TCP_ACK, d + 2500, 1000, 4);
	seg(t, 0, isn + 1 + 500, 5001, TCP_ACK, d + 500, 2500, 5);
	CHECK_U64(k->n, 4000);
	seg(t, 0, isn + 1 + 1000, 5001, TCP_ACK, d + 1000, 1000, 6);
	CHECK_U64(k->n, 4000);
	CHECK(memcmp(k->buf, d, 4000) == 0);
	/* 500 + 500 of the overlaps, then the whole retransmission. */
	CHECK_U64(tcpreasm_stats(t)->retrans, 500 + 500 + 1000);
	/* Out-of-order pieces, delivered once the first comes. */
	for (i = 9; i >= 5; i--)
		seg(t, 0, isn + 1 + (uint32_t)i * 1000, 5001, TCP_ACK,
		    d + i * 1000, 1000, 7);
	CHECK_U64(k->n, 4000);
	seg(t, 0, isn + 1 + 4000, 5001, TCP_ACK, d + 4000, 1000, 8);
	CHECK_U64(k->n, 10000);
	CHECK(memcmp(k->buf, d, 10000) == 0);
	CHECK_U64(k->lost, 0);
	/* FIN both ways: the connection ends (one end per direction). */
	seg(t, 0, isn + 1 + 10000, 5001, TCP_FIN | TCP_ACK, NULL, 0, 9);
	seg(t, 1, 5001, isn + 10002, TCP_FIN | TCP_ACK, NULL, 0, 9);
	CHECK_U64(k->ended, 2);
	CHECK_U64(tcpreasm_stats(t)->conns, 1);
	tcpreasm_free(t);
	CHECK_U64(k->ended, 2);
	free(k);
}

/* n frames of 3 records, back to back; frame i starts at off[i]. */
static size_t
frames(unsigned char *p, size_t nfr, size_t *off)
{
	size_t i, n = 0, j;

	for (i = 0; i < nfr; i++) {
		struct gmem_hdr h = {GMEM_VERSION, 0, 0, (uint32_t)i, 3, 0, 0};
		struct gmem_rec r = {1, 2, 3, 4};

		off[i] = n;
		gmem_hdr_encode(p + n, &h);
		n += GMEM_HDRLEN;
		for (j = 0; j < 3; j++, n += GMEM_RECLEN)
			gmem_rec_encode(p + n, &r);
	}
	off[nfr] = n;
	return n;
}

/*
 * Send the stream in 50-byte segments, with the segments covering
 * [drop_from, drop_to) missing from the capture.  ack: the receiver's
 * acks are in the capture too.
 */
static struct sink *
send_stream(const unsigned char *p, size_t n, size_t drop_from,
    size_t drop_to, int ack, int mid)
{
	struct sink *k = calloc(1, sizeof(*k));
	struct tcpreasm *t = tcpreasm_new(&lim, &ops, k);
	size_t off;
	uint64_t now = 1000;

	k->use_gmem = 1;
	gmem_stream_init(&k->gs, !mid, NULL);
	if (!mid)
		seg(t, 0, 99, 0, TCP_SYN, NULL, 0, now);
	for (off = mid ? 30 : 0; off < n; off += 50) {
		size_t len = n - off < 50 ? n - off : 50;

		now += 1000;
		if (off + len <= drop_from || off >= drop_to)
			seg(t, 0, 100 + (uint32_t)off, 0, 0, p + off, len, now);
		if (ack)
			seg(t, 1, 7, 100 + (uint32_t)(off + len), TCP_ACK, NULL,
			    0, now);
	}
	tcpreasm_free(t);
	gmem_stream_release(&k->gs);
	return k;
}

static void
test_tcp_gaps(void)
{
	unsigned char p[4000];
	size_t off[41], n = frames(p, 40, off), i;
	struct sink *k;
	int ok;

	/* The whole stream: all 40 frames. */
	k = send_stream(p, n, 0, 0, 1, 0);
	CHECK_U64(k->nf, 40);
	CHECK_U64(k->lost, 0);
	free(k);

	/*
	 * One segment missing, acked by the receiver: only the frames whose
	 * bytes it held are lost; the rest come out in order.
	 */
	k = send_stream(p, n, 1000, 1050, 1, 0);
	CHECK_U64(k->lost, 50);
	CHECK_U64(k->gs.cut, 1);
	/* 1000..1050 lies in frame 12 (960..1040) and 13 (1040..1120). */
	CHECK_U64(off[12], 960);
	CHECK_U64(k->nf, 38);
	for (i = 0, ok = 1; i < k->nf; i++)
		ok &= k->seq[i] == (i < 12 ? i : i + 2);
	CHECK(ok);
	free(k);

	/* The same without acks: the hole waits, then is given up. */
	k = send_stream(p, n, 1000, 1050, 0, 0);
	CHECK_U64(k->lost, 50);
	CHECK_U64(k->nf, 38);
	free(k);

	/*
	 * A gap inside one frame whose header came: only that frame is
	 * lost, and the parser knows where the next one starts.
	 */
	k = send_stream(p, n, 100, 150, 1, 0);
	CHECK_U64(off[1], 80);
	CHECK_U64(k->nf, 39);
	for (i = 0, ok = 1; i < k->nf; i++)
		ok &= k->seq[i] == (i < 1 ? i : i + 1);
	CHECK(ok);
	CHECK_U64(k->gs.searched, 0);
	free(k);

	/* Joined mid-stream: frames found from the second one on. */
	k = send_stream(p, n, 0, 0, 1, 1);
	CHECK_U64(k->nf, 39);
	CHECK_U64(k->seq[0], 1);
	free(k);
}

static void
test_tcp_limits(void)
{
	unsigned char d[2000];
	struct sink *k = calloc(1, sizeof(*k));
	struct tcp_limits l = {2, 1500, 1000, 1000000000ULL, 100000};
	struct tcpreasm *t = tcpreasm_new(&l, &ops, k);
	struct tcpseg s;

	memset(d, 'x', sizeof(d));
	seg(t, 0, 0, 0, TCP_SYN, NULL, 0, 1);
	seg(t, 0, 1, 0, 0, d, 100, 1);
	/* Out of order beyond the per-flow cap: the hole is given up. */
	seg(t, 0, 301, 0, 0, d, 600, 2);
	seg(t, 0, 1001, 0, 0, d, 600, 3);
	CHECK_U64(k->lost, 200);
	CHECK_U64(tcpreasm_stats(t)->capped, 1);
	CHECK_U64(k->n, 700);
	/* A hole older than the timeout is given up at the next packet. */
	seg(t, 0, 1701, 0, 0, d, 10, 4);
	seg(t, 1, 1, 0, TCP_ACK, NULL, 0, 2000000000ULL);
	CHECK_U64(k->lost, 200 + 100);
	CHECK_U64(k->n, 1300);
	/* A third connection pushes out the least recently active one. */
	memset(&s, 0, sizeof(s));
	s.family = 4;
	s.src = A4;
	s.dst = B4;
	s.sport = 1;
	s.dport = 2;
	s.flags = TCP_SYN;
	tcpreasm_segment(t, &s, 2000000001ULL);
	s.sport = 3;
	tcpreasm_segment(t, &s, 2000000002ULL);
	CHECK_U64(tcpreasm_stats(t)->evicted, 1);
	CHECK_U64(k->ended, 1);		/* ours; the other side never sent */
	CHECK_U64(k->lost, 400);	/* its last hole, given up */
	CHECK_U64(k->n, 1310);
	/* A SYN with another sequence number: a new connection. */
	seg(t, 0, 0, 0, TCP_SYN, NULL, 0, 2000000003ULL);
	seg(t, 0, 1, 0, 0, d, 5, 2000000003ULL);
	seg(t, 0, 5000, 0, TCP_SYN, NULL, 0, 2000000004ULL);
	seg(t, 0, 5001, 0, 0, d, 7, 2000000004ULL);
	CHECK_U64(k->n, 1322);
	CHECK_U64(k->ended, 3);
	/* RST ends it. */
	seg(t, 1, 0, 0, TCP_RST, NULL, 0, 2000000005ULL);
	CHECK_U64(tcpreasm_stats(t)->conns, 5);
	tcpreasm_free(t);
	free(k);
}

/*
 * A flood of 1-byte segments out of order: the caps count each held
 * segment's bookkeeping, not only its byte, so 4096 bytes of cap hold
 * about a hundred of them, not 4096.  When the cap is hit the hole before
 * them is given up and they are delivered; the rest come too late.
 */
static void
test_tcp_tiny(void)
{
	unsigned char d[1] = {'x'};
	struct sink *k = calloc(1, sizeof(*k));
	struct tcp_limits l = {2, 4096, 4096, UINT64_MAX, UINT64_MAX};
	struct tcpreasm *t = tcpreasm_new(&l, &ops, k);
	uint32_t i;

	seg(t, 0, 0, 0, TCP_SYN, NULL, 0, 1);
	/* Bytes 2..10001 backwards; byte 1 never comes. */
	for (i = 10001; i >= 2; i--)
		seg(t, 0, i, 0, 0, d, 1, 1);
	CHECK_U64(tcpreasm_stats(t)->capped, 1);
	CHECK(k->n > 50 && k->n < 200);
	tcpreasm_flush(t);
	/* Every byte is delivered or counted lost. */
	CHECK_U64(k->n + k->lost, 10001);
	tcpreasm_free(t);
	free(k);
}

int
main(void)
{
	test_frags();
	test_tcp_order();
	test_tcp_gaps();
	test_tcp_limits();
	test_tcp_tiny();
	TEST_END("reasm");
}
