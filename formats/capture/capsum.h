/* SPDX-License-Identifier: ISC */
/*
 * capsum.h: the accounting of one capture: each memory cap that dropped
 * something said once, as it happens; the summary line with the counts
 * (packets, frames, senders, frames lost, duplicates, restarts, cut
 * frames, tunnels decapsulated, TCP bytes lost, IP datagrams never
 * complete, what each cap dropped).
 */
#ifndef GPUMEM_CAPSUM_H
#define GPUMEM_CAPSUM_H

#include "sbuf.h"

struct capture;

/* After each packet: say what a cap dropped for the first time. */
void capsum_check(struct capture *);
/* The format's summary line (struct format's summary). */
void capsum_line(void *, struct sbuf *);

#endif
