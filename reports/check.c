/* SPDX-License-Identifier: ISC */
/*
 * check.c: gpumem-check, the CI gate: did any task of a GPU test run leak
 * memory or release it too slowly, and is the run worse than the last
 * good one?  A verdict on stderr, JUnit, Markdown and JSON reports, and
 * the exit status CI acts on.  The rules are in reports/ci/gates.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ciout.h"
#include "cmd.h"
#include "cfgopt.h"
#include "engine.h"
#include "gates.h"
#include "gtime.h"
#include "junit.h"
#include "readopt.h"
#include "recdir.h"
#include "stream.h"
#include "tasktab.h"
#include "usagecsv.h"
#include "util.h"

#define MAX_LINES 20		/* failures named on stderr */

enum {
	OPT_BASELINE = OPT_CFG_LAST,
	OPT_COMMAND_END,
	OPT_JSON,
	OPT_JUNIT,
	OPT_MARKDOWN,
	OPT_MAX_DELAY,
	OPT_MAX_LEAK,
	OPT_OPENMETRICS
};

static const struct cmd_opt opts[] = {
	{OPT_CONFIG, "config", "FILE", "rules (YAML): defaults, tasks, gpus, "
	    "baseline"},
	{OPT_MAX_LEAK, "max-leak", "MIB", "MiB a task may leak (0; instead of "
	    "defaults:)"},
	{OPT_MAX_DELAY, "max-delay", "SECONDS", "how soon memory must come "
	    "back (5, 2.5, 500ms)"},
	{OPT_BASELINE, "baseline", "FILE", "compare with the task table of an "
	    "earlier run"},
	{OPT_JUNIT, "junit", "FILE", "write JUnit XML: a suite per GPU, a case "
	    "per check"},
	{OPT_MARKDOWN, "markdown", "FILE", "write a summary for a pull request "
	    "or a CI job"},
	{OPT_JSON, "json", "FILE", "write the verdict, checks and tasks as "
	    "JSON"},
	{OPT_OPENMETRICS, "openmetrics", "FILE", "write metrics per GPU for "
	    "Prometheus (node_exporter's\ntextfile collector, the Pushgateway)"},
	{OPT_TASKS, "tasks", "FILE", "tasks of a device-only log (see gpumem "
	    "tasks)"},
	CFGOPT_TOLERANCE,
	{OPT_COMMAND_END, "command-end", "TIME", "when the recorded command "
	    "ended (a gpumem record\ndirectory's meta says it): tasks left "
	    "running fail"},
	{'q', "quiet", NULL, "no warnings: only problems and the verdict"},
	{0, NULL, NULL, NULL}
};

/* What the options ask for. */
struct opts {
	struct cfgopts cfg;
	const char *basepath;
	const char *junit, *markdown, *json, *openmetrics;
	struct limits lim;
	uint64_t cmd_end;
	int has_cmd_end;
};

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;

	switch (val) {
	case OPT_BASELINE:
		o->basepath = arg;
		break;
	case OPT_COMMAND_END:
		if (gtime_parse(arg, &o->cmd_end) < 0)
			die("--command-end: '%s': expected a time "
			    "(2026-01-01T00:01:00Z, @SECONDS, ns)", arg);
		o->has_cmd_end = 1;
		break;
	case OPT_JSON:
		o->json = arg;
		break;
	case OPT_JUNIT:
		o->junit = arg;
		break;
	case OPT_OPENMETRICS:
		o->openmetrics = arg;
		break;
	case OPT_MARKDOWN:
		o->markdown = arg;
		break;
	case OPT_MAX_DELAY:
		if (gtime_duration(arg, &o->lim.delay) < 0)
			die("--max-delay: '%s': expected seconds (5, 2.5, "
			    "500ms)", arg);
		o->lim.has_delay = 1;
		break;
	case OPT_MAX_LEAK:
		o->lim.leak = (uint32_t)num_opt_u64("--max-leak", arg, 0,
		    UINT32_MAX);
		o->lim.has_leak = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

static int check(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-qv] [--config FILE] [--max-leak MIB]\n"
	    "[--max-delay SECONDS] [--baseline FILE] [--junit FILE]\n"
	    "[--markdown FILE] [--json FILE] [--openmetrics FILE]\n"
	    "[--tasks FILE] [--tolerance MIB] [--command-end TIME] "
	    "[read options]\n[FILE ...]",
	.about = "The CI gate of a GPU test run: did a task leak memory or "
	    "release it too\nslowly, and is the run worse than a baseline?  "
	    "FILE is a record stream (or\nanything gpumem read reads) or a "
	    "task table of gpumem tasks.  With no FILE,\nor when FILE is -, "
	    "read standard input.  The verdict goes to standard error,\n"
	    "reports to the files named (- for standard output).",
	.opts = opts,
	.exits = "0 success (every gate held), 1 a gate failed, 2 trouble "
	    "(usage,\nunreadable input, bad configuration, a write error, "
	    "nothing judged)",
	.flags = CMD_READ,
	.option = option,
	.run = check,
};

