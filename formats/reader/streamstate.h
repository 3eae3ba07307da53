/* SPDX-License-Identifier: ISC */
/*
 * streamstate.h: the merged stream's state, shared by its files and
 * private to them (stream.h is the stream's contract): stream.c opens,
 * reads and closes it and ends the processes that vanish, merge.c merges
 * its inputs in time order, inputs.c opens them (files, directories),
 * dupes.c tells duplicate samples and overlapping recordings.
 */
#ifndef GPUMEM_STREAMSTATE_H
#define GPUMEM_STREAMSTATE_H

#include "gpumap.h"
#include "heap.h"
#include "hmap.h"
#include "stream.h"

struct span;

/*
 * What the stream keeps of the host an input gave last: its hash (for the
 * duplicate check) and its GPUs' spans by index (for the overlap check).
 * An input's records come in runs of one host, most often one host from
 * start to end (a node log), so one string compare a record finds both.
 * Kept for the whole stream instead, it missed on every GPU of every host
 * once the merge alternated between inputs: at 200 node logs the lookups
 * it was meant to save were a fifth of the merge thread.
 */
#define LAST_NGPU 64		/* spans kept by GPU index, below this */
struct lasthost {
	struct sbuf host;
	uint64_t hash;
	struct span *span[LAST_NGPU];	/* NULL: look it up */
};

struct stream {
	struct source **src;
	size_t n;
	struct workers *w;	/* -j: worker threads decode, or NULL */
	size_t maxopen;		/* inputs open at once (runs_max_open) */
	size_t nopen;		/* inputs open now */
	int passes;		/* too many: merge in passes (runs.h) */
	struct runs *runs;	/* then the last merge's lanes */
	uint64_t *dropped;	/* records of each input the stream skipped */
	const struct readopts *opt;
	struct gpumap *gpus;
	struct heap heap;	/* sources with records, by their head */
	int started;
	int status;
	struct resolver *res;
	int res_done;
	int live;		/* an input is read live */
	struct rec cur;
	uint64_t count;
	int said[GPUMAP_FULL + 1];	/* enum gpumap_how, said once each */
	uint64_t gpufull;	/* records skipped: GPUMAP_MAX GPUs known */
	struct hmap keycache;	/* "host\0key" as logged -> index + 1 */
	uint64_t keygen;	/* gpumap_gen() when it was filled */
	struct sbuf kc;
	struct dupslot *dup;	/* DUP_NSLOT, for duplicate samples */
	uint64_t nonamehash;	/* hmap_hash of "", a record without a name */
	struct lasthost *last;	/* each input's last host, or NULL */
	struct hmap seen;	/* "host\0gpu" -> struct span, device rows */
	struct sbuf sk;
	int overlap_said;
	uint64_t ticks;		/* records, for the progress line */
	uint64_t t0;		/* when reading started (progress), ns */
	struct rotation *rot;	/* captures joined into one (rotate.h) */
};

#define SRC_ADDED (1U << 31)	/* in rec.src: a record the stream added */
#define SRC_PLACED (1U << 30)	/* added at a time no input had */
#define SRC_FLAGS (SRC_ADDED | SRC_PLACED)

/*
 * The next record of the merge of the inputs, in time order, into *out:
 * 1, or 0 at the end of all of them (merge.c).
 */
int stream_merge_next(struct stream *st, struct rec *out);

/* Open path as one more input of the stream (inputs.c). */
void stream_add_source(struct stream *st, const char *path);
/* Every log of a directory (what gpumem record wrote) as inputs. */
void stream_add_directory(struct stream *st, const char *dir);
/* The soft limit of open files raised to the hard one, once. */
void stream_raise_fd_limit(void);

/*
 * What is kept of input src's last host, which becomes host if it was
 * not (dupes.c).
 */
struct lasthost *stream_last_host(struct stream *st, unsigned src,
    const char *host);
/* Whether r repeats the record before it of its GPU or process. */
int stream_duplicate(struct stream *st, const struct rec *r,
    const struct lasthost *h);
/* Device samples of one GPU from two inputs at the same times: say so. */
void stream_overlap_check(struct stream *st, const struct rec *r,
    struct lasthost *h);

#endif
