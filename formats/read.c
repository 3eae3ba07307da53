/* SPDX-License-Identifier: ISC */
/*
 * read.c: gpumem-read, logs and captures in, the record stream out.
 *
 * Every input's format is detected from its content (plain or gzip), the
 * inputs are merged in time order, and one summary line per input goes to
 * stderr at the end.  With --live, records go out as they become final
 * and the output is flushed whenever reading would wait.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "input.h"
#include "readopt.h"
#include "rec.h"
#include "stream.h"
#include "util.h"

static const struct cmd_opt opts[] = {
	{'t', "type", "FMT", "csv: the record stream (default); json: one "
	    "JSON object\na line (NDJSON)"},
	{OPT_LIVE, "live", NULL, "inputs that never end: records go out as "
	    "they arrive"},
	{OPT_LAG, "lag", "DUR", "live: how long a record waits for earlier "
	    "ones (0, captures 1s; grows)"},
	{'v', "verbose", NULL, "say more (skipped sections, added records)"},
	{0, NULL, NULL, NULL}
};

static int json;	/* -t json */

static int
option(void *ctx, int val, const char *arg)
{
	(void)ctx;
	if (val != 't')
		return 0;
	if (strcmp(arg, "csv") == 0)
		json = 0;
	else if (strcmp(arg, "json") == 0)
		json = 1;
	else
		die("--type: '%s': expected csv or json", arg);
	return 1;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [--format NAME] [--fields LIST] [--interval DUR] "
	    "[--start TIME]\n[--tz ZONE] [--host NAME] [--gpu LIST] "
	    "[--pid LIST] [--since TIME]\n[--until TIME] [--window N] "
	    "[--strict] [--filter EXPR] [--port N]\n[--live] [--lag DUR] "
	    "[-t csv|json] [-o FILE] [FILE ...]",
	.about = "Read GPU memory telemetry (nvidia-smi logs, GMEM captures, "
	    "gpumem record\nstreams, plain or gzip) and write one record "
	    "stream in time order.  With no\nFILE, or when FILE is -, read "
	    "standard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, --strict)",
	.flags = CMD_OUTPUT | CMD_CSV | CMD_READ | CMD_READHELP | CMD_SUMMARIES,
	.option = option,
	.run = run,
};

/*
 * Live: reading is about to wait for an input, so what is written so far
 * goes out now.  A failed output ends the inputs: the end says why.
 */
static int
flush_out(void *arg)
{
	struct recw *w = arg;

	/* Not the header alone: a run that reads nothing writes nothing. */
	if (w->count == 0)
		return 0;
	return recw_flush(w) < 0;
}

/* The signals that end a live read, and what each did before. */
#define NSTOPS 3
static const int stop_sig[NSTOPS] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction stop_was[NSTOPS];
static volatile sig_atomic_t stopping;

/*
 * The first SIGINT, SIGTERM or SIGHUP ends the inputs where they are:
 * what had come is still read and every record held for --lag written,
 * the summaries are printed and -o's file committed, as at the inputs'
 * end.  A second one does what the signal did before we took it: the
 * run ends at once, and -o's file is not written (its temporary file
 * goes), since half a buffered write is no record stream.
 */
static void
on_stop(int sig)
{
	int i;

	if (!stopping) {
		stopping = 1;
		input_end_all();
		return;
	}
	for (i = 0; i < NSTOPS; i++)
		if (stop_sig[i] == sig)
			sigaction(sig, &stop_was[i], NULL);
	raise(sig);	/* blocked until we return, then as before */
}

/*
 * Take the stopping signals, after -o's file is open (its clean-up is
 * what the second one runs).  One ignored when we started (a background
 * job's SIGINT, nohup's SIGHUP) stays ignored.  SA_RESTART, so that a
 * write to a slow pipe is not cut by the signal: a read waiting for an
 * input ends anyway (see input_end_all).
 */
static void
catch_stops(void)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSTOPS; i++)
		if (sigaction(stop_sig[i], NULL, &stop_was[i]) == 0 &&
		    stop_was[i].sa_handler != SIG_IGN)
			sigaction(stop_sig[i], &sa, NULL);
}

/*
 * The tables gpumem record keeps beside the logs (procs.csv, holders.csv)
 * are no records: a directory holding them is said, since what reads the
 * stream from a pipe cannot know they were left behind.
 */
static void
say_tables(char *const *paths, size_t n)
{
	static const char *const name[2] = {"procs.csv", "holders.csv"};
	struct sbuf path = SBUF_INIT;
	size_t i, k, found;

	for (i = 0; i < n; i++) {
		if (!stream_is_dir(paths[i]))
			continue;
		for (found = 0, k = 0; k < 2; k++) {
			sbuf_reset(&path);
			sbuf_printf(&path, "%s/%s", paths[i], name[k]);
			found |= (size_t)(access(path.buf, F_OK) == 0) << k;
		}
		if (found != 0)
			warnmsg("%s: %s%s%s %s not in the record stream: give "
			    "the directory itself to tasks, check, gantt or "
			    "report for its exact exits and device holders",
			    paths[i], found & 1 ? name[0] : "", found == 3 ?
			    " and " : "", found & 2 ? name[1] : "", found == 3 ?
			    "are" : "is");
	}
	sbuf_release(&path);
}

/* The inputs out as one stream (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct stream *st;
	const struct rec *r;
	struct recw w;
	FILE *f;
	int status, werr = 0;

	if ((f = cmd_output(c)) == NULL) {
		c->how = CMD_DISCARD;
		return EXIT_TROUBLE;
	}
	recw_init(&w, f);
	w.json = json;
	if (c->ro.live != LIVE_OFF) {
		input_set_wait_hook(flush_out, &w);
		catch_stops();
	}
	say_tables(c->argv, (size_t)c->argc);
	st = stream_open(c->argv, (size_t)c->argc, &c->ro);
	while ((r = stream_next(st)) != NULL)
		if (recw_put(&w, r) < 0) {
			werr = 1;
			break;
		}
	status = stream_close(st);
	/*
	 * Nothing could be read and something failed: write nothing, not
	 * even the header, so that a pipe's next tool sees no stream at all.
	 * With -o, the output is kept even when an input failed: it holds
	 * everything that could be read, and the status says the rest.
	 */
	if (status == EXIT_TROUBLE && w.count == 0 && !werr)
		c->how = CMD_DISCARD;
	else if (werr || recw_flush(&w) < 0)
		c->how = CMD_WRITE_ERROR;
	recw_release(&w);
	return status;
}

int
main(int argc, char *argv[])
{
	return cmd_main(&cmd, argc, argv);
}
