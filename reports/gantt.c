/* SPDX-License-Identifier: ISC */
/*
 * gantt.c: gpumem-gantt, a task table (or a record stream, turned into
 * tasks) in, a Gantt chart out: a row per task, a bar for its life, a bar
 * from its end to its release coloured by the delay, and for a leak a bar
 * to the end of the log with the leaked memory written on it.  Drawn by
 * gnuplot, or as Unicode text (--text) without it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "collect.h"
#include "config.h"
#include "gnuplot.h"
#include "readopt.h"
#include "textgantt.h"
#include "util.h"

#define MAXROWS 50		/* rows by default: a chart stays readable */

enum {
	OPT_CONFIG = OPT_READ_LAST,
	OPT_MAXROWS,
	OPT_SCRIPT,
	OPT_SIZE,
	OPT_TASKS,
	OPT_TEXT,
	OPT_TITLE,
	OPT_TOLERANCE,
	OPT_UTC,
	OPT_WIDTH
};

static const struct option longopts[] = {
	READOPT_LONGOPTS,
	{"config", required_argument, NULL, OPT_CONFIG},
	{"max-rows", required_argument, NULL, OPT_MAXROWS},
	{"script", no_argument, NULL, OPT_SCRIPT},
	{"size", required_argument, NULL, OPT_SIZE},
	{"tasks", required_argument, NULL, OPT_TASKS},
	{"terminal", required_argument, NULL, 'T'},
	{"text", no_argument, NULL, OPT_TEXT},
	{"title", required_argument, NULL, OPT_TITLE},
	{"tolerance", required_argument, NULL, OPT_TOLERANCE},
	{"utc", no_argument, NULL, OPT_UTC},
	{"width", required_argument, NULL, OPT_WIDTH},
	{"output", required_argument, NULL, 'o'},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0}
};

static void
usage(FILE *f, int status)
{
	fprintf(f, "usage: %s [-qv] [--text [--width N]] [--script] "
	    "[-T png|svg|pdf|dumb]\n"
	    "       [--size WxH] [--title TEXT] [--max-rows N] [--utc] "
	    "[--config FILE]\n"
	    "       [--tasks FILE] [--tolerance MIB] [-o FILE] [read options] "
	    "[FILE ...]\n", progname);
	if (status != EXIT_OK) {
		fprintf(f, "Try '%s --help' for more information.\n",
		    progname);
		exit(status);
	}
	fprintf(f, "\nDraw the tasks of a task table (gpumem tasks) or of a "
	    "record stream (or\nanything gpumem read reads) as a Gantt chart: "
	    "a row per task, a bar for its\nlife, a bar from its end to the "
	    "return of its memory coloured by the delay,\nand for a leak a bar "
	    "to the end of the log with the leaked memory on it.\ngnuplot "
	    "draws it; --text needs no gnuplot.  With no FILE, or when FILE "
	    "is -,\nread standard input.\n\n"
	    "      --text          a Unicode chart for terminals and CI logs "
	    "(no gnuplot)\n"
	    "      --width N       --text: characters a line (default: the "
	    "terminal's, or 80)\n"
	    "  -o, --output FILE   write to FILE: .png, .svg or .pdf picks the "
	    "terminal\n"
	    "  -T, --terminal TERM png, svg, pdf or dumb; default: dumb on a "
	    "terminal, else png\n"
	    "      --size WxH      pixels (dumb: characters); default 1200 "
	    "wide, 22 a row\n"
	    "      --script        write the gnuplot script and its data "
	    "instead (no gnuplot)\n"
	    "      --title TEXT    the chart's title\n"
	    "      --max-rows N    at most N rows, the most leaked and latest "
	    "first (50)\n"
	    "      --utc           times in UTC, not local time (see --tz)\n"
	    "      --config FILE   settings (YAML): tolerance, GPU totals, "
	    "task names\n"
	    "      --tasks FILE    tasks of a device-only log: CSV "
	    "name,gpu,start,end or YAML\n"
	    "      --tolerance MIB how close memory must come back (64)\n"
	    "  -q, --quiet         print only problems on stderr\n"
	    "  -v, --verbose       say more\n"
	    "  -h, --help          print this help and exit\n"
	    "  -V, --version       print the version and exit\n"
	    "\nRead options (see gpumem read --help): --format, --fields, "
	    "--interval,\n--start, --tz, --host, --gpu, --pid, --since, "
	    "--until, --window, --strict.\n\n"
	    "Exit status: 0 success, 2 trouble (usage, unreadable input, "
	    "gnuplot missing\nor failed).\n");
	exit(close_stdout());
}

