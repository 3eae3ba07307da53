/* SPDX-License-Identifier: ISC */
/* capwrite.c: a record stream as a capture of GMEM frames (capwrite.h). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "capwrite.h"
#include "gmem.h"
#include "gtime.h"
#include "hmap.h"
#include "netnums.h"
#include "util.h"

#define SNAPLEN 262144
#define MAXPKT (65535 + 128)	/* an IP packet and its link header */
#define HEADROOM 64		/* room for a link header before the IP one */

static const struct {
	const char *name;
	int linktype;
} links[] = {
	{"ethernet", LT_ETHERNET},
	{"sll", LT_LINUX_SLL},
	{"sll2", LT_LINUX_SLL2},
	{"raw", LT_RAW},
	{"null", LT_NULL},
	{"loop", LT_LOOP},
};

/*
 * A (sender, GPU) that has frames (the framer's udata): its TCP
 * connection.  The sender's key in the framer is its struct capaddr.
 */
struct capconn {
	struct capaddr src;
	uint16_t gpu;
	uint16_t sport;
	int open;		/* TCP: the handshake was written */
	uint32_t snd;		/* TCP: the sender's next sequence number */
	uint32_t rcv;		/* TCP: the collector's */
	struct capconn *all;	/* every connection, in order of creation */
};

static void
out(struct capwriter *w, const void *p, size_t n)
{
	if (!w->failed && fwrite(p, 1, n, w->f) != n)
		w->failed = 1;
}

static void
file_header(struct capwriter *w)
{
	unsigned char b[64];

	if (!w->pcapng) {
		put_le32(b, w->usec ? 0xa1b2c3d4 : 0xa1b23c4d);
		put_le16(b + 4, 2);
		put_le16(b + 6, 4);
		put_le32(b + 8, 0);
		put_le32(b + 12, 0);
		put_le32(b + 16, SNAPLEN);
		put_le32(b + 20, (uint32_t)w->linktype);
		out(w, b, 24);
		return;
	}
	/* Section header: BOM, version 1.0, length unknown. */
	put_le32(b, 0x0a0d0d0a);
	put_le32(b + 4, 28);
	put_le32(b + 8, 0x1a2b3c4d);
	put_le16(b + 12, 1);
	put_le16(b + 14, 0);
	put_le32(b + 16, 0xffffffff);
	put_le32(b + 20, 0xffffffff);
	put_le32(b + 24, 28);
	/* Interface: link type, snapshot length, if_tsresol. */
	put_le32(b + 28, 1);
	put_le32(b + 32, 32);
	put_le16(b + 36, (uint16_t)w->linktype);
	put_le16(b + 38, 0);
	put_le32(b + 40, SNAPLEN);
	put_le16(b + 44, 9);
	put_le16(b + 46, 1);
	b[48] = w->usec ? 6 : 9;
	b[49] = b[50] = b[51] = 0;
	put_le32(b + 52, 0);		/* opt_endofopt */
	put_le32(b + 56, 32);
	out(w, b, 60);
}

static void
record(struct capwriter *w, uint64_t ts, const unsigned char *p, size_t n)
{
	unsigned char h[28];
	static const unsigned char pad[4];
	uint64_t sub = ts % NS_PER_SEC;

	w->packets++;
	if (!w->pcapng) {
		put_le32(h, (uint32_t)(ts / NS_PER_SEC));
		put_le32(h + 4, (uint32_t)(w->usec ? sub / 1000 : sub));
		put_le32(h + 8, (uint32_t)n);
		put_le32(h + 12, (uint32_t)n);
		out(w, h, 16);
		out(w, p, n);
		return;
	}
	{
		uint64_t t = w->usec ? ts / 1000 : ts;
		size_t padded = (n + 3) & ~(size_t)3;

		put_le32(h, 6);
		put_le32(h + 4, (uint32_t)(32 + padded));
		put_le32(h + 8, 0);
		put_le32(h + 12, (uint32_t)(t >> 32));
		put_le32(h + 16, (uint32_t)t);
		put_le32(h + 20, (uint32_t)n);
		put_le32(h + 24, (uint32_t)n);
		out(w, h, 28);
		out(w, p, n);
		out(w, pad, padded - n);
		put_le32(h, (uint32_t)(32 + padded));
		out(w, h, 4);
	}
}

