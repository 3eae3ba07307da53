/* SPDX-License-Identifier: ISC */
/*
 * usagecsv.h: the usage curve of gpumem usage read back, as plot, report
 * and check read it (a node's curve in the reduce of a fleet, docs/scale.md).
 *
 * Two shapes, told apart by their header: one row per device sample
 * (USAGE_HEADER) and, with --every, one row per bucket (EVERY_HEADER).
 * Columns are found by their name in the header (the one table of names
 * is in usagecsv.c), in any order; a header line later in the input
 * starts a new part (files joined with cat).
 *
 * Every memory column says its unit (MiB): memory_total_mib, usage_mib...;
 * the names of gpumem 0.1, without the unit, are read too.  timestamp is ns
 * since the epoch.  With --iso-times a last column, timestamp_time, repeats
 * the timestamp as ISO 8601 in UTC ("2026-01-01T00:00:05.000Z") for
 * spreadsheets.
 */
#ifndef GPUMEM_USAGECSV_H
#define GPUMEM_USAGECSV_H

#include <stddef.h>
#include <stdint.h>

#define USAGE_HEADER \
	"timestamp,host,gpu,memory_total_mib,memory_free_mib,usage_mib," \
	"attributed_mib,unattributed_mib"
#define EVERY_HEADER \
	"timestamp,host,gpu,samples,memory_total_mib,usage_min_mib," \
	"usage_mean_mib,usage_max_mib,attributed_min_mib,attributed_mean_mib," \
	"attributed_max_mib,unattributed_min_mib,unattributed_mean_mib," \
	"unattributed_max_mib"
#define USAGE_ISO_COLUMN ",timestamp_time"

enum { UC_USAGE, UC_ATTR, UC_UNATTR, UC_NCURVES };

/* One row: a sample (lo = mean = hi, samples 1) or a bucket. */
struct usagerow {
	uint64_t ts;		/* the sample's time, or the bucket's start */
	const char *host;	/* "" for none; valid during the call */
	uint32_t gpu;
	int bucket;		/* a row of --every */
	uint64_t samples;	/* device samples it stands for */
	int has_total;
	int64_t total;
	int64_t lo[UC_NCURVES], mean[UC_NCURVES], hi[UC_NCURVES];
};

/* Whether the text at p (the first bytes of an input) is a usage curve. */
int usagecsv_sniff(const unsigned char *p, size_t n);

/* The same of the input at path ("-": standard input, given back). */
int usagecsv_is_curve(const char *path);

/*
 * Read the curve at path ("-": standard input, plain or gzip), calling
 * row() for each row.  Bad rows are named ("prog: FILE:LINE: what") and
 * skipped, the first SOURCE_MAXSHOWN of them; with strict the first one
 * ends the reading.  *every is set to the bucket width of --every (the
 * greatest common divisor of the bucket starts, which --every aligns to
 * its multiples), 0 for a curve of single samples; -1 (as UINT64_MAX)
 * when the input mixes both.  Return 0, or -1 after a message when it
 * could not be read or a bad row came under strict.
 */
int usagecsv_read(const char *path, int strict,
    void (*row)(void *ctx, const struct usagerow *r), void *ctx,
    uint64_t *every);

/* "--every 10s" or "single samples" for messages; buf of 48 bytes. */
char *usagecsv_every_str(uint64_t every, char *buf);

#endif
