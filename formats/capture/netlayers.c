/* SPDX-License-Identifier: ISC */
/*
 * netlayers.c: link, IP and transport headers (see netlayers.h).  Follows
 * the link-layer header types registry (tcpdump.org/linktypes.html), RFC
 * 791 (IPv4), RFC 8200 (IPv6 and its extension headers), RFC 768 (UDP),
 * RFC 9293 (TCP).
 */
#include <string.h>

#include "netlayers.h"

#define MAXTAGS 8		/* VLAN tags, MPLS labels: hostile nesting */
#define MAXEXT 16		/* IPv6 extension headers */

enum {
	ET_IPV4 = 0x0800,
	ET_IPV6 = 0x86dd,
	ET_VLAN = 0x8100,
	ET_QINQ = 0x88a8,
	ET_QINQ_OLD1 = 0x9100,
	ET_QINQ_OLD2 = 0x9200,
	ET_MPLS = 0x8847,
	ET_MPLS_MC = 0x8848,
	ET_PPPOE = 0x8864
};

const char *
net_linktype_name(int linktype)
{
	switch (linktype) {
	case LT_NULL:
		return "BSD loopback";
	case LT_ETHERNET:
		return "Ethernet";
	case LT_PPP:
		return "PPP";
	case LT_PPP_HDLC:
		return "PPP in HDLC";
	case LT_RAW:
		return "raw IP";
	case LT_C_HDLC:
		return "Cisco HDLC";
	case LT_LOOP:
		return "OpenBSD loopback";
	case LT_LINUX_SLL:
		return "Linux cooked";
	case LT_IPV4:
		return "raw IPv4";
	case LT_IPV6:
		return "raw IPv6";
	case LT_LINUX_SLL2:
		return "Linux cooked v2";
	default:
		return NULL;
	}
}

/* The IP packet in rest, given the version its first nibble must have. */
static int
ip_by_version(struct bytes rest, int want, struct bytes *ip)
{
	int v;

	if (rest.n < 1)
		return -1;
	v = rest.p[0] >> 4;
	if ((want != 0 && v != want) || (v != 4 && v != 6))
		return -1;
	*ip = rest;
	return 0;
}

/* A PPP protocol number (RFC 1661) to the IP version, or 0. */
static int
ppp_ip(uint16_t proto)
{
	return proto == 0x0021 ? 4 : proto == 0x0057 ? 6 : 0;
}

/* What follows an ethertype at off of b: VLAN tags, MPLS, PPPoE, SNAP. */
static int
by_ethertype(uint16_t type, struct bytes b, size_t off, struct bytes *ip)
{
	int i, k, v;

	for (i = 0; i < MAXTAGS; i++) {
		switch (type) {
		case ET_IPV4:
			return ip_by_version(bytes_sub(&b, off, SIZE_MAX), 4,
			    ip);
		case ET_IPV6:
			return ip_by_version(bytes_sub(&b, off, SIZE_MAX), 6,
			    ip);
		case ET_VLAN:
		case ET_QINQ:
		case ET_QINQ_OLD1:
		case ET_QINQ_OLD2:
			/* The tag control information, then the next type. */
			type = get_be16(&b, off + 2);
			off += 4;
			break;
		case ET_MPLS:
		case ET_MPLS_MC:
			/* Labels down to the bottom of the stack, then IP. */
			for (k = 0; k < MAXTAGS; k++) {
				uint8_t s = get_u8(&b, off + 2);

				off += 4;
				if (b.short_read)
					return -1;
				if (s & 1)
					return ip_by_version(bytes_sub(&b, off,
					    SIZE_MAX), 0, ip);
			}
			return -1;
		case ET_PPPOE:
			/* The session header (6), then a PPP protocol. */
			v = ppp_ip(get_be16(&b, off + 6));
			if (b.short_read || v == 0)
				return -1;
			return ip_by_version(bytes_sub(&b, off + 8, SIZE_MAX),
			    v, ip);
		default:
			if (type >= 0x0600)
				return -1;
			/* An 802.3 length: LLC/SNAP may carry a type. */
			if (get_u8(&b, off) != 0xaa ||
			    get_u8(&b, off + 1) != 0xaa ||
			    get_u8(&b, off + 2) != 0x03)
				return -1;
			type = get_be16(&b, off + 6);
			off += 8;
			break;
		}
		if (b.short_read)
			return -1;
	}
	return -1;
}

/* A BSD address family (DLT_NULL, DLT_LOOP) before the IP packet. */
static int
by_af(uint32_t af, struct bytes pkt, struct bytes *ip)
{
	if (pkt.short_read)
		return -1;
	if (af == 2)
		return ip_by_version(bytes_sub(&pkt, 4, SIZE_MAX), 4, ip);
	/* AF_INET6: the BSDs (24, 28, 30), Linux (10), Windows (23). */
	if (af == 24 || af == 28 || af == 30 || af == 10 || af == 23)
		return ip_by_version(bytes_sub(&pkt, 4, SIZE_MAX), 6, ip);
	return -1;
}

