/* SPDX-License-Identifier: ISC */
/*
 * tcpreasm.c: TCP stream reassembly by sequence number (the second half
 * of reasm.h): each direction of a connection, in-order bytes handed on,
 * out-of-order segments held under the caps, holes given up as lost; the
 * connections found through a small cache by their endpoints, the least
 * recently active ended beyond the cap.  IP fragments are ipreasm.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "netlayers.h"
#include "reasm.h"
#include "util.h"

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
