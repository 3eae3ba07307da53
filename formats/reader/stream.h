/* SPDX-License-Identifier: ISC */
/*
 * stream.h: many inputs, in any formats, read as one record stream in time
 * order: what "gpumem read" writes, and what every other tool reads.
 *
 * Each input is read through its own reorder window; the windows are
 * merged (ties go to the earlier input, then to the order of appearance).
 * Memory is bounded by the number of inputs, not by their length.
 *
 * A record that repeats the one before it of its GPU or process (the
 * same input, host, GPU, process id and name) at the same time with the
 * same values is a duplicate sample (a line logged twice, overlapping
 * recordings): it is skipped and counted in its input's summary line.
 * This is done on the merged records, in time order, so that the stream
 * written reads back the same.
 *
 * Snapshot sources (nvidia-smi compute-apps and its kin) list the
 * processes present at each poll and say nothing when one is gone.  The
 * stream adds, for each process that stops being listed, one record with
 * memory_used = 0 at the time of the first poll it is missing from: the
 * next poll of its own log when that poll came on time, or when a process
 * listed before and after the polls in between shows they were lost; else
 * the first device sample of its GPU about one poll interval after it was
 * last seen (a poll that found no process at all printed nothing), and
 * never before 1.25 poll intervals after it when the device is polled by
 * a loop of its own, out of step with the process loop.  A process listed
 * in the last poll gets no such record unless device samples go on for
 * more than 1.5 poll intervals after it.  A format that prints every
 * poll, even one that found no process (pmon, -q -x, the table, gpustat,
 * exporter scrapes), marks each poll (rec_is_mark() in rec.h): a process
 * missing from a marked poll ends at that poll.  A poll marked as holding
 * rows that could not be read (rec.unread) ends none: a process missing
 * from it is unknown there, and is taken as seen at it.  To place these records in
 * the past, records are held back for four poll intervals; for one when
 * an input is read live (readopts.live), so that they go on sooner (see
 * horizon() in stream.c for what that costs).
 */
#ifndef GPUMEM_STREAM_H
#define GPUMEM_STREAM_H

#include <stddef.h>

#include "rec.h"
#include "source.h"

struct stream;

/*
 * Open every path (n of them; none means stdin).  A directory stands for
 * its regular files in name order (what gpumem record writes), hidden
 * files and metadata ("meta", "meta.*", "*.meta") left out.  Inputs that
 * cannot be opened or hold no format gpumem reads are reported and left
 * out (the final status says so).  opt must outlive the stream.
 */
struct stream *stream_open(char *const *paths, size_t n,
    const struct readopts *opt);

/*
 * Whether stream_open reads path as a directory of logs: it names a
 * directory, and is not "-" (standard input, whatever it is).
 */
int stream_is_dir(const char *path);

/*
 * The next record in time order after the filters, or NULL at the end.
 * The record and its strings are valid until the next call.
 */
const struct rec *stream_next(struct stream *st);

/*
 * Print each input's summary line; return EXIT_OK, or EXIT_TROUBLE when an
 * input failed (could not be opened, broke off, was not readable).
 */
int stream_close(struct stream *st);

/*
 * Whether two inputs were found to hold device samples of one GPU at the
 * same times (said): two recordings read as one GPU, whose tasks and
 * delays are in neither.  Ask before stream_close().
 */
int stream_collided(const struct stream *st);

/* Records handed out so far, and zero records added for vanished processes. */
uint64_t stream_count(const struct stream *st);
uint64_t stream_added(const struct stream *st);

#endif
