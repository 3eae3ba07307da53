/* SPDX-License-Identifier: ISC */
/*
 * gantt.c: gpumem-gantt, a task table (or a record stream, turned into
 * tasks) in, a Gantt chart out: a row per task, a bar for its life, a bar
 * from its end to its release coloured by the delay, and for a leak a bar
 * to the end of the log with the leaked memory written on it.  Drawn by
 * gnuplot, or as Unicode text (--text) without it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chartopt.h"
#include "cmd.h"
#include "collect.h"
#include "readopt.h"
#include "textgantt.h"
#include "util.h"

#define MAXROWS 50		/* rows by default: a chart stays readable */

enum {
	OPT_MAXROWS = OPT_CHART_LAST,
	OPT_TEXT,
	OPT_WIDTH
};

static const struct cmd_opt opts[] = {
	{OPT_TEXT, "text", NULL, "a Unicode chart for terminals and CI logs "
	    "(no gnuplot)"},
	{OPT_WIDTH, "width", "N", "--text: characters a line (default: the "
	    "terminal's, or 80)"},
	CHARTOPT_OUTPUT,
	CHARTOPT_TERMINAL,
	{OPT_SIZE, "size", "WxH", "pixels (dumb: characters); default 1200 "
	    "wide, 22 a row"},
	CHARTOPT_SCRIPT,
	CHARTOPT_TITLE,
	{OPT_MAXROWS, "max-rows", "N", "at most N rows, the most leaked and "
	    "latest first (50)"},
	CHARTOPT_UTC,
	CFGOPT_OPTS,
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct chartopts co;
	struct cfgopts cfg;
	size_t maxrows;
	unsigned width;		/* --width, 0 when not given */
	int text;
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case OPT_MAXROWS:
		o->maxrows = (size_t)num_opt_u64("--max-rows", arg, 1, 100000);
		return 1;
	case OPT_TEXT:
		o->text = 1;
		return 1;
	case OPT_WIDTH:
		o->width = (unsigned)num_opt_u64("--width", arg, 40, 1000);
		return 1;
	}
	return 0;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [--text [--width N]] [--script] "
	    "[-T png|svg|pdf|dumb]\n[--size WxH] [--title TEXT] [--max-rows N] "
	    "[--utc] [--config FILE]\n[--tasks FILE] [--tolerance MIB] "
	    "[-o FILE] [read options] [FILE ...]",
	.about = "Draw the tasks of a task table (gpumem tasks) or of a record "
	    "stream (or\nanything gpumem read reads) as a Gantt chart: a row "
	    "per task, a bar for its\nlife, a bar from its end to the return "
	    "of its memory coloured by the delay,\nand for a leak a bar to "
	    "the end of the log with the leaked memory on it.\ngnuplot draws "
	    "it; --text needs no gnuplot.  With no FILE, or when FILE is -,\n"
	    "read standard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, gnuplot "
	    "missing\nor failed)",
	.flags = CMD_OUTPUT | CMD_READ,
	.option = option,
	.run = run,
};

/*
 * Text (dumb): gnuplot draws the chart once to tell the lines of its plot
 * area, which must hold each of the *n rows on a line of its own between
 * its borders (with a line fewer the first row lies on the top border,
 * drawn over).  The default height grows to it (to CHART_DUMB_MAX lines
 * at most); with --size, or past that, the rows that fit are kept (the
 * most interesting, as --max-rows keeps them: the title says how many
 * are not shown, and a message how many had no room).
 * Return 0, or -1 when gnuplot failed (said).
 */
