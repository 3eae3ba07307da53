/* SPDX-License-Identifier: ISC */
/*
 * pcaprec.c: pcap packet records without libpcap's stdio reads (see
 * pcaprec.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "pcaprec.h"

#define PCAPREC_SNAP 262144U	/* libpcap's MAXIMUM_SNAPLEN */
#define PCAPREC_HDR 16		/* a record's header */

int
pcaprec_magic(const unsigned char magic[4], int *be, int *usec)
{
	struct bytes b = bytes_of(magic, 4);
	uint32_t m = get_be32(&b, 0);

	switch (m) {
	case 0xa1b2c3d4:	/* microseconds */
	case 0xd4c3b2a1:
	case 0xa1b23c4d:	/* nanoseconds */
	case 0x4d3cb2a1:
		break;
	default:
		return 0;
	}
	if (be != NULL)
		*be = m == 0xa1b2c3d4 || m == 0xa1b23c4d;
	if (usec != NULL)
		*usec = m == 0xa1b2c3d4 || m == 0xd4c3b2a1;
	return 1;
}

int
pcaprec_can(pcap_t *pc, const unsigned char magic[4])
{
	return pcaprec_magic(magic, NULL, NULL) &&
	    pcap_major_version(pc) == 2 && pcap_minor_version(pc) == 4 &&
	    pcap_snapshot(pc) == (int)PCAPREC_SNAP;
}

void
pcaprec_init(struct pcaprec *r, const unsigned char magic[4])
{
	memset(r, 0, sizeof(*r));
	(void)pcaprec_magic(magic, &r->be, &r->usec);
	r->snap = PCAPREC_SNAP;
	r->off = 24;
}

/*
 * The next n bytes of the input, in place: how many there are (fewer only
 * at the end of the input), or -1 when the input failed.
 */
static ssize_t
look(struct input *in, const unsigned char **p, size_t n)
{
	size_t k = input_peek(in, p, n);

	if (k < n && input_failed(in))
		return -1;
	return (ssize_t)k;
}

int
pcaprec_next(struct pcaprec *r, struct input *in, struct pcap_pkthdr *h,
    const unsigned char **data, uint64_t *off)
{
	const unsigned char *p;
	struct bytes b;
	ssize_t k;
	uint32_t caplen;

	/*
	 * The record is looked at where the input holds it and taken
	 * whole at the end: no copy (libpcap's two reads of a packet,
	 * then our two, cost a third of a small packet's reading).
	 */
	k = (ssize_t)input_peek_more(in, &p, PCAPREC_HDR - 1);
	if (k < PCAPREC_HDR)
		k = look(in, &p, PCAPREC_HDR);
	if (k < 0)
		return -2;
	if (k == 0)
		return 0;
	if ((size_t)k < PCAPREC_HDR) {
		snprintf(r->err, sizeof(r->err), "truncated dump file; tried "
		    "to read %d header bytes, only got %zu", PCAPREC_HDR,
		    (size_t)k);
		return -1;
	}
	*off = r->off;
	b = bytes_of(p, PCAPREC_HDR);
	/* As libpcap: the two halves of the time are signed 32-bit. */
	h->ts.tv_sec = (int32_t)get_32(&b, 0, r->be);
	h->ts.tv_usec = (int32_t)get_32(&b, 4, r->be);
	if (r->usec)
		h->ts.tv_usec *= 1000;
	caplen = get_32(&b, 8, r->be);
	h->caplen = caplen;
	h->len = get_32(&b, 12, r->be);
	if (caplen > r->snap) {
		snprintf(r->err, sizeof(r->err), "invalid packet capture "
		    "length %u, bigger than snaplen of %d", caplen,
		    (int)r->snap);
		return -1;
	}
	if ((size_t)k < PCAPREC_HDR + (size_t)caplen)
		k = look(in, &p, PCAPREC_HDR + (size_t)caplen);
	if (k < 0)
		return -2;
	if ((size_t)k < PCAPREC_HDR + (size_t)caplen) {
		snprintf(r->err, sizeof(r->err), "truncated dump file; tried "
		    "to read %u captured bytes, only got %zu", caplen,
		    (size_t)k - PCAPREC_HDR);
		return -1;
	}
	*data = p + PCAPREC_HDR;
	input_skip(in, PCAPREC_HDR + (size_t)caplen);
	r->off += PCAPREC_HDR + caplen;
	return 1;
}
