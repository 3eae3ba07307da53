/* SPDX-License-Identifier: ISC */
/*
 * source.h: one input being read as records, whatever its format: the
 * reader's side of the contract with the parsers (format.h).
 *
 * The reader opens the input, detects its format from its content
 * (detect.c), and drives the format's parser (source.c): what the parser
 * emits goes through the input's clocks to its reorder window
 * (clocks.c), what it says is counted and shown (reporting.c).  Parsers
 * include format.h, not this header: the state below is the reader's.
 */
#ifndef GPUMEM_SOURCE_H
#define GPUMEM_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "gpumap.h"
#include "hmap.h"
#include "input.h"
#include "readopt.h"
#include "rec.h"
#include "util.h"
#include "window.h"

#define SOURCE_MAXSKIP 12	/* distinct skip reasons counted */
/*
 * Live, without --lag: a capture (a collector: several senders, each
 * with its own network delay) holds records a second, other inputs none;
 * a record that still comes too late grows the lag to twice how late it
 * was, up to a minute.
 */
#define SOURCE_CAPTURE_LAG 1000000000ULL
#define SOURCE_MAXLAG (60 * 1000000000ULL)

/*
 * Clocks.  Each kind of listing of an input keeps its own clock: its
 * device rows, its process rows (REC_PLAIN), and each snapshot channel
 * (enum rec_origin); a section of a capture bundle starts them afresh.
 * Each host of an input has clocks of its own, for SOURCE_MAXHOSTS hosts
 * (the rest share the clocks of records without a host).  A capture's
 * records are judged per stream instead (source_stream(): a sender's
 * GPU), never across senders: records of one sender that come after
 * later ones of another are the reorder window's, not a step; past
 * SOURCE_MAXHOSTS keys a stream's records are read as they are.
 * A record more than max(1 s, 2 x the clock's sampling interval) earlier
 * than the latest one of its clock is a step back (an NTP correction, two
 * recordings joined with cat): it and every later record of the clock
 * are read shifted, so that it comes one interval after that latest
 * record, and the step is reported once (FILE:LINE; trouble under
 * --strict).  A step back into the hour a zone repeats at the end of
 * summer time (gtime_fold()) is read as that hour's second pass instead,
 * which is exact.  A repair never carries a time past CLOCK_END: a step
 * from so late that continuing for as long again as it steps back would
 * pass it is said and read as it is (the clock goes on from the new
 * time), and a record a repair would still carry past it is read at
 * CLOCK_END (counted, said once).  A step is confirmed by the next record of its clock
 * being as far back: one record out of place alone is left to the
 * reorder window, which takes it or refuses it as late.  Smaller disorder
 * is the reorder window's.  When the
 * device rows step back, the input's other clocks take the same shift at
 * their next record if it is no later than the device rows were before
 * the step (a process log joined with cat may have fallen silent long
 * before its recording ended: its own last time says nothing of the
 * join).  Duplicate samples are the merged stream's (stream.h).
 */
#define CLOCK_END ((uint64_t)INT64_MAX)	/* 2262-04-11T23:47:16.854Z */
#define SOURCE_NCLOCK 9		/* device, process rows, 7 snapshot channels */
#define SOURCE_MAXHOSTS 1024	/* hosts with clocks of their own, per input */
#define SOURCE_NSLOT 128	/* GPUs and processes followed per clock */
#define SOURCE_NIV 8		/* sampling intervals kept per clock */

/* The last sample of one GPU or process on a clock, for its interval. */
struct clockslot {
	uint64_t ts;		/* as read, before any shift */
	uint32_t key;		/* GPU, process, GPU key hashed */
};

/* A record held back: a step back, or a record out of place? */
struct clockpend {
	struct rec r;		/* its strings are the copies below */
	char *host, *name, *gpukey;
	char *where;		/* ":LINE" or ": packet N ...", for messages */
};

