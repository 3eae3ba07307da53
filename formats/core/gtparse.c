/* SPDX-License-Identifier: ISC */
/*
 * gtparse.c: reading times and durations (gtime.h): nvidia-smi's, ISO
 * 8601, ctime(3) and date(1) with their zones, strptime formats, epoch
 * numbers, what users give (--since, --start, relative times) and
 * durations.
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

/* Read exactly n digits at s as an int; -1 if any is not a digit. */
static int
digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		v = v * 10 + (int)d;
	}
	return v;
}

/*
 * A fraction of a second ".ddd" at s[0..n): return its nanoseconds and the
 * characters used (0 when s does not start with '.' or ',').
 */
static size_t
fraction(const char *s, size_t n, uint64_t *ns)
{
	uint64_t v = 0, scale = NS_PER_SEC;
	size_t i = 1;

	*ns = 0;
	if (n < 2 || (s[0] != '.' && s[0] != ',') ||
	    (unsigned)(s[1] - '0') > 9)
		return 0;
	for (; i < n && (unsigned)(s[i] - '0') <= 9; i++)
		if (scale > 1) {
			scale /= 10;
			v += (uint64_t)(s[i] - '0') * scale;
		}
	*ns = v;
	return i;
}

/*
 * A zone offset "+HH:MM", "+HHMM" or "+HH" (or '-') that is all of s[0..n):
 * store its seconds east of UTC in *off; return 0 or -1.
 */
static int
numeric_offset(const char *s, size_t n, int64_t *off)
{
	int oh, om;

	if (n < 3 || (s[0] != '+' && s[0] != '-'))
		return -1;
	if (n == 6 && s[3] == ':') {
		oh = digits(s + 1, 2);
		om = digits(s + 4, 2);
	} else if (n == 5) {
		oh = digits(s + 1, 2);
		om = digits(s + 3, 2);
	} else if (n == 3) {
		oh = digits(s + 1, 2);
		om = 0;
	} else
		return -1;
	if (oh < 0 || om < 0 || oh > 23 || om > 59)
		return -1;
	*off = (int64_t)(oh * 3600 + om * 60);
	if (s[0] == '-')
		*off = -*off;
	return 0;
}

static int
to_ns(int64_t secs, uint64_t frac, uint64_t *ns)
{
	if (secs < 0 || (uint64_t)secs > (UINT64_MAX - frac) / NS_PER_SEC)
		return GTIME_RANGE;
	*ns = (uint64_t)secs * NS_PER_SEC + frac;
	return 0;
}

int
gtime_nvsmi(const char *s, size_t n, uint64_t *ns)
{
	int y, mo, d, h, mi, sec, rc;
	uint64_t frac = 0;
	int64_t t;

	if (n < 19 || s[4] != '/' || s[7] != '/' || s[10] != ' ' ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	if ((y | mo | d | h | mi | sec) < 0)
		return -1;
	if (n > 19 && fraction(s + 19, n - 19, &frac) != n - 19)
		return -1;
	if ((rc = gtime_local(y, mo, d, h, mi, sec, &t)) < 0)
		return rc;
	return to_ns(t, frac, ns);
}

int
gtime_iso(const char *s, size_t n, uint64_t *ns)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, zone = 0, rc;
	int64_t t, off = 0;
	uint64_t frac = 0;
	size_t i;

	if (n < 10 || s[4] != '-' || s[7] != '-')
		return -1;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	if ((y | mo | d) < 0)
		return -1;
	i = 10;
	if (i < n) {
		if ((s[i] != 'T' && s[i] != ' ') || n < i + 6 ||
		    s[i + 3] != ':')
			return -1;
		h = digits(s + i + 1, 2);
		mi = digits(s + i + 4, 2);
		if ((h | mi) < 0)
			return -1;
		i += 6;
		if (i < n && s[i] == ':') {
			if (n < i + 3 || (sec = digits(s + i + 1, 2)) < 0)
				return -1;
			i += 3;
			i += fraction(s + i, n - i, &frac);
		}
		if (i < n) {
			if (s[i] == 'Z' && i + 1 == n) {
				zone = 1;
				i++;
			} else if (numeric_offset(s + i, n - i, &off) == 0) {
				zone = 1;
				i = n;
			} else
				return -1;
		}
	}
	if (zone) {
		if (!gtime_civil_ok(y, mo, d, h, mi, sec))
			return GTIME_RANGE;
		t = gtime_utc(y, mo, d, h, mi, sec) - off;
	} else if ((rc = gtime_local(y, mo, d, h, mi, sec, &t)) < 0)
		return rc;
	return to_ns(t, frac, ns);
}

