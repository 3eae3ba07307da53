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

#include "stream.h"

struct lasthost;

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
