/* SPDX-License-Identifier: ISC */
/*
 * pcaprec.h: the packet records of a classic pcap file read straight
 * from the input, after libpcap has read and checked the file header.
 *
 * libpcap hands each packet out through two stdio reads (its header, its
 * bytes) of a stream that reads our input: about two thirds of the cost
 * of a small packet went there.  This reader takes over the records in
 * the common case (see pcaprec_can) and does what libpcap 1.10 does with
 * each one, its messages included: a record cut by the end of the file,
 * a capture length beyond the snapshot length.  Times are libpcap's too:
 * seconds and fractions read as signed 32-bit numbers, microseconds made
 * nanoseconds.
 */
#ifndef GPUMEM_PCAPREC_H
#define GPUMEM_PCAPREC_H

#include <pcap/pcap.h>
#include <stddef.h>
#include <stdint.h>

#include "input.h"

struct pcaprec {
	int be;			/* the file is big-endian */
	int usec;		/* its times are in microseconds */
	uint32_t snap;		/* libpcap's snapshot length */
	uint64_t off;		/* of the next record */
	char err[PCAP_ERRBUF_SIZE];
};

/*
 * Whether a file's first four bytes are the magic of plain pcap: times in
 * microseconds or nanoseconds, either byte order (not pcapng, not the
 * patched formats).  When they are, *be and *usec (where not NULL) say
 * which.  The one list of these magics: detection uses it too.
 */
int pcaprec_magic(const unsigned char magic[4], int *be, int *usec);

/*
 * Whether this reader can take over from libpcap, which has read the
 * file header that starts with magic: a pcap file with microsecond or
 * nanosecond times in 16-byte record headers (not pcapng, not the
 * patched formats), version 2.4 (the lengths in their order), and a
 * snapshot length of 262144 (what libpcap makes of our 0 for every link
 * type but a few).
 */
int pcaprec_can(pcap_t *pc, const unsigned char magic[4]);

/* Start reading records after the file header that starts with magic. */
void pcaprec_init(struct pcaprec *r, const unsigned char magic[4]);

/*
 * The next packet: its header in *h (as pcap_next_ex gives it), its
 * bytes in *data (in the input's buffer, valid until the input is read
 * again), the offset of its record in *off.  Return 1; 0 at the end of the file; -1 when the file is
 * broken there (r->err says how, in libpcap's words); -2 when the input
 * failed (input_error says why).
 */
int pcaprec_next(struct pcaprec *r, struct input *in, struct pcap_pkthdr *h,
    const unsigned char **data, uint64_t *off);

#endif
