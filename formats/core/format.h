/* SPDX-License-Identifier: ISC */
/*
 * format.h: the contract between the reader and each format's parser:
 * what a parser is given, and what it may say back.
 *
 * A parser is a const struct format: the reader detects an input's
 * format from its content (sniff_bytes, sniff_text), opens the parser
 * on it and drives it: a text format is given the input line by line
 * (line), a binary one is stepped (step).  The parser emits records with
 * source_emit(), reports lines it cannot read with source_bad() (named by
 * file and line, or by the position it gives), and counts lines it
 * passes over on purpose with source_skip().  Emitted records go through
 * a reorder window, so parsers may emit slightly out of time order.  At
 * the end the reader prints one summary line per input.
 *
 * struct source, the input being read, is the reader's (source.h): a
 * parser holds a pointer to it and goes through the functions below.
 */
#ifndef GPUMEM_FORMAT_H
#define GPUMEM_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "rec.h"
#include "sbuf.h"

#define SOURCE_MAXSHOWN 10	/* problem messages shown per input */

struct input;
struct rclock;
struct source;

/*
 * What the user told the parsers: the read options a format may need
 * (all of them are readopt.h's).  The same for every input of a run.
 */
struct format_opts {
	const char *fields;	/* --fields: the query of a headerless log */
	uint64_t interval;	/* --interval in ns, 0 when not given */
	uint64_t start;		/* --start, when have_start */
	int have_start;
	const char *host;	/* --host, or NULL */
	const char *time_format; /* --time-format: strptime(3), or NULL */
	const char *map;	/* --map: a column map (colmap.h), or NULL */
	const char *filter;	/* captures: --filter BPF expression, or NULL */
	int port;		/* captures: --port, or -1 */
};

/*
 * A format.  Text formats set sniff_text and line; binary formats set
 * sniff_bytes and step.  Every callback gets the state open() returned.
 */
struct format {
	const char *name;	/* as --format names it: "query-gpu" */
	const char *what;	/* for people: "nvidia-smi --query-gpu CSV" */
	int device_only;	/* has no per-process data */

	/*
	 * How sure the format is that the input is its own, 0 (not mine) to
	 * 100.  sniff_bytes sees the first bytes (decompressed); sniff_text
	 * sees the first non-blank lines, NUL-terminated, without line ends.
	 */
	int (*sniff_bytes)(const unsigned char *p, size_t n);
	int (*sniff_text)(char *const *lines, size_t n);

	/*
	 * Start reading.  hint is a command line that produced the text when
	 * one is known (a capture bundle's "$ nvidia-smi ..."), else NULL.
	 * Return the parser's state, or NULL after source_fail().
	 */
	void *(*open)(struct source *s, const char *hint);
	/* Text: one line, NUL-terminated, without its line end. */
	void (*line)(void *st, char *line, size_t len);
	/* Binary: read on; 1 = more to come, 0 = end, -1 = failed. */
	int (*step)(void *st);
	/* The input ended: emit what is pending. */
	void (*end)(void *st);
	/* Optional: add ", what" details to the summary line. */
	void (*summary)(void *st, struct sbuf *sb);
	void (*free)(void *st);
	/*
	 * Optional, for binary formats: where the parser is, for messages
	 * about records ("packet 7 (offset 0x1f4)"); the default is the
	 * line number.
	 */
	void (*where)(void *st, struct sbuf *sb);
	/*
	 * Optional, for text formats whose state after their header is
	 * known (chunks.h: -j on one large file): a copy of st that reads
	 * the lines after the last one st read as st would, its calls going
	 * to s; NULL when st cannot be copied now (no header read yet, a
	 * record open across lines).  The copy reads a chunk of the input on
	 * a thread of its own, alone: it may call source_emit,
	 * source_emit_late, source_bad, source_bad_at, source_skip,
	 * source_learn, source_warn, source_host, source_opts, source_name,
	 * source_unterminated and source_nbad (the chunk's count);
	 * source_fork_stop and any other call stops it
	 * before the line it reads (source_lineno among them: a parser that
	 * keeps a line for the next one asks for its number first), and the
	 * reader reads from that line on with st itself.  A copy must not
	 * count a line before such a call.
	 */
	void *(*fork)(const void *st, struct source *s);
	/* Add what fork f counted (for the summary) into st. */
	void (*join)(void *st, const void *f);
};

/*
 * Hand a record to the reader (copied; r may be reused at once).  Poll
 * marks (rec_is_mark()) go the same way but are not counted as records.
 */
void source_emit(struct source *s, struct rec *r);

/*
 * The same for a record the parser knows to be late: it comes after
 * records that follow it in its input (a TCP segment that fills a hole
 * after the bytes behind it were read).  It takes its clock's shifts
 * but is never taken for a step back, nor for a sample of the clock's
 * interval: it goes to the reorder window as read, which takes it or
 * refuses it as late (counted), as any record out of place.
 */
