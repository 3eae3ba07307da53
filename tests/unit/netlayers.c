/* SPDX-License-Identifier: ISC */
/*
 * Unit tests: link, IP and transport layers (formats/capture/netlayers.c): every
 * link type, VLAN/QinQ/MPLS/PPPoE/SNAP, IPv4 options and offload lengths,
 * IPv6 extension headers and fragments, and every cut of a packet read
 * from an exactly sized copy (ASan catches a byte read past the end).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netlayers.h"
#include "test.h"

static unsigned char pkt[512];
static size_t plen;

static void
put(const void *p, size_t n)
{
	if (n > 0)
		memcpy(pkt + plen, p, n);
	plen += n;
}

static void
put8(unsigned v)
{
	pkt[plen++] = (unsigned char)v;
}

static void
put16(unsigned v)
{
	put8(v >> 8);
	put8(v & 0xff);
}

static void
put32(uint32_t v)
{
	put16(v >> 16);
	put16(v & 0xffff);
}

static const unsigned char src4[4] = {10, 0, 0, 7}, dst4[4] = {10, 0, 0, 1};
static const unsigned char src6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 7};
static const unsigned char dst6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
static const unsigned char payload[] = "GMEM\x01 and more";

/* IPv4 + UDP with the payload; ihl in words. */
static void
ip4_udp(unsigned ihl, unsigned total_override)
{
	size_t n = sizeof(payload) - 1, total = ihl * 4 + 8 + n, i;

	put8(0x40 | ihl);
	put8(0);
	put16(total_override != 0 ? total_override - 1 : (unsigned)total);
	put16(0x1234);
	put16(0);
	put8(64);
	put8(17);
	put16(0);
	put(src4, 4);
	put(dst4, 4);
	for (i = 5; i < ihl; i++)
		put32(0x01010101);	/* NOPs */
	put16(9717);
	put16(9717);
	put16((unsigned)(8 + n));
	put16(0);
	put(payload, n);
}

/* IPv6 with the given extension headers (next-header chain), then UDP. */
static void
ip6_udp(const unsigned char *ext, size_t extlen, unsigned first)
{
	size_t n = sizeof(payload) - 1;

	put32(0x60000000);
	put16((unsigned)(extlen + 8 + n));
	put8(first);
	put8(64);
	put(src6, 16);
	put(dst6, 16);
	put(ext, extlen);
	put16(40000);
	put16(9717);
	put16((unsigned)(8 + n));
	put16(0);
	put(payload, n);
}

/* Parse pkt down to UDP; return 0 when the payload was found whole. */
static int
parse(int lt, struct ippkt *ip, struct l4pkt *u)
{
	struct bytes b;

	if (net_link(lt, bytes_of(pkt, plen), &b) < 0 || net_ip(b, ip) < 0)
		return -1;
	if (ip->frag || ip->proto != 17)
		return -2;
	if (net_udp(ip->payload, ip->wirelen, u) < 0)
		return -3;
	return u->payload.n == sizeof(payload) - 1 &&
	    memcmp(u->payload.p, payload, u->payload.n) == 0 ? 0 : -4;
}

/* Every cut of pkt parses without reading past it, and fails or not. */
static int
every_cut(int lt)
{
	struct ippkt ip;
	struct l4pkt u;
	struct bytes b;
	unsigned char *copy;
	size_t n, whole = plen;
	int ok = 1;

	for (n = 0; n < whole; n++) {
		copy = malloc(n ? n : 1);
		memcpy(copy, pkt, n);
		if (net_link(lt, bytes_of(copy, n), &b) == 0 &&
		    net_ip(b, &ip) == 0 && !ip.frag && ip.proto == 17 &&
		    net_udp(ip.payload, ip.wirelen, &u) == 0)
			/* Only the payload may be cut: never read past n. */
			ok &= u.payload.p + u.payload.n <= copy + n &&
			    u.wirelen == sizeof(payload) - 1;
		free(copy);
	}
	return ok;
}

