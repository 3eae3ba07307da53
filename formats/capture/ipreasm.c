/* SPDX-License-Identifier: ISC */
/*
 * ipreasm.c: IPv4 and IPv6 fragment reassembly (the first half of
 * reasm.h): fragments kept per datagram, overlaps first copy wins, a
 * datagram handed back whole once every byte is in, dropped and counted
 * on its timeout or the caps; datagrams completed lately are remembered
 * so that a fragment captured again is a duplicate.  TCP streams are
 * tcpreasm.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "reasm.h"
#include "util.h"

#define IP_MAXDGRAM 65535	/* bytes of payload a fragment may reach */
#define IP_MAXPIECES 1024	/* separate pieces of one datagram */
#define IP_DONE 16		/* datagrams completed lately, remembered */

/* --- IP fragments --- */

struct piece {
	uint32_t start, end;	/* [start, end) */
};

struct dgram {
	unsigned char key[40];
	size_t klen;
	uint8_t proto;		/* IPv6: next header of the first fragment */
	unsigned char *buf;
	size_t cap;
	struct piece *pc;	/* covered ranges, sorted, disjoint */
	size_t npc, pccap;
	int have_end;
	uint32_t end;		/* payload length, once the last fragment came */
	unsigned nfrags;
	uint64_t born;
	struct dgram *prev, *next;	/* in order of creation */
};

/*
 * A datagram completed lately: a fragment of it that comes again (a
 * capture merged with itself, a packet captured twice) is a duplicate,
 * not the start of a datagram that never completes.
 */
struct done {
	unsigned char key[40];
	size_t klen;
	unsigned char *buf;	/* its payload */
	size_t len;
	uint64_t at;
};

struct ipreasm {
	struct hmap map;	/* key -> struct dgram */
	struct dgram *head, *tail;
	size_t n, bytes;
	size_t max_dgrams, max_bytes;
	uint64_t timeout;
	struct done done[IP_DONE];	/* a ring; the last handed back */
	size_t donenext;
	struct ipreasm_stats st;
};

struct ipreasm *
ipreasm_new(size_t max_dgrams, size_t max_bytes, uint64_t timeout)
{
	struct ipreasm *r = ecalloc(1, sizeof(*r));

	r->max_dgrams = max_dgrams;
	r->max_bytes = max_bytes;
	r->timeout = timeout;
	return r;
}

static void
dgram_unlink(struct ipreasm *r, struct dgram *d)
{
	if (d->prev != NULL)
		d->prev->next = d->next;
	else
		r->head = d->next;
	if (d->next != NULL)
		d->next->prev = d->prev;
	else
		r->tail = d->prev;
	hmap_del(&r->map, d->key, d->klen);
	r->n--;
	r->bytes -= d->cap;
}

static void
dgram_free(struct dgram *d)
{
	free(d->buf);
	free(d->pc);
	free(d);
}

/* Give up d: it will not be complete. */
static void
dgram_drop(struct ipreasm *r, struct dgram *d, int capped)
{
	r->st.incomplete++;
	r->st.capped += capped != 0;
	r->st.lostfrags += d->nfrags;
	dgram_unlink(r, d);
	dgram_free(d);
}

static void
expire(struct ipreasm *r, uint64_t now)
{
	while (r->head != NULL && now > r->head->born &&
	    now - r->head->born > r->timeout)
		dgram_drop(r, r->head, 0);
}

/*
 * Copy the bytes of [s, e) that no piece covers yet (the first copy of a
 * byte wins), then add [s, e) to the cover, merging what it touches.
 * Return 0, or -1 when the datagram has come in too many pieces.
 */
static int
cover(struct dgram *d, uint32_t s, uint32_t e, const unsigned char *data)
{
	size_t i, j;
	uint32_t cur = s, ns = s, ne = e;

	for (i = 0; i < d->npc && cur < e; i++) {
		if (d->pc[i].end <= cur)
			continue;
		if (d->pc[i].start >= e)
			break;
		if (d->pc[i].start > cur)
			memcpy(d->buf + cur, data + (cur - s),
			    d->pc[i].start - cur);
		cur = d->pc[i].end;
	}
	if (cur < e)
		memcpy(d->buf + cur, data + (cur - s), e - cur);

	/* Pieces [i, j) touch [s, e): they become one. */
	for (i = 0; i < d->npc && d->pc[i].end < s; i++)
		;
	for (j = i; j < d->npc && d->pc[j].start <= e; j++) {
		if (d->pc[j].start < ns)
			ns = d->pc[j].start;
		if (d->pc[j].end > ne)
			ne = d->pc[j].end;
	}
	if (j == i) {
		if (d->npc == d->pccap) {
			d->pccap = d->pccap ? 2 * d->pccap : 4;
			d->pc = ereallocarray(d->pc, d->pccap, sizeof(*d->pc));
		}
		memmove(d->pc + i + 1, d->pc + i, (d->npc - i) *
		    sizeof(*d->pc));
		d->npc++;
	} else if (j > i + 1) {
		memmove(d->pc + i + 1, d->pc + j, (d->npc - j) *
		    sizeof(*d->pc));
		d->npc -= j - i - 1;
	}
	d->pc[i].start = ns;
	d->pc[i].end = ne;
	return d->npc > IP_MAXPIECES ? -1 : 0;
}

