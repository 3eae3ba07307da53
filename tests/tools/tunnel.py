#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tests/tools/tunnel.py: wrap every IP packet of a capture in tunnels, as
the underlay of a cloud or cluster network carries it: an encoder of its
own, from the RFCs, sharing nothing with gpumem (tshark checks what it
makes).

    python3 tunnel.py IN.pcap OUT.pcap LAYER...

IN is a pcap file of Ethernet (tcpdump -i lo) or raw IP frames; OUT is
Ethernet, with the same times.  Each LAYER wraps what the ones before it
made, innermost first:

    ipip4, ipip6          IP in IPv4 (protocol 4 or 41, RFC 2003) or in
                          IPv6 (RFC 2473)
    gre4, gre6            GRE over IPv4 or IPv6 (RFC 2784, 2890)
    vxlan4, vxlan6        VXLAN over UDP (RFC 7348), VNI 42
    geneve4, geneve6      Geneve over UDP (RFC 8926), VNI 42
    frag=MTU              the outer IP packet in fragments of at most MTU
                          bytes (IPv4, or IPv6's fragment header)

with options after a colon, comma-separated: gre: key=N, seq, csum (each
field RFC 2890 and 2784 add), eth (carry Ethernet, type 0x6558);
vxlan: port=N (4789); geneve: opts=N (N bytes of options, a multiple of
4, as TLVs), eth.  Outer addresses: 192.0.2.1 -> 192.0.2.2, 2001:db8::1
-> 2001:db8::2; the depth of a layer shifts them (a tunnel in a tunnel
has other ends).
"""
import struct
import sys


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def addrs(family, depth):
    if family == 4:
        return bytes([192, 0, 2, 1 + 2 * depth]), bytes([192, 0, 2, 2 + 2 * depth])
    a = bytes.fromhex("20010db8" + "00" * 10 + "%04x" % (1 + 2 * depth))
    b = bytes.fromhex("20010db8" + "00" * 10 + "%04x" % (2 + 2 * depth))
    return a, b


ident = [0x1000]


def ip(family, proto, payload, depth):
    src, dst = addrs(family, depth)
    if family == 4:
        ident[0] += 1
        h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload),
                        ident[0] & 0xffff, 0x4000, 64, proto, 0, src, dst)
        h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
        return h + payload
    return struct.pack("!IHBB16s16s", 0x60000000, len(payload), proto, 64,
                       src, dst) + payload


def l4sum(family, src, dst, proto, seg):
    if family == 4:
        pseudo = struct.pack("!4s4sBBH", src, dst, 0, proto, len(seg))
    else:
        pseudo = struct.pack("!16s16sIxxxB", src, dst, len(seg), proto)
    return csum(pseudo + seg) or 0xffff


def udp(family, dport, payload, depth):
    src, dst = addrs(family, depth)
    seg = struct.pack("!HHHH", 49152 + depth, dport, 8 + len(payload), 0) + payload
    seg = seg[:6] + struct.pack("!H", l4sum(family, src, dst, 17, seg)) + seg[8:]
    return ip(family, 17, seg, depth)


def ether(pkt):
    et = 0x0800 if pkt[0] >> 4 == 4 else 0x86dd
    return bytes.fromhex("020000000002020000000001") + struct.pack("!H", et) + pkt


def inner_type(pkt, eth):
    if eth:
        return 0x6558, ether(pkt)
    return (0x0800 if pkt[0] >> 4 == 4 else 0x86dd), pkt


def gre(pkt, opts, family, depth):
    ptype, body = inner_type(pkt, "eth" in opts)
    flags = 0
    extra = b""
    if "csum" in opts:
        flags |= 0x8000
    if "key" in opts:
        flags |= 0x2000
        extra += struct.pack("!I", int(opts["key"]))
    if "seq" in opts:
        flags |= 0x1000
        extra += struct.pack("!I", depth * 1000 + seqno[0])
        seqno[0] += 1
    if "csum" in opts:
        h = struct.pack("!HHHH", flags, ptype, 0, 0) + extra
        s = csum(h + body)
        h = struct.pack("!HHHH", flags, ptype, s, 0) + extra
    else:
        h = struct.pack("!HH", flags, ptype) + extra
    return ip(family, 47, h + body, depth)


seqno = [0]


def vxlan(pkt, opts, family, depth):
    h = struct.pack("!BxxxI", 0x08, 42 << 8)
    return udp(family, int(opts.get("port", 4789)), h + ether(pkt), depth)


def geneve(pkt, opts, family, depth):
    ptype, body = inner_type(pkt, "eth" in opts)
    n = int(opts.get("opts", 0))
    assert n % 4 == 0 and n <= 252
    options = b""
    while len(options) < n:
        # A TLV: class, type, length in words (after its 4 bytes), data.
        words = min((n - len(options)) // 4 - 1, 31)
        options += struct.pack("!HBB", 0x0103, len(options) // 4 & 0x7f,
                               words) + bytes(range(4 * words))
    h = struct.pack("!BBHI", n // 4, 0, ptype, 42 << 8)
    return udp(family, 6081, h + options + body, depth)


def fragment(pkt, mtu):
    if pkt[0] >> 4 == 4:
        ihl = (pkt[0] & 15) * 4
        hdr, data = bytearray(pkt[:ihl]), pkt[ihl:]
        step = (mtu - ihl) // 8 * 8
        out = []
        for off in range(0, len(data), step):
            part = data[off:off + step]
            more = off + step < len(data)
            h = bytearray(hdr)
            struct.pack_into("!HHH", h, 2, ihl + len(part),
                             struct.unpack("!H", hdr[4:6])[0],
                             (off // 8) | (0x2000 if more else 0))
            struct.pack_into("!H", h, 10, 0)
            struct.pack_into("!H", h, 10, csum(bytes(h)))
            out.append(bytes(h) + part)
        return out
    nh, data = pkt[6], pkt[40:]
    step = (mtu - 48) // 8 * 8
    ident[0] += 1
    out = []
    for off in range(0, len(data), step):
        part = data[off:off + step]
        more = off + step < len(data)
        fh = struct.pack("!BxHI", nh, off | (1 if more else 0), ident[0])
        h = bytearray(pkt[:40])
        struct.pack_into("!H", h, 4, 8 + len(part))
        h[6] = 44
        out.append(bytes(h) + fh + part)
    return out


def wrap(pkt, layers):
    pkts = [pkt]
    depth = 0
    for layer in layers:
        name, _, rest = layer.partition(":")
        opts = {}
        for o in filter(None, rest.split(",")):
            k, _, v = o.partition("=")
            opts[k] = v
        if name.startswith("frag="):
            pkts = [f for p in pkts for f in fragment(p, int(name[5:]))]
            continue
        assert len(pkts) == 1, "frag= comes last"
        family = int(name[-1])
        kind = name[:-1]
        p = pkts[0]
        if kind == "ipip":
            pkts = [ip(family, 4 if p[0] >> 4 == 4 else 41, p, depth)]
        elif kind == "gre":
            pkts = [gre(p, opts, family, depth)]
        elif kind == "vxlan":
            pkts = [vxlan(p, opts, family, depth)]
        elif kind == "geneve":
            pkts = [geneve(p, opts, family, depth)]
        else:
            sys.exit("tunnel.py: unknown layer " + layer)
        depth += 1
    return pkts


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: python3 tunnel.py IN.pcap OUT.pcap LAYER...")
    data = open(sys.argv[1], "rb").read()
    magic = data[:4]
    end = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    linktype = struct.unpack(end + "I", data[20:24])[0]
    out = bytearray(data[:16] + struct.pack(end + "II", 262144, 1))
    off = 24
    while off + 16 <= len(data):
        sec, frac, caplen, wirelen = struct.unpack(end + "IIII", data[off:off + 16])
        frame = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        if linktype == 1:
            et = struct.unpack("!H", frame[12:14])[0]
            if et not in (0x0800, 0x86dd):
                continue
            pkt = frame[14:]
        elif linktype == 101:
            pkt = frame
        else:
            sys.exit("tunnel.py: link type %d" % linktype)
        for p in wrap(pkt, sys.argv[3:]):
            f = ether(p)
            out += struct.pack(end + "IIII", sec, frac, len(f), len(f)) + f
    open(sys.argv[2], "wb").write(out)


main()