static void
test_links(void)
{
	struct ippkt ip;
	struct l4pkt u;
	static const unsigned char mac[12] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2};
	static const unsigned char hbh_rt_do[] = {
		43, 0, 0, 0, 0, 0, 0, 0,	/* hop-by-hop, 8 bytes */
		60, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* routing, 16 */
		17, 0, 1, 4, 0, 0, 0, 0		/* destination options, 8 */
	};
	static const unsigned char ah[] = {
		17, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0			/* AH: (4 + 2) * 4 = 24 bytes */
	};

	/* Ethernet, IPv4. */
	plen = 0;
	put(mac, 12);
	put16(0x0800);
	ip4_udp(5, 0);
	CHECK(parse(LT_ETHERNET, &ip, &u) == 0);
	CHECK_U64(ip.family, 4);
	CHECK(memcmp(ip.src, src4, 4) == 0 && memcmp(ip.dst, dst4, 4) == 0);
	CHECK_U64(u.sport, 9717);
	CHECK(every_cut(LT_ETHERNET));
	/* Link padding beyond the IP total length is not payload. */
	put(mac, 6);
	CHECK(parse(LT_ETHERNET, &ip, &u) == 0);

	/* IPv4 options; total length 0 (segmentation offload). */
	plen = 0;
	ip4_udp(7, 0);
	CHECK(parse(LT_RAW, &ip, &u) == 0);
	CHECK(every_cut(LT_RAW));
	plen = 0;
	ip4_udp(5, 1);
	CHECK(parse(LT_IPV4, &ip, &u) == 0);
	CHECK(parse(LT_IPV6, &ip, &u) == -1);	/* not IPv6 */

	/* QinQ, then IPv6 with hop-by-hop, routing, destination options. */
	plen = 0;
	put(mac, 12);
	put16(0x88a8);
	put16(100);
	put16(0x8100);
	put16(200);
	put16(0x86dd);
	ip6_udp(hbh_rt_do, sizeof(hbh_rt_do), 0);
	CHECK(parse(LT_ETHERNET, &ip, &u) == 0);
	CHECK_U64(ip.family, 6);
	CHECK(memcmp(ip.src, src6, 16) == 0);
	CHECK_U64(u.sport, 40000);
	CHECK(every_cut(LT_ETHERNET));

	/* AH. */
	plen = 0;
	ip6_udp(ah, sizeof(ah), 51);
	CHECK(parse(LT_RAW, &ip, &u) == 0);
	CHECK(every_cut(LT_IPV6));

	/* Nine VLAN tags: more than anyone nests; refused, not looped. */
	{
		int i;

		plen = 0;
		put(mac, 12);
		for (i = 0; i < 9; i++) {
			put16(0x8100);
			put16((unsigned)i);
		}
		put16(0x0800);
		ip4_udp(5, 0);
		CHECK(parse(LT_ETHERNET, &ip, &u) == -1);
	}

	/* MPLS, two labels. */
	plen = 0;
	put(mac, 12);
	put16(0x8847);
	put32(0x00010000);
	put32(0x00020100);	/* bottom of stack */
	ip4_udp(5, 0);
	CHECK(parse(LT_ETHERNET, &ip, &u) == 0);
	CHECK(every_cut(LT_ETHERNET));

	/* PPPoE session. */
	plen = 0;
	put(mac, 12);
	put16(0x8864);
	put32(0x11000001);
	put16(0);
	put16(0x0021);
	ip4_udp(5, 0);
	CHECK(parse(LT_ETHERNET, &ip, &u) == 0);

	/* 802.3 with LLC/SNAP. */
	plen = 0;
	put(mac, 12);
	put16(100);
	put32(0xaaaa0300);
	put16(0x0000);
	put16(0x86dd);
	ip6_udp(NULL, 0, 17);
	CHECK(parse(LT_ETHERNET, &ip, &u) == 0);

	/* Linux cooked v1 and v2. */
	plen = 0;
	put16(0);
	put16(1);
	put16(6);
	put(mac, 8);
	put16(0x0800);
	ip4_udp(5, 0);
	CHECK(parse(LT_LINUX_SLL, &ip, &u) == 0);
	CHECK(every_cut(LT_LINUX_SLL));
	plen = 0;
	put16(0x86dd);
	put16(0);
	put32(2);
	put16(1);
	put8(4);
	put8(6);
	put(mac, 8);
	ip6_udp(NULL, 0, 17);
	CHECK(parse(LT_LINUX_SLL2, &ip, &u) == 0);
	CHECK(every_cut(LT_LINUX_SLL2));

	/* BSD loopback: the AF in either byte order; OpenBSD's LOOP. */
	plen = 0;
	put32(0x02000000);	/* 2, little-endian */
	ip4_udp(5, 0);
	CHECK(parse(LT_NULL, &ip, &u) == 0);
	plen = 0;
	put32(30);		/* macOS AF_INET6, big-endian */
	ip6_udp(NULL, 0, 17);
	CHECK(parse(LT_NULL, &ip, &u) == 0);
	CHECK(every_cut(LT_NULL));
	pkt[3] = 24;
	CHECK(parse(LT_LOOP, &ip, &u) == 0);
	pkt[3] = 7;		/* AF 7: not IP */
	CHECK(parse(LT_LOOP, &ip, &u) == -1);

	/* PPP, with and without address/control, compressed protocol. */
	plen = 0;
	put16(0xff03);
	put16(0x0021);
	ip4_udp(5, 0);
	CHECK(parse(LT_PPP, &ip, &u) == 0);
	plen = 0;
	put8(0x57);
	ip6_udp(NULL, 0, 17);
	CHECK(parse(LT_PPP_HDLC, &ip, &u) == 0);
	CHECK(every_cut(LT_PPP));

	/* Cisco HDLC. */
	plen = 0;
	put16(0x0f00);
	put16(0x0800);
	ip4_udp(5, 0);
	CHECK(parse(LT_C_HDLC, &ip, &u) == 0);

	/* A link type we do not read. */
	CHECK(parse(147, &ip, &u) == -1);
	CHECK(net_linktype_name(147) == NULL);
	CHECK_STR(net_linktype_name(LT_LINUX_SLL2), "Linux cooked v2");
}

