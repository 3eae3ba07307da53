/* SPDX-License-Identifier: ISC */
/*
 * gtime.h: times and durations as gpumem reads and writes them.
 *
 * A time is a uint64_t of nanoseconds since 1970-01-01T00:00:00Z.  Logs
 * written by nvidia-smi carry local time without a zone; those are read in
 * the zone set by gtime_set_tz() (--tz), else the TZ environment variable,
 * else the system zone, like date(1).  Local-to-UTC conversion is cached per
 * local hour, so a log of millions of rows costs a few mktime() calls.
 *
 * The module's files: gtzone.c (zones, civil time to UTC), gtparse.c
 * (times and durations read), gtime.c (the clock, times written);
 * gtimeint.h is what they share.
 */
#ifndef GPUMEM_GTIME_H
#define GPUMEM_GTIME_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NS_PER_SEC 1000000000ULL
#define NS_PER_MS 1000000ULL

/* The time of clock id (CLOCK_REALTIME, CLOCK_MONOTONIC) in ns. */
uint64_t gtime_clock(clockid_t id);

/*
 * Use zone tz for local times: a zone of the tz database ("Europe/Berlin",
 * a file under $TZDIR, else /usr/share/zoneinfo; ":NAME" and absolute
 * paths too), a POSIX TZ string ("UTC0", "EST5EDT,M3.2.0,M11.1.0"), or
 * "UTC".  Return -1, changing nothing, for anything else: the C library
 * would read an unknown name ("Europe/Berln", "CEST") as UTC, silently.
 */
int gtime_set_tz(const char *tz);
/* Would gtime_set_tz() take tz (1) or refuse it (0)? */
int gtime_tz_known(const char *tz);
/* Where zone files are looked up: $TZDIR, else /usr/share/zoneinfo. */
const char *gtime_tzdir(void);

/*
 * What the readers of times below return for a text that has the form of
 * a time but names none they can keep: no such date (month 13, February
 * 30, hour 25) or outside 1970..2500.  Messages say "date out of range",
 * not that the format is wrong.  Every other failure is -1.
 */
#define GTIME_RANGE (-2)

/*
 * Seconds since the epoch of a civil date-time in UTC.  Fields are not
 * range-checked here; callers check them.
 */
int64_t gtime_utc(int year, int mon, int day, int hour, int min, int sec);

/*
 * Seconds since the epoch of a civil local date-time (in the zone above).
 * A local time the zone has twice (the hour it turns back at the end of
 * summer time) is read as the first.  Return 0, or GTIME_RANGE when the
 * time does not exist or is outside 1970..2500.
 */
int gtime_local(int year, int mon, int day, int hour, int min, int sec,
    int64_t *out);

/*
 * Whether the time t, read from a local time, lies where the zone's local
 * times are about to repeat: within the hour (or the zone's step) before
 * it turns back at the end of summer time.  gtime_local() reads a repeated
 * local time as its first pass; a log that goes on into the second pass
 * is read as stepping back to t.  If so, store when the zone turns back
 * (the first pass ends) in *end, and by how much in *delta (ns): the
 * second pass is t + *delta.  Return 1 or 0.
 */
int gtime_fold(uint64_t t, uint64_t *end, uint64_t *delta);

/*
 * nvidia-smi's "YYYY/MM/DD HH:MM:SS.mmm" (the fraction may be absent or of
 * any length up to 9 digits), local time.  s[0..n) must hold exactly that.
 * Return 0 and store ns, GTIME_RANGE, or -1.
 */
int gtime_nvsmi(const char *s, size_t n, uint64_t *ns);

/*
 * ISO-8601 "YYYY-MM-DD[T| ]HH:MM[:SS[.frac]][Z|+HH:MM|+HHMM|-HH...]", or a
 * date alone.  Without a zone it is local time.  Return 0, GTIME_RANGE or
 * -1.
 */
int gtime_iso(const char *s, size_t n, uint64_t *ns);

/*
 * ctime(3) style, as nvidia-smi -q and GNU date print it:
 * "Tue Jun  9 09:00:01 UTC 2020", "Fri Aug  4 11:44:30 2023",
 * "Mon Aug 7 11:10:06 2023", and date's 12-hour form of en_US locales,
 * "Wed Feb 26 01:50:18 PM EST 2025".  A zone gtime_zone() knows is
 * applied; another zone word, or none, means local time; IST (ambiguous)
 * is local time after --tz, else refused (-1) and said once on stderr.
 * Return 0, GTIME_RANGE (a date out of range) or -1.
 */
