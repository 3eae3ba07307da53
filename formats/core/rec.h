/* SPDX-License-Identifier: ISC */
/*
 * rec.h: the record, and the record stream every gpumem tool speaks.
 *
 * The field model is docs/wire-protocol.md's: a timestamp in nanoseconds
 * since the epoch, memory_used and memory_free in MiB, and a process_id
 * (0 = a whole-device sample).  gpumem adds where the record comes from
 * (host, gpu), the GPU's memory_total (MiB, unknown = empty) and, where the
 * source has it, the process name.  GPU 0 of one host is not GPU 0 of
 * another: every consumer keys by (host, gpu).
 *
 * Text form (the default between tools):
 *
 *	timestamp,host,gpu,process_id,memory_used,memory_free,memory_total,process_name
 *	1717241235361000000,,0,0,4,40333,40960,
 *
 * Integers in decimal; memory_used, memory_free and memory_total may be
 * empty (unknown); host and process_name are quoted per RFC 4180 only when
 * they contain a comma, a double quote, CR or LF.  Records are in timestamp
 * order, stable for equal timestamps.  The header may appear again in the
 * middle of a stream (outputs joined with cat).
 *
 * Binary form, between gpumem tools only: when standard output is a pipe
 * and every process reading that pipe is a gpumem tool of the same
 * installation (the same directory), the writer sends the records in the
 * binary form below instead, and the reader on the other end detects it
 * by its magic; to a terminal, a file or any other program the stream is
 * always text.  GPUMEM_STREAM=text in the environment turns the binary
 * form off; GPUMEM_STREAM=binary writes it wherever the output goes (for
 * tests, or to keep a stream to feed gpumem again).
 *
 *	magic	8 bytes "\x89GMREC\x01\n" (may appear again: joined streams)
 *	record	40 bytes, then host and process_name, each NUL-terminated:
 *		 0 u8   'R'
 *		 1 u8   has (enum rec_has)
 *		 2 u16  0
 *		 4 u32  gpu
 *		 8 u64  timestamp
 *		16 u32  process_id
 *		20 u32  memory_used
 *		24 u32  memory_free
 *		28 u32  memory_total
 *		32 u32  length of host (without its NUL)
 *		36 u32  length of process_name (without its NUL)
 *
 * All integers little-endian; values a record does not have are 0.  A
 * record takes 40 + host length + 1 + name length + 1 bytes; the strings
 * are at most REC_BIN_MAXSTR bytes each.
 */
#ifndef GPUMEM_REC_H
#define GPUMEM_REC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "util.h"

#define REC_BIN_MAGIC "\x89GMREC\x01\n"
#define REC_BIN_MAGICLEN 8
#define REC_BIN_FIXED 40
#define REC_BIN_MAXSTR REC_MAXSTR

/*
 * The longest host or process name a record carries, in bytes (PATH_MAX:
 * a process name is at most a path).  Readers cut longer ones and count
 * them (source_emit), so that a hostile log cannot make every task hold
 * megabytes.
 */
#define REC_MAXSTR 4096

#define REC_HEADER \
	"timestamp,host,gpu,process_id,memory_used,memory_free," \
	"memory_total,process_name"

/* Which optional values a record has. */
enum rec_has {
	REC_USED = 1 << 0,
	REC_FREE = 1 << 1,
	REC_TOTAL = 1 << 2
};

/*
 * Where a record came from, for the reader's own bookkeeping (not written).
 * A snapshot source (nvidia-smi compute-apps, pmon, -q -x) lists the
 * processes present at each poll and says nothing of those that are gone;
 * the reader turns "no longer listed" into a memory_used = 0 record.  Each
 * kind of listing is its own channel, so that the compute-apps polls and
 * the pmon samples of one capture bundle are not taken for each other.
 */
enum rec_origin {
	REC_PLAIN = 0,		/* says everything itself (stream, GMEM, device rows) */
	REC_SNAP_APPS = 1,	/* nvidia-smi --query-compute-apps */
	REC_SNAP_PMON = 2,	/* nvidia-smi pmon */
	REC_SNAP_XML = 3,	/* nvidia-smi -q -x <processes> */
	REC_SNAP_TABLE = 4,	/* the plain nvidia-smi table's process block */
	REC_SNAP_GPUSTAT = 5,	/* gpustat text */
	REC_SNAP_PROM = 6,	/* per-process series of an exporter scrape */
	REC_SNAP_QUERY = 7	/* nvidia-smi -q text, its Processes section */
};

struct rec {
	uint64_t ts;		/* ns since the epoch */
	uint32_t gpu;		/* GPU index on its host */
	uint32_t pid;		/* 0 = whole device */
	uint32_t used;		/* MiB, if has & REC_USED */
	uint32_t free;		/* MiB, if has & REC_FREE */
	uint32_t total;		/* MiB, if has & REC_TOTAL */
	unsigned has;		/* enum rec_has */
	const char *host;	/* never NULL; "" when unknown */
	const char *name;	/* never NULL; "" when none */

	/* Reader bookkeeping, never written to the stream. */
	const char *gpukey;	/* uuid or bus id awaiting an index, or NULL */
	unsigned origin;	/* enum rec_origin: 0, or a snapshot channel */
	unsigned src;		/* index of the input it came from */
	int unread;		/* a poll mark: the poll held rows that could
				   not be read (see rec_is_mark) */
	int restart;		/* a poll mark: the loop started afresh
				   there (its interval learnt anew) */
};

