/* SPDX-License-Identifier: ISC */
/*
 * capstate.h: the state of one capture being read, shared by the modules
 * of the capture reader (capture.c the format, demux.c the layers,
 * flows.c TCP, seqtrack.c sequence numbers, capsum.c the summary), and
 * the memory caps they keep.  Private to formats/capture/.
 */
#ifndef GPUMEM_CAPSTATE_H
#define GPUMEM_CAPSTATE_H

#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "gmem.h"
#include "gtime.h"
#include "hmap.h"
#include "netlayers.h"
#include "pcapng.h"
#include "pcaprec.h"
#include "pcapwatch.h"
#include "reasm.h"
#include "seqtrack.h"

/*
 * Memory caps.  A capture of a few thousand GPUs streaming over TCP stays
 * far below them; hostile input hits them and is told so.
 */
#define MAX_CONNS 65536			/* TCP connections at once */
#define MAX_HELD_MIB 64			/* out-of-order TCP bytes, all */
#define MAX_HELD ((size_t)MAX_HELD_MIB << 20)
#define MAX_HELD_FLOW (4U << 20)	/* out-of-order TCP bytes, one */
#define HOLE_TIMEOUT (2 * NS_PER_SEC)	/* a TCP hole waits this long */
#define HOLE_PACKETS 200000		/* ...or this many packets */
#define MAX_FRAGS 4096			/* IP datagrams in pieces */
#define MAX_FRAG_BYTES (32U << 20)
#define FRAG_TIMEOUT (30 * NS_PER_SEC)	/* as Linux's ipfrag_time */
#define MAX_PARTIAL_MIB 128		/* partial TCP frames held, all */
#define MAX_PARTIAL ((size_t)MAX_PARTIAL_MIB << 20)
#define MAX_SEQS 65536			/* (sender, gpu) pairs followed */

#define STR_(x) #x
#define STR(x) STR_(x)

struct ltprog {
	int linktype;
	int ok;
	struct bpf_program prog;
};

struct capture {
	struct source *s;
	struct input *in;
	FILE *fp;
	pcap_t *pc;
	int ng;			/* pcapng */
	int linktype;		/* LINKTYPE_ of the pcap file */
	struct pcapwatch pw;
	uint64_t given;		/* bytes handed to libpcap */
	unsigned char magic[4];	/* the file's first bytes */
	int own;		/* pcaprec.c reads the records */
	struct pcaprec rec;
	struct seqcache seqcache[NSEQCACHE];
	uint64_t capsum;	/* what the caps had dropped, at the last look */
	struct pcapng *png;	/* watches libpcap, then reads on */
	int fallback;		/* pcapng.c reads now */
	char *refused;		/* why libpcap gave up */
	uint64_t refused_at;	/* packets read before */
	int mixed;		/* the fallback met other link types */
	char what[96];

	/*
	 * A recording in several files (capture_chain): the ones to read
	 * after the source's own, and the name of the file at hand for
	 * messages ("NAME: "; "" for a capture of one file).
	 */
	char *const *chain;
	size_t nchain, ichain;
	const char *file;
	char *filebuf;

	struct bpf_program prog;	/* --filter, libpcap's link type */
	int have_prog;
	struct ltprog *progs;	/* --filter per link type (fallback) */
	size_t nprogs;

	uint64_t npkt;		/* packets read, all files */
	uint64_t fpkt;		/* packets read of the file at hand */
	uint64_t pktoff;	/* offset of the current one */
	uint64_t now;		/* the latest capture time so far */

	struct ipreasm *ipr;
	struct tcpreasm *tcp;
	/* Their counts, in place: capsum_check looks after every packet. */
	const struct ipreasm_stats *ipst;
	const struct tcpreasm_stats *tcpst;
	struct gmem_budget budget;
	struct tcpflow *flow;	/* the TCP direction being fed */
	int late;		/* its frames fill a hole: late (flows.c) */

	struct hmap seqs;	/* (family, address, gpu) -> struct seqst */
	size_t nseqs;
	uint64_t untracked;

	unsigned caps_told;	/* a bit per cap that has said so */

	uint64_t frames, dups, lost, restarts;
	uint64_t tcp_lost, tcp_cut;
	uint64_t snapcut;	/* UDP frames cut by the snapshot length */
	uint64_t tunnels[TUN_KINDS];	/* packets decapsulated, per kind */
};

#endif
