/* SPDX-License-Identifier: ISC */
/*
 * gtzone.c: zones and civil time (gtime.h): --tz and the zones it takes,
 * civil date-times to seconds since the epoch, in UTC or in the local
 * zone (cached per local hour), and the hour a zone turns back.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gtime.h"
#include "gtimeint.h"
#include "msg.h"

/* The latest year whose times fit a uint64_t of nanoseconds is 2554. */
#define YEAR_MIN 1970
#define YEAR_MAX 2500

/*
 * One cached local hour: its civil fields and its offset from UTC.  Per
 * thread: the reader's workers (workers.h) parse times at once.
 */
static _Thread_local struct {
	int valid;
	int year, mon, day, hour;
	int64_t offset;		/* local minus UTC, seconds */
} zcache[2];
static _Thread_local int zcache_next;
int gtime_tz_given;		/* --tz: the zone of local times is known */

const char *
gtime_tzdir(void)
{
	const char *d = getenv("TZDIR");

	return d != NULL && *d != '\0' ? d : "/usr/share/zoneinfo";
}

/* Is path a compiled zone (tzfile(5) starts with "TZif")? */
static int
is_tzfile(const char *path)
{
	char magic[4];
	FILE *f = fopen(path, "rb");
	int ok;

	if (f == NULL)
		return 0;
	ok = fread(magic, 1, 4, f) == 4 && memcmp(magic, "TZif", 4) == 0;
	fclose(f);
	return ok;
}

/* A zone name in a POSIX TZ string: 3 or more letters, or <...>. */
static const char *
posix_name(const char *s)
{
	const char *p = s;

	if (*p == '<') {
		for (p++; isalnum((unsigned char)*p) || *p == '+' || *p == '-';
		    p++)
			;
		return *p == '>' && p - s >= 4 ? p + 1 : NULL;
	}
	while (isalpha((unsigned char)*p))
		p++;
	return p - s >= 3 ? p : NULL;
}

/* [+-]hh[:mm[:ss]], hours up to max; NULL when it is not one. */
static const char *
posix_hms(const char *p, int sign, int max)
{
	int i, v;

	if (sign && (*p == '+' || *p == '-'))
		p++;
	for (i = 0; i < 3; i++) {
		if (i > 0 && *p != ':')
			break;
		if (i > 0)
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		for (v = 0; isdigit((unsigned char)*p); p++)
			if ((v = v * 10 + (*p - '0')) > 999)
				return NULL;
		if (v > (i == 0 ? max : 59))
			return NULL;
	}
	return p;
}

/* A number from lo to hi. */
static const char *
posix_num(const char *p, int lo, int hi)
{
	int v = 0;

	if (!isdigit((unsigned char)*p))
		return NULL;
	for (; isdigit((unsigned char)*p); p++)
		if ((v = v * 10 + (*p - '0')) > hi)
			return NULL;
	return v >= lo ? p : NULL;
}

/* A rule of summer time: Jn, n or Mm.w.d, then an optional /time. */
static const char *
posix_rule(const char *p)
{
	if (*p == 'J')
		p = posix_num(p + 1, 1, 365);
	else if (*p == 'M') {
		if ((p = posix_num(p + 1, 1, 12)) == NULL || *p++ != '.' ||
		    (p = posix_num(p, 1, 5)) == NULL || *p++ != '.')
			return NULL;
		p = posix_num(p, 0, 6);
	} else
		p = posix_num(p, 0, 365);
	if (p != NULL && *p == '/')
		p = posix_hms(p + 1, 1, 167);
	return p;
}

/*
 * A POSIX TZ string (std offset [dst [offset] [,rule,rule]]): what the C
 * library reads without a zone file.  A bare name such as "CEST" is none:
 * the C library takes it for UTC.
 */
static int
is_posix_tz(const char *s)
{
	const char *p;

	if ((p = posix_name(s)) == NULL || (p = posix_hms(p, 1, 24)) == NULL)
		return 0;
	if (*p == '\0')
		return 1;
	if ((p = posix_name(p)) == NULL)
		return 0;
	if (*p != ',' && *p != '\0' && (p = posix_hms(p, 1, 24)) == NULL)
		return 0;
	if (*p == '\0')
		return 1;
	if (*p++ != ',' || (p = posix_rule(p)) == NULL || *p++ != ',' ||
	    (p = posix_rule(p)) == NULL)
		return 0;
	return *p == '\0';
}

int
gtime_tz_known(const char *tz)
{
	char path[4096];
	const char *name = tz[0] == ':' ? tz + 1 : tz;

	if (strcasecmp(name, "UTC") == 0 || strcasecmp(name, "GMT") == 0)
		return 1;	/* UTC even where no tzdata is installed */
	if (*name == '\0')
		return 0;
	if (name[0] == '/')
		return is_tzfile(name);
	if (snprintf(path, sizeof(path), "%s/%s", gtime_tzdir(), name) <
	    (int)sizeof(path) && is_tzfile(path))
		return 1;
	return tz[0] != ':' && is_posix_tz(tz);
}

