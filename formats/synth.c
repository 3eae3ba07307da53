/* SPDX-License-Identifier: ISC */
/*
 * synth.c: gpumem-synth, realistic GPU memory telemetry with known truth.
 *
 * A scenario is a set of tasks on the GPUs of one host: each starts, holds
 * memory (ramping up over its first samples), ends, and then its memory
 * comes back after a release delay, in part, or never (a leak).  The GPUs
 * are sampled every --interval, with optional time jitter, memory noise
 * and dropped samples.  Output is the record stream (default), or the two
 * nvidia-smi logs that "gpumem record" writes (--nvsmi DIR): reading those
 * gives the very same stream back.  --truth writes each task as "gpumem
 * tasks" must find it.
 *
 * Everything is generated as it goes: memory does not grow with
 * --duration, so the benchmarks can make gigabytes.
 *
 * The two-loop scenarios run in true time instead, as "gpumem record"
 * records: query-gpu samples the devices and compute-apps polls the
 * processes, each in its own loop, and their truth has the true start,
 * exit and release of each task (synth.1 says what each column means).
 *
 * This file is the command: its options, the scenario they name, the
 * outputs opened and closed.  The scenarios are in synth/scenario.c, the
 * generators in synth/ (synth.h: oneloop.c, twoloop.c, and out.c, what
 * both write through).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "gtime.h"
#include "synth.h"
#include "util.h"

/* One-loop tasks in start order, then by GPU (scenario sorts a copy). */
static int
def_order(const void *a, const void *b)
{
	const struct tdef *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

enum {
	OPT_PROC_INTERVAL = CHAR_MAX + 1,	/* the two loops' first */
	OPT_PROC_OFFSET,
	OPT_DRIFT,
	OPT_LOSE_POLLS,
	OPT_LOSE_LINES,		/* the two loops' last */
	OPT_SEED,
	OPT_IVAL,
	OPT_DURATION,
	OPT_GPUS,
	OPT_BEGIN,
	OPT_HOSTNAME,
	OPT_GMEM,
	OPT_NOHEADER
};

static const struct cmd_opt opts[] = {
	{'s', "scenario", "NAME", "what happens (default demo; -l lists them)"},
	{OPT_SEED, "seed", "N", "seed of the random parts (1)"},
	{OPT_IVAL, "interval", "DUR", "sampling interval (1s, or a "
	    "two-loop scenario's own)"},
	{OPT_DURATION, "duration", "DUR", "how long (the scenario's own "
	    "length)"},
	{OPT_GPUS, "gpus", "N", "GPUs of the random scenario (8)"},
	{OPT_BEGIN, "start", "TIME", "time of the first sample "
	    "(2026-01-01T00:00:00Z)"},
	{OPT_HOSTNAME, "host", "NAME", "host of the records (none)"},
	{'t', "truth", "FILE", "write the tasks as gpumem tasks must find them"},
	{'n', "nvsmi", "DIR", "write DIR/query-gpu.csv and DIR/compute-apps.csv "
	    "instead"},
	{OPT_NOHEADER, "noheader", NULL, "--nvsmi: compute-apps.csv without "
	    "headers (csv,noheader)"},
	{OPT_GMEM, "gmem", NULL, "records as GMEM carries them: no process "
	    "names, the\ndevice's free and total on every record"},
	{OPT_PROC_INTERVAL, "proc-interval", "DUR", "two loops: the process "
	    "loop's interval (the\nscenario's, or --interval)"},
	{OPT_PROC_OFFSET, "proc-offset", "DUR", "two loops: its first poll "
	    "after the first sample"},
	{OPT_DRIFT, "drift", "PPM", "two loops: its interval longer by PPM "
	    "millionths (or\nshorter)"},
	{OPT_LOSE_POLLS, "lose-polls", "PCT", "two loops: polls lost whole, "
	    "in percent"},
	{OPT_LOSE_LINES, "lose-lines", "PCT", "two loops: single process lines "
	    "lost, in percent"},
	{'l', "list", NULL, "list the scenarios"},
	{'o', "output", "FILE", "write the stream to FILE"},
	{0, NULL, NULL, NULL}
};

static int option(void *ctx, int val, const char *arg);
static int synthesize(struct cmd *c);

static struct cmd cmd = {
	.synopsis = "[-lqv] [--scenario NAME] [--seed N] [--interval DUR] "
	    "[--duration DUR]\n[--gpus N] [--start TIME] [--host NAME] "
	    "[--truth FILE] [--nvsmi DIR]\n[--noheader] [--gmem] "
	    "[--proc-interval DUR] "
	    "[--proc-offset DUR] [--drift PPM]\n[--lose-polls PCT] "
	    "[--lose-lines PCT] [-o FILE]",
	.about = "Write realistic GPU memory telemetry whose tasks are known: "
	    "the record stream,\nor the nvidia-smi logs gpumem record writes, "
	    "and the truth as gpumem tasks\nmust find it.  The two-loop "
	    "scenarios run in true time: the device loop\nsamples every "
	    "--interval, the process loop (compute-apps) on its own.",
	.opts = opts,
	.exits = "0 success, 2 trouble",
	.flags = CMD_OUTPUT,
	.option = option,
	.run = synthesize,
};

/* --drift: a signed number of ppm, within +-100000 (10%). */
static int64_t
opt_ppm(const char *arg)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < -100000 ||
	    v > 100000)
		die("--drift: '%s': expected an integer (allowed -100000 to "
		    "100000)", arg);
	return v;
}

