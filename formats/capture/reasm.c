/* SPDX-License-Identifier: ISC */
/* reasm.c: IP fragment and TCP stream reassembly (see reasm.h). */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "netlayers.h"
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

/* --- TCP --- */

/* Sequence number comparisons, modulo 2^32. */
#define SEQ_LT(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)) < 0)
#define SEQ_LEQ(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)) <= 0)
#define SEQ_GT(a, b) SEQ_LT(b, a)

struct seg {
	uint32_t seq;
	size_t len;
	struct seg *next;
	unsigned char data[];
};

/*
 * What a held segment costs, against max_held and max_held_flow: its
 * bytes and its bookkeeping, so that a flood of 1-byte segments is held
 * within the caps as surely as a few big ones.
 */
#define SEG_COST(n) (sizeof(struct seg) + (n))

struct half {
	struct tcpflow f;	/* first: the callbacks get &h->f */
	int have_isn;
	uint32_t isn;		/* sequence number of the SYN */
	int have_next;
	uint32_t next;		/* the next byte expected */
	int have_fin;
	uint32_t fin;		/* sequence number of the FIN */
	int have_acked;
	uint32_t acked;		/* highest ack the other side sent */
	int ended;
	int started;		/* any byte or SYN seen */
	struct seg *held;	/* out-of-order segments, in order */
	size_t nheld;		/* SEG_COST of the segments held */
	int pending;		/* on the list of holes */
	uint64_t hole_since, hole_pkt;
	struct half *pprev, *pnext;	/* the list of holes */
};

struct conn {
	unsigned char key[38];
	size_t klen;
	struct half h[2];	/* [0]: from the lower endpoint */
	struct conn *prev, *next;	/* by activity, most recent first */
};

/*
 * Connections looked up lately, by a hash of their endpoints that is the
 * same in both directions: the segments of a capture come from a few
 * connections in turn, data one way and acks the other, and a hit here
 * spares building the key and the hash table's lookup.
 */
#define CONN_CACHE 64

struct tcpreasm {
	struct tcp_limits lim;
	struct tcp_ops ops;
	void *arg;
	struct hmap map;	/* key -> struct conn */
	struct conn *cache[CONN_CACHE];
	struct conn *mru, *lru;
	size_t nconns;
	size_t held;
	struct half *phead, *ptail;	/* halves with a hole, oldest first */
	uint64_t now, npkt;
	struct tcpreasm_stats st;
};

struct tcpreasm *
tcpreasm_new(const struct tcp_limits *lim, const struct tcp_ops *ops,
    void *arg)
{
	struct tcpreasm *t = ecalloc(1, sizeof(*t));

	t->lim = *lim;
	t->ops = *ops;
	t->arg = arg;
	return t;
}

static void
pending_del(struct tcpreasm *t, struct half *h)
{
	if (!h->pending)
		return;
	if (h->pprev != NULL)
		h->pprev->pnext = h->pnext;
	else
		t->phead = h->pnext;
	if (h->pnext != NULL)
		h->pnext->pprev = h->pprev;
	else
		t->ptail = h->pprev;
	h->pprev = h->pnext = NULL;
	h->pending = 0;
}

static void
pending_add(struct tcpreasm *t, struct half *h)
{
	if (h->pending)
		return;
	h->pending = 1;
	h->hole_since = t->now;
	h->hole_pkt = t->npkt;
	h->pnext = NULL;
	h->pprev = t->ptail;
	if (t->ptail != NULL)
		t->ptail->pnext = h;
	else
		t->phead = h;
	t->ptail = h;
}

static void
free_held(struct tcpreasm *t, struct half *h)
{
	struct seg *s, *n;

	for (s = h->held; s != NULL; s = n) {
		n = s->next;
		free(s);
	}
	h->held = NULL;
	t->held -= h->nheld;
	h->nheld = 0;
	pending_del(t, h);
}

static void
deliver(struct tcpreasm *t, struct half *h, const unsigned char *p, size_t n)
{
	h->f.seq = h->next;
	h->next += (uint32_t)n;
	if (n > 0 && !h->f.ignore)
		t->ops.data(t->arg, &h->f, p, n);
	if (h->f.ignore && h->held != NULL)
		free_held(t, h);
}

/*
 * Hand over the held segments that the next byte has reached.  A hole
 * left behind them is a new one: its wait starts now.
 */