int
net_link(int linktype, struct bytes pkt, struct bytes *ip)
{
	uint32_t af;
	uint16_t proto;
	size_t off;

	switch (linktype) {
	case LT_ETHERNET:
		proto = get_be16(&pkt, 12);
		if (pkt.short_read)
			return -1;
		return by_ethertype(proto, pkt, 14, ip);
	case LT_LINUX_SLL:
		proto = get_be16(&pkt, 14);
		if (pkt.short_read)
			return -1;
		return by_ethertype(proto, pkt, 16, ip);
	case LT_LINUX_SLL2:
		proto = get_be16(&pkt, 0);
		if (pkt.short_read || pkt.n < 20)
			return -1;
		return by_ethertype(proto, pkt, 20, ip);
	case LT_NULL:
		/* In the byte order of the machine that captured. */
		af = get_le32(&pkt, 0);
		if (af > 0xffff)
			af = get_be32(&pkt, 0);
		return by_af(af, pkt, ip);
	case LT_LOOP:
		return by_af(get_be32(&pkt, 0), pkt, ip);
	case LT_RAW:
		return ip_by_version(pkt, 0, ip);
	case LT_IPV4:
		return ip_by_version(pkt, 4, ip);
	case LT_IPV6:
		return ip_by_version(pkt, 6, ip);
	case LT_PPP:
	case LT_PPP_HDLC:
		off = 0;
		if (get_u8(&pkt, 0) == 0xff && get_u8(&pkt, 1) == 0x03)
			off = 2;
		if (get_u8(&pkt, off) & 1) {
			/* A compressed (one-byte) protocol field. */
			proto = get_u8(&pkt, off);
			off += 1;
		} else {
			proto = get_be16(&pkt, off);
			off += 2;
		}
		if (pkt.short_read || ppp_ip(proto) == 0)
			return -1;
		return ip_by_version(bytes_sub(&pkt, off, SIZE_MAX),
		    ppp_ip(proto), ip);
	case LT_C_HDLC:
		proto = get_be16(&pkt, 2);
		if (pkt.short_read)
			return -1;
		return by_ethertype(proto, pkt, 4, ip);
	default:
		return -1;
	}
}

static int
ip4(struct bytes b, struct ippkt *out)
{
	size_t ihl, total;
	uint16_t frag;

	ihl = (size_t)(get_u8(&b, 0) & 0x0f) * 4;
	total = get_be16(&b, 2);
	if (ihl < 20 || !bytes_has(&b, 0, ihl))
		return -1;
	/* Total length 0: a segmentation-offloaded packet, as captured. */
	if (total == 0)
		total = b.n;
	if (total < ihl)
		return -1;
	frag = get_be16(&b, 6);
	out->family = 4;
	memset(out->src, 0, sizeof(out->src));
	memset(out->dst, 0, sizeof(out->dst));
	memcpy(out->src, b.p + 12, 4);
	memcpy(out->dst, b.p + 16, 4);
	out->proto = get_u8(&b, 9);
	out->wirelen = total - ihl;
	/* Captured bytes beyond the total length are link padding. */
	out->payload = bytes_sub(&b, ihl, total < b.n ? total - ihl :
	    SIZE_MAX);
	out->id = get_be16(&b, 4);
	out->offset = (uint32_t)(frag & 0x1fff) * 8;
	out->more = (frag & 0x2000) != 0;
	out->frag = out->more || out->offset != 0;
	return b.short_read ? -1 : 0;
}

/*
 * Walk extension headers from *proto over *p; stop at an upper layer, or
 * at a fragment header (filling out's fragment fields; a fragment header
 * where out is NULL, inside a reassembled packet, is refused).
 */
static int
ip6_walk(uint8_t *proto, struct bytes *p, size_t *wirelen, struct ippkt *out)
{
	size_t len;
	uint16_t v;
	int i;

	for (i = 0; i < MAXEXT; i++) {
		switch (*proto) {
		case 0:		/* hop-by-hop options */
		case 43:	/* routing */
		case 60:	/* destination options */
		case 135:	/* mobility */
		case 139:	/* host identity */
		case 140:	/* shim6 */
			len = ((size_t)get_u8(p, 1) + 1) * 8;
			break;
		case 51:	/* authentication header */
			len = ((size_t)get_u8(p, 1) + 2) * 4;
			break;
		case 44:	/* fragment */
			if (out == NULL || *wirelen < 8)
				return -1;
			v = get_be16(p, 2);
			out->id = get_be32(p, 4);
			out->offset = v & 0xfff8;
			out->more = v & 1;
			*proto = get_u8(p, 0);
			if (p->short_read)
				return -1;
			*p = bytes_sub(p, 8, SIZE_MAX);
			*wirelen -= 8;
			if (out->offset == 0 && !out->more)
				continue;	/* atomic (RFC 6946) */
			out->frag = 1;
			return 0;
		default:
			return 0;	/* an upper layer, or none (59) */
		}
		if (p->short_read || len > *wirelen || !bytes_has(p, 0, len))
			return -1;
		*proto = get_u8(p, 0);
		*p = bytes_sub(p, len, SIZE_MAX);
		*wirelen -= len;
	}
	return -1;
}

