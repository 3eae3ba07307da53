/* SPDX-License-Identifier: ISC */
/* Unit tests: the GMEM frame codec and the TCP frame finder (formats/wire/gmem.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmem.h"
#include "test.h"

/* What the stream parser handed out. */
struct got {
	uint32_t seq[64];
	size_t n;
	unsigned bad;
	char why[GMEM_WHYSZ];
};

static void
on_frame(void *arg, const unsigned char *p, size_t n, const struct gmem_hdr *h)
{
	struct got *g = arg;
	struct gmem_hdr h2;
	char why[GMEM_WHYSZ];

	/* Every frame handed out passes the datagram check too. */
	CHECK(gmem_frame_check(p, n, &h2, why) == 0);
	CHECK_U64(h2.seq, h->seq);
	if (g->n < 64)
		g->seq[g->n++] = h->seq;
}

static void
on_bad(void *arg, const unsigned char *hdr, const char *why)
{
	struct got *g = arg;

	(void)hdr;
	g->bad++;
	snprintf(g->why, sizeof(g->why), "%s", why);
}

/* A frame of count records with sequence number seq; return its length. */
static size_t
mkframe(unsigned char *p, uint32_t seq, uint16_t count)
{
	struct gmem_hdr h = {GMEM_VERSION, 0, 3, seq, count, 0, 81559};
	struct gmem_rec r;
	uint16_t i;

	gmem_hdr_encode(p, &h);
	for (i = 0; i < count; i++) {
		r.ts = 1767225600000000000ULL + seq * 1000000000ULL + i;
		r.used = 100 + i;
		r.free = 81000 - i;
		r.pid = i == 0 ? 0 : 4000 + i;
		gmem_rec_encode(p + GMEM_HDRLEN + GMEM_RECLEN * i, &r);
	}
	return gmem_frame_len(&h);
}

static void
test_codec(void)
{
	unsigned char f[200];
	struct gmem_hdr h;
	struct gmem_rec r;
	char why[GMEM_WHYSZ];
	size_t n;

	n = mkframe(f, 0xfffffffe, 3);
	CHECK_U64(n, 80);
	CHECK(memcmp(f, "GMEM\x01\x00\x00\x03\xff\xff\xff\xfe\x00\x03\x00\x00"
	    "\x00\x01\x3e\x97", 20) == 0);
	CHECK(gmem_frame_check(f, n, &h, why) == 0);
	CHECK_U64(h.gpu, 3);
	CHECK_U64(h.seq, 0xfffffffe);
	CHECK_U64(h.count, 3);
	CHECK_U64(h.total, 81559);
	gmem_rec_decode(f, 2, &r);
	CHECK_U64(r.ts, 1767225600000000000ULL + 0xfffffffeULL * 1000000000ULL +
	    2);
	CHECK_U64(r.used, 102);
	CHECK_U64(r.free, 80998);
	CHECK_U64(r.pid, 4002);

	/* The spec's checks, each with its reason. */
	CHECK(gmem_frame_check(f, n - 1, &h, why) < 0);
	CHECK_STR(why, "length 79 does not match count 3 (80 bytes)");
	CHECK(gmem_frame_check(f, 12, &h, why) < 0);
	CHECK_STR(why, "frame of 12 bytes is shorter than the 20-byte header");
	f[4] = 2;
	CHECK(gmem_frame_check(f, n, &h, why) < 0);
	CHECK_STR(why, "version 2 (expected 1)");
	f[4] = 1;
	f[5] = 0x03;
	CHECK(gmem_frame_check(f, n, &h, why) < 0);
	CHECK_STR(why, "flags 0x03: reserved bits set");
	f[5] = GMEM_FLAG_LAST;
	CHECK(gmem_frame_check(f, n, &h, why) == 0);
	CHECK_U64(h.flags, 1);
	f[15] = 1;
	CHECK(gmem_frame_check(f, n, &h, why) < 0);
	CHECK_STR(why, "reserved field 0x0001 is not 0");
	f[15] = 0;
	CHECK(gmem_has_magic(f, 4));
	CHECK(!gmem_has_magic(f, 3));
	f[0] = 'g';
	CHECK(!gmem_has_magic(f, n));

	/* Zero records is a valid frame. */
	n = mkframe(f, 7, 0);
	CHECK_U64(n, 20);
	CHECK(gmem_frame_check(f, n, &h, why) == 0);
}

/* Feed buf in pieces of `step' bytes. */
static void
feed(struct gmem_stream *s, const unsigned char *buf, size_t n, size_t step,
    struct got *g)
{
	size_t off, k;

