/* SPDX-License-Identifier: ISC */
/*
 * seqtrack.c: sequence numbers per (sender, gpu): gaps, duplicates,
 * restarts (see seqtrack.h).
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "capstate.h"
#include "seqtrack.h"

/* --- sequence numbers --- */

struct seqst *
seq_of(struct capture *c, int family, const unsigned char *addr,
    uint16_t gpu)
{
	unsigned char key[SEQKEY];
	struct seqst *q;
	struct seqcache *sc;
	void **v;
	int isnew;

	/*
	 * Frames come from a few senders' GPUs in turn: look here first,
	 * against the sender's address as it is (a key just written to
	 * the stack and read back at once in other widths stalls the
	 * load: the stores cannot be forwarded to it).
	 */
	sc = &c->seqcache[(gpu ^ addr[15] ^ addr[3]) % NSEQCACHE];
	if (sc->q != NULL && sc->key[0] == (unsigned char)family &&
	    memcmp(sc->key + 1, addr, 16) == 0 &&
	    memcmp(sc->key + 17, &gpu, 2) == 0)
		return sc->q;
	key[0] = (unsigned char)family;
	memcpy(key + 1, addr, 16);
	memcpy(key + 17, &gpu, 2);
	v = hmap_get(&c->seqs, key, sizeof(key));
	if (v != NULL) {
		memcpy(sc->key, key, SEQKEY);
		sc->q = *v;
		return *v;
	}
	if (c->nseqs >= MAX_SEQS) {
		c->untracked++;
		return NULL;
	}
	v = hmap_put(&c->seqs, key, sizeof(key), &isnew);
	q = ecalloc(1, sizeof(*q));
	inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, q->host,
	    sizeof(q->host));
	q->gpu = gpu;
	q->order = c->nseqs++;
	*v = q;
	return q;
}

/* Start counting afresh at seq (the gaps were the old numbering's). */
static void
seq_restart(struct seqst *q, uint32_t seq, uint64_t digest)
{
	q->have = 1;
	q->last = seq;
	q->seen = 1;
	q->digest[seq % SEQ_WINDOW] = digest;
	q->ngap = 0;
}

/* Remember n numbers from lo as a gap, forgetting the oldest if full. */
static void
gap_add(struct seqst *q, uint32_t lo, uint32_t n)
{
	if (q->ngap == SEQ_GAPS) {
		memmove(q->gap, q->gap + 1, (SEQ_GAPS - 1) * sizeof(*q->gap));
		q->ngap--;
	}
	q->gap[q->ngap].lo = lo;
	q->gap[q->ngap].n = n;
	q->ngap++;
}

/*
 * Take seq out of the gap that holds it: return 1, or 0 when no gap
 * remembered holds it.  A number inside a gap splits it in two.
 */
static int
gap_take(struct seqst *q, uint32_t seq)
{
	struct seqgap *g;
	uint32_t at, lo;
	unsigned i;

	for (i = 0; i < q->ngap; i++) {
		g = &q->gap[i];
		at = seq - g->lo;
		if (at >= g->n)
			continue;
		if (at == 0 || at == g->n - 1) {
			g->lo += at == 0;
			if (--g->n == 0) {
				memmove(g, g + 1, (q->ngap - i - 1) *
				    sizeof(*g));
				q->ngap--;
			}
			return 1;
		}
		/* Its upper part becomes a gap of its own, the latest. */
		lo = seq + 1;
		at = g->n - at - 1;
		g->n = seq - g->lo;
		gap_add(q, lo, at);
		return 1;
	}
	return 0;
}

/* A frame counted lost came after all. */
static void
unlose(struct capture *c, struct seqst *q)
{
	if (q->lost > 0) {
		q->lost--;
		c->lost--;
	}
}

/*
 * Whether a frame with sequence number seq (and content digest) is new
 * (1) or a duplicate (0).  Gaps count frames lost; a late frame fills
 * its gap again, inside the window or in a gap remembered.
 */
int
seq_check(struct capture *c, struct seqst *q, uint32_t seq, uint64_t digest)
{
	int32_t d;
	uint64_t bit;

	if (!q->have) {
		seq_restart(q, seq, digest);
		return 1;
	}
	d = (int32_t)(seq - q->last);
	if (d > 0) {
		if (d > 1) {
			q->lost += (uint32_t)d - 1;
			c->lost += (uint32_t)d - 1;
			gap_add(q, q->last + 1, (uint32_t)d - 1);
		}
		q->seen = d >= SEQ_WINDOW ? 1 : q->seen << d | 1;
		q->last = seq;
		q->digest[seq % SEQ_WINDOW] = digest;
		return 1;
	}
	if (d > -SEQ_WINDOW) {
		bit = 1ULL << -d;
		if (!(q->seen & bit)) {
			/* Late, not lost: it fills a gap counted before. */
			q->seen |= bit;
			q->digest[seq % SEQ_WINDOW] = digest;
			gap_take(q, seq);
			unlose(c, q);
			return 1;
		}
		if (q->digest[seq % SEQ_WINDOW] == digest) {
			q->dups++;
			c->dups++;
			return 0;
		}
	} else if (gap_take(q, seq)) {
		/* Further back, but in a gap counted before: late too. */
		unlose(c, q);
		return 1;
	}
	/* Far behind, or a number seen with other content: a restart. */
	q->restarts++;
	c->restarts++;
	seq_restart(q, seq, digest);
	return 1;
}

void
seq_free(void *p)
{
	free(p);
}
