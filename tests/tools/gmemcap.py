#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""tests/tools/gmemcap.py: a capture of GMEM datagrams written from the
specs alone (docs/wire-protocol.md, the pcap and pcapng formats), sharing
nothing with gpumem: for captures no gpumem tool writes (a sender's clock
that steps back, a sender restarting on its port, Simple Packet Blocks).

    python3 gmemcap.py [--spb SNAPLEN] [--fcs] OUT < SPEC

SPEC has a line per frame of one record, fields separated by blanks:

    SRC SPORT GPU SEQ FLAGS TS USED [PID]

SRC an IPv4 address, TS nanoseconds; the record's free is 8192 - USED,
the frame's memory_total 8192, PID 0 when absent.  Each frame is a UDP
datagram from SRC:SPORT to 192.0.2.100:9717 over Ethernet, captured 10
ms after the one before (from 2026-01-01T00:00:00Z).  OUT is pcap
(microseconds); with --spb it is pcapng: a Section Header, an Interface
Description of snapshot length SNAPLEN, and a Simple Packet Block per
packet, whose data is the packet's first min(length, SNAPLEN) bytes
(SNAPLEN 0: no limit).  --fcs: each Ethernet frame ends in its frame
check sequence (4 bytes, counted in its length), as some NICs capture.
"""
import struct
import zlib
import sys


def ip_sum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def packet(src, sport, gpu, seq, flags, ts, used, pid):
    frame = struct.pack("!4sBBHIHHI", b"GMEM", 1, flags, gpu, seq, 1, 0, 8192)
    frame += struct.pack("!QIII", ts, used, 8192 - used, pid)
    udp = struct.pack("!HHHH", sport, 9717, 8 + len(frame), 0) + frame
    a = bytes(int(x) for x in src.split("."))
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xFFFF,
                      0, 64, 17, 0, a, bytes([192, 0, 2, 100]))
    hdr = hdr[:10] + struct.pack("!H", ip_sum(hdr)) + hdr[12:]
    eth = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2]) + b"\x08\x00"
    return eth + hdr + udp


def block(btype, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def main():
    args = sys.argv[1:]
    snaplen = None
    fcs = False
    if args[:1] == ["--spb"]:
        snaplen = int(args[1])
        args = args[2:]
    if args[:1] == ["--fcs"]:
        fcs = True
        args = args[1:]
    out = open(args[0], "wb")
    if snaplen is None:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    else:
        out.write(block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0,
                                                -1)))
        out.write(block(1, struct.pack("<HHI", 1, 0, snaplen)))
    t = 1767225600 * 1000000
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        pid = int(f[7]) if len(f) > 7 else 0
        p = packet(f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4]),
                   int(f[5]), int(f[6]), pid)
        if fcs:
            p += struct.pack("<I", zlib.crc32(p))
        if snaplen is None:
            out.write(struct.pack("<IIII", t // 1000000, t % 1000000,
                                  len(p), len(p)) + p)
        else:
            data = p[:snaplen] if snaplen > 0 else p
            out.write(block(3, struct.pack("<I", len(p)) + data))
        t += 10000
    out.close()


main()
