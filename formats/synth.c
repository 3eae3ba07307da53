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
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "gtime.h"
#include "rec.h"
#include "util.h"

#define MAXGPU 64
#define MAXTASK 64		/* at once per GPU */

/* A task as a scenario defines it, in samples (ticks) from the start. */
struct tdef {
	uint32_t gpu, pid;
	const char *name;
	uint64_t start, end;	/* ticks: first listed, first missing */
	uint32_t mem;		/* MiB held */
	uint64_t delay;		/* ticks after end until the memory is back */
	uint32_t leak;		/* MiB that never come back */
};

/*
 * A task of a two-loop scenario, in true time (ms from the start): the
 * process exists in [start, exit), and what it holds comes back at exit +
 * delay, but for leak MiB, which never come back (and then its context
 * with them).
 */
struct cdef {
	uint32_t gpu, pid;
	const char *name;
	uint64_t start, exit;	/* ms */
	uint32_t delay;		/* ms */
	uint32_t mem;		/* MiB compute-apps lists once ramped up */
	uint32_t leak;		/* MiB of mem that never come back */
	uint32_t ctx;		/* MiB the device holds for it on top of mem */
	unsigned lose;		/* process polls lost just before its exit */
};

/* Processes one after another on GPU 0, drawn from the seed. */
struct seqgen {
	size_t count;
	uint32_t pid;		/* of the first; +1 each */
	const char *name;
	uint32_t first;		/* ms: start of the first */
	uint32_t run[2], gap[2], mem[2], delay[2];	/* ms, MiB: [min, max] */
};

/*
 * A two-loop scenario: true times in ms, tasks from ct or made by seq, and
 * the loops' defaults, which the options override.
 */
struct twoloop {
	const struct cdef *ct;
	size_t nct;
	const struct seqgen *seq;
	uint64_t len;		/* ms; 0 = until the last release and 5 s */
	uint32_t pd, pp, off;	/* ms: device and process intervals, offset */
	int32_t drift;		/* ppm of the process loop's interval */
	unsigned lose_polls, lose_lines;	/* percent */
	uint32_t ramp;		/* ms per step of a task's ramp; 0 = none */
	uint64_t dip_at;	/* ms: GPU 0's first sample from then dips */
	uint32_t dip;		/* MiB by which it dips */
	uint32_t desk;		/* MiB on GPU 0 no process lists (graphics) */
	uint64_t desk_from, desk_to;	/* ms: when the device holds it */
	uint64_t pstop;		/* ms: the process loop dies then; 0 never */
};

struct scenario {
	const char *name;
	const char *what;
	uint32_t gpus;
	uint64_t ticks;		/* how long, in samples */
	uint32_t total, reserved, base;
	int jitter, noise, drop;	/* percent of interval, MiB, percent */
	const struct tdef *tasks;	/* sorted by start; NULL = random */
	size_t ntasks;
	const struct twoloop *tl;	/* two loops (then ticks is 0) */
};

#define T(...) {__VA_ARGS__}

static const struct tdef sequential[] = {
	T(0, 1001, "python3", 5, 20, 4096, 0, 0),
	T(0, 1002, "python3", 25, 40, 6144, 0, 0),
	T(0, 1003, "python3", 45, 60, 2048, 0, 0),
};
static const struct tdef slow[] = {
	T(0, 2001, "python3", 5, 20, 4096, 3, 0),
	T(0, 2002, "python3", 30, 50, 8192, 45, 0),
	T(0, 2003, "torchrun", 100, 110, 2048, 120, 0),
};
static const struct tdef leak[] = {
	T(0, 4242, "python3 launch.py --listen", 5, 60, 11264, 0, 11264),
	T(0, 4300, "python3", 70, 80, 1024, 0, 0),
};
static const struct tdef partial[] = {
	T(0, 5001, "trainer", 5, 30, 8192, 5, 2048),
};
static const struct tdef concurrent[] = {
	T(0, 6001, "python3", 5, 40, 4096, 2, 0),
	T(0, 6002, "python3", 10, 30, 2048, 10, 0),
	T(0, 6003, "ollama", 15, 50, 6144, 0, 0),
};
static const struct tdef twowait[] = {
	T(0, 7001, "python3", 5, 20, 3072, 15, 0),
	T(0, 7002, "python3", 8, 22, 5120, 6, 0),
};
static const struct tdef reuse[] = {
	T(0, 8001, "python3", 5, 15, 2048, 0, 0),
	T(0, 8001, "python3", 25, 35, 3072, 2, 0),
};
static const struct tdef multi[] = {
	T(0, 3000, "worker-0", 3, 20, 4096, 0, 0),
	T(1, 3001, "worker-1", 4, 22, 5120, 2, 0),
	T(2, 3002, "worker-2", 5, 24, 6144, 4, 0),
	T(3, 3003, "worker-3", 6, 26, 7168, 0, 0),
	T(4, 3004, "worker-4", 7, 28, 8192, 6, 0),
	T(5, 3005, "worker-5", 8, 30, 9216, 0, 9216),
	T(6, 3006, "worker-6", 9, 32, 3072, 8, 0),
	T(7, 3007, "worker-7", 10, 34, 2048, 1, 0),
	T(0, 3100, "eval-0", 30, 45, 2048, 3, 0),
	T(3, 3103, "eval-3", 32, 48, 1024, 0, 0),
	T(7, 3107, "eval-7", 40, 50, 4096, 5, 0),
};
static const struct tdef clean[] = {
	T(0, 1201, "pytest", 3, 15, 2048, 0, 0),
	T(0, 1202, "pytest", 18, 30, 3072, 1, 0),
	T(0, 1203, "pytest", 33, 45, 1024, 0, 0),
};
static const struct tdef demo[] = {
	T(0, 9001, "python3 train.py", 10, 120, 10240, 2, 0),
	T(1, 9100, "python3 launch.py --listen", 20, 150, 11264, 0, 11264),
	T(0, 9002, "python3 eval.py", 60, 100, 3072, 25, 0),
	T(1, 9101, "python3 infer.py", 160, 200, 2048, 0, 0),
};

