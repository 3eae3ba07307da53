/* SPDX-License-Identifier: ISC */
/*
 * gates.h: gpumem check's rules applied to a run: one verdict per task and
 * gate, per GPU and gate, and per task compared with a baseline run.
 *
 * The rules (docs/ci.md has them with examples):
 *
 *   max_leak_mib        a leaked task fails when its leaked_mib exceeds
 *                       the limit, and when its leaked MiB is unknown (no
 *                       device sample after it ended).  Built in: 0.
 *   max_release_delay_s a released task fails when its release delay, as
 *                       the task table rounds it (to what the sampling
 *                       can tell), exceeds the limit.  No limit unless
 *                       one is given.
 *
 *   allow_running_after_command   when the command's end is known
 *                       (limits.has_cmd_end: the meta of a gpumem record
 *                       directory, or --command-end), a task still running
 *                       at the last sample, last seen after the command
 *                       ended, fails: the command left it holding memory
 *                       (a server fixture never shut down).  Not judged:
 *                       declared tasks, a task running since before the
 *                       command started (not the command's), one last
 *                       seen before the command ended.  Built in: false.
 *
 *   For each task and rule, the first tasks: entry of the configuration
 *   that matches the task (by pid, or fnmatch(3) on its name) and sets the
 *   rule wins; else --max-leak / --max-delay; else defaults:; else the
 *   built-in.  A leaked task has no release delay (its delay check is
 *   skipped); the leak and delay checks of a task still running at the
 *   last sample are skipped (it has no end).
 *
 *   max_unattributed_mib_at_end   per GPU: the unattributed memory at its
 *                       last device sample, minus its idle baseline
 *                       (devices[].idle_mib, else the unattributed memory
 *                       at its first sample), must not exceed the limit.
 *                       A GPU with tasks but no device sample fails; a
 *                       task table has no samples: skipped.  Built in,
 *                       when gpus: does not set it: the limit is the
 *                       tolerance, and the leaks of the GPU's tasks
 *                       (which max_leak_mib judges) are taken off first:
 *                       what is left is memory no judged task accounts
 *                       for (a device-only log, processes the log cannot
 *                       see).
 *
 *   The recorder stopped: when the command's end is known, the latest
 *   device sample of any GPU lies before it (or before --until, when
 *   that is earlier) by more than two of that GPU's sampling intervals
 *   (2 s at least): the recording ends while the command ran, and what
 *   came after is unknown.  An error verdict (GATE_INPUT) saying when it
 *   stopped and how long before the end, value those whole seconds, and
 *   vs->stopped_at and stopped_by; not said as an input that could not
 *   be read.
 *
 *   Nothing judged (no check passed or failed, and the input was read):
 *   an error verdict (GATE_INPUT) saying to give --tasks or a log with
 *   processes, and vs->nothing_judged.  A gate never passes on nothing.
 *
 * Against a baseline (the task table of an earlier run), tasks match by
 * (host, gpu, name) and order of start within that key, never by pid;
 * hosts are left out of the key when each run has at most one host (CI
 * runners change names).  A renamed task is one vanished and one
 * appeared.
 *
 *   max_leak_regression_mib   a task that leaked and did not leak in the
 *                       baseline, or has no match there, fails (a new
 *                       leak); one that leaked in both fails when its
 *                       leaked MiB grew by more than the limit (built in:
 *                       0).
 *   max_delay_regression a task released in both runs fails when its delay
 *                       exceeds baseline * (1 + r) and baseline + one
 *                       sampling interval: a delay is known to within one
 *                       interval, so a baseline of 0 s allows one
 *                       interval.  Built in: 25%.
 *   vanished / appeared a baseline task with no match here, a task here
 *                       with no match there: reported, never failed by
 *                       themselves (an appeared task is still judged by
 *                       every other rule, and a leak of it is new).
 */
#ifndef GPUMEM_GATES_H
#define GPUMEM_GATES_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "hmap.h"
#include "engine.h"
#include "tasktab.h"
#include "run.h"

