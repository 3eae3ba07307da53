/* SPDX-License-Identifier: ISC */
/*
 * tasks.c: gpumem-tasks, the record stream in, one row per task out: when
 * it held memory, how long its memory stayed occupied after it ended, and
 * what never came back.  See analyze/engine/engine.h for the definitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cfgopt.h"
#include "engine.h"
#include "gtime.h"
#include "readopt.h"
#include "stream.h"
#include "tasktab.h"
#include "util.h"

enum {
	OPT_UTC = OPT_CFG_LAST
};

static const struct cmd_opt opts[] = {
	{'t', "table", "FMT", "csv (default), text, md, json or openmetrics"},
	CFGOPT_OPTS,
	{OPT_UTC, "utc", NULL, "text, md, json: times in UTC, not local"},
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct cfgopts cfg;
	int fmt, utc;
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
		o->utc = 1;
		break;
	default:
		return cfgopt_parse(&o->cfg, val, arg);
	}
	return 1;
}

static struct cmd cmd = {
	.synopsis = "[-qv] [-t csv|text|md|json|openmetrics] [--config FILE] "
	    "[--tasks FILE]\n[--tolerance MIB] [--utc] [-o FILE] "
	    "[read options] [FILE ...]",
	.about = "Find the tasks in a record stream (or in anything gpumem "
	    "read reads): one row\nper life of a process on a GPU, with its "
	    "peak and held memory, when its\nmemory came back after it ended "
	    "(release, release_delay_s) and what never\ndid (leaked_mib).  "
	    "With no FILE, or when FILE is -, read standard input.",
	.opts = opts,
	.exits = "0 success, 2 trouble (usage, unreadable input, bad "
	    "configuration)",
	.flags = CMD_OUTPUT | CMD_READ,
	.option = option,
};

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
	struct opts o = {CFGOPTS_INIT, TT_CSV, 0};
	struct config cfg;
	struct engine_cb cb;
	struct engine *e = NULL;
	struct stream *st;
	struct ctx c;
	const struct rec *r;
	FILE *f;
	int status = EXIT_TROUBLE;

	cmd.ctx = &o;
	cmd_start(&cmd, argc, argv);
	memset(&c, 0, sizeof(c));
	if (cfgopt_load(&o.cfg, &cfg) < 0)
		goto out;
	cb.sample = NULL;
	cb.task = on_task;
	cb.ctx = &c;
	e = engine_new(&cfg, &cb);
	if (o.cfg.tasks != NULL && tasktab_declare(o.cfg.tasks, e) < 0)
		goto out;
	if ((f = cmd_output(&cmd)) == NULL)
		goto out;
	c.w = tasktab_open(f, (enum tasktab_fmt)o.fmt, o.utc);
	st = stream_open(cmd.argv, (size_t)cmd.argc, &cmd.ro);
	while ((r = stream_next(st)) != NULL)
		engine_put(e, r);
	engine_end(e);
	if (tasktab_close(c.w) < 0)
		c.werr = 1;
	status = stream_close(st);
	engine_warnings(e);
	summary(engine_stats(e), &c);
out:
	engine_free(e);
	config_release(&cfg);
	return cmd_end(&cmd, status, c.werr ? CMD_WRITE_ERROR : CMD_COMMIT);
}