#define N(a) a, sizeof(a) / sizeof(a[0])

/* Two loops.  Times in ms from the start. */
static const struct seqgen twoloops = {
	100, 31001, "python3", 1500, {2000, 8000}, {300, 3000}, {1024, 3328},
	{5, 95}
};
static const struct seqgen cihour = {
	1000, 40001, "pytest", 1000, {1200, 2800}, {800, 2400}, {512, 4096},
	{0, 80}
};
/* Exits just after one lost poll, or two. */
static const struct cdef lostpolls[] = {
	T(0, 11001, "python3 train.py", 2000, 150030, 40, 8192, 0, 0, 1),
	T(0, 11002, "python3 serve.py", 3000, 200050, 60, 4096, 0, 0, 2),
	T(0, 11003, "torchrun", 20000, 100070, 0, 6144, 0, 0, 1),
	T(0, 11004, "python3 eval.py", 160000, 230020, 30, 2048, 0, 0, 2),
};
/* With the default loops no poll falls between 20070 and 20080. */
static const struct cdef reusefast[] = {
	T(0, 8001, "python3", 2000, 20070, 0, 3072, 3072, 0, 0),
	T(0, 8001, "python3", 20080, 40000, 20, 2048, 0, 0, 0),
};
static const struct cdef context[] = {
	T(0, 9201, "python3 launch.py --listen", 2000, 30000, 0, 6000, 6000,
	    350, 0),
	T(0, 9202, "python3 infer.py", 40000, 55000, 0, 4000, 0, 300, 0),
};
static const struct cdef dip[] = {
	T(0, 9301, "python3 train.py", 2000, 30000, 0, 7000, 7000, 0, 0),
	T(0, 9302, "python3 eval.py", 70000, 80000, 10, 2048, 0, 0, 0),
};
static const struct cdef desktop[] = {
	T(0, 9501, "python3 webui.py", 2000, 30000, 0, 6144, 0, 300, 0),
	T(0, 9502, "python3 train.py", 35000, 50000, 0, 2048, 2048, 0, 0),
};
static const struct cdef overlap[] = {
	T(0, 9401, "python3", 2000, 30020, 50, 4096, 0, 0, 0),
	T(0, 9402, "python3", 3000, 30450, 3000, 2048, 0, 256, 0),
	T(0, 9403, "torchrun", 4000, 31010, 20000, 6144, 0, 0, 0),
};

/*
 * A CI job's "does the GPU work" probe of 120 ms, listed at one poll, then
 * the tests: compute-apps prints nothing for the two seconds between.
 */
static const struct cdef probe[] = {
	T(0, 9601, "python3 -c import torch", 1000, 1120, 30, 600, 0, 0, 0),
	T(0, 9602, "pytest", 3000, 20000, 40, 4096, 0, 300, 0),
};
/* Short jobs listed once or twice, far apart: a sparse process log. */
static const struct seqgen sparse = {
	40, 52001, "python3 job.py", 2000, {300, 1900}, {4000, 20000},
	{512, 4096}, {0, 300}
};
/*
 * The process loop is killed at 20 s while the device loop goes on: one
 * process ends at once, one lives on, one is still running at the end.
 */
static const struct cdef logstop[] = {
	T(0, 9701, "python3 train.py", 2000, 20040, 0, 4096, 0, 0, 0),
	T(0, 9702, "python3 serve.py", 3000, 31000, 0, 2048, 0, 0, 0),
	T(0, 9703, "python3 webui.py", 4000, 60000, 0, 1024, 0, 0, 0),
};

/*
 * A process already running when the recording starts (its memory in the
 * first device sample, listed a moment later) leaves 2 GiB behind.
 */
static const struct cdef atstart[] = {
	T(0, 9801, "python3 app.py", 0, 10000, 0, 2048, 2048, 0, 0),
	T(0, 9802, "python3 eval.py", 15000, 25000, 20, 1024, 0, 0, 0),
};

/* One-poll jobs back to back: each listed at one poll, or none. */
static const struct seqgen burst = {
	30, 61001, "python3 step.py", 1500, {80, 180}, {30, 200}, {512, 2048},
	{0, 60}
};