static FILE *
open_log(const char *dir, const char *name, const char *header)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f == NULL)
		die("%s: cannot create:", path);
	if (header != NULL)
		fprintf(f, "%s\n", header);
	return f;
}

static void
close_log(FILE *f, const char *dir, const char *name)
{
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0)
		die("%s/%s: write error:", dir, name);
}

/* What the options ask for. */
struct opts {
	struct synth *s;
	const char *scname, *truthpath, *nvsmi;
	uint64_t duration, seed;
	uint64_t pint, poff;		/* --proc-interval, --proc-offset */
	int64_t drift;
	unsigned lose[2];		/* --lose-polls, --lose-lines */
	const char *twoloop;		/* a two-loop option given */
	unsigned given;		/* 1 << (OPT_... - OPT_PROC_INTERVAL) */
	int gpus, have_iv;
};

static void
list_scenarios(void)
{
	size_t i;

	for (i = 0; i < scenario_count; i++)
		printf("%-15s %s\n", scenario_list[i].name,
		    scenario_list[i].what);
	exit(outfile_close_stdout());
}

static int
option(void *ctx, int val, const char *arg)
{
	struct opts *o = ctx;
	struct synth *s = o->s;
	size_t i;

	if (val >= OPT_PROC_INTERVAL && val <= OPT_LOSE_LINES) {
		/* An option of the two loops: it overrides. */
		o->given |= 1U << (val - OPT_PROC_INTERVAL);
		for (i = 0; opts[i].val != val; i++)
			;
		o->twoloop = opts[i].name;
	}
	switch (val) {
	case OPT_BEGIN:
		if (gtime_parse(arg, &s->start) < 0)
			die("--start: '%s': expected a time", arg);
		break;
	case OPT_DURATION:
		if (gtime_duration(arg, &o->duration) < 0 || o->duration == 0)
			die("--duration: '%s': expected a duration above 0",
			    arg);
		break;
	case OPT_GPUS:
		o->gpus = (int)num_opt_u64("--gpus", arg, 1, MAXGPU);
		break;
	case OPT_GMEM:
		s->gmem = 1;
		break;
	case OPT_NOHEADER:
		s->noheader = 1;
		break;
	case OPT_HOSTNAME:
		s->host = arg;
		break;
	case OPT_IVAL:
		if (gtime_duration(arg, &s->interval) < 0 ||
		    s->interval < NS_PER_MS)
			die("--interval: '%s': expected a duration of 1ms or "
			    "more", arg);
		o->have_iv = 1;
		break;
	case 'l':
		list_scenarios();
		break;
	case 'n':
		o->nvsmi = arg;
		break;
	case 's':
		o->scname = arg;
		break;
	case OPT_SEED:
		o->seed = num_opt_u64("--seed", arg, 0, UINT64_MAX);
		break;
	case 't':
		o->truthpath = arg;
		break;
	case OPT_PROC_INTERVAL:
		if (gtime_duration(arg, &o->pint) < 0 || o->pint < NS_PER_MS)
			die("--proc-interval: '%s': expected a duration of 1ms "
			    "or more", arg);
		break;
	case OPT_PROC_OFFSET:
		if (gtime_duration(arg, &o->poff) < 0)
			die("--proc-offset: '%s': expected a duration", arg);
		break;
	case OPT_DRIFT:
		o->drift = opt_ppm(arg);
		break;
	case OPT_LOSE_POLLS:
	case OPT_LOSE_LINES:
		o->lose[val - OPT_LOSE_POLLS] = (unsigned)num_opt_u64(
		    val == OPT_LOSE_POLLS ? "--lose-polls" : "--lose-lines",
		    arg, 0, 100);
		break;
	default:
		return 0;
	}
	return 1;
}