static void
test_fragments(void)
{
	struct ippkt ip;
	struct bytes b, p;
	struct l4pkt u;
	static const unsigned char frag_first[] = {
		60, 0, 0, 1, 0xde, 0xad, 0xbe, 0xef	/* offset 0, M */
	};
	static const unsigned char frag_atomic[] = {
		17, 0, 0, 0, 0, 0, 0, 9			/* offset 0, no M */
	};
	static const unsigned char dopts[] = {17, 0, 1, 4, 0, 0, 0, 0};
	size_t wl;
	uint8_t proto;

	/* IPv4: MF set, then an offset. */
	plen = 0;
	ip4_udp(5, 0);
	pkt[6] = 0x20;
	CHECK(net_link(LT_RAW, bytes_of(pkt, plen), &b) == 0);
	CHECK(net_ip(b, &ip) == 0);
	CHECK(ip.frag && ip.more && ip.offset == 0 && ip.id == 0x1234);
	pkt[6] = 0x00;
	pkt[7] = 0x03;
	CHECK(net_ip(b, &ip) == 0);
	CHECK(ip.frag && !ip.more && ip.offset == 24);

	/* IPv6: the first fragment stops the walk; dest options follow. */
	plen = 0;
	ip6_udp(frag_first, sizeof(frag_first), 44);
	/* Put destination options in the fragmentable part. */
	memmove(pkt + 48 + sizeof(dopts), pkt + 48, plen - 48);
	memcpy(pkt + 48, dopts, sizeof(dopts));
	plen += sizeof(dopts);
	pkt[5] += sizeof(dopts);
	CHECK(net_ip(bytes_of(pkt, plen), &ip) == 0);
	CHECK(ip.frag && ip.more && ip.offset == 0 && ip.id == 0xdeadbeef);
	CHECK_U64(ip.proto, 60);
	/* What reassembly hands back goes on through the options. */
	proto = ip.proto;
	p = ip.payload;
	wl = ip.wirelen;
	CHECK(net_ip6_ext(&proto, &p, &wl) == 0);
	CHECK_U64(proto, 17);
	CHECK(net_udp(p, wl, &u) == 0);
	CHECK(memcmp(u.payload.p, payload, sizeof(payload) - 1) == 0);
	/* A fragment header inside a reassembled packet is refused. */
	proto = 44;
	p = bytes_of(frag_first, sizeof(frag_first));
	wl = sizeof(frag_first);
	CHECK(net_ip6_ext(&proto, &p, &wl) < 0);

	/* An atomic fragment is no fragment (RFC 6946). */
	plen = 0;
	ip6_udp(frag_atomic, sizeof(frag_atomic), 44);
	CHECK(net_ip(bytes_of(pkt, plen), &ip) == 0);
	CHECK(!ip.frag && ip.proto == 17);
}

