/* SPDX-License-Identifier: ISC */
/* Unit tests: time and duration parsing (formats/core/gtime.h). */
#include <stdlib.h>
#include <string.h>

#include "gtime.h"
#include "test.h"

static uint64_t
p(int (*fn)(const char *, size_t, uint64_t *), const char *s)
{
	uint64_t t = 0;

	if (fn(s, strlen(s), &t) < 0)
		return UINT64_MAX;
	return t;
}

/* Each of v[0..n) is refused by fn; else say which were not. */
static int
all_refused(int (*fn)(const char *, size_t, uint64_t *), const char **v,
    size_t n)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < n; i++)
		if (p(fn, v[i]) != UINT64_MAX) {
			printf("# accepted: \"%s\"\n", v[i]);
			ok = 0;
		}
	return ok;
}

/* Refused: bad offsets and fields. */
static const char *bad_iso[] = {
	"2025-09-08T09:26:50+24:00",
	"2025-09-08T09:26:50+05:60",
	"2025-09-08T09:26:50+05-30",
	"2025-09-08T09:26:50Zx",
	"2025-09-08T09:26:50x",
	"2025-09-08T09:26:5",
	"2025-09-08T09:2x",
	"2025-09-08X09:26",
	"2025-09-08T09-26",
	"2025/09/08",
	"2025-9-8",
	"2025-02-30T00:00:00Z",
	"2025-09-08T24:00:00Z",
};

static const char *bad_ctime[] = {
	"Thu Jan  1 00:00:00 utc 2026",
	"Thu Jan  1 00:00:00 UTC 2026 x",
	"Thursday Jan  1 00:00:00 2026",
	"Thu Jan 123 00:00:00 2026",
	"Thu Jan  1 00:00:0x 2026",
	"Thu Jan  1 00:00:00 26",
	"Thu Feb 30 00:00:00 UTC 2026",
};