/* --- packets --- */

static uint16_t
cksum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint32_t
cksum_add(uint32_t sum, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

/* The UDP or TCP checksum of l4[0..n) between a and b. */
static uint16_t
l4_cksum(const struct capaddr *a, const struct capaddr *b, uint8_t proto,
    const unsigned char *l4, size_t n)
{
	size_t alen = a->family == 4 ? 4 : 16;
	uint32_t sum = 0;
	uint16_t c;

	sum = cksum_add(sum, a->a, alen);
	sum = cksum_add(sum, b->a, alen);
	sum += proto;
	sum += (uint32_t)(n >> 16) + (uint32_t)(n & 0xffff);
	sum = cksum_add(sum, l4, n);
	c = cksum_fold(sum);
	return proto == 17 && c == 0 ? 0xffff : c;
}

/* A made-up MAC address for an IP address. */
static void
mac_of(const struct capaddr *a, unsigned char *m)
{
	size_t alen = a->family == 4 ? 4 : 16;

	m[0] = 0x02;
	m[1] = 0x00;
	memcpy(m + 2, a->a + alen - 4, 4);
}

/*
 * Write the link header for an IP packet from a to b in front of ip
 * (which has room for it); return where the packet starts.
 */
static unsigned char *
link_header(struct capwriter *w, const struct capaddr *a, const struct capaddr *b,
    int to_collector, unsigned char *ip, size_t *len)
{
	unsigned char *p = ip, smac[6], dmac[6];
	uint16_t et = a->family == 4 ? 0x0800 : 0x86dd;
	size_t i;

	mac_of(a, smac);
	mac_of(b, dmac);
	switch (w->linktype) {
	case LT_ETHERNET:
		p -= 14 + 4 * w->nvlan;
		memcpy(p, dmac, 6);
		memcpy(p + 6, smac, 6);
		/* Tags outer first: 802.1ad then 802.1Q for two. */
		for (i = 0; i < w->nvlan; i++) {
			put_be16(p + 12 + 4 * i, w->nvlan == 2 && i == 0 ?
			    0x88a8 : 0x8100);
			put_be16(p + 14 + 4 * i, w->vlan[i]);
		}
		put_be16(p + 12 + 4 * w->nvlan, et);
		break;
	case LT_LINUX_SLL:
		p -= 16;
		put_be16(p, to_collector ? 0 : 4);	/* to us, outgoing */
		put_be16(p + 2, 1);			/* ARPHRD_ETHER */
		put_be16(p + 4, 6);
		memset(p + 6, 0, 8);
		memcpy(p + 6, smac, 6);
		put_be16(p + 14, et);
		break;
	case LT_LINUX_SLL2:
		p -= 20;
		put_be16(p, et);
		put_be16(p + 2, 0);
		put_be32(p + 4, 2);			/* ifindex */
		put_be16(p + 8, 1);			/* ARPHRD_ETHER */
		p[10] = to_collector ? 0 : 4;
		p[11] = 6;
		memset(p + 12, 0, 8);
		memcpy(p + 12, smac, 6);
		break;
	case LT_NULL:
		p -= 4;
		put_le32(p, a->family == 4 ? 2 : 24);
		break;
	case LT_LOOP:
		p -= 4;
		put_be32(p, a->family == 4 ? 2 : 24);
		break;
	default:
		break;		/* raw IP */
	}
	*len += (size_t)(ip - p);
	return p;
}

/*
 * Write one IP packet from a to b carrying l4[0..n); when frag, a fragment
 * of a datagram (id) at offset off, more of it following when more (IPv4
 * fields, or an IPv6 fragment header).
 */
static void
ip_packet(struct capwriter *w, uint64_t ts, const struct capaddr *a,
    const struct capaddr *b, int to_collector, uint8_t proto,
    const unsigned char *l4, size_t n, int frag, size_t off, int more,
    uint32_t id, int df)
{
	unsigned char *ip = w->pkt + HEADROOM, *start;
	size_t len, hl;
	uint16_t ff;

	if (a->family == 4) {
		hl = 20;
		ip[0] = 0x45;
		ip[1] = 0;
		put_be16(ip + 2, (uint16_t)(hl + n));
		put_be16(ip + 4, (uint16_t)id);
		ff = (uint16_t)(off / 8);
		if (more)
			ff |= 0x2000;
		if (df)
			ff |= 0x4000;
		put_be16(ip + 6, ff);
		ip[8] = 64;
		ip[9] = proto;
		put_be16(ip + 10, 0);
		memcpy(ip + 12, a->a, 4);
		memcpy(ip + 16, b->a, 4);
		put_be16(ip + 10, cksum_fold(cksum_add(0, ip, 20)));
	} else {
		hl = frag ? 48 : 40;
		put_be32(ip, 0x60000000);
		put_be16(ip + 4, (uint16_t)(hl - 40 + n));
		ip[6] = frag ? 44 : proto;
		ip[7] = 64;
		memcpy(ip + 8, a->a, 16);
		memcpy(ip + 24, b->a, 16);
		if (frag) {
			ip[40] = proto;
			ip[41] = 0;
			put_be16(ip + 42, (uint16_t)(off | (more ? 1 : 0)));
			put_be32(ip + 44, id);
		}
	}
	memcpy(ip + hl, l4, n);
	len = hl + n;
	start = link_header(w, a, b, to_collector, ip, &len);
	record(w, ts, start, len);
}

static void
udp_frame(struct capwriter *w, struct capconn *c, const struct capaddr *dst,
    const unsigned char *frame, size_t n)
{
	unsigned char *u = w->l4;
	size_t ulen = 8 + n, hl = c->src.family == 4 ? 20 : 48, chunk, off;
	uint32_t id;

	put_be16(u, w->dport);	/* the GMEM port at both ends */
	put_be16(u + 2, w->dport);
	put_be16(u + 4, (uint16_t)ulen);
	put_be16(u + 6, 0);
	memcpy(u + 8, frame, n);
	put_be16(u + 6, l4_cksum(&c->src, dst, 17, u, ulen));
	if (w->mtu == 0 || (c->src.family == 4 ? 20 : 40) + ulen <= w->mtu) {
		ip_packet(w, w->ts, &c->src, dst, 1, 17, u, ulen, 0, 0, 0,
		    c->src.family == 4 ? w->ipid++ : 0, 0);
		return;
	}
	/* Fragments: data in multiples of 8 bytes but the last. */
	chunk = (w->mtu - hl) & ~(size_t)7;
	id = c->src.family == 4 ? w->ipid++ : ++w->fragid;
	for (off = 0; off < ulen; off += chunk) {
		size_t k = ulen - off < chunk ? ulen - off : chunk;

		ip_packet(w, w->ts, &c->src, dst, 1, 17, u + off, k, 1, off,
		    off + k < ulen, id, 0);
	}
}

/* A TCP segment on c's connection: from the sender when fwd. */
static void
tcp_segment(struct capwriter *w, struct capconn *c, const struct capaddr *dst,
    int fwd, uint8_t flags, const unsigned char *p, size_t n)
{
	unsigned char *t = w->l4;
	const struct capaddr *a = fwd ? &c->src : dst, *b = fwd ? dst : &c->src;

	put_be16(t, fwd ? c->sport : w->dport);
	put_be16(t + 2, fwd ? w->dport : c->sport);
	put_be32(t + 4, fwd ? c->snd : c->rcv);
	put_be32(t + 8, (flags & TCP_ACK) ? (fwd ? c->rcv : c->snd) : 0);
	t[12] = 5 << 4;
	t[13] = flags;
	put_be16(t + 14, 65535);
	put_be16(t + 16, 0);
	put_be16(t + 18, 0);
	if (n > 0)
		memcpy(t + 20, p, n);
	put_be16(t + 16, l4_cksum(a, b, 6, t, 20 + n));
	ip_packet(w, w->ts, a, b, fwd, 6, t, 20 + n, 0, 0, 0,
	    a->family == 4 ? w->ipid++ : 0, 1);
	if (fwd)
		c->snd += (uint32_t)n + ((flags & (TCP_SYN | TCP_FIN)) != 0);
	else
		c->rcv += (uint32_t)n + ((flags & (TCP_SYN | TCP_FIN)) != 0);
}

static const struct capaddr *
dst_of(const struct capwriter *w, const struct capconn *c)
{
	return c->src.family == 4 ? &w->dst4 : &w->dst6;
}

static void
tcp_frame(struct capwriter *w, struct capconn *c, const unsigned char *frame,
    size_t n)
{
	const struct capaddr *dst = dst_of(w, c);
	size_t off, k;

	if (!c->open) {
		tcp_segment(w, c, dst, 1, TCP_SYN, NULL, 0);
		tcp_segment(w, c, dst, 0, TCP_SYN | TCP_ACK, NULL, 0);
		tcp_segment(w, c, dst, 1, TCP_ACK, NULL, 0);
		c->open = 1;
	}
	for (off = 0; off < n; off += k) {
		k = n - off < w->segment ? n - off : w->segment;
		tcp_segment(w, c, dst, 1, TCP_ACK | (off + k == n ? TCP_PSH :
		    0), frame + off, k);
	}
	tcp_segment(w, c, dst, 0, TCP_ACK, NULL, 0);
}

/* --- frames --- */

/* The connection of a framer GPU, made at its first frame. */
static struct capconn *
conn_of(struct capwriter *w, struct framer_gpu *g)
{
	unsigned char key[19];
	struct capconn *c = g->udata;
	uint32_t h;

	if (c != NULL)
		return c;
	c = ecalloc(1, sizeof(*c));
	memcpy(&c->src, g->sender, sizeof(c->src));
	c->gpu = g->gpu;
	c->sport = (uint16_t)(49152 + w->nconns % 16384);
	/* Fixed initial sequence numbers: the same output every time. */
	key[0] = (unsigned char)c->src.family;
	memcpy(key + 1, c->src.a, 16);
	memcpy(key + 17, &c->gpu, 2);
	h = (uint32_t)hmap_hash(key, sizeof(key));
	c->snd = h;
	c->rcv = h ^ 0x5a5a5a5a;
	if (w->alltail != NULL)
		w->alltail->all = c;
	else
		w->all = c;
	w->alltail = c;
	w->nconns++;
	g->udata = c;
	return c;
}

/* The framer's callback: one frame, as packets. */
static void
write_frame(void *arg, struct framer_gpu *g, uint64_t ts,
    const unsigned char *frame, size_t len, size_t nrec)
{
	struct capwriter *w = arg;
	struct capconn *c = conn_of(w, g);

	(void)nrec;
	w->ts = ts;
	if (w->tcp)
		tcp_frame(w, c, frame, len);
	else
		udp_frame(w, c, dst_of(w, c), frame, len);
}

/* The sender of r's frames. */
static void
sender(struct capwriter *w, const struct rec *r, struct capaddr *a)
{
	char canon[INET6_ADDRSTRLEN];

	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, r->host, a->a) == 1)
		a->family = 4;
	else if (inet_pton(AF_INET6, r->host, a->a) == 1)
		a->family = 6;
	else {
		*a = w->src;
		if (!w->said_src) {
			w->said_src = 1;
			inet_ntop(a->family == 4 ? AF_INET : AF_INET6, a->a,
			    canon, sizeof(canon));
			warnmsg("records whose host is not an IP address "
			    "('%s'%s) are sent from %s (see --src)", r->host,
			    *r->host == '\0' ? ": none" : "", canon);
		}
		return;
	}
	if (!w->said_canon) {
		inet_ntop(a->family == 4 ? AF_INET : AF_INET6, a->a, canon,
		    sizeof(canon));
		if (strcmp(canon, r->host) != 0) {
			w->said_canon = 1;
			warnmsg("host '%s' reads back as '%s', the address's "
			    "canonical form", r->host, canon);
		}
	}
}

