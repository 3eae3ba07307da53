/* SPDX-License-Identifier: ISC */
/*
 * plot.c: gpumem-plot, a record stream (or a usage curve) in, a time-series
 * chart out: per GPU, memory in use, attributed and unattributed, the
 * total as a ceiling, each task's end and the time its memory stayed held,
 * leaked memory shaded.  Drawn by gnuplot; large inputs are reduced to a
 * few points per pixel column before gnuplot sees them (series.h).
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
#include "util.h"

#define MARKS 12		/* tasks marked per GPU by default */

enum {
	OPT_CONFIG = OPT_READ_LAST,
	OPT_MARKS,
	OPT_SCRIPT,
	OPT_SIZE,
	OPT_TASKS,
	OPT_TITLE,
	OPT_TOLERANCE,
	OPT_UTC
};

static const struct option longopts[] = {
	READOPT_LONGOPTS,
	{"config", required_argument, NULL, OPT_CONFIG},
	{"marks", required_argument, NULL, OPT_MARKS},
	{"script", no_argument, NULL, OPT_SCRIPT},
	{"size", required_argument, NULL, OPT_SIZE},
	{"tasks", required_argument, NULL, OPT_TASKS},
	{"terminal", required_argument, NULL, 'T'},
	{"title", required_argument, NULL, OPT_TITLE},
	{"tolerance", required_argument, NULL, OPT_TOLERANCE},
	{"utc", no_argument, NULL, OPT_UTC},
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
	fprintf(f, "usage: %s [-qv] [--script] [-T png|svg|pdf|dumb] "
	    "[--size WxH] [--title TEXT]\n"
	    "       [--marks N] [--utc] [--config FILE] [--tasks FILE] "
	    "[--tolerance MIB]\n"
	    "       [-o FILE] [read options] [FILE ...]\n", progname);
	if (status != EXIT_OK) {
		fprintf(f, "Try '%s --help' for more information.\n",
		    progname);
		exit(status);
	}
	fprintf(f, "\nDraw GPU memory over time from a record stream (or "
	    "anything gpumem read\nreads, or the CSV of gpumem usage): per "
	    "GPU, memory in use, the part live\nprocesses hold (attributed), "
	    "the part no live process owns (unattributed)\nand the total; "
	    "each task's end, the time its memory stayed held after it,\n"
	    "and leaked memory shaded.  gnuplot draws it.  With no FILE, or "
	    "when FILE\nis -, read standard input.\n\n"
	    "  -o, --output FILE   write to FILE: .png, .svg or .pdf picks the "
	    "terminal\n"
	    "  -T, --terminal TERM png, svg, pdf or dumb (text); default: "
	    "dumb on a\n"
	    "                      terminal, else png\n"
	    "      --size WxH      pixels (dumb: characters); default 1200 "
	    "wide, 300 a GPU\n"
	    "      --script        write the gnuplot script and its data "
	    "instead (no gnuplot)\n"
	    "      --title TEXT    the chart's title\n"
	    "      --marks N       tasks marked per GPU, the most leaked and "
	    "latest first (12)\n"
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
	const char *output = NULL, *cfgpath = NULL, *tasks = NULL;
	int ch_opt, term = -1, script_only = 0, sized = 0, tol = -1, status;
	size_t marks = MARKS, npoints;
	unsigned w = 0, h = 0;

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
		case OPT_MARKS:
			marks = (size_t)opt_u64("--marks", optarg, 0, 1000);
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
		case OPT_TITLE:
			ch.title = optarg;
			break;
		case OPT_TOLERANCE:
			tol = (int)opt_u64("--tolerance", optarg, 0, 1U << 30);
			break;
		case OPT_UTC:
			ch.utc = 1;
			break;
		default:
			if (!readopt_parse(&opt, ch_opt, optarg))
				usage(stderr, EXIT_TROUBLE);
		}
	argc -= optind;
	argv += optind;
	if (output != NULL && strcmp(output, "-") == 0)
		output = NULL;
	if (term < 0 && output != NULL &&
	    (term = chart_term_of_path(output)) < 0)
		die("%s: cannot tell the chart format from the name: use .png, "
		    ".svg or .pdf, or --terminal", output);
	if (term < 0)
		term = isatty(STDOUT_FILENO) ? TERM_DUMB : TERM_PNG;
	if ((term == TERM_PNG || term == TERM_PDF) && !script_only &&
	    output == NULL && isatty(STDOUT_FILENO))
		die("standard output is a terminal: not writing a %s there "
		    "(use -o FILE)", term == TERM_PNG ? "PNG" : "PDF");
	if (!script_only && !gnuplot_available())
		die("%s", GNUPLOT_MISSING);
	ch.term = (enum chart_term)term;
	ch.prog = progname;
	status = EXIT_TROUBLE;
	if (cfgpath != NULL && config_load(&cfg, cfgpath) < 0)
		goto out;
	if (tol >= 0)
		cfg.tolerance = (uint32_t)tol;
	if (sized) {
		ch.width = w;
		ch.height = h;
	} else
		chart_default_size(&ch, 0, 1);
	memset(&co, 0, sizeof(co));
	co.accept = COLLECT_RECORDS | COLLECT_USAGE;
	co.needs = "a record stream, a log or a usage curve";
	/* A bucket per pixel column (character in dumb) of the plot area. */
	co.width = ch.width;
	co.marks = marks;
	co.ro = &opt;
	co.cfg = &cfg;
	co.declared = tasks;
	status = collect_read(&c, argv, (size_t)argc, &co);
	if (c.kind == 0)
		goto out;
	if (!sized) {
		size_t i, n = 0;

		for (i = 0; i < c.ng; i++)
			if (c.g[i]->nsamples > 0)
				n++;
		chart_default_size(&ch, 0, n);
	}
	ch.notasks = c.kind == COLLECT_USAGE;
	npoints = chart_usage(&script, &ch, c.g, c.ng, c.first, c.last,
	    c.nhosts);
	note("%zu GPU%s, %zu points reach gnuplot", c.ng, c.ng == 1 ? "" : "s",
	    npoints);
	if (outfile_open(&out, output) < 0) {
		status = EXIT_TROUBLE;
		goto out;
	}
	if (script_only) {
		if (ewrite_file(out.f, script.buf, script.len) < 0) {
			msg("%s: write error:", output != NULL ? output :
			    "standard output");
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
	if (outfile_commit(&out) < 0)
		status = EXIT_TROUBLE;
	else if (output == NULL)
		status = exit_worst(status, close_stdout());
out:
	sbuf_release(&script);
	collection_release(&c);
	config_release(&cfg);
	idset_release(&opt.gpus);
	idset_release(&opt.pids);
	return status;
}