static void
pull(struct tcpreasm *t, struct half *h)
{
	struct seg *s;
	int moved = 0;

	while ((s = h->held) != NULL && SEQ_LEQ(s->seq, h->next)) {
		uint32_t skip = h->next - s->seq;

		h->held = s->next;
		h->nheld -= SEG_COST(s->len);
		t->held -= SEG_COST(s->len);
		moved = 1;
		if (skip < s->len)
			deliver(t, h, s->data + skip, s->len - skip);
		free(s);
		if (h->held == NULL)
			break;	/* deliver() may have freed them all */
	}
	if (h->held == NULL)
		pending_del(t, h);
	else if (moved || !h->pending) {
		pending_del(t, h);
		pending_add(t, h);
	}
}

/* Give up the bytes before `upto' as lost, then deliver what follows. */
static void
lose(struct tcpreasm *t, struct half *h, uint32_t upto, int capped)
{
	uint32_t lost = upto - h->next;

	if (!SEQ_GT(upto, h->next))
		return;
	t->st.lost += lost;
	t->st.holes++;
	t->st.capped += capped != 0;
	h->f.seq = h->next;
	h->next = upto;
	if (!h->f.ignore)
		t->ops.gap(t->arg, &h->f, lost);
	pending_del(t, h);
	pull(t, h);
}

/* Give up the first hole of h. */
static void
lose_hole(struct tcpreasm *t, struct half *h, int capped)
{
	if (h->held != NULL)
		lose(t, h, h->held->seq, capped);
}

static void
half_end(struct tcpreasm *t, struct half *h)
{
	if (h->ended)
		return;
	while (h->held != NULL)
		lose_hole(t, h, 0);
	/* What the FIN, or else the other side, says was sent. */
	if (h->have_fin)
		lose(t, h, h->fin, 0);
	else if (h->have_acked && h->have_next)
		lose(t, h, h->acked, 0);
	h->ended = 1;
	pending_del(t, h);
	if (h->started)
		t->ops.end(t->arg, &h->f);
	h->f.user = NULL;
}

static void
conn_unlink(struct tcpreasm *t, struct conn *c)
{
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		t->mru = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	else
		t->lru = c->prev;
	c->prev = c->next = NULL;
}

/* The cache slot of a connection, from either direction's endpoints. */
static size_t
cache_slot(int family, const unsigned char *src, uint16_t sport,
    const unsigned char *dst, uint16_t dport)
{
	size_t last = family == 4 ? 3 : 15;

	return (sport ^ dport ^ src[last] ^ dst[last]) % CONN_CACHE;
}

static void
conn_end(struct tcpreasm *t, struct conn *c)
{
	const struct tcpflow *f = &c->h[0].f;
	size_t k = cache_slot(f->family, f->src, f->sport, f->dst, f->dport);

	if (t->cache[k] == c)
		t->cache[k] = NULL;
	half_end(t, &c->h[0]);
	half_end(t, &c->h[1]);
	conn_unlink(t, c);
	hmap_del(&t->map, c->key, c->klen);
	t->nconns--;
	free(c);
}

/* Compare two endpoints (address, port) for the connection's key. */
static int
endpoint_cmp(const unsigned char *a, uint16_t ap, const unsigned char *b,
    uint16_t bp, size_t alen)
{
	int c = memcmp(a, b, alen);

	if (c != 0)
		return c;
	return (ap > bp) - (ap < bp);
}

/* Whether the segment s goes the way of f. */
static inline int
same_way(const struct tcpflow *f, const struct tcpseg *s, size_t alen)
{
	if (f->sport != s->sport || f->dport != s->dport ||
	    f->family != s->family)
		return 0;
	/* Constant lengths: the compiler compares in place. */
	if (alen == 4)
		return memcmp(f->src, s->src, 4) == 0 &&
		    memcmp(f->dst, s->dst, 4) == 0;
	return memcmp(f->src, s->src, 16) == 0 &&
	    memcmp(f->dst, s->dst, 16) == 0;
}

/* The connection in s's cache slot, when it is s's; *dir its direction. */
static struct conn *
conn_cached(struct tcpreasm *t, const struct tcpseg *s, size_t alen,
    size_t slot, int *dir)
{
	struct conn *c = t->cache[slot];

	if (c == NULL)
		return NULL;
	/* h[0] first: a connection from an endpoint to itself is h[0]'s. */
	if (same_way(&c->h[0].f, s, alen))
		*dir = 0;
	else if (same_way(&c->h[1].f, s, alen))
		*dir = 1;
	else
		return NULL;
	return c;
}

/* c, on no list, first on the list by activity. */
static void
conn_push(struct tcpreasm *t, struct conn *c)
{
	c->next = t->mru;
	if (t->mru != NULL)
		t->mru->prev = c;
	t->mru = c;
	if (t->lru == NULL)
		t->lru = c;
}

/* The most recently active connection is c now. */
static void
conn_touch(struct tcpreasm *t, struct conn *c)
{
	if (c == t->mru)
		return;
	conn_unlink(t, c);
	conn_push(t, c);
}

