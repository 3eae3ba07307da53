/* SPDX-License-Identifier: ISC */
/*
 * capture.c: GMEM telemetry in pcap and pcapng captures (see capture.h),
 * following docs/wire-protocol.md.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "capture.h"
#include "gmem.h"
#include "gtime.h"
#include "hmap.h"
#include "netlayers.h"
#include "pcapng.h"
#include "reasm.h"

/*
 * Memory caps.  A capture of a few thousand GPUs streaming over TCP stays
 * far below them; hostile input hits them and is told so.
 */
#define MAX_CONNS 65536			/* TCP connections at once */
#define MAX_HELD_MIB 64			/* out-of-order TCP bytes, all */
#define MAX_HELD ((size_t)MAX_HELD_MIB << 20)
#define MAX_HELD_FLOW (4U << 20)	/* out-of-order TCP bytes, one */
#define HOLE_TIMEOUT (2 * NS_PER_SEC)	/* a TCP hole waits this long */
#define HOLE_PACKETS 200000		/* ...or this many packets */
#define MAX_FRAGS 4096			/* IP datagrams in pieces */
#define MAX_FRAG_BYTES (32U << 20)
#define FRAG_TIMEOUT (30 * NS_PER_SEC)	/* as Linux's ipfrag_time */
#define MAX_PARTIAL_MIB 128		/* partial TCP frames held, all */
#define MAX_PARTIAL ((size_t)MAX_PARTIAL_MIB << 20)
#define MAX_SEQS 65536			/* (sender, gpu) pairs followed */
/* A stream joined in its middle is searched this far for a frame. */
#define SEARCH_LIMIT (GMEM_MAXFRAME + GMEM_HDRLEN)
#define MAX_TUNNEL 4			/* IP in IP nesting */
#define SHOW_PAIRS 4			/* (sender, gpu) pairs named */

#define STR_(x) #x
#define STR(x) STR_(x)

#define SEQ_WINDOW 64		/* recent sequence numbers remembered */

/* b - a for TCP sequence numbers, modulo 2^32. */
#define SEQ_DIFF(b, a) ((int32_t)((uint32_t)(b) - (uint32_t)(a)))

/* Sequence numbers of one (sender, gpu). */
struct seqst {
	char host[INET6_ADDRSTRLEN];
	uint16_t gpu;
	size_t order;		/* of first appearance */
	int have;
	uint32_t last;		/* highest sequence number seen */
	uint64_t seen;		/* bit i: last - i was seen */
	/*
	 * A digest of the frame seen with each recent number: a repeated
	 * number with the same content is a duplicate (a datagram captured
	 * twice); with other content, the sender counts anew (it
	 * restarted).
	 */
	uint64_t digest[SEQ_WINDOW];
	uint64_t lost, dups, restarts;
};

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

/* Where libpcap is in a pcap file, for the offsets in messages. */
#define SEQKEY 19		/* family, address, gpu */
#define NSEQCACHE 32

/* A sender/GPU pair looked up lately. */
struct seqcache {
	unsigned char key[SEQKEY];
	struct seqst *q;
};

struct pcapwatch {
	unsigned char hdr[24];
	size_t have;		/* bytes of hdr collected */
	size_t need;		/* 24 for the file header, then hdrsize */
	size_t hdrsize;
	int started;		/* the file header is read */
	int be, swapped;	/* byte order; caplen and len swapped */
	uint64_t off;		/* bytes consumed */
	uint64_t left;		/* packet bytes still to pass */
	uint64_t pktoff;	/* offset of the last record header */
	uint64_t *q;		/* offsets of records read ahead, a ring */
	size_t qcap, qhead, qn;
};

struct ltprog {
	int linktype;
	int ok;
	struct bpf_program prog;
};

struct capture {
	struct source *s;
	struct input *in;
	FILE *fp;
	pcap_t *pc;
	int ng;			/* pcapng */
	int linktype;		/* LINKTYPE_ of the pcap file */
	struct pcapwatch pw;
	uint64_t given;		/* bytes handed to libpcap */
	struct seqcache seqcache[NSEQCACHE];
	uint64_t capsum;	/* what the caps had dropped, at the last look */
	struct pcapng *png;	/* watches libpcap, then reads on */
	int fallback;		/* pcapng.c reads now */
	char *refused;		/* why libpcap gave up */
	uint64_t refused_at;	/* packets read before */
	int mixed;		/* the fallback met other link types */
	char what[96];

