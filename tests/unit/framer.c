/* SPDX-License-Identifier: ISC */
/* Unit tests: records to GMEM frames (formats/wire/framer.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framer.h"
#include "test.h"

/* What the framer emitted. */
struct got {
	struct {
		struct gmem_hdr h;
		uint64_t ts;
		uint64_t first_ts;	/* of its first record */
		uint32_t first_pid;
		char sender;
	} f[64];
	size_t n;
};

static void
on_frame(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *p, size_t len, size_t nrec)
{
	struct got *got = arg;
	struct gmem_hdr h;
	struct gmem_rec r;
	char why[GMEM_WHYSZ];

	/* Every frame is a valid datagram of nrec records. */
	CHECK(gmem_frame_check(p, len, &h, why) == 0);
	CHECK_U64(h.count, nrec);
	CHECK_U64(h.gpu, g->gpu);
	CHECK_U64(g->seq, h.seq + 1);
	if (got->n == 64)
		return;
	got->f[got->n].h = h;
	got->f[got->n].ts = ts;
	got->f[got->n].sender = g->senderlen > 0 ? (char)g->sender[0] : '-';
	if (nrec > 0) {
		gmem_rec_decode(p, 0, &r);
		got->f[got->n].first_ts = r.ts;
		got->f[got->n].first_pid = r.pid;
	}
	got->n++;
}

static void
add(struct framer *f, uint64_t ts, const char *sender, uint32_t gpu,
    uint32_t pid, uint32_t total)
{
	struct rec r;

	rec_init(&r);
	r.ts = ts;
	r.gpu = gpu;
	r.pid = pid;
	r.used = 10;
	r.free = 20;
	r.has = REC_USED | REC_FREE;
	if (total != 0) {
		r.total = total;
		r.has |= REC_TOTAL;
	}
	framer_add(f, &r, sender, strlen(sender));
}

/* One frame per (sender, GPU) and timestamp; sequences count per pair. */
static void
test_frames(void)
{
	struct framer f;
	struct got got;

	memset(&got, 0, sizeof(got));
	framer_init(&f, 100, on_frame, &got);
	add(&f, 1, "a", 0, 0, 80);
	add(&f, 1, "a", 1, 0, 80);
	add(&f, 1, "a", 0, 7, 80);
	add(&f, 1, "b", 0, 0, 40);
	CHECK_U64(got.n, 0);		/* held until another timestamp */
	add(&f, 2, "a", 0, 0, 80);
	CHECK_U64(got.n, 3);
	CHECK(got.f[0].sender == 'a' && got.f[0].h.gpu == 0);
	CHECK_U64(got.f[0].h.count, 2);
	CHECK_U64(got.f[0].h.seq, 0);
	CHECK_U64(got.f[0].h.total, 80);
	CHECK(got.f[1].sender == 'a' && got.f[1].h.gpu == 1);
	CHECK_U64(got.f[1].h.seq, 0);
	CHECK(got.f[2].sender == 'b' && got.f[2].h.gpu == 0);
	CHECK_U64(got.f[2].h.seq, 0);
	CHECK_U64(got.f[2].h.total, 40);
	framer_flush(&f);
	CHECK_U64(got.n, 4);
	CHECK_U64(got.f[3].h.seq, 1);
	CHECK_U64(got.f[3].ts, 2);
	CHECK_U64(got.f[3].h.flags, 0);
	/* Nothing held: a flush emits nothing. */
	framer_flush(&f);
	CHECK_U64(got.n, 4);
	CHECK_U64(f.frames, 4);
	CHECK_U64(f.recs, 5);
	framer_release(&f, NULL);
}

/* Past maxrec records, a frame is split; each piece has its number. */
static void
test_split(void)
{
	struct framer f;
	struct got got;
	uint32_t i;

	memset(&got, 0, sizeof(got));
	framer_init(&f, 3, on_frame, &got);
	for (i = 0; i < 7; i++)
		add(&f, 5, "a", 2, i, 0);
	framer_end(&f, 0);
	CHECK_U64(got.n, 3);
	CHECK_U64(got.f[0].h.count, 3);
	CHECK_U64(got.f[1].h.count, 3);
	CHECK_U64(got.f[2].h.count, 1);
	CHECK_U64(got.f[1].first_pid, 3);
	CHECK_U64(got.f[2].h.seq, 2);
	CHECK_U64(got.f[2].h.flags, 0);		/* no flag without last */
	framer_release(&f, NULL);
}

