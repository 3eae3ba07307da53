/* SPDX-License-Identifier: ISC */
/*
 * runs.h: the merge in passes, for more inputs than may be open at once
 * (a directory of thousands of node logs under "ulimit -n 1024").
 *
 * The inputs that can be opened again (regular files) are read in groups,
 * each group merged as the stream merges its inputs, into a run: a
 * temporary file in a private directory (outfile_tmpdir_make(),
 * outfile.h) of the group's records in merged order, in gpumem's binary
 * record stream form (rec_bin_put), each with the input it came from.
 * Runs are merged into fewer runs until they and the inputs that cannot
 * be opened again (pipes, standard input: they stay open from the start,
 * counted once) fit; the stream then merges those, its lanes, as it
 * merges inputs.  Records of two lanes at the same time go in the order
 * of their inputs, as one pass orders them, so the merged order is one
 * pass's.
 *
 * Everything reading an input does besides records is kept with the
 * record it came after, as the -j workers keep it (workers.h): its
 * messages (msg_capture), the lines it passed over, the GPU identities it
 * names, a --strict exit (struct source_defer).  The stream does each when
 * it reads that input on past that record, where one pass reads it on:
 * the same messages in the same order, the same counts and summaries, the
 * same GPU numbering, the same exit.  What an input says before its first
 * record is done at the start, in the order of the inputs.  The passes
 * read on one thread (-j does not apply to them).
 *
 * Memory: a group's windows while it is read; two records per lane in the
 * last merge.
 */
#ifndef GPUMEM_RUNS_H
#define GPUMEM_RUNS_H

#include <stddef.h>

#include "rec.h"
#include "source.h"

/*
 * The inputs a run of the reader may keep open at once: --max-open when
 * given, else the open-file limit (raised to the hard limit) less
 * RUNS_RESERVE descriptors for everything else a tool opens (its output
 * files, gnuplot's pipes, the run being written, a compressed twin
 * compared).  At least 2.
 */
#define RUNS_RESERVE 64
size_t runs_max_open(const struct readopts *opt);

/*
 * Whether input s can be closed now and opened again by its path for its
 * pass: a regular file, not standard input.
 */
int runs_can_park(const struct source *s);

struct runs;

/*
 * Read the n inputs src[] in passes, at most maxopen open at once.  The
 * parked ones (source_park) are opened again for their group, read, and
 * parked again: src[] entries are replaced.  The others (inputs that
 * could not be parked, or that have nothing to read) are left to the last
 * merge.  Trouble with the temporary files is fatal (exit 2).
 */
struct runs *runs_make(struct source **src, size_t n, size_t maxopen,
    const struct readopts *opt, struct gpumap *gpus);

/* The lanes of the last merge (runs and inputs left open). */
size_t runs_lanes(const struct runs *r);

/*
 * Do what each input did before its first record, in the order of the
 * inputs, and read each lane's first record.  A --strict exit happens here
 * as in one pass.
 */
void runs_start(struct runs *r);

/*
 * As workers_head / workers_pop / workers_fill (workers.h), per lane: the
 * earliest record of lane l (its src is its input), NULL at its end; take
 * it; read on (what its input did after it is done here).
 */
const struct rec *runs_head(struct runs *r, size_t l);
void runs_pop(struct runs *r, size_t l);
void runs_fill(struct runs *r, size_t l);

/* Close the runs, remove the temporary directory. */
void runs_free(struct runs *r);

#endif
