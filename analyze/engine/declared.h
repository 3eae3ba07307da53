/* SPDX-License-Identifier: ISC */
/*
 * declared.h: tasks declared from outside (gpumem tasks --tasks FILE),
 * judged from a GPU's usage alone: device-only logs (query-gpu alone,
 * dmon, DCGM) have no per-process records.  The engine hands every
 * device sample of a GPU here; nothing else is known.
 *
 * A declared task names a GPU (host, index), a start and an end.  Between
 * two consecutive samples of the GPU, an "event" is a declared start or
 * end; the samples are the only evidence.  The rules, for one GPU:
 *
 *   times        a task is judged from its "from" (at or before its
 *                start) to its "until" (at or before its end): for a
 *                declared task they are its start and end; an estimated
 *                task's process started after from (the poll before its
 *                first listing) and ended after until (its last listing).
 *                Below, "the start" is from and "the end" is until.
 *   start level  the usage at the last sample before the start (the
 *                configured idle_mib, or the first sample, when there is
 *                none).
 *   held         what usage rose by over the start: from the start level
 *                to the level at the last sample of its ramp before the
 *                next event (another start or end on the GPU, or its own
 *                end); the ramp ends at a rise more than EPISODE_RAMP
 *                after the start or the ramp's latest rise.  Tasks that
 *                start between the same two samples share the rise evenly
 *                (a note says so, as it does when usage was still rising
 *                at the next start).  Context memory is a job's start's,
 *                not its middle's: a rise after the ramp, as one while no
 *                task or several run, is memory of a process not declared
 *                (a desktop), kept as such while tasks come and go, and
 *                later falls take it away first, but for a fall that is
 *                all the memory of waiting tasks (see release).  Other
 *                falls go to the tasks waiting for their memory, or, when
 *                none waits, are memory given back before a declared end
 *                (see early).
 *   peak         the most held ever was: the most usage rose above the
 *                start level in its own rise.
 *   early        memory given back that no waiting task claims is the
 *                next ending task's when it covers all of its memory, or
 *                when it ran alone (what does not cover it is what it
 *                shrank by): it is released at its declared end, delay 0,
 *                with a note (a job's end is often logged after its
 *                process's).
 *   release      the first sample at or after the end at which usage has
 *                dropped by the task's held memory (within the tolerance)
 *                from the level just before its end, even when other
 *                declared tasks still run.  That level is moved by what
 *                the data shows since: it follows rises (running tasks
 *                grow, new tasks start) and it loses the memory of the
 *                other tasks released meanwhile.  When several tasks wait,
 *                a drop goes to the set of them whose memory makes up the
 *                most of it without exceeding it (within the tolerance);
 *                while tasks run, it must make up all of it (the rest may
 *                be a running task's early end).  A tie goes to tasks
 *                giving back all their memory, then to the latest ended,
 *                with a note; so does a note when several came back in
 *                one step.
 *   dip          what came back at a sample, claimed by no task while
 *                tasks wait, and is in use again at the next sample was
 *                no return: that rise is neither new memory nor a task's.
 *   delay        release - end.  The memory came back somewhere between
 *                the sample before the release (or the end, if later) and
 *                the release: delay_min and delay_max are those bounds,
 *                delay_max from until (the earliest the task may have
 *                ended).
 *   leaked       for a task still waiting at the last sample: its held
 *                memory less what has come back (what came back without
 *                matching a task is given to the earliest ended first, at
 *                each end and at the last sample).
 *   running      a task that had not ended by the last sample, or whose
 *                GPU has no samples at all (then a warning names the
 *                declared host and GPU and the hosts the data has).
 *
 * A task without a host (the --tasks file has no host column) applies to
 * its GPU index on every host of the data: a log of one machine needs no
 * host.  When the data has several hosts with that GPU, a warning says the
 * task was judged on each.
 *
 * Tasks are emitted through a callback as they are judged (released), or
 * at declared_finish() (leaked, running).  Notes (what the data could not
 * tell) go to stderr as warnings, ten at most.
 */
#ifndef GPUMEM_DECLARED_H
#define GPUMEM_DECLARED_H

#include <stdint.h>

#include "config.h"
#include "engine.h"

/* A declared task as judged.  Strings live until the emit call returns. */
struct declared_task {
	const char *host;
	uint32_t gpu;
	const char *name;
	uint32_t pid;			/* 0, or an estimated process's */
	uint64_t start, end;
	uint32_t peak, held;
	uint64_t release;		/* 0: not released */
	uint64_t delay_min, delay_max;	/* released: bounds of release - end */
	int has_leaked;
	uint32_t leaked;
	enum task_status status;
	const char *note;		/* what the data could not tell, or NULL */
};

/* Called with the ctx and gpu given to the call that judged the task. */
typedef void declared_emit_fn(void *ctx, void *gpu,
    const struct declared_task *t);

struct declared;	/* every task declared to one engine */
struct dgpu;		/* the declared tasks of one GPU, and its state */

/*
 * Declare a task on (host, gpu); host "" is no host (every host); pid is
 * 0 but for a process whose memory was never listed (engine.h).  It is
 * judged from from to until (from <= start, until <= end; see times).
 * *dp and *gp are created when NULL; *gp is the GPU's state the engine
 * keeps.  Declare before the first sample.
 */
void declared_add(struct declared **dp, struct dgpu **gp, const char *host,
    uint32_t gpu, uint32_t pid, const char *name, uint64_t start,
    uint64_t end, uint64_t from, uint64_t until);

/* The number of tasks declared on a GPU (0 for NULL). */
size_t declared_count(const struct dgpu *g);

/*
 * A device sample of (host, gpu) at ts with the usage in MiB.  *gp is
 * created at the GPU's first sample (with the tasks without a host that
 * apply to it).  Tasks released at ts are emitted.  Nothing is done when
 * d is NULL (no task declared).
 */
void declared_sample(struct declared *d, struct dgpu **gp, const char *host,
    uint32_t gpu, uint64_t ts, int64_t usage, const struct config *cfg,
    declared_emit_fn *emit, void *ctx, void *gpu_ctx);

/* The end of the data for a GPU: emit its tasks not yet emitted. */
void declared_finish(struct declared *d, struct dgpu *g,
    declared_emit_fn *emit, void *ctx, void *gpu_ctx);

/* Free a GPU's state (NULL is fine). */
void declared_free_gpu(struct dgpu *g);

/* Free d (NULL is fine). */
void declared_free(struct declared *d);

#endif