int
main(void)
{
	uint64_t t;
	char buf[GTIME_BUFSZ];

	gtime_set_tz("UTC");
	/* nvidia-smi timestamps, local time (UTC here). */
	CHECK_U64(p(gtime_nvsmi, "2023/06/22 18:56:56.252"),
	    1687460216252000000ULL);
	CHECK_U64(p(gtime_nvsmi, "2023/06/22 18:56:56"), 1687460216000000000ULL);
	CHECK_U64(p(gtime_nvsmi, "1970/01/01 00:00:00.000"), 0);
	CHECK_U64(p(gtime_nvsmi, "2024/02/30 00:00:00.000"), UINT64_MAX);
	CHECK_U64(p(gtime_nvsmi, "2024/02/29 23:59:59.999"),
	    1709251199999000000ULL);
	CHECK_U64(p(gtime_nvsmi, "2023/06/22 18:56:56.25x"), UINT64_MAX);
	CHECK_U64(p(gtime_nvsmi, "2023-06-22 18:56:56.252"), UINT64_MAX);
	CHECK_U64(p(gtime_nvsmi, "1969/12/31 23:59:59.000"), UINT64_MAX);
	/* The form of a time, but no such date: GTIME_RANGE, not -1. */
	{
		static const char *const range[] = {
			"2024/02/30 00:00:00.000", "2026/13/01 00:00:00.000",
			"2026/01/01 25:00:00.000", "1969/12/31 23:59:59.000",
			"2600/01/01 00:00:00", NULL
		};
		size_t i;

		for (i = 0; range[i] != NULL; i++)
			CHECK(gtime_nvsmi(range[i], strlen(range[i]), &t) ==
			    GTIME_RANGE);
		CHECK(gtime_nvsmi("2023/06/22 18:56:56.25x", 23, &t) == -1);
		CHECK(gtime_iso("2026-02-30T00:00:00Z", 20, &t) ==
		    GTIME_RANGE);
		CHECK(gtime_iso("2026-02-30T00:00:00", 19, &t) ==
		    GTIME_RANGE);
		CHECK(gtime_iso("2026-02-3xT00:00:00", 19, &t) == -1);
		CHECK(gtime_ctime("Mon Feb 30 00:00:00 UTC 2026", 28, &t) ==
		    GTIME_RANGE);
	}

	/* A zone: Europe/Berlin is UTC+2 in June, UTC+1 in January. */
	gtime_set_tz("Europe/Berlin");
	CHECK_U64(p(gtime_nvsmi, "2023/06/22 20:56:56.252"),
	    1687460216252000000ULL);
	CHECK_U64(p(gtime_nvsmi, "2023/01/10 13:00:00"), 1673352000000000000ULL);
	/* Fall-back hour and a fresh cache entry after it. */
	CHECK_U64(p(gtime_nvsmi, "2023/10/29 04:00:00"), 1698548400000000000ULL);
	/*
	 * The hour Berlin has twice (25 Oct 2026, 02:00-03:00 local) reads as
	 * its first pass (CEST, 00:00-01:00 UTC); 03:00 is CET.  gtime_fold()
	 * places the turn at 01:00 UTC, 1 h, for times read in the first pass.
	 */
	CHECK_U64(p(gtime_nvsmi, "2026/10/25 02:30:00"), 1792888200000000000ULL);
	CHECK_U64(p(gtime_nvsmi, "2026/10/25 03:00:00"), 1792893600000000000ULL);
	CHECK_U64(p(gtime_nvsmi, "2026/10/25 01:59:59"), 1792886399000000000ULL);
	{
		uint64_t end = 0, delta = 0;

		CHECK(gtime_fold(1792888200000000000ULL, &end, &delta) == 1);
		CHECK_U64(end, 1792890000000000000ULL);
		CHECK_U64(delta, 3600000000000ULL);
		CHECK(gtime_fold(1792886399000000000ULL, &end, &delta) == 0);
		CHECK(gtime_fold(1792890000000000000ULL, &end, &delta) == 0);
		CHECK(gtime_fold(1687460216252000000ULL, &end, &delta) == 0);
	}
	gtime_set_tz("UTC");

	/* ISO-8601, with and without zones. */
	CHECK_U64(p(gtime_iso, "2025-09-08T17:26:50+08:00"),
	    1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50Z"), 1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08 09:26:50.5"), 1757323610500000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T11:26:50+0200"),
	    1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08"), 1757289600000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26"), 1757323560000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50+8"), UINT64_MAX);
	/* Zones west and east, in each of the three forms. */
	CHECK_U64(p(gtime_iso, "2025-09-08T04:26:50-05"), 1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T14:56:50+05:30"),
	    1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2026-01-01T00:00:00-0030"),
	    1767227400000000000ULL);
	CHECK(all_refused(gtime_iso, bad_iso, sizeof(bad_iso) / sizeof(bad_iso[0])));

	/* ctime, as -q, date(1) and the default table print it. */
	CHECK_U64(p(gtime_ctime, "Tue Jun  9 09:00:01 UTC 2020"),
	    1591693201000000000ULL);
	CHECK_U64(p(gtime_ctime, "Mon Aug 7 11:10:06 2023"),
	    1691406606000000000ULL);
	CHECK_U64(p(gtime_ctime, "Fri Aug  4 11:44:30 2023"),
	    1691149470000000000ULL);
	CHECK_U64(p(gtime_ctime, "Fri Xyz  4 11:44:30 2023"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Fri Aug  4 11:44 2023"), UINT64_MAX);
	/*
	 * date(1)'s 12-hour form of en_US locales and zones applied; the
	 * truths are GNU date's (TZ=UTC date -d '2025-02-26 13:50:18 EST'
	 * +%s).  12 AM is midnight, 12 PM noon.
	 */
	CHECK_U64(p(gtime_ctime, "Wed Feb 26 01:50:18 PM EST 2025"),
	    1740595818000000000ULL);
	CHECK_U64(p(gtime_ctime, "Wed Feb 26 12:05:00 AM -0500 2025"),
	    1740546300000000000ULL);
	CHECK_U64(p(gtime_ctime, "Wed Feb 26 12:05:00 PM 2025"),
	    1740571500000000000ULL);
	CHECK_U64(p(gtime_ctime, "Tue Jul  1 09:00:00 CEST 2025"),
	    1751353200000000000ULL);
	CHECK_U64(p(gtime_ctime, "Tue Jul  1 09:00:00 +05:30 2025"),
	    1751340600000000000ULL);
	CHECK_U64(p(gtime_ctime, "Wed Jan  1 09:00:00 JST 2025"),
	    1735689600000000000ULL);
	CHECK_U64(p(gtime_ctime, "Wed Jan  1 09:00:00 AEDT 2025"),
	    1735682400000000000ULL);
	CHECK_U64(p(gtime_ctime, "Wed Feb 26 13:50:18 PM EST 2025"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Wed Feb 26 01:50:18 XM EST 2025"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Wed Feb 26 01:50:18 PM EST x 2025"),
	    UINT64_MAX);
	/* A zone word not in the table is local time, as before. */
	CHECK_U64(p(gtime_ctime, "Wed Jan  1 09:00:00 HKT 2025"),
	    1735722000000000000ULL);
	/* The fields are checked; GMT is UTC, CET one hour east. */
	CHECK(all_refused(gtime_ctime, bad_ctime, sizeof(bad_ctime) / sizeof(bad_ctime[0])));
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 GMT 2026"),
	    1767225600000000000ULL);
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 CET 2026"),
	    1767222000000000000ULL);

	/* What users give on the command line. */
	CHECK(gtime_parse("@1700000000.25", &t) == 0);
	CHECK_U64(t, 1700000000250000000ULL);
	CHECK(gtime_parse("1700000000250000000", &t) == 0);
	CHECK_U64(t, 1700000000250000000ULL);
	CHECK(gtime_parse("2023-11-14T22:13:20Z", &t) == 0);
	CHECK_U64(t, 1700000000000000000ULL);
	CHECK(gtime_parse("yesterday", &t) < 0);
	CHECK(gtime_parse("", &t) < 0);
	CHECK(gtime_parse("@", &t) < 0);
	CHECK(gtime_parse("99999999999999999999999", &t) < 0);
	CHECK(gtime_parse("@12x", &t) < 0);
	CHECK(gtime_parse("@99999999999999999999", &t) < 0);

	/* Relative to now (2023-11-14T22:13:20Z here). */
