/* SPDX-License-Identifier: ISC */
/*
 * rotate.h: the capture files of one recording (tcpdump -C or -G, dumpcap
 * -b, editcap -c) read as one capture, so that what straddles a file
 * boundary (IP fragments, TCP segments, GMEM frames) is put together.
 *
 * Among the inputs of a run, the captures that are files (not standard
 * input) are taken in the order of their first packet, whatever the
 * order they were given in.  A capture joins the recording whose last
 * file it follows:
 *  - the same kind of file (pcap or pcapng), link type and snapshot
 *    length, and under --host-from-file the same host;
 *  - its first packet no earlier than ROTATE_SLACK before the last packet
 *    of that file (timestamps of packets taken on several CPUs may step
 *    back a little), and at most ROTATE_GAP after it, or ROTATE_NAMED_GAP
 *    when their names are those of one rotation: the same name with a
 *    higher number, as tcpdump writes them ("cap", "cap1", "cap2"; with
 *    -W "cap0", "cap1") and dumpcap and editcap do
 *    ("cap_00001_20261201120000.pcapng").
 * When it could follow several, a recording of the same name goes first,
 * then the one whose last packet is the latest.  A file of a rotation
 * whose number is skipped is missing: said, and its packets are lost (the
 * recording reads on after the hole as a capture with a hole does).
 * Each file is read once beforehand for its times (when there are two
 * or more: one alone has nothing to join).
 */
#ifndef GPUMEM_ROTATE_H
#define GPUMEM_ROTATE_H

#include <stddef.h>

#include "source.h"

#define ROTATE_SLACK 10000000ULL		/* 10 ms */
#define ROTATE_GAP (60 * 1000000000ULL)		/* 1 min */
#define ROTATE_NAMED_GAP (3600 * 1000000000ULL)	/* 1 h */

struct rotation;

/*
 * Join the recordings among the n sources of src, in place: the first
 * file of each reads the others after it (capture_chain) and is named
 * "FIRST..LAST"; the sources of the others are freed and taken out.  Each
 * recording of several files is said on stderr.  Return the new count;
 * *rot holds what the joined sources use, for rotate_free() after they
 * are freed.
 */
size_t rotate_join(struct source **src, size_t n, struct rotation **rot);
void rotate_free(struct rotation *rot);

#endif