int
main(int argc, char *argv[])
{
	struct readopts opt;
	struct config cfg;
	struct collect_opts co;
	struct collection c;
	struct chart ch;
	struct outfile out;
	struct sbuf script = SBUF_INIT;
	const struct task **rows = NULL;
	const char *output = NULL, *cfgpath = NULL, *tasks = NULL;
	int ch_opt, term = -1, script_only = 0, text = 0, sized = 0;
	int tol = -1, status;
	size_t maxrows = MAXROWS, n, hidden;
	unsigned w = 0, h = 0, width = 0;

	util_init(argv[0]);
	readopts_init(&opt);
	config_init(&cfg);
	memset(&ch, 0, sizeof(ch));
	memset(&c, 0, sizeof(c));
	while ((ch_opt = getopt_long(argc, argv, "ho:qT:vV", longopts,
	    NULL)) != -1)
		switch (ch_opt) {
		case 'h':
			usage(stdout, EXIT_OK);
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			verbosity = 0;
			break;
		case 'T':
			if ((term = chart_term_name(optarg)) < 0)
				die("--terminal: '%s': expected png, svg, pdf "
				    "or dumb", optarg);
			break;
		case 'v':
			verbosity = 2;
			opt.summaries = 1;
			break;
		case 'V':
			print_version();
			break;
		case OPT_CONFIG:
			cfgpath = optarg;
			break;
		case OPT_MAXROWS:
			maxrows = (size_t)opt_u64("--max-rows", optarg, 1,
			    100000);
			break;
		case OPT_SCRIPT:
			script_only = 1;
			break;
		case OPT_SIZE:
			if (chart_parse_size(optarg, &w, &h) < 0)
				die("--size: '%s': expected WIDTHxHEIGHT "
				    "(allowed 20x10-20000x20000)", optarg);
			sized = 1;
			break;
		case OPT_TASKS:
			tasks = optarg;
			break;
		case OPT_TEXT:
			text = 1;
			break;
		case OPT_TITLE:
			ch.title = optarg;
			break;
		case OPT_TOLERANCE:
			tol = (int)opt_u64("--tolerance", optarg, 0, 1U << 30);
			break;
		case OPT_UTC:
			ch.utc = 1;
			break;
		case OPT_WIDTH:
			width = (unsigned)opt_u64("--width", optarg, 40, 1000);
			break;
		default:
			if (!readopt_parse(&opt, ch_opt, optarg))
				usage(stderr, EXIT_TROUBLE);
		}
	argc -= optind;
	argv += optind;
	if (output != NULL && strcmp(output, "-") == 0)
		output = NULL;
	if (text && (script_only || term >= 0))
		die("--text draws without gnuplot: not with --script or "
		    "--terminal");
	if (!text && term < 0 && output != NULL &&
	    (term = chart_term_of_path(output)) < 0)
		die("%s: cannot tell the chart format from the name: use .png, "
		    ".svg or .pdf, --terminal, or --text", output);
	if (term < 0)
		term = isatty(STDOUT_FILENO) ? TERM_DUMB : TERM_PNG;
	if (!text && (term == TERM_PNG || term == TERM_PDF) && !script_only &&
	    output == NULL && isatty(STDOUT_FILENO))
		die("standard output is a terminal: not writing a %s there "
		    "(use -o FILE, or --text)", term == TERM_PNG ? "PNG" :
		    "PDF");
	if (!text && !script_only && !gnuplot_available())
		die("%s", GNUPLOT_MISSING);
	ch.term = (enum chart_term)term;
	ch.prog = progname;
	status = EXIT_TROUBLE;
	if (cfgpath != NULL && config_load(&cfg, cfgpath) < 0)
		goto out;
	if (tol >= 0)
		cfg.tolerance = (uint32_t)tol;
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_TASKTAB;
	co.needs = "a task table, a record stream or a log";
	co.keep_tasks = 1;
	co.ro = &opt;
	co.cfg = &cfg;
	co.declared = tasks;
	status = collect_read(&c, argv, (size_t)argc, &co);
	if (c.kind == 0)
		goto out;
	n = chart_gantt_rows(&c.tasks, 0, NULL, 0, maxrows, &rows, &hidden);
	if (outfile_open(&out, output) < 0) {
		status = EXIT_TROUBLE;
		goto out;
	}
	if (text) {
		unsigned rowsz;

		if (width == 0) {
			chart_ttysize(STDOUT_FILENO, &width, &rowsz);
			if (output != NULL || !isatty(STDOUT_FILENO))
				width = 80;
		}
		if (textgantt_write(out.f, rows, n, hidden, c.first, c.last,
		    width, ch.utc, c.nhosts) < 0) {
			msg("%s: write error:", output != NULL ? output :
			    "standard output");
			outfile_abort(&out);
			status = EXIT_TROUBLE;
			goto out;
		}
	} else {
		if (sized) {
			ch.width = w;
			ch.height = h;
		} else
			chart_default_size(&ch, 1, n);
		chart_gantt(&script, &ch, rows, n, hidden, c.first, c.last,
		    c.nhosts);
		if (script_only) {
			if (ewrite_file(out.f, script.buf, script.len) < 0) {
				msg("%s: write error:", output != NULL ?
				    output : "standard output");
				outfile_abort(&out);
				status = EXIT_TROUBLE;
				goto out;
			}
		} else if (gnuplot_run(script.buf, script.len, out.f,
		    output != NULL ? output : "standard output", NULL) < 0) {
			outfile_abort(&out);
			status = EXIT_TROUBLE;
			goto out;
		}
	}
	if (outfile_commit(&out) < 0)
		status = EXIT_TROUBLE;
	else if (output == NULL)
		status = exit_worst(status, close_stdout());
out:
	free(rows);
	sbuf_release(&script);
	collection_release(&c);
	config_release(&cfg);
	idset_release(&opt.gpus);
	idset_release(&opt.pids);
	return status;
}