/* What the command line says (the configuration says the rest). */
struct limits {
	const struct config *cfg;
	int has_leak, has_delay;	/* --max-leak, --max-delay */
	uint32_t leak;
	uint64_t delay;			/* ns */
	int has_cmd_start, has_cmd_end;	/* the recorded command's times */
	uint64_t cmd_start, cmd_end;	/* ns since the epoch */
	const char *cmd_from;		/* "run/meta", "--command-end" */
	uint64_t until;			/* --until (UINT64_MAX: none) */
};

#define BUILTIN_MAX_LEAK_MIB 0
#define BUILTIN_DELAY_REGRESSION 0.25

enum gate {
	GATE_INPUT,		/* the inputs could be read (an error if not) */
	GATE_LEAK,		/* max_leak_mib */
	GATE_DELAY,		/* max_release_delay_s */
	GATE_RUNNING,		/* allow_running_after_command */
	GATE_UNATTR,		/* gpus.max_unattributed_mib_at_end */
	GATE_BASE_LEAK,		/* baseline.max_leak_regression_mib */
	GATE_BASE_DELAY,	/* baseline.max_delay_regression */
	GATE_VANISHED		/* a baseline task with no match (skipped) */
};

enum result { RES_PASS, RES_FAIL, RES_SKIP, RES_ERROR };

struct verdict {
	enum gate gate;
	enum result res;
	const char *host;	/* the GPU it belongs to ("" for none) */
	uint32_t gpu;
	const struct task *t;	/* this run's task, or NULL */
	const struct task *base;	/* the baseline's task, or NULL */
	const struct gpuinfo *gi;	/* GATE_UNATTR: the GPU */
	uint32_t occ;		/* the task's occurrence among the tasks of
				   its GPU and name, from 1 (0: no task) */
	const char *unit;	/* of value and limit: "MiB", "s" or NULL */
	char value[32];		/* JSON numbers, "" when there is none */
	char limit[32];
	char *src;		/* where the limit comes from: "defaults,
				   c.yaml:3", "--max-leak", "built-in" */
	char *msg;		/* what was found, for people */
};

/* The verdicts on a run; owns v and the strings in it. */
struct verdicts {
	const struct run *now;
	const struct run *base;	/* NULL without a baseline */
	const char *basepath;	/* its file */
	const struct limits *lim;
	int input_failed;	/* an input could not be read: one error */
	int nothing_judged;	/* set by gates_eval: no check passed or
				   failed (an error verdict says so) */
	uint64_t stopped_at;	/* set by gates_eval: the recording's last
				   device sample when the recorder stopped
				   before the command ended, else 0 */
	char stopped_by[32];	/* then: the whole seconds before the end */
	struct verdict *v;	/* grouped by GPU, in order of host and gpu */
	size_t nv, capv;
	size_t count[4];	/* by enum result */
	const struct task **match;	/* per task of now: its baseline */
	enum result *tres;	/* per task of now: fail if a check failed,
				   else pass if one passed, else skipped */
	uint32_t *occ;		/* per task of now: as verdict.occ */
	size_t matched, appeared, vanished;
};

/*
 * Judge: set now, base, basepath, lim and input_failed in vs (the rest
 * zeroed), then call.  The runs and limits must outlive vs.
 */
void gates_eval(struct verdicts *vs);
void gates_verdicts_release(struct verdicts *vs);

/* "max_leak_mib", "max_release_delay_s"...: the rule as the YAML says it. */
const char *gate_name(enum gate g);
/* "pass", "fail", "skipped", "error". */
const char *gates_result_name(enum result r);

/* "gpu 0", or "node1:gpu 0" when there is a host. */
char *gates_gpu_label(const char *host, uint32_t gpu, char *buf, size_t n);
/*
 * "python3 train.py (pid 4242)", or "NAME (declared)", or "pid 4242" for
 * a task without a name (captures carry none).
 */
char *gates_task_label(const struct task *t, char *buf, size_t n);
/* The task's name, or "pid 4242" (in buf) when it has none. */
const char *gates_task_name(const struct task *t, char *buf, size_t n);
/* A release delay as the task table writes it ("45", "4.5"); 32 bytes. */
char *gates_delay_str(const struct task *t, char *buf);
/* The same delay in ns: what every rule compares. */
uint64_t gates_delay_rounded(const struct task *t);

#endif