	struct bpf_program prog;	/* --filter, libpcap's link type */
	int have_prog;
	struct ltprog *progs;	/* --filter per link type (fallback) */
	size_t nprogs;

	uint64_t npkt;		/* packets read */
	uint64_t pktoff;	/* offset of the current one */
	uint64_t now;		/* the latest capture time so far */

	struct ipreasm *ipr;
	struct tcpreasm *tcp;
	struct gmem_budget budget;
	struct tcpflow *flow;	/* the TCP direction being fed */

	struct hmap seqs;	/* (family, address, gpu) -> struct seqst */
	size_t nseqs;
	uint64_t untracked;

	unsigned caps_told;	/* a bit per cap that has said so */

	uint64_t frames, dups, lost, restarts;
	uint64_t tcp_lost, tcp_cut;
};

/* --- detection --- */

static int
sniff(const unsigned char *p, size_t n)
{
	struct bytes b = bytes_of(p, n);
	uint32_t m = get_be32(&b, 0);

	if (b.short_read)
		return 0;
	switch (m) {
	case 0xa1b2c3d4:	/* microseconds */
	case 0xd4c3b2a1:
	case 0xa1b23c4d:	/* nanoseconds */
	case 0x4d3cb2a1:
	case 0xa1b2cd34:	/* Kuznetzov's patched format */
	case 0x34cdb2a1:
		return 100;
	case 0x0a0d0d0a:	/* pcapng: a section header block */
		m = get_be32(&b, 8);
		return !b.short_read && (m == 0x1a2b3c4d || m == 0x4d3c2b1a) ?
		    100 : 0;
	default:
		return 0;
	}
}

/* --- the bytes libpcap reads --- */

/*
 * Remember the offset of a record as it goes past, for when libpcap hands
 * the packet out: libpcap reads ahead in large blocks, and packets come
 * out in the order their records went in.
 */
static void
pw_push(struct pcapwatch *w, uint64_t off)
{
	if (w->qn == w->qcap) {
		size_t ncap = w->qcap ? w->qcap * 2 : 4096, i;
		uint64_t *nq = ereallocarray(NULL, ncap, sizeof(*nq));

		for (i = 0; i < w->qn; i++)
			nq[i] = w->q[(w->qhead + i) % w->qcap];
		free(w->q);
		w->q = nq;
		w->qcap = ncap;
		w->qhead = 0;
	}
	w->q[(w->qhead + w->qn) % w->qcap] = off;
	w->qn++;
}

/* The offset of the record libpcap has just handed out. */
static uint64_t
pw_pop(struct pcapwatch *w)
{
	uint64_t off;

	if (w->qn == 0)
		return w->pktoff;
	off = w->q[w->qhead];
	w->qhead = (w->qhead + 1) % w->qcap;
	w->qn--;
	return off;
}

/* Follow a pcap file's records, to know each one's offset. */
static void
pcap_watch(struct pcapwatch *w, const unsigned char *p, size_t n)
{
	struct bytes b;
	size_t k;
	uint32_t caplen, len;

	while (n > 0) {
		if (w->left > 0) {
			k = w->left < n ? (size_t)w->left : n;
			w->left -= k;
			w->off += k;
			p += k;
			n -= k;
			continue;
		}
		if (w->need == 0)
			w->need = 24;
		k = w->need - w->have;
		if (k > n)
			k = n;
		memcpy(w->hdr + w->have, p, k);
		w->have += k;
		p += k;
		n -= k;
		if (w->have < w->need)
			continue;
		b = bytes_of(w->hdr, w->have);
		if (!w->started) {
			uint32_t m = get_be32(&b, 0);
			uint16_t major, minor;

			w->be = m == 0xa1b2c3d4 || m == 0xa1b23c4d ||
			    m == 0xa1b2cd34;
			major = get_16(&b, 4, w->be);
			minor = get_16(&b, 6, w->be);
			/* As libpcap: lengths swapped before version 2.3. */
			w->swapped = major == 543 ||
			    (major == 2 && minor < 3) ? 1 :
			    major == 2 && minor == 3 ? 2 : 0;
			w->hdrsize = m == 0xa1b2cd34 || m == 0x34cdb2a1 ? 24 :
			    16;
			w->started = 1;
		} else {
			w->pktoff = w->off;
			pw_push(w, w->off);
			caplen = get_32(&b, 8, w->be);
			len = get_32(&b, 12, w->be);
			if (w->swapped == 1 ||
			    (w->swapped == 2 && caplen > len))
				caplen = len;
			w->left = caplen;
		}
		w->off += w->have;
		w->have = 0;
		w->need = w->hdrsize;
	}
}

