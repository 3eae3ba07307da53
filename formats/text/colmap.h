/* SPDX-License-Identifier: ISC */
/*
 * colmap.h: any CSV read through a column map (--map): home-made loggers
 * (pynvml, torch, psutil), AMD's amd-smi and rocm-smi, Intel's xpu-smi.
 *
 * A map says which column holds what, in which unit and time format:
 *
 *	timestamp=ts:ms,memory_used=mem_used_mb:MB,gpu=gpu_id
 *
 * Keys: timestamp, gpu, uuid, bus_id, host, pid, process_name,
 * memory_used, memory_free, memory_total.  A column is named as the header
 * names it (case and surrounding spaces do not matter); a '?' after it
 * makes it optional (a file without it is read without it).  After a ':':
 *   memory_*: the unit of the numbers, B, KiB, MiB (the default), GiB,
 *             KB, MB, GB (MB is 10^6 bytes; a unit printed in the cell,
 *             "841 MiB", wins);
 *   timestamp: s, ms, us, ns (since the epoch), iso (ISO 8601), nvsmi
 *             (YYYY/MM/DD HH:MM:SS.mmm), clock (HH:MM:SS[.frac], the date
 *             from --start), or a strptime(3) format ("%d-%m-%Y %H:%M:%S";
 *             without a date in it, the date comes from --start as with
 *             clock), elapsed (seconds since the log began, after
 *             --start); the default, auto, takes any of nvidia-smi's, ISO
 *             8601, ctime(3) and epoch numbers (their size tells s, ms,
 *             us or ns; a number below 10^8 s is elapsed seconds, said).
 *             --start given for rows with dates of their own is said to
 *             be unused.
 * The same as a YAML file (--map FILE.yaml): each key maps to the same
 * "COLUMN[:SPEC]" text, or to {column: C, unit: U, time: T, optional:
 * true}; "delimiter" sets the field separator (default ','), "description"
 * says what the map is for.  A bare name (--map amd-smi) is a map shipped
 * with gpumem: NAME.yaml in $GPUMEM_MAPS when it is set, else in
 * ../share/gpumem/maps beside the running program (any install prefix),
 * the source tree's formats/maps (run from the tree), or the data
 * directory compiled in (DATADIR/gpumem/maps).
 *
 * A quoted cell may span lines (RFC 4180): its row's lines are joined by
 * spaces.  Lines before the header (a prompt, a banner) are skipped.
 *
 * A map needs memory_used or memory_free.  Without a timestamp the rows
 * take --start and --interval: a poll is a repeated header line, or the
 * GPU number going back (every row, without a gpu column).
 */
#ifndef GPUMEM_COLMAP_H
#define GPUMEM_COLMAP_H

#include <stddef.h>

#include "format.h"

struct colmap;

/*
 * Read a map: inline text (it holds '='), a YAML file, or a shipped map's
 * name.  Return it, or NULL with a message in err[0..errlen).
 */
struct colmap *colmap_load(const char *spec, char *err, size_t errlen);
void colmap_free(struct colmap *m);

/* What the map reads, for people: its description or where it came from. */
const char *colmap_what(const struct colmap *m);

/* The format: it loads the map readopts.map names, for each input. */
extern const struct format colmap_format;

#endif