void
capw_add(struct capwriter *w, const struct rec *r)
{
	struct capaddr a;

	/* A record the framer drops says nothing about its sender. */
	memset(&a, 0, sizeof(a));
	if (r->gpu <= 65535)
		sender(w, r, &a);
	framer_add(&w->fr, r, &a, sizeof(a));
}

/* At the end: every TCP connection closes. */
static void
close_all(struct capwriter *w)
{
	struct capconn *c;

	if (!w->tcp)
		return;
	w->ts = w->fr.lastts;
	for (c = w->all; c != NULL; c = c->all) {
		const struct capaddr *dst = dst_of(w, c);

		if (!c->open)
			continue;
		tcp_segment(w, c, dst, 1, TCP_FIN | TCP_ACK, NULL, 0);
		tcp_segment(w, c, dst, 0, TCP_FIN | TCP_ACK, NULL, 0);
		tcp_segment(w, c, dst, 1, TCP_ACK, NULL, 0);
	}
}

/* One warning for everything GMEM could not carry exactly. */
static void
inexact(struct capwriter *w)
{
	struct sbuf sb = SBUF_INIT;

	if (framer_inexact(&w->fr, "written", &sb))
		warnmsg("%s", sb.buf);
	sbuf_release(&sb);
}

int
capw_vlan(struct capwriter *w, const char *arg)
{
	char *copy = estrdup(arg), *tok, *save = NULL;
	uint64_t v;

	w->nvlan = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (w->nvlan == 2 || num_parse_u64(tok, strlen(tok), &v) < 0 ||
		    v > 4095) {
			free(copy);
			return -1;
		}
		w->vlan[w->nvlan++] = (uint16_t)v;
	}
	free(copy);
	return w->nvlan == 0 ? -1 : 0;
}


