/* SPDX-License-Identifier: ISC */
/*
 * run.h: a run as gpumem check judges it (gates.h): its tasks, and its
 * GPUs with their first and last device samples, collected from the
 * engine's callbacks or a task table, then sorted once.
 */
#ifndef GPUMEM_RUN_H
#define GPUMEM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "hmap.h"
#include "tasktab.h"

/* A GPU of a run, with its first and last device samples. */
struct gpuinfo {
	const char *host;	/* owned by the run; "" for none */
	uint32_t gpu;
	uint64_t samples;	/* whole-device samples; 0: none */
	uint64_t first_ts, last_ts;
	int64_t first_unattr, last_unattr;
	uint32_t last_usage;
};

/*
 * A run: its tasks and GPUs.  Fill with run_task() and run_sample() (the
 * engine's callbacks fit), then call run_done() once.
 */
struct run {
	struct tasklist tl;	/* sorted by host, gpu, start, pid by run_done */
	struct gpuinfo *gpu;	/* sorted by host and gpu by run_done */
	size_t ngpu, capgpu;
	size_t captask, capstrs;	/* room in tl.t and tl.strs */
	size_t last;		/* the GPU of the last sample: a cache */
	struct hmap index;	/* "host\0gpu" -> index in gpu + 1, until
				   run_done() sorts them */
	int table;		/* read from task tables: no device samples */
};

void run_init(struct run *r);
/* Append a copy of t (its strings too). */
void run_task(struct run *r, const struct task *t);
/* A device sample: remembered when it is its GPU's first or last. */
void run_sample(struct run *r, const struct sample *s);
/* Sort the tasks and GPUs; add the GPUs that have tasks but no sample. */
void run_done(struct run *r);
void run_release(struct run *r);

#endif
