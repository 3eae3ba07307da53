/* SPDX-License-Identifier: ISC */
/*
 * tasks.c: gpumem-tasks, the record stream in, one row per task out: when
 * it held memory, how long its memory stayed occupied after it ended, and
 * what never came back.  See analyze/engine/engine.h for the definitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "cfgopt.h"
#include "engine.h"
#include "gtime.h"
#include "readopt.h"
#include "recdir.h"
#include "stream.h"
#include "tasktab.h"
#include "util.h"

enum {
	OPT_UTC = OPT_CFG_LAST,
	OPT_ISO
};

static const struct cmd_opt opts[] = {
	{'t', "table", "FMT", "csv (default), text, md, json or openmetrics"},
	CFGOPT_OPTS,
	{OPT_UTC, "utc", NULL, "text, md: times in UTC, not local (JSON is\nalways in UTC)"},
	{OPT_ISO, "iso-times", NULL, "csv: last columns start_time, end_time, "
	    "release_time,\nISO 8601 in UTC"},
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct cfgopts cfg;
	int fmt;
	unsigned flags;		/* enum tasktab_flags */
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case 't':
		if ((o->fmt = tasktab_fmt(arg)) < 0)
			die("--table: '%s': expected csv, text, md, json or "
			    "openmetrics", arg);
		break;
	case OPT_UTC:
		o->flags |= TT_UTC;
		break;
	case OPT_ISO:
		o->flags |= TT_ISO;
		break;
	default:
		return 0;
	}
	return 1;
}

static int run(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [-t csv|text|md|json|openmetrics] [--config FILE] "
	    "[--tasks FILE]\n[--tolerance MIB] [--utc] [--iso-times] [-o FILE] "
	    "[read options] [FILE ...]",
	.about = "Find the tasks in a record stream (or in anything gpumem "
	    "read reads): one row\nper life of a process on a GPU, with its "
	    "peak and held memory, when its\nmemory came back after it ended "
	    "(release, release_delay_s) and what never\ndid (leaked_mib).  "
	    "Task tables of gpumem tasks are merged.  With no FILE,\nor "
	    "when FILE is -, read standard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, bad "
	    "configuration)",
	.flags = CMD_OUTPUT | CMD_CSV | CMD_READ,
	.option = option,
	.run = run,
};

struct ctx {
	struct tasktab_w *w;
	int werr;
	struct task longest;	/* the released task with the longest delay */
	int have_longest;
	struct recdir *rd;	/* gpumem record's procs and holders */
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

/*
 * A delay for people: the table's "25 s +-1 s" or "0 s (0-1 s)", from a
 * minute on its span first, "8 h 24 min 40 s +-10 s".  r holds 96
 * bytes.
 */
static char *
delay_words(const struct task *t, char *r)
{
	char cell[96];

	return gtime_secs_words(tasktab_delay_range(t, cell), r, 96);
}

static void
summary(const struct engine_stats *st, const struct ctx *c)
{
	char r[96], m[FMT_MIBSZ];
	struct sbuf sb = SBUF_INIT;

	sbuf_printf(&sb, "%llu tasks: %llu released",
	    (unsigned long long)st->tasks, (unsigned long long)st->released);
	if (st->released > 0 && c->have_longest)
		sbuf_printf(&sb, " (longest after %s)",
		    delay_words(&c->longest, r));
	sbuf_printf(&sb, ", %llu leaked", (unsigned long long)st->leaked);
	if (st->leaked > 0 && st->unknown == st->leaked)
		sbuf_adds(&sb, " (how much, unknown)");
	else if (st->leaked > 0)
		sbuf_printf(&sb, " (%s never came back%s)",
		    num_fmt_mib((int64_t)st->leaked_mib, m), st->unknown > 0 ?
		    ", some unknown" : "");
	sbuf_printf(&sb, ", %llu running", (unsigned long long)st->running);
	warnmsg("%s", sb.buf);
	sbuf_release(&sb);
}

/* The task table to f; in colour only on a terminal, never into -o FILE. */
static struct tasktab_w *
table_open(const struct opts *o, FILE *f)
{
	struct tasktab_w *w = tasktab_open(f, (enum tasktab_fmt)o->fmt,
	    o->flags | (cmd.output == NULL && msg_color_on(1) ? TT_COLOR : 0));
	unsigned cols, rows;

	/* A terminal's width, or $COLUMNS: never into -o FILE. */
	if (o->fmt == TT_TEXT && cmd.output == NULL &&
	    (isatty(STDOUT_FILENO) || getenv("COLUMNS") != NULL)) {
		msg_tty_size(STDOUT_FILENO, &cols, &rows);
		tasktab_width(w, cols);
	}
	return w;
}

/*
 * The reduce of a fleet: task tables written per node (gpumem tasks -o)
 * merged into one, rows as they come.  A task is what its node's run
 * found: nothing is judged again, so the merged table says what reading
 * all the logs at once says.  Each row goes through the engine's count
 * for the summary line.  Return EXIT_OK, or EXIT_TROUBLE when a table
 * could not be read (a bad row is trouble under --strict only).
 */
static int
merge_tables(const struct opts *o, FILE *f, struct ctx *c,
    struct engine_stats *st)
{
	struct tasklist l;
	size_t k;
	int i, status = EXIT_OK;