/* The scenario the options name, with --gpus and its tasks in order. */
static void
scenario(struct opts *o, struct scenario *sc, struct tdef **defs)
{
	size_t i;

	for (i = 0; i < scenario_count; i++)
		if (strcmp(scenario_list[i].name, o->scname) == 0)
			break;
	if (i == scenario_count)
		die("--scenario: '%s': unknown (see --list)", o->scname);
	*sc = scenario_list[i];
	if (o->gpus > 0) {
		if (sc->tasks != NULL && (uint32_t)o->gpus < sc->gpus)
			die("--gpus: scenario '%s' needs %u GPUs", sc->name,
			    sc->gpus);
		sc->gpus = (uint32_t)o->gpus;
	}
	if (o->s->gmem && o->nvsmi != NULL)
		die("--gmem and --nvsmi: nvidia-smi logs are not GMEM");
	if (o->s->noheader && o->nvsmi == NULL)
		die("--noheader: only for the logs of --nvsmi");
	if (sc->tasks != NULL) {
		*defs = ereallocarray(NULL, sc->ntasks, sizeof(**defs));
		memcpy(*defs, sc->tasks, sc->ntasks * sizeof(**defs));
		qsort(*defs, sc->ntasks, sizeof(**defs), def_order);
		sc->tasks = *defs;
	}
	if (sc->tl == NULL && o->twoloop != NULL)
		die("--%s: scenario '%s' has one loop (the two-loop scenarios "
		    "take it, see --list)", o->twoloop, sc->name);
}

/* The two loops of a two-loop scenario, the options over its own. */
static struct ctask *
loops(const struct opts *o, const struct scenario *sc, struct loops *lp,
    size_t *nct)
{
	const struct twoloop *tl = sc->tl;
	const struct synth *s = o->s;
	struct ctask *ct;
	size_t i;

#define GIVEN(opt) (o->given & (1U << (opt - OPT_PROC_INTERVAL)))
	lp->pd = o->have_iv ? s->interval : tl->pd * NS_PER_MS;
	lp->pp = GIVEN(OPT_PROC_INTERVAL) ? o->pint : o->have_iv ?
	    s->interval : tl->pp * NS_PER_MS;
	lp->off = GIVEN(OPT_PROC_OFFSET) ? o->poff : tl->off * NS_PER_MS;
	lp->drift = GIVEN(OPT_DRIFT) ? o->drift : tl->drift;
	lp->lose_polls = GIVEN(OPT_LOSE_POLLS) ? o->lose[0] : tl->lose_polls;
	lp->lose_lines = GIVEN(OPT_LOSE_LINES) ? o->lose[1] : tl->lose_lines;
#undef GIVEN
	ct = synth_ctasks(sc, nct);
	lp->len = o->duration != 0 ? o->duration : tl->len * NS_PER_MS;
	for (i = 0; i < *nct && o->duration == 0 && tl->len == 0; i++)
		if (ct[i].y + 5 * NS_PER_SEC > lp->len)
			lp->len = ct[i].y + 5 * NS_PER_SEC;
	for (i = 0; i < *nct; i++)
		if (ct[i].d.gpu >= s->gpus)
			die("--gpus: scenario '%s' needs %u GPUs", sc->name,
			    ct[i].d.gpu + 1);
	return ct;
}

