/* SPDX-License-Identifier: ISC */
/*
 * sclock.h: the clock of a log whose samples carry no time of their own
 * (dmon and pmon without -o T, dcgmi dmon, Prometheus scrapes without
 * sample timestamps, -q -x documents without <timestamp>).
 *
 * Sample n is placed at --start + n * --interval, as nvsmi.c places the
 * blocks of a log without timestamps.  Without --interval only one sample
 * can be placed: at --start.  A format may give a start of its own (the
 * date of dmon -o D rows) for when --start is absent; without either the
 * clock starts at the epoch, as nvsmi.c's does with --interval alone.
 */
#ifndef GPUMEM_SCLOCK_H
#define GPUMEM_SCLOCK_H

#include <stdint.h>

#include "format.h"

struct sclock {
	uint64_t n;		/* samples placed so far */
	uint64_t base;		/* the format's own start, if have_base */
	int have_base;
};

void sclock_init(struct sclock *c);

/* Start at t unless --start says otherwise (first call wins). */
void sclock_default_start(struct sclock *c, uint64_t t);

/* Whether the options can place sample n (see above). */
int sclock_can(const struct sclock *c, const struct format_opts *o, uint64_t n);

/*
 * Place the next sample: store its time and return 0, or return -1 when
 * the options cannot place it (nothing is counted then).
 */
int sclock_next(struct sclock *c, const struct format_opts *o, uint64_t *ts);

/*
 * Append to a summary line that the times came from --start and
 * --interval, when c placed any sample.
 */
void sclock_say(const struct sclock *c, struct sbuf *sb);

#endif