/*
 * A file's snapshot length (bytes 16-19 of a pcap file's header, among
 * the n bytes at offset off) set to 0, "no limit" to libpcap: a packet
 * stored whole, longer than the snapshot length the file claims, is
 * then read whole (libpcap would cut it to that length), as tshark does.
 */
static void
unlimit(uint64_t off, unsigned char *p, size_t n)
{
	uint64_t i;

	for (i = off; i < off + n && i < 20; i++)
		if (i >= 16)
			p[i - off] = 0;
}

/*
 * libpcap reads through here.  A pcapng file is given never more than the
 * rest of the block at hand: libpcap's stdio buffer then holds nothing
 * beyond what it has asked for, so that pcapng.c can read on from exactly
 * where libpcap stopped.  A pcap file needs no such care (nothing takes
 * over from libpcap), so it is read in large blocks; its watcher queues
 * the offsets of the records it sees pass, for messages.
 */
static ssize_t
cookie_read(void *cookie, char *buf, size_t n)
{
	struct capture *c = cookie;
	size_t lim = c->ng ? pcapng_want(c->png) : 0;
	ssize_t r;

	if (lim > 0 && n > lim)
		n = lim;
	r = input_read(c->in, buf, n);

	if (r < 0) {
		errno = EIO;
		return -1;
	}
	if (c->ng) {
		pcapng_unlimit(c->png, (unsigned char *)buf, (size_t)r);
		pcapng_watch(c->png, (unsigned char *)buf, (size_t)r);
	} else {
		unlimit(c->given, (unsigned char *)buf, (size_t)r);
		pcap_watch(&c->pw, (unsigned char *)buf, (size_t)r);
	}
	c->given += (uint64_t)r;
	return r;
}

/* --- sequence numbers --- */

static struct seqst *
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
static int
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

/* --- frames to records --- */

static void
where(void *st, struct sbuf *sb)
{
	struct capture *c = st;

	sbuf_printf(sb, "packet %llu (offset 0x%llx)",
	    (unsigned long long)c->npkt, (unsigned long long)c->pktoff);
}

static void
bad(struct capture *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
bad(struct capture *c, const char *fmt, ...)
{
	struct sbuf w = SBUF_INIT, m = SBUF_INIT;
	va_list ap;

	where(c, &w);
	va_start(ap, fmt);
	sbuf_vprintf(&m, fmt, ap);
	va_end(ap);
	source_bad_at(c->s, w.buf, "%s", m.buf);
	sbuf_release(&w);
	sbuf_release(&m);
}

/* A frame that passed the checks, from the sender at addr. */
static void
frame(struct capture *c, int family, const unsigned char *addr,
    const unsigned char *p, const struct gmem_hdr *h)
{
	char host[INET6_ADDRSTRLEN];
	struct seqst *q;
	struct gmem_rec g;
	struct rec r;
	size_t i, len;

	c->frames++;
	q = seq_of(c, family, addr, h->gpu);
	if (q != NULL) {
		/*
		 * The whole frame tells a frame captured twice from another
		 * under the same number (a restarted sender, or two
		 * recordings of one address merged).
		 */
		len = gmem_frame_len(h);
		if (!seq_check(c, q, h->seq, hmap_hash(p, len)))
			return;
		if (h->flags & GMEM_FLAG_LAST)
			q->have = 0;	/* whatever comes next starts afresh */
	} else
		inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, host,
		    sizeof(host));
	rec_init(&r);
	r.host = q != NULL ? q->host : host;
	r.gpu = h->gpu;
	r.has = REC_USED | REC_FREE;
	if (h->total != 0) {
		r.total = h->total;
		r.has |= REC_TOTAL;
	}
	for (i = 0; i < h->count; i++) {
		gmem_rec_decode(p, i, &g);
		r.ts = g.ts;
		r.used = g.used;
		r.free = g.free;
		r.pid = g.pid;
		source_emit(c->s, &r);
	}
}