#define NOW 1700000000000000000ULL
	gtime_set_tz("UTC");
	CHECK(gtime_relative("now", NOW, &t) == 0);
	CHECK_U64(t, NOW);
	CHECK(gtime_relative("2h", NOW, &t) == 0);
	CHECK_U64(t, NOW - 7200 * NS_PER_SEC);
	CHECK(gtime_relative("-2h", NOW, &t) == 0);
	CHECK_U64(t, NOW - 7200 * NS_PER_SEC);
	CHECK(gtime_relative("2h30m", NOW, &t) == 0);
	CHECK_U64(t, NOW - 9000 * NS_PER_SEC);
	CHECK(gtime_relative("90s", NOW, &t) == 0);
	CHECK_U64(t, NOW - 90 * NS_PER_SEC);
	CHECK(gtime_relative("1d1s", NOW, &t) == 0);
	CHECK_U64(t, NOW - 86401 * NS_PER_SEC);
	CHECK(gtime_relative("today", NOW, &t) == 0);
	CHECK_U64(t, 1699920000 * NS_PER_SEC);
	CHECK(gtime_relative("yesterday", NOW, &t) == 0);
	CHECK_U64(t, 1699833600 * NS_PER_SEC);
	/* Midnight of the local date, which may not be UTC's. */
	gtime_set_tz("Asia/Tokyo");
	CHECK(gtime_relative("today", NOW, &t) == 0);
	CHECK_U64(t, 1699974000 * NS_PER_SEC);
	/* Yesterday across the spring step is 23 hours back from today. */
	gtime_set_tz("Europe/Berlin");
	CHECK(gtime_relative("yesterday", 1679911200 * NS_PER_SEC, &t) == 0);
	CHECK_U64(t, 1679785200 * NS_PER_SEC);
	gtime_set_tz("UTC");
	CHECK(gtime_relative("60000d", NOW, &t) == GTIME_RANGE);
	CHECK(gtime_relative("", NOW, &t) < 0);
	CHECK(gtime_relative("-", NOW, &t) < 0);
	CHECK(gtime_relative("+2h", NOW, &t) < 0);
	CHECK(gtime_relative("2", NOW, &t) < 0);
	CHECK(gtime_relative("2x", NOW, &t) < 0);
	CHECK(gtime_relative("h", NOW, &t) < 0);
	CHECK(gtime_relative("2h30", NOW, &t) < 0);
	CHECK(gtime_relative("1.5h", NOW, &t) < 0);
	CHECK(gtime_relative("2 h", NOW, &t) < 0);
	CHECK(gtime_relative("2ms", NOW, &t) < 0);
	CHECK(gtime_relative("Today", NOW, &t) < 0);
	CHECK(gtime_relative("99999999999999999999d", NOW, &t) < 0);