/*
 * A poll mark: a record of a snapshot channel with process_id 0.  It says
 * "this listing was taken at ts, and it listed every process it lists
 * there", so a poll that found no process at all still ends the ones
 * listed before it.  Formats that print a poll even when it is empty (pmon
 * idle rows, -q -x documents, the table's "No running processes found",
 * gpustat lines, exporter scrapes) emit one per poll.  Marks are the
 * reader's bookkeeping: they are counted nowhere and never written.
 * A mark with `unread' set says the poll held rows that could not be
 * read: a process missing from it may have been one of them, so the poll
 * ends none (a damaged row is unknown, not absent).  One with `restart'
 * set says the loop was started afresh before this poll (its header came
 * again after rows: `nvidia-smi ... -l 1' run anew, maybe with another
 * interval): the gap before it is no interval of the loop.
 */
static inline int
rec_is_mark(const struct rec *r)
{
	return r->origin != REC_PLAIN && r->pid == 0;
}

/*
 * The name nvidia-smi gives a process it lists after its death: killed
 * before its CUDA context was torn down, it stays listed with its memory
 * until the driver lets the memory go.  Readers keep it as the name (it
 * is no placeholder); the engine ends the task at that listing.
 */
#define REC_NOT_FOUND "[Not Found]"

/* A record with no values, host "" and name "". */
void rec_init(struct rec *r);

/*
 * A process id for a process a source knows by name only (nvidia-smi's
 * pid 0 rows, a Kubernetes pod of an exporter scrape): in [2^30, 2^31),
 * above every real one (Linux's pid_max is at most 2^22), the same for
 * the same name in every run.  Two names may share one (1 in 2^30).
 */
#define REC_NAME_PID_BASE (1U << 30)
uint32_t rec_name_pid(const char *name, size_t len);

/*
 * A buffered writer of the record stream to a FILE.  The header (or the
 * binary form's magic) is written before the first record, and only then,
 * so an empty input gives a header alone.  Which form is chosen when the
 * first record or the flush comes (see "Binary form" above), so that the
 * other end of a pipe has had time to start.  With json set (after
 * recw_init) the form is NDJSON instead (read -t json,
 * docs/schema/read.json): a first line with the version (json.h), then
 * one object a record, keys as the stream's columns with their units.
 */
#define RECW_HOSTMAX 64
struct recw {
	FILE *f;
	char *buf;
	size_t len, cap;
	int header_done;
	int bin;		/* the binary form (decided with the header) */
	int json;		/* the NDJSON form (set by the caller) */
	struct sbuf line;	/* json: the record's line */
	int failed;
	uint64_t count;
	uint64_t lastts;	/* the last timestamp written, and its text */
	char tstext[24];
	size_t tslen;
	/*
	 * The last host written (when at most RECW_HOSTMAX bytes) and its
	 * CSV field, the last memory_total and its digits: the records of
	 * an input mostly share both.  hostlen and totallen 0: none kept.
	 */
	char host[RECW_HOSTMAX];
	size_t hostlen;
	char hostcsv[2 * RECW_HOSTMAX + 3];
	size_t hostcsvlen;
	uint32_t lasttotal;
	char totaltext[16];
	size_t totallen;
};
void recw_init(struct recw *w, FILE *f);
/* Append one record.  Return 0, or -1 on a write error (errno set). */
int recw_put(struct recw *w, const struct rec *r);
/* Write the header if nothing was written yet, then flush.  0 or -1. */
int recw_flush(struct recw *w);
void recw_release(struct recw *w);

/*
 * Parse one line of the record stream into *r (strings point into line,
 * which is modified: quoted fields are unescaped in place).  Return 1 for a
 * record, 0 for a header line, -1 for a bad line with *why set to a
 * message.  A quoted field containing a line break spans lines: the caller
 * joins lines while csv_line_open() says a quote is open.
 */
int rec_parse(char *line, size_t len, struct rec *r, const char **why);

/* rec_parse() for a line the caller knows holds no '"' (the fast path). */
int rec_parse_unquoted(char *line, size_t len, struct rec *r,
    const char **why);

/*
 * Decode the binary form at p (n bytes there).  Return 1 for a record
 * (strings point into p), 2 for the magic, 0 when the bytes there are the
 * start of a record but not all of it (*used says how many it needs), -1
 * for bytes that are not the binary form with *why set (the stream cannot
 * be followed beyond), -2 for a record that is whole but bad (*used says
 * its length, so that reading goes on after it).  On 1 and 2 *used is the
 * bytes taken.
 */
int rec_bin_decode(const unsigned char *p, size_t n, struct rec *r,
    size_t *used, const char **why);

/*
 * Append r in the binary form (no magic) to sb: for a record stream kept
 * by the program itself (the reader's runs, runs.h), read back with
 * rec_bin_decode().
 */
void rec_bin_put(struct sbuf *sb, const struct rec *r);

/* Whether the first n bytes at p start the binary form. */
int rec_bin_sniff(const unsigned char *p, size_t n);


#endif
