/* SPDX-License-Identifier: ISC */
/*
 * nvsmistate.h: the state of one nvidia-smi --query-gpu or
 * --query-compute-apps CSV log being read, shared by the modules of its
 * parser: nvsmi.c (the format: headers and columns, sniffing, opening,
 * the lines dispatched), nvsmiclock.c (the time of a row: date lines and
 * the other lines wrappers add, the polls of a log without a timestamp
 * column) and nvsmirow.c (a row's values to a record: GPU, memory, pid 0
 * sums, unreadable rows).  Private to them; nvsmi.h is the format.
 */
#ifndef GPUMEM_NVSMISTATE_H
#define GPUMEM_NVSMISTATE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "gpumap.h"
#include "gtime.h"
#include "hmap.h"
#include "physgpu.h"

#define MAXCOLS 1024
#define POLL_SPREAD (50 * NS_PER_MS)	/* rows of one poll, no GPU column */
#define NLAST 64
/* The pid 0 rows of one poll with one GPU and name, summed. */
struct pid0 {
	char *host, *gpukey, *name;	/* gpukey NULL: gpu is known */
	uint32_t gpu;
	uint64_t used;
	int unknown;		/* a row without its memory: the sum is too */
};

#define POLL_KEYS 1024		/* GPUs told apart in one poll (time-less) */
#define MANY_GPUS 64		/* a block of rows this long is worth a word */

enum kind { K_NONE, K_GPU, K_APPS };

enum col {
	C_TS, C_INDEX, C_WGPU, C_UUID, C_BUS, C_TOTAL, C_USED, C_FREE,
	C_RESERVED, C_HOST, C_NAME, C_PID, C_PNAME, C_PUSED, NCOL
};

struct nvsmi {
	struct source *s;
	enum kind want;		/* K_NONE: either, as the header says */
	enum kind kind;
	size_t ncols;
	int col[NCOL];
	int wide;		/* the column that may hold commas, or -1 */
	int have_columns;

	/* The clock of a log without a timestamp column. */
	int have_pending;	/* a date line came since the last block */
	uint64_t pending;
	int have_wdate;		/* a Windows "date /T" line, waiting for "time /T" */
	int wy, wmo, wd;
	int clocklines;		/* any date line seen */
	int newblock;		/* a header came since the last row */
	int restarted;		/* a compute-apps header came again after
				   rows (not one per poll): a new loop */
	uint64_t apps_last;	/* time of the last compute-apps poll, 0 none */
	uint64_t apps_iv;	/* smallest gap between its polls since the
				   loop (re)started, 0 unknown */
	uint64_t block_ts;
	uint64_t nblocks;
	size_t block_rows;
	int noclock_said;
	uint32_t pollkey[POLL_KEYS];	/* the GPUs of the block so far */
	int glued;		/* the row's time came glued in front of it */
	uint64_t glued_ts;
	struct sbuf phost;	/* the host of a "host: " prefix (pdsh) */
	int header_polls;	/* repeated headers mark the polls */
	int elapsed_said;	/* timestamps of seconds since --start */
	size_t since_header;	/* rows since the last header */
	int onepoll_said, many_said;
	struct sbuf guessed;	/* why the columns could not be told */

	/* Rows with a timestamp but no GPU column: position in the poll. */
	uint64_t poll_ts;
	size_t poll_pos;
	int havepoll;

	/* The rows of a poll share their time: parsed once. */
	char lastts[40];
	size_t lastlen;
	uint64_t lastval;

	uint64_t rows, headers;
	uint64_t nomem;		/* rows with their memory N/A (process
				   rows: WDDM; device rows: unified memory) */
	int apps_nogpu_said;

	/* The rows of pid 0 of the poll at zts, one entry per GPU and name. */
	struct pid0 *z;
	size_t nz;
	uint64_t zts;
	uint64_t zrows, zrecs;	/* for the summary */

