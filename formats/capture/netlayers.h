/* SPDX-License-Identifier: ISC */
/*
 * netlayers.h: from a captured link-layer frame to UDP and TCP payloads,
 * one layer at a time (link, IP, transport), as the GMEM reader needs it.
 *
 * Link types (LINKTYPE_* numbers, as pcap and pcapng files store them):
 * Ethernet with 802.1Q/802.1ad/QinQ tags, LLC/SNAP, PPPoE and MPLS; Linux
 * cooked SLL and SLL2; raw IP (RAW, IPV4, IPV6); BSD NULL (either byte
 * order) and LOOP; PPP and Cisco HDLC.  IP: IPv4 with options, IPv6 with
 * its extension headers skipped (hop-by-hop, routing, destination
 * options, AH, mobility...), fragments described for reassembly (see
 * reasm.h).  Every read is bounds-checked (bytes.h): a packet cut short
 * by the snapshot length is never read past its captured bytes; what the
 * wire carried beyond them is told apart (`wirelen').
 *
 * The functions return 0 on success and -1 for a packet that does not
 * carry what was asked (not IP, an unknown link, a truncated header):
 * such packets are simply not telemetry.
 */
#ifndef GPUMEM_NETLAYERS_H
#define GPUMEM_NETLAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "netnums.h"	/* enum linktype, TCP_* */

/* A name for a link type ("Ethernet"), or NULL for one we do not read. */
const char *net_linktype_name(int linktype);

/*
 * Find the IP packet in a link-layer frame.  On 0, *ip views it (to the
 * end of the captured bytes; the IP header says its real length).
 */
int net_link(int linktype, struct bytes pkt, struct bytes *ip);

struct ippkt {
	int family;		/* 4 or 6 */
	unsigned char src[16];	/* IPv4 in the first 4 bytes */
	unsigned char dst[16];
	uint8_t proto;		/* the upper layer, after extension headers */
	struct bytes payload;	/* its captured bytes */
	size_t wirelen;		/* its length on the wire */

	/* A fragment: reassemble (reasm.h) before reading the payload. */
	int frag;
	uint32_t id;		/* IPv4: 16 bits; IPv6: 32 */
	uint32_t offset;	/* of this fragment's data, in bytes */
	int more;		/* more fragments follow */
};

/* Parse an IPv4 or IPv6 packet (the version is its first nibble). */
int net_ip(struct bytes ip, struct ippkt *out);

/*
 * Skip IPv6 extension headers that follow a reassembled fragment header:
 * *proto is the next header, *payload and *wirelen are advanced past them.
 */
int net_ip6_ext(uint8_t *proto, struct bytes *payload, size_t *wirelen);

struct l4pkt {
	uint16_t sport, dport;
	uint32_t seq, ack;	/* TCP */
	uint8_t flags;		/* TCP */
	struct bytes payload;	/* captured bytes */
	size_t wirelen;		/* payload length on the wire */
};

/*
 * The shortcut for the packets of a capture as gpumem pcap and most
 * senders' hosts make them (TCP's, every second one a collector's ack,
 * and UDP's): an Ethernet frame without tags holding an IPv4 packet
 * without options, not a fragment, that carries TCP or UDP.  On 0,
 * *proto is 6 or 17, *src and *dst point at the addresses in the frame
 * (4 bytes each), *seg views the TCP segment or UDP datagram and
 * *wirelen is its length on the wire, exactly as net_link and net_ip
 * would give them; -1 for any other packet, which the layers read one
 * by one.  A UDP datagram may still be a tunnel's (net_udp_tunnel_port).
 */
static inline int
net_eth_ip4(struct bytes pkt, uint8_t *proto, const unsigned char **src,
    const unsigned char **dst, struct bytes *seg, size_t *wirelen)
{
	const unsigned char *p = pkt.p;
	size_t n, total;

	/*
	 * As net_link, by_ethertype and ip4 read them, for the one shape
	 * that matters to speed: type 0x0800, version 4 with a 20-byte
	 * header, no fragment bits (the reserved bit and DF aside),
	 * protocol 6 or 17.  Inline, and the protocol first.
	 */
	if (pkt.n < 14 + 20 || (p[23] != 6 && p[23] != 17) ||
	    p[12] != 0x08 || p[13] != 0x00 ||
	    p[14] != 0x45 || (p[20] & 0x3f) != 0 || p[21] != 0)
		return -1;
	n = pkt.n - 14;
	total = (size_t)p[16] << 8 | p[17];
	/* Total length 0: offloaded, as captured (ip4). */
	if (total == 0)
		total = n;
	if (total < 20)
		return -1;
	*proto = p[23];
	*src = p + 26;
	*dst = p + 30;
	/* Captured bytes beyond the total length are link padding. */
	*seg = bytes_of(p + 34, (total < n ? total : n) - 20);
	*wirelen = total - 20;
	return 0;
}

/* A UDP datagram of wirelen bytes, of which seg holds the captured ones. */
int net_udp(struct bytes seg, size_t wirelen, struct l4pkt *out);
/*
 * Whether a UDP datagram (seg: its captured bytes) goes to the port of a
 * tunnel (VXLAN's, Geneve's: see net_tunnel), which net_tunnel looks
 * into; 0 for any other port, or a header too short to say.
 */
int net_udp_tunnel_port(struct bytes seg);
/* A TCP segment, likewise. */
int net_tcp(struct bytes seg, size_t wirelen, struct l4pkt *out);

/*
 * Encapsulations: what an IP packet's upper layer may wrap around another
 * IP packet, as captured on the underlay of a cloud or cluster network.
 * IP in IP (protocols 4 and 41, RFC 2003, 2473); GRE (protocol 47, RFC
 * 2784 with RFC 2890's key and sequence number, version 0 without RFC
 * 1701's routing), carrying IPv4, IPv6, MPLS or Ethernet (transparent
 * bridging, 0x6558); VXLAN (UDP to port 4789, or 8472, Linux's and
 * flannel's default; RFC 7348) carrying Ethernet; Geneve (UDP to port
 * 6081, RFC 8926, with its options) carrying what GRE carries.  A UDP
 * datagram to one of those ports that holds a GMEM frame is not a tunnel.
 */
enum tunnel {
	TUN_IPIP,
	TUN_GRE,
	TUN_VXLAN,
	TUN_GENEVE,
	TUN_KINDS
};

/* What net_tunnel found. */
enum {
	NET_TUN_NONE = 0,	/* not an encapsulation: read the payload */
	NET_TUN_INNER,		/* *inner views the inner IP packet */
	NET_TUN_OTHER,		/* a tunnel of something else than IP */
	NET_TUN_CUT,		/* its header cut by the snapshot length */
	NET_TUN_SHORT		/* its header longer than the packet */
};

/* A tunnel's header, as net_tunnel found it. */
struct tunhdr {
	int kind;		/* enum tunnel */
	size_t len;		/* its length, with an inner Ethernet header */
	size_t have;		/* of the bytes from its start: captured */
	size_t wire;		/* ...and on the wire */
};

/* The name of a kind of tunnel ("VXLAN"). */
const char *net_tunnel_name(int kind);

/*
 * Whether the upper layer proto of an IP packet (payload: its captured
 * bytes, wirelen on the wire) is an encapsulation: NET_TUN_NONE, or what
 * else it is, with *t filled in.  On NET_TUN_INNER *inner views the inner
 * IP packet, to the end of the captured bytes.
 */
int net_tunnel(uint8_t proto, struct bytes payload, size_t wirelen,
    struct tunhdr *t, struct bytes *inner);

#endif