static size_t
frag_key(const struct ipfrag *f, unsigned char *k)
{
	size_t alen = f->family == 4 ? 4 : 16, n = 0;

	k[n++] = (unsigned char)f->family;
	k[n++] = f->family == 4 ? f->proto : 0;
	memcpy(k + n, f->src, alen);
	n += alen;
	memcpy(k + n, f->dst, alen);
	n += alen;
	memcpy(k + n, &f->id, sizeof(f->id));
	n += sizeof(f->id);
	return n;
}

/*
 * Whether f repeats, byte for byte, a fragment of a datagram completed
 * lately (within the timeout) that has not started anew.
 */
static int
is_dup(struct ipreasm *r, const unsigned char *key, size_t klen,
    const struct ipfrag *f, uint64_t now)
{
	const struct done *dn;
	size_t i;

	if (f->len < f->wirelen || hmap_get(&r->map, key, klen) != NULL)
		return 0;
	for (i = 0; i < IP_DONE; i++) {
		dn = &r->done[i];
		if (dn->buf != NULL && dn->klen == klen &&
		    memcmp(dn->key, key, klen) == 0 && now >= dn->at &&
		    now - dn->at <= r->timeout &&
		    f->offset + f->wirelen <= dn->len &&
		    memcmp(dn->buf + f->offset, f->data, f->wirelen) == 0)
			return 1;
	}
	return 0;
}

int
ipreasm_add(struct ipreasm *r, const struct ipfrag *f, uint64_t now,
    const unsigned char **out, size_t *outlen, uint8_t *proto,
    unsigned *nfrags)
{
	unsigned char key[40];
	size_t klen, want;
	struct dgram *d;
	struct done *dn;
	void **v;
	int isnew;
	uint32_t s = f->offset, e;

	expire(r, now);
	klen = frag_key(f, key);
	if (f->wirelen > IP_MAXDGRAM || s > IP_MAXDGRAM - f->wirelen) {
		r->st.bad++;
		if ((v = hmap_get(&r->map, key, klen)) != NULL)
			dgram_drop(r, *v, 0);
		return -1;
	}
	e = s + (uint32_t)f->wirelen;
	if (is_dup(r, key, klen, f, now)) {
		r->st.dupfrags++;
		return 0;
	}
	v = hmap_put(&r->map, key, klen, &isnew);
	if (isnew) {
		d = ecalloc(1, sizeof(*d));
		memcpy(d->key, key, klen);
		d->klen = klen;
		d->born = now;
		d->prev = r->tail;
		if (r->tail != NULL)
			r->tail->next = d;
		else
			r->head = d;
		r->tail = d;
		r->n++;
		*v = d;
	} else
		d = *v;
	d->nfrags++;
	if (s == 0)
		d->proto = f->proto;
	/*
	 * A fragment cut by the snapshot length, or one that contradicts
	 * the end: the datagram can never be whole.
	 */
	if (f->len < f->wirelen || (d->have_end && e > d->end) ||
	    (!f->more && d->have_end && e != d->end) ||
	    (!f->more && d->npc > 0 && d->pc[d->npc - 1].end > e)) {
		dgram_drop(r, d, 0);
		return -1;
	}
	if (!f->more) {
		d->have_end = 1;
		d->end = e;
	}
	if (e > d->cap) {
		want = d->cap == 0 ? 2048 : d->cap;
		while (want < e)
			want *= 2;
		if (want > IP_MAXDGRAM)
			want = IP_MAXDGRAM;
		r->bytes += want - d->cap;
		d->buf = erealloc(d->buf, want);
		d->cap = want;
	}
	if (e > s && cover(d, s, e, f->data) < 0) {
		r->st.bad++;
		dgram_drop(r, d, 0);
		return -1;
	}
	if (d->have_end && d->npc == 1 && d->pc[0].start == 0 &&
	    d->pc[0].end == d->end) {
		/* Whole: hand it back and forget it (but its bytes). */
		dn = &r->done[r->donenext++ % IP_DONE];
		free(dn->buf);
		memcpy(dn->key, key, klen);
		dn->klen = klen;
		dn->buf = d->buf;
		dn->len = d->end;
		dn->at = now;
		d->buf = NULL;
		*out = dn->buf;
		*outlen = d->end;
		*proto = d->proto;
		*nfrags = d->nfrags;
		r->st.datagrams++;
		dgram_unlink(r, d);
		dgram_free(d);
		return 1;
	}
	if (d->have_end && d->end == 0) {
		/* An empty last fragment at offset 0 and nothing else. */
		dgram_drop(r, d, 0);
		return -1;
	}
	/* The caps: the oldest datagrams go first. */
	while (r->head != NULL && r->head != d &&
	    (r->n > r->max_dgrams || r->bytes > r->max_bytes))
		dgram_drop(r, r->head, 1);
	return 0;
}

void
ipreasm_flush(struct ipreasm *r)
{
	while (r->head != NULL)
		dgram_drop(r, r->head, 0);
}

const struct ipreasm_stats *
ipreasm_stats(const struct ipreasm *r)
{
	return &r->st;
}

void
ipreasm_free(struct ipreasm *r)
{
	size_t i;

	if (r == NULL)
		return;
	while (r->head != NULL) {
		struct dgram *d = r->head;

		dgram_unlink(r, d);
		dgram_free(d);
	}
	hmap_release(&r->map, NULL);
	for (i = 0; i < IP_DONE; i++)
		free(r->done[i].buf);
	free(r);
}