/*
 * The connection of s not in the cache: by its key in the hash table, or
 * a new one.  Apart from conn_get so that the cache's hits, nearly every
 * segment, do not pay for the key's room on the stack.
 */
static struct conn * __attribute__((noinline))
conn_find(struct tcpreasm *t, const struct tcpseg *s, size_t alen,
    size_t slot, int *dir)
{
	size_t n = 0;
	const unsigned char *lo, *hi;
	uint16_t lop, hip;
	unsigned char key[38];
	struct conn *c;
	void **v;
	int isnew, i;

	*dir = endpoint_cmp(s->src, s->sport, s->dst, s->dport, alen) > 0;
	lo = *dir ? s->dst : s->src;
	hi = *dir ? s->src : s->dst;
	lop = *dir ? s->dport : s->sport;
	hip = *dir ? s->sport : s->dport;
	key[n++] = (unsigned char)s->family;
	memcpy(key + n, lo, alen);
	n += alen;
	memcpy(key + n, &lop, 2);
	n += 2;
	memcpy(key + n, hi, alen);
	n += alen;
	memcpy(key + n, &hip, 2);
	n += 2;
	v = hmap_get(&t->map, key, n);
	if (v != NULL) {
		c = *v;
		conn_touch(t, c);
		t->cache[slot] = c;
		return c;
	}
	if (t->nconns >= t->lim.max_conns && t->lru != NULL) {
		t->st.evicted++;
		conn_end(t, t->lru);
	}
	c = ecalloc(1, sizeof(*c));
	memcpy(c->key, key, n);
	c->klen = n;
	for (i = 0; i < 2; i++) {
		struct half *h = &c->h[i];

		h->f.family = s->family;
		memcpy(h->f.src, i == 0 ? lo : hi, alen);
		memcpy(h->f.dst, i == 0 ? hi : lo, alen);
		h->f.sport = i == 0 ? lop : hip;
		h->f.dport = i == 0 ? hip : lop;
	}
	v = hmap_put(&t->map, key, n, &isnew);
	*v = c;
	t->cache[slot] = c;
	conn_push(t, c);
	t->nconns++;
	t->st.conns++;
	return c;
}

static struct conn *
conn_get(struct tcpreasm *t, const struct tcpseg *s, int *dir)
{
	size_t alen = s->family == 4 ? 4 : 16, slot;
	struct conn *c;

	slot = cache_slot(s->family, s->src, s->sport, s->dst, s->dport);
	if ((c = conn_cached(t, s, alen, slot, dir)) != NULL) {
		conn_touch(t, c);
		return c;
	}
	return conn_find(t, s, alen, slot, dir);
}

/* Room for n more held bytes in h; 0, or -1 when there is none. */
static int
make_room(struct tcpreasm *t, struct half *h, size_t n)
{
	n = SEG_COST(n);
	while (h->held != NULL && h->nheld + n > t->lim.max_held_flow)
		lose_hole(t, h, 1);
	while (t->held + n > t->lim.max_held && t->phead != NULL)
		lose_hole(t, t->phead, 1);
	if (h->nheld + n > t->lim.max_held_flow || t->held + n > t->lim.max_held)
		return -1;
	return 0;
}

/* Hold the bytes of [seq, seq + n) that no held segment has yet. */
static void
hold(struct tcpreasm *t, struct half *h, uint32_t seq,
    const unsigned char *p, size_t n)
{
	struct seg **pp = &h->held, *s;
	uint32_t cur = seq, end = seq + (uint32_t)n, upto, e;
	size_t k;

	while (SEQ_LT(cur, end)) {
		while (*pp != NULL &&
		    SEQ_LEQ((*pp)->seq + (uint32_t)(*pp)->len, cur))
			pp = &(*pp)->next;
		if (*pp != NULL && SEQ_LEQ((*pp)->seq, cur)) {
			/* Held already: the first copy wins. */
			e = (*pp)->seq + (uint32_t)(*pp)->len;
			t->st.retrans += (SEQ_LT(e, end) ? e : end) - cur;
			cur = e;
			continue;
		}
		upto = end;
		if (*pp != NULL && SEQ_LT((*pp)->seq, end))
			upto = (*pp)->seq;
		k = upto - cur;
		s = emalloc(sizeof(*s) + k);
		s->seq = cur;
		s->len = k;
		memcpy(s->data, p + (cur - seq), k);
		s->next = *pp;
		*pp = s;
		pp = &s->next;
		h->nheld += SEG_COST(k);
		t->held += SEG_COST(k);
		cur = upto;
	}
	if (h->held != NULL && !h->pending)
		pending_add(t, h);
}

