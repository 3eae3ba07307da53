#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tests/tools/gmemodd.py CASE OUT: a capture of GMEM frames written from
the specs alone (docs/wire-protocol.md, pcap, IPv4, UDP, TCP), sharing
nothing with gpumem or the dissector, in one of the ways captures come
out odd; the records it carries, as tools/tsharkrecs.sh prints them
(timestamp,host,gpu,pid,used,free,total,), on standard output, in the
order sent.  Each sender sends frames of one or two records, sequence
numbers from 1; CASE is one of:

  ack-ahead   TCP: the collector's ack for data the capture has next
              comes before it (as a capture on a busy host writes it)
  ack-some    TCP: the same for every other segment only
  reorder     TCP: frames across segments, segments captured 2 1 4 3 6 5
  overlap     TCP: every segment after the first starts 7 bytes back,
              retransmitting the end of the one before with new data
  overlap-hdr the same, 25 bytes back (across a frame header)
  first-late  TCP: the first data segment captured after all the others
  twice       TCP: every data segment captured twice
  udp-short   UDP: each datagram's IP packet is 6 bytes longer than its
              UDP length says (trailing bytes that are no datagram's)
  udp-long    UDP: two senders; the datagrams of 192.0.2.9 say a UDP
              length 4 bytes past their IP packet (damaged: no records),
              those of 192.0.2.1 are sound
  port2       UDP and TCP to a second collector port, 9800, beside 9717,
              and UDP to a port another protocol owns (123, NTP's)
"""
import struct
import sys

T0 = 1767225600 * 10**9
COLLECTOR = "192.0.2.100"


def ip_sum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def addr(a):
    return bytes(int(x) for x in a.split("."))


def ipv4(src, dst, proto, payload, ident, extra=0):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload) + extra,
                      ident & 0xFFFF, 0x4000, 64, proto, 0, addr(src),
                      addr(dst))
    hdr = hdr[:10] + struct.pack("!H", ip_sum(hdr)) + hdr[12:]
    eth = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2]) + b"\x08\x00"
    return eth + hdr + payload


def udp(src, sport, dst, dport, data, ident, ulen_delta=0, trailer=b""):
    u = struct.pack("!HHHH", sport, dport, 8 + len(data) + ulen_delta, 0)
    return ipv4(src, dst, 17, u + data + trailer, ident)


def tcp(src, sport, dst, dport, seq, ack, flags, data, ident):
    t = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF,
                    ack & 0xFFFFFFFF, 5 << 4, flags, 65535, 0, 0)
    return ipv4(src, dst, 6, t + data, ident)


class Sender:
    """The frames of one (host, gpu), and the records they carry."""

    def __init__(self, host, gpu, clock):
        self.host, self.gpu, self.clock, self.seq = host, gpu, clock, 0

    def frame(self, k, recs=2):
        self.seq += 1
        body = b""
        for i in range(recs):
            ts = T0 + self.clock + k * 10**9 + i
            used, pid = 1000 + 10 * k + i, (0 if i == 0 else 4000 + k)
            body += struct.pack("!QIII", ts, used, 16384 - used, pid)
            print("%d,%s,%d,%d,%d,%d,16384," % (ts, self.host, self.gpu,
                                                 pid, used, 16384 - used))
        return struct.pack("!4sBBHIHHI", b"GMEM", 1, 0, self.gpu, self.seq,
                           recs, 0, 16384) + body


def tcp_conn(host, sport, dport, stream):
    """The packets of a connection carrying stream, cut in segments of
    about 70 bytes (frames span them): a list of (seq, data), and the
    handshake packets before them."""
    isn, risn = 1000, 5000
    hs = [tcp(host, sport, COLLECTOR, dport, isn, 0, 0x02, b"", 1),
          tcp(COLLECTOR, dport, host, sport, risn, isn + 1, 0x12, b"", 2),
          tcp(host, sport, COLLECTOR, dport, isn + 1, risn + 1, 0x10, b"",
              3)]
    segs = []
    o = 0
    while o < len(stream):
        n = min(70, len(stream) - o)
        segs.append((isn + 1 + o, stream[o:o + n]))
        o += n
    return hs, segs, risn + 1


def main():
    case, out = sys.argv[1], sys.argv[2]
    pkts = []
    if case in ("ack-ahead", "ack-some", "reorder", "overlap", "first-late",
                "twice", "overlap-hdr"):
        s = Sender("192.0.2.1", 0, 0)
        stream = b"".join(s.frame(k) for k in range(8))
        hs, segs, rack = tcp_conn("192.0.2.1", 40000, 9717, stream)
        pkts += hs
        data = []
        for i, (seq, d) in enumerate(segs):
            back = 7 if case == "overlap" else 25
            if case in ("overlap", "overlap-hdr") and i > 0:
                seq -= back
                d = stream[seq - 1001:seq - 1001 + back] + d
            data.append(tcp("192.0.2.1", 40000, COLLECTOR, 9717, seq, rack,
                            0x18, d, 10 + i))
        if case in ("ack-ahead", "ack-some"):
            for i, (seq, d) in enumerate(segs):
                ack = tcp(COLLECTOR, 9717, "192.0.2.1", 40000, rack,
                          seq + len(d), 0x10, b"", 100 + i)
                if case == "ack-ahead" or i % 2 == 1:
                    pkts += [ack, data[i]]
                else:
                    pkts += [data[i], ack]
        elif case == "reorder":
            # 1 3 2 5 4 6 ...: the first in place, then pairs swapped
            order = []
            i = 0
            while i < len(data):
                if i + 1 < len(data):
                    order += [i + 1, i]
                else:
                    order.append(i)
                i += 2
            pkts += [data[j] for j in order]
        elif case == "first-late":
            pkts += data[1:] + data[:1]
        elif case == "twice":
            for p in data:
                pkts += [p, p]
        else:
            pkts += data
    elif case in ("udp-short", "udp-long"):
        a = Sender("192.0.2.1", 0, 0)
        b = Sender("192.0.2.9", 1, 500 * 10**6)
        for k in range(6):
            pkts.append(udp(a.host, 40000, COLLECTOR, 9717, a.frame(k),
                            10 + k, trailer=b"\0" * 6 if case ==
                            "udp-short" else b""))
            if case == "udp-long":
                saved = sys.stdout
                sys.stdout = open("/dev/null", "w")
                f = b.frame(k)
                sys.stdout = saved
                pkts.append(udp(b.host, 40001, COLLECTOR, 9717, f, 50 + k,
                                ulen_delta=4))
    elif case == "port2":
        a = Sender("192.0.2.1", 0, 0)
        b = Sender("192.0.2.2", 0, 250 * 10**6)
        c = Sender("192.0.2.3", 2, 750 * 10**6)
        d = Sender("192.0.2.4", 3, 100 * 10**6)
        stream = b"".join(c.frame(k, 1) for k in range(4))
        hs, segs, rack = tcp_conn(c.host, 40002, 9800, stream)
        pkts += hs
        for k in range(4):
            pkts.append(udp(a.host, 40000, COLLECTOR, 9717, a.frame(k),
                            10 + k))
            pkts.append(udp(b.host, 40001, COLLECTOR, 9800, b.frame(k),
                            30 + k))
            pkts.append(udp(d.host, 40003, COLLECTOR, 123, d.frame(k),
                            40 + k))
        pkts += [tcp(c.host, 40002, COLLECTOR, 9800, q, rack, 0x18, d,
                     60 + i) for i, (q, d) in enumerate(segs)]
    else:
        sys.exit("gmemodd.py: unknown case " + case)
    with open(out, "wb") as o:
        o.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        t = 1767225600 * 1000000
        for p in pkts:
            o.write(struct.pack("<IIII", t // 1000000, t % 1000000, len(p),
                                len(p)) + p)
            t += 10000


main()
