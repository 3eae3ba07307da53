/* SPDX-License-Identifier: ISC */
/*
 * chunks.h: one large text input decoded in chunks by threads (read -j
 * on one plain file), its records taken in file order, as -j 1 reads
 * them.
 *
 * The input's worker, the thread that reads it (with -j 2 the main
 * thread, which then merges and writes the records too: the chunk
 * thread and it are the two; with more, a worker thread of workers.h,
 * jobs - 1 chunk threads beside it), reads the first lines as -j 1 does,
 * until its parser can be forked (struct format's fork: its state after
 * the header; a --query-gpu CSV's once its GPUs are known).  The rest of the file is cut into chunks of about
 * CHUNKS_SIZE bytes at line starts: chunk k holds the lines that start in
 * [P + k * size, P + (k + 1) * size), P the offset after those first
 * lines.  Chunk threads read each chunk with pread(2), split it into
 * lines as input_getline does and give them to a fork of the parser,
 * whose calls (records, bad lines, skips, GPU identities, remarks) are
 * kept, each with its line (source.h's struct chunkcap).  The worker
 * then does, line after line, what the parser did (source_emit, the
 * messages with their line numbers, the counts), then adds the fork's
 * counts into the input's parser (struct format's join): the same
 * records, messages in the same order, naming the same lines.
 *
 * A fork stops at a line it cannot read alone: a line with NUL bytes,
 * a byte order mark or of CHUNKS_MAXLINE bytes or more, a call that is
 * not kept (format.h says which), source_fork_stop.  The worker reads that line and the
 * rest of the input itself, as -j 1 (its input passed over the lines
 * before).  A compressed, decoded (UTF-16) or live input, a format
 * without fork, or an input shorter than two chunks is read as today.
 * The chunks end at the file's size when they start: lines appended to
 * a regular file while it is read are not read (-j 1 reads what is there
 * when it comes to the end; a log still written is read with --live,
 * or with -j 1).  With GPUMEM_CHUNK_TRACE set, chunks_stop() says how
 * many chunks forks read and from which line the worker read (tests).
 */
#ifndef GPUMEM_CHUNKS_H
#define GPUMEM_CHUNKS_H

#include <stddef.h>

#include "source.h"

#define CHUNKS_SIZE (1U << 20)	/* bytes a chunk, about */
#define CHUNKS_AHEAD 4		/* chunks decoded ahead of the worker */
#define CHUNKS_MAXLINE (64U * 1024)	/* longer lines: read serially */
#define CHUNKS_MAXHEAD 1000	/* lines read for the header, at most */

/*
 * The chunk size: CHUNKS_SIZE, or the environment's GPUMEM_CHUNK_SIZE
 * (bytes, for the tests: small files in many chunks).
 */
size_t chunks_size(void);

/*
 * Whether input s (opened, not read yet) may be read in chunks: a
 * regular file, not compressed nor decoded, not live, its format has
 * fork, and at least two chunks long.
 */
int chunks_can(const struct source *s);

/*
 * Start threads chunk threads for s (chunks_can); s->chunks holds them.
 * From now on source_fill() of s goes through chunks_step().
 */
void chunks_start(struct source *s, unsigned threads);

/*
 * One step of s, as a text format's step (source.c): one line's doing.
 * Return 1 for more, 0 at the end, -1 when s is to be read from its
 * input from now on (the caller reads on as -j 1).
 */
int chunks_step(struct source *s);

/* Stop the threads and free them (s->chunks NULL again). */
void chunks_stop(struct source *s);

/* --- What a fork's calls do, kept (reporting.c, clocks.c) --- */

void chunks_emit(struct source *cs, const struct rec *r, int late);
void chunks_bad(struct source *cs, const char *where, const char *body);
void chunks_skip(struct source *cs, const char *why);
void chunks_learn(struct source *cs, const char *host, const char *uuid,
    const char *bus, int64_t index);
void chunks_warn(struct source *cs, const char *text);
/* A call a fork cannot make: the chunk stops before this line. */
void chunks_bail(struct source *cs);
/* Whether the line the fork reads had no "\n" (the file's last). */
int chunks_unterminated(const struct source *cs);

#endif