	/* Unreadable rows: their polls end no process (unread_row). */
	int row_timed;		/* the row being read has its time, row_ts */
	uint64_t row_ts;
	uint32_t row_pid;	/* its pid (compute-apps), 0 none */
	int have_prev;		/* a row had a time before: prev_ts */
	uint64_t prev_ts;
	int unread_next;	/* mark the next poll too, unless it is prev_ts */
	struct sbuf host, key, name;	/* scratch */
	char *f[MAXCOLS + 1];
	size_t len[MAXCOLS + 1];
	struct gpuset gpuset;	/* the GPUs named, for the summary */
	struct hmap learned;		/* identities already told to gpumap */
	struct sbuf lkey;
	struct sbuf last[NLAST];	/* the last identity of GPU 0..NLAST-1 */
	struct sbuf uuid, bus;		/* scratch */
	struct sbuf card;		/* scratch: bus id and memory.total */
	/* Physical GPUs by bus id or UUID under one index (physgpu.h). */
	struct physgpu phys;

	/*
	 * A fork (format.h) reads rows of GPUs its base knew, and stops
	 * before anything else; the base is taken once a GPU came again.
	 */
	int forked;
	int wrapped;		/* a row's GPU was the last one's of its index */
	struct sbuf head;	/* the header line of the columns, if one */
	size_t head_rows;	/* a fork's rows before its first header */
};

/* nvsmi.c */

/* A copy of field i into sb, "" for a placeholder; return sb's string. */
const char *nvsmi_text_of(struct nvsmi *p, struct sbuf *sb, int i);

/* nvsmiclock.c */

/* A date line came: the time of the next block of rows. */
void nvsmi_clock_line(struct nvsmi *p, uint64_t t);

/*
 * A line that starts with a date and time and goes on with text ("[2026-
 * 01-01 12:00:00] GPU Status:"): store the time in *t; return whether the
 * line was one.
 */
int nvsmi_stamp_line(const char *line, size_t len, uint64_t *t);

/*
 * Lines that wrappers add around nvidia-smi output (date lines, Windows
 * "date /T" and "time /T", error messages, comments, separators): return
 * 1 when the line was one (used as a clock, or counted and passed over).
 */
int nvsmi_wrapper_line(struct nvsmi *p, const char *line, size_t len);

/* A shell prompt echoed into the log ("$ nvidia-smi ..."). */
int nvsmi_prompt_line(const char *line, size_t len);

/* Remember the GPU of the block's row n (a log without timestamps). */
void nvsmi_poll_note(struct nvsmi *p, size_t n);

/*
 * The time written as t (n bytes): the last row's when it is written the
 * same (nvsmi_row_time keeps it), else --time-format, else the forms
 * nvidia-smi and its wrappers write.  Return 0, or gtime's error (-1: no
 * such form).
 */
int nvsmi_time_text(const struct nvsmi *p, const char *t, size_t n,
    uint64_t *ts);

/*
 * The time of the row in p->f: its timestamp column, else its block's
 * (date line, --start and --interval).  Return 0, or -1 (reported or
 * counted).
 */
int nvsmi_row_time(struct nvsmi *p, uint64_t *ts);

/* nvsmirow.c */

/*
 * Whether a row of GPU index on host with that uuid and bus (each "" when
 * not logged) is one nvsmi_learn() has just told about: nothing to tell.
 */
int nvsmi_learned(struct nvsmi *p, const char *host, const char *uuid,
    const char *bus, int64_t index);

/* Tell the run's GPU map about a GPU, once per identity. */
void nvsmi_learn(struct nvsmi *p, const char *host, const char *uuid,
    const char *bus, int64_t index);

/* Read a row (not a header, not a wrapper's line) and emit its record. */
void nvsmi_row(struct nvsmi *p, char *line);

/*
 * A compute-apps row has been read (line_fn, after nvsmi_row): at the last
 * row of a poll, when the next polls come at a new, longer steady period
 * (a loop restarted without its header), mark the poll a restart.
 */
void nvsmi_poll_ahead(struct nvsmi *p);

/* A compute-apps row could not be read (reported): mark its poll. */
void nvsmi_unread_row(struct nvsmi *p);

/* Send the summed pid 0 rows of the poll on and empty the list. */
void nvsmi_pid0_flush(struct nvsmi *p);

#endif
