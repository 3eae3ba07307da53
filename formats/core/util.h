/* SPDX-License-Identifier: ISC */
/*
 * util.h: what every gpumem tool shares: exit codes, messages, checked
 * allocation, number and list parsing, and the end-of-output check.
 *
 * Messages follow one shape, "prog: where: what", on stderr.  Data goes to
 * stdout only.  Functions named e*() never return on failure: they print a
 * message and exit with EXIT_TROUBLE; they are for binaries, not for parsers,
 * which return errors so the caller can name the file and position.
 */
#ifndef GPUMEM_UTIL_H
#define GPUMEM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define GPUMEM_VERSION "0.1.0"

/* The exit status of every gpumem binary (see EXIT STATUS in each man page). */
enum exit_status {
	EXIT_OK = 0,		/* success, warnings allowed */
	EXIT_NO = 1,		/* a check said no: a gate failed */
	EXIT_TROUBLE = 2	/* usage, I/O, bad input under --strict */
};

/* Combine two statuses: trouble wins over "no", "no" over success. */
int exit_worst(int a, int b);

extern const char *progname;	/* "gpumem-read", set by util_init() */
extern int verbosity;		/* 0 with -q, 1 by default, 2 with -v */

/*
 * Set progname from argv[0] (its last path component) and restore the
 * default SIGPIPE action, so that "gpumem-x | head" ends quietly even when
 * a parent ignored SIGPIPE.
 */
void util_init(const char *argv0);

/* "prog: msg\n" on stderr.  A format ending in ':' appends strerror(errno). */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* msg() only when verbosity >= 1 (warnings) or >= 2 (progress). */
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* msg() then exit(EXIT_TROUBLE). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Our own bug: print where it happened and abort. */
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
void bug_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* Checked allocation: never return NULL. */
void *emalloc(size_t n);
void *ecalloc(size_t n, size_t size);
void *erealloc(void *p, size_t n);
void *ereallocarray(void *p, size_t n, size_t size);
/*
 * Room for element n of an array grown one element at a time (it holds n
 * now): the room doubles whenever n is 0 or a power of two, so adding n
 * elements copies O(n) bytes whatever the allocator (ASan's realloc always
 * copies).  Only for arrays grown by egrow() alone.
 */
void *egrow(void *p, size_t n, size_t size);
char *estrdup(const char *s);
char *estrndup(const char *s, size_t n);

/*
 * Strict decimal parsing of s[0..n): digits only, no sign, no spaces, in
 * range.  Return 0 and store the value, or -1.
 */
int parse_u64(const char *s, size_t n, uint64_t *out);
int parse_u32(const char *s, size_t n, uint32_t *out);

/*
 * An option argument that must be an integer in [min, max].  On failure
 * print "prog: OPTION: 'ARG': expected an integer (allowed MIN-MAX)" and
 * exit EXIT_TROUBLE.
 */
uint64_t opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max);

/*
 * A set of small unsigned integers given as "0,2,5-7" (for --gpu, --pid).
 * Membership is a sorted list of ranges.
 */
struct idset {
	size_t n;
	struct { uint32_t lo, hi; } *r;
};
/* Parse into *set (which must be zeroed); return 0, or -1 on bad syntax. */
int idset_parse(struct idset *set, const char *s);
int idset_has(const struct idset *set, uint32_t v);
void idset_release(struct idset *set);

/*
 * A growable byte buffer.  buf is always NUL-terminated (when cap > 0);
 * len does not count the NUL.
 */
struct sbuf {
	char *buf;
	size_t len, cap;
};
#define SBUF_INIT { NULL, 0, 0 }
void sbuf_grow_slow(struct sbuf *sb, size_t extra);

/* Room for extra more bytes (and the NUL). */
static inline void
sbuf_grow(struct sbuf *sb, size_t extra)
{
	if (extra >= sb->cap - sb->len || sb->cap == 0)
		sbuf_grow_slow(sb, extra);
}

static inline void
sbuf_add(struct sbuf *sb, const void *p, size_t n)
{
	sbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void
sbuf_addc(struct sbuf *sb, int c)
{
	sbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

static inline void
sbuf_adds(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}
void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sbuf_reset(struct sbuf *sb);

/* Make sb hold exactly p[0..n) (a copy, NUL-terminated). */
static inline void
sbuf_set(struct sbuf *sb, const void *p, size_t n)
{
	if (n + 1 > sb->cap) {
		sb->len = 0;
		sbuf_grow(sb, n);
	}
	if (n > 0)
		memcpy(sb->buf, p, n);
	sb->buf[n] = '\0';
	sb->len = n;
}
void sbuf_release(struct sbuf *sb);

/*
 * Write n bytes to f.  On EPIPE re-raise SIGPIPE (so "| head" ends quietly);
 * on any other error return -1 with errno set.
 */
int ewrite_file(FILE *f, const void *p, size_t n);

/*
 * Flush and close stdout; on failure print "prog: write error: ..." and
 * return EXIT_TROUBLE, else EXIT_OK.  Call it last in every main().
 */
int close_stdout(void);

/*
 * Output to a named file is written to a temporary file beside it and
 * renamed into place by outfile_commit(), so a failed run never leaves half
 * a report.  outfile_open("-") is stdout; an existing file that is not a
 * regular file (a device, a fifo) is written in place.  Temporary files are
 * removed on SIGINT/SIGTERM/SIGHUP and by outfile_abort().  The new file
 * keeps the mode of the one it replaces (a 0600 file stays 0600; root also
 * keeps its owner and group); a new file gets 0666 less the umask.
 */
struct outfile {
	FILE *f;
	char *path;	/* the final name, NULL for stdout */
	char *tmp;	/* the temporary name, NULL for stdout */
};
/* Return 0, or -1 with a message already printed. */
int outfile_open(struct outfile *o, const char *path);
/* Flush, check, close, rename.  Return 0, or -1 with a message printed. */
int outfile_commit(struct outfile *o);
void outfile_abort(struct outfile *o);

/*
 * The length of the valid UTF-8 sequence at p[0..n) (1 to 4), or 0 when
 * it is invalid (overlong, a surrogate, beyond U+10FFFF, cut short).
 */
size_t utf8_seq(const unsigned char *p, size_t n);

/*
 * The one sanitiser of text from the input (host and process names, file
 * names) on its way to a terminal, a message or a chart: copy s into buf
 * (cap bytes, at least 8) as valid UTF-8 without control characters, at
 * most maxchars characters (cut with "...").  C0 and C1 control
 * characters and DEL (ESC, CSI, OSC, BEL, line breaks) become spaces,
 * bytes that are not UTF-8 '?'.  msg() and its kin pass every message
 * through it.  Return buf.
 */
char *clean_text(const char *s, size_t maxchars, char *buf, size_t cap);

/* Print "prog (gpumem) VERSION" to stdout and exit 0. */
void print_version(void) __attribute__((noreturn));

/* Number of decimal digits written by fmt_u64 (at most 20, plus NUL). */
size_t fmt_u64(char *dst, uint64_t v);

#endif