static int
fit_rows(struct opts *o, const struct collection *col,
    const struct task ***rows, size_t *n, size_t *hidden)
{
	struct chart *ch = &o->co.ch;
	struct sbuf probe = SBUF_INIT;
	size_t shown = *n, grown = 0, more;
	int lines, rc;

	for (;;) {
		ch->probe = 1;
		chart_gantt(&probe, ch, *rows, *n, *hidden, col->first,
		    col->last, col->nhosts);
		ch->probe = 0;
		rc = chart_dumb_lines(&probe, 1, &lines);
		sbuf_reset(&probe);
		if (rc < 0 || lines < 0 || (size_t)lines > *n)
			break;
		more = *n + 1 - (size_t)lines;	/* lines the rows want */
		if (!o->co.sized && grown++ < 4 &&
		    ch->height + more <= CHART_DUMB_MAX) {
			ch->height += (unsigned)more;
			continue;
		}
		free(*rows);
		*n = chart_gantt_rows(&col->tasks, 0, NULL, 0, lines > 0 ?
		    (size_t)lines - 1 : 0, rows, hidden);
	}
	sbuf_release(&probe);
	if (*n < shown)
		msg("%zu of %zu rows had no room on the chart (%ux%u): not "
		    "shown", shown - *n, shown, ch->width, ch->height);
	return rc;
}

/* The chart of rows[0..n) out to f: text, or a script, or gnuplot's. */
static int
draw(const struct cmd *c, struct opts *o, const struct collection *col,
    const struct task ***rowsp, size_t n, size_t hidden, FILE *f)
{
	const struct task **rows;
	struct chart *ch = &o->co.ch;
	struct sbuf script = SBUF_INIT;
	unsigned rowsz;
	int rc;

	if (o->text) {
		if (o->width == 0) {
			msg_tty_size(STDOUT_FILENO, &o->width, &rowsz);
			if (c->output != NULL || !isatty(STDOUT_FILENO))
				o->width = 80;
		}
		if (textgantt_write(f, *rowsp, n, hidden, col->first, col->last,
		    o->width, ch->utc, col->nhosts, ch->tolerance) < 0) {
			msg("%s: write error:", cmd_outname(c));
			return -1;
		}
		return 0;
	}
	if (!o->co.sized)
		chart_default_size(ch, 1, n);
	if (ch->term == TERM_DUMB && !o->co.script_only && n > 0 &&
	    fit_rows(o, col, rowsp, &n, &hidden) < 0)
		return -1;
	rows = *rowsp;
	chart_gantt(&script, ch, rows, n, hidden, col->first, col->last,
	    col->nhosts);
	rc = chartopt_write(&o->co, &script, f, cmd_outname(c));
	sbuf_release(&script);
	return rc;
}

/* The chart of the inputs' tasks (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct config cfg;
	struct collect_opts co;
	struct collection col;
	const struct task **rows = NULL;
	int status = EXIT_TROUBLE;
	size_t n, hidden;
	FILE *f;

	c->how = CMD_DISCARD;
	/*
	 * A terminal, and nothing asked for gnuplot: text (gnuplot's dumb
	 * terminal garbles a Gantt chart).
	 */
	if (!o->text && c->output == NULL && !o->co.script_only &&
	    o->co.term < 0 && isatty(STDOUT_FILENO))
		o->text = 1;
	if (o->text && (o->co.script_only || o->co.term >= 0))
		die("--text draws without gnuplot: not with --script or "
		    "--terminal");
	if (!o->text)
		chartopt_term(&o->co, c->output, 1);
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_TASKTAB;
	co.needs = "a task table, a record stream or a log";
	co.keep_tasks = 1;
	status = chartopt_collect(&col, &co, c, &o->cfg, &cfg);
	if (col.kind == 0)
		goto out;
	o->co.ch.tolerance = cfg.tolerance;
	n = chart_gantt_rows(&col.tasks, 0, NULL, 0, o->maxrows, &rows,
	    &hidden);
	if ((f = cmd_output(c)) == NULL ||
	    draw(c, o, &col, &rows, n, hidden, f) < 0)
		status = EXIT_TROUBLE;
	else
		c->how = CMD_COMMIT;
out:
	free(rows);
	collection_release(&col);
	config_release(&cfg);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;

	memset(&o, 0, sizeof(o));
	chartopt_init(&o.co);
	o.cfg = (struct cfgopts)CFGOPTS_INIT;
	o.maxrows = MAXROWS;
	cmd.ctx = &o;
	cmd.sets[0] = CHARTOPT_SET(&o.co);
	cmd.sets[1] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