static const struct twoloop tl_twoloops = {
	.seq = &twoloops, .pd = 100, .pp = 100, .off = 50, .drift = 10,
	.ramp = 200
};
static const struct twoloop tl_cihour = {
	.seq = &cihour, .pd = 100, .pp = 100, .off = 61, .drift = -150,
	.ramp = 100
};
static const struct twoloop tl_lostpolls = {
	N(lostpolls), .len = 240000, .pd = 200, .pp = 200, .off = 80,
	.drift = 100, .lose_polls = 1, .lose_lines = 1
};
static const struct twoloop tl_reusefast = {
	N(reusefast), .len = 50000, .pd = 100, .pp = 100, .off = 44
};
static const struct twoloop tl_context = {
	N(context), .len = 70000, .pd = 100, .pp = 100, .off = 55,
	.drift = 250, .ramp = 200
};
static const struct twoloop tl_dip = {
	N(dip), .len = 95000, .pd = 100, .pp = 100, .off = 30, .drift = 200,
	.dip_at = 50000, .dip = 6500
};
static const struct twoloop tl_desktop = {
	N(desktop), .len = 80000, .pd = 100, .pp = 100, .off = 40,
	.drift = 100, .ramp = 200, .desk = 768, .desk_from = 12000,
	.desk_to = 60000
};
static const struct twoloop tl_overlap = {
	N(overlap), .len = 60000, .pd = 100, .pp = 100, .off = 70,
	.drift = -300, .ramp = 200
};

static const struct twoloop tl_probe = {
	N(probe), .len = 25000, .pd = 100, .pp = 100, .off = 40, .drift = 50,
	.ramp = 200
};
static const struct twoloop tl_sparse = {
	.seq = &sparse, .pd = 1000, .pp = 1000, .off = 437, .drift = 400
};
static const struct twoloop tl_logstop = {
	N(logstop), .len = 45000, .pd = 100, .pp = 100, .off = 60,
	.drift = 100, .pstop = 20000
};

static const struct twoloop tl_burst = {
	.seq = &burst, .pd = 100, .pp = 100, .off = 50, .drift = 200
};
static const struct twoloop tl_atstart = {
	N(atstart), .len = 35000, .pd = 100, .pp = 100, .off = 50,
	.drift = 100
};

static const struct scenario scenarios[] = {
	{"demo", "two GPUs: training, a late release, a leak that never "
	    "comes back", 2, 240, 24576, 300, 0, 0, 0, 0, N(demo), NULL},
	{"sequential", "three tasks one after another, memory back at once",
	    1, 70, 16384, 300, 0, 0, 0, 0, N(sequential), NULL},
	{"slow-release", "releases that take 3 s, 45 s and 2 minutes", 1,
	    250, 16384, 300, 0, 0, 0, 0, N(slow), NULL},
	{"leak", "closed Stable Diffusion: 11 GiB that never come back", 1,
	    100, 16384, 300, 0, 0, 0, 0, N(leak), NULL},
	{"partial-leak", "8 GiB of which 2 GiB never come back", 1, 60,
	    16384, 300, 0, 0, 0, 0, N(partial), NULL},
	{"concurrent", "three tasks at once with different delays", 1, 80,
	    16384, 300, 0, 0, 0, 0, N(concurrent), NULL},
	{"two-waiting", "two tasks waiting for their memory at once", 1, 50,
	    16384, 300, 0, 0, 0, 0, N(twowait), NULL},
	{"pid-reuse", "one pid, two lives", 1, 45, 16384, 300, 0, 0, 0, 0,
	    N(reuse), NULL},
	{"multi-gpu", "8 GPUs, staggered tasks, a leak on GPU 5", 8, 60,
	    81559, 479, 0, 0, 0, 0, N(multi), NULL},
	{"noise", "concurrent, with 20% time jitter and +-8 MiB noise", 1,
	    80, 16384, 300, 0, 20, 8, 0, N(concurrent), NULL},
	{"missing", "slow-release, with 10% of the samples lost", 1, 250,
	    16384, 300, 0, 0, 0, 10, N(slow), NULL},
	{"clean", "a CI run: three test processes, memory back at once", 1,
	    50, 16384, 300, 0, 0, 0, 0, N(clean), NULL},
	{"two-loops", "two loops: 100 short processes one after another, "
	    "memory back within 0.1 s", 1, 0, 24576, 300, 0, 5, 0, 0, NULL, 0,
	    &tl_twoloops},
	{"ci-hour", "two loops: 1000 short tests in about an hour, no leak",
	    1, 0, 16384, 300, 0, 2, 0, 0, NULL, 0, &tl_cihour},
	{"lost-polls", "two loops: compute-apps loses polls and lines, "
	    "exits just after lost polls", 1, 0, 24576, 300, 0, 0, 0, 0, NULL,
	    0, &tl_lostpolls},
	{"pid-reuse-fast", "two loops: a leak, its pid reused before the "
	    "next poll", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0, &tl_reusefast},
	{"context", "two loops: 6000 MiB listed, 6350 held, leaked; then a "
	    "clean task", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0, &tl_context},
	{"dip", "two loops: a 7000 MiB leak, usage dips for one sample", 1, 0,
	    16384, 300, 0, 0, 0, 0, NULL, 0, &tl_dip},
	{"overlap", "two loops: three tasks waiting at once, 0.05 s, 3 s "
	    "and 20 s", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0, &tl_overlap},
	{"desktop", "two loops: a workstation's graphics memory (no process "
	    "lists it) rises amid a job and goes while a leak waits", 1, 0,
	    16384, 300, 0, 0, 0, 0, NULL, 0, &tl_desktop},
	{"probe", "two loops: a 120 ms CUDA probe listed once, then a clean "
	    "test run", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0, &tl_probe},
	{"sparse", "two loops: 40 short jobs, each listed once or twice, far "
	    "apart", 1, 0, 24576, 300, 0, 0, 0, 0, NULL, 0, &tl_sparse},
	{"burst", "two loops: 30 jobs of one poll or less, back to back", 1,
	    0, 16384, 300, 0, 0, 0, 0, NULL, 0, &tl_burst},
	{"at-start", "two loops: a process running before the first sample "
	    "leaves 2 GiB", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0,
	    &tl_atstart},
	{"log-stops", "two loops: the process loop dies at 20 s, the device "
	    "loop goes on", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0,
	    &tl_logstop},
	{"random", "random tasks on every GPU for --duration (benchmarks)",
	    8, 3000, 81559, 479, 0, 0, 0, 0, NULL, 0, NULL},
};