static int
ip6(struct bytes b, struct ippkt *out)
{
	size_t plen;

	if (!bytes_has(&b, 0, 40))
		return -1;
	plen = get_be16(&b, 4);
	if (plen == 0)
		plen = b.n - 40;	/* a jumbogram or offload: as captured */
	out->family = 6;
	memcpy(out->src, b.p + 8, 16);
	memcpy(out->dst, b.p + 24, 16);
	out->proto = get_u8(&b, 6);
	out->wirelen = plen;
	out->payload = bytes_sub(&b, 40, plen < b.n - 40 ? plen : SIZE_MAX);
	out->frag = 0;
	out->more = 0;
	out->offset = 0;
	out->id = 0;
	return ip6_walk(&out->proto, &out->payload, &out->wirelen, out);
}

int
net_ip(struct bytes ip, struct ippkt *out)
{
	if (ip.n < 1)
		return -1;
	switch (ip.p[0] >> 4) {
	case 4:
		return ip4(ip, out);
	case 6:
		return ip6(ip, out);
	default:
		return -1;
	}
}

int
net_ip6_ext(uint8_t *proto, struct bytes *payload, size_t *wirelen)
{
	return ip6_walk(proto, payload, wirelen, NULL);
}

int
net_udp(struct bytes seg, size_t wirelen, struct l4pkt *out)
{
	size_t ulen;

	out->sport = get_be16(&seg, 0);
	out->dport = get_be16(&seg, 2);
	ulen = get_be16(&seg, 4);
	if (seg.short_read || wirelen < 8)
		return -1;
	/* Length 0: a jumbogram (RFC 2675) or offload; else trust it. */
	if (ulen == 0)
		ulen = wirelen;
	if (ulen < 8 || ulen > wirelen)
		return -1;
	out->wirelen = ulen - 8;
	out->payload = bytes_sub(&seg, 8, ulen < seg.n ? ulen - 8 : SIZE_MAX);
	out->seq = out->ack = 0;
	out->flags = 0;
	return 0;
}

int
net_tcp(struct bytes seg, size_t wirelen, struct l4pkt *out)
{
	const unsigned char *p = seg.p;
	size_t doff, n;

	/*
	 * The fixed header checked once and read in place: every packet of
	 * a TCP capture comes here, the collector's acks too.
	 */
	if (seg.n < 20)
		return -1;
	out->sport = (uint16_t)(p[0] << 8 | p[1]);
	out->dport = (uint16_t)(p[2] << 8 | p[3]);
	out->seq = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 |
	    (uint32_t)p[6] << 8 | p[7];
	out->ack = (uint32_t)p[8] << 24 | (uint32_t)p[9] << 16 |
	    (uint32_t)p[10] << 8 | p[11];
	doff = (size_t)(p[12] >> 4) * 4;
	out->flags = p[13];
	if (doff < 20 || doff > wirelen || doff > seg.n)
		return -1;
	out->wirelen = wirelen - doff;
	n = wirelen < seg.n ? wirelen : seg.n;
	out->payload = bytes_of(p + doff, n - doff);
	return 0;
}

/* --- tunnels --- */

enum {
	ET_TEB = 0x6558,	/* transparent Ethernet bridging */
	PORT_VXLAN = 4789,
	PORT_VXLAN_LINUX = 8472,
	PORT_GENEVE = 6081,
	GRE_C = 0x8000,		/* checksum (and reserved1) present */
	GRE_R = 0x4000,		/* routing present (RFC 1701) */
	GRE_K = 0x2000,		/* key present (RFC 2890) */
	GRE_S = 0x1000,		/* sequence number present */
	GRE_VER = 0x0007,	/* 0; 1 is PPTP's enhanced GRE */
	VXLAN_I = 0x08,		/* the VNI is valid */
	GENEVE_VER = 0xc0,	/* the version, 0, in the first byte */
	GENEVE_OPTLEN = 0x3f	/* ...then the options' length in words */
};

const char *
net_tunnel_name(int kind)
{
	static const char *const names[TUN_KINDS] = {
		"IP in IP", "GRE", "VXLAN", "Geneve"
	};

	return kind >= 0 && kind < TUN_KINDS ? names[kind] : NULL;
}

