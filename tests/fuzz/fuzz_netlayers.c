/* SPDX-License-Identifier: ISC */
/*
 * fuzz_netlayers.c: a captured frame taken apart layer by layer
 * (formats/capture/netlayers.c): link, IPv4 or IPv6 with options and extension
 * headers, a tunnel's header (GRE, VXLAN, Geneve, IP in IP) to the packet
 * inside, UDP and TCP, as the capture reader does for each packet.
 *
 * Input: a byte choosing the link type, a byte of wire length beyond the
 * captured bytes, then the frame.
 *
 * Invariants: every view handed back lies within the captured bytes, no
 * payload claims more bytes on the wire than its packet had, and a tunnel
 * header said cut is longer than what was captured of it.
 */
#include "fuzz.h"
#include "netlayers.h"

static const int links[] = {
	LT_NULL, LT_ETHERNET, LT_PPP, LT_PPP_HDLC, LT_RAW, LT_C_HDLC, LT_LOOP,
	LT_LINUX_SLL, LT_IPV4, LT_IPV6, LT_LINUX_SLL2, 147 /* unknown */
};

static void
within(struct bytes in, struct bytes v, const char *what)
{
	if (v.n > 0 && (v.p < in.p || v.p + v.n > in.p + in.n))
		fuzz_fail("%s lies outside the captured bytes", what);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes frame, ip, pay;
	struct ippkt pk;
	struct bytes inner;
	struct l4pkt l4;
	struct tunhdr t;
	uint64_t sum = 0;
	size_t extra, wl, i;
	uint8_t proto;
	int lt;

	if (size < 2)
		return 0;
	lt = links[data[0] % (sizeof(links) / sizeof(links[0]))];
	extra = data[1];
	frame = bytes_of(data + 2, size - 2);
	sum += net_linktype_name(lt) != NULL;
	if (net_link(lt, frame, &ip) < 0)
		return 0;
	within(frame, ip, "the IP packet");
	if (net_ip(ip, &pk) < 0)
		return 0;
	within(ip, pk.payload, "the IP payload");
	if (pk.payload.n > pk.wirelen)
		fuzz_fail("%zu bytes captured of a payload of %zu",
		    pk.payload.n, pk.wirelen);
	pay = pk.payload;
	wl = pk.wirelen + extra;
	proto = pk.proto;
	if (pk.frag) {
		/* As if reassembled: extension headers may follow. */
		if (pk.family == 6 && net_ip6_ext(&proto, &pay, &wl) < 0)
			return 0;
		within(pk.payload, pay, "the payload after extensions");
	}
	switch (net_tunnel(proto, pay, wl, &t, &inner)) {
	case NET_TUN_NONE:
		break;
	case NET_TUN_INNER:
		within(pay, inner, "the packet inside the tunnel");
		sum += inner.n;
		fuzz_sink = sum + (uint64_t)t.kind;
		return 0;
	case NET_TUN_CUT:
		if (t.len <= t.have || t.len > t.wire)
			fuzz_fail("a %zu-byte header said cut with %zu of %zu "
			    "bytes", t.len, t.have, t.wire);
		/* FALLTHROUGH */
	default:
		if (net_tunnel_name(t.kind) == NULL)
			fuzz_fail("a tunnel of kind %d", t.kind);
		return 0;
	}
	if (proto == 17 && net_udp(pay, wl, &l4) == 0)
		within(pay, l4.payload, "the UDP payload");
	else if (proto == 6 && net_tcp(pay, wl, &l4) == 0)
		within(pay, l4.payload, "the TCP payload");
	else
		return 0;
	if (l4.payload.n > l4.wirelen)
		fuzz_fail("%zu bytes captured of a segment of %zu",
		    l4.payload.n, l4.wirelen);
	for (i = 0; i < l4.payload.n; i++)
		sum += l4.payload.p[i];
	fuzz_sink = sum;
	return 0;
}