/* --- randomness: splitmix64, so a seed gives the same data everywhere --- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint64_t
rng_below(uint64_t n)
{
	return n == 0 ? 0 : rng() % n;
}

/* --- the simulation --- */

enum tstate { T_PENDING, T_LIVE, T_WAITING, T_DONE };

struct task {
	struct tdef d;
	enum tstate state;
	uint64_t t_start, t_end, t_release;	/* sample times, 0 = none */
	uint64_t t_last;	/* last sample that listed it */
	uint32_t held, peak, cur;
	int listed;		/* listed at some emitted sample */
	int ended_seen;		/* the zero record was written */
};

struct gpu {
	struct task t[MAXTASK];
	size_t n;
	uint32_t free;		/* at the current sample */
	uint64_t leaked;	/* MiB gone for good */
	uint64_t next_rand;	/* random scenario: tick of the next task */
	uint32_t next_pid;
};

struct synth {
	const struct scenario *sc;
	uint64_t interval, start, ticks;
	uint32_t gpus;
	const char *host;
	size_t nextdef;
	struct gpu g[MAXGPU];
	FILE *truth;
	struct recw out;
	const char *outname;	/* for messages: -o FILE, or standard output */
	FILE *qgpu, *apps;	/* --nvsmi */
	int gmem;		/* --gmem: records as a GMEM sender sends them */
	struct rec *pend;	/* --gmem: the records of the current sample */
	size_t npend, cappend;
	int apps_header;
	uint64_t nrec;
};

static void
truth_row(struct synth *s, uint32_t gpu, const struct task *t)
{
	char secs[32];

	if (s->truth == NULL)
		return;
	fprintf(s->truth, "%s,%u,%u,", s->host, gpu, t->d.pid);
	{
		char buf[2 * 256 + 3];
		size_t n = csv_field(buf, t->d.name);

		fwrite(buf, 1, n, s->truth);
	}
	fprintf(s->truth, ",%llu,%llu,%u,%u,", (unsigned long long)t->t_start,
	    (unsigned long long)(t->state == T_LIVE ? t->t_last : t->t_end),
	    t->peak, t->held);
	if (t->t_release != 0 && t->d.leak == 0) {
		uint64_t d = t->t_release - t->t_end;

		snprintf(secs, sizeof(secs), "%llu.%03llu",
		    (unsigned long long)(d / NS_PER_SEC),
		    (unsigned long long)(d % NS_PER_SEC / NS_PER_MS));
		fprintf(s->truth, "%llu,%s,0,released\n",
		    (unsigned long long)t->t_release, secs);
	} else if (t->state == T_LIVE || (t->state == T_PENDING)) {
		fprintf(s->truth, ",,,running\n");
	} else {
		fprintf(s->truth, ",,%u,leaked\n", t->d.leak != 0 ?
		    t->d.leak : t->held);
	}
}

/* The next scenario task, or a random one; 0 when there is none. */
static int
next_def(struct synth *s, uint32_t gpu, uint64_t tick, struct tdef *d)
{
	static const char *const names[] = {
		"python3", "python3 train.py", "torchrun", "ollama",
		"pytest", "llama-server", "blender", "ffmpeg"
	};
	struct gpu *g = &s->g[gpu];
	uint64_t len;

	if (s->sc->tasks != NULL) {
		if (s->nextdef < s->sc->ntasks &&
		    s->sc->tasks[s->nextdef].gpu == gpu &&
		    s->sc->tasks[s->nextdef].start <= tick) {
			*d = s->sc->tasks[s->nextdef++];
			return 1;
		}
		return 0;
	}
	if (tick < g->next_rand)
		return 0;
	/* A random task: 10 s to 10 min, 1 to 20 GiB, mostly quick releases. */
	memset(d, 0, sizeof(*d));
	d->gpu = gpu;
	d->pid = 10000 + gpu * 100000 + g->next_pid++;
	d->name = names[rng_below(sizeof(names) / sizeof(names[0]))];
	len = (10 + rng_below(590)) * NS_PER_SEC / s->interval + 1;
	d->start = tick;
	d->end = tick + len;
	d->mem = (uint32_t)(1024 + rng_below(19 * 1024));
	d->delay = rng_below(4) == 0 ? rng_below(30 * NS_PER_SEC /
	    s->interval + 1) : 0;
	d->leak = rng_below(20) == 0 ? (uint32_t)(rng_below(2) ?
	    d->mem : d->mem / 4) : 0;
	if (g->leaked + d->leak > 40 * 1024)
		d->leak = 0;	/* keep the GPU usable */
	g->next_rand = d->end + 1 + rng_below(20 * NS_PER_SEC / s->interval);
	return 1;
}

/* Memory a task's process holds at tick: ramping up over 3 samples. */
static uint32_t
task_mem(const struct tdef *d, uint64_t tick)
{
	uint64_t k = tick - d->start;

	if (k == 0)
		return d->mem / 4;
	if (k == 1)
		return d->mem / 2;
	return d->mem;
}