/* Count n packets that carried no GMEM frame. */
static void
nongmem(struct capture *c, uint64_t n)
{
	while (n-- > 0)
		source_skip(c->s, "non-GMEM packets");
}

/* --- UDP --- */

static void
udp(struct capture *c, const struct ippkt *ip, struct bytes seg,
    size_t wirelen, unsigned npk)
{
	struct l4pkt u;
	struct gmem_hdr h;
	char why[GMEM_WHYSZ];

	if (net_udp(seg, wirelen, &u) < 0) {
		nongmem(c, npk);
		return;
	}
	if (c->s->opt->port >= 0 && u.sport != c->s->opt->port &&
	    u.dport != c->s->opt->port)
		return;
	if (!gmem_has_magic(u.payload.p, u.payload.n)) {
		nongmem(c, npk);
		return;
	}
	if (u.payload.n < u.wirelen) {
		bad(c, "GMEM frame cut by the capture's snapshot length (%zu "
		    "of %zu bytes captured)", u.payload.n, u.wirelen);
		return;
	}
	if (gmem_frame_check(u.payload.p, u.payload.n, &h, why) < 0) {
		bad(c, "malformed GMEM frame: %s", why);
		return;
	}
	frame(c, ip->family, ip->src, u.payload.p, &h);
}

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
	frame(c, c->flow->family, c->flow->src, p, h);
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
	bad(c, "malformed GMEM frame in the TCP stream from %s port %u: %s",
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

	nongmem(c, f->datapkts);
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
	gmem_stream_feed(&st->gs, p, n, tcp_frame, tcp_bad, c);
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
		nongmem(c, f->datapkts);
	gmem_stream_release(&st->gs);
	free(st);
	f->user = NULL;
}

static const struct tcp_ops tcp_ops = {
	tcp_data, tcp_gap, tcp_end, tcp_ahead
};

static void
tcp(struct capture *c, const struct ippkt *ip, struct bytes seg,
    size_t wirelen, unsigned npk)
{
	struct l4pkt t;
	struct tcpseg s;

	if (net_tcp(seg, wirelen, &t) < 0) {
		nongmem(c, npk);
		return;
	}
	if (c->s->opt->port >= 0 && t.sport != c->s->opt->port &&
	    t.dport != c->s->opt->port)
		return;
	s.family = ip->family;
	s.src = ip->src;
	s.dst = ip->dst;
	s.sport = t.sport;
	s.dport = t.dport;
	s.seq = t.seq;
	s.ack = t.ack;
	s.flags = t.flags;
	s.data = t.payload.p;
	s.len = t.payload.n;
	s.wirelen = t.wirelen;
	if (tcpreasm_segment(c->tcp, &s, c->now))
		nongmem(c, npk);
}

/* --- IP --- */

static void ip_packet(struct capture *c, struct bytes b, int depth);

static void
transport(struct capture *c, const struct ippkt *ip, uint8_t proto,
    struct bytes payload, size_t wirelen, int depth, unsigned npk)
{
	switch (proto) {
	case 17:
		udp(c, ip, payload, wirelen, npk);
		break;
	case 6:
		tcp(c, ip, payload, wirelen, npk);
		break;
	case 4:		/* IPv4 in IP */
	case 41:	/* IPv6 in IP */
		if (depth < MAX_TUNNEL && npk == 1) {
			ip_packet(c, payload, depth + 1);
			break;
		}
		/* FALLTHROUGH */
	default:
		nongmem(c, npk);
		break;
	}
}

