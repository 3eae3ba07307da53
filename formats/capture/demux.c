/* SPDX-License-Identifier: ISC */
/*
 * demux.c: packets taken apart layer by layer into GMEM frames, and
 * frames into records (see demux.h).
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capstate.h"
#include "demux.h"
#include "flows.h"
#include "netlayers.h"
#include "seqtrack.h"

#define MAX_TUNNEL 4			/* tunnels nested (netlayers.h) */

/* --- frames to records --- */

void
cap_where(void *st, struct sbuf *sb)
{
	struct capture *c = st;

	sbuf_printf(sb, "%spacket %llu (offset 0x%llx)", c->file,
	    (unsigned long long)c->fpkt, (unsigned long long)c->pktoff);
}

void
cap_bad(struct capture *c, const char *fmt, ...)
{
	struct sbuf w = SBUF_INIT, m = SBUF_INIT;
	va_list ap;

	cap_where(c, &w);
	va_start(ap, fmt);
	sbuf_vprintf(&m, fmt, ap);
	va_end(ap);
	source_bad_at(c->s, w.buf, "%s", m.buf);
	sbuf_release(&w);
	sbuf_release(&m);
}

/*
 * The key of the stream of (sender, GPU) whose clock a record is read on
 * (source_stream()): the sender is the address and port it sends from
 * (a host may run several senders, or be several behind one address);
 * the first byte 0 is never a host name's.
 */
static void
stream_key(unsigned char key[STREAMKEY], int family,
    const unsigned char *addr, uint16_t port, uint16_t gpu)
{
	key[0] = 0;
	key[1] = (unsigned char)family;
	memcpy(key + 2, addr, 16);
	memcpy(key + 18, &port, 2);
	memcpy(key + 20, &gpu, 2);
}