/*
 * Whether a tunnel header of len bytes lies within the packet (b its
 * captured bytes, wirelen on the wire): 0, or what is wrong.
 */
static int
tun_fits(struct bytes b, size_t wirelen, size_t len, struct tunhdr *t)
{
	t->len = len;
	t->have = b.n;
	t->wire = wirelen;
	if (len > wirelen)
		return NET_TUN_SHORT;
	if (!bytes_has(&b, 0, len))
		return NET_TUN_CUT;
	return 0;
}

/*
 * The packet after a tunnel header of len bytes, of the ethertype type:
 * an Ethernet frame (whose header counts as the tunnel's), IP, or what
 * by_ethertype follows to IP (MPLS, VLAN tags).
 */
static int
tun_inner(struct bytes b, size_t wirelen, size_t len, uint16_t type,
    struct tunhdr *t, struct bytes *inner)
{
	int bad;

	if (type == ET_TEB)
		len += 14;
	if ((bad = tun_fits(b, wirelen, len, t)) != 0)
		return bad;
	if (type == ET_TEB) {
		if (net_link(LT_ETHERNET, bytes_sub(&b, len - 14, SIZE_MAX),
		    inner) < 0)
			return NET_TUN_OTHER;
	} else if (by_ethertype(type, b, len, inner) < 0)
		return NET_TUN_OTHER;
	return NET_TUN_INNER;
}

/* GRE version 0 (RFC 2784, 2890): four bytes, then what the flags add. */
static int
gre(struct bytes b, size_t wirelen, struct tunhdr *t, struct bytes *inner)
{
	uint16_t flags, type;
	size_t len = 4;
	int bad;

	t->kind = TUN_GRE;
	if ((bad = tun_fits(b, wirelen, len, t)) != 0)
		return bad;
	flags = get_be16(&b, 0);
	type = get_be16(&b, 2);
	/* PPTP's version 1 and RFC 1701's source routes are not followed. */
	if ((flags & GRE_VER) != 0 || (flags & GRE_R) != 0)
		return NET_TUN_OTHER;
	if (flags & GRE_C)
		len += 4;
	if (flags & GRE_K)
		len += 4;
	if (flags & GRE_S)
		len += 4;
	return tun_inner(b, wirelen, len, type, t, inner);
}

int
net_udp_tunnel_port(struct bytes seg)
{
	uint16_t dport = get_be16(&seg, 2);

	return dport == PORT_VXLAN || dport == PORT_VXLAN_LINUX ||
	    dport == PORT_GENEVE;
}

/*
 * VXLAN (RFC 7348) or Geneve (RFC 8926) by the UDP destination port.  A
 * GMEM frame sent to one of those ports is no tunnel: its first byte,
 * 'G', has neither VXLAN's I flag nor Geneve's version 0.
 */
static int
udp_tunnel(struct bytes seg, size_t wirelen, struct tunhdr *t,
    struct bytes *inner)
{
	struct l4pkt u;
	uint16_t dport;
	uint8_t first;
	int bad;

	if (!net_udp_tunnel_port(seg))
		return NET_TUN_NONE;
	dport = get_be16(&seg, 2);
	t->kind = dport == PORT_GENEVE ? TUN_GENEVE : TUN_VXLAN;
	/* A UDP header net_udp refuses is said as such by its caller. */
	if (seg.short_read || net_udp(seg, wirelen, &u) < 0)
		return NET_TUN_NONE;
	first = u.payload.n > 0 ? u.payload.p[0] : 0;
	if (t->kind == TUN_VXLAN) {
		if (u.payload.n > 0 && !(first & VXLAN_I))
			return NET_TUN_NONE;
		return tun_inner(u.payload, u.wirelen, 8, ET_TEB, t, inner);
	}
	if (u.payload.n > 0 && (first & GENEVE_VER) != 0)
		return NET_TUN_NONE;
	if ((bad = tun_fits(u.payload, u.wirelen, 8, t)) != 0)
		return bad;
	return tun_inner(u.payload, u.wirelen, 8 + (size_t)(first &
	    GENEVE_OPTLEN) * 4, get_be16(&u.payload, 2), t, inner);
}

int
net_tunnel(uint8_t proto, struct bytes payload, size_t wirelen,
    struct tunhdr *t, struct bytes *inner)
{
	switch (proto) {
	case 4:		/* IPv4 in IP */
	case 41:	/* IPv6 in IP */
		t->kind = TUN_IPIP;
		t->len = 0;
		t->have = payload.n;
		t->wire = wirelen;
		return ip_by_version(payload, proto == 4 ? 4 : 6, inner) < 0 ?
		    NET_TUN_OTHER : NET_TUN_INNER;
	case 47:
		return gre(payload, wirelen, t, inner);
	case 17:
		return udp_tunnel(payload, wirelen, t, inner);
	default:
		return NET_TUN_NONE;
	}
}