/*
 * At the end, each GPU's last frame carries the flag: the held ones on
 * their final piece, the others on an empty frame.
 */
static void
test_end(void)
{
	struct framer f;
	struct got got;
	uint32_t i;

	memset(&got, 0, sizeof(got));
	framer_init(&f, 2, on_frame, &got);
	add(&f, 1, "a", 0, 0, 0);
	add(&f, 1, "a", 1, 0, 0);
	for (i = 0; i < 3; i++)
		add(&f, 9, "a", 1, i, 0);
	framer_end(&f, 1);
	CHECK_U64(got.n, 5);
	/* gpu 1 at ts 9: two pieces, the flag on the second. */
	CHECK(got.f[2].h.gpu == 1 && got.f[2].h.flags == 0);
	CHECK(got.f[3].h.gpu == 1 && got.f[3].h.flags == GMEM_FLAG_LAST);
	CHECK_U64(got.f[3].h.count, 1);
	/* gpu 0: an empty frame, the next number, at the last time. */
	CHECK(got.f[4].h.gpu == 0 && got.f[4].h.flags == GMEM_FLAG_LAST);
	CHECK_U64(got.f[4].h.count, 0);
	CHECK_U64(got.f[4].h.seq, 1);
	CHECK_U64(got.f[4].ts, 9);
	framer_release(&f, NULL);

	/* Records flushed before the end: every GPU gets an empty one. */
	memset(&got, 0, sizeof(got));
	framer_init(&f, 10, on_frame, &got);
	add(&f, 1, "a", 0, 0, 0);
	add(&f, 1, "b", 0, 0, 0);
	framer_flush(&f);
	framer_end(&f, 1);
	CHECK_U64(got.n, 4);
	CHECK(got.f[2].sender == 'a' && got.f[2].h.count == 0 &&
	    got.f[2].h.flags == GMEM_FLAG_LAST && got.f[2].h.seq == 1);
	CHECK(got.f[3].sender == 'b' && got.f[3].h.count == 0 &&
	    got.f[3].h.flags == GMEM_FLAG_LAST);
	framer_release(&f, NULL);

	/* Nothing at all: nothing to end. */
	memset(&got, 0, sizeof(got));
	framer_init(&f, 10, on_frame, &got);
	framer_end(&f, 1);
	CHECK_U64(got.n, 0);
	framer_release(&f, NULL);
}

/* What GMEM cannot carry is counted and said in one sentence. */
static void
test_inexact(void)
{
	struct framer f;
	struct got got;
	struct sbuf sb = SBUF_INIT;
	struct rec r;

	memset(&got, 0, sizeof(got));
	framer_init(&f, 10, on_frame, &got);
	CHECK(framer_inexact(&f, "sent", &sb) == 0);
	add(&f, 1, "a", 0, 0, 80);
	add(&f, 1, "a", 0, 5, 81);	/* another total in the frame */
	rec_init(&r);
	r.ts = 1;
	r.gpu = 70000;			/* dropped */
	CHECK(framer_add(&f, &r, "a", 1) == -1);
	r.gpu = 0;
	r.pid = 9;
	r.name = "python";		/* name dropped, used and free missing */
	CHECK(framer_add(&f, &r, "a", 1) == 0);
	framer_end(&f, 0);
	CHECK(framer_inexact(&f, "sent", &sb) == 1);
	CHECK_STR(sb.buf, "records GMEM cannot carry exactly, sent as well "
	    "as it can: 1 process name dropped, 1 missing memory_used sent "
	    "as 0, 1 missing memory_free sent as 0, 2 memory_total other "
	    "than their frame's; 1 record of GPUs above 65535 dropped");
	sbuf_release(&sb);
	framer_release(&f, NULL);
}

int
main(void)
{
	test_frames();
	test_split();
	test_end();
	test_inexact();
	TEST_END("framer");
}