/* A frame that passed the checks, from the sender at addr and port. */
void
cap_frame(struct capture *c, int family, const unsigned char *addr,
    uint16_t port, const unsigned char *p, const struct gmem_hdr *h)
{
	char host[INET6_ADDRSTRLEN];
	unsigned char key[STREAMKEY];
	struct seqst *q;
	struct gmem_rec g;
	struct rec r;
	size_t i, len;
	struct rclock *clk;
	uint64_t restarts;
	int fresh;

	c->frames++;
	stream_key(key, family, addr, port, h->gpu);
	q = seq_of(c, family, addr, h->gpu);
	if (q != NULL) {
		/*
		 * The whole frame tells a frame captured twice from another
		 * under the same number (a restarted sender, or two
		 * recordings of one address merged).
		 */
		len = gmem_frame_len(h);
		restarts = q->restarts;
		fresh = !q->have;
		if (!seq_check(c, q, h->seq, hmap_hash(p, len)))
			return;
		/*
		 * A sender that starts afresh (after its last frame, or
		 * numbering anew) is a new stream, not a clock step.
		 */
		if (fresh || q->restarts != restarts)
			source_stream_restart(c->s, key, sizeof(key));
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
	/* Its pair's last stream, or looked up. */
	if (q != NULL && q->clk != NULL && q->clkport == port)
		source_stream_clocks(c->s, q->clk);
	else if ((clk = source_stream(c->s, key, sizeof(key))) != NULL &&
	    q != NULL) {
		q->clk = clk;
		q->clkport = port;
	}
	for (i = 0; i < h->count; i++) {
		gmem_rec_decode(p, i, &g);
		r.ts = g.ts;
		r.used = g.used;
		r.free = g.free;
		r.pid = g.pid;
		if (c->late)
			source_emit_late(c->s, &r);
		else
			source_emit(c->s, &r);
	}
	source_stream(c->s, NULL, 0);
}

/*
 * A frame the capture cut (its header whole): the sender sent it and the
 * network delivered it, so its number is marked seen and the gap it
 * leaves is not counted as frames lost; it is counted as cut instead.
 */
static void
cut_frame(struct capture *c, int family, const unsigned char *addr,
    struct bytes got, const struct gmem_hdr *h)
{
	struct seqst *q;

	q = seq_of(c, family, addr, h->gpu);
	/* A cut frame captured twice is still one frame. */
	if (q != NULL && !seq_check(c, q, h->seq, hmap_hash(got.p, got.n)))
		return;
	if (q != NULL && (h->flags & GMEM_FLAG_LAST))
		q->have = 0;
	c->snapcut++;
}

/* Count n packets that carried no GMEM frame. */
void
cap_nongmem(struct capture *c, uint64_t n)
{
	while (n-- > 0)
		source_skip(c->s, "non-GMEM packets");
}

/*
 * Count n packets the capture cut before what tells GMEM from other
 * traffic (the UDP header, the magic): they are neither.
 */
static void
cut_early(struct capture *c, uint64_t n)
{
	while (n-- > 0)
		source_skip(c->s, "packets cut by the snapshot length");
}

/* --- UDP --- */

/* A UDP datagram from src (16 bytes, IPv4 in the first 4, the rest 0). */
static void
udp(struct capture *c, int family, const unsigned char *src,
    struct bytes seg, size_t wirelen, unsigned npk)
{
	struct l4pkt u;
	struct gmem_hdr h;
	char why[GMEM_WHYSZ];
	int port = source_opts(c->s)->port;

	if (net_udp(seg, wirelen, &u) < 0) {
		if (seg.n < 8 && wirelen >= 8)
			cut_early(c, npk);	/* cut in the UDP header */
		else if (wirelen >= 8 && get_be16(&seg, 4) > wirelen &&
		    gmem_has_magic(seg.p + 8, seg.n - 8))
			/* A GMEM datagram whose UDP header is damaged. */
			cap_bad(c, "GMEM datagram whose UDP length %u runs past "
			    "its IP packet (%zu bytes of UDP)",
			    (unsigned)get_be16(&seg, 4), wirelen);
		else
			cap_nongmem(c, npk);
		return;
	}
	if (port >= 0 && u.sport != port && u.dport != port)
		return;
	if (!gmem_has_magic(u.payload.p, u.payload.n)) {
		/* What the capture kept of the magic is GMEM's. */
		if (u.payload.n < 4 && u.wirelen >= 4 &&
		    memcmp(u.payload.p, "GMEM", u.payload.n) == 0)
			cut_early(c, npk);
		else
			cap_nongmem(c, npk);
		return;
	}
	if (u.payload.n < u.wirelen) {
		cap_bad(c, "GMEM frame cut by the capture's snapshot length "
		    "(%zu of %zu bytes captured)", u.payload.n, u.wirelen);
		if (gmem_hdr_decode(u.payload.p, u.payload.n, &h, why) == 0)
			cut_frame(c, family, src, u.payload, &h);
		return;
	}
	if (gmem_frame_check(u.payload.p, u.payload.n, &h, why) < 0) {
		cap_bad(c, "malformed GMEM frame: %s", why);
		return;
	}
	cap_frame(c, family, src, u.sport, u.payload.p, &h);
}

/* A TCP segment from src to dst (addresses of the IP family). */
static void
tcp(struct capture *c, int family, const unsigned char *src,
    const unsigned char *dst, struct bytes seg, size_t wirelen, unsigned npk)
{
	struct l4pkt t;
	struct tcpseg s;
	int port = source_opts(c->s)->port;

	if (net_tcp(seg, wirelen, &t) < 0) {
		cap_nongmem(c, npk);
		return;
	}
	if (port >= 0 && t.sport != port && t.dport != port)
		return;
	s.family = family;
	s.src = src;
	s.dst = dst;
	s.sport = t.sport;
	s.dport = t.dport;
	s.seq = t.seq;
	s.ack = t.ack;
	s.flags = t.flags;
	s.data = t.payload.p;
	s.len = t.payload.n;
	s.wirelen = t.wirelen;
	if (tcpreasm_segment(c->tcp, &s, c->now))
		cap_nongmem(c, npk);
}

/* --- IP --- */

static void ip_packet(struct capture *c, struct bytes b, int depth,
    unsigned npk);

/*
 * An encapsulation (netlayers.h): the packet inside is read as a packet
 * of its own, down to MAX_TUNNEL tunnels deep.  Return 0 when proto and
 * payload are none.
 */
static int
tunnel(struct capture *c, uint8_t proto, struct bytes payload,
    size_t wirelen, int depth, unsigned npk)
{
	struct tunhdr t;
	struct bytes inner;
	const char *name;

	switch (net_tunnel(proto, payload, wirelen, &t, &inner)) {
	case NET_TUN_NONE:
		return 0;
	case NET_TUN_INNER:
		name = net_tunnel_name(t.kind);
		if (depth >= MAX_TUNNEL) {
			cap_bad(c, "%s inside %d tunnels: nested deeper than "
			    "%d, not read", name, depth, MAX_TUNNEL);
			break;
		}
		c->tunnels[t.kind]++;
		ip_packet(c, inner, depth + 1, npk);
		break;
	case NET_TUN_OTHER:
		c->tunnels[t.kind]++;
		cap_nongmem(c, npk);
		break;
	case NET_TUN_CUT:
		cap_bad(c, "%s header cut by the capture's snapshot length "
		    "(%zu of %zu bytes captured)", net_tunnel_name(t.kind),
		    t.have, t.len);
		break;
	case NET_TUN_SHORT:
		cap_bad(c, "truncated %s header (%zu bytes, the packet has "
		    "%zu)", net_tunnel_name(t.kind), t.len, t.wire);
		break;
	}
	return 1;
}

static void
transport(struct capture *c, const struct ippkt *ip, uint8_t proto,
    struct bytes payload, size_t wirelen, int depth, unsigned npk)
{
	if (tunnel(c, proto, payload, wirelen, depth, npk))
		return;
	switch (proto) {
	case 17:
		udp(c, ip->family, ip->src, payload, wirelen, npk);
		break;
	case 6:
		tcp(c, ip->family, ip->src, ip->dst, payload, wirelen, npk);
		break;
	default:
		cap_nongmem(c, npk);
		break;
	}
}

static void
ip_packet(struct capture *c, struct bytes b, int depth, unsigned npk)
{
	struct ippkt ip;
	struct ipfrag f;
	struct bytes payload;
	const unsigned char *out;
	size_t outlen, wirelen;
	uint8_t proto;
	unsigned nfrags;

	if (net_ip(b, &ip) < 0) {
		cap_nongmem(c, npk);
		return;
	}
	if (!ip.frag) {
		transport(c, &ip, ip.proto, ip.payload, ip.wirelen, depth,
		    npk);
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
		cap_nongmem(c, nfrags);
		return;
	}
	transport(c, &ip, proto, payload, wirelen, depth, nfrags);
}

void
cap_packet(struct capture *c, int linktype, const unsigned char *p,
    size_t caplen)
{
	struct bytes ip, seg;
	const unsigned char *src, *dst;
	unsigned char src16[16];
	uint64_t lo;
	size_t wirelen;
	uint8_t proto;

	/*
	 * TCP and UDP over Ethernet and IPv4 straight to the reassembly or
	 * the datagram: half the packets of a TCP capture are the
	 * collector's acks, and the layers one by one (link, IP, tunnels)
	 * were 190 of the 690 instructions an ack cost, 250 of a UDP
	 * packet's 1,700.  A datagram to a tunnel's port takes the layers.
	 */
	if (linktype == LT_ETHERNET && net_eth_ip4(bytes_of(p, caplen), &proto,
	    &src, &dst, &seg, &wirelen) == 0) {
		if (proto == 6) {
			tcp(c, 4, src, dst, seg, wirelen, 1);
			return;
		}
		if (!net_udp_tunnel_port(seg)) {
			/*
			 * As net_ip gives an IPv4 address: 16 bytes, zero
			 * after 4; stored as two halves, which the reads of
			 * its halves right after find whole.
			 */
			lo = 0;
			memcpy(&lo, src, 4);
			memcpy(src16, &lo, 8);
			lo = 0;
			memcpy(src16 + 8, &lo, 8);
			udp(c, 4, src16, seg, wirelen, 1);
			return;
		}
	}
	if (net_link(linktype, bytes_of(p, caplen), &ip) < 0) {
		cap_nongmem(c, 1);
		return;
	}
	ip_packet(c, ip, 0, 1);
}