	for (off = 0; off < n; off += k) {
		k = n - off < step ? n - off : step;
		gmem_stream_feed(s, buf + off, k, on_frame, on_bad, g);
	}
}

static void
test_stream(void)
{
	unsigned char buf[4096];
	struct gmem_stream s;
	struct gmem_budget b = {0, 1 << 20, 0};
	struct got g;
	size_t n = 0, step, f2, i;
	int ok;

	n += mkframe(buf + n, 1, 2);
	f2 = n;
	n += mkframe(buf + n, 2, 0);
	n += mkframe(buf + n, 3, 40);
	n += mkframe(buf + n, 4, 1);

	/* Split at every size: the same four frames. */
	for (step = 1, ok = 1; step <= n; step++) {
		memset(&g, 0, sizeof(g));
		gmem_stream_init(&s, 1, &b);
		feed(&s, buf, n, step, &g);
		gmem_stream_end(&s);
		ok &= g.n == 4 && g.seq[0] == 1 && g.seq[3] == 4 && s.cut == 0 &&
		    g.bad == 0;
		gmem_stream_release(&s);
	}
	CHECK(ok);
	CHECK_U64(b.used, 0);

	/* Joined mid-stream: found by searching, in any split. */
	for (step = 1, ok = 1; step <= n; step += 7) {
		memset(&g, 0, sizeof(g));
		gmem_stream_init(&s, 0, &b);
		feed(&s, buf + 5, n - 5, step, &g);
		gmem_stream_end(&s);
		ok &= g.n == 3 && g.seq[0] == 2 && s.searched == f2 - 5;
		gmem_stream_release(&s);
	}
	CHECK(ok);

	/* A bad header in step: reported once, the next frame found. */
	memset(&g, 0, sizeof(g));
	buf[f2 + 4] = 9;
	gmem_stream_init(&s, 1, &b);
	feed(&s, buf, n, 13, &g);
	CHECK_U64(g.bad, 1);
	CHECK_STR(g.why, "version 9 (expected 1)");
	CHECK_U64(g.n, 3);
	CHECK_U64(g.seq[1], 3);
	gmem_stream_release(&s);
	buf[f2 + 4] = 1;

	/*
	 * A gap inside frame 3 (whose header was read): frame 3 is lost, the
	 * parser passes over its rest and frame 4 comes out.
	 */
	memset(&g, 0, sizeof(g));
	gmem_stream_init(&s, 1, &b);
	i = f2 + 20 + 30;	/* into frame 3 */
	feed(&s, buf, i, 11, &g);
	gmem_stream_gap(&s, 100);
	feed(&s, buf + i + 100, n - i - 100, 11, &g);
	gmem_stream_end(&s);
	CHECK_U64(g.n, 3);
	CHECK_U64(g.seq[2], 4);
	CHECK_U64(s.cut, 1);
	CHECK_U64(s.searched, 0);
	gmem_stream_release(&s);

	/* A gap that takes a header: the next one is searched for. */
	memset(&g, 0, sizeof(g));
	gmem_stream_init(&s, 1, &b);
	i = f2 + 20 + 10;	/* frame 3's header is gone */
	feed(&s, buf, f2 + 20, 64, &g);		/* frames 1 and 2 */
	gmem_stream_gap(&s, 10);
	feed(&s, buf + i, n - i, 64, &g);
	gmem_stream_end(&s);
	CHECK_U64(g.n, 3);
	CHECK_U64(g.seq[2], 4);
	CHECK_U64(s.cut, 0);
	gmem_stream_release(&s);

	/* The stream ends inside a frame: cut, counted. */
	memset(&g, 0, sizeof(g));
	gmem_stream_init(&s, 1, &b);
	feed(&s, buf, n - 3, 64, &g);
	gmem_stream_end(&s);
	CHECK_U64(g.n, 3);
	CHECK_U64(s.cut, 1);
	gmem_stream_release(&s);

	/* Over the budget: the big frame is dropped, the next one read. */
	{
		struct gmem_budget small = {0, 300, 0};

		memset(&g, 0, sizeof(g));
		gmem_stream_init(&s, 1, &small);
		feed(&s, buf, n, 50, &g);
		gmem_stream_end(&s);
		CHECK_U64(g.n, 3);
		CHECK_U64(g.seq[2], 4);
		CHECK_U64(small.dropped, 1);
		gmem_stream_release(&s);
		CHECK_U64(small.used, 0);
	}
}

int
main(void)
{
	test_codec();
	test_stream();
	TEST_END("gmem");
}
