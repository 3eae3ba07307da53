/* SPDX-License-Identifier: ISC */
/*
 * snapdoc.h: one nvidia-smi -q report (XML or text) being read: its GPUs,
 * their memory and their processes, emitted as records when it is whole.
 *
 * The GPU index: nvidia-smi -q lists every GPU in index order, so when a
 * report holds as many GPUs as its "attached GPUs" count, the position is
 * the index.  Otherwise (nvidia-smi -i, or a trimmed file) a GPU is keyed
 * by its bus id (else its UUID) and numbered as gpumap.h numbers GPUs of
 * logs without indexes.  A device record without total memory gets
 * reserved + used + free, as nvsmi.c computes it.
 */
#ifndef GPUMEM_SNAPDOC_H
#define GPUMEM_SNAPDOC_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "sclock.h"

#define SNAP_RESERVED (1U << 8)	/* with enum rec_has, in snapgpu.has */

struct snapproc {
	uint32_t pid;		/* 0 until read: such a process is dropped */
	int has_used;
	uint32_t used;
	char *name;		/* owned, or NULL */
};

struct snapgpu {
	char *bus, *uuid;	/* owned, or NULL */
	unsigned has;		/* REC_USED, REC_FREE, REC_TOTAL, SNAP_RESERVED */
	uint32_t used, free, total, reserved;
	int complete;		/* its report part ended */
	struct snapproc *procs;
	size_t nprocs, cap;
};

struct snapdoc {
	int64_t attached;	/* the count the report gives, or -1 */
	struct snapgpu *gpus;
	size_t ngpus, cap;
	struct sbuf key;
};

void snapdoc_init(struct snapdoc *d);
/* Forget the GPUs (for the next report). */
void snapdoc_reset(struct snapdoc *d);
void snapdoc_release(struct snapdoc *d);

/* A new GPU (bus id, or NULL), which becomes the current one. */
struct snapgpu *snapdoc_gpu(struct snapdoc *d, const char *bus);
/* The current GPU, or NULL. */
struct snapgpu *snapdoc_cur(struct snapdoc *d);
/* A new process of the current GPU (which must exist). */
struct snapproc *snapdoc_proc(struct snapdoc *d);
/* The current GPU's last process, or NULL. */
struct snapproc *snapdoc_curproc(struct snapdoc *d);

/* Complete GPUs so far. */
size_t snapdoc_complete(const struct snapdoc *d);

/*
 * Emit the report's poll mark on channel origin, then each complete GPU's
 * device record and process records, at ts.  GPUs without used or free
 * memory give no device record (counted as skipped).  Return the records
 * emitted (the mark not counted).
 */
size_t snapdoc_emit(struct snapdoc *d, struct source *s, uint64_t ts,
    unsigned origin);

/* What a report is called in the messages of snapdoc_time. */
struct snapdoc_words {
	const char *doc;	/* "report" */
	const char *has_no;	/* "has no Timestamp line" */
	const char *without;	/* "without a Timestamp line" */
	const char *skipped;	/* for source_skip: "reports without a time" */
};

/*
 * The time of a report that gives none of its own, the n-th of the input
 * (from 1), nrec records emitted before it: the next of clock (sclock.h).
 * Return 0 with *ts set, or -1 when --start and --interval cannot place
 * it: the input is refused when it is the first report and nothing was
 * emitted, else the report is skipped, said once (*said).
 */
int snapdoc_time(struct source *s, struct sclock *clock,
    const struct snapdoc_words *w, uint64_t n, uint64_t nrec, int *said,
    uint64_t *ts);

#endif