/* The receiver acknowledged past a hole: the capture missed those bytes. */
static void
check_acked(struct tcpreasm *t, struct half *h)
{
	uint32_t upto;

	if (h->held == NULL || !h->have_acked || !SEQ_GT(h->acked, h->next))
		return;
	upto = SEQ_LT(h->acked, h->held->seq) ? h->acked : h->held->seq;
	lose(t, h, upto, 0);
}

/* Payload bytes [seq, seq + n) of h. */
static void
take(struct tcpreasm *t, struct half *h, uint32_t seq,
    const unsigned char *p, size_t n)
{
	uint32_t end = seq + (uint32_t)n, d;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		if (h->f.ignore || h->ended)
			return;
		if (SEQ_LEQ(end, h->next)) {
			t->st.retrans += n;
			return;
		}
		if (SEQ_LT(seq, h->next)) {
			d = h->next - seq;
			t->st.retrans += d;
			p += d;
			n -= d;
			seq = h->next;
		}
		if (seq == h->next) {
			deliver(t, h, p, n);
			/* In order with nothing held, the common case. */
			if (h->held != NULL || h->pending)
				pull(t, h);
			return;
		}
		/* Out of order.  Making room may deliver: look again. */
		if (tries == 0 && make_room(t, h, n) < 0) {
			t->st.dropped += n;
			return;
		}
	}
	hold(t, h, seq, p, n);
	if (t->ops.ahead != NULL && !h->f.ignore)
		t->ops.ahead(t->arg, &h->f, seq, p, n);
	check_acked(t, h);
}

/* Holes that waited too long are lost. */
static void
tick(struct tcpreasm *t)
{
	struct half *h;

	while ((h = t->phead) != NULL) {
		if (t->now - h->hole_since <= t->lim.hole_timeout &&
		    t->npkt - h->hole_pkt <= t->lim.hole_packets)
			break;
		lose_hole(t, h, 0);
		if (t->phead == h)
			break;		/* cannot happen; never spin */
	}
}

static void
maybe_done(struct tcpreasm *t, struct conn *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct half *h = &c->h[i];

		if (!h->ended && h->have_fin && h->have_next &&
		    h->next == h->fin)
			half_end(t, h);
	}
	if (c->h[0].ended && c->h[1].ended)
		conn_end(t, c);
}

int
tcpreasm_segment(struct tcpreasm *t, const struct tcpseg *s, uint64_t now)
{
	struct conn *c;
	struct half *h, *o;
	uint32_t seq = s->seq;
	int dir, ignored;

	if (now > t->now)
		t->now = now;
	t->npkt++;
	tick(t);
	c = conn_get(t, s, &dir);
	h = &c->h[dir];
	if (s->flags & TCP_RST) {
		conn_end(t, c);
		return 0;
	}
	if (s->flags & TCP_SYN) {
		if (h->started && !(h->have_isn && h->isn == seq)) {
			/* A new connection on the same addresses and ports. */
			conn_end(t, c);
			c = conn_get(t, s, &dir);
			h = &c->h[dir];
		}
		if (!h->started) {
			h->started = 1;
			h->f.from_start = 1;
			h->have_isn = 1;
			h->isn = seq;
			h->have_next = 1;
			h->next = seq + 1;
		}
		seq++;		/* the SYN takes a sequence number */
	}
	o = &c->h[!dir];
	if ((s->flags & TCP_ACK) && o->started && !o->ended) {
		if (!o->have_acked || SEQ_GT(s->ack, o->acked)) {
			o->acked = s->ack;
			o->have_acked = 1;
		}
		check_acked(t, o);
	}
	ignored = h->f.ignore && s->wirelen > 0;
	if (s->wirelen > 0 && !h->ended) {
		if (!h->have_next) {
			/* Joined mid-stream: frames must be searched for. */
			h->started = 1;
			h->have_next = 1;
			h->next = seq;
		}
		h->f.datapkts++;
		take(t, h, seq, s->data, s->len);
	}
	if ((s->flags & TCP_FIN) && !h->ended) {
		if (!h->have_next) {
			h->started = 1;
			h->have_next = 1;
			h->next = seq + (uint32_t)s->wirelen;
		}
		h->have_fin = 1;
		h->fin = seq + (uint32_t)s->wirelen;
	}
	maybe_done(t, c);
	return ignored;
}

void
tcpreasm_flush(struct tcpreasm *t)
{
	while (t->mru != NULL)
		conn_end(t, t->mru);
}

const struct tcpreasm_stats *
tcpreasm_stats(const struct tcpreasm *t)
{
	return &t->st;
}

void
tcpreasm_free(struct tcpreasm *t)
{
	if (t == NULL)
		return;
	tcpreasm_flush(t);
	hmap_release(&t->map, NULL);
	free(t);
}
