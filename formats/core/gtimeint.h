/* SPDX-License-Identifier: ISC */
/*
 * gtimeint.h: what the files of the gtime module share and callers do
 * not see (their contract is gtime.h).  gtzone.c defines both.
 */
#ifndef GPUMEM_GTIMEINT_H
#define GPUMEM_GTIMEINT_H

/* --tz was given: the zone of local times is known (gtime_set_tz). */
extern int gtime_tz_given;

/*
 * Whether a civil date-time exists and lies within the years gtime
 * keeps (1970..2500): month 13, February 30, hour 25 do not.  Return 1
 * or 0.
 */
int gtime_civil_ok(int year, int mon, int day, int hour, int min, int sec);

#endif