static void
ip_packet(struct capture *c, struct bytes b, int depth)
{
	struct ippkt ip;
	struct ipfrag f;
	struct bytes payload;
	const unsigned char *out;
	size_t outlen, wirelen;
	uint8_t proto;
	unsigned nfrags;

	if (net_ip(b, &ip) < 0) {
		nongmem(c, 1);
		return;
	}
	if (!ip.frag) {
		transport(c, &ip, ip.proto, ip.payload, ip.wirelen, depth, 1);
		return;
	}
	f.family = ip.family;
	f.src = ip.src;
	f.dst = ip.dst;
	f.proto = ip.proto;
	f.id = ip.id;
	f.offset = ip.offset;
	f.more = ip.more;
	f.data = ip.payload.p;
	f.len = ip.payload.n;
	f.wirelen = ip.wirelen;
	if (ipreasm_add(c->ipr, &f, c->now, &out, &outlen, &proto,
	    &nfrags) <= 0)
		return;		/* more to come, or counted as incomplete */
	payload = bytes_of(out, outlen);
	wirelen = outlen;
	if (ip.family == 6 && net_ip6_ext(&proto, &payload, &wirelen) < 0) {
		nongmem(c, nfrags);
		return;
	}
	transport(c, &ip, proto, payload, wirelen, depth, nfrags);
}

static void
packet(struct capture *c, int linktype, const unsigned char *p,
    size_t caplen)
{
	struct bytes ip;

	if (net_link(linktype, bytes_of(p, caplen), &ip) < 0) {
		nongmem(c, 1);
		return;
	}
	ip_packet(c, ip, 0);
}

/* Say once (as a problem: even with -q) that a cap dropped something. */
static void
tell_cap(struct capture *c, unsigned bit, uint64_t hit, const char *what)
{
	struct sbuf w = SBUF_INIT;

	if (hit == 0 || (c->caps_told & bit))
		return;
	c->caps_told |= bit;
	where(c, &w);
	msg("%s: %s: %s (counted in the summary line)", c->s->name, w.buf,
	    what);
	sbuf_release(&w);
}

static void
check_caps(struct capture *c)
{
	const struct ipreasm_stats *is = ipreasm_stats(c->ipr);
	const struct tcpreasm_stats *ts = tcpreasm_stats(c->tcp);
	uint64_t sum = ts->evicted + ts->capped + ts->dropped + is->capped +
	    c->budget.dropped + c->untracked;

	/* Nothing new dropped since the last packet: the usual case. */
	if (sum == c->capsum)
		return;
	c->capsum = sum;
	tell_cap(c, 1, ts->evicted, "more than " STR(MAX_CONNS) " TCP "
	    "connections at once: the least recently active ones are ended "
	    "early");
	tell_cap(c, 2, ts->capped + ts->dropped, "more than "
	    STR(MAX_HELD_MIB) " MiB of out-of-order TCP data: holes are "
	    "given up early");
	tell_cap(c, 4, is->capped, "more than " STR(MAX_FRAGS) " IP "
	    "datagrams in pieces at once: the oldest are dropped");
	tell_cap(c, 8, c->budget.dropped, "more than " STR(MAX_PARTIAL_MIB)
	    " MiB of partial GMEM frames: frames are dropped");
	tell_cap(c, 16, c->untracked, "more than " STR(MAX_SEQS) " sender/GPU "
	    "pairs: the sequence numbers of the others are not checked");
}

/* --- the format --- */

/* libpcap's DLT_ numbers where they differ from the LINKTYPE_ ones. */
static int
dlt_to_lt(int dlt)
{
	if (dlt == DLT_RAW)
		return LT_RAW;
	if (dlt == DLT_LOOP)
		return LT_LOOP;
	return dlt;
}

static int
lt_to_dlt(int lt)
{
	if (lt == LT_RAW)
		return DLT_RAW;
	if (lt == LT_LOOP)
		return DLT_LOOP;
	return lt;
}

static void
set_what(struct capture *c)
{
	const char *name = net_linktype_name(c->linktype);
	char num[32];

	if (name == NULL) {
		snprintf(num, sizeof(num), "link type %d", c->linktype);
		name = num;
	}
	snprintf(c->what, sizeof(c->what), "%s capture, %s", c->ng ?
	    "pcapng" : "pcap", c->mixed ? "several link types" : name);
	c->s->what = c->what;
}

