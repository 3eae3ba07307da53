/* SPDX-License-Identifier: ISC */
/*
 * chartopt.h: what the chart commands (plot, gantt) share: the options
 * -T/--terminal, --size, --script, --title, --utc, the choice of the
 * terminal, and the chart's way out (the script itself, or gnuplot); and
 * what plot, gantt and report read (chartopt_collect).
 *
 * A tool puts the CHARTOPT_* entries in its cmd_opt table (cmd.h),
 * numbers its own long options from OPT_CHART_LAST, takes the set
 * (CHARTOPT_SET: the skeleton passes them to chartopt_parse), then calls chartopt_term() once the output is known.
 */
#ifndef GPUMEM_CHARTOPT_H
#define GPUMEM_CHARTOPT_H

#include <stdio.h>

#include "cfgopt.h"
#include "chart.h"
#include "cmd.h"
#include "collect.h"
#include "sbuf.h"

enum {
	OPT_SCRIPT = OPT_CFG_LAST,
	OPT_SIZE,
	OPT_TITLE,
	OPT_UTC,
	OPT_CHART_LAST		/* tools number their own options from here */
};

#define CHARTOPT_OUTPUT \
	{'o', "output", "FILE", "write to FILE: .png, .svg or .pdf picks the " \
	    "terminal"}
#define CHARTOPT_TERMINAL \
	{'T', "terminal", "TERM", "png, svg, pdf or dumb (text); default: " \
	    "dumb on a\nterminal, else png"}
#define CHARTOPT_SCRIPT \
	{OPT_SCRIPT, "script", NULL, "write the gnuplot script and its data " \
	    "instead (no gnuplot)"}
#define CHARTOPT_TITLE {OPT_TITLE, "title", "TEXT", "the chart's title"}
#define CHARTOPT_UTC \
	{OPT_UTC, "utc", NULL, "times in UTC, not local time (see --tz)"}

struct chartopts {
	struct chart ch;	/* title, utc, and what chartopt_term sets */
	int term;		/* -T, or -1 */
	int script_only;	/* --script */
	int sized;		/* --size given: ch.width, ch.height */
};

/* Nothing given: to be chosen by chartopt_term. */
void chartopt_init(struct chartopts *o);

/*
 * Apply one option to the struct chartopts ctx (-T, --size, --script,
 * --title, --utc): return 1, or 0 when val is none of them.  A bad value
 * is fatal (die).  The shape of a shared option set (cmd.h).
 */
int chartopt_parse(void *ctx, int val, const char *arg);

/* The set of a struct chartopts *o, for struct cmd's sets. */
#define CHARTOPT_SET(o) ((struct cmd_set){chartopt_parse, (o)})

/*
 * Choose the terminal: -T, else the output's name (NULL: standard
 * output), else dumb on a terminal and png elsewhere.  Refuse (die) a name
 * that says no format, PNG or PDF onto a terminal, and a missing gnuplot
 * unless only the script is wanted.  has_text: the refusals name --text
 * (the tool draws without gnuplot too).
 */
void chartopt_term(struct chartopts *o, const char *output, int has_text);

/*
 * The chart out to f: the script itself with --script, else what gnuplot
 * draws from it (an SVG with the tooltips of o->ch.tips, chart_svg_tips).
 * Return 0, or -1 after a message naming outname.
 */
int chartopt_write(const struct chartopts *o, const struct sbuf *script,
    FILE *f, const char *outname);

/*
 * The inputs of a chart command: the configuration cfgo asks for loaded
 * into cfg (cfgopt_load), then cmd's operands read with its read options
 * into c, as co asks (its ro, cfg and declared are set here from cmd,
 * cfg and --tasks).  c and cfg are to be released whatever it returns.
 * Return EXIT_OK, or EXIT_TROUBLE after messages; c->kind is 0 when
 * nothing was read that can be drawn.
 */
int chartopt_collect(struct collection *c, struct collect_opts *co,
    const struct cmd *cmd, const struct cfgopts *cfgo, struct config *cfg);

#endif