/* --nvsmi DIR: the two logs instead of the stream. */
static void
open_logs(struct synth *s, const char *dir)
{
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		die("%s: cannot create directory:", dir);
	s->qgpu = open_log(dir, "query-gpu.csv", "timestamp, index, uuid, "
	    "pci.bus_id, memory.total [MiB], memory.reserved [MiB], "
	    "memory.used [MiB], memory.free [MiB]");
	s->apps = open_log(dir, "compute-apps.csv", s->noheader ? NULL :
	    SYNTH_APPS_HEADER);
}

/* The scenario out (the skeleton, cmd.h, calls it). */
static int
synthesize(struct cmd *c)
{
	struct opts *o = c->ctx;
	struct synth *s = o->s;
	struct scenario sc;
	struct outfile truth;
	struct tdef *defs = NULL;
	struct ctask *ct = NULL;
	struct loops lp;
	size_t nct = 0;
	FILE *f = stdout;

	if (c->argc != 0)
		cmd_usage(c, EXIT_TROUBLE);
	scenario(o, &sc, &defs);
	s->sc = &sc;
	s->gpus = sc.gpus;
	s->ticks = o->duration > 0 ? (o->duration + s->interval - 1) /
	    s->interval : sc.ticks;
	if (sc.jitter > 0 && s->interval < 10 * NS_PER_MS)
		sc.jitter = 0;
	synth_rng_state = o->seed;
	memset(&lp, 0, sizeof(lp));
	if (sc.tl != NULL)
		ct = loops(o, &sc, &lp, &nct);
	if (outfile_open(&truth, o->truthpath) < 0) {
		c->how = CMD_DISCARD;
		return EXIT_TROUBLE;
	}
	s->truth = o->truthpath != NULL ? truth.f : NULL;
	if (s->truth != NULL)
		fprintf(s->truth, "host,gpu,process_id,name,start,end,peak_mib,"
		    "held_mib,release,release_delay_s,leaked_mib,status\n");
	if (o->nvsmi != NULL)
		open_logs(s, o->nvsmi);
	else if ((f = cmd_output(c)) == NULL) {
		c->how = CMD_DISCARD;
		return EXIT_TROUBLE;
	}
	recw_init(&s->out, f);
	s->outname = cmd_outname(c);
	if (sc.tl != NULL)
		synth_run_loops(s, ct, nct, &lp);
	else
		synth_run(s);
	if (o->nvsmi != NULL) {
		close_log(s->qgpu, o->nvsmi, "query-gpu.csv");
		close_log(s->apps, o->nvsmi, "compute-apps.csv");
	} else if (recw_flush(&s->out) < 0)
		c->how = CMD_WRITE_ERROR;
	recw_release(&s->out);
	free(s->pend);
	free(defs);
	free(ct);
	if (c->how == CMD_COMMIT && s->truth != NULL &&
	    outfile_commit(&truth) < 0)
		c->how = CMD_DISCARD;
	return c->how == CMD_COMMIT ? EXIT_OK : EXIT_TROUBLE;
}

int
main(int argc, char *argv[])
{
	struct synth s;
	struct opts o;

	memset(&s, 0, sizeof(s));
	s.interval = NS_PER_SEC;
	s.start = 1767225600ULL * NS_PER_SEC;	/* 2026-01-01T00:00:00Z */
	s.host = "";
	memset(&o, 0, sizeof(o));
	o.s = &s;
	o.scname = "demo";
	o.seed = 1;
	o.gpus = -1;
	cmd.ctx = &o;
	return cmd_main(&cmd, argc, argv);
}