static void
on_task(void *p, const struct task *t)
{
	run_task(p, t);
}

static void
on_sample(void *p, const struct sample *s)
{
	run_sample(p, s);
}

/* A row of a node's usage curve: a device sample of the run. */
static void
on_usage_row(void *p, const struct usagerow *u)
{
	struct sample s;

	memset(&s, 0, sizeof(s));
	s.ts = u->ts;
	s.host = u->host;
	s.gpu = u->gpu;
	s.usage = (uint32_t)u->lo[UC_USAGE];
	s.attributed = (uint32_t)u->lo[UC_ATTR];
	s.unattributed = u->lo[UC_UNATTR];
	run_sample(p, &s);
}

/*
 * A node's usage curve (gpumem usage, single samples) into r: what the
 * per-GPU gate needs of the device.  A curve of --every buckets has no
 * first and last sample to judge: refused.  Return 0, or -1 (said).
 */
static int
read_curve(struct run *r, const char *path)
{
	uint64_t every;

	if (usagecsv_read(path, 1, on_usage_row, r, &every) < 0)
		return -1;
	if (every != 0) {
		msg("%s: a usage curve of --every buckets: check needs the "
		    "single samples (gpumem usage without --every)", path);
		return -1;
	}
	return 0;
}

/*
 * Task tables, and the usage curves of their nodes, into r; return 0, or
 * -1 when one could not be read.  gpumem wrote them: a row that does not
 * read is damage, and a gate must not pass by leaving a task out, so it
 * is trouble (strict reading).  Without a curve the run has no device
 * samples (r->table).
 */
static int
read_tables(struct run *r, char **paths, int n)
{
	static char dash[] = "-";
	char *stdin_only[1] = {dash};
	struct tasklist l;
	int i, failed = 0, curves = 0;
	size_t k;

	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	for (i = 0; i < n; i++) {
		if (usagecsv_is_curve(paths[i])) {
			curves = 1;
			if (read_curve(r, paths[i]) < 0)
				failed = 1;
			continue;
		}
		if (tasktab_read(paths[i], &l, 1) < 0) {
			failed = 1;
			continue;
		}
		for (k = 0; k < l.n; k++)
			run_task(r, &l.t[k]);
		tasktab_list_release(&l);
	}
	r->table = !curves;
	return failed ? -1 : 0;
}

/*
 * A task table has no sampling interval of a task without a delay (a
 * leak, a running task): with its node's curve, take the GPU's, the mean
 * gap between its samples (the engine takes the median gap: the same for
 * a log sampled evenly).  Call after run_done(): tasks and GPUs are both
 * sorted by host and GPU.
 */