static void
put(struct synth *s, struct rec *r)
{
	if (s->gmem) {
		if (s->npend == s->cappend) {
			s->cappend = s->cappend ? 2 * s->cappend : 64;
			s->pend = ereallocarray(s->pend, s->cappend,
			    sizeof(*s->pend));
		}
		s->pend[s->npend++] = *r;
		return;
	}
	if (recw_put(&s->out, r) < 0)
		die("%s: write error:", s->outname);
	s->nrec++;
}

/*
 * A GMEM sender sends one frame per GPU and sample, so a capture reads
 * back the records of each GPU together: its device sample, then its
 * processes, then the ones that just ended.  --gmem writes them in that
 * order (stable within a GPU).
 */
static void
flush_gmem(struct synth *s)
{
	uint32_t gi;
	size_t i;

	for (gi = 0; gi < s->gpus; gi++)
		for (i = 0; i < s->npend; i++)
			if (s->pend[i].gpu == gi) {
				if (recw_put(&s->out, &s->pend[i]) < 0)
					die("%s: write error:", s->outname);
				s->nrec++;
			}
	s->npend = 0;
}

/*
 * GMEM frames carry no process names, and every record of a frame has the
 * device's free memory and the frame's total: --gmem writes the stream a
 * capture of this host would read back as.
 */
static void
gmem_shape(const struct synth *s, struct rec *r)
{
	if (!s->gmem)
		return;
	r->name = "";
	r->free = s->g[r->gpu].free;
	r->total = s->sc->total;
	r->has |= REC_FREE | REC_TOTAL;
}

static void
nvsmi_time(uint64_t t, char buf[64])
{
	time_t secs = (time_t)(t / NS_PER_SEC);
	struct tm tm;

	localtime_r(&secs, &tm);
	snprintf(buf, 64, "%04d/%02d/%02d %02d:%02d:%02d.%03u",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, (unsigned)(t % NS_PER_SEC / NS_PER_MS));
}

static void
gpu_ids(uint32_t gpu, char uuid[64], char bus[32])
{
	snprintf(uuid, 64, "GPU-5a1e%04x-0000-4000-8000-00000000%04x", gpu, gpu);
	snprintf(bus, 32, "00000000:%02X:00.0", 0x17 + gpu * 0x10);
}

/*
 * The device sample of GPU gi at ts, used MiB (capped to what the GPU
 * has): a query-gpu row, or a record.
 */
static void
device_rec(struct synth *s, uint32_t gi, uint64_t ts, uint64_t used)
{
	const struct scenario *sc = s->sc;
	char tbuf[64], uuid[64], bus[32];
	struct rec r;

	if (used > sc->total - sc->reserved)
		used = sc->total - sc->reserved;
	rec_init(&r);
	r.ts = ts;
	r.host = s->host;
	r.gpu = gi;
	r.used = (uint32_t)used;
	r.free = sc->total - sc->reserved - (uint32_t)used;
	r.total = sc->total;
	r.has = REC_USED | REC_FREE | REC_TOTAL;
	s->g[gi].free = r.free;
	if (s->qgpu != NULL) {
		nvsmi_time(ts, tbuf);
		gpu_ids(gi, uuid, bus);
		fprintf(s->qgpu, "%s, %u, %s, %s, %u MiB, %u MiB, %u MiB, "
		    "%u MiB\n", tbuf, gi, uuid, bus, sc->total, sc->reserved,
		    r.used, r.free);
	} else
		put(s, &r);
}

/*
 * A process listed at ts with used MiB (a compute-apps row, or a record),
 * or with used 0 gone since the last poll (a record; nvidia-smi just stops
 * listing it).
 */
static void
proc_rec(struct synth *s, uint32_t gi, uint32_t pid, const char *name,
    uint64_t ts, uint32_t used)
{
	char tbuf[64], uuid[64], bus[32];
	struct rec r;

	if (s->apps != NULL) {
		if (used == 0)
			return;
		nvsmi_time(ts, tbuf);
		gpu_ids(gi, uuid, bus);
		fprintf(s->apps, "%s, %s, %s, %u, %s, %u MiB\n", tbuf, uuid,
		    bus, pid, name, used);
		return;
	}
	rec_init(&r);
	r.ts = ts;
	r.host = s->host;
	r.gpu = gi;
	r.pid = pid;
	r.used = used;
	r.has = REC_USED;
	r.name = name;
	gmem_shape(s, &r);
	put(s, &r);
}

