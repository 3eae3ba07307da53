/* SPDX-License-Identifier: ISC */
/*
 * usagecsv.h: the CSV of gpumem usage, as usage writes it and the charts
 * (collect.c) read it back.
 *
 * Every memory column says its unit (MiB); timestamp is ns since the
 * epoch.  With --iso-times a last column, timestamp_time, repeats the
 * timestamp as ISO 8601 in UTC ("2026-01-01T00:00:05.000Z") for
 * spreadsheets.  The headers of gpumem 0.1, without the units, are read
 * too.
 */
#ifndef GPUMEM_USAGECSV_H
#define GPUMEM_USAGECSV_H

#include <stddef.h>

#define USAGE_HEADER \
	"timestamp,host,gpu,memory_total_mib,memory_free_mib,usage_mib," \
	"attributed_mib,unattributed_mib"
#define EVERY_HEADER \
	"timestamp,host,gpu,samples,memory_total_mib,usage_min_mib," \
	"usage_mean_mib,usage_max_mib,attributed_min_mib,attributed_mean_mib," \
	"attributed_max_mib,unattributed_min_mib,unattributed_mean_mib," \
	"unattributed_max_mib"
#define USAGE_HEADER_V1 \
	"timestamp,host,gpu,memory_total,memory_free,usage,attributed," \
	"unattributed"
#define EVERY_HEADER_V1 \
	"timestamp,host,gpu,samples,memory_total,usage_min,usage_mean," \
	"usage_max,attributed_min,attributed_mean,attributed_max," \
	"unattributed_min,unattributed_mean,unattributed_max"
#define USAGE_ISO_COLUMN ",timestamp_time"

/* The columns of each form, without the ISO column. */
#define USAGE_NCOLS 8
#define EVERY_NCOLS 14

enum usagecsv_flags {
	USAGECSV_EVERY = 1 << 0,	/* --every: buckets */
	USAGECSV_ISO = 1 << 1		/* the last column timestamp_time */
};

/*
 * Whether s[0..n), one line without its end, is a header of gpumem usage:
 * its enum usagecsv_flags, or -1 when it is not.
 */
int usagecsv_header(const char *s, size_t n);

#endif