int
gtime_set_tz(const char *tz)
{
	if (!gtime_tz_known(tz))
		return -1;
	gtime_tz_given = 1;
	setenv("TZ", tz, 1);
	tzset();
	memset(zcache, 0, sizeof(zcache));
	return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int64_t
gtime_utc(int year, int mon, int day, int hour, int min, int sec)
{
	return days_from_civil(year, mon, day) * 86400 + hour * 3600 +
	    min * 60 + sec;
}

int
gtime_civil_ok(int year, int mon, int day, int hour, int min, int sec)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31};

	if (year < YEAR_MIN || year > YEAR_MAX || mon < 1 || mon > 12)
		return 0;
	if (day < 1 || day > mdays[mon - 1])
		return 0;
	if (mon == 2 && day == 29 &&
	    !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
		return 0;
	/* 60 is a leap second, as date(1) and strptime accept it. */
	return hour >= 0 && hour < 24 && min >= 0 && min < 60 && sec >= 0 &&
	    sec <= 60;
}

/* The zone's offset from UTC at t, in seconds. */
static int64_t
zone_offset(int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (localtime_r(&tt, &tm) == NULL)
		return 0;
	return tm.tm_gmtoff;
}

/*
 * The hour the zone turns back at the end of summer time happens twice:
 * mktime() may take either pass.  Take the first, the earlier instant:
 * the reader tells the second pass by the clock stepping back into it
 * (source.h) and reads it as that (gtime_fold()).  local is the hour's
 * civil time as if it were UTC, off mktime's offset for it.
 */
static int64_t
first_pass(int64_t local, int hour, int64_t off)
{
	struct tm tm;
	int64_t prev = zone_offset(local - off - 3600);
	time_t t;

	if (prev <= off)
		return off;
	t = (time_t)(local - prev);
	if (localtime_r(&t, &tm) == NULL || tm.tm_gmtoff != prev ||
	    tm.tm_hour != hour)
		return off;
	return prev;
}

int
gtime_fold(uint64_t t, uint64_t *end, uint64_t *delta)
{
	int64_t s = (int64_t)(t / NS_PER_SEC), lo, hi, o1, o2;

	/* Zones turn back by at most 2 h; only in the next 3 h can it be. */
	o1 = zone_offset(s);
	o2 = zone_offset(s + 3 * 3600);
	if (o2 >= o1)
		return 0;
	lo = s;
	hi = s + 3 * 3600;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;

		if (zone_offset(mid) == o1)
			lo = mid;
		else
			hi = mid;
	}
	if (s < hi - (o1 - zone_offset(hi)))
		return 0;
	*end = (uint64_t)hi * NS_PER_SEC;
	*delta = (uint64_t)(o1 - zone_offset(hi)) * NS_PER_SEC;
	return 1;
}

/*
 * Local times without --tz are in the zone of TZ, which the C library
 * reads as UTC when it knows no such zone ("Europe/Pariss"): said once,
 * as --tz refuses it.
 */
static void
tz_env_check(void)
{
	static int said;
	const char *tz = getenv("TZ");

	if (!gtime_tz_given && tz != NULL && *tz != '\0' && !gtime_tz_known(tz))
		msg_once(&said, "TZ: '%s': unknown time zone (not a zone of %s, "
		    "nor a POSIX TZ string): local times are read as UTC; "
		    "set TZ right or give --tz", tz, gtime_tzdir());
}

int
gtime_local(int year, int mon, int day, int hour, int min, int sec,
    int64_t *out)
{
	struct tm tm;
	int64_t utc, off;
	time_t t;
	int i;

	if (!gtime_civil_ok(year, mon, day, hour, min, sec))
		return GTIME_RANGE;
	utc = gtime_utc(year, mon, day, hour, min, sec);
	for (i = 0; i < 2; i++)
		if (zcache[i].valid && zcache[i].year == year &&
		    zcache[i].mon == mon && zcache[i].day == day &&
		    zcache[i].hour == hour) {
			off = zcache[i].offset;
			goto done;
		}
	tz_env_check();
	/*
	 * mktime() on the whole hour gives the offset for the hour; zone
	 * changes happen on whole hours (or at least on the hour's first
	 * minutes only in zones nobody logs GPUs in).
	 */
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	off = gtime_utc(year, mon, day, hour, 0, 0) - (int64_t)t;
	off = first_pass(gtime_utc(year, mon, day, hour, 0, 0), hour, off);
	zcache[zcache_next].valid = 1;
	zcache[zcache_next].year = year;
	zcache[zcache_next].mon = mon;
	zcache[zcache_next].day = day;
	zcache[zcache_next].hour = hour;
	zcache[zcache_next].offset = off;
	zcache_next ^= 1;
done:
	utc -= off;
	if (utc < 0)
		return GTIME_RANGE;
	*out = utc;
	return 0;
}