/* One sample of every GPU at tick (ts is its jittered time). */
static void
sample(struct synth *s, uint64_t tick, uint64_t ts, int emitted)
{
	const struct scenario *sc = s->sc;
	uint32_t gi;
	size_t i;

	/* Tasks that start now; scenario tasks are in start order. */
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];
		struct tdef d;

		while (g->n < MAXTASK && next_def(s, gi, tick, &d)) {
			memset(&g->t[g->n], 0, sizeof(g->t[g->n]));
			g->t[g->n].d = d;
			g->n++;
		}
	}
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];
		uint64_t used;

		g->free = 0;

		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if (t->state == T_PENDING && tick >= t->d.start &&
			    tick < t->d.end && emitted)
				t->state = T_LIVE;
			if (t->state == T_LIVE && tick >= t->d.end && emitted) {
				t->state = T_WAITING;
				t->t_end = ts;
			}
			if (t->state == T_WAITING &&
			    tick >= t->d.end + t->d.delay && emitted) {
				t->t_release = ts;
				g->leaked += t->d.leak;
				t->state = T_DONE;
			}
		}
		/* What the device shows, once every task has moved on. */
		used = sc->base + g->leaked;
		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if (t->state == T_LIVE) {
				t->cur = task_mem(&t->d, tick);
				used += t->cur;
			} else if (t->state == T_WAITING)
				used += t->d.mem;
		}
		if (!emitted)
			continue;
		if (sc->noise > 0) {
			int64_t n = (int64_t)rng_below(2 * (uint64_t)sc->noise +
			    1) - sc->noise;

			if ((int64_t)used + n >= 0)
				used = (uint64_t)((int64_t)used + n);
		}
		device_rec(s, gi, ts, used);
	}
	if (!emitted)
		return;
	/* Processes listed at this sample, then those just gone. */
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];

		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if (t->state != T_LIVE)
				continue;
			if (!t->listed) {
				t->listed = 1;
				t->t_start = ts;
			}
			if (t->cur > t->peak)
				t->peak = t->cur;
			t->held = t->cur;
			t->t_last = ts;
			proc_rec(s, gi, t->d.pid, t->d.name, ts, t->cur);
		}
	}
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];

		for (i = 0; i < g->n; i++) {
			struct task *t = &g->t[i];

			if ((t->state != T_WAITING && t->state != T_DONE) ||
			    t->ended_seen || t->t_end != ts)
				continue;
			t->ended_seen = 1;
			proc_rec(s, gi, t->d.pid, t->d.name, ts, 0);
		}
	}
	if (s->gmem)
		flush_gmem(s);
	/* Finished tasks: their truth, and room for new ones. */
	for (gi = 0; gi < s->gpus; gi++) {
		struct gpu *g = &s->g[gi];

		for (i = 0; i < g->n;) {
			if (g->t[i].state == T_DONE) {
				truth_row(s, gi, &g->t[i]);
				g->t[i] = g->t[--g->n];
			} else
				i++;
		}
	}
}

/*
 * Rows of one sample must stay in sample order: sort the tasks of each GPU
 * by pid so that every output lists processes in the same order.
 */
static int
by_pid(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return (x->d.pid > y->d.pid) - (x->d.pid < y->d.pid);
}

