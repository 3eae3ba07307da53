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

#include "source.h"

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
