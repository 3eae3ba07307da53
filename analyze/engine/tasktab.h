/* SPDX-License-Identifier: ISC */
/*
 * tasktab.h: the task table module: the tasks of the engine written as
 * gpumem tasks writes them (CSV, text, md, JSON, OpenMetrics), the CSV
 * read back (by tasks, check, and gantt, plot and report through the
 * charts' collection), and the declared tasks of --tasks read for
 * device-only logs.  One file per format (tabstate.h says which).
 *
 * CSV (the default, for tools), TASK_HEADER then a row per task:
 *
 *	host,gpu,process_id,name,start,end,peak_mib,held_mib,release,release_delay_s,leaked_mib,status,delay_min_s,delay_max_s,note
 *	,0,9001,python3 train.py,1767225610000000000,1767225720000000000,10240,10240,1767225722000000000,2,0,released,1.000,3.000,
 *
 * Times in ns since the epoch, empty where there is none.  release_delay_s
 * is rounded to what the sampling can tell: whole seconds at 1 s sampling,
 * tenths at 100 ms; delay_min_s and delay_max_s are the bounds the data
 * allows (the samples around the end and the release), in ms; note says
 * what the data could not decide, the names of tasktab_notes joined by
 * ';' ("gap", "ambiguous", "pid-reused", "resumed", "last-sample",
 * "estimated", "device-only", "exact-exit": its end is its exit, from
 * gpumem record's procs.csv, "holder": memory no process listing owns,
 * named after the process that held the GPU open (holders.csv),
 * "log-stopped": held to the end by a process listed at the process
 * log's last poll, long before the device log ends, "not-found": listed
 * "[Not Found]" after its death).  leaked_mib is empty when it cannot be
 * known and for running tasks.  Tables of the first 12 columns
 * (TASK_HEADER_V1, gpumem 0.x) are read too, as are those of
 * --iso-times (TASK_ISO_COLUMNS).
 *
 * "text" and "md" are tables for people (kept until the end to size the
 * columns), "json" an object for jq, {"version", "tasks": [...]}
 * (docs/schema/tasks.json, times in UTC whatever utc says); those two say
 * the sampling interval next to every delay.
 */
#ifndef GPUMEM_TASKTAB_H
#define GPUMEM_TASKTAB_H

#include <stdio.h>

#include "engine.h"
#include "util.h"

#define TASK_HEADER_V1 \
	"host,gpu,process_id,name,start,end,peak_mib,held_mib,release," \
	"release_delay_s,leaked_mib,status"
#define TASK_HEADER TASK_HEADER_V1 ",delay_min_s,delay_max_s,note"
/*
 * With --iso-times (TT_ISO): the three times again, ISO 8601 in UTC, as
 * the last columns, for spreadsheets.  Read back like the others.
 */
#define TASK_ISO_COLUMNS ",start_time,end_time,release_time"

/*
 * TT_OPENMETRICS: gauges in the Prometheus text exposition format (which
 * OpenMetrics parsers read too), for node_exporter's textfile collector
 * and the Pushgateway: per task gpumem_task_held_bytes,
 * gpumem_task_leaked_bytes, gpumem_task_release_delay_seconds; per GPU
 * gpumem_tasks{status} and gpumem_leaked_bytes.  Written at the close.
 */
enum tasktab_fmt { TT_CSV, TT_TEXT, TT_MD, TT_JSON, TT_OPENMETRICS };

/* Parse "csv", "text", "md", "json", "openmetrics"; -1 when unknown. */
int tasktab_fmt(const char *name);

struct tasktab_w;

/* Flags of tasktab_open. */
enum tasktab_flags {
	TT_UTC = 1 << 0,	/* text, md: times in UTC, not local */
	TT_ISO = 1 << 1,	/* csv: TASK_ISO_COLUMNS */
	TT_COLOR = 1 << 3	/* text: leaked in red, releases slower
				   than TASKTAB_SLOW in yellow */
};

/* A release this slow or slower is shown in yellow on a terminal. */
#define TASKTAB_SLOW (5 * NS_PER_SEC)

struct tasktab_w *tasktab_open(FILE *f, enum tasktab_fmt fmt,
    unsigned flags);
/*
 * text: fit the table in cols columns (0: as wide as it takes): times
 * without their date when every one has the same (said under the table),
 * then names and hosts cut with an ellipsis, 12 and 8 columns at least.
 */
void tasktab_width(struct tasktab_w *w, unsigned cols);
/* Append a task (copied).  Return 0, or -1 on a write error. */
int tasktab_put(struct tasktab_w *w, const struct task *t);
/* Finish the table (header alone when empty).  0 or -1; frees w. */
int tasktab_close(struct tasktab_w *w);

/*
 * Format a delay as the CSV does: rounded to the interval's resolution.
 * buf must hold 32 bytes.
 */
char *tasktab_delay(uint64_t delay, uint64_t interval, char *buf);

/*
 * The notes of a task (enum task_note) as the CSV writes them, "" for
 * none.  buf must hold TASKTAB_NOTESZ bytes.
 */
#define TASKTAB_NOTESZ 128	/* the eleven notes take 107 */
char *tasktab_notes(unsigned notes, char *buf);

/*
 * A released task's delay for people, with the range the data allows:
 * "3 s \xc2\xb11 s" when even, "0 s (0\xe2\x80\x930.3 s)" when not.
 * buf must hold 96 bytes.
 */
char *tasktab_delay_range(const struct task *t, char *buf);

/* A task table read back: rows with their own strings. */
struct tasklist {
	struct task *t;
	size_t n;
	char **strs;		/* owned strings, freed with the list */
	size_t nstrs;
};

/*
 * Whether the text at p (the first bytes of an input) is a task table.
 */
int tasktab_sniff(const unsigned char *p, size_t n);

/*
 * Whether the input at path ("-": standard input, given back to whoever
 * reads it next) starts as a task table.  0 when it cannot be opened:
 * its reader says why.
 */
int tasktab_is_table(const char *path);

/*
 * Read a task table (CSV, plain or gzip) from path.  Bad rows are reported
 * as "prog: FILE:LINE: what" and skipped.  Return 0, or -1 when the file
 * cannot be read or is not a task table (message printed; l is then
 * empty, nothing to release).  The table has
 * no interval column: a row with a release_delay_s gets as its interval
 * the resolution the delay was written with (1 s for "45", 100 ms for
 * "4.5"...), the finest sampling its writer could have had; others get 0.
 */
int tasktab_read(const char *path, struct tasklist *l, int strict);
void tasktab_list_release(struct tasklist *l);

/*
 * Declared tasks for device-only logs (--tasks FILE): CSV with the header
 * name,gpu,start,end (optional host; columns in any order; fields quoted
 * per RFC 4180), or YAML, a list of mappings with those keys.  Times as
 * gpumem read's --since takes them.  Each is given to the engine (no host:
 * host "", every host of the data).  Return the number declared, or -1
 * (message printed).
 */
int tasktab_declare(const char *path, struct engine *e);

#endif
