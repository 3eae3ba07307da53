/* SPDX-License-Identifier: ISC */
/*
 * gtime.c: the clock, and times and durations written (gtime.h); zones
 * and civil time are in gtzone.c, reading times in gtparse.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtime.h"

uint64_t
gtime_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

char *
gtime_fmt(uint64_t t, int utc, char *buf)
{
	time_t secs = (time_t)(t / NS_PER_SEC);
	unsigned ms = (unsigned)(t % NS_PER_SEC / NS_PER_MS);
	struct tm tm;

	if (utc) {
		gmtime_r(&secs, &tm);
		snprintf(buf, GTIME_BUFSZ, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, ms);
	} else {
		long off;

		localtime_r(&secs, &tm);
		off = tm.tm_gmtoff;
		snprintf(buf, GTIME_BUFSZ, "%04d-%02d-%02dT%02d:%02d:%02d.%03u%c%02d:%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, ms, off < 0 ? '-' : '+',
		    (int)(labs(off) / 3600), (int)(labs(off) % 3600 / 60));
	}
	return buf;
}

char *
gtime_fmt_secs(uint64_t ns, char *buf)
{
	uint64_t ms = (ns + 500000) / NS_PER_MS;
	int n;

	n = snprintf(buf, 32, "%llu", (unsigned long long)(ms / 1000));
	if (ms % 1000 != 0) {
		n += snprintf(buf + n, 32 - (size_t)n, ".%03u",
		    (unsigned)(ms % 1000));
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
	}
	return buf;
}

char *
gtime_fmt_span(uint64_t ns, char *buf, size_t cap)
{
	uint64_t h = ns / (3600 * NS_PER_SEC);
	uint64_t m = ns / (60 * NS_PER_SEC) % 60;
	uint64_t rest = ns % (60 * NS_PER_SEC);
	char sec[GTIME_BUFSZ];
	size_t n = 0;

	buf[0] = '\0';
	if (h > 0)
		n += (size_t)snprintf(buf + n, cap - n, "%llu h",
		    (unsigned long long)h);
	if (m > 0 && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "%s%llu min",
		    n > 0 ? " " : "", (unsigned long long)m);
	if ((rest >= NS_PER_MS || n == 0) && n < cap)
		snprintf(buf + n, cap - n, "%s%s s", n > 0 ? " " : "",
		    gtime_fmt_secs(rest, sec));
	return buf;
}

char *
gtime_secs_words(const char *secs, char *buf, size_t cap)
{
	char *rest, span[64];
	double d = strtod(secs, &rest);

	if (rest == secs || (*rest != '\0' && strncmp(rest, " s", 2) != 0))
		snprintf(buf, cap, "%s", secs);
	else if (d < 60)
		snprintf(buf, cap, "%s%s", secs, *rest == '\0' ? " s" : "");
	else
		snprintf(buf, cap, "%s%s", gtime_fmt_span((uint64_t)(d * 1e3 +
		    0.5) * NS_PER_MS, span, sizeof(span)), *rest != '\0' ?
		    rest + 2 : "");
	return buf;
}
