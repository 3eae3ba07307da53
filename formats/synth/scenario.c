/* SPDX-License-Identifier: ISC */
/*
 * scenario.c: the scenarios of gpumem synth (scenario.h): their tasks and
 * loops, and the table --scenario and --list read.  A new scenario is its
 * tasks here and a row of scenario_list[]; synth.1 lists them.
 */
#include "scenario.h"

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
	T(0, 11001, "python3 train.py", 2000, 150030, 40, 8192, 0, 0, 1, 0),
	T(0, 11002, "python3 serve.py", 3000, 200050, 60, 4096, 0, 0, 2, 0),
	T(0, 11003, "torchrun", 20000, 100070, 0, 6144, 0, 0, 1, 0),
	T(0, 11004, "python3 eval.py", 160000, 230020, 30, 2048, 0, 0, 2, 0),
};
/* With the default loops no poll falls between 20070 and 20080. */
static const struct cdef reusefast[] = {
	T(0, 8001, "python3", 2000, 20070, 0, 3072, 3072, 0, 0, 0),
	T(0, 8001, "python3", 20080, 40000, 20, 2048, 0, 0, 0, 0),
};
static const struct cdef context[] = {
	T(0, 9201, "python3 launch.py --listen", 2000, 30000, 0, 6000, 6000,
	    350, 0, 0),
	T(0, 9202, "python3 infer.py", 40000, 55000, 0, 4000, 0, 300, 0, 0),
};
static const struct cdef dip[] = {
	T(0, 9301, "python3 train.py", 2000, 30000, 0, 7000, 7000, 0, 0, 0),
	T(0, 9302, "python3 eval.py", 70000, 80000, 10, 2048, 0, 0, 0, 0),
};
static const struct cdef desktop[] = {
	T(0, 9501, "python3 webui.py", 2000, 30000, 0, 6144, 0, 300, 0, 0),
	T(0, 9502, "python3 train.py", 35000, 50000, 0, 2048, 2048, 0, 0, 0),
};
static const struct cdef overlap[] = {
	T(0, 9401, "python3", 2000, 30020, 50, 4096, 0, 0, 0, 0),
	T(0, 9402, "python3", 3000, 30450, 3000, 2048, 0, 256, 0, 0),
	T(0, 9403, "torchrun", 4000, 31010, 20000, 6144, 0, 0, 0, 0),
};

/*
 * A CI job's "does the GPU work" probe of 120 ms, listed at one poll, then
 * the tests: compute-apps prints nothing for the two seconds between.
 */
static const struct cdef probe[] = {
	T(0, 9601, "python3 -c import torch", 1000, 1120, 30, 600, 0, 0, 0, 0),
	T(0, 9602, "pytest", 3000, 20000, 40, 4096, 0, 300, 0, 0),
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
	T(0, 9701, "python3 train.py", 2000, 20040, 0, 4096, 0, 0, 0, 0),
	T(0, 9702, "python3 serve.py", 3000, 31000, 0, 2048, 0, 0, 0, 0),
	T(0, 9703, "python3 webui.py", 4000, 60000, 0, 1024, 0, 0, 0, 0),
};

/*
 * A process already running when the recording starts (its memory in the
 * first device sample, listed a moment later) leaves 2 GiB behind.
 */
static const struct cdef atstart[] = {
	T(0, 9801, "python3 app.py", 0, 10000, 0, 2048, 2048, 0, 0, 0),
	T(0, 9802, "python3 eval.py", 15000, 25000, 20, 1024, 0, 0, 0, 0),
};

/*
 * Processes killed before their contexts were torn down: nvidia-smi lists
 * each as "[Not Found]" with its memory until the driver lets it go, 4 s
 * after the kill for train.py, never for webui.py; serve.py and eval.py
 * run beside them and end cleanly.
 */
static const struct cdef notfound[] = {
	T(0, 21001, "python3 train.py", 2000, 12000, 4000, 6144, 0, 300, 0, 1),
	T(0, 21002, "python3 serve.py", 3000, 20000, 30, 1024, 0, 0, 0, 0),
	T(0, 21003, "python3 eval.py", 25000, 30000, 20, 1536, 0, 0, 0, 0),
	T(0, 21004, "python3 webui.py", 32000, 40000, 0, 2048, 2048, 0, 0, 1),
};

/*
 * The process loop restarted at 20 s with a ten times longer interval
 * (-lms 100, then -l 1): a job across the restart, short jobs listed a few
 * times at the new interval, one leaving 1 GiB.
 */
static const struct cdef restart[] = {
	T(0, 22001, "python3 train.py", 2000, 35000, 40, 4096, 0, 300, 0, 0),
	T(0, 22002, "python3 eval.py", 8000, 14000, 30, 1024, 0, 0, 0, 0),
	T(0, 22003, "python3 eval.py", 24000, 29500, 20, 1536, 0, 0, 0, 0),
	T(0, 22004, "python3 probe.py", 38000, 42300, 0, 512, 0, 0, 0, 0),
	T(0, 22005, "python3 app.py", 45000, 52000, 0, 1024, 1024, 0, 0, 0),
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
static const struct twoloop tl_notfound = {
	N(notfound), .len = 50000, .pd = 100, .pp = 100, .off = 60,
	.drift = 100, .ramp = 200
};
static const struct twoloop tl_restart = {
	N(restart), .len = 60000, .pd = 100, .pp = 100, .off = 60,
	.drift = 100, .ramp = 200, .restart = 20000, .pp2 = 1000
};
static const struct twoloop tl_atstart = {
	N(atstart), .len = 35000, .pd = 100, .pp = 100, .off = 50,
	.drift = 100
};

const struct scenario scenario_list[] = {
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
	{"not-found", "two loops: killed processes listed \"[Not Found]\" "
	    "until the driver lets their memory go", 1, 0, 16384, 300, 0, 0,
	    0, 0, NULL, 0, &tl_notfound},
	{"restart", "two loops: the process loop restarted at 20 s, polling "
	    "every second from then", 1, 0, 16384, 300, 0, 0, 0, 0, NULL, 0,
	    &tl_restart},
	{"random", "random tasks on every GPU for --duration (benchmarks)",
	    8, 3000, 81559, 479, 0, 0, 0, 0, NULL, 0, NULL},
};

const size_t scenario_count =
    sizeof(scenario_list) / sizeof(scenario_list[0]);
