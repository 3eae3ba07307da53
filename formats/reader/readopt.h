/* SPDX-License-Identifier: ISC */
/*
 * readopt.h: the options of "gpumem read", shared by every tool that reads
 * logs and captures directly (tasks, usage, check, report...).
 *
 * A tool adds READOPT_LONGOPTS to its getopt_long table ("j:" to its short
 * options: -j is --jobs) and passes every option it does not know itself
 * to readopt_parse().
 */
#ifndef GPUMEM_READOPT_H
#define GPUMEM_READOPT_H

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "num.h"

/*
 * Live reading, for inputs that never end (nvidia-smi -lms into a pipe):
 * a record goes on as soon as a record stamped more than `lag' later has
 * been read from its input, instead of when the reorder window is full.
 */
enum read_live {
	LIVE_OFF = 0,		/* windows fill up (files, finite pipes) */
	LIVE_AUTO,		/* live for inputs that are not regular files */
	LIVE_ON			/* live for every input */
};

/* What the user told the reader (gpumem read's options). */
struct readopts {
	const char *format;	/* --format: a format name, or NULL to detect */
	const char *fields;	/* --fields: the query of a headerless log */
	uint64_t interval;	/* --interval in ns, 0 when not given */
	uint64_t start;		/* --start, when have_start */
	int have_start;
	const char *host;	/* --host, or NULL */
	size_t window;		/* reorder window, records per input */
	int strict;		/* --strict: the first bad line is fatal */
	int summaries;		/* a summary line per input even when all
				   went well (gpumem read; others with -v) */
	const char *filter;	/* captures: --filter BPF expression */
	int port;		/* captures: --port, or -1 */
	int live;		/* enum read_live */
	uint64_t lag;		/* live: ns a record waits for later ones */
	int lag_set;		/* --lag given: the lag stays as given */
	const char *time_format; /* --time-format: strptime(3), or NULL */
	/* Filters applied to the merged stream. */
	struct idset gpus, pids;
	uint64_t since, until;	/* until = UINT64_MAX when not given */
	const char *map;	/* --map: a column map (colmap.h), or NULL */
	int host_from_file;	/* --host-from-file: each file a host */
	const char *host_pattern; /* its pattern (a regex), or NULL */
	unsigned jobs;		/* -j: threads decoding inputs (workers.h),
				   0 = the CPUs the process may use */
	size_t max_open;	/* --max-open: inputs open at once, 0 = as
				   the open-file limit allows (runs.h) */
	int no_join;		/* --no-join: each capture file on its own,
				   even when several are one recording */
};

/* Set the defaults: detect formats, window 4096, no filters. */
void readopts_init(struct readopts *o);


enum {
	OPT_FORMAT = CHAR_MAX + 1,
	OPT_FIELDS,
	OPT_INTERVAL,
	OPT_START,
	OPT_TZ,
	OPT_HOST,
	OPT_GPU,
	OPT_PID,
	OPT_SINCE,
	OPT_UNTIL,
	OPT_WINDOW,
	OPT_STRICT,
	OPT_FILTER,
	OPT_PORT,
	OPT_LIVE,
	OPT_NO_LIVE,
	OPT_LAG,
	OPT_MAP,
	OPT_HOST_FROM_FILE,
	OPT_TIME_FORMAT,
	OPT_MAX_OPEN,
	OPT_NO_JOIN,
	OPT_MEM_BUDGET,
	OPT_READ_LAST		/* tools number their own long options from here */
};

#define READOPT_LONGOPTS \
	{"format", required_argument, NULL, OPT_FORMAT}, \
	{"fields", required_argument, NULL, OPT_FIELDS}, \
	{"interval", required_argument, NULL, OPT_INTERVAL}, \
	{"start", required_argument, NULL, OPT_START}, \
	{"tz", required_argument, NULL, OPT_TZ}, \
	{"host", required_argument, NULL, OPT_HOST}, \
	{"gpu", required_argument, NULL, OPT_GPU}, \
	{"pid", required_argument, NULL, OPT_PID}, \
	{"since", required_argument, NULL, OPT_SINCE}, \
	{"until", required_argument, NULL, OPT_UNTIL}, \
	{"window", required_argument, NULL, OPT_WINDOW}, \
	{"strict", no_argument, NULL, OPT_STRICT}, \
	{"filter", required_argument, NULL, OPT_FILTER}, \
	{"port", required_argument, NULL, OPT_PORT}, \
	{"map", required_argument, NULL, OPT_MAP}, \
	{"host-from-file", optional_argument, NULL, OPT_HOST_FROM_FILE}, \
	{"time-format", required_argument, NULL, OPT_TIME_FORMAT}, \
	{"max-open", required_argument, NULL, OPT_MAX_OPEN}, \
	{"no-join", no_argument, NULL, OPT_NO_JOIN}, \
	{"mem-budget", required_argument, NULL, OPT_MEM_BUDGET}, \
	{"jobs", required_argument, NULL, 'j'}

/*
 * Reading inputs as they grow (read --live, send): a tool that offers it
 * adds these too (and {"no-live", no_argument, NULL, OPT_NO_LIVE} where
 * live is its default); readopt_parse() sets o->live and o->lag.
 */
#define READOPT_LIVE_LONGOPTS \
	{"live", no_argument, NULL, OPT_LIVE}, \
	{"lag", required_argument, NULL, OPT_LAG}

/*
 * Apply one option to o.  Return 1 when ch was a read option, 0 when it is
 * not (the caller's own).  A bad value is fatal: "prog: --opt: 'v': why"
 * and exit 2.
 */
int readopt_parse(struct readopts *o, int ch, const char *arg);

/* The help text of the read options, one per line, for usage(). */
extern const char readopt_help[];

#endif
