/* SPDX-License-Identifier: ISC */
/*
 * fuzz.h: what the fuzz targets share.  Each tests/fuzz/fuzz_<name>.c
 * defines LLVMFuzzerTestOneInput() for one parser; it is linked either
 * with libFuzzer (make fuzz, clang) or with replay.c, a plain main that
 * replays files and folders (make, gcc: the test suite replays every seed
 * and every kept find).
 *
 * The targets reach the parsers the way a file does: the input is written
 * to a memory file (memfd) and opened by its /proc/self/fd path, so that
 * gzip detection, the line reader, format detection, the reorder window
 * and the stream's resolver all run as they do for `gpumem read FILE`,
 * and no test-only entry point is needed in the library.
 *
 * A target that finds a broken invariant (output gpumem cannot read back,
 * a frame the decoder hands over that fails its own check) calls
 * fuzz_fail(), which aborts: for the fuzzer a crash like any other.
 */
#ifndef GPUMEM_FUZZ_H
#define GPUMEM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * Put data[0..size) in the memory file and return a path that opens it
 * (valid until the next call).  The file is made once per process.
 */
const char *fuzz_file(const uint8_t *data, size_t size);

/*
 * Read data as gpumem read does, with --format fmt (NULL: detect), and
 * append the record stream written to out (when out is not NULL).  Return
 * the stream's status (EXIT_OK or EXIT_TROUBLE).
 */
int fuzz_read(const char *fmt, const uint8_t *data, size_t size,
    struct sbuf *out);

/*
 * Read data with --format fmt and check that what gpumem wrote reads back
 * as the same stream, byte for byte: gpumem must read all it writes.
 */
void fuzz_read_roundtrip(const char *fmt, const uint8_t *data, size_t size);

/*
 * fuzz_read_roundtrip(), and when no record came out, again with --start
 * and --interval, which a log without times of its own needs (so that the
 * fuzzer reaches the parser behind that refusal).
 */
void fuzz_read_clocked(const char *fmt, const uint8_t *data, size_t size);

/* The CSV table of l, as gpumem tasks writes it, in malloc'd *buf. */
struct tasklist;
void fuzz_tasks_csv(const struct tasklist *l, char **buf, size_t *len);

/* A broken invariant: say which and abort. */
void fuzz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/*
 * A cursor over the fuzzer's bytes, for targets that build structured
 * input (fragments, segments) from them.  Reads past the end give 0.
 */
struct fuzz_in {
	const uint8_t *p;
	size_t n, off;
};
uint8_t fuzz_u8(struct fuzz_in *f);
uint16_t fuzz_u16(struct fuzz_in *f);
uint32_t fuzz_u32(struct fuzz_in *f);
/* Up to n bytes; *got says how many there were. */
const uint8_t *fuzz_bytes(struct fuzz_in *f, size_t n, size_t *got);
int fuzz_done(const struct fuzz_in *f);

/* Where a target puts what it computed, so that nothing is optimised away. */
extern volatile uint64_t fuzz_sink;

#endif
