/* SPDX-License-Identifier: ISC */
/*
 * collect.h: what the charts show, read from the inputs in one pass.
 *
 * Inputs are recognised by their first line: the CSV of "gpumem usage"
 * (with or without --every), the task table of "gpumem tasks", or anything
 * else, which is read as gpumem read reads it (record streams, nvidia-smi
 * logs, captures) and given to the analysis engine once: its usage
 * samples feed each GPU's reduced curves (series.h) and its tasks the
 * markers and the task list in the same pass.  The inputs of a run are
 * logs, or task tables and usage curves together: what per-node runs
 * wrote, reduced (docs/scale.md); the usage curves all of single samples
 * or all of one --every (else trouble, said), a bucket counting as the
 * samples it stands for.  Standard input is looked at and given back
 * (input_keep), so "gpumem tasks | gpumem gantt" and "gpumem read | gpumem
 * gantt" both work.
 *
 * Memory: the curves cost O(width) per GPU and the markers O(marks) per
 * GPU, whatever the length of the input; only keep_tasks (Gantt, report)
 * keeps one row per task.  At most COLLECT_MAXGPUS GPUs are charted
 * (maxgpus, when set: the report's pages), the first seen: the samples of the others are left out of the curves (and
 * counted in `uncharted', their GPUs in `ng_uncharted', said once even
 * with -q: a cut is never hidden), their tasks are still counted and
 * kept.
 */
#ifndef GPUMEM_COLLECT_H
#define GPUMEM_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "engine.h"
#include "readopt.h"
#include "series.h"
#include "tasktab.h"

#define COLLECT_MAXGPUS 256	/* GPUs with curves and markers */
#define COLLECT_MAXPAGES 1024	/* the same, for charts on many pages */
#define COLLECT_MAXCOUNT 65536	/* GPUs beyond those counted, at most */

/* The kinds of input. */
enum collect_kind {
	COLLECT_RECORDS = 1 << 0,	/* record streams and logs: the engine */
	COLLECT_USAGE = 1 << 1,		/* gpumem usage CSV */
	COLLECT_TASKTAB = 1 << 2	/* gpumem tasks CSV */
};

/* One GPU as the charts see it. */
struct gpuview {
	char *host;
	uint32_t gpu;
	struct series ser;	/* the reduced curves (when series was asked) */
	uint64_t nsamples;
	uint64_t first, last;	/* times of its first and last samples */
	int64_t unattr_first;	/* unattributed memory at the first sample */
	int64_t unattr_last;	/* unattributed memory at the last sample */
	int64_t ymax;		/* the most in use or in total */
	int64_t umax;		/* the most in use */
	uint32_t total;		/* the latest memory_total, 0 unknown */
	uint64_t interval;	/* sampling interval from its tasks, 0 unknown */
	struct task *marks;	/* the tasks marked on its curves (own strings) */
	size_t nmarks;
	uint64_t ntasks, nleaked, nreleased, nrunning;
};

struct collect_opts {
	unsigned accept;	/* enum collect_kind: what the tool takes */
	const char *needs;	/* for messages: "a record stream or a usage curve" */
	size_t width;		/* buckets per GPU (pixel columns); 0: no curves */
	size_t marks;		/* tasks marked per GPU on the curves */
	int keep_tasks;		/* keep every task in tasks */
	size_t maxgpus;		/* GPUs charted; 0: COLLECT_MAXGPUS */
	const struct readopts *ro;
	const struct config *cfg;
	const char *declared;	/* --tasks FILE for device-only logs, or NULL */
};

struct collection {
	enum collect_kind kind;	/* what was read (0: nothing) */
	struct gpuview **g;	/* in order of host, then GPU */
	size_t ng;
	struct tasklist tasks;	/* every task, with keep_tasks */
	uint64_t first, last;	/* the time range of all that was read */
	int have_range;
	uint64_t ntasks, nreleased, nleaked, nrunning, leaked_mib;
	uint64_t nleaked_unknown;	/* of nleaked: how much, unknown */
	uint64_t interval;	/* the largest sampling interval seen */
	int nhosts;		/* distinct hosts (labels name them when > 1) */
	uint64_t uncharted;	/* samples of GPUs beyond those charted */
	size_t ng_uncharted;	/* those GPUs (ng + this: all with samples) */
	int uncounted;		/* more of them than COLLECT_MAXCOUNT */
	struct gpuid {
		char *host;
		uint32_t gpu;
	} *others;		/* those counted (in no order) */
	size_t nothers;
};

/*
 * Read paths[0..n) (none: standard input) into c.  Return EXIT_OK, or
 * EXIT_TROUBLE after messages: an input could not be read (what the others
 * held is still in c), or the inputs are not of a kind the tool takes, or
 * logs beside tables or curves, or curves of different --every (then c
 * is empty).
 */
int collect_read(struct collection *c, char *const *paths, size_t n,
    const struct collect_opts *o);

void collection_release(struct collection *c);

/*
 * Order of interest, for what to mark and which rows to keep when there
 * are too many: leaked tasks (most MiB first), then released ones (longest
 * delay first), then running ones; ties by end time.  qsort-style: < 0
 * when a is more interesting.
 */
int collect_task_interest(const struct task *a, const struct task *b);

#endif
