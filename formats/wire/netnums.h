/* SPDX-License-Identifier: ISC */
/*
 * netnums.h: the numbers of the network's headers that writing a capture
 * (capwrite.h) and reading one (netlayers.h) share: the link types as
 * pcap and pcapng files store them, and the TCP flags.  Numbers only,
 * so that the capture reader includes the wire protocol's headers and
 * never the other way round.
 */
#ifndef GPUMEM_NETNUMS_H
#define GPUMEM_NETNUMS_H

/* Link types (LINKTYPE_* of the pcap and pcapng formats). */
enum linktype {
	LT_NULL = 0,
	LT_ETHERNET = 1,
	LT_PPP = 9,
	LT_PPP_HDLC = 50,
	LT_RAW = 101,
	LT_C_HDLC = 104,
	LT_LOOP = 108,
	LT_LINUX_SLL = 113,
	LT_IPV4 = 228,
	LT_IPV6 = 229,
	LT_LINUX_SLL2 = 276
};

/* TCP flags. */
enum {
	TCP_FIN = 0x01,
	TCP_SYN = 0x02,
	TCP_RST = 0x04,
	TCP_PSH = 0x08,
	TCP_ACK = 0x10
};

#endif
