/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: sequence numbers per sender and GPU (formats/capture/
 * seqtrack.c): gaps counted lost, late frames that fill them again
 * however far behind (the frames of a TCP segment captured after the one
 * that follows it), duplicates, restarts.
 */
#include <stdlib.h>
#include <string.h>

#include "capstate.h"
#include "seqtrack.h"
#include "test.h"

static struct capture *c;
static struct seqst *q;

static void
fresh(void)
{
	free(c);
	free(q);
	c = calloc(1, sizeof(*c));
	q = calloc(1, sizeof(*q));
}

/* Frames lo to hi in order (digest: the number). */
static int
run(uint32_t lo, uint32_t hi)
{
	int ok = 1;

	for (; lo <= hi; lo++)
		ok &= seq_check(c, q, lo, lo);
	return ok;
}

/* Frames 1 to 10, then next: the numbers between are counted lost. */
static void
gap_to(uint32_t next)
{
	fresh();
	CHECK(run(1, 10));
	CHECK(seq_check(c, q, next, next));
	CHECK_U64(c->lost, next - 11);
	CHECK_U64(q->lost, next - 11);
}

/* Both parts of a split gap filled: nothing lost, no gap left. */
static void
fill_parts(uint32_t lo1, uint32_t hi1, uint32_t lo2, uint32_t hi2)
{
	CHECK(run(lo1, hi1));
	CHECK(run(lo2, hi2));
	CHECK_U64(c->lost, 0);
	CHECK_U64(q->ngap, 0);
	CHECK_U64(c->restarts, 0);
}

static void
test_gaps(void)
{
	gap_to(200);
	/* The segment that fills the hole: late, far behind, in order. */
	CHECK(run(11, 199));
	CHECK_U64(c->lost, 0);
	CHECK_U64(c->restarts, 0);
	CHECK_U64(q->ngap, 0);
	CHECK(run(201, 210));
	CHECK_U64(c->lost, 0);
	/* Still in step: the next number is no gap. */
	CHECK_U64(q->last, 210);

	/* A late frame in the middle of a gap splits it. */
	CHECK(seq_check(c, q, 500, 500));
	CHECK_U64(c->lost, 289);
	CHECK(seq_check(c, q, 350, 350));
	CHECK(seq_check(c, q, 351, 351));
	CHECK(seq_check(c, q, 349, 349));
	CHECK(seq_check(c, q, 211, 211));
	CHECK(seq_check(c, q, 499, 499));
	CHECK_U64(c->lost, 284);
	CHECK_U64(c->restarts, 0);
	/* Each part is filled on its own. */
	fill_parts(212, 348, 352, 498);
	/* A number far behind that no gap holds: the sender restarted. */
	CHECK(seq_check(c, q, 300, 300 + 1000));
	CHECK_U64(c->restarts, 1);
	CHECK_U64(q->last, 300);
}

static void
test_window(void)
{
	gap_to(20);
	/* Late within the window, and a duplicate. */
	CHECK(seq_check(c, q, 15, 15));
	CHECK_U64(c->lost, 8);
	CHECK(!seq_check(c, q, 15, 15));
	CHECK_U64(c->dups, 1);
	/* The gap knows 15 came: its parts are 11-14 and 16-19. */
	CHECK_U64(q->ngap, 2);
	fill_parts(11, 14, 16, 19);
}

static void
test_forget(void)
{
	uint32_t i, s = 1;

	fresh();
	CHECK(seq_check(c, q, s, s));
	/* SEQ_GAPS + 1 gaps of 100: the first is forgotten. */
	for (i = 0; i <= SEQ_GAPS; i++) {
		s += 101;
		CHECK(seq_check(c, q, s, s));
	}
	CHECK_U64(c->lost, 100 * (SEQ_GAPS + 1));
	CHECK_U64(q->ngap, SEQ_GAPS);
	CHECK(seq_check(c, q, 2, 2));
	CHECK_U64(c->restarts, 1);
	CHECK_U64(c->lost, 100 * (SEQ_GAPS + 1));
	/* A restart starts the gaps afresh too. */
	CHECK_U64(q->ngap, 0);
	CHECK(seq_check(c, q, 103, 103));
	CHECK(seq_check(c, q, 50, 50));
	CHECK_U64(c->lost, 100 * (SEQ_GAPS + 1) + 100 - 1);
}

/*
 * The pairs looked up lately are kept in a small cache by GPU and two
 * bytes of the address: pairs that share a place there are each their
 * own (another family, address or GPU), however often they alternate.
 */
static void
test_cache(void)
{
	unsigned char a[16] = {10, 0, 0, 7}, b[16] = {10, 0, 1, 7};
	unsigned char a6[16] = {10, 0, 0, 7};
	struct seqst *qa1, *qa33, *qb1, *q6;
	int i;

	fresh();
	qa1 = seq_of(c, 4, a, 1);
	qa33 = seq_of(c, 4, a, 33);	/* 33 % NSEQCACHE: 1's place */
	qb1 = seq_of(c, 4, b, 1);	/* b[3] ^ b[15]: a's */
	q6 = seq_of(c, 6, a6, 1);	/* a's bytes, as IPv6 */
	CHECK(qa1 != NULL && qa33 != NULL && qb1 != NULL && q6 != NULL);
	CHECK(qa1 != qa33 && qa1 != qb1 && qa1 != q6 && qa33 != qb1 &&
	    qa33 != q6 && qb1 != q6);
	for (i = 0; i < 3; i++) {
		CHECK(seq_of(c, 4, a, 1) == qa1);
		CHECK(seq_of(c, 4, a, 33) == qa33);
		CHECK(seq_of(c, 4, a, 1) == qa1);
		CHECK(seq_of(c, 4, b, 1) == qb1);
		CHECK(seq_of(c, 4, a, 1) == qa1);
		CHECK(seq_of(c, 6, a6, 1) == q6);
		CHECK(seq_of(c, 4, a, 1) == qa1);
	}
	CHECK_U64(c->nseqs, 4);
	hmap_release(&c->seqs, seq_free);
}

int
main(void)
{
	test_gaps();
	test_window();
	test_forget();
	test_cache();
	free(c);
	free(q);
	TEST_END("seqtrack");
}
