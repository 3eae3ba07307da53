/* SPDX-License-Identifier: ISC */
/*
 * capture.h: GMEM telemetry (docs/wire-protocol.md) in pcap and pcapng
 * captures, as an input format of gpumem read ("pcap").
 *
 * The capture goes through libpcap, plain or gzip (a stdio stream over
 * the input, no temporary file); a pcapng file libpcap refuses part way
 * (interfaces of different link types or snapshot lengths, sections of
 * different byte orders) is read on by pcapng.c.  Each packet is taken
 * apart layer by layer (netlayers.h), IP fragments and TCP streams are
 * put back together (reasm.h), and each GMEM frame (gmem.h) becomes
 * records (the bytes that wait behind a TCP hole are searched for
 * frames at once, so that their records are not held back for the
 * hole's wait; where the stream reaches them they are not read twice):
 * ts = the record's own timestamp (never the packet's), host =
 * the sender's address, gpu = the frame's, memory_total = the frame's
 * (empty when 0), no process name.
 *
 * Per input: packets that are not GMEM are counted; malformed frames are
 * reported as "packet N (offset 0x...)"; sequence gaps, duplicates
 * (dropped) and restarts are counted per (sender, gpu); TCP bytes lost to
 * holes the capture never filled are counted; every cap that drops
 * something says so.  All of it goes in the summary line.
 */
#ifndef GPUMEM_CAPTURE_H
#define GPUMEM_CAPTURE_H

#include "source.h"

extern const struct format fmt_pcap;

#endif