	memset(c, 0, sizeof(*c));
	memset(st, 0, sizeof(*st));
	c->w = table_open(o, f);
	for (i = 0; i < (cmd.argc > 0 ? cmd.argc : 1); i++) {
		if (tasktab_read(cmd.argc > 0 ? cmd.argv[i] : "-", &l,
		    cmd.ro.strict) < 0) {
			status = EXIT_TROUBLE;
			continue;
		}
		for (k = 0; k < l.n; k++) {
			const struct task *t = &l.t[k];

			st->tasks++;
			if (t->status == TASK_RELEASED)
				st->released++;
			else if (t->status == TASK_RUNNING)
				st->running++;
			else if (!t->has_leaked) {
				st->leaked++;
				st->unknown++;
			} else {
				st->leaked++;
				st->leaked_mib += t->leaked;
			}
			on_task(c, t);
		}
		tasktab_list_release(&l);	/* longest keeps no strings */
	}
	if (tasktab_close(c->w) < 0)
		c->werr = 1;
	return status;
}

/*
 * Whether the inputs are task tables (all of them), records (none), or
 * both (-1, said: give inputs of one kind).
 */
static int
tables_given(void)
{
	int i, n = 0;

	if (cmd.argc == 0)
		return tasktab_is_table("-");
	for (i = 0; i < cmd.argc; i++)
		n += tasktab_is_table(cmd.argv[i]);
	if (n > 0 && n < cmd.argc) {
		msg("task tables and logs at once: give task tables (they "
		    "are merged) or logs (they are analysed), not both");
		return -1;
	}
	return n > 0;
}

/* Declare a life of a process listed N/A to the engine of the next pass. */
static void
declare_life(void *ctx, const char *host, uint32_t gpu, uint32_t pid,
    const char *name, uint64_t start, uint64_t end, uint64_t from,
    uint64_t until)
{
	engine_declare_estimated(ctx, host, gpu, pid, name, start, end, from,
	    until);
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
pass(const struct opts *o, const struct config *cfg, FILE *f,
    struct ctx *c, struct engine *prev, struct engine **ep)
{
	struct engine_cb cb;
	struct stream *st;
	const struct rec *r;
	int status = EXIT_OK;

	recdir_free(c->rd);	/* the engine of the pass before is done */
	memset(c, 0, sizeof(*c));
	c->rd = recdir_load(cmd.argv, (size_t)cmd.argc, &status);
	cb.sample = NULL;
	cb.task = on_task;
	cb.ctx = c;
	*ep = engine_new(cfg, &cb);
	engine_recdir(*ep, c->rd);
	if (o->cfg.tasks != NULL && tasktab_declare(o->cfg.tasks, *ep) < 0)
		return -1;
	if (prev != NULL)
		engine_unlisted(prev, declare_life, *ep);
	c->w = table_open(o, f);
	st = stream_open(cmd.argv, (size_t)cmd.argc, &cmd.ro);
	while ((r = stream_next(st)) != NULL)
		engine_put(*ep, r);
	engine_end(*ep);
	if (tasktab_close(c->w) < 0)
		c->werr = 1;
	return exit_worst(stream_close(st), status);
}

/* Copy the first pass's table (tmp, rewound here) to f, unless it is f. */
static void
copy_table(FILE *tmp, FILE *f, struct ctx *c)
{
	char buf[65536];
	size_t n;

	if (tmp == f)
		return;
	rewind(tmp);
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
		if (fwrite(buf, 1, n, f) != n) {
			c->werr = 1;
			return;
		}
	if (ferror(tmp))
		die("the task table's temporary file: read error:");
}

/*
 * Processes listed with their memory N/A (Windows WDDM): read the inputs
 * again with each of their lives declared, judged from the device's
 * usage, the table written to f; else copy the first pass's table (tmp)
 * to f.  Return the status of the second pass, or EXIT_OK.
 */
static int
estimate(const struct opts *o, const struct config *cfg, FILE *f,
    struct ctx *c, struct engine **ep, FILE *tmp)
{
	struct engine *e2;
	size_t nna = engine_unlisted(*ep, NULL, NULL);
	int v = verbosity, st2;

	if (nna == 0 || !rereadable(cmd.argv, cmd.argc)) {
		if (nna > 0)
			warnmsg("%zu processes were listed with their memory "
			    "N/A (Windows WDDM gives no per-process memory, "
			    "nor dcgm-exporter to pods sharing a GPU): "
			    "their tasks are estimated from a second reading, "
			    "which standard input cannot give: give the "
			    "files", nna);
		copy_table(tmp, f, c);
		return EXIT_OK;
	}
	warnmsg("%zu processes were listed with their memory N/A (Windows "
	    "WDDM gives no per-process memory, nor dcgm-exporter to pods "
	    "sharing a GPU): their tasks are estimated "
	    "from their lives and the device's usage (note 'estimated')",
	    nna);
	/* The second table replaces the first where that was written. */
	if (tmp == f && (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    ftruncate(fileno(f), 0) != 0)) {
		c->werr = 1;
		return EXIT_TROUBLE;
	}
	/* The inputs said what they had to say in the first pass. */
	verbosity = 0;
	st2 = pass(o, cfg, f, c, *ep, &e2);
	verbosity = v;
	engine_free(*ep);
	*ep = e2;
	return st2 < 0 ? EXIT_TROUBLE : st2;
}

/* The task table of the inputs (the skeleton, cmd.h, calls it). */
static int
run(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct config cfg;
	struct engine *e = NULL;
	struct ctx ctx;
	FILE *f = NULL, *tmp = NULL;
	int status = EXIT_TROUBLE;

	c->how = CMD_DISCARD;
	memset(&ctx, 0, sizeof(ctx));
	if (cfgopt_load(&o->cfg, &cfg) < 0)
		goto out;
	if ((f = cmd_output(c)) == NULL)
		goto out;
	if ((status = tables_given()) != 0) {
		struct engine_stats st;

		if (status < 0) {
			status = EXIT_TROUBLE;
			goto out;
		}
		if (o->cfg.tasks != NULL)
			warnmsg("--tasks: the inputs are task tables: ignored");
		status = merge_tables(o, f, &ctx, &st);
		summary(&st, &ctx);
		c->how = ctx.werr ? CMD_WRITE_ERROR : CMD_COMMIT;
		goto out;
	}
	/*
	 * A second pass replaces the first's table when processes were
	 * listed with their memory N/A.  So the first is written where it
	 * can be taken back: into -o's own temporary file, else into one of
	 * ours (not into memory: it grows with the tasks).
	 */
	if (c->out.path != NULL && c->out.tmp != NULL)
		tmp = f;
	else if ((tmp = tmpfile()) == NULL)
		die("cannot make a temporary file for the task table:");
	status = pass(o, &cfg, tmp, &ctx, NULL, &e);
	if (tmp != f && (ctx.werr || fflush(tmp) != 0))
		die("the task table's temporary file: write error:");
	if (status < 0) {
		status = EXIT_TROUBLE;
		goto out;
	}
	/*
	 * Nothing could be read and something failed: write nothing, not
	 * even the header.
	 */
	if (status == EXIT_TROUBLE && engine_stats(e)->tasks == 0) {
		engine_warnings(e);
		summary(engine_stats(e), &ctx);
		goto out;
	}
	status = exit_worst(status, estimate(o, &cfg, f, &ctx, &e, tmp));
	engine_warnings(e);
	summary(engine_stats(e), &ctx);
	c->how = ctx.werr ? CMD_WRITE_ERROR : CMD_COMMIT;
out:
	if (tmp != NULL && tmp != f)
		fclose(tmp);
	engine_free(e);
	recdir_free(ctx.rd);
	config_release(&cfg);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o = {CFGOPTS_INIT, TT_CSV, 0};

	cmd.ctx = &o;
	cmd.sets[0] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