int gtime_ctime(const char *s, size_t n, uint64_t *ns);

/*
 * A zone as date(1) prints it: an abbreviation of the table in gtparse.c
 * (UTC GMT Z UT, EST EDT CST CDT MST MDT PST PDT, WET WEST BST CET CEST
 * EET EEST, JST KST, AEST AEDT) or a numeric offset +HHMM, +HH:MM, +HH.
 * Return GTIME_ZONE_KNOWN with *off (seconds east of UTC) set,
 * GTIME_ZONE_LOCAL for another word of capitals (read as local time, as
 * before zones were known), GTIME_ZONE_AMBIGUOUS for IST, GTIME_ZONE_BAD
 * for what is no zone.
 */
enum {
	GTIME_ZONE_BAD = -1, GTIME_ZONE_LOCAL, GTIME_ZONE_KNOWN,
	GTIME_ZONE_AMBIGUOUS
};
int gtime_zone(const char *z, int64_t *off);

/*
 * A time in the strptime(3) format fmt (--time-format), with an optional
 * fraction of a second after its seconds ("13:50:18.250"); s[0..n) must
 * hold exactly that.  With %z in fmt
 * the numeric zone read applies, else it is local time.  Return 0 or -1.
 */
int gtime_strptime(const char *fmt, const char *s, size_t n, uint64_t *ns);

/*
 * Epoch time as scripts write it (date +%s, date +%s%3N, time.time()):
 * 9-10 digits are seconds (with an optional fraction), 12-13 milliseconds,
 * 15-16 microseconds, 18-19 nanoseconds; s[0..n) must hold exactly that.
 * Return 0 or -1.
 */
int gtime_epoch(const char *s, size_t n, uint64_t *ns);

/*
 * A time given by a user (--since, --until, --start): any of the forms
 * above, "@SECONDS[.frac]" since the epoch, or a bare integer of
 * nanoseconds since the epoch (as the record stream writes it).  Return
 * 0, GTIME_RANGE or -1.
 */
int gtime_parse(const char *s, uint64_t *ns);

/*
 * A time relative to now (ns), as journalctl(1) and docker(1) take them:
 * "now"; "today" and "yesterday", local midnight (in the zone above) at
 * the start of that day; or an age, that long before now: whole numbers
 * each with a unit s, m, h or d, in any order and summed ("90s", "2h30m",
 * "1d"), optionally after a "-" that means the same ("-2h").  Return 0,
 * GTIME_RANGE (before 1970, or no such local midnight) or -1 for what is
 * none of these.
 */
int gtime_relative(const char *s, uint64_t now, uint64_t *ns);

/*
 * A duration: a decimal number with an optional fraction and a unit
 * ns, us, ms, s, m (or min), h, d; a bare number is seconds.  Return 0 or -1.
 */
int gtime_duration(const char *s, uint64_t *ns);

/*
 * Format t as "2024-06-01T11:27:15.361Z" (UTC, utc != 0) or in local time
 * with its offset, "2024-06-01T13:27:15.361+02:00".  Milliseconds are
 * printed; buf must hold GTIME_BUFSZ bytes.  Return buf.
 */
#define GTIME_BUFSZ 80
char *gtime_fmt(uint64_t t, int utc, char *buf);

/* Format a duration in seconds with up to 3 decimals ("0.5", "12.25"). */
char *gtime_fmt_secs(uint64_t ns, char *buf);

/*
 * A span for people: "5 min", "1 h", "5 min 0.1 s", "8 h 24 min 40 s",
 * "0.001 s" (the seconds as gtime_fmt_secs, left out when under a
 * millisecond and hours or minutes were said).  Return buf (cap bytes).
 */
char *gtime_fmt_span(uint64_t ns, char *buf, size_t cap);

/*
 * Seconds as a table writes them ("25", "0.05", "30280"), alone or
 * followed by " s" and more ("30280 s +-10 s"), for people: under a
 * minute as they are (alone: "25 s"), else their span first
 * ("8 h 24 min 40 s", "8 h 24 min 40 s +-10 s").  Text that starts
 * otherwise is copied.  Return buf (cap bytes).
 */
char *gtime_secs_words(const char *secs, char *buf, size_t cap);

#endif