static int
month_of(const char *s)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int i;

	for (i = 0; i < 12; i++)
		if (strncmp(s, names + 3 * i, 3) == 0)
			return i + 1;
	return -1;
}

/*
 * Zone abbreviations of date(1) lines, with their offsets east of UTC in
 * minutes (docs/log-formats.md lists them).  IST is India, Israel and
 * Ireland: --tz says which.
 */
static const struct {
	const char *name;
	int off;
} zones[] = {
	{"UTC", 0}, {"GMT", 0}, {"Z", 0}, {"UT", 0},
	{"EST", -300}, {"EDT", -240}, {"CST", -360}, {"CDT", -300},
	{"MST", -420}, {"MDT", -360}, {"PST", -480}, {"PDT", -420},
	{"WET", 0}, {"WEST", 60}, {"BST", 60}, {"CET", 60}, {"CEST", 120},
	{"EET", 120}, {"EEST", 180}, {"JST", 540}, {"KST", 540},
	{"AEST", 600}, {"AEDT", 660},
};

int
gtime_zone(const char *z, int64_t *off)
{
	size_t i, n = strlen(z);

	for (i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		if (strcmp(z, zones[i].name) == 0) {
			*off = (int64_t)zones[i].off * 60;
			return GTIME_ZONE_KNOWN;
		}
	if (strcmp(z, "IST") == 0)
		return GTIME_ZONE_AMBIGUOUS;
	if (z[0] == '+' || z[0] == '-')
		return numeric_offset(z, n, off) == 0 ? GTIME_ZONE_KNOWN :
		    GTIME_ZONE_BAD;
	for (i = 0; i < n; i++)
		if ((z[i] < 'A' || z[i] > 'Z') && (z[i] < '0' || z[i] > '9') &&
		    z[i] != '+' && z[i] != '-')
			return GTIME_ZONE_BAD;
	return GTIME_ZONE_LOCAL;
}

/* Say once that a date line's zone needs --tz. */
static void
ambiguous_said(const char *z)
{
	static int said;

	msg_once(&said, "date lines in zone %s: %s is India (+05:30), "
	    "Israel (+02:00) or Ireland (+01:00); give --tz with the zone the log was "
	    "written in (e.g. --tz Asia/Kolkata)", z, z);
}

int
gtime_ctime(const char *s, size_t n, uint64_t *ns)
{
	char buf[64], *tok[8], *save = NULL, *p;
	int ntok = 0, mo, d, y, h, mi, sec, zone = 0, i = 4, ampm = 0, rc;
	int64_t t, off = 0;
	size_t len;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (p = strtok_r(buf, " \t", &save); p != NULL && ntok < 8;
	    p = strtok_r(NULL, " \t", &save))
		tok[ntok++] = p;
	if (p != NULL || ntok < 5 || ntok > 7)
		return -1;
	/* weekday month day HH:MM:SS [AM|PM] [zone] year */
	if (strlen(tok[0]) != 3 || strlen(tok[1]) != 3 ||
	    (mo = month_of(tok[1])) < 0)
		return -1;
	len = strlen(tok[2]);
	if (len < 1 || len > 2 || (d = digits(tok[2], (int)len)) < 0)
		return -1;
	if (strlen(tok[3]) != 8 || tok[3][2] != ':' || tok[3][5] != ':')
		return -1;
	h = digits(tok[3], 2);
	mi = digits(tok[3] + 3, 2);
	sec = digits(tok[3] + 6, 2);
	if ((h | mi | sec) < 0)
		return -1;
	/* The 12-hour form of en_US locales: "01:50:18 PM". */
	if (strcmp(tok[i], "AM") == 0 || strcmp(tok[i], "PM") == 0) {
		if (h < 1 || h > 12)
			return -1;
		ampm = tok[i][0];
		h = h % 12 + (ampm == 'P' ? 12 : 0);
		i++;
	}
	if (ntok - i == 2) {
		switch (gtime_zone(tok[i], &off)) {
		case GTIME_ZONE_KNOWN:
			zone = 1;
			break;
		case GTIME_ZONE_LOCAL:
			break;
		case GTIME_ZONE_AMBIGUOUS:
			if (gtime_tz_given)
				break;	/* --tz said which */
			ambiguous_said(tok[i]);
			return -1;
		default:
			return -1;
		}
	} else if (ntok - i != 1)
		return -1;
	if (strlen(tok[ntok - 1]) != 4 ||
	    (y = digits(tok[ntok - 1], 4)) < 0)
		return -1;
	if (zone) {
		if (!gtime_civil_ok(y, mo, d, h, mi, sec))
			return GTIME_RANGE;
		t = gtime_utc(y, mo, d, h, mi, sec) - off;
	} else if ((rc = gtime_local(y, mo, d, h, mi, sec, &t)) < 0)
		return rc;
	return to_ns(t, 0, ns);
}

int
gtime_strptime(const char *fmt, const char *s, size_t n, uint64_t *ns)
{
	char buf[128];
	const char *end;
	uint64_t frac = 0;
	struct tm tm;
	int64_t t;
	size_t i, k;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* strptime has no fractions: take the one after ":SS" out first. */
	for (i = 0; i + 3 < n; i++)
		if (buf[i] == ':' && digits(buf + i + 1, 2) >= 0 &&
		    (k = fraction(buf + i + 3, n - i - 3, &frac)) > 0) {
			memmove(buf + i + 3, buf + i + 3 + k, n - i - 3 - k + 1);
			n -= k;
			break;
		}
	memset(&tm, 0, sizeof(tm));
	tm.tm_mday = 1;
	if ((end = strptime(buf, fmt, &tm)) == NULL || end != buf + n)
		return -1;
	if (strstr(fmt, "%z") != NULL) {
		if (!gtime_civil_ok(tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec))
			return -1;
		t = gtime_utc(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_hour, tm.tm_min, tm.tm_sec) - tm.tm_gmtoff;
	} else if (gtime_local(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	    tm.tm_hour, tm.tm_min, tm.tm_sec, &t) < 0)
		return -1;
	return to_ns(t, frac, ns);
}

int
gtime_epoch(const char *s, size_t n, uint64_t *ns)
{
	static const uint64_t scale[] = { NS_PER_SEC, NS_PER_MS, 1000, 1 };
	uint64_t v = 0, frac = 0;
	size_t d = 0;

	while (d < n && (unsigned)(s[d] - '0') <= 9)
		v = v * 10 + (uint64_t)(s[d++] - '0');
	if (d < 9 || d > 19 || (d % 3 != 0 && d % 3 != 1) ||
	    (d != n && (d > 10 || fraction(s + d, n - d, &frac) != n - d)))
		return -1;
	/* 9-10 digits: seconds, 12-13 ms, 15-16 us, 18-19 ns. */
	*ns = v * scale[(d - 9) / 3] + frac;
	return 0;
}

int
gtime_parse(const char *s, uint64_t *ns)
{
	size_t n = strlen(s), i;
	int rc;

	if (n == 0)
		return -1;
	if (s[0] == '@') {
		uint64_t secs = 0, frac = 0;

		for (i = 1; i < n && (unsigned)(s[i] - '0') <= 9; i++) {
			if (secs > (UINT64_MAX / NS_PER_SEC) / 10)
				return -1;
			secs = secs * 10 + (uint64_t)(s[i] - '0');
		}
		if (i == 1)
			return -1;
		i += fraction(s + i, n - i, &frac);
		if (i != n)
			return -1;
		return to_ns((int64_t)secs, frac, ns);
	}
	for (i = 0; i < n && (unsigned)(s[i] - '0') <= 9; i++)
		;
	if (i == n) {
		/* A bare integer: nanoseconds, as in the record stream. */
		uint64_t v = 0;

		for (i = 0; i < n; i++) {
			if (v > (UINT64_MAX - 9) / 10)
				return -1;
			v = v * 10 + (uint64_t)(s[i] - '0');
		}
		*ns = v;
		return 0;
	}
	if ((rc = gtime_nvsmi(s, n, ns)) != -1 ||
	    (rc = gtime_iso(s, n, ns)) != -1)
		return rc;
	return gtime_ctime(s, n, ns);
}

/* Local midnight days before the local date of now (seconds). */
static int
local_midnight(uint64_t now, int days, uint64_t *ns)
{
	time_t secs = (time_t)(now / NS_PER_SEC);
	struct tm tm;
	int64_t day, t;
	int rc;

	localtime_r(&secs, &tm);
	/* Step back whole days on the civil calendar, not by 86400 s of time. */
	day = gtime_utc(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, 0, 0,
	    0) - (int64_t)days * 86400;
	secs = (time_t)day;
	gmtime_r(&secs, &tm);
	if ((rc = gtime_local(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	    0, 0, 0, &t)) < 0)
		return rc;
	return to_ns(t, 0, ns);
}

int
gtime_relative(const char *s, uint64_t now, uint64_t *ns)
{
	uint64_t ago = 0, v, unit;
	size_t i = 0;

	if (strcmp(s, "now") == 0) {
		*ns = now;
		return 0;
	}
	if (strcmp(s, "today") == 0)
		return local_midnight(now, 0, ns);
	if (strcmp(s, "yesterday") == 0)
		return local_midnight(now, 1, ns);
	if (s[0] == '-')
		i++;
	if (s[i] == '\0')
		return -1;
	while (s[i] != '\0') {
		if ((unsigned)(s[i] - '0') > 9)
			return -1;
		for (v = 0; (unsigned)(s[i] - '0') <= 9; i++) {
			if (v > (UINT64_MAX / NS_PER_SEC) / 10)
				return -1;
			v = v * 10 + (uint64_t)(s[i] - '0');
		}
		switch (s[i++]) {
		case 's':
			unit = NS_PER_SEC;
			break;
		case 'm':
			unit = 60 * NS_PER_SEC;
			break;
		case 'h':
			unit = 3600 * NS_PER_SEC;
			break;
		case 'd':
			unit = 86400 * NS_PER_SEC;
			break;
		default:
			return -1;
		}
		if (v > (UINT64_MAX - ago) / unit)
			return -1;
		ago += v * unit;
	}
	/* An age reaching before 1970 names no time gpumem keeps. */
	if (ago > now)
		return GTIME_RANGE;
	*ns = now - ago;
	return 0;
}

int
gtime_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{"ns", 1}, {"us", 1000}, {"ms", 1000000},
		{"s", NS_PER_SEC}, {"sec", NS_PER_SEC}, {"m", 60 * NS_PER_SEC},
		{"min", 60 * NS_PER_SEC}, {"h", 3600 * NS_PER_SEC},
		{"d", 86400 * NS_PER_SEC},
	};
	uint64_t whole = 0, unit = NS_PER_SEC, num = 0, den = 1;
	size_t i = 0, k;
	const char *u;

	while ((unsigned)(s[i] - '0') <= 9) {
		if (whole > UINT64_MAX / 10 - 1)
			return -1;
		whole = whole * 10 + (uint64_t)(s[i] - '0');
		i++;
	}
	if (s[i] == '.') {
		i++;
		while ((unsigned)(s[i] - '0') <= 9) {
			if (den < 1000000000ULL) {
				num = num * 10 + (uint64_t)(s[i] - '0');
				den *= 10;
			}
			i++;
		}
	}
	if (i == 0 || (i == 1 && s[0] == '.'))
		return -1;
	u = s + i;
	if (*u != '\0') {
		for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
			if (strcmp(u, units[k].name) == 0)
				break;
		if (k == sizeof(units) / sizeof(units[0]))
			return -1;
		unit = units[k].ns;
	}
	if (whole > UINT64_MAX / unit)
		return -1;
	*ns = whole * unit + num * unit / den;
	return 0;
}