static int
def_order(const void *a, const void *b)
{
	const struct tdef *x = a, *y = b;

	if (x->start != y->start)
		return (x->start > y->start) - (x->start < y->start);
	return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

static void
run(struct synth *s)
{
	uint64_t tick, ts;
	uint32_t gi;
	size_t i;

	for (tick = 0; tick < s->ticks; tick++) {
		int emitted = s->sc->drop == 0 || tick == 0 ||
		    rng_below(100) >= (uint64_t)s->sc->drop;
		int64_t j = 0;

		if (s->sc->jitter > 0)
			j = (int64_t)rng_below(2 * (uint64_t)s->sc->jitter *
			    s->interval / 100 + 1) -
			    (int64_t)((uint64_t)s->sc->jitter * s->interval / 100);
		/* Whole milliseconds, as nvidia-smi prints them. */
		ts = s->start + tick * s->interval + (uint64_t)j;
		ts -= ts % NS_PER_MS;
		for (gi = 0; gi < s->gpus; gi++)
			qsort(s->g[gi].t, s->g[gi].n, sizeof(struct task),
			    by_pid);
		sample(s, tick, ts, emitted);
	}
	/* What never finished: leaks and tasks still running. */
	for (gi = 0; gi < s->gpus; gi++)
		for (i = 0; i < s->g[gi].n; i++) {
			struct task *t = &s->g[gi].t[i];

			if (t->state == T_WAITING && t->d.leak == 0 &&
			    t->d.delay > 0) {
				/* Still waiting at the end: shown as leaked. */
				t->d.leak = t->d.mem;
			}
			if (t->listed)
				truth_row(s, gi, t);
		}
}

/* --- two loops: continuous time --- */

/*
 * nvidia-smi as "gpumem record" runs it is two loops: query-gpu samples the
 * devices every pd, compute-apps polls the processes every pp (stretched by
 * drift ppm), from off after the start, and each on its own.  Events
 * happen in true time, in ms; each loop only sees the instants it samples.
 */
struct loops {
	uint64_t pd, pp, off;	/* ns */
	int64_t drift;		/* ppm */
	unsigned lose_polls, lose_lines;	/* percent */
	uint64_t len;		/* ns: samples and polls before start + len */
};

/* A two-loop task as it runs, and as the process loop saw it. */
struct ctask {
	struct cdef d;
	uint64_t s, x, y;	/* ns from the start: start, exit, release */
	int ever;		/* listed at some poll */
	int listed;		/* listed at the last poll that was not lost */
	uint64_t last;		/* the time of the last poll that listed it */
	uint32_t peak, held;	/* MiB listed: the most, the last */
};

/* Uniform in [lo, hi]. */
static uint32_t
rng_in(const uint32_t r[2])
{
	return r[0] + (uint32_t)rng_below((uint64_t)r[1] - r[0] + 1);
}

/* The tasks of sc, in start order (made from the seed for seq). */
static struct ctask *
ctasks(const struct scenario *sc, size_t *n)
{
	const struct seqgen *g = sc->tl->seq;
	struct ctask *t;
	uint64_t at;
	size_t i;

	*n = g != NULL ? g->count : sc->tl->nct;
	t = ecalloc(*n, sizeof(*t));
	at = g != NULL ? g->first : 0;
	for (i = 0; i < *n; i++) {
		if (g == NULL)
			t[i].d = sc->tl->ct[i];
		else {
			t[i].d.pid = g->pid + (uint32_t)i;
			t[i].d.name = g->name;
			t[i].d.start = at;
			t[i].d.exit = at + rng_in(g->run);
			t[i].d.mem = rng_in(g->mem);
			t[i].d.delay = rng_in(g->delay);
			at = t[i].d.exit + rng_in(g->gap);
		}
		t[i].s = t[i].d.start * NS_PER_MS;
		t[i].x = t[i].d.exit * NS_PER_MS;
		t[i].y = t[i].x + t[i].d.delay * NS_PER_MS;
	}
	return t;
}

/* MiB a task's process holds at rel, ramping up over its first steps. */
static uint32_t
ctask_mem(const struct ctask *t, uint64_t ramp, uint64_t rel)
{
	uint64_t k;

	if (ramp == 0)
		return t->d.mem;
	k = (rel - t->s) / ramp;
	return k == 0 ? t->d.mem / 4 : k == 1 ? t->d.mem / 2 : t->d.mem;
}

/* MiB the device holds for a task at rel (ns from the start). */
static uint64_t
ctask_dev(const struct ctask *t, uint64_t ramp, uint64_t rel)
{
	if (rel < t->s)
		return 0;
	if (rel < t->x)
		return ctask_mem(t, ramp, rel) + (uint64_t)t->d.ctx;
	if (rel < t->y)
		return ctask_mem(t, ramp, t->x) + (uint64_t)t->d.ctx;
	return t->d.leak > 0 ? (uint64_t)t->d.leak + t->d.ctx : 0;
}

/* A time jittered by up to jitter% of iv either way, in whole ms. */
static uint64_t
cjitter(const struct synth *s, uint64_t t, uint64_t iv)
{
	uint64_t j = (uint64_t)s->sc->jitter * iv / 100;

	if (j > 0)
		t = t + rng_below(2 * j + 1) - j;
	if (t < s->start)
		t = s->start;	/* nothing before the first sample */
	return t - t % NS_PER_MS;
}

/* The process loop's interval as it runs (drift included). */
static uint64_t
proc_period(const struct loops *lp)
{
	return (uint64_t)((int64_t)lp->pp + (int64_t)lp->pp * lp->drift /
	    1000000);
}

/* One device sample of every GPU at ts. */
static void
cdevice(struct synth *s, const struct ctask *t, size_t n, uint64_t ramp,
    uint64_t ts, int *dipped)
{
	const struct scenario *sc = s->sc;
	uint64_t rel = ts - s->start, used;
	uint32_t gi;
	size_t i;

	for (gi = 0; gi < s->gpus; gi++) {
		used = sc->base;
		for (i = 0; i < n; i++)
			if (t[i].d.gpu == gi)
				used += ctask_dev(&t[i], ramp, rel);
		/* Memory no process lists: a desktop's graphics. */
		if (gi == 0 && sc->tl->desk > 0 &&
		    rel >= sc->tl->desk_from * NS_PER_MS &&
		    rel < sc->tl->desk_to * NS_PER_MS)
			used += sc->tl->desk;
		/* A glitch of one sample: the usage reads low once. */
		if (gi == 0 && sc->tl->dip > 0 && !*dipped &&
		    rel >= sc->tl->dip_at * NS_PER_MS) {
			*dipped = 1;
			used = used > sc->tl->dip ? used - sc->tl->dip : 0;
		}
		device_rec(s, gi, ts, used);
	}
}

static int
by_gpu_pid(const void *a, const void *b)
{
	const struct ctask *x = *(struct ctask *const *)a;
	const struct ctask *y = *(struct ctask *const *)b;

	if (x->d.gpu != y->d.gpu)
		return (x->d.gpu > y->d.gpu) - (x->d.gpu < y->d.gpu);
	return (x->d.pid > y->d.pid) - (x->d.pid < y->d.pid);
}

/*
 * One poll of the process loop at ts: the processes alive then, but the
 * lines lost, or nothing when the poll is lost; then a memory_used = 0
 * record for each process listed before and not now (unless a process of
 * the same pid is listed now: a reader cannot tell them apart).
 */
static void
cpoll(struct synth *s, struct ctask *t, size_t n, const struct loops *lp,
    uint64_t ramp, uint64_t ts, struct ctask **v)
{
	uint64_t rel = ts - s->start, per = proc_period(lp);
	size_t i, k, nv = 0;
	int lost;

	lost = lp->lose_polls > 0 && rng_below(100) < lp->lose_polls;
	for (i = 0; i < n && !lost; i++)
		if (t[i].d.lose > 0 && rel < t[i].x &&
		    rel + t[i].d.lose * per >= t[i].x)
			lost = 1;	/* the polls just before its exit */
	if (lost)
		return;
	for (i = 0; i < n; i++) {
		int now = t[i].s <= rel && rel < t[i].x && (lp->lose_lines ==
		    0 || rng_below(100) >= lp->lose_lines);

		if (now || t[i].listed)
			v[nv++] = &t[i];
		t[i].listed = t[i].listed ? 2 : 0;
		if (now)
			t[i].listed = 1;
	}
	qsort(v, nv, sizeof(*v), by_gpu_pid);
	for (i = 0; i < nv; i++) {
		uint32_t m;

		if (v[i]->listed != 1)
			continue;
		m = ctask_mem(v[i], ramp, rel);
		v[i]->ever = 1;
		v[i]->last = ts;
		v[i]->held = m;
		if (m > v[i]->peak)
			v[i]->peak = m;
		proc_rec(s, v[i]->d.gpu, v[i]->d.pid, v[i]->d.name, ts, m);
	}
	for (i = 0; i < nv; i++) {
		if (v[i]->listed != 2)
			continue;
		v[i]->listed = 0;
		for (k = 0; k < nv; k++)
			if (v[k]->listed == 1 && v[k]->d.gpu == v[i]->d.gpu &&
			    v[k]->d.pid == v[i]->d.pid)
				break;
		if (k == nv)
			proc_rec(s, v[i]->d.gpu, v[i]->d.pid, v[i]->d.name,
			    ts, 0);
	}
}

/* The truth of a two-loop task: true times, what was listed. */
static void
ctruth(struct synth *s, const struct ctask *t, const struct loops *lp,
    uint64_t ramp)
{
	char buf[2 * REC_MAXSTR + 3];
	uint64_t d;
	size_t n;

	if (s->truth == NULL || !t->ever)
		return;
	fprintf(s->truth, "%s,%u,%u,", s->host, t->d.gpu, t->d.pid);
	n = csv_field(buf, t->d.name);
	fwrite(buf, 1, n, s->truth);
	if (t->x >= lp->len) {
		/* Still running: last seen at its last poll. */
		fprintf(s->truth, ",%llu,%llu,%u,%u,,,,running\n",
		    (unsigned long long)(s->start + t->s),
		    (unsigned long long)t->last, t->peak, t->held);
		return;
	}
	fprintf(s->truth, ",%llu,%llu,%u,%u,",
	    (unsigned long long)(s->start + t->s),
	    (unsigned long long)(s->start + t->x), t->peak, t->held);
	if (t->y >= lp->len)	/* still waiting: what it holds is out */
		fprintf(s->truth, ",,%llu,leaked\n", (unsigned long long)
		    (ctask_mem(t, ramp, t->x) + (uint64_t)t->d.ctx));
	else if (t->d.leak > 0)
		fprintf(s->truth, ",,%llu,leaked\n",
		    (unsigned long long)t->d.leak + t->d.ctx);
	else {
		d = t->y - t->x;
		fprintf(s->truth, "%llu,%llu.%03llu,0,released\n",
		    (unsigned long long)(s->start + t->y),
		    (unsigned long long)(d / NS_PER_SEC),
		    (unsigned long long)(d % NS_PER_SEC / NS_PER_MS));
	}
}

/* The two loops, one event at a time in time order (devices first). */
static void
run_loops(struct synth *s, struct ctask *t, size_t n, const struct loops *lp)
{
	uint64_t ramp = s->sc->tl->ramp * NS_PER_MS, per = proc_period(lp);
	uint64_t end = s->start + lp->len, dt, pt, last = 0, k = 0, j = 0;
	struct ctask **v = ereallocarray(NULL, n + 1, sizeof(*v));
	int dipped = 0;
	size_t i;

	dt = cjitter(s, s->start, lp->pd);
	pt = cjitter(s, s->start + lp->off, lp->pp);
	while (dt < end || pt < end) {
		uint64_t now = dt <= pt ? dt : pt;

		if (s->gmem && now != last)
			flush_gmem(s);
		last = now;
		if (dt <= pt) {
			cdevice(s, t, n, ramp, dt, &dipped);
			k++;
			dt = cjitter(s, s->start + k * lp->pd, lp->pd);
		} else {
			cpoll(s, t, n, lp, ramp, pt, v);
			j++;
			pt = cjitter(s, s->start + lp->off + j * per, lp->pp);
			/* Killed: no poll from then on. */
			if (s->sc->tl->pstop != 0 &&
			    pt >= s->start + s->sc->tl->pstop * NS_PER_MS)
				pt = end;
		}
	}
	if (s->gmem)
		flush_gmem(s);
	for (i = 0; i < n; i++)
		ctruth(s, &t[i], lp, ramp);
	free(v);
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
	OPT_GMEM
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
	    "[--truth FILE] [--nvsmi DIR]\n[--gmem] [--proc-interval DUR] "
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

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		printf("%-15s %s\n", scenarios[i].name, scenarios[i].what);
	exit(close_stdout());
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
		o->gpus = (int)opt_u64("--gpus", arg, 1, MAXGPU);
		break;
	case OPT_GMEM:
		s->gmem = 1;
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
		o->seed = opt_u64("--seed", arg, 0, UINT64_MAX);
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
		o->lose[val - OPT_LOSE_POLLS] = (unsigned)opt_u64(
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

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (strcmp(scenarios[i].name, o->scname) == 0)
			break;
	if (i == sizeof(scenarios) / sizeof(scenarios[0]))
		die("--scenario: '%s': unknown (see --list)", o->scname);
	*sc = scenarios[i];
	if (o->gpus > 0) {
		if (sc->tasks != NULL && (uint32_t)o->gpus < sc->gpus)
			die("--gpus: scenario '%s' needs %u GPUs", sc->name,
			    sc->gpus);
		sc->gpus = (uint32_t)o->gpus;
	}
	if (o->s->gmem && o->nvsmi != NULL)
		die("--gmem and --nvsmi: nvidia-smi logs are not GMEM");
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
	ct = ctasks(sc, nct);
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
	s->apps = open_log(dir, "compute-apps.csv", "timestamp, gpu_uuid, "
	    "gpu_bus_id, pid, process_name, used_gpu_memory [MiB]");
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
	rng_state = o->seed;
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
		run_loops(s, ct, nct, &lp);
	else
		run(s);
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
