/* SPDX-License-Identifier: ISC */
/*
 * read.c: gpumem-read, logs and captures in, the record stream out.
 *
 * Every input's format is detected from its content (plain or gzip), the
 * inputs are merged in time order, and one summary line per input goes to
 * stderr at the end.  With --live, records go out as they become final
 * and the output is flushed whenever reading would wait.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "readopt.h"
#include "rec.h"
#include "stream.h"
#include "util.h"

static const struct option longopts[] = {
	READOPT_LONGOPTS,
	READOPT_LIVE_LONGOPTS,
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
	fprintf(f, "usage: %s [-qv] [--format NAME] [--fields LIST] "
	    "[--interval DUR] [--start TIME]\n"
	    "       [--tz ZONE] [--host NAME] [--gpu LIST] [--pid LIST] "
	    "[--since TIME]\n"
	    "       [--until TIME] [--window N] [--strict] [--filter EXPR] "
	    "[--port N]\n"
	    "       [--live] [--lag DUR] [-o FILE] [FILE ...]\n", progname);
	if (status != EXIT_OK) {
		fprintf(f, "Try '%s --help' for more information.\n",
		    progname);
		exit(status);
	}
	fprintf(f, "\nRead GPU memory telemetry (nvidia-smi logs, GMEM "
	    "captures, gpumem record\nstreams, plain or gzip) and write "
	    "one record stream in time order.  With no\nFILE, or when FILE "
	    "is -, read standard input.\n\n"
	    "  -o, --output FILE  write to FILE (replaced only when all "
	    "went well)\n"
	    "      --live         inputs that never end: records go out as "
	    "they arrive\n"
	    "      --lag DUR      live: how long a record waits for earlier "
	    "ones (0)\n"
	    "  -q, --quiet        print only problems on stderr\n"
	    "  -v, --verbose      say more (skipped sections, added "
	    "records)\n"
	    "  -h, --help         print this help and exit\n"
	    "  -V, --version      print the version and exit\n"
	    "%s\n"
	    "Exit status: 0 success, 2 trouble (usage, unreadable input, "
	    "--strict).\n", readopt_help);
	exit(close_stdout());
}

/*
 * Live: reading is about to wait for an input, so what is written so far
 * goes out now.  A failed output ends the inputs: the end says why.
 */
static int
flush_out(void *arg)
{
	struct recw *w = arg;

	return recw_flush(w) < 0;
}

int
main(int argc, char *argv[])
{
	struct readopts opt;
	struct outfile out;
	struct stream *st;
	const struct rec *r;
	struct recw w;
	const char *output = NULL;
	int ch, status, werr = 0;

	util_init(argv[0]);
	readopts_init(&opt);
	opt.summaries = 1;
	while ((ch = getopt_long(argc, argv, "ho:qvV", longopts, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(stdout, EXIT_OK);
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			verbosity = 0;
			opt.summaries = 0;
			break;
		case 'v':
			verbosity = 2;
			break;
		case 'V':
			print_version();
			break;
		default:
			if (!readopt_parse(&opt, ch, optarg))
				usage(stderr, EXIT_TROUBLE);
		}
	argc -= optind;
	argv += optind;

	if (outfile_open(&out, output) < 0) {
		idset_release(&opt.gpus);
		idset_release(&opt.pids);
		return EXIT_TROUBLE;
	}
	recw_init(&w, out.f);
	if (opt.live != LIVE_OFF)
		input_set_wait_hook(flush_out, &w);
	st = stream_open(argv, (size_t)argc, &opt);
	while ((r = stream_next(st)) != NULL)
		if (recw_put(&w, r) < 0) {
			werr = 1;
			break;
		}
	if (!werr && recw_flush(&w) < 0)
		werr = 1;
	recw_release(&w);
	status = stream_close(st);
	idset_release(&opt.gpus);
	idset_release(&opt.pids);
	if (werr) {
		msg("%s: write error:", output != NULL ? output :
		    "standard output");
		outfile_abort(&out);
		return EXIT_TROUBLE;
	}
	if (outfile_commit(&out) < 0)
		return EXIT_TROUBLE;
	/*
	 * With -o, the output is kept even when an input failed: it holds
	 * everything that could be read, and the status says the rest.
	 */
	if (output == NULL)
		status = exit_worst(status, close_stdout());
	return status;
}