static void
test_transport(void)
{
	unsigned char t[40];
	struct l4pkt l;

	memset(t, 0, sizeof(t));
	t[0] = 0x9c;
	t[1] = 0x40;
	t[2] = 0x25;
	t[3] = 0xf5;
	t[4] = 0xff;		/* seq 0xff000001 */
	t[7] = 1;
	t[12] = 8 << 4;		/* 32-byte header: options */
	t[13] = TCP_ACK | TCP_PSH;
	memcpy(t + 32, "GMEM\x01xyz", 8);
	CHECK(net_tcp(bytes_of(t, 40), 40, &l) == 0);
	CHECK_U64(l.sport, 40000);
	CHECK_U64(l.dport, 9717);
	CHECK_U64(l.seq, 0xff000001);
	CHECK_U64(l.flags, TCP_ACK | TCP_PSH);
	CHECK_U64(l.payload.n, 8);
	CHECK_U64(l.wirelen, 8);
	/* Cut by the snapshot length: captured bytes and wire length. */
	CHECK(net_tcp(bytes_of(t, 36), 100, &l) == 0);
	CHECK_U64(l.payload.n, 4);
	CHECK_U64(l.wirelen, 68);
	/* Captured beyond the IP length (Ethernet padding): not payload. */
	CHECK(net_tcp(bytes_of(t, 40), 34, &l) == 0);
	CHECK_U64(l.payload.n, 2);
	CHECK_U64(l.wirelen, 2);
	CHECK_U64(l.ack, 0);
	/* A header cut before its 20 fixed bytes. */
	CHECK(net_tcp(bytes_of(t, 19), 40, &l) < 0);
	/* A header longer than the segment. */
	CHECK(net_tcp(bytes_of(t, 30), 30, &l) < 0);
	t[12] = 4 << 4;
	CHECK(net_tcp(bytes_of(t, 40), 40, &l) < 0);

	/* UDP: the length field rules; 0 is a jumbogram; too long is bad. */
	memset(t, 0, sizeof(t));
	t[5] = 20;
	CHECK(net_udp(bytes_of(t, 40), 40, &l) == 0);
	CHECK_U64(l.payload.n, 12);
	t[5] = 0;
	CHECK(net_udp(bytes_of(t, 40), 40, &l) == 0);
	CHECK_U64(l.payload.n, 32);
	t[5] = 41;
	CHECK(net_udp(bytes_of(t, 40), 40, &l) < 0);
	t[5] = 7;
	CHECK(net_udp(bytes_of(t, 40), 40, &l) < 0);
	CHECK(net_udp(bytes_of(t, 6), 40, &l) < 0);

	/* The ports of tunnels: VXLAN's, Linux's VXLAN, Geneve's. */
	t[2] = 0x12;
	t[3] = 0xb5;			/* 4789 */
	CHECK(net_udp_tunnel_port(bytes_of(t, 8)) == 1);
	t[2] = 0x21;
	t[3] = 0x18;			/* 8472 */
	CHECK(net_udp_tunnel_port(bytes_of(t, 8)) == 1);
	t[2] = 0x17;
	t[3] = 0xc1;			/* 6081 */
	CHECK(net_udp_tunnel_port(bytes_of(t, 8)) == 1);
	CHECK(net_udp_tunnel_port(bytes_of(t, 3)) == 0);	/* cut */
	t[2] = 0x25;
	t[3] = 0xf5;			/* 9717, GMEM's */
	CHECK(net_udp_tunnel_port(bytes_of(t, 8)) == 0);
}

/*
 * An Ethernet frame of IPv4 (header of ihl words, total length total, 0:
 * as built; flags and fragment offset frag) and TCP with n payload bytes,
 * then pad bytes of link padding.
 */
static void
eth_tcp4(unsigned ihl, unsigned total, unsigned frag, size_t n, size_t pad)
{
	static const unsigned char macs[12] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0,
	    0, 2};
	size_t i;

	plen = 0;
	put(macs, 12);
	put16(0x0800);
	put8(0x40 | ihl);
	put8(0);
	put16(total != 0 ? total : (unsigned)(ihl * 4 + 20 + n));
	put16(0x1234);
	put16(frag);
	put8(64);
	put8(6);
	put16(0);
	put(src4, 4);
	put(dst4, 4);
	for (i = 5; i < ihl; i++)
		put32(0x01010101);
	put16(40000);
	put16(9717);
	put32(1000);
	put32(2000);
	put8(5 << 4);
	put8(TCP_ACK | (n > 0 ? TCP_PSH : 0));
	put16(65535);
	put32(0);
	for (i = 0; i < n; i++)
		put8((unsigned)i);
	for (i = 0; i < pad; i++)
		put8(0);
}

/*
 * The shortcut on the first n bytes of pkt, read from an exactly sized
 * copy: -1 when it leaves the packet to the layers; else whether it gives
 * what net_link and net_ip give (the same bytes, the same wire length),
 * with *segn and *wire its lengths.
 */
