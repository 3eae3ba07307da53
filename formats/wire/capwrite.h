/* SPDX-License-Identifier: ISC */
/*
 * capwrite.h: a record stream as a capture of the GMEM frames that would
 * carry it (pcap or pcapng; docs/wire-protocol.md): what gpumem pcap
 * writes.
 *
 * The records of each (sender, GPU) at one timestamp become one frame
 * (framer.h).  The sender is the record's host when it is an IPv4 or IPv6
 * address, else src.  Over UDP a frame is a datagram, fragmented at mtu
 * (0: never); over TCP each (sender, GPU) gets its own connection, opened
 * with a handshake, frames cut into segments of `segment' bytes and
 * acknowledged by the collector, closed with FINs at the end.  Packets
 * carry the frame's timestamp.  The output is the same on every machine
 * (little-endian files, fixed addresses and initial sequence numbers), so
 * it can be compared byte for byte.
 *
 * What GMEM cannot carry is written as well as it can be and counted in
 * one warning at capw_end (framer.h).
 */
#ifndef GPUMEM_CAPWRITE_H
#define GPUMEM_CAPWRITE_H

#include <stdint.h>
#include <stdio.h>

#include "framer.h"
#include "rec.h"

struct capaddr {
	int family;		/* 4 or 6 */
	unsigned char a[16];	/* IPv4 in the first 4 bytes */
};

struct capconn;

/*
 * The writer.  capw_init sets the defaults; the caller may then change
 * the fields above the line before capw_start.
 */
struct capwriter {
	int pcapng;		/* pcapng, else pcap */
	int tcp;		/* TCP connections, else UDP datagrams */
	int usec;		/* microsecond packet times, else ns */
	int linktype;		/* LT_* of netnums.h (ethernet) */
	size_t segment;		/* TCP payload bytes a segment (1448) */
	size_t mtu;		/* UDP: fragment above (1500; 0: never) */
	uint16_t dport;		/* the collector's port (GMEM_PORT) */
	uint16_t vlan[2];	/* ethernet: 802.1Q, or 802.1ad and 802.1Q */
	size_t nvlan;
	struct capaddr src;	/* sender of records whose host is no address */
	struct capaddr dst4, dst6;	/* the collector */
	/* ---- */
	FILE *f;
	struct framer fr;
	struct capconn *all, *alltail;
	size_t nconns;
	uint64_t ts;		/* the frame's being written */
	uint16_t ipid;
	uint32_t fragid;
	unsigned char *pkt;	/* the packet being built */
	unsigned char *l4;	/* a UDP datagram before fragmentation */
	uint64_t packets;	/* written */
	int said_src, said_canon;
	int failed;		/* a write to f failed (errno says why) */
};

/* The defaults: pcap, UDP, ethernet, 192.0.2.1 to 192.0.2.100. */
void capw_init(struct capwriter *w);

/* An IPv4 or IPv6 address; return 0, or -1 when s is neither. */
int capw_addr(const char *s, struct capaddr *a);

/* The LT_* of a link type's name (ethernet, sll, ...), or -1. */
int capw_linktype(const char *name);

/* "ID" or "OUTER,INNER" VLAN ids (0-4095) into w; return 0, or -1. */
int capw_vlan(struct capwriter *w, const char *arg);

/* Start writing to f: the file header. */
void capw_start(struct capwriter *w, FILE *f);

/* One record: into a frame (written when its timestamp is complete). */
void capw_add(struct capwriter *w, const struct rec *r);

/*
 * The end: the frames held written, TCP connections closed, one warning
 * for what GMEM could not carry.  w->failed says whether all was written.
 */
void capw_end(struct capwriter *w);

void capw_release(struct capwriter *w);

#endif
