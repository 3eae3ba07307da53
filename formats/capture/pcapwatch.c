/* SPDX-License-Identifier: ISC */
/*
 * pcapwatch.c: where libpcap is in a pcap file, for the offsets in messages
 * (see pcapwatch.h).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "pcapwatch.h"

/* --- the bytes libpcap reads --- */

/*
 * Remember the offset of a record as it goes past, for when libpcap hands
 * the packet out: libpcap reads ahead in large blocks, and packets come
 * out in the order their records went in.
 */
static void
pw_push(struct pcapwatch *w, uint64_t off)
{
	if (w->qn == w->qcap) {
		size_t ncap = w->qcap ? w->qcap * 2 : 4096, i;
		uint64_t *nq = ereallocarray(NULL, ncap, sizeof(*nq));

		for (i = 0; i < w->qn; i++)
			nq[i] = w->q[(w->qhead + i) % w->qcap];
		free(w->q);
		w->q = nq;
		w->qcap = ncap;
		w->qhead = 0;
	}
	w->q[(w->qhead + w->qn) % w->qcap] = off;
	w->qn++;
}

/* The offset of the record libpcap has just handed out. */
uint64_t
pcapwatch_pop(struct pcapwatch *w)
{
	uint64_t off;

	if (w->qn == 0)
		return w->pktoff;
	off = w->q[w->qhead];
	w->qhead = (w->qhead + 1) % w->qcap;
	w->qn--;
	return off;
}

/* Follow a pcap file's records, to know each one's offset. */
void
pcapwatch_watch(struct pcapwatch *w, const unsigned char *p, size_t n)
{
	struct bytes b;
	size_t k;
	uint32_t caplen, len;

	while (n > 0) {
		if (w->left > 0) {
			k = w->left < n ? (size_t)w->left : n;
			w->left -= k;
			w->off += k;
			p += k;
			n -= k;
			continue;
		}
		if (w->need == 0)
			w->need = 24;
		k = w->need - w->have;
		if (k > n)
			k = n;
		memcpy(w->hdr + w->have, p, k);
		w->have += k;
		p += k;
		n -= k;
		if (w->have < w->need)
			continue;
		b = bytes_of(w->hdr, w->have);
		if (!w->started) {
			uint32_t m = get_be32(&b, 0);
			uint16_t major, minor;

			w->be = m == 0xa1b2c3d4 || m == 0xa1b23c4d ||
			    m == 0xa1b2cd34;
			major = get_16(&b, 4, w->be);
			minor = get_16(&b, 6, w->be);
			/* As libpcap: lengths swapped before version 2.3. */
			w->swapped = major == 543 ||
			    (major == 2 && minor < 3) ? 1 :
			    major == 2 && minor == 3 ? 2 : 0;
			w->hdrsize = m == 0xa1b2cd34 || m == 0x34cdb2a1 ? 24 :
			    16;
			w->started = 1;
		} else {
			w->pktoff = w->off;
			pw_push(w, w->off);
			caplen = get_32(&b, 8, w->be);
			len = get_32(&b, 12, w->be);
			if (w->swapped == 1 ||
			    (w->swapped == 2 && caplen > len))
				caplen = len;
			w->left = caplen;
		}
		w->off += w->have;
		w->have = 0;
		w->need = w->hdrsize;
	}
}

/*
 * A file's snapshot length (bytes 16-19 of a pcap file's header, among
 * the n bytes at offset off) set to 0, "no limit" to libpcap: a packet
 * stored whole, longer than the snapshot length the file claims, is
 * then read whole (libpcap would cut it to that length), as tshark does.
 */
void
pcapwatch_unlimit(uint64_t off, unsigned char *p, size_t n)
{
	uint64_t i;

	for (i = off; i < off + n && i < 20; i++)
		if (i >= 16)
			p[i - off] = 0;
}