struct rclock {
	uint64_t latest;	/* the latest time of the clock, shifted */
	uint64_t latest_raw;	/* the same record's time as read */
	uint64_t shift;		/* added to later records (steps back) */
	uint64_t fold_end;	/* a repeated local hour ends (as read), or 0 */
	uint64_t fold_shift;	/* added before fold_end: its second pass */
	uint64_t arm_from;	/* armed: the device rows stepped back from */
	uint64_t arm_shift;	/* there, to be read with this shift */
	int armed;		/* the next record may follow that step */
	uint64_t iv[SOURCE_NIV]; /* the latest sampling intervals, a ring */
	unsigned niv;
	struct clockslot *slot;	/* SOURCE_NSLOT, from the first sample */
	struct clockpend *pend;	/* a record far back, or NULL */
	unsigned kind;		/* its place among its host's clocks */
	int loose;		/* a stream past SOURCE_MAXHOSTS: not judged */
};

/*
 * What a parser does to the state a run shares, when its input is read by
 * a worker thread (workers.h): handed to these, for the main thread to do
 * in the order a run on one thread does it.
 */
struct source_defer {
	void (*skip)(void *arg, const char *why);	/* source_skip */
	void (*learn)(void *arg, const char *host, const char *uuid,
	    const char *bus, int64_t index);	/* source_learn */
	void (*fatal)(void *arg);	/* --strict: exit here */
	void *arg;
};

struct chunks;
struct chunkcap;

struct source {
	const char *name;	/* for messages */
	unsigned idx;		/* position among the inputs */
	struct input *in;
	const struct readopts *opt;
	struct format_opts fopt; /* what parsers are given of opt */
	struct gpumap *gpus;	/* shared by all inputs of a run */
	const struct format *fmt;
	void *st;
	struct window win;
	int live;		/* read live (see enum read_live) */
	uint64_t newest;	/* the latest timestamp in the window so far */
	uint64_t lag;		/* live: the lag in force (see SOURCE_MAXLAG) */
	int lag_grown;		/* it has grown (said once) */
	int eof;		/* the parser has nothing more */
	int failed;		/* a fatal problem: exit 2 at the end */
	int empty;		/* the input held no data at all */
	int device_only;	/* said in the summary line */
	const char *what;	/* the format for people; a parser may refine it
				   (in its state: kept in parked_what) */
	int refused;		/* holds nothing gpumem reads; said already */
	char *filehost;		/* --host-from-file: this file's host */
	int section;		/* a bundle is feeding one of its sections */
	char *refusal;		/* why that section was refused, for the bundle */

	uint64_t nrec;		/* records emitted */
	uint64_t nlate;		/* outside the reorder window, dropped */
	uint64_t nbad;		/* problems reported */
	unsigned nshown;
	struct {
		const char *why;
		uint64_t n;
	} skip[SOURCE_MAXSKIP];
	size_t nskip;
	uint64_t nskipped;	/* source_skip() calls, deferred ones too */
	uint64_t lastlate;	/* line of the last late-record message */
	uint64_t ncut;		/* records whose names were cut (REC_MAXSTR) */
	struct rclock clk[SOURCE_NCLOCK];	/* of records without a host */
	struct rclock loose[SOURCE_NCLOCK];	/* of streams past the cap */
	struct hmap hostclk;	/* host or stream -> its clocks (source.c) */
	const char *lastkey;	/* the key of the last lookup (the map's) */
	size_t lastlen;
	struct rclock *lastclk;	/* and its clocks */
	struct rclock *sclk;	/* source_stream(): its clocks, or NULL */
	uint64_t nstep;		/* clock steps back said */
	uint64_t nstep_as_read;	/* of which read as they are (CLOCK_END) */
	uint64_t nheld_at_end;	/* records read at CLOCK_END */
	uint64_t nnulfix;	/* lines read after a run of NUL bytes */
	const struct source_defer *defer; /* a worker reads it, or NULL */
	struct chunks *chunks;	/* read in chunks (chunks.h), or NULL */
	struct chunkcap *cap;	/* a fork's source: its calls kept, or NULL */
	uint64_t lineat;	/* chunks: the line done now, else 0 */
	int fatal;		/* under defer: --strict stopped it */