static int
shortcut(size_t n, size_t *segn, size_t *wire)
{
	unsigned char *copy = malloc(n ? n : 1);
	const unsigned char *src, *dst;
	struct bytes seg, b;
	struct ippkt ip;
	size_t wirelen;
	uint8_t proto;
	int rc;

	memcpy(copy, pkt, n);
	if (net_eth_ip4(bytes_of(copy, n), &proto, &src, &dst, &seg,
	    &wirelen) < 0) {
		free(copy);
		return -1;
	}
	*segn = seg.n;
	*wire = wirelen;
	rc = net_link(LT_ETHERNET, bytes_of(copy, n), &b) == 0 &&
	    net_ip(b, &ip) == 0 && !ip.frag && ip.proto == proto &&
	    ip.family == 4 && memcmp(src, ip.src, 4) == 0 &&
	    memcmp(dst, ip.dst, 4) == 0 && seg.p == ip.payload.p &&
	    seg.n == ip.payload.n && wirelen == ip.wirelen &&
	    seg.p + seg.n <= copy + n;
	free(copy);
	return rc;
}

/* Every cut of pkt: the shortcut declines or agrees with the layers. */
static int
shortcut_cuts(void)
{
	size_t n, segn, wire;
	int ok = 1;

	for (n = 0; n <= plen; n++)
		ok &= shortcut(n, &segn, &wire) != 0;
	return ok;
}

static void
test_shortcut(void)
{
	size_t segn = 0, wire = 0;

	/* An ack, as sent and as received (padded to 60 bytes). */
	eth_tcp4(5, 0, 0, 0, 0);
	CHECK(shortcut(plen, &segn, &wire) == 1);
	CHECK_U64(segn, 20);
	CHECK_U64(wire, 20);
	CHECK(shortcut_cuts());
	eth_tcp4(5, 0, 0x4000, 0, 6);	/* DF */
	CHECK_U64(plen, 60);
	CHECK(shortcut(plen, &segn, &wire) == 1);
	CHECK_U64(segn, 20);
	CHECK_U64(wire, 20);
	CHECK(shortcut_cuts());
	/* A segment with data, whole, then cut by the snapshot length. */
	eth_tcp4(5, 0, 0, 60, 0);
	CHECK(shortcut(plen, &segn, &wire) == 1);
	CHECK_U64(segn, 80);
	CHECK_U64(wire, 80);
	CHECK(shortcut_cuts());
	CHECK(shortcut(plen - 10, &segn, &wire) == 1);
	CHECK_U64(segn, 70);
	CHECK_U64(wire, 80);
	/* Total length 0 (offload): as captured; the reserved bit: read. */
	eth_tcp4(5, 0, 0x8000, 60, 0);
	pkt[16] = pkt[17] = 0;
	CHECK(shortcut(plen, &segn, &wire) == 1);
	CHECK_U64(segn, 80);
	CHECK_U64(wire, 80);
	CHECK(shortcut_cuts());
	/* Left to the layers: fragments, options, tags, other protocols. */
	eth_tcp4(5, 0, 0x2000, 60, 0);	/* MF */
	CHECK(shortcut(plen, &segn, &wire) == -1);
	eth_tcp4(5, 0, 0x0001, 60, 0);	/* at 8 bytes */
	CHECK(shortcut(plen, &segn, &wire) == -1);
	eth_tcp4(5, 0, 0x0100, 60, 0);	/* at 2048 bytes */
	CHECK(shortcut(plen, &segn, &wire) == -1);
	eth_tcp4(6, 0, 0, 60, 0);
	CHECK(shortcut(plen, &segn, &wire) == -1);
	CHECK(shortcut_cuts());
	eth_tcp4(5, 19, 0, 0, 0);	/* shorter than its header */
	CHECK(shortcut(plen, &segn, &wire) == -1);
	eth_tcp4(5, 0, 0, 0, 0);
	pkt[23] = 17;			/* UDP: taken too, as the layers */
	CHECK(shortcut(plen, &segn, &wire) == 1);
	CHECK(shortcut_cuts());
	pkt[23] = 1;			/* ICMP */
	CHECK(shortcut(plen, &segn, &wire) == -1);
	pkt[23] = 6;
	pkt[14] = 0x65;
	CHECK(shortcut(plen, &segn, &wire) == -1);
	pkt[14] = 0x45;
	pkt[12] = 0x81;			/* 802.1Q */
	CHECK(shortcut(plen, &segn, &wire) == -1);
	pkt[12] = 0x86;
	pkt[13] = 0xdd;
	CHECK(shortcut(plen, &segn, &wire) == -1);
}

int
main(void)
{
	test_links();
	test_fragments();
	test_transport();
	test_shortcut();
	TEST_END("netlayers");
}
