/* SPDX-License-Identifier: ISC */
/*
 * tasks.c: gpumem-tasks, the record stream in, one row per task out: when
 * it held memory, how long its memory stayed occupied after it ended, and
 * what never came back.  See analyze/engine/engine.h for the definitions.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "engine.h"
#include "gtime.h"
#include "readopt.h"
#include "stream.h"
#include "tasktab.h"
#include "util.h"

enum {
	OPT_CONFIG = OPT_READ_LAST,
	OPT_TASKS,
	OPT_TOLERANCE,
	OPT_UTC
};

static const struct option longopts[] = {
	READOPT_LONGOPTS,
	{"config", required_argument, NULL, OPT_CONFIG},
	{"tasks", required_argument, NULL, OPT_TASKS},
	{"tolerance", required_argument, NULL, OPT_TOLERANCE},
	{"utc", no_argument, NULL, OPT_UTC},
	{"output", required_argument, NULL, 'o'},
	{"table", required_argument, NULL, 't'},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0}
};

static void
usage(FILE *f, int status)
{
	fprintf(f, "usage: %s [-qv] [-t csv|text|md|json] [--config FILE] "
	    "[--tasks FILE]\n"
	    "       [--tolerance MIB] [--utc] [-o FILE] [read options] "
	    "[FILE ...]\n", progname);
	if (status != EXIT_OK) {
		fprintf(f, "Try '%s --help' for more information.\n",
		    progname);
		exit(status);
	}
	fprintf(f, "\nFind the tasks in a record stream (or in anything gpumem "
	    "read reads): one row\nper life of a process on a GPU, with its "
	    "peak and held memory, when its\nmemory came back after it ended "
	    "(release, release_delay_s) and what never\ndid (leaked_mib).  "
	    "With no FILE, or when FILE is -, read standard input.\n\n"
	    "  -t, --table FMT     csv (default), text, md, json or openmetrics\n"
	    "      --config FILE   settings (YAML): tolerance, GPU totals, "
	    "task names\n"
	    "      --tasks FILE    tasks of a device-only log: CSV "
	    "name,gpu,start,end or YAML\n"
	    "      --tolerance MIB how close memory must come back (64)\n"
	    "      --utc           text, md, json: times in UTC, not local\n"
	    "  -o, --output FILE   write to FILE (replaced only when all went "
	    "well)\n"
	    "  -q, --quiet         print only problems on stderr\n"
	    "  -v, --verbose       say more\n"
	    "  -h, --help          print this help and exit\n"
	    "  -V, --version       print the version and exit\n"
	    "\nRead options (see gpumem read --help): --format, --fields, "
	    "--interval,\n--start, --tz, --host, --gpu, --pid, --since, "
	    "--until, --window, --strict.\n\n"
	    "Exit status: 0 success, 2 trouble (usage, unreadable input, "
	    "bad configuration).\n");
	exit(close_stdout());
}

struct ctx {
	struct tasktab_w *w;
	int werr;
	struct task longest;	/* the released task with the longest delay */
	int have_longest;
};

static void
on_task(void *p, const struct task *t)
{
	struct ctx *c = p;

	if (t->status == TASK_RELEASED && (!c->have_longest ||
	    t->delay >= c->longest.delay)) {
		c->longest = *t;	/* its strings are not kept */
		c->have_longest = 1;
	}
	if (!c->werr && tasktab_put(c->w, t) < 0)
		c->werr = 1;
}

static void
summary(const struct engine_stats *st, const struct ctx *c)
{
	char r[96];
	struct sbuf sb = SBUF_INIT;

	sbuf_printf(&sb, "%llu tasks: %llu released",
	    (unsigned long long)st->tasks, (unsigned long long)st->released);
	if (st->released > 0 && c->have_longest)
		sbuf_printf(&sb, " (longest after %s)",
		    tasktab_delay_range(&c->longest, r));
	sbuf_printf(&sb, ", %llu leaked", (unsigned long long)st->leaked);
	if (st->leaked > 0)
		sbuf_printf(&sb, " (%llu MiB never came back%s)",
		    (unsigned long long)st->leaked_mib, st->unknown > 0 ?
		    ", some unknown" : "");
	sbuf_printf(&sb, ", %llu running", (unsigned long long)st->running);
	warnmsg("%s", sb.buf);
	sbuf_release(&sb);
}

int
main(int argc, char *argv[])
{
	struct readopts opt;
	struct config cfg;
	struct outfile out;
	struct engine_cb cb;
	struct engine *e;
	struct stream *st;
	struct ctx c;
	const struct rec *r;
	const char *output = NULL, *cfgpath = NULL, *tasks = NULL;
	int ch, fmt = TT_CSV, utc = 0, status, tol = -1;

	util_init(argv[0]);
	readopts_init(&opt);
	config_init(&cfg);
	while ((ch = getopt_long(argc, argv, "ho:qt:vV", longopts, NULL)) !=
	    -1)
		switch (ch) {
		case 'h':
			usage(stdout, EXIT_OK);
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			verbosity = 0;
			break;
		case 't':
			if ((fmt = tasktab_fmt(optarg)) < 0)
				die("--table: '%s': expected csv, text, md, "
				    "json or openmetrics", optarg);
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
		case OPT_TASKS:
			tasks = optarg;
			break;
		case OPT_TOLERANCE:
			tol = (int)opt_u64("--tolerance", optarg, 0, 1U << 30);
			break;
		case OPT_UTC:
			utc = 1;
			break;
		default:
			if (!readopt_parse(&opt, ch, optarg))
				usage(stderr, EXIT_TROUBLE);
		}
	argc -= optind;
	argv += optind;
	status = EXIT_TROUBLE;
	e = NULL;
	memset(&c, 0, sizeof(c));
	if (cfgpath != NULL && config_load(&cfg, cfgpath) < 0)
		goto out;
	if (tol >= 0)
		cfg.tolerance = (uint32_t)tol;
	cb.sample = NULL;
	cb.task = on_task;
	cb.ctx = &c;
	e = engine_new(&cfg, &cb);
	if (tasks != NULL && tasktab_declare(tasks, e) < 0)
		goto out;
	if (outfile_open(&out, output) < 0)
		goto out;
	c.w = tasktab_open(out.f, (enum tasktab_fmt)fmt, utc);
	st = stream_open(argv, (size_t)argc, &opt);
	while ((r = stream_next(st)) != NULL)
		engine_put(e, r);
	engine_end(e);
	if (tasktab_close(c.w) < 0)
		c.werr = 1;
	status = stream_close(st);
	engine_warnings(e);
	summary(engine_stats(e), &c);
	if (c.werr) {
		msg("%s: write error:", output != NULL ? output :
		    "standard output");
		outfile_abort(&out);
		status = EXIT_TROUBLE;
	} else if (outfile_commit(&out) < 0)
		status = EXIT_TROUBLE;
	else if (output == NULL)
		status = exit_worst(status, close_stdout());
out:
	engine_free(e);
	config_release(&cfg);
	idset_release(&opt.gpus);
	idset_release(&opt.pids);
	return status;
}