void source_emit_late(struct source *s, struct rec *r);

/*
 * Captures: the records emitted from now on are of the stream key names
 * (len bytes: a sender and a GPU), whose clocks are its own: a step back
 * is judged among its records only, never its host's nor another
 * stream's.  NULL goes back to the clocks of hosts.  Call it once per
 * frame, not per record: the key is looked up here.  Return the stream's
 * clocks (NULL for NULL), which source_stream_clocks() takes to name the
 * same stream without the lookup, as long as the input is read.
 */
struct rclock *source_stream(struct source *s, const void *key, size_t len);
void source_stream_clocks(struct source *s, struct rclock *clk);

/*
 * The stream key names starts afresh (its sender restarted): a record
 * held back goes on as read, and its clocks forget what they saw.
 */
void source_stream_restart(struct source *s, const void *key, size_t len);

/*
 * A line (or frame) that cannot be read: "prog: FILE:LINE: msg" for the
 * first SOURCE_MAXSHOWN, counted after that.  Under --strict it is fatal.
 * source_bad_at() names the position itself ("packet 7 (offset 0x1f4)").
 */
void source_bad(struct source *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void source_bad_at(struct source *s, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * A new section of the input starts (a capture bundle's): its clocks are
 * its own, so forget the times and samples seen so far.
 */
void source_clock_reset(struct source *s);

/*
 * Count a line passed over on purpose; why is a static string.  Under
 * s->defer it is handed on; source_count_skip() counts at once (the main
 * thread's own counts, and the deferred ones when their turn comes).
 */
void source_skip(struct source *s, const char *why);

/*
 * What the log says of a GPU's identity (gpumap_learn(), on the run's map;
 * handed on under s->defer).
 */
void source_learn(struct source *s, const char *host, const char *uuid,
    const char *bus, int64_t index);

/* A fatal problem with this input: "prog: FILE: msg", exit 2 at the end. */
void source_fail(struct source *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The input holds no data gpumem reads, though its format is known (a
 * utilization-only dmon, a help text, a terminal capture, a log whose rows
 * carry no time): say why.  A whole input gets one line, "prog: FILE: msg",
 * and no summary line, and the run exits 2.  A bundle's section is only
 * skipped: the bundle keeps the reason for its summary (s->refusal).  The
 * parser reads nothing more of the input (or section) after it.
 */
void source_refuse(struct source *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether source_refuse was called on the input (or on its section). */
int source_refused(const struct source *s);

/* A one-off remark about this input: "prog: FILE: msg" (not with -q). */
void source_warn(struct source *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The host for records of this input: --host, else the file's
 * (--host-from-file), else what the log names.
 */
const char *source_host(const struct source *s, const char *logged);

/* The line number of the line being parsed (text formats). */
uint64_t source_lineno(const struct source *s);

/* --- What a parser is given, besides its lines --- */

/* The options of the run (see struct format_opts). */
const struct format_opts *source_opts(const struct source *s);

/*
 * The input, for a format that reads it itself (a binary format's step,
 * a peek at what comes): input.h.
 */
struct input *source_input(const struct source *s);

/*
 * Whether the line being parsed had no "\n": the data ended inside it
 * (input_unterminated), in a fork too (struct format's fork).
 */
int source_unterminated(const struct source *s);

/*
 * In a fork (struct format's fork): the line being parsed needs what
 * only the parser itself has: the fork stops before it, and the reader
 * reads it and the rest with the parser.  Elsewhere: nothing.  Call it
 * before the line changes anything.
 */
void source_fork_stop(struct source *s);

/* The input's name, as messages name it ("FILE", "<stdin>"). */
const char *source_name(const struct source *s);

/* Whether the input is read live: it may never end (readopt.h). */
int source_live(const struct source *s);

/* Whether the parser reads a section of a capture bundle. */
int source_in_section(const struct source *s);

/* How many problems source_bad() has reported on the input so far. */
uint64_t source_nbad(const struct source *s);

/*
 * Whether source_skip() has passed over a line of the input so far, on
 * whichever thread reads it (a worker hands the count on to the main
 * thread later: the summary's counts are not yet complete there).
 */
int source_skipped(const struct source *s);

/* Whether source_fail() was called on the input. */
int source_failed(const struct source *s);

/* --- What a parser may say of the input, besides records --- */

/*
 * The format for people, refined once the parser knows it ("pcapng
 * capture"): what must live as long as the parser's state.
 */
void source_set_what(struct source *s, const char *what);

/*
 * Whether the input has no per-process data (struct format's
 * device_only, until the parser knows better): said in the summary line.
 */
void source_set_device_only(struct source *s, int device_only);

#endif
