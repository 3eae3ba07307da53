/* SPDX-License-Identifier: ISC */
/*
 * unzip.h: the decompressors gpumem reads through, one interface over
 * zlib (gzip), libzstd (zstd), liblzma (xz) and libbz2 (bzip2): the
 * compressions logrotate offers.  A compression is told by the magic
 * number of its members, never by a file name.
 *
 * A compressed file is one or more members (gzip members, zstd frames
 * and skippable frames, xz streams, bzip2 streams: what `cat a.gz b.gz`,
 * pigz, pzstd and pbzip2 make).  unzip_step decodes one member at a time
 * and says when it ends; the caller then checks with unzip_next that
 * what follows starts another member, or is the padding the format
 * allows between them (xz), or else is trailing garbage.  input.c is
 * the one caller.
 *
 * Memory: a zstd frame's header says the window its decoder needs, an
 * xz block's header the dictionary; both can ask for gigabytes in a file
 * of a few kilobytes.  All decoders open at once share one budget
 * (unzip_set_budget, UNZIP_BUDGET_MIB by default): a decoder holds what
 * its members have asked for, the most of them, until unzip_free, and a
 * member that would take the decoders past the budget is refused with a
 * message, not obeyed; the other decoders go on.  gzip and bzip2 need a
 * small amount fixed by their formats (at most 32 KiB and 3.7 MB), not
 * counted.
 */
#ifndef GPUMEM_UNZIP_H
#define GPUMEM_UNZIP_H

#include <stddef.h>
#include <stdint.h>

#define UNZIP_BUDGET_MIB 512	/* the default budget, in MiB */

/*
 * Set the budget of all decoders together to mib MiB (at least 1).  For
 * the options, before the first decoder starts; decoders that hold more
 * already keep it.  Thread-safe: decoders hold and release under a lock.
 */
void unzip_set_budget(uint64_t mib);

struct unzip;

/*
 * The name ("gzip", "zstd", "xz", "bzip2") of the compression whose member
 * p[0..n) starts with, or NULL.  Give it bytes until unzip_unsure says
 * they are enough.
 */
const char *unzip_sniff(const unsigned char *p, size_t n);

/*
 * Whether p[0..n) is too short to tell: it is the start of a magic number
 * (or empty), so unzip_sniff needs more bytes.  A reader reads on only
 * while this says so.
 */
int unzip_unsure(const unsigned char *p, size_t n);

/* A decoder for the compression named by unzip_sniff.  Dies out of memory. */
struct unzip *unzip_new(const char *name);

void unzip_free(struct unzip *z);

/* Its name, as unzip_sniff said it. */
const char *unzip_name(const struct unzip *z);

/*
 * Decode from src[0, *srclen) into dst[0, *dstlen); set *srclen and
 * *dstlen to the bytes used and made.  at is the offset of src[0] in the
 * compressed file, for messages.  Return 0 (call again: with more input
 * when none was used and none made), 1 when a member has ended (call
 * unzip_next before decoding on), or -1 when the data is damaged or asks
 * for more memory than the budget has left: unzip_error says so, with the
 * offset.  What was made before an error is in dst.  A step may use no
 * input and make nothing while src holds the start of a member's header
 * and not all of it: the caller gives it more bytes behind them.
 */
int unzip_step(struct unzip *z, const unsigned char *src, size_t *srclen,
    unsigned char *dst, size_t *dstlen, uint64_t at);

/*
 * After a member ended: what p[0..n) is.  1 another member starts there
 * (the decoder is ready for it); 2 the first *skip bytes are padding
 * between members (skip them, ask again); 0 something else (trailing
 * garbage); -1 n is too short to tell (read more, or at the end: garbage).
 */
int unzip_next(struct unzip *z, const unsigned char *p, size_t n,
    size_t *skip);

/* The last error: "corrupt gzip data near byte 1234: invalid block type". */
const char *unzip_error(const struct unzip *z);

#endif
