/* SPDX-License-Identifier: ISC */
/*
 * pcapwatch.h: the bytes libpcap reads from a pcap file, followed record
 * by record to know where each packet starts (libpcap reads ahead in
 * large blocks and does not tell), and the snapshot length in the file
 * header lifted so that packets stored whole are read whole.
 */
#ifndef GPUMEM_PCAPWATCH_H
#define GPUMEM_PCAPWATCH_H

#include <stddef.h>
#include <stdint.h>

/* Where libpcap is in a pcap file, for the offsets in messages. */
struct pcapwatch {
	unsigned char hdr[24];
	size_t have;		/* bytes of hdr collected */
	size_t need;		/* 24 for the file header, then hdrsize */
	size_t hdrsize;
	int started;		/* the file header is read */
	int be, swapped;	/* byte order; caplen and len swapped */
	uint64_t off;		/* bytes consumed */
	uint64_t left;		/* packet bytes still to pass */
	uint64_t pktoff;	/* offset of the last record header */
	uint64_t *q;		/* offsets of records read ahead, a ring */
	size_t qcap, qhead, qn;
};

/* Follow the next n bytes of the file. */
void pcapwatch_watch(struct pcapwatch *, const unsigned char *, size_t);
/* The offset of the record libpcap has just handed out. */
uint64_t pcapwatch_pop(struct pcapwatch *);
/* Set the snapshot length to 0 among n bytes at file offset off. */
void pcapwatch_unlimit(uint64_t, unsigned char *, size_t);

#endif