static void
fill_intervals(struct run *r)
{
	size_t i, g = 0;
	int c = 1;

	for (i = 0; i < r->tl.n; i++) {
		struct task *t = &r->tl.t[i];
		const struct gpuinfo *gi;

		while (g < r->ngpu && (c = gpumap_hostgpu_cmp(r->gpu[g].host,
		    r->gpu[g].gpu, t->host, t->gpu)) < 0)
			g++;
		if (g == r->ngpu)
			break;
		gi = &r->gpu[g];
		if (c != 0 || t->interval != 0 || gi->samples < 2)
			continue;
		t->interval = (gi->last_ts - gi->first_ts) / (gi->samples - 1);
	}
}

/*
 * The records of the inputs through the engine into r.  Return the
 * stream's status; an input without a single record is trouble too: a
 * gate must not pass on a recording that never happened.
 */
static int
read_stream(struct run *r, char **paths, int n, const struct readopts *opt,
    const struct config *cfg, const char *tasks)
{
	struct engine_cb cb = {on_sample, on_task, r};
	struct engine *e = engine_new(cfg, &cb);
	struct stream *st;
	const struct rec *rec;
	int status, collided, rdstatus = EXIT_OK;
	struct recdir *rd = recdir_load(paths, (size_t)n, &rdstatus);

	engine_recdir(e, rd);
	if (tasks != NULL && tasktab_declare(tasks, e) < 0) {
		engine_free(e);
		recdir_free(rd);
		return EXIT_TROUBLE;
	}
	st = stream_open(paths, (size_t)n, opt);
	while ((rec = stream_next(st)) != NULL)
		engine_put(e, rec);
	engine_end(e);
	/*
	 * Two recordings read as one GPU (said): what is judged there is
	 * in neither, so a verdict on it is trouble, not a failure.
	 */
	collided = stream_collided(st);
	status = stream_close(st);
	if (collided) {
		msg("two recordings were read as one GPU: its tasks and "
		    "leaks are in neither, the verdict is trouble");
		status = EXIT_TROUBLE;
	}
	engine_warnings(e);
	if (status == EXIT_OK && engine_stats(e)->records == 0) {
		msg("no records in the input: nothing to check");
		status = EXIT_TROUBLE;
	}
	engine_free(e);
	recdir_free(rd);
	return exit_worst(status, rdstatus);
}

/*
 * The recorded command's times from DIR/meta, as gpumem record writes it:
 * start_ns and end_ns (older recordings have only start and end, to the
 * millisecond: read those when they are all there is).  Return 0, 1 when
 * DIR has no meta, or -1 after a message when it does not read.
 */
static int
read_meta(const char *dir, struct limits *lim, char **from)
{
	struct sbuf path = SBUF_INIT;
	char *line = NULL, *val, *colon;
	size_t cap = 0, n;
	unsigned lineno = 0;
	int exact_start = 0, exact_end = 0, status = 0;
	uint64_t t;
	FILE *f;

	sbuf_printf(&path, "%s/meta", dir);
	if ((f = fopen(path.buf, "r")) == NULL) {
		if (errno == ENOENT) {
			sbuf_release(&path);
			return 1;
		}
		msg("%s: cannot open:", path.buf);
		sbuf_release(&path);
		return -1;
	}
	while (status == 0 && getline(&line, &cap, f) > 0) {
		int exact;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || (colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		val = colon + 1 + strspn(colon + 1, " \t");
		n = strlen(val);
		exact = strcmp(line, "start_ns") == 0 ||
		    strcmp(line, "end_ns") == 0;
		if (!exact && strcmp(line, "start") != 0 &&
		    strcmp(line, "end") != 0)
			continue;
		if (exact ? num_parse_u64(val, n, &t) < 0 : gtime_parse(val,
		    &t) < 0) {
			msg("%s:%u: %s: expected %s, got '%s'", path.buf,
			    lineno, line, exact ? "nanoseconds since the "
			    "epoch" : "a time", val);
			status = -1;
		} else if (line[0] == 's' && (exact || !exact_start)) {
			lim->cmd_start = t;
			lim->has_cmd_start = 1;
			exact_start |= exact;
		} else if (line[0] == 'e' && (exact || !exact_end)) {
			lim->cmd_end = t;
			lim->has_cmd_end = 1;
			exact_end |= exact;
		}
	}
	if (status == 0 && ferror(f)) {
		msg("%s: read error:", path.buf);
		status = -1;
	}
	fclose(f);
	free(line);
	if (status == 0 && !lim->has_cmd_end)
		warnmsg("%s: no end of the command: tasks it left running "
		    "are not judged", path.buf);
	*from = path.buf;
	return status;
}

/*
 * The command's times from the meta of the first gpumem record directory
 * among the inputs, as the stream reads them ("-" is standard input even
 * when a directory has that name).  Return 0, or -1 after a message.
 */
static int
command_times(char **paths, int n, struct limits *lim, char **from)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!stream_is_dir(paths[i]))
			continue;
		if (*from != NULL) {
			struct sbuf m = SBUF_INIT;

			sbuf_printf(&m, "%s/meta", paths[i]);
			if (access(m.buf, F_OK) == 0)
				warnmsg("%s: another recording: the command "
				    "times of %s are used", m.buf, *from);
			sbuf_release(&m);
			continue;
		}
		if (read_meta(paths[i], lim, from) < 0)
			return -1;
	}
	return 0;
}

