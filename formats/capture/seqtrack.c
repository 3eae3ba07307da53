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

	key[0] = (unsigned char)family;
	memcpy(key + 1, addr, 16);
	memcpy(key + 17, &gpu, 2);
	/* Frames come from a few senders' GPUs in turn: look here first. */
	sc = &c->seqcache[(gpu ^ addr[15] ^ addr[3]) % NSEQCACHE];
	if (sc->q != NULL && memcmp(sc->key, key, SEQKEY) == 0)
		return sc->q;
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

/* Start counting afresh at seq. */
static void
seq_restart(struct seqst *q, uint32_t seq, uint64_t digest)
{
	q->have = 1;
	q->last = seq;
	q->seen = 1;
	q->digest[seq % SEQ_WINDOW] = digest;
}

/*
 * Whether a frame with sequence number seq (and content digest) is new
 * (1) or a duplicate (0).  Gaps count frames lost; a late frame inside
 * the window fills its gap again.
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
			if (q->lost > 0) {
				q->lost--;
				c->lost--;
			}
			return 1;
		}
		if (q->digest[seq % SEQ_WINDOW] == digest) {
			q->dups++;
			c->dups++;
			return 0;
		}
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
