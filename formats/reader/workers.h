/* SPDX-License-Identifier: ISC */
/*
 * workers.h: the inputs of a stream decoded by worker threads (read -j).
 *
 * Each input is read by one thread at a time, exactly as the main thread
 * reads it with -j 1 (source_fill, then its window's earliest record, and
 * again), into batches of records; at most WORKERS_QUEUE batches of
 * WORKERS_BATCH records wait per input (WORKERS_QUEUE1 when there is
 * one), so memory is bounded by the number of inputs, not by their
 * length, and a worker that runs ahead waits (backpressure).  The main
 * thread takes the records in the order it wants them, so the merge is
 * -j 1's merge.  One input makes a pipeline: its worker decodes, the
 * main thread merges and writes; the main thread, the faster stage, is
 * woken when the queue is full, not for every batch.  (One large plain
 * file read in chunks with -j 2 has no worker: the main thread takes
 * the chunks itself, chunks.h.)
 *
 * What decoding does beyond records is recorded with the record it comes
 * before: messages (msg_capture), counts of lines passed over, GPU
 * identities a log names, a --strict exit (struct source_defer).  The
 * main thread does each of them when it reads the input on past that
 * point (workers_fill), which is where -j 1 does them: the same messages
 * in the same order, the same summaries, the same GPU numbering.
 */
#ifndef GPUMEM_WORKERS_H
#define GPUMEM_WORKERS_H

#include <stddef.h>

#include "rec.h"
#include "source.h"

#define WORKERS_BATCH 512	/* records per batch */
#define WORKERS_QUEUE 2		/* batches waiting per input, at most */
#define WORKERS_QUEUE1 8	/* when there is one input (a pipeline) */

struct workers;

/*
 * Start jobs threads (jobs >= 2) reading the n inputs src[] (none of them
 * read yet).  The sources are theirs until workers_stop(); gpus is the
 * run's map, on which the main thread applies what logs name.
 */
struct workers *workers_start(struct source **src, size_t n, unsigned jobs,
    struct gpumap *gpus);

/*
 * Read input i on, as source_fill() does: do what decoding did up to its
 * next record, which becomes its head.  Called once at the start and
 * after each workers_pop() of the input.  A --strict problem exits here.
 */
void workers_fill(struct workers *w, size_t i);

/*
 * The earliest record of input i not taken yet, or NULL at its end.  Its
 * strings stay valid until the second workers_fill() of the input after
 * it was popped (as the window's, window.h).
 */
const struct rec *workers_head(struct workers *w, size_t i);
void workers_pop(struct workers *w, size_t i);

/*
 * Stop the threads (they finish the batch in hand) and free what they
 * hold; the sources are the caller's again, with their counts whole.
 */
void workers_stop(struct workers *w);

/* The CPUs this process may use (1 when it cannot tell). */
unsigned workers_default(void);

/*
 * The threads a run without -j uses for the n inputs src[] (not read
 * yet): for one input, the CPUs when it is read in chunks (chunks.h), is
 * at least WORKERS_CHUNKS chunks long and a CPU is free (the load
 * average of the last minute at most the CPUs less one: on a busy
 * machine the threads' wake-ups and the records kept once more cost
 * more than they gain, 0.9 times -j 1 at a load of 3.3 on 2 CPUs), else
 * 1 (its decoding is about 70% of the work: a pipeline of two threads
 * gains at most 1.4 times with a free core, and nothing on a busy
 * machine); 1 when the inputs other than the largest
 * hold at most a third of its bytes (WORKERS_SHARE): then the worker of
 * the largest is the slowest stage and the batches cost more than the
 * second core saves.  Else the CPUs, at most one per input.  An input
 * whose size is unknown (not a regular file) counts as a large one.
 */
#define WORKERS_SHARE 3
#define WORKERS_CHUNKS 8
unsigned workers_choose(struct source *const *src, size_t n);

#endif
