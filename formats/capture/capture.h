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

#include <stddef.h>
#include <stdint.h>

#include "format.h"

extern const struct format capture_format;

/* What joining the files of one recording needs to know of a capture. */
struct capspan {
	int ng;			/* pcapng */
	int linktype;		/* LINKTYPE_ (of the first interface) */
	int snaplen;		/* the file's (first interface's) */
	uint64_t npkt;		/* packets */
	uint64_t first, last;	/* the earliest and latest packet, ns */
};

/*
 * Read the capture at path through (plain or gzip) for *sp: a pcap file
 * that pcaprec.c reads, its record headers only.  Return 0, or -1 when it
 * cannot be read whole as the reader reads it (what it read is in *sp).
 */
int capture_span(const char *path, struct capspan *sp);

/*
 * A recording in several files: st (capture_format's open) reads the n files of
 * paths after its own, named first, as one capture: the IP fragments and
 * TCP streams that straddle a boundary are put together, sequence numbers
 * and counts go on.  Messages about packets name the file.  paths (and
 * its strings) must outlive st.
 */
void capture_chain(void *st, const char *first, char *const *paths,
    size_t n);

#endif
