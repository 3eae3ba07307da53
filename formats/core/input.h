/* SPDX-License-Identifier: ISC */
/*
 * input.h: one input file, plain or compressed with gzip, zstd, xz or
 * bzip2, as a byte stream and as lines.  The compression is told by content
 * (its magic number), never by name; concatenated members (gzip members,
 * zstd frames, xz and bzip2 streams: `cat a.gz b.gz`, pigz, pzstd, pbzip2)
 * are read as one stream, and bytes after the last member that start no
 * new one are an error ("trailing garbage").  "-" is standard input, named
 * "<stdin>" in messages.
 *
 * All data that could be decoded is delivered before an error is reported:
 * a truncated .gz (.zst, .xz, .bz2) yields every line before the cut, then
 * -1.
 *
 * Text encodings are decoded under everything else (peek, read, lines):
 * UTF-16LE and UTF-16BE, told by their byte order mark or, without one,
 * by the NUL byte beside each ASCII character, come out as UTF-8 (what is
 * not UTF-16 as U+FFFD); a UTF-8 byte order mark at the start is dropped,
 * and so are NUL bytes at the start (a file cut while a writer kept
 * appending), counted for the first line (input_line_nuls).
 */
#ifndef GPUMEM_INPUT_H
#define GPUMEM_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Lines longer than this are skipped and reported (see input_getline). */
#define INPUT_MAXLINE (1U << 20)

struct input;

/*
 * Open path ("-" for stdin).  Return NULL with errno set when the file
 * cannot be opened.  A directory is refused with EISDIR.
 */
struct input *input_open(const char *path);

/*
 * Close and free.  Standard input is not closed, and what was read ahead
 * from it but not consumed is kept: the next input_open("-") goes on from
 * there, so a tool may peek at stdin (is it a task table?) and then hand
 * "-" to a reader that opens it again.
 */
void input_close(struct input *in);

/*
 * Give standard input back after looking at it: the next input_open("-")
 * returns in itself, with everything not yet consumed (peeked bytes
 * included) still to be read.  input_close() of stdin does the same; this
 * says so where it is meant.  in must be stdin.
 */
void input_keep(struct input *in);

/*
 * Whether the first n bytes of path (at most; "-": standard input, given
 * back) are what sniff says yes to.  0 when path cannot be opened: its
 * reader says why.
 */
int input_looks(const char *path, size_t n,
    int (*sniff)(const unsigned char *p, size_t n));

/* The name for messages: the path, or "<stdin>". */
const char *input_name(const struct input *in);

/* The compression the data was decoded from ("gzip", "zstd", "xz",
 * "bzip2"), or NULL when it was not compressed. */
const char *input_compression(const struct input *in);

/*
 * Whether the input is a regular file.  Else it is a pipe, a FIFO, a
 * socket or a terminal, where data may come over time and a read may
 * wait for it (a live input).
 */
int input_is_file(const struct input *in);

/*
 * The live reader's hook: fn(arg) is called before a read that would wait
 * for data (none is ready on a pipe, FIFO, socket or terminal), and after
 * a signal interrupted such a read, so that the caller can first pass on
 * what it holds (flush its output).  When fn returns non-zero, the input
 * ends there, as if its data had ended (a signal asked to stop).  One hook
 * for all inputs; NULL (the default) removes it.  Regular files never
 * wait and never call it.
 */
void input_set_wait_hook(int (*fn)(void *), void *arg);

/*
 * End every input as if its data had ended there: what was read is still
 * delivered, and so is what had reached a pipe, FIFO, socket or terminal
 * (the bytes waiting there at the input's next read, never more: a
 * writer that goes on cannot keep it going).  A regular file ends before
 * its next read.  For a signal handler (it only sets a flag): a read
 * waiting on a pipe ends when the signal comes: while a wait hook is
 * set, with SA_RESTART or not (the wait is a ppoll(2)); else provided
 * the handler was installed without SA_RESTART.
 */
void input_end_all(void);

/*
 * Look at the next n decompressed bytes without consuming them.  Store a
 * pointer in *p and return how many are available (fewer than n only at
 * the end of the data or on an error).  n is at most INPUT_MAXLINE.
 */
size_t input_peek(struct input *in, const unsigned char **p, size_t n);

/*
 * Look at all the decompressed bytes read ahead (at most INPUT_MAXLINE):
 * when no more than `have' are, first wait for more, as one read brings,
 * or for the end.  Return how many there are: no more than have means the
 * end of the data (or an error).  For sniffing a live input as it comes
 * without waiting for more than it has sent.
 */
size_t input_peek_more(struct input *in, const unsigned char **p,
    size_t have);

/*
 * Consume n of the bytes input_peek has just shown (no more than it
 * returned): a reader of records takes them in place, without a copy.
 */
void input_skip(struct input *in, size_t n);

/*
 * Read up to n decompressed bytes.  Return the count, 0 at the end, or -1
 * on an error (input_error() says what).
 */
ssize_t input_read(struct input *in, void *buf, size_t n);

/*
 * Read the next line.  On 1, *line points at the line (valid until the next
 * call) without its "\n" or "\r\n", NUL-terminated, and *len is its length.
 * A complete line is returned as soon as it is there: a read waits only
 * while no complete line is buffered, and returns what has come.
 * Return 0 at the end, -1 on an error, and 2 for a line longer than
 * INPUT_MAXLINE, which has been skipped (input_lineno() names it).
 */
int input_getline(struct input *in, char **line, size_t *len);

/*
 * The NUL bytes passed over before the line last returned: a line never
 * starts with NUL (input_getline drops them, and a UTF-8 byte order mark
 * after them: files joined with cat).  NUL bytes further in are the
 * line's.  Before the first line: those at the start of the input (all
 * of it when nothing else came).
 */
uint64_t input_line_nuls(const struct input *in);

/* "UTF-16LE" or "UTF-16BE" when the input was decoded, else NULL. */
const char *input_encoding(const struct input *in);

/* The number of the line last returned (1-based). */
uint64_t input_lineno(const struct input *in);

/*
 * Whether the line last returned had no "\n": the data ended inside it.
 * A log cut by a crash or a full disk ends so, inside a value ("10240 MiB"
 * cut to "10"), so a parser should not trust such a line as it trusts the
 * others (a file made by hand may just lack its last newline).
 */
int input_unterminated(const struct input *in);

/* The decompressed offset of the start of the line last returned. */
uint64_t input_offset(const struct input *in);

/* What went wrong after -1: "unexpected end of gzip data", "Is a directory"... */
const char *input_error(const struct input *in);

/*
 * Whether reading failed (an I/O error, damaged compressed data): 1, and
 * input_error() says what; 0 while the input reads well or ended well.
 * A read or peek that returns less than asked for is the end or a
 * failure, and this tells which.
 */
int input_failed(const struct input *in);

/*
 * A stdio stream reading the same decompressed data (for libpcap), from the
 * current position.  It belongs to the input: input_close() closes it.
 */
FILE *input_fopen(struct input *in);

/* Total compressed bytes read so far (for progress and benchmarks). */
uint64_t input_raw_bytes(const struct input *in);

#endif