static void *
open_fn(struct source *s, const char *hint)
{
	static const struct tcp_limits lim = {
		MAX_CONNS, MAX_HELD, MAX_HELD_FLOW, HOLE_TIMEOUT, HOLE_PACKETS
	};
	cookie_io_functions_t io = { cookie_read, NULL, NULL, NULL };
	char errbuf[PCAP_ERRBUF_SIZE];
	const unsigned char *p;
	struct capture *c;

	(void)hint;
	c = ecalloc(1, sizeof(*c));
	c->s = s;
	c->in = s->in;
	c->ng = input_peek(c->in, &p, 4) == 4 && p[0] == 0x0a &&
	    p[1] == 0x0d && p[2] == 0x0d && p[3] == 0x0a;
	if (c->ng)
		c->png = pcapng_new();
	c->fp = fopencookie(c, "r", io);
	if (c->fp == NULL)
		die("fopencookie:");
	setvbuf(c->fp, NULL, _IOFBF, 256 * 1024);
	errbuf[0] = '\0';
	c->pc = pcap_fopen_offline_with_tstamp_precision(c->fp,
	    PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (c->pc == NULL) {
		if (strcmp(input_error(c->in), "no error") != 0)
			source_fail(s, "%s", input_error(c->in));
		else
			source_fail(s, "%s", errbuf);
		fclose(c->fp);
		pcapng_free(c->png);
		free(c->pw.q);
		free(c);
		return NULL;
	}
	c->linktype = dlt_to_lt(pcap_datalink(c->pc));
	if (s->opt->filter != NULL) {
		if (pcap_compile(c->pc, &c->prog, s->opt->filter, 1,
		    PCAP_NETMASK_UNKNOWN) < 0) {
			source_fail(s, "--filter '%s': %s", s->opt->filter,
			    pcap_geterr(c->pc));
			pcap_close(c->pc);
			pcapng_free(c->png);
			free(c->pw.q);
			free(c);
			return NULL;
		}
		c->have_prog = 1;
	}
	c->budget.cap = MAX_PARTIAL;
	c->ipr = ipreasm_new(MAX_FRAGS, MAX_FRAG_BYTES, FRAG_TIMEOUT);
	c->tcp = tcpreasm_new(&lim, &tcp_ops, c);
	set_what(c);
	return c;
}

/* --filter for a link type the fallback reader met (compiled once). */
static int
fallback_match(struct capture *c, const struct pcapng_pkt *k)
{
	struct pcap_pkthdr h;
	struct ltprog *lp = NULL;
	size_t i;

	if (c->s->opt->filter == NULL)
		return 1;
	for (i = 0; i < c->nprogs; i++)
		if (c->progs[i].linktype == k->linktype)
			lp = &c->progs[i];
	if (lp == NULL) {
		pcap_t *dead = pcap_open_dead(lt_to_dlt(k->linktype), 262144);

		c->progs = ereallocarray(c->progs, c->nprogs + 1,
		    sizeof(*c->progs));
		lp = &c->progs[c->nprogs++];
		lp->linktype = k->linktype;
		lp->ok = dead != NULL && pcap_compile(dead, &lp->prog,
		    c->s->opt->filter, 1, PCAP_NETMASK_UNKNOWN) == 0;
		if (!lp->ok)
			source_warn(c->s, "--filter '%s' does not apply to "
			    "link type %d: its packets are passed over",
			    c->s->opt->filter, k->linktype);
		if (dead != NULL)
			pcap_close(dead);
	}
	if (!lp->ok)
		return 0;
	memset(&h, 0, sizeof(h));
	h.caplen = (bpf_u_int32)k->caplen;
	h.len = (bpf_u_int32)k->len;
	return pcap_offline_filter(&lp->prog, &h, k->data) != 0;
}

static void
note_link(struct capture *c, int lt)
{
	if (lt != c->linktype && !c->mixed) {
		c->mixed = 1;
		set_what(c);
	}
}

static int
step_fallback(struct capture *c)
{
	struct pcapng_pkt k;
	int rc;

	rc = pcapng_next(c->png, c->in, &k);
	if (rc == 0)
		return 0;
	if (rc < 0) {
		source_fail(c->s, "after packet %llu: %s",
		    (unsigned long long)c->npkt, pcapng_error(c->png));
		return -1;
	}
	c->npkt++;
	c->pktoff = k.offset;
	if (k.ts > c->now)
		c->now = k.ts;
	note_link(c, k.linktype);
	if (fallback_match(c, &k))
		packet(c, k.linktype, k.data, k.caplen);
	check_caps(c);
	return 1;
}

static int
step(void *st)
{
	struct capture *c = st;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t t;
	int rc;

	if (c->fallback)
		return step_fallback(c);
	rc = pcap_next_ex(c->pc, &h, &data);
	if (rc == 1) {
		c->npkt++;
		c->pktoff = c->ng ? pcapng_packet_offset(c->png) :
		    pw_pop(&c->pw);
		t = (uint64_t)h->ts.tv_sec * NS_PER_SEC +
		    (uint64_t)h->ts.tv_usec;
		if (t > c->now)
			c->now = t;
		if (!c->have_prog ||
		    pcap_offline_filter(&c->prog, h, data) != 0)
			packet(c, c->linktype, data, h->caplen);
		check_caps(c);
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	if (strcmp(input_error(c->in), "no error") != 0) {
		source_fail(c->s, "%s", input_error(c->in));
		return -1;
	}
	if (c->ng && pcapng_can_take_over(c->png)) {
		/*
		 * libpcap stopped right after a section or interface it
		 * does not accept (another link type, snapshot length or
		 * byte order): read on with our own reader.
		 */
		c->fallback = 1;
		c->refused = estrdup(pcap_geterr(c->pc));
		c->refused_at = c->npkt;
		return 1;
	}
	source_fail(c->s, "after packet %llu: %s",
	    (unsigned long long)c->npkt, pcap_geterr(c->pc));
	return -1;
}

static void
end_fn(void *st)
{
	struct capture *c = st;

	/* What is still held is given up or delivered now. */
	ipreasm_flush(c->ipr);
	tcpreasm_flush(c->tcp);
	check_caps(c);
}

static int
by_order(const void *a, const void *b)
{
	const struct seqst *x = *(struct seqst *const *)a;
	const struct seqst *y = *(struct seqst *const *)b;

	return (x->order > y->order) - (x->order < y->order);
}

/* The (sender, gpu) pairs in order of appearance. */
static struct seqst **
pairs(const struct capture *c)
{
	struct seqst **v = ecalloc(c->nseqs + 1, sizeof(*v));
	struct hent *e;
	size_t i = 0, n = 0;

	while ((e = hmap_next(&c->seqs, &i)) != NULL)
		v[n++] = e->val;
	qsort(v, n, sizeof(*v), by_order);
	return v;
}

static void
per_pair(struct sbuf *sb, struct seqst **v, size_t n, size_t field)
{
	size_t i, shown = 0;
	const char *sep = " (";

	for (i = 0; i < n; i++) {
		uint64_t k = field == 0 ? v[i]->lost : field == 1 ?
		    v[i]->dups : v[i]->restarts;

		if (k == 0)
			continue;
		if (shown++ == SHOW_PAIRS) {
			sbuf_adds(sb, ", ...");
			break;
		}
		sbuf_printf(sb, "%s%s gpu %u: %llu", sep, v[i]->host,
		    v[i]->gpu, (unsigned long long)k);
		sep = ", ";
	}
	sbuf_addc(sb, ')');
}

static int
by_host(const void *a, const void *b)
{
	const struct seqst *x = *(struct seqst *const *)a;
	const struct seqst *y = *(struct seqst *const *)b;

	return strcmp(x->host, y->host);
}

/* Distinct senders among the n pairs of v (which is left in order). */
static size_t
count_senders(struct seqst **v, size_t n)
{
	struct seqst **w;
	size_t i, k = 0;

	if (n == 0)
		return 0;
	w = ereallocarray(NULL, n, sizeof(*w));
	memcpy(w, v, n * sizeof(*w));
	qsort(w, n, sizeof(*w), by_host);
	for (i = 0; i < n; i++)
		k += i == 0 || strcmp(w[i]->host, w[i - 1]->host) != 0;
	free(w);
	return k;
}

/* The plural ending for n things. */
static const char *
pl(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static void
summary(void *st, struct sbuf *sb)
{
	struct capture *c = st;
	const struct ipreasm_stats *is = ipreasm_stats(c->ipr);
	const struct tcpreasm_stats *ts = tcpreasm_stats(c->tcp);
	struct seqst **v = pairs(c);
	size_t senders = count_senders(v, c->nseqs);

	sbuf_printf(sb, ": %llu packet%s, %llu GMEM frame%s",
	    (unsigned long long)c->npkt, pl(c->npkt),
	    (unsigned long long)c->frames, pl(c->frames));
	if (c->frames > 0)
		sbuf_printf(sb, " from %zu sender%s", senders, pl(senders));
	else
		sbuf_adds(sb, ": no GMEM telemetry found");
	if (c->lost > 0) {
		sbuf_printf(sb, ", %llu frame%s lost in sequence gaps",
		    (unsigned long long)c->lost, pl(c->lost));
		per_pair(sb, v, c->nseqs, 0);
	}
	if (c->dups > 0) {
		sbuf_printf(sb, ", %llu duplicate frame%s dropped",
		    (unsigned long long)c->dups, pl(c->dups));
		per_pair(sb, v, c->nseqs, 1);
	}
	if (c->restarts > 0) {
		sbuf_printf(sb, ", %llu sequence restart%s",
		    (unsigned long long)c->restarts, pl(c->restarts));
		per_pair(sb, v, c->nseqs, 2);
	}
	if (c->tcp_lost > 0 || c->tcp_cut > 0)
		sbuf_printf(sb, ", %llu TCP byte%s lost to gaps (%llu frame%s "
		    "cut)", (unsigned long long)c->tcp_lost, pl(c->tcp_lost),
		    (unsigned long long)c->tcp_cut, pl(c->tcp_cut));
	if (is->incomplete > 0)
		sbuf_printf(sb, ", %llu IP datagram%s never complete (%llu "
		    "fragment%s)", (unsigned long long)is->incomplete,
		    pl(is->incomplete), (unsigned long long)is->lostfrags,
		    pl(is->lostfrags));
	if (is->bad > 0)
		sbuf_printf(sb, ", %llu impossible IP fragment%s",
		    (unsigned long long)is->bad, pl(is->bad));
	/* The caps, each with what it dropped. */
	if (ts->evicted > 0)
		sbuf_printf(sb, ", %llu TCP connection%s ended early (over %d "
		    "at once)", (unsigned long long)ts->evicted,
		    pl(ts->evicted), MAX_CONNS);
	if (ts->capped > 0 || ts->dropped > 0)
		sbuf_printf(sb, ", %llu TCP hole%s given up and %llu byte%s "
		    "dropped for room (over %d MiB held)",
		    (unsigned long long)ts->capped, pl(ts->capped),
		    (unsigned long long)ts->dropped, pl(ts->dropped),
		    MAX_HELD_MIB);
	if (is->capped > 0)
		sbuf_printf(sb, ", %llu IP datagram%s dropped for room (over "
		    "%d in pieces)", (unsigned long long)is->capped,
		    pl(is->capped), MAX_FRAGS);
	if (c->budget.dropped > 0)
		sbuf_printf(sb, ", %llu frame%s dropped for room (over %d MiB "
		    "of partial frames)", (unsigned long long)c->budget.dropped,
		    pl(c->budget.dropped), MAX_PARTIAL_MIB);
	if (c->untracked > 0)
		sbuf_printf(sb, ", %llu frame%s without sequence checks (over "
		    "%d sender/GPU pairs)", (unsigned long long)c->untracked,
		    pl(c->untracked), MAX_SEQS);
	if (c->fallback)
		sbuf_printf(sb, "; libpcap stopped after packet %llu (%s), "
		    "gpumem's pcapng reader read on",
		    (unsigned long long)c->refused_at, c->refused);
	free(v);
}

static void
seq_free(void *p)
{
	free(p);
}

static void
free_fn(void *st)
{
	struct capture *c = st;
	size_t i;

	tcpreasm_free(c->tcp);
	ipreasm_free(c->ipr);
	if (c->have_prog)
		pcap_freecode(&c->prog);
	for (i = 0; i < c->nprogs; i++)
		if (c->progs[i].ok)
			pcap_freecode(&c->progs[i].prog);
	free(c->progs);
	pcap_close(c->pc);	/* closes c->fp */
	pcapng_free(c->png);
	hmap_release(&c->seqs, seq_free);
	free(c->pw.q);
	free(c->refused);
	free(c);
}

const struct format fmt_pcap = {
	.name = "pcap",
	.what = "pcap capture",
	.sniff_bytes = sniff,
	.open = open_fn,
	.step = step,
	.end = end_fn,
	.summary = summary,
	.free = free_fn,
	.where = where,
};