/* The verdict on stderr: the failures, then one line. */
static void
verdict(const struct verdicts *vs)
{
	struct sbuf sb = SBUF_INIT;
	const char *v;
	size_t i, shown = 0;

	/* An unreadable input said why already; nothing judged says it here. */
	if (vs->nothing_judged)
		msg("%s", vs->v[0].msg);
	for (i = 0; i < vs->nv; i++) {
		if (vs->v[i].res != RES_FAIL)
			continue;
		if (shown++ == MAX_LINES) {
			msg("and %zu more failures (see the reports)",
			    vs->count[RES_FAIL] - MAX_LINES);
			break;
		}
		sbuf_reset(&sb);
		ciout_line(&sb, &vs->v[i]);
		msg("%s", sb.buf);
	}
	sbuf_reset(&sb);
	ciout_summary(&sb, vs);
	v = ciout_verdict(vs);
	msg_word(strcmp(v, "PASS") == 0 ? COLOR_GREEN : COLOR_RED, v, "%s",
	    sb.buf);
	sbuf_release(&sb);
}

/* One report to path; return 0, or -1 (message printed). */
static int
report(const char *path, int (*write)(FILE *, const struct verdicts *),
    const struct verdicts *vs)
{
	struct outfile out;

	if (path == NULL)
		return 0;
	if (outfile_open(&out, path) < 0)
		return -1;
	if (write(out.f, vs) < 0) {
		msg("%s: write error:", out.path != NULL ? out.path :
		    "standard output");
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out);
}

static int
is_stdin(const char *path)
{
	return path != NULL && strcmp(path, "-") == 0;
}

/*
 * Whether the reports and the baseline leave standard input and output
 * to one user each, and no report would replace an input or the
 * baseline: a usage error when not.
 */
static void
check_dashes(const struct cmd *c, const struct opts *o, int argc,
    char **argv)
{
	const char *rep[] = {o->junit, o->markdown, o->json, o->openmetrics};
	char *base[] = {(char *)o->basepath};
	int i;

	for (i = 0; i < 4; i++) {
		cmd_not_input(c, "a report", rep[i]);
		if (o->basepath != NULL &&
		    outfile_input(rep[i], base, 1) != NULL)
			die("%s: a report would replace the baseline: refused",
			    rep[i]);
	}

	if (is_stdin(o->junit) + is_stdin(o->markdown) + is_stdin(o->json) +
	    is_stdin(o->openmetrics) > 1)
		die("only one report can go to standard output");
	if (is_stdin(o->basepath)) {
		for (i = 0; i < argc && strcmp(argv[i], "-") != 0; i++)
			;
		if (argc == 0 || i < argc)
			die("--baseline: standard input is already the input");
	}
}

