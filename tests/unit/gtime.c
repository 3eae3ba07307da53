/* SPDX-License-Identifier: ISC */
/* Unit tests: time and duration parsing (formats/core/gtime.c). */
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
	/* Zones west and east, in each of the three forms; bad offsets. */
	CHECK_U64(p(gtime_iso, "2025-09-08T04:26:50-05"), 1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T14:56:50+05:30"),
	    1757323610000000000ULL);
	CHECK_U64(p(gtime_iso, "2026-01-01T00:00:00-0030"),
	    1767227400000000000ULL);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50+24:00"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50+05:60"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50+05-30"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50Zx"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:50x"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:26:5"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09:2x"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08X09:26"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T09-26"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025/09/08"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-9-8"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-02-30T00:00:00Z"), UINT64_MAX);
	CHECK_U64(p(gtime_iso, "2025-09-08T24:00:00Z"), UINT64_MAX);

	/* ctime, as -q, date(1) and the default table print it. */
	CHECK_U64(p(gtime_ctime, "Tue Jun  9 09:00:01 UTC 2020"),
	    1591693201000000000ULL);
	CHECK_U64(p(gtime_ctime, "Mon Aug 7 11:10:06 2023"),
	    1691406606000000000ULL);
	CHECK_U64(p(gtime_ctime, "Fri Aug  4 11:44:30 2023"),
	    1691149470000000000ULL);
	CHECK_U64(p(gtime_ctime, "Fri Xyz  4 11:44:30 2023"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Fri Aug  4 11:44 2023"), UINT64_MAX);
	/* A zone other than UTC is local time; the fields are checked. */
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 GMT 2026"),
	    1767225600000000000ULL);
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 CET 2026"),
	    1767225600000000000ULL);
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 utc 2026"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 UTC 2026 x"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Thursday Jan  1 00:00:00 2026"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Thu Jan 123 00:00:00 2026"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:0x 2026"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Thu Jan  1 00:00:00 26"), UINT64_MAX);
	CHECK_U64(p(gtime_ctime, "Thu Feb 30 00:00:00 UTC 2026"), UINT64_MAX);

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
	TEST_END("gtime");
}