	char *path;		/* as opened, to open it again (runs.h) */
	int parked;		/* source_park(): the input is closed */
	int parked_st;		/* the parser had a state then */
	char *parked_name;	/* s->name, kept */
	char *parked_what;	/* s->what, kept: it may live in the state */
	char *parked_sum;	/* what the format added to its summary */
	char *parked_enc;	/* input_encoding(), kept */
};

/*
 * Open path and detect its format.  Return NULL (after printing one line
 * naming the file) when it cannot be opened or holds no format gpumem
 * reads.  idx is its position among the inputs.
 */
struct source *source_open(const char *path, unsigned idx,
    const struct readopts *opt, struct gpumap *gpus);

/*
 * Read until the window holds opt->window records or the input has ended,
 * so that the window's earliest record is final.  A live input stops
 * sooner: as soon as the window holds a record stamped more than opt->lag
 * later than its earliest, which is then final (a record that comes later
 * still is refused as late).
 */
void source_fill(struct source *s);

/*
 * Print the summary line (unless opt->summaries is 0: then only when
 * something could not be read).
 * procs says whether any input of the run has per-process data; only
 * when none has is a device-only input told that its tasks are the
 * episodes of its usage (engine.h), or --tasks.
 */
void source_summary(struct source *s, int procs);
void source_free(struct source *s);

/*
 * Close the input and free what reading it takes (the parser's state, the
 * window, the clocks), keeping what its summary line and messages need
 * (copies of its name, description, format details and encoding, which
 * may have lived in what is freed):
 * for the merge in passes (runs.h), which cannot keep every input open.
 * Nothing more is read from it (it is at its end).
 */
void source_park(struct source *s);

/*
 * The host --host-from-file gives a file named path: what the pattern
 * (an extended regex) matches in its base name, its first group if it
 * has one, else the base name without extensions.  A pattern that does
 * not compile is -1 with a message in err (readopt checks it).
 */
int source_file_host(const char *path, const char *pattern, char **host,
    char *err, size_t errlen);

/* --- What the reader does for parsers, on its own side --- */

/*
 * The input (or section) ended: a record still held back as a possible
 * step (the next record of its clock confirms a step) was out of place:
 * it goes on as read.  The reader calls it at the end of each input.
 */
void source_clock_flush(struct source *s);

/* source_skip's count, at once (see there). */
void source_count_skip(struct source *s, const char *why);

/*
 * source_learn() in the main thread, now (and where a deferred one is
 * replayed): a GPU that takes another number than its logged index is
 * said, even with -q (it is how the records read).
 */
void source_learn_now(struct source *s, const char *host, const char *uuid,
    const char *bus, int64_t index);

/*
 * --- Between the reader's own files ---
 *
 * source.c drives a parser; detect.c finds the format of an input (and
 * unquotes a line whose every field is quoted, for both);
 * clocks.c takes what a parser emits through its clocks (the repair of
 * steps back) to the reorder window; reporting.c is what a parser says.
 */

/* The format of s from its first bytes, or NULL after saying why. */
const struct format *source_detect(struct source *s);
/* Whether the input starts with the binary record stream's magic. */
int source_starts_binary(struct source *s);
/*
 * A line whose every field is quoted (a spreadsheet's export), unquoted
 * in place where a field needs no quotes: return its new length (see
 * detect.c).
 */
size_t source_unquote(char *l, size_t n);
/* Set up the input's clocks (of records without a host, and loose). */
void source_clocks_init(struct source *s);
/* Free every clock of the input and set them up afresh. */
void source_clocks_release(struct source *s);
/* The clocks' part of the summary line. */
void source_clock_summary(const struct source *s, struct sbuf *sb);
/*
 * --strict: a problem is fatal.  A worker thread's input (s->defer) stops
 * here and leaves the exit to the main thread.
 */
void source_trouble(struct source *s);

/* --- The format registry (formats.c) --- */

/* Every format, NULL-terminated. */
extern const struct format *const format_list[];
const struct format *format_find(const char *name);

/*
 * Pick the format of a text from its first lines: the best sniff_text
 * score, or NULL.  Used for whole files and for sections of a bundle.
 */
const struct format *format_sniff_text(char *const *lines, size_t n,
    int *score);

#endif
