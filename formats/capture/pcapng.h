/* SPDX-License-Identifier: ISC */
/*
 * pcapng.h: a small pcapng block reader (draft-ietf-opsawg-pcapng), for
 * what libpcap refuses.
 *
 * libpcap 1.10 reads a pcapng file only while every interface has the
 * link type and snapshot length of the first one, and every section the
 * byte order of the first.  Multi-interface captures (a bond and its
 * slaves, "any" plus loopback, several sections joined by mergecap) break
 * those rules.  The capture reader hands the file to libpcap and lets
 * this reader watch every byte libpcap consumes (pcapng_watch), block by
 * block (pcapng_want), so that when libpcap gives up right after such a
 * block, this reader knows the sections and interfaces so far and reads
 * on from there (pcapng_next).
 *
 * Blocks read: SHB (any byte order, version 1.x), IDB (link type,
 * snapshot length, if_tsresol, if_tsoffset), EPB, SPB and the obsolete
 * PB; every other block is passed over.  A block longer than 16 MiB, a
 * length that is not a multiple of 4, a trailer that disagrees with the
 * header, or a packet on an interface not described: the file is broken
 * there (pcapng_next says why).
 */
#ifndef GPUMEM_PCAPNG_H
#define GPUMEM_PCAPNG_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"

struct pcapng_pkt {
	int linktype;		/* LINKTYPE_* of its interface */
	uint32_t ifid;
	const unsigned char *data;	/* valid until the next call */
	size_t caplen;		/* bytes captured */
	size_t len;		/* bytes on the wire */
	uint64_t ts;		/* ns since the epoch */
	uint64_t offset;	/* of its block in the (decompressed) file */
};

struct pcapng;

struct pcapng *pcapng_new(void);
void pcapng_free(struct pcapng *g);

/* Account for the next n bytes of the file, read by someone else. */
void pcapng_watch(struct pcapng *g, const unsigned char *p, size_t n);

/*
 * Before pcapng_watch() of the same bytes: the snapshot length of an
 * interface among them set to 0 ("no limit"), so that the other reader
 * reads whole a packet stored longer than its interface's snapshot
 * length claims (the file holds its bytes; libpcap would cut them).
 * This reader keeps the length as the file has it: an SPB holds
 * min(original length, snapshot length) bytes of its packet, which the
 * other reader, told no limit, would take for the original length; so
 * the original length of an SPB among the bytes is set to what the
 * block holds (pcapng_want gives it alone).
 */
void pcapng_unlimit(struct pcapng *g, unsigned char *p, size_t n);

/*
 * How many bytes are left of the header or block being watched (0: no
 * idea, the file is broken).  Feeding the other reader no more than that
 * at a time keeps it in step with the watch: it never holds bytes beyond
 * the block it reads.
 */
size_t pcapng_want(const struct pcapng *g);

/* The offset of the last packet block watched or read. */
uint64_t pcapng_packet_offset(const struct pcapng *g);

/*
 * Whether the bytes watched end at a block boundary right after an SHB or
 * IDB, or inside the header of an SHB (libpcap reads a section of the
 * other byte order with the old one, finds its length absurd and gives
 * up there), so that pcapng_next() can read on where the watched reader
 * gave up.
 */
int pcapng_can_take_over(const struct pcapng *g);

/*
 * Read the next packet from in, which is positioned after the bytes
 * watched (if any).  Return 1 with *pkt filled, 0 at the end, -1 when the
 * file is broken (pcapng_error() says how).
 */
int pcapng_next(struct pcapng *g, struct input *in, struct pcapng_pkt *pkt);

const char *pcapng_error(const struct pcapng *g);

/* Interfaces described so far, sections seen. */
size_t pcapng_interfaces(const struct pcapng *g);
size_t pcapng_sections(const struct pcapng *g);

#endif