void
capw_init(struct capwriter *w)
{
	memset(w, 0, sizeof(*w));
	w->segment = 1448;
	w->mtu = 1500;
	w->dport = GMEM_PORT;
	w->linktype = LT_ETHERNET;
	(void)capw_addr("192.0.2.1", &w->src);
	(void)capw_addr("192.0.2.100", &w->dst4);
	(void)capw_addr("2001:db8::100", &w->dst6);
}

int
capw_addr(const char *s, struct capaddr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->a) == 1)
		a->family = 4;
	else if (inet_pton(AF_INET6, s, a->a) == 1)
		a->family = 6;
	else
		return -1;
	return 0;
}

int
capw_linktype(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (strcmp(links[i].name, name) == 0)
			return links[i].linktype;
	return -1;
}

void
capw_start(struct capwriter *w, FILE *f)
{
	w->f = f;
	w->pkt = emalloc(MAXPKT + HEADROOM);
	w->l4 = emalloc(MAXPKT);
	framer_init(&w->fr, w->tcp ? GMEM_MAXCOUNT : FRAMER_UDP_MAXREC,
	    write_frame, w);
	file_header(w);
}

void
capw_end(struct capwriter *w)
{
	framer_end(&w->fr, 0);
	close_all(w);
	inexact(w);
	note("%llu records in %llu frames, %llu packets",
	    (unsigned long long)w->fr.recs, (unsigned long long)w->fr.frames,
	    (unsigned long long)w->packets);
}

void
capw_release(struct capwriter *w)
{
	struct capconn *c, *n;

	for (c = w->all; c != NULL; c = n) {
		n = c->all;
		free(c);
	}
	framer_release(&w->fr, NULL);
	free(w->pkt);
	free(w->l4);
}