#undef NOW

	/* Durations. */
	CHECK(gtime_duration("100ms", &t) == 0);
	CHECK_U64(t, 100000000);
	CHECK(gtime_duration("1.5s", &t) == 0);
	CHECK_U64(t, 1500000000);
	CHECK(gtime_duration("2", &t) == 0);
	CHECK_U64(t, 2000000000);
	CHECK(gtime_duration("3m", &t) == 0);
	CHECK_U64(t, 180000000000ULL);
	CHECK(gtime_duration("1h", &t) == 0);
	CHECK_U64(t, 3600000000000ULL);
	CHECK(gtime_duration("250us", &t) == 0);
	CHECK_U64(t, 250000);
	CHECK(gtime_duration("5 s", &t) < 0);
	CHECK(gtime_duration("ms", &t) < 0);
	CHECK(gtime_duration("1x", &t) < 0);
	CHECK(gtime_duration("99999999999999999999d", &t) < 0);

	/* Formatting. */
	CHECK_STR(gtime_fmt(1687460216252000000ULL, 1, buf),
	    "2023-06-22T18:56:56.252Z");
	gtime_set_tz("Europe/Berlin");
	CHECK_STR(gtime_fmt(1687460216252000000ULL, 0, buf),
	    "2023-06-22T20:56:56.252+02:00");
	CHECK_STR(gtime_fmt_secs(2500000000ULL, buf), "2.5");
	CHECK_STR(gtime_fmt_secs(0, buf), "0");
	CHECK_STR(gtime_fmt_secs(45000000000ULL, buf), "45");
	/* Spans for people. */
	CHECK_STR(gtime_fmt_span(30280000000000ULL, buf, 32), "8 h 24 min 40 s");
	CHECK_STR(gtime_fmt_span(3600000000000ULL, buf, 32), "1 h");
	CHECK_STR(gtime_fmt_span(300100000000ULL, buf, 32), "5 min 0.1 s");
	CHECK_STR(gtime_fmt_span(25000000000ULL, buf, 32), "25 s");
	CHECK_STR(gtime_fmt_span(0, buf, 32), "0 s");
	CHECK_STR(gtime_secs_words("30280", buf, 32), "8 h 24 min 40 s");
	CHECK_STR(gtime_secs_words("59.95", buf, 32), "59.95 s");
	CHECK_STR(gtime_secs_words("61.5", buf, 32), "1 min 1.5 s");
	CHECK_STR(gtime_secs_words("30280 s \xc2\xb1" "10 s", buf, 64),
	    "8 h 24 min 40 s \xc2\xb1" "10 s");
	CHECK_STR(gtime_secs_words("120 s (119\xe2\x80\x93" "120 s)", buf, 64),
	    "2 min (119\xe2\x80\x93" "120 s)");
	CHECK_STR(gtime_secs_words("25 s \xc2\xb1" "1 s", buf, 64),
	    "25 s \xc2\xb1" "1 s");
	CHECK_STR(gtime_secs_words("never", buf, 64), "never");
	TEST_END("gtime");
}
