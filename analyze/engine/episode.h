/* SPDX-License-Identifier: ISC */
/*
 * episode.h: memory episodes of a GPU no process list covers (a log of
 * device figures alone: nvidia-smi --query-gpu, dmon, DCGM), found from
 * the usage curve.  The engine hands every judged device sample of such a
 * GPU here; the episodes become rows of the task table (pid 0, name
 * "(unlisted)", note "device-only"), so that tasks, gantt, report and
 * check give one answer for the log most people keep.
 *
 * The rules, for one GPU (docs/analysis.md, "Device-only logs"):
 *
 *   base      the idle level: the configured idle_mib, else the usage at
 *             the first sample.  Memory above it is held by someone.
 *   episode   a rise of usage beyond the tolerance over the level of the
 *             episodes open below it (the base when none).  A rise
 *             within EPISODE_RAMP of the latest episode's latest rise is
 *             that episode's own (one program allocating in steps:
 *             context, then weights); a later one is a new episode on top.
 *   release   a drop beyond the tolerance that the next sample confirms
 *             (a one-sample dip gives nothing back).  The drop goes to
 *             the open episode whose memory it matches within the
 *             tolerance (the latest such; when several match, every one
 *             of them is noted ambiguous), else to all of them when it
 *             brings usage back to the base, else to the latest opened
 *             first (the one that is left gets smaller).  A drop below
 *             the base before any episode opened is an episode that began
 *             before the log: its start is the first sample, noted gap.
 *   times     start: the first sample above; end: the latest sample that
 *             still showed its memory; release: the sample of the drop.
 *             The process behind it ended somewhere after the sample
 *             before the start and no later than the release, so the
 *             delay is bounded by 0 and release - that sample; the point
 *             value is release - end.
 *   leaked    what is still open at the last sample: its memory.
 *
 * Episodes are kept until episodes_finish() (the engine learns only at
 * the end of the data whether a GPU ever had a process listed): at most
 * EPISODE_MAX of them a GPU; the ones beyond are counted and merged into
 * the last open one.
 */
#ifndef GPUMEM_EPISODE_H
#define GPUMEM_EPISODE_H

#include <stdint.h>

#include "engine.h"
#include "gtime.h"

#define EPISODE_MAX 4096	/* episodes kept, one GPU */
#define EPISODE_OPEN 64		/* open at once, one GPU */
#define EPISODE_NAME "(unlisted)"
#define EPISODE_RAMP (5 * NS_PER_SEC)	/* rises this close: one episode */

struct episodes;

/* has_idle: idle is the configured idle level (MiB). */
struct episodes *episodes_new(int has_idle, uint32_t idle);

/* A judged device sample: its time and usage (MiB); tol in MiB. */
void episodes_sample(struct episodes *ep, uint64_t ts, int64_t usage,
    int64_t tol);

/*
 * The end of the data: what is open is leaked.  fn gets each episode as
 * a task (host and gpu unset), in order of judgement.  Return how many
 * episodes were merged for lack of room (EPISODE_MAX, EPISODE_OPEN).
 */
uint64_t episodes_finish(struct episodes *ep,
    void (*fn)(void *ctx, struct task *t), void *ctx);

void episodes_free(struct episodes *ep);

#endif