/* The baseline's task table into base; return 0, or -1 (said why). */
static int
read_baseline(struct run *base, const char *path)
{
	struct tasklist l;
	size_t k;

	if (tasktab_read(path, &l, 1) < 0) {
		msg("--baseline: expected the task table of an earlier run "
		    "(gpumem tasks)");
		return -1;
	}
	for (k = 0; k < l.n; k++)
		run_task(base, &l.t[k]);
	tasktab_list_release(&l);
	base->table = 1;
	run_done(base);
	return 0;
}

/* The status of a judged run: the gates, then each report written. */
static int
judge(struct verdicts *vs, const struct opts *o, int in_status)
{
	int status = in_status;

	gates_eval(vs);
	verdict(vs);
	if (vs->count[RES_FAIL] > 0)
		status = exit_worst(status, EXIT_NO);
	/* Nothing judged is trouble: a gate must not pass on nothing. */
	if (vs->count[RES_ERROR] > 0)
		status = exit_worst(status, EXIT_TROUBLE);
	/* Each report is written even when another one could not be. */
	if (report(o->junit, junit_write, vs) < 0)
		status = EXIT_TROUBLE;
	if (report(o->markdown, ciout_markdown, vs) < 0)
		status = EXIT_TROUBLE;
	if (report(o->json, ciout_json, vs) < 0)
		status = EXIT_TROUBLE;
	if (report(o->openmetrics, ciout_openmetrics, vs) < 0)
		status = EXIT_TROUBLE;
	return status;
}

/* The inputs judged (the skeleton, cmd.h, calls it). */
static int
check(struct cmd *c)
{
	struct opts *o = c->ctx;
	int argc = c->argc;
	char **argv = c->argv;
	struct config cfg;
	struct run now, base;
	struct verdicts vs;
	char *metapath = NULL;
	int status = EXIT_TROUBLE, in_status;

	check_dashes(c, o, argc, argv);
	run_init(&now);
	run_init(&base);
	memset(&vs, 0, sizeof(vs));
	if (cfgopt_load(&o->cfg, &cfg) < 0)
		goto out;
	o->lim.cfg = &cfg;
	o->lim.until = c->ro.until;
	if (o->basepath != NULL && read_baseline(&base, o->basepath) < 0)
		goto out;
	if (tasktab_is_table(argc > 0 ? argv[0] : "-") ||
	    usagecsv_is_curve(argc > 0 ? argv[0] : "-")) {
		if (o->cfg.tasks != NULL)
			warnmsg("--tasks: the input is a task table: ignored");
		in_status = read_tables(&now, argv, argc) < 0 ?
		    EXIT_TROUBLE : EXIT_OK;
	} else {
		if (command_times(argv, argc, &o->lim, &metapath) < 0)
			goto out;
		o->lim.cmd_from = metapath;
		in_status = read_stream(&now, argv, argc, &c->ro, &cfg,
		    o->cfg.tasks);
	}
	if (o->has_cmd_end) {
		o->lim.has_cmd_end = 1;
		o->lim.cmd_end = o->cmd_end;
		o->lim.cmd_from = "--command-end";
	}
	run_done(&now);
	if (!now.table)
		fill_intervals(&now);
	vs.now = &now;
	vs.base = o->basepath != NULL ? &base : NULL;
	vs.basepath = o->basepath;
	vs.lim = &o->lim;
	vs.input_failed = in_status != EXIT_OK;
	status = judge(&vs, o, in_status);
out:
	gates_verdicts_release(&vs);
	run_release(&now);
	run_release(&base);
	config_release(&cfg);
	free(metapath);
	return status;
}

int
main(int argc, char *argv[])
{
	struct opts o;

	memset(&o, 0, sizeof(o));
	o.cfg = (struct cfgopts)CFGOPTS_INIT;
	cmd.ctx = &o;
	cmd.sets[0] = CFGOPT_SET(&o.cfg);
	return cmd_main(&cmd, argc, argv);
}
