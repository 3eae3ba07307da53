/* SPDX-License-Identifier: ISC */
/*
 * tasks.c: gpumem-tasks, the record stream in, one row per task out: when
 * it held memory, how long its memory stayed occupied after it ended, and
 * what never came back.  See analyze/engine/engine.h for the definitions.
 */
#include <sys/stat.h>

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
	    "  -t, --table FMT     csv (default), text, md or json\n"
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

/* Declare a life of a process listed N/A to the engine of the next pass. */
static void
declare_life(void *ctx, const char *host, uint32_t gpu, uint32_t pid,
    const char *name, uint64_t start, uint64_t end)
{
	engine_declare_estimated(ctx, host, gpu, pid, name, start, end);
}

/* Whether every input can be read again: files and directories, no stdin. */
static int
rereadable(char *const *paths, int n)
{
	struct stat sb;
	int i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 || stat(paths[i], &sb) < 0 ||
		    !(S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)))
			return 0;
	return 1;
}

/*
 * One pass over the inputs, the table written to f.  prev: the engine of
 * a pass that found processes listed with their memory N/A, declared to
 * this one as estimated tasks, or NULL.  Return the stream's status, or
 * -1 when the --tasks file could not be read; *ep is the engine.
 */
static int
pass(char **paths, int n, const struct readopts *opt,
    const struct config *cfg, const char *tasks, FILE *f, int fmt, int utc,
    struct ctx *c, struct engine *prev, struct engine **ep)
{
	struct engine_cb cb;
	struct stream *st;
	const struct rec *r;

	memset(c, 0, sizeof(*c));
	cb.sample = NULL;
	cb.task = on_task;
	cb.ctx = c;
	*ep = engine_new(cfg, &cb);
	if (tasks != NULL && tasktab_declare(tasks, *ep) < 0)
		return -1;
	if (prev != NULL)
		engine_unlisted(prev, declare_life, *ep);
	c->w = tasktab_open(f, (enum tasktab_fmt)fmt, utc);
	st = stream_open(paths, (size_t)n, opt);
	while ((r = stream_next(st)) != NULL)
		engine_put(*ep, r);
	engine_end(*ep);
	if (tasktab_close(c->w) < 0)
		c->werr = 1;
	return stream_close(st);
}

int
main(int argc, char *argv[])
{
	struct readopts opt;
	struct config cfg;
	struct outfile out;
	struct engine *e;
	struct ctx c;
	FILE *mf;
	char *mbuf = NULL;
	size_t mlen = 0, nna;
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
				die("--table: '%s': expected csv, text, md or "
				    "json", optarg);
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
	if (outfile_open(&out, output) < 0)
		goto out;
	/*
	 * The table of the first pass is kept until the end: a second pass
	 * replaces it when processes were listed with their memory N/A.
	 */
	if ((mf = open_memstream(&mbuf, &mlen)) == NULL)
		die("memory:");
	status = pass(argv, argc, &opt, &cfg, tasks, mf, fmt, utc, &c, NULL,
	    &e);
	if (fclose(mf) != 0)
		die("memory:");
	if (status < 0) {
		outfile_abort(&out);
		status = EXIT_TROUBLE;
		goto out;
	}
	nna = engine_unlisted(e, NULL, NULL);
	if (nna > 0 && rereadable(argv, argc)) {
		struct engine *e2;
		int v = verbosity, st2;

		warnmsg("%zu processes were listed with their memory N/A "
		    "(Windows WDDM gives no per-process memory): their tasks "
		    "are estimated from their lives and the device's usage "
		    "(note 'estimated')", nna);
		/* The inputs said what they had to say in the first pass. */
		verbosity = 0;
		st2 = pass(argv, argc, &opt, &cfg, tasks, out.f, fmt, utc, &c,
		    e, &e2);
		verbosity = v;
		engine_free(e);
		e = e2;
		status = exit_worst(status, st2 < 0 ? EXIT_TROUBLE : st2);
	} else {
		if (nna > 0)
			warnmsg("%zu processes were listed with their memory "
			    "N/A (Windows WDDM gives no per-process memory): "
			    "their tasks are estimated from a second reading, "
			    "which standard input cannot give: give the "
			    "files", nna);
		if (mlen > 0 && fwrite(mbuf, 1, mlen, out.f) != mlen)
			c.werr = 1;
	}
	free(mbuf);
	mbuf = NULL;
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
	free(mbuf);
	engine_free(e);
	config_release(&cfg);
	idset_release(&opt.gpus);
	idset_release(&opt.pids);
	return status;
}
